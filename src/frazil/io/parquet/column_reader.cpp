#include "frazil/io/parquet/column_reader.hpp"

#include <algorithm>
#include <cstring>

#include "frazil/core/bitmap.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/parquet/codec.hpp"
#include "frazil/io/parquet/decode_error.hpp"
#include "frazil/io/parquet/delta.hpp"
#include "frazil/io/parquet/rle.hpp"

namespace frazil::io::parquet {

namespace {

// A page may not claim to decompress to more than this many times its compressed size
// (zstd of all-zero data reaches ~30000x); it bounds what a corrupt header can allocate.
constexpr uint64_t kMaxCompressionRatio = 32768;
constexpr uint64_t kRatioSlack = 1 << 16;

using int128 = __int128;

[[noreturn]] void bad(const std::string& what) { throw DecodeError(what); }

inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

int128 decimal_from_be(const uint8_t* p, uint32_t len) {
  if (len == 0) return 0;
  if (len > 16) bad("DECIMAL value wider than 16 bytes");
  // Sign-extend from the first byte, then shift the big-endian bytes in.
  unsigned __int128 v = (p[0] & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (uint32_t i = 0; i < len; ++i) v = (v << 8) | p[i];
  return static_cast<int128>(v);
}

// Bytes per output slot (0 for bit-packed booleans and the Null type).
int slot_width(const LeafColumn& leaf) {
  switch (leaf.conversion) {
    case Conversion::Boolean:
    case Conversion::Null: return 0;
    case Conversion::ByteArray:
    case Conversion::FixedBytes: return sizeof(View);
    default: return leaf.dtype.byte_width();
  }
}

// Size of one physical value in a PLAIN stream (byte arrays: their 4-byte length).
size_t min_plain_size(const LeafColumn& leaf) {
  switch (leaf.physical) {
    case PhysicalType::Boolean: return 1;  // bits, checked separately
    case PhysicalType::Int32:
    case PhysicalType::Float:
    case PhysicalType::ByteArray: return 4;
    case PhysicalType::Int64:
    case PhysicalType::Double: return 8;
    case PhysicalType::Int96: return 12;
    case PhysicalType::FixedLenByteArray: return static_cast<size_t>(leaf.type_length);
  }
  return 1;
}

// Registers data buffers of a string column on first use so views can point into them.
struct ViewSink {
  std::vector<Buffer>& data;
  const uint8_t* base = nullptr;
  uint32_t index = 0;

  View make(const uint8_t* p, uint32_t len, const Buffer& owner) {
    if (len <= View::kInlineSize) return View::make_inline(reinterpret_cast<const char*>(p), len);
    if (owner.data() != base) {
      base = owner.data();
      index = static_cast<uint32_t>(data.size());
      data.push_back(owner);
    }
    return View::make_ref(reinterpret_cast<const char*>(p), len, index, static_cast<uint32_t>(p - base));
  }
};

class ChunkDecoder {
 public:
  ChunkDecoder(const LeafColumn& leaf, const ColumnMetaData& meta, const ChunkReadOptions& opt)
      : leaf_(leaf),
        meta_(meta),
        opt_(opt),
        width_(slot_width(leaf)),
        bits_mode_(!opt.dense && !opt.levels_needed && leaf.max_def == 1 && leaf.max_rep == 0) {}

  LeafResult run(const Buffer& chunk);

 private:
  void reserve(int64_t slots);
  Buffer decompress_page(const Buffer& page, int64_t uncompressed_size);
  void read_dictionary(const PageHeader& ph, const Buffer& page);
  void read_data_page_v1(const PageHeader& ph, const Buffer& page);
  void read_data_page_v2(const PageHeader& ph, const Buffer& page);
  size_t read_levels(Encoding enc, const uint8_t* p, size_t size, int16_t max_level, int64_t n,
                     std::vector<int16_t>& out, bool length_prefixed);
  void read_values(Encoding enc, const Buffer& buf, size_t offset, int64_t n_levels, int64_t n_valid);
  // Definition levels of one page: into def_ (returns the non-null count) or, in bits
  // mode, into valid_bits_. Returns the bytes used.
  size_t read_def_levels(Encoding enc, const uint8_t* p, size_t size, int64_t n, bool length_prefixed,
                         int64_t& n_valid);
  // Decodes n non-null values into slots starting at `dst` of out (a fixed-width array,
  // views or, for booleans, bits at bit offset dst).
  void decode(Encoding enc, const Buffer& buf, const uint8_t* p, size_t size, int64_t n, uint8_t* out,
              int64_t dst);
  void decode_dictionary_indices(const uint8_t* p, size_t size, int64_t n, uint8_t* out, int64_t dst);
  template <typename Emit>
  void for_each_byte_array(Encoding enc, const Buffer& buf, const uint8_t* p, size_t size, int64_t n,
                           Emit&& emit);
  void decode_int(Encoding enc, const uint8_t* p, size_t size, int64_t n, int byte_width, void* out);
  void expand_spaced(int64_t start, int64_t n_levels, int64_t n_valid);
  void truncate_to_rows(int64_t rows);
  bool limit_reached();
  LeafResult finish();

  const LeafColumn& leaf_;
  const ColumnMetaData& meta_;
  const ChunkReadOptions& opt_;
  const int width_;
  const bool bits_mode_;  // definition levels kept as validity bits only

  Buffer values_;
  Buffer valid_bits_;     // bits_mode_: validity of every slot so far
  int64_t cap_ = 0;
  int64_t len_ = 0;
  std::vector<Buffer> data_;
  std::vector<int16_t> def_, rep_;
  int64_t levels_ = 0;
  int64_t scanned_ = 0;    // levels looked at by limit_reached()
  int64_t rows_seen_ = 0;

  bool has_dict_ = false;
  Buffer dict_;
  int64_t dict_size_ = 0;
  std::vector<int64_t> scratch64_;
  std::vector<uint32_t> indices_;
};

void ChunkDecoder::reserve(int64_t slots) {
  if (slots <= cap_) return;
  int64_t cap = std::max<int64_t>(slots, cap_ + cap_ / 2);
  size_t bytes = width_ == 0 ? static_cast<size_t>(bitmap_bytes(cap)) : static_cast<size_t>(cap) * width_;
  if (leaf_.conversion == Conversion::Null) bytes = 0;
  Buffer next = Buffer::allocate(bytes);
  size_t used = width_ == 0 ? static_cast<size_t>(bitmap_bytes(len_)) : static_cast<size_t>(len_) * width_;
  if (leaf_.conversion != Conversion::Null && used) std::memcpy(next.mutable_data(), values_.data(), used);
  values_ = std::move(next);
  if (bits_mode_) {
    Buffer bits = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(cap)) + 8);
    if (!valid_bits_.empty()) std::memcpy(bits.mutable_data(), valid_bits_.data(), static_cast<size_t>(bitmap_bytes(len_)));
    valid_bits_ = std::move(bits);
  }
  cap_ = cap;
}

Buffer ChunkDecoder::decompress_page(const Buffer& page, int64_t uncompressed_size) {
  if (meta_.codec == Codec::Uncompressed) return page;
  if (uncompressed_size < 0) bad("negative uncompressed page size");
  // An empty page (no values, or a v2 page whose values are all null) holds no compressed
  // stream at all: zero bytes are not decompressed.
  if (page.size() == 0) {
    if (uncompressed_size != 0) bad("empty page claims a non-zero uncompressed size");
    return page;
  }
  if (static_cast<uint64_t>(uncompressed_size) > page.size() * kMaxCompressionRatio + kRatioSlack)
    bad(err_msg("page claims to decompress to ", uncompressed_size, " bytes from ", page.size(),
                ": a ratio above ", kMaxCompressionRatio, ":1 is refused (decompression bomb guard)"));
  Buffer out = Buffer::allocate(static_cast<size_t>(uncompressed_size));
  decompress(meta_.codec, page.data(), page.size(), out.mutable_data(), out.size());
  return out;
}

LeafResult ChunkDecoder::run(const Buffer& chunk) {
  if (!codec_supported(meta_.codec))
    throw DecodeError(std::string("unsupported compression codec ") + codec_name(meta_.codec));
  if (meta_.num_values < 0) bad("negative value count in column metadata");
  const int64_t expected = meta_.num_values;
  // One slot per level when spaced: the whole chunk's output in one allocation (the
  // footer's count was checked against the row group and the reader's limits).
  if (!opt_.dense) reserve(opt_.row_limit >= 0 ? std::min(expected, opt_.row_limit + 0) : expected);
  size_t pos = 0;
  bool stopped = false;
  while (levels_ < expected && pos < chunk.size()) {
    size_t header_size = 0;
    PageHeader ph = decode_page_header(chunk.data() + pos, chunk.size() - pos, &header_size);
    pos += header_size;
    if (ph.compressed_page_size < 0 || ph.uncompressed_page_size < 0) bad("negative page size");
    if (static_cast<size_t>(ph.compressed_page_size) > chunk.size() - pos)
      bad("page extends past the end of the column chunk");
    Buffer page = chunk.slice(pos, static_cast<size_t>(ph.compressed_page_size));
    pos += static_cast<size_t>(ph.compressed_page_size);
    switch (ph.type) {
      case PageType::DictionaryPage: read_dictionary(ph, page); break;
      case PageType::DataPage: read_data_page_v1(ph, page); break;
      case PageType::DataPageV2: read_data_page_v2(ph, page); break;
      default: break;  // index pages and unknown kinds are skipped
    }
    if (limit_reached()) {
      stopped = true;
      break;
    }
  }
  if (stopped) {
    truncate_to_rows(opt_.row_limit);
  } else if (levels_ != expected) {
    throw DecodeError(err_msg("column chunk decodes to ", levels_, " values but its metadata says ", expected));
  }
  return finish();
}

bool ChunkDecoder::limit_reached() {
  if (opt_.row_limit < 0) return false;
  if (rep_.empty()) return levels_ >= opt_.row_limit;
  // Nested: the row `row_limit` must have started so that row_limit - 1 is complete.
  for (; scanned_ < levels_; ++scanned_)
    if (rep_[scanned_] == 0 && ++rows_seen_ > opt_.row_limit) return true;
  return false;
}

void ChunkDecoder::truncate_to_rows(int64_t rows) {
  int64_t cut = levels_;
  if (rep_.empty()) {
    cut = std::min(levels_, rows);
  } else {
    int64_t seen = 0;
    for (int64_t i = 0; i < levels_; ++i) {
      if (rep_[i] == 0 && seen++ == rows) {
        cut = i;
        break;
      }
    }
  }
  int64_t slots = cut;
  if (opt_.dense && leaf_.max_def > 0) {
    slots = 0;
    for (int64_t i = 0; i < cut; ++i) slots += def_[i] == leaf_.max_def;
  }
  levels_ = cut;
  if (!def_.empty()) def_.resize(cut);
  if (!rep_.empty()) rep_.resize(cut);
  len_ = slots;
}

size_t ChunkDecoder::read_levels(Encoding enc, const uint8_t* p, size_t size, int16_t max_level, int64_t n,
                                 std::vector<int16_t>& out, bool length_prefixed) {
  const int bw = bit_width_for(static_cast<uint64_t>(max_level));
  out.resize(static_cast<size_t>(levels_ + n));
  int16_t* dst = out.data() + levels_;
  size_t used;
  if (enc == Encoding::Rle) {
    size_t len = size;
    size_t skip = 0;
    if (length_prefixed) {
      if (size < 4) bad("level data past the end of the page");
      len = load_u32(p);
      skip = 4;
      if (len > size - 4) bad("level data past the end of the page");
    }
    RleBitPackedDecoder dec(p + skip, len, bw);
    if (dec.get_batch(dst, static_cast<size_t>(n)) != static_cast<size_t>(n)) bad("page has fewer levels than values");
    used = skip + len;
  } else if (enc == Encoding::BitPacked) {
    // Deprecated encoding: packed from the most significant bit, no length prefix.
    size_t bytes = (static_cast<size_t>(n) * bw + 7) / 8;
    if (bytes > size) bad("level data past the end of the page");
    for (int64_t i = 0; i < n; ++i) {
      uint32_t v = 0;
      for (int b = 0; b < bw; ++b) {
        size_t bit = static_cast<size_t>(i) * bw + b;
        v = (v << 1) | ((p[bit >> 3] >> (7 - (bit & 7))) & 1);
      }
      dst[i] = static_cast<int16_t>(v);
    }
    used = bytes;
  } else {
    bad(err_msg("unsupported level encoding ", encoding_name(enc)));
  }
  int16_t mx = 0;
  for (int64_t i = 0; i < n; ++i) mx = std::max(mx, dst[i]);
  if (mx > max_level) bad("level above the column's maximum");
  return used;
}

size_t ChunkDecoder::read_def_levels(Encoding enc, const uint8_t* p, size_t size, int64_t n, bool length_prefixed,
                                     int64_t& n_valid) {
  if (bits_mode_ && enc == Encoding::Rle) {
    size_t len = size, skip = 0;
    if (length_prefixed) {
      if (size < 4) bad("level data past the end of the page");
      len = load_u32(p);
      skip = 4;
      if (len > size - 4) bad("level data past the end of the page");
    }
    reserve(len_ + n);
    n_valid = decode_levels_to_bits(p + skip, len, n, valid_bits_.mutable_data(), len_);
    return skip + len;
  }
  if (bits_mode_) bad(err_msg("unsupported definition level encoding ", encoding_name(enc)));
  size_t used = read_levels(enc, p, size, leaf_.max_def, n, def_, length_prefixed);
  const int16_t* d = def_.data() + levels_;
  const int16_t mx = leaf_.max_def;
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += d[i] == mx;
  n_valid = count;
  return used;
}

void ChunkDecoder::read_data_page_v1(const PageHeader& ph, const Buffer& page) {
  if (!ph.data_page_header) bad("data page without its header");
  const DataPageHeader& d = *ph.data_page_header;
  if (d.num_values < 0 || d.num_values > meta_.num_values - levels_) bad("data page holds more values than its column chunk");
  if (d.num_values == 0) return;  // an empty page: its bytes (if any) need no decoding
  Buffer buf = decompress_page(page, ph.uncompressed_page_size);
  const int64_t n = d.num_values;
  size_t off = 0;
  if (leaf_.max_rep > 0)
    off += read_levels(d.repetition_level_encoding, buf.data(), buf.size(), leaf_.max_rep, n, rep_, true);
  int64_t n_valid = n;
  if (leaf_.max_def > 0)
    off += read_def_levels(d.definition_level_encoding, buf.data() + off, buf.size() - off, n, true, n_valid);
  if (levels_ == 0 && !rep_.empty() && n > 0 && rep_[0] != 0) bad("first repetition level of a column chunk is not 0");
  read_values(d.encoding, buf, off, n, n_valid);
}

void ChunkDecoder::read_data_page_v2(const PageHeader& ph, const Buffer& page) {
  if (!ph.data_page_header_v2) bad("data page v2 without its header");
  const DataPageHeaderV2& d = *ph.data_page_header_v2;
  if (d.num_values < 0 || d.num_values > meta_.num_values - levels_) bad("data page holds more values than its column chunk");
  if (d.num_values == 0) return;  // an empty page: its bytes (if any) need no decoding
  const int64_t n = d.num_values;
  if (d.repetition_levels_byte_length < 0 || d.definition_levels_byte_length < 0 ||
      static_cast<uint64_t>(d.repetition_levels_byte_length) + d.definition_levels_byte_length > page.size())
    bad("level lengths exceed the page");
  size_t rl = static_cast<size_t>(d.repetition_levels_byte_length);
  size_t dl = static_cast<size_t>(d.definition_levels_byte_length);
  if (leaf_.max_rep > 0) read_levels(Encoding::Rle, page.data(), rl, leaf_.max_rep, n, rep_, false);
  int64_t n_valid = n;
  if (leaf_.max_def > 0) read_def_levels(Encoding::Rle, page.data() + rl, dl, n, false, n_valid);
  if (levels_ == 0 && !rep_.empty() && n > 0 && rep_[0] != 0) bad("first repetition level of a column chunk is not 0");
  Buffer values = page.slice(rl + dl, page.size() - rl - dl);
  if (d.is_compressed && meta_.codec != Codec::Uncompressed) {
    int64_t usize = static_cast<int64_t>(ph.uncompressed_page_size) - static_cast<int64_t>(rl + dl);
    if (usize < 0) bad("uncompressed page size smaller than its levels");
    values = decompress_page(values, usize);
  }
  read_values(d.encoding, values, 0, n, n_valid);
}

void ChunkDecoder::read_dictionary(const PageHeader& ph, const Buffer& page) {
  if (!ph.dictionary_page_header) bad("dictionary page without its header");
  if (has_dict_) bad("column chunk has more than one dictionary page");
  const DictionaryPageHeader& d = *ph.dictionary_page_header;
  if (d.encoding != Encoding::Plain && d.encoding != Encoding::PlainDictionary)
    bad(err_msg("unsupported dictionary encoding ", encoding_name(d.encoding)));
  if (leaf_.conversion == Conversion::Boolean) bad("dictionary page in a boolean column");
  Buffer buf = decompress_page(page, ph.uncompressed_page_size);
  if (d.num_values < 0 || static_cast<size_t>(d.num_values) > buf.size() / std::max<size_t>(1, min_plain_size(leaf_)))
    bad("dictionary page holds fewer bytes than its value count needs");
  dict_size_ = d.num_values;
  has_dict_ = true;
  if (leaf_.conversion == Conversion::Null) return;
  dict_ = Buffer::allocate(static_cast<size_t>(dict_size_) * width_);
  decode(Encoding::Plain, buf, buf.data(), buf.size(), dict_size_, dict_.mutable_data(), 0);
}

void ChunkDecoder::read_values(Encoding enc, const Buffer& buf, size_t off, int64_t n_levels, int64_t n_valid) {
  if (off > buf.size()) bad("levels extend past the page");
  const uint8_t* p = buf.data() + off;
  const size_t size = buf.size() - off;
  if (opt_.dense) {
    reserve(len_ + n_valid);
    if (leaf_.conversion != Conversion::Null) decode(enc, buf, p, size, n_valid, values_.mutable_data(), len_);
    len_ += n_valid;
  } else {
    reserve(len_ + n_levels);
    if (leaf_.conversion != Conversion::Null) {
      // Dense values go to the end of the page's slots, then spread forward in place.
      decode(enc, buf, p, size, n_valid, values_.mutable_data(), len_ + n_levels - n_valid);
      if (n_valid != n_levels) expand_spaced(len_, n_levels, n_valid);
    }
    len_ += n_levels;
  }
  levels_ += n_levels;
}

namespace {

// Spreads the n_valid values stored at out[src..] over slots [start, start + n) where
// `valid(i)` holds, zeroing the others. Reads stay ahead of writes, so this is in place.
template <typename T, typename Valid>
void spread_in_place(T* out, int64_t start, int64_t n, int64_t src, Valid&& valid) {
  for (int64_t i = 0; i < n; ++i) out[start + i] = valid(i) ? out[src++] : T{};
}

struct Bytes16 {
  uint64_t a = 0, b = 0;
};

}  // namespace

void ChunkDecoder::expand_spaced(int64_t start, int64_t n, int64_t n_valid) {
  const int64_t src = start + n - n_valid;
  uint8_t* out = values_.mutable_data();
  auto run = [&](auto&& valid) {
    switch (width_) {
      case 0: {
        int64_t s = src;
        for (int64_t i = 0; i < n; ++i) set_bit_to(out, start + i, valid(i) ? get_bit(out, s++) : false);
        return;
      }
      case 1: spread_in_place(out, start, n, src, valid); return;
      case 2: spread_in_place(reinterpret_cast<uint16_t*>(out), start, n, src, valid); return;
      case 4: spread_in_place(reinterpret_cast<uint32_t*>(out), start, n, src, valid); return;
      case 8: spread_in_place(reinterpret_cast<uint64_t*>(out), start, n, src, valid); return;
      case 16: spread_in_place(reinterpret_cast<Bytes16*>(out), start, n, src, valid); return;
      default: bad("unexpected value width");
    }
  };
  if (bits_mode_) {
    const uint8_t* bits = valid_bits_.data();
    run([bits, start](int64_t i) { return get_bit(bits, start + i); });
  } else {
    const int16_t* d = def_.data() + levels_;
    const int16_t mx = leaf_.max_def;
    run([d, mx](int64_t i) { return d[i] == mx; });
  }
}

void ChunkDecoder::decode_int(Encoding enc, const uint8_t* p, size_t size, int64_t n, int byte_width, void* out) {
  const size_t un = static_cast<size_t>(n);
  switch (enc) {
    case Encoding::Plain:
      if (size / byte_width < un) bad("PLAIN values past the end of the page");
      std::memcpy(out, p, un * byte_width);
      return;
    case Encoding::ByteStreamSplit:
      if (size / byte_width < un) bad("BYTE_STREAM_SPLIT values past the end of the page");
      decode_byte_stream_split(p, un, un, byte_width, static_cast<uint8_t*>(out));
      return;
    case Encoding::DeltaBinaryPacked: {
      if (leaf_.physical != PhysicalType::Int32 && leaf_.physical != PhysicalType::Int64)
        bad("DELTA_BINARY_PACKED on a non-integer column");
      DeltaBinaryPackedDecoder dec(p, size);
      if (byte_width == 8) {
        dec.decode(static_cast<int64_t*>(out), un);
      } else {
        scratch64_.resize(un);
        dec.decode(scratch64_.data(), un);
        int32_t* o = static_cast<int32_t*>(out);
        for (size_t i = 0; i < un; ++i) o[i] = static_cast<int32_t>(scratch64_[i]);
      }
      return;
    }
    default: bad(err_msg("unsupported encoding ", encoding_name(enc), " for this column type"));
  }
}

template <typename Emit>
void ChunkDecoder::for_each_byte_array(Encoding enc, const Buffer& buf, const uint8_t* p, size_t size, int64_t n,
                                       Emit&& emit) {
  const bool fixed = leaf_.physical == PhysicalType::FixedLenByteArray;
  const uint32_t flen = static_cast<uint32_t>(leaf_.type_length);
  switch (enc) {
    case Encoding::Plain: {
      if (fixed) {
        if (size / flen < static_cast<size_t>(n)) bad("PLAIN values past the end of the page");
        for (int64_t i = 0; i < n; ++i) emit(p + i * flen, flen, buf);
        return;
      }
      size_t pos = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (size - pos < 4) bad("PLAIN byte array past the end of the page");
        uint32_t len = load_u32(p + pos);
        pos += 4;
        if (len > size - pos) bad("PLAIN byte array past the end of the page");
        emit(p + pos, len, buf);
        pos += len;
      }
      return;
    }
    case Encoding::ByteStreamSplit: {
      if (!fixed) bad("BYTE_STREAM_SPLIT on a BYTE_ARRAY column");
      if (size / flen < static_cast<size_t>(n)) bad("BYTE_STREAM_SPLIT values past the end of the page");
      Buffer out = Buffer::allocate(static_cast<size_t>(n) * flen);
      decode_byte_stream_split(p, static_cast<size_t>(n), static_cast<size_t>(n), static_cast<int>(flen),
                               out.mutable_data());
      for (int64_t i = 0; i < n; ++i) emit(out.data() + i * flen, flen, out);
      return;
    }
    case Encoding::DeltaLengthByteArray: {
      if (fixed) bad("DELTA_LENGTH_BYTE_ARRAY on a FIXED_LEN_BYTE_ARRAY column");
      DeltaBinaryPackedDecoder lens(p, size);
      if (lens.total_values() != static_cast<uint64_t>(n)) bad("DELTA_LENGTH_BYTE_ARRAY length count mismatch");
      scratch64_.resize(static_cast<size_t>(n));
      lens.decode(scratch64_.data(), static_cast<size_t>(n));
      size_t pos = lens.consumed();
      for (int64_t i = 0; i < n; ++i) {
        int64_t len = scratch64_[i];
        if (len < 0 || static_cast<uint64_t>(len) > size - pos) bad("DELTA_LENGTH_BYTE_ARRAY data past the end of the page");
        emit(p + pos, static_cast<uint32_t>(len), buf);
        pos += static_cast<size_t>(len);
      }
      return;
    }
    case Encoding::DeltaByteArray: {
      DeltaBinaryPackedDecoder prefixes(p, size);
      if (prefixes.total_values() != static_cast<uint64_t>(n)) bad("DELTA_BYTE_ARRAY prefix count mismatch");
      std::vector<int64_t> pre(static_cast<size_t>(n));
      prefixes.decode(pre.data(), pre.size());
      size_t pos = prefixes.consumed();
      DeltaBinaryPackedDecoder lens(p + pos, size - pos);
      if (lens.total_values() != static_cast<uint64_t>(n)) bad("DELTA_BYTE_ARRAY suffix count mismatch");
      std::vector<int64_t> suf(static_cast<size_t>(n));
      lens.decode(suf.data(), suf.size());
      pos += lens.consumed();
      // Sizes first, so that the materialised values take one allocation.
      uint64_t total = 0, prev = 0, data = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (pre[i] < 0 || suf[i] < 0 || static_cast<uint64_t>(pre[i]) > prev) bad("DELTA_BYTE_ARRAY prefix longer than the previous value");
        data += static_cast<uint64_t>(suf[i]);
        if (data > size - pos) bad("DELTA_BYTE_ARRAY data past the end of the page");
        prev = static_cast<uint64_t>(pre[i] + suf[i]);
        if (fixed && prev != flen) bad("DELTA_BYTE_ARRAY value of the wrong FIXED_LEN_BYTE_ARRAY length");
        total += prev;
        // Shared prefixes may expand a page, but not without bound.
        if (total > UINT32_MAX || total > uint64_t(size) * 4096 + (16u << 20))
          bad("DELTA_BYTE_ARRAY page expands implausibly");
      }
      Buffer out = Buffer::allocate(static_cast<size_t>(total));
      uint8_t* o = out.mutable_data();
      size_t opos = 0, last = 0, last_len = 0;
      for (int64_t i = 0; i < n; ++i) {
        size_t pl = static_cast<size_t>(pre[i]), sl = static_cast<size_t>(suf[i]);
        if (pl) std::memmove(o + opos, o + last, pl);
        if (sl) std::memcpy(o + opos + pl, p + pos, sl);
        pos += sl;
        last = opos;
        last_len = pl + sl;
        opos += last_len;
      }
      size_t q = 0;
      for (int64_t i = 0; i < n; ++i) {
        uint32_t len = static_cast<uint32_t>(pre[i] + suf[i]);
        emit(o + q, len, out);
        q += len;
      }
      (void)last_len;
      return;
    }
    default: bad(err_msg("unsupported encoding ", encoding_name(enc), " for a byte array column"));
  }
}

void ChunkDecoder::decode_dictionary_indices(const uint8_t* p, size_t size, int64_t n, uint8_t* out, int64_t dst) {
  if (!has_dict_) bad("dictionary-encoded page without a dictionary page");
  if (n == 0) return;
  if (size < 1) bad("dictionary indices past the end of the page");
  int bw = p[0];
  if (bw > 32) bad("dictionary index bit width above 32");
  RleBitPackedDecoder dec(p + 1, size - 1, bw);
  constexpr size_t kBatch = 1024;
  indices_.resize(kBatch);
  uint32_t* idx = indices_.data();
  const uint32_t dict_n = static_cast<uint32_t>(dict_size_);
  int64_t done = 0;
  while (done < n) {
    size_t k = static_cast<size_t>(std::min<int64_t>(kBatch, n - done));
    if (dec.get_batch(idx, k) != k) bad("page has fewer dictionary indices than values");
    uint32_t mx = 0;
    for (size_t i = 0; i < k; ++i) mx = std::max(mx, idx[i]);
    if (mx >= dict_n) bad("dictionary index out of range");
    int64_t at = dst + done;
    switch (width_) {
      case 1: {
        const uint8_t* d = dict_.data();
        for (size_t i = 0; i < k; ++i) out[at + i] = d[idx[i]];
        break;
      }
      case 2: {
        const uint16_t* d = dict_.as<uint16_t>();
        uint16_t* o = reinterpret_cast<uint16_t*>(out) + at;
        for (size_t i = 0; i < k; ++i) o[i] = d[idx[i]];
        break;
      }
      case 4: {
        const uint32_t* d = dict_.as<uint32_t>();
        uint32_t* o = reinterpret_cast<uint32_t*>(out) + at;
        for (size_t i = 0; i < k; ++i) o[i] = d[idx[i]];
        break;
      }
      case 8: {
        const uint64_t* d = dict_.as<uint64_t>();
        uint64_t* o = reinterpret_cast<uint64_t*>(out) + at;
        for (size_t i = 0; i < k; ++i) o[i] = d[idx[i]];
        break;
      }
      case 16: {
        const View* d = dict_.as<View>();
        View* o = reinterpret_cast<View*>(out) + at;
        for (size_t i = 0; i < k; ++i) o[i] = d[idx[i]];
        break;
      }
      default: bad("dictionary encoding is not supported for this column type");
    }
    done += static_cast<int64_t>(k);
  }
}

void ChunkDecoder::decode(Encoding enc, const Buffer& buf, const uint8_t* p, size_t size, int64_t n, uint8_t* out,
                          int64_t dst) {
  if (n == 0) return;
  if (enc == Encoding::PlainDictionary || enc == Encoding::RleDictionary) {
    decode_dictionary_indices(p, size, n, out, dst);
    return;
  }
  const size_t un = static_cast<size_t>(n);
  switch (leaf_.conversion) {
    case Conversion::Null: return;
    case Conversion::Boolean: {
      if (enc == Encoding::Plain) {
        if (size * 8 < un) bad("PLAIN booleans past the end of the page");
        copy_bits(p, 0, n, out, dst);
        return;
      }
      if (enc == Encoding::Rle) {
        if (size < 4) bad("RLE booleans past the end of the page");
        uint32_t len = load_u32(p);
        if (len > size - 4) bad("RLE booleans past the end of the page");
        RleBitPackedDecoder dec(p + 4, len, 1);
        uint32_t tmp[512];
        int64_t done = 0;
        while (done < n) {
          size_t k = static_cast<size_t>(std::min<int64_t>(512, n - done));
          if (dec.get_batch(tmp, k) != k) bad("page has fewer booleans than values");
          for (size_t i = 0; i < k; ++i) set_bit_to(out, dst + done + static_cast<int64_t>(i), tmp[i] != 0);
          done += static_cast<int64_t>(k);
        }
        return;
      }
      bad(err_msg("unsupported encoding ", encoding_name(enc), " for a boolean column"));
    }
    case Conversion::Copy32:
      if (leaf_.physical == PhysicalType::Float && enc == Encoding::DeltaBinaryPacked) bad("DELTA_BINARY_PACKED on a FLOAT column");
      decode_int(enc, p, size, n, 4, out + dst * 4);
      return;
    case Conversion::Copy64:
      if (leaf_.physical == PhysicalType::Double && enc == Encoding::DeltaBinaryPacked) bad("DELTA_BINARY_PACKED on a DOUBLE column");
      decode_int(enc, p, size, n, 8, out + dst * 8);
      return;
    case Conversion::Int32To8:
    case Conversion::Int32To16:
    case Conversion::TimeMillis:
    case Conversion::DecimalInt32: {
      scratch64_.resize(un);
      int32_t* tmp = reinterpret_cast<int32_t*>(scratch64_.data());
      decode_int(enc, p, size, n, 4, tmp);
      if (leaf_.conversion == Conversion::Int32To8) {
        int8_t* o = reinterpret_cast<int8_t*>(out) + dst;
        for (size_t i = 0; i < un; ++i) o[i] = static_cast<int8_t>(tmp[i]);
      } else if (leaf_.conversion == Conversion::Int32To16) {
        int16_t* o = reinterpret_cast<int16_t*>(out) + dst;
        for (size_t i = 0; i < un; ++i) o[i] = static_cast<int16_t>(tmp[i]);
      } else if (leaf_.conversion == Conversion::TimeMillis) {
        int64_t* o = reinterpret_cast<int64_t*>(out) + dst;
        for (size_t i = 0; i < un; ++i) o[i] = int64_t(tmp[i]) * 1000000;
      } else {
        int128* o = reinterpret_cast<int128*>(out) + dst;
        for (size_t i = 0; i < un; ++i) o[i] = tmp[i];
      }
      return;
    }
    case Conversion::TimeMicros: {
      int64_t* o = reinterpret_cast<int64_t*>(out) + dst;
      decode_int(enc, p, size, n, 8, o);
      for (size_t i = 0; i < un; ++i) o[i] = static_cast<int64_t>(static_cast<uint64_t>(o[i]) * 1000u);
      return;
    }
    case Conversion::DecimalInt64: {
      scratch64_.resize(un);
      decode_int(enc, p, size, n, 8, scratch64_.data());
      int128* o = reinterpret_cast<int128*>(out) + dst;
      for (size_t i = 0; i < un; ++i) o[i] = scratch64_[i];
      return;
    }
    case Conversion::Int96: {
      if (enc != Encoding::Plain) bad(err_msg("unsupported encoding ", encoding_name(enc), " for INT96"));
      if (size / 12 < un) bad("PLAIN INT96 values past the end of the page");
      int64_t* o = reinterpret_cast<int64_t*>(out) + dst;
      constexpr int64_t kJulianEpoch = 2440588;
      constexpr uint64_t kNanosPerDay = 86400ull * 1000000000ull;
      for (size_t i = 0; i < un; ++i) {
        uint64_t nanos;
        uint32_t jd;
        std::memcpy(&nanos, p + i * 12, 8);
        std::memcpy(&jd, p + i * 12 + 8, 4);
        uint64_t days = static_cast<uint64_t>(static_cast<int64_t>(jd) - kJulianEpoch);
        o[i] = static_cast<int64_t>(days * kNanosPerDay + nanos);
      }
      return;
    }
    case Conversion::DecimalBytes: {
      int128* o = reinterpret_cast<int128*>(out) + dst;
      size_t i = 0;
      for_each_byte_array(enc, buf, p, size, n, [&](const uint8_t* v, uint32_t len, const Buffer&) {
        o[i++] = decimal_from_be(v, len);
      });
      return;
    }
    case Conversion::Float16:
    case Conversion::Int128Bytes: {
      // Fixed-width values stored as their own little-endian bytes.
      const size_t w = leaf_.conversion == Conversion::Float16 ? 2 : 16;
      uint8_t* o = out + dst * static_cast<int64_t>(w);
      size_t i = 0;
      for_each_byte_array(enc, buf, p, size, n, [&](const uint8_t* v, uint32_t, const Buffer&) {
        std::memcpy(o + i++ * w, v, w);
      });
      return;
    }
    case Conversion::ByteArray:
    case Conversion::FixedBytes: {
      View* o = reinterpret_cast<View*>(out) + dst;
      ViewSink sink{data_};
      size_t i = 0;
      for_each_byte_array(enc, buf, p, size, n, [&](const uint8_t* v, uint32_t len, const Buffer& owner) {
        o[i++] = sink.make(v, len, owner);
      });
      return;
    }
  }
}

LeafResult ChunkDecoder::finish() {
  LeafResult r;
  r.num_levels = levels_;
  r.def = std::move(def_);
  r.rep = std::move(rep_);
  const int64_t n = len_;
  if (leaf_.conversion == Conversion::Null) {
    r.values = make_null_array(DataType::null(), n);
    return r;
  }
  Buffer validity;
  int64_t nulls = 0;
  if (bits_mode_) {
    nulls = n - count_set_bits(valid_bits_.data(), 0, n);
    if (nulls) validity = valid_bits_;
  } else if (!opt_.dense && leaf_.max_def > 0) {
    const int16_t mx = leaf_.max_def;
    for (int64_t i = 0; i < n; ++i) nulls += r.def[i] != mx;
    if (nulls) {
      validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
      uint8_t* bits = validity.mutable_data();
      for (int64_t i = 0; i < n; ++i)
        if (r.def[i] == mx) set_bit(bits, i);
    }
  }
  if (values_.empty()) reserve(std::max<int64_t>(n, 1));
  values_.set_size(width_ == 0 ? static_cast<size_t>(bitmap_bytes(n)) : static_cast<size_t>(n) * width_);
  std::vector<Buffer> buffers{values_};
  if (width_ == sizeof(View) && leaf_.dtype.is_view())
    for (auto& b : data_) buffers.push_back(b);
  r.values = Array::make(leaf_.dtype, n, validity, std::move(buffers), {}, 0, nulls);
  return r;
}

}  // namespace

LeafResult read_column_chunk(const LeafColumn& leaf, const ColumnMetaData& meta, const Buffer& chunk,
                             const ChunkReadOptions& options) {
  ChunkDecoder d(leaf, meta, options);
  return d.run(chunk);
}

}  // namespace frazil::io::parquet
