"""Python functions in expressions (Expr.map_batches / map_elements / inspect,
pl.map_batches) against Polars; filters are not pushed below them; errors name the
Python exception; calls from several queries at once."""
import threading

import polars as pl
import pytest

import frazil as fz

D = {"a": [1, 2, None, 4], "b": [1.5, 2.5, 3.5, None], "g": ["x", "y", "x", "y"]}

CASES = [
    lambda m: m.DataFrame(D).select(m.col("a").map_batches(lambda s: s * 2, return_dtype=m.Int64)),
    lambda m: m.DataFrame(D).select(m.col("a").map_batches(lambda s: s.cast(m.String), return_dtype=m.String)),
    lambda m: m.DataFrame(D).select(m.col("a").map_elements(lambda v: v + 1, return_dtype=m.Int64)),
    lambda m: m.DataFrame(D).select(m.col("a").map_elements(lambda v: 0 if v is None else v, return_dtype=m.Int64,
                                                             skip_nulls=False)),
    lambda m: m.DataFrame(D).lazy().with_columns(
        m.col("a").map_batches(lambda s: s.cum_sum(), return_dtype=m.Int64).alias("c")).filter(m.col("b") > 2).collect(),
    lambda m: m.DataFrame(D).select(m.map_batches(["a", "b"], lambda ss: ss[0] + ss[1], return_dtype=m.Float64)),
    lambda m: m.DataFrame({"a": [1, 2, 1, 1], "b": ["a", "b", "c", "c"]}).group_by("b", maintain_order=True).agg(
        m.col("a").implode().map_elements(lambda x: x.sum(), return_dtype=m.Int64)),
    lambda m: m.DataFrame({"a": [1.0, 2, None, 4, 5]}).select(m.col("a").rolling_map(lambda w: w.sum(), 2)),
    lambda m: m.DataFrame({"a": [1.0, 2, 3, 4, 5]}).select(m.col("a").rolling_map(lambda w: w.max(), 3, center=True,
                                                                                  min_samples=1)),
    lambda m: m.DataFrame({"a": list(range(100_000))}).select(
        m.col("a").map_batches(lambda s: s + 1, return_dtype=m.Int64).sum()),
]


@pytest.mark.filterwarnings("ignore::polars.exceptions.PolarsInefficientMapWarning")
@pytest.mark.parametrize("case", range(len(CASES)))
def test_matches_polars(case):
    assert CASES[case](fz).rows() == CASES[case](pl).rows()


def test_the_function_sees_every_row_before_a_filter():
    seen = []

    def f(s):
        seen.append(len(s))
        return s

    out = (fz.LazyFrame(D).with_columns(fz.col("a").map_batches(f).alias("c"))
           .filter(fz.col("g") == "x").collect())
    # (FRAZIL_VERIFY=1 runs the query a second time, unoptimized: every run sees all rows.)
    assert seen and set(seen) == {4} and out.height == 2


def test_errors_and_inspect(capsys):
    # The function's own exception comes back as itself (Polars re-raises it).
    with pytest.raises(ZeroDivisionError):
        fz.DataFrame(D).select(fz.col("a").map_batches(lambda s: 1 / 0, return_dtype=fz.Int64))
    with pytest.raises(fz.exceptions.ComputeError, match="return_dtype"):
        fz.DataFrame(D).select(fz.col("a").map_batches(lambda s: s.cast(fz.String) + "x"))
    fz.DataFrame(D).select(fz.col("a").inspect("values: {}"))
    assert "values: " in capsys.readouterr().out


def test_queries_on_several_threads():
    results = []

    def run(k):
        df = fz.DataFrame({"a": list(range(1000))})
        results.append(df.select(fz.col("a").map_batches(lambda s: s * k).sum()).item())

    threads = [threading.Thread(target=run, args=(k,)) for k in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [499500 * k for k in range(1, 5)]


def test_lazy_inspect_prints_at_collect(capsys):
    lf = fz.LazyFrame({"a": [1, 2], "b": ["x", "y"]}).inspect("frame: {}")
    assert capsys.readouterr().out == ""
    out = lf.filter(fz.col("a") > 1).collect()
    printed = capsys.readouterr().out
    assert printed.startswith("frame: shape: (2, 2)") and out.rows() == [(2, "y")]


@pytest.mark.parametrize("m", [pl, fz])
def test_the_functions_exception_is_raised_as_itself(m):
    def boom(_):
        raise ValueError("test error")

    with pytest.raises(ValueError, match="test error"):
        m.select(m.lit(1).map_elements(boom, return_dtype=m.Int64))
    with pytest.raises(KeyError):
        m.DataFrame(D).lazy().select(m.col("a").map_batches(lambda s: {}["k"], return_dtype=m.Int64)).collect()
    with pytest.raises(ValueError):
        m.DataFrame(D).group_by("g").agg(m.col("a").map_elements(lambda v: int("x"), return_dtype=m.Int64))


@pytest.mark.parametrize("dtype", ["Int8", "UInt32", "Float32", "Float64"])
@pytest.mark.parametrize("weights", [None, [1.0, 2.0, 3.0]])
def test_rolling_map_keeps_polars_dtype(dtype, weights):
    def run(m):
        s = m.Series("A", [1, 2, 9, None, 13, 4], dtype=getattr(m, dtype))
        eager = s.rolling_map(lambda w: w.sum(), window_size=3, weights=weights)
        q = s.to_frame().lazy().select(m.col("A").rolling_map(lambda w: w.sum(), window_size=3, weights=weights))
        return str(eager.dtype), eager.to_list(), str(q.collect_schema()["A"]), q.collect()["A"].to_list()

    assert run(fz) == run(pl)
