#include "frazil/io/parquet/arrow_schema.hpp"

#include <cstring>

#include "frazil/io/fs/output_file.hpp"
#include "frazil/io/ipc/ipc_message.hpp"
#include "frazil/io/ipc/ipc_schema.hpp"

namespace frazil::io::parquet {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(const std::string& in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (i + 1 == in.size()) {
    const uint32_t v = uint8_t(in[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == in.size()) {
    const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(const std::string& in) {
  int map[256];
  for (int& m : map) m = -1;
  for (int k = 0; k < 64; ++k) map[static_cast<uint8_t>(kAlphabet[k])] = k;
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=' || c == '\n' || c == '\r') continue;
    const int v = map[static_cast<uint8_t>(c)];
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

}  // namespace

std::string encode_arrow_schema(const Schema& schema) {
  flatbuffers::FlatBufferBuilder fbb;
  auto s = ipc::write_schema(fbb, schema, /*compat_oldest=*/true, {}, /*categorical_as_dictionary=*/true);
  fbb.Finish(ipc::fb::CreateMessage(fbb, ipc::fb::MetadataVersion_V5, ipc::fb::MessageHeader_Schema, s.Union(), 0));
  MemoryOutput out;
  ipc::write_message(out, fbb, std::vector<uint8_t>{});
  return base64_encode(out.data());
}

std::optional<Schema> decode_arrow_schema(const std::string& value) {
  auto bytes = base64_decode(value);
  if (!bytes || bytes->size() < 8) return std::nullopt;
  // An encapsulated message (continuation marker optional), or a bare flatbuffer.
  size_t start = 0;
  uint32_t first;
  std::memcpy(&first, bytes->data(), 4);
  if (first == 0xFFFFFFFFu) start = 8;
  else if (first + 4 <= bytes->size()) start = 4;
  Buffer b = Buffer::allocate(bytes->size() - start);
  std::memcpy(b.mutable_data(), bytes->data() + start, b.size());
  try {
    const ipc::fb::Message* m = ipc::verify_message(b, "ARROW:schema");
    if (m->header_type() != ipc::fb::MessageHeader_Schema) return std::nullopt;
    return ipc::read_schema(m->header_as_Schema(), "ARROW:schema").schema;
  } catch (const std::exception&) {
    return std::nullopt;  // a type frazil cannot hold, or a malformed key: Parquet's types stand
  }
}

}  // namespace frazil::io::parquet
