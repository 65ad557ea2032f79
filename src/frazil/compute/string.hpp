// String kernels (Polars' `str` namespace). Inputs are String arrays (or Null); nulls
// propagate. Kernels that return parts of their input (slice, strip_chars, unchanged rows
// of replace) emit views into the input's data buffers instead of copying bytes.
#pragma once

#include <optional>
#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// literal=false: `pattern` is a regular expression (RE2 syntax, which covers Polars'
// regex crate syntax for the common cases); an invalid pattern raises ComputeError.
ArrayRef str_contains(const Array& values, const std::string& pattern, bool literal);
ArrayRef str_starts_with(const Array& values, const std::string& prefix);
ArrayRef str_ends_with(const Array& values, const std::string& suffix);
// Character-based slice (UTF-8 code points); negative offset counts from the end;
// length nullopt = to the end.
ArrayRef str_slice(const Array& values, int64_t offset, std::optional<int64_t> length);
ArrayRef str_len_bytes(const Array& values);  // UInt32
ArrayRef str_len_chars(const Array& values);  // UInt32
// ASCII fast path; other text uses the C library's simple Unicode case mappings (C.UTF-8
// locale) plus ß -> SS, final sigma and İ; rarer multi-character mappings (e.g. the ﬁ
// ligature) are not expanded as Rust/Polars does.
ArrayRef str_to_uppercase(const Array& values);
ArrayRef str_to_lowercase(const Array& values);
// chars nullopt: strip Unicode White_Space (Rust's char::is_whitespace); otherwise strip
// any of the code points in `chars` from both ends.
ArrayRef str_strip_chars(const Array& values, const std::optional<std::string>& chars);
// Replace the first (all=false) or every match. literal=false: `pattern` is an RE2 regex and
// `value` uses Polars' replacement syntax ($1, ${1}, ${name}, $$ for a dollar); an empty
// match inserts `value` between characters. literal=true: both are plain text.
ArrayRef str_replace(const Array& values, const std::string& pattern, const std::string& value,
                     bool literal, bool all);
// Concatenate two string arrays elementwise (length-1 broadcasts).
ArrayRef str_concat(const Array& left, const Array& right);

}  // namespace frazil::compute
