// Array functions: Polars' `arr` namespace, list.to_array and reshape. An Array is stored as a
// List whose valid rows hold `width` values (compute/array/layout.hpp), so most `arr.<name>`
// rows are the `list.<name>` row run on the root read as a List (zero copy); the functions
// that keep every row's length (sort, reverse, shift) give an Array of the root's width again.
#include "frazil/compute/array/dot.hpp"
#include "frazil/compute/array/layout.hpp"
#include "frazil/compute/array/reshape.hpp"
#include "frazil/compute/list/convert.hpp"
#include "frazil/compute/list/elements.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

// Polars' error for an arr function on another dtype.
void require_array_root(const CallTypes& c, const std::string&) {
  const DataType& t = c.inputs[0];
  if (t.id() != TypeId::Array && !t.is_null())
    throw InvalidOperationError(err_msg("expected Array datatype for array operation, got: ", t));
}

// The call's dtypes with an Array root read as a List.
std::vector<DataType> as_list_types(std::span<const DataType> inputs) {
  std::vector<DataType> v(inputs.begin(), inputs.end());
  if (!v.empty() && v[0].id() == TypeId::Array) v[0] = DataType::list(v[0].inner());
  return v;
}

// How an arr function's result relates to the list function's.
enum class Result : uint8_t {
  AsList,     // the list function's result (a reduction's value, a List of any length)
  SameArray,  // every row keeps its length: an Array of the root's dtype
};

// `arr.<name>` from the row `base` (of the list namespace, or `explode`).
FunctionSpec derived(const Registry& r, const std::string& name, const std::string& base_name, Result result) {
  const FunctionSpec& base = r.added(base_name);
  FunctionSpec s = base;
  s.name = "arr." + name;
  s.grouped_kernel = nullptr;
  s.segmented_kernel = nullptr;
  auto base_check = base.check;
  s.check = [name, base_check](const CallTypes& c) {
    require_array_root(c, name);
    if (!base_check) return;
    std::vector<DataType> lt = as_list_types(c.inputs);
    base_check(CallTypes{lt, c.args});
  };
  auto base_dtype = base.output_dtype;
  s.output_dtype = [base_dtype, result](const CallTypes& c) {
    if (result == Result::SameArray) return c.inputs[0];
    std::vector<DataType> lt = as_list_types(c.inputs);
    return base_dtype(CallTypes{lt, c.args});
  };
  auto base_kernel = base.kernel;
  s.kernel = [base_kernel, result](const Args& a) -> Kernel {
    return [k = base_kernel(a), result](std::span<const ArrayRef> in) {
      std::vector<ArrayRef> v(in.begin(), in.end());
      const DataType root = v[0]->dtype();
      if (root.id() == TypeId::Array) v[0] = compute::array_as_list(*v[0]);
      ArrayRef out = k(v);
      if (result == Result::SameArray && root.id() == TypeId::Array) return out->with_dtype(root);
      return out;
    };
  };
  return s;
}

// The window [start, start + width) of an array of width `w` that arr.head(n) / tail(n) /
// slice(offset, length) take (negative n: all but |n|; negative offset: from the end).
std::pair<int64_t, int64_t> window_of(const Args& a, int64_t w) {
  const std::string mode = a.get_string("mode");
  const int64_t n = a.get_int("offset");
  auto clamp = [w](int64_t v) { return std::max<int64_t>(0, std::min(v, w)); };
  if (mode == "head") {
    const int64_t len = clamp(n >= 0 ? n : w + n);
    return {0, len};
  }
  if (mode == "tail") {
    const int64_t len = clamp(n >= 0 ? n : w + n);
    return {w - len, len};
  }
  int64_t start = n >= 0 ? std::min(n, w) : w + n;
  int64_t length = a.get_optional_int("length").value_or(w);
  if (start < 0) {  // before the first value: the window shrinks
    length = std::max<int64_t>(0, length + start);
    start = 0;
  }
  return {start, std::max<int64_t>(0, std::min(length, w - start))};
}

// arr.eval / arr.agg: list.eval's row (an element expression over each array's values); eval
// gives an Array of the root's width unless as_list (the physical list_eval checks each length).
void register_eval(Registry& r) {
  for (const bool agg : {false, true}) {
    const std::string name = agg ? "agg" : "eval";
    FunctionSpec s = derived(r, name, "list." + name, Result::AsList);
    if (!agg) {
      s.params = {bool_param("as_list", false)};
      s.output_dtype = [](const CallTypes& c) {
        if (c.inputs.size() < 2 || !c.inputs[0].is_list_like()) return c.inputs[0];
        const DataType& per_list = c.inputs[1];
        if (c.args.get_bool("as_list") || c.inputs[0].id() != TypeId::Array)
          return per_list.id() == TypeId::List ? per_list : DataType::list(per_list);
        if (per_list.id() != TypeId::List)
          throw InvalidOperationError(
              "`array.eval` is not allowed with non-length preserving expressions. Enable `as_list` if you want to "
              "output a variable amount of items per row.");
        return DataType::array(per_list.inner(), c.inputs[0].width());
      };
    }
    r.add(std::move(s));
  }
}

void register_namespace(Registry& r) {
  for (const char* n : {"sort", "reverse", "shift"}) r.add(derived(r, n, std::string("list.") + n, Result::SameArray));
  for (const char* n : {"len", "get", "head", "tail", "slice", "unique", "sum", "mean", "min", "max", "median",
                        "std", "var", "n_unique", "any", "all", "arg_min", "arg_max", "contains", "count_matches",
                        "join"})
    r.add(derived(r, n, std::string("list.") + n, Result::AsList));
  r.add(derived(r, "explode", "explode", Result::AsList));
  {
    FunctionSpec s;
    s.name = "arr.to_list";
    s.null_if_null = input(0);
    s.check = [](const CallTypes& c) { require_array_root(c, "to_list"); };
    s.output_dtype = [](const CallTypes& c) {
      return c.inputs[0].id() == TypeId::Array ? DataType::list(c.inputs[0].inner()) : c.inputs[0];
    };
    s.kernel = unary([](const Array& a) {
      return a.dtype().id() == TypeId::Array ? compute::array_as_list(a) : a.slice(0, a.length());
    });
    r.add(std::move(s));
  }
  {
    // Fields field_0, field_1, ... (one per value) unless named.
    FunctionSpec s;
    s.name = "arr.to_struct";
    s.null_if_null = input(0);
    s.params = {string_list_param("fields")};
    s.check = [](const CallTypes& c) { require_array_root(c, "to_struct"); };
    auto names = [](const std::vector<std::string>& given, int64_t width) {
      if (!given.empty()) return given;
      std::vector<std::string> v;
      for (int64_t i = 0; i < width; ++i) v.push_back("field_" + std::to_string(i));
      return v;
    };
    s.output_dtype = [names](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      if (t.id() != TypeId::Array) return DataType::struct_({});
      std::vector<Field> fs;
      for (const std::string& f : names(c.args.get_string_list("fields"), t.width())) fs.push_back(Field{f, t.inner()});
      return DataType::struct_(std::move(fs));
    };
    s.kernel = [names](const Args& a) -> Kernel {
      return [names, given = a.get_string_list("fields")](std::span<const ArrayRef> in) {
        const Array& arr = *in[0];
        const int64_t w = arr.dtype().id() == TypeId::Array ? arr.dtype().width() : 0;
        ArrayRef list = arr.dtype().id() == TypeId::Array ? compute::array_as_list(arr) : in[0];
        return compute::list_to_struct(*list, names(given, w));
      };
    };
    r.add(std::move(s));
  }
  {
    // Sum of the products of two arrays' values (nulls skipped), row by row.
    FunctionSpec s;
    s.name = "arr.dot";
    s.min_inputs = s.max_inputs = 2;
    s.null_if_null = input(0) | input(1);
    s.check = [](const CallTypes& c) {
      require_array_root(c, "dot");
      compute::dot_dtype(c.inputs[0], c.inputs[1]);
    };
    s.output_dtype = [](const CallTypes& c) { return compute::dot_dtype(c.inputs[0], c.inputs[1]); };
    s.kernel = binary([](const Array& a, const Array& b) { return compute::array_dot(a, b); });
    r.add(std::move(s));
  }
  {
    // head/tail/slice with as_array: bounds known when the query is planned (Python ints), so
    // the result is an Array of the window's width. mode: what `n`/`offset` and `length` mean.
    FunctionSpec s;
    s.name = "arr.slice_as_array";
    s.null_if_null = input(0);
    s.params = {string_param("mode", "slice", {"slice", "head", "tail"}), int_param("offset", 0),
                optional_int_param("length")};
    s.check = [](const CallTypes& c) { require_array_root(c, "slice"); };
    s.output_dtype = [](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      if (t.id() != TypeId::Array) return t;
      auto [start, width] = window_of(c.args, t.width());
      (void)start;
      return DataType::array(t.inner(), width);
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [a](std::span<const ArrayRef> in) {
        const Array& x = *in[0];
        if (x.dtype().id() != TypeId::Array) return in[0];
        auto [start, width] = window_of(a, x.dtype().width());
        return compute::array_window(x, start, width);
      };
    };
    r.add(std::move(s));
  }
  register_eval(r);
}

void register_conversions(Registry& r) {
  {
    FunctionSpec s;
    s.name = "list.to_array";
    s.params = {int_param("width", 0)};
    s.null_if_null = input(0);
    s.fallible = true;
    s.check = [](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      if (!t.is_list_like() && !t.is_null())
        throw InvalidOperationError(err_msg("expected List data type for list operation, got: ", t));
      if (c.args.get_int("width") < 0) throw InvalidOperationError("`list.to_array` width cannot be negative");
    };
    s.output_dtype = [](const CallTypes& c) {
      const DataType& t = c.inputs[0];
      return DataType::array(t.is_list_like() ? t.inner() : DataType::null(), c.args.get_int("width"));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [w = a.get_int("width")](std::span<const ArrayRef> in) -> ArrayRef {
        const Array& x = *in[0];
        if (!x.dtype().is_list_like()) return make_null_array(DataType::array(DataType::null(), w), x.length());
        return compute::list_to_array(x, w);
      };
    };
    r.add(std::move(s));
  }
  {
    // Expr.reshape(dims): a flat column cut into rows of Arrays (one -1 dimension is
    // inferred); dims of one value flattens back.
    FunctionSpec s;
    s.name = "reshape";
    s.shape = Shape::Other;
    s.fallible = true;
    s.params = {int_list_param("dimensions")};
    s.check = [](const CallTypes& c) { compute::reshape_check(c.inputs[0], c.args.get_int_list("dimensions")); };
    s.output_dtype = [](const CallTypes& c) {
      return compute::reshape_dtype(c.inputs[0], c.args.get_int_list("dimensions"));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [dims = a.get_int_list("dimensions")](std::span<const ArrayRef> in) {
        return compute::reshape(*in[0], dims);
      };
    };
    r.add(std::move(s));
  }
}

// pl.concat_arr: row by row, the arrays (or single values: width 1) of every input one after
// the other, as one Array; a null array in any input makes the row null (a null value is a
// null element).
void register_concat_arr(Registry& r) {
  FunctionSpec s;
  s.name = "concat_arr";
  s.min_inputs = 1;
  s.max_inputs = SIZE_MAX;
  s.display_as_global = true;
  s.output_dtype = [](const CallTypes& c) {
    const DataType& first = c.inputs[0];
    const DataType leaf = first.id() == TypeId::Array ? first.inner() : first;
    int64_t width = 0;
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const DataType& t = c.inputs[i];
      const DataType& v = t.id() == TypeId::Array ? t.inner() : t;
      if (v != leaf)
        throw SchemaError(err_msg("concat_arr dtype mismatch: expected ", leaf.short_name(), " or array[",
                                  leaf.short_name(), "] dtype to match dtype of first input column (dtype: ",
                                  first.short_name(), "), got ", t.short_name(), " instead for input ", i));
      width += t.id() == TypeId::Array ? t.width() : 1;
    }
    return DataType::array(leaf, width);
  };
  s.kernel = [](const Args&) -> Kernel {
    return [](std::span<const ArrayRef> in) {
      std::vector<ArrayRef> lists;
      int64_t width = 0;
      for (const ArrayRef& a : in) {
        if (a->dtype().id() == TypeId::Array) {
          width += a->dtype().width();
          lists.push_back(compute::array_as_list(*a));
          continue;
        }
        // A value is an array of one (a null value: an array holding a null, as Polars).
        ++width;
        const int64_t m = a->length();
        Buffer off = Buffer::allocate(static_cast<size_t>(m + 1) * sizeof(int64_t));
        for (int64_t i = 0; i <= m; ++i) off.mutable_as<int64_t>()[i] = i;
        lists.push_back(Array::make(DataType::list(a->dtype()), m, Buffer(), {std::move(off)}, {a}, 0, 0));
      }
      ArrayRef out = compute::concat_list(lists);
      return out->with_dtype(DataType::array(out->dtype().inner(), width));
    };
  };
  r.add(std::move(s));
}

}  // namespace

void register_array_functions(Registry& r) {
  register_namespace(r);
  register_conversions(r);
  register_concat_arr(r);
}

}  // namespace frazil::functions
