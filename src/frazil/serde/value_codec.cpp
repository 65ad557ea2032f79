#include "frazil/serde/value_codec.hpp"

#include <cstring>

#include "frazil/core/buffer.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/column.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/fs/input_file.hpp"
#include "frazil/io/ipc/ipc_reader.hpp"
#include "frazil/io/ipc/ipc_writer.hpp"

namespace frazil::serde {

namespace {

// The last TypeId this version of the format knows (ids are written as their number).
constexpr uint8_t kTypeIdCount = static_cast<uint8_t>(TypeId::Array) + 1;

void write_dtype_at(ByteWriter& w, const DataType& t, int depth) {
  if (depth > kMaxValueNesting) throw ComputeError(err_msg("cannot serialize a dtype nested deeper than ", kMaxValueNesting));
  const auto id = static_cast<uint8_t>(t.id());
  if (id >= kTypeIdCount) throw ComputeError(err_msg("cannot serialize dtype ", t.to_string(), ": not in the plan format yet"));
  w.u8(id);
  switch (t.id()) {
    case TypeId::Datetime:
      w.u8(static_cast<uint8_t>(t.time_unit()));
      w.boolean(t.time_zone().has_value());
      if (t.time_zone()) w.str(*t.time_zone());
      break;
    case TypeId::Duration: w.u8(static_cast<uint8_t>(t.time_unit())); break;
    case TypeId::Decimal:
      w.i64(t.precision());
      w.i64(t.scale());
      break;
    case TypeId::List: write_dtype_at(w, t.inner(), depth + 1); break;
    case TypeId::Array:
      w.i64(t.width());
      write_dtype_at(w, t.inner(), depth + 1);
      break;
    case TypeId::Struct:
      w.varint(t.fields().size());
      for (const Field& f : t.fields()) {
        w.str(f.name);
        write_dtype_at(w, f.dtype, depth + 1);
      }
      break;
    case TypeId::Enum: w.strs(t.categories().strings()); break;
    default: break;  // Categorical is over the global categories: its values travel as strings
  }
}

DataType read_dtype_at(ByteReader& r, int depth) {
  if (depth > kMaxValueNesting) r.fail(err_msg("a dtype nested deeper than ", kMaxValueNesting));
  const auto id = static_cast<TypeId>(r.enum_u8(kTypeIdCount, "dtype id"));
  switch (id) {
    case TypeId::Datetime: {
      const auto unit = static_cast<TimeUnit>(r.enum_u8(3, "time unit"));
      std::optional<std::string> tz;
      if (r.boolean()) tz = r.str();
      return DataType::datetime(unit, std::move(tz));
    }
    case TypeId::Duration: return DataType::duration(static_cast<TimeUnit>(r.enum_u8(3, "time unit")));
    case TypeId::Decimal: {
      const int64_t p = r.i64();
      const int64_t s = r.i64();
      if (p < 0 || p > 38 || s < 0 || s > 38) r.fail(err_msg("invalid Decimal(", p, ", ", s, ")"));
      return DataType::decimal(static_cast<int>(p), static_cast<int>(s));
    }
    case TypeId::List: return DataType::list(read_dtype_at(r, depth + 1));
    case TypeId::Array: {
      const size_t at = r.offset();
      const int64_t width = r.i64();
      if (width < 0) r.fail(err_msg("invalid Array width ", width, " at byte ", at));
      return DataType::array(read_dtype_at(r, depth + 1), width);
    }
    case TypeId::Struct: {
      const size_t n = r.count(2);
      std::vector<Field> fields;
      fields.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        std::string name = r.str();
        fields.push_back(Field{std::move(name), read_dtype_at(r, depth + 1)});
      }
      return DataType::struct_(std::move(fields));
    }
    case TypeId::Categorical: return DataType::categorical();
    case TypeId::Enum: {
      const size_t at = r.offset();
      std::vector<std::string> cats = r.strs();
      try {
        return DataType::enum_(Categories::fixed(std::move(cats)));
      } catch (const Error& e) {
        throw ComputeError(err_msg("cannot deserialize the plan: invalid Enum categories at byte ", at, ": ", e.what()));
      }
    }
    default: return DataType(id);
  }
}

// The payload kinds of Scalar::Value, in its order.
enum class ValueKind : uint8_t { Null, Bool, Int, UInt, Float, String, Int128, List, Struct, Count };

void write_scalar_at(ByteWriter& w, const Scalar& s, int depth) {
  if (depth > kMaxValueNesting) throw ComputeError(err_msg("cannot serialize a value nested deeper than ", kMaxValueNesting));
  write_dtype(w, s.dtype());
  const Scalar::Value& v = s.value();
  w.u8(static_cast<uint8_t>(v.index()));
  switch (static_cast<ValueKind>(v.index())) {
    case ValueKind::Null: break;
    case ValueKind::Bool: w.boolean(std::get<bool>(v)); break;
    case ValueKind::Int: w.i64(std::get<int64_t>(v)); break;
    case ValueKind::UInt: w.varint(std::get<uint64_t>(v)); break;
    case ValueKind::Float: w.f64(std::get<double>(v)); break;
    case ValueKind::String: w.str(std::get<std::string>(v)); break;
    case ValueKind::Int128: w.u128(static_cast<unsigned __int128>(std::get<int128_t>(v))); break;
    case ValueKind::List: write_array(w, std::get<ArrayRef>(v)); break;
    case ValueKind::Struct: {
      const auto& fields = *std::get<Scalar::StructValues>(v);
      w.varint(fields.size());
      for (const Scalar& f : fields) write_scalar_at(w, f, depth + 1);
      break;
    }
    case ValueKind::Count: break;
  }
}

Scalar read_scalar_at(ByteReader& r, int depth) {
  if (depth > kMaxValueNesting) r.fail(err_msg("a value nested deeper than ", kMaxValueNesting));
  DataType dtype = read_dtype(r);
  switch (static_cast<ValueKind>(r.enum_u8(static_cast<uint8_t>(ValueKind::Count), "value kind"))) {
    case ValueKind::Null: return Scalar::null(std::move(dtype));
    case ValueKind::Bool: return Scalar(std::move(dtype), r.boolean());
    case ValueKind::Int: return Scalar(std::move(dtype), r.i64());
    case ValueKind::UInt: return Scalar(std::move(dtype), r.varint());
    case ValueKind::Float: return Scalar(std::move(dtype), r.f64());
    case ValueKind::String: return Scalar(std::move(dtype), r.str());
    case ValueKind::Int128: return Scalar(std::move(dtype), static_cast<int128_t>(r.u128()));
    case ValueKind::List: return Scalar(std::move(dtype), read_array(r));
    case ValueKind::Struct: {
      const size_t n = r.count(2);
      auto fields = std::make_shared<std::vector<Scalar>>();
      fields->reserve(n);
      for (size_t i = 0; i < n; ++i) fields->push_back(read_scalar_at(r, depth + 1));
      return Scalar(std::move(dtype), Scalar::StructValues(std::move(fields)));
    }
    case ValueKind::Count: break;
  }
  r.fail("invalid value kind");
}

DataFrame frame_from_ipc(ByteReader& r) {
  const size_t at = r.offset();
  const std::string_view bytes = r.raw(r.count(1));
  Buffer buffer = Buffer::allocate(bytes.size());
  if (!bytes.empty()) std::memcpy(buffer.mutable_data(), bytes.data(), bytes.size());
  try {
    return io::ipc::read_ipc(io::InputFile::from_buffer(std::move(buffer), "serialized frame"));
  } catch (const Error& e) {
    throw ComputeError(err_msg("cannot deserialize the plan: invalid Arrow IPC frame at byte ", at, ": ", e.what()));
  }
}

}  // namespace

void write_dtype(ByteWriter& w, const DataType& dtype) { write_dtype_at(w, dtype, 0); }
DataType read_dtype(ByteReader& r) { return read_dtype_at(r, 0); }

void write_fields(ByteWriter& w, const std::vector<Field>& fields) {
  w.varint(fields.size());
  for (const Field& f : fields) {
    w.str(f.name);
    write_dtype(w, f.dtype);
  }
}

std::vector<Field> read_fields(ByteReader& r) {
  const size_t n = r.count(2);
  std::vector<Field> fields;
  fields.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    std::string name = r.str();
    fields.push_back(Field{std::move(name), read_dtype(r)});
  }
  return fields;
}

void write_schema(ByteWriter& w, const Schema& schema) { write_fields(w, schema.fields()); }

Schema read_schema(ByteReader& r) {
  const size_t at = r.offset();
  std::vector<Field> fields = read_fields(r);
  try {
    return Schema(std::move(fields));
  } catch (const Error& e) {
    throw ComputeError(err_msg("cannot deserialize the plan: invalid schema at byte ", at, ": ", e.what()));
  }
}

void write_scalar(ByteWriter& w, const Scalar& value) { write_scalar_at(w, value, 0); }
Scalar read_scalar(ByteReader& r) { return read_scalar_at(r, 0); }

// Arrow IPC does not carry every dtype as frazil has it (Categorical and Enum are written as
// strings): the dtype travels beside the IPC bytes and the values are cast back to it.
static ArrayRef as_dtype(ByteReader& r, ArrayRef a, const DataType& dtype, size_t at) {
  if (a->dtype() == dtype) return a;
  try {
    return compute::cast(*a, dtype, true);
  } catch (const Error& e) {
    throw ComputeError(err_msg("cannot deserialize the plan: the values at byte ", at, " are ", a->dtype().to_string(),
                               ", not ", dtype.to_string(), ": ", e.what()));
  }
  (void)r;
}

void write_array(ByteWriter& w, const ArrayRef& array) {
  write_dtype(w, array->dtype());
  w.str(io::ipc::write_ipc_to_string(DataFrame({Column("", array)})));
}

ArrayRef read_array(ByteReader& r) {
  const DataType dtype = read_dtype(r);
  const size_t at = r.offset();
  DataFrame df = frame_from_ipc(r);
  if (df.width() != 1) {
    throw ComputeError(err_msg("cannot deserialize the plan: a serialized series at byte ", at, " has ",
                               df.width(), " columns"));
  }
  return as_dtype(r, df.column(0).as_array(), dtype, at);
}

void write_frame(ByteWriter& w, const DataFrame& df) {
  w.i64(df.height());
  w.varint(df.width());
  if (df.width() == 0) return;
  write_schema(w, df.schema());
  w.str(io::ipc::write_ipc_to_string(df));
}

DataFrame read_frame(ByteReader& r) {
  const int64_t height = r.i64();
  const size_t columns = r.count(0);
  if (height < 0) r.fail(err_msg("a negative frame height ", height));
  if (columns == 0) return DataFrame::empty_with_height(height);
  const Schema schema = read_schema(r);
  const size_t at = r.offset();
  DataFrame df = frame_from_ipc(r);
  if (df.width() != columns || df.height() != height || schema.size() != columns) {
    throw ComputeError(err_msg("cannot deserialize the plan: the frame at byte ", at, " is ", df.height(), " x ",
                               df.width(), ", its header says ", height, " x ", columns));
  }
  std::vector<Column> out;
  out.reserve(columns);
  for (size_t i = 0; i < columns; ++i) {
    const Column& c = df.column(i);
    const Field& f = schema.field(i);
    if (c.name() != f.name) r.fail(err_msg("a frame whose column ", i, " is '", c.name(), "', not '", f.name, "'"));
    if (c.dtype() == f.dtype) out.push_back(c);
    else out.emplace_back(f.name, as_dtype(r, c.as_array(), f.dtype, at));
  }
  return DataFrame(std::move(out));
}

void write_arg(ByteWriter& w, const functions::ArgValue& value) {
  w.u8(static_cast<uint8_t>(value.index()));
  std::visit(
      [&w](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) w.boolean(v);
        else if constexpr (std::is_same_v<T, int64_t>) w.i64(v);
        else if constexpr (std::is_same_v<T, double>) w.f64(v);
        else if constexpr (std::is_same_v<T, std::string>) w.str(v);
        else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          w.varint(v.size());
          for (int64_t x : v) w.i64(x);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          w.varint(v.size());
          for (double x : v) w.f64(x);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) w.strs(v);
        else if constexpr (std::is_same_v<T, DataType>) write_dtype(w, v);
      },
      value);
}

functions::ArgValue read_arg(ByteReader& r) {
  constexpr auto kinds = static_cast<uint8_t>(std::variant_size_v<functions::ArgValue>);
  switch (r.enum_u8(kinds, "parameter kind")) {
    case 0: return std::monostate{};
    case 1: return r.boolean();
    case 2: return r.i64();
    case 3: return r.f64();
    case 4: return r.str();
    case 5: {
      std::vector<int64_t> v(r.count(1));
      for (auto& x : v) x = r.i64();
      return v;
    }
    case 6: {
      std::vector<double> v(r.count(8));
      for (auto& x : v) x = r.f64();
      return v;
    }
    case 7: return r.strs();
    default: return read_dtype(r);
  }
}

}  // namespace frazil::serde
