// frazil::sql::Context: SQL over registered frames. execute() parses the text with
// PostgreSQL's grammar (plus the Polars/DuckDB extensions of sql/dialect.hpp) and returns
// the query as a LazyFrame built with the DataFrame API's own builders, so the optimizer
// treats SQL exactly as DataFrame code.
//
//   frazil::sql::Context ctx;
//   ctx.register_frame("lineitem", frazil::scan_parquet("lineitem.parquet"));
//   DataFrame out = ctx.execute("SELECT l_returnflag, count(*) FROM lineitem GROUP BY 1").collect();
//
// Statements: SELECT / VALUES / WITH / set operations, CREATE TABLE name AS query,
// CREATE TABLE name (columns), CREATE [OR REPLACE] [TEMP] VIEW name [(columns)] AS query,
// DROP TABLE|VIEW [IF EXISTS], TRUNCATE, SHOW TABLES, DESCRIBE name|query, EXPLAIN query.
// Several statements separated by ';' run in order; the last one's result is returned.
// Errors are SQLSyntaxError / SQLInterfaceError / ColumnNotFoundError naming the position.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/dsl/expr.hpp"

namespace frazil::sql {

class Context {
 public:
  Context() = default;

  // Registers (or replaces) a table.
  void register_frame(const std::string& name, LazyFrame frame);
  void register_frame(const std::string& name, DataFrame frame);
  // Removes a table; false when there was none of that name.
  bool unregister(const std::string& name);
  // The registered tables' names, sorted.
  std::vector<std::string> tables() const;
  std::optional<LazyFrame> table(const std::string& name) const;

  // Runs the statements of `sql` and returns the last one's result.
  LazyFrame execute(const std::string& sql);

 private:
  LazyFrame execute_here(const std::string& sql);  // execute() runs it on a large stack
  std::map<std::string, LazyFrame> tables_;
};

// The table names a query reads (FROM names that no WITH of the query defines), so that
// callers can find them elsewhere (frazil.sql() looks them up among Python variables).
std::vector<std::string> referenced_tables(const std::string& sql);

// The statements of a SQL text, each as its own text (';' inside strings and comments
// does not split); SQLSyntaxError when the text does not scan.
std::vector<std::string> split_statements(const std::string& sql);

// A SQL expression ("a * 2 AS b", "SUM(x)") as a DSL expression over columns by name.
dsl::Expr sql_expr(const std::string& sql);

}  // namespace frazil::sql
