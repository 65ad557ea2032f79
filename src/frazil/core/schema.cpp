#include "frazil/core/schema.hpp"

#include "frazil/core/error.hpp"
#include "frazil/core/suggest.hpp"

namespace frazil {

Schema::Schema(std::vector<Field> fields) {
  for (auto& f : fields) push(std::move(f));
}

std::optional<size_t> Schema::index_of(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

const DataType& Schema::dtype_of(const std::string& name) const {
  auto idx = index_of(name);
  if (!idx) {
    std::string avail;
    for (size_t i = 0; i < fields_.size() && i < 20; ++i)
      avail += (i ? ", " : "") + std::string("\"") + fields_[i].name + "\"";
    if (fields_.size() > 20) avail += ", ...";
    throw ColumnNotFoundError(err_msg("unable to find column \"", name, "\"; valid columns: [", avail, "]",
                                      did_you_mean_column(name, names())));
  }
  return fields_[*idx].dtype;
}

std::vector<std::string> Schema::names() const {
  std::vector<std::string> out;
  out.reserve(fields_.size());
  for (const auto& f : fields_) out.push_back(f.name);
  return out;
}

void Schema::set(const std::string& name, DataType dtype) {
  if (auto idx = index_of(name)) {
    fields_[*idx].dtype = std::move(dtype);
  } else {
    index_.emplace(name, fields_.size());
    fields_.push_back(Field{name, std::move(dtype)});
  }
}

void Schema::push(Field field) {
  if (index_.count(field.name))
    throw DuplicateError(err_msg("column with name '", field.name, "' has more than one occurrence"));
  index_.emplace(field.name, fields_.size());
  fields_.push_back(std::move(field));
}

std::string Schema::to_string() const {
  std::string s = "Schema([";
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) s += ", ";
    s += "('" + fields_[i].name + "', " + fields_[i].dtype.to_string() + ")";
  }
  return s + "])";
}

}  // namespace frazil
