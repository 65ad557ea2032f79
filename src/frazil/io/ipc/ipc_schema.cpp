#include "frazil/io/ipc/ipc_schema.hpp"

#include <memory>

#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/arrow/export.hpp"
#include "frazil/io/arrow/import.hpp"

namespace frazil::io::ipc {

namespace {

constexpr int kMaxDepth = 64;  // nesting a file may declare (the walks recurse)

[[noreturn]] void malformed(const std::string& source, const std::string& what) {
  throw ComputeError(err_msg("IPC ", source, ": malformed schema: ", what));
}

const char* unit_letter(fb::TimeUnit u) {
  switch (u) {
    case fb::TimeUnit_SECOND: return "s";
    case fb::TimeUnit_MILLISECOND: return "m";
    case fb::TimeUnit_MICROSECOND: return "u";
    case fb::TimeUnit_NANOSECOND: return "n";
  }
  return "?";
}

std::string int_format(const fb::Int* t, const std::string& source) {
  if (!t) malformed(source, "integer type without its table");
  const bool s = t->is_signed();
  switch (t->bit_width()) {
    case 8: return s ? "c" : "C";
    case 16: return s ? "s" : "S";
    case 32: return s ? "i" : "I";
    case 64: return s ? "l" : "L";
    case 128: return s ? "_pli128" : "_plu128";  // Polars' 128-bit integers (frazil's C formats for them)
    default: malformed(source, err_msg("integer of ", t->bit_width(), " bits"));
  }
}

// The format and buffer count of a field's values type.
void set_type(const fb::Field* f, IpcField& out, bool v4, const std::string& source) {
  using namespace fb;
  switch (f->type_type()) {
    case Type_Null: out.format = "n"; out.buffers = 0; return;
    case Type_Int: out.format = int_format(f->type_as_Int(), source); out.buffers = 2; return;
    case Type_FloatingPoint: {
      const auto* t = f->type_as_FloatingPoint();
      const Precision p = t ? t->precision() : Precision_HALF;
      out.format = p == Precision_HALF ? "e" : p == Precision_SINGLE ? "f" : "g";
      out.buffers = 2;
      return;
    }
    case Type_Binary: out.format = "z"; out.buffers = 3; return;
    case Type_Utf8: out.format = "u"; out.buffers = 3; return;
    case Type_LargeBinary: out.format = "Z"; out.buffers = 3; return;
    case Type_LargeUtf8: out.format = "U"; out.buffers = 3; return;
    case Type_BinaryView: out.format = "vz"; out.buffers = 2; out.is_view = true; return;
    case Type_Utf8View: out.format = "vu"; out.buffers = 2; out.is_view = true; return;
    case Type_Bool: out.format = "b"; out.buffers = 2; return;
    case Type_Decimal: {
      const auto* t = f->type_as_Decimal();
      if (!t) malformed(source, "decimal type without its table");
      out.format = err_msg("d:", t->precision(), ",", t->scale());
      if (t->bit_width() != 128) out.format += err_msg(",", t->bit_width());
      out.buffers = 2;
      return;
    }
    case Type_Date: {
      const auto* t = f->type_as_Date();
      out.format = (t && t->unit() == DateUnit_DAY) ? "tdD" : "tdm";
      out.buffers = 2;
      return;
    }
    case Type_Time: {
      const auto* t = f->type_as_Time();
      out.format = std::string("tt") + unit_letter(t ? t->unit() : TimeUnit_MILLISECOND);
      out.buffers = 2;
      return;
    }
    case Type_Timestamp: {
      const auto* t = f->type_as_Timestamp();
      if (!t) malformed(source, "timestamp type without its table");
      out.format = std::string("ts") + unit_letter(t->unit()) + ":" + (t->timezone() ? t->timezone()->str() : "");
      out.buffers = 2;
      return;
    }
    case Type_Interval: {
      const auto* t = f->type_as_Interval();
      const IntervalUnit u = t ? t->unit() : IntervalUnit_YEAR_MONTH;
      out.format = u == IntervalUnit_YEAR_MONTH ? "tiM" : u == IntervalUnit_DAY_TIME ? "tiD" : "tin";
      out.buffers = 2;
      return;
    }
    case Type_Duration: {
      const auto* t = f->type_as_Duration();
      out.format = std::string("tD") + unit_letter(t ? t->unit() : TimeUnit_MILLISECOND);
      out.buffers = 2;
      return;
    }
    case Type_List: out.format = "+l"; out.buffers = 2; return;
    case Type_LargeList: out.format = "+L"; out.buffers = 2; return;
    case Type_Map: out.format = "+m"; out.buffers = 2; return;
    case Type_Struct_: out.format = "+s"; out.buffers = 1; return;
    case Type_FixedSizeList: {
      const auto* t = f->type_as_FixedSizeList();
      if (!t || t->list_size() < 0) malformed(source, "fixed-size list without a size");
      out.format = err_msg("+w:", t->list_size());
      out.buffers = 1;
      return;
    }
    case Type_FixedSizeBinary: {
      const auto* t = f->type_as_FixedSizeBinary();
      if (!t || t->byte_width() < 0) malformed(source, "fixed-size binary without a width");
      out.format = err_msg("w:", t->byte_width());
      out.buffers = 2;
      return;
    }
    case Type_Union: {
      const auto* t = f->type_as_Union();
      const bool dense = t && t->mode() == UnionMode_Dense;
      out.format = dense ? "+ud:" : "+us:";
      // Type ids buffer (and offsets when dense); version 4 unions also have a validity buffer.
      out.buffers = (dense ? 2 : 1) + (v4 ? 1 : 0);
      return;
    }
    case Type_RunEndEncoded: out.format = "+r"; out.buffers = 0; return;
    case Type_ListView: out.format = "+vl"; out.buffers = 3; return;
    case Type_LargeListView: out.format = "+vL"; out.buffers = 3; return;
    case Type_NONE: break;
  }
  malformed(source, err_msg("field '", f->name() ? f->name()->str() : "", "' has no type"));
}

IpcField read_field(const fb::Field* f, bool v4, const std::string& source, int depth) {
  if (!f) malformed(source, "null field");
  if (depth > kMaxDepth) malformed(source, err_msg("fields nested deeper than ", kMaxDepth));
  IpcField out;
  out.name = f->name() ? f->name()->str() : "";
  out.nullable = f->nullable();
  set_type(f, out, v4, source);
  if (f->children())
    for (const fb::Field* c : *f->children()) out.children.push_back(read_field(c, v4, source, depth + 1));
  const size_t want_children = out.format[0] != '+' ? 0
                               : out.format == "+s" || out.format.rfind("+u", 0) == 0 ? out.children.size()
                               : out.format == "+r" ? 2
                                                    : 1;
  if (out.children.size() != want_children)
    malformed(source, err_msg("field '", out.name, "' of format '", out.format, "' has ", out.children.size(),
                              " children"));
  if (const fb::DictionaryEncoding* d = f->dictionary()) {
    out.dictionary_id = d->id();
    // The index type defaults to int32.
    out.index_format = d->index_type() ? int_format(d->index_type(), source) : "i";
  }
  if (f->custom_metadata() && f->custom_metadata()->size() > 0) {
    auto put32 = [&out](int32_t v) { out.metadata.append(reinterpret_cast<const char*>(&v), 4); };
    put32(static_cast<int32_t>(f->custom_metadata()->size()));
    for (const fb::KeyValue* kv : *f->custom_metadata()) {
      const std::string key = kv && kv->key() ? kv->key()->str() : "";
      const std::string value = kv && kv->value() ? kv->value()->str() : "";
      put32(static_cast<int32_t>(key.size()));
      out.metadata += key;
      put32(static_cast<int32_t>(value.size()));
      out.metadata += value;
    }
  }
  return out;
}

// --------------------------------------------------------------- Arrow C schema trees

struct SchemaNode {
  std::string format, name, metadata;
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::vector<ArrowSchema*> child_ptrs;
  std::unique_ptr<ArrowSchema> dictionary;
};

void release_node(ArrowSchema* s) {
  if (!s || !s->release) return;
  auto* p = static_cast<SchemaNode*>(s->private_data);
  for (auto& c : p->children)
    if (c->release) c->release(c.get());
  if (p->dictionary && p->dictionary->release) p->dictionary->release(p->dictionary.get());
  delete p;
  s->release = nullptr;
}

void fill(ArrowSchema* out, std::unique_ptr<SchemaNode> p, int64_t flags) {
  for (auto& c : p->children) p->child_ptrs.push_back(c.get());
  out->format = p->format.c_str();
  out->name = p->name.c_str();
  out->metadata = p->metadata.empty() ? nullptr : p->metadata.c_str();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(p->children.size());
  out->children = p->child_ptrs.empty() ? nullptr : p->child_ptrs.data();
  out->dictionary = p->dictionary.get();
  out->release = release_node;
  out->private_data = p.release();
}

void make_values_schema(const IpcField& f, ArrowSchema* out, const DictionaryDtype& dictionary_dtype) {
  auto p = std::make_unique<SchemaNode>();
  p->format = f.format;
  p->name = f.name;
  for (const auto& c : f.children) {
    p->children.push_back(std::make_unique<ArrowSchema>());
    make_arrow_schema(c, p->children.back().get(), dictionary_dtype);  // nested dictionaries too
  }
  fill(out, std::move(p), f.nullable ? ARROW_FLAG_NULLABLE : 0);
}

}  // namespace

void make_arrow_schema(const IpcField& f, ArrowSchema* out, const DictionaryDtype& dictionary_dtype) {
  if (!f.dictionary_id) return make_values_schema(f, out, dictionary_dtype);
  auto p = std::make_unique<SchemaNode>();
  p->format = f.index_format;
  p->name = f.name;
  p->metadata = f.metadata;
  p->dictionary = std::make_unique<ArrowSchema>();
  std::optional<DataType> held = dictionary_dtype ? dictionary_dtype(*f.dictionary_id) : std::nullopt;
  if (held) export_schema(*held, f.name, p->dictionary.get());
  else make_values_schema(f, p->dictionary.get(), dictionary_dtype);
  fill(out, std::move(p), f.nullable ? ARROW_FLAG_NULLABLE : 0);
}

void make_arrow_schema(const std::vector<const IpcField*>& fields, ArrowSchema* out,
                       const DictionaryDtype& dictionary_dtype) {
  auto p = std::make_unique<SchemaNode>();
  p->format = "+s";
  for (const IpcField* f : fields) {
    p->children.push_back(std::make_unique<ArrowSchema>());
    make_arrow_schema(*f, p->children.back().get(), dictionary_dtype);
  }
  fill(out, std::move(p), 0);
}

IpcSchema read_schema(const fb::Schema* s, const std::string& source) {
  if (!s) malformed(source, "no schema");
  if (s->endianness() != fb::Endianness_Little)
    throw InvalidOperationError(err_msg("IPC ", source, ": big-endian data is not supported"));
  IpcSchema out;
  if (s->fields())
    for (const fb::Field* f : *s->fields()) out.fields.push_back(read_field(f, false, source, 0));
  if (s->custom_metadata())
    for (const fb::KeyValue* kv : *s->custom_metadata())
      if (kv && kv->key()) out.metadata.emplace_back(kv->key()->str(), kv->value() ? kv->value()->str() : "");
  std::vector<Field> fields;
  for (const auto& f : out.fields) {
    ArrowSchema c{};
    make_arrow_schema(f, &c);
    try {
      fields.push_back(Field{f.name, import_dtype(&c, f.name)});
    } catch (...) {
      c.release(&c);
      throw;
    }
    c.release(&c);
  }
  out.schema = Schema(std::move(fields));  // throws DuplicateError for repeated names
  return out;
}

// ------------------------------------------------------------------------- writing

namespace {

fb::TimeUnit fb_unit(TimeUnit u) {
  switch (u) {
    case TimeUnit::Nanoseconds: return fb::TimeUnit_NANOSECOND;
    case TimeUnit::Microseconds: return fb::TimeUnit_MICROSECOND;
    case TimeUnit::Milliseconds: return fb::TimeUnit_MILLISECOND;
  }
  return fb::TimeUnit_MICROSECOND;
}

// `next_dictionary`: the id the next Categorical/Enum field gets (pre-order, as
// IpcDictionaries numbers them); null writes them as plain strings.
flatbuffers::Offset<fb::Field> write_field(flatbuffers::FlatBufferBuilder& fbb, const std::string& name,
                                           const DataType& t, bool compat_oldest, int64_t* next_dictionary) {
  std::vector<flatbuffers::Offset<fb::Field>> children;
  flatbuffers::Offset<fb::DictionaryEncoding> dictionary;
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>> metadata;
  if (next_dictionary && t.is_categorical()) {
    // uint32 indices into string values, with Polars' field metadata: an Enum is ordered
    // and names its categories ("<byte length>;<string>" each), a Categorical names the
    // global categories object (empty name and namespace, UInt32 codes), as Polars writes
    // them in IPC files and Parquet footers, so that Polars reads them back as such.
    const bool is_enum = t.id() == TypeId::Enum;
    dictionary = fb::CreateDictionaryEncoding(fbb, (*next_dictionary)++, fb::CreateInt(fbb, 32, false), is_enum);
    std::string value = "0;0;u32;";
    if (is_enum) {
      value.clear();
      for (const auto& c : t.categories().strings()) value += std::to_string(c.size()) + ";" + c;
    }
    metadata = fbb.CreateVector(std::vector<flatbuffers::Offset<fb::KeyValue>>{fb::CreateKeyValue(
        fbb, fbb.CreateString(is_enum ? "_PL_ENUM_VALUES2" : "_PL_CATEGORICAL2"), fbb.CreateString(value))});
  }
  fb::Type type = fb::Type_NONE;
  flatbuffers::Offset<void> table;
  auto integer = [&](int bits, bool is_signed) {
    type = fb::Type_Int;
    table = fb::CreateInt(fbb, bits, is_signed).Union();
  };
  switch (t.id()) {
    case TypeId::Null: type = fb::Type_Null; table = fb::CreateNull(fbb).Union(); break;
    case TypeId::Boolean: type = fb::Type_Bool; table = fb::CreateBool(fbb).Union(); break;
    case TypeId::Int8: integer(8, true); break;
    case TypeId::Int16: integer(16, true); break;
    case TypeId::Int32: integer(32, true); break;
    case TypeId::Int64: integer(64, true); break;
    case TypeId::UInt8: integer(8, false); break;
    case TypeId::UInt16: integer(16, false); break;
    case TypeId::UInt32: integer(32, false); break;
    case TypeId::UInt64: integer(64, false); break;
    case TypeId::Int128: integer(128, true); break;  // as Polars writes them (pyarrow has no 128-bit integers)
    case TypeId::UInt128: integer(128, false); break;
    case TypeId::Float16:
      type = fb::Type_FloatingPoint;
      table = fb::CreateFloatingPoint(fbb, fb::Precision_HALF).Union();
      break;
    case TypeId::Float32:
      type = fb::Type_FloatingPoint;
      table = fb::CreateFloatingPoint(fbb, fb::Precision_SINGLE).Union();
      break;
    case TypeId::Float64:
      type = fb::Type_FloatingPoint;
      table = fb::CreateFloatingPoint(fbb, fb::Precision_DOUBLE).Union();
      break;
    case TypeId::String:
    case TypeId::Categorical:  // the dictionary's values (or the strings themselves)
    case TypeId::Enum:
      if (compat_oldest) type = fb::Type_LargeUtf8, table = fb::CreateLargeUtf8(fbb).Union();
      else type = fb::Type_Utf8View, table = fb::CreateUtf8View(fbb).Union();
      break;
    case TypeId::Binary:
      if (compat_oldest) type = fb::Type_LargeBinary, table = fb::CreateLargeBinary(fbb).Union();
      else type = fb::Type_BinaryView, table = fb::CreateBinaryView(fbb).Union();
      break;
    case TypeId::Date: type = fb::Type_Date; table = fb::CreateDate(fbb, fb::DateUnit_DAY).Union(); break;
    case TypeId::Time:
      type = fb::Type_Time;
      table = fb::CreateTime(fbb, fb::TimeUnit_NANOSECOND, 64).Union();
      break;
    case TypeId::Datetime: {
      auto tz = t.time_zone() ? fbb.CreateString(*t.time_zone()) : flatbuffers::Offset<flatbuffers::String>();
      type = fb::Type_Timestamp;
      table = fb::CreateTimestamp(fbb, fb_unit(t.time_unit()), tz).Union();
      break;
    }
    case TypeId::Duration:
      type = fb::Type_Duration;
      table = fb::CreateDuration(fbb, fb_unit(t.time_unit())).Union();
      break;
    case TypeId::Decimal:
      type = fb::Type_Decimal;
      table = fb::CreateDecimal(fbb, t.precision(), t.scale(), 128).Union();
      break;
    case TypeId::List:
      children.push_back(write_field(fbb, "item", t.inner(), compat_oldest, next_dictionary));
      type = fb::Type_LargeList;
      table = fb::CreateLargeList(fbb).Union();
      break;
    case TypeId::Array:
      children.push_back(write_field(fbb, "item", t.inner(), compat_oldest, next_dictionary));
      type = fb::Type_FixedSizeList;
      table = fb::CreateFixedSizeList(fbb, static_cast<int32_t>(t.width())).Union();
      break;
    case TypeId::Struct:
      for (const auto& f : t.fields()) children.push_back(write_field(fbb, f.name, f.dtype, compat_oldest, next_dictionary));
      type = fb::Type_Struct_;
      table = fb::CreateStruct_(fbb).Union();
      break;
    default: throw InvalidOperationError(err_msg("cannot write a column of dtype ", t, " to Arrow IPC"));
  }
  auto name_off = fbb.CreateString(name);
  auto children_off = fbb.CreateVector(children);
  return fb::CreateField(fbb, name_off, true, type, table, dictionary, children_off, metadata);
}

}  // namespace

flatbuffers::Offset<fb::Schema> write_schema(flatbuffers::FlatBufferBuilder& fbb, const Schema& schema,
                                             bool compat_oldest,
                                             const std::vector<std::pair<std::string, std::string>>& metadata,
                                             bool categorical_as_dictionary) {
  std::vector<flatbuffers::Offset<fb::Field>> fields;
  int64_t next_dictionary = 0;
  for (const auto& f : schema.fields())
    fields.push_back(write_field(fbb, f.name, f.dtype, compat_oldest,
                                 categorical_as_dictionary ? &next_dictionary : nullptr));
  std::vector<flatbuffers::Offset<fb::KeyValue>> kvs;
  for (const auto& [k, v] : metadata) kvs.push_back(fb::CreateKeyValue(fbb, fbb.CreateString(k), fbb.CreateString(v)));
  auto fields_off = fbb.CreateVector(fields);
  auto md_off = kvs.empty() ? flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>>()
                            : fbb.CreateVector(kvs);
  return fb::CreateSchema(fbb, fb::Endianness_Little, fields_off, md_off);
}

}  // namespace frazil::io::ipc
