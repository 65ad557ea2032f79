"""The checks a fuzz case goes through.

- differential: frazil and Polars give the same names, dtypes and values (as rows in
  order when the order is defined, as a multiset when only that is), or fail with the
  same error kind;
- optimizer: frazil with every optimization, with none (QueryOptFlags.none()), and with
  one flag switched off give the same result;
- TLP (ternary logic partitioning): for a predicate p, filter(p), filter(~p) and
  filter(p.is_null()) partition the rows, and sum/min/max/count over the parts combine
  to the whole;
- NoREC: filter(p).height equals select(p.fill_null(False).sum());
- distributed (oracle_distributed.py): the plan's stages run by run_local with 1, 2, 3
  and 7 partitions give what collect() gives.

Each check returns None or a Failure whose `signature` stays stable while shrinking.
"""
from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field

import polars as pl
import polars.testing as plt

import frazil as fz

from .exprs import E
from .frames import PRELUDE, env_for
from .oracle_distributed import distributed
from .oracle_distributed import program as distributed_program
from .plans import ORDERED, UNDEFINED, UNORDERED, P, order_state, prune_dead, without_row_reductions

FLAGS = list(fz.QueryOptFlags._NAMES)
# Errors frazil raises while planning (type checks) that Polars may only raise on data.
PLANNING_ERRORS = {"SchemaError", "InvalidOperationError", "ComputeError"}
# Polars errors that are Polars bugs (the query is valid): such cases have no reference.
POLARS_BUG_MESSAGES = ("row_encode", "returned aggregation is of different length")
# Errors whose occurrence may depend on which rows an operator sees (strict casts, ...):
# plans that push work around may legitimately raise them or not.
DATA_ERRORS = {"ComputeError", "InvalidOperationError"}


@dataclass
class Case:
    frames: dict  # name -> Frame
    plan: P
    predicate: E | None = None  # for TLP / NoREC
    flag_off: str = "predicate_pushdown"
    all_flags: bool = False  # the optimizer oracle switches every flag off in turn
    morsel_size: int | None = None  # FRAZIL_MORSEL_SIZE while running (None: the default)
    notes: dict = field(default_factory=dict)

    def frames_src(self) -> str:
        return "\n".join(f.render(name) for name, f in self.frames.items())

    def program(self, oracle: str = "differential") -> str:
        """Copy-pasteable source that rebuilds the frames and the query and shows the failure."""
        body = f"{self.frames_src()}\nq = {self.plan.render()}\n"
        ret = "q"
        if self.predicate is not None and oracle in ("tlp", "norec"):
            body += f"p = {self.predicate.render()}\n"
            ret = "q, p"
        if oracle in ("tlp", "norec"):
            show = ("q, p = query(frazil)\n"
                    "for part in (q.filter(p), q.filter(~p), q.filter(p.is_null())):\n"
                    "    print(part.collect())\n"
                    "print(q.collect())\n"
                    "print(q.with_columns(p.alias('_p_')).select(frazil.col('_p_').fill_null(False).sum()).collect())\n")
        elif oracle == "distributed":
            show = distributed_program(self)
        elif oracle == "optimizer":
            show = ("print(query(frazil).collect())\n"
                    "print(query(frazil).collect(optimizations=frazil.QueryOptFlags.none()))\n"
                    f"print(query(frazil).collect(optimizations=frazil.QueryOptFlags({self.flag_off}=False)))\n")
        else:
            show = "print(query(polars).collect())\nprint(query(frazil).collect())\n"
        env = "" if self.morsel_size is None else \
            f"import os\nos.environ['FRAZIL_MORSEL_SIZE'] = '{self.morsel_size}'  # small morsels\n"
        return (env + "import polars\nimport frazil\n" + PRELUDE + "\n\ndef query(pl):\n" + _indent(body)
                + f"    return {ret}\n\n\n" + show)


def _indent(src: str) -> str:
    return "".join("    " + line + "\n" for line in src.splitlines())


@dataclass
class Failure:
    oracle: str
    signature: str
    message: str


def build_frames(case: Case, module) -> dict:
    env = env_for(module)
    exec(case.frames_src(), env)  # noqa: S102 - our own generated source
    return env


def run(module, env: dict, src: str, **collect_kwargs):
    try:
        return eval(src, env).collect(**collect_kwargs), None  # noqa: S307
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - Polars' Rust panics derive from BaseException
        return None, exc


def kind(exc: BaseException | None) -> str:
    return type(exc).__name__ if exc is not None else "-"


def compare(got, expected, state: str) -> tuple[str, str] | None:
    """(signature, message) when frazil's frame `got` differs from Polars' `expected`."""
    g = got.to_polars() if isinstance(got, fz.DataFrame) else got
    if g.columns != expected.columns:
        return "names", f"column names differ: frazil {g.columns} vs polars {expected.columns}"
    if g.dtypes != expected.dtypes:
        diffs = [f"{n}: {a} vs {b}" for n, a, b in zip(g.columns, g.dtypes, expected.dtypes) if a != b]
        return "dtypes", "dtypes differ (frazil vs polars): " + ", ".join(diffs)
    if state == UNDEFINED:
        return None
    if g.height != expected.height:
        return "height", f"heights differ: frazil {g.height} vs polars {expected.height}"
    try:
        plt.assert_frame_equal(g, expected, check_row_order=state == ORDERED, check_exact=False, rel_tol=1e-6,
                               abs_tol=1e-8, categorical_as_str=True)
    except AssertionError as exc:
        return "values", str(exc)[:3000]
    except Exception:  # noqa: BLE001 - frames polars cannot sort (list columns): compare rows as text
        a = sorted(map(repr, g.rows())) if state == UNORDERED else list(map(repr, g.rows()))
        b = sorted(map(repr, expected.rows())) if state == UNORDERED else list(map(repr, expected.rows()))
        if a != b:
            return "values", "rows differ (compared as text)"
    return None


def error_locations(module, env: dict, plan: P) -> list:
    """The places where `plan` fails in `module`, inputs first: (path of a step whose inputs
    run, index of an expression that fails alone in it (None: only together)). A query with
    several of them can fail with any one first."""
    from .shrink import _p_nodes  # noqa: PLC0415

    failing: set = set()
    out = []
    for path, node in sorted(_p_nodes(plan), key=lambda pn: -len(pn[0])):  # deepest first
        if any(path + (i,) in failing for i in range(len(node.inputs))):
            failing.add(path)  # fails because an input does, and maybe on its own while planning
            try:
                eval(node.render(), env).collect_schema()  # noqa: S307
            except BaseException:  # noqa: BLE001
                out.append((path, "planning"))
            continue
        if run(module, env, node.render())[1] is None:
            continue
        failing.add(path)
        items = [(li, i) for li, lst in enumerate(node.exprs) for i in range(len(lst))]
        alone = []
        if len(items) > 1:
            for li, i in items:
                one = [list(x) for x in node.exprs]
                one[li] = [node.exprs[li][i]]
                if run(module, env, dataclasses.replace(node, exprs=one).render())[1] is not None:
                    alone.append((path, (li, i)))
        out += alone or [(path, None)]
    return out


def _planning_error(env: dict, src: str, flags=None) -> str:
    """The error kind frazil raises before running `src` (with `flags`: while optimizing)."""
    try:
        if flags is None:
            eval(src, env).collect_schema()  # noqa: S307
        else:
            eval(src, env).explain(optimizations=flags)  # noqa: S307
    except Exception as exc:  # noqa: BLE001
        return kind(exc)
    return "-"


def differential(case: Case, fenv: dict, penv: dict) -> Failure | None:
    src = case.plan.render()
    expected, p_exc = run(pl, penv, src)
    got, f_exc = run(fz, fenv, src)
    case.notes["polars_error"] = kind(p_exc)
    case.notes["frazil_ok"] = f_exc is None
    if kind(p_exc) == "PanicException" or any(m in str(p_exc) for m in POLARS_BUG_MESSAGES):
        case.notes["polars_panic"] = str(p_exc)  # a Polars bug: no reference to compare with
        return None
    if p_exc is not None or f_exc is not None:
        if p_exc is not None and f_exc is not None:
            if kind(p_exc) == kind(f_exc):
                return None
            # Several errors in one query: the engines may meet them in another order. And a
            # type error frazil finds while planning comes before a strict-cast failure Polars
            # meets on data in the same expression.
            several = len(error_locations(fz, fenv, case.plan)) > 1 or len(error_locations(pl, penv, case.plan)) > 1
            data_error_first = "conversion from" in str(p_exc) and _planning_error(fenv, src) == kind(f_exc)
            if several or data_error_first:
                case.notes["known"] = "several-errors-other-order"
                return None
            return Failure("differential", f"error:{kind(f_exc)}/{kind(p_exc)}",
                           f"frazil raised {kind(f_exc)}: {f_exc}\npolars raised {kind(p_exc)}: {p_exc}")
        if f_exc is not None:
            # frazil type-checks the whole plan before running it; Polars only raises some
            # type errors when an operator sees data. Over empty input that is no bug.
            # (Polars skips such checks whenever no rows reach the expression: empty input.)
            empty = expected.height == 0 or any(f.height == 0 for f in case.frames.values())
            if empty and _planning_error(fenv, src) == kind(f_exc):
                return None
            # A type error frazil finds while planning that Polars meets only when rows reach it:
            # without slices and filters (so rows flow) Polars must raise it too.
            if _planning_error(fenv, src) == kind(f_exc):
                flowing = without_row_reductions(case.plan).render()
                if flowing != src and kind(run(pl, penv, flowing)[1]) == kind(f_exc):
                    case.notes["known"] = "dead-code-evaluated"
                    return None
            # Polars' optimizer folded the failing part away (True | (lit("a") != lit(1))):
            # Polars without optimizations raises what frazil raises while planning.
            if _planning_error(fenv, src) == kind(f_exc) and \
                    kind(run(pl, penv, src, optimizations=pl.QueryOptFlags.none())[1]) == kind(f_exc):
                case.notes["known"] = "dead-code-evaluated"
                return None
            # Polars never computes items no later step reads (so never fails in them);
            # frazil does. Check the query without them instead, and note the difference.
            pruned = prune_dead(case.plan, names_of=lambda p: eval(p.render(), penv).collect_schema().names()).render()
            if pruned != src:
                got, f2_exc = run(fz, fenv, pruned)
                if f2_exc is None:
                    case.notes["known"] = "dead-code-evaluated"
                    diff = compare(got, expected, order_state(case.plan))
                    if diff:
                        return Failure("differential", diff[0], f"(query without unread items) {diff[1]}\n"
                                       f"frazil:\n{got}\npolars:\n{expected}")
                    return None
            return Failure("differential", f"frazil-error:{kind(f_exc)}",
                           f"frazil raised {kind(f_exc)}: {f_exc}\npolars returned\n{expected}")
        # frazil simplified away the failing part (filter(lit(False), bad)) where Polars
        # evaluated it; without optimizations frazil raises the same error.
        _, plain_exc = run(fz, fenv, src, optimizations=fz.QueryOptFlags.none())
        if kind(plain_exc) == kind(p_exc):
            case.notes["known"] = "dead-code-evaluated"
            return None
        return Failure("differential", f"polars-error:{kind(p_exc)}",
                       f"polars raised {kind(p_exc)}: {p_exc}\nfrazil returned\n{got}")
    diff = compare(got, expected, order_state(case.plan))
    if diff and diff[0] == "dtypes" and expected.height == 0:
        # Polars sometimes gives an empty result other dtypes than its own plan's schema;
        # frazil agreeing with that schema is no bug.
        try:
            planned = list(eval(src, penv).collect_schema().dtypes())  # noqa: S307
        except Exception:  # noqa: BLE001
            planned = None
        if planned == got.to_polars().dtypes:
            return None
        # Polars materializes large dynamic int literals differently over empty input
        # (lit(2**40) // col_i32 is i64 with rows, i32 without); same-kind numbers pass.
        same_kind = all(a == b or (a.is_integer() and b.is_integer()) or (a.is_float() and b.is_float())
                        for a, b in zip(got.to_polars().dtypes, expected.dtypes))
        if same_kind:
            return None
    if diff:
        return Failure("differential", diff[0], f"{diff[1]}\nfrazil:\n{got}\npolars:\n{expected}")
    return None


def optimizer(case: Case, fenv: dict) -> Failure | None:
    src = case.plan.render()
    base, b_exc = run(fz, fenv, src)
    state = order_state(case.plan)
    # Every case: no optimizations, and one flag off; some cases: each flag off in turn.
    flags_off = FLAGS if case.all_flags else [case.flag_off]
    variants = [("none", fz.QueryOptFlags.none())] + [
        (f"{f}=False", fz.QueryOptFlags(**{f: False})) for f in flags_off]
    for label, flags in variants:
        out, exc = run(fz, fenv, src, optimizations=flags)
        if label != "none":
            case.flag_off = label.split("=")[0]  # the reproducer shows the variant that ran last
        if b_exc is None and exc is not None and case.notes.get("polars_error") in ("-", kind(exc)) and \
                kind(exc) in PLANNING_ERRORS and _planning_error(fenv, src, flags) == kind(exc):
            # Simplification removed an ill-typed subexpression (x & False) before the type
            # check, as Polars does; without it frazil reports the type error. Both are fine.
            case.notes["known"] = "dead-code-evaluated"
            continue
        if b_exc is not None or exc is not None:
            if b_exc is not None and exc is not None and kind(b_exc) == kind(exc):
                continue
            if (b_exc is None or kind(b_exc) in DATA_ERRORS) and (exc is None or kind(exc) in DATA_ERRORS):
                continue
            return Failure("optimizer", f"{label}:error:{kind(b_exc)}/{kind(exc)}",
                           f"all optimizations: {kind(b_exc)} {b_exc or ''}\n{label}: {kind(exc)} {exc or ''}")
        diff = compare(out, base.to_polars(), state)
        if diff:
            return Failure("optimizer", f"{label}:{diff[0]}",
                           f"{label} differs from all optimizations on: {diff[1]}\n{label}:\n{out}\nall:\n{base}")
    return None


def _scalar(env, src):
    out, exc = run(fz, env, src)
    if exc is not None:
        raise exc
    return out.to_polars().row(0)


def tlp(case: Case, fenv: dict) -> Failure | None:
    """Ternary logic partitioning and NoREC over `case.predicate` on the plan's result."""
    if case.predicate is None or order_state(case.plan) == UNDEFINED:
        return None
    q = case.plan.render()
    p = case.predicate.render()
    whole, exc = run(fz, fenv, q)
    if exc is not None:
        return None
    parts = []
    for part in (f"{q}.filter({p})", f"{q}.filter(~({p}))", f"{q}.filter(({p}).is_null())"):
        out, exc = run(fz, fenv, part)
        if exc is not None:
            if kind(exc) in DATA_ERRORS or kind(exc) in ("ColumnNotFoundError", "SchemaError"):
                return None
            return Failure("tlp", f"part-error:{kind(exc)}", f"{part} raised {kind(exc)}: {exc}")
        parts.append(out.to_polars())
    union = pl.concat(parts) if parts else None
    diff = compare(union, whole.to_polars(), UNORDERED)
    if diff:
        heights = [x.height for x in parts]
        return Failure("tlp", f"partition:{diff[0]}",
                       f"filter(p) + filter(~p) + filter(p.is_null()) (heights {heights}) != the whole "
                       f"({whole.height} rows): {diff[1]}")
    # NoREC: counting the rows a filter keeps equals summing the predicate.
    # (with_columns broadcasts a scalar predicate to the frame's height first)
    out, exc = run(fz, fenv, f"{q}.with_columns(({p}).alias('_p_')).select(pl.col('_p_').fill_null(False).sum())")
    if exc is None:
        n = out.to_polars().item() if out.height == 1 and out.width == 1 else None
        if n != parts[0].height:
            return Failure("norec", "count", f"filter(p) kept {parts[0].height} rows but sum(p) is {n}")
    # Aggregates over the parts combine to the aggregate over the whole.
    schema = whole.schema
    # (Float16 is left out: its sums round to 11 bits, so the parts' sums need not add up.)
    numeric = [n for n, t in schema.items() if t.is_integer() or (t.is_float() and t != fz.Float16)]
    for col in numeric[:2]:
        agg_src = (f"pl.col({col!r}).sum().alias('s'), pl.col({col!r}).min().alias('lo'), "
                   f"pl.col({col!r}).max().alias('hi'), pl.col({col!r}).count().alias('n')")
        try:
            total = _scalar(fenv, f"{q}.select({agg_src})")
            pieces = [_scalar(fenv, f"{part}.select({agg_src})") for part in
                      (f"{q}.filter({p})", f"{q}.filter(~({p}))", f"{q}.filter(({p}).is_null())")]
        except Exception as exc:  # noqa: BLE001
            if kind(exc) in DATA_ERRORS:
                continue
            return Failure("tlp", f"agg-error:{kind(exc)}", f"aggregating {col!r} raised {kind(exc)}: {exc}")
        problem = _combine_check(total, pieces, schema[col].is_float())
        if problem:
            return Failure("tlp", f"agg:{problem[0]}", f"column {col!r}: {problem[1]}; whole {total}, parts {pieces}")
    return None


def _combine_check(total, pieces, is_float: bool):
    s, lo, hi, n = total
    if sum(x[3] for x in pieces) != n:
        return "count", "counts of the parts do not add up"
    # min/max skip NaN unless every value is NaN (Polars' rule): combine the same way.
    los = [x[1] for x in pieces if x[1] is not None]
    his = [x[2] for x in pieces if x[2] is not None]
    if not _same(_extreme(los, min), lo):
        return "min", "min of the parts' minima differs"
    if not _same(_extreme(his, max), hi):
        return "max", "max of the parts' maxima differs"
    sums = [x[0] for x in pieces]
    if is_float:
        if any(isinstance(v, float) and math.isnan(v) for v in sums) or any(math.isinf(v) for v in sums if v):
            return None  # inf - inf and NaN make the combination undefined
        # Summing in another order loses up to ~n ulps of the largest summand.
        scale = max([abs(v) for v in (lo, hi) if isinstance(v, float) and math.isfinite(v)] or [1.0])
        if not math.isclose(sum(sums), s, rel_tol=1e-9, abs_tol=1e-6 + 1e-12 * scale * max(n, 1)):
            return "sum", "sum of the parts' sums differs"
    elif sum(sums) != s:
        # Integer sums wrap on overflow (Int32 sums stay Int32); compare modulo 2**32.
        if (sum(sums) - s) % 2**32 != 0:
            return "sum", "sum of the parts' sums differs"
    return None


def _extreme(values, fn):
    if not values:
        return None
    numbers = [v for v in values if not (isinstance(v, float) and math.isnan(v))]
    return fn(numbers) if numbers else values[0]


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


ORACLES = ("differential", "optimizer", "distributed", "tlp")


def check(case: Case, oracle: str | None = None) -> Failure | None:
    """Runs the oracles (or only `oracle`) on `case`; the first failure wins. The morsel
    size the case sets is undone afterwards, so that later tests in the process (the
    PDS-H validations, say) do not run with tiny morsels."""
    saved = os.environ.get("FRAZIL_MORSEL_SIZE")
    try:
        return _check(case, oracle)
    finally:
        if saved is None:
            os.environ.pop("FRAZIL_MORSEL_SIZE", None)
        else:
            os.environ["FRAZIL_MORSEL_SIZE"] = saved


def _check(case: Case, oracle: str | None = None) -> Failure | None:
    if case.morsel_size is None:
        os.environ.pop("FRAZIL_MORSEL_SIZE", None)
    else:
        os.environ["FRAZIL_MORSEL_SIZE"] = str(case.morsel_size)
    try:
        penv = build_frames(case, pl)
    except Exception:  # noqa: BLE001 - the frame cannot be built even in Polars: not a case
        return None
    try:
        fenv = build_frames(case, fz)
    except Exception as exc:  # noqa: BLE001
        return Failure("frames", f"frame-error:{kind(exc)}", f"frazil cannot build the frame: {kind(exc)}: {exc}")
    for name, _ in case.frames.items():
        diff = compare(fenv[name], penv[name], ORDERED)
        if diff:
            return Failure("frames", f"frame:{diff[0]}", f"frame {name} differs after construction: {diff[1]}")
    if oracle in (None, "differential"):
        f = differential(case, fenv, penv)
        if f or oracle:
            return f
    if oracle in (None, "optimizer"):
        f = optimizer(case, fenv)
        if f or oracle:
            return f
    if oracle in (None, "distributed"):
        f = distributed(case, fenv, compare)
        if f or oracle:
            return f
    if oracle in (None, "tlp", "norec"):
        return tlp(case, fenv)
    return None
