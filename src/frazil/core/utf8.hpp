// Text that must be valid UTF-8 whatever bytes it was made from: error messages quoting
// file contents, and Python strings with lone surrogates. Both repairs follow the
// Unicode "maximal subpart" rule (as Rust's String::from_utf8_lossy, which Polars uses):
// each maximal prefix of a well-formed sequence that breaks off counts as one bad unit.
#pragma once

#include <string>
#include <string_view>

namespace frazil {

bool is_valid_utf8(std::string_view text);

// Every bad unit replaced by U+FFFD (what Polars does to invalid text it is given).
std::string utf8_lossy(std::string_view text);

// Every byte of a bad unit written as \xNN, so a message still shows what was there.
std::string utf8_escape_invalid(std::string_view text);

}  // namespace frazil
