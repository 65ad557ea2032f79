"""Errors that help, compared with Polars' own messages: "did you mean", the plan until
the failure, FileNotFoundError, the column named in strict casts, and explain() showing
sort options."""
import re

import polars as pl
import pytest

import frazil as fz


def message(engine, build):
    with pytest.raises(Exception) as info:
        build(engine)
    return type(info.value).__name__, str(info.value)


CASES = {
    "select": lambda m: m.LazyFrame({"amount": [1], "name": ["a"]}).select(m.col("amout")).collect(),
    "with_columns": lambda m: m.LazyFrame({"amount": [1], "name": ["a"]})
    .filter(m.col("amount") > 1).with_columns(m.col("nam")).collect(),
    "group_by": lambda m: m.LazyFrame({"amount": [1], "name": ["a"]})
    .filter(m.col("amount") > 1).group_by("nam").agg(m.col("amount").sum()).collect(),
    "sort": lambda m: m.LazyFrame({"amount": [1], "name": ["a"]}).filter(m.col("amount") > 1).sort("x").collect(),
}


@pytest.mark.parametrize("case", list(CASES))
def test_schema_errors_read_as_polars(case):
    ours = message(fz, CASES[case])
    theirs = message(pl, CASES[case])
    assert ours[0] == theirs[0]
    assert ours[1].strip() == theirs[1].strip()


def test_strict_cast_names_the_column():
    build = lambda m: m.DataFrame({"name": ["a", "b"]}).select(m.col("name").cast(m.Int64))  # noqa: E731
    ours, theirs = message(fz, build), message(pl, build)
    assert ours[0] == theirs[0] == "InvalidOperationError"
    assert "failed in column 'name' for 2 out of 2 values" in ours[1]
    assert ours[1].strip() == theirs[1].strip()


@pytest.mark.parametrize("reader", ["read_parquet", "read_csv", "scan_parquet", "scan_csv"])
def test_missing_file_is_file_not_found(tmp_path, reader):
    (tmp_path / "lineitem.parquet").write_bytes(b"")
    (tmp_path / "orders.csv").write_text("a\n1\n")
    name = "lineitm.parquet" if "parquet" in reader else "order.csv"
    path = str(tmp_path / name)
    with pytest.raises(FileNotFoundError) as info:
        result = getattr(fz, reader)(path)
        if reader.startswith("scan"):
            result.collect()
    text = str(info.value)
    assert text.startswith(f"No such file or directory (os error 2): {path}")
    sibling = "lineitem.parquet" if "parquet" in reader else "orders.csv"
    assert f'Did you mean "{tmp_path / sibling}"?' in text
    # Polars raises the same type.
    with pytest.raises(FileNotFoundError):
        getattr(pl, reader)(path) if not reader.startswith("scan") else getattr(pl, reader)(path).collect()


@pytest.mark.parametrize("build", [
    lambda m, lf: lf.sort("a", descending=True, nulls_last=True),
    lambda m, lf: lf.sort("a", "b", nulls_last=True),
    lambda m, lf: lf.sort("a", maintain_order=True, descending=[True]),
    lambda m, lf: lf.sort("a"),
])
def test_explain_shows_sort_options(build):
    data = {"a": [2, 1], "b": [3, 4]}
    ours = build(fz, fz.LazyFrame(data)).explain()
    theirs = build(pl, pl.LazyFrame(data)).explain()
    assert ours.splitlines()[0] == theirs.splitlines()[0]


def test_explain_shows_top_k_slice():
    lf = fz.LazyFrame({"a": [2, 1, 3], "b": [3, 4, 5]})
    text = lf.sort("a", "b", descending=[True, False]).head(2).explain()
    first = text.splitlines()[0]
    assert first == 'SORT BY [slice: (0, 2), descending: [true, false]] [col("a"), col("b")]'
    # Polars writes the same, plus its dynamic-predicate id inside the slice.
    theirs = pl.LazyFrame({"a": [2], "b": [3]}).sort("a", "b", descending=[True, False]).head(2).explain()
    assert re.sub(r", dynamic_pred: [0-9a-f-]+", "", theirs.splitlines()[0]) == first
