// Reductions: product, skew, kurtosis, nan_min, nan_max, arg_min, arg_max, bitwise_and,
// bitwise_or, bitwise_xor, entropy, min_by, max_by, approx_n_unique, implode. Each has a
// grouped kernel: inside agg() it reduces every group at once. And float_of_supertype, the
// dtype step of corr and cov.
#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/statistics.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/functions/wide_inputs.hpp"

namespace frazil::functions {

using namespace define;
using compute::StatKind;

namespace {

compute::StatOptions stat_options(const Args& a) {
  compute::StatOptions o;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string& n = a.name(i);
    if (n == "bias") o.bias = a.get_bool(n);
    else if (n == "fisher") o.fisher = a.get_bool(n);
    else if (n == "base") o.base = a.get_float(n);
    else if (n == "normalize") o.normalize = a.get_bool(n);
  }
  return o;
}

FunctionSpec statistic(std::string name, StatKind kind, TypeSet accepts, bool order_sensitive = false) {
  FunctionSpec s;
  s.name = std::move(name);
  s.shape = Shape::Reduction;
  s.order_sensitive = order_sensitive;
  s.input_types = accepts;
  s.output_dtype = [kind](const CallTypes& c) { return compute::stat_dtype(kind, c.inputs[0]); };
  s.kernel = [kind](const Args& a) -> Kernel {
    return [kind, o = stat_options(a)](std::span<const ArrayRef> in) { return compute::reduce(kind, *in[0], o); };
  };
  s.grouped_kernel = [kind](const Args& a) -> GroupedKernel {
    return [kind, o = stat_options(a)](std::span<const ArrayRef> in, const compute::Groups& g) {
      return compute::reduce_grouped(kind, *in[0], g, o);
    };
  };
  return s;
}

// A one-element list of the values (implode).
ArrayRef one_list(const Array& values) {
  Buffer off = Buffer::allocate(2 * sizeof(int64_t));
  off.mutable_as<int64_t>()[0] = 0;
  off.mutable_as<int64_t>()[1] = values.length();
  return Array::make(DataType::list(values.dtype()), 1, Buffer(), {off}, {values.slice(0, values.length())});
}

// The float a two-sided statistic (corr, cov) of a and b is given in, as Polars: their
// supertype's when it is Float32 or Float16, else Float64.
DataType statistic_float(const DataType& a, const DataType& b) {
  const std::optional<DataType> t = get_supertype(a, b);
  if (t && (t->id() == TypeId::Float32 || t->id() == TypeId::Float16)) return *t;
  return DataType::float64();
}

}  // namespace

void register_statistics_functions(Registry& r) {
  const TypeSet real = types::integer | types::floating | types::boolean;
  const TypeSet orderable = TypeSet::any() - TypeSet::of({TypeId::List, TypeId::Struct});
  r.add(float16_through_float32(statistic("product", StatKind::Product, real)));
  {
    FunctionSpec s = statistic("skew", StatKind::Skew, types::numeric | types::boolean);
    s.params = {bool_param("bias", true)};
    r.add(float16_and_wide_ints(std::move(s)));
  }
  {
    FunctionSpec s = statistic("kurtosis", StatKind::Kurtosis, types::numeric | types::boolean);
    s.params = {bool_param("fisher", true), bool_param("bias", true)};
    r.add(float16_and_wide_ints(std::move(s)));
  }
  r.add(statistic("nan_min", StatKind::NanMin, orderable));
  r.add(statistic("nan_max", StatKind::NanMax, orderable));
  // Positions: the first of equal extremes.
  r.add(statistic("arg_min", StatKind::ArgMin, orderable, true));
  r.add(statistic("arg_max", StatKind::ArgMax, orderable, true));
  // (Int128 and UInt128 too: the bitwise reductions are written for any width.)
  constexpr TypeSet kWideInts = TypeSet::of({TypeId::Int128, TypeId::UInt128});
  r.add(statistic("bitwise_and", StatKind::BitAnd, types::integer | types::boolean | kWideInts));
  r.add(statistic("bitwise_or", StatKind::BitOr, types::integer | types::boolean | kWideInts));
  r.add(statistic("bitwise_xor", StatKind::BitXor, types::integer | types::boolean | kWideInts));
  {
    FunctionSpec s = statistic("entropy", StatKind::Entropy, types::numeric | types::boolean);
    s.params = {float_param("base", 2.718281828459045), bool_param("normalize", true)};
    r.add(float16_and_wide_ints(std::move(s)));
  }
  for (bool largest : {false, true}) {
    FunctionSpec s;
    s.name = largest ? "max_by" : "min_by";
    s.shape = Shape::Reduction;
    s.min_inputs = s.max_inputs = 2;
    s.order_sensitive = true;  // the first of equal extremes of `by`
    s.output_dtype = same_as_root;
    s.check = [largest](const CallTypes& c) {
      if (c.inputs[1].is_nested())
        throw InvalidOperationError(err_msg("`", largest ? "max_by" : "min_by", "`: cannot order by dtype `",
                                            c.inputs[1].short_name(), "`"));
    };
    s.kernel = [largest](const Args&) -> Kernel {
      return [largest](std::span<const ArrayRef> in) { return compute::value_by(*in[0], *in[1], largest); };
    };
    s.grouped_kernel = [largest](const Args&) -> GroupedKernel {
      return [largest](std::span<const ArrayRef> in, const compute::Groups& g) {
        return compute::value_by_grouped(*in[0], *in[1], g, largest);
      };
    };
    r.add(std::move(s));
  }
  {
    // Counted exactly (a null counts as one value, as n_unique).
    FunctionSpec s;
    s.name = "approx_n_unique";
    s.shape = Shape::Reduction;
    s.output_dtype = fixed(DataType::uint32());
    s.zero_sign_insensitive = true;
    s.kernel = unary([](const Array& a) {
      return scalar_to_array(compute::aggregate(compute::AggKind::NUnique, a), 1);
    });
    s.grouped_kernel = [](const Args&) -> GroupedKernel {
      return [](std::span<const ArrayRef> in, const compute::Groups& g) {
        return compute::aggregate_grouped(compute::AggKind::NUnique, *in[0], g);
      };
    };
    r.add(std::move(s));
  }
  {
    // The column as one list; in agg(), one list per group.
    FunctionSpec s;
    s.name = "implode";
    s.shape = Shape::Reduction;
    s.order_sensitive = true;
    s.output_dtype = [](const CallTypes& c) { return DataType::list(c.inputs[0]); };
    s.kernel = unary(one_list);
    s.grouped_kernel = [](const Args&) -> GroupedKernel {
      return [](std::span<const ArrayRef> in, const compute::Groups& g) {
        return compute::implode_grouped(*in[0], g);
      };
    };
    r.add(std::move(s));
  }
  {
    // float_of_supertype(value, a, b): the value (a Float64 statistic of a and b: corr, cov)
    // cast to the float Polars gives it: Float32 or Float16 when that is the supertype of a
    // and b, else Float64. a and b are only typed (dsl::corr passes one row of each).
    FunctionSpec s;
    s.name = "float_of_supertype";
    s.min_inputs = s.max_inputs = 3;
    s.output_dtype = [](const CallTypes& c) { return statistic_float(c.inputs[1], c.inputs[2]); };
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) {
        const DataType t = statistic_float(in[1]->dtype(), in[2]->dtype());
        return t == in[0]->dtype() ? in[0] : compute::cast(*in[0], t, /*strict=*/false);
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
