#include "frazil/serde/format.hpp"

#include "frazil/core/error.hpp"

namespace frazil::serde {

namespace {
const char* content_name(uint8_t c) {
  switch (c) {
    case 1: return "an expression";
    case 2: return "a LazyFrame plan";
    case 3: return "an optimized plan";
    default: return "unknown content";
  }
}
}  // namespace

void write_header(ByteWriter& w, Content content) {
  w.raw(kMagic);
  for (int i = 0; i < 4; ++i) w.u8(static_cast<uint8_t>(kFormatVersion >> (8 * i)));
  w.u8(static_cast<uint8_t>(content));
}

uint32_t read_header(ByteReader& r, Content expected) {
  if (r.remaining() < kMagic.size() || r.raw(kMagic.size()) != kMagic) {
    throw ComputeError(
        "cannot deserialize the plan: the input is not a frazil serialized plan or expression (no FRZLPLAN header "
        "at byte 0)");
  }
  uint32_t version = 0;
  for (int i = 0; i < 4; ++i) version |= uint32_t(r.u8()) << (8 * i);
  if (version > kFormatVersion) {
    throw ComputeError(err_msg("cannot deserialize the plan: it was written in format version ", version,
                               " by a newer frazil; this frazil reads format versions up to ", kFormatVersion));
  }
  if (version == 0) r.fail("invalid format version 0");
  const uint8_t content = r.u8();
  if (content != static_cast<uint8_t>(expected)) {
    r.fail(err_msg("the input holds ", content_name(content), ", not ", content_name(static_cast<uint8_t>(expected))));
  }
  return version;
}

}  // namespace frazil::serde
