#include "frazil/distributed/aggregation_split.hpp"

#include <unordered_map>

#include "frazil/plan/conversion/expr_to_ir.hpp"

namespace frazil::distributed {

using compute::AggKind;
using dsl::col;
using dsl::Expr;
using plan::AExpr;
using plan::AExprKind;
using plan::Node;

namespace {

// The aggregations of one output expression, and why it does not decompose (empty: it does).
struct Collected {
  std::vector<Node> aggs;
  std::string refusal;
};

std::string decomposable(const AExpr& e, const plan::ExprArena& ea, const Schema& in) {
  if (!plan::is_elementwise_rec(e.inputs[0], ea)) return "the input of an aggregation reads other rows";
  // lit(x).sum() aggregates one value, not one per row.
  if (plan::is_scalar_ae(e.inputs[0], ea)) return "an aggregation of a scalar";
  const DataType t = plan::node_dtype(e.inputs[0], ea, in);
  switch (e.agg) {
    case AggKind::Sum:
    case AggKind::Mean:
    case AggKind::Std:
    case AggKind::Var:
      if (t.is_primitive_numeric() || t.is_boolean()) return "";
      return std::string(compute::agg_name(e.agg)) + " of " + t.to_string();
    case AggKind::Min:
    case AggKind::Max:
      if (t.is_primitive_numeric() || t.is_temporal() || t.is_string() || t.is_boolean()) return "";
      return std::string(compute::agg_name(e.agg)) + " of " + t.to_string();
    case AggKind::Count:
    case AggKind::Len:
    case AggKind::NullCount:
    case AggKind::First:
    case AggKind::Last:
    case AggKind::NUnique:
    case AggKind::Any:
    case AggKind::All: return "";
    default: return std::string(compute::agg_name(e.agg)) + " does not split into partial states";
  }
}

// Walks an output expression: row-wise nodes above decomposable aggregations (and len()).
void collect(Node root, const plan::ExprArena& ea, const Schema& in, Collected& out,
             std::unordered_map<uint32_t, size_t>& index) {
  std::vector<Node> stack{root};
  while (!stack.empty() && out.refusal.empty()) {
    const Node node = stack.back();
    stack.pop_back();
    const AExpr& e = ea.get(node);
    switch (e.kind) {
      case AExprKind::Agg:
        out.refusal = decomposable(e, ea, in);
        if (out.refusal.empty() && index.emplace(node.idx, out.aggs.size()).second) out.aggs.push_back(node);
        continue;
      case AExprKind::Len:
        if (index.emplace(node.idx, out.aggs.size()).second) out.aggs.push_back(node);
        continue;
      case AExprKind::Literal:
        if (e.literal().is_series()) out.refusal = "a Series literal";
        continue;
      case AExprKind::BinaryExpr:
      case AExprKind::Cast:
      case AExprKind::Ternary: break;
      case AExprKind::Function:
        if (!e.spec().is_elementwise() || e.spec().has_set_input()) {
          out.refusal = "a function that is not row-wise above the aggregations";
          continue;
        }
        break;
      case AExprKind::Column: out.refusal = "a column outside an aggregation"; continue;
      default: out.refusal = "an expression that is not row-wise above the aggregations"; continue;
    }
    for (auto it = e.inputs.rbegin(); it != e.inputs.rend(); ++it) stack.push_back(*it);
  }
}

struct Analysis {
  bool grouped = false;
  std::vector<Node> aggs;
  std::string refusal;
};

Analysis analyse(Node node, const plan::IRArena& lp, const plan::ExprArena& ea) {
  Analysis a;
  const plan::IR& ir = lp.get(node);
  const std::vector<plan::ExprIR>* outputs = nullptr;
  if (const auto* g = ir.get_if<plan::GroupByNode>()) {
    a.grouped = true;
    outputs = &g->aggs;
    for (const auto& k : g->keys)
      if (!plan::is_elementwise_rec(k.node(), ea)) {
        a.refusal = "a group key that reads other rows";
        return a;
      }
  } else if (const auto* s = ir.get_if<plan::SelectNode>()) {
    outputs = &s->exprs;
  } else {
    a.refusal = std::string("a ") + plan::ir_kind_name(ir.kind()) + " is not an aggregation";
    return a;
  }
  const Schema& in = *lp.get(ir.inputs[0]).schema;
  Collected c;
  std::unordered_map<uint32_t, size_t> index;
  for (const auto& e : *outputs) {
    collect(e.node(), ea, in, c, index);
    if (!c.refusal.empty()) break;
  }
  a.aggs = std::move(c.aggs);
  a.refusal = std::move(c.refusal);
  if (a.refusal.empty() && !a.grouped && a.aggs.empty()) a.refusal = "a select without aggregations";
  return a;
}

// The partial states of one aggregation (named by the caller) and the merge of them.
struct States {
  std::vector<Expr> partial;
  Expr merge;  // over col(state names)
};

States states_of(const AExpr& e, const plan::ExprArena& ea, bool grouped, const std::vector<std::string>& names) {
  auto p = [&](size_t j) { return col(names.at(j)); };
  if (e.kind == AExprKind::Len) return {{dsl::len()}, p(0).sum()};
  const Expr x = plan::node_to_expr(e.inputs[0], ea);
  const compute::AggOptions& o = e.agg_options();
  const Expr zero = dsl::lit(Scalar::uint64(0));
  switch (e.agg) {
    case AggKind::Sum:
    case AggKind::Count:
    case AggKind::Len:
    case AggKind::NullCount: return {{x.agg(e.agg, o)}, p(0).sum()};
    case AggKind::Min:
    case AggKind::Max:
    case AggKind::Any:
    case AggKind::All: return {{x.agg(e.agg, o)}, p(0).agg(e.agg, o)};
    case AggKind::First:
    case AggKind::Last:
      // An empty partition's select gives a null first value: skipped by its row count.
      return {{x.agg(e.agg, o), x.len()}, p(0).filter(p(1).cast(DataType::uint64()) > zero).agg(e.agg, o)};
    case AggKind::Mean: {
      const Expr n = p(1).sum().cast(DataType::uint64());
      return {{x.cast(DataType::float64()).sum(), x.count()},
              dsl::when(n > zero).then(p(0).sum() / n.cast(DataType::float64())).otherwise(dsl::lit_null())};
    }
    case AggKind::Std:
    case AggKind::Var: {
      // Per partition: count, mean, M2 (sum of squared deviations from the mean); merged
      // as Chan et al.: M2 = sum(M2_p) + sum(n_p * (mean_p - mean)^2), which stays exact
      // where sums of squares cancel.
      const Expr xf = x.cast(DataType::float64());
      const Expr dev = xf - xf.mean();
      const Expr n_p = p(0).cast(DataType::float64());
      const Expr n = n_p.sum();
      const Expr mean = (n_p * p(1)).sum() / n;
      const Expr d = p(1) - mean;
      const Expr m2 = p(2).sum() + (n_p * d * d).sum();
      Expr var = dsl::when(n > dsl::lit(Scalar::float64(o.ddof)))
                     .then(m2 / (n - dsl::lit(Scalar::float64(o.ddof))))
                     .otherwise(dsl::lit_null());
      if (e.agg == AggKind::Std) var = var.sqrt();
      return {{x.count(), xf.mean(), (dev * dev).sum()}, var};
    }
    case AggKind::NUnique: {
      // The partition's distinct values (null among them) as one list; a select implodes.
      Expr distinct = x.unique();
      if (!grouped) distinct = distinct.function("implode");
      return {{distinct}, p(0).explode(false, true).n_unique()};
    }
    default: throw InternalError("no partial states for this aggregation");
  }
}

SchemaRef output_schema(const std::vector<plan::ExprIR>& keys, const std::vector<plan::ExprIR>& values,
                        const Schema& in, const plan::ExprArena& ea, bool grouped) {
  Schema out;
  for (const auto& k : keys) out.push(Field{k.output_name(), k.dtype(in, ea)});
  for (const auto& v : values) {
    DataType t = v.dtype(in, ea);
    if (grouped && !plan::is_scalar_ae(v.node(), ea)) t = DataType::list(t);
    out.push(Field{v.output_name(), t});
  }
  return std::make_shared<const Schema>(std::move(out));
}

std::vector<plan::ExprIR> convert(const std::vector<Expr>& exprs, plan::ExprArena& ea, const Schema& in, bool agg) {
  std::vector<plan::ExprIR> out;
  plan::ConversionContext ctx;
  ctx.in_aggregation = agg;
  for (const auto& e : exprs) out.push_back(plan::to_expr_ir(e, ea, in, ctx));
  return out;
}

// A GroupBy over `input` (keys, then `values`), or a Select of `values` without keys.
Node add_aggregation(Node input, std::vector<plan::ExprIR> keys, std::vector<plan::ExprIR> values, bool grouped,
                     bool maintain_order, plan::IRArena& lp, plan::ExprArena& ea) {
  const Schema& in = *lp.get(input).schema;
  SchemaRef schema = output_schema(keys, values, in, ea, grouped);
  if (!grouped) return lp.add(plan::IR(plan::SelectNode{std::move(values)}, {input}, std::move(schema)));
  plan::GroupByNode g;
  g.keys = std::move(keys);
  g.aggs = std::move(values);
  g.maintain_order = maintain_order;
  return lp.add(plan::IR(std::move(g), {input}, std::move(schema)));
}

}  // namespace

std::string split_refusal(Node node, const plan::IRArena& lp, const plan::ExprArena& ea) {
  return analyse(node, lp, ea).refusal;
}

std::optional<AggregationSplit> split_aggregation(Node node, plan::IRArena& lp, plan::ExprArena& ea) {
  Analysis a = analyse(node, lp, ea);
  if (!a.refusal.empty()) return std::nullopt;
  const plan::IR ir = lp.get(node);  // a copy: lp grows below
  const Node input = ir.inputs[0];
  const Schema in = *lp.get(input).schema;

  AggregationSplit split;
  split.grouped = a.grouped;
  split.output_schema = ir.schema;
  std::vector<plan::ExprIR> keys;
  if (a.grouped) {
    const auto& g = ir.as<plan::GroupByNode>();
    keys = g.keys;
    split.maintain_order = g.maintain_order;
    for (const auto& k : g.keys) split.final_keys.push_back(col(k.output_name()));
  }
  std::vector<Expr> partial;
  plan::NodeToExpr to_dsl(ea);
  for (size_t i = 0; i < a.aggs.size(); ++i) {
    const AExpr e = ea.get(a.aggs[i]);
    std::vector<std::string> names;
    for (size_t j = 0; j < 3; ++j) names.push_back("__frazil_p" + std::to_string(i) + "_" + std::to_string(j));
    States s = states_of(e, ea, a.grouped, names);
    for (size_t j = 0; j < s.partial.size(); ++j) partial.push_back(s.partial[j].alias(names[j]));
    const std::string folded = "__frazil_f" + std::to_string(i);
    split.final_merges.push_back(s.merge.alias(folded));
    // Above the aggregations, the folded state stands for the aggregation, in its dtype.
    to_dsl.set(a.aggs[i], col(folded).cast(plan::node_dtype(a.aggs[i], ea, in)));
  }
  const std::vector<plan::ExprIR>& outputs =
      a.grouped ? ir.as<plan::GroupByNode>().aggs : ir.as<plan::SelectNode>().exprs;
  for (const auto& k : keys) split.final_outputs.push_back(col(k.output_name()));
  for (const auto& o : outputs) split.final_outputs.push_back(to_dsl(o.node()).alias(o.output_name()));

  split.partial = add_aggregation(input, keys, convert(partial, ea, in, a.grouped), a.grouped,
                                  split.maintain_order, lp, ea);
  split.partial_schema = lp.get(split.partial).schema;
  return split;
}

Node add_final(const AggregationSplit& split, Node partials, plan::IRArena& lp, plan::ExprArena& ea) {
  const Schema in = *lp.get(partials).schema;
  std::vector<plan::ExprIR> keys = convert(split.final_keys, ea, in, false);
  Node merged = add_aggregation(partials, keys, convert(split.final_merges, ea, in, split.grouped), split.grouped,
                                split.maintain_order, lp, ea);
  const Schema folded = *lp.get(merged).schema;
  std::vector<plan::ExprIR> outputs = convert(split.final_outputs, ea, folded, false);
  SchemaRef schema = output_schema({}, outputs, folded, ea, false);
  if (*schema != *split.output_schema)
    throw InternalError(err_msg("the final aggregation's schema ", schema->to_string(), " differs from the original ",
                                split.output_schema->to_string()));
  return lp.add(plan::IR(plan::SelectNode{std::move(outputs)}, {merged}, std::move(schema)));
}

}  // namespace frazil::distributed
