#include "frazil/compute/string/split.hpp"

#include "frazil/compute/string/string_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// Calls part(start, len) for each part of s split by `by` (at most `limit` parts, the last
// one the remainder), Polars' rules: an empty separator gives the characters.
template <typename F>
void split_parts(std::string_view s, std::string_view by, bool inclusive, size_t limit, F part) {
  if (by.empty()) {
    size_t p = 0, count = 0;
    while (p < s.size()) {
      if (count + 1 == limit) {
        part(p, s.size() - p);
        return;
      }
      const size_t q = advance_chars(s, p, 1);
      part(p, q - p);
      p = q;
      ++count;
    }
    return;
  }
  size_t start = 0, count = 0;
  while (true) {
    if (count + 1 == limit) {
      part(start, s.size() - start);
      return;
    }
    const size_t at = s.find(by, start);
    if (at == std::string_view::npos) {
      // The text after the last separator (inclusive splitting drops an empty tail).
      if (!(inclusive && start == s.size())) part(start, s.size() - start);
      return;
    }
    part(start, (inclusive ? at + by.size() : at) - start);
    start = at + by.size();
    ++count;
  }
}

template <typename F>
void regex_parts(std::string_view s, const RE2& re, bool inclusive, F part) {
  size_t start = 0, pos = 0;
  re2::StringPiece m;
  while (pos <= s.size() && re.Match(piece(s), pos, s.size(), RE2::UNANCHORED, &m, 1)) {
    const size_t at = static_cast<size_t>(m.data() - s.data());
    if (m.size() == 0) {
      // An empty match splits between characters (never at the very start).
      if (at >= s.size()) break;
      if (at > start) {
        part(start, at - start);
        start = at;
      }
      pos = advance_chars(s, at, 1);
      continue;
    }
    part(start, (inclusive ? at + m.size() : at) - start);
    start = pos = at + m.size();
  }
  if (!(inclusive && start == s.size() && start != 0)) part(start, s.size() - start);
}

}  // namespace

DataType split_struct_dtype(int64_t fields) {
  std::vector<Field> f;
  for (int64_t k = 0; k < fields; ++k) f.push_back(Field{"field_" + std::to_string(k), DataType::string()});
  return DataType::struct_(std::move(f));
}

ArrayRef str_split(const Array& values, const Array& by, bool inclusive, bool literal, bool strict) {
  require_string(values, "str.split");
  const int64_t n = output_length(values, {&by}, "str.split");
  StrArg sep(by, n, "str.split");
  if (values.dtype().is_null()) return make_null_array(DataType::list(DataType::string()), n);
  RegexCache regexes;
  StringListBuilder b(values, n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    if (values.is_null(r) || sep.is_null(i)) {
      b.end_row(false);
      continue;
    }
    const std::string_view s = values.str_value(r);
    auto add = [&](size_t start, size_t len) { b.add_sub(r, s, start, len); };
    if (literal) {
      // Polars: splitting the empty string by a separator gives one empty part, except
      // inclusively or by the empty separator.
      if (s.empty() && !inclusive && !sep.at(i).empty()) add(0, 0);
      else split_parts(s, sep.at(i), inclusive, SIZE_MAX, add);
    } else {
      const RE2* re = nullptr;
      try {
        re = &regexes.get(sep.at(i));
      } catch (const ComputeError&) {
        if (strict) throw;
        b.end_row(false);
        continue;
      }
      regex_parts(s, *re, inclusive, add);
    }
    b.end_row();
  }
  return b.finish();
}

namespace {

// A Struct of `fields` String fields from up to `fields` parts per row.
ArrayRef split_to_struct(const Array& values, const Array& by, int64_t fields, size_t limit, bool inclusive,
                         const char* what) {
  require_string(values, what);
  if (fields <= 0) throw InvalidOperationError(err_msg("`", what, "` needs a positive number of parts"));
  const int64_t n = output_length(values, {&by}, what);
  StrArg sep(by, n, what);
  const DataType dtype = split_struct_dtype(fields);
  std::vector<ViewWriter> writers;
  std::vector<ValidityBuilder> valid(static_cast<size_t>(fields));
  writers.reserve(static_cast<size_t>(fields));
  for (int64_t k = 0; k < fields; ++k) writers.emplace_back(values, n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    int64_t k = 0;
    if (!values.dtype().is_null() && values.is_valid(r) && !sep.is_null(i)) {
      const std::string_view s = values.str_value(r);
      split_parts(s, sep.at(i), inclusive, limit, [&](size_t start, size_t len) {
        if (k >= fields) return;
        writers[static_cast<size_t>(k)].push_sub(r, s, start, len);
        valid[static_cast<size_t>(k)].push(true);
        ++k;
      });
    }
    for (; k < fields; ++k) {
      writers[static_cast<size_t>(k)].push_null();
      valid[static_cast<size_t>(k)].push(false);
    }
  }
  std::vector<ArrayRef> children;
  for (int64_t k = 0; k < fields; ++k)
    children.push_back(writers[static_cast<size_t>(k)].finish(valid[static_cast<size_t>(k)].finish()));
  return Array::make(dtype, n, Buffer(), {}, std::move(children));
}

}  // namespace

ArrayRef str_split_exact(const Array& values, const Array& by, int64_t n, bool inclusive) {
  return split_to_struct(values, by, n + 1, SIZE_MAX, inclusive, "str.split_exact");
}

ArrayRef str_splitn(const Array& values, const Array& by, int64_t n) {
  return split_to_struct(values, by, n, static_cast<size_t>(std::max<int64_t>(n, 1)), false, "str.splitn");
}

}  // namespace frazil::compute
