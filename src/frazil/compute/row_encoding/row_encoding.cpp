#include "frazil/compute/row_encoding/row_encoding.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/utf8.hpp"

namespace frazil::compute {

namespace {

constexpr uint8_t kValid = 0x01;
constexpr uint8_t kNullFirst = 0x00;
constexpr uint8_t kNullLast = 0xFF;

enum class FixedKind { Unsigned, Signed, Float };

FixedKind fixed_kind(TypeId id) {
  switch (id) {
    case TypeId::UInt8:
    case TypeId::UInt16:
    case TypeId::UInt32:
    case TypeId::UInt64:
    case TypeId::UInt128:
    case TypeId::Categorical:
    case TypeId::Enum: return FixedKind::Unsigned;
    case TypeId::Float16:
    case TypeId::Float32:
    case TypeId::Float64: return FixedKind::Float;
    default: return FixedKind::Signed;
  }
}

bool is_fixed(TypeId id) {
  switch (id) {
    case TypeId::Boolean:
    case TypeId::Null:
    case TypeId::String:
    case TypeId::Binary:
    case TypeId::List:
    case TypeId::Struct: return false;
    default: return true;
  }
}

// -0.0 -> 0.0 and every NaN -> one quiet NaN, in place on little-endian bytes.
void canonical_float(uint8_t* le, int width) {
  if (width == 8) {
    double d;
    std::memcpy(&d, le, 8);
    if (d == 0.0) d = 0.0;
    uint64_t bits = d != d ? 0x7FF8000000000000ull : 0;
    if (d != d) std::memcpy(&d, &bits, 8);
    std::memcpy(le, &d, 8);
  } else if (width == 4) {
    float f;
    std::memcpy(&f, le, 4);
    if (f == 0.0f) f = 0.0f;
    uint32_t bits = 0x7FC00000u;
    if (f != f) std::memcpy(&f, &bits, 4);
    std::memcpy(le, &f, 4);
  } else {  // half
    uint16_t h;
    std::memcpy(&h, le, 2);
    if (h == 0x8000) h = 0;
    if ((h & 0x7C00) == 0x7C00 && (h & 0x03FF)) h = 0x7E00;
    std::memcpy(le, &h, 2);
  }
}

// Little-endian value bytes -> big-endian bytes that compare as the values do.
void encode_fixed(const uint8_t* value, int width, FixedKind kind, std::vector<uint8_t>& out) {
  uint8_t le[16];
  std::memcpy(le, value, width);
  if (kind == FixedKind::Float) canonical_float(le, width);
  const size_t at = out.size();
  out.resize(at + width);
  uint8_t* be = out.data() + at;
  for (int k = 0; k < width; ++k) be[k] = le[width - 1 - k];
  if (kind == FixedKind::Signed) {
    be[0] ^= 0x80;
  } else if (kind == FixedKind::Float) {
    if (be[0] & 0x80) {
      for (int k = 0; k < width; ++k) be[k] = static_cast<uint8_t>(~be[k]);
    } else {
      be[0] ^= 0x80;
    }
  }
}

void encode_bytes(std::string_view s, std::vector<uint8_t>& out) {
  for (char ch : s) {
    const auto b = static_cast<uint8_t>(ch);
    out.push_back(b);
    if (b == 0) out.push_back(0x01);
  }
  out.push_back(0x00);
  out.push_back(0x00);
}

void encode_body(const Array& a, int64_t i, std::vector<uint8_t>& out);

void encode_element(const Array& a, int64_t i, std::vector<uint8_t>& out) {
  if (a.is_null(i)) {
    out.push_back(0x00);
    return;
  }
  out.push_back(kValid);
  encode_body(a, i, out);
}

void encode_body(const Array& a, int64_t i, std::vector<uint8_t>& out) {
  const TypeId id = a.dtype().id();
  switch (id) {
    case TypeId::Null: return;
    case TypeId::Boolean: out.push_back(a.bool_value(i) ? 1 : 0); return;
    case TypeId::String:
    case TypeId::Binary: encode_bytes(a.str_value(i), out); return;
    case TypeId::List: {
      const int64_t* o = a.list_offsets();
      for (int64_t j = o[i]; j < o[i + 1]; ++j) {
        out.push_back(kValid);
        encode_element(*a.child(0), j, out);
      }
      out.push_back(0x00);
      return;
    }
    case TypeId::Struct:
      for (const auto& c : a.children()) encode_element(*c, a.offset() + i, out);
      return;
    default: {
      const int w = a.dtype().byte_width();
      encode_fixed(a.buffer(0).data() + (a.offset() + i) * w, w, fixed_kind(id), out);
      return;
    }
  }
}

// Reads the bytes of one encoded row, undoing a descending column's inversion.
struct Cursor {
  const uint8_t* p;
  const uint8_t* end;
  int64_t row;
  uint8_t mask = 0;

  [[noreturn]] void fail(const char* what) const {
    throw ComputeError(err_msg("invalid row encoding at row ", row, ": ", what));
  }
  uint8_t byte() {
    if (p >= end) fail("the value ends early");
    return *p++ ^ mask;
  }
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual void push_null() = 0;
  virtual void push_body(Cursor& c) = 0;
  virtual ArrayRef finish() = 0;
  void push_element(Cursor& c) {
    const uint8_t v = c.byte();
    if (v == 0x00) {
      push_null();
    } else if (v == kValid) {
      push_body(c);
    } else {
      c.fail("a nested validity byte is neither 0 nor 1");
    }
  }
};

std::unique_ptr<Decoder> make_decoder(const DataType& dtype);

class NullDecoder final : public Decoder {
 public:
  void push_null() override { ++n_; }
  void push_body(Cursor& c) override { c.fail("a valid value in a Null column"); }
  ArrayRef finish() override { return make_null_array(DataType::null(), n_); }

 private:
  int64_t n_ = 0;
};

class BoolDecoder final : public Decoder {
 public:
  void push_null() override { b_.push_null(); }
  void push_body(Cursor& c) override {
    const uint8_t v = c.byte();
    if (v > 1) c.fail("a Boolean byte is neither 0 nor 1");
    b_.push(v == 1);
  }
  ArrayRef finish() override { return b_.finish(); }

 private:
  BooleanBuilder b_;
};

class FixedDecoder final : public Decoder {
 public:
  explicit FixedDecoder(DataType dtype)
      : dtype_(std::move(dtype)), width_(dtype_.byte_width()), kind_(fixed_kind(dtype_.id())) {}
  void push_null() override {
    bytes_.resize(bytes_.size() + width_, 0);
    validity_.push(false);
    ++n_;
  }
  void push_body(Cursor& c) override {
    uint8_t be[16];
    for (int k = 0; k < width_; ++k) be[k] = c.byte();
    if (kind_ == FixedKind::Signed) {
      be[0] ^= 0x80;
    } else if (kind_ == FixedKind::Float) {
      if (be[0] & 0x80) {
        be[0] ^= 0x80;
      } else {
        for (int k = 0; k < width_; ++k) be[k] = static_cast<uint8_t>(~be[k]);
      }
    }
    const size_t at = bytes_.size();
    bytes_.resize(at + width_);
    for (int k = 0; k < width_; ++k) bytes_[at + k] = be[width_ - 1 - k];
    validity_.push(true);
    ++n_;
  }
  ArrayRef finish() override {
    Buffer values = Buffer::allocate(std::max<size_t>(bytes_.size(), 1));
    if (!bytes_.empty()) std::memcpy(values.mutable_data(), bytes_.data(), bytes_.size());
    values.set_size(bytes_.size());
    const int64_t nulls = validity_.null_count();
    return Array::make(dtype_, n_, validity_.finish(), {values}, {}, 0, nulls);
  }

 private:
  DataType dtype_;
  int width_;
  FixedKind kind_;
  std::vector<uint8_t> bytes_;
  ValidityBuilder validity_;
  int64_t n_ = 0;
};

class BytesDecoder final : public Decoder {
 public:
  explicit BytesDecoder(DataType dtype) : is_string_(dtype.is_string()), b_(std::move(dtype)) {}
  void push_null() override { b_.push_null(); }
  void push_body(Cursor& c) override {
    scratch_.clear();
    for (;;) {
      const uint8_t v = c.byte();
      if (v != 0) {
        scratch_.push_back(static_cast<char>(v));
        continue;
      }
      const uint8_t next = c.byte();
      if (next == 0x00) break;
      if (next != 0x01) c.fail("a bad escape in a string");
      scratch_.push_back('\0');
    }
    if (is_string_ && !is_valid_utf8(scratch_)) c.fail("a String value is not valid UTF-8");
    b_.push(scratch_);
  }
  ArrayRef finish() override { return b_.finish(); }

 private:
  bool is_string_;
  ViewBuilder b_;
  std::string scratch_;
};

class ListDecoder final : public Decoder {
 public:
  explicit ListDecoder(DataType dtype) : dtype_(std::move(dtype)), child_(make_decoder(dtype_.inner())) {
    offsets_.push_back(0);
  }
  void push_null() override {
    offsets_.push_back(count_);
    validity_.push(false);
  }
  void push_body(Cursor& c) override {
    for (;;) {
      const uint8_t v = c.byte();
      if (v == 0x00) break;
      if (v != kValid) c.fail("a list continuation byte is neither 0 nor 1");
      child_->push_element(c);
      ++count_;
    }
    offsets_.push_back(count_);
    validity_.push(true);
  }
  ArrayRef finish() override {
    const int64_t n = static_cast<int64_t>(offsets_.size()) - 1;
    Buffer off = Buffer::allocate(offsets_.size() * sizeof(int64_t));
    std::memcpy(off.mutable_data(), offsets_.data(), offsets_.size() * sizeof(int64_t));
    const int64_t nulls = validity_.null_count();
    return Array::make(dtype_, n, validity_.finish(), {off}, {child_->finish()}, 0, nulls);
  }

 private:
  DataType dtype_;
  std::unique_ptr<Decoder> child_;
  std::vector<int64_t> offsets_;
  int64_t count_ = 0;
  ValidityBuilder validity_;
};

class StructDecoder final : public Decoder {
 public:
  explicit StructDecoder(DataType dtype) : dtype_(std::move(dtype)) {
    for (const auto& f : dtype_.fields()) fields_.push_back(make_decoder(f.dtype));
  }
  void push_null() override {
    for (auto& f : fields_) f->push_null();
    validity_.push(false);
    ++n_;
  }
  void push_body(Cursor& c) override {
    for (auto& f : fields_) f->push_element(c);
    validity_.push(true);
    ++n_;
  }
  ArrayRef finish() override {
    std::vector<ArrayRef> children;
    for (auto& f : fields_) children.push_back(f->finish());
    const int64_t nulls = validity_.null_count();
    return Array::make(dtype_, n_, validity_.finish(), {}, std::move(children), 0, nulls);
  }

 private:
  DataType dtype_;
  std::vector<std::unique_ptr<Decoder>> fields_;
  ValidityBuilder validity_;
  int64_t n_ = 0;
};

std::unique_ptr<Decoder> make_decoder(const DataType& dtype) {
  switch (dtype.id()) {
    case TypeId::Null: return std::make_unique<NullDecoder>();
    case TypeId::Boolean: return std::make_unique<BoolDecoder>();
    case TypeId::String:
    case TypeId::Binary: return std::make_unique<BytesDecoder>(dtype);
    case TypeId::List: return std::make_unique<ListDecoder>(dtype);
    case TypeId::Struct: return std::make_unique<StructDecoder>(dtype);
    default: return std::make_unique<FixedDecoder>(dtype);
  }
}

void check_encodable(const DataType& dtype) {
  if (!row_encodable(dtype))
    throw InvalidOperationError(err_msg("row encoding is not supported for dtype `", dtype.short_name(), "`"));
}

std::vector<RowEncodingField> fields_for(size_t n, const std::vector<RowEncodingField>& fields) {
  if (fields.empty()) return std::vector<RowEncodingField>(n);
  if (fields.size() != n)
    throw InvalidOperationError(err_msg("row encoding got ", fields.size(), " field options for ", n, " columns"));
  return fields;
}

}  // namespace

bool row_encodable(const DataType& dtype) {
  switch (dtype.id()) {
    case TypeId::List: return row_encodable(dtype.inner());
    case TypeId::Struct:
      for (const auto& f : dtype.fields())
        if (!row_encodable(f.dtype)) return false;
      return true;
    case TypeId::Null:
    case TypeId::Boolean:
    case TypeId::String:
    case TypeId::Binary: return true;
    default: return is_fixed(dtype.id()) && dtype.byte_width() > 0;
  }
}

ArrayRef row_encode(const std::vector<ArrayRef>& columns, const std::vector<RowEncodingField>& fields) {
  if (columns.empty()) throw InvalidOperationError("row encoding needs at least one column");
  int64_t n = 1;
  for (const auto& c : columns)
    if (c->length() != 1) n = c->length();
  for (const auto& c : columns) {
    check_encodable(c->dtype());
    if (c->length() != n && c->length() != 1)
      throw ShapeError(err_msg("row encoding: columns differ in length: ", n, " vs ", c->length()));
  }
  const auto opts = fields_for(columns.size(), fields);
  ViewBuilder out(DataType::binary(), n);
  std::vector<uint8_t> row;
  for (int64_t i = 0; i < n; ++i) {
    row.clear();
    for (size_t k = 0; k < columns.size(); ++k) {
      const Array& a = *columns[k];
      const int64_t at = a.length() == 1 ? 0 : i;  // a one-row column broadcasts
      if (a.is_null(at)) {
        row.push_back(opts[k].nulls_last ? kNullLast : kNullFirst);
        continue;
      }
      row.push_back(kValid);
      const size_t start = row.size();
      encode_body(a, at, row);
      if (opts[k].descending)
        for (size_t b = start; b < row.size(); ++b) row[b] = static_cast<uint8_t>(~row[b]);
    }
    out.push(std::string_view(reinterpret_cast<const char*>(row.data()), row.size()));
  }
  return out.finish();
}

std::vector<ArrayRef> row_decode(const Array& encoded, const std::vector<DataType>& dtypes,
                                 const std::vector<RowEncodingField>& fields) {
  if (!encoded.dtype().is_view())
    throw InvalidOperationError(err_msg("row decoding expects a Binary column, got `", encoded.dtype().short_name(), "`"));
  for (const auto& t : dtypes) check_encodable(t);
  const auto opts = fields_for(dtypes.size(), fields);
  std::vector<std::unique_ptr<Decoder>> decoders;
  for (const auto& t : dtypes) decoders.push_back(make_decoder(t));
  for (int64_t i = 0; i < encoded.length(); ++i) {
    if (encoded.is_null(i)) throw ComputeError(err_msg("invalid row encoding at row ", i, ": the value is null"));
    const std::string_view v = encoded.str_value(i);
    Cursor c{reinterpret_cast<const uint8_t*>(v.data()), reinterpret_cast<const uint8_t*>(v.data()) + v.size(), i};
    for (size_t k = 0; k < dtypes.size(); ++k) {
      c.mask = 0;
      const uint8_t head = c.byte();
      const uint8_t null_byte = opts[k].nulls_last ? kNullLast : kNullFirst;
      if (head == null_byte) {
        decoders[k]->push_null();
        continue;
      }
      if (head != kValid) c.fail("a validity byte does not match the nulls_last option");
      c.mask = opts[k].descending ? 0xFF : 0x00;
      decoders[k]->push_body(c);
    }
    if (c.p != c.end) c.fail("bytes are left after the last column");
  }
  std::vector<ArrayRef> out;
  for (auto& d : decoders) out.push_back(d->finish());
  return out;
}

}  // namespace frazil::compute
