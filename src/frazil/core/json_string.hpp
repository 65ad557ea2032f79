// A string as a JSON string literal (quotes, backslash escapes, \u00XX for the other control
// characters; bytes >= 0x20 as they are), shared by the JSON writers and str.json_encode.
#pragma once

#include <string>
#include <string_view>

namespace frazil {

void append_json_string(std::string& out, std::string_view s);

}  // namespace frazil
