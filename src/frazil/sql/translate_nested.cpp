// Access into nested values, as Polars' SQL has it:
//   - subscripts: arr[i], 1-based (negative from the end, 0 and out of range give NULL);
//     an array slice arr[a:b] is refused;
//   - field access on a parenthesised value: (s).field;
//   - the JSON path operators on structs and lists: s -> 'field', s -> 0 (a list index
//     from 0), s #> '{field,1}' (a path whose integer parts index lists), and ->> / #>>,
//     which give the value as a string.
// Dotted struct columns (t.s.field) are resolved with column names (translate_expr.cpp).
#include "frazil/dsl/list_namespace.hpp"
#include "frazil/dsl/struct_namespace.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using dsl::lit;
using dsl::lit_null;

namespace {

// One path step: a list index when `infer_index` and the step is an integer, else a field.
Expr path_step(const Expr& e, const std::string& step, bool infer_index) {
  if (infer_index) {
    try {
      size_t used = 0;
      const int64_t i = std::stoll(step, &used);
      if (used == step.size()) return e.list().get(lit(i), true);
    } catch (const std::exception&) {
    }
  }
  return e.struct_().field(step);
}

// "{a,1}" or "a,1" split at commas, each part trimmed.
std::vector<std::string> path_steps(std::string path) {
  if (path.size() >= 2 && path.front() == '{' && path.back() == '}') path = path.substr(1, path.size() - 2);
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = path.find(',', start);
    std::string part = path.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t b = part.find_first_not_of(" \t");
    const size_t e = part.find_last_not_of(" \t");
    out.push_back(b == std::string::npos ? "" : part.substr(b, e - b + 1));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

bool Translator::is_path_operator(const std::string& op) { return op == "->" || op == "->>" || op == "#>" || op == "#>>"; }

Expr Translator::path_operator(const std::string& op, const PgNode* lnode, const PgNode* rnode, Scope& scope) {
  Expr base = expr(lnode, scope);
  const bool as_text = op == "->>" || op == "#>>";
  std::optional<Expr> out;
  // Only a plain literal is a path (DATE '2020-09-11' is a date, not a path).
  const bool literal = rnode->node_case == PG_QUERY__NODE__NODE_A_CONST;
  if (auto path = literal ? const_string(rnode) : std::nullopt) {
    out = base;
    // -> takes field names only; #> reads integer steps as list indexes.
    for (const std::string& step : path_steps(*path)) out = path_step(*out, step, op[0] == '#');
  } else if (auto index = const_int(rnode); index && op[0] == '-' && (literal || rnode->node_case == PG_QUERY__NODE__NODE_A_EXPR)) {
    out = path_step(base, std::to_string(*index), true);
  }
  if (!out)
    fail(ErrorKind::SQLSyntax, node_location(rnode),
         "invalid json/struct path-extract definition: the right side of '" + op +
             "' must be a string literal (or, for -> and ->>, an integer)");
  return as_text ? out->cast(DataType::string()) : *out;
}

Expr Translator::indirection(const PgQuery__AIndirection* ind, Scope& scope) {
  Expr e = expr(ind->arg, scope);
  for (size_t i = 0; i < ind->n_indirection; ++i) {
    const PgNode* step = ind->indirection[i];
    switch (step->node_case) {
      case PG_QUERY__NODE__NODE_A_INDICES: {
        const auto* idx = step->a_indices;
        if (idx->is_slice) fail(ErrorKind::SQLSyntax, node_location(ind->arg), "array slice syntax is not currently supported");
        e = list_get_one_based(e, expr(idx->uidx, scope), idx->uidx);
        break;
      }
      case PG_QUERY__NODE__NODE_STRING: e = e.struct_().field(string_of(step)); break;
      default: unsupported(step, "this subscript");
    }
  }
  return e;
}

}  // namespace frazil::sql
