#include "frazil/serde/expr_codec.hpp"

#include <utility>

#include "frazil/core/error.hpp"
#include "frazil/dsl/name_namespace.hpp"
#include "frazil/serde/expr_parts.hpp"
#include "frazil/serde/value_codec.hpp"

namespace frazil::serde {

using dsl::Expr;
using dsl::ExprKind;
using dsl::ExprNode;

namespace {

constexpr uint8_t kExprKindCount = static_cast<uint8_t>(ExprKind::Field) + 1;
constexpr uint8_t kOperatorCount = static_cast<uint8_t>(dsl::Operator::Xor) + 1;
constexpr uint8_t kAggKindCount = static_cast<uint8_t>(compute::AggKind::All) + 1;

// The name rules (name.prefix, ...) are closures; the ones whose display says all they do
// are rebuilt from it. name.map (a Python function) and name.replace are not serializable.
struct NameRule {
  std::string method;
  std::string arg;
};

std::optional<NameRule> parse_name_rule(const std::string& display) {
  static constexpr std::string_view kPrefix = ".name.";
  if (!display.starts_with(kPrefix) || !display.ends_with(")")) return std::nullopt;
  const size_t open = display.find('(');
  if (open == std::string::npos) return std::nullopt;
  NameRule rule{display.substr(kPrefix.size(), open - kPrefix.size()),
                display.substr(open + 1, display.size() - open - 2)};
  const bool takes_arg = rule.method == "prefix" || rule.method == "suffix" || rule.method == "strip_prefix" ||
                         rule.method == "strip_suffix";
  const bool no_arg = rule.method == "to_lowercase" || rule.method == "to_uppercase";
  if (takes_arg || (no_arg && rule.arg.empty())) return rule;
  return std::nullopt;
}

Expr apply_name_rule(const Expr& input, const NameRule& rule) {
  dsl::NameNameSpace ns(input);
  if (rule.method == "prefix") return ns.prefix(rule.arg);
  if (rule.method == "suffix") return ns.suffix(rule.arg);
  if (rule.method == "strip_prefix") return ns.strip_prefix(rule.arg);
  if (rule.method == "strip_suffix") return ns.strip_suffix(rule.arg);
  if (rule.method == "to_lowercase") return ns.to_lowercase();
  return ns.to_uppercase();
}

// struct.field(name): a rename to the field's name over the struct.field function.
bool is_struct_field_rename(const ExprNode& n) {
  return n.names.size() == 1 && n.names[0].empty() && n.inputs.size() == 1 &&
         n.inputs[0].kind() == ExprKind::Function && n.inputs[0].node().function.is("struct.field");
}

void check_serializable(const ExprNode& n) {
  if (n.kind == ExprKind::Selector) {
    throw ComputeError(err_msg("cannot serialize the selector ", n.names.empty() ? "" : n.names[0],
                               ": selectors are not in the plan format yet (select the columns by name)"));
  }
  if (n.kind == ExprKind::RenameAlias && !is_struct_field_rename(n) && !parse_name_rule(n.names.at(0))) {
    throw ComputeError(err_msg("cannot serialize the name rule `", n.names[0],
                               "`: name.map and name.replace are functions the plan format cannot carry"));
  }
}

// The inputs and names each kind must have (what the conversion reads without checking).
void check_shape(ByteReader& r, const ExprNode& n, size_t at) {
  const size_t in = n.inputs.size();
  auto bad = [&](const char* what) {
    throw ComputeError(err_msg("cannot deserialize the plan: the expression at byte ", at, " ", what));
  };
  auto inputs = [&](size_t lo, size_t hi) {
    if (in < lo || in > hi) bad("has the wrong number of inputs for its kind");
  };
  auto names = [&](size_t lo) {
    if (n.names.size() < lo) bad("lacks the names its kind needs");
  };
  switch (n.kind) {
    case ExprKind::Column: inputs(0, 0), names(1); break;
    case ExprKind::Columns:
    case ExprKind::Wildcard:
    case ExprKind::Len:
    case ExprKind::Literal:
    case ExprKind::Nth: inputs(0, 0); break;
    case ExprKind::Exclude: inputs(1, 1); break;
    case ExprKind::Alias: inputs(1, 1), names(1); break;
    case ExprKind::BinaryExpr:
    case ExprKind::Filter: inputs(2, 2); break;
    case ExprKind::Cast:
    case ExprKind::Agg:
    case ExprKind::Sort:
    case ExprKind::KeepName: inputs(1, 1); break;
    case ExprKind::Ternary: inputs(3, 3); break;
    case ExprKind::Function:
      if (!n.function.spec) bad("is a function call without a function");
      inputs(n.function.spec->min_inputs, n.function.spec->max_inputs);
      break;
    case ExprKind::SortBy: {
      inputs(2, SIZE_MAX);
      const size_t by = in - 1;
      for (size_t s : {n.sort.descending_by.size(), n.sort.nulls_last_by.size()}) {
        if (s > 1 && s != by) bad("has per-key sort flags that do not match its keys");
      }
      break;
    }
    case ExprKind::Window:
      inputs(1, SIZE_MAX);
      if (n.window.num_order_by > in - 1) bad("orders by more keys than it has");
      if (n.window.kind == dsl::WindowKind::Rolling && in < 2) bad("is a rolling window without an index column");
      break;
    case ExprKind::RenameAlias: inputs(1, 1), names(1); break;
    case ExprKind::Selector: bad("is a selector (not in the plan format)"); break;
    case ExprKind::StructFields: inputs(1, 1); break;
    case ExprKind::Field: inputs(0, 0), names(1); break;
  }
  (void)r;
}

}  // namespace

uint64_t ExprTableWriter::add(const Expr& root) {
  if (!root.valid()) return 0;
  if (auto it = ids_.find(&root.node()); it != ids_.end()) return it->second;
  // (node, next input to visit): a node is encoded once all its inputs have ids.
  std::vector<std::pair<const ExprNode*, size_t>> stack{{&root.node(), 0}};
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < node->inputs.size()) {
      const Expr& child = node->inputs[next++];
      if (!child.valid()) throw ComputeError("cannot serialize an expression with a missing input");
      if (!ids_.contains(&child.node())) stack.emplace_back(&child.node(), 0);
      continue;
    }
    const ExprNode* done = node;
    stack.pop_back();
    if (ids_.contains(done)) continue;
    encode(*done);
    ids_.emplace(done, ++count_);
  }
  return ids_.at(&root.node());
}

void ExprTableWriter::encode(const ExprNode& n) {
  check_serializable(n);
  ByteWriter& w = nodes_;
  w.u8(static_cast<uint8_t>(n.kind));
  w.varint(n.inputs.size());
  for (const Expr& in : n.inputs) w.varint(ids_.at(&in.node()));
  w.strs(n.names);
  write_scalar(w, n.literal.scalar);
  w.boolean(n.literal.dynamic);
  w.boolean(n.literal.is_series());
  if (n.literal.is_series()) write_array(w, n.literal.series);
  w.u8(static_cast<uint8_t>(n.op));
  write_dtype(w, n.dtype);
  w.boolean(n.strict);
  w.u8(static_cast<uint8_t>(n.agg));
  write_agg_options(w, n.agg_options);
  write_function(w, n.function);
  write_sort_flags(w, n.sort);
  write_window(w, n.window);
}

void ExprTableWriter::finish(ByteWriter& out) const {
  out.varint(count_);
  out.raw(nodes_.bytes());
}

Expr ExprTableReader::decode(ByteReader& r) const {
  const size_t at = r.offset();
  ExprNode n;
  n.kind = static_cast<ExprKind>(r.enum_u8(kExprKindCount, "expression kind"));
  const size_t inputs = r.count(1);
  n.inputs.reserve(inputs);
  for (size_t i = 0; i < inputs; ++i) n.inputs.push_back(get(r, r.varint()));
  n.names = r.strs();
  n.literal.scalar = read_scalar(r);
  n.literal.dynamic = r.boolean();
  if (r.boolean()) n.literal.series = read_array(r);
  n.op = static_cast<dsl::Operator>(r.enum_u8(kOperatorCount, "operator"));
  n.dtype = read_dtype(r);
  n.strict = r.boolean();
  n.agg = static_cast<compute::AggKind>(r.enum_u8(kAggKindCount, "aggregation"));
  n.agg_options = read_agg_options(r);
  n.function = read_function(r);
  n.sort = read_sort_flags(r);
  n.window = read_window(r);
  check_shape(r, n, at);
  if (n.kind == ExprKind::RenameAlias) {
    if (is_struct_field_rename(n)) {
      const std::string field = n.inputs[0].node().function.args.get_string("name");
      n.rename = std::make_shared<const dsl::NameMapping>([field](const std::string&) { return field; });
    } else if (auto rule = parse_name_rule(n.names[0])) {
      return apply_name_rule(n.inputs[0], *rule);
    } else {
      throw ComputeError(err_msg("cannot deserialize the plan: unknown name rule `", n.names[0], "` at byte ", at));
    }
  }
  return Expr::make(std::move(n));
}

void ExprTableReader::read(ByteReader& r) {
  // Every node takes well over 16 bytes: a count beyond that is corrupt.
  const size_t n = r.count(16);
  exprs_.reserve(n);
  for (size_t i = 0; i < n; ++i) exprs_.push_back(decode(r));
}

Expr ExprTableReader::get(ByteReader& r, uint64_t i, bool optional) const {
  if (i == 0 && optional) return Expr();
  if (i == 0 || i > exprs_.size()) {
    r.fail(err_msg("a reference to expression ", i, " of the ", exprs_.size(), " read so far"));
  }
  return exprs_[i - 1];
}

std::vector<Expr> ExprTableReader::read_refs(ByteReader& r) const {
  const size_t n = r.count(1);
  std::vector<Expr> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(read_ref(r));
  return out;
}

void write_expr_refs(ByteWriter& w, ExprTableWriter& table, const std::vector<Expr>& exprs) {
  w.varint(exprs.size());
  for (const Expr& e : exprs) w.varint(table.add(e));
}

}  // namespace frazil::serde
