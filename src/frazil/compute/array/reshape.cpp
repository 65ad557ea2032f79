#include "frazil/compute/array/reshape.hpp"

#include <string>

#include "frazil/compute/array/layout.hpp"
#include "frazil/compute/explode.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {

namespace {

// The values of the innermost level: an Array's leaves; a List's values.
DataType leaf_dtype(const DataType& t) {
  DataType d = t;
  while (d.is_list_like()) d = d.inner();
  return d;
}

ArrayRef leaves(const Array& a) {
  if (a.dtype().id() == TypeId::Array) {
    ArrayRef r = regular_array(a);
    return leaves(*r->child(0)->slice(0, r->length() * a.dtype().width()));
  }
  if (a.dtype().id() == TypeId::List) return leaves(*explode(a));
  return a.slice(0, a.length());
}

std::string shape_text(const std::vector<int64_t>& dims, bool inferred_word) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += dims[i] < 0 && inferred_word ? "inferred" : std::to_string(dims[i]);
  }
  return s + ")";
}

}  // namespace

void reshape_check(const DataType&, const std::vector<int64_t>& dims) {
  if (dims.empty()) throw InvalidOperationError("reshape `dimensions` cannot be empty");
  int inferred = 0;
  for (int64_t d : dims) inferred += d < 0;
  if (inferred > 1) throw InvalidOperationError("can only specify one inferred dimension");
}

DataType reshape_dtype(const DataType& input, const std::vector<int64_t>& dims) {
  DataType t = leaf_dtype(input);
  // Inner dimensions are fixed widths; only the outermost may be inferred at run time.
  for (size_t k = dims.size(); k-- > 1;) {
    // The dtype is known before the values: only the first dimension may be inferred.
    if (dims[k] < 0)
      throw InvalidOperationError("reshape of an expression can only infer its first dimension (-1); give the "
                                  "others (Series.reshape infers any one)");
    t = DataType::array(t, dims[k]);
  }
  return t;
}

ArrayRef reshape(const Array& values, const std::vector<int64_t>& dims) {
  reshape_check(values.dtype(), dims);
  ArrayRef flat = leaves(values);
  const int64_t total = flat->length();
  int64_t known = 1, inferred_at = -1;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] < 0) inferred_at = static_cast<int64_t>(k);
    else known *= dims[k];
  }
  std::vector<int64_t> d = dims;
  if (total > 0 && known == 0)
    throw InvalidOperationError(err_msg("cannot reshape non-empty array into shape containing a zero dimension: ",
                                        shape_text(dims, false)));
  if (inferred_at >= 0) {
    if (known == 0 || total % known != 0)
      throw InvalidOperationError(
          err_msg("cannot reshape array of size ", total, " into shape ", shape_text(dims, true)));
    d[static_cast<size_t>(inferred_at)] = known == 0 ? 0 : total / known;
  } else if (known != total) {
    throw InvalidOperationError(err_msg("cannot reshape array of size ", total, " into shape ", shape_text(dims, false)));
  }
  ArrayRef out = flat;
  for (size_t k = d.size(); k-- > 1;) {
    const int64_t w = d[k];
    int64_t n = 1;  // rows of this level: the product of the outer dimensions
    for (size_t j = 0; j < k; ++j) n *= d[j];
    Buffer offsets = Buffer::allocate((n + 1) * sizeof(int64_t));
    for (int64_t i = 0; i <= n; ++i) offsets.mutable_as<int64_t>()[i] = i * w;
    out = Array::make(DataType::array(out->dtype(), w), n, Buffer(), {std::move(offsets)}, {out}, 0, 0);
  }
  return out;
}

}  // namespace frazil::compute
