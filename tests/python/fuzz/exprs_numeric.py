"""The numeric, cumulative, window and rolling functions of issue #16 as fuzzer templates.

Each row is (template, kid kinds, result category, flags). The template is rendered with
the kids drawn by kind; the flags say where the function may stand:
  a  aggregates (one row per frame or group)      o  order-dependent (row order matters)
  r  only in select / with_columns (not in agg)    L  changes the length (alone in a select)
Kid kinds: n any numeric expression, c a numeric column, i an integer column, f a float
column, b a boolean expression, s a string column, t a Date/Datetime column (the `by` of
temporal windows), k a group key column. A row whose kinds the schema lacks is skipped.

Functions whose answer Polars leaves open are wrapped so that the answer is defined: ties
of top_k_by are broken by the value itself (and its rows sorted: their order is open), arg_sort goes through gather (the sorted
values), sample and shuffle are read through an aggregate that ignores the order, and
search_sorted reads a sorted column with an explicit side. Weighted rolling windows get no
nulls (Polars panics on them) and a Float64 input (Polars plans an integer one as Int64 but
computes Float64).
"""
from __future__ import annotations

# (template, kid kinds, out category ("same": the first kid's), flags)
ROWS: list[tuple[str, str, str, str]] = [
    # ---- math ----
    ("{0}.tan()", "n", "float", ""),
    ("{0}.cot()", "n", "float", ""),
    ("{0}.arcsin()", "n", "float", ""),
    ("{0}.arccos()", "n", "float", ""),
    ("{0}.sinh()", "n", "float", ""),
    ("{0}.cosh()", "n", "float", ""),
    ("{0}.arcsinh()", "n", "float", ""),
    ("{0}.arccosh()", "n", "float", ""),
    ("{0}.arctanh()", "n", "float", ""),
    ("{0}.radians()", "n", "float", ""),
    ("{0}.log10()", "n", "float", ""),
    ("{0}.log(10)", "n", "float", ""),
    ("{0}.exp()", "n", "float", ""),
    ("pl.arctan2({0}, {1})", "nn", "float", ""),
    ("{0}.is_close({1})", "nn", "bool", ""),
    ("{0}.is_close({1}, abs_tol=0.5)", "nn", "bool", ""),
    ("{0}.is_close({1}, rel_tol=0.1, nans_equal=True)", "nn", "bool", ""),
    ("{0}.clip({1}, {2})", "nnn", "same", ""),
    ("{0}.round_sig_figs(1)", "n", "same", ""),
    # ---- bitwise ----
    ("{0}.bitwise_count_ones()", "i", "int", ""),
    ("{0}.bitwise_count_zeros()", "i", "int", ""),
    ("{0}.bitwise_leading_zeros()", "i", "int", ""),
    ("{0}.bitwise_leading_ones()", "i", "int", ""),
    ("{0}.bitwise_trailing_zeros()", "i", "int", ""),
    ("{0}.bitwise_trailing_ones()", "i", "int", ""),
    ("({0} & {1})", "ii", "int", ""),
    ("({0} | {1})", "ii", "int", ""),
    ("({0} ^ {1})", "ii", "int", ""),
    ("{0}.bitwise_and()", "i", "int", "a"),
    ("{0}.bitwise_or()", "i", "int", "a"),
    ("{0}.bitwise_xor()", "i", "int", "a"),
    # ---- cumulative and differences ----
    ("{0}.cum_prod()", "c", "same", "o"),
    ("{0}.cum_prod(reverse=True)", "c", "same", "o"),
    ("{0}.cum_sum(reverse=True)", "c", "same", "o"),
    ("{0}.cum_max(reverse=True)", "c", "same", "o"),
    ("{0}.cum_count(reverse=True)", "c", "int", "o"),
    ("{0}.cumulative_eval(pl.element().sum())", "c", "same", "o"),
    ("{0}.cumulative_eval(pl.element().max() - pl.element().min(), min_samples=2)", "c", "same", "o"),
    ("{0}.diff(2, null_behavior='ignore')", "c", "same", "o"),
    ("{0}.pct_change(2)", "c", "float", "o"),
    ("{0}.rank('min')", "c", "int", ""),
    ("{0}.rank('max', descending=True)", "c", "int", ""),
    ("{0}.rank('average', descending=True)", "c", "float", ""),
    ("{0}.rle().struct.field('len').max()", "c", "int", "ao"),
    ("{0}.peak_min()", "c", "bool", "o"),
    # ---- filling and interpolation ----
    ("{0}.fill_null(strategy='forward')", "c", "same", "o"),
    ("{0}.fill_null(strategy='backward', limit=1)", "c", "same", "o"),
    ("{0}.fill_null(strategy='min')", "c", "same", ""),
    ("{0}.fill_null(strategy='max')", "c", "same", ""),
    ("{0}.fill_null(strategy='mean')", "c", "same", ""),
    ("{0}.fill_null(strategy='zero')", "c", "same", ""),
    ("{0}.fill_null(strategy='one')", "c", "same", ""),
    ("{0}.forward_fill(limit=1)", "c", "same", "o"),
    ("{0}.interpolate(method='nearest')", "c", "same", "o"),
    ("{0}.interpolate_by({1})", "cc", "float", "o"),
    # ---- positions and selection ----
    ("{0}.gather({0}.arg_sort())", "c", "same", "o"),
    ("{0}.gather({0}.arg_sort(descending=True, nulls_last=True))", "c", "same", "o"),
    ("{0}.arg_sort().len()", "c", "int", "a"),
    ("{0}.arg_unique().len()", "c", "int", "a"),
    ("{0}.arg_unique().max()", "c", "int", "ao"),
    ("{0}.arg_true().len()", "b", "int", "a"),
    ("pl.arg_where({0}).min()", "b", "int", "ao"),
    ("{0}.get(0, null_on_oob=True)", "c", "same", "ao"),
    ("{0}.gather_every(2).sum()", "c", "same", "ao"),
    ("{0}.gather_every(2, offset=1).max()", "c", "same", "ao"),
    ("{0}.sort().search_sorted(0, side='left')", "c", "int", "a"),
    ("{0}.sort().search_sorted(1.5, side='right')", "c", "int", "a"),
    ("{0}.sort(descending=True).search_sorted(0, side='left', descending=True)", "c", "int", "a"),
    ("{0}.top_k_by([{1}, {0}], 2).min()", "cc", "same", "a"),
    ("{0}.bottom_k_by([{1}, {0}], 1).max()", "cc", "same", "a"),
    ("{0}.top_k_by([{1}, {0}], 2, reverse=[True, False]).max()", "cc", "same", "a"),
    ("{0}.min_by({1})", "cc", "same", "ao"),
    ("{0}.max_by({1})", "cc", "same", "ao"),
    ("{0}.sample(fraction=0.5, seed=1).len()", "c", "int", "a"),
    ("{0}.shuffle(seed=3).max()", "c", "same", "a"),
    ("{0}.sample(fraction=1.0, shuffle=True, seed=2).min()", "c", "same", "a"),
    ("{0}.head(pl.len() // 2).max()", "c", "same", "ao"),
    ("{0}.tail(2).min()", "c", "same", "ao"),
    ("{0}.slice(1, 2).max()", "c", "same", "ao"),
    ("{0}.extend_constant(None, 2).count()", "c", "int", "a"),
    ("{0}.append({1}).max()", "cc", "same", "a"),
    ("{0}.repeat_by(2).list.sum()", "c", "same", ""),
    ("{0}.reverse().cum_max()", "c", "same", "o"),
    # ---- distinct and counts ----
    ("{0}.value_counts(sort=True).struct.field('count').max()", "c", "int", "a"),
    ("{0}.value_counts(normalize=True).struct.field('proportion').max()", "c", "float", "a"),
    ("{0}.unique_counts().max()", "c", "int", "a"),
    ("{0}.mode().min()", "c", "same", "a"),
    ("{0}.implode().list.len()", "c", "int", "a"),
    ("{0}.is_duplicated()", "c", "bool", ""),
    # ---- statistics ----
    ("{0}.skew(bias=False)", "c", "float", "a"),
    ("{0}.kurtosis(fisher=False, bias=False)", "c", "float", "a"),
    ("{0}.dot({1})", "cc", "same", "a"),
    ("pl.cov({0}, {1})", "cc", "float", "a"),
    ("pl.corr({0}, {1})", "cc", "float", "a"),
    ("pl.corr({0}, {1}, method='spearman')", "cc", "float", "a"),
    ("{0}.bin_intervals([-1, 0, 2], labels=False)", "c", "int", ""),
    ("{0}.bin_quantiles([0.3, 0.8], labels=False, right_closed=True)", "c", "int", ""),
    ("{0}.bin_ranks(2, labels=False)", "c", "int", ""),
    ("{0}.hist(bins=[-1, 0, 1]).sum()", "c", "int", "a"),
    ("{0}.hist(bin_count=2).max()", "c", "int", "a"),
    # ---- value mapping ----
    ("{0}.replace([0, 1], [10, 20])", "i", "int", ""),
    ("{0}.replace_strict([0, 1], [10, 20], default=-1)", "i", "int", ""),
    ("{0}.replace_strict({{1: 1.5, 2: -0.0}}, default=None, return_dtype=pl.Float64)", "i", "float", ""),
    ("{0}.replace_strict([0.5, -1.0], [1, 2], default={0})", "f", "float", ""),
    ("{0}.replace_strict(['a', ''], [1, 2], default=0).cast(pl.Int64)", "s", "int", ""),
    # ---- rolling windows ----
    ("{0}.rolling_var(3)", "c", "float", "o"),
    ("{0}.rolling_std(2, min_samples=1, center=True)", "c", "float", "o"),
    ("{0}.rolling_quantile(0.25, 'linear', window_size=3, min_samples=1)", "c", "float", "o"),
    ("{0}.rolling_quantile(0.5, 'higher', window_size=2)", "c", "float", "o"),
    ("{0}.rolling_skew(3)", "c", "float", "o"),
    ("{0}.rolling_kurtosis(4)", "c", "float", "o"),
    ("{0}.rolling_rank(3)", "c", "float", "o"),
    ("{0}.rolling_rank(2, 'min', min_samples=1)", "c", "int", "o"),
    ("{0}.fill_null(0).rolling_mean(2, weights=[0.5, 1.5])", "c", "float", "o"),
    ("{0}.cast(pl.Float64).fill_null(0).rolling_sum(3, weights=[1.0, 0.0, 2.0], min_samples=1)", "c", "float", "o"),
    ("{0}.rolling_sum_by({1}, '2d')", "ct", "same", ""),
    ("{0}.rolling_mean_by({1}, '3d', closed='both')", "ct", "float", ""),
    ("{0}.rolling_min_by({1}, '2d', closed='left')", "ct", "same", ""),
    ("{0}.rolling_max_by({1}, '1d', min_samples=1)", "ct", "same", ""),
    ("{0}.rolling_std_by({1}, '5d')", "ct", "float", ""),
    ("{0}.rolling_var_by({1}, '5d', closed='none')", "ct", "float", ""),
    ("{0}.rolling_median_by({1}, '3d')", "ct", "float", ""),
    ("{0}.rolling_quantile_by({1}, '3d', quantile=0.25, interpolation='lower')", "ct", "float", ""),
    ("{0}.rolling_rank_by({1}, '2d')", "ct", "float", ""),
    ("{0}.ewm_std(alpha=0.5)", "c", "float", "o"),
    ("{0}.ewm_var(com=1.0, adjust=False)", "c", "float", "o"),
    ("{0}.ewm_sum(alpha=0.25)", "c", "float", "o"),
    ("{0}.ewm_mean(span=3, ignore_nulls=True)", "c", "float", "o"),
    ("{0}.ewm_mean_by({1}, half_life='1d')", "ct", "float", ""),
    ("{0}.ewm_sum_by({1}, half_life='2d')", "ct", "float", ""),
    # ---- windows ----
    ("{0}.cum_prod().over({1})", "ck", "same", "or"),
    ("{0}.cum_count().over({1}, order_by={0})", "ck", "int", "or"),
    ("{0}.diff().over({1}, order_by={0}, descending=True, nulls_last=True)", "ck", "same", "or"),
    ("{0}.rolling_var(2).over({1})", "ck", "float", "or"),
    ("{0}.forward_fill().over({1})", "ck", "same", "or"),
    ("{0}.rank('dense').over({1})", "ck", "int", "r"),
    ("{0}.pct_change().over({1})", "ck", "float", "or"),
    ("{0}.ewm_mean(alpha=0.5).over({1})", "ck", "float", "or"),
    ("{0}.cumulative_eval(pl.element().sum()).over({1})", "ck", "same", "or"),
    ("{0}.cum_sum().over({1}, mapping_strategy='join').list.sum()", "ck", "same", "r"),
    ("{0}.max().over({1}, mapping_strategy='join')", "ck", "same", "r"),
    # ---- generators and horizontal functions ----
    ("pl.int_range(pl.len())", "", "int", "o"),
    ("pl.int_range(pl.len(), 0, -1)", "", "int", "o"),
    ("pl.arange(0, pl.len() * 2, 2)", "", "int", "o"),
    ("pl.int_ranges({0}.cast(pl.Int64, strict=False).clip(-1, 3)).list.len()", "i", "int", ""),
    ("pl.int_ranges(0, {0}.cast(pl.Int64, strict=False).clip(0, 4), 2).list.sum()", "i", "int", ""),
    ("pl.linear_space(0, 1, pl.len()).max()", "", "float", "a"),
    ("pl.linear_spaces(0, {0}.cast(pl.Float64, strict=False).clip(0, 4), 3).list.sum()", "i", "float", ""),
    ("pl.any_horizontal({0}, {1})", "bb", "bool", ""),
    ("pl.all_horizontal({0}, {1}, {2})", "bbb", "bool", ""),
    ("pl.fold(pl.lit(0), lambda acc, x: acc + x, [{0}, {1}])", "ii", "int", "r"),
    ("pl.reduce(lambda acc, x: acc - x, [{0}, {1}])", "ii", "int", "r"),
    ("pl.cum_sum_horizontal({0}, {1}.alias('h1')).struct.field('h1')", "ii", "int", "r"),
    ("pl.cum_reduce(lambda acc, x: acc * x, [{0}, {1}.alias('h1')]).struct.field('h1')", "ii", "int", "r"),
]

# Length-changing forms (alone in a select).
LENGTH_ROWS: list[tuple[str, str, str, str]] = [
    ("{0}.top_k_by([{1}, {0}], 3).sort()", "cc", "same", "L"),
    ("{0}.bottom_k_by([{1}, {0}], 2).sort()", "cc", "same", "L"),
    ("{0}.gather([0, -1], null_on_oob=True)", "c", "same", "Lo"),
    ("{0}.gather_every(3)", "c", "same", "Lo"),
    ("{0}.arg_unique()", "c", "int", "Lo"),
    ("{0}.arg_true()", "b", "int", "Lo"),
    ("pl.arg_where({0})", "b", "int", "Lo"),
    ("{0}.extend_constant(7, 2)", "i", "int", "Lo"),
    ("{0}.append({0})", "c", "same", "Lo"),
    ("{0}.slice(pl.len() // 3, 2)", "c", "same", "Lo"),
    ("{0}.diff(1, null_behavior='drop')", "c", "same", "Lo"),
    ("{0}.repeat_by(2).explode()", "c", "same", "Lo"),
    ("{0}.value_counts(sort=True).struct.field('count')", "c", "int", "L"),
    ("{0}.unique_counts().sort()", "c", "int", "L"),
    ("{0}.mode().sort()", "c", "same", "L"),
    ("{0}.rle().struct.field('value')", "c", "same", "Lo"),
    ("{0}.hist(bins=[-1, 0, 3])", "c", "int", "L"),
    ("{0}.hist(bin_count=3, include_breakpoint=True).struct.field('count')", "c", "int", "L"),
    ("{0}.sample(n=1, seed=5).len()", "c", "int", "L"),
    ("{0}.shuffle(seed=4).sort()", "c", "same", "L"),
    ("pl.linear_space(0, 1, 5)", "", "float", "L"),
    ("pl.linear_space(-2.5, 7, 4, closed='left')", "", "float", "L"),
    ("pl.linear_space({0}.min(), {0}.max(), 3)", "f", "float", "L"),
    ("pl.int_range(0, pl.len(), 2)", "", "int", "Lo"),
    ("pl.int_range(3, dtype=pl.UInt8)", "", "int", "L"),
    ("{0}.sort().over({1}, mapping_strategy='explode')", "ck", "same", "Lo"),
]


def _wants(row, want: str | None) -> bool:
    out = row[2]
    if want == "num":
        return out in ("int", "float") or (out == "same" and row[1][:1] in ("n", "c", "i", "f"))
    return want is None or out == want


def draw(gen, rows, depth: int, want: str | None):
    """An E for one row of `rows` with a result of category `want` ("num", "bool"; None:
    any) that fits gen's schema and mode (None if none did)."""
    from .exprs import NUMERIC, E, node

    rng = gen.rng
    rows = [row for row in rows if _wants(row, want) and not (gen.mode == "agg" and "r" in row[3])]
    for _ in range(8):
        tpl, kinds, out, flags = rng.choice(rows)
        kids = []
        for k in kinds:
            kid = _kid(gen, k, depth)
            if kid is None:
                break
            kids.append(kid)
        else:
            cat = kids[0].cat if out == "same" else out
            if cat not in NUMERIC + ("bool", "str"):
                cat = "int"
            if "a" in flags or "o" in flags or "L" in flags:
                return E(tpl, kids, cat, "a" in flags, "o" in flags or any(x.order for x in kids),
                         "L" in flags or any(x.length for x in kids))
            return node(tpl, kids, cat)
    return None


def _kid(gen, kind: str, depth: int):
    from .exprs import GROUPABLE, NUMERIC, E

    rng = gen.rng
    if kind == "n":
        return gen.leaf(rng.choice(NUMERIC)) if rng.random() < 0.6 else gen.gen("num", depth + 1)
    if kind == "c":
        return gen.col(rng.choice(NUMERIC)) or gen.col("int") or gen.col("float")
    if kind == "i":
        return gen.col("int")
    if kind == "f":
        return gen.col("float")
    if kind == "b":
        return gen.gen("bool", depth + 1)
    if kind == "s":
        return gen.col("str")
    if kind == "t":
        return gen.col(rng.choice(("date", "datetime"))) or gen.col("date") or gen.col("datetime")
    if kind == "k":
        keys = gen.columns(GROUPABLE)
        return E(f"pl.col({rng.choice(keys)!r})", [], "other") if keys else None
    raise ValueError(kind)
