#include "frazil/io/arrow/export.hpp"

#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "frazil/core/builder.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/compute/array/layout.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/arrow/format.hpp"

namespace frazil::io {

namespace {

// What an exported schema node owns; freed by its release callback.
struct SchemaPrivate {
  std::string format;
  std::string name;
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::vector<ArrowSchema*> child_ptrs;
  std::unique_ptr<ArrowSchema> dictionary;  // Categorical/Enum: the categories' schema
  std::string metadata;                     // Arrow's binary key/value encoding, or empty
  ~SchemaPrivate() {
    for (auto& c : children)
      if (c->release) c->release(c.get());
    if (dictionary && dictionary->release) dictionary->release(dictionary.get());
  }
};

void release_schema(ArrowSchema* s) {
  if (!s || !s->release) return;
  delete static_cast<SchemaPrivate*>(s->private_data);
  s->release = nullptr;
}

void fill_schema(ArrowSchema* out, std::unique_ptr<SchemaPrivate> p, int64_t flags) {
  for (auto& c : p->children) p->child_ptrs.push_back(c.get());
  out->format = p->format.c_str();
  out->name = p->name.c_str();
  out->metadata = p->metadata.empty() ? nullptr : p->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(p->children.size());
  out->children = p->child_ptrs.empty() ? nullptr : p->child_ptrs.data();
  out->dictionary = p->dictionary ? p->dictionary.get() : nullptr;
  out->release = release_schema;
  out->private_data = p.release();
}

// What an exported array node owns: references to the frazil data it points at.
struct ArrayPrivate {
  ArrayRef array;
  Buffer variadic_sizes;  // int64 sizes of the data buffers of a view array
  std::vector<Buffer> converted;  // buffers made for this export (offset strings)
  std::vector<const void*> buffer_ptrs;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> child_ptrs;
  std::unique_ptr<ArrowArray> dictionary;  // Categorical/Enum: the categories
  // Also runs when an export fails half-way: the children exported so far are released.
  ~ArrayPrivate() {
    for (auto& c : children)
      if (c->release) c->release(c.get());
    if (dictionary && dictionary->release) dictionary->release(dictionary.get());
  }
};

void release_array(ArrowArray* a) {
  if (!a || !a->release) return;
  delete static_cast<ArrayPrivate*>(a->private_data);
  a->release = nullptr;
}

// Consumers may dereference any buffer pointer, even of an empty array.
const void* non_null(const Buffer& b) {
  static const uint64_t kEmpty[8] = {};
  return b.data() ? static_cast<const void*>(b.data()) : static_cast<const void*>(kEmpty);
}

void fill_array(ArrowArray* out, std::unique_ptr<ArrayPrivate> p, int64_t length, int64_t offset,
                int64_t null_count) {
  static const void* kNoBuffers[1] = {nullptr};
  for (auto& c : p->children) p->child_ptrs.push_back(c.get());
  out->length = length;
  out->offset = offset;
  out->null_count = null_count;
  out->n_buffers = static_cast<int64_t>(p->buffer_ptrs.size());
  out->buffers = p->buffer_ptrs.empty() ? kNoBuffers : p->buffer_ptrs.data();
  out->n_children = static_cast<int64_t>(p->children.size());
  out->children = p->child_ptrs.empty() ? nullptr : p->child_ptrs.data();
  out->dictionary = p->dictionary ? p->dictionary.get() : nullptr;
  out->release = release_array;
  out->private_data = p.release();
}

const ArrowSchema* child_request(const ArrowSchema* requested, size_t i) {
  if (!requested || !requested->children || requested->n_children <= static_cast<int64_t>(i)) return nullptr;
  return requested->children[i];
}

// The views of a string/binary array rewritten as offsets + one contiguous data buffer
// (Arrow's string / large_string layouts). The result starts at offset 0, so a validity
// bitmap at another bit offset is realigned.
template <typename Offset>
void export_offset_strings(const Array& a, ArrayPrivate& p) {
  const int64_t n = a.length();
  const View* views = a.views();
  Buffer offsets = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(Offset));
  Offset* off = offsets.mutable_as<Offset>();
  // A null slot's view may hold anything: it counts as empty.
  uint64_t total = 0;
  for (int64_t i = 0; i < n; ++i)
    if (a.is_valid(i)) total += views[i].length;
  if (total > static_cast<uint64_t>(std::numeric_limits<Offset>::max()))
    throw ComputeError(err_msg("a string array of ", total, " bytes does not fit Arrow's 32-bit string offsets; "
                               "ask for large_string (format \"U\") instead"));
  Buffer data = Buffer::allocate(std::max<uint64_t>(total, 1));
  uint8_t* out = data.mutable_data();
  Offset pos = 0;
  off[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (a.is_valid(i)) {
      std::string_view v = a.str_value(i);
      if (!v.empty()) std::memcpy(out + pos, v.data(), v.size());
      pos += static_cast<Offset>(v.size());
    }
    off[i + 1] = pos;
  }
  Buffer validity = a.has_validity() ? a.validity().to_aligned_buffer() : Buffer();
  p.converted = {validity, offsets, data};
  p.buffer_ptrs = {a.has_validity() ? validity.data() : nullptr, offsets.data(), data.data()};
}

// Polars' field metadata for an Enum, so Polars (and frazil) read the column back as that
// Enum: key _PL_ENUM_VALUES2, value "<len>;<category>" per category, in Arrow's binary
// key/value layout (int32 pair count, then int32-length-prefixed key and value).
std::string enum_metadata(const DataType& dtype) {
  std::string value;
  for (const auto& c : dtype.categories().strings()) value += std::to_string(c.size()) + ";" + c;
  const std::string key = "_PL_ENUM_VALUES2";
  std::string out;
  auto put32 = [&out](int32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
  put32(1);
  put32(static_cast<int32_t>(key.size()));
  out += key;
  put32(static_cast<int32_t>(value.size()));
  out += value;
  return out;
}

void export_schema_node(const DataType& dtype, const std::string& name, ArrowSchema* out,
                        ArrowStringLayout fallback, const ArrowSchema* requested) {
  auto p = std::make_unique<SchemaPrivate>();
  p->format = arrow_format(dtype);
  p->name = name;
  if (dtype.id() == TypeId::String || dtype.id() == TypeId::Binary) {
    // "vu"/"vz" become "U"/"Z" (large) or "u"/"z": one letter, upper case for large.
    ArrowStringLayout layout = string_layout_for(fallback, requested);
    if (layout != ArrowStringLayout::View) {
      char letter = dtype.id() == TypeId::String ? 'u' : 'z';
      p->format.assign(1, layout == ArrowStringLayout::Large ? static_cast<char>(letter - 'a' + 'A') : letter);
    }
  } else if (dtype.is_categorical()) {
    // Dictionary-encoded: uint32 codes over large_string categories (an Enum's are ordered).
    p->format = "I";
    if (dtype.id() == TypeId::Enum) p->metadata = enum_metadata(dtype);
    p->dictionary = std::make_unique<ArrowSchema>();
    export_schema_node(DataType::string(), "", p->dictionary.get(), ArrowStringLayout::Large, nullptr);
    fill_schema(out, std::move(p),
                ARROW_FLAG_NULLABLE | (dtype.id() == TypeId::Enum ? ARROW_FLAG_DICTIONARY_ORDERED : 0));
    return;
  } else if (dtype.is_list_like()) {
    p->children.push_back(std::make_unique<ArrowSchema>());
    export_schema_node(dtype.inner(), "item", p->children.back().get(), fallback, child_request(requested, 0));
  } else if (dtype.id() == TypeId::Struct) {
    const auto& fields = dtype.fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      p->children.push_back(std::make_unique<ArrowSchema>());
      export_schema_node(fields[i].dtype, fields[i].name, p->children.back().get(), fallback,
                         child_request(requested, i));
    }
  }
  fill_schema(out, std::move(p), ARROW_FLAG_NULLABLE);
}

void export_array_node(const ArrayRef& array, ArrowArray* out, ArrowStringLayout fallback,
                       const ArrowSchema* requested) {
  FRAZIL_CHECK(array != nullptr);
  auto p = std::make_unique<ArrayPrivate>();
  p->array = array;
  const Array& a = *array;
  const DataType& t = a.dtype();
  int64_t offset = a.offset();
  auto validity = [&]() -> const void* { return a.has_validity() ? a.validity_bits() : nullptr; };
  switch (t.id()) {
    case TypeId::Null: break;  // the null type has no buffers
    case TypeId::Struct:
      p->buffer_ptrs = {validity()};
      for (size_t i = 0; i < a.children().size(); ++i) {
        p->children.push_back(std::make_unique<ArrowArray>());
        export_array_node(a.children()[i], p->children.back().get(), fallback, child_request(requested, i));
      }
      break;
    case TypeId::List:
      p->buffer_ptrs = {validity(), non_null(a.buffer(0))};
      p->children.push_back(std::make_unique<ArrowArray>());
      export_array_node(a.child(0), p->children.back().get(), fallback, child_request(requested, 0));
      break;
    case TypeId::Array: {
      // fixed_size_list: row i at child[i * width], so the strict layout (offset 0).
      ArrayRef r = compute::regular_array(a);
      p->array = r;
      p->buffer_ptrs = {r->has_validity() ? r->validity_bits() : nullptr};
      p->children.push_back(std::make_unique<ArrowArray>());
      export_array_node(r->child(0), p->children.back().get(), fallback, child_request(requested, 0));
      offset = 0;
      break;
    }
    case TypeId::String:
    case TypeId::Binary: {
      ArrowStringLayout layout = string_layout_for(fallback, requested);
      if (layout == ArrowStringLayout::Large) {
        export_offset_strings<int64_t>(a, *p);
        offset = 0;
        break;
      }
      if (layout == ArrowStringLayout::Regular) {
        export_offset_strings<int32_t>(a, *p);
        offset = 0;
        break;
      }
      // validity, views, the data buffers, then the sizes of the data buffers.
      size_t n_data = a.buffers().size() - 1;
      p->variadic_sizes = Buffer::allocate(std::max<size_t>(n_data, 1) * sizeof(int64_t));
      p->buffer_ptrs = {validity(), non_null(a.buffer(0))};
      for (size_t i = 0; i < n_data; ++i) {
        p->buffer_ptrs.push_back(non_null(a.buffer(1 + i)));
        p->variadic_sizes.mutable_as<int64_t>()[i] = static_cast<int64_t>(a.buffer(1 + i).size());
      }
      p->buffer_ptrs.push_back(p->variadic_sizes.data());
      break;
    }
    case TypeId::Categorical:
    case TypeId::Enum: {
      // The codes index the whole mapping (a snapshot of the global one for Categorical).
      p->buffer_ptrs = {validity(), non_null(a.buffer(0))};
      ViewBuilder b(DataType::string());
      for (std::string_view c : t.categories().views()) b.push(c);
      p->dictionary = std::make_unique<ArrowArray>();
      export_array_node(b.finish(), p->dictionary.get(), ArrowStringLayout::Large, nullptr);
      break;
    }
    default:  // Boolean bits and fixed-width values
      p->buffer_ptrs = {validity(), non_null(a.buffer(0))};
      break;
  }
  int64_t null_count = t.is_null() ? a.length() : a.null_count();
  fill_array(out, std::move(p), a.length(), offset, null_count);
}

}  // namespace

ArrowStringLayout string_layout_for(ArrowStringLayout fallback, const ArrowSchema* requested) {
  if (!requested || !requested->format) return fallback;
  std::string_view f = requested->format;
  if (f == "vu" || f == "vz") return ArrowStringLayout::View;
  if (f == "U" || f == "Z") return ArrowStringLayout::Large;
  if (f == "u" || f == "z") return ArrowStringLayout::Regular;
  return fallback;
}

void copy_schema_formats(const ArrowSchema* src, ArrowSchema* out) {
  auto p = std::make_unique<SchemaPrivate>();
  p->format = src->format ? src->format : "";
  p->name = src->name ? src->name : "";
  for (int64_t i = 0; i < src->n_children; ++i) {
    p->children.push_back(std::make_unique<ArrowSchema>());
    copy_schema_formats(src->children[i], p->children.back().get());
  }
  fill_schema(out, std::move(p), src->flags);
}

void export_schema(const DataType& dtype, const std::string& name, ArrowSchema* out,
                   const ArrowExportOptions& options) {
  export_schema_node(dtype, name, out, options.strings, options.requested);
}

void export_schema(const Schema& schema, ArrowSchema* out, const ArrowExportOptions& options) {
  auto p = std::make_unique<SchemaPrivate>();
  p->format = "+s";
  const auto& fields = schema.fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    p->children.push_back(std::make_unique<ArrowSchema>());
    export_schema_node(fields[i].dtype, fields[i].name, p->children.back().get(), options.strings,
                       child_request(options.requested, i));
  }
  fill_schema(out, std::move(p), 0);
}

void export_array(const ArrayRef& array, ArrowArray* out, const ArrowExportOptions& options) {
  export_array_node(array, out, options.strings, options.requested);
}

void export_frame(const DataFrame& df, ArrowArray* out, const ArrowExportOptions& options) {
  auto p = std::make_unique<ArrayPrivate>();
  p->buffer_ptrs = {nullptr};
  for (size_t i = 0; i < df.columns().size(); ++i) {
    p->children.push_back(std::make_unique<ArrowArray>());
    export_array_node(df.columns()[i].as_array(), p->children.back().get(), options.strings,
                      child_request(options.requested, i));
  }
  fill_array(out, std::move(p), df.height(), 0, 0);
}

}  // namespace frazil::io
