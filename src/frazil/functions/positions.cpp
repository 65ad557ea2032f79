// Functions of positions: slice (head/tail with expressions), gather, gather_every, get,
// arg_min, arg_max, arg_sort, arg_unique, arg_true, search_sorted, top_k_by, bottom_k_by,
// min_by, max_by, sample, shuffle, extend_constant, append, repeat_by.
#include "frazil/compute/cast.hpp"
#include "frazil/compute/positions.hpp"
#include "frazil/compute/selection.hpp"
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
  ArrayRef v = compute::cast(a, DataType::int64(), /*strict=*/false);
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
}

}  // namespace frazil::functions
