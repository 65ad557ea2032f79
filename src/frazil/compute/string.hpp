// String kernels (Polars' `str` namespace). Inputs are String arrays; nulls propagate.
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
ArrayRef str_to_uppercase(const Array& values);
ArrayRef str_to_lowercase(const Array& values);
ArrayRef str_strip_chars(const Array& values, const std::optional<std::string>& chars);
ArrayRef str_replace(const Array& values, const std::string& pattern, const std::string& value,
                     bool literal, bool all);
// Concatenate two string arrays elementwise (length-1 broadcasts).
ArrayRef str_concat(const Array& left, const Array& right);

}  // namespace frazil::compute
