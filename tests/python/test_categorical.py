"""Categorical and Enum (dictionary-encoded strings), differential against Polars: casts,
comparisons, sort, unique, group-by and joins on the codes, min/max, the cat namespace,
Arrow and Parquet round trips; nulls, empty frames, several chunks, agg and over contexts."""

import polars as pl
import pytest

import frazil as fz
from fuzz.harness import assert_same, assert_same_error

WORDS = ["banana", "apple", None, "cherry", "apple", "", "date", "banana", None, "éclair"]
ENUM = ["date", "cherry", "banana", "apple", "", "éclair"]


def cat_frame():
    return pl.DataFrame({"c": WORDS, "v": list(range(len(WORDS)))}).with_columns(
        pl.col("c").cast(pl.Categorical), pl.col("c").cast(pl.Enum(ENUM)).alias("e"), pl.col("c").alias("s"))


def test_dtypes_and_construction():
    s = fz.Series("c", WORDS, dtype=fz.Categorical)
    assert s.dtype == fz.Categorical and s.to_list() == WORDS
    e = fz.Series("e", WORDS, dtype=fz.Enum(ENUM))
    assert e.dtype == fz.Enum(ENUM) and e.dtype != fz.Enum(ENUM[::-1]) and e.to_list() == WORDS
    assert repr(fz.Enum(["a", "b"])) == repr(pl.Enum(["a", "b"]))
    assert e.dtype.categories.to_list() == ENUM
    assert "[cat]" in repr(s) and "[enum]" in repr(e) and '"banana"' in repr(s)
    assert repr(pl.Series("c", WORDS, dtype=pl.Categorical)) == repr(s)
    with pytest.raises(fz.InvalidOperationError, match="enum"):
        fz.Series("e", ["apple", "kiwi"], dtype=fz.Enum(ENUM))
    with pytest.raises(ValueError):
        fz.Enum(["a", "a"])


@pytest.mark.parametrize("chunks", [1, 3])
def test_casts(chunks):
    data = pl.DataFrame({"s": WORDS})
    assert_same(lambda pl, lf: lf.select(pl.col("s").cast(pl.Categorical).alias("c"),
                                         pl.col("s").cast(pl.Enum(ENUM)).alias("e"),
                                         pl.col("s").cast(pl.Categorical).cast(pl.String).alias("cs"),
                                         pl.col("s").cast(pl.Enum(ENUM)).cast(pl.Categorical).alias("ec"),
                                         pl.col("s").cast(pl.Categorical).cast(pl.Enum(ENUM)).alias("ce")),
                data, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(pl.col("s").cast(pl.Enum(["apple"]), strict=False)), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").cast(pl.Enum(["apple"]))), data,
                      kind="InvalidOperationError")


def test_cast_to_integers_is_refused():
    df = fz.DataFrame({"s": ["a"]}).with_columns(fz.col("s").cast(fz.Categorical))
    with pytest.raises(fz.ComputeError, match="cat.physical"):
        df.select(fz.col("s").cast(fz.UInt32))
    with pytest.raises(fz.ComputeError, match="cat.to"):
        fz.DataFrame({"i": [0]}).select(fz.col("i").cast(fz.Enum(["a"])))


@pytest.mark.parametrize("chunks", [1, 2])
def test_comparisons(chunks):
    df = cat_frame()
    assert_same(lambda pl, lf: lf.select((pl.col("c") == "apple").alias("eq"), (pl.col("c") != "apple").alias("ne"),
                                         (pl.col("c") < "banana").alias("lt"), (pl.col("c") >= "cherry").alias("ge"),
                                         (pl.col("e") < "banana").alias("elt"), (pl.col("e") > "date").alias("egt"),
                                         (pl.col("e") == "apple").alias("eeq"),
                                         pl.col("c").eq_missing(pl.col("c")).alias("em")),
                df, chunks=chunks)
    assert_same(lambda pl, lf: lf.filter(pl.col("c") == "banana"), df, chunks=chunks)
    assert_same(lambda pl, lf: lf.filter(pl.col("e") <= "banana"), df, chunks=chunks)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("nulls_last", [False, True])
def test_sort(descending, nulls_last):
    df = cat_frame()
    for key in ("c", "e"):
        assert_same(lambda pl, lf: lf.sort(key, "v", descending=descending, nulls_last=nulls_last), df, chunks=2)
        assert_same(lambda pl, lf: lf.select(pl.col(key).sort(descending=descending, nulls_last=nulls_last)), df)


def test_unique_and_counts():
    df = cat_frame()
    assert_same(lambda pl, lf: lf.select(pl.col("c").unique().sort()), df, chunks=2)
    assert_same(lambda pl, lf: lf.select(pl.col("e").unique(maintain_order=True)), df)
    assert_same(lambda pl, lf: lf.select(pl.col("c").n_unique().alias("n"), pl.col("e").n_unique().alias("m"),
                                         pl.col("c").count().alias("k"), pl.col("c").null_count().alias("z")), df)
    assert_same(lambda pl, lf: lf.unique(subset=["c"], maintain_order=True), df, chunks=3)


def test_min_max():
    df = cat_frame()
    assert_same(lambda pl, lf: lf.select(pl.col("c").min().alias("cmin"), pl.col("c").max().alias("cmax"),
                                         pl.col("e").min().alias("emin"), pl.col("e").max().alias("emax")), df, chunks=2)
    g = df.with_columns(pl.Series("g", [1, 2, 1, 2, 1, 2, 1, 2, 1, 1]))
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("c").min().alias("cmin"), pl.col("c").max().alias("cmax"),
                                                    pl.col("e").min().alias("emin"), pl.col("e").max().alias("emax"),
                                                    pl.col("c").first().alias("f"), pl.col("e").last().alias("l")),
                g, check_row_order=False)


@pytest.mark.parametrize("key", ["c", "e"])
def test_group_by_and_over(key):
    df = cat_frame()
    assert_same(lambda pl, lf: lf.group_by(key).agg(pl.col("v").sum(), pl.len()), df, check_row_order=False, chunks=2)
    assert_same(lambda pl, lf: lf.group_by(key, maintain_order=True).agg(pl.col("v")), df)
    assert_same(lambda pl, lf: lf.select(pl.col("v").sum().over(key), pl.col(key)), df, chunks=2)
    assert_same(lambda pl, lf: lf.group_by(key).agg(pl.col("v").sum()), df.head(0), check_row_order=False)


def test_join_on_categorical_keys():
    left = cat_frame()
    right = pl.DataFrame({"c": ["apple", "banana", "kiwi", None], "w": [1, 2, 3, 4]}).with_columns(
        pl.col("c").cast(pl.Categorical))
    for how in ("inner", "left", "full"):
        assert_same(lambda pl, a, b: a.join(b, on="c", how=how, nulls_equal=False), left.select("c", "v"), right,
                    check_row_order=False)
    eright = pl.DataFrame({"e": ["apple", "date"], "w": [1, 2]}).with_columns(pl.col("e").cast(pl.Enum(ENUM)))
    assert_same(lambda pl, a, b: a.join(b, on="e"), left.select("e", "v"), eright, check_row_order=False)


@pytest.mark.parametrize("col", ["c", "e"])
def test_cat_namespace(col):
    df = cat_frame()
    assert_same(lambda pl, lf: lf.select(pl.col(col).cat.len_bytes().alias("b"), pl.col(col).cat.len_chars().alias("n"),
                                         pl.col(col).cat.starts_with("b").alias("sw"),
                                         pl.col(col).cat.ends_with("e").alias("ew"),
                                         pl.col(col).cat.slice(1, 3).alias("sl"),
                                         pl.col(col).cat.slice(-2).alias("sl2")), df, chunks=2)
    assert_same(lambda pl, lf: lf.group_by("v").agg(pl.col(col).cat.len_bytes().sum()), df, check_row_order=False)
    assert_same(lambda pl, lf: lf.select(pl.col(col).cat.len_chars().max().over("s")), df)


def test_physical_and_to():
    df = fz.DataFrame({"s": WORDS}).with_columns(fz.col("s").cast(fz.Categorical).alias("c"),
                                                 fz.col("s").cast(fz.Enum(ENUM)).alias("e"))
    out = df.select(fz.col("c").cat.physical(), fz.col("e").cat.physical())
    assert out.dtypes == [fz.UInt32, fz.UInt8]
    codes = out["c"].to_list()
    # Equal strings share a code; codes go back to the same strings.
    assert codes[0] == codes[7] and codes[1] == codes[4] and codes[2] is None
    assert out["e"].to_list() == [2, 3, None, 1, 3, 4, 0, 2, None, 5]
    back = out.select(fz.col("c").cat.to(fz.Categorical), fz.col("e").cat.to(fz.Enum(ENUM)))
    assert back["c"].to_list() == WORDS and back["e"].to_list() == WORDS
    with pytest.raises(fz.ComputeError):
        fz.DataFrame({"i": [0, 9]}).select(fz.col("i").cat.to(fz.Enum(["a"])))
    # Outside the physical type (UInt8 for a small Enum) is null, not an error (Polars).
    assert fz.DataFrame({"i": [-1, 300, 0]}).select(fz.col("i").cat.to(fz.Enum(["a"])))["i"].to_list() == [None, None, "a"]
    assert fz.DataFrame({"i": [0, 9]}).select(fz.col("i").cat.to(fz.Enum(["a"]), strict=False))["i"].to_list() == ["a", None]


def test_string_cache_api():
    with fz.StringCache():
        a = fz.Series(["x", "y"], dtype=fz.Categorical)
    b = fz.Series(["y", "x"], dtype=fz.Categorical)
    assert fz.using_string_cache()
    fz.enable_string_cache()
    fz.disable_string_cache()
    assert (a == b.sort()).to_list() == [True, True]


def test_arrow_round_trip():
    df = cat_frame()
    f = fz.DataFrame(df)
    assert f.dtypes == [fz.Categorical, fz.Int64, fz.Enum(ENUM), fz.String]
    back = pl.from_arrow(f.to_arrow())
    assert back.dtypes == df.dtypes and back.equals(df)
    # pyarrow dictionaries of any index width.
    import pyarrow as pa
    arr = pa.DictionaryArray.from_arrays(pa.array([1, 0, None, 1], pa.int8()), pa.array(["p", "q"]))
    g = fz.from_arrow(pa.table({"d": arr}))
    assert g.dtypes == [fz.Categorical] and g["d"].to_list() == ["q", "p", None, "q"]


def test_parquet_round_trip(tmp_path):
    df = cat_frame()
    f = fz.DataFrame(df)
    path = tmp_path / "c.parquet"
    f.write_parquet(path)
    back = fz.read_parquet(path)
    assert back.dtypes == f.dtypes and back.to_polars().equals(df)
    assert pl.read_parquet(path).select("c", "s").to_dict(as_series=False) == df.select("c", "s").to_dict(as_series=False)


@pytest.mark.parametrize("page_size", [None, 20])
def test_parquet_round_trip_of_nested_categories(tmp_path, page_size):
    # List(Categorical) crashed the writer: it hashed the codes as string views.
    schema = {"l": pl.List(pl.Categorical), "s": pl.Struct({"x": pl.Categorical, "n": pl.Int64}),
              "e": pl.List(pl.Enum(["A", "B", "C"]))}
    data = {"l": [["A", "B"], ["C"], ["A", "C", "B"], [], None, ["B", None]],
            "s": [{"x": "p", "n": 1}, {"x": None, "n": 2}, None, {"x": "q", "n": 3}, {"x": "p", "n": None},
                  {"x": "r", "n": 4}],
            "e": [["A"], [], None, ["C", "B"], [None], ["A", "A"]]}
    f = fz.from_arrow(pl.DataFrame(data, schema=schema).to_arrow())
    path = tmp_path / "n.parquet"
    f.write_parquet(path, **({} if page_size is None else {"data_page_size": page_size}))
    back = fz.read_parquet(path)
    assert back.dtypes == f.dtypes, back.dtypes
    assert back.to_polars().equals(pl.DataFrame(data, schema=schema))
    assert pl.read_parquet(path).cast({"l": pl.List(pl.String)}).get_column("l").to_list() == data["l"]


@pytest.mark.parametrize("fmt", ["parquet", "ipc"])
@pytest.mark.parametrize("rows", [slice(None), slice(0, 1), slice(0, 0)])
def test_polars_written_dictionaries_read_as_categorical_and_enum(tmp_path, fmt, rows):
    # Polars names an Enum's categories in the field metadata of its ARROW:schema footer
    # (_PL_ENUM_VALUES2): the column must read back as that Enum, not as a Categorical.
    df = cat_frame()[rows]
    path = tmp_path / f"p.{fmt}"
    getattr(df, f"write_{fmt}")(path)
    back = getattr(fz, f"read_{fmt}")(path)
    want = getattr(pl, f"read_{fmt}")(path)
    assert back.dtypes == [fz.Categorical, fz.Int64, fz.Enum(ENUM), fz.String]
    assert back.to_polars().equals(want)
    # An Enum read back keeps its category order for sorting.
    assert back["e"].sort().to_list() == want["e"].sort().to_list()


CSV_TEXT = "x,y\na,1\nb,2\n,3\na,4\n\"b\",5\n"


@pytest.mark.parametrize("reader", ["read_csv", "scan_csv"])
@pytest.mark.parametrize("kind", ["overrides_cat", "overrides_enum", "schema_enum", "reversed_enum"])
@pytest.mark.parametrize("text", [CSV_TEXT, "x,y\n", "x,y\na,1\n", "x,y\n" + "b,1\na,2\n,3\n" * 40000])
def test_csv_reads_categorical_and_enum(tmp_path, reader, kind, text):
    path = tmp_path / "c.csv"
    path.write_text(text)

    def run(m):
        kw = {"overrides_cat": {"schema_overrides": {"x": m.Categorical}},
              "overrides_enum": {"schema_overrides": {"x": m.Enum(["a", "b"])}},
              "schema_enum": {"schema": {"x": m.Enum(["a", "b"]), "y": m.Int64}},
              "reversed_enum": {"schema_overrides": {"x": m.Enum(["b", "a"])}}}[kind]
        out = getattr(m, reader)(path, **kw)
        return out if reader == "read_csv" else out.collect()

    got, want = run(fz), run(pl)
    assert got.dtypes[0] == (fz.Categorical if kind == "overrides_cat" else fz.Enum(want.dtypes[0].categories.to_list()))
    assert got.to_polars().equals(want)
    # Sorting follows the Enum's category order, Categorical's lexical order.
    assert got["x"].sort().to_list() == want["x"].sort().to_list()


@pytest.mark.parametrize("reader", ["read_csv", "scan_csv"])
def test_csv_enum_unknown_value_names_column_and_line(tmp_path, reader):
    path = tmp_path / "c.csv"
    path.write_text(CSV_TEXT)
    for m in (pl, fz):
        with pytest.raises(m.exceptions.ComputeError, match="'x'"):
            out = getattr(m, reader)(path, schema_overrides={"x": m.Enum(["a"])})
            if reader == "scan_csv":
                out.collect()
    with pytest.raises(fz.exceptions.ComputeError, match="line 3"):
        fz.read_csv(path, schema_overrides={"x": fz.Enum(["a"])})
    # ignore_errors does not apply to values outside an Enum (Polars raises too).
    with pytest.raises(fz.exceptions.ComputeError, match="'x'"):
        fz.read_csv(path, schema_overrides={"x": fz.Enum(["a"])}, ignore_errors=True)
    with pytest.raises(pl.exceptions.ComputeError):
        pl.read_csv(path, schema_overrides={"x": pl.Enum(["a"])}, ignore_errors=True)
    # A quoted empty string read as a value must be a category too.
    path.write_text('x,y\n"",1\na,2\n')
    for m in (pl, fz):
        with pytest.raises(m.exceptions.ComputeError):
            m.read_csv(path, schema_overrides={"x": m.Enum(["a"])})
    got = fz.read_csv(path, schema_overrides={"x": fz.Enum(["", "a"])})
    want = pl.read_csv(path, schema_overrides={"x": pl.Enum(["", "a"])})
    assert got.to_polars().equals(want)


@pytest.mark.parametrize("chunks", [1, 2])
def test_is_in_strings(chunks):
    # A Categorical or Enum column against Python strings (an unknown one matches nothing).
    data = {"a": ["x", "y", None, "z", "x"], "n": [1, 2, 3, 4, 5]}
    for dtype in ("Categorical", "Enum"):
        def frame(pl, lf, dtype=dtype):
            t = pl.Categorical if dtype == "Categorical" else pl.Enum(["z", "y", "x"])
            return lf.with_columns(pl.col("a").cast(t))
        assert_same(lambda pl, lf: frame(pl, lf).filter(pl.col("a").is_in(["x", "q"])), data, chunks=chunks)
        assert_same(lambda pl, lf: frame(pl, lf).select(pl.col("a").is_in(("y", "z"))), data, chunks=chunks)


def test_enum_from_integer_python_enums_is_a_type_error():
    import enum

    for base in (enum.Flag, enum.IntFlag, enum.IntEnum):
        class Color(base):
            RED = enum.auto()
            GREEN = enum.auto()

        for m in (pl, fz):
            with pytest.raises(TypeError, match="Enum categories must be strings; `Color` values are integers"):
                m.Enum(Color)
