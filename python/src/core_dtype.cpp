// DataType <-> the plain Python description that frazil/datatypes.py turns into classes.
#include <nanobind/stl/string.h>

#include "core_common.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"

namespace frazil::py {

namespace {

TimeUnit unit_from_py(nb::handle h) {
  std::string s = nb::cast<std::string>(h);
  if (s == "ns") return TimeUnit::Nanoseconds;
  if (s == "us") return TimeUnit::Microseconds;
  if (s == "ms") return TimeUnit::Milliseconds;
  throw nb::value_error(("invalid time unit '" + s + "': expected 'ns', 'us' or 'ms'").c_str());
}

}  // namespace

nb::object dtype_to_py(const DataType& t) {
  switch (t.id()) {
    case TypeId::Datetime:
      return nb::make_tuple("Datetime", time_unit_name(t.time_unit()),
                            t.time_zone() ? nb::object(nb::str(t.time_zone()->c_str())) : nb::none());
    case TypeId::Duration: return nb::make_tuple("Duration", time_unit_name(t.time_unit()));
    case TypeId::Decimal: return nb::make_tuple("Decimal", t.precision(), t.scale());
    case TypeId::Enum: {
      nb::list cats;
      for (const auto& c : t.categories().strings()) cats.append(nb::str(c.c_str(), c.size()));
      return nb::make_tuple("Enum", cats);
    }
    case TypeId::List: return nb::make_tuple("List", dtype_to_py(t.inner()));
    case TypeId::Array: return nb::make_tuple("Array", dtype_to_py(t.inner()), t.width());
    case TypeId::Struct: {
      nb::list fields;
      for (const auto& f : t.fields()) fields.append(nb::make_tuple(f.name, dtype_to_py(f.dtype)));
      return nb::make_tuple("Struct", fields);
    }
    default: return nb::str(t.to_string().c_str());
  }
}

DataType dtype_from_py(nb::handle obj) {
  if (nb::isinstance<nb::str>(obj)) {
    std::string name = nb::cast<std::string>(obj);
    if (auto t = parse_dtype(name); t && !t->is_nested() && t->id() != TypeId::Datetime &&
                                    t->id() != TypeId::Duration)
      return *t;
    throw nb::value_error(("unknown data type '" + name + "'").c_str());
  }
  if (!nb::isinstance<nb::tuple>(obj) || nb::len(obj) < 1)
    throw nb::type_error("a data type description must be a name or a tuple");
  nb::tuple tup = nb::borrow<nb::tuple>(obj);
  std::string kind = nb::cast<std::string>(tup[0]);
  size_t n = nb::len(tup);
  if (kind == "Datetime" && n == 3) {
    std::optional<std::string> tz;
    if (!tup[2].is_none()) tz = nb::cast<std::string>(tup[2]);
    return DataType::datetime(unit_from_py(tup[1]), tz);
  }
  if (kind == "Duration" && n == 2) return DataType::duration(unit_from_py(tup[1]));
  if (kind == "Decimal" && n == 3) {
    int p = nb::cast<int>(tup[1]), s = nb::cast<int>(tup[2]);
    if (p < 1 || p > 38 || s < 0 || s > p)
      throw nb::value_error("Decimal precision must be 1..38 and scale 0..precision");
    return DataType::decimal(p, s);
  }
  if (kind == "List" && n == 2) return DataType::list(dtype_from_py(tup[1]));
  if (kind == "Array" && n == 3) {
    auto width = nb::cast<int64_t>(tup[2]);
    if (width < 0) throw nb::value_error("an Array's width cannot be negative");
    return DataType::array(dtype_from_py(tup[1]), width);
  }
  if (kind == "Enum" && n == 2) {
    std::vector<std::string> cats;
    for (nb::handle c : tup[1]) {
      if (c.is_none()) throw nb::value_error("Enum categories cannot contain null values");
      cats.push_back(nb::cast<std::string>(c));
    }
    return DataType::enum_(Categories::fixed(std::move(cats)));
  }
  if (kind == "Struct" && n == 2) {
    std::vector<Field> fields;
    for (nb::handle f : tup[1]) {
      nb::tuple ft = nb::borrow<nb::tuple>(f);
      fields.push_back(Field{nb::cast<std::string>(ft[0]), dtype_from_py(ft[1])});
    }
    return DataType::struct_(std::move(fields));
  }
  throw nb::value_error(("invalid data type description for '" + kind + "'").c_str());
}

}  // namespace frazil::py
