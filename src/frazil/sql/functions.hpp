// The SQL functions frazil's SQL knows, each mapped to the DSL: one table of scalar
// functions and one of aggregates (sql/functions.cpp), so that a new DSL function is one
// row here. Names are matched case-insensitively.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/dsl/expr.hpp"
#include "frazil/sql/pg_tree.hpp"

namespace frazil::sql {

class Translator;
struct Scope;

// One call as the table's builders see it: the translated arguments and their nodes.
struct FunctionCall {
  std::string name;  // lower case, as matched
  std::vector<dsl::Expr> args;
  std::vector<const PgNode*> nodes;
  int32_t location = -1;
  Translator* translator = nullptr;
  Scope* scope = nullptr;
  // Aggregates only.
  bool distinct = false;
  bool star = false;                           // COUNT(*)
  std::vector<dsl::Expr> order_by;             // agg(x ORDER BY y) / WITHIN GROUP
  std::vector<bool> order_descending;
  std::vector<bool> order_nulls_last;          // NULLS LAST written (else the sort's default)

  [[noreturn]] void fail(const std::string& message) const;
  // Checks the number of arguments ([lo, hi]).
  void arity(size_t lo, size_t hi) const;
  // A constant argument (error when it is not one).
  int64_t int_arg(size_t i) const;
  double float_arg(size_t i) const;
  std::string string_arg(size_t i) const;
  bool is_constant(size_t i) const;
  DataType dtype(size_t i) const;
};

using FunctionBuilder = dsl::Expr (*)(FunctionCall& call);

struct SqlFunction {
  const char* name;
  FunctionBuilder build;
};

const SqlFunction* find_scalar_function(const std::string& name);
const SqlFunction* find_aggregate_function(const std::string& name);
bool is_aggregate_function(const std::string& name);
// Every name, for "did you mean".
std::vector<std::string> function_names();

}  // namespace frazil::sql
