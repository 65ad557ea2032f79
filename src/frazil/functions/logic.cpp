// Boolean logic and membership: not, is_in, is_between.
#include "frazil/compute/boolean.hpp"
#include "frazil/compute/compare.hpp"
#include "frazil/compute/list/search.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

void register_logic_functions(Registry& r) {
  {
    FunctionSpec s;
    s.name = "not";
    // Polars' `~` on integers is the bitwise complement.
    s.input_types = types::boolean | types::integer | TypeSet::of({TypeId::Int128, TypeId::UInt128});
    s.null_if_null = input(0);
    s.zero_sign_insensitive = true;
    s.output_dtype = [](const CallTypes& c) { return c.inputs[0].is_integer() ? c.inputs[0] : DataType::boolean(); };
    s.kernel = unary([](const Array& a) { return a.dtype().is_integer() ? compute::bit_not(a) : compute::not_(a); });
    s.selectivity = [](std::span<const double> in) { return 1.0 - in[0]; };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "is_in";
    s.min_inputs = s.max_inputs = 2;
    s.roles = {InputRole::Row, InputRole::Set};
    s.coercion = Coercion::SetMembers;
    s.zero_sign_insensitive = true;
    s.output_dtype = boolean;
    s.kernel = binary([](const Array& x, const Array& values) {
      // x.is_in(a List or Array column): whether each row's list holds that row's x (a null
      // x or list gives null); one list row is the set of every row.
      if (values.dtype().is_list_like() && !x.dtype().is_list_like())
        return compute::list_contains(values, x, /*nulls_equal=*/false);
      return compute::is_in(x, values);
    });
    s.format_args = [](std::span<const std::string> inputs, const Args&) { return "[" + inputs[0] + "]"; };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "is_between";
    s.min_inputs = s.max_inputs = 3;
    s.params = {string_param("closed", "both", {"both", "left", "right", "none"})};
    s.coercion = Coercion::Between;
    s.zero_sign_insensitive = true;
    // x >= lo & x <= hi: null when x is; a null bound makes one side null, so null or false.
    s.null_if_null = input(0);
    s.null_or_false_if_null = input(0) | input(1) | input(2);
    s.output_dtype = boolean;
    s.kernel = [](const Args& a) -> Kernel {
      return [closed = a.get_string("closed")](std::span<const ArrayRef> in) {
        return compute::is_between(*in[0], *in[1], *in[2], closed);
      };
    };
    s.selectivity = [](std::span<const double>) { return 0.25; };
    s.format_args = [](std::span<const std::string> inputs, const Args& a) {
      return inputs[0] + ", " + inputs[1] + ", closed=\"" + a.get_string("closed") + "\"";
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
