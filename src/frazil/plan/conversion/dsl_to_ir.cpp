#include "frazil/plan/conversion/dsl_to_ir.hpp"

#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <unordered_set>

#include "frazil/core/error.hpp"
#include "frazil/plan/conversion/asof_join.hpp"
#include "frazil/plan/conversion/conversion_optimizer.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/conversion/join_where.hpp"
#include "frazil/plan/conversion/plan_context.hpp"
#include "frazil/plan/conversion/type_coercion.hpp"
#include "frazil/plan/optimization_rule.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::plan {

using dsl::DslKind;
using dsl::DslPlan;

namespace {

struct Converter {
  IRArena& lp;
  ExprArena& ea;
  const OptFlags& flags;
  ConversionOptimizer opt;

  Converter(IRArena& l, ExprArena& e, const OptFlags& f)
      : lp(l), ea(e), flags(f), opt(f.simplify_expression, f.type_coercion) {}

  // Converts, optimizes and type-checks a list of expressions against `schema`.
  // `hidden`: columns that wildcards do not expand to (the keys inside group_by().agg()).
  std::vector<ExprIR> exprs(const std::vector<dsl::Expr>& in, const Schema& schema, bool in_agg = false,
                            const std::vector<ExprIR>* hidden = nullptr) {
    Schema visible;
    if (hidden) {
      for (const auto& f : schema.fields()) {
        bool is_hidden = std::any_of(hidden->begin(), hidden->end(),
                                     [&](const ExprIR& h) { return h.output_name() == f.name; });
        if (!is_hidden) visible.push(f);
      }
    }
    std::vector<ExprIR> out;
    for (const auto& e : expand_expressions(in, hidden ? visible : schema)) {
      ExprIR ir = to_expr_ir(e, ea, schema, ConversionContext{false, in_agg});
      opt.optimize(ea, ir.node(), schema, false, in_agg);
      type_check(ir.node(), ea, schema);
      out.push_back(std::move(ir));
    }
    return out;
  }

  ExprIR predicate(const dsl::Expr& e, const Schema& schema) {
    auto expanded = expand_expressions({e}, schema);
    if (expanded.size() != 1)
      throw ComputeError(err_msg("filter predicate ", e.to_string(), " expands to ", expanded.size(),
                                 " expressions; use all_horizontal/any_horizontal to combine them"));
    ExprIR ir = to_expr_ir(expanded[0], ea, schema, ConversionContext{true, false});
    opt.optimize(ea, ir.node(), schema, true);
    type_check(ir.node(), ea, schema);
    DataType t = node_dtype(ir.node(), ea, schema);
    if (!t.is_boolean()) {
      // Polars finds a predicate over columns ill-typed while planning (InvalidOperationError)
      // and one of literals only when it runs (ComputeError).
      std::vector<std::string> columns;
      collect_columns(ir.node(), ea, columns);
      const std::string msg = err_msg("filter predicate must be of type `Boolean`, got `", t, "` in ", e.to_string());
      if (columns.empty()) throw ComputeError(msg);
      throw InvalidOperationError(msg);
    }
    return ir;
  }

  static void check_unique_names(const std::vector<ExprIR>& exprs, const char* what) {
    std::unordered_set<std::string> seen;
    for (const auto& e : exprs)
      if (!seen.insert(e.output_name()).second)
        throw DuplicateError(err_msg(what, " contained duplicate output name '", e.output_name(),
                                     "'. It's possible that multiple expressions are returning the same default "
                                     "column name. If this is the case, try renaming the columns with "
                                     "`.alias(\"new_name\")` to avoid duplicate column names."));
  }

  SchemaRef schema_of(Node n) const { return lp.get(n).schema; }

  // One schema object per in-memory frame: a frame scanned by many arms of a concat (or
  // both sides of a self-join) has its schema derived once.
  std::unordered_map<const DataFrame*, SchemaRef> frame_schemas;
  SchemaRef frame_schema(const DataFrame* df) {
    SchemaRef& s = frame_schemas[df];
    if (!s) s = std::make_shared<const Schema>(df->schema());
    return s;
  }

  // Converts the plan bottom-up with an explicit stack (a plan of many thousand steps must
  // not overflow the call stack): a step is converted once its inputs are.
  Node convert(const DslPlan& root) {
    struct Pending {
      const DslPlan* plan;
      size_t next_input;
    };
    std::vector<Pending> stack{{&root, 0}};
    std::vector<Node> done;  // converted inputs of the steps on the stack, in order
    while (!stack.empty()) {
      Pending& top = stack.back();
      if (top.next_input < top.plan->inputs.size()) {
        const DslPlan* input = top.plan->inputs[top.next_input++].get();
        stack.push_back({input, 0});
        continue;
      }
      const size_t n = top.plan->inputs.size();
      std::vector<Node> inputs(done.end() - static_cast<std::ptrdiff_t>(n), done.end());
      done.resize(done.size() - n);
      done.push_back(convert_with_context(*top.plan, std::move(inputs)));
      stack.pop_back();
    }
    return done.back();
  }

  // Converts one step; an error names the operation and the plan resolved before it (the
  // step's first input).
  Node convert_with_context(const DslPlan& p, std::vector<Node> inputs) {
    const std::optional<Node> input = inputs.empty() ? std::nullopt : std::optional<Node>(inputs[0]);
    try {
      return convert_step(p, std::move(inputs));
    } catch (const Error& e) {
      rethrow_with_plan_context(e, p.kind(), input, lp, ea);
    }
  }

  Node add(auto payload, std::vector<Node> inputs, SchemaRef schema) {
    return lp.add(IR(std::move(payload), std::move(inputs), std::move(schema)));
  }

  // One step over its converted inputs.
  Node convert_step(const DslPlan& p, std::vector<Node> inputs) {
    switch (p.kind()) {
      case DslKind::DataFrameScan: {
        const auto& step = p.as<dsl::DslDataFrameScan>();
        SchemaRef schema = frame_schema(step.df.get());
        return add(DataFrameScanNode{step.df, schema, std::nullopt, std::nullopt}, {}, schema);
      }
      case DslKind::Scan: {
        const auto& step = p.as<dsl::DslScan>();
        SchemaRef schema = step.source.file_schema;
        return add(ScanNode{step.source, schema, std::nullopt, std::nullopt, std::nullopt}, {}, schema);
      }
      case DslKind::Filter: {
        SchemaRef schema = schema_of(inputs[0]);
        return add(FilterNode{predicate(p.as<dsl::DslFilter>().predicate, *schema)}, std::move(inputs), schema);
      }
      case DslKind::Select:
      case DslKind::WithColumns: {
        const Schema& in = *schema_of(inputs[0]);
        const bool select = p.kind() == DslKind::Select;
        std::vector<ExprIR> out_exprs =
            exprs(select ? p.as<dsl::DslSelect>().exprs : p.as<dsl::DslWithColumns>().exprs, in);
        if (select) {
          check_unique_names(out_exprs, "projections");
        } else {
          // Polars reports this one as a ComputeError, not a DuplicateError.
          std::unordered_set<std::string> seen;
          for (const auto& e : out_exprs)
            if (!seen.insert(e.output_name()).second)
              throw ComputeError(err_msg("the name '", e.output_name(),
                                         "' passed to `LazyFrame.with_columns` is duplicate"));
        }
        Schema out = select ? Schema() : in;
        for (const auto& e : out_exprs) out.set(e.output_name(), e.dtype(in, ea));
        auto schema = std::make_shared<const Schema>(std::move(out));
        if (select) return add(SelectNode{std::move(out_exprs)}, std::move(inputs), std::move(schema));
        return add(HStackNode{std::move(out_exprs)}, std::move(inputs), std::move(schema));
      }
      case DslKind::GroupBy: {
        const auto& step = p.as<dsl::DslGroupBy>();
        const Schema& in = *schema_of(inputs[0]);
        GroupByNode g;
        g.keys = exprs(step.keys, in);
        g.aggs = exprs(step.aggs, in, true, &g.keys);
        g.maintain_order = step.maintain_order;
        Schema out;
        for (const auto& k : g.keys) out.push(Field{k.output_name(), k.dtype(in, ea)});
        for (const auto& a : g.aggs) {
          DataType t = a.dtype(in, ea);
          // A per-group expression that does not reduce gives each group a list.
          if (!is_scalar_ae(a.node(), ea)) t = DataType::list(t);
          if (out.contains(a.output_name()))
            throw DuplicateError(err_msg("the name '", a.output_name(), "' is duplicate in group_by().agg()"));
          out.push(Field{a.output_name(), t});
        }
        return add(std::move(g), std::move(inputs), std::make_shared<const Schema>(std::move(out)));
      }
      case DslKind::Join: {
        const auto& step = p.as<dsl::DslJoin>();
        const Schema& ls = *schema_of(inputs[0]);
        const Schema& rs = *schema_of(inputs[1]);
        JoinNode j;
        j.options = step.options;
        if (step.options.how != compute::JoinType::Cross) {
          j.left_on = exprs(step.left_on, ls);
          j.right_on = exprs(step.right_on, rs);
          if (j.left_on.size() != j.right_on.size() || j.left_on.empty())
            throw InvalidOperationError(err_msg("join needs the same number of left and right keys, got ",
                                                j.left_on.size(), " and ", j.right_on.size()));
          for (size_t i = 0; i < j.left_on.size(); ++i) {
            DataType lt = j.left_on[i].dtype(ls, ea), rt = j.right_on[i].dtype(rs, ea);
            if (lt == rt) continue;
            // Numeric keys of different dtypes match on their supertype (the output keeps
            // the input columns' own dtypes); anything else fails.
            auto st = get_supertype(lt, rt);
            // Polars 2 matches integers with integers and floats with floats, never across.
            const bool same_kind = (lt.is_integer() && rt.is_integer()) || (lt.is_float() && rt.is_float());
            if (lt.is_primitive_numeric() && rt.is_primitive_numeric() && same_kind && st) {
              if (!flags.type_coercion)
                throw InvalidOperationError(err_msg(
                    "type coercion is off (QueryOptFlags.type_coercion=False) and the join keys `",
                    j.left_on[i].output_name(), "`: ", lt.short_name(), " and `", j.right_on[i].output_name(),
                    "`: ", rt.short_name(), " need a cast to ", st->short_name()));
              if (lt != *st) j.left_on[i].set_node(add_cast(ea, j.left_on[i].node(), *st));
              if (rt != *st) j.right_on[i].set_node(add_cast(ea, j.right_on[i].node(), *st));
              continue;
            }
            throw SchemaError(err_msg("datatypes of join keys don't match - `", j.left_on[i].output_name(),
                                        "`: ", lt.short_name(), " on left does not match `",
                                        j.right_on[i].output_name(), "`: ", rt.short_name(),
                                        " on right (and no other type was available to cast to)"));
          }
        }
        SchemaRef schema = join_schema(ls, rs, j.left_on, j.right_on, j.options, ea);
        return add(std::move(j), std::move(inputs), std::move(schema));
      }
      case DslKind::Sort: {
        const auto& step = p.as<dsl::DslSort>();
        SchemaRef schema = schema_of(inputs[0]);
        SortNode sort;
        sort.by = exprs(step.by, *schema);
        sort.options = step.options;
        auto expand = [&](std::vector<bool> v, const char* what) {
          if (v.size() == 1) v.assign(sort.by.size(), v[0]);
          if (v.size() != sort.by.size())
            throw ComputeError(err_msg("the length of `", what, "` (", v.size(),
                                       ") does not match the length of `by` (", sort.by.size(), ")"));
          return v;
        };
        sort.options.descending = expand(sort.options.descending, "descending");
        sort.options.nulls_last = expand(sort.options.nulls_last, "nulls_last");
        return add(std::move(sort), std::move(inputs), std::move(schema));
      }
      case DslKind::Slice: {
        const auto& step = p.as<dsl::DslSlice>();
        SchemaRef schema = schema_of(inputs[0]);
        return add(SliceNode{step.offset, step.length.value_or(INT64_MAX)}, std::move(inputs), std::move(schema));
      }
      case DslKind::Union: {
        if (inputs.empty()) throw ComputeError("cannot concat an empty list of frames");
        const Schema& first = *schema_of(inputs[0]);
        for (size_t i = 1; i < inputs.size(); ++i) {
          const Schema& s = *schema_of(inputs[i]);
          // Polars' lazy concat: a width or dtype mismatch is an invalid operation, a name
          // mismatch a schema error (eager concat checks its own way, in Python).
          if (s.size() != first.size())
            throw InvalidOperationError(err_msg("'union'/'concat' inputs should all have the same schema, got ",
                                                first.to_string(), " and ", s.to_string()));
          for (size_t c = 0; c < s.size(); ++c) {
            if (s.field(c).name != first.field(c).name)
              throw SchemaError(err_msg("column name mismatch: expected \"", first.field(c).name, "\", found \"",
                                        s.field(c).name, "\""));
            if (s.field(c).dtype != first.field(c).dtype)
              throw InvalidOperationError(err_msg("'union'/'concat' inputs should all have the same schema: type ",
                                                  s.field(c).dtype, " is incompatible with expected type ",
                                                  first.field(c).dtype, " for column \"", s.field(c).name, "\""));
          }
        }
        SchemaRef schema = schema_of(inputs[0]);
        return add(UnionNode{p.as<dsl::DslUnion>().rechunk}, std::move(inputs), std::move(schema));
      }
      case DslKind::Distinct: {
        const auto& step = p.as<dsl::DslDistinct>();
        SchemaRef schema = schema_of(inputs[0]);
        for (const auto& n : step.subset) schema->dtype_of(n);  // throws ColumnNotFoundError
        return add(DistinctNode{step.subset, step.keep, step.maintain_order}, std::move(inputs), std::move(schema));
      }
      case DslKind::Rename: {
        const auto& step = p.as<dsl::DslRename>();
        const Schema& in = *schema_of(inputs[0]);
        std::vector<Field> fields = in.fields();
        for (size_t i = 0; i < step.existing.size(); ++i) {
          auto idx = in.index_of(step.existing[i]);
          if (!idx) in.dtype_of(step.existing[i]);  // throws ColumnNotFoundError
          fields[*idx].name = step.new_names[i];
        }
        return add(RenameNode{step.existing, step.new_names}, std::move(inputs),
                   std::make_shared<const Schema>(Schema(std::move(fields))));
      }
      case DslKind::Drop: {
        const auto& step = p.as<dsl::DslDrop>();
        const Schema& in = *schema_of(inputs[0]);
        for (const auto& n : step.columns) in.dtype_of(n);
        Schema out;
        for (const auto& f : in.fields())
          if (std::find(step.columns.begin(), step.columns.end(), f.name) == step.columns.end()) out.push(f);
        SimpleProjectionNode proj{out.names()};
        return add(std::move(proj), std::move(inputs), std::make_shared<const Schema>(std::move(out)));
      }
      case DslKind::WithRowIndex: {
        const auto& step = p.as<dsl::DslWithRowIndex>();
        const Schema& in = *schema_of(inputs[0]);
        Schema out;
        out.push(Field{step.name, DataType::uint32()});
        for (const auto& f : in.fields()) out.push(f);  // DuplicateError if the name exists
        return add(RowIndexNode{step.name, step.offset}, std::move(inputs),
                   std::make_shared<const Schema>(std::move(out)));
      }
      case DslKind::Explode: {
        const auto& step = p.as<dsl::DslExplode>();
        if (step.columns.empty()) throw InvalidOperationError("no columns provided in explode");
        ExplodeNode x;
        // Each column once, in the order given.
        for (const auto& n : step.columns)
          if (std::find(x.columns.begin(), x.columns.end(), n) == x.columns.end()) x.columns.push_back(n);
        x.options = step.options;
        SchemaRef schema = explode_schema(*schema_of(inputs[0]), x.columns);
        return add(std::move(x), std::move(inputs), std::move(schema));
      }
      case DslKind::AsofJoin: {
        const auto& step = p.as<dsl::DslAsofJoin>();
        const Schema& ls = *schema_of(inputs[0]);
        const Schema& rs = *schema_of(inputs[1]);
        std::vector<ExprIR> l = exprs({step.left_on}, ls), r = exprs({step.right_on}, rs);
        if (l.size() != 1 || r.size() != 1)
          throw InvalidOperationError("join_asof needs exactly one key on each side");
        AsofJoinNode j = resolve_asof_join(std::move(l[0]), std::move(r[0]), step.options, ls, rs, ea,
                                           flags.type_coercion);
        SchemaRef schema = asof_join_schema(ls, rs, j, ea);
        return add(std::move(j), std::move(inputs), std::move(schema));
      }
      case DslKind::JoinWhere: {
        const auto& step = p.as<dsl::DslJoinWhere>();
        SchemaRef joined = join_where_schema(*schema_of(inputs[0]), *schema_of(inputs[1]), step.suffix, ea);
        std::vector<ExprIR> preds;
        for (const auto& e : step.predicates) preds.push_back(predicate(e, *joined));
        if (preds.empty()) throw InvalidOperationError("expected join keys/predicates");
        return plan_join_where(preds, inputs[0], inputs[1], joined, step.suffix, lp, ea);
      }
      case DslKind::MergeSorted: {
        const auto& step = p.as<dsl::DslMergeSorted>();
        SchemaRef schema = merge_sorted_schema(schema_of(inputs[0]), *schema_of(inputs[1]), step.key);
        return add(MergeSortedNode{step.key, step.maintain_order}, std::move(inputs), std::move(schema));
      }
    }
    throw InternalError("unknown plan step");
  }
};

}  // namespace

SchemaRef join_schema(const Schema& left, const Schema& right, const std::vector<ExprIR>& left_on,
                      const std::vector<ExprIR>& right_on, const dsl::JoinOptions& options,
                      const ExprArena& arena) {
  using compute::JoinType;
  if (options.how == JoinType::Semi || options.how == JoinType::Anti)
    return std::make_shared<const Schema>(left);
  // Key columns that are dropped because they coalesce into the other side's keys.
  std::unordered_set<std::string> drop_right, drop_left;
  bool coalesce = options.coalesce && options.how != JoinType::Cross;
  if (coalesce) {
    // Keys cast to a common dtype for matching still name their column.
    auto peel = [&](Node n) -> const AExpr& {
      while (arena.get(n).kind == AExprKind::Cast) n = arena.get(n).inputs[0];
      return arena.get(n);
    };
    for (size_t i = 0; i < right_on.size(); ++i) {
      const AExpr& r = peel(right_on[i].node());
      const AExpr& l = peel(left_on[i].node());
      if (options.how == JoinType::Right) {
        if (l.kind == AExprKind::Column) drop_left.insert(l.name);
      } else if (r.kind == AExprKind::Column) {
        drop_right.insert(r.name);
      }
    }
  }
  Schema out;
  for (const auto& f : left.fields())
    if (!drop_left.count(f.name)) out.push(f);
  for (const auto& f : right.fields()) {
    if (drop_right.count(f.name)) continue;
    std::string name = f.name;
    if (out.contains(name)) name += options.suffix;
    if (out.contains(name))
      throw DuplicateError(err_msg("column with name '", name, "' already exists; pass a different suffix"));
    out.push(Field{name, f.dtype});
  }
  return std::make_shared<const Schema>(std::move(out));
}

SchemaRef explode_schema(const Schema& input, const std::vector<std::string>& columns) {
  std::vector<Field> fields = input.fields();
  for (const auto& name : columns) {
    auto idx = input.index_of(name);
    if (!idx) input.dtype_of(name);  // throws ColumnNotFoundError
    Field& f = fields[*idx];
    if (!f.dtype.is_list_like())
      throw InvalidOperationError(err_msg("`explode` operation not supported for dtype `", f.dtype.short_name(),
                                          "` (column \"", name, "\")"));
    f.dtype = DataType(f.dtype.inner());
  }
  return std::make_shared<const Schema>(Schema(std::move(fields)));
}

Node to_alp(const dsl::DslPlanRef& plan, IRArena& lp_arena, ExprArena& expr_arena, const OptFlags& flags) {
  auto start = std::chrono::steady_clock::now();
  Converter c(lp_arena, expr_arena, flags);
  Node root = c.convert(*plan);
  if (RewriteTrace::enabled())
    RewriteTrace::record(
        timing_event("conversion", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
  return root;
}

}  // namespace frazil::plan
