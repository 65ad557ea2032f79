#include "frazil/exec/operators/operators.hpp"

#include "frazil/compute/boolean.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"

namespace frazil::exec {

DataFrame FilterOperator::execute_conjuncts(const DataFrame& morsel, physical::ExecState& state) const {
  DataFrame cur = morsel;
  ArrayRef pending;  // the conjunction of the masks so far, not yet applied
  for (const auto& c : conjuncts_) {
    // Compacting costs a copy of every column: worth it before a costly test, once a
    // good share of the rows is out.
    if (c.costly && pending && compute::mask_true_count(*pending) * 4 < cur.height() * 3) {
      cur = compute::filter_frame(cur, *pending);
      pending = nullptr;
      if (cur.height() == 0) return cur;
    }
    Column m = c.expr->evaluate(cur, state);
    if (m.is_scalar() || m.length() != cur.height() || !m.dtype().is_boolean()) return execute_whole(morsel, state);
    ArrayRef mask = m.as_array();
    pending = pending ? compute::and_kleene(*mask, *pending) : std::move(mask);  // null & x is never true
  }
  return compute::filter_frame(cur, *pending);
}

DataFrame FilterOperator::execute(const DataFrame& morsel, physical::ExecState& state) const {
  if (conjuncts_.size() > 1) return execute_conjuncts(morsel, state);
  return execute_whole(morsel, state);
}

DataFrame FilterOperator::execute_whole(const DataFrame& morsel, physical::ExecState& state) const {
  Column mask = predicate_->evaluate(morsel, state);
  // A scalar or one-row mask (lit(True), col("a").first() > 0) keeps all rows or none.
  if (mask.is_scalar() || (mask.length() == 1 && morsel.height() != 1)) {
    const Scalar v = mask.is_scalar() ? mask.scalar_value() : mask.get(0);
    bool keep = !v.is_null() && v.as_bool();
    return keep ? morsel : morsel.slice(0, 0);
  }
  if (mask.length() != morsel.height())
    throw ShapeError(err_msg("filter predicate has length ", mask.length(), " but the frame has height ",
                             morsel.height()));
  return compute::filter_frame(morsel, *mask.as_array());
}

DataFrame ProjectOperator::execute(const DataFrame& morsel, physical::ExecState& state) const {
  if (!with_columns_) return physical::evaluate_to_frame(exprs_, morsel, state);
  DataFrame added = physical::evaluate_to_frame(exprs_, morsel, state, morsel.height());
  std::vector<Column> cols = morsel.columns();
  for (const auto& c : added.columns()) {
    bool replaced = false;
    for (auto& existing : cols)
      if (existing.name() == c.name()) {
        existing = c;
        replaced = true;
        break;
      }
    if (!replaced) cols.push_back(c);
  }
  if (cols.empty()) return DataFrame::empty_with_height(morsel.height());
  return DataFrame(std::move(cols));
}

DataFrame SimpleProjectOperator::execute(const DataFrame& morsel, physical::ExecState&) const {
  if (only_when_wider_ && morsel.width() == names_.size()) return morsel;
  std::vector<Column> cols;
  cols.reserve(names_.size());
  for (size_t i = 0; i < names_.size(); ++i) {
    const Column& c = morsel.column(names_[i]);
    cols.push_back(new_names_.empty() ? c : c.rename(new_names_[i]));
  }
  if (cols.empty()) return DataFrame::empty_with_height(morsel.height());
  return DataFrame(std::move(cols));
}

std::string names_text(const std::vector<std::string>& names, size_t max) {
  std::string s = "[";
  for (size_t i = 0; i < names.size() && i < max; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > max) s += ", ... (" + std::to_string(names.size()) + " in all)";
  return s + "]";
}

std::string exprs_text(const std::vector<physical::PhysicalExprRef>& exprs) {
  std::string s = "[";
  for (size_t i = 0; i < exprs.size(); ++i) s += (i ? ", " : "") + exprs[i]->source().to_string();
  return s + "]";
}

std::string FilterOperator::describe() const {
  std::string s = "filter " + predicate_->source().to_string();
  if (conjuncts_.size() > 1) s += " (" + std::to_string(conjuncts_.size()) + " conjuncts one after the other, costly ones last)";
  return s;
}

std::string ProjectOperator::describe() const { return (with_columns_ ? "with_columns " : "select ") + exprs_text(exprs_); }

std::string SimpleProjectOperator::describe() const {
  if (!new_names_.empty()) return "rename " + names_text(names_) + " -> " + names_text(new_names_);
  return std::string("columns ") + names_text(names_) + (only_when_wider_ ? " (when the reader gave more)" : "");
}

DataFrame run_operators(const std::vector<OperatorRef>& ops, DataFrame morsel, physical::ExecState& state) {
  for (const auto& op : ops) morsel = op->execute(morsel, state);
  return morsel;
}

}  // namespace frazil::exec
