#include "frazil/serde/byte_io.hpp"

#include <cstring>

#include "frazil/core/error.hpp"

namespace frazil::serde {

void ByteWriter::varint(uint64_t v) {
  while (v >= 0x80) {
    u8(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  u8(static_cast<uint8_t>(v));
}

void ByteWriter::i64(int64_t v) { varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }

void ByteWriter::f64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(bits >> (8 * i)));
}

void ByteWriter::u128(unsigned __int128 v) {
  for (int i = 0; i < 16; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
}

void ByteWriter::str(std::string_view s) {
  varint(s.size());
  out_.append(s);
}

void ByteWriter::bools(const std::vector<bool>& v) {
  varint(v.size());
  for (bool b : v) boolean(b);
}

void ByteWriter::strs(const std::vector<std::string>& v) {
  varint(v.size());
  for (const auto& s : v) str(s);
}

void ByteReader::fail(const std::string& what) const {
  throw ComputeError(err_msg("cannot deserialize the plan: ", what, " at byte ", offset()));
}

void ByteReader::need(size_t n, const char* what) {
  if (n > remaining()) fail(err_msg("truncated input (", what, " needs ", n, " bytes, ", remaining(), " left)"));
}

uint8_t ByteReader::u8() {
  need(1, "a byte");
  return static_cast<uint8_t>(in_[pos_++]);
}

bool ByteReader::boolean() {
  const uint8_t b = u8();
  if (b > 1) {
    --pos_;
    fail(err_msg("invalid boolean ", int(b)));
  }
  return b == 1;
}

uint64_t ByteReader::varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const uint8_t b = u8();
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  fail("an integer longer than 10 bytes");
}

int64_t ByteReader::i64() {
  const uint64_t z = varint();
  return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
}

double ByteReader::f64() {
  need(8, "a float");
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= uint64_t(static_cast<uint8_t>(in_[pos_ + i])) << (8 * i);
  pos_ += 8;
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}

unsigned __int128 ByteReader::u128() {
  need(16, "a 128-bit integer");
  unsigned __int128 v = 0;
  for (int i = 0; i < 16; ++i) v |= static_cast<unsigned __int128>(static_cast<uint8_t>(in_[pos_ + i])) << (8 * i);
  pos_ += 16;
  return v;
}

std::string_view ByteReader::raw(size_t n) {
  need(n, "bytes");
  std::string_view out = in_.substr(pos_, n);
  pos_ += n;
  return out;
}

std::string ByteReader::str() {
  const size_t start = offset();
  const uint64_t n = varint();
  if (n > remaining()) {
    fail(err_msg("truncated input (a string of ", n, " bytes starting at byte ", start, ", ", remaining(), " left)"));
  }
  return std::string(raw(n));
}

size_t ByteReader::count(size_t min_item_bytes) {
  const uint64_t n = varint();
  if (min_item_bytes > 0 && n > remaining() / min_item_bytes) {
    fail(err_msg("a count of ", n, " items that the ", remaining(), " bytes left cannot hold"));
  }
  return static_cast<size_t>(n);
}

std::vector<bool> ByteReader::bools() {
  const size_t n = count(1);
  std::vector<bool> v;
  v.reserve(n);
  for (size_t i = 0; i < n; ++i) v.push_back(boolean());
  return v;
}

std::vector<std::string> ByteReader::strs() {
  const size_t n = count(1);
  std::vector<std::string> v;
  v.reserve(n);
  for (size_t i = 0; i < n; ++i) v.push_back(str());
  return v;
}

uint8_t ByteReader::enum_u8(uint8_t limit, const char* what) {
  const uint8_t v = u8();
  if (v >= limit) {
    --pos_;
    fail(err_msg("invalid ", what, " ", int(v)));
  }
  return v;
}

}  // namespace frazil::serde
