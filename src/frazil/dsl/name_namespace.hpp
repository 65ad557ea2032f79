// The C++ face of Polars' `name` namespace: rules naming an expression's output after
// its own output name (resolved at conversion, so they apply to each expression a
// multi-column selection expands into): col("*").name().suffix("_x").
#pragma once

#include <string>

#include "frazil/dsl/expr.hpp"

namespace frazil::dsl {

class NameNameSpace {
 public:
  explicit NameNameSpace(Expr e) : e_(std::move(e)) {}

  Expr keep() const;  // the name of the root column
  // `fn` of the output name; `display` is what the expression prints (".name.map(...)").
  Expr map(NameMapping fn, std::string display = ".name.map()") const;
  Expr prefix(const std::string& prefix) const;
  Expr suffix(const std::string& suffix) const;
  Expr to_lowercase() const;
  Expr to_uppercase() const;
  Expr strip_prefix(const std::string& prefix) const;
  Expr strip_suffix(const std::string& suffix) const;
  // Every match of `pattern` (a regex unless `literal`) replaced by `value` ($1 for groups).
  Expr replace(const std::string& pattern, const std::string& value, bool literal = false) const;
  // The fields of a Struct expression renamed.
  Expr prefix_fields(const std::string& prefix) const;
  Expr suffix_fields(const std::string& suffix) const;

 private:
  Expr e_;
};

// A multi-column selection resolved against the input schema (Polars' selectors);
// `display` is what it prints.
Expr selector(ColumnSelection select, std::string display);

}  // namespace frazil::dsl
