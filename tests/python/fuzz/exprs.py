"""Random expressions for the fuzzer: a small typed AST that renders to Polars-API source.

Each node is a template ("({0} + {1})", "{0}.sum()") over child nodes, with the category
of its result (int, float, bool, str, date, ...) and flags the plan generator and the
order analysis need: `agg` (one row per frame or group), `order` (the value depends on
the input's row order), `length` (changes the number of rows).
Only what frazil's Python API offers is generated (see python/frazil/expr.py).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import exprs_numeric

NUMERIC = ("int", "float")
ORDERABLE = ("int", "float", "str", "bool", "date", "datetime", "duration", "time", "decimal")
GROUPABLE = ("int", "float", "str", "bool", "date", "datetime", "binary", "decimal", "time", "duration", "null")


@dataclass
class E:
    tpl: str
    kids: list = field(default_factory=list)
    cat: str = "int"
    agg: bool = False
    order: bool = False
    length: bool = False

    def render(self) -> str:
        return self.tpl.format(*[k.render() for k in self.kids]) if self.kids else self.tpl

    def nodes(self, path=()):
        """(path, node) for every node, parents first."""
        yield path, self
        for i, k in enumerate(self.kids):
            yield from k.nodes(path + (i,))

    def replace(self, path, new: "E") -> "E":
        if not path:
            return new
        kids = list(self.kids)
        kids[path[0]] = kids[path[0]].replace(path[1:], new)
        return E(self.tpl, kids, self.cat, self.agg, self.order, self.length)


def lit_e(src: str, cat: str) -> E:
    return E(src, [], cat)


def node(tpl: str, kids: list, cat: str, *, agg: bool | None = None, order: bool = False,
         length: bool = False) -> E:
    """A node whose flags combine its children's: an operation over aggregates is an
    aggregate (only if every non-literal input is), order and length propagate."""
    if agg is None:
        agg = bool(kids) and all(k.agg or (not k.kids and not k.tpl.startswith("pl.col")) for k in kids) and \
            any(k.agg for k in kids)
    return E(tpl, kids, cat, agg, order or any(k.order for k in kids), length or any(k.length for k in kids))


INT_LITS = ["0", "1", "-1", "2", "3", "7", "-5", "100", "1000", "2**31", "2**40"]
FLOAT_LITS = ["0.0", "-0.0", "0.5", "1.5", "-2.25", "0.1", "nan", "inf", "-inf", "1e300"]
STR_LITS = ['pl.lit("a")', 'pl.lit("")', 'pl.lit("ab")', 'pl.lit("hello world")', 'pl.lit("ü")',
            'pl.lit("a string longer than twelve bytes")']
PATTERNS_LITERAL = ["a", "b", "", " ", "ab", "l", "ü", "."]
PATTERNS_REGEX = ["a", "^a", "b$", "[ab]", "a+", ".", "\\\\d", "^$", "(?i)A", "o w"]
CAST_TARGETS = {
    "int": ["pl.Int8", "pl.Int16", "pl.Int32", "pl.Int64", "pl.UInt8", "pl.UInt32", "pl.UInt64", "pl.Float32",
            "pl.Float64", "pl.String", "pl.Boolean"],
    "float": ["pl.Int32", "pl.Int64", "pl.UInt16", "pl.Float32", "pl.Float64", "pl.String"],
    "bool": ["pl.Int8", "pl.Int64", "pl.UInt8", "pl.Float64", "pl.String"],
    "str": ["pl.Int64", "pl.Float64", "pl.Int8", "pl.Boolean", "pl.Date"],
    "date": ["pl.Int32", "pl.Int64", 'pl.Datetime("us")', 'pl.Datetime("ms")', "pl.String"],
    "datetime": ["pl.Int64", "pl.Date", 'pl.Datetime("ns")', 'pl.Datetime("ms")', "pl.Time", "pl.String"],
    "decimal": ["pl.Float64", "pl.Int64", "pl.String"],
    "duration": ["pl.Int64", "pl.String"],
    "time": ["pl.Int64", "pl.String"],
    "binary": ["pl.String"],
}
TARGET_CAT = {"pl.Int8": "int", "pl.Int16": "int", "pl.Int32": "int", "pl.Int64": "int", "pl.UInt8": "int",
              "pl.UInt16": "int", "pl.UInt32": "int", "pl.UInt64": "int", "pl.Float32": "float",
              "pl.Float64": "float", "pl.String": "str", "pl.Boolean": "bool", "pl.Date": "date",
              'pl.Datetime("us")': "datetime", 'pl.Datetime("ms")': "datetime", 'pl.Datetime("ns")': "datetime",
              "pl.Time": "time"}


class ExprGen:
    """Draws expressions over `schema` (a list of (name, category)).

    `mode` is "row" (select / with_columns / filter: aggregates broadcast), or "agg"
    (inside group_by().agg(): the result should reduce per group)."""

    def __init__(self, rng: random.Random, schema: list[tuple[str, str]], mode: str = "row",
                 max_depth: int = 3) -> None:
        self.rng = rng
        self.schema = schema
        self.mode = mode
        self.max_depth = max_depth

    # ---- leaves ----
    def columns(self, cats) -> list[str]:
        cats = (cats,) if isinstance(cats, str) else cats
        return [n for n, c in self.schema if c in cats]

    def col(self, cat: str) -> E | None:
        names = self.columns(cat)
        if not names:
            return None
        name = self.rng.choice(names)
        return E(f"pl.col({name!r})", [], self._col_cat(name))

    def _col_cat(self, name: str) -> str:
        return dict(self.schema)[name]

    def raw_literal(self, cat: str) -> E:
        """A bare Python scalar (only valid as an operand of an operator)."""
        if cat == "float":
            return lit_e(self.rng.choice(FLOAT_LITS), "float")
        return lit_e(self.rng.choice(INT_LITS), "int")

    def literal(self, cat: str) -> E:
        rng = self.rng
        if cat == "int":
            return lit_e(f"pl.lit({rng.choice(INT_LITS)})", "int")
        if cat == "float":
            return lit_e(f"pl.lit({rng.choice(FLOAT_LITS)})", "float")
        if cat == "bool":
            return lit_e(rng.choice(["pl.lit(True)", "pl.lit(False)", "pl.lit(None, dtype=pl.Boolean)"]), "bool")
        if cat == "str":
            return lit_e(rng.choice(STR_LITS), "str")
        if cat == "date":
            return lit_e(rng.choice(["pl.lit(datetime.date(1970, 1, 1))", "pl.lit(datetime.date(2000, 2, 29))"]),
                         "date")
        if cat == "datetime":
            return lit_e("pl.lit(datetime.datetime(2000, 1, 1, 12))", "datetime")
        return lit_e("pl.lit(None)", "null")

    def leaf(self, cat: str) -> E:
        c = self.col(cat) if self.rng.random() < 0.8 else None
        return c if c is not None else self.literal(cat)

    # ---- composite ----
    def gen(self, cat: str, depth: int = 0) -> E:
        """An expression whose result has category `cat` (int, float, num, bool, str, or a
        temporal one; numeric categories may come out as either int or float)."""
        if cat == "num":
            cat = self.rng.choice(NUMERIC)
        if depth >= self.max_depth or self.rng.random() < 0.25 + 0.2 * depth:
            e = self.leaf(cat)
        else:
            maker = {"int": self.numeric, "float": self.numeric, "bool": self.boolean, "str": self.string}.get(cat)
            e = maker(cat, depth) if maker else self.temporal(cat, depth)
        if self.mode == "agg" and depth == 0 and not e.agg:
            e = self.aggregate(e)
        return e

    def numeric(self, cat: str, depth: int) -> E:
        rng = self.rng
        d = depth + 1
        r = rng.random()
        if r < 0.30:
            op = rng.choice(["+", "-", "*", "/", "//", "%"])
            a = self.gen("num", d)
            b = self.raw_literal(rng.choice(NUMERIC)) if rng.random() < 0.25 else self.gen("num", d)
            out_cat = "float" if op == "/" or "float" in (a.cat, b.cat) else "int"
            return node(f"({{0}} {op} {{1}})", [a, b], out_cat)
        if r < 0.38:  # reflected Python scalars: 1 - col, 0.5 * col
            op = rng.choice(["+", "-", "*", "/", "//", "%"])
            s = rng.choice(["1", "2", "0.5", "-3", "10"])
            a = self.gen("num", d)
            out_cat = "float" if op == "/" or "." in s or a.cat == "float" else "int"
            return node(f"({s} {op} {{0}})", [a], out_cat)
        if r < 0.43:
            a = self.gen("num", d)
            return node("(-{0})", [a], a.cat)
        if r < 0.48:
            a = self.gen("num", d)
            return node("{0}.abs()", [a], a.cat)
        if r < 0.53:
            a = self.gen("float", d)
            fn = rng.choice(["round(1)", "round()", "floor()", "ceil()", "sqrt()"])
            return node(f"{{0}}.{fn}", [a], "float")
        if r < 0.57:
            a = self.gen("num", d)
            exp = rng.choice(["2", "0", "3", "0.5", "2.0"])
            return node(f"({{0}} ** {exp})", [a], "float" if "." in exp or a.cat == "float" else "int")
        if r < 0.65:
            src = rng.choice([c for c in CAST_TARGETS if self.columns(c)] or ["int"])
            targets = [t for t in CAST_TARGETS.get(src, []) if TARGET_CAT.get(t) in NUMERIC]
            if not targets:
                return self.leaf(cat)
            t = rng.choice(targets)
            strict = rng.random() < 0.5
            return node(f"{{0}}.cast({t}, strict={strict})", [self.leaf(src)], TARGET_CAT[t])
        if r < 0.71:
            return self.when(cat, d)
        if r < 0.75:
            a = self.gen(cat, d)
            return node("{0}.fill_null({1})", [a, self.gen(cat, d)], a.cat)
        if r < 0.78:
            a = self.gen("float", d)
            return node("{0}.fill_nan({1})", [a, self.literal("float")], "float")
        if r < 0.82 and self.columns("str"):
            fn = rng.choice(["len_bytes", "len_chars"])
            return node(f"{{0}}.str.{fn}()", [self.gen("str", d)], "int")
        if r < 0.86 and self.columns(("date", "datetime")):
            fn = rng.choice(["year", "month", "day", "weekday", "ordinal_day", "quarter"] +
                            (["hour", "minute", "second"] if self.columns("datetime") else []))
            src = "datetime" if fn in ("hour", "minute", "second") else rng.choice(
                [c for c in ("date", "datetime") if self.columns(c)])
            return node(f"{{0}}.dt.{fn}()", [self.leaf(src)], "int")
        if r < 0.89:
            return self.aggregate(self.gen(rng.choice(["num", "num", "bool", "str"]), d), cat_hint=cat)
        if r < 0.92 and self.mode == "row":  # (Polars' over() inside agg() is its own world)
            return self.window(cat, d)
        if r < 0.985:
            return self.numeric_function(cat, d)
        return self.order_fn(cat, d)

    def numeric_function(self, cat: str, depth: int) -> E:
        """The functions of issue #16: math, cumulative, rolling, ranks, fills, reductions,
        horizontal functions."""
        rng = self.rng
        if rng.random() < 0.5:
            e = exprs_numeric.draw(self, exprs_numeric.ROWS, depth, "num")
            if e is not None:
                return e
        r = rng.random()
        if r < 0.2:
            fn = rng.choice(["sin()", "cos()", "arctan()", "tanh()", "exp()", "log1p()", "cbrt()", "degrees()",
                             "sign()", "clip(-2, 5)", "clip(lower_bound=0)", "round_sig_figs(2)", "truncate(1)",
                             "log(2)"])
            a = self.gen("num", depth)
            out = a.cat if fn.split("(")[0] in ("sign", "clip", "round_sig_figs", "truncate") else "float"
            return node(f"{{0}}.{fn}", [a], out)
        if r < 0.45:
            fn = rng.choice(["cum_sum()", "cum_max()", "cum_min(reverse=True)", "cum_count()", "diff()",
                             "diff(-1)", "rank()", "rank('dense')", "rank('ordinal', descending=True)",
                             "forward_fill()", "backward_fill(1)", "interpolate()", "rle_id()",
                             "rolling_mean(3)", "rolling_min(2, min_samples=1)", "rolling_max(3, center=True)",
                             "rolling_sum(2)", "rolling_std(3, min_samples=2)", "rolling_median(3, min_samples=1)",
                             "ewm_mean(alpha=0.5)", "pct_change()"])
            a = self.leaf(rng.choice(NUMERIC)) if rng.random() < 0.7 else self.gen("num", depth)
            name = fn.split("(")[0]
            out = {"cum_count": "int", "rank": "float" if fn == "rank()" else "int", "rle_id": "int",
                   "rolling_mean": "float", "rolling_std": "float", "rolling_median": "float", "ewm_mean": "float",
                   "pct_change": "float", "interpolate": "float"}.get(name, a.cat)
            return E(f"{{0}}.{fn}", [a], out, False, name != "rank", False)
        if r < 0.65:
            fn = rng.choice(["product()", "skew()", "kurtosis()", "nan_max()", "nan_min()", "arg_max()",
                             "arg_min()", "approx_n_unique()", "entropy()"])
            a = self.col(rng.choice(NUMERIC)) or self.leaf("int")
            name = fn.split("(")[0]
            out = {"skew": "float", "kurtosis": "float", "arg_max": "int", "arg_min": "int",
                   "approx_n_unique": "int", "entropy": "float"}.get(name, a.cat)
            return E(f"{{0}}.{fn}", [a], out, True, name in ("arg_max", "arg_min"), False)
        if r < 0.8 and self.mode == "row":
            keys = self.columns(GROUPABLE)
            if keys:
                k = rng.choice(keys)
                fn = rng.choice(["cum_sum()", "rank()", "diff()", "rolling_mean(2, min_samples=1)", "cum_max()"])
                a = self.col(rng.choice(NUMERIC)) or self.leaf("int")
                order = rng.choice(["", f", order_by={rng.choice([n for n, _ in self.schema])!r}"])
                out = "float" if fn in ("rank()", "rolling_mean(2, min_samples=1)") else a.cat
                return E(f"{{0}}.{fn}.over({k!r}{order})", [a], out, False, True, False)
        if r < 0.9 and self.columns("array"):
            return self.array_function(depth)
        a, b = self.col("int"), self.col("int")
        if r < 0.84 and a is not None and b is not None and self.mode == "row":
            # Cumulative folds across integer columns: the last running value of cum_fold (its
            # fields take the first column's dtype). Literal inputs and agg() are left out:
            # Polars raises on a fold of scalars and on cum_fold inside agg.
            # (Polars calls the lambda with Series where it can, where pl.max_horizontal(acc, x)
            # returns an Expr and fails: only operators.)
            fn = rng.choice(["acc + x", "acc - x", "acc * x"])
            return node(f"pl.cum_fold({{0}}, lambda acc, x: {fn}, [{{1}}.alias('f1')]).struct.field('f1')", [a, b],
                        "int")
        if r < 0.88:
            # Binning (cut: elementwise over fixed breaks; qcut: breaks from all the rows, like
            # rank), its categories compared as strings.
            a = self.leaf(rng.choice(NUMERIC)) if rng.random() < 0.7 else self.gen("num", depth)
            if rng.random() < 0.5:
                fn = rng.choice(["cut([-1, 0.5])", "cut([0], left_closed=True)", "cut([-2, 0, 3], labels=['a', 'b', 'c', 'd'])"])
                return node(f"{{0}}.{fn}.cast(pl.String)", [a], "str")
            fn = rng.choice(["qcut([0.5])", "qcut(3, allow_duplicates=True)", "qcut([0.2, 0.8], left_closed=True, allow_duplicates=True)"])
            return E(f"{{0}}.{fn}.cast(pl.String)", [a], "str", False, False, False)
        fn = rng.choice(["sum_horizontal", "min_horizontal", "max_horizontal", "mean_horizontal"])
        a, b = self.gen("num", depth), self.gen("num", depth)
        out = "float" if fn == "mean_horizontal" or "float" in (a.cat, b.cat) else "int"
        return node(f"pl.{fn}({{0}}, {{1}})", [a, b], out)

    def array_function(self, depth: int) -> E:
        """A number from an Array column through the arr namespace (issue #18)."""
        rng = self.rng
        fn, out = rng.choice([("sum()", "int"), ("max()", "int"), ("min()", "int"), ("mean()", "float"),
                              ("median()", "float"), ("std()", "float"), ("n_unique()", "int"), ("len()", "int"),
                              ("arg_max()", "int"), ("first()", "int"), ("last()", "int"),
                              ("get(1, null_on_oob=True)", "int"), ("count_matches(1)", "int"),
                              ("sort().arr.first()", "int"), ("reverse().arr.last()", "int"),
                              ("shift(1).arr.sum()", "int"), ("eval(pl.element() * 2).arr.max()", "int"),
                              ("agg(pl.element().sum())", "int"), ("to_list().list.sum()", "int")])
        a = self.col("array")
        return node(f"{{0}}.arr.{fn}", [a], out)

    def boolean(self, cat: str, depth: int) -> E:
        rng = self.rng
        d = depth + 1
        r = rng.random()
        if r < 0.32:
            kind = rng.choice(["num", "num", "num", "str", "bool", "date", "datetime"])
            if kind in ("date", "datetime") and not self.columns(kind):
                kind = "num"
            op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
            a = self.gen(kind, d)
            b = self.gen(kind, d) if kind in ("num", "str", "bool") else self.leaf(kind)
            if kind == "num" and rng.random() < 0.3:
                return node(f"({rng.choice(['0', '1', '2.5', '-1'])} {op} {{0}})", [a], "bool")
            return node(f"({{0}} {op} {{1}})", [a, b], "bool")
        if r < 0.50:
            op = rng.choice(["&", "|", "^"])
            a, b = self.gen("bool", d), self.gen("bool", d)
            if rng.random() < 0.2:
                return node(f"({{0}} {op} {rng.choice(['True', 'False'])})", [a], "bool")
            return node(f"({{0}} {op} {{1}})", [a, b], "bool")
        if r < 0.57:
            return node("(~{0})", [self.gen("bool", d)], "bool")
        if r < 0.66:
            fn = rng.choice(["is_null()", "is_not_null()"])
            return node(f"{{0}}.{fn}", [self.gen(rng.choice(["num", "str", "bool"]), d)], "bool")
        if r < 0.70:
            fn = rng.choice(["is_nan()", "is_not_nan()", "is_finite()", "is_infinite()"])
            return node(f"{{0}}.{fn}", [self.gen("float", d)], "bool")
        if r < 0.76:
            kind = rng.choice(["int", "str", "float"])
            a = self.gen(kind, d)
            pool = {"int": ["[1, 2, 3]", "[0]", "[-1, 5, 100]", "[]"], "str": ['["a", ""]', '["ab", "b", "zz"]'],
                    "float": ["[0.0, 0.5]", "[-0.0, 1.0]"]}[kind]
            return node(f"{{0}}.is_in({rng.choice(pool)})", [a], "bool")
        if r < 0.82:
            closed = rng.choice(["both", "left", "right", "none"])
            a = self.gen("num", d)
            lo, hi = sorted([rng.randint(-3, 3), rng.randint(-3, 3)])
            if rng.random() < 0.3:
                return node(f"{{0}}.is_between({{1}}, {{2}}, closed={closed!r})", [a, self.gen("num", d),
                                                                                  self.gen("num", d)], "bool")
            return node(f"{{0}}.is_between({lo}, {hi}, closed={closed!r})", [a], "bool")
        if r < 0.88 and self.columns("str"):
            s = self.gen("str", d)
            fn = rng.choice(["contains_lit", "contains_re", "starts_with", "ends_with"])
            if fn == "contains_lit":
                return node(f"{{0}}.str.contains({rng.choice(PATTERNS_LITERAL)!r}, literal=True)", [s], "bool")
            if fn == "contains_re":
                return node(f"{{0}}.str.contains(\"{rng.choice(PATTERNS_REGEX)}\")", [s], "bool")
            return node(f"{{0}}.str.{fn}({rng.choice(PATTERNS_LITERAL)!r})", [s], "bool")
        if r < 0.91:
            a = self.gen("num", d)
            return node(f"{{0}}.{rng.choice(['eq_missing', 'ne_missing'])}({{1}})", [a, self.gen("num", d)], "bool")
        if r < 0.93:
            fn = rng.choice(["is_duplicated()", "is_unique()", "is_first_distinct()", "is_last_distinct()",
                             "peak_max()"])
            a = self.leaf(rng.choice(["int", "str", "bool"] if fn != "peak_max()" else ["int"]))
            return E(f"{{0}}.{fn}", [a], "bool", False, fn in ("is_first_distinct()", "is_last_distinct()",
                                                              "peak_max()"), False)
        if r < 0.95:
            return self.when("bool", d)
        if r < 0.96:
            e = exprs_numeric.draw(self, exprs_numeric.ROWS, depth, "bool")
            if e is not None:
                return e
        if r < 0.98:
            fn = rng.choice(["any()", "all()"])
            arg = self.gen("bool", d)
            if self.mode == "agg" and "pl.col(" not in arg.render():
                # (no literal aggregations per group, see aggregate())
                arg = self.col("bool") or node("{0}.is_null()", [self.col(self.schema[0][1])], "bool") \
                    if self.schema else arg
            return node(f"{{0}}.{fn}", [arg], "bool", agg=True)
        return self.leaf("bool")

    def string(self, cat: str, depth: int) -> E:
        rng = self.rng
        d = depth + 1
        r = rng.random()
        s = self.gen("str", d) if r < 0.6 else None
        if r < 0.12:
            return node(f"{{0}}.str.{rng.choice(['to_uppercase', 'to_lowercase'])}()", [s], "str")
        if r < 0.24:
            off = rng.choice([0, 1, -2, 5])
            ln = rng.choice(["", ", 2", ", 0", ", 10"])
            return node(f"{{0}}.str.slice({off}{ln})", [s], "str")
        if r < 0.32:
            chars = rng.choice(["", '" "', '"a"', '"ab "'])
            return node(f"{{0}}.str.strip_chars({chars})", [s], "str")
        if r < 0.44:
            fn = rng.choice(["replace", "replace_all"])
            lit = rng.random() < 0.5
            pat = rng.choice(PATTERNS_LITERAL if lit else PATTERNS_REGEX)
            return node(f"{{0}}.str.{fn}(\"{pat}\", {rng.choice(['X', '', 'ab'])!r}, literal={lit})", [s], "str")
        if r < 0.52:
            return node("({0} + {1})", [s, self.gen("str", d)], "str")
        if r < 0.60:
            return node("{0}.fill_null({1})", [s, self.gen("str", d)], "str")
        if r < 0.70:
            src = rng.choice([c for c in ("int", "float", "bool", "date", "datetime") if self.columns(c)] or ["int"])
            return node("{0}.cast(pl.String)", [self.leaf(src)], "str")
        if r < 0.80:
            return self.when("str", d)
        if r < 0.88:
            fn = rng.choice(["min()", "max()", "first()", "last()"])
            return node(f"{{0}}.{fn}", [self.gen("str", d)], "str", agg=True, order=fn in ("first()", "last()"))
        if r < 0.93 and self.mode == "row":
            return self.window("str", d)
        return self.leaf("str")

    def temporal(self, cat: str, depth: int) -> E:
        rng = self.rng
        if rng.random() < 0.3 and cat in ("date", "datetime"):
            fn = rng.choice(["min()", "max()", "first()", "last()"])
            return node(f"{{0}}.{fn}", [self.leaf(cat)], cat, agg=True, order=fn in ("first()", "last()"))
        if rng.random() < 0.3:
            return node("{0}.fill_null({1})", [self.leaf(cat), self.leaf(cat)], cat)
        return self.leaf(cat)

    def when(self, cat: str, depth: int) -> E:
        rng = self.rng
        n = rng.choice([1, 1, 2, 3])
        kids = []
        parts = ["pl"]
        for i in range(n):
            kids.append(self.gen("bool", depth))
            kids.append(self.gen(cat, depth))
            parts.append(f".when({{{2 * i}}}).then({{{2 * i + 1}}})")
        if rng.random() < 0.8:
            kids.append(self.gen(cat, depth))
            parts.append(f".otherwise({{{2 * n}}})")
        out_cat = "float" if cat in NUMERIC and any(k.cat == "float" for k in kids[1::2]) else cat
        return node("".join(parts), kids, out_cat)

    def aggregate(self, e: E, cat_hint: str | None = None) -> E:
        """An aggregation of `e` fitting its category."""
        rng = self.rng
        if e.agg:
            return e
        if self.mode == "agg" and "pl.col(" not in e.render():
            # Aggregating a literal per group is a corner where Polars disagrees with itself
            # (null_count, all, std of literals); hand-written tests cover frazil's behaviour.
            e = self.col(e.cat) or self.col(rng.choice(["int", "float", "str", "bool"])) or e
        c = e.cat
        if c in NUMERIC:
            fns = ["sum()", "mean()", "min()", "max()", "median()", "std()", "var()", "count()", "n_unique()",
                   "first()", "last()", "len()", "null_count()", "std(ddof=0)",
                   f"quantile({rng.choice([0.0, 0.25, 0.5, 1.0])}, interpolation="
                   f"{rng.choice(['nearest', 'lower', 'higher', 'midpoint', 'linear'])!r})"]
        elif c == "bool":
            fns = ["any()", "all()", "sum()", "count()", "min()", "max()", "first()", "n_unique()"]
        else:
            fns = ["min()", "max()", "first()", "last()", "count()", "n_unique()", "null_count()"]
        if rng.random() < 0.12:  # aggregate a filtered expression
            pred = ExprGen(rng, self.schema, "row", 1).gen("bool", 1)
            e = node("{0}.filter({1})", [e, pred], c, length=False)
            fns = [f for f in fns if f.split("(")[0] in ("sum", "mean", "min", "max", "count", "median", "std", "var")] \
                or ["count()"]
        fn = rng.choice(fns)
        name = fn.split("(")[0]
        out = {"sum": "int" if c in ("int", "bool") else c, "mean": "float", "median": "float", "std": "float",
               "var": "float", "quantile": "float", "count": "int", "n_unique": "int", "len": "int",
               "null_count": "int", "any": "bool", "all": "bool"}.get(name, c)
        return E(f"{{0}}.{fn}", [e], out, True, e.order or name in ("first", "last"), False)

    def window(self, cat: str, depth: int) -> E:
        rng = self.rng
        keys = self.columns(GROUPABLE)
        if not keys:
            return self.leaf(cat)
        by = ", ".join(repr(k) for k in rng.sample(keys, min(len(keys), rng.choice([1, 1, 2]))))
        r = rng.random()
        if r < 0.6:
            inner = self.aggregate(self.gen(cat if cat in NUMERIC else "num", depth + 1))
            return E(f"{{0}}.over({by})", [inner], inner.cat, False, inner.order, False)
        if r < 0.8:
            inner = self.gen(cat if cat in NUMERIC else "num", depth + 1)
            agg = self.aggregate(inner)
            return E(f"({{0}} - {{1}}).over({by})", [inner, agg], "float" if agg.cat == "float" else inner.cat,
                     False, True, False)
        fn = rng.choice(["shift(1)", "shift(-1)", "reverse()", "sort()", "sort(descending=True)"])
        inner = self.leaf(cat if cat != "num" else "int")
        return E(f"{{0}}.{fn}.over({by})", [inner], inner.cat, False, True, False)

    def order_fn(self, cat: str, depth: int) -> E:
        """Row-aligned but order-dependent functions."""
        fn = self.rng.choice(["shift(1)", "shift(-2)", "shift(1, fill_value=0)", "reverse()"])
        a = self.gen(cat, depth + 1)
        if "fill_value" in fn and a.cat not in NUMERIC:
            fn = "shift(1)"
        return E(f"{{0}}.{fn}", [a], a.cat, a.agg, True, a.length)

    def length_changing(self) -> E:
        """A single expression with its own length (only valid alone in a select)."""
        rng = self.rng
        if rng.random() < 0.35:
            e = exprs_numeric.draw(self, exprs_numeric.LENGTH_ROWS, 1, None)
            if e is not None:
                return e
        cat = rng.choice(["int", "float", "str", "bool"])
        a = self.leaf(cat)
        fn = rng.choice(["sort()", "sort(descending=True, nulls_last=True)", "unique(maintain_order=True)",
                         "drop_nulls()", "head(3)", "tail(2)", "filter"])
        if fn == "filter":
            return E("{0}.filter({1})", [a, self.gen("bool", 1)], a.cat, False, False, True)
        return E(f"{{0}}.{fn}", [a], a.cat, False, fn.startswith(("head", "tail", "unique", "sort")), True)
