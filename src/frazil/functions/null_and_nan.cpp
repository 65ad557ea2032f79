// Null and NaN inspection and filling: is_null, is_not_null, is_nan, is_not_nan,
// is_finite, is_infinite, fill_null, fill_nan, coalesce, null_count.
#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/boolean.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::functions {

using namespace define;

namespace {

FunctionSpec inspection(std::string name, ArrayRef (*kernel)(const Array&)) {
  FunctionSpec s;
  s.name = std::move(name);
  s.output_dtype = boolean;
  s.zero_sign_insensitive = true;
  s.kernel = unary(kernel);
  return s;
}

// NaN tests: numbers only (an integer is never NaN); null rows stay null.
FunctionSpec nan_test(std::string name, ArrayRef (*kernel)(const Array&)) {
  FunctionSpec s = inspection(std::move(name), kernel);
  // (Float16, Int128 and UInt128 too: the kernel reads Float16 and answers integers by dtype.)
  s.input_types = types::floating | types::integer | TypeSet::of({TypeId::Float16, TypeId::Int128, TypeId::UInt128});
  s.null_if_null = input(0);
  return s;
}

}  // namespace

void register_null_functions(Registry& r) {
  {
    FunctionSpec s = inspection("is_null", compute::is_null);
    s.selectivity = [](std::span<const double>) { return 0.05; };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = inspection("is_not_null", compute::is_not_null);
    s.null_or_false_if_null = input(0);  // false where the input is null
    s.selectivity = [](std::span<const double>) { return 0.95; };
    r.add(std::move(s));
  }
  r.add(nan_test("is_nan", compute::is_nan));
  r.add(nan_test("is_not_nan", compute::is_not_nan));
  r.add(nan_test("is_finite", compute::is_finite));
  r.add(nan_test("is_infinite", compute::is_infinite));
  {
    FunctionSpec s;
    s.name = "fill_null";
    s.min_inputs = s.max_inputs = 2;
    s.coercion = Coercion::Supertype;
    s.zero_sign_insensitive = true;
    s.output_dtype = [](const CallTypes& c) { return supertype_of_inputs(c, "fill_null"); };
    s.kernel = binary(compute::fill_null);
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "fill_nan";
    s.min_inputs = s.max_inputs = 2;
    s.input_types = types::floating | types::integer | TypeSet::of({TypeId::Float16, TypeId::Int128, TypeId::UInt128});
    s.coercion = Coercion::Supertype;
    s.zero_sign_insensitive = true;
    s.output_dtype = [](const CallTypes& c) { return supertype_of_inputs(c, "fill_nan"); };
    s.kernel = binary(compute::fill_nan);
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "coalesce";
    s.min_inputs = 1;
    s.max_inputs = SIZE_MAX;
    s.coercion = Coercion::Supertype;
    s.zero_sign_insensitive = true;
    s.display_as_global = true;
    s.output_dtype = [](const CallTypes& c) { return supertype_of_inputs(c, "coalesce"); };
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) {
        ArrayRef out = in[0];
        for (size_t i = 1; i < in.size(); ++i) out = compute::fill_null(*out, *in[i]);
        return out;
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "null_count";
    s.shape = Shape::Reduction;
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = unary([](const Array& a) { return scalar_to_array(Scalar::uint32(a.null_count()), 1); });
    s.grouped_kernel = [](const Args&) -> GroupedKernel {
      return [](std::span<const ArrayRef> in, const compute::Groups& groups) {
        return compute::aggregate_grouped(compute::AggKind::NullCount, *in[0], groups);
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
