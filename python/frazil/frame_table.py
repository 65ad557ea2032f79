"""A frame's text table with Polars' layout options (pl.Config tbl_formatting, rounded
corners, hidden column names / dtypes / dtype separator / shape, dtype inline, shape below).

The cells (names, dtypes, values as text, the "…" of elided rows and columns) come from the
engine (DataFrame::display_cells); this module only lays them out. A style is the 19
characters of comfy-table's presets, which Polars uses: borders, header line, row lines and
their intersections, a space meaning "none".
"""
from __future__ import annotations

import os

# Order of the 19 characters (comfy-table's TableComponent order).
(_LEFT, _RIGHT, _TOP, _BOTTOM, _HEAD_LEFT, _HEAD_LINE, _HEAD_MID, _HEAD_RIGHT, _VERTICAL, _HORIZONTAL,
 _MID, _ROW_LEFT, _ROW_RIGHT, _TOP_MID, _BOTTOM_MID, _TOP_LEFT, _TOP_RIGHT, _BOTTOM_LEFT, _BOTTOM_RIGHT) = range(19)

STYLES = {
    "ASCII_FULL": "||--+==+|-+||++++++",
    "ASCII_FULL_CONDENSED": "||--+==+|    ++++++",
    "ASCII_NO_BORDERS": "     == |-+        ",
    "ASCII_BORDERS_ONLY": "||--+==+   ||--++++",
    "ASCII_BORDERS_ONLY_CONDENSED": "||--+==+     --++++",
    "ASCII_HORIZONTAL_ONLY": "  -- ==  --  --    ",
    "ASCII_MARKDOWN": "||  |-|||          ",
    "MARKDOWN": "||  |-|||          ",
    "NOTHING": " " * 19,
    "UTF8_FULL": "││──╞═╪╡┆╌┼├┤┬┴┌┐└┘",
    "UTF8_FULL_CONDENSED": "││──╞═╪╡┆    ┬┴┌┐└┘",
    "UTF8_NO_BORDERS": "     ═╪ ┆╌┼        ",
    "UTF8_BORDERS_ONLY": "││──╞══╡     ──┌┐└┘",
    "UTF8_HORIZONTAL_ONLY": "  ── ══  ──  ──    ",
}
DEFAULT_STYLE = "UTF8_FULL_CONDENSED"

# The Config options this module reads (all others leave the engine's own table).
_LAYOUT_ENV = ("POLARS_FMT_TABLE_FORMATTING", "POLARS_FMT_TABLE_ROUNDED_CORNERS",
               "POLARS_FMT_TABLE_HIDE_COLUMN_NAMES", "POLARS_FMT_TABLE_HIDE_COLUMN_DATA_TYPES",
               "POLARS_FMT_TABLE_HIDE_COLUMN_SEPARATOR", "POLARS_FMT_TABLE_HIDE_DATAFRAME_SHAPE_INFORMATION",
               "POLARS_FMT_TABLE_INLINE_COLUMN_DATA_TYPE", "POLARS_FMT_TABLE_DATAFRAME_SHAPE_BELOW")


def _on(name: str) -> bool:
    return os.environ.get(name) == "1"


def layout_options_set() -> bool:
    """Whether any layout option differs from the engine's default table."""
    style = os.environ.get("POLARS_FMT_TABLE_FORMATTING")
    return (style not in (None, "", DEFAULT_STYLE)) or any(_on(n) for n in _LAYOUT_ENV[1:])


def _width(text: str) -> int:
    return len(text)  # code points, as the engine counts a cell's width


def render(shape: tuple[int, int], cells: list[list[str]]) -> str:
    """The table of `cells` (per column: name, "---", dtype, values) with the Config layout."""
    name = (os.environ.get("POLARS_FMT_TABLE_FORMATTING") or DEFAULT_STYLE).upper()
    style = STYLES.get(name)
    if name.startswith("ASCII"):
        # ASCII styles write the ellipsis (elided rows/columns, cut values) as "..."
        cells = [[v[:-1] + "..." if v.endswith("…") else v for v in col] for col in cells]
    if style is None:
        raise ValueError(f"invalid table format: {os.environ.get('POLARS_FMT_TABLE_FORMATTING')!r}")
    if _on("POLARS_FMT_TABLE_ROUNDED_CORNERS") and style[_TOP_LEFT] == "┌":
        style = style[:_TOP_LEFT] + "╭╮╰╯"
    header, body = _header(cells), [list(c[3:]) for c in cells]
    columns = [h + b for h, b in zip(header, body)]
    widths = [max((_width(v) for v in col), default=0) for col in columns]
    n_header = len(header[0]) if header else 0
    n_body = len(body[0]) if body else 0

    # A border or column separator exists when any of its characters is drawn; where it
    # exists, a space character is a space, elsewhere nothing (comfy-table's rule).
    has_left = any(style[i] != " " for i in (_LEFT, _HEAD_LEFT, _ROW_LEFT, _TOP_LEFT, _BOTTOM_LEFT))
    has_right = any(style[i] != " " for i in (_RIGHT, _HEAD_RIGHT, _ROW_RIGHT, _TOP_RIGHT, _BOTTOM_RIGHT))
    has_mid = any(style[i] != " " for i in (_VERTICAL, _HEAD_MID, _MID, _TOP_MID, _BOTTOM_MID))

    def edges(left: int, mid: int, right: int) -> tuple[str, str, str]:
        return (style[left] if has_left else "", style[mid] if has_mid else "", style[right] if has_right else "")

    def line(left: int, fill: int, mid: int, right: int) -> str | None:
        if all(style[i] == " " for i in (left, fill, mid, right)):
            return None
        lc, mc, rc = edges(left, mid, right)
        return lc + mc.join(style[fill] * (w + 2) for w in widths) + rc

    def row(r: int) -> str:
        lc, mc, rc = edges(_LEFT, _VERTICAL, _RIGHT)
        return lc + mc.join(" " + col[r] + " " * (w - _width(col[r])) + " " for col, w in zip(columns, widths)) + rc

    lines = []
    if style[_TOP] != " ":
        lines.append(line(_TOP_LEFT, _TOP, _TOP_MID, _TOP_RIGHT))
    lines.extend(row(r) for r in range(n_header))
    if n_header and style[_HEAD_LINE] != " ":
        lines.append(line(_HEAD_LEFT, _HEAD_LINE, _HEAD_MID, _HEAD_RIGHT))
    separator = line(_ROW_LEFT, _HORIZONTAL, _MID, _ROW_RIGHT)
    for r in range(n_header, n_header + n_body):
        if r > n_header and separator is not None:
            lines.append(separator)
        lines.append(row(r))
    if style[_BOTTOM] != " ":
        lines.append(line(_BOTTOM_LEFT, _BOTTOM, _BOTTOM_MID, _BOTTOM_RIGHT))
    table = "\n".join(lines)
    if _on("POLARS_FMT_TABLE_HIDE_DATAFRAME_SHAPE_INFORMATION"):
        return table
    shape_line = f"shape: ({shape[0]}, {shape[1]})"
    if _on("POLARS_FMT_TABLE_DATAFRAME_SHAPE_BELOW"):
        return table + "\n" + shape_line
    return shape_line + "\n" + table


def _header(cells: list[list[str]]) -> list[list[str]]:
    """Per column, the header rows the options keep: name, "---", dtype, or "name (dtype)"."""
    names = not _on("POLARS_FMT_TABLE_HIDE_COLUMN_NAMES")
    dtypes = not _on("POLARS_FMT_TABLE_HIDE_COLUMN_DATA_TYPES")
    if _on("POLARS_FMT_TABLE_INLINE_COLUMN_DATA_TYPE") and names and dtypes:
        return [[c[0] if not c[2] else f"{c[0]} ({c[2]})"] for c in cells]
    separator = names and dtypes and not _on("POLARS_FMT_TABLE_HIDE_COLUMN_SEPARATOR")
    return [([c[0]] if names else []) + ([c[1]] if separator else []) + ([c[2]] if dtypes else []) for c in cells]
