#include "frazil/io/arrow/export.hpp"

#include <memory>
#include <vector>

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
};

void release_schema(ArrowSchema* s) {
  if (!s || !s->release) return;
  auto* p = static_cast<SchemaPrivate*>(s->private_data);
  for (auto& c : p->children)
    if (c->release) c->release(c.get());
  delete p;
  s->release = nullptr;
}

void fill_schema(ArrowSchema* out, std::unique_ptr<SchemaPrivate> p, int64_t flags) {
  for (auto& c : p->children) p->child_ptrs.push_back(c.get());
  out->format = p->format.c_str();
  out->name = p->name.c_str();
  out->metadata = nullptr;
  out->flags = flags;
  out->n_children = static_cast<int64_t>(p->children.size());
  out->children = p->child_ptrs.empty() ? nullptr : p->child_ptrs.data();
  out->dictionary = nullptr;
  out->release = release_schema;
  out->private_data = p.release();
}

// What an exported array node owns: references to the frazil data it points at.
struct ArrayPrivate {
  ArrayRef array;
  Buffer variadic_sizes;  // int64 sizes of the data buffers of a view array
  std::vector<const void*> buffer_ptrs;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> child_ptrs;
};

void release_array(ArrowArray* a) {
  if (!a || !a->release) return;
  auto* p = static_cast<ArrayPrivate*>(a->private_data);
  for (auto& c : p->children)
    if (c->release) c->release(c.get());
  delete p;
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
  out->dictionary = nullptr;
  out->release = release_array;
  out->private_data = p.release();
}

}  // namespace

void export_schema(const DataType& dtype, const std::string& name, ArrowSchema* out) {
  auto p = std::make_unique<SchemaPrivate>();
  p->format = arrow_format(dtype);
  p->name = name;
  if (dtype.id() == TypeId::List) {
    p->children.push_back(std::make_unique<ArrowSchema>());
    export_schema(dtype.inner(), "item", p->children.back().get());
  } else if (dtype.id() == TypeId::Struct) {
    for (const auto& f : dtype.fields()) {
      p->children.push_back(std::make_unique<ArrowSchema>());
      export_schema(f.dtype, f.name, p->children.back().get());
    }
  }
  fill_schema(out, std::move(p), ARROW_FLAG_NULLABLE);
}

void export_schema(const Schema& schema, ArrowSchema* out) {
  auto p = std::make_unique<SchemaPrivate>();
  p->format = "+s";
  for (const auto& f : schema.fields()) {
    p->children.push_back(std::make_unique<ArrowSchema>());
    export_schema(f.dtype, f.name, p->children.back().get());
  }
  fill_schema(out, std::move(p), 0);
}

void export_array(const ArrayRef& array, ArrowArray* out) {
  FRAZIL_CHECK(array != nullptr);
  auto p = std::make_unique<ArrayPrivate>();
  p->array = array;
  const Array& a = *array;
  const DataType& t = a.dtype();
  auto validity = [&]() -> const void* { return a.has_validity() ? a.validity_bits() : nullptr; };
  switch (t.id()) {
    case TypeId::Null: break;  // the null type has no buffers
    case TypeId::Struct:
      p->buffer_ptrs = {validity()};
      for (const auto& child : a.children()) {
        p->children.push_back(std::make_unique<ArrowArray>());
        export_array(child, p->children.back().get());
      }
      break;
    case TypeId::List:
      p->buffer_ptrs = {validity(), non_null(a.buffer(0))};
      p->children.push_back(std::make_unique<ArrowArray>());
      export_array(a.child(0), p->children.back().get());
      break;
    case TypeId::String:
    case TypeId::Binary: {
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
    default:  // Boolean bits and fixed-width values
      p->buffer_ptrs = {validity(), non_null(a.buffer(0))};
      break;
  }
  int64_t null_count = t.is_null() ? a.length() : a.null_count();
  fill_array(out, std::move(p), a.length(), a.offset(), null_count);
}

void export_frame(const DataFrame& df, ArrowArray* out) {
  auto p = std::make_unique<ArrayPrivate>();
  p->buffer_ptrs = {nullptr};
  for (const auto& col : df.columns()) {
    p->children.push_back(std::make_unique<ArrowArray>());
    export_array(col.as_array(), p->children.back().get());
  }
  fill_array(out, std::move(p), df.height(), 0, 0);
}

}  // namespace frazil::io
