#include "frazil/sql/dialect.hpp"

#include <gtest/gtest.h>

using namespace frazil;
using namespace frazil::sql;

namespace {

std::string rewrite(const std::string& sql) { return rewrite_dialect(sql).source.rewritten(); }

}  // namespace

TEST(SqlDialect, LeavesPostgresSqlAlone) {
  EXPECT_EQ(rewrite("select a, b from t where a > 1"), "select a, b from t where a > 1");
  EXPECT_EQ(rewrite("SELECT \"X\" FROM t -- note"), "SELECT \"X\" FROM t -- note");
}

TEST(SqlDialect, QuotesIdentifiersWithCapitals) {
  EXPECT_EQ(rewrite("SELECT FirstName FROM People"), "SELECT \"FirstName\" FROM \"People\"");
  // Keywords are not identifiers.
  EXPECT_EQ(rewrite("SELECT Count(*) FROM t"), "SELECT \"Count\"(*) FROM t");
}

TEST(SqlDialect, MixedCaseKeywordsInNamePositionsAreNames) {
  EXPECT_EQ(rewrite("SELECT a AS Name FROM t ORDER BY Name DESC"), "SELECT a AS \"Name\" FROM t ORDER BY \"Name\" DESC");
  EXPECT_EQ(rewrite("SELECT Year, b FROM t"), "SELECT \"Year\", b FROM t");
  // Keywords where keywords stand stay keywords, and NAME / name stay as written.
  EXPECT_EQ(rewrite("SELECT CAST(a AS Integer) AS name FROM t Order By a Nulls Last"),
            "SELECT CAST(a AS Integer) AS name FROM t Order By a Nulls Last");
  EXPECT_EQ(rewrite("SELECT Extract(Year From d) FROM t"), "SELECT Extract('Year' From d) FROM t");
}

TEST(SqlDialect, WildcardOptionsBecomeAMarkerCall) {
  EXPECT_EQ(rewrite("SELECT * EXCLUDE (a, b) FROM t"), "SELECT *, \"__frazil_wildcard\"( 'exclude', a,  b) FROM t");
  EXPECT_EQ(rewrite("SELECT * EXCEPT a FROM t"), "SELECT *, \"__frazil_wildcard\"( 'exclude',  a) FROM t");
  EXPECT_EQ(rewrite("SELECT * RENAME (a AS b) FROM t"), "SELECT *, \"__frazil_wildcard\"( 'rename', (a ),  b) FROM t");
  EXPECT_EQ(rewrite("SELECT * REPLACE (a + 1 AS a) FROM t"),
            "SELECT *, \"__frazil_wildcard\"( 'replace', (a + 1 ),  a) FROM t");
  EXPECT_EQ(rewrite("SELECT * ILIKE 'a%' FROM t"), "SELECT *, \"__frazil_wildcard\"( 'ilike', 'a%') FROM t");
  // A set operation's EXCEPT after FROM is not a wildcard option.
  EXPECT_EQ(rewrite("SELECT * FROM a EXCEPT SELECT * FROM b"), "SELECT * FROM a EXCEPT SELECT * FROM b");
}

TEST(SqlDialect, QualifyBecomesANamedWindow) {
  EXPECT_EQ(rewrite("SELECT a FROM t QUALIFY a > 1 ORDER BY a"),
            "SELECT a FROM t WINDOW \"__frazil_qualify\" AS (PARTITION BY ( a > 1))  ORDER BY a");
  EXPECT_EQ(rewrite("SELECT a FROM t WINDOW w AS () QUALIFY a > 1"),
            "SELECT a FROM t WINDOW w AS () , \"__frazil_qualify\" AS (PARTITION BY ( a > 1)) ");
}

TEST(SqlDialect, SemiAndAntiJoinsAreMarkedAtTheirTable) {
  DialectRewrite r = rewrite_dialect("SELECT * FROM a LEFT SEMI JOIN b USING (x) ANTI JOIN c USING (x)");
  EXPECT_EQ(r.source.rewritten(), "SELECT * FROM a JOIN b USING (x) JOIN c USING (x)");
  ASSERT_EQ(r.join_kinds.size(), 2u);
  // Keyed by the original offsets of `b` and `c`.
  ASSERT_EQ(r.join_kinds.count(31), 1u);
  EXPECT_EQ(r.join_kinds.at(31), JoinMarker::LeftSemi);
  ASSERT_EQ(r.join_kinds.count(53), 1u);
  EXPECT_EQ(r.join_kinds.at(53), JoinMarker::LeftAnti);
}

TEST(SqlDialect, OtherExtensions) {
  DialectRewrite r = rewrite_dialect("SELECT TRY_CAST(a AS INT) FROM t");
  EXPECT_EQ(r.source.rewritten(), "SELECT CAST(a AS INT) FROM t");
  EXPECT_EQ(r.try_casts.count(7), 1u);
  EXPECT_EQ(rewrite("SELECT a FROM t GROUP BY ALL"), "SELECT a FROM t GROUP BY \"__frazil_all\"()");
  EXPECT_EQ(rewrite("SELECT [1, 2]"), "SELECT ARRAY[1, 2]");
  EXPECT_EQ(rewrite("SELECT a[1] FROM t"), "SELECT a[1] FROM t");
  EXPECT_EQ(rewrite("SELECT a FROM t WHERE a RLIKE 'x' AND b NOT REGEXP 'y'"),
            "SELECT a FROM t WHERE a ~ 'x' AND b !~ 'y'");
  EXPECT_EQ(rewrite("SELECT a XOR b FROM t"), "SELECT a # b FROM t");
  EXPECT_EQ(rewrite("SELECT INTERVAL 3 DAYS"), "SELECT INTERVAL '3 DAYS'");
  EXPECT_EQ(rewrite("SELECT CAST(a AS DOUBLE) FROM t"), "SELECT CAST(a AS DOUBLE PRECISION) FROM t");
  EXPECT_EQ(rewrite("DESCRIBE t"), "EXPLAIN (\"__frazil_describe\") TABLE t");
  EXPECT_EQ(rewrite("SELECT a, b, FROM t"), "SELECT a, b FROM t");
  EXPECT_EQ(rewrite("SELECT EXTRACT(time FROM d) FROM t"), "SELECT EXTRACT('time' FROM d) FROM t");
}

TEST(SqlDialect, PositionsMapBackToTheOriginalText) {
  DialectRewrite r = rewrite_dialect("SELECT * EXCLUDE (a) FROM Tbl");
  const std::string& out = r.source.rewritten();
  const size_t at = out.find("\"Tbl\"");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(r.source.to_original(static_cast<int32_t>(at)), 26);
}

TEST(SqlDialect, RefusesWhatItCannotExpress) {
  EXPECT_THROW(rewrite_dialect("SELECT * FROM t FETCH FIRST 5 PERCENT ROWS ONLY"), SQLInterfaceError);
  EXPECT_THROW(rewrite_dialect("SELECT * FROM t LIMIT 5 FETCH FIRST 3 ROWS ONLY"), SQLSyntaxError);
  EXPECT_THROW(rewrite_dialect(std::string("SELECT 1\0", 9)), SQLSyntaxError);
}
