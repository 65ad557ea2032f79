#include "frazil/compute/struct/struct.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/json_string.hpp"

namespace frazil::compute {

namespace {

// `a` as n rows: itself, or its one row repeated.
ArrayRef broadcast_to(const ArrayRef& a, int64_t n, const std::string& name) {
  if (a->length() == n) return a;
  if (a->length() != 1)
    throw ShapeError(err_msg("struct field '", name, "' has length ", a->length(), " where the others have ", n));
  return take(*a, std::vector<IdxSize>(static_cast<size_t>(n), 0));
}

}  // namespace

size_t struct_field_index(const DataType& dtype, const std::string& name) {
  if (dtype.id() != TypeId::Struct)
    throw SchemaError(err_msg("invalid series dtype: expected `Struct`, got `", dtype.short_name(), "`"));
  const auto& fields = dtype.fields();
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == name) return i;
  std::string names;
  for (const auto& f : fields) names += (names.empty() ? "" : ", ") + f.name;
  throw StructFieldNotFoundError(err_msg("field not found: ", name, " (the struct has fields: ", names, ")"));
}

ArrayRef struct_from_fields(const std::vector<std::string>& names, std::span<const ArrayRef> fields) {
  FRAZIL_CHECK(names.size() == fields.size());
  std::unordered_set<std::string> seen;
  for (const auto& n : names)
    if (!seen.insert(n).second) throw DuplicateError(err_msg("multiple fields with name '", n, "' found"));
  int64_t n = fields.empty() ? 0 : 1;
  for (const auto& f : fields)
    if (f->length() != 1) n = f->length();
  std::vector<Field> dtype_fields;
  std::vector<ArrayRef> children;
  for (size_t i = 0; i < fields.size(); ++i) {
    dtype_fields.push_back({names[i], fields[i]->dtype()});
    children.push_back(broadcast_to(fields[i], n, names[i]));
  }
  return Array::make(DataType::struct_(std::move(dtype_fields)), n, Buffer(), {}, std::move(children));
}

ArrayRef struct_field(const Array& values, size_t index) {
  if (values.dtype().is_null()) return make_null_array(DataType::null(), values.length());
  ArrayRef child = values.child(index)->slice(values.offset(), values.length());
  if (values.null_count() == 0) return child;
  if (child->dtype().is_null()) return child;
  bool all_null = false;
  Buffer validity = detail::combine_validity(values, *child, values.length(), &all_null);
  return child->with_validity(std::move(validity));
}

std::vector<ArrayRef> struct_fields(const Array& values) {
  std::vector<ArrayRef> out;
  for (size_t i = 0; i < values.dtype().fields().size(); ++i) out.push_back(struct_field(values, i));
  return out;
}

ArrayRef struct_rename_fields(const Array& values, const std::vector<std::string>& names) {
  const auto& fields = values.dtype().fields();
  std::vector<Field> renamed;
  std::vector<ArrayRef> children;
  // Polars keeps the first min(fields, names) fields under their new names.
  const size_t k = std::min(fields.size(), names.size());
  for (size_t i = 0; i < k; ++i) {
    renamed.push_back({names[i], fields[i].dtype});
    children.push_back(values.child(i));
  }
  return Array::make(DataType::struct_(std::move(renamed)), values.length(), values.validity_buffer(), {},
                     std::move(children), values.offset(), values.has_validity() ? -1 : 0);
}

DataType struct_with_fields_dtype(const DataType& dtype, const std::vector<std::string>& names,
                                  std::span<const DataType> dtypes, StructFieldsBase base) {
  if (dtype.id() != TypeId::Struct) {
    if (base == StructFieldsBase::Drop)
      throw InvalidOperationError(err_msg("struct.eval operation not supported for dtype `", dtype.short_name(), "`"));
    throw SchemaError(err_msg("invalid series dtype: expected `Struct`, got `", dtype.short_name(), "`"));
  }
  std::vector<Field> fields = base == StructFieldsBase::Keep ? dtype.fields() : std::vector<Field>{};
  for (size_t i = 0; i < names.size(); ++i) {
    auto it = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.name == names[i]; });
    if (it != fields.end() && base == StructFieldsBase::Drop)
      throw DuplicateError(err_msg("field with name `", names[i], "` has more than one occurrence"));
    if (it != fields.end()) it->dtype = dtypes[i];
    else fields.push_back({names[i], dtypes[i]});
  }
  return DataType::struct_(std::move(fields));
}

ArrayRef struct_with_fields(const Array& values, const std::vector<std::string>& names,
                            std::span<const ArrayRef> fields, StructFieldsBase from) {
  const int64_t n = values.length() == 1 && !fields.empty() ? fields[0]->length() : values.length();
  ArrayRef base = values.length() == n ? values.slice(0, n) : broadcast_to(values.slice(0, 1), n, "struct");
  std::vector<Field> out_fields;
  std::vector<ArrayRef> children;
  if (from == StructFieldsBase::Keep) {
    out_fields = base->dtype().fields();
    for (size_t i = 0; i < out_fields.size(); ++i) children.push_back(base->child(i)->slice(base->offset(), n));
  }
  for (size_t i = 0; i < names.size(); ++i) {
    ArrayRef f = broadcast_to(fields[i], n, names[i]);
    auto it = std::find_if(out_fields.begin(), out_fields.end(), [&](const Field& x) { return x.name == names[i]; });
    if (it != out_fields.end() && from == StructFieldsBase::Drop)
      throw DuplicateError(err_msg("field with name `", names[i], "` has more than one occurrence"));
    if (it != out_fields.end()) {
      it->dtype = f->dtype();
      children[static_cast<size_t>(it - out_fields.begin())] = f;
    } else {
      out_fields.push_back({names[i], f->dtype()});
      children.push_back(f);
    }
  }
  Buffer validity = base->null_count() > 0 ? detail::aligned_validity(*base) : Buffer();
  return Array::make(DataType::struct_(std::move(out_fields)), n, std::move(validity), {}, std::move(children));
}

namespace {

template <typename T>
void append_number(std::string& out, T v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_float(std::string& out, double v, bool is_float32) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[64];
  auto r = is_float32 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v)) : std::to_chars(buf, buf + sizeof buf, v);
  std::string_view s(buf, static_cast<size_t>(r.ptr - buf));
  out += s;
  if (s.find_first_of(".e") == std::string_view::npos) out += ".0";
}

// Row i of `a` (its own row index: children of structs are read at offset + i).
void append_value(std::string& out, const Array& a, int64_t i) {
  if (a.is_null(i)) {
    out += "null";
    return;
  }
  const DataType& t = a.dtype();
  switch (t.id()) {
    case TypeId::Boolean: out += a.bool_value(i) ? "true" : "false"; return;
    case TypeId::Int8: append_number(out, a.values<int8_t>()[i]); return;
    case TypeId::Int16: append_number(out, a.values<int16_t>()[i]); return;
    case TypeId::Int32: append_number(out, a.values<int32_t>()[i]); return;
    case TypeId::Int64: append_number(out, a.values<int64_t>()[i]); return;
    case TypeId::UInt8: append_number(out, a.values<uint8_t>()[i]); return;
    case TypeId::UInt16: append_number(out, a.values<uint16_t>()[i]); return;
    case TypeId::UInt32: append_number(out, a.values<uint32_t>()[i]); return;
    case TypeId::UInt64: append_number(out, a.values<uint64_t>()[i]); return;
    case TypeId::Float32: append_float(out, a.values<float>()[i], true); return;
    case TypeId::Float64: append_float(out, a.values<double>()[i], false); return;
    case TypeId::String:
    case TypeId::Binary: append_json_string(out, a.str_value(i)); return;
    case TypeId::Array:
    case TypeId::List: {
      const int64_t* o = a.list_offsets();
      out += '[';
      for (int64_t j = o[i]; j < o[i + 1]; ++j) {
        if (j > o[i]) out += ',';
        append_value(out, *a.child(0), j);
      }
      out += ']';
      return;
    }
    case TypeId::Struct: {
      out += '{';
      for (size_t f = 0; f < t.fields().size(); ++f) {
        if (f) out += ',';
        append_json_string(out, t.fields()[f].name);
        out += ':';
        append_value(out, *a.child(f), a.offset() + i);
      }
      out += '}';
      return;
    }
    case TypeId::Duration: {
      // ISO 8601 as Polars writes it: PT86425S, PT1.5S, -PT86400S.
      const int64_t per_second = t.time_unit() == TimeUnit::Nanoseconds ? 1000000000 : t.time_unit() == TimeUnit::Microseconds ? 1000000 : 1000;
      const int64_t v = a.values<int64_t>()[i];
      const uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
      std::string frac = std::to_string(mag % uint64_t(per_second));
      frac = std::string(std::to_string(per_second).size() - 1 - frac.size(), '0') + frac;
      while (!frac.empty() && frac.back() == '0') frac.pop_back();
      out += v < 0 ? "\"-PT" : "\"PT";
      out += std::to_string(mag / uint64_t(per_second));
      if (!frac.empty()) out += "." + frac;
      out += "S\"";
      return;
    }
    default: {
      // Dates, datetimes, times and decimals as their text (one value cast to String); a
      // datetime's all-zero fraction is left out, as Polars writes it.
      ArrayRef s = cast(*a.slice(i, 1), DataType::string());
      std::string text(s->str_value(0));
      if (t.id() == TypeId::Datetime) {
        const size_t dot = text.find('.');
        if (dot != std::string::npos && text.find_first_not_of('0', dot + 1) >= text.find_first_not_of("0123456789", dot + 1))
          text.erase(dot, text.find_first_not_of("0123456789", dot + 1) - dot);
      }
      if (t.is_128_bit_integer()) out += text;  // decimals are quoted, as Polars writes them
      else append_json_string(out, text);
      return;
    }
  }
}

}  // namespace

ArrayRef struct_json_encode(const Array& values) {
  ViewBuilder b(DataType::string(), values.length());
  std::string row;
  for (int64_t i = 0; i < values.length(); ++i) {
    row.clear();
    append_value(row, values, i);
    b.push(row);
  }
  return b.finish();
}

}  // namespace frazil::compute
