// Splitting CSV bytes into rows and fields. Header-only: the chunk parser's inner loop.
//
// The dialect: fields are separated by `sep`, rows end at `eol` (a '\r' before a '\n' eol
// is dropped). A field that starts with the quote char is quoted: inside it the separator
// and eol are data, and a doubled quote is one quote; text after the closing quote up to
// the next separator is kept as is. A quote char inside an unquoted field is plain data.
// A row that starts with the comment prefix is skipped whole.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace frazil::io::csv_detail {

struct Dialect {
  char sep = ',';
  char eol = '\n';
  bool has_quote = true;
  char quote = '"';
  std::string comment;  // empty: no comments

  bool strip_cr() const { return eol == '\n'; }
};

// One field as found by scan_field: raw bytes [begin, end) without the separator/eol;
// `next` is where scanning resumes; `last` tells the row ended with this field.
struct RawField {
  const char* begin;
  const char* end;
  const char* next;
  bool quoted;       // started with the quote char
  bool simple;       // quoted, and the content is exactly begin+1 .. end-1 (no escapes)
  bool last;         // the row ends after this field
  bool unterminated; // a quoted field ran to the end of the scanned range
  bool at_end;       // the scan reached `end` without a separator or eol
};

inline bool is_comment_at(const Dialect& d, const char* p, const char* end) {
  return !d.comment.empty() && static_cast<size_t>(end - p) >= d.comment.size() &&
         std::memcmp(p, d.comment.data(), d.comment.size()) == 0;
}

// Position after the next eol at or after p (or end).
inline const char* skip_line(const Dialect& d, const char* p, const char* end) {
  const void* q = std::memchr(p, d.eol, static_cast<size_t>(end - p));
  return q ? static_cast<const char*>(q) + 1 : end;
}

// First position in [p, end) holding sep or eol, or end.
inline const char* find_sep_or_eol(const char* p, const char* end, char sep, char eol) {
#if defined(__SSE2__)
  // 16 bytes per step: most fields end within the first block.
  const __m128i vs = _mm_set1_epi8(sep), ve = _mm_set1_epi8(eol);
  while (end - p >= 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, vs), _mm_cmpeq_epi8(x, ve)));
    if (m) return p + __builtin_ctz(static_cast<unsigned>(m));
    p += 16;
  }
#endif
  while (p < end && *p != sep && *p != eol) ++p;
  return p;
}

// Scans one field starting at p (p <= end). `end` is the end of the data that may be read.
inline RawField scan_field(const Dialect& d, const char* p, const char* end) {
  RawField f;
  f.begin = p;
  f.quoted = false;
  f.simple = false;
  f.unterminated = false;
  f.at_end = false;
  const char sep = d.sep, eol = d.eol;
  if (d.has_quote && p < end && *p == d.quote) {
    f.quoted = true;
    const char q = d.quote;
    const char* s = p + 1;
    int quotes = 1;
    bool in_quote = true;
    for (;;) {
      if (in_quote) {
        const void* hit = std::memchr(s, q, static_cast<size_t>(end - s));
        if (!hit) {
          f.unterminated = true;
          f.at_end = true;
          f.end = f.next = end;
          f.last = true;
          return f;
        }
        s = static_cast<const char*>(hit) + 1;
        ++quotes;
        in_quote = false;
      } else {
        while (s < end && *s != sep && *s != eol && *s != q) ++s;
        if (s < end && *s == q) {
          ++s;
          ++quotes;
          in_quote = true;
          continue;
        }
        break;
      }
    }
    f.end = s;
    f.simple = quotes == 2;  // confirmed below once a trailing '\r' is dropped
  } else {
    f.end = find_sep_or_eol(p, end, sep, eol);
  }
  const char* s = f.end;
  if (s < end && *s == sep) {
    f.last = false;
    f.next = s + 1;
  } else {
    f.last = true;
    f.at_end = s >= end;
    f.next = s < end ? s + 1 : end;
    // "\r\n": the '\r' belongs to the line ending.
    if (d.strip_cr() && f.end > f.begin && f.end[-1] == '\r') --f.end;
  }
  if (f.simple) f.simple = f.end - f.begin >= 2 && f.end[-1] == d.quote;
  return f;
}

// The content of a quoted field that is not simple: doubled quotes become one, and text
// outside the quotes is kept.
inline void unescape_field(const Dialect& d, const char* b, const char* e, std::string& out) {
  out.clear();
  bool in_quote = false;
  const char q = d.quote;
  for (const char* p = b; p < e; ++p) {
    char c = *p;
    if (c == q) {
      if (in_quote && p + 1 < e && p[1] == q) {
        out.push_back(q);
        ++p;
      } else {
        in_quote = !in_quote;
      }
    } else {
      out.push_back(c);
    }
  }
}

// The content of a field: a view into the data, or into `scratch` when unescaping was
// needed.
inline void field_content(const Dialect& d, const RawField& f, std::string& scratch,
                          const char*& b, const char*& e) {
  if (!f.quoted) {
    b = f.begin;
    e = f.end;
  } else if (f.simple) {
    b = f.begin + 1;
    e = f.end - 1;
  } else {
    unescape_field(d, f.begin, f.end, scratch);
    b = scratch.data();
    e = scratch.data() + scratch.size();
  }
}

// Skips one row (respecting quotes); returns where the next row starts, and sets
// `unterminated` when a quoted field never closed.
inline const char* skip_row(const Dialect& d, const char* p, const char* end, bool& unterminated) {
  unterminated = false;
  for (;;) {
    RawField f = scan_field(d, p, end);
    if (f.unterminated) {
      unterminated = true;
      return end;
    }
    p = f.next;
    if (f.last) return p;
  }
}

// Guesses the first row start at or after `n`, given whether position n - 1 lies inside
// quotes (from the parity of quote chars since a known row start). Toggling on every
// quote char is exact for well-formed quoting; the caller validates the guess.
inline const char* guess_row_start(const Dialect& d, const char* data, const char* n,
                                   const char* end, bool in_quote) {
  if (n <= data) return data;
  const char* p = n - 1;
  if (!d.has_quote) {
    const void* hit = std::memchr(p, d.eol, static_cast<size_t>(end - p));
    return hit ? static_cast<const char*>(hit) + 1 : end;
  }
  for (; p < end; ++p) {
    if (*p == d.quote) in_quote = !in_quote;
    else if (*p == d.eol && !in_quote) return p + 1;
  }
  return end;
}

inline size_t count_char(const char* b, const char* e, char c) {
  return static_cast<size_t>(std::count(b, e, c));
}

}  // namespace frazil::io::csv_detail
