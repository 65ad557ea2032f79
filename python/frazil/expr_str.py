"""Polars' `Expr.str` namespace: matching, slicing, splitting, padding, case, parsing and
encoding of String expressions. Patterns, lengths and other arguments may be expressions
(a Python value is a literal), as in Polars."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from frazil import _args
from frazil.expr import Expr, parse_into_expression, wrap


def _list_literal(values: Any) -> Any:
    """Patterns as Polars reads them: a str is a column name, a list or tuple one List(String)
    value for every row (Polars implodes it), an expression or Series as it is."""
    from frazil.datatypes import List, String
    from frazil.functions import col, lit

    if isinstance(values, str):
        return col(values)
    if isinstance(values, (list, tuple)):
        values = list(values)
        # A list of strings is List(String); of anything else, what it holds (refused later).
        strings = bool(values) and all(isinstance(v, str) for v in values)
        return lit(values, dtype=List(String) if strings else None)
    return values


_NO_DEFAULT = object()


def _name(value: Any) -> Any:
    """A str as a column name (Polars reads the lengths, counts and bases so), anything else as is."""
    from frazil.functions import col

    return col(value) if isinstance(value, str) else value


class ExprStringNameSpace:
    """Polars' `Expr.str` namespace."""

    def __init__(self, expr: Expr) -> None:
        self._expr = expr

    def _fn(self, name: str, *extra: Any, **options: Any) -> Expr:
        natives = [parse_into_expression(x) for x in extra]
        return wrap(self._expr._pyexpr.function("str." + name, natives, **options))

    # ---- matching ----
    def contains(self, pattern: Any, *, literal: bool = False, strict: bool = True) -> Expr:
        """Whether each string matches the regular expression `pattern` (a string or an expression, one per
        row); literal=True matches it as plain text."""
        return self._fn("contains", pattern, literal=literal, strict=strict)

    def starts_with(self, prefix: Any) -> Expr:
        """Whether each string starts with `prefix` (a string or an expression)."""
        return self._fn("starts_with", prefix)

    def ends_with(self, suffix: Any) -> Expr:
        """Whether each string ends with `suffix` (a string or an expression)."""
        return self._fn("ends_with", suffix)

    def count_matches(self, pattern: Any, *, literal: bool = False) -> Expr:
        """The number of non-overlapping matches of `pattern` in each string."""
        return self._fn("count_matches", pattern, literal=literal)

    def find(self, pattern: Any, *, literal: bool = False, strict: bool = True) -> Expr:
        """The byte index of the first match of `pattern` in each string, null when there is none."""
        return self._fn("find", pattern, literal=literal, strict=strict)

    def extract(self, pattern: Any, group_index: int = 1) -> Expr:
        """The `group_index`th capture group of the first match of `pattern` (0 is the whole match)."""
        return self._fn("extract", pattern, group_index=group_index)

    def extract_all(self, pattern: Any) -> Expr:
        """Every match of `pattern` in each string, as a List(String)."""
        return self._fn("extract_all", pattern)

    def extract_groups(self, pattern: str) -> Expr:
        """The capture groups of the first match of `pattern`, as a Struct with a field per group (named
        groups keep their names)."""
        return self._fn("extract_groups", pattern=pattern)

    def replace(self, pattern: Any, value: Any, *, literal: bool = False, n: int = 1) -> Expr:
        """Each string with the first `n` matches of `pattern` replaced by `value` ($1 / ${name} refer to
        groups unless literal=True)."""
        return self._fn("replace", pattern, value, literal=literal, n=n)

    def replace_all(self, pattern: Any, value: Any, *, literal: bool = False) -> Expr:
        """Each string with every match of `pattern` replaced by `value`."""
        return self._fn("replace_all", pattern, value, literal=literal)

    def escape_regex(self) -> Expr:
        """Each string with the regular expression metacharacters escaped."""
        return self._fn("escape_regex")

    # ---- many patterns (Aho-Corasick) ----
    def contains_any(self, patterns: Any, *, ascii_case_insensitive: bool = False) -> Expr:
        """Whether each string contains any of `patterns` (Aho-Corasick, plain text)."""
        return self._fn("contains_any", _list_literal(patterns), ascii_case_insensitive=ascii_case_insensitive)

    def replace_many(self, patterns: Any, replace_with: Any = _NO_DEFAULT, *, ascii_case_insensitive: bool = False,
                     leftmost: bool = False) -> Expr:
        """Each string with every occurrence of `patterns` replaced by the matching entry of `replace_with`
        (or a mapping of pattern to replacement)."""
        if replace_with is _NO_DEFAULT:
            if not isinstance(patterns, Mapping):
                raise TypeError("`replace_with` argument is required if `patterns` argument is not a Mapping type")
            if not patterns:
                return self._expr
            replace_with = list(patterns.values())
            patterns = list(patterns.keys())
        if isinstance(replace_with, (list, tuple)):
            replace_with = _list_literal(replace_with)
        return self._fn("replace_many", _list_literal(patterns), replace_with,
                        ascii_case_insensitive=ascii_case_insensitive, leftmost=leftmost)

    def extract_many(self, patterns: Any, *, ascii_case_insensitive: bool = False, overlapping: bool = False,
                     leftmost: bool = False) -> Expr:
        """The occurrences of any of `patterns` in each string, as a List(String)."""
        if overlapping and leftmost:
            raise ValueError("can not match overlapping patterns when leftmost == True")
        return self._fn("extract_many", _list_literal(patterns), ascii_case_insensitive=ascii_case_insensitive,
                        overlapping=overlapping, leftmost=leftmost)

    def find_many(self, patterns: Any, *, ascii_case_insensitive: bool = False, overlapping: bool = False,
                  leftmost: bool = False) -> Expr:
        """The byte indices of the occurrences of any of `patterns` in each string, as a List(UInt32)."""
        if overlapping and leftmost:
            raise ValueError("can not match overlapping patterns when leftmost == True")
        return self._fn("find_many", _list_literal(patterns), ascii_case_insensitive=ascii_case_insensitive,
                        overlapping=overlapping, leftmost=leftmost)

    # ---- slicing and lengths ----
    def slice(self, offset: Any, length: Any = None) -> Expr:
        """The characters from `offset` (negative counts from the end), `length` of them (to the end when
        None)."""
        for n in (offset, length):
            if isinstance(n, int) and not isinstance(n, bool):
                _args.int_in(n, _args.INT64)
        return self._fn("slice", _name(offset), _name(length))

    def head(self, n: Any) -> Expr:
        """The first `n` characters (all but the last -n when negative)."""
        return self._fn("head", _name(n))

    def tail(self, n: Any) -> Expr:
        """The last `n` characters (all but the first -n when negative)."""
        return self._fn("tail", _name(n))

    def reverse(self) -> Expr:
        """Each string reversed by grapheme cluster."""
        return self._fn("reverse")

    def len_bytes(self) -> Expr:
        """The length of each string in UTF-8 bytes, as UInt32."""
        return self._fn("len_bytes")

    def len_chars(self) -> Expr:
        """The length of each string in Unicode code points, as UInt32."""
        return self._fn("len_chars")

    # ---- case and Unicode ----
    def to_uppercase(self) -> Expr:
        """Each string in upper case (full Unicode mapping: 'ß' becomes 'SS')."""
        return self._fn("to_uppercase")

    def to_lowercase(self) -> Expr:
        """Each string in lower case (full Unicode mapping)."""
        return self._fn("to_lowercase")

    def to_titlecase(self) -> Expr:
        """Each string with the first letter of every word upper-cased and the rest lower-cased."""
        return self._fn("to_titlecase")

    def normalize(self, form: str = "NFC") -> Expr:
        """Each string in the Unicode normalization `form`: NFC, NFKC, NFD or NFKD."""
        return self._fn("normalize", form=form)

    # ---- stripping and padding ----
    def strip_chars(self, characters: Any = None) -> Expr:
        """Each string without the leading and trailing `characters` (whitespace when None)."""
        return self._fn("strip_chars", characters)

    def strip_chars_start(self, characters: Any = None) -> Expr:
        """Each string without the leading `characters` (whitespace when None)."""
        return self._fn("strip_chars_start", characters)

    def strip_chars_end(self, characters: Any = None) -> Expr:
        """Each string without the trailing `characters` (whitespace when None)."""
        return self._fn("strip_chars_end", characters)

    def strip_prefix(self, prefix: Any) -> Expr:
        """Each string without `prefix` when it starts with it."""
        return self._fn("strip_prefix", prefix)

    def strip_suffix(self, suffix: Any) -> Expr:
        """Each string without `suffix` when it ends with it."""
        return self._fn("strip_suffix", suffix)

    def pad_start(self, length: Any, fill_char: str = " ") -> Expr:
        """Each string padded at the start with `fill_char` to `length` characters."""
        if not isinstance(fill_char, str) or len(fill_char) != 1:
            raise ValueError("expected a string of length 1")
        return self._fn("pad_start", _name(length), fill_char=fill_char)

    def pad_end(self, length: Any, fill_char: str = " ") -> Expr:
        """Each string padded at the end with `fill_char` to `length` characters."""
        if not isinstance(fill_char, str) or len(fill_char) != 1:
            raise ValueError("expected a string of length 1")
        return self._fn("pad_end", _name(length), fill_char=fill_char)

    def zfill(self, length: Any) -> Expr:
        """Each string padded with zeros at the start to `length` characters, after any sign."""
        return self._fn("zfill", _name(length))

    # ---- splitting ----
    def split(self, by: Any, *, inclusive: bool = False, literal: bool = True, strict: bool = True) -> Expr:
        """Each string split at `by`, as a List(String); inclusive=True keeps the separator."""
        return self._fn("split", by, inclusive=inclusive, literal=literal, strict=strict)

    def split_exact(self, by: Any, n: int, *, inclusive: bool = False) -> Expr:
        """Each string split at `by` into a Struct of n + 1 fields (field_0, ...), null where there are fewer
        parts."""
        return self._fn("split_exact", by, n=n, inclusive=inclusive)

    def splitn(self, by: Any, n: int) -> Expr:
        """Each string split at `by` into at most `n` parts, as a Struct (the last field holds the rest)."""
        return self._fn("splitn", by, n=n)

    # ---- parsing ----
    def strptime(self, dtype: Any, format: str | None = None, *, strict: bool = True,  # noqa: A002
                 exact: bool = True, cache: bool = True, ambiguous: Any = "raise") -> Expr:
        """Each string parsed as `dtype` (Date, Datetime or Time) with the chrono `format`, inferred from the
        data when None; strict=False gives null for what does not parse."""
        from frazil.datatypes import Datetime, parse_into_dtype

        dt = parse_into_dtype(dtype)
        if dt == Datetime and getattr(dt, "time_unit", None) is None:
            dt = Datetime("us")
        from frazil.expr import _native_dtype

        return self._fn("strptime", ambiguous, dtype=_native_dtype(dt), format=format, strict=strict, exact=exact,
                        cache=cache)

    def to_date(self, format: str | None = None, *, strict: bool = True, exact: bool = True,  # noqa: A002
                cache: bool = True) -> Expr:
        """Each string parsed as a Date (see strptime)."""
        from frazil.datatypes import Date

        return self.strptime(Date, format, strict=strict, exact=exact, cache=cache)

    def to_datetime(self, format: str | None = None, *, time_unit: str | None = None,  # noqa: A002
                    time_zone: str | None = None, strict: bool = True, exact: bool = True, cache: bool = True,
                    ambiguous: Any = "raise") -> Expr:
        """Each string parsed as a Datetime (see strptime); a %z offset in the format makes it UTC unless
        `time_zone` is given."""
        from frazil.datatypes import Datetime

        if time_unit is None:
            # Polars: the format's fraction picks the unit.
            if format is not None and ("%.9f" in format or "%9f" in format):
                time_unit = "ns"
            elif format is not None and ("%.3f" in format or "%3f" in format):
                time_unit = "ms"
            else:
                time_unit = "us"
        return self.strptime(Datetime(time_unit, time_zone), format, strict=strict, exact=exact, cache=cache,
                             ambiguous=ambiguous)

    def to_time(self, format: str | None = None, *, strict: bool = True, cache: bool = True) -> Expr:  # noqa: A002
        """Each string parsed as a Time (see strptime)."""
        from frazil.datatypes import Time

        return self.strptime(Time, format, strict=strict, cache=cache)

    def to_integer(self, *, base: Any = 10, dtype: Any = None, strict: bool = True) -> Expr:
        """Each string parsed as an integer in `base` (a number or an expression), as Int64 or `dtype`."""
        from frazil.datatypes import Int64
        from frazil.expr import _native_dtype

        return self._fn("to_integer", _name(base), dtype=_native_dtype(Int64 if dtype is None else dtype), strict=strict)

    def to_decimal(self, *, scale: int) -> Expr:
        """Each string parsed as a Decimal with `scale` digits after the point."""
        return self._fn("to_decimal", scale=scale)

    # ---- encodings and JSON ----
    def encode(self, encoding: str) -> Expr:
        """Each string encoded as 'hex' or 'base64' text."""
        return self._fn("encode", encoding=encoding)

    def decode(self, encoding: str, *, strict: bool = True) -> Expr:
        """Each 'hex' or 'base64' string decoded into Binary."""
        return self._fn("decode", encoding=encoding, strict=strict)

    def json_decode(self, dtype: Any) -> Expr:
        """Each string parsed as JSON into `dtype` (inferred from the first values when None)."""
        from frazil.expr import _native_dtype

        return self._fn("json_decode", dtype=_native_dtype(dtype))

    def json_path_match(self, json_path: Any) -> Expr:
        """The value at `json_path` (a JSONPath such as $.a.b[0]) of each JSON string, as text."""
        return self._fn("json_path_match", json_path)

    # ---- concatenation ----
    def join(self, delimiter: str = "", *, ignore_nulls: bool = True) -> Expr:
        """All the strings of the column joined with `delimiter` into one."""
        return self._fn("join", delimiter=delimiter, ignore_nulls=ignore_nulls)
