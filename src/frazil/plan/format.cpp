#include "frazil/plan/format.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/conversion/join_where.hpp"
#include "frazil/plan/expr/rewrite.hpp"

namespace frazil::plan {

namespace {

// Past this many nodes once unfolded, an expression whose subtrees are shared (the arena is
// a DAG: `c = (c + c) / 2` twenty times is 2^21 nodes unfolded, 60 in the arena) prints
// each shared subexpression once, as a named definition after the expression.
constexpr uint64_t kUnfoldLimit = 4096;

// Polars' sort label: "[slice: (0, 5), maintain_order: true, descending: [true, false],
// nulls_last: [false, true]] " with only the parts that differ from a plain sort (a flag
// given once applies to every key and is shown for each).
std::string sort_options_label(const dsl::SortOptions& sort, const std::optional<std::pair<int64_t, int64_t>>& slice,
                               size_t n_keys) {
  auto flags = [&](const std::vector<bool>& v) {
    std::string out = "[";
    size_t n = v.size() == 1 ? std::max<size_t>(n_keys, 1) : v.size();
    for (size_t i = 0; i < n; ++i) out += std::string(i ? ", " : "") + (v[v.size() == 1 ? 0 : i] ? "true" : "false");
    return out + "]";
  };
  auto any = [](const std::vector<bool>& v) { return std::find(v.begin(), v.end(), true) != v.end(); };
  std::vector<std::string> parts;
  if (slice) parts.push_back("slice: (" + std::to_string(slice->first) + ", " + std::to_string(slice->second) + ")");
  if (sort.maintain_order) parts.push_back("maintain_order: true");
  if (any(sort.descending)) parts.push_back("descending: " + flags(sort.descending));
  if (any(sort.nulls_last)) parts.push_back("nulls_last: " + flags(sort.nulls_last));
  if (parts.empty()) return "";
  std::string out = "[";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + "] ";
}

std::string render_expr(Node root, const ExprArena& arena) {
  // A plain column, the commonest expression of wide selects, prints as col("name").
  if (const AExpr& e = arena.get(root); e.kind == AExprKind::Column) return "col(\"" + e.name + "\")";
  // Post-order over the DAG: unfolded sizes (saturating) and the number of parents.
  std::unordered_map<uint32_t, uint64_t> size;
  std::unordered_map<uint32_t, uint32_t> parents;
  std::vector<uint32_t> post;
  std::vector<std::pair<Node, size_t>> stack{{root, 0}};
  size.emplace(root.idx, 0);
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    const AExpr& e = arena.get(n);
    if (next < e.inputs.size()) {
      Node c = e.inputs[next++];
      ++parents[c.idx];
      if (size.emplace(c.idx, 0).second) stack.emplace_back(c, 0);
      continue;
    }
    uint64_t total = 1;
    for (Node c : e.inputs) total = std::min<uint64_t>(UINT64_MAX / 2, total + size[c.idx]);
    size[n.idx] = total;
    post.push_back(n.idx);
    stack.pop_back();
  }
  if (size[root.idx] <= kUnfoldLimit) return node_to_expr(root, arena).to_string();
  NodeToExpr convert(arena);
  std::vector<std::pair<std::string, Node>> shared;  // placeholders, innermost first
  for (uint32_t idx : post) {
    const Node n(idx);
    if (n == root || parents[idx] < 2 || arena.get(n).inputs.empty()) continue;
    std::string name = "_shared_" + std::to_string(shared.size());
    shared.emplace_back(name, n);
    convert.set(n, dsl::col(name));
  }
  std::string s = convert.expand(root).to_string();
  if (shared.empty()) return s;
  s += " WHERE [";
  for (size_t i = shared.size(); i-- > 0;)
    s += shared[i].first + " = " + convert.expand(shared[i].second).to_string() + (i ? ", " : "]");
  return s;
}

}  // namespace

std::string format_expr(const ExprIR& e, const ExprArena& arena) {
  std::string s = render_expr(e.node(), arena);
  // An output name that differs from what the expression would be called shows as alias.
  auto natural = leftmost_column(e.node(), arena);
  bool renamed = e.has_alias() || (e.output_name_inner().kind == OutputNameKind::ColumnLhs && natural &&
                                   *natural != e.output_name());
  if (renamed) s += ".alias(\"" + e.output_name() + "\")";
  return s;
}

namespace {

// A predicate prints without the parentheses around its top-level operator, as Polars does.
std::string predicate_text(const ExprIR& e, const ExprArena& arena) {
  std::string s = format_expr(e, arena);
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
  int depth = 0;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
    if (depth == 0) return s;  // the first "(" closes before the end: not one group
  }
  return s.substr(1, s.size() - 2);
}

std::string expr_list(const std::vector<ExprIR>& exprs, const ExprArena& arena) {
  std::string s = "[";
  for (size_t i = 0; i < exprs.size(); ++i) s += (i ? ", " : "") + format_expr(exprs[i], arena);
  return s + "]";
}

std::string quoted_names(const std::vector<std::string>& names, size_t max = 4) {
  std::string s = "[";
  for (size_t i = 0; i < names.size() && i < max; ++i) s += (i ? ", \"" : "\"") + names[i] + "\"";
  if (names.size() > max) s += ", ...";
  return s + "]";
}

std::string projection_text(const SchemaRef& source_schema, const std::optional<std::vector<std::string>>& projection) {
  size_t total = source_schema ? source_schema->size() : 0;
  if (!projection) return "PROJECT */" + std::to_string(total) + " COLUMNS";
  return "PROJECT" + quoted_names(*projection) + " " + std::to_string(projection->size()) + "/" +
         std::to_string(total) + " COLUMNS";
}

// What one node prints: lines of text and its inputs, in output order. An input is an
// (input index, extra indent) pair.
struct Piece {
  std::string text;
  int input = -1;
  int extra = 0;
};

std::vector<Piece> node_pieces(const IR& ir, const IRArena& lp, const ExprArena& ea, const std::string& pad,
                               bool streaming_engine) {
  std::vector<Piece> out;
  auto text = [&](std::string t) { out.push_back({std::move(t)}); };
  auto input = [&](int i, int extra) { out.push_back({"", i, extra}); };
  switch (ir.kind()) {
    case IRKind::DataFrameScan: {
      const auto& n = ir.as<DataFrameScanNode>();
      std::string line = pad + "DF " + quoted_names(n.source_schema->names()) + "; " +
                         projection_text(n.source_schema, n.projection);
      if (n.predicate) line += "; SELECTION: " + predicate_text(*n.predicate, ea);
      text(line + "\n");
      break;
    }
    case IRKind::Scan: {
      const auto& n = ir.as<ScanNode>();
      std::string fmt = dsl::scan_format_name(n.source.format);
      fmt[0] = static_cast<char>(std::toupper(fmt[0]));
      text(pad + fmt + " SCAN " + quoted_names(n.source.paths, 2) + "\n");
      text(pad + projection_text(n.source_schema, n.projection) + "\n");
      if (n.predicate) text(pad + "SELECTION: " + predicate_text(*n.predicate, ea) + "\n");
      if (n.n_rows) text(pad + "N_ROWS: " + std::to_string(*n.n_rows) + "\n");
      break;
    }
    case IRKind::Filter:
      text(pad + "FILTER " + predicate_text(ir.as<FilterNode>().predicate, ea) + "\n" + pad + "FROM\n");
      input(0, 2);
      break;
    case IRKind::Select:
      text(pad + "SELECT " + expr_list(ir.as<SelectNode>().exprs, ea) + "\n");
      input(0, 2);
      break;
    case IRKind::HStack:
      text(pad + "WITH_COLUMNS:\n" + pad + expr_list(ir.as<HStackNode>().exprs, ea) + "\n");
      input(0, 2);
      break;
    case IRKind::SimpleProjection:
      text(pad + "simple π " + std::to_string(ir.schema->size()) + "/" +
           std::to_string(lp.get(ir.inputs[0]).schema->size()) + " " + quoted_names(ir.schema->names()) + "\n");
      input(0, 2);
      break;
    case IRKind::GroupBy: {
      const auto& g = ir.as<GroupByNode>();
      text(pad + "AGGREGATE[maintain_order: " + (g.maintain_order ? "true" : "false") + "]\n" + pad + "  " +
           expr_list(g.aggs, ea) + " BY " + expr_list(g.keys, ea) + "\n" + pad + "  FROM\n");
      input(0, 4);
      break;
    }
    case IRKind::Join: {
      const auto& j = ir.as<JoinNode>();
      std::string how = compute::join_type_name(j.options.how);
      text(pad + how + " JOIN:\n" + pad + "LEFT PLAN ON: " + expr_list(j.left_on, ea) + "\n");
      input(0, 2);
      text(pad + "RIGHT PLAN ON: " + expr_list(j.right_on, ea) + "\n");
      input(1, 2);
      text(pad + "END " + how + " JOIN\n");
      break;
    }
    case IRKind::Sort: {
      const auto& sort = ir.as<SortNode>();
      text(pad + "SORT BY " + sort_options_label(sort.options, sort.slice, sort.by.size()) + expr_list(sort.by, ea) + "\n");
      input(0, 2);
      break;
    }
    case IRKind::Slice: {
      const auto& sl = ir.as<SliceNode>();
      text(pad + "SLICE[offset: " + std::to_string(sl.offset) + ", len: " + std::to_string(sl.length) + "]\n");
      input(0, 2);
      break;
    }
    case IRKind::Union:
      // Polars' bracketed options; frazil names the rechunk when one is asked for.
      text(pad + (ir.as<UnionNode>().rechunk ? "UNION[rechunk: true]\n" : "UNION\n"));
      for (size_t i = 0; i < ir.inputs.size(); ++i) {
        text(pad + "  PLAN " + std::to_string(i) + ":\n");
        input(static_cast<int>(i), 4);
      }
      text(pad + "END UNION\n");
      break;
    case IRKind::Distinct: {
      const auto& d = ir.as<DistinctNode>();
      text(pad + "UNIQUE[maintain_order: " + (d.maintain_order ? "true" : "false") + ", keep: " + d.keep + "] BY " +
           (d.subset.empty() ? std::string("None") : quoted_names(d.subset, 100)) + "\n");
      input(0, 2);
      break;
    }
    case IRKind::Rename: {
      const auto& r = ir.as<RenameNode>();
      text(pad + "RENAME " + quoted_names(r.existing, 100) + " -> " + quoted_names(r.new_names, 100) + "\n");
      input(0, 2);
      break;
    }
    case IRKind::RowIndex:
      text(pad + "ROW_INDEX " + ir.as<RowIndexNode>().name + "\n");
      input(0, 2);
      break;
    case IRKind::Explode: {
      const auto& x = ir.as<ExplodeNode>();
      text(pad + "EXPLODE " + quoted_names(x.columns, 100) + (x.options.empty_as_null ? ", empty_as_null: true" : "") +
           (x.options.keep_nulls ? "" : ", keep_nulls: false") + "\n");
      input(0, 2);
      break;
    }
    case IRKind::Cache: {
      std::ostringstream id;
      id << std::hex << ir.as<CacheNode>().id;
      text(pad + "CACHE[id: " + id.str() + "]\n");
      input(0, 2);
      break;
    }
    case IRKind::AsofJoin: {
      const auto& j = ir.as<AsofJoinNode>();
      text(pad + "ASOF JOIN:\n" + pad + "LEFT PLAN ON: [" + format_expr(j.left_on, ea) + "]\n");
      input(0, 2);
      text(pad + "RIGHT PLAN ON: [" + format_expr(j.right_on, ea) + "]\n");
      input(1, 2);
      text(pad + "END ASOF JOIN\n");
      break;
    }
    case IRKind::MergeSorted: {
      const auto& m = ir.as<MergeSortedNode>();
      text(pad + "MERGE SORTED[maintain_order: " + (m.maintain_order ? "true" : "false") + "] ON ['" + m.key +
           "']:\n" + pad + "LEFT PLAN:\n");
      input(0, 2);
      text(pad + "RIGHT PLAN:\n");
      input(1, 2);
      text(pad + "END MERGE_SORTED\n");
      break;
    }
    case IRKind::InequalityJoin: {
      const auto& j = ir.as<InequalityJoinNode>();
      if (j.nested_loop) {
        text(pad + "NESTED LOOP JOIN ON " + predicate_text(*j.predicate, ea) + ":\n" + pad + "LEFT PLAN:\n");
        input(0, 2);
        text(pad + "RIGHT PLAN:\n");
        input(1, 2);
        text(pad + "END NESTED LOOP JOIN\n");
        break;
      }
      // Polars' streaming engine runs one inequality, or a lower and an upper bound sharing
      // one side's expression, as a range join, and names each side's expressions once.
      const bool range = streaming_engine && is_range_join(j, ea);
      auto keys = [&](const std::vector<ExprIR>& on) {
        if (range && on.size() == 2 && expr_equal(on[0].node(), on[1].node(), ea)) return expr_list({on[0]}, ea);
        return expr_list(on, ea);
      };
      const std::string name = range ? "RANGE JOIN" : "IEJOIN JOIN";
      text(pad + name + ":\n" + pad + "LEFT PLAN ON: " + keys(j.left_on) + "\n");
      input(0, 2);
      text(pad + "RIGHT PLAN ON: " + keys(j.right_on) + "\n");
      input(1, 2);
      text(pad + "END " + name + "\n");
      break;
    }
    case IRKind::Invalid: text(pad + "INVALID\n"); break;
  }
  return out;
}

// Inputs are indented by their depth up to this many columns, and no further: a plan
// 100,000 steps deep would otherwise print 10^10 spaces.
constexpr int kMaxIndent = 200;

// Pre-order with an explicit stack: a plan of many thousand nodes prints without
// overflowing the call stack.
void format(Node root, const IRArena& lp, const ExprArena& ea, std::ostringstream& os, bool streaming_engine) {
  struct Pending {
    Node node;
    int indent;
    std::string text;  // printed as is when `node` is invalid
  };
  std::vector<Pending> stack{{root, 0, ""}};
  bool capped = false;
  while (!stack.empty()) {
    Pending top = std::move(stack.back());
    stack.pop_back();
    if (!top.node.valid()) {
      os << top.text;
      continue;
    }
    if (top.indent > kMaxIndent) {
      if (!capped) os << std::string(kMaxIndent, ' ') << "(deeper inputs are not indented further)\n";
      capped = true;
      top.indent = kMaxIndent;
    }
    const IR& ir = lp.get(top.node);
    std::vector<Piece> pieces = node_pieces(ir, lp, ea, std::string(top.indent, ' '), streaming_engine);
    for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) {
      if (it->input < 0) stack.push_back({Node(), 0, std::move(it->text)});
      else stack.push_back({ir.inputs[it->input], top.indent + it->extra, ""});
    }
  }
}

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string node_label(const IR& ir, const ExprArena& ea) {
  auto sigma = [&](const std::optional<ExprIR>& p) { return p ? "\\nσ " + dot_escape(format_expr(*p, ea)) : std::string(); };
  switch (ir.kind()) {
    case IRKind::DataFrameScan: {
      const auto& n = ir.as<DataFrameScanNode>();
      return "TABLE\\nπ " + std::string(n.projection ? std::to_string(n.projection->size()) : "*") + "/" +
             std::to_string(n.source_schema->size()) + sigma(n.predicate);
    }
    case IRKind::Scan: {
      const auto& n = ir.as<ScanNode>();
      return std::string(dsl::scan_format_name(n.source.format)) + " SCAN" + sigma(n.predicate);
    }
    case IRKind::Filter: return "FILTER BY " + dot_escape(format_expr(ir.as<FilterNode>().predicate, ea));
    case IRKind::Select: return "SELECT " + dot_escape(expr_list(ir.as<SelectNode>().exprs, ea));
    case IRKind::HStack: {
      std::vector<std::string> names;
      for (const auto& e : ir.as<HStackNode>().exprs) names.push_back(e.output_name());
      return "WITH COLUMNS " + dot_escape(quoted_names(names));
    }
    case IRKind::SimpleProjection: return "π " + std::to_string(ir.schema->size());
    case IRKind::GroupBy: {
      const auto& g = ir.as<GroupByNode>();
      return "AGG " + dot_escape(expr_list(g.aggs, ea)) + "\\nBY " + dot_escape(expr_list(g.keys, ea));
    }
    case IRKind::Join: {
      const auto& j = ir.as<JoinNode>();
      return std::string(compute::join_type_name(j.options.how)) + " JOIN\\nleft: " + dot_escape(expr_list(j.left_on, ea)) +
             "\\nright: " + dot_escape(expr_list(j.right_on, ea));
    }
    case IRKind::Sort: return "SORT BY " + dot_escape(expr_list(ir.as<SortNode>().by, ea));
    case IRKind::Slice: {
      const auto& sl = ir.as<SliceNode>();
      return "SLICE offset: " + std::to_string(sl.offset) + "; len: " + std::to_string(sl.length);
    }
    case IRKind::Union: return "UNION";
    case IRKind::Distinct: return "UNIQUE";
    case IRKind::Rename: return "RENAME";
    case IRKind::RowIndex: return "ROW INDEX";
    case IRKind::Explode: return "EXPLODE";
    case IRKind::Cache: return "CACHE";
    case IRKind::AsofJoin: {
      const auto& j = ir.as<AsofJoinNode>();
      return "ASOF JOIN\\nleft: " + dot_escape(format_expr(j.left_on, ea)) + "\\nright: " +
             dot_escape(format_expr(j.right_on, ea));
    }
    case IRKind::MergeSorted: return "MERGE SORTED ON " + dot_escape(ir.as<MergeSortedNode>().key);
    case IRKind::InequalityJoin: return ir.as<InequalityJoinNode>().nested_loop ? "NESTED LOOP JOIN" : "IEJOIN JOIN";
    case IRKind::Invalid: return "INVALID";
  }
  return "?";
}

}  // namespace

std::string explain_plan(Node root, const IRArena& lp_arena, const ExprArena& expr_arena, bool streaming_engine) {
  std::ostringstream os;
  format(root, lp_arena, expr_arena, os, streaming_engine);
  std::string s = os.str();
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string plan_to_dot(Node root, const IRArena& lp, const ExprArena& ea) {
  std::ostringstream os;
  os << "graph  polars_query {\n";
  // Depth-first, numbering nodes as they are visited (an explicit stack: deep plans print
  // without overflowing the call stack).
  std::vector<std::string> edges;
  struct Pending {
    Node node;
    int parent;
  };
  std::vector<Pending> stack{{root, -1}};
  int next_id = 0;
  while (!stack.empty()) {
    const Pending top = stack.back();
    stack.pop_back();
    const int id = next_id++;
    const IR& ir = lp.get(top.node);
    os << "  p" << id << "[label=\"" << node_label(ir, ea) << "\"]\n";
    if (top.parent >= 0) edges.push_back("  p" + std::to_string(top.parent) + " -- p" + std::to_string(id));
    for (auto it = ir.inputs.rbegin(); it != ir.inputs.rend(); ++it) stack.push_back({*it, id});
  }
  for (const auto& e : edges) os << e << "\n";
  os << "}\n";
  return os.str();
}

}  // namespace frazil::plan
