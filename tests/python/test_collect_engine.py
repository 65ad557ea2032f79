"""collect(engine=...): Polars' engine names are accepted (one executor serves them all), others refused."""
import pytest

import frazil as fz


@pytest.mark.parametrize("engine", ["auto", "in-memory", "streaming"])
def test_collect_engines_give_the_same_answer(engine):
    lf = fz.LazyFrame({"a": [3, 1, 2]}).sort("a")
    assert lf.collect(engine=engine).to_dict(as_series=False) == {"a": [1, 2, 3]}


def test_unknown_engine_is_an_error():
    with pytest.raises(ValueError, match="Invalid engine argument engine='nope'"):
        fz.LazyFrame({"a": [1]}).collect(engine="nope")


# ---- engine objects (frazil/engine.py), compared with Polars' own engine classes ----
import asyncio  # noqa: E402
import pickle  # noqa: E402

import polars  # noqa: E402


class _Counting:
    """A minimal backend of each library: name, collect, execute only."""

    @staticmethod
    def make(lib):
        class Counting(lib.Engine):
            def __init__(self):
                self.collected = 0

            @property
            def name(self):
                return "counting"

            def collect(self, lf, **kwargs):
                self.collected += 1
                return lib.InMemoryEngine().collect(lf, **kwargs)

            def execute(self, lf, **kwargs):
                return lib.InMemoryEngine().execute(lf, **kwargs)

        return Counting()


@pytest.mark.parametrize("lib", [fz, polars])
def test_engine_is_an_abstract_contract_of_three_members(lib):
    assert set(lib.Engine.__abstractmethods__) == {"name", "collect", "execute"}
    with pytest.raises(TypeError):
        lib.Engine()
    assert isinstance(lib.GPUEngine(), lib.Engine) and isinstance(lib.StreamingEngine(), lib.Engine)


@pytest.mark.parametrize("lib", [fz, polars])
def test_minimal_engine_collects_and_executes(lib):
    lf = lib.LazyFrame({"a": [1, None, 3], "b": [4.0, float("nan"), -0.0]})
    engine = _Counting.make(lib)
    out = lf.collect(engine=engine)
    # str(): NaN compares unequal to itself; -0.0 shows its sign
    assert str(out.to_dict(as_series=False)) == str({"a": [1, None, 3], "b": [4.0, float("nan"), -0.0]})
    assert lf.execute(engine=engine).lazy().collect().shape == (3, 2)
    assert engine.collected == 1


@pytest.mark.parametrize("operation,call", [
    ("collect_batches", lambda lf, e: lf.collect_batches(engine=e)),
    ("collect_async", lambda lf, e: lf.collect_async(engine=e)),
    ("collect_all", lambda lf, e, lib=None: None),
    ("sink_parquet", lambda lf, e: lf.sink_parquet("never_written.parquet", engine=e)),
    ("sink_csv", lambda lf, e: lf.sink_csv("never_written.csv", engine=e)),
    ("sink_batches", lambda lf, e: lf.sink_batches(print, engine=e)),
])
@pytest.mark.parametrize("lib", [fz, polars])
def test_capabilities_a_backend_lacks_raise_naming_it(lib, operation, call, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lf = lib.LazyFrame({"a": [1, 2]})
    engine = _Counting.make(lib)
    if operation == "collect_all":
        def call(lf, e):
            return lib.collect_all([lf], engine=e)
    with pytest.raises(NotImplementedError, match=rf"`{operation}`.*Counting"):
        call(lf, engine)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lib", [fz, polars])
def test_sink_through_an_engine_is_its_collect_with_the_callers_flags(lib, tmp_path):
    seen = []

    class Recording(lib.InMemoryEngine):
        def collect(self, lf, *, optimizations, **kwargs):
            seen.append(optimizations)
            return super().collect(lf, optimizations=optimizations, **kwargs)

    lf = lib.LazyFrame({"a": [3, None, 1]})
    flags = lib.QueryOptFlags(predicate_pushdown=False)
    lf.sink_parquet(tmp_path / "out.parquet", engine=Recording(), optimizations=flags)
    assert len(seen) == 1 and seen[0] is flags
    assert lib.read_parquet(tmp_path / "out.parquet").to_dict(as_series=False) == {"a": [3, None, 1]}


@pytest.mark.parametrize("lib", [fz, polars])
def test_gpu_engine_without_a_gpu_backend(lib):
    lf = lib.LazyFrame({"a": [1, 2, 3]})
    engine = lib.GPUEngine(device=1, raise_on_fail=True)
    assert engine.config == {"raise_on_fail": True} and engine.name == "gpu" and engine.monitoring is False
    assert pickle.loads(pickle.dumps(engine)).config == engine.config and hash(engine) is not None
    with pytest.raises(NotImplementedError, match="monitoring is not supported"):
        lib.GPUEngine(monitoring=True)
    with pytest.raises(ImportError, match="GPU engine requested"):
        lf.collect(engine="gpu")
    with pytest.warns(UserWarning, match="GPU engine does not support background"):
        query = lf.collect(engine=lib.GPUEngine(), background=True)
    assert query.fetch_blocking().to_dict(as_series=False) == {"a": [1, 2, 3]}
    assert lf.collect(engine="gpu", optimizations=lib.QueryOptFlags._eager()).height == 3
    assert lib.concat(lf.collect_batches(engine=lib.GPUEngine())).to_dict(as_series=False) == {"a": [1, 2, 3]}


@pytest.mark.parametrize("lib", [fz, polars])
def test_engine_objects_and_names_agree(lib, tmp_path):
    lf = lib.LazyFrame({"a": [2, None, 1]}).sort("a", nulls_last=True)
    for name, engine in (("in-memory", lib.InMemoryEngine()), ("streaming", lib.StreamingEngine())):
        assert lf.collect(engine=name).to_dict(as_series=False) == lf.collect(engine=engine).to_dict(as_series=False)
        assert lf.explain(engine=name) == lf.explain(engine=engine)
        assert lib.collect_all([lf], engine=engine)[0].to_dict(as_series=False) == {"a": [1, 2, None]}
        assert asyncio.run(_await(lambda: lf.collect_async(engine=engine))).to_dict(as_series=False) == {"a": [1, 2, None]}
        lf.sink_csv(tmp_path / f"{name}.csv", engine=engine)
        assert (tmp_path / f"{name}.csv").read_text() == "a\n1\n2\n\n"


async def _await(start):
    return await start()  # started inside the running loop, as Polars needs


def test_engine_affinity_object_is_used_for_auto():
    engine = _Counting.make(fz)
    try:
        fz.Config.set_engine_affinity(engine)
        assert fz.LazyFrame({"a": [1]}).collect().height == 1
        assert engine.collected == 1
        fz.LazyFrame({"a": [1]}).collect(engine="in-memory")
        assert engine.collected == 1
    finally:
        fz.Config.restore_defaults()
    fz.LazyFrame({"a": [1]}).collect()
    assert engine.collected == 1


def test_distributed_engine_names_reach_the_local_paths_of_other_operations(tmp_path):
    # collect/explain hand engine="ray" to frazil.ray; batches and sinks run locally, as before.
    lf = fz.LazyFrame({"a": [1, None, 3]})
    assert fz.concat(list(lf.collect_batches(engine="ray"))).to_dict(as_series=False) == {"a": [1, None, 3]}
    lf.sink_parquet(tmp_path / "out.parquet", engine="ray")
    assert fz.read_parquet(tmp_path / "out.parquet").to_dict(as_series=False) == {"a": [1, None, 3]}
