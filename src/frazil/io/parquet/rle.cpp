#include "frazil/io/parquet/rle.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "frazil/io/parquet/bit_unpack.hpp"
#include "frazil/io/parquet/decode_error.hpp"

namespace frazil::io::parquet {

namespace {
inline void set_bit_local(uint8_t* bits, int64_t i) { bits[i >> 3] |= uint8_t(1u << (i & 7)); }
}  // namespace

RleBitPackedDecoder::RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width)
    : pos_(data), end_(data + size), bit_width_(bit_width) {
  if (bit_width < 0 || bit_width > 32) throw DecodeError("RLE bit width out of range");
}

bool RleBitPackedDecoder::next_run() {
  // Header: ULEB128; low bit 1 = bit-packed groups of 8, 0 = a repeated value.
  uint64_t header = 0;
  int shift = 0;
  while (true) {
    if (pos_ >= end_) return false;
    uint8_t b = *pos_++;
    if (shift > 56) throw DecodeError("RLE run header too long");
    header |= uint64_t(b & 0x7F) << shift;
    shift += 7;
    if (!(b & 0x80)) break;
  }
  if (header & 1) {
    uint64_t groups = header >> 1;
    size_t avail = static_cast<size_t>(end_ - pos_);
    size_t bytes = groups * bit_width_;
    if (groups > (uint64_t(1) << 40)) throw DecodeError("RLE bit-packed run too long");
    rle_ = false;
    if (bit_width_ == 0) {
      run_left_ = groups * 8;
      packed_bytes_ = 0;
    } else {
      // A truncated last run yields only the values its bytes hold.
      size_t have = std::min(bytes, avail);
      run_left_ = std::min<uint64_t>(groups * 8, have * 8 / bit_width_);
      packed_bytes_ = have;
    }
    packed_ = pos_;
    pos_ += std::min(bytes, avail);
  } else {
    run_left_ = header >> 1;
    rle_ = true;
    int nbytes = (bit_width_ + 7) / 8;
    if (end_ - pos_ < nbytes) throw DecodeError("RLE run value past the end of its data");
    rle_value_ = 0;
    for (int i = 0; i < nbytes; ++i) rle_value_ |= uint32_t(pos_[i]) << (8 * i);
    pos_ += nbytes;
  }
  return true;
}

size_t RleBitPackedDecoder::get_batch(uint32_t* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    if (buffered_pos_ < 8) {
      size_t k = std::min<size_t>(8 - buffered_pos_, n - done);
      k = std::min(k, run_left_);
      std::memcpy(out + done, buffered_ + buffered_pos_, k * 4);
      buffered_pos_ += static_cast<int>(k);
      done += k;
      run_left_ -= k;
      if (buffered_pos_ < 8 && run_left_ == 0) buffered_pos_ = 8;
      continue;
    }
    if (run_left_ == 0) {
      if (!next_run()) break;
      continue;
    }
    size_t k = std::min(run_left_, n - done);
    if (rle_) {
      std::fill(out + done, out + done + k, rle_value_);
      done += k;
      run_left_ -= k;
      continue;
    }
    size_t full = k / 8 * 8;
    if (full) {
      unpack32(packed_, packed_bytes_, bit_width_, out + done, full);
      size_t used = full / 8 * bit_width_;
      packed_ += used;
      packed_bytes_ -= std::min(used, packed_bytes_);
      done += full;
      run_left_ -= full;
    } else {
      unpack32(packed_, packed_bytes_, bit_width_, buffered_, 8);
      size_t used = static_cast<size_t>(bit_width_);
      packed_ += used;
      packed_bytes_ -= std::min(used, packed_bytes_);
      buffered_pos_ = 0;
    }
  }
  return done;
}

size_t RleBitPackedDecoder::get_batch(int16_t* out, size_t n) {
  uint32_t tmp[256];
  size_t done = 0;
  while (done < n) {
    size_t want = std::min<size_t>(256, n - done);
    size_t got = get_batch(tmp, want);
    for (size_t i = 0; i < got; ++i) out[done + i] = static_cast<int16_t>(tmp[i]);
    done += got;
    if (got < want) break;
  }
  return done;
}

size_t RleBitPackedDecoder::skip(size_t n) {
  uint32_t tmp[256];
  size_t done = 0;
  while (done < n) {
    if (rle_ && buffered_pos_ >= 8 && run_left_ > 0) {
      size_t k = std::min(run_left_, n - done);
      run_left_ -= k;
      done += k;
      continue;
    }
    size_t want = std::min<size_t>(256, n - done);
    size_t got = get_batch(tmp, want);
    done += got;
    if (got < want) break;
  }
  return done;
}

namespace {

// ORs `count` bits of src (from bit 0) into dst at bit offset dst_off.
void or_bits(const uint8_t* src, int64_t count, uint8_t* dst, int64_t dst_off) {
  const int s = static_cast<int>(dst_off & 7);
  uint8_t* d = dst + (dst_off >> 3);
  const int64_t nb = count / 8;
  const int rem = static_cast<int>(count % 8);
  if (s == 0) {
    for (int64_t i = 0; i < nb; ++i) d[i] |= src[i];
    if (rem) d[nb] |= static_cast<uint8_t>(src[nb] & ((1u << rem) - 1));
    return;
  }
  for (int64_t i = 0; i < nb; ++i) {
    d[i] |= static_cast<uint8_t>(src[i] << s);
    d[i + 1] |= static_cast<uint8_t>(src[i] >> (8 - s));
  }
  if (rem) {
    uint8_t b = static_cast<uint8_t>(src[nb] & ((1u << rem) - 1));
    d[nb] |= static_cast<uint8_t>(b << s);
    if (s + rem > 8) d[nb + 1] |= static_cast<uint8_t>(b >> (8 - s));
  }
}

void set_bit_range(uint8_t* bits, int64_t start, int64_t len) {
  int64_t i = start, end = start + len;
  while (i < end && (i & 7)) set_bit_local(bits, i++);
  if (end - i >= 8) {
    std::memset(bits + (i >> 3), 0xFF, static_cast<size_t>((end - i) / 8));
    i += (end - i) / 8 * 8;
  }
  while (i < end) set_bit_local(bits, i++);
}

}  // namespace

int64_t decode_levels_to_bits(const uint8_t* p, size_t size, int64_t n, uint8_t* bits, int64_t offset) {
  const uint8_t* end = p + size;
  int64_t done = 0, ones = 0;
  while (done < n) {
    uint64_t header = 0;
    int shift = 0;
    while (true) {
      if (p >= end) throw DecodeError("page has fewer levels than values");
      uint8_t b = *p++;
      if (shift > 56) throw DecodeError("RLE run header too long");
      header |= uint64_t(b & 0x7F) << shift;
      shift += 7;
      if (!(b & 0x80)) break;
    }
    if (header & 1) {
      uint64_t groups = header >> 1;
      int64_t k = static_cast<int64_t>(std::min<uint64_t>(groups * 8, static_cast<uint64_t>(n - done)));
      if (groups > (uint64_t(1) << 40)) throw DecodeError("RLE bit-packed run too long");
      size_t need = static_cast<size_t>((k + 7) / 8);
      if (static_cast<size_t>(end - p) < need) throw DecodeError("page has fewer levels than values");
      or_bits(p, k, bits, offset + done);
      for (size_t i = 0; i + 1 < need; ++i) ones += std::popcount(static_cast<unsigned>(p[i]));
      if (need) ones += std::popcount(static_cast<unsigned>(p[need - 1] & ((k % 8) ? (1u << (k % 8)) - 1 : 0xFFu)));
      p += std::min<uint64_t>(groups, static_cast<uint64_t>(end - p));
      done += k;
    } else {
      if (p >= end) throw DecodeError("RLE run value past the end of its data");
      uint8_t v = *p++;
      if (v > 1) throw DecodeError("level above the column's maximum");
      int64_t k = static_cast<int64_t>(std::min<uint64_t>(header >> 1, static_cast<uint64_t>(n - done)));
      if (v) {
        set_bit_range(bits, offset + done, k);
        ones += k;
      }
      done += k;
    }
  }
  return ones;
}

namespace {

void put_varint(uint64_t v, std::vector<uint8_t>& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

size_t run_length(const uint32_t* v, size_t i, size_t n) {
  size_t j = i + 1;
  while (j < n && v[j] == v[i]) ++j;
  return j - i;
}

}  // namespace

void encode_rle_bitpacked(const uint32_t* values, size_t n, int bit_width, std::vector<uint8_t>& out) {
  const int value_bytes = (bit_width + 7) / 8;
  size_t i = 0;
  while (i < n) {
    size_t r = run_length(values, i, n);
    if (r >= 8 || bit_width == 0) {
      put_varint(uint64_t(r) << 1, out);
      for (int b = 0; b < value_bytes; ++b) out.push_back(static_cast<uint8_t>(values[i] >> (8 * b)));
      i += r;
      continue;
    }
    // Bit-packed groups of 8 until a long run begins at a group boundary.
    size_t j = i;
    do {
      j += 8;
    } while (j < n && run_length(values, j, std::min(n, j + 8)) < 8);
    size_t groups = (std::min(j, n) - i + 7) / 8;
    put_varint((uint64_t(groups) << 1) | 1, out);
    size_t base = out.size();
    out.resize(base + groups * bit_width, 0);
    uint8_t* dst = out.data() + base;
    uint64_t acc = 0;
    int nbits = 0;
    size_t o = 0;
    for (size_t k = 0; k < groups * 8; ++k) {
      uint64_t v = i + k < n ? values[i + k] : 0;
      acc |= v << nbits;
      nbits += bit_width;
      while (nbits >= 8) {
        dst[o++] = static_cast<uint8_t>(acc);
        acc >>= 8;
        nbits -= 8;
      }
    }
    i = std::min(j, n);
  }
}

}  // namespace frazil::io::parquet
