// The C++ face of Polars' `struct` namespace and of pl.struct / pl.field:
// col("s").struct_().field("a"), as_struct({col("a"), col("b")}),
// col("s").struct_().with_fields({field("a") * 2}).
#pragma once

#include <string>
#include <vector>

#include "frazil/dsl/expr.hpp"

namespace frazil::dsl {

class StructNameSpace {
 public:
  explicit StructNameSpace(Expr e) : e_(std::move(e)) {}

  // The field named `name` (a plain name), named after the field.
  Expr field(const std::string& name) const;
  // One output per field matching any of `names`: a plain name, "*" (every field) or a
  // regex "^...$" (resolved against the struct's dtype at conversion).
  Expr fields(std::vector<std::string> names) const;
  // Every field as its own column (struct.unnest = struct.field("*")).
  Expr unnest() const { return fields({"*"}); }
  Expr rename_fields(std::vector<std::string> names) const;
  Expr json_encode() const;
  // The struct with the fields of `exprs` added (or replacing the field of their output
  // name); field(name) inside them reads the struct's field.
  Expr with_fields(std::vector<Expr> exprs) const;
  // Only the fields `exprs` give (pl.field reads the struct's), in order; the struct's nulls kept.
  Expr eval(std::vector<Expr> exprs) const;

 private:
  Expr e_;
};

// A Struct with one field per input, named by the inputs' output names (pl.struct).
Expr as_struct(std::vector<Expr> exprs);
// A field of the struct that with_fields() or eval() is applied to (pl.field).
Expr field(const std::string& name);

}  // namespace frazil::dsl
