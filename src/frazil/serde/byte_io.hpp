// ByteWriter / ByteReader: the primitive encoding of the plan format (little-endian fixed
// widths, LEB128 lengths). The reader checks every length against the bytes left, so corrupt
// or truncated input is a ComputeError naming the byte offset, never an over-read or a huge
// allocation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace frazil::serde {

class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void varint(uint64_t v);
  void i64(int64_t v);  // zig-zag varint
  void f64(double v);   // the IEEE bits, 8 bytes
  void u128(unsigned __int128 v);
  void str(std::string_view s);  // length + bytes
  void raw(std::string_view s) { out_.append(s); }
  void bools(const std::vector<bool>& v);
  void strs(const std::vector<std::string>& v);

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }
  size_t size() const { return out_.size(); }

 private:
  std::string out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view in, size_t base_offset = 0) : in_(in), base_(base_offset) {}

  uint8_t u8();
  bool boolean();
  uint64_t varint();
  int64_t i64();
  double f64();
  unsigned __int128 u128();
  std::string str();
  std::string_view raw(size_t n);
  std::vector<bool> bools();
  std::vector<std::string> strs();
  // A count of items that each take at least `min_item_bytes` bytes: refused when the bytes
  // left cannot hold them (so a corrupt count never drives a large allocation).
  size_t count(size_t min_item_bytes = 1);
  // An enum value below `limit`.
  uint8_t enum_u8(uint8_t limit, const char* what);

  size_t offset() const { return base_ + pos_; }  // from the start of the whole input
  size_t remaining() const { return in_.size() - pos_; }
  bool at_end() const { return pos_ == in_.size(); }
  // Throws ComputeError "cannot deserialize ...: <what> at byte N".
  [[noreturn]] void fail(const std::string& what) const;

 private:
  void need(size_t n, const char* what);
  std::string_view in_;
  size_t base_;
  size_t pos_ = 0;
};

}  // namespace frazil::serde
