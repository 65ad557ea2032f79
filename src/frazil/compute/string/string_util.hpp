// Internal helpers of the string kernels: writing String arrays whose values are views
// into the input or new bytes, UTF-8 decoding, argument arrays of one value (broadcast) or
// one per row, regular expressions. Not part of the public compute API.
#pragma once

#include <re2/re2.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frazil/compute/kernel_util.hpp"
#include "frazil/core/builder.hpp"

namespace frazil::compute::detail {

// Polars' error for a non-String root ("invalid series dtype: expected `String`, got `i64`").
inline void require_string(const Array& a, const char* what) {
  if (!a.dtype().is_string() && !a.dtype().is_null())
    throw SchemaError(err_msg("invalid series dtype: expected `String`, got `", a.dtype().short_name(), "` for `",
                              what, "`"));
}

// Builds a String array whose values are either substrings of a source array (views into
// its data buffers, no copy) or new bytes (copied into blocks owned by the result).
class ViewWriter {
 public:
  ViewWriter(const Array& src, int64_t n)
      : src_(src), base_(src.dtype().is_view() ? static_cast<uint32_t>(src.buffers().size() - 1) : 0) {
    views_ = alloc_values<View>(n);
    out_ = views_.mutable_as<View>();
  }
  // Bytes [start, start + len) of source row i (whose string is s).
  void push_sub(int64_t i, std::string_view s, size_t start, size_t len) {
    if (len <= View::kInlineSize) {
      out_[pos_++] = View::make_inline(s.data() + start, static_cast<uint32_t>(len));
      return;
    }
    const View& v = src_.views()[i];
    out_[pos_++] = View::make_ref(s.data() + start, static_cast<uint32_t>(len), v.buffer_index(),
                                  v.offset() + static_cast<uint32_t>(start));
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

// A pattern in the syntax of Rust's regex crate (what Polars uses) rewritten for RE2: the
// Perl classes \d \w \s are Unicode-aware there (RE2's are ASCII), so they become the
// Unicode categories they stand for.
std::string rust_regex_to_re2(std::string_view pattern);

inline std::unique_ptr<RE2> compile_regex(std::string_view pattern) {
  RE2::Options opts;
  opts.set_log_errors(false);
  const std::string translated = rust_regex_to_re2(pattern);
  auto re = std::make_unique<RE2>(translated, opts);
  if (!re->ok()) throw ComputeError(err_msg("regex error: ", re->error(), " in pattern '", pattern, "'"));
  return re;
}

inline re2::StringPiece piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

// ---- argument arrays ---------------------------------------------------------------------

// A String argument of one value for every row, or one per row (a null gives a null row).
class StrArg {
 public:
  StrArg(const Array& a, int64_t n, const char* what) : a_(a) {
    if (!a.dtype().is_string() && !a.dtype().is_null())
      throw InvalidOperationError(err_msg("`", what, "` expects a String argument, got ", a.dtype()));
    if (a.length() != 1 && a.length() != n)
      throw ShapeError(err_msg("arguments for `", what, "` have different lengths (", n, " != ", a.length(), ")"));
    one_ = a.length() == 1;
  }
  bool one() const { return one_; }
  bool is_null(int64_t i) const { return a_.dtype().is_null() || a_.is_null(one_ ? 0 : i); }
  std::string_view at(int64_t i) const { return a_.str_value(one_ ? 0 : i); }

 private:
  const Array& a_;
  bool one_;
};

// An integer argument, read as int64 (one value, or one per row).
class IntArg {
 public:
  IntArg(const Array& a, int64_t n, const char* what);
  bool one() const { return one_; }
  bool is_null(int64_t i) const { return null_ || ints_->is_null(one_ ? 0 : i); }
  int64_t at(int64_t i) const { return ints_->values<int64_t>()[one_ ? 0 : i]; }

 private:
  ArrayRef ints_;
  bool null_ = false, one_ = true;
};

// The common length of a root and its argument arrays (each of one value or of n).
inline int64_t output_length(const Array& root, std::initializer_list<const Array*> args, const char* what) {
  int64_t n = root.length();
  for (const Array* a : args)
    if (n == 1 && a->length() != 1) n = a->length();
  if (root.length() != 1 && root.length() != n)
    throw ShapeError(err_msg("arguments for `", what, "` have different lengths"));
  // An argument of another length than the root's (and not one value) is a ShapeError too,
  // not rows read past its end.
  for (const Array* a : args)
    if (a->length() != 1 && a->length() != n)
      throw ShapeError(err_msg("arguments for `", what, "` have different lengths (", n, " != ", a->length(), ")"));
  return n;
}

// Regexes compiled once per distinct pattern of a per-row pattern argument.
class RegexCache {
 public:
  const RE2& get(std::string_view pattern) {
    auto it = cache_.find(std::string(pattern));
    if (it == cache_.end()) it = cache_.emplace(std::string(pattern), compile_regex(pattern)).first;
    return *it->second;
  }

 private:
  std::unordered_map<std::string, std::unique_ptr<RE2>> cache_;
};

// A string root broadcast to n rows (a one-value root repeated) and argument rows; for
// kernels whose output is a fresh array per row.
inline int64_t root_row(const Array& root, int64_t i) { return root.length() == 1 ? 0 : i; }

// ---- UTF-8 ---------------------------------------------------------------------------------

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

// ---- nested results ------------------------------------------------------------------------

// Builds a List(String) array row by row: the element strings of each row are views into
// the source array's row or new bytes.
class StringListBuilder {
 public:
  StringListBuilder(const Array& src, int64_t rows) : src_(src), offsets_(Buffer::allocate((rows + 1) * sizeof(int64_t))) {
    offsets_.mutable_as<int64_t>()[0] = 0;
  }
  // An element of the current row: bytes [start, start + len) of source row i.
  void add_sub(int64_t i, std::string_view s, size_t start, size_t len) {
    elements_.push_back({i, start, len, {}});
    (void)s;
  }
  void add_new(std::string_view s) { elements_.push_back({-1, 0, s.size(), std::string(s)}); }
  void add_null() { elements_.push_back({-2, 0, 0, {}}); }
  // Ends the current row (null: a null list).
  void end_row(bool valid = true) {
    validity_.push(valid);
    offsets_.mutable_as<int64_t>()[++row_] = static_cast<int64_t>(elements_.size());
  }
  ArrayRef finish();

 private:
  struct Element {
    int64_t row;  // >= 0: a view of the source row; -1: new bytes; -2: null
    size_t start, len;
    std::string bytes;
  };
  const Array& src_;
  Buffer offsets_;
  int64_t row_ = 0;
  std::vector<Element> elements_;
  ValidityBuilder validity_;
};

inline ArrayRef StringListBuilder::finish() {
  ViewWriter w(src_, static_cast<int64_t>(elements_.size()));
  ValidityBuilder ev;
  for (const Element& e : elements_) {
    ev.push(e.row != -2);
    if (e.row >= 0) w.push_sub(e.row, src_.str_value(e.row), e.start, e.len);
    else if (e.row == -1) w.push_new(e.bytes);
    else w.push_null();
  }
  const int64_t enulls = ev.null_count();
  ArrayRef child = w.finish(ev.finish());
  (void)enulls;
  const int64_t nulls = validity_.null_count();
  return Array::make(DataType::list(DataType::string()), row_, validity_.finish(), {offsets_}, {child}, 0, nulls);
}

}  // namespace frazil::compute::detail
