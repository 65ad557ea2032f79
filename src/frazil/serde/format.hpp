// The header of every serialized plan or expression: a magic, the format version and what
// the bytes hold. A reader refuses a newer version (naming both) and any other magic.
#pragma once

#include <cstdint>
#include <string_view>

#include "frazil/serde/byte_io.hpp"

namespace frazil::serde {

inline constexpr std::string_view kMagic = "FRZLPLAN";
// Bump on any change to the encoding; readers accept every version up to their own.
inline constexpr uint32_t kFormatVersion = 1;

enum class Content : uint8_t { Expr = 1, DslPlan = 2, IrPlan = 3 };

void write_header(ByteWriter& w, Content content);
// Checks the magic, the version and that the content is `expected`; returns the version.
uint32_t read_header(ByteReader& r, Content expected);

}  // namespace frazil::serde
