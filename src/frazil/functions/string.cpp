// String functions (Polars' `str` namespace) and pl.concat_str. Patterns, prefixes,
// lengths and other per-row arguments are inputs after the root (a literal broadcasts),
// so `col("a").str.contains(col("p"))` works as in Polars; flags are parameters.
#include "frazil/compute/string/concat.hpp"
#include "frazil/compute/string/convert.hpp"
#include "frazil/compute/string/json.hpp"
#include "frazil/compute/string/many.hpp"
#include "frazil/compute/string/match.hpp"
#include "frazil/compute/string/split.hpp"
#include "frazil/compute/string/transform.hpp"
#include "frazil/compute/temporal/strptime.hpp"
#include "frazil/core/tz.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

// Polars' display of a string function: its inputs in brackets, `str.contains(["x"])`.
std::string bracketed(std::span<const std::string> inputs, const Args&) {
  if (inputs.empty()) return "";
  std::string s = "[";
  for (size_t i = 0; i < inputs.size(); ++i) s += (i ? ", " : "") + inputs[i];
  return s + "]";
}

// A function of a String root with `extra` inputs after it; `matcher`s report another
// dtype as an unsupported operation, the others as a schema error, as Polars does.
FunctionSpec string_function(std::string name, size_t extra = 0, bool matcher = false) {
  FunctionSpec s;
  s.name = "str." + name;
  s.min_inputs = s.max_inputs = 1 + extra;
  s.input_types = types::string;
  s.type_error = matcher ? TypeErrorStyle::NotSupported : TypeErrorStyle::ExpectedString;
  s.null_if_null = all_inputs;
  s.output_dtype = same_as_root;
  s.format_args = bracketed;
  return s;
}

// Inputs [first, last] must be String (or null).
auto string_inputs(size_t first, size_t last, const char* what) {
  return [=](const CallTypes& c) {
    for (size_t i = first; i <= last && i < c.inputs.size(); ++i)
      if (!c.inputs[i].is_string() && !c.inputs[i].is_null())
        throw InvalidOperationError(err_msg("`", what, "` expects a String argument, got ", c.inputs[i]));
  };
}
auto integer_inputs(size_t first, size_t last, const char* what) {
  return [=](const CallTypes& c) {
    for (size_t i = first; i <= last && i < c.inputs.size(); ++i)
      if (!c.inputs[i].is_integer() && !c.inputs[i].is_null())
        throw InvalidOperationError(err_msg("`", what, "` expects an integer argument, got ", c.inputs[i]));
  };
}
// A List(String) (or String) patterns input.
// Polars takes the patterns of the Aho-Corasick functions as a List(String) (one list for
// every row, or a list per row); a flat value is refused with its advice to implode.
void require_pattern_list(const DataType& t, const char* what) {
  if (t.id() != TypeId::List)
    throw InvalidOperationError(err_msg("`", what, "` with a flat string datatype is invalid. Use `implode` to wrap "
                                        "the string value into a list."));
  if (!t.inner().is_string())
    throw InvalidOperationError(err_msg(what, " operation not supported for dtypes `str` and `", t.short_name(), "`"));
}

auto pattern_list_input(size_t i, const char* what) {
  return [=](const CallTypes& c) { require_pattern_list(c.inputs[i], what); };
}

// replace_many's two lists: "... with a flat str datatype as pattern is invalid", and both
// dtypes named when either list does not hold strings.
void check_replace_many(const CallTypes& c) {
  const DataType& pat = c.inputs[1];
  const DataType& rep = c.inputs[2];
  for (const auto& [t, role] : {std::pair{&pat, "pattern"}, std::pair{&rep, "replacement"}})
    if (t->id() != TypeId::List)
      throw InvalidOperationError(err_msg("`str.replace_many` with a flat ", t->short_name(), " datatype as ", role,
                                          " is invalid. Use `implode` to wrap the string value into a list."));
  if (!pat.inner().is_string() || !rep.inner().is_string())
    throw InvalidOperationError(err_msg("str.replace_many operation not supported for dtypes `str`, `",
                                        pat.short_name(), "` and `", rep.short_name(), "`"));
}

inline constexpr double kMatchSelectivity = 0.2;

void register_matching(Registry& r) {
  {
    FunctionSpec s = string_function("contains", 1, true);
    s.params = {bool_param("literal", false), bool_param("strict", true)};
    s.output_dtype = boolean;
    s.fallible = true;
    s.check = string_inputs(1, 1, "str.contains");
    s.kernel = [](const Args& a) -> Kernel {
      return [lit = a.get_bool("literal"), strict = a.get_bool("strict")](std::span<const ArrayRef> in) {
        return compute::str_contains(*in[0], *in[1], lit, strict);
      };
    };
    s.selectivity = [](std::span<const double>) { return kMatchSelectivity; };
    r.add(std::move(s));
  }
  for (const bool start : {true, false}) {
    FunctionSpec s = string_function(start ? "starts_with" : "ends_with", 1, true);
    s.output_dtype = boolean;
    s.check = string_inputs(1, 1, start ? "str.starts_with" : "str.ends_with");
    if (start) s.kernel = binary([](const Array& v, const Array& p) { return compute::str_starts_with(v, p); });
    else s.kernel = binary([](const Array& v, const Array& p) { return compute::str_ends_with(v, p); });
    s.selectivity = [](std::span<const double>) { return kMatchSelectivity; };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("count_matches", 1);
    s.params = {bool_param("literal", false)};
    s.output_dtype = fixed(DataType::uint32());
    s.check = string_inputs(1, 1, "str.count_matches");
    s.kernel = [](const Args& a) -> Kernel {
      return [lit = a.get_bool("literal")](std::span<const ArrayRef> in) {
        return compute::str_count_matches(*in[0], *in[1], lit);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("find", 1);
    s.params = {bool_param("literal", false), bool_param("strict", true)};
    s.output_dtype = fixed(DataType::uint32());
    s.check = string_inputs(1, 1, "str.find");
    s.kernel = [](const Args& a) -> Kernel {
      return [lit = a.get_bool("literal"), strict = a.get_bool("strict")](std::span<const ArrayRef> in) {
        return compute::str_find(*in[0], *in[1], lit, strict);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("extract", 1);
    s.params = {int_param("group_index", 1)};
    s.check = string_inputs(1, 1, "str.extract");
    s.kernel = [](const Args& a) -> Kernel {
      return [g = a.get_int("group_index")](std::span<const ArrayRef> in) { return compute::str_extract(*in[0], *in[1], g); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("extract_all", 1);
    s.output_dtype = fixed(DataType::list(DataType::string()));
    s.check = string_inputs(1, 1, "str.extract_all");
    s.kernel = binary(compute::str_extract_all);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("extract_groups");
    s.params = {string_param("pattern", "")};
    s.null_if_null = input(0);
    s.output_dtype = [](const CallTypes& c) { return compute::extract_groups_dtype(c.args.get_string("pattern")); };
    s.kernel = [](const Args& a) -> Kernel {
      return [p = a.get_string("pattern")](std::span<const ArrayRef> in) { return compute::str_extract_groups(*in[0], p); };
    };
    s.format_args = [](std::span<const std::string>, const Args& a) { return "[\"" + a.get_string("pattern") + "\"]"; };
    r.add(std::move(s));
  }
  for (const bool all : {false, true}) {
    FunctionSpec s = string_function(all ? "replace_all" : "replace", 2, true);
    s.params = {bool_param("literal", false), int_param("n", 1)};
    s.check = string_inputs(1, 2, all ? "str.replace_all" : "str.replace");
    s.kernel = [all](const Args& a) -> Kernel {
      return [lit = a.get_bool("literal"), n = a.get_int("n"), all](std::span<const ArrayRef> in) {
        return compute::str_replace(*in[0], *in[1], *in[2], lit, all, n);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("escape_regex");
    s.kernel = unary(compute::str_escape_regex);
    r.add(std::move(s));
  }
}

void register_many(Registry& r) {
  {
    FunctionSpec s = string_function("contains_any", 1);
    s.params = {bool_param("ascii_case_insensitive", false)};
    s.output_dtype = boolean;
    s.check = pattern_list_input(1, "str.contains_any");
    s.kernel = [](const Args& a) -> Kernel {
      return [ci = a.get_bool("ascii_case_insensitive")](std::span<const ArrayRef> in) {
        return compute::str_contains_any(*in[0], *in[1], ci);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("replace_many", 2);
    s.params = {bool_param("ascii_case_insensitive", false), bool_param("leftmost", false)};
    s.check = check_replace_many;
    s.kernel = [](const Args& a) -> Kernel {
      return [ci = a.get_bool("ascii_case_insensitive"), lm = a.get_bool("leftmost")](std::span<const ArrayRef> in) {
        return compute::str_replace_many(*in[0], *in[1], *in[2], ci, lm);
      };
    };
    r.add(std::move(s));
  }
  for (const bool extract : {true, false}) {
    FunctionSpec s = string_function(extract ? "extract_many" : "find_many", 1);
    s.params = {bool_param("ascii_case_insensitive", false), bool_param("overlapping", false),
                bool_param("leftmost", false)};
    s.output_dtype = fixed(DataType::list(extract ? DataType::string() : DataType::uint32()));
    s.check = pattern_list_input(1, extract ? "str.extract_many" : "str.find_many");
    s.kernel = [extract](const Args& a) -> Kernel {
      return [ci = a.get_bool("ascii_case_insensitive"), ov = a.get_bool("overlapping"), lm = a.get_bool("leftmost"),
              extract](std::span<const ArrayRef> in) {
        return extract ? compute::str_extract_many(*in[0], *in[1], ci, ov, lm)
                       : compute::str_find_many(*in[0], *in[1], ci, ov, lm);
      };
    };
    r.add(std::move(s));
  }
}

void register_transforms(Registry& r) {
  {
    // slice(offset, length): length null means to the end.
    FunctionSpec s = string_function("slice", 2);
    s.null_if_null = input(0) | input(1);
    s.check = integer_inputs(1, 2, "str.slice");
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) { return compute::str_slice(*in[0], *in[1], *in[2]); };
    };
    r.add(std::move(s));
  }
  for (const bool head : {true, false}) {
    FunctionSpec s = string_function(head ? "head" : "tail", 1);
    s.check = integer_inputs(1, 1, head ? "str.head" : "str.tail");
    s.kernel = head ? binary(compute::str_head) : binary(compute::str_tail);
    r.add(std::move(s));
  }
  struct Unary {
    const char* name;
    ArrayRef (*kernel)(const Array&);
  };
  for (const Unary& u : {Unary{"reverse", compute::str_reverse}, Unary{"to_uppercase", compute::str_to_uppercase},
                         Unary{"to_lowercase", compute::str_to_lowercase},
                         Unary{"to_titlecase", compute::str_to_titlecase}}) {
    FunctionSpec s = string_function(u.name);
    s.kernel = unary(u.kernel);
    r.add(std::move(s));
  }
  for (const bool bytes : {true, false}) {
    FunctionSpec s = string_function(bytes ? "len_bytes" : "len_chars");
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = bytes ? unary(compute::str_len_bytes) : unary(compute::str_len_chars);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("normalize");
    s.params = {string_param("form", "NFC", {"NFC", "NFKC", "NFD", "NFKD"})};
    s.kernel = [](const Args& a) -> Kernel {
      return [f = a.get_string("form")](std::span<const ArrayRef> in) { return compute::str_normalize(*in[0], f); };
    };
    r.add(std::move(s));
  }
  using compute::StripSide;
  for (const auto& [name, side] : {std::pair{"strip_chars", StripSide::Both}, std::pair{"strip_chars_start", StripSide::Start},
                                   std::pair{"strip_chars_end", StripSide::End}}) {
    // characters: input 1 (null: whitespace).
    FunctionSpec s = string_function(name, 1);
    s.null_if_null = input(0);
    s.check = string_inputs(1, 1, name);
    s.kernel = [side = side](const Args&) -> Kernel {
      return [side](std::span<const ArrayRef> in) { return compute::str_strip_chars(*in[0], *in[1], side); };
    };
    r.add(std::move(s));
  }
  for (const bool prefix : {true, false}) {
    FunctionSpec s = string_function(prefix ? "strip_prefix" : "strip_suffix", 1);
    s.check = string_inputs(1, 1, prefix ? "str.strip_prefix" : "str.strip_suffix");
    s.kernel = prefix ? binary(compute::str_strip_prefix) : binary(compute::str_strip_suffix);
    r.add(std::move(s));
  }
  for (const bool start : {true, false}) {
    FunctionSpec s = string_function(start ? "pad_start" : "pad_end", 1);
    s.params = {string_param("fill_char", " ")};
    s.check = integer_inputs(1, 1, start ? "str.pad_start" : "str.pad_end");
    s.kernel = [start](const Args& a) -> Kernel {
      return [fill = a.get_string("fill_char"), start](std::span<const ArrayRef> in) {
        return compute::str_pad(*in[0], *in[1], fill, start);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("zfill", 1);
    s.check = integer_inputs(1, 1, "str.zfill");
    s.kernel = binary(compute::str_zfill);
    r.add(std::move(s));
  }
}

void register_splitting(Registry& r) {
  {
    FunctionSpec s = string_function("split", 1);
    s.params = {bool_param("inclusive", false), bool_param("literal", true), bool_param("strict", true)};
    s.output_dtype = fixed(DataType::list(DataType::string()));
    s.check = string_inputs(1, 1, "str.split");
    s.kernel = [](const Args& a) -> Kernel {
      return [inc = a.get_bool("inclusive"), lit = a.get_bool("literal"),
              strict = a.get_bool("strict")](std::span<const ArrayRef> in) {
        return compute::str_split(*in[0], *in[1], inc, lit, strict);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("split_exact", 1);
    s.params = {int_param("n", 1), bool_param("inclusive", false)};
    s.null_if_null = 0;  // a null string gives a struct of null fields
    s.output_dtype = [](const CallTypes& c) { return compute::split_struct_dtype(c.args.get_int("n") + 1); };
    s.check = string_inputs(1, 1, "str.split_exact");
    s.kernel = [](const Args& a) -> Kernel {
      return [n = a.get_int("n"), inc = a.get_bool("inclusive")](std::span<const ArrayRef> in) {
        return compute::str_split_exact(*in[0], *in[1], n, inc);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("splitn", 1);
    s.params = {int_param("n", 1)};
    s.null_if_null = 0;
    s.output_dtype = [](const CallTypes& c) { return compute::split_struct_dtype(c.args.get_int("n")); };
    s.check = string_inputs(1, 1, "str.splitn");
    s.kernel = [](const Args& a) -> Kernel {
      return [n = a.get_int("n")](std::span<const ArrayRef> in) { return compute::str_splitn(*in[0], *in[1], n); };
    };
    r.add(std::move(s));
  }
}

// The Datetime a strptime gives: a format with an offset reads instants, shown in UTC
// unless a zone is given.
DataType strptime_dtype(const CallTypes& c) {
  auto dtype = c.args.get_dtype("dtype");
  if (!dtype) return DataType::datetime(TimeUnit::Microseconds);
  if (dtype->id() != TypeId::Datetime) return *dtype;
  auto format = c.args.get_optional_string("format");
  std::optional<std::string> zone = dtype->time_zone();
  if (zone) zone = tz::canonical_name(*zone);
  if (format && compute::format_has_offset(*format) && !zone) zone = "UTC";
  return DataType::datetime(dtype->time_unit(), zone);
}

void register_conversions(Registry& r) {
  {
    // strptime(dtype, format, strict, exact) with ambiguous as input 1.
    FunctionSpec s = string_function("strptime", 1);
    s.params = {dtype_param("dtype"), optional_string_param("format"), bool_param("strict", true),
                bool_param("exact", true), bool_param("cache", true)};
    s.null_if_null = input(0);
    s.fallible = true;
    s.output_dtype = strptime_dtype;
    s.check = [](const CallTypes& c) {
      auto d = c.args.get_dtype("dtype");
      if (!d || !(d->id() == TypeId::Date || d->id() == TypeId::Datetime || d->id() == TypeId::Time))
        throw InvalidOperationError(err_msg("`strptime` needs a Date, Datetime or Time dtype, got ",
                                            d ? d->to_string() : std::string("None")));
      if (auto f = c.args.get_optional_string("format")) compute::check_strptime_format(*f);
      if (d->id() == TypeId::Datetime && d->time_zone()) tz::TimeZone::get(tz::canonical_name(*d->time_zone()));
      string_inputs(1, 1, "str.strptime")(c);
    };
    s.kernel = [](const Args& a) -> Kernel {
      compute::StrptimeOptions o;
      o.format = a.get_optional_string("format");
      o.strict = a.get_bool("strict");
      o.exact = a.get_bool("exact");
      const DataType d = a.get_dtype("dtype").value_or(DataType::datetime(TimeUnit::Microseconds));
      return [o, d](std::span<const ArrayRef> in) -> ArrayRef {
        if (d.id() == TypeId::Date) return compute::str_to_date(*in[0], o);
        if (d.id() == TypeId::Time) return compute::str_to_time(*in[0], o);
        auto zone = d.time_zone();
        if (zone) zone = tz::canonical_name(*zone);
        return compute::str_to_datetime(*in[0], d.time_unit(), zone, o, *in[1]);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("to_integer", 1);
    s.params = {dtype_param("dtype"), bool_param("strict", true)};
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) { return c.args.get_dtype("dtype").value_or(DataType::int64()); };
    s.check = [](const CallTypes& c) {
      auto d = c.args.get_dtype("dtype");
      if (d && !d->is_integer()) throw InvalidOperationError(err_msg("`to_integer` needs an integer dtype, got ", *d));
      integer_inputs(1, 1, "str.to_integer")(c);
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [d = a.get_dtype("dtype").value_or(DataType::int64()), strict = a.get_bool("strict")](
                 std::span<const ArrayRef> in) { return compute::str_to_integer(*in[0], *in[1], d, strict); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("to_decimal");
    s.params = {int_param("scale", 0)};
    s.output_dtype = [](const CallTypes& c) {
      return DataType::decimal(38, static_cast<int>(c.args.get_int("scale")));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [scale = static_cast<int>(a.get_int("scale"))](std::span<const ArrayRef> in) {
        return compute::str_to_decimal(*in[0], scale);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("encode");
    s.params = {string_param("encoding", "hex", {"hex", "base64"})};
    s.kernel = [](const Args& a) -> Kernel {
      return [e = a.get_string("encoding")](std::span<const ArrayRef> in) { return compute::str_encode(*in[0], e); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("decode");
    s.params = {string_param("encoding", "hex", {"hex", "base64"}), bool_param("strict", true)};
    s.fallible = true;
    s.output_dtype = fixed(DataType::binary());
    s.kernel = [](const Args& a) -> Kernel {
      return [e = a.get_string("encoding"), strict = a.get_bool("strict")](std::span<const ArrayRef> in) {
        return compute::str_decode(*in[0], e, strict);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("json_decode");
    s.params = {dtype_param("dtype")};
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) { return c.args.get_dtype("dtype").value_or(DataType::null()); };
    s.check = [](const CallTypes& c) {
      if (!c.args.get_dtype("dtype")) throw InvalidOperationError("`json_decode` needs a dtype");
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [d = a.get_dtype("dtype").value_or(DataType::null())](std::span<const ArrayRef> in) {
        return compute::str_json_decode(*in[0], d);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("json_path_match", 1);
    s.check = string_inputs(1, 1, "str.json_path_match");
    s.kernel = binary(compute::str_json_path_match);
    r.add(std::move(s));
  }
}

void register_concatenation(Registry& r) {
  {
    // str.join: the column's values joined into one string (an aggregation).
    FunctionSpec s = string_function("join");
    s.shape = Shape::Reduction;
    s.input_types = TypeSet::any();
    s.null_if_null = 0;
    s.output_dtype = fixed(DataType::string());
    s.params = {string_param("delimiter", ""), bool_param("ignore_nulls", true)};
    s.kernel = [](const Args& a) -> Kernel {
      return [d = a.get_string("delimiter"), ign = a.get_bool("ignore_nulls")](std::span<const ArrayRef> in) {
        return compute::str_join(*in[0], d, ign);
      };
    };
    s.format_args = nullptr;
    r.add(std::move(s));
  }
  {
    // concat_str([inputs]): row-wise, inputs of other dtypes cast to String.
    FunctionSpec s;
    s.name = "concat_str";
    s.min_inputs = 1;
    s.max_inputs = std::numeric_limits<size_t>::max();
    s.params = {string_param("separator", ""), bool_param("ignore_nulls", false)};
    s.display_as_global = true;
    s.output_dtype = fixed(DataType::string());
    s.check = [](const CallTypes& c) {
      for (const DataType& t : c.inputs)
        if (t.is_nested() || t.id() == TypeId::Duration)
          throw InvalidOperationError(err_msg("`concat_str` cannot cast ", t, " to String"));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [sep = a.get_string("separator"), ign = a.get_bool("ignore_nulls")](std::span<const ArrayRef> in) {
        return compute::str_concat_horizontal(in, sep, ign);
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace

void register_string_functions(Registry& r) {
  register_matching(r);
  register_many(r);
  register_transforms(r);
  register_splitting(r);
  register_conversions(r);
  register_concatenation(r);
}

}  // namespace frazil::functions
