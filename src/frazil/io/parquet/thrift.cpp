#include "frazil/io/parquet/thrift.hpp"

#include <cstring>

namespace frazil::io::parquet {

void ThriftReader::need(size_t n) const {
  if (remaining() < n) throw ThriftError("thrift: unexpected end of input");
}

void ThriftReader::enter() {
  if (++depth_ > kMaxDepth) throw ThriftError("thrift: nesting too deep");
}

uint64_t ThriftReader::read_varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    need(1);
    uint8_t b = *pos_++;
    if (shift == 63 && (b & 0x7E)) throw ThriftError("thrift: varint overflows 64 bits");
    v |= static_cast<uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
  throw ThriftError("thrift: varint longer than 10 bytes");
}

int64_t ThriftReader::read_zigzag(int bits) {
  uint64_t u = read_varint();
  int64_t v = static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
  if (bits < 64) {
    int64_t lim = int64_t(1) << (bits - 1);
    if (v < -lim || v >= lim) throw ThriftError("thrift: integer out of range");
  }
  return v;
}

void ThriftReader::begin_struct() {
  enter();
  last_ids_.push_back(last_id_);
  last_id_ = 0;
}

void ThriftReader::end_struct() {
  last_id_ = last_ids_.back();
  last_ids_.pop_back();
  leave();
}

bool ThriftReader::next_field(TType& type, int16_t& id) {
  need(1);
  uint8_t b = *pos_++;
  uint8_t t = b & 0x0F;
  if (t == 0) return false;
  if (t > 12) throw ThriftError("thrift: unknown field type");
  type = static_cast<TType>(t);
  uint8_t delta = b >> 4;
  if (delta) {
    id = static_cast<int16_t>(last_id_ + delta);
  } else {
    id = read_i16();
  }
  last_id_ = id;
  return true;
}

int8_t ThriftReader::read_byte() {
  need(1);
  return static_cast<int8_t>(*pos_++);
}

double ThriftReader::read_double() {
  need(8);
  double d;
  std::memcpy(&d, pos_, 8);
  pos_ += 8;
  return d;
}

bool ThriftReader::read_bool_element() {
  need(1);
  return *pos_++ == 1;
}

std::string ThriftReader::read_string() {
  uint64_t n = read_varint();
  if (n > remaining()) throw ThriftError("thrift: string length past the end of input");
  std::string s(reinterpret_cast<const char*>(pos_), n);
  pos_ += n;
  return s;
}

void ThriftReader::read_list_header(TType& elem, uint32_t& count) {
  need(1);
  uint8_t b = *pos_++;
  uint8_t t = b & 0x0F;
  if (t == 0 || t > 12) throw ThriftError("thrift: unknown list element type");
  elem = static_cast<TType>(t);
  uint64_t n = b >> 4;
  if (n == 15) n = read_varint();
  // Every element takes at least one byte, so the count cannot exceed what is left.
  if (n > remaining()) throw ThriftError("thrift: list longer than the input");
  count = static_cast<uint32_t>(n);
}

void ThriftReader::skip(TType type) {
  switch (type) {
    case TType::BoolTrue:
    case TType::BoolFalse: return;  // value is in the field header
    case TType::Byte: need(1); ++pos_; return;
    case TType::I16:
    case TType::I32:
    case TType::I64: read_varint(); return;
    case TType::Double: need(8); pos_ += 8; return;
    case TType::Binary: {
      uint64_t n = read_varint();
      if (n > remaining()) throw ThriftError("thrift: binary length past the end of input");
      pos_ += n;
      return;
    }
    case TType::List:
    case TType::Set: {
      TType elem;
      uint32_t n;
      read_list_header(elem, n);
      enter();
      for (uint32_t i = 0; i < n; ++i) {
        if (elem == TType::BoolTrue || elem == TType::BoolFalse) read_bool_element();
        else skip(elem);
      }
      leave();
      return;
    }
    case TType::Map: {
      uint64_t n = read_varint();
      if (n == 0) return;
      need(1);
      uint8_t kv = *pos_++;
      TType k = static_cast<TType>(kv >> 4), v = static_cast<TType>(kv & 0x0F);
      if (uint8_t(k) == 0 || uint8_t(k) > 12 || uint8_t(v) == 0 || uint8_t(v) > 12)
        throw ThriftError("thrift: unknown map element type");
      if (n > remaining()) throw ThriftError("thrift: map longer than the input");
      enter();
      for (uint64_t i = 0; i < n; ++i) {
        if (k == TType::BoolTrue || k == TType::BoolFalse) read_bool_element(); else skip(k);
        if (v == TType::BoolTrue || v == TType::BoolFalse) read_bool_element(); else skip(v);
      }
      leave();
      return;
    }
    case TType::Struct: {
      begin_struct();
      TType t;
      int16_t id;
      while (next_field(t, id)) skip(t);
      end_struct();
      return;
    }
    case TType::Stop: break;
  }
  throw ThriftError("thrift: cannot skip an unknown type");
}

void ThriftWriter::begin_struct() {
  last_ids_.push_back(last_id_);
  last_id_ = 0;
}

void ThriftWriter::end_struct() {
  out_.push_back(0);
  last_id_ = last_ids_.back();
  last_ids_.pop_back();
}

void ThriftWriter::field_header(TType type, int16_t id) {
  int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<uint8_t>((delta << 4) | static_cast<uint8_t>(type)));
  } else {
    out_.push_back(static_cast<uint8_t>(type));
    write_zigzag(id);
  }
  last_id_ = id;
}

void ThriftWriter::field_bool(int16_t id, bool v) {
  field_header(v ? TType::BoolTrue : TType::BoolFalse, id);
}

void ThriftWriter::list_header(TType elem, uint32_t count) {
  if (count < 15) {
    out_.push_back(static_cast<uint8_t>((count << 4) | static_cast<uint8_t>(elem)));
  } else {
    out_.push_back(static_cast<uint8_t>(0xF0 | static_cast<uint8_t>(elem)));
    write_varint(count);
  }
}

void ThriftWriter::write_string(const std::string& v) {
  write_varint(v.size());
  out_.insert(out_.end(), v.begin(), v.end());
}

void ThriftWriter::write_varint(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<uint8_t>(v));
}

}  // namespace frazil::io::parquet
