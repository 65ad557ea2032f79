"""pl.Config's table layout options, frazil's repr against Polars' for each: the 14
tbl_formatting styles, rounded corners, hidden column names / dtypes / dtype separator /
shape, dtype inline, shape below; with elided rows and columns, no rows, one row."""
import polars
import pytest

import frazil as pl
from frazil.frame_table import STYLES

DATA = {"abc": [1, None, 3, 4, 5], "xyz": ["a", "bb", None, "dddd", ""], "f": [True, False, None, True, False]}


def _both(options, data=DATA, rows=None):
    frames = (pl.DataFrame(data), polars.DataFrame(data))
    out = []
    for lib, df in zip((pl, polars), frames):
        with lib.Config(**options):
            out.append(str(df if rows is None else df.head(rows)))
    return out


@pytest.mark.parametrize("style", sorted(STYLES))
@pytest.mark.parametrize("rows", [None, 1, 0])
def test_table_styles_as_polars(style, rows):
    ours, theirs = _both({"tbl_formatting": style}, rows=rows)
    assert ours == theirs


@pytest.mark.parametrize("options", [
    {"tbl_hide_column_names": True},
    {"tbl_hide_column_data_types": True},
    {"tbl_hide_dtype_separator": True},
    {"tbl_hide_column_names": True, "tbl_hide_column_data_types": True},
    {"tbl_column_data_type_inline": True},
    {"tbl_dataframe_shape_below": True},
    {"tbl_hide_dataframe_shape": True},
    {"tbl_formatting": "UTF8_FULL", "tbl_hide_column_data_types": True},
    {"tbl_formatting": "ASCII_MARKDOWN", "tbl_hide_column_names": True, "tbl_hide_column_data_types": True},
    {"tbl_formatting": "ASCII_FULL", "tbl_rows": 2, "tbl_cols": 2},
    {"tbl_formatting": "UTF8_FULL_CONDENSED", "tbl_rows": 3, "tbl_column_data_type_inline": True},
    {"tbl_formatting": "ASCII_MARKDOWN", "fmt_str_lengths": 2, "tbl_rows": 2},
    {"tbl_formatting": "NOTHING", "fmt_str_lengths": 2, "tbl_cols": 1},
])
def test_layout_options_as_polars(options):
    ours, theirs = _both(options)
    assert ours == theirs


def test_rounded_corners_as_polars():
    out = []
    for lib, df in ((pl, pl.DataFrame(DATA)), (polars, polars.DataFrame(DATA))):
        with lib.Config() as cfg:
            cfg.set_tbl_formatting("UTF8_FULL", rounded_corners=True)
            out.append(str(df))
    assert out[0] == out[1]


def test_the_default_table_is_the_engines():
    df = pl.DataFrame(DATA)
    with pl.Config(tbl_formatting="UTF8_FULL_CONDENSED"):
        assert str(df) == df._df.to_string(10, 8, 30)
