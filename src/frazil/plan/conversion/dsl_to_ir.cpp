#include "frazil/plan/conversion/dsl_to_ir.hpp"

#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <unordered_set>

#include "frazil/core/error.hpp"
#include "frazil/plan/conversion/conversion_optimizer.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
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
      : lp(l), ea(e), flags(f), opt(f.simplify_expression, true) {}

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
    if (!t.is_boolean())
      throw InvalidOperationError(err_msg("filter predicate must be of type `Boolean`, got `", t, "` in ",
                                          e.to_string()));
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

  // Converts one node; an error names the operation and the plan resolved before it
  // (the last node added, which post-order makes the failing node's input).
  Node convert(const DslPlan& p) {
    const size_t before = lp.size();
    try {
      return convert_node(p);
    } catch (const Error& e) {
      std::optional<Node> input;
      if (lp.size() > before) input = Node(static_cast<uint32_t>(lp.size() - 1));
      rethrow_with_plan_context(e, p.kind, input, lp, ea);
    }
  }

  Node convert_node(const DslPlan& p) {
    IR ir;
    switch (p.kind) {
      case DslKind::DataFrameScan: {
        ir.kind = IRKind::DataFrameScan;
        ir.df_mut() = p.df;
        ir.schema = frame_schema(p.df.get());
        ir.source_schema_mut() = ir.schema;
        break;
      }
      case DslKind::Scan: {
        ir.kind = IRKind::Scan;
        ir.scan_mut() = p.scan;
        ir.schema = p.scan.file_schema;
        ir.source_schema_mut() = ir.schema;
        break;
      }
      case DslKind::Filter: {
        Node input = convert(*p.inputs[0]);
        ir.kind = IRKind::Filter;
        ir.inputs = {input};
        ir.schema = schema_of(input);
        ir.predicate = predicate(p.exprs[0], *ir.schema);
        break;
      }
      case DslKind::Select:
      case DslKind::WithColumns: {
        Node input = convert(*p.inputs[0]);
        const Schema& in = *schema_of(input);
        ir.kind = p.kind == DslKind::Select ? IRKind::Select : IRKind::HStack;
        ir.inputs = {input};
        ir.exprs = exprs(p.exprs, in);
        if (p.kind == DslKind::Select) {
          check_unique_names(ir.exprs, "projections");
        } else {
          // Polars reports this one as a ComputeError, not a DuplicateError.
          std::unordered_set<std::string> seen;
          for (const auto& e : ir.exprs)
            if (!seen.insert(e.output_name()).second)
              throw ComputeError(err_msg("the name '", e.output_name(),
                                         "' passed to `LazyFrame.with_columns` is duplicate"));
        }
        Schema out = p.kind == DslKind::Select ? Schema() : in;
        for (const auto& e : ir.exprs) out.set(e.output_name(), e.dtype(in, ea));
        ir.schema = std::make_shared<const Schema>(std::move(out));
        break;
      }
      case DslKind::GroupBy: {
        Node input = convert(*p.inputs[0]);
        const Schema& in = *schema_of(input);
        ir.kind = IRKind::GroupBy;
        ir.inputs = {input};
        ir.keys = exprs(p.keys, in);
        ir.exprs = exprs(p.exprs, in, true, &ir.keys);
        ir.maintain_order = p.maintain_order;
        Schema out;
        for (const auto& k : ir.keys) out.push(Field{k.output_name(), k.dtype(in, ea)});
        for (const auto& a : ir.exprs) {
          DataType t = a.dtype(in, ea);
          // A per-group expression that does not reduce gives each group a list.
          if (!is_scalar_ae(a.node(), ea)) t = DataType::list(t);
          if (out.contains(a.output_name()))
            throw DuplicateError(err_msg("the name '", a.output_name(), "' is duplicate in group_by().agg()"));
          out.push(Field{a.output_name(), t});
        }
        ir.schema = std::make_shared<const Schema>(std::move(out));
        break;
      }
      case DslKind::Join: {
        Node left = convert(*p.inputs[0]);
        Node right = convert(*p.inputs[1]);
        const Schema& ls = *schema_of(left);
        const Schema& rs = *schema_of(right);
        ir.kind = IRKind::Join;
        ir.inputs = {left, right};
        ir.join_mut() = p.join;
        if (p.join.how != compute::JoinType::Cross) {
          ir.keys = exprs(p.keys, ls);
          ir.keys2 = exprs(p.keys2, rs);
          if (ir.keys.size() != ir.keys2.size() || ir.keys.empty())
            throw InvalidOperationError(err_msg("join needs the same number of left and right keys, got ",
                                                ir.keys.size(), " and ", ir.keys2.size()));
          for (size_t i = 0; i < ir.keys.size(); ++i) {
            DataType lt = ir.keys[i].dtype(ls, ea), rt = ir.keys2[i].dtype(rs, ea);
            if (lt == rt) continue;
            // Numeric keys of different dtypes match on their supertype (the output keeps
            // the input columns' own dtypes); anything else fails.
            auto st = get_supertype(lt, rt);
            // Polars 2 matches integers with integers and floats with floats, never across.
            const bool same_kind = (lt.is_integer() && rt.is_integer()) || (lt.is_float() && rt.is_float());
            if (lt.is_primitive_numeric() && rt.is_primitive_numeric() && same_kind && st) {
              if (lt != *st) ir.keys[i].set_node(add_cast(ea, ir.keys[i].node(), *st));
              if (rt != *st) ir.keys2[i].set_node(add_cast(ea, ir.keys2[i].node(), *st));
              continue;
            }
            throw SchemaError(err_msg("datatypes of join keys don't match - `", ir.keys[i].output_name(),
                                        "`: ", lt, " on left does not match `", ir.keys2[i].output_name(),
                                        "`: ", rt, " on right"));
          }
        }
        ir.schema = join_schema(ls, rs, ir.keys, ir.keys2, ir.join(), ea);
        break;
      }
      case DslKind::Sort: {
        Node input = convert(*p.inputs[0]);
        const Schema& in = *schema_of(input);
        ir.kind = IRKind::Sort;
        ir.inputs = {input};
        ir.keys = exprs(p.keys, in);
        ir.sort_mut() = p.sort;
        auto expand = [&](std::vector<bool> v, const char* what) {
          if (v.size() == 1) v.assign(ir.keys.size(), v[0]);
          if (v.size() != ir.keys.size())
            throw ComputeError(err_msg("the length of `", what, "` (", v.size(),
                                       ") does not match the length of `by` (", ir.keys.size(), ")"));
          return v;
        };
        ir.sort_mut().descending = expand(ir.sort().descending, "descending");
        ir.sort_mut().nulls_last = expand(ir.sort().nulls_last, "nulls_last");
        ir.schema = schema_of(input);
        break;
      }
      case DslKind::Slice: {
        Node input = convert(*p.inputs[0]);
        ir.kind = IRKind::Slice;
        ir.inputs = {input};
        ir.offset = p.offset;
        ir.length = p.length.value_or(INT64_MAX);
        ir.schema = schema_of(input);
        break;
      }
      case DslKind::Union: {
        ir.kind = IRKind::Union;
        for (const auto& in : p.inputs) ir.inputs.push_back(convert(*in));
        if (ir.inputs.empty()) throw ComputeError("cannot concat an empty list of frames");
        const Schema& first = *schema_of(ir.inputs[0]);
        for (size_t i = 1; i < ir.inputs.size(); ++i) {
          const Schema& s = *schema_of(ir.inputs[i]);
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
        ir.schema = schema_of(ir.inputs[0]);
        break;
      }
      case DslKind::Distinct: {
        Node input = convert(*p.inputs[0]);
        const Schema& in = *schema_of(input);
        for (const auto& n : p.names) in.dtype_of(n);
        ir.kind = IRKind::Distinct;
        ir.inputs = {input};
        ir.names = p.names;
        ir.keep_mut() = p.keep;
        ir.maintain_order = p.maintain_order;
        ir.schema = schema_of(input);
        break;
      }
      case DslKind::Rename: {
        Node input = convert(*p.inputs[0]);
        const Schema& in = *schema_of(input);
        ir.kind = IRKind::MapFunction;
        ir.map = MapKind::Rename;
        ir.inputs = {input};
        ir.names = p.names;
        ir.names2_mut() = p.names2;
        std::vector<Field> fields = in.fields();
        for (size_t i = 0; i < p.names.size(); ++i) {
          auto idx = in.index_of(p.names[i]);
          if (!idx) in.dtype_of(p.names[i]);  // throws ColumnNotFoundError
          fields[*idx].name = p.names2[i];
        }
        ir.schema = std::make_shared<const Schema>(Schema(std::move(fields)));
        break;
      }
      case DslKind::Drop: {
        Node input = convert(*p.inputs[0]);
        const Schema& in = *schema_of(input);
        for (const auto& n : p.names) in.dtype_of(n);
        ir.kind = IRKind::SimpleProjection;
        ir.inputs = {input};
        Schema out;
        for (const auto& f : in.fields())
          if (std::find(p.names.begin(), p.names.end(), f.name) == p.names.end()) out.push(f);
        ir.schema = std::make_shared<const Schema>(std::move(out));
        break;
      }
      case DslKind::WithRowIndex: {
        Node input = convert(*p.inputs[0]);
        const Schema& in = *schema_of(input);
        ir.kind = IRKind::MapFunction;
        ir.map = MapKind::RowIndex;
        ir.inputs = {input};
        ir.names = p.names;
        ir.offset = p.offset;
        Schema out;
        out.push(Field{p.names[0], DataType::uint32()});
        for (const auto& f : in.fields()) out.push(f);  // DuplicateError if the name exists
        ir.schema = std::make_shared<const Schema>(std::move(out));
        break;
      }
      case DslKind::Explode: {
        Node input = convert(*p.inputs[0]);
        if (p.names.empty()) throw InvalidOperationError("no columns provided in explode");
        ir.kind = IRKind::MapFunction;
        ir.map = MapKind::Explode;
        ir.inputs = {input};
        // Each column once, in the order given.
        for (const auto& n : p.names)
          if (std::find(ir.names.begin(), ir.names.end(), n) == ir.names.end()) ir.names.push_back(n);
        ir.explode = p.explode;
        ir.schema = explode_schema(*schema_of(input), ir.names);
        break;
      }
    }
    return lp.add(std::move(ir));
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
    if (f.dtype.id() != TypeId::List)
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
