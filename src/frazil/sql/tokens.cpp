#include "frazil/sql/tokens.hpp"

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include <memory>

#include "frazil/core/error.hpp"

namespace frazil::sql {

ScannedText scan_tokens(const std::string& sql) {
  PgQueryScanResult result = pg_query_scan(sql.c_str());
  std::unique_ptr<PgQueryScanResult, void (*)(PgQueryScanResult*)> guard(
      &result, [](PgQueryScanResult* r) { pg_query_free_scan_result(*r); });
  ScannedText out;
  if (result.error) {
    out.error = result.error->message ? result.error->message : "the text does not scan";
    out.error_at = result.error->cursorpos > 0 ? result.error->cursorpos - 1 : -1;  // cursorpos is 1-based
    return out;
  }
  PgQuery__ScanResult* tree =
      pg_query__scan_result__unpack(nullptr, result.pbuf.len, reinterpret_cast<const uint8_t*>(result.pbuf.data));
  if (!tree) throw InternalError("libpg_query returned an unreadable token list");
  for (size_t i = 0; i < tree->n_tokens; ++i) {
    const auto* t = tree->tokens[i];
    if (t->token == PG_QUERY__TOKEN__SQL_COMMENT || t->token == PG_QUERY__TOKEN__C_COMMENT) continue;
    out.tokens.push_back({t->start, t->end, static_cast<int>(t->token), static_cast<int>(t->keyword_kind)});
  }
  pg_query__scan_result__free_unpacked(tree, nullptr);
  return out;
}

}  // namespace frazil::sql
