#include "frazil/sql/pg_tree.hpp"

#include <cstring>
#include <functional>

namespace frazil::sql {

namespace {

const ProtobufCFieldDescriptor* node_field(const PgNode* node) {
  if (!node || node->node_case == PG_QUERY__NODE__NODE__NOT_SET) return nullptr;
  return protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor, node->node_case);
}

// The message a Node wraps (every union member is a message pointer).
const ProtobufCMessage* node_message(const PgNode* node) {
  const ProtobufCFieldDescriptor* f = node_field(node);
  if (!f) return nullptr;
  return *reinterpret_cast<const ProtobufCMessage* const*>(reinterpret_cast<const char*>(node) + f->offset);
}

size_t scalar_size(ProtobufCType type) {
  switch (type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_ENUM: return 4;
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE: return 8;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(void*);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
  }
  return 0;
}

bool value_equal(const ProtobufCFieldDescriptor& f, const void* a, const void* b) {
  switch (f.type) {
    case PROTOBUF_C_TYPE_STRING: {
      const char* x = *static_cast<const char* const*>(a);
      const char* y = *static_cast<const char* const*>(b);
      if (!x || !y) return (!x || !*x) && (!y || !*y);
      return std::strcmp(x, y) == 0;
    }
    case PROTOBUF_C_TYPE_MESSAGE:
      return nodes_equal(*static_cast<const ProtobufCMessage* const*>(a), *static_cast<const ProtobufCMessage* const*>(b));
    case PROTOBUF_C_TYPE_BYTES: {
      const auto* x = static_cast<const ProtobufCBinaryData*>(a);
      const auto* y = static_cast<const ProtobufCBinaryData*>(b);
      return x->len == y->len && (x->len == 0 || std::memcmp(x->data, y->data, x->len) == 0);
    }
    default: return std::memcmp(a, b, scalar_size(f.type)) == 0;
  }
}

size_t value_hash(const ProtobufCFieldDescriptor& f, const void* a) {
  switch (f.type) {
    case PROTOBUF_C_TYPE_STRING: {
      const char* x = *static_cast<const char* const*>(a);
      return x ? std::hash<std::string>()(x) : 0;
    }
    case PROTOBUF_C_TYPE_MESSAGE: return node_hash(*static_cast<const ProtobufCMessage* const*>(a));
    case PROTOBUF_C_TYPE_BYTES: return static_cast<const ProtobufCBinaryData*>(a)->len;
    default: {
      uint64_t v = 0;
      std::memcpy(&v, a, scalar_size(f.type));
      return std::hash<uint64_t>()(v);
    }
  }
}

bool skip_field(const ProtobufCFieldDescriptor& f) { return std::strcmp(f.name, "location") == 0; }

}  // namespace

std::string node_kind_name(const PgNode* node) {
  const ProtobufCMessage* m = node_message(node);
  if (!m) return "empty node";
  std::string name = m->descriptor->short_name;
  return name;
}

int32_t node_location(const PgNode* node) {
  const ProtobufCMessage* m = node_message(node);
  if (!m) return -1;
  const ProtobufCFieldDescriptor* f = protobuf_c_message_descriptor_get_field_by_name(m->descriptor, "location");
  if (!f || f->type != PROTOBUF_C_TYPE_INT32) return -1;
  return *reinterpret_cast<const int32_t*>(reinterpret_cast<const char*>(m) + f->offset);
}

bool nodes_equal(const ProtobufCMessage* a, const ProtobufCMessage* b) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->descriptor != b->descriptor) return false;
  const ProtobufCMessageDescriptor* d = a->descriptor;
  const char* pa = reinterpret_cast<const char*>(a);
  const char* pb = reinterpret_cast<const char*>(b);
  for (unsigned i = 0; i < d->n_fields; ++i) {
    const ProtobufCFieldDescriptor& f = d->fields[i];
    if (skip_field(f)) continue;
    if (f.flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      const uint32_t ca = *reinterpret_cast<const uint32_t*>(pa + f.quantifier_offset);
      const uint32_t cb = *reinterpret_cast<const uint32_t*>(pb + f.quantifier_offset);
      if (ca != cb) return false;
      if (ca != f.id) continue;
      if (!value_equal(f, pa + f.offset, pb + f.offset)) return false;
      continue;
    }
    if (f.label == PROTOBUF_C_LABEL_REPEATED) {
      const size_t na = *reinterpret_cast<const size_t*>(pa + f.quantifier_offset);
      const size_t nb = *reinterpret_cast<const size_t*>(pb + f.quantifier_offset);
      if (na != nb) return false;
      const char* va = *reinterpret_cast<const char* const*>(pa + f.offset);
      const char* vb = *reinterpret_cast<const char* const*>(pb + f.offset);
      const size_t w = scalar_size(f.type);
      for (size_t k = 0; k < na; ++k)
        if (!value_equal(f, va + k * w, vb + k * w)) return false;
      continue;
    }
    if (!value_equal(f, pa + f.offset, pb + f.offset)) return false;
  }
  return true;
}

size_t node_hash(const ProtobufCMessage* m) {
  if (!m) return 0x9e3779b9;
  const ProtobufCMessageDescriptor* d = m->descriptor;
  size_t h = std::hash<const void*>()(d);
  const char* p = reinterpret_cast<const char*>(m);
  auto mix = [&](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  for (unsigned i = 0; i < d->n_fields; ++i) {
    const ProtobufCFieldDescriptor& f = d->fields[i];
    if (skip_field(f)) continue;
    if (f.flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      if (*reinterpret_cast<const uint32_t*>(p + f.quantifier_offset) == f.id) mix(value_hash(f, p + f.offset));
      continue;
    }
    if (f.label == PROTOBUF_C_LABEL_REPEATED) {
      const size_t n = *reinterpret_cast<const size_t*>(p + f.quantifier_offset);
      const char* v = *reinterpret_cast<const char* const*>(p + f.offset);
      mix(n);
      for (size_t k = 0; k < n; ++k) mix(value_hash(f, v + k * scalar_size(f.type)));
      continue;
    }
    mix(value_hash(f, p + f.offset));
  }
  return h;
}

void walk_nodes(const ProtobufCMessage* m, const std::function<bool(const PgNode*)>& visit) {
  if (!m) return;
  const ProtobufCMessageDescriptor* d = m->descriptor;
  const char* p = reinterpret_cast<const char*>(m);
  if (d == &pg_query__node__descriptor) {
    const auto* node = reinterpret_cast<const PgNode*>(m);
    if (!visit(node)) return;
    walk_nodes(node_message(node), visit);
    return;
  }
  for (unsigned i = 0; i < d->n_fields; ++i) {
    const ProtobufCFieldDescriptor& f = d->fields[i];
    if (f.type != PROTOBUF_C_TYPE_MESSAGE) continue;
    if (f.flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      if (*reinterpret_cast<const uint32_t*>(p + f.quantifier_offset) != f.id) continue;
      walk_nodes(*reinterpret_cast<const ProtobufCMessage* const*>(p + f.offset), visit);
      continue;
    }
    if (f.label == PROTOBUF_C_LABEL_REPEATED) {
      const size_t n = *reinterpret_cast<const size_t*>(p + f.quantifier_offset);
      const auto* items = *reinterpret_cast<const ProtobufCMessage* const* const*>(p + f.offset);
      for (size_t k = 0; k < n; ++k) walk_nodes(items[k], visit);
      continue;
    }
    walk_nodes(*reinterpret_cast<const ProtobufCMessage* const*>(p + f.offset), visit);
  }
}

std::string string_of(const PgNode* node) {
  if (node && node->node_case == PG_QUERY__NODE__NODE_STRING && node->string && node->string->sval)
    return node->string->sval;
  return "";
}

}  // namespace frazil::sql
