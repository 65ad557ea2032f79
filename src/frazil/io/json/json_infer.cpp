#include "frazil/io/json/json_infer.hpp"

#include <vector>

namespace frazil::io::json {

DataType infer_value(simdjson::dom::element v) {
  using simdjson::dom::element_type;
  switch (v.type()) {
    case element_type::NULL_VALUE: return DataType::null();
    case element_type::BOOL: return DataType::boolean();
    case element_type::INT64: return DataType::int64();
    case element_type::UINT64: return DataType::int128();  // beyond Int64, as Polars
    case element_type::DOUBLE: return DataType::float64();
    case element_type::STRING: return DataType::string();
    case element_type::ARRAY: {
      DataType inner = DataType::null();
      for (simdjson::dom::element e : simdjson::dom::array(v.get_array().value())) inner = merge_types(inner, infer_value(e));
      return DataType::list(inner);
    }
    case element_type::OBJECT: {
      std::vector<Field> fields;
      for (auto kv : simdjson::dom::object(v.get_object().value())) {
        const std::string key(kv.key);
        DataType t = infer_value(kv.value);
        bool found = false;
        for (auto& f : fields)
          if (f.name == key) {
            f.dtype = merge_types(f.dtype, t);
            found = true;
          }
        if (!found) fields.push_back(Field{key, t});
      }
      return DataType::struct_(std::move(fields));
    }
  }
  return DataType::string();
}

DataType merge_types(const DataType& a, const DataType& b) {
  if (a == b) return a;
  if (a.is_null()) return b;
  if (b.is_null()) return a;
  // Int64 and Int128 (integers beyond Int64) stay integers; with floats, Float64.
  const auto wide_int = [](const DataType& t) { return t.id() == TypeId::Int64 || t.id() == TypeId::Int128; };
  if (wide_int(a) && wide_int(b)) return DataType::int128();
  if (a.is_numeric() && b.is_numeric()) return DataType::float64();
  if (a.id() == TypeId::List && b.id() == TypeId::List) return DataType::list(merge_types(a.inner(), b.inner()));
  if (a.id() == TypeId::Struct && b.id() == TypeId::Struct) {
    std::vector<Field> fields = a.fields();
    for (const auto& g : b.fields()) {
      bool found = false;
      for (auto& f : fields)
        if (f.name == g.name) {
          f.dtype = merge_types(f.dtype, g.dtype);
          found = true;
        }
      if (!found) fields.push_back(g);
    }
    return DataType::struct_(std::move(fields));
  }
  return DataType::string();
}

}  // namespace frazil::io::json
