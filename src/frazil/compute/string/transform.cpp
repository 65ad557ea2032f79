#include "frazil/compute/string/transform.hpp"

#include <unicode/ucasemap.h>
#include <unicode/uchar.h>
#include <utf8proc.h>

#include <mutex>

#include "frazil/compute/string/string_util.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// Character window [start, end) of a string by character positions (end nullopt: to the
// end); positions past the end clamp.
void push_char_window(ViewWriter& w, int64_t i, std::string_view s, int64_t start, std::optional<int64_t> end) {
  const bool ascii = all_ascii(s);
  size_t b0, b1;
  if (ascii) {
    const int64_t n = static_cast<int64_t>(s.size());
    b0 = static_cast<size_t>(std::clamp<int64_t>(start, 0, n));
    b1 = end ? static_cast<size_t>(std::clamp<int64_t>(*end, 0, n)) : s.size();
  } else {
    b0 = advance_chars(s, 0, std::max<int64_t>(start, 0));
    b1 = end ? advance_chars(s, b0, std::max<int64_t>(*end - std::max<int64_t>(start, 0), 0)) : s.size();
  }
  if (b1 < b0) b1 = b0;
  w.push_sub(i, s, b0, b1 - b0);
}

inline int64_t char_count(std::string_view s) { return all_ascii(s) ? static_cast<int64_t>(s.size()) : count_chars(s); }

// Runs f(i, root row, s, writer) for each output row with valid root and arguments (the
// others null).
template <typename Valid, typename F>
ArrayRef map_with_args(const Array& values, int64_t n, Valid args_valid, F f) {
  if (values.dtype().is_null()) return make_null_array(DataType::string(), n);
  ViewWriter w(values, n);
  ValidityBuilder v;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    if (values.is_null(r) || !args_valid(i)) {
      w.push_null(), v.push(false);
      continue;
    }
    v.push(true);
    f(i, r, values.str_value(r), w);
  }
  return w.finish(v.finish());
}

UCaseMap* case_map() {
  static UCaseMap* map = [] {
    UErrorCode err = U_ZERO_ERROR;
    UCaseMap* m = ucasemap_open("", 0, &err);
    if (U_FAILURE(err)) throw InternalError("ICU case mapping could not be opened");
    return m;
  }();
  return map;
}

// A case map for titlecasing single characters; per thread, as it holds a break iterator
// whose text it sets (freed at thread exit).
UCaseMap* title_map() {
  struct Owned {
    UCaseMap* map;
    ~Owned() { ucasemap_close(map); }
  };
  thread_local Owned owned{[] {
    UErrorCode err = U_ZERO_ERROR;
    UCaseMap* m = ucasemap_open("", U_TITLECASE_NO_BREAK_ADJUSTMENT, &err);
    if (U_FAILURE(err)) throw InternalError("ICU case mapping could not be opened");
    return m;
  }()};
  return owned.map;
}

// Full Unicode case mapping of UTF-8 text (ASCII fast path).
void change_case(std::string_view s, bool upper, std::string& out) {
  if (all_ascii(s)) {
    out.assign(s);
    for (char& c : out) {
      if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
      else if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    }
    return;
  }
  out.resize(s.size() * 3 + 16);
  for (int attempt = 0; attempt < 2; ++attempt) {
    UErrorCode err = U_ZERO_ERROR;
    const int32_t n = upper ? ucasemap_utf8ToUpper(case_map(), out.data(), static_cast<int32_t>(out.size()), s.data(),
                                                   static_cast<int32_t>(s.size()), &err)
                            : ucasemap_utf8ToLower(case_map(), out.data(), static_cast<int32_t>(out.size()), s.data(),
                                                   static_cast<int32_t>(s.size()), &err);
    if (err == U_BUFFER_OVERFLOW_ERROR) {
      out.resize(static_cast<size_t>(n) + 1);
      continue;
    }
    if (U_FAILURE(err)) {
      out.assign(s);  // (invalid UTF-8: left as it is)
      return;
    }
    out.resize(static_cast<size_t>(n));
    return;
  }
}

// The titlecase form of one character ("ﬁ" -> "Fi", "ǆ" -> "ǅ").
void title_char(std::string_view ch, std::string& out) {
  if (ch.size() == 1) {
    out.assign(1, ch[0] >= 'a' && ch[0] <= 'z' ? static_cast<char>(ch[0] - 32) : ch[0]);
    return;
  }
  out.resize(32);
  UErrorCode err = U_ZERO_ERROR;
  const int32_t n = ucasemap_utf8ToTitle(title_map(), out.data(), static_cast<int32_t>(out.size()), ch.data(),
                                         static_cast<int32_t>(ch.size()), &err);
  if (U_FAILURE(err)) {
    change_case(ch, true, out);
    return;
  }
  out.resize(static_cast<size_t>(n));
}

// Rust's char::is_alphabetic: the Unicode Alphabetic property.
bool is_alphabetic(uint32_t cp) { return u_isUAlphabetic(static_cast<UChar32>(cp)) != 0; }

ArrayRef one_int(int64_t v) { return scalar_to_array(Scalar::int64(v), 1); }

}  // namespace

ArrayRef str_slice(const Array& values, const Array& offset, const Array& length) {
  require_string(values, "str.slice");
  const int64_t n = output_length(values, {&offset, &length}, "str.slice");
  IntArg off(offset, n, "str.slice"), len(length, n, "str.slice");
  // A null length (a Null column, or a null in a row) means to the end; a null offset, null.
  const bool length_given = !length.dtype().is_null();
  return map_with_args(values, n, [&](int64_t i) { return !off.is_null(i); },
                       [&](int64_t i, int64_t r, std::string_view s, ViewWriter& w) {
                         const int64_t o = off.at(i);
                         const bool bounded = length_given && !len.is_null(i);
                         if (bounded && len.at(i) < 0)
                           throw InvalidOperationError("str.slice: length must be non-negative");
                         const int64_t nchars = o < 0 ? char_count(s) : 0;
                         const int64_t start = o < 0 ? nchars + o : o;
                         std::optional<int64_t> end;
                         if (bounded) end = std::max<int64_t>(0, start + len.at(i));
                         push_char_window(w, r, s, std::max<int64_t>(start, 0), end);
                       });
}

ArrayRef str_slice(const Array& values, int64_t offset, std::optional<int64_t> length) {
  return str_slice(values, *one_int(offset),
                   length ? *one_int(*length) : *make_null_array(DataType::int64(), 1));
}

ArrayRef str_head(const Array& values, const Array& count) {
  require_string(values, "str.head");
  const int64_t n = output_length(values, {&count}, "str.head");
  IntArg k(count, n, "str.head");
  return map_with_args(values, n, [&](int64_t i) { return !k.is_null(i); },
                       [&](int64_t i, int64_t r, std::string_view s, ViewWriter& w) {
                         const int64_t c = k.at(i);
                         push_char_window(w, r, s, 0, c >= 0 ? c : std::max<int64_t>(0, char_count(s) + c));
                       });
}

ArrayRef str_tail(const Array& values, const Array& count) {
  require_string(values, "str.tail");
  const int64_t n = output_length(values, {&count}, "str.tail");
  IntArg k(count, n, "str.tail");
  return map_with_args(values, n, [&](int64_t i) { return !k.is_null(i); },
                       [&](int64_t i, int64_t r, std::string_view s, ViewWriter& w) {
                         const int64_t c = k.at(i), total = char_count(s);
                         push_char_window(w, r, s, c >= 0 ? std::max<int64_t>(0, total - c) : std::min(-c, total),
                                          std::nullopt);
                       });
}

ArrayRef str_reverse(const Array& values) {
  require_string(values, "str.reverse");
  std::string buf;
  std::vector<std::string_view> graphemes;
  return map_strings(values, [&](int64_t i, std::string_view s, ViewWriter& w) {
    if (all_ascii(s)) {
      buf.assign(s.rbegin(), s.rend());
      w.push_new(buf);
      return;
    }
    // Extended grapheme clusters (a letter and its combining marks stay together).
    graphemes.clear();
    utf8proc_int32_t state = 0, prev = -1;
    size_t start = 0, p = 0;
    while (p < s.size()) {
      const size_t at = p;
      const uint32_t cp = decode(s, p);
      if (prev >= 0 && utf8proc_grapheme_break_stateful(prev, static_cast<utf8proc_int32_t>(cp), &state)) {
        graphemes.push_back(s.substr(start, at - start));
        start = at;
      }
      prev = static_cast<utf8proc_int32_t>(cp);
    }
    graphemes.push_back(s.substr(start));
    buf.clear();
    for (auto it = graphemes.rbegin(); it != graphemes.rend(); ++it) buf.append(*it);
    (void)i;
    w.push_new(buf);
  });
}

ArrayRef str_len_bytes(const Array& values) {
  require_string(values, "str.len_bytes");
  const int64_t n = values.length();
  if (values.dtype().is_null()) return make_null_array(DataType::uint32(), n);
  Buffer out = alloc_values<uint32_t>(n);
  uint32_t* o = out.mutable_as<uint32_t>();
  const View* v = values.views();
  for (int64_t i = 0; i < n; ++i) o[i] = v[i].length;  // no data access needed
  return make_fixed(DataType::uint32(), n, aligned_validity(values), std::move(out));
}

ArrayRef str_len_chars(const Array& values) {
  require_string(values, "str.len_chars");
  const int64_t n = values.length();
  if (values.dtype().is_null()) return make_null_array(DataType::uint32(), n);
  Buffer out = alloc_values<uint32_t>(n);
  uint32_t* o = out.mutable_as<uint32_t>();
  for (int64_t i = 0; i < n; ++i) o[i] = static_cast<uint32_t>(count_chars(values.str_value(i)));
  return make_fixed(DataType::uint32(), n, aligned_validity(values), std::move(out));
}

ArrayRef str_strip_chars(const Array& values, const Array& characters, StripSide side) {
  require_string(values, "str.strip_chars");
  const int64_t n = output_length(values, {&characters}, "str.strip_chars");
  const bool whitespace = characters.dtype().is_null();
  std::optional<StrArg> chars;
  if (!whitespace) chars.emplace(characters, n, "str.strip_chars");
  std::vector<uint32_t> set;
  int64_t set_row = -1;
  // A null row of characters strips whitespace, as Polars.
  return map_with_args(values, n, [&](int64_t) { return true; },
                       [&](int64_t i, int64_t r, std::string_view s, ViewWriter& w) {
                         const bool ws = whitespace || chars->is_null(i);
                         if (!ws && (!chars->one() || set_row < 0) && set_row != i) {
                           set.clear();
                           const std::string_view c = chars->at(i);
                           size_t p = 0;
                           while (p < c.size()) set.push_back(decode(c, p));
                           set_row = chars->one() ? 0 : i;
                         }
                         auto strip = [&](uint32_t cp) {
                           return ws ? is_unicode_space(cp) : std::find(set.begin(), set.end(), cp) != set.end();
                         };
                         size_t b = 0;
                         if (side != StripSide::End) {
                           while (b < s.size()) {
                             size_t q = b;
                             if (!strip(decode(s, q))) break;
                             b = q;
                           }
                         }
                         size_t e = s.size();
                         if (side != StripSide::Start) {
                           while (e > b) {
                             size_t start = e - 1;
                             while (start > b && is_continuation(static_cast<unsigned char>(s[start]))) --start;
                             size_t q = start;
                             if (!strip(decode(s, q))) break;
                             e = start;
                           }
                         }
                         w.push_sub(r, s, b, e - b);
                       });
}

ArrayRef str_strip_chars(const Array& values, const std::optional<std::string>& characters) {
  ArrayRef c = characters ? scalar_to_array(Scalar::string(*characters), 1) : make_null_array(DataType::null(), 1);
  return str_strip_chars(values, *c, StripSide::Both);
}

ArrayRef str_strip_prefix(const Array& values, const Array& prefix) {
  require_string(values, "str.strip_prefix");
  const int64_t n = output_length(values, {&prefix}, "str.strip_prefix");
  StrArg p(prefix, n, "str.strip_prefix");
  return map_with_args(values, n, [&](int64_t i) { return !p.is_null(i); },
                       [&](int64_t i, int64_t r, std::string_view s, ViewWriter& w) {
                         const std::string_view x = p.at(i);
                         if (s.substr(0, x.size()) == x) w.push_sub(r, s, x.size(), s.size() - x.size());
                         else w.push_sub(r, s, 0, s.size());
                       });
}

ArrayRef str_strip_suffix(const Array& values, const Array& suffix) {
  require_string(values, "str.strip_suffix");
  const int64_t n = output_length(values, {&suffix}, "str.strip_suffix");
  StrArg p(suffix, n, "str.strip_suffix");
  return map_with_args(values, n, [&](int64_t i) { return !p.is_null(i); },
                       [&](int64_t i, int64_t r, std::string_view s, ViewWriter& w) {
                         const std::string_view x = p.at(i);
                         if (s.size() >= x.size() && s.substr(s.size() - x.size()) == x)
                           w.push_sub(r, s, 0, s.size() - x.size());
                         else
                           w.push_sub(r, s, 0, s.size());
                       });
}

ArrayRef str_pad(const Array& values, const Array& length, const std::string& fill, bool at_start) {
  require_string(values, at_start ? "str.pad_start" : "str.pad_end");
  if (count_chars(fill) != 1)
    throw InvalidOperationError(err_msg("`fill_char` must be a single character, got '", fill, "'"));
  const int64_t n = output_length(values, {&length}, "str.pad");
  IntArg len(length, n, "str.pad");
  std::string buf;
  return map_with_args(values, n, [&](int64_t i) { return !len.is_null(i); },
                       [&](int64_t i, int64_t r, std::string_view s, ViewWriter& w) {
                         const int64_t want = len.at(i);
                         if (want < 0) throw InvalidOperationError(err_msg("pad length must be non-negative, got ", want));
                         const int64_t have = char_count(s);
                         if (have >= want) {
                           w.push_sub(r, s, 0, s.size());
                           return;
                         }
                         buf.clear();
                         if (!at_start) buf.append(s);
                         for (int64_t k = have; k < want; ++k) buf += fill;
                         if (at_start) buf.append(s);
                         w.push_new(buf);
                       });
}

ArrayRef str_zfill(const Array& values, const Array& length) {
  require_string(values, "str.zfill");
  const int64_t n = output_length(values, {&length}, "str.zfill");
  IntArg len(length, n, "str.zfill");
  std::string buf;
  return map_with_args(values, n, [&](int64_t i) { return !len.is_null(i); },
                       [&](int64_t i, int64_t r, std::string_view s, ViewWriter& w) {
                         const int64_t want = len.at(i);
                         if (want < 0)
                           throw InvalidOperationError(err_msg("conversion from `i64` to `u64` failed in column '' for "
                                                               "1 out of 1 values: [", want, "]"));
                         const int64_t have = char_count(s);
                         if (have >= want) {
                           w.push_sub(r, s, 0, s.size());
                           return;
                         }
                         buf.clear();
                         size_t body = 0;
                         if (!s.empty() && (s[0] == '-' || s[0] == '+')) buf.push_back(s[0]), body = 1;
                         buf.append(static_cast<size_t>(want - have), '0');
                         buf.append(s.substr(body));
                         w.push_new(buf);
                       });
}

ArrayRef str_to_uppercase(const Array& values) {
  require_string(values, "str.to_uppercase");
  std::string buf;
  return map_strings(values, [&](int64_t, std::string_view s, ViewWriter& w) {
    change_case(s, true, buf);
    w.push_new(buf);
  });
}

ArrayRef str_to_lowercase(const Array& values) {
  require_string(values, "str.to_lowercase");
  std::string buf;
  return map_strings(values, [&](int64_t, std::string_view s, ViewWriter& w) {
    change_case(s, false, buf);
    w.push_new(buf);
  });
}

ArrayRef str_to_titlecase(const Array& values) {
  require_string(values, "str.to_titlecase");
  std::string lower, out, one, upper;
  return map_strings(values, [&](int64_t, std::string_view s, ViewWriter& w) {
    change_case(s, false, lower);
    out.clear();
    bool next_upper = true;
    size_t p = 0;
    while (p < lower.size()) {
      const size_t at = p;
      const uint32_t cp = decode(lower, p);
      const std::string_view ch(lower.data() + at, p - at);
      if (next_upper) {
        title_char(ch, upper);
        out += upper;
      } else {
        out.append(ch);
      }
      next_upper = !is_alphabetic(cp);
    }
    w.push_new(out);
  });
}

ArrayRef str_normalize(const Array& values, const std::string& form) {
  require_string(values, "str.normalize");
  utf8proc_uint8_t* (*fn)(const utf8proc_uint8_t*) = nullptr;
  if (form == "NFC") fn = utf8proc_NFC;
  else if (form == "NFKC") fn = utf8proc_NFKC;
  else if (form == "NFD") fn = utf8proc_NFD;
  else if (form == "NFKD") fn = utf8proc_NFKD;
  else throw InvalidOperationError(err_msg("`form` must be one of 'NFC', 'NFKC', 'NFD', 'NFKD', got '", form, "'"));
  std::string buf;
  return map_strings(values, [&](int64_t i, std::string_view s, ViewWriter& w) {
    if (all_ascii(s)) {
      w.push_same(i);
      return;
    }
    buf.assign(s);  // (NUL-terminated for utf8proc)
    utf8proc_uint8_t* out = fn(reinterpret_cast<const utf8proc_uint8_t*>(buf.c_str()));
    if (!out) {
      w.push_same(i);  // invalid UTF-8 stays as it is
      return;
    }
    w.push_new(reinterpret_cast<const char*>(out));
    std::free(out);
  });
}

}  // namespace frazil::compute
