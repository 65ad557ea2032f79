// Functions of positions: slice (head/tail with expressions), gather, gather_every, get,
// arg_min, arg_max, arg_sort, arg_unique, arg_true, search_sorted, top_k_by, bottom_k_by,
// min_by, max_by, sample, shuffle, extend_constant, append, repeat_by.
#include "frazil/compute/cast.hpp"
#include "frazil/compute/positions.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

// A one-row integer input read as a number (offsets, lengths, counts).
int64_t scalar_int(const Array& a, const char* fn, const char* what) {
  if (a.length() != 1)
    throw ComputeError(err_msg("invalid argument to ", fn, "; expected an ", what, " literal, got series of length ",
                               a.length()));
  if (!(a.dtype().is_integer() || a.dtype().is_null()))
    throw InvalidOperationError(err_msg(what, " must be integral for ", fn, " expression, not ", a.dtype().short_name()));
  if (a.is_null(0)) throw ComputeError(err_msg("invalid argument to ", fn, "; ", what, " is null"));
  // (Strict for 128-bit integers: a count past Int64 is an error naming the argument.)
  ArrayRef v = compute::cast(a, DataType::int64(), /*strict=*/a.dtype().is_128_bit_integer(), what);
  return v->values<int64_t>()[0];
}

FunctionSpec positional(std::string name, Shape shape) {
  FunctionSpec s;
  s.name = std::move(name);
  s.shape = shape;
  s.order_sensitive = true;
  s.output_dtype = same_as_root;
  return s;
}

void check_integer_input(const CallTypes& c, size_t i, const char* fn, const char* what) {
  if (i < c.inputs.size() && !(c.inputs[i].is_integer() || c.inputs[i].is_null()))
    throw InvalidOperationError(err_msg(what, " must be integral for ", fn, " expression, not ",
                                        c.inputs[i].short_name()));
}

// A UInt32 output (positions).
DataType positions_dtype(const CallTypes&) { return DataType::uint32(); }

std::optional<uint64_t> seed_of(const Args& a) {
  if (auto s = a.get_optional_int("seed")) return static_cast<uint64_t>(*s);
  return std::nullopt;
}

}  // namespace

void register_position_functions(Registry& r) {
  {
    // slice(offset, length): offset < 0 counts from the end; no length: to the end.
    FunctionSpec s = positional("slice", Shape::Other);
    s.min_inputs = 2;
    s.max_inputs = 3;
    s.check = [](const CallTypes& c) {
      check_integer_input(c, 1, "slice", "offset");
      check_integer_input(c, 2, "slice", "length");
    };
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) {
        const Array& x = *in[0];
        const int64_t off = scalar_int(*in[1], "slice", "offset");
        std::optional<int64_t> len;
        if (in.size() > 2) {
          len = scalar_int(*in[2], "slice", "length");
          if (*len < 0) throw ComputeError(err_msg("slice: the length must be non-negative, got ", *len));
        }
        return compute::slice_clamped(x, off, len);
      };
    };
    r.add(std::move(s));
  }
  {
    // gather(indices): one row per index (negative ones count from the end).
    FunctionSpec s = positional("gather", Shape::Other);
    s.min_inputs = s.max_inputs = 2;
    s.params = {bool_param("null_on_oob", false)};
    s.check = [](const CallTypes& c) { check_integer_input(c, 1, "gather", "indices"); };
    s.kernel = [](const Args& a) -> Kernel {
      return [oob = a.get_bool("null_on_oob")](std::span<const ArrayRef> in) {
        return compute::gather(*in[0], *in[1], oob);
      };
    };
    r.add(std::move(s));
  }
  {
    // get(index): one value.
    FunctionSpec s = positional("get", Shape::Reduction);
    s.min_inputs = s.max_inputs = 2;
    s.params = {bool_param("null_on_oob", false)};
    s.check = [](const CallTypes& c) { check_integer_input(c, 1, "get", "index"); };
    s.kernel = [](const Args& a) -> Kernel {
      return [oob = a.get_bool("null_on_oob")](std::span<const ArrayRef> in) {
        if (in[1]->length() != 1)
          throw ComputeError(err_msg("`get` expects one index, got ", in[1]->length()));
        return compute::gather(*in[0], *in[1], oob);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = positional("gather_every", Shape::Other);
    s.params = {int_param("n", 1), int_param("offset", 0)};
    s.kernel = [](const Args& a) -> Kernel {
      return [n = a.get_int("n"), off = a.get_int("offset")](std::span<const ArrayRef> in) {
        return compute::gather_every(*in[0], n, off);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = positional("arg_sort", Shape::LengthPreserving);
    s.params = {bool_param("descending", false), bool_param("nulls_last", false)};
    s.output_dtype = positions_dtype;
    s.segmented_kernel = [](const Args& a) -> SegmentedKernel {
      return [d = a.get_bool("descending"), nl = a.get_bool("nulls_last")](std::span<const ArrayRef> in,
                                                                           std::span<const int64_t> off) {
        return compute::arg_sort_segments(*in[0], off, d, nl);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = positional("arg_unique", Shape::Other);
    s.output_dtype = positions_dtype;
    s.kernel = unary(compute::arg_unique);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = positional("arg_true", Shape::Other);
    s.input_types = types::boolean;
    s.output_dtype = positions_dtype;
    s.kernel = unary(compute::arg_true);
    r.add(std::move(s));
  }
  {
    // search_sorted(element): one position per element.
    FunctionSpec s = positional("search_sorted", Shape::Other);
    s.min_inputs = s.max_inputs = 2;
    s.roles = {InputRole::Row, InputRole::Set};
    s.order_sensitive = true;
    s.params = {string_param("side", "any", {"any", "left", "right"}), bool_param("descending", false)};
    s.output_dtype = positions_dtype;
    s.kernel = [](const Args& a) -> Kernel {
      return [side = a.get_string("side"), d = a.get_bool("descending")](std::span<const ArrayRef> in) {
        return compute::search_sorted(*in[0], *in[1], side, d);
      };
    };
    r.add(std::move(s));
  }
  {
    // sample(n | fraction): rows drawn at random.
    FunctionSpec s = positional("sample", Shape::Other);
    s.nondeterministic = true;
    s.params = {optional_int_param("n"), optional_float_param("fraction"), bool_param("with_replacement", false),
                bool_param("shuffle", false), optional_int_param("seed")};
    s.kernel = [](const Args& a) -> Kernel {
      return [a](std::span<const ArrayRef> in) {
        const Array& x = *in[0];
        int64_t n = 1;
        if (auto k = a.get_optional_int("n")) n = *k;
        else if (auto f = a.get_optional_float("fraction")) n = static_cast<int64_t>(*f * static_cast<double>(x.length()));
        return compute::sample(x, n, a.get_bool("with_replacement"), a.get_bool("shuffle"), seed_of(a));
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = positional("shuffle", Shape::LengthPreserving);
    s.nondeterministic = true;
    s.params = {optional_int_param("seed")};
    s.segmented_kernel = [](const Args& a) -> SegmentedKernel {
      return [seed = seed_of(a)](std::span<const ArrayRef> in, std::span<const int64_t> off) {
        return compute::shuffle_segments(*in[0], off, seed);
      };
    };
    r.add(std::move(s));
  }
  {
    // extend_constant(value, n): the values then n copies of value.
    FunctionSpec s = positional("extend_constant", Shape::Other);
    s.min_inputs = s.max_inputs = 3;
    s.check = [](const CallTypes& c) { check_integer_input(c, 2, "extend_constant", "n"); };
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) {
        return compute::extend_constant(*in[0], *in[1], scalar_int(*in[2], "extend_constant", "n"));
      };
    };
    r.add(std::move(s));
  }
  {
    // append(other): the rows of both (cast to their supertype).
    FunctionSpec s = positional("append", Shape::Other);
    s.min_inputs = s.max_inputs = 2;
    s.coercion = Coercion::Supertype;
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) {
        ArrayRef b = in[1]->dtype() == in[0]->dtype() ? in[1] : compute::cast(*in[1], in[0]->dtype());
        return concat_arrays({in[0], b});
      };
    };
    s.output_dtype = [](const CallTypes& c) {
      auto t = get_supertype(c.inputs[0], c.inputs[1]);
      if (!t) throw SchemaError(err_msg("failed to determine supertype of ", c.inputs[0], " and ", c.inputs[1], " in append"));
      return *t;
    };
    r.add(std::move(s));
  }
  {
    // repeat_by(by): a list per row, the value by[i] times.
    FunctionSpec s;
    s.name = "repeat_by";
    s.min_inputs = s.max_inputs = 2;
    s.null_if_null = input(1);
    s.check = [](const CallTypes& c) { check_integer_input(c, 1, "repeat_by", "by"); };
    s.output_dtype = [](const CallTypes& c) { return DataType::list(c.inputs[0]); };
    s.kernel = binary(compute::repeat_by);
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
