#include "frazil/compute/string/concat.hpp"

#include "frazil/compute/cast.hpp"
#include "frazil/compute/string/string_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

ArrayRef as_string(const ArrayRef& a) {
  if (a->dtype().is_string() || a->dtype().is_null()) return a;
  return cast(*a, DataType::string());
}

}  // namespace

ArrayRef str_concat_horizontal(std::span<const ArrayRef> inputs, const std::string& separator, bool ignore_nulls) {
  std::vector<ArrayRef> cols;
  int64_t n = 1;
  for (const auto& a : inputs) {
    cols.push_back(as_string(a));
    if (a->length() != 1) n = a->length();
  }
  for (const auto& c : cols)
    if (c->length() != 1 && c->length() != n)
      throw ShapeError(err_msg("arguments for `concat_str` have different lengths (", c->length(), " != ", n, ")"));
  ViewBuilder b(DataType::string(), n);
  std::string buf;
  for (int64_t i = 0; i < n; ++i) {
    buf.clear();
    bool null = false, first = true;
    for (const auto& c : cols) {
      const int64_t k = c->length() == 1 ? 0 : i;
      if (c->dtype().is_null() || c->is_null(k)) {
        if (!ignore_nulls) null = true;
        continue;
      }
      if (!first) buf += separator;
      buf.append(c->str_value(k));
      first = false;
    }
    if (null) b.push_null();
    else b.push(buf);
  }
  return b.finish();
}

ArrayRef str_join(const Array& values_in, const std::string& delimiter, bool ignore_nulls) {
  ArrayRef values = as_string(share(values_in));
  ViewBuilder b(DataType::string(), 1);
  std::string buf;
  bool first = true;
  for (int64_t i = 0; i < values->length(); ++i) {
    if (values->dtype().is_null() || values->is_null(i)) {
      if (!ignore_nulls) {
        b.push_null();
        return b.finish();
      }
      continue;
    }
    if (!first) buf += delimiter;
    buf.append(values->str_value(i));
    first = false;
  }
  b.push(buf);
  return b.finish();
}

ArrayRef str_concat(const Array& left, const Array& right) {
  require_string(left, "str.concat");
  require_string(right, "str.concat");
  const int64_t n = broadcast_length(left, right, "str.concat");
  bool all_null = false;
  Buffer validity = combine_validity(left, right, n, &all_null);
  if (all_null) return make_null_array(DataType::string(), n);
  const bool sa = is_broadcast(left, n), sb = is_broadcast(right, n);
  ViewWriter w(left, n);
  std::string buf;
  const uint8_t* vbits = validity.empty() ? nullptr : validity.data();
  for (int64_t i = 0; i < n; ++i) {
    if (vbits && !get_bit(vbits, i)) {
      w.push_null();
      continue;
    }
    const std::string_view a = left.str_value(sa ? 0 : i), b = right.str_value(sb ? 0 : i);
    if (b.empty() && !sa) {
      w.push_same(i);
      continue;
    }
    buf.assign(a);
    buf.append(b);
    w.push_new(buf);
  }
  return w.finish(std::move(validity));
}

}  // namespace frazil::compute
