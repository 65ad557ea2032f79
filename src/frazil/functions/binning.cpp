// Binning: cut (fixed breaks -> Enum of interval labels) and qcut (breaks at the values'
// quantiles -> Categorical), kernels in compute/binning/. qcut reads all of its input's
// rows, so inside agg()/over() its breaks are computed per group.
#include "frazil/compute/binning/binning.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

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

}  // namespace

void register_binning_functions(Registry& r) {
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
    r.add(std::move(s));
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
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
