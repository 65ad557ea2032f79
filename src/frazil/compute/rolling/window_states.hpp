// The running states of the rolling kernels (rolling.cpp): each takes rows entering and
// leaving its window, in row order, and gives the window's aggregate. Internal to rolling.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "frazil/compute/rank.hpp"

namespace frazil::compute::rolling_detail {

// ---- sums ----------------------------------------------------------------------------

// Integers: an exact 128-bit sum.
struct IntSum {
  __int128 sum = 0;
  void reset() { sum = 0; }
  void add(double, __int128 v) { sum += v; }
  void remove(double, __int128 v) { sum -= v; }
};

// Floats: Kahan-compensated running sums (one error term for additions, one for
// subtractions), with NaN and infinities counted apart so one does not poison the sum.
struct FloatSum {
  double sum = 0, err_add = 0, err_sub = 0;
  int64_t nan = 0, pos_inf = 0, neg_inf = 0;
  void reset() { *this = FloatSum(); }
  void add(double v) {
    if (std::isfinite(v)) {
      const double y = v - err_add, t = sum + y;
      err_add = (t - sum) - y;
      sum = t;
    } else {
      count_non_finite(v, 1);
    }
  }
  void remove(double v) {
    if (std::isfinite(v)) {
      const double y = -v - err_sub, t = sum + y;
      err_sub = (t - sum) - y;
      sum = t;
    } else {
      count_non_finite(v, -1);
    }
  }
  void count_non_finite(double v, int d) {
    if (std::isnan(v)) nan += d;
    else if (v > 0) pos_inf += d;
    else neg_inf += d;
  }
  double value() const {
    if (nan || (pos_inf && neg_inf)) return std::numeric_limits<double>::quiet_NaN();
    if (pos_inf) return std::numeric_limits<double>::infinity();
    if (neg_inf) return -std::numeric_limits<double>::infinity();
    return sum;
  }
};

// ---- min / max -----------------------------------------------------------------------

// A monotonic deque of row numbers: the front is the window's extreme; NaN propagates. The
// deque is a ring over a power-of-two buffer that grows when a window needs more room.
template <typename T>
struct Extreme {
  const T* v;
  bool want_max;
  std::vector<int64_t> ring = std::vector<int64_t>(64);
  size_t head = 0, size = 0;  // q[k] = ring[(head + k) & mask]
  int64_t nan = 0;
  size_t mask() const { return ring.size() - 1; }
  void reset() {
    head = size = 0;
    nan = 0;
  }
  void add(int64_t i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v[i])) {
        ++nan;
        return;
      }
    }
    const T x = v[i];
    while (size && (want_max ? v[ring[(head + size - 1) & mask()]] <= x : v[ring[(head + size - 1) & mask()]] >= x))
      --size;
    if (size == ring.size()) grow();
    ring[(head + size++) & mask()] = i;
  }
  void remove(int64_t i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v[i])) {
        --nan;
        return;
      }
    }
    if (size && ring[head] == i) {
      head = (head + 1) & mask();
      --size;
    }
  }
  bool has_value() const { return nan > 0 || size > 0; }
  T value() const {
    if constexpr (std::is_floating_point_v<T>) {
      if (nan) return std::numeric_limits<T>::quiet_NaN();
    }
    return v[ring[head]];
  }
  void grow() {
    std::vector<int64_t> next(ring.size() * 2);
    for (size_t k = 0; k < size; ++k) next[k] = ring[(head + k) & mask()];
    ring.swap(next);
    head = 0;
  }
};

// ---- moments -------------------------------------------------------------------------

// Polars' moment states (polars-compute/src/moment.rs): insert one value or combine two.
struct Moments {
  double weight = 0, mean = 0, m2 = 0, m3 = 0, m4 = 0;
  void insert(double x) {
    const double nw = weight + 1.0;
    const double dm = x - mean;
    const double dmw = dm / nw;
    const double new_mean = mean + dmw;
    const double wd = weight - 1.0;
    const double m2u = (x - new_mean) * dm;
    const double nm2 = m2 + m2u;
    const double nm3 = m3 + dmw * (m2u * wd - 3.0 * m2);
    const double nm4 = m4 + dmw * (dmw * (m2u * (weight * wd + 1.0) + 6.0 * m2) - 4.0 * m3);
    weight = nw;
    mean = new_mean;
    m2 = nm2;
    m3 = nm3;
    m4 = nm4;
    if (weight == 0) mean = m2 = m3 = m4 = 0;
  }
  void combine(const Moments& o) {
    if (o.weight == 0) return;
    if (weight == 0) {
      *this = o;
      return;
    }
    const double nw = weight + o.weight;
    const double dm = o.mean - mean;
    const double dmw = dm / nw;
    const double new_mean = mean + o.weight * dmw;
    const double wd = weight - o.weight;
    const double sw_om2 = weight * o.m2, ow_sm2 = o.weight * m2;
    const double m2u = o.weight * (o.mean - new_mean) * dm;
    const double nm2 = m2 + o.m2 + m2u;
    const double nm3 = m3 + o.m3 + dmw * (m2u * wd + 3.0 * (sw_om2 - ow_sm2));
    const double nm4 = m4 + o.m4 +
                       dmw * (dmw * (m2u * (weight * wd + o.weight * o.weight) + 6.0 * (weight * sw_om2 + o.weight * ow_sm2)) +
                              4.0 * (weight * o.m3 - o.weight * m3));
    weight = nw;
    mean = new_mean;
    m2 = nm2;
    m3 = nm3;
    m4 = nm4;
  }
  std::optional<double> var(int ddof) const {
    if (weight <= ddof) return std::nullopt;
    const double v = m2 / (weight - ddof);
    return v < 0 ? 0.0 : v;
  }
  std::optional<double> skew(bool bias) const {
    const double a = m2 / weight, b = m3 / weight;
    const bool zero = a <= std::pow(std::numeric_limits<double>::epsilon() * mean, 2);
    const double est = zero ? std::numeric_limits<double>::quiet_NaN() : b / std::pow(a, 1.5);
    if (bias) return weight == 0 ? std::nullopt : std::optional<double>(est);
    if (weight <= 2) return std::nullopt;
    return std::sqrt(weight * (weight - 1.0)) / (weight - 2.0) * est;
  }
  std::optional<double> kurtosis(bool fisher, bool bias) const {
    const double a = m2 / weight, d = m4 / weight;
    const bool zero = a <= std::pow(std::numeric_limits<double>::epsilon() * mean, 2);
    const double est = zero ? std::numeric_limits<double>::quiet_NaN() : d / (a * a);
    double out;
    if (bias) {
      if (weight == 0) return std::nullopt;
      out = est;
    } else {
      if (weight <= 3) return std::nullopt;
      const double n = weight;
      out = (n - 1.0) / (n - 2.0) * ((n + 1.0) / (n - 3.0) * est - 3.0 * (n - 1.0) / (n - 3.0)) + 3.0;
    }
    return fisher ? out - 3.0 : out;
  }
};

// A queue of values with its moments, as two stacks: pushes go to the back (one running
// state), pops take the front, whose stack holds the state of each suffix. Non-finite
// values count as 0.0 and make the result NaN (as Polars).
struct MomentQueue {
  std::vector<Moments> front;
  std::vector<double> back;
  Moments back_state;
  int64_t non_finite = 0;
  void reset() {
    front.clear();
    back.clear();
    back_state = Moments();
    non_finite = 0;
  }
  void push(double x) {
    if (!std::isfinite(x)) {
      ++non_finite;
      x = 0.0;
    }
    back.push_back(x);
    back_state.insert(x);
  }
  void pop(double x) {
    if (front.empty()) {
      Moments m;
      while (!back.empty()) {
        m.insert(back.back());
        back.pop_back();
        front.push_back(m);
      }
      back_state = Moments();
    }
    front.pop_back();
    non_finite -= !std::isfinite(x);
  }
  Moments state() const {
    Moments m = back_state;
    if (!front.empty()) m.combine(front.back());
    return m;
  }
};

// ---- quantiles -----------------------------------------------------------------------

// NaN above every number.
inline bool total_less(double a, double b) { return a < b || (b != b && a == a); }

// Two heaps split at the k-th smallest value: `lo` (a max-heap) holds the k smallest of the
// window, `hi` (a min-heap) the rest. Rows leave lazily: a row below the window's start is
// dropped when it reaches a top, and each heap counts its live rows. Heaps holding mostly
// dead rows are compacted.
class QuantileHeaps {
 public:
  explicit QuantileHeaps(const double* v, int64_t n) : v_(v), side_(static_cast<size_t>(n), 0) {}
  void reset(int64_t start) {
    lo_.clear();
    hi_.clear();
    lo_live_ = hi_live_ = 0;
    start_ = start;
  }
  void add(int64_t i) {
    prune(lo_, true);
    if (lo_live_ > 0 && !total_less(top_value(lo_), v_[i])) {
      push(lo_, i, true);
    } else {
      push(hi_, i, false);
    }
  }
  // Row i leaves (every row before `start` has left).
  void remove(int64_t i, int64_t start) {
    start_ = start;
    if (side_[i] == kLo) --lo_live_;
    else --hi_live_;
    side_[i] = kGone;
  }
  int64_t live() const { return lo_live_ + hi_live_; }
  // The (k+1)-th smallest (k 0-based) and the next one (or the same when there is none).
  std::pair<double, double> kth(int64_t k) {
    while (lo_live_ > k + 1) move(lo_, true, hi_, false);
    while (lo_live_ < k + 1 && hi_live_ > 0) move(hi_, false, lo_, true);
    prune(lo_, true);
    prune(hi_, false);
    const double a = top_value(lo_);
    const double b = hi_live_ > 0 ? top_value(hi_) : a;
    return {a, b};
  }

 private:
  static constexpr uint8_t kGone = 0, kLo = 1, kHi = 2;
  // Heap order: lo is a max-heap, hi a min-heap; ties broken by row number.
  bool lo_less(int64_t a, int64_t b) const {  // a below b in lo
    return total_less(v_[a], v_[b]) || (!total_less(v_[b], v_[a]) && a < b);
  }
  auto cmp(bool lo) const {
    return [this, lo](int64_t a, int64_t b) { return lo ? lo_less(a, b) : lo_less(b, a); };
  }
  double top_value(const std::vector<int64_t>& h) const { return v_[h.front()]; }
  void push(std::vector<int64_t>& h, int64_t i, bool lo) {
    h.push_back(i);
    std::push_heap(h.begin(), h.end(), cmp(lo));
    side_[i] = lo ? kLo : kHi;
    (lo ? lo_live_ : hi_live_)++;
    if (h.size() > 64 && static_cast<int64_t>(h.size()) > 4 * (lo ? lo_live_ : hi_live_)) compact(h, lo);
  }
  void prune(std::vector<int64_t>& h, bool lo) {
    while (!h.empty() && side_[h.front()] != (lo ? kLo : kHi)) {
      std::pop_heap(h.begin(), h.end(), cmp(lo));
      h.pop_back();
    }
  }
  void move(std::vector<int64_t>& from, bool from_lo, std::vector<int64_t>& to, bool to_lo) {
    prune(from, from_lo);
    const int64_t i = from.front();
    std::pop_heap(from.begin(), from.end(), cmp(from_lo));
    from.pop_back();
    (from_lo ? lo_live_ : hi_live_)--;
    push(to, i, to_lo);
  }
  void compact(std::vector<int64_t>& h, bool lo) {
    const uint8_t want = lo ? kLo : kHi;
    std::erase_if(h, [&](int64_t i) { return side_[i] != want; });
    std::make_heap(h.begin(), h.end(), cmp(lo));
  }

  const double* v_;
  std::vector<uint8_t> side_;
  std::vector<int64_t> lo_, hi_;
  int64_t lo_live_ = 0, hi_live_ = 0;
  int64_t start_ = 0;
};

// The window's values in one sorted vector (total order; equal values in row order), for
// short windows (the places are found by counting: O(window) per row, but vectorized). Rows leave in row order, so the row leaving is the first of its equals.
class SortedValues {
 public:
  SortedValues(const double* v, int64_t capacity) : v_(v) { s_.reserve(static_cast<size_t>(capacity) + 1); }
  void reset(int64_t) { s_.clear(); }
  void add(int64_t i) {
    const double x = v_[i];
    s_.insert(s_.begin() + static_cast<std::ptrdiff_t>(upper(x)), x);
  }
  void remove(int64_t i, int64_t) { s_.erase(s_.begin() + static_cast<std::ptrdiff_t>(lower(v_[i]))); }
  // Row `in` enters as the oldest row `out` leaves: one move of the values between their places.
  void slide(int64_t in, int64_t out) {
    const double x = v_[in];
    double* b = s_.data();
    const size_t po = lower(v_[out]), pn = upper(x);
    if (pn > po) {
      std::memmove(b + po, b + po + 1, (pn - po - 1) * sizeof(double));
      b[pn - 1] = x;
    } else {
      std::memmove(b + pn + 1, b + pn, (po - pn) * sizeof(double));
      b[pn] = x;
    }
  }
  // The (k+1)-th smallest (k 0-based) and the next one (or the same when there is none).
  std::pair<double, double> kth(int64_t k) const {
    const auto j = static_cast<size_t>(k);
    return {s_[j], j + 1 < s_.size() ? s_[j + 1] : s_[j]};
  }

 private:
  // The places by counting (vectorized, no chain of dependent loads as in a binary search):
  // the first place whose value is not below x (lower) or is above x (upper); NaN is above
  // every number and equal to NaN.
  size_t lower(double x) const {
    const double* b = s_.data();
    const size_t n = s_.size();
    size_t c = 0;
    if (x != x) {
      for (size_t i = 0; i < n; ++i) c += b[i] == b[i];
    } else {
      for (size_t i = 0; i < n; ++i) c += b[i] < x;
    }
    return c;
  }
  size_t upper(double x) const {
    const double* b = s_.data();
    const size_t n = s_.size();
    if (x != x) return n;
    size_t c = 0;
    for (size_t i = 0; i < n; ++i) c += b[i] <= x;
    return c;
  }

  const double* v_;
  std::vector<double> s_;
};

// The position (0-based) in a sorted window of `count` values the quantile reads, and the
// weight of the next one (linear) or -1 for midpoint; Polars' rules.
enum class QuantileMethod : uint8_t { Nearest, Lower, Higher, Midpoint, Linear, Equiprobable };
inline QuantileMethod quantile_method(const std::string& name) {
  if (name == "linear") return QuantileMethod::Linear;
  if (name == "midpoint") return QuantileMethod::Midpoint;
  if (name == "lower") return QuantileMethod::Lower;
  if (name == "higher") return QuantileMethod::Higher;
  if (name == "nearest") return QuantileMethod::Nearest;
  return QuantileMethod::Equiprobable;
}
struct QuantilePick {
  int64_t idx;
  int64_t top;
  double frac;
};
inline QuantilePick pick_quantile(int64_t count, double q, QuantileMethod method) {
  const double f = static_cast<double>(count - 1) * q;
  const int64_t last = count - 1;
  if (method == QuantileMethod::Linear || method == QuantileMethod::Midpoint) {
    const int64_t lo = std::min<int64_t>(static_cast<int64_t>(std::floor(f)), last);
    const int64_t hi = std::min<int64_t>(static_cast<int64_t>(std::ceil(f)), last);
    return {lo, hi, method == QuantileMethod::Linear ? f - static_cast<double>(lo) : 0.5};
  }
  int64_t idx;
  if (method == QuantileMethod::Nearest) idx = static_cast<int64_t>(std::round(f));
  else if (method == QuantileMethod::Lower) idx = static_cast<int64_t>(std::floor(f));
  else if (method == QuantileMethod::Higher) idx = static_cast<int64_t>(std::ceil(f));
  else idx = std::max<int64_t>(static_cast<int64_t>(std::ceil(static_cast<double>(count) * q)) - 1, 0);  // equiprobable
  idx = std::min(idx, last);
  return {idx, idx, 0.0};
}

// ---- rank ----------------------------------------------------------------------------

// The window's values kept sorted (total order), for the rank of one value among them.
class SortedWindow {
 public:
  void reset() { v_.clear(); }
  void add(double x) { v_.insert(std::upper_bound(v_.begin(), v_.end(), x, total_less), x); }
  void remove(double x) {
    auto it = std::lower_bound(v_.begin(), v_.end(), x, total_less);
    if (it != v_.end()) v_.erase(it);
  }
  // The rank of x (present in the window) by method.
  double rank(double x, RankMethod m, std::mt19937_64& rng) const {
    const auto lo = std::lower_bound(v_.begin(), v_.end(), x, total_less);
    const auto hi = std::upper_bound(v_.begin(), v_.end(), x, total_less);
    const double less = static_cast<double>(lo - v_.begin());
    const double equal = static_cast<double>(hi - lo);
    switch (m) {
      case RankMethod::Average: return less + (equal + 1.0) / 2.0;
      case RankMethod::Min: return less + 1.0;
      case RankMethod::Max: return less + equal;
      case RankMethod::Dense: {
        double distinct = 0;
        for (auto it = v_.begin(); it != lo; ++it)
          if (it == v_.begin() || total_less(*(it - 1), *it)) ++distinct;
        return distinct + 1.0;
      }
      case RankMethod::Ordinal: return less + equal;
      case RankMethod::Random: {
        std::uniform_int_distribution<int64_t> d(1, static_cast<int64_t>(equal));
        return less + static_cast<double>(d(rng));
      }
    }
    return 0;
  }

 private:
  std::vector<double> v_;
};

}  // namespace frazil::compute::rolling_detail
