// Temporal functions (Polars' `dt` namespace).
#include "frazil/compute/temporal.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

void register_temporal_functions(Registry& r) {
  using compute::DatePart;
  const std::pair<const char*, DatePart> parts[] = {
      {"year", DatePart::Year},       {"month", DatePart::Month},     {"day", DatePart::Day},
      {"hour", DatePart::Hour},       {"minute", DatePart::Minute},   {"second", DatePart::Second},
      {"weekday", DatePart::Weekday}, {"ordinal_day", DatePart::Ordinal}, {"quarter", DatePart::Quarter},
  };
  for (const auto& [name, part] : parts) {
    FunctionSpec s;
    s.name = std::string("dt.") + name;
    s.input_types = types::date_like;
    s.null_if_null = input(0);
    s.output_dtype = fixed(compute::date_part_dtype(part));
    s.kernel = [part = part](const Args&) -> Kernel {
      return [part](std::span<const ArrayRef> in) { return compute::date_part(*in[0], part); };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
