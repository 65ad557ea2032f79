#include "frazil/io/csv/csv_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <sstream>

#include "frazil/core/calendar.hpp"
#include "frazil/core/categorical_array.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/compute/temporal/strftime.hpp"

namespace frazil::io {

namespace {

// ------------------------------------------------------------------------- floats

// Shortest round-trip digits and decimal exponent: value = d.ddd x 10^exp.
struct Digits {
  char buf[40];
  int n = 0;
  int exp = 0;
  bool neg = false;
};

template <typename T>
Digits shortest_digits(T v) {
  char tmp[64];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::scientific);
  Digits d;
  const char* p = tmp;
  if (*p == '-') {
    d.neg = true;
    ++p;
  }
  for (; p < r.ptr && *p != 'e'; ++p)
    if (*p != '.') d.buf[d.n++] = *p;
  if (p < r.ptr) {
    ++p;
    std::from_chars(*p == '+' ? p + 1 : p, r.ptr, d.exp);
  }
  while (d.n > 1 && d.buf[d.n - 1] == '0') --d.n;
  return d;
}

void append_fixed(std::string& out, const Digits& d, bool point_zero) {
  if (d.neg) out += '-';
  if (d.exp >= 0) {
    const int int_digits = d.exp + 1;
    for (int i = 0; i < int_digits; ++i) out += i < d.n ? d.buf[i] : '0';
    if (d.n > int_digits) {
      out += '.';
      out.append(d.buf + int_digits, static_cast<size_t>(d.n - int_digits));
    } else if (point_zero) {
      out += ".0";
    }
  } else {
    out += "0.";
    out.append(static_cast<size_t>(-d.exp - 1), '0');
    out.append(d.buf, static_cast<size_t>(d.n));
  }
}

void append_scientific(std::string& out, const Digits& d, bool plus) {
  if (d.neg) out += '-';
  out += d.buf[0];
  if (d.n > 1) {
    out += '.';
    out.append(d.buf + 1, static_cast<size_t>(d.n - 1));
  }
  out += 'e';
  if (d.exp >= 0 && plus) out += '+';
  out += std::to_string(d.exp);
}

template <typename T>
void append_float(std::string& out, T v, const CsvWriteOptions& o) {
  const size_t start = out.size();
  if (std::isnan(v)) {
    out += "NaN";
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "-inf" : "inf";
    return;
  }
  if (o.float_precision) {
    const int prec = std::clamp(*o.float_precision, 0, 60);
    char buf[512];
    const bool sci = o.float_scientific.value_or(false);
    auto r = std::to_chars(buf, buf + sizeof buf, v, sci ? std::chars_format::scientific : std::chars_format::fixed, prec);
    if (sci) {
      // "1.50e-10", "1.00e16": no '+' and no exponent padding.
      const char* e = std::find(buf, r.ptr, 'e');
      out.append(buf, static_cast<size_t>(e - buf));
      if (e < r.ptr) {
        int x = 0;
        const char* q = e + 1;
        std::from_chars(*q == '+' ? q + 1 : q, r.ptr, x);
        out += 'e';
        out += std::to_string(x);
      }
    } else {
      out.append(buf, r.ptr);
    }
  } else {
    Digits d = shortest_digits(v);
    if (o.float_scientific.has_value()) {
      if (*o.float_scientific) append_scientific(out, d, false);
      else append_fixed(out, d, false);
    } else {
      // Polars switches to scientific notation for very large and very small magnitudes.
      const bool f32 = std::is_same_v<T, float>;
      const int hi = f32 ? 13 : 16, lo = f32 ? -7 : -5;
      if (d.n == 1 && d.buf[0] == '0') append_fixed(out, d, true);
      else if (d.exp >= hi || d.exp < lo) append_scientific(out, d, true);
      else append_fixed(out, d, true);
    }
  }
  if (o.decimal_comma)
    for (size_t i = start; i < out.size(); ++i)
      if (out[i] == '.') out[i] = ',';
}

// ------------------------------------------------------------------------- temporals

void append_int(std::string& out, int64_t v, int width) {
  char buf[24];
  bool neg = v < 0;
  uint64_t u = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  if (neg) out += '-';
  for (int i = n; i < width; ++i) out += '0';
  while (n) out += buf[--n];
}

struct TimeParts {
  int64_t year = 1970;
  unsigned month = 1, day = 1;
  int64_t days = 0;  // since the epoch
  int64_t hour = 0, minute = 0, second = 0, nanos = 0;
};

TimeParts parts_from_days(int64_t days) {
  TimeParts t;
  CivilDate c = civil_from_days(days);
  t.year = c.year;
  t.month = c.month;
  t.day = c.day;
  t.days = days;
  return t;
}

TimeParts parts_from_datetime(int64_t v, TimeUnit unit) {
  const int64_t ups = units_per_second(unit);
  int64_t secs = floor_div(v, ups);
  int64_t frac = v - secs * ups;
  int64_t days = floor_div(secs, 86400);
  int64_t sod = secs - days * 86400;
  TimeParts t = parts_from_days(days);
  t.hour = sod / 3600;
  t.minute = sod / 60 % 60;
  t.second = sod % 60;
  t.nanos = frac * (1'000'000'000 / ups);
  return t;
}

TimeParts parts_from_time(int64_t nanos) {
  TimeParts t;
  int64_t secs = nanos / 1'000'000'000;
  t.hour = secs / 3600;
  t.minute = secs / 60 % 60;
  t.second = secs % 60;
  t.nanos = nanos % 1'000'000'000;
  return t;
}

constexpr const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};
constexpr const char* kWeekdays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

void append_fraction(std::string& out, int64_t nanos, int digits) {
  int64_t v = nanos;
  for (int i = digits; i < 9; ++i) v /= 10;
  append_int(out, v, digits);
}

// A strftime subset (chrono's spellings, as Polars accepts them).
// Naive values only (a zoned Datetime goes through compute::strftime, which knows zones).
void append_strftime(std::string& out, const std::string& fmt, const TimeParts& t) {
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if (c != '%' || i + 1 >= fmt.size()) {
      out += c;
      continue;
    }
    char s = fmt[++i];
    switch (s) {
      case 'Y': append_int(out, t.year, 4); break;
      case 'y': append_int(out, ((t.year % 100) + 100) % 100, 2); break;
      case 'C': append_int(out, floor_div(t.year, 100), 2); break;
      case 'm': append_int(out, t.month, 2); break;
      case 'd': append_int(out, t.day, 2); break;
      case 'e': {
        if (t.day < 10) out += ' ';
        append_int(out, t.day, 1);
        break;
      }
      case 'j': append_int(out, t.days - days_from_civil(t.year, 1, 1) + 1, 3); break;
      case 'H': append_int(out, t.hour, 2); break;
      case 'I': append_int(out, (t.hour + 11) % 12 + 1, 2); break;
      case 'M': append_int(out, t.minute, 2); break;
      case 'S': append_int(out, t.second, 2); break;
      case 'p': out += t.hour < 12 ? "AM" : "PM"; break;
      case 'f': append_fraction(out, t.nanos, 9); break;
      case 'b':
      case 'h': out.append(kMonths[t.month - 1], 3); break;
      case 'B': out += kMonths[t.month - 1]; break;
      case 'a': out.append(kWeekdays[((t.days % 7) + 11) % 7], 3); break;
      case 'A': out += kWeekdays[((t.days % 7) + 11) % 7]; break;
      case 'F':
        append_strftime(out, "%Y-%m-%d", t);
        break;
      case 'T': append_strftime(out, "%H:%M:%S", t); break;
      case 'R': append_strftime(out, "%H:%M", t); break;
      case 'D': append_strftime(out, "%m/%d/%y", t); break;
      case 's': append_int(out, t.days * 86400 + t.hour * 3600 + t.minute * 60 + t.second, 1); break;
      case 'z': out += "+0000"; break;
      case 'Z': break;  // no zone
      case '%': out += '%'; break;
      case ':':
        if (i + 1 < fmt.size() && fmt[i + 1] == 'z') {
          ++i;
          out += "+00:00";
          break;
        }
        throw ComputeError(err_msg("unsupported directive %: in format '", fmt, "'"));
      case '.':
      case '3':
      case '6':
      case '9': {
        // %.f, %.3f, %.6f, %.9f, %3f, %6f, %9f
        bool dot = s == '.';
        char digits = dot ? (i + 1 < fmt.size() ? fmt[i + 1] : 0) : s;
        if (dot && digits == 'f') {
          ++i;
          // %.f: as many digits (3, 6 or 9) as needed, nothing for whole seconds.
          if (t.nanos == 0) break;
          int n = t.nanos % 1'000'000 == 0 ? 3 : t.nanos % 1'000 == 0 ? 6 : 9;
          out += '.';
          append_fraction(out, t.nanos, n);
          break;
        }
        if (dot) ++i;
        if ((digits == '3' || digits == '6' || digits == '9') && i + 1 < fmt.size() && fmt[i + 1] == 'f') {
          ++i;
          if (dot) out += '.';
          append_fraction(out, t.nanos, digits - '0');
          break;
        }
        throw ComputeError(err_msg("unsupported directive in format '", fmt, "'"));
      }
      default: throw ComputeError(err_msg("unsupported directive %", s, " in format '", fmt, "'"));
    }
  }
}

// ------------------------------------------------------------------------- columns

std::string decimal_to_string(__int128 v, int scale) {
  bool neg = v < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v)
                            : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits += static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  } while (u);
  while (static_cast<int>(digits.size()) <= scale) digits += '0';
  std::string out = neg ? "-" : "";
  for (size_t i = digits.size(); i-- > 0;) {
    out += digits[i];
    if (scale > 0 && static_cast<int>(i) == scale) out += '.';
  }
  return out;
}

struct ColumnWriter {
  ArrayRef array;
  DataType dtype;
  bool numeric = false;
  std::string format;  // temporal format
  bool default_datetime = false;  // fast path
  bool default_date = false;

  void append(std::string& out, int64_t i, const CsvWriteOptions& o) const {
    const Array& a = *array;
    switch (dtype.id()) {
      case TypeId::Boolean: out += a.bool_value(i) ? "true" : "false"; break;
      case TypeId::Int8: append_int(out, a.values<int8_t>()[i], 1); break;
      case TypeId::Int16: append_int(out, a.values<int16_t>()[i], 1); break;
      case TypeId::Int32: append_int(out, a.values<int32_t>()[i], 1); break;
      case TypeId::Int64: append_int(out, a.values<int64_t>()[i], 1); break;
      case TypeId::UInt8: append_int(out, a.values<uint8_t>()[i], 1); break;
      case TypeId::UInt16: append_int(out, a.values<uint16_t>()[i], 1); break;
      case TypeId::UInt32: append_int(out, a.values<uint32_t>()[i], 1); break;
      case TypeId::UInt64: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, a.values<uint64_t>()[i]);
        out.append(buf, r.ptr);
        break;
      }
      case TypeId::Float32: append_float(out, a.values<float>()[i], o); break;
      case TypeId::Float64: append_float(out, a.values<double>()[i], o); break;
      case TypeId::String:
      case TypeId::Binary: out += a.str_value(i); break;
      case TypeId::Date: {
        TimeParts t = parts_from_days(a.values<int32_t>()[i]);
        if (default_date) {
          append_int(out, t.year, 4);
          out += '-';
          append_int(out, t.month, 2);
          out += '-';
          append_int(out, t.day, 2);
        } else {
          append_strftime(out, format, t);
        }
        break;
      }
      case TypeId::Datetime: {
        TimeParts t = parts_from_datetime(a.values<int64_t>()[i], dtype.time_unit());
        if (default_datetime) {
          append_int(out, t.year, 4);
          out += '-';
          append_int(out, t.month, 2);
          out += '-';
          append_int(out, t.day, 2);
          out += 'T';
          append_int(out, t.hour, 2);
          out += ':';
          append_int(out, t.minute, 2);
          out += ':';
          append_int(out, t.second, 2);
          out += '.';
          const int digits = dtype.time_unit() == TimeUnit::Nanoseconds ? 9
                             : dtype.time_unit() == TimeUnit::Microseconds ? 6 : 3;
          append_fraction(out, t.nanos, digits);
        } else {
          append_strftime(out, format, t);
        }
        break;
      }
      case TypeId::Time: append_strftime(out, format, parts_from_time(a.values<int64_t>()[i])); break;
      case TypeId::Decimal: out += decimal_to_string(a.values<__int128>()[i], dtype.scale()); break;
      // (Rare dtypes: through the scalar's text, as the frame's display writes them.)
      case TypeId::Int128:
      case TypeId::UInt128:
      case TypeId::Float16: out += array_get(a, i).to_string(); break;
      default: FRAZIL_CHECK(false);
    }
  }
};

ColumnWriter make_column_writer(const Column& col, const CsvWriteOptions& o) {
  ColumnWriter w;
  w.dtype = col.dtype();
  switch (w.dtype.id()) {
    case TypeId::Duration:
    case TypeId::Array:
    case TypeId::List:
    case TypeId::Struct:
      throw ComputeError(err_msg("column '", col.name(), "' of dtype ", w.dtype,
                                 " cannot be written to CSV; consider a binary format (Parquet, IPC)"));
    default: break;
  }
  w.array = col.as_array();
  if (w.dtype.is_categorical()) {
    // Categorical / Enum: written as their strings, as Polars writes them.
    w.array = decode_categorical(*w.array);
    w.dtype = w.array->dtype();
  }
  w.numeric = w.dtype.is_numeric();
  if (w.dtype.id() == TypeId::Date) {
    w.default_date = !o.date_format;
    w.format = o.date_format.value_or("%Y-%m-%d");
  } else if (w.dtype.id() == TypeId::Datetime && w.dtype.time_zone()) {
    // Zoned: local clock time and its offset (what Polars writes), through the strftime
    // kernel, which knows the zone's rules; the column is then written as strings.
    const TimeUnit u = w.dtype.time_unit();
    const char* fraction = u == TimeUnit::Nanoseconds ? "%.9f" : u == TimeUnit::Microseconds ? "%.6f" : "%.3f";
    w.array = compute::strftime(*w.array, o.datetime_format.value_or(std::string("%Y-%m-%dT%H:%M:%S") + fraction + "%z"));
    w.dtype = w.array->dtype();
  } else if (w.dtype.id() == TypeId::Datetime) {
    w.default_datetime = !o.datetime_format;
    w.format = o.datetime_format.value_or("");
  } else if (w.dtype.id() == TypeId::Time) {
    w.format = o.time_format.value_or("%H:%M:%S%.9f");
  }
  return w;
}

bool needs_quotes(const char* b, size_t n, const CsvWriteOptions& o) {
  if (n == 0) return true;  // "" tells an empty string from a null
  for (size_t i = 0; i < n; ++i) {
    char c = b[i];
    if (c == o.separator || c == o.quote_char || c == '\n' || c == '\r') return true;
  }
  return false;
}

// Wraps out[start..] in quotes, doubling quote chars inside.
void quote_tail(std::string& out, size_t start, char q) {
  std::string v = out.substr(start);
  out.resize(start);
  out += q;
  for (char c : v) {
    if (c == q) out += q;
    out += c;
  }
  out += q;
}

void append_field(std::string& out, size_t start, bool numeric, const CsvWriteOptions& o) {
  switch (o.quote_style) {
    case QuoteStyle::Never: return;
    case QuoteStyle::Always: quote_tail(out, start, o.quote_char); return;
    case QuoteStyle::NonNumeric:
      if (!numeric || needs_quotes(out.data() + start, out.size() - start, o)) quote_tail(out, start, o.quote_char);
      return;
    case QuoteStyle::Necessary:
      if (needs_quotes(out.data() + start, out.size() - start, o)) quote_tail(out, start, o.quote_char);
      return;
  }
}

void format_rows(const std::vector<ColumnWriter>& cols, int64_t begin, int64_t end,
                 const CsvWriteOptions& o, std::string& out) {
  for (int64_t r = begin; r < end; ++r) {
    for (size_t c = 0; c < cols.size(); ++c) {
      if (c) out += o.separator;
      const ColumnWriter& w = cols[c];
      if (w.dtype.is_null() || w.array->is_null(r)) {
        const size_t start = out.size();
        out += o.null_value;
        if (o.quote_style == QuoteStyle::Always) quote_tail(out, start, o.quote_char);
        continue;
      }
      const size_t start = out.size();
      w.append(out, r, o);
      append_field(out, start, w.numeric, o);
    }
    out += o.line_terminator;
  }
}

}  // namespace

std::string format_csv_float(double value, bool is_float32, const CsvWriteOptions& options) {
  std::string out;
  if (is_float32) append_float(out, static_cast<float>(value), options);
  else append_float(out, value, options);
  return out;
}

// ------------------------------------------------------------------------- CsvWriter

namespace {

class OstreamOutput final : public OutputStream {
 public:
  explicit OstreamOutput(std::ostream& os) : os_(os) {}
  void write(const void* data, size_t size) override {
    os_.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!os_) throw IOError("failed to write CSV");
    written_ += static_cast<int64_t>(size);
  }
  int64_t bytes_written() const override { return written_; }

 private:
  std::ostream& os_;
  int64_t written_ = 0;
};

}  // namespace

CsvWriter::CsvWriter(std::ostream& out, Schema schema, CsvWriteOptions options)
    : adapter_(std::make_unique<OstreamOutput>(out)),
      out_(adapter_.get()),
      schema_(std::move(schema)),
      options_(std::move(options)) {}

CsvWriter::CsvWriter(OutputStream& out, Schema schema, CsvWriteOptions options)
    : out_(&out), schema_(std::move(schema)), options_(std::move(options)) {}

CsvWriter::CsvWriter(const std::string& path, Schema schema, CsvWriteOptions options)
    : file_(std::make_unique<OutputFile>(path)),
      out_(file_.get()),
      schema_(std::move(schema)),
      options_(std::move(options)) {}

CsvWriter::~CsvWriter() = default;

void CsvWriter::write(const std::string& text) { out_->write(text); }

void CsvWriter::abort() noexcept {
  if (file_) file_->abort();
}

void CsvWriter::write_header() {
  started_ = true;
  std::string out;
  if (options_.include_bom) out += "\xEF\xBB\xBF";
  if (options_.include_header) {
    for (size_t c = 0; c < schema_.size(); ++c) {
      if (c) out += options_.separator;
      const size_t start = out.size();
      out += schema_.field(c).name;
      if (options_.quote_style == QuoteStyle::Always || options_.quote_style == QuoteStyle::NonNumeric)
        quote_tail(out, start, options_.quote_char);
      else append_field(out, start, false, options_);
    }
    out += options_.line_terminator;
  }
  write(out);
}

void CsvWriter::write_batch(const DataFrame& batch) {
  if (batch.schema() != schema_)
    throw SchemaError(err_msg("cannot write a batch with schema ", batch.schema().to_string(),
                              " to a CSV of schema ", schema_.to_string()));
  if (!started_) write_header();
  if (batch.height() == 0 || batch.width() == 0) return;
  std::vector<ColumnWriter> cols;
  for (const auto& c : batch.columns()) cols.push_back(make_column_writer(c, options_));
  const int64_t block = std::max<int64_t>(1, options_.batch_rows);
  const int64_t n = batch.height();
  const size_t blocks = static_cast<size_t>((n + block - 1) / block);
  // Format a wave of blocks in parallel, then write them in order.
  const size_t wave = std::max<size_t>(1, 2 * thread_pool_size());
  std::vector<std::string> texts(std::min(wave, blocks));
  for (size_t first = 0; first < blocks; first += wave) {
    const size_t count = std::min(wave, blocks - first);
    parallel_for(count, [&](size_t i) {
      const int64_t b = static_cast<int64_t>(first + i) * block;
      texts[i].clear();
      format_rows(cols, b, std::min(n, b + block), options_, texts[i]);
    });
    for (size_t i = 0; i < count; ++i) write(texts[i]);
  }
}

void CsvWriter::finish() {
  if (!started_) write_header();
  if (file_) file_->commit();
}

void write_csv(const DataFrame& df, std::ostream& out, const CsvWriteOptions& options) {
  CsvWriter w(out, df.schema(), options);
  w.write_batch(df);
  w.finish();
}

void write_csv(const DataFrame& df, const std::string& path, const CsvWriteOptions& options) {
  CsvWriter w(path, df.schema(), options);
  w.write_batch(df);
  w.finish();
}

std::string write_csv_string(const DataFrame& df, const CsvWriteOptions& options) {
  MemoryOutput out;
  CsvWriter w(out, df.schema(), options);
  w.write_batch(df);
  w.finish();
  return out.take();
}

}  // namespace frazil::io
