#include "frazil/compute/distinct.hpp"

#include <algorithm>
#include <numeric>

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/selection.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// Groups of equal values (within a segment when there are several).
Groups groups_of(const Array& values, Segments seg) {
  std::vector<ArrayRef> keys;
  const int64_t n = values.length();
  if (seg.size() > 2) {
    Buffer ids = alloc_values<uint32_t>(n);
    uint32_t* id = ids.mutable_as<uint32_t>();
    for (size_t k = 0; k + 1 < seg.size(); ++k) std::fill(id + seg[k], id + seg[k + 1], static_cast<uint32_t>(k));
    keys.push_back(make_fixed(DataType::uint32(), n, Buffer(), std::move(ids)));
  }
  keys.push_back(share(values));
  return group_rows(keys);
}

std::vector<uint32_t> counts_of(const Groups& g) {
  std::vector<uint32_t> c(g.num_groups(), 0);
  for (IdxSize id : g.group_ids) ++c[id];
  return c;
}

ArrayRef u32_array(const std::vector<uint32_t>& v) {
  Buffer b = alloc_values<uint32_t>(static_cast<int64_t>(v.size()));
  std::copy(v.begin(), v.end(), b.mutable_as<uint32_t>());
  return make_fixed(DataType::uint32(), static_cast<int64_t>(v.size()), Buffer(), std::move(b));
}

}  // namespace

ArrayRef distinct_test(DistinctTest test, const Array& values, Segments seg) {
  const int64_t n = values.length();
  check_segments(seg, n, "is_duplicated");
  if (values.dtype().is_nested())
    throw InvalidOperationError(err_msg("distinct tests are not supported for dtype `", values.dtype().short_name(), "`"));
  Buffer bits = alloc_bits(n);
  if (n == 0) return Array::make(DataType::boolean(), 0, Buffer(), {bits});
  const Groups g = groups_of(values, seg);
  const auto& ids = g.group_ids;
  uint8_t* out = bits.mutable_data();
  switch (test) {
    case DistinctTest::Duplicated:
    case DistinctTest::Unique: {
      const std::vector<uint32_t> c = counts_of(g);
      const bool dup = test == DistinctTest::Duplicated;
      for (int64_t i = 0; i < n; ++i) set_bit_to(out, i, (c[ids[i]] > 1) == dup);
      break;
    }
    case DistinctTest::FirstDistinct:
      for (int64_t i = 0; i < n; ++i) set_bit_to(out, i, g.first_rows[ids[i]] == static_cast<IdxSize>(i));
      break;
    case DistinctTest::LastDistinct: {
      std::vector<IdxSize> last(g.num_groups());
      for (int64_t i = 0; i < n; ++i) last[ids[i]] = static_cast<IdxSize>(i);
      for (int64_t i = 0; i < n; ++i) set_bit_to(out, i, last[ids[i]] == static_cast<IdxSize>(i));
      break;
    }
  }
  return Array::make(DataType::boolean(), n, Buffer(), {bits});
}

ArrayRef mode(const Array& values) {
  if (values.length() == 0) return values.slice(0, 0);
  const std::vector<int64_t> whole{0, values.length()};
  const Groups g = groups_of(values, whole);
  const std::vector<uint32_t> c = counts_of(g);
  const uint32_t best = *std::max_element(c.begin(), c.end());
  std::vector<IdxSize> rows;
  for (size_t k = 0; k < c.size(); ++k)
    if (c[k] == best) rows.push_back(g.first_rows[k]);
  return take(values, rows);
}

ArrayRef value_counts(const Array& values, const std::string& value_name, const std::string& count_name, bool sort,
                      bool normalize) {
  const int64_t n = values.length();
  Groups g;
  if (n) g = groups_of(values, std::vector<int64_t>{0, n});
  std::vector<uint32_t> c = counts_of(g);
  std::vector<size_t> order(c.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (sort) std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return c[a] > c[b]; });
  std::vector<IdxSize> rows;
  std::vector<uint32_t> counts;
  for (size_t k : order) {
    rows.push_back(g.first_rows[k]);
    counts.push_back(c[k]);
  }
  ArrayRef vals = take(values, rows);
  ArrayRef cnt;
  DataType count_type = DataType::uint32();
  if (normalize) {
    count_type = DataType::float64();
    Buffer b = alloc_values<double>(static_cast<int64_t>(counts.size()));
    double* p = b.mutable_as<double>();
    for (size_t k = 0; k < counts.size(); ++k) p[k] = static_cast<double>(counts[k]) / static_cast<double>(n);
    cnt = make_fixed(count_type, static_cast<int64_t>(counts.size()), Buffer(), std::move(b));
  } else {
    cnt = u32_array(counts);
  }
  return Array::make(DataType::struct_({{value_name, values.dtype()}, {count_name, count_type}}),
                     static_cast<int64_t>(rows.size()), Buffer(), {}, {vals, cnt});
}

ArrayRef unique_counts(const Array& values) {
  const int64_t n = values.length();
  if (n == 0) return u32_array({});
  return u32_array(counts_of(groups_of(values, std::vector<int64_t>{0, n})));
}

}  // namespace frazil::compute
