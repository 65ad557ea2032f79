"""Random query plans for the fuzzer: a tree of LazyFrame operations over the generated
frames, rendered as Polars-API source, plus the analysis of which results have a defined
row order (Polars leaves it open after hash group_by / joins, and then slices of such
results are not defined at all)."""
from __future__ import annotations

import ast
import dataclasses
import random
import re
from dataclasses import dataclass, field

import polars as pl

from .exprs import GROUPABLE, NUMERIC, ORDERABLE, E, ExprGen
from .frames import env_for

ORDERED, UNORDERED, UNDEFINED = "ordered", "unordered", "undefined"


@dataclass
class P:
    """One plan node. `exprs` are the node's expression lists (each an (E, alias) pair);
    `opts` the remaining parameters, already rendered as source."""

    kind: str
    inputs: list = field(default_factory=list)
    exprs: list = field(default_factory=list)  # list of lists of (E, alias or None, keyword?)
    opts: dict = field(default_factory=dict)

    def render(self) -> str:
        k = self.kind
        if k == "source":
            return f"{self.opts['frame']}.lazy()"
        src = self.inputs[0].render() if self.inputs else ""
        if k == "filter":
            return f"{src}.filter({_exprs(self.exprs[0])})"
        if k in ("select", "with_columns"):
            return f"{src}.{k}({_exprs(self.exprs[0])})"
        if k == "group_by":
            keys = _exprs(self.exprs[0])
            if self.opts.get("len"):
                return f"{src}.group_by({keys}, maintain_order={self.opts['maintain_order']}).len()"
            return f"{src}.group_by({keys}, maintain_order={self.opts['maintain_order']}).agg({_exprs(self.exprs[1])})"
        if k == "join":
            right = self.inputs[1].render()
            args = [right] + [f"{a}={v}" for a, v in self.opts.items()]
            return f"{src}.join({', '.join(args)})"
        if k == "sort":
            return f"{src}.sort({_exprs(self.exprs[0])}, {_kw(self.opts)})"
        if k == "slice":
            return f"{src}.{self.opts['call']}"
        if k == "unique":
            return f"{src}.unique({_kw(self.opts)})"
        if k == "concat":
            return "pl.concat([" + ", ".join(i.render() for i in self.inputs) + "])"
        if k in ("rename", "drop", "with_row_index"):
            return f"{src}.{k}({self.opts['args']})"
        raise ValueError(k)

    def walk(self):
        yield self
        for i in self.inputs:
            yield from i.walk()

    def all_exprs(self):
        for lst in self.exprs:
            for e, _, _ in lst:
                yield e


def _exprs(items) -> str:
    out = []
    for e, alias, keyword in items:
        src = e.render()
        if keyword:
            out.append(f"{alias}={src}")
        elif alias:
            out.append(f"{src}.alias({alias!r})")
        else:
            out.append(src)
    return ", ".join(out)


def _kw(opts: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in opts.items())


def order_state(p: P) -> str:
    """Whether the result of `p` has a defined row order (ordered), only a defined multiset
    of rows (unordered), or neither (undefined: e.g. head() after a hash group_by)."""
    k = p.kind
    if k == "source":
        return ORDERED
    ins = [order_state(i) for i in p.inputs]
    s = ins[0]
    if UNDEFINED in ins:
        return UNDEFINED
    order_dependent = any(e.order for e in p.all_exprs())
    if k in ("filter", "select", "with_columns"):
        if s != ORDERED and order_dependent:
            return UNDEFINED
        return s
    if k in ("rename", "drop"):
        return s
    if k == "with_row_index":
        return s if s == ORDERED else UNDEFINED
    if k == "slice":
        return s if s == ORDERED else UNDEFINED
    if k == "group_by":
        if s != ORDERED and order_dependent:
            return UNDEFINED
        return ORDERED if p.opts["maintain_order"] == "True" and s == ORDERED else UNORDERED
    if k == "sort":
        if s != ORDERED and order_dependent:
            return UNDEFINED
        return ORDERED if p.opts.get("maintain_order") == "True" and s == ORDERED else UNORDERED
    if k == "unique":
        keep = p.opts.get("keep", "'any'")
        whole_rows = p.opts.get("subset", "None") == "None"
        if not whole_rows and (keep == "'any'" or (keep in ("'first'", "'last'") and s != ORDERED)):
            return UNDEFINED
        return ORDERED if p.opts.get("maintain_order") == "True" and s == ORDERED else UNORDERED
    if k == "join":
        how = p.opts["how"]
        # Polars leaves the order among several unmatched rows of the side whose order is
        # not kept open, so only these combinations define the whole order.
        mo = p.opts.get("maintain_order", "None")
        defined = {"'inner'": ("'left_right'", "'right_left'"), "'cross'": ("'left_right'", "'right_left'"),
                   "'left'": ("'left_right'",), "'right'": ("'right_left'",),
                   "'semi'": ("'left'",), "'anti'": ("'left'",)}
        if mo in defined.get(how, ()) and all(x == ORDERED for x in ins):
            return ORDERED
        return UNORDERED
    if k == "concat":
        return ORDERED if all(x == ORDERED for x in ins) else UNORDERED
    raise ValueError(k)


def polars_category(dtype) -> str:
    if dtype.is_integer():
        return "int"
    if dtype.is_float():
        return "float"
    name = type(dtype).__name__ if not isinstance(dtype, type) else dtype.__name__
    return {"Boolean": "bool", "String": "str", "Date": "date", "Datetime": "datetime", "Duration": "duration",
            "Time": "time", "Decimal": "decimal", "Binary": "binary", "Null": "null"}.get(name, "other")


class PlanGen:
    """Builds a plan step by step; after each step Polars resolves the schema, so the next
    step refers to columns that exist (a step Polars rejects is kept only sometimes, to
    test that frazil rejects it the same way)."""

    def __init__(self, rng: random.Random, frames: dict, polars_env: dict, wide: bool = False) -> None:
        self.rng = rng
        self.frames = frames  # name -> fuzz.frames.Frame
        self.env = polars_env
        self.alias_n = 0
        # Wide plans: many columns and long expression lists (projections, aggregations and
        # pl.all() over every column), where per-column work is linear or worse.
        self.wide = wide

    def schema(self, p: P):
        """[(name, category)] from Polars, or None when Polars rejects the plan."""
        try:
            s = eval(p.render(), self.env).collect_schema()  # noqa: S307 - our own generated source
        except Exception:  # noqa: BLE001
            return None
        return [(n, polars_category(t)) for n, t in s.items()]

    def runs(self, p: P) -> bool:
        try:
            eval(p.render(), self.env).collect()  # noqa: S307
        except BaseException:  # noqa: BLE001 - Polars' panics too
            return False
        return True

    def est_rows(self, p: P) -> int:
        """An upper bound on the rows of `p` (to keep joins small)."""
        k = p.kind
        if k == "source":
            return self.frames[p.opts["frame"]].height
        if k == "join":
            left, right = self.est_rows(p.inputs[0]), self.est_rows(p.inputs[1])
            if p.opts["how"] in ("'semi'", "'anti'"):
                return left
            return left * max(right, 1) + right
        if k == "concat":
            return sum(self.est_rows(i) for i in p.inputs)
        return self.est_rows(p.inputs[0])

    def alias(self) -> str:
        self.alias_n += 1
        return f"e{self.alias_n}"

    def plan(self, steps: int | None = None, frame: str = "df0") -> P:
        rng = self.rng
        p = P("source", opts={"frame": frame})
        steps = steps if steps is not None else rng.choice([1, 1, 2, 2, 3, 3, 4, 5])
        for _ in range(steps):
            schema = self.schema(p)
            if schema is None:
                break
            for _attempt in range(4):
                q = self.step(p, schema)
                if q is None:
                    continue
                # A step Polars rejects is kept now and then, but only on a plan that runs,
                # so that a case has one error, not two whose order the engines may differ on.
                if self.schema(q) is not None or (rng.random() < 0.05 and len(list(q.all_exprs())) <= 1
                                                  and self.runs(p)):
                    p = q
                    break
        return p

    def step(self, p: P, schema) -> P | None:
        rng = self.rng
        kinds = ["filter", "select", "with_columns", "group_by", "join", "sort", "slice", "unique", "concat",
                 "rename", "drop", "with_row_index", "all_columns"]
        weights = [14, 10, 12, 12, 8, 9, 7, 6, 5, 2, 2, 2, 0]
        if self.wide:
            weights = [6, 14, 14, 8, 3, 4, 4, 3, 3, 2, 2, 2, 16]
        kind = rng.choices(kinds, weights=weights)[0]
        return getattr(self, f"_{kind}")(p, schema)

    def _gen(self, schema, mode="row", depth=3) -> ExprGen:
        return ExprGen(self.rng, schema, mode, depth)

    def _filter(self, p, schema):
        g = self._gen(schema)
        preds = [(g.gen("bool"), None, False) for _ in range(self.rng.choice([1, 1, 1, 2, 3]))]
        return P("filter", [p], [preds])

    def _projection_items(self, schema, n):
        g = self._gen(schema)
        items = []
        for _ in range(n):
            r = self.rng.random()
            if r < 0.25 and schema:
                name = self.rng.choice(schema)[0]
                items.append((E(f"pl.col({name!r})", [], dict(schema)[name]), None, False))
                continue
            e = g.gen(self.rng.choice(["num", "num", "bool", "str", "int", "float"]))
            items.append((e, self.alias(), self.rng.random() < 0.3))
        return items

    def _items_count(self, low: int, high: int) -> int:
        return self.rng.randint(20, 150) if self.wide else self.rng.randint(low, high)

    def _select(self, p, schema):
        if self.rng.random() < 0.1:
            e = self._gen(schema).length_changing()
            return P("select", [p], [[(e, self.alias(), False)]])
        return P("select", [p], [self._projection_items(schema, self._items_count(1, 4))])

    # Row-wise and reducing functions applied to every column at once with pl.all().
    _ALL_ROW = ["pl.all()", "pl.all().is_null()", "pl.all().is_not_null().alias('x')", "pl.all().reverse()",
                "pl.all().shift(1)", "pl.all().sort()"]
    _ALL_AGG = ["pl.all().null_count()", "pl.all().first()", "pl.all().last()", "pl.all().count()",
                "pl.all().n_unique()", "pl.all().max()", "pl.all().min()", "pl.all().sum()", "pl.all().mean()"]

    def _all_columns(self, p, schema):
        rng = self.rng
        if not schema:
            return None
        if rng.random() < 0.5:
            src = rng.choice(self._ALL_ROW)
            e = E(src, [], "other", False, "reverse" in src or "shift" in src)
            return P(rng.choice(["select", "with_columns"]), [p], [[(e, None, False)]])
        src = rng.choice(self._ALL_AGG)
        order = src.endswith(("first()", "last()"))
        if rng.random() < 0.3:
            # The same reduction per group: one aggregation per non-key column.
            keys = self._keys(schema, 1)
            if keys:
                key_items = [(E(f"pl.col({keys[0]!r})", [], dict(schema)[keys[0]]), None, False)]
                return P("group_by", [p], [key_items, [(E(src, [], "other", True, order), None, False)]],
                         {"maintain_order": rng.choice(["True", "False"])})
        return P("select", [p], [[(E(src, [], "other", True, order), None, False)]])

    def _with_columns(self, p, schema):
        items = self._projection_items(schema, self._items_count(1, 3))
        if schema and self.rng.random() < 0.2:  # overwrite an existing column
            name = self.rng.choice(schema)[0]
            e = self._gen(schema).gen(dict(schema)[name] if dict(schema)[name] in NUMERIC + ("bool", "str") else "num")
            items.append((e, name, False))
        return P("with_columns", [p], [items])

    def _keys(self, schema, n):
        names = [s for s, c in schema if c in GROUPABLE]
        if not names:
            return None
        return self.rng.sample(names, min(n, len(names)))

    def _group_by(self, p, schema):
        rng = self.rng
        keys = self._keys(schema, rng.choice([1, 1, 2]))
        if not keys:
            return None
        key_items = [(E(f"pl.col({k!r})", [], dict(schema)[k]), None, False) for k in keys]
        if rng.random() < 0.15:
            # A key expression over a column (Polars makes one group of a literal key even
            # over an empty frame; that quirk is not worth matching).
            g = self._gen(schema, depth=1)
            key = g.gen(rng.choice(["int", "str", "bool"]))
            if "pl.col" in key.render() and not key.agg:
                key_items = [(key, self.alias(), False)]
        mo = rng.choice(["True", "False"])
        if rng.random() < 0.1:
            return P("group_by", [p], [key_items], {"maintain_order": mo, "len": True})
        rest = [(n, c) for n, c in schema if n not in keys]
        g = self._gen(rest or schema, "agg", 2)
        aggs = []
        for _ in range(rng.randint(1, 3)):
            cat = rng.choice(["num", "num", "bool", "str", "int", "float"])
            aggs.append((g.gen(cat), self.alias(), rng.random() < 0.3))
        if rng.random() < 0.2:
            aggs.append((E("pl.len()", [], "int", True), self.alias(), False))
        return P("group_by", [p], [key_items, aggs], {"maintain_order": mo})

    def _join(self, p, schema):
        rng = self.rng
        how = rng.choice(["inner", "left", "right", "full", "semi", "anti", "cross", "inner", "left"])
        right = self._join_right(p, schema, how)
        if right is None:
            return None
        rp, on = right
        opts = {"how": repr(how)}
        if how != "cross":
            if rng.random() < 0.8:
                opts["on"] = repr(on[0]) if len(on) == 1 else repr(on)
            else:
                opts["left_on"] = repr(on)
                opts["right_on"] = repr(on)
        if rng.random() < 0.3:
            opts["suffix"] = repr("_r")
        if how in ("left", "right", "full") and rng.random() < 0.25:
            opts["coalesce"] = rng.choice(["True", "False"])
        if rng.random() < 0.3:
            choices = ["left", "none"] if how in ("semi", "anti") else ["left_right", "right_left", "left", "right",
                                                                        "none"]
            opts["maintain_order"] = repr(rng.choice(choices))
        return P("join", [p, rp], [], opts)

    def _join_right(self, p, schema, how):
        """The right side: another frame sharing key columns, or a subplan of this one
        (reused subplan), kept small enough that the join stays cheap."""
        rng = self.rng
        left_rows = self.est_rows(p)
        names = dict(schema)
        if how == "cross":
            if left_rows > 60:
                return None
            if "df1" not in self.frames:
                return P("slice", [p], opts={"call": "head(3)"}), []
            other = P("source", opts={"frame": "df1"})
            if self.est_rows(other) > 12:
                other = P("slice", [other], opts={"call": "head(5)"})
            return other, []
        if rng.random() < 0.5 and "df1" in self.frames:
            other = P("source", opts={"frame": "df1"})
            oschema = self.schema(other)
            shared = [n for n, c in (oschema or []) if n in names and names[n] == c and c in GROUPABLE]
            if shared:
                on = rng.sample(shared, min(len(shared), rng.choice([1, 1, 2])))
                if left_rows * max(self.est_rows(other), 1) > 40000:
                    other = P("unique", [other], opts={"subset": repr(on), "keep": "'first'",
                                                       "maintain_order": "True"})
                return other, on
        keys = self._keys(schema, rng.choice([1, 1, 2]))
        if not keys:
            return None
        # Reuse this plan: join with its own aggregate per key (many-to-one), or itself.
        if rng.random() < 0.6 or left_rows > 40:
            g = self._gen([(n, c) for n, c in schema if n not in keys] or schema, "agg", 1)
            agg = (g.gen(rng.choice(["num", "int"])), self.alias(), False)
            sub = P("group_by", [p], [[(E(f"pl.col({k!r})", [], names[k]), None, False) for k in keys], [agg]],
                    {"maintain_order": "True"})
            return sub, keys
        return p, keys

    def _sort(self, p, schema):
        rng = self.rng
        names = [n for n, c in schema if c in ORDERABLE]
        if not names:
            return None
        keys = rng.sample(names, min(len(names), rng.choice([1, 1, 2, 3])))
        items = [(E(f"pl.col({k!r})", [], dict(schema)[k]), None, False) for k in keys]
        if rng.random() < 0.15:
            items.append((self._gen(schema, depth=1).gen("num"), None, False))
        opts = {}
        if rng.random() < 0.6:
            opts["descending"] = rng.choice(["True", "False"]) if rng.random() < 0.5 else \
                repr([rng.random() < 0.5 for _ in items])
        if rng.random() < 0.5:
            opts["nulls_last"] = rng.choice(["True", "False"]) if rng.random() < 0.5 else \
                repr([rng.random() < 0.5 for _ in items])
        opts["maintain_order"] = rng.choice(["True", "True", "False"])
        return P("sort", [p], [items], opts)

    def _slice(self, p, schema):
        rng = self.rng
        call = rng.choice([f"head({rng.randint(0, 12)})", f"tail({rng.randint(0, 12)})", f"limit({rng.randint(0, 5)})",
                           f"slice({rng.randint(-15, 15)}, {rng.randint(0, 12)})", f"slice({rng.randint(-8, 8)})",
                           "first()", "last()"])
        return P("slice", [p], opts={"call": call})

    def _unique(self, p, schema):
        rng = self.rng
        opts = {}
        if rng.random() < 0.6:
            keys = self._keys(schema, rng.choice([1, 1, 2]))
            if keys:
                opts["subset"] = repr(keys)
        opts["keep"] = repr(rng.choice(["first", "last", "any", "none"]))
        opts["maintain_order"] = rng.choice(["True", "False"])
        return P("unique", [p], opts=opts)

    def _concat(self, p, schema):
        rng = self.rng
        r = rng.random()
        if r < 0.5:  # the same subplan twice, once filtered: a reused subplan
            g = self._gen(schema, depth=2)
            other = P("filter", [p], [[(g.gen("bool"), None, False)]])
        elif r < 0.8:
            other = P("slice", [p], opts={"call": f"head({rng.randint(0, 4)})"})
        else:
            other = p
        parts = [p, other]
        rng.shuffle(parts)
        return P("concat", parts)

    def _rename(self, p, schema):
        if not schema:
            return None
        name = self.rng.choice(schema)[0]
        return P("rename", [p], opts={"args": repr({name: name + "_n"})})

    def _drop(self, p, schema):
        if len(schema) < 2:
            return None
        return P("drop", [p], opts={"args": repr(self.rng.choice(schema)[0])})

    def _with_row_index(self, p, schema):
        return P("with_row_index", [p], opts={"args": f"'idx{self.rng.randint(0, 9)}', offset={self.rng.choice([0, 1, 7])}"})


def polars_env_with(frames_env: dict) -> dict:
    env = env_for(pl)
    env.update(frames_env)
    return env


_COL_REF = re.compile(r"pl\.col\('([^']*)'\)")


def _refs(items) -> set | None:
    """Columns the expression items read (None: possibly all of them)."""
    out: set = set()
    for e, _, _ in items:
        src = e.render()
        if "pl.all()" in src or "pl.nth(" in src or "pl.exclude(" in src:
            return None
        out.update(_COL_REF.findall(src))
    return out


def _item_name(item) -> str | None:
    e, alias, _ = item
    if alias:
        return alias
    m = re.fullmatch(r"pl\.col\('([^']*)'\)", e.render())
    return m.group(1) if m else None


def without_row_reductions(p: P) -> P:
    """`p` without its slices and filters, so that rows reach every expression."""
    if p.kind in ("slice", "filter"):
        return without_row_reductions(p.inputs[0])
    return dataclasses.replace(p, inputs=[without_row_reductions(i) for i in p.inputs])


def prune_dead(p: P, demanded: set | None = None, names_of=None, keep: frozenset = frozenset()) -> P:
    """A copy of `p` without the select / with_columns / agg items whose output no later step
    reads (`demanded`: the columns the consumer reads, None for all; `keep`: columns that
    must stay where they are, whatever their values). Polars never computes such items (so
    never fails in them); frazil does, which the fuzzer reports separately."""
    def union(a, b):
        return None if a is None or b is None else a | b

    k = p.kind
    if k == "source":
        return p
    if keep and k != "with_columns":
        demanded = None if demanded is None else demanded | keep
        keep = frozenset()

    def live(items):
        out = []
        for it in items:
            name = _item_name(it)
            if demanded is None or name is None or name in demanded:
                out.append(it)
            elif name in keep:  # overwritten later: any value of this name will do
                out.append((E("pl.lit(None)", [], "null"), name, False))
        return out

    if k == "with_columns" and demanded is None and names_of is not None:
        # Everything is read, except input columns this step overwrites without reading.
        refs = _refs(p.exprs[0])
        try:
            names = list(names_of(p.inputs[0]))
        except Exception:  # noqa: BLE001 - the plan does not resolve: leave it
            names = None
        if refs is not None and names is not None:
            written = {_item_name(it) for it in p.exprs[0]}
            overwritten = frozenset(n for n in names if n in written and n not in refs)
            if overwritten:
                below = (set(names) - overwritten) | refs
                inner = prune_dead(p.inputs[0], names_of=names_of, demanded=below, keep=overwritten)
                return dataclasses.replace(p, inputs=[inner])

    if k in ("select", "with_columns"):
        items = p.exprs[0]
        kept = live(items)
        if k == "select" and not kept:
            # An empty select has other semantics: keep one cheap item of the same height.
            scalar = all(e.agg or "pl.col(" not in e.render() for e, _, _ in items)
            stand_in = E("pl.lit(0)" if scalar else "pl.nth(0).is_null()", [], "int", scalar)
            kept = [(stand_in, _item_name(items[0]) or "unread", False)]
        refs = _refs(kept)
        if k == "select" and refs == set() and all(e.agg or "pl.col(" not in e.render() for e, _, _ in kept) \
                and not any("pl.len()" in e.render() or "pl.nth(" in e.render() for e, _, _ in kept):
            # Only literals: one row whatever the input, which therefore never matters.
            source = next(n for n in p.walk() if n.kind == "source")
            return dataclasses.replace(p, inputs=[source], exprs=[kept])
        if k == "select":
            below = refs
        else:
            below = None if demanded is None else union(refs, demanded - {_item_name(it) for it in items})
        # Kept positions this step does not write must already be there.
        below_keep = frozenset(keep - {_item_name(it) for it in items}) if k == "with_columns" else frozenset()
        inner = prune_dead(p.inputs[0], names_of=names_of, demanded=below, keep=below_keep)
        if k == "with_columns" and not kept:
            return inner
        return dataclasses.replace(p, inputs=[inner], exprs=[kept])
    if k == "group_by" and p.opts.get("len"):
        return dataclasses.replace(p, inputs=[prune_dead(p.inputs[0], names_of=names_of, demanded=_refs(p.exprs[0]))])
    if k == "group_by":
        keys, aggs = p.exprs
        kept = live(aggs)
        below = union(_refs(keys), _refs(kept))
        return dataclasses.replace(p, inputs=[prune_dead(p.inputs[0], names_of=names_of, demanded=below)], exprs=[keys, kept])
    if k == "sort" and demanded is not None and not demanded:
        return prune_dead(p.inputs[0], names_of=names_of, demanded=demanded)  # nothing reads the rows' order or values
    if k in ("filter", "sort"):
        below = union(demanded, _refs(p.exprs[0]))
        return dataclasses.replace(p, inputs=[prune_dead(p.inputs[0], names_of=names_of, demanded=below)])
    if k == "slice":
        return dataclasses.replace(p, inputs=[prune_dead(p.inputs[0], names_of=names_of, demanded=demanded)])
    if k == "concat":
        return dataclasses.replace(p, inputs=[prune_dead(i, names_of=names_of, demanded=demanded) for i in p.inputs])
    if k == "unique" and p.opts.get("subset", "None") != "None" and demanded is not None:
        below = demanded | set(ast.literal_eval(p.opts["subset"]))
        return dataclasses.replace(p, inputs=[prune_dead(p.inputs[0], names_of=names_of, demanded=below)])
    if k == "join":
        # Each side needs its keys and the demanded names (also without the suffix); the
        # right side of a semi/anti join only its keys.
        suffix = ast.literal_eval(p.opts.get("suffix", "'_right'"))
        keys: set = set()
        for opt in ("on", "left_on", "right_on"):
            if opt in p.opts:
                v = ast.literal_eval(p.opts[opt])
                keys.update([v] if isinstance(v, str) else v)
        inputs = list(p.inputs)
        if p.opts.get("maintain_order", "None") in ("None", "'none'"):
            # Without maintain_order a join's output order is open: sorts feeding it are dead.
            inputs = [i.inputs[0] if i.kind == "sort" else i for i in inputs]
            p = dataclasses.replace(p, inputs=inputs)
        if p.opts["how"] in ("'semi'", "'anti'"):
            return dataclasses.replace(p, inputs=[prune_dead(p.inputs[0], names_of=names_of, demanded=demanded), prune_dead(p.inputs[1], names_of=names_of, demanded=keys)])
        if demanded is None:
            return dataclasses.replace(p, inputs=[prune_dead(i, names_of=names_of, demanded=None) for i in p.inputs])
        names = demanded | {d[: -len(suffix)] for d in demanded if d.endswith(suffix)} | keys
        return dataclasses.replace(p, inputs=[prune_dead(i, names_of=names_of, demanded=set(names)) for i in p.inputs])
    if k == "rename" and demanded is not None:
        mapping = ast.literal_eval(p.opts["args"])
        back = {new: old for old, new in mapping.items()}
        # A renamed column nobody reads need not exist: drop its entry (the rename checks
        # that old names exist), unless the entry's old name could collide with a kept one.
        kept = {old: new for old, new in mapping.items() if new in demanded}
        collide = {old for old in mapping if old not in kept} & (set(kept.values()) | demanded)
        if collide:
            kept = mapping
        below = {back.get(d, d) for d in demanded} | set(kept)
        inner = prune_dead(p.inputs[0], names_of=names_of, demanded=below)
        if not kept:
            return inner
        return dataclasses.replace(p, inputs=[inner], opts={"args": repr(kept)})
    if k == "drop":
        if demanded is None and names_of is not None:  # all but the dropped columns
            try:
                dropped = ast.literal_eval(p.opts["args"])
                dropped = {dropped} if isinstance(dropped, str) else set(dropped)
                demanded = set(names_of(p.inputs[0])) - dropped
            except Exception:  # noqa: BLE001 - the plan does not resolve: leave it
                demanded = None
        below = prune_dead(p.inputs[0], names_of=names_of, demanded=demanded)
        if names_of is not None:  # drop only what is still there
            try:
                dropped = ast.literal_eval(p.opts["args"])
                dropped = [dropped] if isinstance(dropped, str) else list(dropped)
                left = [d for d in dropped if d in set(names_of(below))]
            except Exception:  # noqa: BLE001
                left = None
            if left == []:
                return below
            if left is not None:
                return dataclasses.replace(p, inputs=[below], opts={"args": repr(left[0] if len(left) == 1 else left)})
        return dataclasses.replace(p, inputs=[below])
    if k == "with_row_index" and demanded is not None:
        return dataclasses.replace(p, inputs=[prune_dead(p.inputs[0], names_of=names_of, demanded=demanded)])
    # renames, drops, row indices, whole-row unique: every input column may matter
    return dataclasses.replace(p, inputs=[prune_dead(i, names_of=names_of, demanded=None) for i in p.inputs])
