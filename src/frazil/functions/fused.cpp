// Fused arithmetic: fma, fms, fsm, the nodes the optimizer's FusedArithmetic rule makes of
// a * b + c, a * b - c and c - a * b (shown as Polars shows them: col("a").fma([col("b"), col("c")])).
#include "frazil/compute/fused.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

void register_fused_functions(Registry& r) {
  for (auto [name, op] : {std::pair{"fma", compute::FusedOp::MultiplyAdd}, {"fms", compute::FusedOp::MultiplySub},
                          {"fsm", compute::FusedOp::SubMultiply}}) {
    FunctionSpec s;
    s.name = name;
    s.min_inputs = s.max_inputs = 3;
    s.input_types = types::floating;
    s.null_if_null = all_inputs;
    s.output_dtype = same_as_root;
    s.kernel = [op](const Args&) -> Kernel {
      return [op](std::span<const ArrayRef> in) { return compute::fused_arith(op, *in[0], *in[1], *in[2]); };
    };
    s.format_args = [](std::span<const std::string> inputs, const Args&) {
      return "[" + inputs[0] + ", " + inputs[1] + "]";
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
