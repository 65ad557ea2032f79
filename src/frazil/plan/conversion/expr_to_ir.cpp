#include "frazil/plan/conversion/expr_to_ir.hpp"

#include <algorithm>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "frazil/compute/string/string_util.hpp"
#include "frazil/core/error.hpp"
#include "frazil/dsl/struct_namespace.hpp"

namespace frazil::plan {

using dsl::Expr;
using dsl::ExprKind;
using dsl::ExprNode;

namespace {

// The columns a multi-output leaf stands for; nullopt for an ordinary node.
std::optional<std::vector<std::string>> leaf_columns(const Expr& leaf, const Schema& schema) {
  // exclude() over exclude() over ... a selection: the selection's columns, then each
  // exclusion from the innermost out (a loop: such a chain may be long).
  std::vector<const Expr*> excludes;
  const Expr* e = &leaf;
  while (e->kind() == ExprKind::Exclude) {
    excludes.push_back(e);
    e = &e->inputs()[0];
  }
  std::vector<std::string> out;
  switch (e->kind()) {
    case ExprKind::Wildcard: out = schema.names(); break;
    case ExprKind::Selector:
      out = (*e->node().select)(schema);
      for (const auto& n : out) schema.dtype_of(n);
      break;
    case ExprKind::Columns:
      for (const auto& n : e->node().names) schema.dtype_of(n);
      out = e->node().names;
      break;
    case ExprKind::Nth: {
      int64_t i = e->node().literal.scalar.as_int64();
      int64_t w = static_cast<int64_t>(schema.size());
      if (i < 0) i += w;
      if (i < 0 || i >= w) throw ColumnNotFoundError(err_msg("nth(", e->node().literal.scalar.as_int64(), ") is out of bounds for a schema of ", w, " columns"));
      out = {schema.field(i).name};
      break;
    }
    default:
      if (!excludes.empty()) throw InvalidOperationError("exclude() must follow a multi-column selection like col(\"*\")");
      return std::nullopt;
  }
  for (auto it = excludes.rbegin(); it != excludes.rend(); ++it) {
    const auto& names = (*it)->node().names;
    std::vector<std::string> kept;
    for (auto& n : out)
      if (std::find(names.begin(), names.end(), n) == names.end()) kept.push_back(std::move(n));
    out = std::move(kept);
  }
  return out;
}

bool is_multi_output(ExprKind kind) {
  return kind == ExprKind::Wildcard || kind == ExprKind::Columns || kind == ExprKind::Exclude ||
         kind == ExprKind::Nth || kind == ExprKind::Selector;
}

bool expands_inputs(const Expr& e) {
  return e.kind() == ExprKind::Function && e.node().function.spec && e.node().function.spec->expand_inputs;
}

// Finds the first multi-output node (depth-first, left to right): a multi-column leaf, a
// struct's fields (once its input has none), or a function that takes a selection's
// columns as its inputs (pl.struct(pl.all())). A subtree shared by several parents is
// searched once: it had none the first time.
const Expr* find_multi(const Expr& root) {
  std::unordered_set<const ExprNode*> seen;
  std::vector<const Expr*> stack{&root};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (is_multi_output(e->kind())) return e;
    if (e->kind() == ExprKind::StructFields) {
      const Expr* inner = find_multi(e->inputs()[0]);
      return inner ? inner : e;
    }
    if (expands_inputs(*e)) {
      for (const auto& in : e->inputs())
        if (find_multi(in)) return e;
      continue;
    }
    if (e->inputs().empty() || !seen.insert(&e->node()).second) continue;
    for (auto it = e->inputs().rbegin(); it != e->inputs().rend(); ++it) stack.push_back(&*it);
  }
  return nullptr;
}

// Two multi-column leaves that stand for the same columns (col("*") twice, the same names,
// the same selector).
bool same_selection(const Expr& a, const Expr& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ExprKind::Wildcard: return true;
    case ExprKind::Columns: return a.node().names == b.node().names;
    case ExprKind::Selector: return !a.node().names[0].empty() && a.node().names == b.node().names;
    case ExprKind::Nth: return a.node().literal == b.node().literal;
    default: return false;
  }
}

// Copies the paths from `root` to `leaf` (bottom-up, with an explicit stack), memoized per
// node so that a shared subtree is copied once and stays shared.
Expr replace_leaf(const Expr& root, const Expr* leaf, const Expr& with) {
  std::unordered_map<const ExprNode*, Expr> memo;
  // Every occurrence of the same selection expands in lockstep, as in Polars:
  // when(cs.float() > 0).then(cs.float()) is one expression per float column.
  auto is_leaf = [&](const Expr& e) { return &e == leaf || &e.node() == &leaf->node() || same_selection(e, *leaf); };
  auto done = [&](const Expr& e) -> const Expr* {
    auto it = memo.find(&e.node());
    return it == memo.end() ? nullptr : &it->second;
  };
  // The result for `e` once its inputs have theirs (leaves and input-less nodes directly).
  auto result = [&](const Expr& e) -> Expr {
    if (is_leaf(e)) return with;
    if (e.inputs().empty()) return e;
    return *done(e);
  };
  std::vector<std::pair<const Expr*, bool>> stack{{&root, false}};
  while (!stack.empty()) {
    auto [e, expanded] = stack.back();
    stack.pop_back();
    if (is_leaf(*e) || e->inputs().empty() || done(*e)) continue;
    if (!expanded) {
      stack.emplace_back(e, true);
      for (auto it = e->inputs().rbegin(); it != e->inputs().rend(); ++it) stack.emplace_back(&*it, false);
      continue;
    }
    ExprNode n = e->node();
    bool changed = false;
    // e's own inputs: `leaf` points into them, not into the copy `n`.
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      const Expr& in = e->inputs()[i];
      Expr r = result(in);
      changed |= r.valid() && &r.node() != &in.node();
      n.inputs[i] = std::move(r);
    }
    memo.emplace(&e->node(), changed ? Expr::make(std::move(n)) : *e);
  }
  return result(root);
}

// The column of exactly this name (a column named "*" is not the wildcard col("*") is).
Expr column_named(const std::string& name) {
  ExprNode n;
  n.kind = ExprKind::Column;
  n.names = {name};
  return Expr::make(std::move(n));
}

// The fields of the struct `of` that `patterns` select ("*", ^...$ regexes, plain names).
std::vector<std::string> struct_fields_matching(const Expr& of, const std::vector<std::string>& patterns,
                                                const Schema& schema) {
  ExprArena arena;
  const ExprIR ir = to_expr_ir(of, arena, schema);
  const DataType dtype = node_dtype(ir.node(), arena, schema);
  if (dtype.id() != TypeId::Struct)
    throw SchemaError(err_msg("invalid series dtype: expected `Struct`, got `", dtype.short_name(), "` for `", of.to_string(), "`"));
  // Polars selects: the fields any pattern picks, in the struct's field order.
  std::vector<bool> picked(dtype.fields().size(), false);
  for (const auto& p : patterns) {
    const bool regex = p.size() >= 2 && p.front() == '^' && p.back() == '$';
    std::unique_ptr<RE2> re = regex ? compute::detail::compile_regex(p) : nullptr;
    bool found = false;
    for (size_t i = 0; i < dtype.fields().size(); ++i) {
      const std::string& name = dtype.fields()[i].name;
      if (p == "*" || (re && RE2::PartialMatch(compute::detail::piece(name), *re)) || (!regex && name == p)) {
        picked[i] = true;
        found = true;
      }
    }
    if (!found && p != "*" && !regex) throw StructFieldNotFoundError(err_msg("field not found: ", p));
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < picked.size(); ++i)
    if (picked[i]) out.push_back(dtype.fields()[i].name);
  return out;
}

struct Converted {
  Node node;
  OutputName name;
};

// The column a name.keep() names its output after: the first column of its input
// (depth-first, left to right), as Polars' root name.
std::string root_column_name(const Expr& keep) {
  std::vector<const Expr*> stack{&keep.inputs()[0]};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (e->kind() == ExprKind::Column) return e->node().names[0];
    for (auto it = e->inputs().rbegin(); it != e->inputs().rend(); ++it) stack.push_back(&*it);
  }
  throw ComputeError(err_msg("name.keep(): `", keep.to_string(), "` has no root column to take its name from"));
}

// DSL -> AExpr memoized by DSL node and context: a subtree the user shared (`c + c`) is
// converted once and shared in the arena too, so nested sharing stays linear. The context
// (filter predicate, aggregation) is part of the key because the simplification rules
// rewrite a node in place according to it: one arena node never serves two contexts.
class Converter {
 public:
  Converter(ExprArena& arena, const Schema& schema) : arena_(arena), schema_(schema) {}

  // Post-order with an explicit stack: a node is converted once its inputs are.
  Converted convert(const Expr& root, ConversionContext ctx) {
    struct Frame {
      const Expr* e;
      ConversionContext ctx;
      size_t results_base;  // where this node's inputs' results start in `results`
      bool expanded;
    };
    std::vector<Frame> stack{{&root, ctx, 0, false}};
    std::vector<Converted> results;
    while (!stack.empty()) {
      Frame& f = stack.back();
      const ExprNode& n = f.e->node();
      const Key key{&n, f.ctx.filter_predicate, f.ctx.in_aggregation};
      if (!f.expanded) {
        if (auto it = memo_.find(key); it != memo_.end()) {
          results.push_back(it->second);
          stack.pop_back();
          continue;
        }
        if (has_converted_inputs(n.kind)) {
          f.expanded = true;
          f.results_base = results.size();
          // Alias keeps the context; other nodes pass on their inputs' (AND/OR, aggregations).
          const bool naming = n.kind == ExprKind::Alias || n.kind == ExprKind::RenameAlias || n.kind == ExprKind::KeepName;
          const ConversionContext in_ctx = naming ? f.ctx : child_context(n, f.ctx);
          const Expr* e = f.e;
          // A function's element inputs (list.eval's expression) are kept aside, not converted here.
          const size_t frame_inputs = frame_input_count(n);
          for (size_t i = frame_inputs; i-- > 0;) stack.push_back({&e->inputs()[i], in_ctx, 0, false});
          continue;
        }
      }
      const size_t base = f.expanded ? f.results_base : results.size();
      Converted c = convert_node(*f.e, std::span<const Converted>(results.data() + base, results.size() - base));
      results.resize(base);
      memo_.emplace(key, c);
      results.push_back(c);
      stack.pop_back();
    }
    return results.back();
  }

 private:
  struct Key {
    const ExprNode* node;
    bool filter_predicate;
    bool in_aggregation;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<const void*>()(k.node) * 4 + k.filter_predicate * 2 + k.in_aggregation;
    }
  };

  // The context of a node's inputs, as ConversionOptimizer::visit passes it down.
  static ConversionContext child_context(const ExprNode& n, ConversionContext ctx) {
    const bool and_or = n.kind == ExprKind::BinaryExpr && (n.op == dsl::Operator::And || n.op == dsl::Operator::Or);
    ctx.filter_predicate = ctx.filter_predicate && and_or;
    if (n.kind == ExprKind::Agg || n.kind == ExprKind::Window) ctx.in_aggregation = false;
    return ctx;
  }

  // The inputs converted over the frame: all but a function's InputRole::Element inputs.
  static size_t frame_input_count(const ExprNode& n) {
    if (n.kind != ExprKind::Function || !n.function.spec) return n.inputs.size();
    size_t k = 0;
    while (k < n.inputs.size() && n.function.spec->role(k) != functions::InputRole::Element) ++k;
    return k;
  }

  // Whether a node's conversion needs its inputs converted first.
  static bool has_converted_inputs(ExprKind kind) {
    switch (kind) {
      case ExprKind::Column:
      case ExprKind::Literal:
      case ExprKind::Len:
      case ExprKind::Wildcard:
      case ExprKind::Columns:
      case ExprKind::Exclude:
      case ExprKind::Nth:
      case ExprKind::Selector:
      case ExprKind::Field: return false;
      default: return true;
    }
  }

  // One node over its inputs' conversions (in input order).
  Converted convert_node(const Expr& e, std::span<const Converted> children) {
    const ExprNode& n = e.node();
    AExpr out;
    OutputName name;
    switch (n.kind) {
      case ExprKind::Column:
        schema_.dtype_of(n.names[0]);  // ColumnNotFoundError early, naming the column
        out = AExpr::column(n.names[0]);
        name = OutputName{OutputNameKind::ColumnLhs, n.names[0]};
        break;
      case ExprKind::Literal:
        out = AExpr::literal_value(n.literal);
        name = OutputName{OutputNameKind::LiteralLhs, "literal"};
        break;
      case ExprKind::Alias: return Converted{children[0].node, OutputName{OutputNameKind::Alias, n.names[0]}};
      case ExprKind::RenameAlias:
        return Converted{children[0].node, OutputName{OutputNameKind::Alias, (*n.rename)(children[0].name.name)}};
      case ExprKind::KeepName: return Converted{children[0].node, OutputName{OutputNameKind::Alias, root_column_name(e)}};
      case ExprKind::Field:
        throw InvalidOperationError(err_msg("pl.field(\"", n.names[0], "\") is only valid inside struct.with_fields or struct.eval"));
      case ExprKind::Len:
        out.kind = AExprKind::Len;
        name = OutputName{OutputNameKind::Field, "len"};
        break;
      case ExprKind::Wildcard:
      case ExprKind::Columns:
      case ExprKind::Exclude:
      case ExprKind::Nth:
      case ExprKind::Selector:
      case ExprKind::StructFields:
        throw InternalError("multi-output expression reached conversion unexpanded");
      default: {
        out.kind = [&] {
          switch (n.kind) {
            case ExprKind::BinaryExpr: return AExprKind::BinaryExpr;
            case ExprKind::Cast: return AExprKind::Cast;
            case ExprKind::Agg: return AExprKind::Agg;
            case ExprKind::Ternary: return AExprKind::Ternary;
            case ExprKind::Function: return AExprKind::Function;
            case ExprKind::Sort: return AExprKind::Sort;
            case ExprKind::SortBy: return AExprKind::SortBy;
            case ExprKind::Filter: return AExprKind::Filter;
            case ExprKind::Window: return AExprKind::Window;
            default: return AExprKind::Len;
          }
        }();
        out.inputs.reserve(children.size());
        for (const auto& c : children) out.inputs.push_back(c.node);
        out.op = n.op;
        out.strict = n.strict;
        out.agg = n.agg;
        // The out-of-line attributes only where the kind has them: most nodes have none.
        if (out.kind == AExprKind::Cast) out.dtype_mut() = n.dtype;
        if (out.kind == AExprKind::Agg) out.agg_options_mut() = n.agg_options;
        if (out.kind == AExprKind::Function) {
          out.function_mut() = n.function;
          for (size_t i = frame_input_count(n); i < n.inputs.size(); ++i) out.element_exprs_mut().push_back(n.inputs[i]);
          if (n.function.spec->bind_names) {
            std::vector<std::string> names;
            for (const auto& c : children) names.push_back(c.name.name);
            out.function_mut().args = n.function.spec->bind_names(n.function.args, names);
          }
        }
        if (out.kind == AExprKind::Sort || out.kind == AExprKind::SortBy) out.sort_mut() = n.sort;
        if (out.kind == AExprKind::Window && !(n.window == dsl::WindowOptions{})) out.window_mut() = n.window;
        // A selection that expanded to no column left the node without inputs
        // (pl.struct(pl.exclude("a", "b")) of a frame of a and b): an error, as in Polars.
        if (children.empty())
          throw InvalidOperationError(
              err_msg("expression `", e.to_string(), "` has no input: its column selection expanded to no column"));
        // Polars names a ternary after its `then` branch, everything else after input 0.
        name = children[n.kind == ExprKind::Ternary ? 1 : 0].name;
        if (name.kind == OutputNameKind::Alias) name.kind = OutputNameKind::ColumnLhs;
        break;
      }
    }
    return Converted{arena_.add(std::move(out)), std::move(name)};
  }

  ExprArena& arena_;
  const Schema& schema_;
  std::unordered_map<Key, Converted, KeyHash> memo_;
};

// One node over the conversions of its inputs, which `memo` holds.
Expr node_to_expr_once(Node node, const ExprArena& arena, const std::unordered_map<uint32_t, Expr>& memo) {
  const AExpr& a = arena.get(node);
  ExprNode n;
  n.inputs.reserve(a.inputs.size());
  for (Node in : a.inputs) n.inputs.push_back(memo.at(in.idx));
  Expr out;
  switch (a.kind) {
    case AExprKind::Column: out = dsl::col(a.name); break;
    case AExprKind::Literal: n.kind = ExprKind::Literal; n.literal = a.literal(); break;
    case AExprKind::BinaryExpr: n.kind = ExprKind::BinaryExpr; n.op = a.op; break;
    case AExprKind::Cast: n.kind = ExprKind::Cast; n.dtype = a.dtype(); n.strict = a.strict; break;
    case AExprKind::Agg: n.kind = ExprKind::Agg; n.agg = a.agg; n.agg_options = a.agg_options(); break;
    case AExprKind::Ternary: n.kind = ExprKind::Ternary; break;
    case AExprKind::Function:
      n.kind = ExprKind::Function;
      n.function = a.function();
      for (const Expr& x : a.element_exprs()) n.inputs.push_back(x);  // list.eval's expression
      break;
    case AExprKind::Len: n.kind = ExprKind::Len; break;
    case AExprKind::Sort: n.kind = ExprKind::Sort; n.sort = a.sort(); break;
    case AExprKind::SortBy: n.kind = ExprKind::SortBy; n.sort = a.sort(); break;
    case AExprKind::Filter: n.kind = ExprKind::Filter; break;
    case AExprKind::Window: n.kind = ExprKind::Window; n.window = a.window(); break;
  }
  if (!out.valid()) out = Expr::make(std::move(n));
  return out;
}

// Converts every node below `root` that `memo` lacks (post-order, explicit stack).
void convert_inputs(Node root, const ExprArena& arena, std::unordered_map<uint32_t, Expr>& memo) {
  std::vector<std::pair<Node, size_t>> stack;
  for (Node in : arena.get(root).inputs)
    if (!memo.count(in.idx)) stack.emplace_back(in, 0);
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    const AExpr& e = arena.get(n);
    if (next < e.inputs.size()) {
      const Node in = e.inputs[next++];
      if (!memo.count(in.idx)) stack.emplace_back(in, 0);
      continue;
    }
    const Node done = n;
    stack.pop_back();
    if (!memo.count(done.idx)) memo.emplace(done.idx, node_to_expr_once(done, arena, memo));
  }
}

Expr node_to_expr_memo(Node node, const ExprArena& arena, std::unordered_map<uint32_t, Expr>& memo) {
  if (auto it = memo.find(node.idx); it != memo.end()) return it->second;
  convert_inputs(node, arena, memo);
  Expr out = node_to_expr_once(node, arena, memo);
  memo.emplace(node.idx, out);
  return out;
}

}  // namespace

std::vector<Expr> expand_expressions(const std::vector<Expr>& exprs, const Schema& schema) {
  std::vector<Expr> out;
  // Depth-first: an expanded expression's copies are expanded (in order) before the next.
  std::vector<Expr> pending(exprs.rbegin(), exprs.rend());
  while (!pending.empty()) {
    Expr e = std::move(pending.back());
    pending.pop_back();
    const Expr* leaf = find_multi(e);
    if (!leaf) {
      out.push_back(std::move(e));
      continue;
    }
    if (expands_inputs(*leaf)) {
      ExprNode n = leaf->node();
      n.inputs = expand_expressions(n.inputs, schema);
      pending.push_back(replace_leaf(e, leaf, Expr::make(std::move(n))));
      continue;
    }
    if (leaf->kind() == ExprKind::StructFields) {
      const Expr& of = leaf->inputs()[0];
      auto fields = struct_fields_matching(of, leaf->node().names, schema);
      for (auto it = fields.rbegin(); it != fields.rend(); ++it)
        pending.push_back(replace_leaf(e, leaf, of.struct_().field(*it)));
      continue;
    }
    auto names = *leaf_columns(*leaf, schema);
    // An alias over a multi-output expression gives every output the same name: the
    // context reports it as Polars does (select: DuplicateError, with_columns: ComputeError).
    for (auto it = names.rbegin(); it != names.rend(); ++it) pending.push_back(replace_leaf(e, leaf, column_named(*it)));
  }
  return out;
}

ExprIR to_expr_ir(const Expr& expr, ExprArena& arena, const Schema& schema, ConversionContext ctx) {
  Converted c = Converter(arena, schema).convert(expr, ctx);
  return ExprIR(c.node, std::move(c.name));
}

Expr node_to_expr(Node node, const ExprArena& arena) {
  std::unordered_map<uint32_t, Expr> memo;
  return node_to_expr_memo(node, arena, memo);
}

Expr NodeToExpr::operator()(Node node) { return node_to_expr_memo(node, arena_, memo_); }

Expr NodeToExpr::expand(Node node) {
  convert_inputs(node, arena_, memo_);
  return node_to_expr_once(node, arena_, memo_);
}

void NodeToExpr::set(Node node, Expr expr) { memo_[node.idx] = std::move(expr); }

}  // namespace frazil::plan
