"""DataFrame._repr_html_ and Series._repr_html_: the table notebooks show, in Polars' markup
(a <div> with a small style, "shape: (r, c)" and a table of names, dtypes and cells), so
notebooks render frazil frames as they render Polars'. The cells are the repr's cell strings
(strings quoted, cut after fmt_str_lengths characters), HTML-escaped, runs of spaces kept.

Options read, as Polars: POLARS_FMT_MAX_ROWS (10) and POLARS_FMT_MAX_COLS (75), negative for
all; tbl_hide_column_names, tbl_hide_column_data_types, tbl_hide_dataframe_shape."""
from __future__ import annotations

import html
import os
import re
from typing import Any

_STYLE = """<style>
.dataframe > thead > tr,
.dataframe > tbody > tr {
  text-align: right;
  white-space: pre-wrap;
}
</style>
"""
_GAP = -1  # the elided rows or columns, shown as one "…" cell


def _flag(name: str) -> bool:
    return bool(int(os.environ.get(name, "0") or "0"))


def _limit(name: str, default: int, total: int) -> int:
    value = int(os.environ.get(name, default) or default)
    return total if value < 0 else value


def _shown(total: int, limit: int, *, split: str) -> list[int]:
    """The positions shown of `total`, with _GAP where some are left out: the first and last
    halves of `limit` (rows give the odd one to the head; columns drop it)."""
    if limit >= total:
        return list(range(total))
    tail = limit // 2
    head = limit - tail if split == "rows" else tail
    return [*range(head), _GAP, *range(total - tail, total)]


def _cell_text(text: str) -> str:
    escaped = html.escape(text)
    return re.sub(r" {2,}", lambda m: "&nbsp;" * len(m.group(0)), escaped)


def frame_html(df: Any, *, from_series: bool = False) -> str:
    """The HTML of a frame (of a series' one-column frame with from_series)."""
    rows = _shown(df.height, _limit("POLARS_FMT_MAX_ROWS", 10, df.height), split="rows")
    cols = _shown(df.width, _limit("POLARS_FMT_MAX_COLS", 75, df.width), split="cols")
    str_len = int(os.environ.get("POLARS_FMT_STR_LEN", "30") or "30")
    out = ["<div>", _STYLE]
    if not _flag("POLARS_FMT_TABLE_HIDE_DATAFRAME_SHAPE_INFORMATION"):
        h, w = df.shape
        out.append(f"<small>shape: ({h:_},)</small>" if from_series else f"<small>shape: ({h:_}, {w:_})</small>")
    out.append('<table border="1" class="dataframe"><thead>')
    names = df.columns
    if not _flag("POLARS_FMT_TABLE_HIDE_COLUMN_NAMES"):
        out.append("<tr>" + "".join("<th>&hellip;</th>" if c == _GAP else f"<th>{html.escape(names[c])}</th>"
                                    for c in cols) + "</tr>")
    if not _flag("POLARS_FMT_TABLE_HIDE_COLUMN_DATA_TYPES"):
        dtypes = [df._df.column_at(c).dtype_short_name if c != _GAP else "" for c in cols]
        out.append("<tr>" + "".join("<td>&hellip;</td>" if c == _GAP else f"<td>{d}</td>"
                                    for c, d in zip(cols, dtypes)) + "</tr>")
    out.append("</thead><tbody>")
    # The shown rows are one run, or a head and a tail run around the gap: format each run
    # of each shown column in one call.
    gap = rows.index(_GAP) if _GAP in rows else len(rows)
    blocks = [b for b in (rows[:gap], rows[gap + 1:]) if b]
    cells = {c: [t for b in blocks for t in df._df.column_at(c).format_values(b[0], len(b), str_len)]
             for c in cols if c != _GAP}
    position = {r: i for i, r in enumerate(r for r in rows if r != _GAP)}
    for r in rows:
        out.append("<tr>" + "".join("<td>&hellip;</td>" if r == _GAP or c == _GAP else f"<td>{_cell_text(cells[c][position[r]])}</td>"
                                    for c in cols) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)
