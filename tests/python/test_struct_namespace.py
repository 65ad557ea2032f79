"""pl.struct, pl.field, the struct namespace and frame unnest/to_struct, differential against
Polars: nulls at struct and field level, empty frames, several chunks, inside agg and over,
optimizations on and off (assert_same runs both)."""
import pytest

import frazil
from fuzz.harness import assert_same, assert_same_error

DATA = {"a": [1, None, 3, 4, 5], "b": ["x", "y", None, "z", "y"], "c": [1.5, 2.5, None, -0.0, 4.0],
        "g": ["p", "q", "p", "q", "p"]}


def with_struct(pl, lf):
    """A struct column `s` {a, b} whose third row is null (a struct-level null)."""
    s = pl.when(pl.col("a") != 3).then(pl.struct("a", "b"))
    return lf.with_columns(s=s)


@pytest.mark.parametrize("chunks", [1, 3])
def test_struct_from_columns(chunks):
    assert_same(lambda pl, lf: lf.select(pl.struct("a", "b", "c")), DATA, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(pl.struct(pl.col("a") * 2, x="b").alias("t")), DATA, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(pl.struct(pl.all())), DATA, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(pl.struct(["a", "c"])), DATA)


def test_struct_duplicate_field_names():
    assert_same_error(lambda pl, lf: lf.select(pl.struct("a", pl.col("b").alias("a"))), DATA)


def test_struct_with_literal_broadcasts():
    assert_same(lambda pl, lf: lf.select(pl.struct("a", pl.lit(1).alias("one"))), DATA)


def test_struct_schema_casts():
    assert_same(lambda pl, lf: lf.select(pl.struct("a", "c", schema={"a": pl.Float64, "c": pl.Float32})), DATA)


@pytest.mark.parametrize("chunks", [1, 2])
def test_field_and_unnest(chunks):
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.field("a")), DATA, chunks=chunks)
    # Several names select the fields in the struct's order, as Polars does.
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.field("b", "a")), DATA, chunks=chunks)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.unnest()), DATA, chunks=chunks)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.field("*")), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.field("^a$")), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct["b"]), DATA)


def test_field_missing_is_an_error():
    with pytest.raises(frazil.exceptions.FrazilError):
        frazil.DataFrame(DATA).select(frazil.struct("a").struct.field("nope"))


def test_field_of_not_a_struct_is_an_error():
    # (Polars raises StructFieldNotFoundError, which frazil does not have.)
    with pytest.raises(frazil.exceptions.InvalidOperationError, match="struct.field"):
        frazil.DataFrame(DATA).select(frazil.col("a").struct.field("x"))


def test_field_in_expressions():
    assert_same(lambda pl, lf: with_struct(pl, lf).select((pl.col("s").struct.field("a") + 1).alias("a1")), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).filter(pl.col("s").struct.field("b") == "y"), DATA)


def test_field_in_agg_and_over():
    assert_same(lambda pl, lf: with_struct(pl, lf).group_by("g").agg(pl.col("s").struct.field("a").sum()).sort("g"), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.field("a").sum().over("g")), DATA)
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.struct("a", "b").first()).sort("g"), DATA)


def test_rename_fields_and_json_encode():
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.rename_fields(["x", "y"])), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.json_encode()), DATA)
    assert_same(lambda pl, lf: lf.select(pl.struct("a", "c", pl.struct("b").alias("n")).struct.json_encode()), DATA)


def test_with_fields():
    assert_same(lambda pl, lf: with_struct(pl, lf).select(
        pl.col("s").struct.with_fields(pl.field("a") * 10, z=pl.col("c"))), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(
        pl.col("s").struct.with_fields(pl.field("b").str.to_uppercase().alias("B"))), DATA)


@pytest.mark.parametrize("chunks", [1, 3])
def test_eval(chunks):
    sel = lambda pl, lf: with_struct(pl, lf).select  # noqa: E731
    assert_same(lambda pl, lf: sel(pl, lf)(pl.col("s").struct.eval(pl.field("a") * 10, z=pl.col("c"))), DATA,
                chunks=chunks)
    assert_same(lambda pl, lf: sel(pl, lf)(pl.col("s").struct.eval(pl.field("b"), pl.field("a"))), DATA,
                chunks=chunks)
    assert_same(lambda pl, lf: sel(pl, lf)(pl.col("s").struct.eval(pl.field("a").sum(), pl.lit(1))), DATA,
                chunks=chunks)
    assert_same(lambda pl, lf: sel(pl, lf)(pl.col("s").struct.eval()), DATA)
    assert_same(lambda pl, lf: sel(pl, lf)(pl.col("s").struct.eval(pl.field("a") + 1).struct.field("a")), DATA)


def test_eval_in_agg_and_over():
    assert_same(lambda pl, lf: with_struct(pl, lf).group_by("g").agg(
        pl.col("s").struct.eval(pl.field("b")).first()).sort("g"), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(
        pl.col("s").struct.eval(pl.field("a") * 2).last().over("g")), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).head(0).select(pl.col("s").struct.eval(pl.field("b"))), DATA)


def test_eval_errors():
    assert_same_error(lambda pl, lf: with_struct(pl, lf).select(
        pl.col("s").struct.eval(pl.field("a"), pl.field("a"))), DATA, kind="DuplicateError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("a").struct.eval(pl.field("a"))), DATA)


def test_frame_unnest():
    assert_same(lambda pl, lf: with_struct(pl, lf).unnest("s"), DATA, chunks=2)
    assert_same(lambda pl, lf: with_struct(pl, lf).select("g", "s").unnest("s", separator="_"), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).unnest("s").select("b"), DATA)


def test_frame_unnest_name_clash():
    # The struct's fields a and b clash with the frame's own a and b.
    assert_same_error(lambda pl, lf: with_struct(pl, lf).unnest("s"), DATA)


def test_unnest_pushdown_reads_only_the_struct():
    df = frazil.DataFrame(DATA).select(frazil.struct("a", "b").alias("s"), "c")
    plan = df.lazy().unnest("s").select("a").explain()
    assert 'PROJECT["s"] 1/2 COLUMNS' in plan, plan


def test_to_struct():
    got = frazil.DataFrame(DATA).to_struct("r")
    import polars as pl

    exp = pl.DataFrame(DATA).to_struct("r")
    assert got.name == exp.name and got.to_list() == exp.to_list()


def test_empty_frame():
    assert_same(lambda pl, lf: lf.select(pl.struct("a", "b")), {"a": [], "b": []})
    assert_same(lambda pl, lf: lf.select(pl.struct("a", "b").struct.field("b")), {"a": [], "b": []})


def test_group_by_struct_key_and_unique():
    assert_same(lambda pl, lf: lf.group_by(pl.struct("g")).agg(pl.col("a").sum()), DATA, check_row_order=False)
    assert_same(lambda pl, lf: lf.select(pl.struct("g", "b")).unique(), DATA, check_row_order=False)


def test_repr():
    assert repr(frazil.col("s").struct.field("a")) == 'col("s").struct.field(a)'


@pytest.mark.parametrize(("dtype", "values"), [
    ("Decimal", [1.23, None, -30.13, 0]),
    ("Int128", [2**127 - 5, None, -(2**127) + 124912489, 0]),
    ("UInt128", [2**128 - 5, None, 0, 7]),
])
def test_json_encode_of_wide_numbers(dtype, values):
    # Decimals are written as quoted text, 128-bit integers as bare numbers (Polars 2.1).
    def query(pl, lf):
        t = pl.Decimal(6, 2) if dtype == "Decimal" else getattr(pl, dtype)
        return lf.select(pl.struct(pl.col("v").cast(t)).struct.json_encode())
    data = {"v": [None if v is None else str(v) for v in values]}
    assert_same(query, data)
    assert_same(query, data, chunks=2)


def test_drop():
    for chunks in (1, 3):
        assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.drop(["b"])), DATA, chunks=chunks)
        assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.drop(["a", "nope"], strict=False)),
                    DATA, chunks=chunks)
    assert_same(lambda pl, lf: with_struct(pl, lf).group_by("g").agg(pl.col("s").struct.drop(["a"])).sort("g"), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.drop(["b"]).first().over("g")), DATA)
    assert_same(lambda pl, lf: with_struct(pl, lf).select(pl.col("s").struct.drop(["b"])), {k: [] for k in DATA})
    # strict (the default): StructFieldNotFoundError, as in Polars.
    with pytest.raises(frazil.exceptions.StructFieldNotFoundError, match="nope"):
        with_struct(frazil, frazil.LazyFrame(DATA)).select(frazil.col("s").struct.drop(["a", "nope"])).collect()
