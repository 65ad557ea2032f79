// Inspection and re-labelling: is_empty, has_nulls, is_sorted, index_of, item, lower_bound,
// upper_bound, to_physical, reinterpret, truncdiv, drop_nans, hist.
#include "frazil/compute/cast.hpp"
#include "frazil/compute/inspect.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/functions/wide_inputs.hpp"

namespace frazil::functions {

using namespace define;

namespace {

ArrayRef bool_scalar(bool v) { return scalar_to_array(Scalar::boolean(v), 1); }

FunctionSpec reduction(std::string name) {
  FunctionSpec s;
  s.name = std::move(name);
  s.shape = Shape::Reduction;
  return s;
}

}  // namespace

void register_inspect_functions(Registry& r) {
  {
    FunctionSpec s = reduction("is_empty");
    s.output_dtype = boolean;
    s.kernel = unary([](const Array& a) { return bool_scalar(a.length() == 0); });
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reduction("has_nulls");
    s.output_dtype = boolean;
    s.kernel = unary([](const Array& a) { return bool_scalar(a.null_count() > 0); });
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reduction("is_sorted");
    s.order_sensitive = true;
    s.params = {bool_param("descending", false), bool_param("nulls_last", false)};
    s.output_dtype = boolean;
    s.kernel = [](const Args& a) -> Kernel {
      return [d = a.get_bool("descending"), nl = a.get_bool("nulls_last")](std::span<const ArrayRef> in) {
        return bool_scalar(compute::is_sorted(*in[0], d, nl));
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reduction("index_of");
    s.min_inputs = s.max_inputs = 2;
    s.order_sensitive = true;
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = binary([](const Array& x, const Array& el) {
      std::optional<int64_t> i = compute::index_of(x, el);
      return i ? scalar_to_array(Scalar::uint32(static_cast<uint32_t>(*i)), 1) : make_null_array(DataType::uint32(), 1);
    });
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reduction("item");
    s.fallible = true;  // more or fewer than one value
    s.params = {bool_param("allow_empty", false)};
    s.output_dtype = same_as_root;
    s.kernel = [](const Args& a) -> Kernel {
      return [allow_empty = a.get_bool("allow_empty")](std::span<const ArrayRef> in) {
        const Array& x = *in[0];
        if (x.length() == 1) return x.slice(0, 1);
        if (x.length() == 0 && allow_empty) return make_null_array(x.dtype(), 1);
        throw ComputeError(err_msg("aggregation 'item' expected ", allow_empty ? "no or " : "", "a single value, got ",
                                   x.length(), " values"));
      };
    };
    r.add(std::move(s));
  }
  for (bool upper : {false, true}) {
    FunctionSpec s = reduction(upper ? "upper_bound" : "lower_bound");
    s.input_types = types::integer | types::floating | types::date_like | types::duration | TypeSet::of({TypeId::Time});
    s.output_dtype = [](const CallTypes& c) { return c.inputs[0].physical(); };
    s.check = [upper](const CallTypes& c) {
      if (!c.inputs[0].physical().is_primitive_numeric())
        throw ComputeError(err_msg("cannot determine ", upper ? "upper" : "lower", " bound for dtype `",
                                   c.inputs[0].short_name(), "`"));
    };
    s.kernel = [upper](const Args&) -> Kernel {
      return [upper](std::span<const ArrayRef> in) { return compute::dtype_bound(in[0]->dtype(), upper); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "to_physical";
    s.null_if_null = input(0);
    s.output_dtype = [](const CallTypes& c) { return c.inputs[0].physical(); };
    s.kernel = unary([](const Array& a) {
      return a.dtype().physical() == a.dtype() ? a.slice(0, a.length()) : a.with_dtype(a.dtype().physical());
    });
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "reinterpret";
    s.null_if_null = input(0);
    s.params = {bool_param("signed", true)};
    s.input_types = types::integer;
    s.output_dtype = [](const CallTypes& c) {
      static constexpr TypeId sig[] = {TypeId::Int8, TypeId::Int16, TypeId::Int32, TypeId::Int64};
      static constexpr TypeId uns[] = {TypeId::UInt8, TypeId::UInt16, TypeId::UInt32, TypeId::UInt64};
      const int w = c.inputs[0].byte_width();
      const int k = w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3;
      return DataType(c.args.get_bool("signed") ? sig[k] : uns[k]);
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [sg = a.get_bool("signed")](std::span<const ArrayRef> in) { return compute::reinterpret_sign(*in[0], sg); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "truncdiv";
    s.min_inputs = s.max_inputs = 2;
    s.coercion = Coercion::Supertype;
    s.null_if_null = input(0) | input(1);
    s.input_types = types::integer | types::floating;
    s.output_dtype = [](const CallTypes& c) {
      auto t = get_supertype(c.inputs[0], c.inputs[1]);
      if (!t) throw SchemaError(err_msg("failed to determine supertype of ", c.inputs[0], " and ", c.inputs[1]));
      return *t;
    };
    s.kernel = binary(compute::truncdiv);
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "drop_nans";
    s.shape = Shape::Other;
    s.output_dtype = same_as_root;
    s.kernel = unary(compute::drop_nans);
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "hist";
    s.shape = Shape::Other;
    s.params = {float_list_param("bins"), optional_int_param("bin_count"), bool_param("include_breakpoint", false)};
    s.input_types = types::numeric;
    s.output_dtype = [](const CallTypes& c) -> DataType {
      if (!c.args.get_bool("include_breakpoint")) return DataType::uint32();
      return DataType::struct_({{"breakpoint", DataType::float64()}, {"count", DataType::uint32()}});
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [a](std::span<const ArrayRef> in) {
        return compute::hist(*in[0], a.get_float_list("bins"), a.get_optional_int("bin_count"),
                             a.get_bool("include_breakpoint"));
      };
    };
    r.add(float16_and_wide_ints(std::move(s)));
  }
}

}  // namespace frazil::functions
