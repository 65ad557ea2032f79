#include "frazil/api/monitor/node_label.hpp"

#include <algorithm>
#include <cctype>

#include "frazil/plan/format.hpp"

namespace frazil::monitor {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// "a, b" of up to four expressions, then ", ...".
std::string expr_names(const std::vector<plan::ExprIR>& exprs) {
  std::string out;
  for (size_t i = 0; i < exprs.size() && i < 4; ++i) out += (i ? ", " : "") + exprs[i].output_name();
  if (exprs.size() > 4) out += ", ...";
  return out;
}

std::string file_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string node_label(const plan::IR& ir) {
  using plan::IRKind;
  switch (ir.kind()) {
    case IRKind::DataFrameScan: return "df";
    case IRKind::Scan: {
      const auto& source = ir.as<plan::ScanNode>().source;
      const auto& paths = source.paths;
      std::string what = paths.empty() ? "" : file_name(paths[0]);
      if (paths.size() > 1) what += ", +" + std::to_string(paths.size() - 1) + " files";
      return std::string(dsl::scan_format_name(source.format)) + " scan (" + what + ")";
    }
    case IRKind::Filter: return "filter";
    case IRKind::Select: return "select(" + expr_names(ir.as<plan::SelectNode>().exprs) + ")";
    case IRKind::HStack: return "with_columns(" + expr_names(ir.as<plan::HStackNode>().exprs) + ")";
    case IRKind::SimpleProjection: return "simple_projection";
    case IRKind::GroupBy: return "group_by(" + expr_names(ir.as<plan::GroupByNode>().keys) + ")";
    case IRKind::Join: return lower(compute::join_type_name(ir.as<plan::JoinNode>().options.how)) + " join";
    case IRKind::Sort: {
      const auto& sort = ir.as<plan::SortNode>();
      return std::string(sort.slice ? "top_k(" : "sort(") + expr_names(sort.by) + ")";
    }
    case IRKind::Slice: return "slice";
    case IRKind::Union: return "union";
    case IRKind::Distinct: return "unique";
    case IRKind::Rename: return "rename";
    case IRKind::RowIndex: return "with_row_index";
    case IRKind::Explode: return "explode";
    case IRKind::Cache: return "cache";
    case IRKind::AsofJoin: return "join_asof";
    case IRKind::MergeSorted: return "merge_sorted";
    case IRKind::InequalityJoin: return "join_where";
    case IRKind::Invalid: break;
  }
  return "node";
}

}  // namespace frazil::monitor
