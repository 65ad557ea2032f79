// PostgreSQL's raw parse tree as libpg_query hands it over (protobuf-c structs), and the
// few generic helpers every translation step uses. Internal to the sql layer.
#pragma once

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include <cstddef>
#include <functional>
#include <string>

namespace frazil::sql {

using PgNode = PgQuery__Node;

// The parse-tree kind of a node, as PostgreSQL names it ("ColumnRef", "SubLink", ...).
std::string node_kind_name(const PgNode* node);

// The `location` of a node (an offset into the parsed text), or -1 when it has none.
int32_t node_location(const PgNode* node);

// Structural equality and hashing that ignore `location` fields (as PostgreSQL's equal()):
// `sum(a + 1)` written twice in a query is the same expression.
bool nodes_equal(const ProtobufCMessage* a, const ProtobufCMessage* b);
size_t node_hash(const ProtobufCMessage* node);
inline bool nodes_equal(const PgNode* a, const PgNode* b) {
  return nodes_equal(reinterpret_cast<const ProtobufCMessage*>(a), reinterpret_cast<const ProtobufCMessage*>(b));
}
inline size_t node_hash(const PgNode* n) { return node_hash(reinterpret_cast<const ProtobufCMessage*>(n)); }

// Calls `visit` on every Node below `message` (pre-order, through direct message fields
// too); `visit` returning false skips that node's children.
void walk_nodes(const ProtobufCMessage* message, const std::function<bool(const PgNode*)>& visit);
inline void walk_nodes(const PgNode* node, const std::function<bool(const PgNode*)>& visit) {
  walk_nodes(reinterpret_cast<const ProtobufCMessage*>(node), visit);
}

// The text of a String node ("" for anything else).
std::string string_of(const PgNode* node);

}  // namespace frazil::sql
