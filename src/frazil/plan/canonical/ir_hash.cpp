#include "frazil/plan/canonical/ir_hash.hpp"

#include <functional>

#include "frazil/plan/canonical/intern_table.hpp"

namespace frazil::plan {

namespace {

// Hashes one payload field. Every field type a payload may hold has an overload: a
// payload with a field of a new type does not compile until it is given one here.
struct FieldHasher {
  ExprIRHasher& exprs;
  uint64_t h;

  void mix(uint64_t v) { h = hash_combine(h, v); }
  void operator()(const ExprIR& e) { mix(exprs.hash(e)); }
  void operator()(const std::optional<ExprIR>& e) { mix(e ? exprs.hash(*e) : 0x5eed); }
  void operator()(const std::vector<ExprIR>& es) {
    mix(es.size());
    for (const auto& e : es) mix(exprs.hash(e));
  }
  void operator()(const std::string& s) { mix(std::hash<std::string>()(s)); }
  void operator()(const std::vector<std::string>& names) {
    mix(names.size());
    for (const auto& n : names) (*this)(n);
  }
  void operator()(const std::optional<std::vector<std::string>>& names) {
    if (names) (*this)(*names);
    else mix(0x5eed);
  }
  void operator()(bool b) { mix(b ? 3 : 5); }
  void operator()(int64_t v) { mix(static_cast<uint64_t>(v)); }
  void operator()(uint64_t v) { mix(v); }
  void operator()(const std::optional<int64_t>& v) { mix(v ? static_cast<uint64_t>(*v) * 2 + 1 : 0); }
  void operator()(const std::optional<std::pair<int64_t, int64_t>>& v) {
    if (v) mix(hash_combine(static_cast<uint64_t>(v->first), static_cast<uint64_t>(v->second)));
    else mix(0x5eed);
  }
  // The same DataFrame object (pointer identity).
  void operator()(const std::shared_ptr<const DataFrame>& df) { mix(std::hash<const void*>()(df.get())); }
  // The same format, paths and reader options (by value when they can be compared).
  void operator()(const dsl::ScanSource& s) {
    mix(static_cast<uint64_t>(s.format));
    (*this)(s.paths);
    if (s.options_key.empty()) mix(std::hash<const void*>()(s.options.get()));
    else (*this)(s.options_key);
  }
  void operator()(const dsl::JoinOptions& o) {
    mix(static_cast<uint64_t>(o.how));
    (*this)(o.suffix);
    (*this)(o.coalesce);
  }
  void operator()(const dsl::SortOptions& o) {
    for (bool b : o.descending) (*this)(b);
    for (bool b : o.nulls_last) mix(b + 7);
    (*this)(o.maintain_order);
  }
  void operator()(const dsl::AsofJoinOptions& o) {
    mix(static_cast<uint64_t>(o.strategy));
    (*this)(o.left_by);
    (*this)(o.right_by);
    mix(o.tolerance ? std::hash<double>()(*o.tolerance) : 0x5eed);
    (*this)(o.tolerance_str.value_or(""));
    mix(o.allow_exact_matches * 4 + o.check_sortedness * 2 + o.coalesce);
    (*this)(o.suffix);
  }
  void operator()(const compute::ExplodeOptions& o) { mix(o.empty_as_null * 2 + o.keep_nulls); }
};

// Compares one payload field of two nodes of the same kind (the same overloads).
struct FieldEqual {
  ExprIRHasher& exprs;

  bool operator()(const ExprIR& a, const ExprIR& b) { return exprs.equal(a, b); }
  bool operator()(const std::optional<ExprIR>& a, const std::optional<ExprIR>& b) {
    return a.has_value() == b.has_value() && (!a || exprs.equal(*a, *b));
  }
  bool operator()(const std::vector<ExprIR>& a, const std::vector<ExprIR>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!exprs.equal(a[i], b[i])) return false;
    return true;
  }
  bool operator()(const dsl::ScanSource& a, const dsl::ScanSource& b) {
    if (a.format != b.format || a.paths != b.paths) return false;
    if (a.options == b.options) return true;
    // Equal options by value must also have found the same file schema.
    if (a.options_key.empty() || a.options_key != b.options_key) return false;
    return a.file_schema && b.file_schema && *a.file_schema == *b.file_schema;
  }
  // Everything else compares by value (DataFrame pointers by identity).
  template <typename T>
  bool operator()(const T& a, const T& b) {
    return a == b;
  }
};

}  // namespace

uint64_t hash_excluding_inputs(const IR& ir, ExprIRHasher& hasher) {
  FieldHasher fh{hasher, hash_combine(static_cast<uint64_t>(ir.kind()) + 1, ir.inputs.size())};
  visit_fields(ir.payload(), [&](const auto& field) { fh(field); });
  return fh.h;
}

bool ir_equal_shallow(const IR& a, const IR& b, ExprIRHasher& hasher) {
  if (a.kind() != b.kind() || a.inputs.size() != b.inputs.size()) return false;
  FieldEqual eq{hasher};
  return std::visit(
      [&](const auto& pa) {
        using T = std::decay_t<decltype(pa)>;
        const T& pb = std::get<T>(b.payload());
        return std::apply(
            [&](const auto&... fa) {
              return std::apply([&](const auto&... fb) { return (eq(fa, fb) && ...); }, pb.fields());
            },
            pa.fields());
      },
      a.payload());
}

}  // namespace frazil::plan
