#include "frazil/plan/format.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "frazil/plan/conversion/expr_to_ir.hpp"

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

std::string projection_text(const IR& ir) {
  size_t total = ir.source_schema() ? ir.source_schema()->size() : 0;
  if (!ir.projection()) return "PROJECT */" + std::to_string(total) + " COLUMNS";
  return "PROJECT" + quoted_names(*ir.projection()) + " " + std::to_string(ir.projection()->size()) + "/" +
         std::to_string(total) + " COLUMNS";
}

void format(Node node, const IRArena& lp, const ExprArena& ea, int indent, std::ostringstream& os) {
  const IR& ir = lp.get(node);
  std::string pad(indent, ' ');
  auto child = [&](size_t i, int extra) { format(ir.inputs[i], lp, ea, indent + extra, os); };
  switch (ir.kind) {
    case IRKind::DataFrameScan:
      os << pad << "DF " << quoted_names(ir.source_schema()->names()) << "; " << projection_text(ir);
      if (ir.predicate) os << "; SELECTION: " << predicate_text(*ir.predicate, ea);
      os << "\n";
      break;
    case IRKind::Scan: {
      std::string fmt = dsl::scan_format_name(ir.scan().format);
      fmt[0] = static_cast<char>(std::toupper(fmt[0]));
      if (fmt == "Csv") fmt = "Csv";
      os << pad << fmt << " SCAN " << quoted_names(ir.scan().paths, 2) << "\n";
      os << pad << projection_text(ir) << "\n";
      if (ir.predicate) os << pad << "SELECTION: " << predicate_text(*ir.predicate, ea) << "\n";
      if (ir.n_rows()) os << pad << "N_ROWS: " << *ir.n_rows() << "\n";
      break;
    }
    case IRKind::Filter:
      os << pad << "FILTER " << predicate_text(*ir.predicate, ea) << "\n" << pad << "FROM\n";
      child(0, 2);
      break;
    case IRKind::Select:
      os << pad << "SELECT " << expr_list(ir.exprs, ea) << "\n";
      child(0, 2);
      break;
    case IRKind::HStack:
      os << pad << "WITH_COLUMNS:\n" << pad << expr_list(ir.exprs, ea) << "\n";
      child(0, 2);
      break;
    case IRKind::SimpleProjection:
      os << pad << "simple π " << ir.schema->size() << "/" << lp.get(ir.inputs[0]).schema->size() << " "
         << quoted_names(ir.schema->names()) << "\n";
      child(0, 2);
      break;
    case IRKind::GroupBy:
      os << pad << "AGGREGATE[maintain_order: " << (ir.maintain_order ? "true" : "false") << "]\n"
         << pad << "  " << expr_list(ir.exprs, ea) << " BY " << expr_list(ir.keys, ea) << "\n"
         << pad << "  FROM\n";
      child(0, 4);
      break;
    case IRKind::Join: {
      std::string how = compute::join_type_name(ir.join().how);
      os << pad << how << " JOIN:\n" << pad << "LEFT PLAN ON: " << expr_list(ir.keys, ea) << "\n";
      child(0, 2);
      os << pad << "RIGHT PLAN ON: " << expr_list(ir.keys2, ea) << "\n";
      child(1, 2);
      os << pad << "END " << how << " JOIN\n";
      break;
    }
    case IRKind::Sort:
      os << pad << "SORT BY " << sort_options_label(ir.sort(), ir.sort_slice(), ir.keys.size())
         << expr_list(ir.keys, ea) << "\n";
      child(0, 2);
      break;
    case IRKind::Slice:
      os << pad << "SLICE[offset: " << ir.offset << ", len: " << ir.length << "]\n";
      child(0, 2);
      break;
    case IRKind::Union:
      os << pad << "UNION\n";
      for (size_t i = 0; i < ir.inputs.size(); ++i) {
        os << pad << "  PLAN " << i << ":\n";
        child(i, 4);
      }
      os << pad << "END UNION\n";
      break;
    case IRKind::Distinct:
      os << pad << "UNIQUE[maintain_order: " << (ir.maintain_order ? "true" : "false") << ", keep: " << ir.keep()
         << "] BY " << (ir.names.empty() ? std::string("None") : quoted_names(ir.names, 100)) << "\n";
      child(0, 2);
      break;
    case IRKind::MapFunction:
      if (ir.map == MapKind::Rename) os << pad << "RENAME " << quoted_names(ir.names, 100) << " -> " << quoted_names(ir.names2(), 100) << "\n";
      else if (ir.map == MapKind::RowIndex) os << pad << "ROW_INDEX " << ir.names[0] << "\n";
      else
        os << pad << "EXPLODE " << quoted_names(ir.names, 100) << (ir.explode.empty_as_null ? ", empty_as_null: true" : "")
           << (ir.explode.keep_nulls ? "" : ", keep_nulls: false") << "\n";
      child(0, 2);
      break;
    case IRKind::Cache:
      os << pad << "CACHE[id: " << std::hex << ir.cache_id << std::dec << "]\n";
      child(0, 2);
      break;
    case IRKind::Invalid: os << pad << "INVALID\n"; break;
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
  switch (ir.kind) {
    case IRKind::DataFrameScan: return "TABLE\\nπ " + std::string(ir.projection() ? std::to_string(ir.projection()->size()) : "*") + "/" + std::to_string(ir.source_schema()->size()) + (ir.predicate ? "\\nσ " + dot_escape(format_expr(*ir.predicate, ea)) : "");
    case IRKind::Scan: return std::string(dsl::scan_format_name(ir.scan().format)) + " SCAN" + (ir.predicate ? "\\nσ " + dot_escape(format_expr(*ir.predicate, ea)) : "");
    case IRKind::Filter: return "FILTER BY " + dot_escape(format_expr(*ir.predicate, ea));
    case IRKind::Select: return "SELECT " + dot_escape(expr_list(ir.exprs, ea));
    case IRKind::HStack: return "WITH COLUMNS " + dot_escape(quoted_names([&] { std::vector<std::string> v; for (auto& e : ir.exprs) v.push_back(e.output_name()); return v; }()));
    case IRKind::SimpleProjection: return "π " + std::to_string(ir.schema->size());
    case IRKind::GroupBy: return "AGG " + dot_escape(expr_list(ir.exprs, ea)) + "\\nBY " + dot_escape(expr_list(ir.keys, ea));
    case IRKind::Join: return std::string(compute::join_type_name(ir.join().how)) + " JOIN\\nleft: " + dot_escape(expr_list(ir.keys, ea)) + "\\nright: " + dot_escape(expr_list(ir.keys2, ea));
    case IRKind::Sort: return "SORT BY " + dot_escape(expr_list(ir.keys, ea));
    case IRKind::Slice: return "SLICE offset: " + std::to_string(ir.offset) + "; len: " + std::to_string(ir.length);
    case IRKind::Union: return "UNION";
    case IRKind::Distinct: return "UNIQUE";
    case IRKind::MapFunction: return "MAP";
    case IRKind::Cache: return "CACHE";
    case IRKind::Invalid: return "INVALID";
  }
  return "?";
}

}  // namespace

std::string explain_plan(Node root, const IRArena& lp_arena, const ExprArena& expr_arena) {
  std::ostringstream os;
  format(root, lp_arena, expr_arena, 0, os);
  std::string s = os.str();
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string plan_to_dot(Node root, const IRArena& lp, const ExprArena& ea) {
  std::ostringstream os;
  os << "graph  polars_query {\n";
  std::vector<std::pair<Node, int>> stack{{root, 0}};
  int next_id = 0;
  std::vector<std::string> edges;
  // Depth-first, numbering nodes as they are visited.
  std::function<int(Node)> visit = [&](Node n) -> int {
    int id = next_id++;
    const IR& ir = lp.get(n);
    os << "  p" << id << "[label=\"" << node_label(ir, ea) << "\"]\n";
    for (Node in : ir.inputs) {
      int c = visit(in);
      edges.push_back("  p" + std::to_string(id) + " -- p" + std::to_string(c));
    }
    return id;
  };
  visit(root);
  for (const auto& e : edges) os << e << "\n";
  os << "}\n";
  return os.str();
}

}  // namespace frazil::plan
