"""Expr.meta: questions about an expression's tree, as Polars' ExprMetaNameSpace asks them
(structural equality and hashing, output and root names, selections, literals, aliases).
The tree is frazil's C++ DSL tree, read through python/src/meta_bindings.cpp."""
from __future__ import annotations

from typing import Any

from frazil import _frazil

# Node kinds that select columns (a leaf or a selection of leaves).
_SELECTION = {"column", "columns", "wildcard", "nth", "selector", "exclude"}
_RENAMES = {"alias", "rename_alias", "keep_name"}


def _node(pyexpr: Any) -> dict:
    return _frazil.expr_node(pyexpr)


def _is_regex(name: str) -> bool:
    return name.startswith("^") and name.endswith("$")


def _is_regex_selector(node: dict) -> bool:
    # pl.col("^...$") becomes the selector cs.matches("^...$").
    text = node["names"][0] if node["kind"] == "selector" and node["names"] else ""
    return text.startswith('cs.matches("^') and text.endswith('$")')


def _is_multi(node: dict) -> bool:
    kind = node["kind"]
    if kind == "column":
        return _is_regex(node["names"][0])
    if kind == "columns":
        return len(node["names"]) != 1
    return kind in ("wildcard", "selector", "exclude") or (kind == "struct_fields" and
                                                             (len(node["names"]) != 1 or node["names"][0] == "*"))


def _walk(pyexpr: Any):
    stack = [pyexpr]
    while stack:
        e = stack.pop()
        n = _node(e)
        yield n
        stack.extend(reversed(n["inputs"]))


def _is_user_rename(node: dict) -> bool:
    # A name rule without display text is part of a function (struct.field names its
    # output after the field), not a rename the user wrote.
    return node["kind"] in _RENAMES and not (node["kind"] == "rename_alias" and node["names"] == [""])


def _strip_renames(pyexpr: Any) -> Any:
    while _is_user_rename(_node(pyexpr)):
        pyexpr = _node(pyexpr)["inputs"][0]
    return pyexpr


def _top_inputs(pyexpr: Any) -> list:
    n = _node(pyexpr)
    if n["kind"] == "rename_alias" and not _is_user_rename(n):
        return _node(n["inputs"][0])["inputs"]
    return n["inputs"]


def _undetermined(text: str) -> Any:
    from frazil.exceptions import ComputeError

    raise ComputeError(f"unable to find root column name for expr '{text}' when calling 'output_name'")


def _output_name(pyexpr: Any) -> str | None:
    """The name Polars gives the expression's output, None when it depends on a schema."""
    n = _node(pyexpr)
    kind = n["kind"]
    if kind == "column":
        return None if _is_regex(n["names"][0]) else n["names"][0]
    if kind == "columns":
        return n["names"][0] if len(n["names"]) == 1 else None
    if kind == "alias":
        return n["names"][0]
    if kind == "literal":
        return "" if n.get("series_literal") else "literal"
    if kind == "len":
        return "len"
    if kind in ("wildcard", "selector", "exclude", "nth"):
        return None
    if kind == "field":
        return n["names"][0] if len(n["names"]) == 1 else None
    if kind == "struct_fields":
        return n["names"][0] if len(n["names"]) == 1 and n["names"][0] != "*" and not _is_regex(n["names"][0]) else None
    if kind == "keep_name":
        return None  # resolved against the schema, as in Polars
    if kind == "rename_alias":
        inner = _output_name(n["inputs"][0])
        return None if inner is None else _frazil.expr_apply_rename(pyexpr, inner)
    if kind == "ternary":
        return _output_name(n["inputs"][1])
    if n["inputs"]:
        return _output_name(n["inputs"][0])
    return None


def _leaf_names(pyexpr: Any) -> list[str]:
    """Column names in Polars' order: inputs left to right, a ternary's branches before its
    predicate; a multi-column selection names no root."""
    n = _node(pyexpr)
    if n["kind"] == "column":
        return [] if _is_regex(n["names"][0]) else [n["names"][0]]
    if n["kind"] == "columns":
        return _builtin_list(n["names"]) if len(n["names"]) == 1 else []
    inputs = n["inputs"]
    if n["kind"] == "ternary":
        inputs = [inputs[1], inputs[2], inputs[0]]
    return [name for i in inputs for name in _leaf_names(i)]


_builtin_list = list


def _undo_aliases(pyexpr: Any) -> Any:
    pyexpr = _strip_renames(pyexpr)
    inputs = _node(pyexpr)["inputs"]
    if not inputs:
        return pyexpr
    return _frazil.expr_with_inputs(pyexpr, [_undo_aliases(i) for i in inputs])


def _is_scalar(pyexpr: Any) -> bool:
    n = _node(pyexpr)
    kind = n["kind"]
    if kind == "literal":
        return not n.get("series_literal")
    if kind in ("agg", "len"):
        return True
    if kind == "function":
        if n["shape"] == "reduction":
            return True
        if n["shape"] == "elementwise":
            return all(_is_scalar(i) for i in n["inputs"])
        return False
    if kind in ("alias", "rename_alias", "keep_name", "cast"):
        return _is_scalar(n["inputs"][0])
    if kind in ("binary", "ternary"):
        return all(_is_scalar(i) for i in n["inputs"])
    if kind == "window":
        return False
    return False


def _is_length_preserving(pyexpr: Any) -> bool:
    n = _node(pyexpr)
    kind = n["kind"]
    if kind in ("column", "columns", "wildcard", "nth", "selector", "exclude", "field", "struct_fields"):
        return True
    if kind in ("literal", "agg", "len", "filter"):
        return False
    if kind == "function":
        if n["shape"] in ("reduction", "other"):
            return False
        return _is_length_preserving(n["inputs"][0])
    if kind == "window":
        return not n.get("explode")
    if kind in ("binary", "ternary"):
        # Broadcasting: preserving when some input is, and the others are scalars.
        ins = n["inputs"]
        return any(_is_length_preserving(i) for i in ins) and all(
            _is_length_preserving(i) or _is_scalar(i) for i in ins)
    if kind in ("sort", "sort_by", "alias", "rename_alias", "keep_name", "cast"):
        return _is_length_preserving(n["inputs"][0])
    return False


def _is_elementwise(pyexpr: Any) -> bool:
    n = _node(pyexpr)
    kind = n["kind"]
    if kind in ("column", "columns", "wildcard", "nth", "selector", "exclude", "field", "struct_fields", "literal"):
        return not (kind == "literal" and n.get("series_literal"))
    if kind == "function":
        return n["shape"] == "elementwise" and all(_is_elementwise(i) for i in n["inputs"])
    if kind in ("binary", "ternary"):
        # As Polars: a broadcast scalar operand (col - col.mean()) keeps the rows separable.
        return all(_is_elementwise(i) or _is_scalar(i) for i in n["inputs"])
    if kind in ("alias", "rename_alias", "keep_name", "cast", "filter"):
        return _is_elementwise(n["inputs"][0])
    return False


class ExprMetaNameSpace:
    """Expr.meta (Polars' ExprMetaNameSpace)."""

    __slots__ = ("_expr",)

    def __init__(self, expr: Any) -> None:
        self._expr = expr

    @property
    def _pyexpr(self) -> Any:
        return self._expr._pyexpr

    def __eq__(self, other: Any) -> bool:
        return self.eq(other)

    def __ne__(self, other: Any) -> bool:
        return not self.eq(other)

    def __hash__(self) -> int:
        return _frazil.expr_hash(self._pyexpr)

    def __repr__(self) -> str:
        return f"<frazil meta of {self._pyexpr.to_string()}>"

    def eq(self, other: Any) -> bool:
        """Whether the two expressions are the same tree."""
        from frazil.expr import parse_into_expression

        other_native = other._pyexpr if isinstance(other, ExprMetaNameSpace) else parse_into_expression(other)
        return _frazil.expr_same(self._pyexpr, other_native)

    def ne(self, other: Any) -> bool:
        """Whether the two expressions differ."""
        return not self.eq(other)

    def has_multiple_outputs(self) -> bool:
        """Whether the expression may give several columns (a regex, a list, a selector)."""
        return any(_is_multi(n) for n in _walk(self._pyexpr))

    def is_column(self) -> bool:
        """Whether the expression is a single column, col("name")."""
        n = _node(self._pyexpr)
        return (n["kind"] == "column" and not _is_regex(n["names"][0])) or (
            n["kind"] == "columns" and len(n["names"]) == 1)

    def is_column_selection(self, *, allow_aliasing: bool = False) -> bool:
        """Whether the expression only selects columns (names, regex, dtypes, selectors)."""
        e = _strip_renames(self._pyexpr) if allow_aliasing else self._pyexpr
        return _node(e)["kind"] in _SELECTION

    def is_literal(self, *, allow_aliasing: bool = False) -> bool:
        """Whether the expression is a literal value."""
        e = _strip_renames(self._pyexpr) if allow_aliasing else self._pyexpr
        n = _node(e)
        if n["kind"] == "alias":
            # A list or Series literal carries its name as an alias node of its own.
            inner = _node(n["inputs"][0])
            return inner["kind"] == "literal" and bool(inner.get("series_literal"))
        return n["kind"] == "literal"

    def is_regex_projection(self) -> bool:
        """Whether the expression selects columns by a regex (^...$)."""
        return any((n["kind"] == "column" and _is_regex(n["names"][0])) or _is_regex_selector(n)
                   for n in _walk(self._pyexpr))

    def _single_output(self) -> None:
        if self.has_multiple_outputs():
            from frazil.exceptions import InvalidOperationError

            raise InvalidOperationError(f"'Expr: {self._display()}' not allowed in this context/location")

    def is_scalar(self) -> bool:
        """Whether the expression gives one value (an aggregation, a scalar literal)."""
        self._single_output()
        return _is_scalar(self._pyexpr)

    def is_length_preserving(self) -> bool:
        """Whether the output has the input's height."""
        self._single_output()
        return _is_length_preserving(self._pyexpr)

    def is_known_length(self) -> bool:
        """Whether the output's length is known from the input's (scalar or length-preserving)."""
        return _is_scalar(self._pyexpr) or _is_length_preserving(self._pyexpr)

    def is_row_separable(self) -> bool:
        """Whether each output row depends on its own input row only."""
        self._single_output()
        return _is_elementwise(self._pyexpr)

    def output_name(self, *, raise_if_undetermined: bool = True) -> str | None:
        """The name of the output column."""
        name = _output_name(self._pyexpr)
        if name is None and raise_if_undetermined:
            _undetermined(self._display())
        return name

    def _display(self) -> str:
        from frazil.selectors import Selector

        e = self._expr
        root = _strip_renames(e._pyexpr)
        if isinstance(e, Selector):
            return repr(e)
        kind = _node(root)["kind"]
        if kind == "wildcard":
            return "cs.all()"
        return root.to_string()

    def pop(self, *, schema: Any = None) -> list:
        """The inputs of the expression's top node (the last input first, as Polars)."""
        from frazil.expr import wrap

        return [wrap(i) for i in reversed(_top_inputs(self._pyexpr))]

    def root_names(self) -> list[str]:
        """The names of the columns the expression reads, in tree order."""
        return _leaf_names(self._pyexpr)

    def undo_aliases(self) -> Any:
        """The expression without its renames (alias, name.suffix, name.keep, ...)."""
        from frazil.expr import wrap

        return wrap(_undo_aliases(self._pyexpr))

    def as_expression(self) -> Any:
        """The expression itself."""
        return self._expr

    def as_selector(self) -> Any:
        """The column selection as a selector (only for column selections)."""
        from frazil import selectors as cs

        if isinstance(self._expr, cs.Selector):
            return self._expr
        n = _node(self._pyexpr)
        if n["kind"] == "column":
            name = n["names"][0]
            return cs.matches(name) if _is_regex(name) else cs.by_name(name)
        if n["kind"] == "columns":
            return cs.by_name(*n["names"])
        if n["kind"] == "wildcard":
            return cs.all()
        from frazil.exceptions import InvalidOperationError

        raise InvalidOperationError(f"cannot turn {self._pyexpr.to_string()} into a selector")

    def _tree_lines(self) -> list[str]:
        lines: list[str] = []

        def visit(e: Any, prefix: str, last: bool, top: bool) -> None:
            n = _node(e)
            lines.append(n["label"] if top else prefix + ("└── " if last else "├── ") + n["label"])
            ins = n["inputs"]
            child_prefix = "" if top else prefix + ("    " if last else "│   ")
            for k, i in enumerate(ins):
                visit(i, child_prefix, k == len(ins) - 1, False)

        visit(self._pyexpr, "", True, True)
        return lines

    def tree_format(self, *, return_as_string: bool = False, schema: Any = None) -> str | None:
        """The expression tree as text, one node a line (frazil's own layout)."""
        text = "\n".join(self._tree_lines())
        if return_as_string:
            return text
        print(text)
        return None

    def show_graph(self, *, show: bool = True, output_path: Any = None, raw_output: bool = False,
                   figsize: tuple = (16.0, 12.0), schema: Any = None) -> str | None:
        """The expression tree in Graphviz dot; show/output_path render it with `dot`."""
        edges: list[str] = []
        labels: list[str] = []

        def visit(e: Any) -> int:
            n = _node(e)
            me = len(labels)
            labels.append(n["label"].replace('"', '\\"'))
            for i in n["inputs"]:
                edges.append(f"  n{me} -> n{visit(i)};")
            return me

        visit(self._pyexpr)
        dot = "digraph expr {\n" + "".join(f'  n{k} [label="{t}"];\n' for k, t in enumerate(labels)) + \
            "\n".join(edges) + "\n}\n"
        if raw_output:
            return dot
        import shutil
        import subprocess

        if shutil.which("dot") is None:
            raise ImportError("show_graph() needs Graphviz's `dot` to render; pass raw_output=True for the DOT text")
        png = subprocess.run(["dot", "-Tpng"], input=dot.encode(), capture_output=True, check=True).stdout
        if output_path:
            with open(output_path, "wb") as f:
                f.write(png)
        return None if output_path else png
