#include "frazil/sql/parse.hpp"

#include <memory>

namespace frazil::sql {

namespace {

// The token of the user's text that starts at `offset` (PostgreSQL's message quotes the
// rewritten token, which may have been re-spelled).
std::string original_token(const std::string& text, int32_t offset) {
  PgQueryScanResult result = pg_query_scan(text.c_str());
  std::string out;
  if (!result.error) {
    PgQuery__ScanResult* tree =
        pg_query__scan_result__unpack(nullptr, result.pbuf.len, reinterpret_cast<const uint8_t*>(result.pbuf.data));
    if (tree) {
      for (size_t i = 0; i < tree->n_tokens; ++i)
        if (tree->tokens[i]->start <= offset && offset < tree->tokens[i]->end) {
          out = text.substr(tree->tokens[i]->start, tree->tokens[i]->end - tree->tokens[i]->start);
          break;
        }
      pg_query__scan_result__free_unpacked(tree, nullptr);
    }
  }
  pg_query_free_scan_result(result);
  return out;
}

}  // namespace

ParsedSql::ParsedSql(const std::string& sql) : dialect_(rewrite_dialect(sql)) {
  const std::string& text = dialect_.source.rewritten();
  PgQueryProtobufParseResult result = pg_query_parse_protobuf(text.c_str());
  if (result.error) {
    std::string message = result.error->message ? result.error->message : "syntax error";
    const int32_t at = result.error->cursorpos > 0 ? result.error->cursorpos - 1 : -1;
    pg_query_free_protobuf_parse_result(result);
    const size_t near = message.find("at or near \"");
    if (near != std::string::npos && at >= 0) {
      const std::string token = original_token(dialect_.source.original(), dialect_.source.to_original(at));
      if (!token.empty()) message = message.substr(0, near) + "at or near \"" + token + "\"";
    }
    fail_at(ErrorKind::SQLSyntax, dialect_.source, at, "SQL syntax error: " + message);
  }
  tree_ = pg_query__parse_result__unpack(nullptr, result.parse_tree.len,
                                         reinterpret_cast<const uint8_t*>(result.parse_tree.data));
  pg_query_free_protobuf_parse_result(result);
  if (!tree_) throw InternalError("libpg_query returned an unreadable parse tree");
  if (tree_->n_stmts == 0) {
    pg_query__parse_result__free_unpacked(tree_, nullptr);
    tree_ = nullptr;
    throw SQLSyntaxError("SQL syntax error: the query text holds no statement");
  }
}

ParsedSql::~ParsedSql() {
  if (tree_) pg_query__parse_result__free_unpacked(tree_, nullptr);
}

}  // namespace frazil::sql
