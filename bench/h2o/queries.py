"""The db-benchmark questions: group-by q1-q10 and join q1-q5.

The DataFrame form is written as db-benchmark's polars scripts write it
(duckdblabs/db-benchmark polars/groupby-polars.py, polars/join-polars.py) and runs unchanged
in frazil (`pl` is the module, frazil or polars). The SQL is db-benchmark's DuckDB text
with the result columns named as Polars names them, so that every engine's answer can be
checked column by column.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Question:
    n: int
    name: str
    frame: Callable[[Any, dict[str, Any]], Any]  # (module, {table: LazyFrame}) -> LazyFrame
    sql: str


GROUPBY = [
    Question(1, "sum v1 by id1",
             lambda pl, t: t["x"].group_by("id1").agg(pl.sum("v1").alias("v1_sum")),
             "SELECT id1, sum(v1) AS v1_sum FROM x GROUP BY id1"),
    Question(2, "sum v1 by id1:id2",
             lambda pl, t: t["x"].group_by(["id1", "id2"]).agg(pl.sum("v1").alias("v1_sum")),
             "SELECT id1, id2, sum(v1) AS v1_sum FROM x GROUP BY id1, id2"),
    Question(3, "sum v1 mean v3 by id3",
             lambda pl, t: t["x"].group_by("id3").agg([pl.sum("v1").alias("v1_sum"), pl.mean("v3").alias("v3_mean")]),
             "SELECT id3, sum(v1) AS v1_sum, avg(v3) AS v3_mean FROM x GROUP BY id3"),
    Question(4, "mean v1:v3 by id4",
             lambda pl, t: t["x"].group_by("id4").agg([pl.mean("v1").alias("v1_mean"), pl.mean("v2").alias("v2_mean"),
                                                       pl.mean("v3").alias("v3_mean")]),
             "SELECT id4, avg(v1) AS v1_mean, avg(v2) AS v2_mean, avg(v3) AS v3_mean FROM x GROUP BY id4"),
    Question(5, "sum v1:v3 by id6",
             lambda pl, t: t["x"].group_by("id6").agg([pl.sum("v1").alias("v1_sum"), pl.sum("v2").alias("v2_sum"),
                                                       pl.sum("v3").alias("v3_sum")]),
             "SELECT id6, sum(v1) AS v1_sum, sum(v2) AS v2_sum, sum(v3) AS v3_sum FROM x GROUP BY id6"),
    Question(6, "median v3 sd v3 by id4 id5",
             lambda pl, t: t["x"].group_by(["id4", "id5"]).agg([pl.median("v3").alias("v3_median"),
                                                                pl.std("v3").alias("v3_std")]),
             "SELECT id4, id5, quantile_cont(v3, 0.5) AS v3_median, stddev(v3) AS v3_std FROM x GROUP BY id4, id5"),
    Question(7, "max v1 - min v2 by id3",
             lambda pl, t: t["x"].group_by("id3").agg([(pl.max("v1") - pl.min("v2")).alias("range_v1_v2")]),
             "SELECT id3, max(v1) - min(v2) AS range_v1_v2 FROM x GROUP BY id3"),
    Question(8, "largest two v3 by id6",
             lambda pl, t: t["x"].drop_nulls("v3").group_by("id6").agg(pl.col("v3").top_k(2).alias("largest2_v3"))
             .explode("largest2_v3"),
             "SELECT id6, unnest(max(v3, 2)) AS largest2_v3 FROM x WHERE v3 IS NOT NULL GROUP BY id6"),
    Question(9, "regression v1 v2 by id2 id4",
             lambda pl, t: t["x"].group_by(["id2", "id4"]).agg((pl.corr("v1", "v2", method="pearson") ** 2).alias("r2")),
             "SELECT id2, id4, pow(corr(v1, v2), 2) AS r2 FROM x GROUP BY id2, id4"),
    Question(10, "sum v3 count by id1:id6",
             lambda pl, t: t["x"].group_by(["id1", "id2", "id3", "id4", "id5", "id6"])
             .agg([pl.sum("v3").alias("v3"), pl.count("v1").alias("count")]),
             "SELECT id1, id2, id3, id4, id5, id6, sum(v3) AS v3, count(*) AS count FROM x "
             "GROUP BY id1, id2, id3, id4, id5, id6"),
]

JOIN = [
    Question(1, "small inner on int",
             lambda pl, t: t["x"].join(t["small"], on="id1"),
             "SELECT x.*, small.id4 AS id4_right, small.v2 FROM x JOIN small USING (id1)"),
    Question(2, "medium inner on int",
             lambda pl, t: t["x"].join(t["medium"], on="id2"),
             "SELECT x.*, medium.id1 AS id1_right, medium.id4 AS id4_right, medium.id5 AS id5_right, medium.v2 "
             "FROM x JOIN medium USING (id2)"),
    Question(3, "medium outer on int",
             lambda pl, t: t["x"].join(t["medium"], how="left", on="id2"),
             "SELECT x.*, medium.id1 AS id1_right, medium.id4 AS id4_right, medium.id5 AS id5_right, medium.v2 "
             "FROM x LEFT JOIN medium USING (id2)"),
    Question(4, "medium inner on factor",
             lambda pl, t: t["x"].join(t["medium"], on="id5"),
             "SELECT x.*, medium.id1 AS id1_right, medium.id2 AS id2_right, medium.id4 AS id4_right, medium.v2 "
             "FROM x JOIN medium USING (id5)"),
    Question(5, "big inner on int",
             lambda pl, t: t["x"].join(t["big"], on="id3"),
             "SELECT x.*, big.id1 AS id1_right, big.id2 AS id2_right, big.id4 AS id4_right, big.id5 AS id5_right, "
             "big.id6 AS id6_right, big.v2 FROM x JOIN big USING (id3)"),
]

TASKS = {"groupby": GROUPBY, "join": JOIN}
