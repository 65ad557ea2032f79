// Thrift compact protocol: a bounds-checked, depth-limited decoder and an encoder.
// Parquet's footer and page headers are thrift structs in this protocol; the decoder
// reads untrusted bytes, so every length, count and nesting depth is checked and a
// violation throws ThriftError (never reads past the end, never allocates more than
// the remaining input can hold).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace frazil::io::parquet {

// Wire types of the compact protocol.
enum class TType : uint8_t {
  Stop = 0,
  BoolTrue = 1,
  BoolFalse = 2,
  Byte = 3,
  I16 = 4,
  I32 = 5,
  I64 = 6,
  Double = 7,
  Binary = 8,
  List = 9,
  Set = 10,
  Map = 11,
  Struct = 12,
};

// Malformed thrift input; callers rewrap it as an IOError naming the file.
class ThriftError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ThriftReader {
 public:
  static constexpr int kMaxDepth = 64;

  ThriftReader(const uint8_t* data, size_t size) : pos_(data), begin_(data), end_(data + size) {}

  size_t position() const { return static_cast<size_t>(pos_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }

  // Struct framing: begin_struct() before the first field, end_struct() after Stop.
  void begin_struct();
  void end_struct();
  // Next field header; returns false at Stop. `type` and `id` describe the field.
  bool next_field(TType& type, int16_t& id);
  // A boolean field's value travels in its header type.
  static bool bool_from_field(TType type) { return type == TType::BoolTrue; }

  int8_t read_byte();
  int16_t read_i16() { return static_cast<int16_t>(read_zigzag(16)); }
  int32_t read_i32() { return static_cast<int32_t>(read_zigzag(32)); }
  int64_t read_i64() { return read_zigzag(64); }
  double read_double();
  bool read_bool_element();  // a bool inside a list
  std::string read_string();
  // A list header: element type and count (count checked against the remaining bytes).
  void read_list_header(TType& elem, uint32_t& count);
  // Skips one value of the given type (recursively, depth-limited).
  void skip(TType type);

 private:
  uint64_t read_varint();
  int64_t read_zigzag(int bits);
  void need(size_t n) const;
  void enter();
  void leave() { --depth_; }

  const uint8_t* pos_;
  const uint8_t* begin_;
  const uint8_t* end_;
  int depth_ = 0;
  std::vector<int16_t> last_ids_;
  int16_t last_id_ = 0;
};

class ThriftWriter {
 public:
  void begin_struct();
  void end_struct();  // writes Stop
  void field_header(TType type, int16_t id);
  void field_bool(int16_t id, bool v);
  void field_i32(int16_t id, int32_t v) { field_header(TType::I32, id); write_zigzag(v); }
  void field_i64(int16_t id, int64_t v) { field_header(TType::I64, id); write_zigzag(v); }
  void field_i16(int16_t id, int16_t v) { field_header(TType::I16, id); write_zigzag(v); }
  void field_byte(int16_t id, int8_t v) { field_header(TType::Byte, id); out_.push_back(static_cast<uint8_t>(v)); }
  void field_string(int16_t id, const std::string& v) { field_header(TType::Binary, id); write_string(v); }
  // A struct-valued field: call begin_struct() ... end_struct() after it.
  void field_struct(int16_t id) { field_header(TType::Struct, id); }
  void field_list(int16_t id, TType elem, uint32_t count) { field_header(TType::List, id); list_header(elem, count); }
  void list_header(TType elem, uint32_t count);

  void write_i32(int32_t v) { write_zigzag(v); }
  void write_i64(int64_t v) { write_zigzag(v); }
  void write_string(const std::string& v);
  void write_varint(uint64_t v);
  void write_zigzag(int64_t v) { write_varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }

  const std::vector<uint8_t>& bytes() const { return out_; }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
  std::vector<int16_t> last_ids_;
  int16_t last_id_ = 0;
};

}  // namespace frazil::io::parquet
