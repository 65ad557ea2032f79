// Matching kernels of Polars' `str` namespace: contains, starts_with, ends_with,
// count_matches, find, extract, extract_all, extract_groups, replace / replace_all,
// escape_regex. Patterns and other arguments are String arrays of one value (broadcast)
// or one per row; a null argument gives a null row. Regular expressions use RE2 (the
// syntax Polars' regex crate shares for the common cases); an invalid one raises
// ComputeError (with strict=false, contains and find give null instead).
#pragma once

#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

ArrayRef str_contains(const Array& values, const Array& pattern, bool literal, bool strict = true);
ArrayRef str_contains(const Array& values, const std::string& pattern, bool literal);
ArrayRef str_starts_with(const Array& values, const Array& prefix);
ArrayRef str_starts_with(const Array& values, const std::string& prefix);
ArrayRef str_ends_with(const Array& values, const Array& suffix);
ArrayRef str_ends_with(const Array& values, const std::string& suffix);
// UInt32 counts of non-overlapping matches.
ArrayRef str_count_matches(const Array& values, const Array& pattern, bool literal);
// UInt32 byte offset of the first match (null when none).
ArrayRef str_find(const Array& values, const Array& pattern, bool literal, bool strict);
// The text of capture group `group` of the first match (null when none).
ArrayRef str_extract(const Array& values, const Array& pattern, int64_t group);
// List(String) of every match.
ArrayRef str_extract_all(const Array& values, const Array& pattern);
// Struct of the capture groups of the first match (named groups by name, others "1", "2",
// ...); the struct dtype comes from the pattern (see extract_groups_dtype).
ArrayRef str_extract_groups(const Array& values, const std::string& pattern);
DataType extract_groups_dtype(const std::string& pattern);
// Replace the first `n` (all=false, n >= 0) or every match. literal=false: `value` uses
// Polars' replacement syntax ($1, ${1}, ${name}, $$); an empty match inserts `value`
// between characters. literal=true: both are plain text.
ArrayRef str_replace(const Array& values, const Array& pattern, const Array& value, bool literal, bool all,
                     int64_t n = 1);
ArrayRef str_replace(const Array& values, const std::string& pattern, const std::string& value, bool literal,
                     bool all);
// The text with every regex metacharacter escaped (Polars' / the regex crate's escape).
std::string escape_regex(std::string_view text);
ArrayRef str_escape_regex(const Array& values);

}  // namespace frazil::compute
