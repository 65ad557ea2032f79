"""DataFrame row access against Polars: item(row, column) bounds (IndexError), row(index |
by_predicate, named), get_column(default=), iter_rows(buffer_size), vstack/extend (in_place,
null columns taking this frame's dtype, bad input)."""
import polars as pl
import pytest

import frazil as fz


def frame(m):
    return m.DataFrame({"a": [1, 2, 3], "b": [4, None, 6]})


CASES = [
    lambda m, df: df.item(0, 10), lambda m, df: df.item(10, 0), lambda m, df: df.item(10, 10),
    lambda m, df: df.item(-10, 0), lambda m, df: df.item(-10, 10), lambda m, df: df.item(-1, -1),
    lambda m, df: df.item(-3, "b"), lambda m, df: df.item(1, "b"),
    lambda m, df: df.row(10), lambda m, df: df.row(-1), lambda m, df: df.row(2, named=True),
    lambda m, df: df.row(), lambda m, df: df.head(1).row(), lambda m, df: df.head(0).row(),
    lambda m, df: df.row(by_predicate=m.col("a") > 1), lambda m, df: df.row(by_predicate=m.col("a") > 5),
    lambda m, df: df.row(by_predicate=m.col("a") == 2, named=True), lambda m, df: df.row(by_predicate=m.col("b").is_null()),
    lambda m, df: df.row(0, by_predicate=m.col("a") > 5), lambda m, df: df.row(m.col("a")),
    lambda m, df: df.row(by_predicate=1),
    lambda m, df: df.get_column("zz", default=None), lambda m, df: df.get_column("a", default=0).to_list(),
    lambda m, df: list(df.iter_rows(buffer_size=2)), lambda m, df: list(df.iter_rows(named=True, buffer_size=1)),
    lambda m, df: list(df.head(0).iter_rows()), lambda m, df: list(df.iter_rows(buffer_size=0)),
    lambda m, df: (df.vstack(df, in_place=True) is df, df.height, df.rows()),
    lambda m, df: (df.vstack(df).height, df.height),
    lambda m, df: df.vstack(m.Series([1])), lambda m, df: df.extend(df.lazy()),
    lambda m, df: df.vstack(m.DataFrame({"a": [None], "b": [None]})),
    lambda m, df: m.DataFrame({"a": [None], "b": [None]}).vstack(df),
    lambda m, df: df.vstack(m.DataFrame({"a": ["s"], "b": [1]})), lambda m, df: df.vstack(m.DataFrame({"y": [1], "b": [1]})),
    lambda m, df: df.vstack(m.DataFrame({"a": [1.0], "b": [1]})),
    lambda m, df: df.extend(m.DataFrame({"a": [2], "b": m.Series([None], dtype=m.Null)})),
    lambda m, df: m.DataFrame({"x": [[1.0]]}).vstack(m.DataFrame({"x": [[None]]})),
    lambda m, df: m.DataFrame({"x": [[3.5]]}, schema={"x": m.List(m.Float32)}).vstack(
        m.DataFrame({"x": [[None]]}, schema={"x": m.List(m.Null)})),
    lambda m, df: m.DataFrame({"x": [{"a": 1}]}).vstack(m.DataFrame({"x": [{"a": None}]})),
    lambda m, df: m.DataFrame({"x": [3.5]}).vstack(m.DataFrame({"x": [None]}), in_place=True),
]


def run(m, case):
    try:
        out = CASES[case](m, frame(m))
        if isinstance(out, m.DataFrame):
            return out.columns, [str(t) for t in out.dtypes], out.rows()
        return out
    except Exception as e:  # noqa: BLE001 - both must fail alike
        # (the predicate's text in the RowsError messages is each engine's own)
        rows_error = type(e).__name__ in ("NoRowsReturnedError", "TooManyRowsReturnedError")
        return type(e).__name__, "" if rows_error else str(e).splitlines()[0]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_matches_polars(case):
    assert run(fz, case) == run(pl, case)


def test_row_errors_are_rows_errors():
    with pytest.raises(fz.exceptions.RowsError, match="returned 2 rows"):
        frame(fz).row(by_predicate=fz.col("a") > 1)
    with pytest.raises(fz.exceptions.ColumnNotFoundError):  # (frazil's message lists the columns)
        frame(fz).get_column("zz")


COLUMN_CASES = [
    lambda m: m.DataFrame({"z": [3]}).insert_column(0, m.Series("x", [1])).insert_column(-1, m.Series("y", [2])),
    lambda m: m.DataFrame({"a": [1], "b": [2]}).insert_column(2, m.Series("y", [2])),
    lambda m: m.DataFrame({"a": [1], "b": [2]}).insert_column(-2, m.Series("y", [2])),
    lambda m: m.DataFrame({"a": [1], "b": [2]}).insert_column(-3, m.Series("y", [2])),
    lambda m: m.DataFrame({"a": [1], "b": [2]}).insert_column(3, m.Series("y", [2])),
    lambda m: m.DataFrame({"a": [1], "b": [2]}).insert_column(1, (m.col("a") * 10).alias("c")),
    lambda m: m.DataFrame({"a": [1, None, 3], "b": [1, 2, 3]}).sum_horizontal(),
    lambda m: m.DataFrame({"a": [1, None, 3], "b": [1, 2, 3]}).sum_horizontal(ignore_nulls=False),
    lambda m: m.DataFrame({"a": [1, None, 3], "b": [1, 2, 3]}).mean_horizontal(ignore_nulls=False),
    lambda m: m.DataFrame({"a": [1, None, 3], "b": [1, 2, 3]}).min_horizontal(),
    lambda m: m.DataFrame({"a": [1, None, 3], "b": [1, 2, 3]}).max_horizontal(),
    lambda m: [s.name for s in reversed(m.DataFrame({"a": [1], "b": [2], "c": [3]}))],
    lambda m: m.DataFrame({"a": [1], "b": [2]})._ipython_key_completions_(),
]


def outcome(m, build):
    """What `build(m)` gives, comparable across engines: a frame's names, dtypes and rows, a
    Series' name and values, another value, or the error's type and first line."""
    try:
        out = build(m)
    except Exception as e:  # noqa: BLE001 - both must fail alike
        return type(e).__name__, str(e).splitlines()[0]
    if isinstance(out, m.DataFrame):
        return out.columns, [str(t) for t in out.dtypes], out.rows()
    return (out.name, out.to_list()) if isinstance(out, m.Series) else out


@pytest.mark.parametrize("case", range(len(COLUMN_CASES)))
def test_columns_match_polars(case):
    assert outcome(fz, COLUMN_CASES[case]) == outcome(pl, COLUMN_CASES[case])


INPUT_CHECKS = [
    lambda m: m.DataFrame({"a": [1]}).join(m.DataFrame({"a": [1]}).lazy(), on="a"),
    lambda m: m.DataFrame({"a": [1]}).join(m.Series([1]), on="a"),
    lambda m: m.DataFrame({"a": [1]}).equals(m.DataFrame({"a": [1]}).lazy()),
    lambda m: m.DataFrame({"a": [1]}).equals(m.Series([1])),
    lambda m: m.DataFrame({"a": ["one", "two"], "b": [1, 2]}).partition_by("a", maintain_order=False,
                                                                         include_key=False, as_dict=True),
    lambda m: m.DataFrame({"a": [1], "b": [2]}, schema=["x", "y"]),
    lambda m: m.DataFrame({"a": [1], "b": [2]}, schema={"x": m.Int8, "y": m.Int8}),
    lambda m: m.DataFrame({"a": [1], "b": [2]}, schema=["b", "a"]),
    lambda m: m.DataFrame({"a": [1], "b": [2]}, schema={"b": m.UInt8, "a": m.Int8}),
    lambda m: m.DataFrame({"a": [1], "b": [2]}, schema=["b", "x"]),
    lambda m: m.DataFrame({"a": [1], "b": [2]}, schema={"a": m.Int8}),
    lambda m: m.DataFrame({"a": [1], "b": [2]}, schema=["x"]),
    lambda m: m.DataFrame({"b": [3, 4], "a": [1, 2]}, schema=["a", "b"], schema_overrides={"a": m.UInt8}),
]


@pytest.mark.parametrize("case", range(len(INPUT_CHECKS)))
def test_input_checks_and_schema_order_match_polars(case):
    assert outcome(fz, INPUT_CHECKS[case]) == outcome(pl, INPUT_CHECKS[case])
