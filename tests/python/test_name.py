"""The name namespace, differential against Polars: each rule alone, after aliases and
aggregations, over multi-column selections (each expanded column named by the rule), inside
group_by().agg() and over(), and the struct field renames."""
import pytest

import frazil
from fuzz.harness import assert_same, assert_same_error

DATA = {"Alpha": [1, 2, None], "beta_x": [1.5, None, 3.0], "g": ["a", "b", "a"]}

RULES = [
    lambda e: e.name.keep(),
    lambda e: e.name.prefix("p_"),
    lambda e: e.name.suffix("_s"),
    lambda e: e.name.to_lowercase(),
    lambda e: e.name.to_uppercase(),
    lambda e: e.name.map(lambda n: n[::-1]),
    lambda e: e.name.strip_prefix("be"),
    lambda e: e.name.strip_suffix("_x"),
    lambda e: e.name.replace("a", "A"),
    lambda e: e.name.replace("^(.)(.*)$", "$2$1"),
    lambda e: e.name.replace(".", "#", literal=True),
]


@pytest.mark.parametrize("rule", range(len(RULES)))
def test_rule_on_selection(rule):
    f = RULES[rule]
    assert_same(lambda pl, lf: lf.select(f(pl.col("Alpha", "beta_x"))), DATA, chunks=2)
    assert_same(lambda pl, lf: lf.select(f(pl.all().exclude("g") * 2)), DATA)


@pytest.mark.parametrize("rule", range(len(RULES)))
def test_rule_in_agg_and_over(rule):
    f = RULES[rule]
    assert_same(lambda pl, lf: lf.group_by("g").agg(f(pl.col("Alpha", "beta_x").sum())).sort("g"), DATA)
    assert_same(lambda pl, lf: lf.select(f(pl.col("beta_x").max().over("g"))), DATA)


def test_keep_undoes_alias():
    assert_same(lambda pl, lf: lf.select(pl.col("Alpha").alias("z").name.keep()), DATA)
    assert_same(lambda pl, lf: lf.with_columns((pl.col("Alpha") + pl.col("beta_x")).name.keep()), DATA)


def test_suffix_after_alias_uses_alias():
    assert_same(lambda pl, lf: lf.select(pl.col("Alpha").alias("z").name.suffix("_1")), DATA)


def test_with_columns_adds_renamed():
    assert_same(lambda pl, lf: lf.with_columns(pl.col("Alpha", "beta_x").cum_sum().name.suffix("_cum")), DATA)


def test_duplicate_names_error():
    assert_same_error(lambda pl, lf: lf.select(pl.col("Alpha", "beta_x").name.map(lambda n: "same")), DATA)


def test_struct_field_renames():
    assert_same(lambda pl, lf: lf.select(pl.struct("Alpha", "g").name.prefix_fields("f_")), DATA)
    assert_same(lambda pl, lf: lf.select(pl.struct("Alpha", "g").name.suffix_fields("_f").struct.unnest()), DATA)


def test_empty_frame():
    assert_same(lambda pl, lf: lf.select(pl.all().name.suffix("_e")), {"a": [], "b": []})


def test_repr():
    assert repr(frazil.col("a").name.suffix("_x")) == 'col("a").name.suffix(_x)'


STRUCTS = {"s": [{"a": 1, "bB": None}, None, {"a": None, "bB": "y"}], "g": ["x", "y", "x"]}


def test_map_fields():
    upper = lambda pl, e: e.name.map_fields(lambda n: n.upper())  # noqa: E731
    assert_same(lambda pl, lf: lf.select(upper(pl, pl.col("s"))), STRUCTS, chunks=2)
    assert_same(lambda pl, lf: lf.select(upper(pl, pl.col("s")).struct.unnest()), STRUCTS)
    assert_same(lambda pl, lf: lf.select(pl.col("s").name.map_fields(lambda n: "f_" + n).struct.field("f_a")),
                STRUCTS)
    assert_same(lambda pl, lf: lf.group_by("g").agg(upper(pl, pl.col("s")).first()).sort("g"), STRUCTS)
    assert_same(lambda pl, lf: lf.select(upper(pl, pl.col("s")).first().over("g")), STRUCTS)
    assert_same(lambda pl, lf: lf.select(upper(pl, pl.col("s"))), {"s": []})


def test_map_fields_errors():
    # Not a struct; a name mapped twice.
    assert_same_error(lambda pl, lf: lf.select(pl.col("g").name.map_fields(str.upper)), STRUCTS)
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").name.map_fields(lambda n: "same")), STRUCTS)
