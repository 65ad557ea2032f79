"""The SQL interfaces: frazil.sql (tables from the caller's variables), SQLContext,
DataFrame.sql / LazyFrame.sql, sql_expr, the statements, errors that name positions,
and the `frazil sql` command line."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import frazil as pl

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def df() -> pl.DataFrame:
    return pl.DataFrame({"a": [1, 2, 3, None], "b": ["x", "y", "x", "z"]})


def test_sql_reads_frames_from_the_callers_variables(df: pl.DataFrame) -> None:
    other = pl.DataFrame({"b": ["x", "y"], "w": [10, 20]})  # noqa: F841  (found by name)
    lf = pl.sql("SELECT df.a, other.w FROM df JOIN other USING (b) ORDER BY a")
    assert isinstance(lf, pl.LazyFrame)
    assert lf.collect().rows() == [(1, 10), (2, 20), (3, 10)]
    assert isinstance(pl.sql("SELECT count(*) AS n FROM df", eager=True), pl.DataFrame)

    def inner() -> list:
        local_frame = pl.DataFrame({"v": [5]})  # noqa: F841  (found by name)
        return pl.sql("SELECT v FROM local_frame", eager=True).rows()

    assert inner() == [(5,)]


def test_sql_accepts_polars_and_arrow_frames() -> None:
    import polars
    import pyarrow as pa

    pf = polars.DataFrame({"a": [1, 2]})
    at = pa.table({"a": [3]})
    out = pl.SQLContext(p=pf, q=at).execute("SELECT a FROM p UNION ALL SELECT a FROM q ORDER BY a", eager=True)
    assert out["a"].to_list() == [1, 2, 3]


def test_sqlcontext_registration(df: pl.DataFrame) -> None:
    ctx = pl.SQLContext(frames={"t": df}, eager=True)
    ctx.register("u", df.lazy())
    ctx.register_many({"v": df}, w=df)
    assert ctx.tables() == ["t", "u", "v", "w"]
    ctx.unregister(["v", "w"])
    assert ctx.tables() == ["t", "u"]
    assert ctx.execute("SELECT count(*) AS n FROM u")["n"].to_list() == [4]
    assert isinstance(ctx.execute("SELECT * FROM t", eager=False), pl.LazyFrame)
    with ctx:
        ctx.register("tmp", df)
        assert "tmp" in ctx.tables()
    assert "tmp" not in ctx.tables()


def test_sqlcontext_register_globals() -> None:
    some_global_frame = pl.DataFrame({"z": [1]})  # noqa: F841  (found by name)
    ctx = pl.SQLContext(register_globals=True)
    assert "some_global_frame" in ctx.tables()


def test_frame_sql(df: pl.DataFrame) -> None:
    out = df.sql("SELECT b, sum(a) AS s FROM self GROUP BY b ORDER BY b")
    assert isinstance(out, pl.DataFrame)
    assert out.rows() == [("x", 4), ("y", 2), ("z", None)]
    lazy = df.lazy().sql("SELECT a * 2 AS a2 FROM frame WHERE a > 1", table_name="frame")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect()["a2"].to_list() == [4, 6]


def test_sql_is_the_dataframe_plan(df: pl.DataFrame) -> None:
    # The same optimized plan as the DataFrame API's query.
    sql = df.lazy().sql("SELECT a, b FROM self WHERE a > 1").explain()
    api = df.lazy().filter(pl.col("a") > 1).select("a", "b").explain()
    assert sql == api


def test_sql_expr(df: pl.DataFrame) -> None:
    out = df.select(pl.sql_expr("a * 2 AS a2"), pl.sql_expr("upper(b)"))
    assert out.columns == ["a2", "b"]
    assert out["b"].to_list() == ["X", "Y", "X", "Z"]
    assert [e.meta_output_name() if hasattr(e, "meta_output_name") else None for e in pl.sql_expr(["a", "b"])]
    with pytest.raises(pl.SQLInterfaceError, match=r"expected an expression \(found 'FROM' clause\)"):
        pl.sql_expr("a FROM t")


def test_statements(df: pl.DataFrame) -> None:
    ctx = pl.SQLContext(t=df, eager=True)
    assert ctx.execute("CREATE TABLE t2 AS SELECT * FROM t WHERE a > 1")["Response"].to_list() == ["CREATE TABLE t2"]
    assert ctx.execute("SELECT count(*) AS n FROM t2")["n"].to_list() == [2]
    ctx.execute("CREATE VIEW v (x) AS SELECT a FROM t")
    assert ctx.execute("SELECT x FROM v WHERE x IS NOT NULL ORDER BY x")["x"].to_list() == [1, 2, 3]
    ctx.execute("CREATE OR REPLACE TEMP VIEW v AS SELECT b FROM t")
    assert ctx.execute("SELECT * FROM v").columns == ["b"]
    assert ctx.execute("SHOW TABLES")["name"].to_list() == ["t", "t2", "v"]
    d = ctx.execute("DESCRIBE t")
    assert d.rows() == [("a", "Int64"), ("b", "String")]
    assert ctx.execute("DESCRIBE SELECT a + 1.5 AS c FROM t").rows() == [("c", "Float64")]
    plan = ctx.execute("EXPLAIN SELECT a FROM t WHERE a > 1")["Logical Plan"].to_list()
    assert any("SELECTION" in line or "FILTER" in line for line in plan)
    ctx.execute("DROP VIEW v")
    ctx.execute("DROP TABLE IF EXISTS nothing_here")
    with pytest.raises(pl.SQLInterfaceError, match="does not exist"):
        ctx.execute("DROP TABLE nothing_here")
    assert ctx.execute("DELETE FROM t WHERE a > 1")["a"].to_list() == [1, None]
    ctx.execute("CREATE TABLE empty_t (id INTEGER, name VARCHAR)")
    assert ctx.execute("SELECT * FROM empty_t").schema == pl.Schema([("id", pl.Int32), ("name", pl.String)])


def test_columns_selects_by_pattern() -> None:
    df1 = pl.DataFrame({"x": [1, 5, 3, 8, 6, 7, 4, 0, 2], "y": [3, 4, 6, 8, 3, 4, 1, 7, 8]})
    df2 = pl.DataFrame({"y": [0, 4, 0, 8, 0, 4, 0, 7, None], "z": [9, 8, 7, 6, 5, 4, 3, 2, 1]})
    ctx = pl.SQLContext(df1=df1, df2=df2)
    # In WHERE, every column COLUMNS(...) selects must satisfy the condition.
    got = ctx.execute("SELECT * FROM df1 NATURAL JOIN df2 WHERE COLUMNS(*) != 4", eager=True)
    assert sorted(got.rows()) == [(0, 7, 2), (2, 8, 6), (8, 8, 6)]
    got = ctx.execute("SELECT COLUMNS('^[xy]$') * 2, COLUMNS('z') AS zz FROM df1 NATURAL JOIN df2 ORDER BY zz", eager=True)
    assert got.columns == ["x", "y", "zz"]
    assert got.rows()[0] == (0, 14, 2)
    with pytest.raises(pl.SQLSyntaxError, match=r"did you mean COLUMNS\(\*\)\?"):
        ctx.execute("SELECT * FROM df1 WHERE COLUMNS('*') >= 5")
    with pytest.raises(pl.SQLSyntaxError, match="COLUMNS expects a regex"):
        ctx.execute("SELECT COLUMNS(1234) FROM df1")


def test_errors_name_the_position(df: pl.DataFrame) -> None:
    ctx = pl.SQLContext(t=df)
    with pytest.raises(pl.ColumnNotFoundError, match=r"column 'aa' not found.*did you mean 'a'\?.* at line 2, column 14"):
        ctx.execute("SELECT b\nFROM t WHERE aa > 1")
    # PostgreSQL reads `a FRM` as `a AS FRM`: the error is at `t`.
    with pytest.raises(pl.SQLSyntaxError, match=r'syntax error at or near "t" at line 1, column 14'):
        ctx.execute("SELECT a FRM t")
    with pytest.raises(pl.SQLSyntaxError, match=r'syntax error at or near "b" at line 1, column 23'):
        ctx.execute("SELECT a FROM t ORDER b")
    with pytest.raises(pl.SQLInterfaceError, match=r"relation 'tt' was not found; did you mean 't'\?"):
        ctx.execute("SELECT * FROM tt")
    with pytest.raises(pl.SQLInterfaceError, match=r"unknown function 'lenght'; did you mean 'length'\?"):
        ctx.execute("SELECT lenght(b) FROM t")
    with pytest.raises(pl.SQLInterfaceError, match="should participate in the GROUP BY clause"):
        ctx.execute("SELECT a, b FROM t GROUP BY b")
    with pytest.raises(pl.SQLInterfaceError, match="not allowed in WHERE"):
        ctx.execute("SELECT a FROM t WHERE max(a) > 1")
    with pytest.raises(pl.SQLInterfaceError, match="ambiguous reference"):
        ctx.execute("SELECT a FROM t x JOIN t y ON x.a = y.a")
    with pytest.raises(pl.SQLInterfaceError, match="not supported"):
        ctx.execute("WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r")
    with pytest.raises(pl.DuplicateError):
        ctx.execute("SELECT a, a FROM t")
    # A type error surfaces when the query runs, naming the expression.
    with pytest.raises(pl.exceptions.FrazilError):
        ctx.execute("SELECT a + b FROM t").collect()


@pytest.mark.parametrize(
    "query",
    ["", ";", "SELECT", "SELECT (", "SELECT 'unterminated", "SELECT * FROM t WHERE", "SELECT 1 +* 2", "\x00",
     "SELECT a FROM t GROUP BY", "SELECT * FROM t JOIN", "SELECT CAST(a AS nosuchtype) FROM t", "DROP",
     "INSERT INTO t VALUES (1)", "UPDATE t SET a = 1", "SELECT a FROM t ORDER BY 9", "SELECT a FROM t LIMIT -1",
     "SELECT DATE 'not a date'", "SELECT INTERVAL 'forever'", "SELECT 99999999999999999999999"],
)
def test_bad_sql_raises_a_clear_error(df: pl.DataFrame, query: str) -> None:
    with pytest.raises((pl.SQLSyntaxError, pl.SQLInterfaceError, pl.ColumnNotFoundError)) as info:
        pl.SQLContext(t=df).execute(query)
    assert str(info.value)


def _cli() -> Path:
    path = ROOT / "build" / "frazil"
    if not path.exists():
        pytest.skip("the command line is not built")
    return path


def test_cli_runs_a_statement(tmp_path: Path) -> None:
    f = tmp_path / "t.csv"
    f.write_text("a,b\n1,x\n2,y\n3,x\n")
    out = subprocess.run([str(_cli()), "sql", "--table", f"t={f}", "-c", "SELECT b, sum(a) AS s FROM t GROUP BY b ORDER BY b"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "shape: (2, 2)" in out.stdout and "│ x   ┆ 4   │" in out.stdout


def test_cli_errors_have_no_stack_trace(tmp_path: Path) -> None:
    out = subprocess.run([str(_cli()), "sql", "-c", "SELECT * FROM nowhere"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert out.stderr.startswith("Error: relation 'nowhere' was not found")
    assert "Traceback" not in out.stderr and "terminate" not in out.stderr


def test_cli_reads_a_file_and_a_prompt(tmp_path: Path) -> None:
    script = tmp_path / "q.sql"
    script.write_text("CREATE TABLE t AS SELECT 1 AS a UNION ALL SELECT 2;\nSELECT sum(a) AS s FROM t;\n")
    out = subprocess.run([str(_cli()), "sql", str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "│ 3   │" in out.stdout
    session = ".timer on\nSELECT 40\n + 2 AS answer;\n.tables\nSELECT nope;\n.quit\n"
    out = subprocess.run([str(_cli()), "sql"], input=session, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert "42" in out.stdout and "Run Time:" in out.stdout
    assert "Error: column 'nope' not found" in out.stderr


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("SELECT 1e10720", "numeric literal 1e10720 is out of range"),
        ("SELECT -1e400", "is out of range"),
        ("SELECT INTERVAL '.:5'", "invalid interval"),
    ],
)
def test_sql_numbers_beyond_a_double_are_named(query: str, message: str) -> None:
    # std::stod threw std::out_of_range past the SQL error handling (found by sql_fuzz
    # under ASan): the process aborted.
    with pytest.raises(pl.exceptions.SQLInterfaceError, match=message):
        pl.sql(query).collect()
