#include "frazil/plan/canonical/ir_hash.hpp"

#include <functional>

#include "frazil/plan/canonical/intern_table.hpp"

namespace frazil::plan {

namespace {

uint64_t hash_str(const std::string& s) { return std::hash<std::string>()(s); }

uint64_t hash_names(uint64_t h, const std::vector<std::string>& names) {
  h = hash_combine(h, names.size());
  for (const auto& n : names) h = hash_combine(h, hash_str(n));
  return h;
}

uint64_t hash_exprs(uint64_t h, const std::vector<ExprIR>& exprs, ExprIRHasher& hasher) {
  h = hash_combine(h, exprs.size());
  for (const auto& e : exprs) h = hash_combine(h, hasher.hash(e));
  return h;
}

uint64_t hash_predicate(uint64_t h, const std::optional<ExprIR>& p, ExprIRHasher& hasher) {
  return hash_combine(h, p ? hasher.hash(*p) : 0x5eed);
}

bool exprs_equal(const std::vector<ExprIR>& a, const std::vector<ExprIR>& b, ExprIRHasher& hasher) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!hasher.equal(a[i], b[i])) return false;
  return true;
}

bool predicates_equal(const std::optional<ExprIR>& a, const std::optional<ExprIR>& b, ExprIRHasher& hasher) {
  if (a.has_value() != b.has_value()) return false;
  return !a || hasher.equal(*a, *b);
}

bool schemas_equal(const SchemaRef& a, const SchemaRef& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return *a == *b;
}

}  // namespace

uint64_t hash_excluding_inputs(const IR& ir, ExprIRHasher& hasher) {
  uint64_t h = hash_combine(static_cast<uint64_t>(ir.kind) + 1, ir.inputs.size());
  switch (ir.kind) {
    case IRKind::DataFrameScan:
      h = hash_combine(h, std::hash<const void*>()(ir.df().get()));
      break;
    case IRKind::Scan:
      h = hash_combine(h, static_cast<uint64_t>(ir.scan().format));
      h = hash_names(h, ir.scan().paths);
      h = ir.scan().options_key.empty() ? hash_combine(h, std::hash<const void*>()(ir.scan().options.get()))
                                      : hash_combine(h, std::hash<std::string>()(ir.scan().options_key));
      break;
    case IRKind::Filter: break;  // the predicate is hashed below
    case IRKind::Select:
    case IRKind::HStack: break;  // the exprs are hashed below
    case IRKind::SimpleProjection: h = hash_names(h, ir.schema->names()); break;
    case IRKind::GroupBy: h = hash_combine(h, ir.maintain_order); break;
    case IRKind::Join:
      h = hash_combine(h, static_cast<uint64_t>(ir.join().how));
      h = hash_combine(h, hash_str(ir.join().suffix) * 2 + ir.join().coalesce);
      break;
    case IRKind::Sort:
      for (bool b : ir.sort().descending) h = hash_combine(h, b);
      for (bool b : ir.sort().nulls_last) h = hash_combine(h, b + 2);
      h = hash_combine(h, ir.sort().maintain_order);
      if (ir.sort_slice()) h = hash_combine(hash_combine(h, ir.sort_slice()->first), ir.sort_slice()->second);
      break;
    case IRKind::Slice: h = hash_combine(hash_combine(h, ir.offset), ir.length); break;
    case IRKind::Union: break;
    case IRKind::Distinct:
      h = hash_names(h, ir.names);
      h = hash_combine(hash_combine(h, hash_str(ir.keep())), ir.maintain_order);
      break;
    case IRKind::MapFunction:
      h = hash_combine(h, static_cast<uint64_t>(ir.map));
      h = hash_names(hash_names(h, ir.names), ir.names2());
      h = hash_combine(h, ir.offset);
      h = hash_combine(h, ir.explode.empty_as_null * 2 + ir.explode.keep_nulls);
      break;
    case IRKind::Cache: h = hash_combine(h, ir.cache_id); break;
    case IRKind::Invalid: break;
  }
  // Every kind: its expressions by the hasher's identity, the scan fields where set.
  h = hash_exprs(h, ir.exprs, hasher);
  h = hash_exprs(h, ir.keys, hasher);
  h = hash_exprs(h, ir.keys2, hasher);
  h = hash_predicate(h, ir.predicate, hasher);
  if (ir.projection()) h = hash_names(h + 1, *ir.projection());
  if (ir.n_rows()) h = hash_combine(h, *ir.n_rows());
  return h;
}

bool ir_equal_shallow(const IR& a, const IR& b, ExprIRHasher& hasher) {
  // Every field is compared whatever the kind (fields a kind does not use are default in
  // both), so a field added to IR is safe once it is listed here.
  if (a.kind != b.kind || a.inputs.size() != b.inputs.size()) return false;
  if (a.df() != b.df()) return false;
  // The same DataFrame object or reader options object implies the same source schema;
  // equal options by value must also have found the same file schema.
  if (a.scan().format != b.scan().format || a.scan().paths != b.scan().paths) return false;
  if (a.scan().options != b.scan().options) {
    if (a.scan().options_key.empty() || a.scan().options_key != b.scan().options_key) return false;
    if (!a.scan().file_schema || !b.scan().file_schema || !(*a.scan().file_schema == *b.scan().file_schema)) return false;
  }
  if (a.projection() != b.projection() || a.n_rows() != b.n_rows()) return false;
  if (!(a.join() == b.join()) || !(a.sort() == b.sort()) || a.sort_slice() != b.sort_slice()) return false;
  if (a.offset != b.offset || a.length != b.length || a.maintain_order != b.maintain_order) return false;
  if (a.keep() != b.keep() || a.names != b.names || a.names2() != b.names2() || a.map != b.map) return false;
  if (a.cache_id != b.cache_id || !(a.explode == b.explode)) return false;
  // A SimpleProjection is defined by its output columns; other kinds' schemas follow from
  // their payload and inputs (and comparing wide schemas per probe would cost too much).
  if (a.kind == IRKind::SimpleProjection && !schemas_equal(a.schema, b.schema)) return false;
  return exprs_equal(a.exprs, b.exprs, hasher) && exprs_equal(a.keys, b.keys, hasher) &&
         exprs_equal(a.keys2, b.keys2, hasher) && predicates_equal(a.predicate, b.predicate, hasher);
}

}  // namespace frazil::plan
