// Binning: cut (fixed breaks -> Enum of interval labels) and qcut (breaks at the values'
// quantiles -> Categorical), and Polars 2.1's bin_intervals (explicit breaks, or a number of
// equal-width bins), bin_quantiles and bin_ranks (UInt32 bin, Enum of labels or Struct {bin, left,
// right}); kernels in compute/binning/. Breaks derived from the data (qcut, uniform bins,
// quantiles) read all of the input's rows, so inside agg()/over() they are per group.
#include "frazil/compute/binning/bin_intervals.hpp"
#include "frazil/compute/binning/binning.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/functions/wide_inputs.hpp"

namespace frazil::functions {

using namespace define;

namespace {

constexpr TypeSet binnable = types::numeric | types::boolean;

compute::BinSpec cut_spec(const Args& a) {
  compute::BinSpec s;
  s.breaks = a.get_float_list("breaks");
  s.labels = a.get_string_list("labels");
  s.left_closed = a.get_bool("left_closed");
  s.include_breaks = a.get_bool("include_breaks");
  return s;
}

compute::IntervalBinning interval_binning(const Args& a) {
  compute::IntervalBinning h;
  h.labels = a.get_string_list("labels");
  h.include_intervals = a.get_bool("include_intervals");
  h.right_closed = a.get_bool("right_closed");
  return h;
}

std::vector<Param> interval_params() {
  return {string_list_param("labels"), bool_param("include_intervals", false), bool_param("right_closed", false)};
}

FunctionSpec interval_row(std::string name) {
  FunctionSpec s;
  s.name = std::move(name);
  s.params = interval_params();
  s.output_dtype = [](const CallTypes& c) { return compute::interval_bins_dtype(c.inputs[0], interval_binning(c.args)); };
  return s;
}

}  // namespace

void register_binning_functions(Registry& r) {
  {
    // The breaks are a set input, cast to the values' dtype by the kernel (any orderable dtype).
    FunctionSpec s = interval_row("bin_intervals");
    s.min_inputs = s.max_inputs = 2;
    s.roles = {InputRole::Row, InputRole::Set};
    s.fallible = true;
    s.kernel = [](const Args& a) -> Kernel {
      return [h = interval_binning(a)](std::span<const ArrayRef> in) { return compute::bin_by_breaks(*in[0], *in[1], h); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = interval_row("bin_intervals_uniform");
    s.shape = Shape::LengthPreserving;
    s.input_types = binnable;
    s.params.insert(s.params.begin(), int_param("n", 1));
    s.kernel = [](const Args& a) -> Kernel {
      return [h = interval_binning(a), n = a.get_int("n")](std::span<const ArrayRef> in) {
        return compute::bin_uniform(*in[0], n, h);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = interval_row("bin_ranks");
    s.shape = Shape::LengthPreserving;
    s.fallible = true;
    s.params.insert(s.params.begin(), {float_list_param("ranks"), int_param("n", 0)});
    s.kernel = [](const Args& a) -> Kernel {
      return [h = interval_binning(a), r = a.get_float_list("ranks"), n = a.get_int("n")](std::span<const ArrayRef> in) {
        return compute::bin_by_rank(*in[0], r, n, h);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = interval_row("bin_quantiles");
    s.shape = Shape::LengthPreserving;
    s.fallible = true;
    s.input_types = binnable;
    s.params.insert(s.params.begin(), float_list_param("quantiles"));
    s.kernel = [](const Args& a) -> Kernel {
      return [h = interval_binning(a), q = a.get_float_list("quantiles")](std::span<const ArrayRef> in) {
        return compute::bin_at_quantiles(*in[0], q, h);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "cut";
    s.params = {float_list_param("breaks"), string_list_param("labels"), bool_param("left_closed", false),
                bool_param("include_breaks", false)};
    s.input_types = binnable;
    s.output_dtype = [](const CallTypes& c) { return compute::cut_dtype(cut_spec(c.args)); };
    s.kernel = [](const Args& a) -> Kernel {
      return [spec = cut_spec(a)](std::span<const ArrayRef> in) { return compute::cut(*in[0], spec); };
    };
    r.add(float16_and_wide_ints(std::move(s)));
  }
  {
    FunctionSpec s;
    s.name = "qcut";
    s.shape = Shape::LengthPreserving;
    s.fallible = true;
    s.params = {float_list_param("quantiles"), string_list_param("labels"), bool_param("left_closed", false),
                bool_param("allow_duplicates", false), bool_param("include_breaks", false)};
    s.input_types = binnable;
    s.output_dtype = [](const CallTypes& c) { return compute::qcut_dtype(c.args.get_bool("include_breaks")); };
    s.kernel = [](const Args& a) -> Kernel {
      return [q = a.get_float_list("quantiles"), labels = a.get_string_list("labels"),
              left = a.get_bool("left_closed"), dup = a.get_bool("allow_duplicates"),
              breaks = a.get_bool("include_breaks")](std::span<const ArrayRef> in) {
        return compute::qcut(*in[0], q, labels, left, dup, breaks);
      };
    };
    r.add(float16_and_wide_ints(std::move(s)));
  }
}

}  // namespace frazil::functions
