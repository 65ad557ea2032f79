#include "frazil/io/json/json_builder.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "frazil/core/builder.hpp"
#include "frazil/core/calendar.hpp"
#include "frazil/core/error.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/io/csv/csv_value_parser.hpp"

namespace frazil::io::json {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;
using int128 = __int128;

class NullBuilder final : public ColumnBuilder {
 public:
  NullBuilder() : ColumnBuilder(DataType::null()) {}
  bool push(element v) override {
    if (!v.is_null()) return fail();
    ++n_;
    return true;
  }
  void push_null() override { ++n_; }
  ArrayRef finish() override { return make_null_array(DataType::null(), n_); }

 private:
  int64_t n_ = 0;
};

class BoolBuilder final : public ColumnBuilder {
 public:
  BoolBuilder() : ColumnBuilder(DataType::boolean()) {}
  bool push(element v) override {
    if (v.is_null()) return push_null(), true;
    if (v.type() != element_type::BOOL) return fail();
    b_.push(v.get_bool().value_unsafe());
    return true;
  }
  void push_null() override { b_.push_null(); }
  ArrayRef finish() override { return b_.finish(); }

 private:
  BooleanBuilder b_;
};

// Integers (and integer-valued temporals given as numbers).
template <typename T>
class IntBuilder final : public ColumnBuilder {
 public:
  explicit IntBuilder(DataType t) : ColumnBuilder(t), b_(std::move(t)) {}
  bool push(element v) override {
    switch (v.type()) {
      case element_type::NULL_VALUE: b_.push_null(); return true;
      case element_type::INT64: return put(v.get_int64().value_unsafe());
      case element_type::UINT64: {
        const uint64_t u = v.get_uint64().value_unsafe();
        if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return fail();
        b_.push(static_cast<T>(u));
        return true;
      }
      case element_type::DOUBLE: {
        const double d = v.get_double().value_unsafe();
        if (std::trunc(d) != d || d < -9.2e18 || d > 9.2e18) return fail();
        return put(static_cast<int64_t>(d));
      }
      default: return fail();
    }
  }
  void push_null() override { b_.push_null(); }
  ArrayRef finish() override { return b_.finish(); }

 private:
  bool put(int64_t x) {
    if constexpr (std::is_unsigned_v<T>) {
      if (x < 0 || static_cast<uint64_t>(x) > static_cast<uint64_t>(std::numeric_limits<T>::max())) return fail();
    } else {
      if (x < static_cast<int64_t>(std::numeric_limits<T>::min()) || x > static_cast<int64_t>(std::numeric_limits<T>::max()))
        return fail();
    }
    b_.push(static_cast<T>(x));
    return true;
  }
  PrimitiveBuilder<T> b_;
};

// Int128 / UInt128 from JSON integers (simdjson reads them up to UInt64's range).
template <typename T>
class Int128Builder final : public ColumnBuilder {
 public:
  explicit Int128Builder(DataType t) : ColumnBuilder(t), b_(std::move(t)) {}
  bool push(element v) override {
    constexpr bool is_signed = std::is_same_v<T, __int128>;
    switch (v.type()) {
      case element_type::NULL_VALUE: b_.push_null(); return true;
      case element_type::INT64: {
        const int64_t x = v.get_int64().value_unsafe();
        if (!is_signed && x < 0) return fail();
        b_.push(static_cast<T>(x));
        return true;
      }
      case element_type::UINT64: b_.push(static_cast<T>(v.get_uint64().value_unsafe())); return true;
      default: return fail();
    }
  }
  void push_null() override { b_.push_null(); }
  ArrayRef finish() override { return b_.finish(); }

 private:
  PrimitiveBuilder<T> b_;
};

template <typename T>
class FloatBuilder final : public ColumnBuilder {
 public:
  explicit FloatBuilder(DataType t) : ColumnBuilder(t), b_(std::move(t)) {}
  bool push(element v) override {
    switch (v.type()) {
      case element_type::NULL_VALUE: b_.push_null(); return true;
      case element_type::INT64: b_.push(static_cast<T>(v.get_int64().value_unsafe())); return true;
      case element_type::UINT64: b_.push(static_cast<T>(v.get_uint64().value_unsafe())); return true;
      case element_type::DOUBLE: b_.push(static_cast<T>(v.get_double().value_unsafe())); return true;
      default: return fail();
    }
  }
  void push_null() override { b_.push_null(); }
  ArrayRef finish() override { return b_.finish(); }

 private:
  PrimitiveBuilder<T> b_;
};

class StringBuilder final : public ColumnBuilder {
 public:
  explicit StringBuilder(DataType t) : ColumnBuilder(t), b_(std::move(t)) {}
  bool push(element v) override {
    if (v.is_null()) return push_null(), true;
    if (v.type() == element_type::STRING) {
      b_.push(v.get_string().value_unsafe());
      return true;
    }
    if (dtype_.id() == TypeId::Binary) return fail();
    b_.push(json_text(v));  // a value of another type, as its JSON text (Polars does so)
    return true;
  }
  void push_null() override { b_.push_null(); }
  ArrayRef finish() override { return b_.finish(); }

 private:
  ViewBuilder b_;
};

// Categorical and Enum from strings (a value of another type fails, as in Polars), cast at
// the end: an Enum refuses a string outside its categories there.
class CategoricalBuilder final : public ColumnBuilder {
 public:
  CategoricalBuilder(DataType t, std::string column) : ColumnBuilder(t), b_(DataType::string()), column_(std::move(column)) {}
  bool push(element v) override {
    if (v.is_null()) return push_null(), true;
    if (v.type() != element_type::STRING) return fail();
    b_.push(v.get_string().value_unsafe());
    return true;
  }
  void push_null() override { b_.push_null(); }
  ArrayRef finish() override { return compute::cast(*b_.finish(), dtype_, /*strict=*/true, column_); }

 private:
  ViewBuilder b_;
  std::string column_;
};

// Date, Datetime and Time from strings (or their integer encoding).
class TemporalBuilder final : public ColumnBuilder {
 public:
  explicit TemporalBuilder(DataType t) : ColumnBuilder(t), d_(t), l_(t) {}
  bool push(element v) override {
    if (v.is_null()) return push_null(), true;
    const bool date = dtype_.id() == TypeId::Date;
    if (v.type() == element_type::INT64) {
      const int64_t x = v.get_int64().value_unsafe();
      if (date) d_.push(static_cast<int32_t>(x));
      else l_.push(x);
      return true;
    }
    if (v.type() != element_type::STRING) return fail();
    std::string_view s = v.get_string().value_unsafe();
    const char* b = s.data();
    const char* e = b + s.size();
    switch (dtype_.id()) {
      case TypeId::Date: {
        int32_t days;
        if (!csv_detail::parse_date(b, e, days)) return fail();
        d_.push(days);
        return true;
      }
      case TypeId::Time: {
        int64_t nanos;
        if (!csv_detail::parse_time(b, e, nanos)) return fail();
        l_.push(nanos);
        return true;
      }
      default: {
        int64_t out;
        bool has_offset;
        if (!csv_detail::parse_datetime(b, e, dtype_.time_unit(), out, has_offset)) return fail();
        l_.push(out);
        return true;
      }
    }
  }
  void push_null() override {
    if (dtype_.id() == TypeId::Date) d_.push_null();
    else l_.push_null();
  }
  ArrayRef finish() override { return dtype_.id() == TypeId::Date ? d_.finish() : l_.finish(); }

 private:
  PrimitiveBuilder<int32_t> d_;
  PrimitiveBuilder<int64_t> l_;
};

// Durations from integers, or ISO 8601 strings as Polars writes them ([-]P[nD][T[nH][nM][n[.f]S]]).
class DurationBuilder final : public ColumnBuilder {
 public:
  explicit DurationBuilder(DataType t) : ColumnBuilder(t), b_(std::move(t)) {}
  bool push(element v) override {
    if (v.is_null()) return push_null(), true;
    if (v.type() == element_type::INT64) {
      b_.push(v.get_int64().value_unsafe());
      return true;
    }
    if (v.type() != element_type::STRING) return fail();
    int64_t out;
    if (!parse(v.get_string().value_unsafe(), out)) return fail();
    b_.push(out);
    return true;
  }
  void push_null() override { b_.push_null(); }
  ArrayRef finish() override { return b_.finish(); }

 private:
  bool parse(std::string_view s, int64_t& out) const {
    size_t i = 0;
    const bool neg = i < s.size() && s[i] == '-';
    if (neg) ++i;
    if (i >= s.size() || s[i++] != 'P') return false;
    const int64_t ups = units_per_second(dtype_.time_unit());
    int64_t total = 0;
    bool in_time = false, any = false;
    while (i < s.size()) {
      if (s[i] == 'T') {
        in_time = true;
        ++i;
        continue;
      }
      int64_t whole = 0;
      int64_t frac = 0, frac_scale = 1;
      size_t start = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') whole = whole * 10 + (s[i++] - '0');
      if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
          if (frac_scale < ups) {
            frac = frac * 10 + (s[i] - '0');
            frac_scale *= 10;
          }
          ++i;
        }
      }
      if (i == start || i >= s.size()) return false;
      const char u = s[i++];
      int64_t secs_per = 0;
      if (!in_time && u == 'D') secs_per = 86400;
      else if (!in_time && u == 'W') secs_per = 7 * 86400;
      else if (in_time && u == 'H') secs_per = 3600;
      else if (in_time && u == 'M') secs_per = 60;
      else if (in_time && u == 'S') secs_per = 1;
      else return false;
      total += whole * secs_per * ups + (secs_per == 1 ? frac * (ups / frac_scale) : 0);
      any = true;
    }
    if (!any) return false;
    out = neg ? -total : total;
    return true;
  }
  PrimitiveBuilder<int64_t> b_;
};

// Decimals from numbers or strings, exactly (from the text, not through a double).
class DecimalBuilder final : public ColumnBuilder {
 public:
  explicit DecimalBuilder(DataType t) : ColumnBuilder(t), b_(std::move(t)) {}
  bool push(element v) override {
    if (v.is_null()) return push_null(), true;
    std::string text;
    if (v.type() == element_type::STRING) text = std::string(v.get_string().value_unsafe());
    else if (v.type() == element_type::INT64 || v.type() == element_type::UINT64 || v.type() == element_type::DOUBLE)
      text = json_text(v);
    else
      return fail();
    int128 x;
    if (!parse(text, x)) return fail();
    b_.push(x);
    return true;
  }
  void push_null() override { b_.push_null(); }
  ArrayRef finish() override { return b_.finish(); }

 private:
  bool parse(const std::string& s, int128& out) const {
    size_t i = 0;
    bool neg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    int128 v = 0;
    int frac = -1, digits = 0;
    const int scale = dtype_.scale();
    for (; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '.') {
        if (frac >= 0) return false;
        frac = 0;
        continue;
      }
      if (c < '0' || c > '9') return false;
      if (frac >= 0 && frac == scale) continue;  // digits past the scale are cut, as Polars does
      v = v * 10 + (c - '0');
      if (++digits > 38) return false;
      if (frac >= 0) ++frac;
    }
    for (int f = std::max(frac, 0); f < scale; ++f) {
      v *= 10;
      if (++digits > 38) return false;
    }
    int128 limit = 1;
    for (int k = 0; k < dtype_.precision(); ++k) limit *= 10;
    if (v >= limit) return false;
    out = neg ? -v : v;
    return true;
  }
  PrimitiveBuilder<int128> b_;
};

class ListBuilder final : public ColumnBuilder {
 public:
  explicit ListBuilder(DataType t) : ColumnBuilder(t), child_(ColumnBuilder::make(t.inner(), "")) { offsets_.push_back(0); }
  bool push(element v) override {
    if (v.is_null()) return push_null(), true;
    if (v.type() != element_type::ARRAY) return fail();
    int64_t n = 0;
    for (element e : simdjson::dom::array(v.get_array().value())) {
      // A bad element fails the value: the list becomes null over what the child took
      // (a null list's slot range is not read), so the child stays aligned.
      const bool ok = child_->push(e);
      ++n;
      if (!ok) {
        offsets_.push_back(offsets_.back() + n);
        validity_.push(false);
        return false;
      }
    }
    offsets_.push_back(offsets_.back() + n);
    validity_.push(true);
    return true;
  }
  void push_null() override {
    offsets_.push_back(offsets_.back());
    validity_.push(false);
  }
  ArrayRef finish() override {
    const int64_t n = static_cast<int64_t>(offsets_.size()) - 1;
    Buffer off = Buffer::allocate(offsets_.size() * sizeof(int64_t));
    std::memcpy(off.mutable_data(), offsets_.data(), offsets_.size() * sizeof(int64_t));
    const int64_t nc = validity_.null_count();
    return Array::make(dtype_, n, validity_.finish(), {off}, {child_->finish()}, 0, nc);
  }

 private:
  std::unique_ptr<ColumnBuilder> child_;
  std::vector<int64_t> offsets_;
  ValidityBuilder validity_;
};

class StructBuilder final : public ColumnBuilder {
 public:
  explicit StructBuilder(DataType t) : ColumnBuilder(t) {
    for (const auto& f : t.fields()) children_.push_back(ColumnBuilder::make(f.dtype, f.name));
  }
  bool push(element v) override {
    if (v.is_null()) return push_null(), true;
    if (v.type() != element_type::OBJECT) return fail();
    simdjson::dom::object obj = v.get_object().value();
    const auto& fields = dtype_.fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      element e;
      if (obj.at_key(fields[i].name).get(e) != simdjson::SUCCESS) children_[i]->push_null();
      else if (!children_[i]->push(e)) {
        // Keep the children aligned: the failed one appended a null; so do the rest.
        for (size_t j = i + 1; j < fields.size(); ++j) children_[j]->push_null();
        validity_.push(false);
        ++n_;
        return false;
      }
    }
    validity_.push(true);
    ++n_;
    return true;
  }
  void push_null() override {
    for (auto& c : children_) c->push_null();
    validity_.push(false);
    ++n_;
  }
  ArrayRef finish() override {
    std::vector<ArrayRef> kids;
    for (auto& c : children_) kids.push_back(c->finish());
    const int64_t nc = validity_.null_count();
    return Array::make(dtype_, n_, validity_.finish(), {}, std::move(kids), 0, nc);
  }

 private:
  std::vector<std::unique_ptr<ColumnBuilder>> children_;
  ValidityBuilder validity_;
  int64_t n_ = 0;
};

}  // namespace

std::string json_text(element v) { return simdjson::minify(v); }

std::unique_ptr<ColumnBuilder> ColumnBuilder::make(const DataType& t, const std::string& column) {
  switch (t.id()) {
    case TypeId::Null: return std::make_unique<NullBuilder>();
    case TypeId::Boolean: return std::make_unique<BoolBuilder>();
    case TypeId::Int8: return std::make_unique<IntBuilder<int8_t>>(t);
    case TypeId::Int16: return std::make_unique<IntBuilder<int16_t>>(t);
    case TypeId::Int32: return std::make_unique<IntBuilder<int32_t>>(t);
    case TypeId::Int64: return std::make_unique<IntBuilder<int64_t>>(t);
    case TypeId::UInt8: return std::make_unique<IntBuilder<uint8_t>>(t);
    case TypeId::UInt16: return std::make_unique<IntBuilder<uint16_t>>(t);
    case TypeId::UInt32: return std::make_unique<IntBuilder<uint32_t>>(t);
    case TypeId::UInt64: return std::make_unique<IntBuilder<uint64_t>>(t);
    case TypeId::Int128: return std::make_unique<Int128Builder<__int128>>(t);
    case TypeId::UInt128: return std::make_unique<Int128Builder<unsigned __int128>>(t);
    case TypeId::Duration: return std::make_unique<DurationBuilder>(t);
    case TypeId::Float32: return std::make_unique<FloatBuilder<float>>(t);
    case TypeId::Float64: return std::make_unique<FloatBuilder<double>>(t);
    case TypeId::String:
    case TypeId::Binary: return std::make_unique<StringBuilder>(t);
    case TypeId::Date:
    case TypeId::Datetime:
    case TypeId::Time: return std::make_unique<TemporalBuilder>(t);
    case TypeId::Decimal: return std::make_unique<DecimalBuilder>(t);
    case TypeId::Categorical:
    case TypeId::Enum: return std::make_unique<CategoricalBuilder>(t, column);
    case TypeId::List: return std::make_unique<ListBuilder>(t);
    case TypeId::Struct: return std::make_unique<StructBuilder>(t);
    default: break;
  }
  throw InvalidOperationError(err_msg("cannot read JSON as ", t));
}

}  // namespace frazil::io::json
