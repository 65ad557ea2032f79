"""DataFrame._repr_html_ / Series._repr_html_ (frazil.frame_html) against Polars, character
for character: escaping, runs of spaces, row and column elision (even and odd limits), the
hide options, string length, empty frames and nested values."""
import datetime

import polars as pl
import pytest

import frazil as fz


def big(m):
    return m.DataFrame({f"c{i}": list(range(30)) for i in range(80)})


FRAMES = [
    lambda m: m.DataFrame({"foo": [1, 2, 3], "<bar>": ["a", "b", "c"], "<baz": ["a", "b", "c"], "spam>": ["a", "b", None]}),
    lambda m: m.DataFrame({"a": range(50)}), lambda m: m.Series("a", range(50)),
    lambda m: m.DataFrame({"s": ["  trailing & leading spaces  ", "multiple   spaces", "a" * 50]}),
    big, lambda m: big(m).head(12), lambda m: m.DataFrame(), lambda m: m.DataFrame({"a": []}),
    lambda m: m.DataFrame({"d": [datetime.date(2024, 1, 1)], "f": [1.5], "l": [[1, None]], "b": [True], "n": [None]}),
    lambda m: m.Series("s", ["x" * 60] * 20),
]
OPTIONS = [{}, {"tbl_rows": 9}, {"tbl_rows": 1}, {"tbl_rows": 0}, {"tbl_rows": -1}, {"tbl_cols": 3}, {"tbl_cols": 4},
           {"tbl_hide_column_names": True}, {"tbl_hide_column_data_types": True}, {"tbl_hide_dataframe_shape": True},
           {"fmt_str_lengths": 100}, {"tbl_hide_column_names": True, "tbl_hide_column_data_types": True}]


@pytest.mark.parametrize("options", range(len(OPTIONS)))
@pytest.mark.parametrize("frame", range(len(FRAMES)))
def test_repr_html_matches_polars(frame, options):
    def html(m):
        with m.Config(**OPTIONS[options]):
            return FRAMES[frame](m)._repr_html_()

    assert html(fz) == html(pl)
