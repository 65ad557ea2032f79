#include "frazil/compute/string/match.hpp"

#include <optional>

#include "frazil/compute/string/string_util.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

ArrayRef one_string(const std::string& s) { return scalar_to_array(Scalar::string(s), 1); }

// Polars/regex-crate replacement syntax ($1, ${1}, ${name}, $$) -> the captures to insert.
struct Rewrite {
  struct Part {
    std::string literal;
    int group = -1;  // >= 0: a capture group; -1: literal; -2: unknown name (empty)
  };
  std::vector<Part> parts;
  int max_group = 0;

  static Rewrite parse(std::string_view r, const RE2& re) {
    Rewrite out;
    std::string lit;
    auto flush = [&] {
      if (!lit.empty()) out.parts.push_back({lit, -1});
      lit.clear();
    };
    for (size_t i = 0; i < r.size(); ++i) {
      if (r[i] != '$' || i + 1 >= r.size()) {
        lit.push_back(r[i]);
        continue;
      }
      if (r[i + 1] == '$') {
        lit.push_back('$');
        ++i;
        continue;
      }
      std::string name;
      size_t j = i + 1;
      if (r[j] == '{') {
        const size_t close = r.find('}', j);
        if (close == std::string_view::npos) {
          lit.push_back('$');
          continue;
        }
        name = std::string(r.substr(j + 1, close - j - 1));
        j = close + 1;
      } else {
        while (j < r.size() && (std::isalnum(static_cast<unsigned char>(r[j])) || r[j] == '_')) name.push_back(r[j++]);
      }
      if (name.empty()) {
        lit.push_back('$');
        continue;
      }
      flush();
      int group = -2;
      if (std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        if (name.size() < 6) group = std::stoi(name);
        if (group > re.NumberOfCapturingGroups()) group = -2;
      } else {
        auto it = re.NamedCapturingGroups().find(name);
        if (it != re.NamedCapturingGroups().end()) group = it->second;
      }
      out.parts.push_back({"", group});
      out.max_group = std::max(out.max_group, group);
      i = j - 1;
    }
    flush();
    return out;
  }
};

// Iterates the non-overlapping matches of `re` in `s` with the regex crate's rules: after
// an empty match the search moves on one character; an empty match right where the
// previous match ended is skipped. f(groups) returns false to stop.
template <typename F>
void for_each_match(const RE2& re, std::string_view s, int ngroups, F f) {
  std::vector<re2::StringPiece> groups(static_cast<size_t>(std::max(ngroups, 1)));
  const re2::StringPiece text = piece(s);
  size_t pos = 0;
  std::optional<size_t> last_end;
  while (pos <= s.size()) {
    if (!re.Match(text, pos, s.size(), RE2::UNANCHORED, groups.data(), std::max(ngroups, 1))) break;
    const size_t start = static_cast<size_t>(groups[0].data() - s.data());
    const size_t end = start + groups[0].size();
    if (start == end && last_end && *last_end == start) {
      // An empty match adjacent to the previous one: try again one character on.
      if (start >= s.size()) break;
      pos = advance_chars(s, start, 1);
      continue;
    }
    if (!f(groups)) return;
    last_end = end;
    pos = start == end ? (end >= s.size() ? s.size() + 1 : advance_chars(s, end, 1)) : end;
  }
}

// The regex of a broadcast pattern, or nullptr when it is null; errors follow `strict`.
struct Pattern {
  std::unique_ptr<RE2> re;
  bool invalid = false;
};

Pattern compile(std::string_view pattern, bool strict) {
  Pattern p;
  RE2::Options opts;
  opts.set_log_errors(false);
  p.re = std::make_unique<RE2>(rust_regex_to_re2(pattern), opts);
  if (!p.re->ok()) {
    if (strict) throw ComputeError(err_msg("regex error: ", p.re->error(), " in pattern '", pattern, "'"));
    p.invalid = true;
  }
  return p;
}

// Row-wise Boolean/UInt32 results for a root and a String argument: f(s, arg) -> optional.
template <typename R, typename F>
ArrayRef with_pattern(const Array& values, const Array& arg, const DataType& out, const char* what, F f) {
  require_string(values, what);
  const int64_t n = output_length(values, {&arg}, what);
  StrArg a(arg, n, what);
  if (values.dtype().is_null()) return make_null_array(out, n);
  if constexpr (std::is_same_v<R, bool>) {
    BooleanBuilder b(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = root_row(values, i);
      if (values.is_null(r) || a.is_null(i)) {
        b.push_null();
        continue;
      }
      std::optional<bool> v = f(values.str_value(r), a.at(i));
      v ? b.push(*v) : b.push_null();
    }
    return b.finish();
  } else {
    PrimitiveBuilder<R> b(out, n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = root_row(values, i);
      if (values.is_null(r) || a.is_null(i)) {
        b.push_null();
        continue;
      }
      std::optional<R> v = f(values.str_value(r), a.at(i));
      v ? b.push(*v) : b.push_null();
    }
    return b.finish();
  }
}

// A regex per distinct pattern (compiled once when broadcast); nullptr for an invalid
// pattern with strict=false.
class Regexes {
 public:
  explicit Regexes(bool strict) : strict_(strict) {}
  const RE2* get(std::string_view pattern) {
    auto it = cache_.find(std::string(pattern));
    if (it == cache_.end()) it = cache_.emplace(std::string(pattern), compile(pattern, strict_)).first;
    return it->second.invalid ? nullptr : it->second.re.get();
  }

 private:
  bool strict_;
  std::unordered_map<std::string, Pattern> cache_;
};

}  // namespace

ArrayRef str_contains(const Array& values, const Array& pattern, bool literal, bool strict) {
  require_string(values, "str.contains");
  // Fast path: one pattern for every row.
  if (pattern.length() == 1 && values.length() != 1 && pattern.dtype().is_string() && pattern.is_valid(0)) {
    const std::string p(pattern.str_value(0));
    if (literal) return predicate(values, [&](std::string_view s) { return s.find(p) != std::string_view::npos; });
    Pattern re = compile(p, strict);
    if (re.invalid) return make_null_array(DataType::boolean(), values.length());
    return predicate(values, [&](std::string_view s) { return RE2::PartialMatch(piece(s), *re.re); });
  }
  Regexes regexes(strict);
  return with_pattern<bool>(values, pattern, DataType::boolean(), "str.contains",
                            [&](std::string_view s, std::string_view p) -> std::optional<bool> {
                              if (literal) return s.find(p) != std::string_view::npos;
                              const RE2* re = regexes.get(p);
                              if (!re) return std::nullopt;
                              return RE2::PartialMatch(piece(s), *re);
                            });
}

ArrayRef str_contains(const Array& values, const std::string& pattern, bool literal) {
  return str_contains(values, *one_string(pattern), literal, true);
}

ArrayRef str_starts_with(const Array& values, const Array& prefix) {
  if (prefix.length() == 1 && values.length() != 1 && prefix.dtype().is_string() && prefix.is_valid(0)) {
    require_string(values, "str.starts_with");
    const std::string p(prefix.str_value(0));
    return predicate(values, [&](std::string_view s) { return s.substr(0, p.size()) == p; });
  }
  return with_pattern<bool>(values, prefix, DataType::boolean(), "str.starts_with",
                            [](std::string_view s, std::string_view p) -> std::optional<bool> {
                              return s.substr(0, p.size()) == p;
                            });
}

ArrayRef str_starts_with(const Array& values, const std::string& prefix) {
  return str_starts_with(values, *one_string(prefix));
}

ArrayRef str_ends_with(const Array& values, const Array& suffix) {
  return with_pattern<bool>(values, suffix, DataType::boolean(), "str.ends_with",
                            [](std::string_view s, std::string_view p) -> std::optional<bool> {
                              return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
                            });
}

ArrayRef str_ends_with(const Array& values, const std::string& suffix) {
  return str_ends_with(values, *one_string(suffix));
}

ArrayRef str_count_matches(const Array& values, const Array& pattern, bool literal) {
  Regexes regexes(true);
  return with_pattern<uint32_t>(values, pattern, DataType::uint32(), "str.count_matches",
                                [&](std::string_view s, std::string_view p) -> std::optional<uint32_t> {
                                  uint32_t count = 0;
                                  if (literal) {
                                    if (p.empty()) return static_cast<uint32_t>(count_chars(s) + 1);
                                    for (size_t at = s.find(p); at != std::string_view::npos; at = s.find(p, at + p.size()))
                                      ++count;
                                    return count;
                                  }
                                  for_each_match(*regexes.get(p), s, 1, [&](auto&) { return ++count, true; });
                                  return count;
                                });
}

ArrayRef str_find(const Array& values, const Array& pattern, bool literal, bool strict) {
  Regexes regexes(strict);
  return with_pattern<uint32_t>(values, pattern, DataType::uint32(), "str.find",
                                [&](std::string_view s, std::string_view p) -> std::optional<uint32_t> {
                                  if (literal) {
                                    const size_t at = s.find(p);
                                    if (at == std::string_view::npos) return std::nullopt;
                                    return static_cast<uint32_t>(at);
                                  }
                                  const RE2* re = regexes.get(p);
                                  if (!re) return std::nullopt;
                                  re2::StringPiece m;
                                  if (!re->Match(piece(s), 0, s.size(), RE2::UNANCHORED, &m, 1)) return std::nullopt;
                                  return static_cast<uint32_t>(m.data() - s.data());
                                });
}

ArrayRef str_extract(const Array& values, const Array& pattern, int64_t group) {
  require_string(values, "str.extract");
  const int64_t n = output_length(values, {&pattern}, "str.extract");
  StrArg pat(pattern, n, "str.extract");
  if (values.dtype().is_null()) return make_null_array(DataType::string(), n);
  Regexes regexes(true);
  ViewWriter w(values, n);
  ValidityBuilder v;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    if (values.is_null(r) || pat.is_null(i) || group < 0) {
      w.push_null(), v.push(false);
      continue;
    }
    const RE2& re = *regexes.get(pat.at(i));
    const std::string_view s = values.str_value(r);
    if (group > re.NumberOfCapturingGroups()) {
      w.push_null(), v.push(false);
      continue;
    }
    std::vector<re2::StringPiece> g(static_cast<size_t>(group + 1));
    if (!re.Match(piece(s), 0, s.size(), RE2::UNANCHORED, g.data(), static_cast<int>(group + 1)) ||
        !g[static_cast<size_t>(group)].data()) {
      w.push_null(), v.push(false);
      continue;
    }
    const auto& m = g[static_cast<size_t>(group)];
    w.push_sub(r, s, static_cast<size_t>(m.data() - s.data()), m.size());
    v.push(true);
  }
  return w.finish(v.finish());
}

ArrayRef str_extract_all(const Array& values, const Array& pattern) {
  require_string(values, "str.extract_all");
  const int64_t n = output_length(values, {&pattern}, "str.extract_all");
  StrArg pat(pattern, n, "str.extract_all");
  Regexes regexes(true);
  if (values.dtype().is_null()) return make_null_array(DataType::list(DataType::string()), n);
  StringListBuilder b(values, n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    if (values.is_null(r) || pat.is_null(i)) {
      b.end_row(false);
      continue;
    }
    const std::string_view s = values.str_value(r);
    for_each_match(*regexes.get(pat.at(i)), s, 1, [&](const std::vector<re2::StringPiece>& g) {
      b.add_sub(r, s, static_cast<size_t>(g[0].data() - s.data()), g[0].size());
      return true;
    });
    b.end_row();
  }
  return b.finish();
}

DataType extract_groups_dtype(const std::string& pattern) {
  auto re = compile_regex(pattern);
  std::vector<std::string> names(static_cast<size_t>(re->NumberOfCapturingGroups()));
  for (size_t k = 0; k < names.size(); ++k) names[k] = std::to_string(k + 1);
  for (const auto& [name, index] : re->NamedCapturingGroups()) names[static_cast<size_t>(index - 1)] = name;
  std::vector<Field> fields;
  for (auto& name : names) fields.push_back(Field{name, DataType::string()});
  return DataType::struct_(std::move(fields));
}

ArrayRef str_extract_groups(const Array& values, const std::string& pattern) {
  require_string(values, "str.extract_groups");
  const DataType dtype = extract_groups_dtype(pattern);
  const int64_t n = values.length();
  if (values.dtype().is_null()) return make_null_array(dtype, n);
  auto re = compile_regex(pattern);
  const int groups = re->NumberOfCapturingGroups();
  std::vector<ViewWriter> writers;
  std::vector<ValidityBuilder> valid(static_cast<size_t>(groups));
  writers.reserve(static_cast<size_t>(groups));
  for (int k = 0; k < groups; ++k) writers.emplace_back(values, n);
  std::vector<re2::StringPiece> g(static_cast<size_t>(groups + 1));
  for (int64_t i = 0; i < n; ++i) {
    const bool row_valid = values.is_valid(i);
    const std::string_view s = row_valid ? values.str_value(i) : std::string_view();
    const bool matched = row_valid && re->Match(piece(s), 0, s.size(), RE2::UNANCHORED, g.data(), groups + 1);
    for (int k = 0; k < groups; ++k) {
      const auto& m = g[static_cast<size_t>(k + 1)];
      if (matched && m.data()) {
        writers[static_cast<size_t>(k)].push_sub(i, s, static_cast<size_t>(m.data() - s.data()), m.size());
        valid[static_cast<size_t>(k)].push(true);
      } else {
        writers[static_cast<size_t>(k)].push_null();
        valid[static_cast<size_t>(k)].push(false);
      }
    }
  }
  std::vector<ArrayRef> children;
  for (int k = 0; k < groups; ++k)
    children.push_back(writers[static_cast<size_t>(k)].finish(valid[static_cast<size_t>(k)].finish()));
  return Array::make(dtype, n, aligned_validity(values), {}, std::move(children));
}

ArrayRef str_replace(const Array& values, const Array& pattern, const Array& value, bool literal, bool all,
                     int64_t n_replace) {
  require_string(values, all ? "str.replace_all" : "str.replace");
  if (pattern.length() != 1)
    throw ComputeError(err_msg("dynamic pattern length in '", all ? "str.replace_all" : "str.replace",
                               "' expressions is not supported yet"));
  const int64_t n = output_length(values, {&pattern, &value}, "str.replace");
  StrArg val(value, n, "str.replace");
  if (values.dtype().is_null() || pattern.dtype().is_null() || pattern.is_null(0))
    return make_null_array(DataType::string(), n);
  const int64_t limit = all || n_replace < 0 ? INT64_MAX : n_replace;
  const std::string pat(pattern.str_value(0));
  // Polars replaces a regex n > 1 times only when it is plain text.
  if (!literal && !all && n_replace > 1) {
    if (escape_regex(pat) != pat) throw ComputeError("regex replacement with 'n > 1' not yet supported");
    literal = true;
  }
  std::string buf;
  ViewWriter w(values, n);
  ValidityBuilder v;
  std::unique_ptr<RE2> re;
  if (!literal) re = compile_regex(pat);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    if (values.is_null(r)) {
      w.push_null(), v.push(false);
      continue;
    }
    v.push(true);
    const std::string_view s = values.str_value(r);
    // A null replacement leaves the value as it is (as Polars).
    if (limit == 0 || val.is_null(i)) {
      w.push_sub(r, s, 0, s.size());
      continue;
    }
    const std::string_view rep = val.at(i);
    buf.clear();
    if (literal) {
      if (pat.empty()) {
        // An empty pattern matches before every character (and at the end).
        int64_t done = 0;
        size_t p = 0;
        while (true) {
          if (done < limit) buf += rep, ++done;
          if (p >= s.size()) break;
          const size_t q = advance_chars(s, p, 1);
          buf.append(s.substr(p, q - p));
          p = q;
        }
        w.push_new(buf);
        continue;
      }
      size_t at = s.find(pat);
      if (at == std::string_view::npos) {
        w.push_sub(r, s, 0, s.size());
        continue;
      }
      size_t last = 0;
      for (int64_t done = 0; at != std::string_view::npos && done < limit; ++done) {
        buf.append(s.substr(last, at - last));
        buf += rep;
        last = at + pat.size();
        at = s.find(pat, last);
      }
      buf.append(s.substr(last));
      w.push_new(buf);
      continue;
    }
    const Rewrite rw = Rewrite::parse(rep, *re);
    const int ngroups = std::max(rw.max_group, 0) + 1;
    size_t last = 0;
    int64_t done = 0;
    for_each_match(*re, s, ngroups, [&](const std::vector<re2::StringPiece>& g) {
      const size_t start = static_cast<size_t>(g[0].data() - s.data());
      buf.append(s.substr(last, start - last));
      for (const auto& part : rw.parts) {
        if (part.group == -1) buf += part.literal;
        else if (part.group >= 0 && g[static_cast<size_t>(part.group)].data())
          buf.append(g[static_cast<size_t>(part.group)].data(), g[static_cast<size_t>(part.group)].size());
      }
      last = start + g[0].size();
      return ++done < limit;
    });
    if (done == 0) {
      w.push_sub(r, s, 0, s.size());
      continue;
    }
    buf.append(s.substr(std::min(last, s.size())));
    w.push_new(buf);
  }
  return w.finish(v.finish());
}

ArrayRef str_replace(const Array& values, const std::string& pattern, const std::string& value, bool literal,
                     bool all) {
  return str_replace(values, *one_string(pattern), *one_string(value), literal, all, 1);
}

std::string escape_regex(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\.+*?()|[]{}^$#&-~").find(c) != std::string_view::npos) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

ArrayRef str_escape_regex(const Array& values) {
  require_string(values, "str.escape_regex");
  return map_strings(values, [](int64_t, std::string_view s, ViewWriter& w) { w.push_new(escape_regex(s)); });
}

}  // namespace frazil::compute
