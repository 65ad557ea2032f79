#include "frazil/dsl/struct_namespace.hpp"

#include <memory>

#include "frazil/core/error.hpp"

namespace frazil::dsl {

StructNameSpace Expr::struct_() const { return StructNameSpace(*this); }

namespace {

// A field name that selects one field by itself (not "*" nor a ^...$ regex).
bool is_plain_name(const std::string& name) {
  return name != "*" && !(name.size() >= 2 && name.front() == '^' && name.back() == '$');
}

// `expr` with every field(name) replaced by that field of `of` (a small tree: the
// expressions a user writes inside with_fields).
Expr replace_fields(const Expr& expr, const Expr& of) {
  const ExprNode& n = expr.node();
  if (n.kind == ExprKind::Field) return of.struct_().field(n.names[0]);
  if (n.inputs.empty()) return expr;
  ExprNode copy = n;
  bool changed = false;
  for (auto& in : copy.inputs) {
    Expr r = replace_fields(in, of);
    changed |= &r.node() != &in.node();
    in = std::move(r);
  }
  return changed ? Expr::make(std::move(copy)) : expr;
}

}  // namespace

Expr StructNameSpace::field(const std::string& name) const {
  if (!is_plain_name(name)) return fields({name});
  // Named after the field: a rename rule with no display of its own, as Polars prints it.
  ExprNode n;
  n.kind = ExprKind::RenameAlias;
  n.inputs = {e_.function("struct.field", {}, {{"name", name}})};
  n.names = {""};
  n.rename = std::make_shared<const NameMapping>([name](const std::string&) { return name; });
  return Expr::make(std::move(n));
}

Expr StructNameSpace::fields(std::vector<std::string> names) const {
  if (names.size() == 1 && is_plain_name(names[0])) return field(names[0]);
  ExprNode n;
  n.kind = ExprKind::StructFields;
  n.inputs = {e_};
  n.names = std::move(names);
  return Expr::make(std::move(n));
}

Expr StructNameSpace::rename_fields(std::vector<std::string> names) const {
  return e_.function("struct.rename_fields", {}, {{"names", std::move(names)}});
}

Expr StructNameSpace::json_encode() const { return e_.function("struct.json_encode"); }

Expr StructNameSpace::with_fields(std::vector<Expr> exprs) const {
  for (auto& x : exprs) x = replace_fields(x, e_);
  return e_.function("struct.with_fields", std::move(exprs));
}

Expr StructNameSpace::eval(std::vector<Expr> exprs) const {
  for (auto& x : exprs) x = replace_fields(x, e_);
  return e_.function("struct.eval", std::move(exprs));
}

Expr as_struct(std::vector<Expr> exprs) {
  if (exprs.empty()) throw InvalidOperationError("pl.struct needs at least one expression");
  Expr root = exprs[0];
  exprs.erase(exprs.begin());
  return root.function("as_struct", std::move(exprs));
}

Expr field(const std::string& name) {
  ExprNode n;
  n.kind = ExprKind::Field;
  n.names = {name};
  return Expr::make(std::move(n));
}

}  // namespace frazil::dsl
