// One SQL text parsed by PostgreSQL's grammar (libpg_query) after the dialect rewrite:
// owns the parse tree and knows where each of its locations is in the user's text.
#pragma once

#include <memory>
#include <string>

#include "frazil/sql/dialect.hpp"
#include "frazil/sql/pg_tree.hpp"

namespace frazil::sql {

class ParsedSql {
 public:
  // Throws SQLSyntaxError naming the position of the first token the grammar rejects.
  explicit ParsedSql(const std::string& sql);
  ~ParsedSql();
  ParsedSql(const ParsedSql&) = delete;
  ParsedSql& operator=(const ParsedSql&) = delete;

  size_t size() const { return tree_->n_stmts; }
  const PgNode* statement(size_t i) const { return tree_->stmts[i]->stmt; }
  // The statement's text in the parsed (rewritten) text.
  int32_t statement_location(size_t i) const { return tree_->stmts[i]->stmt_location; }
  const DialectRewrite& dialect() const { return dialect_; }
  const SourceText& source() const { return dialect_.source; }

 private:
  DialectRewrite dialect_;
  PgQuery__ParseResult* tree_ = nullptr;
};

}  // namespace frazil::sql
