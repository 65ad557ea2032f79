#include "frazil/serde/ir_codec.hpp"

#include <unordered_map>

#include "frazil/core/error.hpp"
#include "frazil/serde/expr_codec.hpp"
#include "frazil/serde/format.hpp"
#include "frazil/serde/expr_parts.hpp"
#include "frazil/serde/scan/scan_codec.hpp"
#include "frazil/serde/value_codec.hpp"

namespace frazil::serde {

using namespace plan;

namespace {

constexpr uint8_t kAExprKindCount = static_cast<uint8_t>(AExprKind::Window) + 1;
// Invalid nodes are never reachable from a root: they are not in the format.
constexpr uint8_t kIRKindCount = static_cast<uint8_t>(IRKind::Cache) + 1;
constexpr uint8_t kOperatorCount = static_cast<uint8_t>(dsl::Operator::Xor) + 1;
constexpr uint8_t kAggKindCount = static_cast<uint8_t>(compute::AggKind::All) + 1;
constexpr uint8_t kJoinTypeCount = static_cast<uint8_t>(compute::JoinType::Cross) + 1;

void opt_strs(ByteWriter& w, const std::optional<std::vector<std::string>>& v) {
  w.boolean(v.has_value());
  if (v) w.strs(*v);
}
std::optional<std::vector<std::string>> opt_strs(ByteReader& r) {
  if (!r.boolean()) return std::nullopt;
  return r.strs();
}

class IrWriter {
 public:
  IrWriter(const IRArena& lp, const ExprArena& ea) : lp_(lp), ea_(ea) {}

  std::string write(Node root) {
    // The reachable IR nodes, inputs first (explicit stack: plans may be deep).
    std::vector<std::pair<Node, size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      if (ir_ids_.contains(n.idx)) {
        stack.pop_back();
        continue;
      }
      const IR& ir = lp_.get(n);
      if (ir.kind() == IRKind::Invalid) throw ComputeError("cannot serialize a plan that reaches a removed node");
      if (next < ir.inputs.size()) {
        const Node child = ir.inputs[next++];
        if (!ir_ids_.contains(child.idx)) stack.emplace_back(child, 0);
        continue;
      }
      const Node done = n;
      stack.pop_back();
      encode_ir(lp_.get(done));
      ir_ids_.emplace(done.idx, ir_count_++);
    }
    ByteWriter out;
    write_header(out, Content::IrPlan);
    dsl_exprs_.finish(out);
    out.varint(expr_count_);
    out.raw(exprs_.bytes());
    out.varint(ir_count_);
    out.raw(irs_.bytes());
    out.varint(ir_ids_.at(root.idx));
    return out.take();
  }

 private:
  // The new index of expression node `root`, writing it and its inputs first.
  uint64_t add_expr(Node root) {
    std::vector<std::pair<Node, size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      if (expr_ids_.contains(n.idx)) {
        stack.pop_back();
        continue;
      }
      const AExpr& e = ea_.get(n);
      if (next < e.inputs.size()) {
        const Node child = e.inputs[next++];
        if (!expr_ids_.contains(child.idx)) stack.emplace_back(child, 0);
        continue;
      }
      const Node done = n;
      stack.pop_back();
      encode_expr(ea_.get(done));
      expr_ids_.emplace(done.idx, expr_count_++);
    }
    return expr_ids_.at(root.idx);
  }

  void encode_expr(const AExpr& e) {
    ByteWriter& w = exprs_;
    w.u8(static_cast<uint8_t>(e.kind));
    w.u8(static_cast<uint8_t>(e.op));
    w.boolean(e.strict);
    w.u8(static_cast<uint8_t>(e.agg));
    w.varint(e.inputs.size());
    for (Node in : e.inputs) w.varint(expr_ids_.at(in.idx));
    w.str(e.name);
    write_scalar(w, e.literal().scalar);
    w.boolean(e.literal().dynamic);
    w.boolean(e.literal().is_series());
    if (e.literal().is_series()) write_array(w, e.literal().series);
    write_dtype(w, e.dtype());
    write_agg_options(w, e.agg_options());
    write_function(w, e.function());
    write_sort_flags(w, e.sort());
    write_window(w, e.window());
    write_expr_refs(w, dsl_exprs_, e.element_exprs());
  }

  void expr_ir(ByteWriter& w, const ExprIR& e) {
    // (The expression is added before this node's bytes continue: exprs_ is another buffer.)
    w.varint(add_expr(e.node()));
    w.u8(static_cast<uint8_t>(e.output_name_inner().kind));
    w.str(e.output_name());
  }
  void expr_irs(ByteWriter& w, const std::vector<ExprIR>& v) {
    w.varint(v.size());
    for (const ExprIR& e : v) expr_ir(w, e);
  }
  void opt_expr_ir(ByteWriter& w, const std::optional<ExprIR>& e) {
    w.boolean(e.has_value());
    if (e) expr_ir(w, *e);
  }

  void encode_ir(const IR& ir) {
    ByteWriter& w = irs_;
    const auto kind = static_cast<uint8_t>(ir.kind());
    if (kind >= kIRKindCount) {
      throw ComputeError(err_msg("cannot serialize plan node ", ir_kind_name(ir.kind()), ": not in the plan format yet"));
    }
    w.u8(kind);
    w.varint(ir.inputs.size());
    for (Node in : ir.inputs) w.varint(ir_ids_.at(in.idx));
    write_schema(w, *ir.schema);
    switch (ir.kind()) {
      case IRKind::DataFrameScan: {
        const auto& s = ir.as<DataFrameScanNode>();
        write_frame(w, *s.df);
        write_schema(w, *s.source_schema);
        opt_strs(w, s.projection);
        opt_expr_ir(w, s.predicate);
        break;
      }
      case IRKind::Scan: {
        const auto& s = ir.as<ScanNode>();
        write_scan_source(w, s.source);
        write_schema(w, *s.source_schema);
        opt_strs(w, s.projection);
        opt_expr_ir(w, s.predicate);
        w.boolean(s.n_rows.has_value());
        if (s.n_rows) w.i64(*s.n_rows);
        break;
      }
      case IRKind::Filter: expr_ir(w, ir.as<FilterNode>().predicate); break;
      case IRKind::Select: expr_irs(w, ir.as<SelectNode>().exprs); break;
      case IRKind::HStack: expr_irs(w, ir.as<HStackNode>().exprs); break;
      case IRKind::SimpleProjection: w.strs(ir.as<SimpleProjectionNode>().columns); break;
      case IRKind::GroupBy: {
        const auto& g = ir.as<GroupByNode>();
        expr_irs(w, g.keys);
        expr_irs(w, g.aggs);
        w.boolean(g.maintain_order);
        break;
      }
      case IRKind::Join: {
        const auto& j = ir.as<JoinNode>();
        expr_irs(w, j.left_on);
        expr_irs(w, j.right_on);
        w.u8(static_cast<uint8_t>(j.options.how));
        w.str(j.options.suffix);
        w.boolean(j.options.coalesce);
        break;
      }
      case IRKind::Sort: {
        const auto& s = ir.as<SortNode>();
        expr_irs(w, s.by);
        w.bools(s.options.descending);
        w.bools(s.options.nulls_last);
        w.boolean(s.options.maintain_order);
        w.boolean(s.slice.has_value());
        if (s.slice) {
          w.i64(s.slice->first);
          w.i64(s.slice->second);
        }
        break;
      }
      case IRKind::Slice: {
        const auto& s = ir.as<SliceNode>();
        w.i64(s.offset);
        w.i64(s.length);
        break;
      }
      case IRKind::Union: w.boolean(ir.as<UnionNode>().rechunk); break;
      case IRKind::Distinct: {
        const auto& d = ir.as<DistinctNode>();
        w.strs(d.subset);
        w.str(d.keep);
        w.boolean(d.maintain_order);
        break;
      }
      case IRKind::Rename: {
        const auto& r = ir.as<RenameNode>();
        w.strs(r.existing);
        w.strs(r.new_names);
        break;
      }
      case IRKind::RowIndex: {
        const auto& r = ir.as<RowIndexNode>();
        w.str(r.name);
        w.i64(r.offset);
        break;
      }
      case IRKind::Explode: {
        const auto& e = ir.as<ExplodeNode>();
        w.strs(e.columns);
        w.boolean(e.options.empty_as_null);
        w.boolean(e.options.keep_nulls);
        break;
      }
      case IRKind::Cache: w.varint(ir.as<CacheNode>().id); break;
      default: throw ComputeError(err_msg("cannot serialize plan node ", ir_kind_name(ir.kind()), ": not in the plan format yet"));
    }
  }

  const IRArena& lp_;
  const ExprArena& ea_;
  std::unordered_map<uint32_t, uint64_t> ir_ids_, expr_ids_;
  uint64_t ir_count_ = 0, expr_count_ = 0;
  ExprTableWriter dsl_exprs_;
  ByteWriter exprs_, irs_;
};

class IrReader {
 public:
  IrReader(ByteReader& r, const ReadOptions& options) : r_(r), options_(options) {}

  IrPlan read() {
    dsl_exprs_.read(r_);
    const size_t n_exprs = r_.count(8);
    for (size_t i = 0; i < n_exprs; ++i) out_.ea.add(decode_expr());
    const size_t n_irs = r_.count(4);
    for (size_t i = 0; i < n_irs; ++i) out_.lp.add(decode_ir());
    const uint64_t root = r_.varint();
    if (root >= out_.lp.size()) r_.fail(err_msg("a root reference to node ", root, " of ", out_.lp.size()));
    if (!r_.at_end()) r_.fail(err_msg(r_.remaining(), " bytes after the end of the plan"));
    out_.root = Node(static_cast<uint32_t>(root));
    return std::move(out_);
  }

 private:
  Node ref(size_t below, const char* what) {
    const uint64_t i = r_.varint();
    if (i >= below) r_.fail(err_msg("a reference to ", what, " ", i, " of the ", below, " read so far"));
    return Node(static_cast<uint32_t>(i));
  }

  AExpr decode_expr() {
    ByteReader& r = r_;
    const size_t at = r.offset();
    AExpr e;
    e.kind = static_cast<AExprKind>(r.enum_u8(kAExprKindCount, "expression kind"));
    e.op = static_cast<dsl::Operator>(r.enum_u8(kOperatorCount, "operator"));
    e.strict = r.boolean();
    e.agg = static_cast<compute::AggKind>(r.enum_u8(kAggKindCount, "aggregation"));
    const size_t n = r.count(1);
    for (size_t i = 0; i < n; ++i) e.inputs.push_back(ref(out_.ea.size(), "expression"));
    e.name = r.str();
    dsl::LiteralValue lit;
    lit.scalar = read_scalar(r);
    lit.dynamic = r.boolean();
    if (r.boolean()) lit.series = read_array(r);
    e.literal_mut() = std::move(lit);
    e.dtype_mut() = read_dtype(r);
    e.agg_options_mut() = read_agg_options(r);
    e.function_mut() = read_function(r);
    e.sort_mut() = read_sort_flags(r);
    e.window_mut() = read_window(r);
    e.element_exprs_mut() = dsl_exprs_.read_refs(r);
    check_expr_shape(e, at);
    return e;
  }

  void check_expr_shape(const AExpr& e, size_t at) {
    const size_t in = e.inputs.size();
    auto need = [&](size_t lo, size_t hi) {
      if (in < lo || in > hi) {
        throw ComputeError(err_msg("cannot deserialize the plan: the expression at byte ", at,
                                   " has the wrong number of inputs for its kind"));
      }
    };
    switch (e.kind) {
      case AExprKind::Column:
      case AExprKind::Literal:
      case AExprKind::Len: need(0, 0); break;
      case AExprKind::BinaryExpr:
      case AExprKind::Filter: need(2, 2); break;
      case AExprKind::Cast:
      case AExprKind::Agg:
      case AExprKind::Sort: need(1, 1); break;
      case AExprKind::Ternary: need(3, 3); break;
      case AExprKind::Function:
        if (!e.function().spec) r_.fail("a function call without a function");
        need(0, e.function().spec->max_inputs);
        break;
      case AExprKind::SortBy: need(2, SIZE_MAX); break;
      case AExprKind::Window:
        need(1, SIZE_MAX);
        if (e.window().num_order_by > in - 1) r_.fail("a window ordered by more keys than it has");
        break;
    }
  }

  ExprIR expr_ir() {
    const Node n = ref(out_.ea.size(), "expression");
    const auto kind = static_cast<OutputNameKind>(r_.enum_u8(4, "output name kind"));
    return ExprIR(n, OutputName{kind, r_.str()});
  }
  std::vector<ExprIR> expr_irs() {
    const size_t n = r_.count(2);
    std::vector<ExprIR> v;
    v.reserve(n);
    for (size_t i = 0; i < n; ++i) v.push_back(expr_ir());
    return v;
  }
  std::optional<ExprIR> opt_expr_ir() {
    if (!r_.boolean()) return std::nullopt;
    return expr_ir();
  }

  IR decode_ir() {
    ByteReader& r = r_;
    const size_t at = r.offset();
    const auto kind = static_cast<IRKind>(r.enum_u8(kIRKindCount, "plan node kind"));
    std::vector<Node> inputs(r.count(1));
    for (Node& in : inputs) in = ref(out_.lp.size(), "plan node");
    auto schema = std::make_shared<const Schema>(read_schema(r));
    auto arity = [&](size_t lo, size_t hi) {
      if (inputs.size() < lo || inputs.size() > hi) {
        throw ComputeError(err_msg("cannot deserialize the plan: the ", ir_kind_name(kind), " node at byte ", at,
                                   " has ", inputs.size(), " inputs"));
      }
    };
    switch (kind) {
      case IRKind::DataFrameScan: {
        arity(0, 0);
        DataFrameScanNode s;
        s.df = std::make_shared<const DataFrame>(read_frame(r));
        s.source_schema = std::make_shared<const Schema>(read_schema(r));
        s.projection = opt_strs(r);
        s.predicate = opt_expr_ir();
        return IR(std::move(s), std::move(inputs), std::move(schema));
      }
      case IRKind::Scan: {
        arity(0, 0);
        if (!options_.allow_scans) r.fail("a file scan where none is allowed");
        ScanNode s;
        s.source = read_scan_source(r);
        s.source_schema = std::make_shared<const Schema>(read_schema(r));
        s.projection = opt_strs(r);
        s.predicate = opt_expr_ir();
        if (r.boolean()) s.n_rows = r.i64();
        return IR(std::move(s), std::move(inputs), std::move(schema));
      }
      case IRKind::Filter: arity(1, 1); return IR(FilterNode{expr_ir()}, std::move(inputs), std::move(schema));
      case IRKind::Select: arity(1, 1); return IR(SelectNode{expr_irs()}, std::move(inputs), std::move(schema));
      case IRKind::HStack: arity(1, 1); return IR(HStackNode{expr_irs()}, std::move(inputs), std::move(schema));
      case IRKind::SimpleProjection:
        arity(1, 1);
        return IR(SimpleProjectionNode{r.strs()}, std::move(inputs), std::move(schema));
      case IRKind::GroupBy: {
        arity(1, 1);
        GroupByNode g;
        g.keys = expr_irs();
        g.aggs = expr_irs();
        g.maintain_order = r.boolean();
        return IR(std::move(g), std::move(inputs), std::move(schema));
      }
      case IRKind::Join: {
        arity(2, 2);
        JoinNode j;
        j.left_on = expr_irs();
        j.right_on = expr_irs();
        j.options.how = static_cast<compute::JoinType>(r.enum_u8(kJoinTypeCount, "join type"));
        j.options.suffix = r.str();
        j.options.coalesce = r.boolean();
        if (j.left_on.size() != j.right_on.size()) r.fail("a join with unequal key counts");
        return IR(std::move(j), std::move(inputs), std::move(schema));
      }
      case IRKind::Sort: {
        arity(1, 1);
        SortNode s;
        s.by = expr_irs();
        s.options.descending = r.bools();
        s.options.nulls_last = r.bools();
        s.options.maintain_order = r.boolean();
        for (size_t k : {s.options.descending.size(), s.options.nulls_last.size()}) {
          if (k == 0 || (k > 1 && k != s.by.size())) r.fail("sort flags that do not match the sort keys");
        }
        if (r.boolean()) {
          const int64_t off = r.i64();
          s.slice = std::make_pair(off, r.i64());
        }
        return IR(std::move(s), std::move(inputs), std::move(schema));
      }
      case IRKind::Slice: {
        arity(1, 1);
        SliceNode s;
        s.offset = r.i64();
        s.length = r.i64();
        if (s.length < 0) r.fail("a negative slice length");
        return IR(s, std::move(inputs), std::move(schema));
      }
      case IRKind::Union: arity(1, SIZE_MAX); return IR(UnionNode{r.boolean()}, std::move(inputs), std::move(schema));
      case IRKind::Distinct: {
        arity(1, 1);
        DistinctNode d;
        d.subset = r.strs();
        d.keep = r.str();
        d.maintain_order = r.boolean();
        return IR(std::move(d), std::move(inputs), std::move(schema));
      }
      case IRKind::Rename: {
        arity(1, 1);
        RenameNode d;
        d.existing = r.strs();
        d.new_names = r.strs();
        if (d.existing.size() != d.new_names.size()) r.fail("a rename with unequal name counts");
        return IR(std::move(d), std::move(inputs), std::move(schema));
      }
      case IRKind::RowIndex: {
        arity(1, 1);
        RowIndexNode d;
        d.name = r.str();
        d.offset = r.i64();
        return IR(std::move(d), std::move(inputs), std::move(schema));
      }
      case IRKind::Explode: {
        arity(1, 1);
        ExplodeNode e;
        e.columns = r.strs();
        e.options.empty_as_null = r.boolean();
        e.options.keep_nulls = r.boolean();
        return IR(std::move(e), std::move(inputs), std::move(schema));
      }
      case IRKind::Cache: arity(1, 1); return IR(CacheNode{r.varint()}, std::move(inputs), std::move(schema));
      default: break;
    }
    r.fail("an unknown plan node kind");
  }

  ByteReader& r_;
  const ReadOptions& options_;
  ExprTableReader dsl_exprs_;
  IrPlan out_;
};

}  // namespace

std::string serialize_ir(Node root, const IRArena& lp, const ExprArena& ea) { return IrWriter(lp, ea).write(root); }

IrPlan deserialize_ir(std::string_view bytes, const ReadOptions& options) {
  ByteReader r(bytes);
  read_header(r, Content::IrPlan);
  return IrReader(r, options).read();
}

}  // namespace frazil::serde
