#include "frazil/sql/dialect.hpp"

#include <pg_query/pg_query.pb-c.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

#include "frazil/sql/tokens.hpp"

namespace frazil::sql {

namespace {

std::vector<Token> scan(const std::string& sql) {
  ScannedText scanned = scan_tokens(sql);
  if (!scanned.ok()) fail_at(ErrorKind::SQLSyntax, SourceText(sql), scanned.error_at, "SQL syntax error: " + scanned.error);
  return std::move(scanned.tokens);
}

const char* const kIntervalUnits[] = {
    "year",        "years",        "month",      "months",      "week",        "weeks",     "day",
    "days",        "hour",         "hours",      "minute",      "minutes",     "second",    "seconds",
    "millisecond", "milliseconds", "microsecond", "microseconds", "nanosecond", "nanoseconds", "quarter",
    "quarters",    "decade",       "decades",    "century",     "centuries",   "millennium", "millennia",
    "ms",          "us",           "ns",         "mon",         "mons",        "min",       "mins",
    "sec",         "secs",         "hr",         "hrs",         "y",           "d",         "h",
    "m",           "s",            "w",          "mo",          "yr",          "yrs"};

class Rewriter {
 public:
  Rewriter(const std::string& sql, std::vector<Token> tokens) : src_(sql), t_(std::move(tokens)) {}

  DialectRewrite run() {
    rewrite_range(0, t_.size());
    copy_to(static_cast<int32_t>(src_.size()));
    origin_.push_back(static_cast<int32_t>(src_.size()));
    result_.source = SourceText(src_, std::move(out_), std::move(origin_));
    return std::move(result_);
  }

 private:
  const std::string& src_;
  std::vector<Token> t_;
  std::string out_;
  std::vector<int32_t> origin_;
  int32_t pos_ = 0;  // the original text before pos_ has been handled
  DialectRewrite result_;

  // ---- token inspection ----
  std::string text(size_t i) const { return src_.substr(t_[i].start, t_[i].end - t_[i].start); }
  std::string lower(size_t i) const {
    std::string s = text(i);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  bool quoted(size_t i) const { return src_[t_[i].start] == '"' || src_[t_[i].start] == 'U' || src_[t_[i].start] == 'u'; }
  // An unquoted identifier or keyword spelled `word` (lower case).
  bool is_word(size_t i, const char* word) const {
    if (i >= t_.size()) return false;
    if (t_[i].kind == PG_QUERY__TOKEN__IDENT && src_[t_[i].start] == '"') return false;
    if (t_[i].kind != PG_QUERY__TOKEN__IDENT && t_[i].keyword == 0) return false;
    return lower(i) == word;
  }
  bool is_char(size_t i, char c) const { return i < t_.size() && t_[i].kind == c; }
  bool is_kind(size_t i, int kind) const { return i < t_.size() && t_[i].kind == kind; }

  // The index of the parenthesis closing the one at `open`, or t_.size().
  size_t matching(size_t open) const {
    int depth = 0;
    for (size_t i = open; i < t_.size(); ++i) {
      if (t_[i].kind == '(' || t_[i].kind == '[') ++depth;
      if (t_[i].kind == ')' || t_[i].kind == ']') {
        if (--depth == 0) return i;
      }
    }
    return t_.size();
  }

  // The first token at parenthesis depth 0 from `from` that ends a clause (or `end`).
  size_t clause_end(size_t from, size_t end, bool stop_at_comma) const {
    int depth = 0;
    for (size_t i = from; i < end; ++i) {
      const int k = t_[i].kind;
      if (k == '(' || k == '[') ++depth;
      else if (k == ')' || k == ']') {
        if (depth == 0) return i;
        --depth;
      } else if (depth == 0) {
        if (k == ';' || (stop_at_comma && k == ',')) return i;
        if (k == PG_QUERY__TOKEN__ORDER || k == PG_QUERY__TOKEN__LIMIT || k == PG_QUERY__TOKEN__OFFSET ||
            k == PG_QUERY__TOKEN__FETCH || k == PG_QUERY__TOKEN__UNION || k == PG_QUERY__TOKEN__INTERSECT ||
            k == PG_QUERY__TOKEN__EXCEPT || k == PG_QUERY__TOKEN__WINDOW || k == PG_QUERY__TOKEN__FOR ||
            k == PG_QUERY__TOKEN__HAVING || k == PG_QUERY__TOKEN__ASC || k == PG_QUERY__TOKEN__DESC ||
            k == PG_QUERY__TOKEN__NULLS_P || is_word(i, "qualify"))
          return i;
      }
    }
    return end;
  }

  bool at_statement_start(size_t i) const { return i == 0 || is_char(i - 1, ';'); }

  // ---- output ----
  void emit(const std::string& s, int32_t origin) {
    out_ += s;
    origin_.insert(origin_.end(), s.size(), origin);
  }
  void copy_to(int32_t p) {
    for (int32_t q = pos_; q < p; ++q) {
      out_ += src_[q];
      origin_.push_back(q);
    }
    pos_ = std::max(pos_, p);
  }
  // Emits `s` in place of tokens [i, j).
  void replace(size_t i, size_t j, const std::string& s) {
    copy_to(t_[i].start);
    emit(s, t_[i].start);
    pos_ = t_[j - 1].end;
  }

  void rewrite_range(size_t a, size_t b) {
    for (size_t i = a; i < b;) i = rewrite_token(i, b);
  }

  // Handles token i (and any it consumes with it); returns the next token's index.
  size_t rewrite_token(size_t i, size_t end) {
    const Token& k = t_[i];
    // DuckDB's FROM-first statement: `FROM t [WHERE ...]` is `SELECT * FROM t ...`.
    if (k.kind == PG_QUERY__TOKEN__FROM && at_statement_start(i)) {
      copy_to(k.start);
      emit("SELECT * ", k.start);
      copy_to(k.end);
      return i + 1;
    }
    if ((is_word(i, "describe") || is_word(i, "desc")) && at_statement_start(i)) {
      const bool query = is_kind(i + 1, PG_QUERY__TOKEN__SELECT) || is_kind(i + 1, PG_QUERY__TOKEN__WITH) ||
                         is_char(i + 1, '(') || is_kind(i + 1, PG_QUERY__TOKEN__VALUES) ||
                         is_kind(i + 1, PG_QUERY__TOKEN__TABLE);
      replace(i, i + 1, std::string("EXPLAIN (\"") + kDescribeOption + "\")" + (query ? "" : " TABLE"));
      return i + 1;
    }
    // [LEFT|RIGHT] SEMI|ANTI JOIN
    {
      size_t j = i;
      bool right = false;
      if (is_kind(j, PG_QUERY__TOKEN__LEFT) || is_kind(j, PG_QUERY__TOKEN__RIGHT)) {
        right = is_kind(j, PG_QUERY__TOKEN__RIGHT);
        ++j;
      }
      if ((is_word(j, "semi") || is_word(j, "anti")) && is_kind(j + 1, PG_QUERY__TOKEN__JOIN) && j + 2 < t_.size()) {
        const bool semi = is_word(j, "semi");
        result_.join_kinds[t_[j + 2].start] = right ? (semi ? JoinMarker::RightSemi : JoinMarker::RightAnti)
                                                    : (semi ? JoinMarker::LeftSemi : JoinMarker::LeftAnti);
        replace(i, j + 2, "JOIN");
        return j + 2;
      }
    }
    // A trailing comma before FROM or a closing parenthesis (Polars and DuckDB allow it).
    if (k.kind == ',' && (i + 1 >= t_.size() || is_kind(i + 1, PG_QUERY__TOKEN__FROM) || is_char(i + 1, ')') ||
                          is_char(i + 1, ';'))) {
      copy_to(k.start);
      pos_ = k.end;
      return i + 1;
    }
    if (k.kind == PG_QUERY__TOKEN__FETCH) check_fetch(i);
    // UNION / EXCEPT / INTERSECT [ALL | DISTINCT] BY NAME: the columns matched by name.
    if (k.kind == PG_QUERY__TOKEN__UNION || k.kind == PG_QUERY__TOKEN__EXCEPT || k.kind == PG_QUERY__TOKEN__INTERSECT) {
      size_t j = i + 1;
      const bool all = is_kind(j, PG_QUERY__TOKEN__ALL);
      if (all || is_kind(j, PG_QUERY__TOKEN__DISTINCT)) ++j;
      if (is_kind(j, PG_QUERY__TOKEN__BY) && is_word(j + 1, "name")) {
        if (all && k.kind != PG_QUERY__TOKEN__UNION) {
          std::string op = k.kind == PG_QUERY__TOKEN__EXCEPT ? "EXCEPT" : "INTERSECT";
          fail_at(ErrorKind::SQLInterface, SourceText(src_), k.start, "'" + op + " ALL BY NAME' is not supported");
        }
        copy_to(t_[j - 1].end);
        pos_ = t_[j + 1].end;
        result_.by_name.insert(j + 2 < t_.size() ? t_[j + 2].start : static_cast<int32_t>(src_.size()));
        return j + 2;
      }
    }
    // TIME(x) and TIMESTAMP(x) as functions (a precision, TIME(3), stays a type).
    if ((k.kind == PG_QUERY__TOKEN__TIME || k.kind == PG_QUERY__TOKEN__TIMESTAMP) && is_char(i + 1, '(') &&
        !is_kind(i + 2, PG_QUERY__TOKEN__ICONST) && !(i > 0 && (is_kind(i - 1, PG_QUERY__TOKEN__AS) || is_kind(i - 1, PG_QUERY__TOKEN__TYPECAST)))) {
      replace(i, i + 1, "\"" + lower(i) + "\"");
      return i + 1;
    }
    // EXTRACT(time FROM x): any field name, keywords included, as a string.
    if (is_word(i, "extract") && is_char(i + 1, '(') && i + 3 < t_.size() && is_kind(i + 3, PG_QUERY__TOKEN__FROM) &&
        t_[i + 2].kind != PG_QUERY__TOKEN__SCONST) {
      copy_to(t_[i + 1].end);
      replace(i + 2, i + 3, "'" + text(i + 2) + "'");
      return i + 3;
    }
    // LEFT / RIGHT / FULL as a table's name: `left.key`, `JOIN right ON`, `FROM left`.
    if ((k.kind == PG_QUERY__TOKEN__LEFT || k.kind == PG_QUERY__TOKEN__RIGHT || k.kind == PG_QUERY__TOKEN__FULL) &&
        (is_char(i + 1, '.') ||
         (i > 0 && (is_kind(i - 1, PG_QUERY__TOKEN__JOIN) || is_kind(i - 1, PG_QUERY__TOKEN__FROM)) &&
          !is_kind(i + 1, PG_QUERY__TOKEN__JOIN) && !is_word(i + 1, "outer") && !is_word(i + 1, "semi") &&
          !is_word(i + 1, "anti")))) {
      replace(i, i + 1, "\"" + lower(i) + "\"");
      return i + 1;
    }
    // A subquery in FROM without an alias gets one (PostgreSQL requires it).
    if (k.kind == '(' && i > 0 && (is_kind(i - 1, PG_QUERY__TOKEN__FROM) || is_kind(i - 1, PG_QUERY__TOKEN__JOIN) ||
                                   (is_char(i - 1, ',') && in_from(i))) &&
        (is_kind(i + 1, PG_QUERY__TOKEN__SELECT) || is_kind(i + 1, PG_QUERY__TOKEN__WITH) ||
         is_kind(i + 1, PG_QUERY__TOKEN__VALUES) || is_char(i + 1, '('))) {
      const size_t close = matching(i);
      if (close < end && !aliased_after(close + 1)) {
        copy_to(k.end);
        rewrite_range(i + 1, close);
        copy_to(t_[close].end);
        emit(" AS \"__frazil_subquery_" + std::to_string(++subqueries_) + "\"", t_[close].start);
        return close + 1;
      }
    }
    if (is_word(i, "try_cast") && is_char(i + 1, '(')) {
      result_.try_casts.insert(k.start);
      replace(i, i + 1, "CAST");
      return i + 1;
    }
    if (k.kind == '*' && wildcard_position(i) && wildcard_option(i + 1)) return wildcard_options(i, end);
    if (is_word(i, "qualify")) return qualify(i, end);
    if (k.kind == PG_QUERY__TOKEN__ALL && i >= 2 && is_kind(i - 1, PG_QUERY__TOKEN__BY) &&
        (is_kind(i - 2, PG_QUERY__TOKEN__GROUP_P) || is_kind(i - 2, PG_QUERY__TOKEN__ORDER)) &&
        clause_end(i + 1, end, true) == i + 1) {
      replace(i, i + 1, std::string("\"") + kAllMarker + "\"()");
      return i + 1;
    }
    if (k.kind == '[' && !after_operand(i) && !(i > 0 && is_kind(i - 1, PG_QUERY__TOKEN__ARRAY))) {
      replace(i, i + 1, "ARRAY[");
      return i + 1;
    }
    if (k.kind == PG_QUERY__TOKEN__NOT && (is_word(i + 1, "regexp") || is_word(i + 1, "rlike"))) {
      replace(i, i + 2, "!~");
      return i + 2;
    }
    if (is_word(i, "regexp") || is_word(i, "rlike")) {
      replace(i, i + 1, "~");
      return i + 1;
    }
    if (is_word(i, "xor") && after_operand(i)) {
      replace(i, i + 1, "#");
      return i + 1;
    }
    if (k.kind == PG_QUERY__TOKEN__INTERVAL &&
        (is_kind(i + 1, PG_QUERY__TOKEN__ICONST) || is_kind(i + 1, PG_QUERY__TOKEN__FCONST))) {
      copy_to(t_[i].end);
      std::string unit;
      if (i + 2 < end) {
        const std::string u = lower(i + 2);
        for (const char* known : kIntervalUnits)
          if (u == known) unit = text(i + 2);
      }
      if (unit.empty()) {
        replace(i + 1, i + 2, "'" + text(i + 1) + "'");
        return i + 2;
      }
      replace(i + 1, i + 3, "'" + text(i + 1) + " " + unit + "'");
      return i + 3;
    }
    if (k.kind == PG_QUERY__TOKEN__DOUBLE_P && !is_kind(i + 1, PG_QUERY__TOKEN__PRECISION)) {
      replace(i, i + 1, "DOUBLE PRECISION");
      return i + 1;
    }
    if (mixed_case_keyword_name(i)) {
      replace(i, i + 1, "\"" + text(i) + "\"");
      return i + 1;
    }
    if (k.kind == PG_QUERY__TOKEN__IDENT && !quoted(i)) {
      const std::string s = text(i);
      if (std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
        replace(i, i + 1, "\"" + s + "\"");
        return i + 1;
      }
    }
    copy_to(k.end);
    return i + 1;
  }

  // A non-reserved keyword spelled in mixed case ("Name", "Year") where a name stands: after AS (outside
  // CAST), after BY, or as a whole SELECT-list item. Polars' names keep their case, so "Name" is a column
  // there, never the keyword NAME (spelled NAME or name it stays a keyword).
  bool mixed_case_keyword_name(size_t i) const {
    const Token& k = t_[i];
    if (k.keyword != PG_QUERY__KEYWORD_KIND__UNRESERVED_KEYWORD && k.keyword != PG_QUERY__KEYWORD_KIND__COL_NAME_KEYWORD)
      return false;
    const std::string s = text(i);
    const bool upper = std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    const bool lower_ = std::any_of(s.begin(), s.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (!upper || !lower_ || i == 0) return false;
    const int prev = t_[i - 1].kind;
    const int next = i + 1 < t_.size() ? t_[i + 1].kind : ';';
    if (next == '(' || next == '.' || next == PG_QUERY__TOKEN__SCONST) return false;  // a function, a qualifier, a typed literal
    if (prev == PG_QUERY__TOKEN__AS) return !in_cast(i);
    if (prev == PG_QUERY__TOKEN__BY) return next != PG_QUERY__TOKEN__SETS;
    if (prev == PG_QUERY__TOKEN__SELECT || prev == ',')
      return next == ',' || next == PG_QUERY__TOKEN__FROM || next == PG_QUERY__TOKEN__AS || next == ';' ||
             next == PG_QUERY__TOKEN__ASC || next == PG_QUERY__TOKEN__DESC || next == ')';
    return false;
  }

  // Whether token i sits directly in CAST( ... ) or TRY_CAST( ... ).
  bool in_cast(size_t i) const {
    int depth = 0;
    for (size_t j = i; j-- > 0;) {
      if (t_[j].kind == ')') ++depth;
      if (t_[j].kind == '(') {
        if (depth == 0) return j > 0 && (is_kind(j - 1, PG_QUERY__TOKEN__CAST) || is_word(j - 1, "try_cast"));
        --depth;
      }
    }
    return false;
  }

  // A token that ends an operand: what follows it is an operator or a subscript.
  bool after_operand(size_t i) const {
    if (i == 0) return false;
    const Token& p = t_[i - 1];
    if (p.kind == PG_QUERY__TOKEN__IDENT || p.kind == ')' || p.kind == ']' || p.kind == PG_QUERY__TOKEN__SCONST ||
        p.kind == PG_QUERY__TOKEN__ICONST || p.kind == PG_QUERY__TOKEN__FCONST)
      return true;
    // Unreserved and column-name keywords can be column names (`value[1]`).
    return p.keyword == PG_QUERY__KEYWORD_KIND__UNRESERVED_KEYWORD || p.keyword == PG_QUERY__KEYWORD_KIND__COL_NAME_KEYWORD;
  }

  int subqueries_ = 0;

  // Whether a token starts an alias (AS, or a name that is not a clause keyword).
  bool aliased_after(size_t i) const {
    if (i >= t_.size()) return false;
    if (is_kind(i, PG_QUERY__TOKEN__AS)) return true;
    if (t_[i].kind == PG_QUERY__TOKEN__IDENT) return true;
    return t_[i].keyword == PG_QUERY__KEYWORD_KIND__UNRESERVED_KEYWORD && !is_word(i, "qualify");
  }

  // Whether token i sits in a FROM list (a FROM before it at the same depth, in this SELECT).
  bool in_from(size_t i) const {
    int depth = 0;
    for (size_t j = i; j-- > 0;) {
      if (t_[j].kind == ')') ++depth;
      if (t_[j].kind == '(') {
        if (depth == 0) return false;
        --depth;
      }
      if (depth == 0 && t_[j].kind == PG_QUERY__TOKEN__FROM) return true;
      if (depth == 0 && (t_[j].kind == PG_QUERY__TOKEN__SELECT || t_[j].kind == PG_QUERY__TOKEN__WHERE)) return false;
    }
    return false;
  }

  // FETCH FIRST n PERCENT, and LIMIT with FETCH in one query, are refused by name.
  void check_fetch(size_t i) const {
    SourceText src(src_);
    for (size_t j = i + 1; j < t_.size() && j < i + 6; ++j)
      if (is_word(j, "percent"))
        fail_at(ErrorKind::SQLInterface, src, t_[j].start, "`FETCH` with `PERCENT` is not supported");
    int depth = 0;
    for (size_t j = i; j-- > 0;) {
      if (t_[j].kind == ')') ++depth;
      if (t_[j].kind == '(') {
        if (depth == 0) break;
        --depth;
      }
      if (depth == 0 && t_[j].kind == PG_QUERY__TOKEN__SELECT) break;
      if (depth == 0 && t_[j].kind == PG_QUERY__TOKEN__LIMIT)
        fail_at(ErrorKind::SQLSyntax, src, t_[i].start, "cannot use both `LIMIT` and `FETCH` in one query");
    }
  }

  // `*` where a select list expects an item: after SELECT, DISTINCT, ALL, a comma, `t.`,
  // or the parenthesis closing DISTINCT ON (...).
  bool wildcard_position(size_t i) const {
    if (i == 0) return false;
    const Token& p = t_[i - 1];
    if (p.kind == PG_QUERY__TOKEN__SELECT || p.kind == PG_QUERY__TOKEN__DISTINCT || p.kind == PG_QUERY__TOKEN__ALL ||
        p.kind == ',' || p.kind == '.')
      return true;
    if (p.kind == ')') {
      int depth = 0;
      for (size_t j = i - 1;; --j) {
        if (t_[j].kind == ')') ++depth;
        if (t_[j].kind == '(' && --depth == 0)
          return j >= 2 && is_kind(j - 1, PG_QUERY__TOKEN__ON) && is_kind(j - 2, PG_QUERY__TOKEN__DISTINCT);
        if (j == 0) break;
      }
    }
    return false;
  }

  bool wildcard_option(size_t i) const {
    return is_word(i, "exclude") || is_kind(i, PG_QUERY__TOKEN__EXCEPT) || is_word(i, "ilike") ||
           is_word(i, "rename") || is_word(i, "replace");
  }

  // * EXCLUDE (a, b) RENAME (c AS d) REPLACE (e + 1 AS e) ILIKE 'x%'
  //   -> *, "__frazil_wildcard"('exclude', a, b, 'rename', c, d, 'replace', (e + 1), e, 'ilike', 'x%')
  size_t wildcard_options(size_t star, size_t end) {
    copy_to(t_[star].end);
    emit(std::string(", \"") + kWildcardOptions + "\"(", t_[star].start);
    size_t j = star + 1;
    bool first = true;
    while (j < end && wildcard_option(j)) {
      std::string option = lower(j);
      if (option == "except") option = "exclude";
      copy_to(t_[j].start);
      emit(std::string(first ? "" : ", ") + "'" + option + "'", t_[j].start);
      pos_ = t_[j].end;
      first = false;
      ++j;
      if (option == "ilike") {
        if (j < end) {
          emit(",", t_[j].start);
          copy_to(t_[j].end);
          ++j;
        }
        continue;
      }
      const bool paren = is_char(j, '(');
      size_t list_end;
      if (paren) {
        list_end = matching(j);
        pos_ = t_[j].end;
        ++j;
      } else if (option == "exclude") {
        list_end = std::min(j + 1, end);
      } else {
        // One `x AS y` item: to the token after AS.
        size_t as = j;
        while (as < end && !is_kind(as, PG_QUERY__TOKEN__AS) && !is_char(as, ',')) ++as;
        list_end = std::min(as + 2, end);
        if (option == "replace") {
          // The expression may hold AS inside parentheses: find AS at depth 0.
          int depth = 0;
          for (as = j; as < end; ++as) {
            if (t_[as].kind == '(') ++depth;
            if (t_[as].kind == ')') --depth;
            if (depth == 0 && is_kind(as, PG_QUERY__TOKEN__AS)) break;
          }
          list_end = std::min(as + 2, end);
        }
      }
      while (j < list_end) {
        // One item, to the next comma at depth 0.
        size_t item_end = j;
        int depth = 0;
        size_t as = list_end;
        for (; item_end < list_end; ++item_end) {
          const int k = t_[item_end].kind;
          if (k == '(' || k == '[') ++depth;
          if (k == ')' || k == ']') --depth;
          if (depth == 0 && k == ',') break;
          if (depth == 0 && k == PG_QUERY__TOKEN__AS) as = item_end;
        }
        if (option == "exclude" || as == list_end) {
          emit(", ", t_[j].start);
          rewrite_range(j, item_end);
        } else {
          emit(", (", t_[j].start);
          rewrite_range(j, as);
          copy_to(t_[as].start);
          emit("), ", t_[as].start);
          pos_ = t_[as].end;
          rewrite_range(as + 1, item_end);
        }
        j = item_end;
        if (j < list_end && is_char(j, ',')) {
          copy_to(t_[j].start);
          pos_ = t_[j].end;
          ++j;
        }
      }
      if (paren && list_end < t_.size()) {
        copy_to(t_[list_end].start);
        pos_ = t_[list_end].end;
        j = list_end + 1;
      }
    }
    emit(")", j < t_.size() ? t_[j].start : static_cast<int32_t>(src_.size()));
    return j;
  }

  // QUALIFY p -> WINDOW "__frazil_qualify" AS (PARTITION BY (p)), or `, "__frazil_qualify"
  // AS (...)` after a WINDOW clause of the same SELECT.
  size_t qualify(size_t i, size_t end) {
    size_t stop = clause_end(i + 1, end, false);
    while (stop < end && (is_kind(stop, PG_QUERY__TOKEN__ASC) || is_kind(stop, PG_QUERY__TOKEN__DESC) ||
                          is_kind(stop, PG_QUERY__TOKEN__NULLS_P) || is_kind(stop, PG_QUERY__TOKEN__HAVING)))
      stop = clause_end(stop + 1, end, false);
    bool after_window = false;
    int depth = 0;
    for (size_t j = i; j-- > 0;) {
      if (t_[j].kind == ')') ++depth;
      if (t_[j].kind == '(') {
        if (depth == 0) break;
        --depth;
      }
      if (depth == 0 && t_[j].kind == PG_QUERY__TOKEN__SELECT) break;
      if (depth == 0 && t_[j].kind == PG_QUERY__TOKEN__WINDOW) after_window = true;
    }
    replace(i, i + 1, std::string(after_window ? ", \"" : "WINDOW \"") + kQualifyWindow + "\" AS (PARTITION BY (");
    rewrite_range(i + 1, stop);
    const int32_t at = stop < t_.size() ? t_[stop].start : static_cast<int32_t>(src_.size());
    copy_to(stop < t_.size() ? t_[stop - 1].end : static_cast<int32_t>(src_.size()));
    emit(")) ", at);
    return stop;
  }
};

}  // namespace

DialectRewrite rewrite_dialect(const std::string& sql) {
  if (sql.find('\0') != std::string::npos)
    fail_at(ErrorKind::SQLSyntax, SourceText(sql), static_cast<int32_t>(sql.find('\0')),
            "SQL syntax error: the query text holds a NUL character");
  return Rewriter(sql, scan(sql)).run();
}

}  // namespace frazil::sql
