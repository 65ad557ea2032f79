#include "frazil/compute/horizontal.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/segments.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

int64_t rows_of(std::span<const ArrayRef> in) {
  int64_t n = 1;
  for (const auto& a : in)
    if (a->length() != 1) {
      if (n != 1 && a->length() != n) throw ShapeError(err_msg("horizontal inputs of lengths ", n, " and ", a->length()));
      n = a->length();
    }
  if (!in.empty() && n == 1) {
    bool any_empty = false;
    for (const auto& a : in) any_empty |= a->length() == 0;
    if (any_empty) return 0;
  }
  return n;
}

// mean_horizontal of integers (or Booleans), as Polars: their sum in the inputs' integer
// dtype, wrapping (Int64 min + Int64 min is 0; Booleans sum in UInt32), then divided in
// Float64 by the row's count of non-null values.
ArrayRef mean_of_integer_sum(std::span<const ArrayRef> inputs, int64_t n, bool ignore_nulls) {
  DataType work = DataType::null();
  for (const auto& a : inputs)
    if (auto t = get_supertype(work, a->dtype())) work = *t;
  if (work.is_boolean() || work.is_null()) work = DataType::uint32();
  const ArrayRef sum = cast(*horizontal(HorizontalKind::Sum, inputs, work, ignore_nulls), DataType::float64());
  const double* s = sum->values<double>();
  Buffer buf = alloc_values<double>(n);
  double* o = buf.mutable_as<double>();
  OutValidity valid(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t count = 0;
    for (const auto& a : inputs) count += !a->is_null(a->length() == 1 ? 0 : i);
    const bool ok = count > 0 && !sum->is_null(i);
    valid.set(i, ok);
    o[i] = ok ? s[i] / static_cast<double>(count) : 0.0;
  }
  return make_fixed(DataType::float64(), n, valid.finish(), std::move(buf));
}

// sum_horizontal of strings (or of values whose supertype is String), as Polars: the row's
// values concatenated; a null is the empty string, or makes the row null without ignore_nulls.
ArrayRef concat_strings(std::span<const ArrayRef> inputs, int64_t n, bool ignore_nulls) {
  std::vector<ArrayRef> xs;
  for (const auto& a : inputs) xs.push_back(a->dtype().is_string() ? a : cast(*a, DataType::string()));
  ViewBuilder out(DataType::string(), n);
  std::string row;
  for (int64_t i = 0; i < n; ++i) {
    row.clear();
    bool null = false;
    for (const auto& x : xs) {
      const int64_t j = x->length() == 1 ? 0 : i;
      if (x->is_null(j)) null = true;
      else row += x->str_value(j);
    }
    if (null && !ignore_nulls) out.push_null();
    else out.push(row);
  }
  return out.finish();
}

}  // namespace

ArrayRef horizontal(HorizontalKind kind, std::span<const ArrayRef> inputs, const DataType& out, bool ignore_nulls) {
  const int64_t n = rows_of(inputs);
  if (kind == HorizontalKind::Sum && out.is_string()) return concat_strings(inputs, n, ignore_nulls);
  if (kind == HorizontalKind::Mean && out.id() == TypeId::Float64 && !inputs.empty()) {
    bool integers = true;
    for (const auto& a : inputs) {
      const DataType& t = a->dtype();
      integers &= (t.is_integer() && !t.is_128_bit_integer()) || t.is_boolean() || t.is_null();
    }
    if (integers) return mean_of_integer_sum(inputs, n, ignore_nulls);
  }
  std::vector<ArrayRef> xs;
  const DataType work = kind == HorizontalKind::Any || kind == HorizontalKind::All ? DataType::boolean() : out;
  for (const auto& a : inputs) xs.push_back(a->dtype() == work ? a : cast(*a, work));
  auto at = [&](size_t k, int64_t i) { return xs[k]->length() == 1 ? 0 : i; };
  OutValidity valid(n);
  if (kind == HorizontalKind::Any || kind == HorizontalKind::All) {
    const bool any = kind == HorizontalKind::Any;
    Buffer bits = alloc_bits(n);
    for (int64_t i = 0; i < n; ++i) {
      bool decided = false, saw_null = false;
      for (size_t k = 0; k < xs.size() && !decided; ++k) {
        const int64_t j = at(k, i);
        if (xs[k]->is_null(j)) saw_null = true;
        else if (xs[k]->bool_value(j) == any) decided = true;
      }
      // Kleene: a deciding value wins over null; else null if any null.
      valid.set(i, decided || !saw_null);
      set_bit_to(bits.mutable_data(), i, decided ? any : !any);
    }
    return Array::make(DataType::boolean(), n, valid.finish(), {std::move(bits)});
  }
  if (out.is_null()) return make_null_array(out, n);
  if (out.is_boolean()) {  // min/max of Booleans: false < true
    std::vector<ArrayRef> as_u8;
    for (const auto& x : xs) as_u8.push_back(cast(*x, DataType::uint8()));
    return cast(*horizontal(kind, as_u8, DataType::uint8(), ignore_nulls), DataType::boolean());
  }
  auto run = [&](auto tag) -> ArrayRef {
    using T = typename decltype(tag)::type;
    Buffer buf = alloc_values<T>(n);
    T* o = buf.mutable_as<T>();
    for (int64_t i = 0; i < n; ++i) {
      T acc{};
      int64_t count = 0;
      bool any_null = false, have = false;
      for (size_t k = 0; k < xs.size(); ++k) {
        const int64_t j = at(k, i);
        if (xs[k]->is_null(j)) {
          any_null = true;
          continue;
        }
        const T v = xs[k]->values<T>()[j];
        ++count;
        switch (kind) {
          case HorizontalKind::Sum:
          case HorizontalKind::Mean:
            if constexpr (std::is_same_v<T, __int128> || std::is_same_v<T, unsigned __int128>) {
              acc = static_cast<T>(static_cast<unsigned __int128>(acc) + static_cast<unsigned __int128>(v));
            } else if constexpr (std::is_integral_v<T>) {
              using U = std::make_unsigned_t<T>;
              acc = static_cast<T>(static_cast<U>(acc) + static_cast<U>(v));
            } else {
              acc += v;
            }
            break;
          default: {
            if (!have) {
              acc = v;
              have = true;
              break;
            }
            if constexpr (std::is_floating_point_v<T>) {
              if (std::isnan(v)) break;
              if (std::isnan(acc)) {
                acc = v;
                break;
              }
            }
            if (kind == HorizontalKind::Max ? v > acc : v < acc) acc = v;
          }
        }
      }
      bool ok = true;
      if (kind == HorizontalKind::Sum) ok = ignore_nulls || !any_null;
      else if (kind == HorizontalKind::Mean) ok = count > 0 && (ignore_nulls || !any_null);
      else ok = have;
      if (kind == HorizontalKind::Mean && ok) acc = static_cast<T>(acc / static_cast<T>(count));
      valid.set(i, ok);
      o[i] = ok ? acc : T{};
    }
    return make_fixed(out, n, valid.finish(), std::move(buf));
  };
  if (out.id() == TypeId::Decimal) return run(Tag<__int128>{});
  if (!(out.is_numeric() || out.is_temporal()))
    throw InvalidOperationError(err_msg("horizontal reductions are not supported for dtype `", out.short_name(), "`"));
  return dispatch_numeric_wide(out.physical().id(), run);
}

ArrayRef int_range(int64_t start, int64_t end, int64_t step, const DataType& dtype) {
  if (step == 0) throw ComputeError("step must not be zero");
  std::vector<int64_t> v;
  if (step > 0)
    for (int64_t x = start; x < end; x += step) v.push_back(x);
  else
    for (int64_t x = start; x > end; x += step) v.push_back(x);
  Buffer buf = alloc_values<int64_t>(static_cast<int64_t>(v.size()));
  std::copy(v.begin(), v.end(), buf.mutable_as<int64_t>());
  ArrayRef a = make_fixed(DataType::int64(), static_cast<int64_t>(v.size()), Buffer(), std::move(buf));
  return dtype == a->dtype() ? a : cast(*a, dtype);
}

ArrayRef int_ranges(const Array& start, const Array& end, const Array& step, const DataType& dtype) {
  const ArrayRef in[3] = {cast(start, DataType::int64()), cast(end, DataType::int64()), cast(step, DataType::int64())};
  const int64_t n = rows_of(in);
  auto at = [&](int k, int64_t i) { return in[k]->length() == 1 ? 0 : i; };
  std::vector<int64_t> flat;
  Buffer off = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int64_t));
  int64_t* o = off.mutable_as<int64_t>();
  o[0] = 0;
  OutValidity valid(n);
  for (int64_t i = 0; i < n; ++i) {
    bool ok = true;
    for (int k = 0; k < 3; ++k) ok &= in[k]->is_valid(at(k, i));
    valid.set(i, ok);
    if (ok) {
      const int64_t s = in[0]->values<int64_t>()[at(0, i)], e = in[1]->values<int64_t>()[at(1, i)],
                    st = in[2]->values<int64_t>()[at(2, i)];
      if (st == 0) throw ComputeError("step must not be zero");
      if (st > 0)
        for (int64_t x = s; x < e; x += st) flat.push_back(x);
      else
        for (int64_t x = s; x > e; x += st) flat.push_back(x);
    }
    o[i + 1] = static_cast<int64_t>(flat.size());
  }
  Buffer buf = alloc_values<int64_t>(static_cast<int64_t>(flat.size()));
  std::copy(flat.begin(), flat.end(), buf.mutable_as<int64_t>());
  ArrayRef values = make_fixed(DataType::int64(), static_cast<int64_t>(flat.size()), Buffer(), std::move(buf));
  if (dtype != values->dtype()) values = cast(*values, dtype);
  return Array::make(DataType::list(dtype), n, valid.finish(), {off}, {values});
}

namespace {

// Appends the `num` points of linear_space to `out`, as Polars computes them (in F): the
// first num - 1 are start' + i * d, the last is end' itself (exact), where start', end' and
// d depend on which ends are closed; one point of an open interval is its middle.
template <typename F>
void append_linear_points(F start, F end, int64_t num, const std::string& closed, std::vector<F>& out) {
  if (num <= 0) return;
  if (num == 1) {
    out.push_back(closed == "none" ? (end + start) * F(0.5) : closed == "right" ? end : start);
    return;
  }
  const F span = end - start;
  F first = start, d, last = end;
  if (closed == "none") {
    d = span / static_cast<F>(num + 1);
    first = start + d;
    last = end - d;
  } else if (closed == "left") {
    d = span / static_cast<F>(num);
    last = end - d;
  } else if (closed == "right") {
    d = span / static_cast<F>(num);
    first = start + d;
  } else {
    d = span / static_cast<F>(num - 1);
  }
  for (int64_t i = 0; i + 1 < num; ++i) out.push_back(static_cast<F>(i) * d + first);
  out.push_back(last);
}

template <typename F>
ArrayRef values_array(const std::vector<F>& v, const DataType& dtype) {
  Buffer buf = alloc_values<F>(static_cast<int64_t>(v.size()));
  std::copy(v.begin(), v.end(), buf.mutable_as<F>());
  return make_fixed(dtype, static_cast<int64_t>(v.size()), Buffer(), std::move(buf));
}

}  // namespace

ArrayRef linear_space(double start, double end, int64_t num, const std::string& closed, const DataType& dtype) {
  if (num < 0) throw ComputeError(err_msg("`num_samples` must be non-negative, got ", num));
  if (dtype.id() == TypeId::Float32) {
    std::vector<float> v;
    append_linear_points(static_cast<float>(start), static_cast<float>(end), num, closed, v);
    return values_array(v, dtype);
  }
  std::vector<double> v;
  append_linear_points(start, end, num, closed, v);
  ArrayRef a = values_array(v, DataType::float64());
  return dtype == a->dtype() ? a : cast(*a, dtype);
}

ArrayRef linear_spaces(const Array& start, const Array& end, const Array& num, const std::string& closed,
                       const DataType& dtype) {
  const ArrayRef in[3] = {cast(start, dtype), cast(end, dtype), cast(num, DataType::int64())};
  const int64_t n = rows_of(in);
  auto at = [&](int k, int64_t i) { return in[k]->length() == 1 ? 0 : i; };
  Buffer off = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int64_t));
  int64_t* o = off.mutable_as<int64_t>();
  o[0] = 0;
  OutValidity valid(n);
  auto run = [&](auto tag) {
    using F = typename decltype(tag)::type;
    std::vector<F> flat;
    for (int64_t i = 0; i < n; ++i) {
      bool ok = true;
      for (int k = 0; k < 3; ++k) ok &= in[k]->is_valid(at(k, i));
      valid.set(i, ok);
      if (ok) {
        const int64_t count = in[2]->values<int64_t>()[at(2, i)];
        if (count < 0) throw InvalidOperationError(err_msg("`linear_spaces`: `num_samples` must be non-negative, got ", count));
        append_linear_points(in[0]->values<F>()[at(0, i)], in[1]->values<F>()[at(1, i)], count, closed, flat);
      }
      o[i + 1] = static_cast<int64_t>(flat.size());
    }
    return values_array(flat, dtype);
  };
  ArrayRef values = dtype.id() == TypeId::Float32 ? run(Tag<float>{}) : run(Tag<double>{});
  return Array::make(DataType::list(dtype), n, valid.finish(), {off}, {values});
}

}  // namespace frazil::compute
