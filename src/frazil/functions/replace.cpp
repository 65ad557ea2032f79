// Value mapping: replace(old, new) and replace_strict(old, new, default, return_dtype).
#include "frazil/compute/replace.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

// replace_strict's result dtype: return_dtype, else the new values' (with the default's).
DataType strict_dtype(const CallTypes& c) {
  if (auto t = c.args.get_dtype("return_dtype")) return *t;
  DataType t = c.inputs[2];
  if (c.inputs.size() > 3) {
    auto s = get_supertype(t, c.inputs[3]);
    if (!s) throw SchemaError(err_msg("failed to determine supertype of ", t, " and ", c.inputs[3], " in replace_strict"));
    t = *s;
  }
  return t;
}

}  // namespace

void register_replace_functions(Registry& r) {
  {
    FunctionSpec s;
    s.name = "replace";
    s.min_inputs = s.max_inputs = 3;  // the values, old, new
    s.roles = {InputRole::Row, InputRole::Set, InputRole::Set};
    s.output_dtype = same_as_root;
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) { return compute::replace(*in[0], *in[1], *in[2]); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "replace_strict";
    s.min_inputs = 3;
    s.max_inputs = 4;  // the values, old, new[, default]
    s.roles = {InputRole::Row, InputRole::Set, InputRole::Set, InputRole::Row};
    s.fallible = true;  // a value not in old without a default
    s.params = {dtype_param("return_dtype")};
    s.output_dtype = strict_dtype;
    s.kernel = [](const Args& a) -> Kernel {
      return [rt = a.get_dtype("return_dtype")](std::span<const ArrayRef> in) {
        DataType out = rt ? *rt : in[2]->dtype();
        if (!rt && in.size() > 3)
          if (auto t = get_supertype(out, in[3]->dtype())) out = *t;
        return compute::replace_strict(*in[0], *in[1], *in[2], in.size() > 3 ? in[3].get() : nullptr, out);
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
