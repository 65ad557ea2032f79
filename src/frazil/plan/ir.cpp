#include "frazil/plan/ir.hpp"

#include "frazil/core/error.hpp"

namespace frazil::plan {

const char* ir_kind_name(IRKind kind) {
  switch (kind) {
    case IRKind::DataFrameScan: return "DataFrameScan";
    case IRKind::Scan: return "Scan";
    case IRKind::Filter: return "Filter";
    case IRKind::Select: return "Select";
    case IRKind::HStack: return "HStack";
    case IRKind::SimpleProjection: return "SimpleProjection";
    case IRKind::GroupBy: return "GroupBy";
    case IRKind::Join: return "Join";
    case IRKind::Sort: return "Sort";
    case IRKind::Slice: return "Slice";
    case IRKind::Union: return "Union";
    case IRKind::Distinct: return "Distinct";
    case IRKind::Rename: return "Rename";
    case IRKind::RowIndex: return "RowIndex";
    case IRKind::Explode: return "Explode";
    case IRKind::Cache: return "Cache";
    case IRKind::Invalid: return "Invalid";
    case IRKind::AsofJoin: return "AsofJoin";
    case IRKind::MergeSorted: return "MergeSorted";
    case IRKind::InequalityJoin: return "InequalityJoin";
  }
  return "?";
}

void IR::throw_wrong_kind(IRKind kind) {
  throw InternalError(err_msg("plan node read as another kind than its own (", ir_kind_name(kind), ")"));
}

const IRPayload& IR::payload() const {
  static const IRPayload kInvalid = InvalidNode{};
  return payload_ ? *payload_ : kInvalid;
}

namespace {
struct ExprCollector {
  std::vector<const ExprIR*>& out;
  void operator()(const ExprIR& e) const { out.push_back(&e); }
  void operator()(const std::optional<ExprIR>& e) const {
    if (e) out.push_back(&*e);
  }
  void operator()(const std::vector<ExprIR>& es) const {
    for (const auto& e : es) out.push_back(&e);
  }
  template <typename T>
  void operator()(const T&) const {}  // not an expression
};
}  // namespace

std::vector<const ExprIR*> IR::all_exprs() const {
  std::vector<const ExprIR*> out;
  visit_fields(payload(), ExprCollector{out});
  return out;
}

const ExprIR* predicate_of(const IR& ir) {
  if (const auto* f = ir.get_if<FilterNode>()) return &f->predicate;
  if (const auto* d = ir.get_if<DataFrameScanNode>()) return d->predicate ? &*d->predicate : nullptr;
  if (const auto* s = ir.get_if<ScanNode>()) return s->predicate ? &*s->predicate : nullptr;
  return nullptr;
}

const Schema& predicate_schema(const IR& ir) {
  if (const auto* d = ir.get_if<DataFrameScanNode>()) return *d->source_schema;
  if (const auto* s = ir.get_if<ScanNode>()) return *s->source_schema;
  return *ir.schema;
}

void set_predicate(IR& ir, std::optional<ExprIR> predicate) {
  switch (ir.kind()) {
    case IRKind::Filter:
      FRAZIL_CHECK(predicate.has_value());
      ir.as_mut<FilterNode>().predicate = std::move(*predicate);
      return;
    case IRKind::DataFrameScan: ir.as_mut<DataFrameScanNode>().predicate = std::move(predicate); return;
    case IRKind::Scan: ir.as_mut<ScanNode>().predicate = std::move(predicate); return;
    default: throw InternalError(err_msg("a ", ir_kind_name(ir.kind()), " node has no predicate"));
  }
}

const std::vector<ExprIR>& projection_exprs(const IR& ir) {
  if (const auto* s = ir.get_if<SelectNode>()) return s->exprs;
  return ir.as<HStackNode>().exprs;
}

std::vector<ExprIR>& projection_exprs_mut(IR& ir) {
  if (ir.is<SelectNode>()) return ir.as_mut<SelectNode>().exprs;
  return ir.as_mut<HStackNode>().exprs;
}

}  // namespace frazil::plan
