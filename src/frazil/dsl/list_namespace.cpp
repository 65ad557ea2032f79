#include "frazil/dsl/list_namespace.hpp"

namespace frazil::dsl {

Expr element() { return col(""); }

Expr concat_list(std::vector<Expr> exprs) {
  Expr first = exprs.at(0);
  exprs.erase(exprs.begin());
  return first.function("concat_list", std::move(exprs));
}

ListNameSpace Expr::list() const { return ListNameSpace(*this); }

Expr ListNameSpace::len() const { return e_.function("list.len"); }
Expr ListNameSpace::get(const Expr& index, bool null_on_oob) const {
  return e_.function("list.get", {index}, {{"null_on_oob", null_on_oob}});
}
Expr ListNameSpace::gather(const Expr& indices, bool null_on_oob) const {
  return e_.function("list.gather", {indices}, {{"null_on_oob", null_on_oob}});
}
Expr ListNameSpace::gather_every(const Expr& n, const Expr& offset) const {
  return e_.function("list.gather_every", {n, offset});
}
Expr ListNameSpace::slice(const Expr& offset, const Expr& length) const {
  return e_.function("list.slice", {offset, length});
}
Expr ListNameSpace::head(const Expr& n) const { return e_.function("list.head", {n}); }
Expr ListNameSpace::tail(const Expr& n) const { return e_.function("list.tail", {n}); }
Expr ListNameSpace::shift(const Expr& n) const { return e_.function("list.shift", {n}); }
Expr ListNameSpace::reverse() const { return e_.function("list.reverse"); }
Expr ListNameSpace::drop_nulls() const { return e_.function("list.drop_nulls"); }
Expr ListNameSpace::diff(int64_t n) const { return e_.function("list.diff", {}, {{"n", n}}); }
Expr ListNameSpace::sum() const { return e_.function("list.sum"); }
Expr ListNameSpace::mean() const { return e_.function("list.mean"); }
Expr ListNameSpace::min() const { return e_.function("list.min"); }
Expr ListNameSpace::max() const { return e_.function("list.max"); }
Expr ListNameSpace::median() const { return e_.function("list.median"); }
Expr ListNameSpace::std(int64_t ddof) const { return e_.function("list.std", {}, {{"ddof", ddof}}); }
Expr ListNameSpace::var(int64_t ddof) const { return e_.function("list.var", {}, {{"ddof", ddof}}); }
Expr ListNameSpace::n_unique() const { return e_.function("list.n_unique"); }
Expr ListNameSpace::any() const { return e_.function("list.any"); }
Expr ListNameSpace::all() const { return e_.function("list.all"); }
Expr ListNameSpace::arg_min() const { return e_.function("list.arg_min"); }
Expr ListNameSpace::arg_max() const { return e_.function("list.arg_max"); }
Expr ListNameSpace::sort(bool descending, bool nulls_last) const {
  return e_.function("list.sort", {}, {{"descending", descending}, {"nulls_last", nulls_last}});
}
Expr ListNameSpace::unique() const { return e_.function("list.unique"); }
Expr ListNameSpace::contains(const Expr& item, bool nulls_equal) const {
  return e_.function("list.contains", {item}, {{"nulls_equal", nulls_equal}});
}
Expr ListNameSpace::count_matches(const Expr& item) const { return e_.function("list.count_matches", {item}); }
Expr ListNameSpace::join(const Expr& separator, bool ignore_nulls) const {
  return e_.function("list.join", {separator}, {{"ignore_nulls", ignore_nulls}});
}
Expr ListNameSpace::concat(const Expr& other) const { return concat_list({e_, other}); }
Expr ListNameSpace::set_union(const Expr& other) const { return e_.function("list.set_union", {other}); }
Expr ListNameSpace::set_intersection(const Expr& other) const { return e_.function("list.set_intersection", {other}); }
Expr ListNameSpace::set_difference(const Expr& other) const { return e_.function("list.set_difference", {other}); }
Expr ListNameSpace::set_symmetric_difference(const Expr& other) const {
  return e_.function("list.set_symmetric_difference", {other});
}
Expr ListNameSpace::to_struct(const std::vector<std::string>& fields) const {
  return e_.function("list.to_struct", {}, {{"fields", fields}});
}
Expr ListNameSpace::item(bool allow_empty) const { return e_.function("list.item", {}, {{"allow_empty", allow_empty}}); }
Expr ListNameSpace::eval(const Expr& expr) const { return e_.function("list.eval", {expr}); }
Expr ListNameSpace::agg(const Expr& expr) const { return e_.function("list.agg", {expr}); }
Expr ListNameSpace::filter(const Expr& predicate) const { return eval(element().filter(predicate)); }
Expr ListNameSpace::explode() const { return e_.function("explode"); }

}  // namespace frazil::dsl
