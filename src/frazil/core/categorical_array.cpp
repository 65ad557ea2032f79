#include "frazil/core/categorical_array.hpp"

#include "frazil/core/builder.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"

namespace frazil {

ArrayRef decode_categorical(const Array& a) {
  FRAZIL_CHECK(a.dtype().is_categorical());
  const int64_t n = a.length();
  const std::vector<std::string_view> cats = a.dtype().categories().views();
  ViewBuilder b(DataType::string(), n);
  const uint32_t* c = a.values<uint32_t>();
  const bool nulls = a.null_count() > 0;
  for (int64_t i = 0; i < n; ++i) {
    if (nulls && a.is_null(i)) b.push_null();
    else b.push(cats[c[i]]);
  }
  return b.finish();
}

ArrayRef encode_categorical(const Array& a, const DataType& to) {
  FRAZIL_CHECK(to.is_categorical());
  const int64_t n = a.length();
  if (a.dtype().is_null()) return make_null_array(to, n);
  FRAZIL_CHECK(a.dtype().is_view());
  // Only the valid rows' strings are looked up (a null row must not add "" to the mapping).
  const bool nulls = a.null_count() > 0;
  std::vector<std::string_view> values;
  values.reserve(static_cast<size_t>(n - a.null_count()));
  for (int64_t i = 0; i < n; ++i)
    if (!nulls || a.is_valid(i)) values.push_back(a.str_value(i));
  // Every Categorical dtype shares the one global mapping, which grows here.
  auto& cats = const_cast<Categories&>(to.categories());
  std::vector<uint32_t> codes = cats.encode(values, !cats.is_fixed());
  Buffer out = Buffer::allocate(static_cast<size_t>(n) * 4);
  uint32_t* o = out.mutable_as<uint32_t>();
  ValidityBuilder valid;
  size_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    const bool present = !nulls || a.is_valid(i);
    const uint32_t code = present ? codes[k++] : UINT32_MAX;
    const bool ok = code != UINT32_MAX;
    o[i] = ok ? code : 0;
    valid.push(ok);
  }
  const int64_t nc = valid.null_count();
  return Array::make(to, n, valid.finish(), {std::move(out)}, {}, 0, nc);
}

DataType strings_for_categories(const DataType& t) {
  if (t.is_categorical()) return DataType::string();
  if (t.id() == TypeId::List) return DataType::list(strings_for_categories(t.inner()));
  if (t.id() == TypeId::Array) return DataType::array(strings_for_categories(t.inner()), t.width());
  if (t.id() == TypeId::Struct) {
    std::vector<Field> fields = t.fields();
    for (Field& f : fields) f.dtype = strings_for_categories(f.dtype);
    return DataType::struct_(std::move(fields));
  }
  return t;
}

}  // namespace frazil
