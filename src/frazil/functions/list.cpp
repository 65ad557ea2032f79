// List functions: explode.
#include "frazil/compute/explode.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

void register_list_functions(Registry& r) {
  FunctionSpec s;
  s.name = "explode";  // one row per list element
  s.shape = Shape::Other;
  s.order_sensitive = false;  // each list's elements follow in the list's order
  s.params = {bool_param("empty_as_null", false), bool_param("keep_nulls", true)};
  // A non-list is left as it is (as Polars does).
  s.output_dtype = [](const CallTypes& c) { return c.inputs[0].id() == TypeId::List ? c.inputs[0].inner() : c.inputs[0]; };
  s.kernel = [](const Args& a) -> Kernel {
    return [opts = compute::ExplodeOptions{a.get_bool("empty_as_null"), a.get_bool("keep_nulls")}](
               std::span<const ArrayRef> in) {
      return in[0]->dtype().id() == TypeId::List ? compute::explode(*in[0], opts) : in[0];
    };
  };
  s.format_args = [](std::span<const std::string>, const Args&) { return std::string(); };
  r.add(std::move(s));
}

}  // namespace frazil::functions
