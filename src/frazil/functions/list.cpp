// List functions: explode, Polars' `list` namespace (list.len, list.get, list.sum, ...) and
// pl.concat_list. Per-row arguments (an index, a slice's bounds, a separator, an item) are
// inputs after the root, so they may be expressions; flags are parameters.
#include "frazil/compute/cumulative.hpp"
#include "frazil/compute/explode.hpp"
#include "frazil/compute/list/aggregate.hpp"
#include "frazil/compute/list/convert.hpp"
#include "frazil/compute/list/elements.hpp"
#include "frazil/compute/list/order.hpp"
#include "frazil/compute/list/search.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

// The inner dtype of a List root (Null for a Null root).
DataType inner_of(const DataType& t) { return t.id() == TypeId::List ? t.inner() : DataType::null(); }
DataType inner_of_root(const CallTypes& c) { return inner_of(c.inputs[0]); }

// Polars' error for a list function on another dtype (an Array as Polars prints it there:
// Array(Int8, 2)).
void require_list_root(const CallTypes& c) {
  const DataType& t = c.inputs[0];
  if (t.id() == TypeId::Array)
    throw InvalidOperationError(
        err_msg("expected List data type for list operation, got: Array(", t.inner(), ", ", t.width(), ")"));
  if (t.id() != TypeId::List && !t.is_null())
    throw InvalidOperationError(err_msg("expected List data type for list operation, got: ", t));
}

// Polars' display of a list function: its inputs in brackets, `list.get([dyn int: 1])`.
std::string bracketed(std::span<const std::string> inputs, const Args&) {
  if (inputs.empty()) return "";
  std::string s = "[";
  for (size_t i = 0; i < inputs.size(); ++i) s += (i ? ", " : "") + inputs[i];
  return s + "]";
}

// A `list.<name>` function of a List root with `extra` row inputs after it.
FunctionSpec list_function(const std::string& name, size_t extra = 0) {
  FunctionSpec s;
  if (extra) s.format_args = bracketed;
  s.name = "list." + name;
  s.min_inputs = s.max_inputs = 1 + extra;
  s.null_if_null = input(0);
  s.check = require_list_root;
  s.output_dtype = same_as_root;
  return s;
}

// An argument input must be an integer (or null).
auto integer_inputs(size_t first, size_t last, const char* what) {
  return [=](const CallTypes& c) {
    require_list_root(c);
    for (size_t i = first; i <= last && i < c.inputs.size(); ++i)
      if (!c.inputs[i].is_integer() && !c.inputs[i].is_null())
        throw InvalidOperationError(err_msg("`", what, "` expects an integer argument, got ", c.inputs[i]));
  };
}

void register_elements(Registry& r) {
  {
    FunctionSpec s = list_function("len");
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = unary(compute::list_len);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("get", 1);
    s.params = {bool_param("null_on_oob", false)};
    s.null_if_null = input(0) | input(1);
    s.fallible = true;
    s.check = integer_inputs(1, 1, "list.get");
    s.output_dtype = inner_of_root;
    s.kernel = [](const Args& a) -> Kernel {
      return [oob = a.get_bool("null_on_oob")](std::span<const ArrayRef> in) {
        return compute::list_get(*in[0], *in[1], oob);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("gather", 1);
    s.params = {bool_param("null_on_oob", false)};
    s.null_if_null = input(0) | input(1);
    s.fallible = true;
    s.check = [](const CallTypes& c) {
      require_list_root(c);
      const DataType& t = c.inputs[1];
      if (t.id() == TypeId::List && !t.inner().is_integer() && !t.inner().is_null())
        throw InvalidOperationError(err_msg("list.gather operation not supported for dtypes `",
                                            c.inputs[0].short_name(), "` and `", t.short_name(), "`"));
      if (!t.is_null() && t.id() != TypeId::List)
        throw InvalidOperationError(err_msg("`list.gather` indices must be a list of integers, not a flat ",
                                            t.short_name(), ". Use `implode` to wrap the flat value into a list."));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [oob = a.get_bool("null_on_oob")](std::span<const ArrayRef> in) {
        return compute::list_gather(*in[0], *in[1], oob);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("gather_every", 2);
    s.fallible = true;
    s.check = integer_inputs(1, 2, "list.gather_every");
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) { return compute::list_gather_every(*in[0], *in[1], *in[2]); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("slice", 2);
    s.check = integer_inputs(1, 2, "list.slice");
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) { return compute::list_slice(*in[0], *in[1], *in[2]); };
    };
    r.add(std::move(s));
  }
  for (const bool head : {true, false}) {
    FunctionSpec s = list_function(head ? "head" : "tail", 1);
    s.check = integer_inputs(1, 1, head ? "list.head" : "list.tail");
    if (head) s.kernel = binary([](const Array& l, const Array& n) { return compute::list_head(l, n); });
    else s.kernel = binary([](const Array& l, const Array& n) { return compute::list_tail(l, n); });
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("shift", 1);
    s.check = integer_inputs(1, 1, "list.shift");
    s.kernel = binary([](const Array& l, const Array& n) { return compute::list_shift(l, n); });
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("reverse");
    s.kernel = unary(compute::list_reverse);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("drop_nulls");
    s.kernel = unary(compute::list_drop_nulls);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("diff");
    s.params = {int_param("n", 1), string_param("null_behavior", "ignore", {"ignore", "drop"})};
    s.output_dtype = [](const CallTypes& c) {
      const DataType in = inner_of(c.inputs[0]);
      return c.inputs[0].is_null() ? DataType::null() : DataType::list(compute::diff_dtype(in));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [n = a.get_int("n")](std::span<const ArrayRef> in) { return compute::list_diff(*in[0], n); };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "concat_list";
    s.min_inputs = 1;
    s.max_inputs = SIZE_MAX;
    s.display_as_global = true;
    s.output_dtype = [](const CallTypes& c) {
      DataType inner = DataType::null();
      for (const DataType& t : c.inputs) {
        const DataType& e = t.id() == TypeId::List ? t.inner() : t;
        auto st = get_supertype(inner, e);
        if (!st) throw SchemaError(err_msg("failed to determine supertype of ", inner, " and ", e, " in concat_list"));
        inner = *st;
      }
      return DataType::list(inner);
    };
    s.kernel = [](const Args&) -> Kernel { return [](std::span<const ArrayRef> in) { return compute::concat_list(in); }; };
    r.add(std::move(s));
  }
}

void register_reductions(Registry& r) {
  struct Agg {
    const char* name;
    compute::AggKind kind;
  };
  for (const Agg& g : {Agg{"sum", compute::AggKind::Sum}, Agg{"mean", compute::AggKind::Mean},
                       Agg{"min", compute::AggKind::Min}, Agg{"max", compute::AggKind::Max},
                       Agg{"median", compute::AggKind::Median}, Agg{"n_unique", compute::AggKind::NUnique},
                       Agg{"std", compute::AggKind::Std}, Agg{"var", compute::AggKind::Var},
                       Agg{"any", compute::AggKind::Any}, Agg{"all", compute::AggKind::All}}) {
    FunctionSpec s = list_function(g.name);
    const compute::AggKind kind = g.kind;
    const bool ddof = kind == compute::AggKind::Std || kind == compute::AggKind::Var;
    const bool boolean_agg = kind == compute::AggKind::Any || kind == compute::AggKind::All;
    if (ddof) s.params = {int_param("ddof", 1)};
    if (boolean_agg) s.params = {bool_param("ignore_nulls", true)};
    s.output_dtype = [kind](const CallTypes& c) {
      const DataType in = inner_of(c.inputs[0]);
      return in.is_null() && kind != compute::AggKind::NUnique ? in : compute::agg_result_dtype(kind, in);
    };
    s.kernel = [kind, ddof, boolean_agg](const Args& a) -> Kernel {
      compute::AggOptions o;
      if (ddof) o.ddof = static_cast<int>(a.get_int("ddof"));
      if (boolean_agg) o.ignore_nulls = a.get_bool("ignore_nulls");
      return [kind, o](std::span<const ArrayRef> in) { return compute::list_aggregate(kind, *in[0], o); };
    };
    r.add(std::move(s));
  }
  for (const bool mn : {true, false}) {
    FunctionSpec s = list_function(mn ? "arg_min" : "arg_max");
    const compute::StatKind kind = mn ? compute::StatKind::ArgMin : compute::StatKind::ArgMax;
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = [kind](const Args&) -> Kernel {
      return [kind](std::span<const ArrayRef> in) { return compute::list_reduce(kind, *in[0]); };
    };
    r.add(std::move(s));
  }
}

void register_conversions(Registry& r) {
  {
    FunctionSpec s = list_function("to_struct");
    s.params = {string_list_param("fields")};
    s.output_dtype = [](const CallTypes& c) {
      std::vector<Field> fs;
      for (const std::string& f : c.args.get_string_list("fields")) fs.push_back(Field{f, inner_of(c.inputs[0])});
      return DataType::struct_(std::move(fs));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [fields = a.get_string_list("fields")](std::span<const ArrayRef> in) {
        return compute::list_to_struct(*in[0], fields);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("item");
    s.params = {bool_param("allow_empty", false)};
    s.fallible = true;
    s.output_dtype = inner_of_root;
    s.kernel = [](const Args& a) -> Kernel {
      return [e = a.get_bool("allow_empty")](std::span<const ArrayRef> in) { return compute::list_item(*in[0], e); };
    };
    r.add(std::move(s));
  }
  for (const bool fraction : {false, true}) {
    FunctionSpec s = list_function(fraction ? "sample_fraction" : "sample_n", 1);
    s.params = {bool_param("with_replacement", false), bool_param("shuffle", false), optional_int_param("seed")};
    s.nondeterministic = true;
    s.fallible = true;
    s.kernel = [fraction](const Args& a) -> Kernel {
      std::optional<uint64_t> seed;
      if (auto v = a.get_optional_int("seed")) seed = static_cast<uint64_t>(*v);
      return [fraction, wr = a.get_bool("with_replacement"), sh = a.get_bool("shuffle"),
              seed](std::span<const ArrayRef> in) {
        return compute::list_sample(*in[0], *in[1], fraction, wr, sh, seed);
      };
    };
    r.add(std::move(s));
  }
}

// list.eval and list.agg: an expression over each list's elements. Input 1's dtype is what
// the expression gives per list (plan/aexpr.cpp derives it over the root's elements): T for a
// reduction, List(T) otherwise. eval always gives a list per list, agg a reduction's value.
void register_eval(Registry& r) {
  for (const bool agg : {false, true}) {
    FunctionSpec s = list_function(agg ? "agg" : "eval", 1);
    s.roles = {InputRole::Row, InputRole::Element};
    s.output_dtype = [agg](const CallTypes& c) {
      if (c.inputs.size() < 2) return c.inputs[0];
      const DataType& per_list = c.inputs[1];
      return agg || per_list.id() == TypeId::List ? per_list : DataType::list(per_list);
    };
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef>) -> ArrayRef {
        throw InternalError("list.eval runs through its element expression (physical/expressions/list_eval.cpp)");
      };
    };
    r.add(std::move(s));
  }
}

void register_order_and_search(Registry& r) {
  {
    FunctionSpec s = list_function("sort");
    s.params = {bool_param("descending", false), bool_param("nulls_last", false)};
    s.kernel = [](const Args& a) -> Kernel {
      return [d = a.get_bool("descending"), nl = a.get_bool("nulls_last")](std::span<const ArrayRef> in) {
        return compute::list_sort(*in[0], d, nl);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("unique");
    s.params = {bool_param("maintain_order", false)};
    s.kernel = unary(compute::list_unique);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("contains", 1);
    s.params = {bool_param("nulls_equal", true)};
    s.output_dtype = boolean;
    s.kernel = [](const Args& a) -> Kernel {
      return [ne = a.get_bool("nulls_equal")](std::span<const ArrayRef> in) {
        return compute::list_contains(*in[0], *in[1], ne);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("count_matches", 1);
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = binary(compute::list_count_matches);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = list_function("join", 1);
    s.params = {bool_param("ignore_nulls", true)};
    s.null_if_null = input(0) | input(1);
    s.output_dtype = fixed(DataType::string());
    s.check = [](const CallTypes& c) {
      require_list_root(c);
      const DataType in = inner_of(c.inputs[0]);
      if (!in.is_string() && !in.is_null())
        throw InvalidOperationError(err_msg("list.join operation not supported for dtype `", c.inputs[0].short_name(), "`"));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [ign = a.get_bool("ignore_nulls")](std::span<const ArrayRef> in) {
        return compute::list_join(*in[0], *in[1], ign);
      };
    };
    r.add(std::move(s));
  }
  struct Set {
    const char* name;
    compute::SetOp op;
  };
  for (const Set& st : {Set{"set_union", compute::SetOp::Union}, Set{"set_intersection", compute::SetOp::Intersection},
                        Set{"set_difference", compute::SetOp::Difference},
                        Set{"set_symmetric_difference", compute::SetOp::SymmetricDifference}}) {
    FunctionSpec s = list_function(st.name, 1);
    s.null_if_null = input(0) | input(1);
    s.output_dtype = [](const CallTypes& c) {
      if (c.inputs[0].is_null()) return c.inputs[1];
      if (c.inputs[1].id() != TypeId::List) return c.inputs[0];
      auto t = get_supertype(c.inputs[0].inner(), c.inputs[1].inner());
      if (!t) throw SchemaError(err_msg("failed to determine supertype of ", c.inputs[0], " and ", c.inputs[1]));
      return DataType::list(*t);
    };
    s.kernel = [op = st.op](const Args&) -> Kernel {
      return [op](std::span<const ArrayRef> in) { return compute::list_set_operation(op, *in[0], *in[1]); };
    };
    r.add(std::move(s));
  }
}

}  // namespace

void register_list_functions(Registry& r) {
  {
    FunctionSpec s;
    s.name = "explode";  // one row per list element
    s.shape = Shape::Other;
    s.order_sensitive = false;  // each list's elements follow in the list's order
    s.params = {bool_param("empty_as_null", false), bool_param("keep_nulls", true)};
    // A non-list is left as it is (as Polars does).
    s.output_dtype = [](const CallTypes& c) { return c.inputs[0].is_list_like() ? c.inputs[0].inner() : c.inputs[0]; };
    s.kernel = [](const Args& a) -> Kernel {
      return [opts = compute::ExplodeOptions{a.get_bool("empty_as_null"), a.get_bool("keep_nulls")}](
                 std::span<const ArrayRef> in) {
        return in[0]->dtype().is_list_like() ? compute::explode(*in[0], opts) : in[0];
      };
    };
    s.format_args = [](std::span<const std::string>, const Args&) { return std::string(); };
    r.add(std::move(s));
  }
  register_elements(r);
  register_reductions(r);
  register_order_and_search(r);
  register_eval(r);
  register_conversions(r);
}

}  // namespace frazil::functions
