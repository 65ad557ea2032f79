// The tokens of PostgreSQL's own scanner (libpg_query), comments left out: what the dialect
// rewrite works over, and what the parser counts to bound the parse tree's depth.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace frazil::sql {

struct Token {
  int32_t start;
  int32_t end;
  int kind;     // PgQuery__Token: an ASCII code for one-character tokens
  int keyword;  // PgQuery__KeywordKind: 0 for non-keywords
};

struct ScannedText {
  std::vector<Token> tokens;
  std::string error;         // empty when the text scanned
  int32_t error_at = -1;     // 0-based offset of the error, -1 when unknown
  bool ok() const { return error.empty(); }
};

ScannedText scan_tokens(const std::string& sql);

}  // namespace frazil::sql
