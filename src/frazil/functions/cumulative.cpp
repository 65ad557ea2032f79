// Cumulative functions in row order: cum_sum, cum_min, cum_max, cum_count
// (compute/cumulative.hpp). The output keeps the input's height; each row depends on the
// rows before it, so the optimizer treats them as order-sensitive and not row-local.
#include "frazil/compute/cumulative.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

void register_cumulative_functions(Registry& r) {
  const std::pair<const char*, compute::CumulativeKind> rows[] = {
      {"cum_sum", compute::CumulativeKind::Sum},
      {"cum_min", compute::CumulativeKind::Min},
      {"cum_max", compute::CumulativeKind::Max},
      {"cum_count", compute::CumulativeKind::Count},
  };
  for (const auto& [name, kind] : rows) {
    FunctionSpec s;
    s.name = name;
    s.shape = Shape::LengthPreserving;
    s.order_sensitive = true;
    // The dtypes each applies to (others raise, naming the function and the dtype).
    if (kind == compute::CumulativeKind::Sum)
      s.input_types = (types::numeric - types::decimal) | types::boolean | types::duration;
    else if (kind != compute::CumulativeKind::Count)
      s.input_types = (types::numeric - types::decimal) | types::date_like | types::duration | TypeSet::of({TypeId::Time});
    s.output_dtype = [kind = kind](const CallTypes& c) { return compute::cumulative_dtype(kind, c.inputs[0]); };
    s.kernel = unary([kind = kind](const Array& a) { return compute::cumulative(a, kind); });
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
