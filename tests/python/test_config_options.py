"""pl.Config's display options: keyword arguments, context manager, decorator, save/load,
and the repr applying tbl_rows, tbl_cols and fmt_str_lengths as Polars does."""
import os

import polars as pl
import pytest

import frazil as fz


def test_context_manager_sets_and_restores():
    assert "POLARS_FMT_MAX_ROWS" not in os.environ
    with fz.Config(tbl_rows=3, set_tbl_cols=2):
        assert os.environ["POLARS_FMT_MAX_ROWS"] == "3"
        assert fz.Config.state(if_set=True, env_only=True) == {"POLARS_FMT_MAX_COLS": "2", "POLARS_FMT_MAX_ROWS": "3"}
    assert "POLARS_FMT_MAX_ROWS" not in os.environ and "POLARS_FMT_MAX_COLS" not in os.environ


def test_decorator_applies_on_call_only():
    @fz.Config(tbl_rows=5, apply_on_context_enter=True)
    def inside():
        return os.environ.get("POLARS_FMT_MAX_ROWS")

    assert os.environ.get("POLARS_FMT_MAX_ROWS") is None
    assert inside() == "5"
    assert os.environ.get("POLARS_FMT_MAX_ROWS") is None


def test_save_load_and_errors():
    with fz.Config():
        fz.Config.set_tbl_formatting("ASCII_MARKDOWN").set_fmt_str_lengths(12)
        saved = fz.Config.save()
        fz.Config.restore_defaults()
        assert "POLARS_FMT_STR_LEN" not in os.environ
        fz.Config.load(saved)
        assert os.environ["POLARS_FMT_STR_LEN"] == "12"
    with pytest.raises(AttributeError, match="has no option"):
        fz.Config(no_such_option=1)
    with pytest.raises(ValueError):
        fz.Config.set_fmt_str_lengths(0)
    with pytest.raises(ValueError, match="invalid table format"):
        fz.Config.set_tbl_formatting("NOPE")


@pytest.mark.parametrize("options", [{"tbl_rows": 4}, {"tbl_rows": -1}, {"tbl_cols": 1}, {"fmt_str_lengths": 5},
                                     {"tbl_rows": 2, "tbl_cols": 2, "fmt_str_lengths": 8}])
def test_repr_reads_the_options_as_polars(options):
    data = {"a": list(range(25)), "s": ["abcdefghijklmnop"] * 25, "c": [1.5] * 25}
    with fz.Config(**options):
        got = str(fz.DataFrame(data))
    with pl.Config(**options):
        want = str(pl.DataFrame(data))
    assert got.splitlines()[0] == want.splitlines()[0]
    assert len(got.splitlines()) == len(want.splitlines())
    assert [len(line) for line in got.splitlines()] == [len(line) for line in want.splitlines()]


@pytest.mark.parametrize("kwargs", [{}, {"limit": 12}, {"limit": None}, {"limit": -25}, {"limit": 3, "tbl_cols": 1},
                                    {"limit": 2, "fmt_str_lengths": 4}])
def test_show_applies_limit_and_options(kwargs, capsys):
    data = {"a": list(range(30)), "s": ["abcdefgh"] * 30}
    fz.DataFrame(data).show(**kwargs)
    got = capsys.readouterr().out
    pl.DataFrame(data).show(**kwargs)
    want = capsys.readouterr().out
    assert [len(line) for line in got.splitlines()] == [len(line) for line in want.splitlines()]
    with pytest.raises(ValueError, match="at the same time"):
        fz.DataFrame(data).show(ascii_tables=True, tbl_formatting="MARKDOWN")
