#include "frazil/sql/context.hpp"

#include <gtest/gtest.h>

#include "frazil/frazil.hpp"

using namespace frazil;

namespace {

DataFrame people() {
  PrimitiveBuilder<int64_t> id(DataType::int64());
  ViewBuilder name;
  PrimitiveBuilder<int64_t> dept(DataType::int64());
  PrimitiveBuilder<double> pay(DataType::float64());
  const char* names[] = {"ann", "bob", "cid", "dee", "eve"};
  for (int i = 0; i < 5; ++i) {
    id.push(i + 1);
    name.push(names[i]);
    if (i == 4) dept.push_null();
    else dept.push(i % 2 + 10);
    pay.push(100.0 * (i + 1));
  }
  return DataFrame({Column("id", id.finish()), Column("name", name.finish()), Column("dept", dept.finish()),
                    Column("pay", pay.finish())});
}

DataFrame depts() {
  PrimitiveBuilder<int64_t> id(DataType::int64());
  ViewBuilder title;
  id.push(10);
  title.push("sales");
  id.push(11);
  title.push("ops");
  id.push(12);
  title.push("none");
  return DataFrame({Column("dept_id", id.finish()), Column("title", title.finish())});
}

sql::Context context() {
  sql::Context ctx;
  ctx.register_frame("people", people());
  ctx.register_frame("depts", depts());
  return ctx;
}

std::vector<Scalar> column(const DataFrame& df, const std::string& name) {
  std::vector<Scalar> out;
  const Column& c = df.column(name);
  for (int64_t i = 0; i < c.length(); ++i) out.push_back(c.get(i));
  return out;
}

}  // namespace

TEST(SqlContext, SelectWhereOrderLimit) {
  auto ctx = context();
  DataFrame out = ctx.execute("SELECT name, pay * 2 AS double_pay FROM people WHERE pay > 150 ORDER BY pay DESC LIMIT 2").collect();
  ASSERT_EQ(out.names(), (std::vector<std::string>{"name", "double_pay"}));
  EXPECT_EQ(column(out, "name"), (std::vector<Scalar>{Scalar::string("eve"), Scalar::string("dee")}));
  EXPECT_EQ(column(out, "double_pay")[0], Scalar::float64(1000.0));
}

TEST(SqlContext, GroupByWithHavingAndNullKeys) {
  auto ctx = context();
  DataFrame out =
      ctx.execute("SELECT dept, count(*) AS n, sum(pay) AS total FROM people GROUP BY dept HAVING count(*) >= 1 "
                  "ORDER BY dept NULLS FIRST")
          .collect();
  ASSERT_EQ(out.height(), 3);
  EXPECT_TRUE(out.column("dept").get(0).is_null());
  EXPECT_EQ(column(out, "n"), (std::vector<Scalar>{Scalar::int64(1), Scalar::int64(2), Scalar::int64(2)}));
  EXPECT_EQ(out.column("total").get(1), Scalar::float64(100.0 + 300.0));
}

TEST(SqlContext, SumOfNoRowsIsNull) {
  auto ctx = context();
  DataFrame out = ctx.execute("SELECT sum(pay) AS s, count(*) AS n FROM people WHERE pay < 0").collect();
  EXPECT_TRUE(out.column("s").get(0).is_null());
  EXPECT_EQ(out.column("n").get(0), Scalar::int64(0));
}

TEST(SqlContext, JoinsKeepBothKeyColumns) {
  auto ctx = context();
  DataFrame out =
      ctx.execute("SELECT p.name, d.title, d.dept_id FROM people p LEFT JOIN depts d ON p.dept = d.dept_id ORDER BY p.id")
          .collect();
  ASSERT_EQ(out.height(), 5);
  EXPECT_EQ(out.column("title").get(0), Scalar::string("sales"));
  EXPECT_TRUE(out.column("title").get(4).is_null());
  EXPECT_TRUE(out.column("dept_id").get(4).is_null());
}

TEST(SqlContext, CommaJoinsBecomeKeyJoins) {
  auto ctx = context();
  LazyFrame lf = ctx.execute("SELECT name, title FROM people, depts WHERE dept = dept_id AND title <> 'ops'");
  const std::string plan = lf.explain();
  EXPECT_EQ(plan.find("CROSS"), std::string::npos) << plan;
  EXPECT_EQ(lf.collect().height(), 2);
}

TEST(SqlContext, InAndNotInFollowThreeValuedLogic) {
  auto ctx = context();
  // The subquery holds a NULL: NOT IN is never true.
  EXPECT_EQ(ctx.execute("SELECT id FROM people WHERE id NOT IN (SELECT dept FROM people)").collect().height(), 0);
  // Without it: the ids that are no dept, the NULL-dept person's id included.
  EXPECT_EQ(ctx.execute("SELECT id FROM people WHERE id NOT IN (SELECT dept_id FROM depts)").collect().height(), 5);
  // An empty subquery: NOT IN is true, even for a NULL probe.
  EXPECT_EQ(ctx.execute("SELECT id FROM people WHERE dept NOT IN (SELECT dept_id FROM depts WHERE false)").collect().height(), 5);
  // As a value: NULL where unknown.
  DataFrame v = ctx.execute("SELECT id, dept IN (SELECT dept_id FROM depts WHERE dept_id < 11) AS m FROM people ORDER BY id").collect();
  EXPECT_EQ(v.column("m").get(0), Scalar::boolean(true));
  EXPECT_EQ(v.column("m").get(1), Scalar::boolean(false));
  EXPECT_TRUE(v.column("m").get(4).is_null());
}

TEST(SqlContext, CorrelatedSubqueriesAreJoins) {
  auto ctx = context();
  LazyFrame lf = ctx.execute(
      "SELECT name FROM people p WHERE pay > (SELECT avg(pay) FROM people q WHERE q.dept = p.dept) ORDER BY name");
  EXPECT_EQ(column(lf.collect(), "name"), (std::vector<Scalar>{Scalar::string("cid"), Scalar::string("dee")}));
  // COUNT over no rows is 0, not NULL.
  DataFrame c = ctx.execute(
                       "SELECT id, (SELECT count(*) FROM people q WHERE q.dept = p.dept AND q.id > p.id) AS later "
                       "FROM people p ORDER BY id")
                    .collect();
  EXPECT_EQ(column(c, "later"),
            (std::vector<Scalar>{Scalar::int64(1), Scalar::int64(1), Scalar::int64(0), Scalar::int64(0), Scalar::int64(0)}));
  // EXISTS with an inequality on the outer row.
  DataFrame e = ctx.execute(
                       "SELECT id FROM people p WHERE EXISTS (SELECT 1 FROM people q WHERE q.dept = p.dept AND q.id <> p.id) "
                       "ORDER BY id")
                    .collect();
  EXPECT_EQ(e.height(), 4);
  EXPECT_NE(lf.explain().find("JOIN"), std::string::npos);
}

TEST(SqlContext, CtesReadTwiceAreOneSubplan) {
  auto ctx = context();
  LazyFrame lf = ctx.execute(
      "WITH d AS (SELECT dept, sum(pay) AS total FROM people GROUP BY dept) "
      "SELECT a.dept FROM d a, d b WHERE a.dept = b.dept AND a.total = b.total");
  EXPECT_NE(lf.explain().find("CACHE"), std::string::npos) << lf.explain();
  EXPECT_EQ(lf.collect().height(), 2);
}

TEST(SqlContext, SetOperations) {
  auto ctx = context();
  EXPECT_EQ(ctx.execute("SELECT dept FROM people UNION SELECT dept_id FROM depts").collect().height(), 4);
  EXPECT_EQ(ctx.execute("SELECT dept FROM people UNION ALL SELECT dept_id FROM depts").collect().height(), 8);
  EXPECT_EQ(ctx.execute("SELECT dept_id FROM depts INTERSECT SELECT dept FROM people").collect().height(), 2);
  // NULL matches NULL in set operations.
  EXPECT_EQ(ctx.execute("SELECT dept FROM people EXCEPT SELECT dept FROM people WHERE id < 3").collect().height(), 1);
}

TEST(SqlContext, Statements) {
  auto ctx = context();
  ctx.execute("CREATE TABLE rich AS SELECT * FROM people WHERE pay >= 300");
  EXPECT_EQ(ctx.execute("SELECT * FROM rich").collect().height(), 3);
  ctx.execute("CREATE VIEW names (n) AS SELECT name FROM people");
  EXPECT_EQ(ctx.execute("SELECT n FROM names").collect().height(), 5);
  EXPECT_THROW(ctx.execute("CREATE VIEW names AS SELECT 1"), SQLInterfaceError);
  ctx.execute("CREATE OR REPLACE VIEW names AS SELECT 1 AS one");
  EXPECT_EQ(ctx.execute("SELECT * FROM names").collect().names(), std::vector<std::string>{"one"});
  DataFrame tables = ctx.execute("SHOW TABLES").collect();
  EXPECT_EQ(tables.height(), 4);
  DataFrame d = ctx.execute("DESCRIBE people").collect();
  EXPECT_EQ(d.names(), (std::vector<std::string>{"column_name", "column_type"}));
  EXPECT_EQ(d.height(), 4);
  ctx.execute("DROP VIEW names; DROP TABLE IF EXISTS nothing");
  EXPECT_EQ(ctx.tables(), (std::vector<std::string>{"depts", "people", "rich"}));
  EXPECT_NE(ctx.execute("EXPLAIN SELECT * FROM people WHERE id = 1").collect().column(0).get(0).to_string(), "");
}

TEST(SqlContext, ErrorsNameThePosition) {
  auto ctx = context();
  try {
    ctx.execute("SELECT name\nFROM people\nWHERE nmae = 'x'");
    FAIL();
  } catch (const ColumnNotFoundError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("column 'nmae' not found"), std::string::npos) << m;
    EXPECT_NE(m.find("did you mean 'name'?"), std::string::npos) << m;
    EXPECT_NE(m.find("line 3, column 7"), std::string::npos) << m;
  }
  EXPECT_THROW(ctx.execute("SELEC 1"), SQLSyntaxError);
  EXPECT_THROW(ctx.execute("SELECT * FROM peple"), SQLInterfaceError);
  EXPECT_THROW(ctx.execute("SELECT sumx(pay) FROM people"), SQLInterfaceError);
  EXPECT_THROW(ctx.execute("SELECT name, count(*) FROM people GROUP BY dept"), SQLInterfaceError);
  EXPECT_THROW(ctx.execute("SELECT id FROM people WHERE sum(pay) > 1"), SQLInterfaceError);
  EXPECT_THROW(ctx.execute("SELECT id FROM people p, depts d WHERE id = dept_id AND xyz = 1"), ColumnNotFoundError);
  EXPECT_THROW(ctx.execute(""), SQLSyntaxError);
}

TEST(SqlContext, SqlExprAndReferencedTables) {
  dsl::Expr e = sql::sql_expr("a * 2 AS b");
  DataFrame out = LazyFrame::from_frame(people()).with_columns({dsl::col("id").alias("a")}).select({e}).collect();
  EXPECT_EQ(out.names(), std::vector<std::string>{"b"});
  EXPECT_EQ(sql::referenced_tables("WITH c AS (SELECT * FROM x) SELECT * FROM c, y JOIN x USING (k)"),
            (std::vector<std::string>{"y", "x"}));
  EXPECT_EQ(sql::split_statements("SELECT ';'; SELECT 2;").size(), 2u);
}

// libpg_query recurses over the parse tree without a check of its own: a 10,000-term sum
// overflowed an 8 MiB stack. Context::execute runs on a large stack, and a text that could nest
// deeper than that stack holds is refused before it is parsed.
TEST(SqlContext, DeepSumRunsAndDeeperIsRefused) {
  sql::Context ctx;
  ctx.register_frame("t", people());
  std::string sum = "id";
  for (int i = 1; i < 5000; ++i) sum += "+id";
  DataFrame out = ctx.execute("SELECT " + sum + " AS s FROM t WHERE id = 1").collect();
  ASSERT_EQ(out.height(), 1u);
  std::string deeper = "id";
  for (int i = 1; i < 300000; ++i) deeper += "+id";  // more levels than 1 GiB of stack allows
  try {
    ctx.execute("SELECT " + deeper + " AS s FROM t");
    FAIL() << "a 300,000-term sum was parsed";
  } catch (const SQLInterfaceError& e) {
    EXPECT_NE(std::string(e.what()).find("nests too deeply"), std::string::npos) << e.what();
  }
}
