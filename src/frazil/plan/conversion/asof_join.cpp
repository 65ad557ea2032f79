#include "frazil/plan/conversion/asof_join.hpp"

#include <unordered_set>

#include "frazil/compute/temporal/calendar_duration.hpp"
#include "frazil/core/error.hpp"
#include "frazil/plan/aexpr.hpp"
#include "frazil/plan/conversion/type_coercion.hpp"

namespace frazil::plan {

namespace {

// The column a key reads, through the casts conversion added (nullptr: an expression).
const AExpr* key_column(Node n, const ExprArena& arena) {
  while (arena.get(n).kind == AExprKind::Cast) n = arena.get(n).inputs[0];
  const AExpr& e = arena.get(n);
  return e.kind == AExprKind::Column ? &e : nullptr;
}

// A key Polars can match on: a primitive physical type (numbers, temporals, booleans), or a
// string (compared bytewise).
bool matchable(const DataType& t) {
  return t.is_primitive_numeric() || t.is_temporal() || t.is_boolean() || t.is_string();
}

// A tolerance string in the key's physical unit (Polars' rule: fixed units only).
double resolve_tolerance(const std::string& text, const DataType& key) {
  const compute::CalendarDuration d = compute::CalendarDuration::parse(text);
  if (d.months != 0)
    throw ComputeError("cannot use month offset in timedelta of an asof join; consider using 4 weeks");
  const int64_t ns = ((d.weeks * 7 + d.days) * 86400LL) * 1000000000LL + d.nanos;
  const double sign = d.negative ? -1.0 : 1.0;
  switch (key.id()) {
    case TypeId::Datetime:
    case TypeId::Duration:
      switch (key.time_unit()) {
        case TimeUnit::Nanoseconds: return sign * static_cast<double>(ns);
        case TimeUnit::Microseconds: return sign * static_cast<double>(ns / 1000);
        case TimeUnit::Milliseconds: return sign * static_cast<double>(ns / 1000000);
      }
      break;
    case TypeId::Date: return sign * static_cast<double>(ns / 1000000 / 86400000LL);
    case TypeId::Time: return sign * static_cast<double>(ns);
    default: break;
  }
  throw ComputeError("can only use timedelta string language with Date/Datetime/Duration/Time dtypes");
}

}  // namespace

AsofJoinNode resolve_asof_join(ExprIR left_on, ExprIR right_on, dsl::AsofJoinOptions options, const Schema& left,
                               const Schema& right, ExprArena& arena, bool coerce) {
  const DataType lt = left_on.dtype(left, arena), rt = right_on.dtype(right, arena);
  if (lt != rt) {
    // Integer keys of two dtypes compare as Int64; anything else must match exactly.
    if (!(lt.is_integer() && rt.is_integer()))
      throw SchemaError(err_msg("datatypes of join keys don't match - `", left_on.output_name(), "`: ",
                                lt.short_name(), " on left does not match `", right_on.output_name(), "`: ",
                                rt.short_name(), " on right (and no other type was available to cast to)"));
    if (!coerce)
      throw InvalidOperationError(err_msg("type coercion is off (QueryOptFlags.type_coercion=False) and the asof "
                                          "join keys `", left_on.output_name(), "`: ", lt.short_name(), " and `",
                                          right_on.output_name(), "`: ", rt.short_name(), " need a cast to i64"));
    if (lt != DataType::int64()) left_on.set_node(add_cast(arena, left_on.node(), DataType::int64()));
    if (rt != DataType::int64()) right_on.set_node(add_cast(arena, right_on.node(), DataType::int64()));
  }
  const bool has_tolerance = options.tolerance || options.tolerance_str;
  if (has_tolerance && !(lt.is_primitive_numeric() || lt.is_temporal()))
    throw InvalidOperationError("asof join with tolerance is only supported on numeric/temporal keys");
  if (!matchable(lt)) throw InvalidOperationError("asof join is only supported on primitive key types");
  if (options.left_by.size() != options.right_by.size())
    throw InvalidOperationError("expected both `by_left` and `by_right` to have the same length");
  for (size_t i = 0; i < options.left_by.size(); ++i) {
    const DataType& bl = left.dtype_of(options.left_by[i]);  // ColumnNotFoundError
    const DataType& br = right.dtype_of(options.right_by[i]);
    if (bl != br)
      throw ComputeError(err_msg("mismatching dtypes in 'by' parameter of asof-join: `", options.left_by[i], "`: ",
                                 bl, " and `", options.right_by[i], "`: ", br));
  }
  if (options.tolerance_str) {
    options.tolerance = resolve_tolerance(*options.tolerance_str, lt);
    options.tolerance_str.reset();
  }
  return AsofJoinNode{std::move(left_on), std::move(right_on), std::move(options)};
}

std::vector<AsofOutputColumn> asof_join_columns(const Schema& left, const Schema& right, const AsofJoinNode& node,
                                                const ExprArena& arena) {
  std::vector<AsofOutputColumn> out;
  std::unordered_set<std::string> taken;
  for (const auto& f : left.fields()) {
    out.push_back({false, f.name, f.name, false});
    taken.insert(f.name);
  }
  const auto& o = node.options;
  std::unordered_set<std::string> drop(o.right_by.begin(), o.right_by.end());
  const AExpr* rk = key_column(node.right_on.node(), arena);
  const std::string& rk_name = node.right_on.output_name();
  if (o.coalesce && rk && rk->name == rk_name && rk_name == node.left_on.output_name() && right.contains(rk_name))
    drop.insert(rk_name);
  auto add = [&](const std::string& input, bool right_key) {
    std::string name = taken.count(input) ? input + o.suffix : input;
    if (taken.count(name)) throw DuplicateError(err_msg("column with name '", name, "' has more than one occurrence"));
    taken.insert(name);
    out.push_back({true, input, name, right_key});
  };
  for (const auto& f : right.fields())
    if (!drop.count(f.name)) add(f.name, false);
  // A key computed by an expression is kept as its own column when not coalescing.
  if (!o.coalesce && !right.contains(rk_name)) add(rk_name, true);
  return out;
}

SchemaRef asof_join_schema(const Schema& left, const Schema& right, const AsofJoinNode& node,
                           const ExprArena& arena) {
  Schema out;
  for (const auto& c : asof_join_columns(left, right, node, arena)) {
    DataType t = !c.from_right ? left.dtype_of(c.input)
                 : c.right_key ? node.right_on.dtype(right, arena)
                               : right.dtype_of(c.input);
    out.push(Field{c.output, std::move(t)});
  }
  return std::make_shared<const Schema>(std::move(out));
}

SchemaRef merge_sorted_schema(const SchemaRef& left, const Schema& right, const std::string& key) {
  if (!(*left == right))
    throw SchemaError(err_msg("mismatching fields in schema's: merge_sorted needs equal schemas, got ",
                              left->to_string(), " and ", right.to_string()));
  left->dtype_of(key);  // ColumnNotFoundError
  return left;
}

}  // namespace frazil::plan
