// The SQL that Polars and DuckDB accept beyond PostgreSQL's grammar, rewritten over the
// tokens of PostgreSQL's own scanner into text that grammar parses, with what the rewrite
// cannot express in the text kept beside it. Rewrites (original -> parsed):
//
//   unquoted identifiers with capitals   -> "Quoted" (PostgreSQL folds them to lower case)
//   [LEFT|RIGHT] SEMI|ANTI JOIN t          -> JOIN t            (+ join_kinds at t)
//   TRY_CAST(x AS t)                       -> CAST(x AS t)      (+ try_casts at CAST)
//   * EXCLUDE|EXCEPT|ILIKE|RENAME|REPLACE  -> *, "__frazil_wildcard"('exclude', a, ...)
//   QUALIFY p                              -> WINDOW "__frazil_qualify" AS (PARTITION BY (p))
//   GROUP BY ALL / ORDER BY ALL            -> GROUP BY "__frazil_all"()
//   ['a', 'b']                             -> ARRAY['a', 'b']
//   a [NOT] REGEXP|RLIKE b                 -> a ~ b / a !~ b
//   a XOR b                                -> a # b
//   UNION [ALL] BY NAME                    -> UNION [ALL]       (+ by_name at what follows)
//   TIME(x)                                -> "time"(x)
//   INTERVAL 3 DAYS                        -> INTERVAL '3 DAYS'
//   DOUBLE (without PRECISION)             -> DOUBLE PRECISION
//   DESCRIBE x / DESCRIBE SELECT ...       -> EXPLAIN ("__frazil_describe") TABLE x / SELECT ...
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "frazil/sql/source_text.hpp"

namespace frazil::sql {

enum class JoinMarker : uint8_t { LeftSemi, LeftAnti, RightSemi, RightAnti };

struct DialectRewrite {
  SourceText source;
  // Keyed by the original offset of the first token of the joined table.
  std::map<int32_t, JoinMarker> join_kinds;
  // Original offsets of TRY_CAST tokens.
  std::set<int32_t> try_casts;
  // UNION / EXCEPT / INTERSECT ... BY NAME: the original offset of the token after NAME.
  std::set<int32_t> by_name;
};

// Throws SQLSyntaxError (with the position) when the text does not even scan.
DialectRewrite rewrite_dialect(const std::string& sql);

// Names the rewrite introduces.
inline constexpr const char* kWildcardOptions = "__frazil_wildcard";
inline constexpr const char* kQualifyWindow = "__frazil_qualify";
inline constexpr const char* kAllMarker = "__frazil_all";
inline constexpr const char* kDescribeOption = "__frazil_describe";

}  // namespace frazil::sql
