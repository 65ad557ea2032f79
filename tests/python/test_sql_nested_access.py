"""SQL access into nested values, compared with Polars' SQL on the same frames: dotted
struct columns and s.*, subscripts and ARRAY_GET (1-based), the path operators -> ->> #>
#>>, ARRAY_AGG and the ARRAY_* functions (sql/translate_nested.cpp, sql/functions.cpp)."""
from __future__ import annotations

import pytest

import frazil as pl

polars = pytest.importorskip("polars")

STRUCTS = {
    "json_msg": [
        {"id": 200, "name": "Bob", "age": 45, "other": {"n": 1.5}},
        {"id": 300, "name": "David", "age": 19, "other": {"n": None}},
        None,
        {"id": 400, "name": "Zoe", "age": 45, "other": {"n": -0.5}},
    ],
    "k": [1, 2, 3, 4],
}
LISTS = {
    "idx": [-2, -1, 0, None, 1, 2, 3, 9],
    "arr": [[0, 1, 2, 3], [4, 5], [6], [7, 8, 9], [8, 7], [6, None, 4], [3, 2, 1], []],
    "g": [1, 1, 2, 2, 1, 2, 1, 2],
}
NESTED = {"nested": {"0": ["baz"], "b": ["foo", "bar"], "c": [3, 2, 1]}}

QUERIES = [
    (STRUCTS, "SELECT json_msg.id AS id, t.json_msg.name, json_msg.other.n FROM t ORDER BY k"),
    (STRUCTS, "SELECT t.json_msg.age FROM t WHERE json_msg.age > 20 AND json_msg.other.n IS NOT NULL ORDER BY k"),
    (STRUCTS, "SELECT json_msg.age, COUNT(json_msg.id) AS n FROM t GROUP BY json_msg.age ORDER BY 1 NULLS LAST"),
    (STRUCTS, "SELECT json_msg.* FROM t ORDER BY k"),
    (STRUCTS, "SELECT json_msg.* EXCLUDE (age, other) FROM t ORDER BY k"),
    (STRUCTS, "SELECT t.json_msg.other.* RENAME (n AS num) FROM t ORDER BY k"),
    (LISTS, "SELECT arr[1] AS a, arr[-1] AS b, arr[0] AS c, arr[3] AS d, arr[idx] AS e FROM t"),
    (LISTS, "SELECT ARRAY_GET(arr, 2) AS a, ARRAY_GET(arr, idx) AS b, ARRAY_GET(arr, -2) AS c FROM t"),
    (LISTS, "SELECT ARRAY_LENGTH(arr) AS n, ARRAY_SUM(arr) AS s, ARRAY_MEAN(arr) AS m, ARRAY_LOWER(arr) AS lo,"
            " ARRAY_UPPER(arr) AS hi FROM t"),
    (LISTS, "SELECT ARRAY_CONTAINS(arr, 4) AS c, ARRAY_REVERSE(arr) AS r, ARRAY_UNIQUE(arr) AS u FROM t"),
    (LISTS, "SELECT ARRAY_TO_STRING(arr, '-') AS s, ARRAY_TO_STRING(arr, ',', 'x') AS s2 FROM t"),
    (LISTS, "SELECT g, ARRAY_AGG(idx) AS ids FROM t GROUP BY g ORDER BY g"),
    (LISTS, "SELECT g, ARRAY_AGG(idx ORDER BY idx DESC NULLS LAST) AS ids FROM t GROUP BY g ORDER BY g"),
    (NESTED, "SELECT nested #> '{c,1}' AS a, nested #> '{c,-1}' AS b, nested #>> '{c,0}' AS c FROM t"),
    (NESTED, "SELECT nested -> '0' -> 0 AS a, nested -> 'c' -> -1 AS b, nested -> 'c' ->> 2 AS c FROM t"),
]


def _frames(data: dict) -> tuple[pl.DataFrame, polars.DataFrame]:
    return pl.DataFrame(data), polars.DataFrame(data)


@pytest.mark.parametrize(("data", "query"), QUERIES)
def test_equal_to_polars_sql(data: dict, query: str) -> None:
    ours, theirs = _frames(data)
    expected = polars.SQLContext({"t": theirs}).execute(query, eager=True)
    got = pl.SQLContext({"t": ours}).execute(query, eager=True)
    assert got.columns == expected.columns
    assert got.to_dicts() == expected.to_dicts()
    unoptimized = pl.SQLContext({"t": ours}).execute(query).collect(optimizations=pl.QueryOptFlags.none())
    assert unoptimized.to_dicts() == expected.to_dicts()


@pytest.mark.parametrize(
    ("query", "error", "match"),
    [
        ("SELECT json_msg.missing FROM t", pl.exceptions.StructFieldNotFoundError, "missing"),
        ("SELECT json_msg.other.missing FROM t", pl.exceptions.StructFieldNotFoundError, "missing"),
        ("SELECT foo.id FROM t", pl.exceptions.SQLInterfaceError, "no table or struct column named 'foo'"),
        ("SELECT json_msg.other -> k FROM t", pl.exceptions.SQLSyntaxError, "invalid json/struct path-extract"),
        ("SELECT json_msg -> DATE '2020-09-11' FROM t", pl.exceptions.SQLSyntaxError, "path-extract"),
        ("SELECT k.* FROM t", pl.exceptions.SQLSyntaxError, "cannot expand"),
    ],
)
def test_errors(query: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        pl.SQLContext({"t": pl.DataFrame(STRUCTS)}).execute(query, eager=True)


def test_array_slices_are_refused() -> None:
    with pytest.raises(pl.exceptions.SQLSyntaxError, match="array slice"):
        pl.SQLContext({"t": pl.DataFrame(LISTS)}).execute("SELECT arr[1:2] FROM t", eager=True)


def test_table_stars_stay_tables() -> None:
    # t.* and schema.t.* name the table, not a struct column.
    ctx = pl.SQLContext({"t": pl.DataFrame(STRUCTS)})
    for query in ("SELECT t.* FROM t", "SELECT main.t.* FROM t"):
        assert ctx.execute(query, eager=True).columns == ["json_msg", "k"]
