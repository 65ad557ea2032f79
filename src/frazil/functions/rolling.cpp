// Rolling windows: rolling_sum, rolling_mean, rolling_min, rolling_max, rolling_var,
// rolling_std, rolling_median, rolling_quantile, rolling_skew, rolling_kurtosis,
// rolling_rank over fixed windows (window_size, weights, min_samples, center), and their
// _by forms over windows of an index column's values (by, window_size, min_samples, closed).
#include "frazil/compute/rolling/rolling.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;
using compute::RollingAgg;

namespace {

compute::RankMethod rank_method_of(const std::string& m) {
  if (m == "min") return compute::RankMethod::Min;
  if (m == "max") return compute::RankMethod::Max;
  if (m == "dense") return compute::RankMethod::Dense;
  if (m == "random") return compute::RankMethod::Random;
  return compute::RankMethod::Average;
}

bool has(const Args& a, std::string_view name) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a.name(i) == name) return true;
  return false;
}

compute::RollingParams params_of(RollingAgg agg, const Args& a, int64_t default_min) {
  compute::RollingParams p;
  p.agg = agg;
  p.min_samples = a.get_optional_int("min_samples").value_or(default_min);
  if (has(a, "ddof")) p.ddof = static_cast<int>(a.get_int("ddof"));
  if (has(a, "quantile")) p.quantile = a.get_float("quantile");
  if (has(a, "interpolation")) p.interpolation = a.get_string("interpolation");
  if (has(a, "bias")) p.bias = a.get_bool("bias");
  if (has(a, "fisher")) p.fisher = a.get_bool("fisher");
  if (has(a, "method")) p.rank_method = rank_method_of(a.get_string("method"));
  if (has(a, "seed"))
    if (auto s = a.get_optional_int("seed")) p.seed = static_cast<uint64_t>(*s);
  return p;
}

// The parameters particular to one aggregate (after the window's own).
std::vector<Param> agg_params(RollingAgg agg) {
  switch (agg) {
    case RollingAgg::Var:
    case RollingAgg::Std: return {int_param("ddof", 1)};
    case RollingAgg::Quantile:
      return {float_param("quantile", 0.5),
              string_param("interpolation", "nearest", {"nearest", "higher", "lower", "midpoint", "linear",
                                                        "equiprobable"})};
    case RollingAgg::Skew: return {bool_param("bias", true)};
    case RollingAgg::Kurtosis: return {bool_param("fisher", true), bool_param("bias", true)};
    case RollingAgg::Rank:
      return {string_param("method", "average", {"average", "min", "max", "dense", "random"}), optional_int_param("seed")};
    default: return {};
  }
}

// The root dtypes an aggregate takes (Polars' rules; rolling_dtype has the details).
TypeSet accepted(RollingAgg agg) {
  // (Int128 and UInt128 too: sums and extremes run in their width, the rest on doubles;
  // Float16 in Float32.)
  const TypeSet real = types::integer | types::floating | types::boolean |
                       TypeSet::of({TypeId::Int128, TypeId::UInt128, TypeId::Float16});
  const TypeSet temporal = types::date_like | types::duration | TypeSet::of({TypeId::Time});
  switch (agg) {
    case RollingAgg::Sum: return real;
    case RollingAgg::Min:
    case RollingAgg::Max: return real | temporal;
    case RollingAgg::Var:
    case RollingAgg::Std:
    case RollingAgg::Skew:
    case RollingAgg::Kurtosis: return real | types::decimal | types::date_like;
    default: return real | types::decimal | temporal;
  }
}

DataType dtype_rule(RollingAgg agg, const CallTypes& c, bool weighted) {
  const compute::RankMethod m = has(c.args, "method") ? rank_method_of(c.args.get_string("method"))
                                                       : compute::RankMethod::Average;
  return compute::rolling_dtype(agg, c.inputs[0], weighted, m);
}

void check_quantile(const Args& a) {
  if (has(a, "quantile")) {
    const double q = a.get_float("quantile");
    if (!(q >= 0 && q <= 1)) throw ComputeError(err_msg("quantile should be between 0.0 and 1.0, got ", q));
  }
}

FunctionSpec fixed_window(std::string name, RollingAgg agg) {
  FunctionSpec s;
  s.name = std::move(name);
  s.shape = Shape::LengthPreserving;
  s.order_sensitive = true;
  s.params = {int_param("window_size", 2), float_list_param("weights"), optional_int_param("min_samples"),
              bool_param("center", false)};
  for (Param& p : agg_params(agg)) s.params.push_back(std::move(p));
  s.input_types = accepted(agg);
  s.output_dtype = [agg](const CallTypes& c) {
    // Weighted windows give floats (medians and quantiles ignore the weights).
    const bool weighted = !c.args.get_float_list("weights").empty();
    return dtype_rule(agg, c, weighted && agg != RollingAgg::Median && agg != RollingAgg::Quantile);
  };
  s.check = [agg](const CallTypes& c) {
    const int64_t w = c.args.get_int("window_size");
    if (w < 0) throw ComputeError(err_msg("`", compute::rolling_agg_name(agg), "`: window_size must be non-negative"));
    const auto& weights = c.args.get_float_list("weights");
    if (!weights.empty() && static_cast<int64_t>(weights.size()) != w)
      throw ComputeError(err_msg("`", compute::rolling_agg_name(agg), "`: the length of the weights (",
                                 weights.size(), ") must equal window_size (", w, ")"));
    check_quantile(c.args);
  };
  s.segmented_kernel = [agg](const Args& a) -> SegmentedKernel {
    const int64_t w = a.get_int("window_size");
    const compute::RollingParams p = params_of(agg, a, w);
    const std::vector<double> weights = a.get_float_list("weights");
    const bool center = a.get_bool("center");
    return [agg, w, p, weights, center](std::span<const ArrayRef> in, std::span<const int64_t> offsets) {
      if (!weights.empty() && agg != RollingAgg::Median && agg != RollingAgg::Quantile)
        return compute::rolling_weighted(*in[0], offsets, weights, center, p);
      return compute::rolling_fixed(*in[0], offsets, w, center, p);
    };
  };
  s.format_args = [](std::span<const std::string>, const Args& a) {
    return "window_size=" + std::to_string(a.get_int("window_size"));
  };
  return s;
}

FunctionSpec window_by(std::string name, RollingAgg agg) {
  FunctionSpec s;
  s.name = std::move(name);
  s.shape = Shape::LengthPreserving;
  s.min_inputs = s.max_inputs = 2;  // the values and `by`
  // By the index's values, not by position (an unsorted `by` is sorted first).
  s.order_sensitive = false;
  const int64_t default_min = agg == RollingAgg::Sum ? 0 : 1;
  s.params = {string_param("window_size", "1i"), int_param("min_samples", default_min),
              string_param("closed", "right", {"left", "right", "both", "none"})};
  for (Param& p : agg_params(agg)) s.params.push_back(std::move(p));
  s.input_types = accepted(agg);
  s.output_dtype = [agg](const CallTypes& c) { return dtype_rule(agg, c, false); };
  s.check = [agg](const CallTypes& c) {
    const std::string fn = std::string(compute::rolling_agg_name(agg)) + "_by";
    compute::duration_ticks(c.args.get_string("window_size"), c.inputs[1], fn.c_str());
    const TypeId bt = c.inputs[1].id();
    if (!(c.inputs[1].is_integer() || bt == TypeId::Date || bt == TypeId::Datetime || bt == TypeId::Null))
      throw InvalidOperationError(err_msg("`", fn, "`: `by` must be an integer, Date or Datetime column, got `",
                                          c.inputs[1].short_name(), "`"));
    if (c.args.get_int("min_samples") < 0) throw ComputeError(err_msg("`", fn, "`: min_samples must be >= 0"));
    // A rank is of the current row among its window: the window must hold that row (Polars).
    const std::string& closed = c.args.get_string("closed");
    if (agg == RollingAgg::Rank && (closed == "left" || closed == "none"))
      throw InvalidOperationError(err_msg("`", fn, "` window needs to be closed on the right side (i.e., `closed` must be `right` or `both`)"));
    check_quantile(c.args);
  };
  s.segmented_kernel = [agg](const Args& a) -> SegmentedKernel {
    compute::RollingParams p = params_of(agg, a, 1);
    p.min_samples = a.get_int("min_samples");
    const std::string window = a.get_string("window_size"), closed = a.get_string("closed");
    return [p, window, closed](std::span<const ArrayRef> in, std::span<const int64_t> offsets) {
      return compute::rolling_by(*in[0], *in[1], offsets, window, closed, p);
    };
  };
  s.format_args = [](std::span<const std::string> inputs, const Args& a) {
    return inputs[0] + ", window_size=\"" + a.get_string("window_size") + "\"";
  };
  return s;
}

}  // namespace

void register_rolling_functions(Registry& r) {
  const std::pair<const char*, RollingAgg> aggs[] = {
      {"sum", RollingAgg::Sum},   {"mean", RollingAgg::Mean},         {"min", RollingAgg::Min},
      {"max", RollingAgg::Max},   {"var", RollingAgg::Var},           {"std", RollingAgg::Std},
      {"median", RollingAgg::Median}, {"quantile", RollingAgg::Quantile}, {"skew", RollingAgg::Skew},
      {"kurtosis", RollingAgg::Kurtosis}, {"rank", RollingAgg::Rank}};
  for (auto [name, agg] : aggs) r.add(fixed_window(std::string("rolling_") + name, agg));
  for (auto [name, agg] : aggs) {
    if (agg == RollingAgg::Skew || agg == RollingAgg::Kurtosis) continue;  // Polars has no _by form
    r.add(window_by(std::string("rolling_") + name + "_by", agg));
  }
}

}  // namespace frazil::functions
