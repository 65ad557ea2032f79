// The C++ face of Polars' `list` namespace: col("a").list().len(), col("a").list().eval(
// element() * 2). Each method is the registry's `list.<name>` function; indices, bounds and
// items may be given as numbers (literals) or as expressions (one value per row).
#pragma once

#include <string>
#include <vector>

#include "frazil/dsl/expr.hpp"

namespace frazil::dsl {

// Polars' pl.element(): the elements of the list inside list().eval().
Expr element();
// pl.concat_list: row by row, the lists (or values) of the inputs in one list.
Expr concat_list(std::vector<Expr> exprs);

class ListNameSpace {
 public:
  explicit ListNameSpace(Expr e) : e_(std::move(e)) {}

  Expr len() const;
  Expr get(const Expr& index, bool null_on_oob = false) const;
  Expr first() const { return get(lit(int64_t{0}), true); }
  Expr last() const { return get(lit(int64_t{-1}), true); }
  Expr gather(const Expr& indices, bool null_on_oob = false) const;
  Expr gather_every(const Expr& n, const Expr& offset = lit(int64_t{0})) const;
  Expr slice(const Expr& offset, const Expr& length = lit_null()) const;
  Expr head(const Expr& n = lit(int64_t{5})) const;
  Expr tail(const Expr& n = lit(int64_t{5})) const;
  Expr shift(const Expr& n = lit(int64_t{1})) const;
  Expr reverse() const;
  Expr drop_nulls() const;
  Expr diff(int64_t n = 1) const;
  Expr sum() const;
  Expr mean() const;
  Expr min() const;
  Expr max() const;
  Expr median() const;
  Expr std(int64_t ddof = 1) const;
  Expr var(int64_t ddof = 1) const;
  Expr n_unique() const;
  Expr any() const;
  Expr all() const;
  Expr arg_min() const;
  Expr arg_max() const;
  Expr sort(bool descending = false, bool nulls_last = false) const;
  Expr unique() const;
  Expr contains(const Expr& item, bool nulls_equal = true) const;
  Expr count_matches(const Expr& item) const;
  Expr join(const Expr& separator, bool ignore_nulls = true) const;
  Expr join(const std::string& separator, bool ignore_nulls = true) const { return join(lit(separator), ignore_nulls); }
  Expr concat(const Expr& other) const;
  Expr set_union(const Expr& other) const;
  Expr set_intersection(const Expr& other) const;
  Expr set_difference(const Expr& other) const;
  Expr set_symmetric_difference(const Expr& other) const;
  Expr to_struct(const std::vector<std::string>& fields) const;
  Expr item(bool allow_empty = false) const;
  // The expression over each list's elements (element() is the element): a list per list.
  Expr eval(const Expr& expr) const;
  // eval, but a reduction gives its value rather than a list of one.
  Expr agg(const Expr& expr) const;
  // The elements where `predicate` (over element()) holds.
  Expr filter(const Expr& predicate) const;
  Expr explode() const;

 private:
  Expr e_;
};

}  // namespace frazil::dsl
