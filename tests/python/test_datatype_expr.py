"""DataTypeExpr (pl.dtype_of, DataType.to_dtype_expr and its namespace), differential against
Polars: each value-giving method over every dtype family, collect_dtype against schemas, and
the errors of the wrong dtype."""
import polars as pl
import pytest

import frazil as fz
import frazil.selectors as fcs
import polars.selectors as pcs


def dtypes(m):
    return [
        m.Null(), m.Boolean(), m.String(), m.Binary(), m.Int8(), m.Int16(), m.Int32(), m.Int64(), m.Int128(),
        m.UInt8(), m.UInt32(), m.UInt128(), m.Float16(), m.Float32(), m.Float64(), m.Decimal(scale=4),
        m.Decimal(precision=20, scale=12), m.Categorical(), m.Enum([]), m.Enum(["b", "a"]), m.List(m.Null()),
        m.List(m.Array(m.Int8, 5)), m.Array(m.List(m.Struct({"x": m.Int8, "y": m.String})), 2),
        m.Array(m.Array(m.Int16, 2), 3), m.Struct({"x": m.Null()}), m.Struct({"x": m.List(m.Int8), "y": m.Date}),
        m.Date(), m.Datetime(), m.Datetime("ns", "UTC"), m.Duration("ms"), m.Time(),
    ]


def outcome(m, make):
    try:
        r = make(m)
        if isinstance(r, (m.DataFrame,)):
            return "frame", r.to_dict(as_series=False), [repr(t) for t in r.dtypes]
        return "dtype", repr(r)
    except BaseException as e:  # noqa: BLE001 - the error kind is compared (Polars' panics too)
        if not isinstance(e, Exception) and type(e).__name__ != "PanicException":
            raise
        return "error", type(e).__name__


def same(make):
    expected = outcome(pl, make)
    if expected == ("error", "PanicException"):  # a Polars bug: frazil must raise a clean error
        assert outcome(fz, make)[0] == "error"
        return
    assert outcome(fz, make) == expected


METHODS = [
    lambda m, e: m.select(e.display()),
    lambda m, e: m.select(e.default_value()),
    lambda m, e: m.select(e.default_value(3, numeric_to_one=True, num_list_values=2)),
    lambda m, e: m.select(e.default_value(0)),
    lambda m, e: m.select(e == m.Int64, e != m.String),
    lambda m, e: e.inner_dtype().collect_dtype({}),
    lambda m, e: e.list.inner_dtype().collect_dtype({}),
    lambda m, e: e.arr.inner_dtype().collect_dtype({}),
    lambda m, e: m.select(e.arr.width()),
    lambda m, e: m.select(e.arr.shape()),
    lambda m, e: e.wrap_in_list().collect_dtype({}),
    lambda m, e: e.wrap_in_array(width=3).collect_dtype({}),
    lambda m, e: e.struct[0].collect_dtype({}),
    lambda m, e: e.struct[-1].collect_dtype({}),
    lambda m, e: e.struct["y"].collect_dtype({}),
    lambda m, e: m.select(e.struct.field_names()),
    lambda m, e: e.to_unsigned_integer().collect_dtype({}),
    lambda m, e: e.to_signed_integer().collect_dtype({}),
]


@pytest.mark.parametrize("method", range(len(METHODS)))
@pytest.mark.parametrize("which", range(len(dtypes(pl))))
def test_methods(method, which):
    same(lambda m: METHODS[method](m, dtypes(m)[which].to_dtype_expr()))


@pytest.mark.parametrize("selector", ["numeric", "integer", "signed_integer", "unsigned_integer", "float",
                                      "decimal", "categorical", "enum", "nested", "list", "array", "struct",
                                      "temporal", "datetime", "duration", "string", "boolean", "binary"])
def test_matches(selector):
    for which in range(len(dtypes(pl))):
        p = pl.select(dtypes(pl)[which].to_dtype_expr().matches(getattr(pcs, selector)())).item()
        f = fz.select(dtypes(fz)[which].to_dtype_expr().matches(getattr(fcs, selector)())).item()
        assert f == p, (selector, dtypes(pl)[which])


def test_class_and_instance():
    same(lambda m: m.select(m.Int16.to_dtype_expr().display()))
    same(lambda m: m.select(m.Datetime.to_dtype_expr().default_value(2)))


def test_dtype_of_against_a_schema():
    schema = lambda m: {"a": m.List(m.Int32), "b": m.String, "s": m.Struct({"f": m.Float32})}  # noqa: E731
    same(lambda m: m.dtype_of("a").collect_dtype(schema(m)))
    same(lambda m: m.dtype_of(m.col("a").list.sum() * 2).collect_dtype(schema(m)))
    same(lambda m: m.dtype_of(m.col("s").struct.field("f")).inner_dtype().collect_dtype(schema(m)))
    same(lambda m: m.dtype_of("a").inner_dtype().wrap_in_array(width=2).collect_dtype(schema(m)))
    same(lambda m: m.dtype_of(m.all()).collect_dtype(schema(m)))
    same(lambda m: m.dtype_of("zz").collect_dtype(schema(m)))
    same(lambda m: m.dtype_of("b").collect_dtype(m.LazyFrame(schema=schema(m))))
    same(lambda m: m.struct_with_fields({"x": m.Int64, "y": m.String(), "z": m.dtype_of("a")})
         .collect_dtype(schema(m)))


def test_self_dtype_outside_its_context():
    same(lambda m: m.select(m.lit("a").cast(m.self_dtype())))


def test_known_dtype_expr_as_a_dtype_argument():
    same(lambda m: m.select(m.lit(3).cast(m.Int8.to_dtype_expr())))
    same(lambda m: m.select(m.lit(3).cast(m.List(m.Int8).to_dtype_expr().inner_dtype())))
