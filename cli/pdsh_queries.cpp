// The 22 PDS-H queries written with the C++ LazyFrame API. Each mirrors the Python module
// of the same number in bench/pdsh/queries, so both APIs answer the same questions with
// the same plans.
#include "pdsh_queries.hpp"

#include <initializer_list>

#include "frazil/core/calendar.hpp"

namespace frazil::cli {
namespace {

using JT = compute::JoinType;

Expr date(int y, unsigned m, unsigned d) { return lit(Scalar(DataType::date(), days_from_civil(y, m, d))); }

Expr strings(std::initializer_list<const char*> values) {
  ViewBuilder b;
  for (const char* v : values) b.push(v);
  return dsl::lit_series(b.finish());
}

Expr ints(std::initializer_list<int64_t> values) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  for (int64_t v : values) b.push(v);
  return dsl::lit_series(b.finish());
}

Expr contains(const Expr& e, std::string regex) { return e.function("str.contains", {lit(regex)}); }
Expr starts_with(const Expr& e, std::string p) { return e.function("str.starts_with", {lit(p)}); }
Expr ends_with(const Expr& e, std::string s) { return e.function("str.ends_with", {lit(s)}); }
Expr str_slice(const Expr& e, int64_t offset, int64_t length) {
  return e.function("str.slice", {lit(offset), lit(length)});
}
Expr year(const Expr& e) { return e.function("dt.year"); }

JoinArgs how(JT t) {
  JoinArgs a;
  a.how = t;
  return a;
}
SortArgs order(std::vector<bool> descending) {
  SortArgs a;
  a.descending = std::move(descending);
  return a;
}

Expr disc_price() { return col("l_extendedprice") * (lit(1) - col("l_discount")); }

LazyFrame q1(const PdshTables& t) {
  return t("lineitem")
      .filter(col("l_shipdate") <= date(1998, 9, 2))
      .group_by({col("l_returnflag"), col("l_linestatus")})
      .agg({col("l_quantity").sum().alias("sum_qty"), col("l_extendedprice").sum().alias("sum_base_price"),
            disc_price().sum().alias("sum_disc_price"),
            (disc_price() * (lit(1) + col("l_tax"))).sum().alias("sum_charge"),
            col("l_quantity").mean().alias("avg_qty"), col("l_extendedprice").mean().alias("avg_price"),
            col("l_discount").mean().alias("avg_disc"), len().alias("count_order")})
      .sort({col("l_returnflag"), col("l_linestatus")});
}

LazyFrame q2(const PdshTables& t) {
  LazyFrame europe = t("partsupp")
                         .join(t("supplier"), {col("ps_suppkey")}, {col("s_suppkey")})
                         .join(t("nation"), {col("s_nationkey")}, {col("n_nationkey")})
                         .join(t("region").filter(col("r_name") == lit("EUROPE")), {col("n_regionkey")},
                               {col("r_regionkey")});
  LazyFrame candidates = t("part")
                             .filter((col("p_size") == lit(15)) & ends_with(col("p_type"), "BRASS"))
                             .join(europe, {col("p_partkey")}, {col("ps_partkey")});
  LazyFrame cheapest = candidates.group_by({col("p_partkey")}).agg({col("ps_supplycost").min()});
  return candidates.join(cheapest, {col("p_partkey"), col("ps_supplycost")})
      .select({col("s_acctbal"), col("s_name"), col("n_name"), col("p_partkey"), col("p_mfgr"), col("s_address"),
               col("s_phone"), col("s_comment")})
      .sort({col("s_acctbal"), col("n_name"), col("s_name"), col("p_partkey")}, order({true, false, false, false}))
      .head(100);
}

LazyFrame q3(const PdshTables& t) {
  Expr day = date(1995, 3, 15);
  return t("customer")
      .filter(col("c_mktsegment") == lit("BUILDING"))
      .join(t("orders").filter(col("o_orderdate") < day), {col("c_custkey")}, {col("o_custkey")})
      .join(t("lineitem").filter(col("l_shipdate") > day), {col("o_orderkey")}, {col("l_orderkey")})
      .group_by({col("o_orderkey"), col("o_orderdate"), col("o_shippriority")})
      .agg({disc_price().sum().round(2).alias("revenue")})
      .select({col("o_orderkey").alias("l_orderkey"), col("revenue"), col("o_orderdate"), col("o_shippriority")})
      .sort({col("revenue"), col("o_orderdate")}, order({true, false}))
      .head(10);
}

LazyFrame q4(const PdshTables& t) {
  LazyFrame late = t("lineitem").filter(col("l_commitdate") < col("l_receiptdate"));
  return t("orders")
      .filter(col("o_orderdate").is_between(date(1993, 7, 1), date(1993, 10, 1), "left"))
      .join(late, {col("o_orderkey")}, {col("l_orderkey")}, how(JT::Semi))
      .group_by({col("o_orderpriority")})
      .agg({len().alias("order_count")})
      .sort({col("o_orderpriority")});
}

LazyFrame q5(const PdshTables& t) {
  return t("region")
      .filter(col("r_name") == lit("ASIA"))
      .join(t("nation"), {col("r_regionkey")}, {col("n_regionkey")})
      .join(t("customer"), {col("n_nationkey")}, {col("c_nationkey")})
      .join(t("orders").filter(col("o_orderdate").is_between(date(1994, 1, 1), date(1995, 1, 1), "left")),
            {col("c_custkey")}, {col("o_custkey")})
      .join(t("lineitem"), {col("o_orderkey")}, {col("l_orderkey")})
      .join(t("supplier"), {col("l_suppkey"), col("n_nationkey")}, {col("s_suppkey"), col("s_nationkey")})
      .group_by({col("n_name")})
      .agg({disc_price().sum().round(2).alias("revenue")})
      .sort({col("revenue")}, order({true}));
}

LazyFrame q6(const PdshTables& t) {
  return t("lineitem")
      .filter(col("l_shipdate").is_between(date(1994, 1, 1), date(1995, 1, 1), "left") &
              col("l_discount").is_between(lit(0.05), lit(0.07)) & (col("l_quantity") < lit(24)))
      .select({(col("l_extendedprice") * col("l_discount")).sum().round(2).alias("revenue")});
}

LazyFrame q7(const PdshTables& t) {
  LazyFrame pair = t("nation").filter(col("n_name").is_in(strings({"FRANCE", "GERMANY"})));
  LazyFrame suppliers = t("supplier")
                            .join(pair, {col("s_nationkey")}, {col("n_nationkey")})
                            .select({col("s_suppkey"), col("n_name").alias("supp_nation")});
  LazyFrame customers = t("customer")
                            .join(pair, {col("c_nationkey")}, {col("n_nationkey")})
                            .select({col("c_custkey"), col("n_name").alias("cust_nation")});
  return t("lineitem")
      .filter(col("l_shipdate").is_between(date(1995, 1, 1), date(1996, 12, 31)))
      .join(suppliers, {col("l_suppkey")}, {col("s_suppkey")})
      .join(t("orders"), {col("l_orderkey")}, {col("o_orderkey")})
      .join(customers, {col("o_custkey")}, {col("c_custkey")})
      .filter(col("supp_nation") != col("cust_nation"))
      .with_columns({year(col("l_shipdate")).alias("l_year"), disc_price().alias("volume")})
      .group_by({col("supp_nation"), col("cust_nation"), col("l_year")})
      .agg({col("volume").sum().round(2).alias("revenue")})
      .sort({col("supp_nation"), col("cust_nation"), col("l_year")});
}

LazyFrame q8(const PdshTables& t) {
  LazyFrame american_customers =
      t("customer")
          .join(t("nation"), {col("c_nationkey")}, {col("n_nationkey")})
          .join(t("region").filter(col("r_name") == lit("AMERICA")), {col("n_regionkey")}, {col("r_regionkey")})
          .select({col("c_custkey")});
  LazyFrame supplier_nations = t("supplier")
                                   .join(t("nation"), {col("s_nationkey")}, {col("n_nationkey")})
                                   .select({col("s_suppkey"), col("n_name").alias("nation")});
  Expr brazil = when(col("nation") == lit("BRAZIL")).then(col("volume")).otherwise(lit(0));
  return t("part")
      .filter(col("p_type") == lit("ECONOMY ANODIZED STEEL"))
      .join(t("lineitem"), {col("p_partkey")}, {col("l_partkey")})
      .join(t("orders").filter(col("o_orderdate").is_between(date(1995, 1, 1), date(1996, 12, 31))),
            {col("l_orderkey")}, {col("o_orderkey")})
      .join(american_customers, {col("o_custkey")}, {col("c_custkey")})
      .join(supplier_nations, {col("l_suppkey")}, {col("s_suppkey")})
      .select({year(col("o_orderdate")).alias("o_year"), disc_price().alias("volume"), col("nation")})
      .group_by({col("o_year")})
      .agg({(brazil.sum() / col("volume").sum()).round(2).alias("mkt_share")})
      .sort({col("o_year")});
}

LazyFrame q9(const PdshTables& t) {
  return t("part")
      .filter(contains(col("p_name"), "green"))
      .join(t("lineitem"), {col("p_partkey")}, {col("l_partkey")})
      .join(t("partsupp"), {col("p_partkey"), col("l_suppkey")}, {col("ps_partkey"), col("ps_suppkey")})
      .join(t("supplier"), {col("l_suppkey")}, {col("s_suppkey")})
      .join(t("orders"), {col("l_orderkey")}, {col("o_orderkey")})
      .join(t("nation"), {col("s_nationkey")}, {col("n_nationkey")})
      .select({col("n_name").alias("nation"), year(col("o_orderdate")).alias("o_year"),
               (disc_price() - col("ps_supplycost") * col("l_quantity")).alias("amount")})
      .group_by({col("nation"), col("o_year")})
      .agg({col("amount").sum().round(2).alias("sum_profit")})
      .sort({col("nation"), col("o_year")}, order({false, true}));
}

LazyFrame q10(const PdshTables& t) {
  return t("orders")
      .filter(col("o_orderdate").is_between(date(1993, 10, 1), date(1994, 1, 1), "left"))
      .join(t("lineitem").filter(col("l_returnflag") == lit("R")), {col("o_orderkey")}, {col("l_orderkey")})
      .join(t("customer"), {col("o_custkey")}, {col("c_custkey")})
      .join(t("nation"), {col("c_nationkey")}, {col("n_nationkey")})
      .group_by({col("o_custkey"), col("c_name"), col("c_acctbal"), col("c_phone"), col("n_name"), col("c_address"),
                 col("c_comment")})
      .agg({disc_price().sum().round(2).alias("revenue")})
      .select({col("o_custkey").alias("c_custkey"), col("c_name"), col("revenue"), col("c_acctbal"), col("n_name"),
               col("c_address"), col("c_phone"), col("c_comment")})
      .sort({col("revenue")}, order({true}))
      .head(20);
}

LazyFrame q11(const PdshTables& t) {
  return t("partsupp")
      .join(t("supplier"), {col("ps_suppkey")}, {col("s_suppkey")})
      .join(t("nation").filter(col("n_name") == lit("GERMANY")), {col("s_nationkey")}, {col("n_nationkey")})
      .group_by({col("ps_partkey")})
      .agg({(col("ps_supplycost") * col("ps_availqty")).sum().alias("value")})
      .filter(col("value") > col("value").sum() * lit(0.0001))
      .with_columns({col("value").round(2)})
      .sort({col("value")}, order({true}));
}

LazyFrame q12(const PdshTables& t) {
  Expr urgent = col("o_orderpriority").is_in(strings({"1-URGENT", "2-HIGH"}));
  return t("lineitem")
      .filter(col("l_shipmode").is_in(strings({"MAIL", "SHIP"})) & (col("l_commitdate") < col("l_receiptdate")) &
              (col("l_shipdate") < col("l_commitdate")) &
              col("l_receiptdate").is_between(date(1994, 1, 1), date(1995, 1, 1), "left"))
      .join(t("orders"), {col("l_orderkey")}, {col("o_orderkey")})
      .group_by({col("l_shipmode")})
      .agg({when(urgent).then(lit(1)).otherwise(lit(0)).sum().alias("high_line_count"),
            when(urgent).then(lit(0)).otherwise(lit(1)).sum().alias("low_line_count")})
      .sort({col("l_shipmode")});
}

LazyFrame q13(const PdshTables& t) {
  LazyFrame ordinary = t("orders").filter(contains(col("o_comment"), "special.*requests").not_());
  return t("customer")
      .join(ordinary, {col("c_custkey")}, {col("o_custkey")}, how(JT::Left))
      .group_by({col("c_custkey")})
      .agg({col("o_orderkey").count().alias("c_count")})
      .group_by({col("c_count")})
      .agg({len().alias("custdist")})
      .sort({col("custdist"), col("c_count")}, order({true, true}));
}

LazyFrame q14(const PdshTables& t) {
  Expr promo = when(starts_with(col("p_type"), "PROMO")).then(disc_price()).otherwise(lit(0));
  return t("lineitem")
      .filter(col("l_shipdate").is_between(date(1995, 9, 1), date(1995, 10, 1), "left"))
      .join(t("part"), {col("l_partkey")}, {col("p_partkey")})
      .select({(lit(100.0) * promo.sum() / disc_price().sum()).round(2).alias("promo_revenue")});
}

LazyFrame q15(const PdshTables& t) {
  LazyFrame revenue = t("lineitem")
                          .filter(col("l_shipdate").is_between(date(1996, 1, 1), date(1996, 4, 1), "left"))
                          .group_by({col("l_suppkey")})
                          .agg({disc_price().sum().alias("total_revenue")});
  return t("supplier")
      .join(revenue, {col("s_suppkey")}, {col("l_suppkey")})
      .filter(col("total_revenue") == col("total_revenue").max())
      .select({col("s_suppkey"), col("s_name"), col("s_address"), col("s_phone"), col("total_revenue").round(2)})
      .sort({col("s_suppkey")});
}

LazyFrame q16(const PdshTables& t) {
  LazyFrame complained = t("supplier").filter(contains(col("s_comment"), "Customer.*Complaints"));
  return t("part")
      .filter((col("p_brand") != lit("Brand#45")) & starts_with(col("p_type"), "MEDIUM POLISHED").not_() &
              col("p_size").is_in(ints({49, 14, 23, 45, 19, 3, 36, 9})))
      .join(t("partsupp"), {col("p_partkey")}, {col("ps_partkey")})
      .join(complained, {col("ps_suppkey")}, {col("s_suppkey")}, how(JT::Anti))
      .group_by({col("p_brand"), col("p_type"), col("p_size")})
      .agg({col("ps_suppkey").n_unique().alias("supplier_cnt")})
      .sort({col("supplier_cnt"), col("p_brand"), col("p_type"), col("p_size")}, order({true, false, false, false}));
}

LazyFrame q17(const PdshTables& t) {
  LazyFrame items = t("part")
                        .filter((col("p_brand") == lit("Brand#23")) & (col("p_container") == lit("MED BOX")))
                        .join(t("lineitem"), {col("p_partkey")}, {col("l_partkey")});
  LazyFrame small =
      items.group_by({col("p_partkey")}).agg({(lit(0.2) * col("l_quantity").mean()).alias("small_quantity")});
  return items.join(small, {col("p_partkey")})
      .filter(col("l_quantity") < col("small_quantity"))
      .select({(col("l_extendedprice").sum() / lit(7.0)).round(2).alias("avg_yearly")});
}

LazyFrame q18(const PdshTables& t) {
  LazyFrame large = t("lineitem")
                        .group_by({col("l_orderkey")})
                        .agg({col("l_quantity").sum().alias("sum_quantity")})
                        .filter(col("sum_quantity") > lit(300));
  return t("orders")
      .join(large, {col("o_orderkey")}, {col("l_orderkey")})
      .join(t("customer"), {col("o_custkey")}, {col("c_custkey")})
      .select({col("c_name"), col("o_custkey").alias("c_custkey"), col("o_orderkey"),
               col("o_orderdate").alias("o_orderdat"), col("o_totalprice"), col("sum_quantity").alias("col6")})
      .sort({col("o_totalprice"), col("o_orderdat")}, order({true, false}))
      .head(100);
}

LazyFrame q19(const PdshTables& t) {
  auto group = [](const char* brand, Expr containers, int64_t low, int64_t high_size) {
    return (col("p_brand") == lit(brand)) & col("p_container").is_in(containers) &
           col("l_quantity").is_between(lit(low), lit(low + 10)) & col("p_size").is_between(lit(1), lit(high_size));
  };
  return t("lineitem")
      .filter(col("l_shipmode").is_in(strings({"AIR", "AIR REG"})) &
              (col("l_shipinstruct") == lit("DELIVER IN PERSON")))
      .join(t("part"), {col("l_partkey")}, {col("p_partkey")})
      .filter(group("Brand#12", strings({"SM CASE", "SM BOX", "SM PACK", "SM PKG"}), 1, 5) |
              group("Brand#23", strings({"MED BAG", "MED BOX", "MED PKG", "MED PACK"}), 10, 10) |
              group("Brand#34", strings({"LG CASE", "LG BOX", "LG PACK", "LG PKG"}), 20, 15))
      .select({disc_price().sum().round(2).alias("revenue")});
}

LazyFrame q20(const PdshTables& t) {
  LazyFrame shipped = t("lineitem")
                          .filter(col("l_shipdate").is_between(date(1994, 1, 1), date(1995, 1, 1), "left"))
                          .group_by({col("l_partkey"), col("l_suppkey")})
                          .agg({col("l_quantity").sum().alias("shipped_qty")});
  LazyFrame excess = t("partsupp")
                         .join(t("part").filter(starts_with(col("p_name"), "forest")), {col("ps_partkey")},
                               {col("p_partkey")}, how(JT::Semi))
                         .join(shipped, {col("ps_partkey"), col("ps_suppkey")}, {col("l_partkey"), col("l_suppkey")})
                         .filter(col("ps_availqty") > lit(0.5) * col("shipped_qty"));
  return t("supplier")
      .join(t("nation").filter(col("n_name") == lit("CANADA")), {col("s_nationkey")}, {col("n_nationkey")})
      .join(excess, {col("s_suppkey")}, {col("ps_suppkey")}, how(JT::Semi))
      .select({col("s_name"), col("s_address")})
      .sort({col("s_name")});
}

LazyFrame q21(const PdshTables& t) {
  LazyFrame late = t("lineitem").filter(col("l_receiptdate") > col("l_commitdate"));
  LazyFrame multi_supplier = t("lineitem")
                                 .group_by({col("l_orderkey")})
                                 .agg({col("l_suppkey").n_unique().alias("n_suppliers")})
                                 .filter(col("n_suppliers") > lit(1));
  LazyFrame one_late_supplier = late.group_by({col("l_orderkey")})
                                    .agg({col("l_suppkey").n_unique().alias("n_late")})
                                    .filter(col("n_late") == lit(1));
  return late.join(multi_supplier, {col("l_orderkey")}, how(JT::Semi))
      .join(one_late_supplier, {col("l_orderkey")}, how(JT::Semi))
      .join(t("orders").filter(col("o_orderstatus") == lit("F")), {col("l_orderkey")}, {col("o_orderkey")},
            how(JT::Semi))
      .join(t("supplier"), {col("l_suppkey")}, {col("s_suppkey")})
      .join(t("nation").filter(col("n_name") == lit("SAUDI ARABIA")), {col("s_nationkey")}, {col("n_nationkey")},
            how(JT::Semi))
      .group_by({col("s_name")})
      .agg({len().alias("numwait")})
      .sort({col("numwait"), col("s_name")}, order({true, false}))
      .head(100);
}

LazyFrame q22(const PdshTables& t) {
  LazyFrame candidates = t("customer")
                             .with_columns({str_slice(col("c_phone"), 0, 2).alias("cntrycode")})
                             .filter(col("cntrycode").is_in(strings({"13", "31", "23", "29", "30", "18", "17"})));
  LazyFrame average =
      candidates.filter(col("c_acctbal") > lit(0.0)).select({col("c_acctbal").mean().alias("avg_acctbal")});
  return candidates.cross_join(average)
      .filter(col("c_acctbal") > col("avg_acctbal"))
      .join(t("orders"), {col("c_custkey")}, {col("o_custkey")}, how(JT::Anti))
      .group_by({col("cntrycode")})
      .agg({len().alias("numcust"), col("c_acctbal").sum().round(2).alias("totacctbal")})
      .sort({col("cntrycode")});
}

}  // namespace

LazyFrame PdshTables::operator()(const std::string& table) const {
  std::string path = dir + "/" + table + "." + format;
  if (format == "csv") {
    io::CsvReadOptions options;
    options.try_parse_dates = true;
    return scan_csv(path, options);
  }
  return scan_parquet(path);
}

LazyFrame pdsh_query(int n, const PdshTables& tables) {
  using Query = LazyFrame (*)(const PdshTables&);
  static constexpr Query queries[kPdshQueries] = {q1,  q2,  q3,  q4,  q5,  q6,  q7,  q8,  q9,  q10, q11,
                                                  q12, q13, q14, q15, q16, q17, q18, q19, q20, q21, q22};
  if (n < 1 || n > kPdshQueries) {
    throw InvalidOperationError("PDS-H has queries 1 to 22, not " + std::to_string(n));
  }
  return queries[n - 1](tables);
}

}  // namespace frazil::cli
