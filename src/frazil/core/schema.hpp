// Schema: ordered, uniquely named fields with O(1) lookup by name.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frazil/core/dtype.hpp"

namespace frazil {

class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<Field> fields);  // throws DuplicateError on a repeated name

  size_t size() const { return fields_.size(); }
  bool empty() const { return fields_.empty(); }
  const std::vector<Field>& fields() const { return fields_; }
  const Field& field(size_t i) const { return fields_[i]; }
  std::optional<size_t> index_of(const std::string& name) const;
  bool contains(const std::string& name) const { return index_of(name).has_value(); }
  // Throws ColumnNotFoundError naming the column and the available ones.
  const DataType& dtype_of(const std::string& name) const;
  std::vector<std::string> names() const;

  // Appends, or replaces the dtype of an existing field in place (with_columns semantics).
  void set(const std::string& name, DataType dtype);
  void push(Field field);  // throws DuplicateError if present

  bool operator==(const Schema& other) const { return fields_ == other.fields_; }
  std::string to_string() const;  // Schema([('a', Int64), ('b', String)])

 private:
  std::vector<Field> fields_;
  std::unordered_map<std::string, size_t> index_;
};

using SchemaRef = std::shared_ptr<const Schema>;

}  // namespace frazil
