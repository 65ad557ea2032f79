#include "frazil/sql/parse.hpp"

#include <memory>

#include "frazil/core/stack.hpp"
#include "frazil/sql/tokens.hpp"

namespace frazil::sql {

namespace {

// Stack bytes libpg_query may use per token that can deepen the parse tree: building,
// packing, unpacking and freeing its protobuf tree recurse once per nested node without a
// check of their own. Measured: a `a+a+...` sum overflowed a 16 MiB stack between 7,000 and
// 9,000 terms (about 2 KiB per level); twice that leaves room for the translator's frames.
constexpr size_t kStackPerLevel = 4096;
constexpr size_t kStackReserve = 1 << 20;  // left for the frames above the parse

// An upper bound on the parse tree's depth: every token that can open a level (operators,
// parentheses, keywords). Names, constants and the commas of a list do not deepen the tree,
// so a long IN list or a wide select list is not counted against it.
size_t nesting_bound(const std::vector<Token>& tokens) {
  size_t levels = 0;
  for (const Token& t : tokens) {
    switch (t.kind) {
      case PG_QUERY__TOKEN__IDENT:
      case PG_QUERY__TOKEN__UIDENT:
      case PG_QUERY__TOKEN__FCONST:
      case PG_QUERY__TOKEN__SCONST:
      case PG_QUERY__TOKEN__USCONST:
      case PG_QUERY__TOKEN__BCONST:
      case PG_QUERY__TOKEN__XCONST:
      case PG_QUERY__TOKEN__ICONST:
      case PG_QUERY__TOKEN__PARAM:
      case PG_QUERY__TOKEN__ASCII_44:  // ,
      case PG_QUERY__TOKEN__ASCII_59:  // ;
      case PG_QUERY__TOKEN__AS:
        break;
      default:
        ++levels;
    }
  }
  return levels;
}

// Refuses a text whose parse tree could nest deeper than the stack left allows: libpg_query
// would overflow it (a 10,000-term `a+a+...` crashed the process on an 8 MB stack).
void check_nesting(const std::string& text) {
  // A text that does not scan has no tree to bound: the parse reports its error.
  const size_t levels = nesting_bound(scan_tokens(text).tokens);
  const size_t left = stack_remaining();
  if (left > kStackReserve && levels <= (left - kStackReserve) / kStackPerLevel) return;
  throw SQLInterfaceError("SQL query nests too deeply: up to " + std::to_string(levels) +
                          " levels, and the stack (FRAZIL_STACK_SIZE, " + std::to_string(large_stack_size() >> 20) +
                          " MiB) allows about " +
                          std::to_string(left > kStackReserve ? (left - kStackReserve) / kStackPerLevel : 0));
}

// The token of the user's text that starts at `offset` (PostgreSQL's message quotes the
// rewritten token, which may have been re-spelled).
std::string original_token(const std::string& text, int32_t offset) {
  for (const Token& t : scan_tokens(text).tokens)
    if (t.start <= offset && offset < t.end) return text.substr(t.start, t.end - t.start);
  return "";
}

}  // namespace

ParsedSql::ParsedSql(const std::string& sql) : dialect_(rewrite_dialect(sql)) {
  const std::string& text = dialect_.source.rewritten();
  check_nesting(text);
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
