"""str.slice / head / tail / reverse / len_* / strip_* / pad_* / zfill / case mapping /
to_titlecase / normalize, differential against Polars: nulls, empty strings, non-ASCII
text (combining marks, CJK, final sigma, ß, ligatures), per-row arguments."""
import pytest

from fuzz.harness import assert_same, assert_same_error

TEXT = ["héllo wörld", "ab", "", None, "日本語テキスト", "  pad  ", "ae\u0301x", "ΣΑΣ ΟΔΟΣ", "straße ﬁx",
        "İstanbul", "-12", "+7", "a_long_ascii_string_over_twelve_bytes", "\tws\n"]
DATA = {"s": TEXT}


@pytest.mark.parametrize("offset,length", [(0, 3), (1, None), (-3, None), (-3, 2), (-20, 3), (20, 2), (2, 0),
                                           (-1, 5), (0, None)])
def test_slice(offset, length):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.slice(offset, length)), DATA, chunks=2)


@pytest.mark.parametrize("n", [0, 2, 5, -2, -100, 100])
def test_head_tail(n):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.head(n).alias("h"), pl.col("s").str.tail(n).alias("t")),
                DATA)


def test_per_row_lengths():
    data = {"s": ["abcdef", "xyz", None, "héllo"], "o": [1, -2, 0, 1], "l": [2, None, 1, 3], "n": [2, -1, 3, None]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.slice(pl.col("o"), pl.col("l")).alias("sl"),
                                         pl.col("s").str.head(pl.col("n")).alias("h"),
                                         pl.col("s").str.tail(pl.col("n")).alias("t"),
                                         pl.col("s").str.pad_start(pl.col("n").abs() + 4, "*").alias("p"),
                                         pl.col("s").str.zfill(pl.col("o") + 5).alias("z")), data)
    # A negative length is refused (Polars casts it to UInt64).
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.pad_start(pl.col("n"), "*")), data,
                      kind="InvalidOperationError")
    # Lengths and offsets given as str are column names.
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.slice("o", "l").alias("sl"),
                                         pl.col("s").str.head("n").alias("h"),
                                         pl.col("s").str.tail("n").alias("t"),
                                         pl.col("s").str.pad_start("l").alias("ps"),
                                         pl.col("s").str.pad_end("l", "-").alias("pe"),
                                         pl.col("s").str.zfill("l").alias("z")), data)


def test_reverse_and_lengths():
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.reverse().alias("r"), pl.col("s").str.len_bytes().alias("b"),
                                         pl.col("s").str.len_chars().alias("c")), DATA)


@pytest.mark.parametrize("chars", [None, "a ", " ", "dlr", "ö", "\t\n", "日テ"])
def test_strip(chars):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.strip_chars(chars).alias("b"),
                                         pl.col("s").str.strip_chars_start(chars).alias("s"),
                                         pl.col("s").str.strip_chars_end(chars).alias("e")), DATA)


def test_strip_prefix_suffix():
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.strip_prefix("hé").alias("p"),
                                         pl.col("s").str.strip_suffix("ld").alias("q"),
                                         pl.col("s").str.strip_prefix("").alias("e")), DATA)
    data = {"s": ["foobar", "bar", None, "foo"], "x": ["foo", None, "b", "foo"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.strip_prefix(pl.col("x")).alias("p"),
                                         pl.col("s").str.strip_suffix(pl.col("x")).alias("q"),
                                         pl.col("s").str.strip_chars(pl.col("x")).alias("c")), data)


@pytest.mark.parametrize("length", [0, 3, 8, 20])
@pytest.mark.parametrize("fill", [" ", "*", "ü", "日"])
def test_pad(length, fill):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.pad_start(length, fill).alias("s"),
                                         pl.col("s").str.pad_end(length, fill).alias("e")), DATA)


@pytest.mark.parametrize("length", [0, 1, 4, 10])
def test_zfill(length):
    data = {"s": ["-1", "+12", "123", "ab", "", None, "-", "日", "--1", "1-"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.zfill(length)), data)


def test_case_mapping():
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_uppercase().alias("u"),
                                         pl.col("s").str.to_lowercase().alias("l")), DATA)
    # (Titlecase of "İstanbul" differs: lower case gives "i" + U+0307, which Rust's Unicode 16
    # tables count as alphabetic and ICU 72's do not.)
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_titlecase()),
                {"s": [t for t in TEXT if t is None or "İ" not in t]})
    titles = {"s": ["hello wORLD", "élan-vital 1st", "it's", "ǆemal", "o'neil mc-donald", "ΣΑΣ", "a\u0301b c"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_titlecase()), titles)


@pytest.mark.parametrize("form", ["NFC", "NFKC", "NFD", "NFKD"])
def test_normalize(form):
    data = {"s": ["é", "e\u0301", "ﬁ", "Å", "A\u030a", "①", None, "", "plain"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.normalize(form)), data)


def test_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").str.slice(0, 1)), {"x": [1]})
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").str.pad_start(3)), {"x": [1]})
