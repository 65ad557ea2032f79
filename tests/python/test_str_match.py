"""str.contains / starts_with / ends_with / count_matches / find / extract / extract_all /
extract_groups / replace / replace_all / escape_regex and the many-pattern functions,
differential against Polars: nulls, empty strings, non-ASCII text, per-row patterns,
literal and regex patterns, empty matches, invalid regexes."""
import polars as pl
import pytest

from fuzz.harness import assert_same, assert_same_error

TEXT = ["héllo wörld", "ab", "", None, "aaa", "日本語テキスト", "a.b*c", "Hello World", "x1y22z333"]
DATA = {"s": TEXT}

PATTERNS = ["l", "l+", "^h", "o$", "", "a*", r"\d+", "ö", "(?i)hello", "[a-z]{2}", ".", r"\.", "日本", "xyz"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_regex_matchers(pattern):
    assert_same(lambda pl, lf: lf.select(
        pl.col("s").str.contains(pattern).alias("c"),
        pl.col("s").str.count_matches(pattern).alias("n"),
        pl.col("s").str.find(pattern).alias("f"),
        pl.col("s").str.extract_all(pattern).alias("all"),
        pl.col("s").str.replace(pattern, "<$0>").alias("r1"),
        pl.col("s").str.replace_all(pattern, "_").alias("ra")), DATA, chunks=2)
    # Polars replaces a regex at most once or everywhere (n > 1 is not yet supported, unless
    # the pattern is plain text).
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.replace(pattern, "#", n=2)), DATA)


@pytest.mark.parametrize("pattern", ["l", "", ".", "ö", "a.b", "*", "日"])
def test_literal_matchers(pattern):
    assert_same(lambda pl, lf: lf.select(
        pl.col("s").str.contains(pattern, literal=True).alias("c"),
        pl.col("s").str.count_matches(pattern, literal=True).alias("n"),
        pl.col("s").str.find(pattern, literal=True).alias("f"),
        pl.col("s").str.starts_with(pattern).alias("sw"),
        pl.col("s").str.ends_with(pattern).alias("ew"),
        pl.col("s").str.replace(pattern, "$0!", literal=True).alias("r1"),
        pl.col("s").str.replace_all(pattern, "-", literal=True).alias("ra")), DATA)


def test_per_row_patterns_and_null_patterns():
    data = {"s": ["abc", "xbc", None, "héllo", ""], "p": ["a", None, "x", "é", ""]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.contains(pl.col("p")).alias("c"),
                                         pl.col("s").str.contains(pl.col("p"), literal=True).alias("cl"),
                                         pl.col("s").str.starts_with(pl.col("p")).alias("sw"),
                                         pl.col("s").str.ends_with(pl.col("p")).alias("ew"),
                                         pl.col("s").str.count_matches(pl.col("p")).alias("n"),
                                         pl.col("s").str.find(pl.col("p"), literal=True).alias("f"),
                                         pl.col("s").str.replace("b", pl.col("p")).alias("rv")), data)
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.contains(pl.lit(None, dtype=pl.String))), data)


def test_invalid_regex():
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.contains("(")), DATA, kind="ComputeError")
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.contains("(", strict=False).alias("c"),
                                         pl.col("s").str.find("(", strict=False).alias("f")), DATA)
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.replace("[", "x")), DATA, kind="ComputeError")


@pytest.mark.parametrize("group", [0, 1, 2, 3])
def test_extract(group):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.extract(r"(\w)(\w)?", group)), DATA)


def test_extract_groups():
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.extract_groups(r"(?P<first>\w)(\w)?(?P<digit>\d)?")), DATA)
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.extract_groups(r"(\d+)\D(\d+)")), DATA)


def test_replacement_syntax():
    data = {"s": ["2024-01-31", "x", None, "1999-12-01"]}
    for value in ["$3/$2/$1", "${1}y", "$$", "[$0]", "${y}-${m}", "$9"]:
        assert_same(lambda pl, lf, v=value: lf.select(
            pl.col("s").str.replace(r"(?P<y>\d+)-(?P<m>\d+)-(\d+)", v)), data)


def test_escape_regex():
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.escape_regex()), DATA)
    import frazil as fz

    text = r"a.b*c[d]$^(|){}?+\ #&-~ ü"
    assert fz.escape_regex(text) == pl.escape_regex(text)


PATTERN_LISTS = [["l", "ö"], ["hello", "HELLO", "a"], ["aa", "a"], ["ab", "abc", "b"], ["日本", "テキ"], ["bc", "abc"]]


@pytest.mark.parametrize("patterns", PATTERN_LISTS)
@pytest.mark.parametrize("ci", [False, True])
def test_many_patterns(patterns, ci):
    reps = [f"<{k}>" for k in range(len(patterns))]
    assert_same(lambda pl, lf: lf.select(
        pl.col("s").str.contains_any(patterns, ascii_case_insensitive=ci).alias("any"),
        pl.col("s").str.replace_many(patterns, reps, ascii_case_insensitive=ci).alias("rm"),
        pl.col("s").str.replace_many(patterns, reps, ascii_case_insensitive=ci, leftmost=True).alias("rml"),
        pl.col("s").str.extract_many(patterns, ascii_case_insensitive=ci).alias("em"),
        pl.col("s").str.extract_many(patterns, ascii_case_insensitive=ci, overlapping=True).alias("emo"),
        pl.col("s").str.extract_many(patterns, ascii_case_insensitive=ci, leftmost=True).alias("eml"),
        pl.col("s").str.find_many(patterns, ascii_case_insensitive=ci).alias("fm"),
        pl.col("s").str.find_many(patterns, overlapping=True).alias("fmo")), DATA)


def test_replace_many_mapping_and_errors():
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.replace_many({"l": "L", "ab": "AB", "": "?"})), DATA)
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.replace_many(["a", "b"], ["1"])), DATA)
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.contains_any([])), DATA)


def test_not_a_string_is_an_error():
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").str.contains("1")), {"x": [1, 2]})
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").str.to_uppercase()), {"x": [1, 2]})


def test_rust_named_groups():
    # Rust's (?<name>...) spelling (RE2 only knows (?P<name>...)).
    data = {"s": ["ISO 80000-1:2009", "ISO/IEC/IEEE 29148:2018", None]}
    pattern = r"(?<authority>^ISO(?:/[A-Z]+)*)\s(?<spec>\d+)(?:-(?<part>\d+))?(?::(?<year>\d{4}))"
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.extract_groups(pattern)), data)
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.replace(pattern, "${year}/${spec}")), data)


def test_many_patterns_per_row_and_by_name():
    data = {"values": ["discontent", "rhapsody", None],
            "patterns": [["winter", "disco", "onte", "discontent"], ["rhap", "ody", "coalesce"], ["x"]]}
    # A str is a column name: one pattern list per row.
    assert_same(lambda pl, lf: lf.select(pl.col("values").str.extract_many("patterns").alias("e"),
                                         pl.col("values").str.find_many("patterns", overlapping=True).alias("f")),
                data)
    # contains_any / replace_many take one list for all rows (Polars: not yet implemented).
    assert_same_error(lambda pl, lf: lf.select(pl.col("values").str.contains_any("patterns")), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("values").str.replace_many("nope", ["x"])), data,
                      kind="ColumnNotFoundError")


def test_many_patterns_invalid_inputs():
    data = {"text": ["Tell me what you want"]}
    cases = [
        lambda pl, lf: lf.select(pl.col("text").str.contains_any(pl.Series(["me", "they"]))),
        lambda pl, lf: lf.select(pl.col("text").str.extract_many(pl.lit("me"))),
        lambda pl, lf: lf.select(pl.col("text").str.contains_any([1])),
        lambda pl, lf: lf.select(pl.col("text").str.replace_many(pl.Series(["me"]), pl.Series([["it"]]))),
        lambda pl, lf: lf.select(pl.col("text").str.replace_many(pl.Series([["me"]]), pl.Series(["it"]))),
        lambda pl, lf: lf.select(pl.col("text").str.replace_many(["me"], "it")),
        lambda pl, lf: lf.select(pl.col("text").str.replace_many(["me"], None)),
        lambda pl, lf: lf.select(pl.col("text").str.replace_many([1], [2])),
        lambda pl, lf: lf.select(pl.col("text").str.replace_many(1, 2)),
    ]
    for case in cases:
        assert_same_error(case, data, kind="InvalidOperationError")
    import frazil as fz

    for m in (pl, fz):
        with pytest.raises(TypeError):
            m.col("text").str.replace_many(["me"])
        with pytest.raises(ValueError, match="can not match overlapping patterns when leftmost == True"):
            m.col("text").str.extract_many(["a"], leftmost=True, overlapping=True)
    msg = "with a flat string datatype is invalid. Use `implode`"
    with pytest.raises(fz.exceptions.InvalidOperationError, match=msg):
        fz.DataFrame(data).select(fz.col("text").str.contains_any(fz.Series(["me"])))
    with pytest.raises(fz.exceptions.ShapeError, match="expected the same amount of patterns as replacement strings"):
        fz.DataFrame(data).select(fz.col("text").str.replace_many(["a"], ["b", "c"]))
