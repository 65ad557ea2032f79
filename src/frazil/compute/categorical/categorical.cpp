#include "frazil/compute/categorical/categorical.hpp"

#include "frazil/compute/cast.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/categorical_array.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {

using detail::aligned_validity;
using detail::alloc_values;
using detail::make_fixed;

ArrayRef categorical_to_string(const Array& a) { return decode_categorical(a); }

ArrayRef string_to_categorical(const Array& a, const DataType& to) { return encode_categorical(a, to); }

ArrayRef recode_categorical(const Array& a, const DataType& to) {
  if (a.dtype().categories_ptr() == to.categories_ptr() ||
      (a.dtype().id() == TypeId::Categorical && to.id() == TypeId::Categorical))
    return a.with_dtype(to);
  return string_to_categorical(*categorical_to_string(a), to);
}

DataType categorical_physical_dtype(const DataType& t) {
  if (t.id() == TypeId::Categorical) return DataType::uint32();
  const uint32_t n = t.categories().size();
  if (n <= (1U << 8)) return DataType::uint8();
  if (n <= (1U << 16)) return DataType::uint16();
  return DataType::uint32();
}

ArrayRef categorical_physical(const Array& a) {
  FRAZIL_CHECK(a.dtype().is_categorical());
  ArrayRef u32 = a.with_dtype(DataType::uint32());
  DataType p = categorical_physical_dtype(a.dtype());
  return p == DataType::uint32() ? u32 : cast(*u32, p, false);
}

ArrayRef categorical_from_physical(const Array& ints, const DataType& to, bool strict) {
  FRAZIL_CHECK(to.is_categorical());
  if (!ints.dtype().is_integer() && !ints.dtype().is_null())
    throw InvalidOperationError("cat.to needs integer codes, got " + ints.dtype().to_string());
  // As Polars: the codes are first read as the physical type (a value outside it, -1 or
  // 2^34 for a small Enum, becomes null); a code past the categories is the error.
  ArrayRef u = cast(*cast(ints, categorical_physical_dtype(to), false), DataType::uint32(), false);
  const int64_t n = u->length();
  const uint32_t size = to.categories().size();
  const uint32_t* p = u->values<uint32_t>();
  Buffer out = alloc_values<uint32_t>(n);
  uint32_t* o = out.mutable_as<uint32_t>();
  ValidityBuilder valid;
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const bool ok = u->is_valid(i) && p[i] < size;
    if (u->is_valid(i) && !ok) ++bad;
    o[i] = ok ? p[i] : 0;
    valid.push(ok);
  }
  if (strict && bad > 0)
    throw ComputeError(err_msg("cat.to: ", bad, " of ", n, " codes are not categories of ",
                                        to.to_string()));
  const int64_t nc = valid.null_count();
  return Array::make(to, n, valid.finish(), {std::move(out)}, {}, 0, nc);
}

ArrayRef categorical_order_key(const Array& a) {
  FRAZIL_CHECK(a.dtype().is_categorical());
  if (a.dtype().id() == TypeId::Enum) return a.with_dtype(DataType::uint32());
  const std::vector<uint32_t> rank = a.dtype().categories().lexical_ranks();
  return detail::unary_kernel<uint32_t, uint32_t>(a, DataType::uint32(), [&rank](uint32_t c) {
    return c < rank.size() ? rank[c] : 0;
  });
}

ArrayRef per_category(const Array& a, const std::function<ArrayRef(const Array&)>& f) {
  FRAZIL_CHECK(a.dtype().is_categorical());
  const std::vector<std::string_view> cats = a.dtype().categories().views();
  if (static_cast<int64_t>(cats.size()) > a.length()) return f(*categorical_to_string(a));
  ViewBuilder b(DataType::string(), static_cast<int64_t>(cats.size()));
  for (std::string_view c : cats) b.push(c);
  ArrayRef per = f(*b.finish());
  const int64_t n = a.length();
  std::vector<IdxSize> idx(static_cast<size_t>(n));
  const uint32_t* c = a.values<uint32_t>();
  const bool nulls = a.null_count() > 0;
  for (int64_t i = 0; i < n; ++i) idx[i] = nulls && a.is_null(i) ? kNullIdx : c[i];
  return take(*per, idx);
}

}  // namespace frazil::compute
