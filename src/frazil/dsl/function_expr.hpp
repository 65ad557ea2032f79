// The functions of the expression language (everything that is not a column, literal,
// operator, cast, aggregation, sort, ternary or window), with their parameters. The
// physical layer maps each kind to a kernel through one dispatch table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "frazil/core/dtype.hpp"

namespace frazil::dsl {

enum class FunctionKind : uint8_t {
  // boolean / null inspection
  Not,
  IsNull,
  IsNotNull,
  IsNan,
  IsNotNan,
  IsFinite,
  IsInfinite,
  IsIn,       // inputs: x, values
  IsBetween,  // inputs: x, lo, hi; str = closed
  FillNull,   // inputs: x, fill
  FillNan,    // inputs: x, fill
  Coalesce,   // inputs: any number
  // numeric
  Abs,
  Negate,
  Round,  // n = decimals
  Floor,
  Ceil,
  Sqrt,
  Pow,  // inputs: base, exponent
  // shape-changing but row-local per input
  Reverse,
  Shift,      // n = periods
  Unique,     // flag = maintain_order
  DropNulls,
  Head,       // n
  Tail,       // n
  // reductions expressed as functions in Polars
  NullCount,
  // strings
  StrContains,    // str = pattern, flag = literal
  StrStartsWith,  // str = prefix
  StrEndsWith,    // str = suffix
  StrSlice,       // n = offset, length
  StrLenBytes,
  StrLenChars,
  StrToUppercase,
  StrToLowercase,
  StrStripChars,  // str = characters (flag = has characters)
  StrReplace,     // str = pattern, str2 = value, flag = literal, flag2 = all
  // temporal
  DtYear,
  DtMonth,
  DtDay,
  DtHour,
  DtMinute,
  DtSecond,
  DtWeekday,
  DtOrdinalDay,
  DtQuarter,
  // lists (appended: the kinds above keep their numbers)
  Explode,  // flag = empty_as_null, flag2 = keep_nulls; one row per list element
  // cumulative, in row order (compute/cumulative.hpp)
  CumSum,
  CumMin,
  CumMax,
  CumCount,
};

// Parameters; which fields a kind uses is noted beside the kind above.
struct FunctionOptions {
  int64_t n = 0;
  std::optional<int64_t> length;
  std::string str;
  std::string str2;
  bool flag = false;
  bool flag2 = false;

  bool operator==(const FunctionOptions&) const = default;
};

struct FunctionExpr {
  FunctionKind kind;
  FunctionOptions options;
  bool operator==(const FunctionExpr&) const = default;
};

// Polars' method name for display: "not", "is_null", "str.contains", "dt.year", ...
const char* function_name(FunctionKind kind);
// Elementwise: output row i depends only on input row i (and broadcast scalars).
bool function_is_elementwise(FunctionKind kind);
// The output has one row regardless of the input length.
bool function_is_reduction(FunctionKind kind);
size_t hash_function_expr(const FunctionExpr& f);
// How many inputs (the root included) a function takes: {min, max}.
std::pair<size_t, size_t> function_arity(FunctionKind kind);

}  // namespace frazil::dsl
