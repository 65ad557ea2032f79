#include "frazil/io/parquet/assemble.hpp"

#include <cstring>

#include "frazil/core/bitmap.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/parquet/decode_error.hpp"

namespace frazil::io::parquet {

namespace {

using Positions = std::vector<std::vector<int64_t>>;  // per leaf index

// Level positions that start a value at the nesting given by (max_rep, min_def).
std::vector<int64_t> filter_positions(const LeafResult& r, int16_t max_rep, int16_t min_def) {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(r.num_levels));
  const bool use_rep = !r.rep.empty(), use_def = !r.def.empty() && min_def > 0;
  for (int64_t q = 0; q < r.num_levels; ++q) {
    if (use_rep && r.rep[q] > max_rep) continue;
    if (use_def && r.def[q] < min_def) continue;
    out.push_back(q);
  }
  return out;
}

// Validity over positions: def >= level. Returns an empty buffer when all are valid.
Buffer validity_at(const LeafResult& r, const std::vector<int64_t>& pos, int16_t level, int64_t& nulls) {
  nulls = 0;
  if (r.def.empty() || level == 0) return Buffer();
  for (int64_t q : pos) nulls += r.def[q] < level;
  if (!nulls) return Buffer();
  Buffer bits = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(static_cast<int64_t>(pos.size()))));
  uint8_t* b = bits.mutable_data();
  for (size_t k = 0; k < pos.size(); ++k)
    if (r.def[pos[k]] >= level) set_bit(b, static_cast<int64_t>(k));
  return bits;
}

// Spreads dense values over n slots whose validity bits say where values go.
ArrayRef spread(const ArrayRef& dense, const Buffer& validity, int64_t n, int64_t nulls) {
  const DataType& dt = dense->dtype();
  if (dt.is_null()) return make_null_array(dt, n);
  const uint8_t* bits = validity.data();
  if (dt.is_boolean()) {
    Buffer out = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
    int64_t src = 0;
    for (int64_t i = 0; i < n; ++i)
      if (get_bit(bits, i) && dense->bool_value(src++)) set_bit(out.mutable_data(), i);
    return Array::make(dt, n, validity, {out}, {}, 0, nulls);
  }
  const size_t w = dt.is_view() ? sizeof(View) : static_cast<size_t>(dt.byte_width());
  Buffer out = Buffer::zeroed(static_cast<size_t>(n) * w);
  const uint8_t* in = dense->buffer(0).data() + dense->offset() * w;
  int64_t src = 0;
  for (int64_t i = 0; i < n; ++i)
    if (get_bit(bits, i)) std::memcpy(out.mutable_data() + i * w, in + (src++) * w, w);
  std::vector<Buffer> buffers{out};
  for (size_t b = 1; b < dense->buffers().size(); ++b) buffers.push_back(dense->buffer(b));
  return Array::make(dt, n, validity, std::move(buffers), {}, 0, nulls);
}

ArrayRef build_flat(const SchemaNode& node, const std::vector<LeafResult>& results) {
  switch (node.kind) {
    case SchemaNode::Kind::Primitive: return results[node.leaf].values;
    case SchemaNode::Kind::Struct: {
      std::vector<ArrayRef> children;
      for (const auto& c : node.children) children.push_back(build_flat(c, results));
      const LeafResult& first = results[node.leaves.front()];
      int64_t n = first.num_levels;
      for (const auto& c : children)
        if (c->length() != n) throw DecodeError("struct fields have different lengths");
      Buffer validity;
      int64_t nulls = 0;
      if (node.nullable && !first.def.empty()) {
        for (int64_t i = 0; i < n; ++i) nulls += first.def[i] < node.def_level;
        if (nulls) {
          validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
          for (int64_t i = 0; i < n; ++i)
            if (first.def[i] >= node.def_level) set_bit(validity.mutable_data(), i);
        }
      }
      return Array::make(node.dtype, n, validity, {}, std::move(children), 0, nulls);
    }
    case SchemaNode::Kind::List: break;
  }
  throw DecodeError("list column decoded as flat");
}

ArrayRef build_nested(const SchemaNode& node, const std::vector<LeafResult>& results, const Positions& pos) {
  const LeafResult& first = results[node.leaves.front()];
  const std::vector<int64_t>& P = pos[node.leaves.front()];
  const int64_t n = static_cast<int64_t>(P.size());
  int64_t nulls = 0;
  switch (node.kind) {
    case SchemaNode::Kind::Primitive: {
      const LeafResult& r = results[node.leaf];
      Buffer validity = validity_at(r, P, node.def_level, nulls);
      // Only positions with def == max_def carry values (those below are nulls of an
      // ancestor or of this leaf).
      int64_t with_value = 0;
      for (int64_t q : P) with_value += r.def.empty() || r.def[q] == node.def_level;
      if (with_value != r.values->length())
        throw DecodeError("levels and values of a nested column disagree");
      if (with_value != n - nulls) throw DecodeError("levels of a nested column are inconsistent");
      if (nulls == 0) return r.values;
      return spread(r.values, validity, n, nulls);
    }
    case SchemaNode::Kind::Struct: {
      Buffer validity = node.nullable ? validity_at(first, P, node.def_level, nulls) : Buffer();
      std::vector<ArrayRef> children;
      for (const auto& c : node.children) {
        children.push_back(build_nested(c, results, pos));
        if (children.back()->length() != n) throw DecodeError("struct fields have different lengths");
      }
      return Array::make(node.dtype, n, validity, {}, std::move(children), 0, nulls);
    }
    case SchemaNode::Kind::List: {
      Buffer validity = node.nullable ? validity_at(first, P, node.def_level, nulls) : Buffer();
      Positions child_pos(pos.size());
      for (int leaf : node.leaves) child_pos[leaf] = filter_positions(results[leaf], node.entry_rep, node.entry_def);
      const std::vector<int64_t>& E = child_pos[node.leaves.front()];
      Buffer offsets = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int64_t));
      int64_t* o = offsets.mutable_as<int64_t>();
      size_t e = 0;
      for (int64_t k = 0; k < n; ++k) {
        while (e < E.size() && E[e] < P[k]) ++e;
        o[k] = static_cast<int64_t>(e);
      }
      o[n] = static_cast<int64_t>(E.size());
      if (n > 0 && o[0] != 0) throw DecodeError("list entries before the first list of a column chunk");
      if (n == 0 && !E.empty()) throw DecodeError("list entries without a list");
      ArrayRef child = build_nested(node.children[0], results, child_pos);
      if (child->length() != static_cast<int64_t>(E.size())) throw DecodeError("list element lengths disagree");
      return Array::make(node.dtype, n, validity, {offsets}, {child}, 0, nulls);
    }
  }
  throw DecodeError("unknown schema node");
}

}  // namespace

bool is_flat(const SchemaNode& node, const std::vector<LeafColumn>& leaves) {
  for (int l : node.leaves)
    if (leaves[l].max_rep > 0) return false;
  return true;
}

ArrayRef assemble_column(const SchemaNode& node, const std::vector<LeafColumn>& leaves,
                         const std::vector<LeafResult>& results) {
  if (is_flat(node, leaves)) return build_flat(node, results);
  Positions pos(leaves.size());
  for (int l : node.leaves) pos[l] = filter_positions(results[l], 0, 0);
  return build_nested(node, results, pos);
}

}  // namespace frazil::io::parquet
