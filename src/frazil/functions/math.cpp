// Numeric functions: abs, neg, round, floor, ceil, sqrt, pow; trigonometric, hyperbolic,
// exponential and logarithmic functions, sign, clip, round_sig_figs, truncate, bit counts,
// is_close.
#include <algorithm>

#include "frazil/compute/decimal/decimal_arith.hpp"
#include "frazil/compute/arithmetic.hpp"
#include "frazil/compute/math.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/functions/wide_inputs.hpp"

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

// A float function of one number (Float32 stays Float32, everything else gives Float64).
FunctionSpec float_function(std::string name, compute::FloatFn fn, TypeSet accepts) {
  FunctionSpec s;
  s.name = std::move(name);
  s.input_types = accepts;
  s.null_if_null = input(0);
  s.output_dtype = float_of_root;
  s.kernel = [fn](const Args&) -> Kernel {
    return [fn](std::span<const ArrayRef> in) { return compute::float_fn(fn, *in[0]); };
  };
  return s;
}

FunctionSpec bit_count(std::string name, compute::BitCount what) {
  FunctionSpec s;
  s.name = std::move(name);
  s.input_types = types::integer | types::boolean | TypeSet::of({TypeId::Int128, TypeId::UInt128});
  s.null_if_null = input(0);
  s.output_dtype = fixed(DataType::uint32());
  s.kernel = [what](const Args&) -> Kernel {
    return [what](std::span<const ArrayRef> in) { return compute::bit_count(what, *in[0]); };
  };
  return s;
}

}  // namespace

// Int128, UInt128 and Float16: accepted by the rows whose kernels handle them
// (compute/wide_int/).
constexpr TypeSet kWide = TypeSet::of({TypeId::Int128, TypeId::UInt128, TypeId::Float16});
constexpr TypeSet kWideInts = TypeSet::of({TypeId::Int128, TypeId::UInt128});

// round/floor/ceil: the root's dtype; a Decimal that loses digits gains one of precision
// (Polars).
DataType rounded_dtype(const DataType& t, int64_t places) {
  return t.id() == TypeId::Decimal && places < t.scale() ? compute::decimal_rounded_dtype(t) : t;
}

// A rounding row: a numeric_unary whose Decimal result may gain a digit; `by_decimals`:
// rounds to the "decimals" parameter (round), else to whole numbers (floor, ceil).
FunctionSpec rounding(std::string name, ArrayRef (*kernel)(const Array&), TypeSet accepts, bool by_decimals) {
  FunctionSpec s = numeric_unary(std::move(name), kernel, accepts);
  if (by_decimals)
    s.output_dtype = [](const CallTypes& c) { return rounded_dtype(c.inputs[0], c.args.get_int("decimals")); };
  else
    s.output_dtype = [](const CallTypes& c) { return rounded_dtype(c.inputs[0], 0); };
  return s;
}

void register_math_functions(Registry& r) {
  using compute::FloatFn;
  const TypeSet real = types::integer | types::floating;
  const TypeSet number = types::numeric | types::boolean;
  for (auto [name, fn] : {std::pair{"sin", FloatFn::Sin}, {"cos", FloatFn::Cos}, {"tan", FloatFn::Tan},
                          {"cot", FloatFn::Cot}, {"arcsin", FloatFn::Arcsin}, {"arccos", FloatFn::Arccos},
                          {"arctan", FloatFn::Arctan}, {"sinh", FloatFn::Sinh}, {"cosh", FloatFn::Cosh},
                          {"tanh", FloatFn::Tanh}, {"arcsinh", FloatFn::Arcsinh}, {"arccosh", FloatFn::Arccosh},
                          {"arctanh", FloatFn::Arctanh}, {"degrees", FloatFn::Degrees},
                          {"radians", FloatFn::Radians}})
    r.add(float_function(name, fn, real | kWide));
  for (auto [name, fn] : {std::pair{"exp", FloatFn::Exp}, {"log1p", FloatFn::Log1p}, {"log10", FloatFn::Log10},
                          {"cbrt", FloatFn::Cbrt}, {"erf", FloatFn::Erf}, {"erfc", FloatFn::Erfc}})
    r.add(float_function(name, fn, number | kWide));
  {
    FunctionSpec s = float_function("log", FloatFn::Log, number | kWide);
    s.min_inputs = s.max_inputs = 2;  // the root and the base
    s.null_if_null = input(0) | input(1);
    // The root's float dtype, else the base's, else Float64 (Polars).
    s.output_dtype = [](const CallTypes& c) {
      for (const DataType& t : c.inputs)
        if (t.id() == TypeId::Float16 || t.id() == TypeId::Float32 || t.id() == TypeId::Float64) return t;
      return DataType::float64();
    };
    s.kernel = binary(compute::log_base);
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "arctan2";
    s.min_inputs = s.max_inputs = 2;
    s.input_types = real | kWide;
    s.null_if_null = input(0) | input(1);
    s.display_as_global = true;
    s.output_dtype = [](const CallTypes& c) {
      return c.inputs[0].id() == TypeId::Float32 && c.inputs[1].id() == TypeId::Float32 ? DataType::float32()
                                                                                        : DataType::float64();
    };
    s.check = [](const CallTypes& c) {
      const DataType& x = c.inputs[1];
      if (!(x.is_integer() || x.is_float() || x.is_null()))  // (is_integer holds 128-bit ones too)
        throw InvalidOperationError(err_msg("`arctan2` operation not supported for dtype `", x.short_name(), "`"));
    };
    s.kernel = binary(compute::arctan2);
    r.add(float16_through_float32(std::move(s)));
  }
  r.add(float16_through_float32(numeric_unary("sign", compute::sign, types::numeric | kWideInts)));
  {
    // clip(lower, upper): the bounds present are inputs 1 and 2 (has_lower/has_upper say which).
    FunctionSpec s;
    s.name = "clip";
    s.min_inputs = 1;
    s.max_inputs = 3;
    s.params = {bool_param("has_lower", false), bool_param("has_upper", false)};
    s.input_types = types::numeric | kWideInts | types::date_like | types::duration | TypeSet::of({TypeId::Time});
    s.null_if_null = input(0);
    s.output_dtype = same_as_root;
    s.check = [](const CallTypes& c) {
      const size_t want = 1 + c.args.get_bool("has_lower") + c.args.get_bool("has_upper");
      if (c.inputs.size() != want) throw InvalidOperationError("`clip`: the bounds do not match has_lower/has_upper");
    };
    s.kernel = [](const Args& a) -> Kernel {
      const bool lo = a.get_bool("has_lower"), hi = a.get_bool("has_upper");
      return [lo, hi](std::span<const ArrayRef> in) {
        const Array* lower = lo ? in[1].get() : nullptr;
        const Array* upper = hi ? in[lo ? 2 : 1].get() : nullptr;
        return compute::clip(*in[0], lower, upper);
      };
    };
    s.format_args = [](std::span<const std::string> inputs, const Args& a) {
      const bool lo = a.get_bool("has_lower"), hi = a.get_bool("has_upper");
      std::string out = lo ? inputs[0] : "None";
      return out + ", " + (hi ? inputs[lo ? 1 : 0] : "None");
    };
    r.add(float16_through_float32(std::move(s)));
  }
  {
    FunctionSpec s = numeric_unary("round_sig_figs", nullptr, types::numeric);
    s.params = {int_param("digits", 3)};
    // Rounding up may need one more digit.
    s.output_dtype = [](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      if (t.id() != TypeId::Decimal) return t;
      return DataType::decimal(std::min(t.precision() + 1, 38), t.scale());
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [d = static_cast<int>(a.get_int("digits"))](std::span<const ArrayRef> in) {
        ArrayRef out = compute::round_sig_figs(*in[0], d);
        const DataType& t = out->dtype();
        if (t.id() != TypeId::Decimal) return out;
        return out->with_dtype(DataType::decimal(std::min(t.precision() + 1, 38), t.scale()));
      };
    };
    s.check = [](const CallTypes& c) {
      if (c.args.get_int("digits") < 1) throw InvalidOperationError("digits must be an integer >= 1");
    };
    s.format_args = [](std::span<const std::string>, const Args& a) { return std::to_string(a.get_int("digits")); };
    r.add(float16_through_float32(std::move(s)));
  }
  {
    FunctionSpec s = numeric_unary("truncate", nullptr, types::numeric);
    s.params = {int_param("decimals", 0)};
    s.kernel = [](const Args& a) -> Kernel {
      return [d = static_cast<int>(a.get_int("decimals"))](std::span<const ArrayRef> in) {
        return compute::truncate(*in[0], d);
      };
    };
    s.check = [](const CallTypes& c) {
      if (c.args.get_int("decimals") < 0)
        throw InvalidOperationError(err_msg("`truncate` needs a non-negative number of decimals, got ",
                                            c.args.get_int("decimals")));
    };
    s.format_args = [](std::span<const std::string>, const Args& a) { return std::to_string(a.get_int("decimals")); };
    r.add(float16_through_float32(std::move(s)));
  }
  using compute::BitCount;
  r.add(bit_count("bitwise_count_ones", BitCount::CountOnes));
  r.add(bit_count("bitwise_count_zeros", BitCount::CountZeros));
  r.add(bit_count("bitwise_leading_ones", BitCount::LeadingOnes));
  r.add(bit_count("bitwise_leading_zeros", BitCount::LeadingZeros));
  r.add(bit_count("bitwise_trailing_ones", BitCount::TrailingOnes));
  r.add(bit_count("bitwise_trailing_zeros", BitCount::TrailingZeros));
  {
    FunctionSpec s;
    s.name = "is_close";
    s.min_inputs = s.max_inputs = 2;
    s.params = {float_param("abs_tol", 0.0), float_param("rel_tol", 1e-9), bool_param("nans_equal", false)};
    s.input_types = types::numeric | kWide;
    s.null_if_null = input(0) | input(1);
    s.output_dtype = boolean;
    s.check = [](const CallTypes& c) {
      const DataType& x = c.inputs[1];
      if (!(x.is_numeric() || x.is_null()))
        throw InvalidOperationError(err_msg("`is_close` operation not supported for dtype `", x.short_name(), "`"));
    };
    s.kernel = [](const Args& a) -> Kernel {
      const double at = a.get_float("abs_tol"), rt = a.get_float("rel_tol");
      const bool ne = a.get_bool("nans_equal");
      return [at, rt, ne](std::span<const ArrayRef> in) { return compute::is_close(*in[0], *in[1], at, rt, ne); };
    };
    r.add(std::move(s));
  }
  r.add(numeric_unary("abs", compute::abs, types::numeric | types::duration | kWide));
  r.add(numeric_unary("neg", compute::negate, (types::numeric - types::unsigned_int) | types::duration |
                                                  TypeSet::of({TypeId::Float16})));
  {
    FunctionSpec s = rounding("round", nullptr, types::numeric | types::duration | kWide, true);
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
  r.add(rounding("floor", compute::floor, types::numeric | types::duration | kWide, false));
  r.add(rounding("ceil", compute::ceil, types::numeric | types::duration | kWide, false));
  {
    FunctionSpec s = numeric_unary("sqrt", compute::sqrt, types::numeric | kWide);
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
    // Polars refuses a Null-typed operand too (a null value of a number type is fine).
    s.check = [](const CallTypes& c) {
      const char* role[] = {"base", "exponent"};
      for (int i = 0; i < 2; ++i)
        if (!c.inputs[i].is_numeric())
          throw InvalidOperationError(err_msg("`pow` operation not supported for dtype `", c.inputs[i].short_name(),
                                              "` as ", role[i]));
    };
    s.output_dtype = [](const CallTypes& c) {
      const DataType &b = c.inputs[0], &x = c.inputs[1];
      if (b.is_integer() && x.is_integer()) return b;
      if (b.is_float()) return b;
      if (b.is_integer() && x.is_float()) return x;
      return DataType::float64();
    };
    s.kernel = binary([](const Array& a, const Array& b) {
      // Type coercion casts an integer exponent of an integer base to UInt32.
      if (a.dtype().is_integer() && b.dtype().id() == TypeId::UInt32 && a.dtype() != b.dtype())
        return compute::integer_pow(a, b);
      return compute::arith(compute::ArithOp::Pow, a, b);
    });
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
