#include "frazil/dsl/str_namespace.hpp"

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"

namespace frazil::dsl {

namespace {

// A one-row List(String) literal of the patterns (Polars implodes pattern lists).
Expr string_list(const std::vector<std::string>& values) {
  ViewBuilder b;
  for (const auto& v : values) b.push(v);
  ArrayRef child = b.finish();
  Buffer off = Buffer::allocate(2 * sizeof(int64_t));
  off.mutable_as<int64_t>()[0] = 0;
  off.mutable_as<int64_t>()[1] = static_cast<int64_t>(values.size());
  return lit_series(Array::make(DataType::list(DataType::string()), 1, Buffer(), {off}, {child}));
}

}  // namespace

StrNameSpace Expr::str() const { return StrNameSpace(*this); }

Expr StrNameSpace::contains(const Expr& pattern, bool literal, bool strict) const {
  return e_.function("str.contains", {pattern}, {{"literal", literal}, {"strict", strict}});
}
Expr StrNameSpace::starts_with(const Expr& prefix) const { return e_.function("str.starts_with", {prefix}); }
Expr StrNameSpace::ends_with(const Expr& suffix) const { return e_.function("str.ends_with", {suffix}); }
Expr StrNameSpace::count_matches(const std::string& pattern, bool literal) const {
  return e_.function("str.count_matches", {lit(pattern)}, {{"literal", literal}});
}
Expr StrNameSpace::find(const std::string& pattern, bool literal, bool strict) const {
  return e_.function("str.find", {lit(pattern)}, {{"literal", literal}, {"strict", strict}});
}
Expr StrNameSpace::extract(const std::string& pattern, int64_t group_index) const {
  return e_.function("str.extract", {lit(pattern)}, {{"group_index", group_index}});
}
Expr StrNameSpace::extract_all(const std::string& pattern) const { return e_.function("str.extract_all", {lit(pattern)}); }
Expr StrNameSpace::extract_groups(const std::string& pattern) const {
  return e_.function("str.extract_groups", {}, {{"pattern", pattern}});
}
Expr StrNameSpace::replace(const std::string& pattern, const Expr& value, bool literal, int64_t n) const {
  return e_.function("str.replace", {lit(pattern), value}, {{"literal", literal}, {"n", n}});
}
Expr StrNameSpace::replace_all(const std::string& pattern, const Expr& value, bool literal) const {
  return e_.function("str.replace_all", {lit(pattern), value}, {{"literal", literal}});
}
Expr StrNameSpace::escape_regex() const { return e_.function("str.escape_regex"); }
Expr StrNameSpace::contains_any(const std::vector<std::string>& patterns, bool ci) const {
  return e_.function("str.contains_any", {string_list(patterns)}, {{"ascii_case_insensitive", ci}});
}
Expr StrNameSpace::replace_many(const std::vector<std::string>& patterns, const std::vector<std::string>& with,
                                bool ci, bool leftmost) const {
  return e_.function("str.replace_many", {string_list(patterns), string_list(with)},
                     {{"ascii_case_insensitive", ci}, {"leftmost", leftmost}});
}
Expr StrNameSpace::extract_many(const std::vector<std::string>& patterns, bool ci, bool overlapping,
                                bool leftmost) const {
  return e_.function("str.extract_many", {string_list(patterns)},
                     {{"ascii_case_insensitive", ci}, {"overlapping", overlapping}, {"leftmost", leftmost}});
}
Expr StrNameSpace::find_many(const std::vector<std::string>& patterns, bool ci, bool overlapping, bool leftmost) const {
  return e_.function("str.find_many", {string_list(patterns)},
                     {{"ascii_case_insensitive", ci}, {"overlapping", overlapping}, {"leftmost", leftmost}});
}

Expr StrNameSpace::slice(const Expr& offset, const Expr& length) const {
  return e_.function("str.slice", {offset, length});
}
Expr StrNameSpace::slice(int64_t offset, std::optional<int64_t> length) const {
  return slice(lit(offset), length ? lit(*length) : lit_null());
}
Expr StrNameSpace::head(const Expr& n) const { return e_.function("str.head", {n}); }
Expr StrNameSpace::tail(const Expr& n) const { return e_.function("str.tail", {n}); }
Expr StrNameSpace::reverse() const { return e_.function("str.reverse"); }
Expr StrNameSpace::len_bytes() const { return e_.function("str.len_bytes"); }
Expr StrNameSpace::len_chars() const { return e_.function("str.len_chars"); }
Expr StrNameSpace::to_uppercase() const { return e_.function("str.to_uppercase"); }
Expr StrNameSpace::to_lowercase() const { return e_.function("str.to_lowercase"); }
Expr StrNameSpace::to_titlecase() const { return e_.function("str.to_titlecase"); }
Expr StrNameSpace::normalize(const std::string& form) const { return e_.function("str.normalize", {}, {{"form", form}}); }
Expr StrNameSpace::strip_chars() const { return e_.function("str.strip_chars", {lit_null()}); }
Expr StrNameSpace::strip_chars(const std::string& c) const { return e_.function("str.strip_chars", {lit(c)}); }
Expr StrNameSpace::strip_chars_start(const std::string& c) const { return e_.function("str.strip_chars_start", {lit(c)}); }
Expr StrNameSpace::strip_chars_end(const std::string& c) const { return e_.function("str.strip_chars_end", {lit(c)}); }
Expr StrNameSpace::strip_prefix(const std::string& p) const { return e_.function("str.strip_prefix", {lit(p)}); }
Expr StrNameSpace::strip_suffix(const std::string& s) const { return e_.function("str.strip_suffix", {lit(s)}); }
Expr StrNameSpace::pad_start(const Expr& length, const std::string& fill) const {
  return e_.function("str.pad_start", {length}, {{"fill_char", fill}});
}
Expr StrNameSpace::pad_end(const Expr& length, const std::string& fill) const {
  return e_.function("str.pad_end", {length}, {{"fill_char", fill}});
}
Expr StrNameSpace::zfill(const Expr& length) const { return e_.function("str.zfill", {length}); }

Expr StrNameSpace::split(const std::string& by, bool inclusive) const {
  return e_.function("str.split", {lit(by)}, {{"inclusive", inclusive}});
}
Expr StrNameSpace::split_exact(const std::string& by, int64_t n, bool inclusive) const {
  return e_.function("str.split_exact", {lit(by)}, {{"n", n}, {"inclusive", inclusive}});
}
Expr StrNameSpace::splitn(const std::string& by, int64_t n) const {
  return e_.function("str.splitn", {lit(by)}, {{"n", n}});
}

namespace {
functions::ArgValue optional_text(const std::optional<std::string>& s) {
  return s ? functions::ArgValue(*s) : functions::ArgValue(std::monostate{});
}
}  // namespace

Expr StrNameSpace::to_date(std::optional<std::string> format, bool strict, bool exact) const {
  return e_.function("str.strptime", {lit("raise")},
                     {{"dtype", DataType::date()}, {"format", optional_text(format)}, {"strict", strict}, {"exact", exact}});
}
Expr StrNameSpace::to_datetime(std::optional<std::string> format, TimeUnit unit, std::optional<std::string> time_zone,
                               bool strict, bool exact, const std::string& ambiguous) const {
  return e_.function("str.strptime", {lit(ambiguous)},
                     {{"dtype", DataType::datetime(unit, std::move(time_zone))},
                      {"format", optional_text(format)},
                      {"strict", strict},
                      {"exact", exact}});
}
Expr StrNameSpace::to_time(std::optional<std::string> format, bool strict) const {
  return e_.function("str.strptime", {lit("raise")},
                     {{"dtype", DataType::time()}, {"format", optional_text(format)}, {"strict", strict}});
}
Expr StrNameSpace::to_integer(const Expr& base, const DataType& dtype, bool strict) const {
  return e_.function("str.to_integer", {base}, {{"dtype", dtype}, {"strict", strict}});
}
Expr StrNameSpace::to_decimal(int scale) const {
  return e_.function("str.to_decimal", {}, {{"scale", int64_t{scale}}});
}
Expr StrNameSpace::encode(const std::string& encoding) const {
  return e_.function("str.encode", {}, {{"encoding", encoding}});
}
Expr StrNameSpace::decode(const std::string& encoding, bool strict) const {
  return e_.function("str.decode", {}, {{"encoding", encoding}, {"strict", strict}});
}
Expr StrNameSpace::json_decode(const DataType& dtype) const { return e_.function("str.json_decode", {}, {{"dtype", dtype}}); }
Expr StrNameSpace::json_path_match(const std::string& path) const {
  return e_.function("str.json_path_match", {lit(path)});
}
Expr StrNameSpace::join(const std::string& delimiter, bool ignore_nulls) const {
  return e_.function("str.join", {}, {{"delimiter", delimiter}, {"ignore_nulls", ignore_nulls}});
}

Expr concat_str(std::vector<Expr> inputs, const std::string& separator, bool ignore_nulls) {
  if (inputs.empty()) throw InvalidOperationError("concat_str needs at least one expression");
  Expr root = inputs.front();
  inputs.erase(inputs.begin());
  return root.function("concat_str", std::move(inputs), {{"separator", separator}, {"ignore_nulls", ignore_nulls}});
}

}  // namespace frazil::dsl
