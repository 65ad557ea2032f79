// Bindings of the lazy API: expressions and LazyFrame. One-line delegations to the C++
// API; Python-side sugar (operators, namespaces, argument forms) lives in frazil/*.py.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <map>

#include "core_common.hpp"
#include "interruptible.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/temporal/conversions.hpp"
#include "frazil/compute/temporal/zone.hpp"
#include "frazil/core/suggest.hpp"
#include "frazil/dsl/statistics.hpp"
#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/utf8.hpp"
#include "frazil/core/warnings.hpp"
#include "frazil/functions/registry.hpp"
#include "frazil/plan/optimization_rule.hpp"

namespace frazil::py {

using dsl::Expr;

namespace {

dsl::Operator operator_from_name(const std::string& op) {
  static const std::map<std::string, dsl::Operator> ops = {
      {"==", dsl::Operator::Eq},         {"!=", dsl::Operator::NotEq},
      {"<", dsl::Operator::Lt},          {"<=", dsl::Operator::LtEq},
      {">", dsl::Operator::Gt},          {">=", dsl::Operator::GtEq},
      {"eq_missing", dsl::Operator::EqValidity}, {"ne_missing", dsl::Operator::NotEqValidity},
      {"+", dsl::Operator::Plus},        {"-", dsl::Operator::Minus},
      {"*", dsl::Operator::Multiply},    {"/", dsl::Operator::TrueDivide},
      {"//", dsl::Operator::FloorDivide}, {"%", dsl::Operator::Modulus},
      {"&", dsl::Operator::And},         {"|", dsl::Operator::Or},
      {"^", dsl::Operator::Xor},
  };
  auto it = ops.find(op);
  if (it == ops.end()) throw InvalidOperationError("unknown operator " + op);
  return it->second;
}

// A Python keyword argument as a function parameter value (functions/args.hpp).
functions::ArgValue arg_from_py(const std::string& name, nb::handle v) {
  if (v.is_none()) return std::monostate{};
  // A dtype parameter, marked by the Python layer (a dtype's native form is a str or tuple).
  if (nb::hasattr(v, "_frazil_dtype")) return dtype_from_py(v.attr("_frazil_dtype"));
  if (nb::isinstance<nb::bool_>(v)) return nb::cast<bool>(v);
  if (nb::isinstance<nb::int_>(v)) {
    try {
      return nb::cast<int64_t>(v);
    } catch (const nb::cast_error&) {
      throw InvalidOperationError("parameter '" + name + "' is out of the 64-bit integer range");
    }
  }
  if (nb::isinstance<nb::float_>(v)) return nb::cast<double>(v);
  if (nb::isinstance<nb::str>(v)) return nb::cast<std::string>(v);
  // A nested dtype description: ("List", inner), ("Struct", fields), ("Datetime", unit, tz), ...
  if (nb::isinstance<nb::tuple>(v) && nb::len(v) >= 2 && nb::isinstance<nb::str>(v[0])) {
    const std::string kind = nb::cast<std::string>(v[0]);
    if (kind == "List" || kind == "Struct" || kind == "Datetime" || kind == "Duration" || kind == "Decimal")
      return dtype_from_py(v);
  }
  if (nb::isinstance<nb::list>(v) || nb::isinstance<nb::tuple>(v)) {
    std::vector<int64_t> ints;
    std::vector<double> floats;
    std::vector<std::string> strings;
    bool any_float = false;
    for (nb::handle x : v) {
      if (nb::isinstance<nb::str>(x)) {
        strings.push_back(nb::cast<std::string>(x));
      } else if (nb::isinstance<nb::int_>(x) && !nb::isinstance<nb::bool_>(x)) {
        ints.push_back(nb::cast<int64_t>(x));
        floats.push_back(static_cast<double>(ints.back()));
      } else if (nb::isinstance<nb::float_>(x)) {
        floats.push_back(nb::cast<double>(x));
        any_float = true;
      } else {
        throw InvalidOperationError("parameter '" + name + "': a list of int, float or str was expected");
      }
    }
    if (!strings.empty()) {
      if (strings.size() != nb::len(v))
        throw InvalidOperationError("parameter '" + name + "': a list of one type was expected");
      return strings;
    }
    if (any_float) return floats;
    return ints;
  }
  return dtype_from_py(v);
}

compute::AggKind agg_from_name(const std::string& name) {
  std::vector<std::string> names;
  for (int k = 0; k <= static_cast<int>(compute::AggKind::All); ++k) {
    if (name == compute::agg_name(static_cast<compute::AggKind>(k))) return static_cast<compute::AggKind>(k);
    names.push_back(compute::agg_name(static_cast<compute::AggKind>(k)));
  }
  throw InvalidOperationError("unknown aggregation " + name + did_you_mean(name, names));
}

compute::JoinType join_type_from_name(const std::string& how) {
  using compute::JoinType;
  if (how == "inner") return JoinType::Inner;
  if (how == "left") return JoinType::Left;
  if (how == "right") return JoinType::Right;
  if (how == "full" || how == "outer") return JoinType::Full;
  if (how == "semi") return JoinType::Semi;
  if (how == "anti") return JoinType::Anti;
  if (how == "cross") return JoinType::Cross;
  throw InvalidOperationError("`how` must be one of {'inner', 'left', 'right', 'full', 'semi', 'anti', 'cross'}, got '" + how + "'");
}

OptFlags flags_from_py(const std::map<std::string, bool>& d) {
  OptFlags f;
  for (const auto& [k, v] : d) {
    if (k == "predicate_pushdown") f.predicate_pushdown = v;
    else if (k == "projection_pushdown") f.projection_pushdown = v;
    else if (k == "simplify_expression") f.simplify_expression = v;
    else if (k == "slice_pushdown") f.slice_pushdown = v;
    else if (k == "comm_subplan_elim") f.comm_subplan_elim = v;
    else if (k == "comm_subexpr_elim") f.comm_subexpr_elim = v;
    else if (k == "cluster_with_columns") f.cluster_with_columns = v;
    else if (k == "check_order_observe") f.check_order_observe = v;
    else if (k == "fast_projection") f.fast_projection = v;
    else if (k == "sort_collapse") f.sort_collapse = v;
    else if (k == "row_estimate") f.row_estimate = v;
    else if (k == "pre_partition_hive") f.pre_partition_hive = v;
    else if (k == "join_order") f.join_order = v;
    else if (k == "type_coercion") f.type_coercion = v;
    else if (k == "type_check" || k == "streaming" || k == "eager")
      continue;
    else throw InvalidOperationError("unknown optimization flag " + k);
  }
  return f;
}

// A Python str as UTF-8. Lone surrogates ("\udcff") cannot be encoded: they become U+FFFD
// per byte of their surrogate-pass encoding, as Polars does.
std::string python_text(nb::handle value) {
  Py_ssize_t n = 0;
  if (const char* p = PyUnicode_AsUTF8AndSize(value.ptr(), &n)) return std::string(p, static_cast<size_t>(n));
  PyErr_Clear();
  nb::object bytes = nb::steal(PyUnicode_AsEncodedString(value.ptr(), "utf-8", "surrogatepass"));
  if (!bytes.is_valid()) throw nb::python_error();
  return utf8_lossy(std::string_view(PyBytes_AS_STRING(bytes.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(bytes.ptr()))));
}

// A Python value as a literal: ints and floats are dynamic (they adapt to the other
// operand), everything else takes the dtype Polars infers for it.
Expr lit_from_py(nb::handle value) {
  if (value.is_none()) return dsl::lit_null();
  if (nb::isinstance<nb::bool_>(value)) return dsl::lit(nb::cast<bool>(value));
  if (nb::isinstance<nb::int_>(value)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0 && !PyErr_Occurred()) return dsl::lit_dynamic_int(v);
    PyErr_Clear();
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
      if (!PyErr_Occurred()) return dsl::lit(Scalar::uint64(u));
      PyErr_Clear();
    }
    // Past 64 bits: an Int128 literal, as Polars 2.
    unsigned char bytes[16];
    if (_PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(value.ptr()), bytes, 16, 1, 1) < 0) {
      PyErr_Clear();
      // Past Int128 but within UInt128: a UInt128 literal.
      if (overflow < 0 || _PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(value.ptr()), bytes, 16, 1, 0) < 0) {
        PyErr_Clear();
        throw InvalidOperationError(err_msg("integer ", nb::cast<std::string>(nb::repr(value)),
                                            " is too large for a literal: it does not fit in 128 bits"));
      }
      __int128 w;
      std::memcpy(&w, bytes, 16);
      return dsl::lit(Scalar(DataType::uint128(), w));
    }
    __int128 w;
    std::memcpy(&w, bytes, 16);
    // Dynamic, as Polars: next to an integer or float column it takes that column's dtype
    // (a value that does not fit becomes null); alone it is an Int128.
    dsl::ExprNode n;
    n.kind = dsl::ExprKind::Literal;
    n.literal.scalar = Scalar(DataType::int128(), w);
    n.literal.dynamic = true;
    return Expr::make(std::move(n));
  }
  if (nb::isinstance<nb::float_>(value)) return dsl::lit_dynamic_float(nb::cast<double>(value));
  if (nb::isinstance<nb::str>(value)) return dsl::lit(python_text(value));
  nb::list one;
  one.append(value);
  DataType t = infer_dtype(one, "literal");
  ArrayRef a = array_from_py(one, t, "literal");
  return dsl::lit(array_get(*a, 0));
}

// pl.lit(value, dtype) of a date or datetime as Polars reads it: a date is midnight of the
// dtype's zone, a naive datetime that zone's local time, an aware datetime its instant (a
// naive dtype takes the value's zone), a datetime given a Date dtype its (local) date.
std::optional<ArrayRef> temporal_literal(nb::handle value, const DataType& t) {
  const bool to_datetime = t.id() == TypeId::Datetime, to_date = t.id() == TypeId::Date;
  if (!(to_datetime || to_date)) return std::nullopt;
  static const nb::object date_type = nb::module_::import_("datetime").attr("date");
  if (!nb::isinstance(value, date_type)) return std::nullopt;
  nb::list one;
  one.append(value);
  const DataType natural = infer_dtype(one, "literal");
  if (natural == t) return std::nullopt;
  ArrayRef a = array_from_py(one, natural, "literal");
  if (to_date) return compute::local_date(*a);
  if (natural.id() == TypeId::Date) {
    ArrayRef midnight = compute::cast(*a, DataType::datetime(t.time_unit()));
    if (!t.time_zone()) return midnight;
    return compute::from_local_clock(*midnight, *t.time_zone(), tz::Ambiguous::Raise, tz::NonExistent::Raise);
  }
  if (!natural.time_zone()) {
    ArrayRef local = compute::cast(*a, DataType::datetime(t.time_unit()));
    if (!t.time_zone()) return local;
    return compute::from_local_clock(*local, *t.time_zone(), tz::Ambiguous::Raise, tz::NonExistent::Raise);
  }
  return compute::cast(*a, DataType::datetime(t.time_unit(), t.time_zone() ? t.time_zone() : natural.time_zone()));
}

Expr lit_typed(nb::handle value, nb::handle dtype) {
  DataType t = dtype_from_py(dtype);
  if (auto temporal = temporal_literal(value, t)) return dsl::lit(array_get(**temporal, 0));
  nb::list one;
  one.append(value);
  ArrayRef a = array_from_py(one, t, "literal");
  return dsl::lit(array_get(*a, 0));
}

Expr lit_series(nb::handle values, nb::handle dtype) {
  DataType t = dtype.is_none() ? infer_dtype(values, "literal") : dtype_from_py(dtype);
  return dsl::lit_series(array_from_py(values, t, "literal"));
}

// collect(verify=...): None follows FRAZIL_VERIFY, a bool turns it off or on, "passes"
// also runs each optimization off in turn.
std::optional<VerifyMode> verify_from_py(nb::handle v) {
  if (v.is_none()) return std::nullopt;
  if (nb::isinstance<nb::bool_>(v)) return nb::cast<bool>(v) ? VerifyMode::Unoptimized : VerifyMode::Off;
  if (nb::isinstance<nb::str>(v) && nb::cast<std::string>(v) == "passes") return VerifyMode::EachPass;
  throw nb::value_error("verify must be True, False, None or 'passes'");
}

nb::list schema_to_py(const Schema& s) {
  nb::list out;
  for (const auto& f : s.fields()) out.append(nb::make_tuple(f.name, dtype_to_py(f.dtype)));
  return out;
}

// `expr` with every col(name) replaced by `with` (pl.element() is col("")).
Expr replace_column(const Expr& expr, const std::string& name, const Expr& with) {
  const dsl::ExprNode& n = expr.node();
  if (n.kind == dsl::ExprKind::Column && n.names.size() == 1 && n.names[0] == name) return with;
  if (n.inputs.empty()) return expr;
  dsl::ExprNode copy = n;
  bool changed = false;
  for (auto& in : copy.inputs) {
    Expr r = replace_column(in, name, with);
    changed |= &r.node() != &in.node();
    in = r;
  }
  return changed ? Expr::make(std::move(copy)) : expr;
}

}  // namespace

// The optimization flags of a Python dict (io_bindings.cpp uses them for sinks).
OptFlags flags_from_dict(const std::map<std::string, bool>& d) { return flags_from_py(d); }

void register_lazy(nb::module_& m) {
  nb::class_<Expr>(m, "PyExpr")
      .def("alias", &Expr::alias)
      .def("cast", [](const Expr& e, nb::handle dtype, bool strict) { return e.cast(dtype_from_py(dtype), strict); })
      .def("binary", [](const Expr& e, const std::string& op, const Expr& other) {
        return e.binary(operator_from_name(op), other);
      })
      .def("function",
           [](const Expr& e, const std::string& name, std::vector<Expr> extra, nb::kwargs kwargs) {
             Expr::Keywords keywords;
             for (auto [k, v] : kwargs) {
               std::string key = nb::cast<std::string>(k);
               keywords.emplace_back(key, arg_from_py(key, v));
             }
             return e.function(name, std::move(extra), std::move(keywords));
           },
           nb::arg("name"), nb::arg("extra") = std::vector<Expr>{}, nb::arg("kwargs"))
      .def("agg",
           [](const Expr& e, const std::string& name, int ddof, double q, std::string interpolation, bool ignore_nulls) {
             compute::AggOptions o;
             o.ddof = ddof;
             o.quantile = q;
             o.interpolation = std::move(interpolation);
             o.ignore_nulls = ignore_nulls;
             return e.agg(agg_from_name(name), std::move(o));
           },
           nb::arg("name"), nb::arg("ddof") = 1, nb::arg("q") = 0.5, nb::arg("interpolation") = "nearest",
           nb::arg("ignore_nulls") = true)
      .def("__neg__", [](const Expr& e) { return -e; })
      .def("quantile", &Expr::quantile)
      .def("sort", &Expr::sort)
      .def("sort_by",
           nb::overload_cast<std::vector<Expr>, std::vector<bool>, std::vector<bool>, bool>(&Expr::sort_by, nb::const_),
           nb::arg("by"), nb::arg("descending"), nb::arg("nulls_last"), nb::arg("maintain_order") = false)
      .def("filter", &Expr::filter)
      .def("over",
           [](const Expr& e, std::vector<Expr> partition_by, std::vector<Expr> order_by, bool descending,
              bool nulls_last, const std::string& mapping) {
             dsl::WindowMapping m = dsl::WindowMapping::GroupToRows;
             if (mapping == "join") m = dsl::WindowMapping::Join;
             else if (mapping == "explode") m = dsl::WindowMapping::Explode;
             else if (mapping != "group_to_rows")
               throw InvalidOperationError("`over`: mapping_strategy must be one of 'group_to_rows', 'join', "
                                           "'explode', got '" + mapping + "'");
             return e.over(std::move(partition_by), std::move(order_by), descending, nulls_last, m);
           },
           nb::arg("partition_by"), nb::arg("order_by") = std::vector<Expr>{}, nb::arg("descending") = false,
           nb::arg("nulls_last") = false, nb::arg("mapping") = "group_to_rows")
      .def("rolling", &Expr::rolling, nb::arg("index_column"), nb::arg("period"), nb::arg("offset") = "",
           nb::arg("closed") = "right")
      .def("exclude", &Expr::exclude)
      .def("is_between", &Expr::is_between)
      .def("replace_column", &replace_column)
      .def("to_string", &Expr::to_string)
      .def("__repr__", &Expr::to_string);

  m.def("col", &dsl::col);
  m.def("cols", &dsl::cols);
  m.def("all", &dsl::all);
  m.def("nth", &dsl::nth);
  m.def("len", &dsl::len);
  m.def("lit", &lit_from_py, nb::arg("value").none());
  m.def("lit_typed", &lit_typed, nb::arg("value").none(), nb::arg("dtype"));
  m.def("lit_series", &lit_series, nb::arg("values"), nb::arg("dtype") = nb::none());
  // A Series as a literal keeps its dtype and its values' buffers, and is named as the Series.
  m.def("lit_column", [](const Column& c) { return dsl::lit_series(c.as_array()).alias(c.name()); }, nb::arg("column"));
  m.def("coalesce", &dsl::coalesce);
  m.def("corr", &dsl::corr);
  m.def("spearman_corr", &dsl::spearman_corr);
  m.def("vstack", &vstack);
  // The registry's function names, for the Python side's checks and documentation.
  m.def("function_names", []() {
    std::vector<std::string> out;
    for (const auto* spec : functions::all()) out.push_back(spec->name);
    return out;
  });
  m.def("ternary", [](const Expr& p, const Expr& t, const Expr& f) { return dsl::when(p).then(t).otherwise(f); });
  m.def("set_trace", &plan::RewriteTrace::set_enabled);
  m.def("take_trace", []() {
    nb::list out;
    for (const auto& e : plan::RewriteTrace::take()) out.append(nb::make_tuple(e.rule, e.before, e.after));
    return out;
  });

  nb::class_<LazyGroupBy>(m, "PyLazyGroupBy")
      .def("agg", &LazyGroupBy::agg)
      .def("len", &LazyGroupBy::len);

  nb::class_<LazyFrame>(m, "PyLazyFrame")
      .def_static("from_frame", [](const DataFrame& df) { return LazyFrame::from_frame(df); })
      .def("select", &LazyFrame::select)
      .def("with_columns", &LazyFrame::with_columns)
      .def("filter", nb::overload_cast<const Expr&>(&LazyFrame::filter, nb::const_))
      .def("filter_all", nb::overload_cast<const std::vector<Expr>&>(&LazyFrame::filter, nb::const_))
      .def("sort",
           [](const LazyFrame& lf, std::vector<Expr> by, std::vector<bool> descending, std::vector<bool> nulls_last,
              bool maintain_order) {
             SortArgs a;
             a.descending = std::move(descending);
             a.nulls_last = std::move(nulls_last);
             a.maintain_order = maintain_order;
             return lf.sort(std::move(by), std::move(a));
           })
      .def("slice", &LazyFrame::slice, nb::arg("offset"), nb::arg("length") = nb::none())
      .def("group_by", &LazyFrame::group_by)
      .def("join",
           [](const LazyFrame& lf, const LazyFrame& other, std::vector<Expr> left_on, std::vector<Expr> right_on,
              const std::string& how, std::string suffix, std::optional<bool> coalesce) {
             JoinArgs a;
             a.how = join_type_from_name(how);
             a.suffix = std::move(suffix);
             a.coalesce = coalesce;
             return lf.join(other, std::move(left_on), std::move(right_on), std::move(a));
           })
      .def("join_asof",
           [](const LazyFrame& lf, const LazyFrame& other, Expr left_on, Expr right_on,
              std::vector<std::string> left_by, std::vector<std::string> right_by, const std::string& strategy,
              std::optional<double> tolerance, std::optional<std::string> tolerance_str, bool allow_exact_matches,
              bool check_sortedness, std::string suffix, bool coalesce) {
             dsl::AsofJoinOptions o;
             if (strategy == "backward") o.strategy = dsl::AsofStrategy::Backward;
             else if (strategy == "forward") o.strategy = dsl::AsofStrategy::Forward;
             else if (strategy == "nearest") o.strategy = dsl::AsofStrategy::Nearest;
             else throw InvalidOperationError("`strategy` must be one of 'backward', 'forward', 'nearest'");
             o.left_by = std::move(left_by);
             o.right_by = std::move(right_by);
             o.tolerance = tolerance;
             o.tolerance_str = std::move(tolerance_str);
             o.allow_exact_matches = allow_exact_matches;
             o.check_sortedness = check_sortedness;
             o.suffix = std::move(suffix);
             o.coalesce = coalesce;
             return lf.join_asof(other, std::move(left_on), std::move(right_on), std::move(o));
           })
      .def("merge_sorted", &LazyFrame::merge_sorted)
      .def("join_where", &LazyFrame::join_where)
      .def("unique", &LazyFrame::unique)
      .def("rename", &LazyFrame::rename)
      .def("drop", &LazyFrame::drop)
      .def("with_row_index", &LazyFrame::with_row_index)
      .def("explode",
           [](const LazyFrame& lf, std::vector<std::string> columns, bool empty_as_null, bool keep_nulls) {
             return lf.explode(std::move(columns), compute::ExplodeOptions{empty_as_null, keep_nulls});
           })
      .def("collect_schema", [](const LazyFrame& lf) { return schema_to_py(lf.collect_schema()); })
      .def("collect",
           [](const LazyFrame& lf, const std::map<std::string, bool>& flags, nb::handle verify) {
             CollectOptions options;
             options.flags = flags_from_py(flags);
             options.verify = verify_from_py(verify);
             take_warnings();  // none left from another query
             DataFrame out = run_interruptible([&](const std::shared_ptr<CancelToken>& token) {
               CollectOptions o = options;
               o.cancel = token;
               return lf.collect(o);
             });
             // What the query warned about, as Python warnings (an error when they are errors).
             for (const auto& w : take_warnings())
               if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) < 0) throw nb::python_error();
             return out;
           },
           nb::arg("flags"), nb::arg("verify").none() = nb::none())
      .def("profile",
           [](const LazyFrame& lf, const std::map<std::string, bool>& flags) {
             OptFlags f = flags_from_py(flags);
             nb::gil_scoped_release release;
             return lf.profile(f);
           })
      .def("explain", [](const LazyFrame& lf, bool optimized, const std::map<std::string, bool>& flags,
                         bool streaming_engine) {
        return lf.explain(optimized, flags_from_py(flags), streaming_engine);
      })
      .def("explain_physical",
           [](const LazyFrame& lf, const std::map<std::string, bool>& flags) {
             OptFlags f = flags_from_py(flags);
             nb::gil_scoped_release release;
             return lf.explain_physical(f);
           })
      .def("to_dot", [](const LazyFrame& lf, bool optimized, const std::map<std::string, bool>& flags) {
        return lf.to_dot(optimized, flags_from_py(flags));
      })
      .def("conversions", &LazyFrame::conversions)
      .def_static("concat", &concat, nb::arg("frames"), nb::arg("rechunk") = false);
}

}  // namespace frazil::py
