// Numeric functions: abs, neg, round, floor, ceil, sqrt, pow.
#include "frazil/compute/arithmetic.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

// A numeric function of one input that keeps the input's dtype; `zero_sign_insensitive`
// because -0.0 and 0.0 map to values that compare equal.
FunctionSpec numeric_unary(std::string name, ArrayRef (*kernel)(const Array&), TypeSet accepts) {
  FunctionSpec s;
  s.name = std::move(name);
  s.input_types = accepts;
  s.null_if_null = input(0);
  s.zero_sign_insensitive = true;
  s.output_dtype = same_as_root;
  s.kernel = unary(kernel);
  return s;
}

}  // namespace

void register_math_functions(Registry& r) {
  r.add(numeric_unary("abs", compute::abs, types::numeric | types::duration));
  r.add(numeric_unary("neg", compute::negate, (types::numeric - types::unsigned_int) | types::duration));
  {
    FunctionSpec s = numeric_unary("round", nullptr, types::numeric | types::duration);
    s.params = {int_param("decimals", 0), string_param("mode", "half_to_even", {"half_to_even", "half_away_from_zero"})};
    s.kernel = [](const Args& a) -> Kernel {
      const int64_t decimals = a.get_int("decimals");  // any UInt32 (round(2**31) wrapped as an int)
      const auto mode = a.get_string("mode") == "half_to_even" ? compute::RoundMode::HalfToEven
                                                                : compute::RoundMode::HalfAwayFromZero;
      return [decimals, mode](std::span<const ArrayRef> in) { return compute::round(*in[0], decimals, mode); };
    };
    s.check = [](const CallTypes& c) {
      if (c.args.get_int("decimals") < 0)
        throw InvalidOperationError(err_msg("`round` needs a non-negative number of decimals, got ",
                                            c.args.get_int("decimals")));
    };
    s.format_args = [](std::span<const std::string>, const Args& a) { return std::to_string(a.get_int("decimals")); };
    r.add(std::move(s));
  }
  r.add(numeric_unary("floor", compute::floor, types::numeric | types::duration));
  r.add(numeric_unary("ceil", compute::ceil, types::numeric | types::duration));
  {
    FunctionSpec s = numeric_unary("sqrt", compute::sqrt, types::numeric);
    // Polars takes the square root of a Boolean as of a number (sqrt(true) = 1.0), and of a
    // string as of its number, if any (sqrt("4") = 2.0, sqrt("a") = null).
    s.coercion = Coercion::FloatOperand;
    s.output_dtype = float_of_root;
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "pow";
    s.min_inputs = s.max_inputs = 2;
    s.coercion = Coercion::Power;
    s.null_if_null = input(0) | input(1);
    s.check = [](const CallTypes& c) {
      const DataType& b = c.inputs[0];
      if (!(b.is_numeric() || b.is_null()))
        throw InvalidOperationError(err_msg("`pow` operation not supported for dtype `", b.short_name(), "` as base"));
    };
    s.output_dtype = [](const CallTypes& c) {
      const DataType &b = c.inputs[0], &x = c.inputs[1];
      if (b.is_integer() && x.is_integer()) return b;
      if (b.id() == TypeId::Float32 && (x.id() == TypeId::Float32 || x.is_integer())) return b;
      return DataType::float64();
    };
    s.kernel = binary([](const Array& a, const Array& b) { return compute::arith(compute::ArithOp::Pow, a, b); });
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
