// Cumulative and order-dependent length-preserving functions: cum_sum, cum_prod, cum_min,
// cum_max, cum_count, diff, pct_change, rank, rle_id, rle, peak_min, peak_max, the fill_null
// strategies, interpolate, interpolate_by, ewm_mean/std/var/sum and their _by forms. Each has
// a segmented kernel, so inside agg() and over() it runs once over all groups.
#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/cumulative.hpp"
#include "frazil/compute/ewm.hpp"
#include "frazil/compute/rank.hpp"
#include "frazil/compute/rolling/duration.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/functions/wide_inputs.hpp"

namespace frazil::functions {

using namespace define;
using compute::Segments;

namespace {

// A length-preserving function of the rows' order: f(root, segments, args).
template <typename F>
FunctionSpec ordered(std::string name, F f) {
  FunctionSpec s;
  s.name = std::move(name);
  s.shape = Shape::LengthPreserving;
  s.order_sensitive = true;
  s.output_dtype = same_as_root;
  s.segmented_kernel = [f](const Args& a) -> SegmentedKernel {
    return [f, a](std::span<const ArrayRef> in, std::span<const int64_t> offsets) { return f(in, offsets, a); };
  };
  return s;
}

// Rejects the dtypes a function does not take, with Polars' message.
void expect(bool ok, const char* fn, const DataType& t) {
  if (!ok) throw InvalidOperationError(err_msg("`", fn, "` operation not supported for dtype `", t.short_name(), "`"));
}

bool orderable(const DataType& t) { return !t.is_nested(); }

// The fill value of each segment for fill_null(strategy=min/max/mean/zero/one), then every
// null row takes its segment's.
ArrayRef fill_with_strategy(const Array& x, Segments seg, const std::string& strategy) {
  const int64_t n = x.length();
  if (x.null_count() == 0 || x.dtype().is_null()) return x.slice(0, n);
  const size_t nseg = seg.size() - 1;
  std::vector<ArrayRef> fills;
  fills.reserve(nseg + 1);
  fills.push_back(x.slice(0, n));
  auto constant = [&](int64_t v) {
    return compute::cast(*scalar_to_array(Scalar::int64(v), 1), x.dtype(), /*strict=*/false);
  };
  for (size_t k = 0; k < nseg; ++k) {
    if (strategy == "zero" || strategy == "one") {
      fills.push_back(constant(strategy == "one"));
      continue;
    }
    const compute::AggKind kind = strategy == "min"   ? compute::AggKind::Min
                                  : strategy == "max" ? compute::AggKind::Max
                                                      : compute::AggKind::Mean;
    Scalar v = compute::aggregate(kind, *x.slice(seg[k], seg[k + 1] - seg[k]));
    ArrayRef one = scalar_to_array(v, 1);
    fills.push_back(one->dtype() == x.dtype() ? one : compute::cast(*one, x.dtype(), /*strict=*/false));
  }
  std::vector<compute::IdxSize> idx(static_cast<size_t>(n));
  for (size_t k = 0; k < nseg; ++k)
    for (int64_t i = seg[k]; i < seg[k + 1]; ++i)
      idx[i] = x.is_valid(i) ? static_cast<compute::IdxSize>(i) : static_cast<compute::IdxSize>(n + k);
  return compute::take(*concat_arrays(fills), idx);
}

compute::RankMethod rank_method(const std::string& m) {
  if (m == "average") return compute::RankMethod::Average;
  if (m == "min") return compute::RankMethod::Min;
  if (m == "max") return compute::RankMethod::Max;
  if (m == "dense") return compute::RankMethod::Dense;
  if (m == "ordinal") return compute::RankMethod::Ordinal;
  return compute::RankMethod::Random;
}

DataType float_values(const CallTypes& c) { return float_of_root(c); }

}  // namespace

// Int128 and UInt128: the kernels (compute/cumulative.cpp) are written for any width.
constexpr TypeSet kWideInts = TypeSet::of({TypeId::Int128, TypeId::UInt128});

void register_cumulative_functions(Registry& r) {
  const Param reverse = bool_param("reverse", false);
  {
    FunctionSpec s = ordered("cum_sum", [](auto in, Segments seg, const Args& a) {
      return compute::cum_sum(*in[0], seg, a.get_bool("reverse"));
    });
    s.params = {reverse};
    s.input_types = types::numeric | types::boolean | types::duration | kWideInts;
    s.output_dtype = [](const CallTypes& c) { return compute::cum_sum_dtype(c.inputs[0]); };
    r.add(float16_through_float32(std::move(s)));
  }
  {
    FunctionSpec s = ordered("cum_prod", [](auto in, Segments seg, const Args& a) {
      return compute::cum_prod(*in[0], seg, a.get_bool("reverse"));
    });
    s.params = {reverse};
    s.input_types = types::integer | types::floating | types::boolean | kWideInts;
    s.output_dtype = [](const CallTypes& c) { return compute::cum_prod_dtype(c.inputs[0]); };
    r.add(float16_through_float32(std::move(s)));
  }
  for (bool want_max : {false, true}) {
    FunctionSpec s = ordered(want_max ? "cum_max" : "cum_min", [want_max](auto in, Segments seg, const Args& a) {
      return want_max ? compute::cum_max(*in[0], seg, a.get_bool("reverse"))
                      : compute::cum_min(*in[0], seg, a.get_bool("reverse"));
    });
    s.params = {reverse};
    s.check = [want_max](const CallTypes& c) { expect(orderable(c.inputs[0]), want_max ? "cum_max" : "cum_min", c.inputs[0]); };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = ordered("cum_count", [](auto in, Segments seg, const Args& a) {
      return compute::cum_count(*in[0], seg, a.get_bool("reverse"));
    });
    s.params = {reverse};
    s.output_dtype = fixed(DataType::uint32());
    r.add(std::move(s));
  }
  {
    FunctionSpec s = ordered("diff", [](auto in, Segments seg, const Args& a) {
      return compute::diff(*in[0], seg, a.get_int("n"));
    });
    s.params = {int_param("n", 1)};
    s.input_types = types::numeric | types::date_like | types::duration | TypeSet::of({TypeId::Time}) | kWideInts;
    s.output_dtype = [](const CallTypes& c) { return compute::diff_dtype(c.inputs[0]); };
    s.format_args = [](std::span<const std::string>, const Args& a) { return std::to_string(a.get_int("n")); };
    r.add(float16_through_float32(std::move(s)));
  }
  {
    FunctionSpec s = ordered("pct_change", [](auto in, Segments seg, const Args& a) {
      return compute::pct_change(*in[0], seg, a.get_int("n"));
    });
    s.params = {int_param("n", 1)};
    s.input_types = types::numeric | types::boolean;
    s.output_dtype = float_values;
    s.format_args = [](std::span<const std::string>, const Args& a) { return std::to_string(a.get_int("n")); };
    r.add(float16_and_wide_ints(std::move(s)));
  }
  {
    FunctionSpec s = ordered("rank", [](auto in, Segments seg, const Args& a) {
      std::optional<uint64_t> seed;
      if (auto v = a.get_optional_int("seed")) seed = static_cast<uint64_t>(*v);
      return compute::rank(*in[0], seg, rank_method(a.get_string("method")), a.get_bool("descending"), seed);
    });
    // A rank depends on the other rows' values, not on their order (ties aside: ordinal and
    // random break them by position).
    s.order_sensitive = false;
    s.params = {string_param("method", "average", {"average", "min", "max", "dense", "ordinal", "random"}),
                bool_param("descending", false), optional_int_param("seed")};
    s.check = [](const CallTypes& c) { expect(orderable(c.inputs[0]), "rank", c.inputs[0]); };
    s.output_dtype = [](const CallTypes& c) {
      return c.args.get_string("method") == "average" ? DataType::float64() : DataType::uint32();
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = ordered("rle_id", [](auto in, Segments seg, const Args&) { return compute::rle_id(*in[0], seg); });
    s.output_dtype = fixed(DataType::uint32());
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "rle";
    s.shape = Shape::Other;
    s.order_sensitive = true;
    s.output_dtype = [](const CallTypes& c) {
      return DataType::struct_({{"len", DataType::uint32()}, {"value", c.inputs[0]}});
    };
    s.kernel = unary(compute::rle);
    r.add(std::move(s));
  }
  for (bool maxima : {false, true}) {
    FunctionSpec s = ordered(maxima ? "peak_max" : "peak_min", [maxima](auto in, Segments seg, const Args&) {
      return compute::peaks(*in[0], seg, maxima);
    });
    s.input_types = types::numeric | types::boolean | types::date_like | types::duration | TypeSet::of({TypeId::Time});
    s.output_dtype = boolean;
    r.add(float16_through_float32(std::move(s)));
  }
  {
    // fill_null(strategy=...), forward_fill and backward_fill.
    FunctionSpec s = ordered("fill_null_with_strategy", [](auto in, Segments seg, const Args& a) -> ArrayRef {
      const std::string& st = a.get_string("strategy");
      if (st == "forward") return compute::fill_forward(*in[0], seg, a.get_optional_int("limit"));
      if (st == "backward") return compute::fill_backward(*in[0], seg, a.get_optional_int("limit"));
      return fill_with_strategy(*in[0], seg, st);
    });
    s.params = {string_param("strategy", "forward", {"forward", "backward", "min", "max", "mean", "zero", "one"}),
                optional_int_param("limit")};
    s.check = [](const CallTypes& c) {
      const std::string& st = c.args.get_string("strategy");
      const DataType& t = c.inputs[0];
      if (auto l = c.args.get_optional_int("limit"); l && *l < 0)
        throw InvalidOperationError("`fill_null`: limit must be non-negative");
      if ((st == "mean" || st == "zero" || st == "one") && !(t.is_numeric() || t.is_boolean() || t.is_null() ||
                                                             (st == "mean" && t.is_temporal())))
        throw InvalidOperationError(err_msg("fill_null(strategy='", st, "') is not supported for dtype `",
                                            t.short_name(), "`"));
    };
    // Min/max/mean/zero/one do not depend on the order.
    r.add(std::move(s));
  }
  {
    FunctionSpec s = ordered("interpolate", [](auto in, Segments seg, const Args& a) {
      return compute::interpolate(*in[0], seg, a.get_string("method") == "nearest");
    });
    s.params = {string_param("method", "linear", {"linear", "nearest"})};
    s.input_types = types::numeric | types::date_like | types::duration | TypeSet::of({TypeId::Time});
    s.output_dtype = [](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      return c.args.get_string("method") == "linear" && t.is_integer() ? DataType::float64() : t;
    };
    r.add(float16_and_wide_ints(std::move(s)));
  }
  {
    FunctionSpec s = ordered("interpolate_by", [](auto in, Segments seg, const Args&) {
      return compute::interpolate_by(*in[0], *in[1], seg);
    });
    s.min_inputs = s.max_inputs = 2;
    s.order_sensitive = false;  // by `by`, not by position
    s.output_dtype = float_values;
    r.add(std::move(s));
  }
  using compute::EwmKind;
  for (auto [name, kind] : {std::pair{"ewm_mean", EwmKind::Mean}, {"ewm_std", EwmKind::Std},
                            {"ewm_var", EwmKind::Var}, {"ewm_sum", EwmKind::Sum}}) {
    FunctionSpec s = ordered(name, [kind](auto in, Segments seg, const Args& a) {
      compute::EwmOptions o;
      o.alpha = a.get_float("alpha");
      o.adjust = a.get_bool("adjust");
      o.bias = a.get_bool("bias");
      o.min_samples = a.get_int("min_samples");
      o.ignore_nulls = a.get_bool("ignore_nulls");
      return compute::ewm(kind, *in[0], seg, o);
    });
    s.params = {float_param("alpha", 0.5), bool_param("adjust", true), bool_param("bias", false),
                int_param("min_samples", 1), bool_param("ignore_nulls", false)};
    s.input_types = types::numeric | types::boolean | types::date_like | types::duration;
    s.output_dtype = float_values;
    s.check = [](const CallTypes& c) {
      const double alpha = c.args.get_float("alpha");
      if (!(alpha > 0 && alpha <= 1)) throw ComputeError("alpha must be in [0; 1]");
    };
    r.add(float16_and_wide_ints(std::move(s)));
  }
  for (bool mean : {true, false}) {
    FunctionSpec s = ordered(mean ? "ewm_mean_by" : "ewm_sum_by", [mean](auto in, Segments seg, const Args& a) {
      const compute::FixedDuration hl = compute::parse_fixed_duration(a.get_string("half_life"), "half_life");
      return compute::ewm_by(mean, *in[0], *in[1], seg, hl.nanos);
    });
    s.min_inputs = s.max_inputs = 2;
    s.order_sensitive = false;  // by `by`, not by position
    s.params = {string_param("half_life", "1i")};
    s.output_dtype = float_values;
    s.check = [mean](const CallTypes& c) {
      const compute::FixedDuration hl = compute::parse_fixed_duration(c.args.get_string("half_life"), "half_life");
      if (hl.nanos < 0) throw InvalidOperationError("half_life cannot be negative");
      const DataType& by = c.inputs[1];
      if (hl.index != !by.is_temporal() && !by.is_null())
        throw InvalidOperationError(err_msg("`", mean ? "ewm_mean_by" : "ewm_sum_by",
                                            "`: half_life \"", c.args.get_string("half_life"),
                                            hl.index ? "\" counts index units but `by` is temporal"
                                                     : "\" is a time but `by` is not temporal"));
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
