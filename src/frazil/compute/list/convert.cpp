#include "frazil/compute/list/convert.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/list/elements.hpp"
#include "frazil/compute/list/list_util.hpp"

namespace frazil::compute {

using list_detail::broadcast_length;
using list_detail::ListGather;
using list_detail::Lists;

ArrayRef list_to_struct(const Array& list, const std::vector<std::string>& fields) {
  std::vector<Field> fs;
  std::vector<ArrayRef> children;
  const DataType inner = list.dtype().id() == TypeId::List ? list.dtype().inner() : DataType::null();
  for (size_t i = 0; i < fields.size(); ++i) {
    PrimitiveBuilder<int64_t> b(DataType::int64(), 1);
    b.push(static_cast<int64_t>(i));
    ArrayRef idx = b.finish();
    children.push_back(list.dtype().id() == TypeId::List ? list_get(list, *idx, true)
                                                         : make_null_array(inner, list.length()));
    fs.push_back(Field{fields[i], inner});
  }
  ValidityBuilder v;
  for (int64_t i = 0; i < list.length(); ++i) v.push(list.is_valid(i));
  const int64_t nulls = v.null_count();
  return Array::make(DataType::struct_(std::move(fs)), list.length(), v.finish(), {}, std::move(children), 0, nulls);
}

ArrayRef list_item(const Array& list, bool allow_empty) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.item");
  std::vector<IdxSize> idx(static_cast<size_t>(l.size()), kNullIdx);
  for (int64_t i = 0; i < l.size(); ++i) {
    if (!l.valid(i)) continue;
    const int64_t len = l.len(i);
    if (len == 1) idx[static_cast<size_t>(i)] = static_cast<IdxSize>(l.start(i));
    else if (!(len == 0 && allow_empty))
      throw ComputeError(err_msg("aggregation 'item' expected a single value, got ", len, " values (in row ", i, ")"));
  }
  return take(*l.values(), idx);
}

ArrayRef list_sample(const Array& list, const Array& n_or_fraction, bool is_fraction, bool with_replacement,
                     bool shuffle, std::optional<uint64_t> seed) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.sample");
  ArrayRef arg = cast(n_or_fraction, is_fraction ? DataType::float64() : DataType::int64());
  const int64_t rows = broadcast_length(l.size(), arg->length(), "list.sample");
  std::mt19937_64 rng(seed ? *seed : std::random_device{}());
  ListGather g(rows);
  std::vector<int64_t> pick;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t r = l.size() == 1 ? 0 : i;
    const int64_t j = arg->length() == 1 ? 0 : i;
    const bool valid = l.valid(r) && arg->is_valid(j);
    if (valid) {
      const int64_t len = l.len(r);
      if (is_fraction && !with_replacement) {
        const double f = arg->values<double>()[j];
        if (!(f >= 0.0 && f <= 1.0)) throw ComputeError(err_msg("fraction must be between 0.0 and 1.0, got: ", f));
      }
      const int64_t k = is_fraction ? static_cast<int64_t>(arg->values<double>()[j] * static_cast<double>(len))
                                    : arg->values<int64_t>()[j];
      if (k < 0) throw ComputeError(err_msg("list.sample: the sample size must be non-negative, got ", k));
      if (!with_replacement && k > len)
        throw ShapeError(err_msg("cannot take a larger sample than the total population when `with_replacement=false` "
                                 "(sample size: ", k, ", population: ", len, ")"));
      pick.clear();
      if (with_replacement) {
        // An empty list gives an empty sample (Polars), whatever k is.
        std::uniform_int_distribution<int64_t> d(0, std::max<int64_t>(len - 1, 0));
        for (int64_t q = 0; len > 0 && q < k; ++q) pick.push_back(d(rng));
      } else {
        pick.resize(static_cast<size_t>(len));
        std::iota(pick.begin(), pick.end(), 0);
        for (int64_t q = 0; q < k; ++q) {  // partial Fisher-Yates: the first k positions
          std::uniform_int_distribution<int64_t> d(q, len - 1);
          std::swap(pick[static_cast<size_t>(q)], pick[static_cast<size_t>(d(rng))]);
        }
        pick.resize(static_cast<size_t>(k));
      }
      if (!shuffle) std::sort(pick.begin(), pick.end());
      for (int64_t p : pick) g.push(static_cast<IdxSize>(l.start(r) + p));
    }
    g.end_row(valid);
  }
  return g.finish(*l.values());
}

}  // namespace frazil::compute
