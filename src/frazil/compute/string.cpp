#include "frazil/compute/string.hpp"

#include <locale.h>
#include <re2/re2.h>
#include <wctype.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "frazil/compute/kernel_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

void require_string(const Array& a, const char* what) {
  if (!a.dtype().is_string() && !a.dtype().is_null())
    throw InvalidOperationError(err_msg("`", what, "` operation not supported for dtype `", a.dtype().short_name(),
                                        "` (expected a string)"));
}

// Builds a String array whose values are either substrings of a source array (views into
// its data buffers, no copy) or new bytes (copied into blocks owned by the result).
class ViewWriter {
 public:
  ViewWriter(const Array& src, int64_t n) : src_(src), base_(static_cast<uint32_t>(src.buffers().size() - 1)) {
    views_ = alloc_values<View>(n);
    out_ = views_.mutable_as<View>();
  }
  // Bytes [start, start + len) of source row i (whose string is s).
  void push_sub(int64_t i, std::string_view s, size_t start, size_t len) {
    const View& v = src_.views()[i];
    if (len <= View::kInlineSize) {
      out_[pos_++] = View::make_inline(s.data() + start, static_cast<uint32_t>(len));
    } else {
      out_[pos_++] = View::make_ref(s.data() + start, static_cast<uint32_t>(len), v.buffer_index(),
                                    v.offset() + static_cast<uint32_t>(start));
    }
  }
  void push_same(int64_t i) { out_[pos_++] = src_.views()[i]; }
  void push_new(std::string_view s) {
    if (s.size() > UINT32_MAX) throw ComputeError("string value longer than 4 GiB");
    const uint32_t n = static_cast<uint32_t>(s.size());
    if (n <= View::kInlineSize) {
      out_[pos_++] = View::make_inline(s.data(), n);
      return;
    }
    if (blocks_.empty() || used_ + n > blocks_.back().size()) {
      if (!blocks_.empty()) blocks_.back().set_size(used_);
      blocks_.push_back(Buffer::allocate(std::max<size_t>(next_size_, n)));
      next_size_ = std::min<size_t>(next_size_ * 2, 4u << 20);
      used_ = 0;
    }
    std::memcpy(blocks_.back().mutable_data() + used_, s.data(), n);
    out_[pos_++] = View::make_ref(s.data(), n, base_ + static_cast<uint32_t>(blocks_.size() - 1),
                                  static_cast<uint32_t>(used_));
    used_ += n;
  }
  void push_null() { out_[pos_++] = View{}; }
  ArrayRef finish(Buffer validity) {
    if (!blocks_.empty()) blocks_.back().set_size(used_);
    std::vector<Buffer> buffers{views_};
    for (uint32_t k = 0; k < base_; ++k) buffers.push_back(src_.buffer(1 + k));
    for (auto& b : blocks_) buffers.push_back(std::move(b));
    return Array::make(DataType::string(), pos_, std::move(validity), std::move(buffers));
  }

 private:
  const Array& src_;
  uint32_t base_;
  Buffer views_;
  View* out_ = nullptr;
  int64_t pos_ = 0;
  std::vector<Buffer> blocks_;
  size_t used_ = 0;
  size_t next_size_ = 32 * 1024;
};

// Applies f(i, string_view, writer) to every valid row; nulls stay null.
template <typename F>
ArrayRef map_strings(const Array& a, F f) {
  const int64_t n = a.length();
  if (a.dtype().is_null()) return make_null_array(DataType::string(), n);
  ViewWriter w(a, n);
  const bool nulls = a.null_count() > 0;
  for (int64_t i = 0; i < n; ++i) {
    if (nulls && a.is_null(i)) w.push_null();
    else f(i, a.str_value(i), w);
  }
  return w.finish(aligned_validity(a));
}

template <typename P>
ArrayRef predicate(const Array& a, P pred) {
  const int64_t n = a.length();
  if (a.dtype().is_null()) return make_null_array(DataType::boolean(), n);
  Buffer bits = alloc_bits(n);
  pack_bits(n, bits.mutable_data(), [&](int64_t i) { return pred(a.str_value(i)); });
  return Array::make(DataType::boolean(), n, aligned_validity(a), {std::move(bits)});
}

std::unique_ptr<RE2> compile_regex(const std::string& pattern) {
  RE2::Options opts;
  opts.set_log_errors(false);
  auto re = std::make_unique<RE2>(pattern, opts);
  if (!re->ok()) throw ComputeError(err_msg("regex error: ", re->error(), " in pattern '", pattern, "'"));
  return re;
}

// ---- UTF-8 helpers ---------------------------------------------------------------------

inline bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

inline bool all_ascii(std::string_view s) {
  size_t i = 0;
  uint64_t acc = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    acc |= w;
  }
  for (; i < s.size(); ++i) acc |= static_cast<unsigned char>(s[i]);
  return (acc & 0x8080808080808080ULL) == 0;
}

inline int64_t count_chars(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += !is_continuation(c);
  return n;
}

// Byte position of character k (k <= number of chars) scanning from byte `from`.
inline size_t advance_chars(std::string_view s, size_t from, int64_t k) {
  size_t p = from;
  while (k > 0 && p < s.size()) {
    ++p;
    while (p < s.size() && is_continuation(static_cast<unsigned char>(s[p]))) ++p;
    --k;
  }
  return p;
}

// Decodes one code point at s[p] (invalid bytes decode as themselves), advancing p.
inline uint32_t decode(std::string_view s, size_t& p) {
  const unsigned char c = static_cast<unsigned char>(s[p]);
  int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (p + len > s.size()) len = 1;
  uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[p + k]) & 0x3F);
  p += len;
  return cp;
}

inline void encode(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Unicode White_Space, as Rust's char::is_whitespace (what Polars strips by default).
inline bool is_unicode_space(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// The C.UTF-8 locale for simple Unicode case mappings (nullptr: ASCII only).
locale_t utf8_locale() {
  static locale_t loc = [] {
    locale_t l = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
    if (!l) l = newlocale(LC_CTYPE_MASK, "C.utf8", static_cast<locale_t>(nullptr));
    return l;
  }();
  return loc;
}

uint32_t map_case(uint32_t cp, bool upper) {
  locale_t loc = utf8_locale();
  if (!loc) {
    if (upper && cp >= 'a' && cp <= 'z') return cp - 32;
    if (!upper && cp >= 'A' && cp <= 'Z') return cp + 32;
    return cp;
  }
  return static_cast<uint32_t>(upper ? towupper_l(static_cast<wint_t>(cp), loc)
                                     : towlower_l(static_cast<wint_t>(cp), loc));
}

bool is_cased_letter(uint32_t cp) {
  locale_t loc = utf8_locale();
  return loc ? iswalpha_l(static_cast<wint_t>(cp), loc) != 0 : ((cp | 32) >= 'a' && (cp | 32) <= 'z');
}

void change_case(std::string_view s, bool upper, std::string& out) {
  out.clear();
  if (all_ascii(s)) {
    out.assign(s);
    for (char& c : out) {
      if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
      else if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    }
    return;
  }
  // Simple mappings plus the special cases Rust's full mapping has for common text:
  // ß -> SS, final sigma -> ς, İ -> i̇.
  size_t p = 0;
  uint32_t prev = 0;
  while (p < s.size()) {
    const uint32_t cp = decode(s, p);
    if (upper && cp == 0xDF) {
      out += "SS";
    } else if (!upper && cp == 0x3A3) {
      size_t q = p;
      const bool next_letter = q < s.size() && is_cased_letter(decode(s, q));
      encode(is_cased_letter(prev) && !next_letter ? 0x3C2 : 0x3C3, out);
    } else if (!upper && cp == 0x130) {
      out += "i\xCC\x87";
    } else {
      encode(map_case(cp, upper), out);
    }
    prev = cp;
  }
}

// Polars/regex-crate replacement syntax ($1, ${1}, ${name}, $$) -> the capture to insert.
struct Rewrite {
  struct Part {
    std::string literal;
    int group = -1;  // >= 0: a capture group; -1: literal; -2: unknown name (empty)
  };
  std::vector<Part> parts;
  int max_group = 0;

  static Rewrite parse(const std::string& r, const RE2& re) {
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
        if (close == std::string::npos) {
          lit.push_back('$');
          continue;
        }
        name = r.substr(j + 1, close - j - 1);
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

}  // namespace

ArrayRef str_contains(const Array& values, const std::string& pattern, bool literal) {
  require_string(values, "str.contains");
  if (literal) {
    return predicate(values, [&](std::string_view s) { return s.find(pattern) != std::string_view::npos; });
  }
  auto re = compile_regex(pattern);
  return predicate(values, [&](std::string_view s) { return RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re); });
}

ArrayRef str_starts_with(const Array& values, const std::string& prefix) {
  require_string(values, "str.starts_with");
  return predicate(values, [&](std::string_view s) { return s.substr(0, prefix.size()) == prefix; });
}

ArrayRef str_ends_with(const Array& values, const std::string& suffix) {
  require_string(values, "str.ends_with");
  return predicate(values, [&](std::string_view s) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
  });
}

ArrayRef str_slice(const Array& values, int64_t offset, std::optional<int64_t> length) {
  require_string(values, "str.slice");
  if (length && *length < 0) throw InvalidOperationError("str.slice: length must be non-negative");
  return map_strings(values, [&](int64_t i, std::string_view s, ViewWriter& w) {
    // Work in characters; ASCII strings have characters == bytes.
    const bool ascii = all_ascii(s);
    const int64_t nchars = ascii ? static_cast<int64_t>(s.size()) : (offset < 0 ? count_chars(s) : -1);
    int64_t start = offset;
    if (offset < 0) start = std::max<int64_t>(0, nchars + offset);
    // For a negative offset beyond the start, the window still ends at start + length.
    int64_t end_char = -1;  // -1: to the end
    if (length) {
      const int64_t raw_start = offset < 0 ? nchars + offset : offset;
      end_char = std::max<int64_t>(0, raw_start + *length);
    }
    size_t b0, b1;
    if (ascii) {
      b0 = static_cast<size_t>(std::min<int64_t>(start, nchars));
      b1 = end_char < 0 ? s.size() : static_cast<size_t>(std::min<int64_t>(end_char, nchars));
    } else {
      b0 = advance_chars(s, 0, start);
      b1 = end_char < 0 ? s.size() : advance_chars(s, b0, std::max<int64_t>(0, end_char - start));
    }
    if (b1 < b0) b1 = b0;
    w.push_sub(i, s, b0, b1 - b0);
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

ArrayRef str_strip_chars(const Array& values, const std::optional<std::string>& chars) {
  require_string(values, "str.strip_chars");
  std::vector<uint32_t> set;
  if (chars) {
    size_t p = 0;
    while (p < chars->size()) set.push_back(decode(*chars, p));
  }
  auto strip = [&](uint32_t cp) {
    return chars ? std::find(set.begin(), set.end(), cp) != set.end() : is_unicode_space(cp);
  };
  return map_strings(values, [&](int64_t i, std::string_view s, ViewWriter& w) {
    size_t b = 0;
    while (b < s.size()) {
      size_t q = b;
      if (!strip(decode(s, q))) break;
      b = q;
    }
    size_t e = s.size();
    while (e > b) {
      size_t start = e - 1;
      while (start > b && is_continuation(static_cast<unsigned char>(s[start]))) --start;
      size_t q = start;
      if (!strip(decode(s, q))) break;
      e = start;
    }
    w.push_sub(i, s, b, e - b);
  });
}

ArrayRef str_replace(const Array& values, const std::string& pattern, const std::string& value, bool literal,
                     bool all) {
  require_string(values, "str.replace");
  std::string buf;
  if (literal) {
    return map_strings(values, [&](int64_t i, std::string_view s, ViewWriter& w) {
      if (pattern.empty()) {
        // An empty pattern matches before every character (and at the end) like Polars.
        buf.clear();
        size_t p = 0;
        buf += value;
        if (!all) {
          buf.append(s);
          w.push_new(buf);
          return;
        }
        while (p < s.size()) {
          size_t q = advance_chars(s, p, 1);
          buf.append(s.substr(p, q - p));
          buf += value;
          p = q;
        }
        w.push_new(buf);
        return;
      }
      size_t pos = s.find(pattern);
      if (pos == std::string_view::npos) {
        w.push_same(i);
        return;
      }
      buf.clear();
      size_t last = 0;
      while (pos != std::string_view::npos) {
        buf.append(s.substr(last, pos - last));
        buf += value;
        last = pos + pattern.size();
        if (!all) break;
        pos = s.find(pattern, last);
      }
      buf.append(s.substr(last));
      w.push_new(buf);
    });
  }
  auto re = compile_regex(pattern);
  const Rewrite rw = Rewrite::parse(value, *re);
  const int ngroups = std::max(rw.max_group, 0) + 1;
  std::vector<re2::StringPiece> groups(static_cast<size_t>(ngroups));
  return map_strings(values, [&](int64_t i, std::string_view s, ViewWriter& w) {
    const re2::StringPiece text(s.data(), s.size());
    size_t pos = 0, last = 0;
    bool any = false;
    buf.clear();
    while (pos <= s.size()) {
      if (!re->Match(text, pos, s.size(), RE2::UNANCHORED, groups.data(), ngroups)) break;
      any = true;
      const size_t mstart = static_cast<size_t>(groups[0].data() - s.data());
      const size_t mend = mstart + groups[0].size();
      buf.append(s.substr(last, mstart - last));
      for (const auto& part : rw.parts) {
        if (part.group == -1) buf += part.literal;
        else if (part.group >= 0 && groups[part.group].data())
          buf.append(groups[part.group].data(), groups[part.group].size());
      }
      last = mend;
      if (!all) break;
      if (mend == mstart) {
        // Empty match: copy one character and search again after it.
        if (mend >= s.size()) break;
        const size_t next = advance_chars(s, mend, 1);
        buf.append(s.substr(mend, next - mend));
        last = pos = next;
      } else {
        pos = mend;
      }
    }
    if (!any) {
      w.push_same(i);
      return;
    }
    buf.append(s.substr(std::min(last, s.size())));
    w.push_new(buf);
  });
}

ArrayRef str_concat(const Array& left, const Array& right) {
  require_string(left, "str.concat");
  require_string(right, "str.concat");
  const int64_t n = broadcast_length(left, right, "str.concat");
  bool all_null = false;
  Buffer validity = combine_validity(left, right, n, &all_null);
  if (all_null) return make_null_array(DataType::string(), n);
  const bool sa = is_broadcast(left, n), sb = is_broadcast(right, n);
  ViewWriter w(left, n);
  std::string buf;
  const uint8_t* vbits = validity.empty() ? nullptr : validity.data();
  for (int64_t i = 0; i < n; ++i) {
    if (vbits && !get_bit(vbits, i)) {
      w.push_null();
      continue;
    }
    const std::string_view a = left.str_value(sa ? 0 : i), b = right.str_value(sb ? 0 : i);
    if (b.empty() && !sa) {
      w.push_same(i);
      continue;
    }
    buf.assign(a);
    buf.append(b);
    w.push_new(buf);
  }
  return w.finish(std::move(validity));
}

}  // namespace frazil::compute
