#include "frazil/plan/conversion/plan_context.hpp"

#include "frazil/plan/format.hpp"

namespace frazil::plan {

namespace {
constexpr const char* kMarker = "\n\nResolved plan until failure:\n";
}

const char* resolving_name(dsl::DslKind kind) {
  using dsl::DslKind;
  switch (kind) {
    case DslKind::DataFrameScan: return "df";
    case DslKind::Scan: return "scan";
    case DslKind::Filter: return "filter";
    case DslKind::Select: return "select";
    case DslKind::WithColumns: return "with_columns";
    case DslKind::GroupBy: return "group_by";
    case DslKind::Join: return "join";
    case DslKind::Sort: return "sort";
    case DslKind::Slice: return "slice";
    case DslKind::Union: return "union";
    case DslKind::Distinct: return "unique";
    case DslKind::Rename: return "rename";
    case DslKind::Drop: return "drop";
    case DslKind::WithRowIndex: return "with_row_index";
    case DslKind::Explode: return "explode";
    case DslKind::AsofJoin: return "join";
    case DslKind::MergeSorted: return "merge_sorted";
    case DslKind::JoinWhere: return "join";
  }
  return "plan";
}

bool has_plan_context(const std::string& message) { return message.find(kMarker) != std::string::npos; }

void rethrow_with_plan_context(const Error& e, dsl::DslKind kind, std::optional<Node> input,
                               const IRArena& lp_arena, const ExprArena& expr_arena) {
  const std::string message = e.what();
  if (e.kind() == ErrorKind::Internal || e.kind() == ErrorKind::OutOfMemory || e.kind() == ErrorKind::IO ||
      has_plan_context(message))
    throw;
  std::string resolved;
  if (input) {
    try {
      resolved = explain_plan(*input, lp_arena, expr_arena);
    } catch (const std::exception&) {
      resolved.clear();  // a half-built input cannot be printed: say where, not what
    }
    while (!resolved.empty() && resolved.back() == '\n') resolved.pop_back();
  }
  std::string out = message + kMarker + "\n\t---> FAILED HERE RESOLVING '" + resolving_name(kind) + "' <---\n";
  if (!resolved.empty()) out += resolved + "\n";
  out += err_msg("\nThis error occurred with the following context stack:\n\t[1] '", resolving_name(kind), "'\n");
  throw_error(e.kind(), out);
}

}  // namespace frazil::plan
