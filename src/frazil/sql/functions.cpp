// SQL function name -> DSL expression, one row per function. Semantics follow Polars' SQL
// (which follows PostgreSQL where they differ from the DataFrame API: SUM of no values is
// NULL, COUNT is Int64, SUBSTRING counts from 1, ...).
#include "frazil/sql/functions.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "frazil/dsl/list_namespace.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/literals.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using dsl::Expr;
using dsl::lit;
using dsl::lit_null;
using compute::AggKind;

void FunctionCall::fail(const std::string& message) const {
  translator->fail(ErrorKind::SQLInterface, location, name + "(): " + message);
}

void FunctionCall::arity(size_t lo, size_t hi) const {
  if (args.size() < lo || args.size() > hi) {
    std::string expected = lo == hi ? std::to_string(lo) : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                                                          : std::to_string(lo) + " to " + std::to_string(hi);
    fail("expects " + expected + " argument" + (hi == 1 && lo == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
  }
}

bool FunctionCall::is_constant(size_t i) const {
  return i < nodes.size() && (const_int(nodes[i]) || const_string(nodes[i]) ||
                              (nodes[i]->node_case == PG_QUERY__NODE__NODE_A_CONST));
}

int64_t FunctionCall::int_arg(size_t i) const {
  auto v = i < nodes.size() ? const_int(nodes[i]) : std::nullopt;
  if (!v) fail("argument " + std::to_string(i + 1) + " must be an integer literal");
  return *v;
}

double FunctionCall::float_arg(size_t i) const {
  if (i < nodes.size()) {
    if (auto v = const_int(nodes[i])) return static_cast<double>(*v);
    const PgNode* n = nodes[i];
    bool negative = false;
    if (n->node_case == PG_QUERY__NODE__NODE_A_EXPR && !n->a_expr->lexpr) {
      negative = true;
      n = n->a_expr->rexpr;
    }
    if (n->node_case == PG_QUERY__NODE__NODE_A_CONST && n->a_const->val_case == PG_QUERY__A__CONST__VAL_FVAL) {
      const auto value = parse_double(n->a_const->fval->fval);
      if (!value) fail("argument " + std::to_string(i + 1) + " is out of range: " + n->a_const->fval->fval);
      return (negative ? -1 : 1) * *value;
    }
  }
  fail("argument " + std::to_string(i + 1) + " must be a numeric literal");
}

std::string FunctionCall::string_arg(size_t i) const {
  auto v = i < nodes.size() ? const_string(nodes[i]) : std::nullopt;
  if (!v) fail("argument " + std::to_string(i + 1) + " must be a string literal");
  return *v;
}

DataType FunctionCall::dtype(size_t i) const { return translator->dtype_of(args[i], *scope); }

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Expr fn(const Expr& e, const char* name, Expr::Keywords keywords = {}) { return e.function(name, {}, std::move(keywords)); }

// ---- numeric ----
Expr f_abs(FunctionCall& c) { c.arity(1, 1); return c.args[0].abs(); }
Expr f_ceil(FunctionCall& c) { c.arity(1, 1); return c.args[0].ceil(); }
Expr f_floor(FunctionCall& c) { c.arity(1, 1); return c.args[0].floor(); }
Expr f_sqrt(FunctionCall& c) { c.arity(1, 1); return c.args[0].sqrt(); }
Expr f_cbrt(FunctionCall& c) {
  c.arity(1, 1);
  const Expr& x = c.args[0];
  // The real cube root, negative values included.
  Expr r = x.abs().pow(lit(1.0 / 3.0));
  return dsl::when(x < lit(0)).then(-r).otherwise(r);
}
// SQL rounds halves away from zero (ROUND(2.5) = 3, ROUND(-2.5) = -3), as PostgreSQL,
// DuckDB and Polars' SQL do; the DataFrame API's round() rounds them to even.
Expr f_round(FunctionCall& c) {
  c.arity(1, 2);
  if (c.args.size() > 1 && !const_int(c.nodes[1])) {
    std::string shown = const_string(c.nodes[1]).value_or("?");
    c.translator->fail(ErrorKind::SQLInterface, c.location, "invalid value for ROUND decimals ('" + shown + "')");
  }
  const int64_t n = c.args.size() > 1 ? c.int_arg(1) : 0;
  const DataType t = c.dtype(0);
  if (!t.is_float() && t.id() != TypeId::Null) return c.args[0].round(n);
  const double scale = std::pow(10.0, static_cast<double>(n));
  Expr y = c.args[0] * lit(scale);
  Expr r = (y.abs() + lit(0.5)).floor();
  return dsl::when(y < lit(0)).then(-r).otherwise(r) / lit(scale);
}
Expr f_power(FunctionCall& c) { c.arity(2, 2); return c.args[0].pow(c.args[1]); }
Expr f_mod(FunctionCall& c) {
  c.arity(2, 2);
  Expr m = c.args[0] % c.args[1];
  return dsl::when((m != lit(0)) & ((m < lit(0)) != (c.args[0] < lit(0)))).then(m - c.args[1]).otherwise(m);
}
Expr f_div(FunctionCall& c) { c.arity(2, 2); return dsl::floor_div(c.args[0], c.args[1]).cast(DataType::int64()); }
Expr f_sign(FunctionCall& c) {
  c.arity(1, 1);
  const Expr& x = c.args[0];
  return dsl::when(x > lit(0)).then(lit(1)).when(x < lit(0)).then(lit(-1)).when(x == lit(0)).then(lit(0)).otherwise(lit_null());
}
Expr f_bitand(FunctionCall& c) { c.arity(2, 2); return c.args[0] & c.args[1]; }
Expr f_bitor(FunctionCall& c) { c.arity(2, 2); return c.args[0] | c.args[1]; }
Expr f_bitxor(FunctionCall& c) { c.arity(2, 2); return c.args[0] ^ c.args[1]; }
// TRUNCATE(x [, n]): x cut towards zero to n decimals.
Expr f_truncate(FunctionCall& c) {
  c.arity(1, 2);
  const int64_t n = c.args.size() > 1 ? c.int_arg(1) : 0;
  const double scale = std::pow(10.0, static_cast<double>(n));
  Expr y = c.args[0].cast(DataType::float64()) * lit(scale);
  return dsl::when(y < lit(0)).then(-((-y).floor())).otherwise(y.floor()) / lit(scale);
}
Expr f_exp(FunctionCall& c) { c.arity(1, 1); return lit(M_E).pow(c.args[0].cast(DataType::float64())); }
Expr f_pi(FunctionCall& c) { c.arity(0, 0); return lit(M_PI); }
Expr f_degrees(FunctionCall& c) { c.arity(1, 1); return c.args[0] * lit(180.0 / M_PI); }
Expr f_radians(FunctionCall& c) { c.arity(1, 1); return c.args[0] * lit(M_PI / 180.0); }
Expr f_isnan(FunctionCall& c) { c.arity(1, 1); return c.args[0].is_nan(); }

// ---- conditional ----
Expr f_coalesce(FunctionCall& c) { c.arity(1, SIZE_MAX); return dsl::coalesce(c.args); }
Expr f_nullif(FunctionCall& c) {
  c.arity(2, 2);
  return dsl::when(c.args[0] == c.args[1]).then(lit_null()).otherwise(c.args[0]);
}
Expr f_if(FunctionCall& c) {
  c.arity(3, 3);
  return dsl::when(c.args[0]).then(c.args[1]).otherwise(c.args[2]);
}

// ---- strings ----
// CONCAT(a, b, ...): NULLs count as empty strings (PostgreSQL, Polars' SQL).
Expr f_concat(FunctionCall& c) {
  c.arity(1, SIZE_MAX);
  std::optional<Expr> out;
  for (const auto& a : c.args) {
    Expr piece = a.cast(DataType::string()).fill_null(lit(std::string()));
    out = out ? (*out + piece) : piece;
  }
  return *out;
}
// CONCAT_WS(sep, a, b, ...): the non-NULL values joined by sep.
Expr f_concat_ws(FunctionCall& c) {
  c.arity(2, SIZE_MAX);
  const std::string sep = c.string_arg(0);
  std::optional<Expr> out;
  for (size_t i = 1; i < c.args.size(); ++i) {
    Expr v = c.args[i].cast(DataType::string());
    if (!out) {
      out = v;
      continue;
    }
    Expr joined = *out + lit(sep) + v;
    out = dsl::when(out->is_null()).then(v).when(v.is_null()).then(*out).otherwise(joined);
  }
  return out->fill_null(lit(std::string()));
}
Expr f_lower(FunctionCall& c) { c.arity(1, 1); return fn(c.args[0], "str.to_lowercase"); }
Expr f_upper(FunctionCall& c) { c.arity(1, 1); return fn(c.args[0], "str.to_uppercase"); }
Expr f_length(FunctionCall& c) { c.arity(1, 1); return fn(c.args[0], "str.len_chars").cast(DataType::int64()); }
Expr f_octet_length(FunctionCall& c) { c.arity(1, 1); return fn(c.args[0], "str.len_bytes").cast(DataType::int64()); }
Expr f_bit_length(FunctionCall& c) {
  c.arity(1, 1);
  return fn(c.args[0], "str.len_bytes").cast(DataType::int64()) * lit(8);
}
Expr f_btrim(FunctionCall& c) {
  c.arity(1, 2);
  if (c.args.size() > 1) return c.args[0].str().strip_chars(c.string_arg(1));
  return c.args[0].str().strip_chars();
}
// One-sided trims: a regex anchored at the start or end, over the characters given.
Expr side_trim(FunctionCall& c, bool start) {
  c.arity(1, 2);
  std::string chars = c.args.size() > 1 ? c.string_arg(1) : " ";
  std::string cls = "[";
  for (char ch : chars) {
    if (ch == ']' || ch == '\\' || ch == '^' || ch == '-' || ch == '[') cls += '\\';
    cls += ch;
  }
  cls += "]+";
  std::string pattern = start ? "^" + cls : cls + "$";
  // Default: whitespace, as Polars' strip_chars_start/end.
  if (c.args.size() == 1) pattern = start ? "^\\s+" : "\\s+$";
  return c.args[0].str().replace(pattern, dsl::lit(std::string()), false);
}
Expr f_ltrim(FunctionCall& c) { return side_trim(c, true); }
Expr f_rtrim(FunctionCall& c) { return side_trim(c, false); }
Expr f_replace(FunctionCall& c) {
  c.arity(3, 3);
  return c.args[0].str().replace_all(c.string_arg(1), dsl::lit(c.string_arg(2)), true);
}
Expr f_regexp_replace(FunctionCall& c) {
  c.arity(3, 4);
  std::string flags = c.args.size() > 3 ? c.string_arg(3) : "";
  std::string pattern = c.string_arg(1);
  std::string inline_flags;
  bool all = false;
  for (char f : flags) {
    if (f == 'g') all = true;
    else if (f == 'i' || f == 'm' || f == 's') inline_flags += f;
    else if (f == 'c') continue;
    else c.fail(std::string("unsupported regex flag '") + f + "'");
  }
  if (!inline_flags.empty()) pattern = "(?" + inline_flags + ")" + pattern;

  // PostgreSQL's \1 back-references are RE2's $1.
  std::string rep = c.string_arg(2);
  std::string converted;
  for (size_t i = 0; i < rep.size(); ++i) {
    if (rep[i] == '\\' && i + 1 < rep.size() && std::isdigit(static_cast<unsigned char>(rep[i + 1]))) {
      converted += '$';
      continue;
    }
    converted += rep[i];
  }
  if (all) return c.args[0].str().replace_all(pattern, dsl::lit(converted), false);
  return c.args[0].str().replace(pattern, dsl::lit(converted), false);
}
Expr f_regexp_like(FunctionCall& c) {
  c.arity(2, 3);
  std::string pattern = c.string_arg(1);
  if (c.args.size() > 2) {
    std::string flags = c.string_arg(2);
    std::string inline_flags;
    for (char f : flags) {
      if (f == 'i' || f == 'm' || f == 's') inline_flags += f;
      else if (f != 'c') c.fail(std::string("unsupported regex flag '") + f + "'");
    }
    if (!inline_flags.empty()) pattern = "(?" + inline_flags + ")" + pattern;
  }
  return str_contains(c.args[0], pattern, false);
}
Expr f_starts_with(FunctionCall& c) {
  c.arity(2, 2);
  return str_starts_with(c.args[0], c.string_arg(1));
}
Expr f_ends_with(FunctionCall& c) {
  c.arity(2, 2);
  return str_ends_with(c.args[0], c.string_arg(1));
}
Expr f_contains(FunctionCall& c) {
  c.arity(2, 2);
  return str_contains(c.args[0], c.string_arg(1), true);
}
Expr slice(const Expr& s, int64_t offset, std::optional<int64_t> length) {
  return s.str().slice(offset, length);
}
// SUBSTRING(s, start [, length]): 1-based; positions before the first character count
// towards the length (SUBSTRING('abc', 0, 2) = 'a'), as in PostgreSQL.
Expr f_substring(FunctionCall& c) {
  c.arity(2, 3);
  const int64_t start = c.int_arg(1);
  std::optional<int64_t> length;
  if (c.args.size() > 2) {
    length = c.int_arg(2);
    if (*length < 0) c.fail("negative substring length not allowed");
  }
  if (start >= 1) return slice(c.args[0], start - 1, length);
  if (!length) return slice(c.args[0], 0, std::nullopt);
  return slice(c.args[0], 0, std::max<int64_t>(0, *length + start - 1));
}
Expr f_left(FunctionCall& c) {
  c.arity(2, 2);
  const int64_t n = c.int_arg(1);
  if (n >= 0) return slice(c.args[0], 0, n);
  // LEFT(s, -n): all but the last n characters.
  Expr len = fn(c.args[0], "str.len_chars");
  (void)len;
  c.fail("a negative length is not supported");
}
Expr f_right(FunctionCall& c) {
  c.arity(2, 2);
  const int64_t n = c.int_arg(1);
  if (n == 0) return slice(c.args[0], 0, 0);
  if (n > 0) return slice(c.args[0], -n, std::nullopt);
  c.fail("a negative length is not supported");
}

// ---- dates and times ----
Expr dt(const Expr& value, const char* name) { return fn(value, name); }

// The value's physical count of `unit`s since the epoch (a date counts days).
Expr physical(const Expr& value, const DataType& t) { return value.cast(t.id() == TypeId::Date ? DataType::int32() : DataType::int64()).cast(DataType::int64()); }

double units_per_second(const DataType& t) {
  if (t.id() == TypeId::Date) return 1.0 / 86400.0;
  if (t.id() == TypeId::Time) return 1e9;
  switch (t.time_unit()) {
    case TimeUnit::Nanoseconds: return 1e9;
    case TimeUnit::Microseconds: return 1e6;
    case TimeUnit::Milliseconds: return 1e3;
  }
  return 1e6;
}

// ISO 8601 week number and week-based year (weeks start on Monday; week 1 holds the
// year's first Thursday).
Expr iso_week_or_year(const Expr& value, bool want_year) {
  Expr year = dt(value, "dt.year").cast(DataType::int32());
  Expr doy = dt(value, "dt.ordinal_day").cast(DataType::int32());
  Expr dow = dt(value, "dt.weekday").cast(DataType::int32());  // Monday 1 .. Sunday 7
  auto p = [](const Expr& y) {
    return (y + dsl::floor_div(y, lit(4)) - dsl::floor_div(y, lit(100)) + dsl::floor_div(y, lit(400))) % lit(7);
  };
  auto weeks_in = [&](const Expr& y) {
    return dsl::when((p(y) == lit(4)) | (p(y - lit(1)) == lit(3))).then(lit(53)).otherwise(lit(52));
  };
  Expr w = dsl::floor_div(doy - dow + lit(10), lit(7));
  if (want_year)
    return dsl::when(w < lit(1)).then(year - lit(1)).when(w > weeks_in(year)).then(year + lit(1)).otherwise(year).cast(DataType::int32());
  return dsl::when(w < lit(1)).then(weeks_in(year - lit(1))).when(w > weeks_in(year)).then(lit(1)).otherwise(w).cast(DataType::int8());
}

Expr date_part(FunctionCall& c, const std::string& part_raw, const Expr& value, const DataType& t) {
  const std::string part = lower(part_raw);
  auto is = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (part == n) return true;
    return false;
  };
  if (is({"year", "years", "y", "yr", "yrs"})) return dt(value, "dt.year").cast(DataType::int32());
  if (is({"month", "months", "mon", "mons"})) return dt(value, "dt.month").cast(DataType::int8());
  if (is({"day", "days", "d"})) return dt(value, "dt.day").cast(DataType::int8());
  if (is({"hour", "hours", "h", "hr", "hrs"})) return dt(value, "dt.hour").cast(DataType::int8());
  if (is({"minute", "minutes", "min", "mins", "m"})) return dt(value, "dt.minute").cast(DataType::int8());
  if (is({"second", "seconds", "sec", "secs", "s"})) return dt(value, "dt.second").cast(DataType::int8());
  if (is({"quarter", "quarters"})) return dt(value, "dt.quarter").cast(DataType::int8());
  if (is({"isodow"})) return dt(value, "dt.weekday").cast(DataType::int8());
  if (is({"dow", "dayofweek", "weekday"})) return (dt(value, "dt.weekday") % lit(7)).cast(DataType::int8());
  if (is({"doy", "dayofyear"})) return dt(value, "dt.ordinal_day").cast(DataType::int16());
  if (is({"week", "weeks", "isoweek"})) return iso_week_or_year(value, false);
  if (is({"isoyear"})) return iso_week_or_year(value, true);
  if (is({"decade", "decades"})) return dsl::floor_div(dt(value, "dt.year"), lit(10)).cast(DataType::int32());
  if (is({"century", "centuries"})) {
    Expr y = dt(value, "dt.year").cast(DataType::int32());
    return dsl::when(y > lit(0)).then(dsl::floor_div(y - lit(1), lit(100)) + lit(1)).otherwise(dsl::floor_div(y, lit(100)) - lit(1)).cast(DataType::int32());
  }
  if (is({"millennium", "millennia", "millenniums"})) {
    Expr y = dt(value, "dt.year").cast(DataType::int32());
    return dsl::when(y > lit(0)).then(dsl::floor_div(y - lit(1), lit(1000)) + lit(1)).otherwise(dsl::floor_div(y, lit(1000)) - lit(1)).cast(DataType::int32());
  }
  // Sub-second parts count the seconds of the minute in that unit (PostgreSQL).
  if (is({"millisecond", "milliseconds", "ms", "microsecond", "microseconds", "us", "nanosecond", "nanoseconds", "ns"})) {
    const double per = units_per_second(t);
    const double scale = is({"millisecond", "milliseconds", "ms"}) ? 1e3 : is({"microsecond", "microseconds", "us"}) ? 1e6 : 1e9;
    if (t.id() == TypeId::Date) return lit(0.0);
    Expr within = physical(value, t) % lit(static_cast<int64_t>(60 * per));
    return within.cast(DataType::float64()) * lit(scale / per);
  }
  if (is({"epoch"})) {
    if (t.id() == TypeId::Date) return physical(value, t).cast(DataType::float64()) * lit(86400.0);
    return physical(value, t).cast(DataType::float64()) / lit(units_per_second(t));
  }
  if (is({"time"})) return value.cast(DataType::time());
  if (is({"date"})) return value.cast(DataType::date());
  c.translator->fail(ErrorKind::SQLInterface, c.location, "EXTRACT/DATE_PART does not support '" + part_raw + "' part");
}
Expr f_date_part(FunctionCall& c) {
  c.arity(2, 2);
  return date_part(c, c.string_arg(0), c.args[1], c.dtype(1));
}
Expr unit_function(FunctionCall& c, const char* part) {
  c.arity(1, 1);
  return date_part(c, part, c.args[0], c.dtype(0));
}
Expr f_year(FunctionCall& c) { return unit_function(c, "year"); }
Expr f_month(FunctionCall& c) { return unit_function(c, "month"); }
Expr f_day(FunctionCall& c) { return unit_function(c, "day"); }
Expr f_hour(FunctionCall& c) { return unit_function(c, "hour"); }
Expr f_minute(FunctionCall& c) { return unit_function(c, "minute"); }
Expr f_second(FunctionCall& c) { return unit_function(c, "second"); }
Expr f_quarter(FunctionCall& c) { return unit_function(c, "quarter"); }
Expr f_dayofweek(FunctionCall& c) { return unit_function(c, "dow"); }
Expr f_dayofyear(FunctionCall& c) { return unit_function(c, "doy"); }
Expr f_isodow(FunctionCall& c) { return unit_function(c, "isodow"); }
Expr f_time(FunctionCall& c) {
  c.arity(1, 1);
  if (auto text = const_string(c.nodes[0])) {
    auto v = parse_typed_literal(*text, DataType::time());
    if (!v) c.fail("invalid TIME value '" + *text + "'");
    return lit(*v);
  }
  return c.args[0].cast(DataType::time());
}
Expr f_timestamp(FunctionCall& c) {
  c.arity(1, 1);
  return c.args[0].cast(DataType::datetime(TimeUnit::Microseconds));
}
Expr f_date(FunctionCall& c) {
  c.arity(1, 2);
  if (c.args.size() == 2) c.fail("a date format is not supported yet; give ISO dates (YYYY-MM-DD)");
  return c.args[0].cast(DataType::date());
}

// ---- arrays (lists) ----
Expr f_array_get(FunctionCall& c) {
  c.arity(2, 2);
  return list_get_one_based(c.args[0], c.args[1], c.nodes[1]);
}
Expr f_array_length(FunctionCall& c) { c.arity(1, 1); return c.args[0].list().len(); }
Expr f_array_contains(FunctionCall& c) { c.arity(2, 2); return c.args[0].list().contains(c.args[1], true); }
Expr f_array_sum(FunctionCall& c) { c.arity(1, 1); return c.args[0].list().sum(); }
Expr f_array_mean(FunctionCall& c) { c.arity(1, 1); return c.args[0].list().mean(); }
Expr f_array_min(FunctionCall& c) { c.arity(1, 1); return c.args[0].list().min(); }
Expr f_array_max(FunctionCall& c) { c.arity(1, 1); return c.args[0].list().max(); }
Expr f_array_reverse(FunctionCall& c) { c.arity(1, 1); return c.args[0].list().reverse(); }
// Distinct values in the order they first appear.
Expr f_array_unique(FunctionCall& c) { c.arity(1, 1); return c.args[0].list().eval(dsl::element().unique(true)); }
// ARRAY_TO_STRING(arr, sep [, null_text]): NULL elements are skipped unless null_text is given.
Expr f_array_to_string(FunctionCall& c) {
  c.arity(2, 3);
  Expr strings = c.args[0].cast(DataType::list(DataType::string()));
  if (c.args.size() == 3) {
    const std::string null_text = c.string_arg(2);
    if (!null_text.empty())
      return strings.list().eval(dsl::element().fill_null(lit(null_text))).list().join(c.args[1], false);
  }
  return strings.list().join(c.args[1], true);
}

// ---- aggregates ----
// SQL aggregates over no (non-null) values are NULL, COUNT excepted.
Expr null_if_empty(const Expr& value, const Expr& arg) {
  return dsl::when(arg.count() > lit(0)).then(value).otherwise(lit_null());
}

Expr a_count(FunctionCall& c) {
  if (c.star || c.args.empty()) return dsl::len().cast(DataType::int64());
  c.arity(1, 1);
  const Expr& x = c.args[0];
  // COUNT(1), COUNT('x'): a non-null literal counts every row.
  if (!c.distinct && x.kind() == dsl::ExprKind::Literal && !x.node().literal.is_series() && !x.node().literal.scalar.is_null())
    return dsl::len().cast(DataType::int64());
  // COUNT(DISTINCT x) leaves NULL out, which n_unique counts as a value: one less when x
  // has a null, unless x is known to have none (PDS-H q16).
  const bool non_null = c.scope->rel && c.translator->known_non_null(x, *c.scope->rel);
  if (c.distinct && non_null) return x.n_unique().cast(DataType::int64());
  if (c.distinct) return (x.n_unique() - (x.null_count() > lit(0)).cast(DataType::uint32())).cast(DataType::int64());
  return x.count().cast(DataType::int64());
}
Expr a_sum(FunctionCall& c) {
  c.arity(1, 1);
  Expr x = c.distinct ? c.args[0].unique() : c.args[0];
  const bool non_null = !c.distinct && c.scope->rel && c.translator->known_non_null(x, *c.scope->rel);
  // A group of GROUP BY has rows; without nulls its sum is never SQL's NULL, and without
  // GROUP BY it is NULL only when there are no rows at all.
  if (non_null && c.scope->grouped_rows) return x.sum();
  if (non_null) return dsl::when(dsl::len() > lit(0)).then(x.sum()).otherwise(lit_null());
  return null_if_empty(x.sum(), x);
}
Expr a_total(FunctionCall& c) {
  c.arity(1, 1);
  Expr x = c.distinct ? c.args[0].unique() : c.args[0];
  return x.sum().cast(DataType::float64());
}
Expr a_avg(FunctionCall& c) {
  c.arity(1, 1);
  return (c.distinct ? c.args[0].unique() : c.args[0]).mean();
}
Expr a_min(FunctionCall& c) { c.arity(1, 1); return c.args[0].min(); }
Expr a_max(FunctionCall& c) { c.arity(1, 1); return c.args[0].max(); }
Expr a_median(FunctionCall& c) { c.arity(1, 1); return c.args[0].median(); }
Expr a_stddev(FunctionCall& c) { c.arity(1, 1); return c.args[0].std(1); }
Expr a_stddev_pop(FunctionCall& c) { c.arity(1, 1); return c.args[0].std(0); }
Expr a_variance(FunctionCall& c) { c.arity(1, 1); return c.args[0].var(1); }
Expr a_var_pop(FunctionCall& c) { c.arity(1, 1); return c.args[0].var(0); }
Expr a_first(FunctionCall& c) { c.arity(1, 1); return c.args[0].first(); }
// ARRAY_AGG([DISTINCT] x [ORDER BY y]): the group's values as one list.
Expr a_array_agg(FunctionCall& c) {
  c.arity(1, 1);
  const Expr x = c.distinct ? c.args[0].unique(true) : c.args[0];
  return x.function("implode");
}
Expr a_last(FunctionCall& c) { c.arity(1, 1); return c.args[0].last(); }
Expr a_bool_and(FunctionCall& c) { c.arity(1, 1); return null_if_empty(c.args[0].all(true), c.args[0]); }
Expr a_bool_or(FunctionCall& c) { c.arity(1, 1); return null_if_empty(c.args[0].any(true), c.args[0]); }
Expr quantile(FunctionCall& c, const char* interpolation) {
  // quantile_cont(x, q), or percentile_cont(q) WITHIN GROUP (ORDER BY x).
  if (!c.order_by.empty()) {
    c.arity(1, 1);
    const double q = c.float_arg(0);
    if (q < 0 || q > 1) c.fail("the quantile must be between 0 and 1");
    Expr x = c.order_by[0];
    // DESC ordering mirrors the quantile.
    return x.quantile(c.order_descending[0] ? 1 - q : q, interpolation);
  }
  c.arity(2, 2);
  const double q = c.float_arg(1);
  if (q < 0 || q > 1) c.fail("the quantile must be between 0 and 1");
  return c.args[0].quantile(q, interpolation);
}
Expr a_quantile_cont(FunctionCall& c) { return quantile(c, "linear"); }
Expr a_quantile_disc(FunctionCall& c) { return quantile(c, "lower"); }

const SqlFunction kScalar[] = {
    {"array_contains", f_array_contains},
    {"array_get", f_array_get},
    {"array_length", f_array_length},
    {"array_lower", f_array_min},
    {"array_max", f_array_max},
    {"array_mean", f_array_mean},
    {"array_min", f_array_min},
    {"array_reverse", f_array_reverse},
    {"array_sum", f_array_sum},
    {"array_to_string", f_array_to_string},
    {"array_unique", f_array_unique},
    {"array_upper", f_array_max},
    {"abs", f_abs},
    {"bit_and", f_bitand},
    {"bit_length", f_bit_length},
    {"bit_or", f_bitor},
    {"bit_xor", f_bitxor},
    {"bitand", f_bitand},
    {"bitor", f_bitor},
    {"bitxor", f_bitxor},
    {"btrim", f_btrim},
    {"cbrt", f_cbrt},
    {"ceil", f_ceil},
    {"ceiling", f_ceil},
    {"char_length", f_length},
    {"character_length", f_length},
    {"coalesce", f_coalesce},
    {"concat", f_concat},
    {"concat_ws", f_concat_ws},
    {"contains", f_contains},
    {"date", f_date},
    {"date_part", f_date_part},
    {"datepart", f_date_part},
    {"day", f_day},
    {"dayofmonth", f_day},
    {"dayofweek", f_dayofweek},
    {"dayofyear", f_dayofyear},
    {"degrees", f_degrees},
    {"div", f_div},
    {"dow", f_dayofweek},
    {"doy", f_dayofyear},
    {"ends_with", f_ends_with},
    {"exp", f_exp},
    {"extract", f_date_part},
    {"floor", f_floor},
    {"hour", f_hour},
    {"if", f_if},
    {"ifnull", f_coalesce},
    {"iif", f_if},
    {"isnan", f_isnan},
    {"isodow", f_isodow},
    {"lcase", f_lower},
    {"left", f_left},
    {"len", f_length},
    {"length", f_length},
    {"lower", f_lower},
    {"ltrim", f_ltrim},
    {"minute", f_minute},
    {"mod", f_mod},
    {"month", f_month},
    {"nullif", f_nullif},
    {"nvl", f_coalesce},
    {"octet_length", f_octet_length},
    {"pi", f_pi},
    {"pow", f_power},
    {"power", f_power},
    {"quarter", f_quarter},
    {"radians", f_radians},
    {"regexp_like", f_regexp_like},
    {"regexp_matches", f_regexp_like},
    {"regexp_replace", f_regexp_replace},
    {"replace", f_replace},
    {"right", f_right},
    {"round", f_round},
    {"rtrim", f_rtrim},
    {"second", f_second},
    {"sign", f_sign},
    {"sqrt", f_sqrt},
    {"starts_with", f_starts_with},
    {"strip_chars", f_btrim},
    {"substr", f_substring},
    {"substring", f_substring},
    {"time", f_time},
    {"timestamp", f_timestamp},
    {"to_date", f_date},
    {"trim", f_btrim},
    {"trunc", f_truncate},
    {"truncate", f_truncate},
    {"ucase", f_upper},
    {"upper", f_upper},
    {"year", f_year},
};

const SqlFunction kAggregate[] = {
    {"array_agg", a_array_agg},
    {"any_value", a_first},
    {"avg", a_avg},
    {"bool_and", a_bool_and},
    {"bool_or", a_bool_or},
    {"count", a_count},
    {"every", a_bool_and},
    {"first", a_first},
    {"last", a_last},
    {"max", a_max},
    {"mean", a_avg},
    {"median", a_median},
    {"min", a_min},
    {"percentile_cont", a_quantile_cont},
    {"percentile_disc", a_quantile_disc},
    {"quantile_cont", a_quantile_cont},
    {"quantile_disc", a_quantile_disc},
    {"stddev", a_stddev},
    {"stddev_pop", a_stddev_pop},
    {"stddev_samp", a_stddev},
    {"std", a_stddev},
    {"stdev", a_stddev},
    {"stdev_samp", a_stddev},
    {"stdev_pop", a_stddev_pop},
    {"sum", a_sum},
    {"total", a_total},
    {"var", a_variance},
    {"var_pop", a_var_pop},
    {"var_samp", a_variance},
    {"variance", a_variance},
};

template <size_t N>
const SqlFunction* find(const SqlFunction (&table)[N], const std::string& name) {
  const std::string key = lower(name);
  for (const auto& f : table)
    if (key == f.name) return &f;
  return nullptr;
}

}  // namespace

const SqlFunction* find_scalar_function(const std::string& name) { return find(kScalar, name); }
const SqlFunction* find_aggregate_function(const std::string& name) { return find(kAggregate, name); }
bool is_aggregate_function(const std::string& name) { return find(kAggregate, name) != nullptr; }

std::vector<std::string> function_names() {
  std::vector<std::string> out;
  for (const auto& f : kScalar) out.push_back(f.name);
  for (const auto& f : kAggregate) out.push_back(f.name);
  return out;
}

}  // namespace frazil::sql
