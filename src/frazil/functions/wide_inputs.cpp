#include "frazil/functions/wide_inputs.hpp"

#include <vector>

#include "frazil/compute/cast.hpp"

namespace frazil::functions {

namespace {

bool is_wide_int(const DataType& t) { return t.is_128_bit_integer(); }
bool is_float16(const DataType& t) { return t.id() == TypeId::Float16; }

// A dtype rule and kernels that see `from` inputs as `to`; `back`: a result of dtype `to`
// becomes `from` again (when some input was `from`).
template <typename Pred>
FunctionSpec through(FunctionSpec s, Pred is_from, DataType to, bool back) {
  const TypeId from_ids[] = {TypeId::Float16, TypeId::Int128, TypeId::UInt128};
  for (TypeId id : from_ids)
    if (is_from(DataType(id))) s.input_types = s.input_types | TypeSet::of({id});
  auto map_types = [is_from, to](std::span<const DataType> in, DataType* from_seen) {
    std::vector<DataType> out(in.begin(), in.end());
    for (DataType& t : out)
      if (is_from(t)) {
        *from_seen = t;
        t = to;
      }
    return out;
  };
  s.output_dtype = [rule = std::move(s.output_dtype), map_types, to, back](const CallTypes& c) {
    DataType seen = DataType::null();
    const std::vector<DataType> mapped = map_types(c.inputs, &seen);
    DataType t = rule(CallTypes{mapped, c.args});
    return back && !seen.is_null() && t == to ? seen : t;
  };
  if (s.check)
    s.check = [check = std::move(s.check), map_types](const CallTypes& c) {
      DataType seen = DataType::null();
      const std::vector<DataType> mapped = map_types(c.inputs, &seen);
      check(CallTypes{mapped, c.args});
    };
  // The inputs cast, and the dtype a `to` result goes back to (null: none).
  auto cast_inputs = [is_from, to, back](std::span<const ArrayRef> in, DataType* back_to) {
    std::vector<ArrayRef> out(in.begin(), in.end());
    for (ArrayRef& a : out)
      if (is_from(a->dtype())) {
        if (back) *back_to = a->dtype();
        a = compute::cast(*a, to, /*strict=*/false);
      }
    return out;
  };
  auto result = [to](ArrayRef r, const DataType& back_to) {
    return !back_to.is_null() && r->dtype() == to ? compute::cast(*r, back_to, /*strict=*/false) : r;
  };
  // (A row with only a segmented kernel gets its kernel from it in Registry::add.)
  if (s.kernel)
    s.kernel = [make = std::move(s.kernel), cast_inputs, result](const Args& a) -> Kernel {
    return [k = make(a), cast_inputs, result](std::span<const ArrayRef> in) {
      DataType back_to = DataType::null();
      const std::vector<ArrayRef> cast = cast_inputs(in, &back_to);
      return result(k(cast), back_to);
    };
  };
  if (s.grouped_kernel)
    s.grouped_kernel = [make = std::move(s.grouped_kernel), cast_inputs, result](const Args& a) -> GroupedKernel {
      return [k = make(a), cast_inputs, result](std::span<const ArrayRef> in, const compute::Groups& g) {
        DataType back_to = DataType::null();
        const std::vector<ArrayRef> cast = cast_inputs(in, &back_to);
        return result(k(cast, g), back_to);
      };
    };
  if (s.segmented_kernel)
    s.segmented_kernel = [make = std::move(s.segmented_kernel), cast_inputs,
                          result](const Args& a) -> SegmentedKernel {
      return [k = make(a), cast_inputs, result](std::span<const ArrayRef> in, std::span<const int64_t> offsets) {
        DataType back_to = DataType::null();
        const std::vector<ArrayRef> cast = cast_inputs(in, &back_to);
        return result(k(cast, offsets), back_to);
      };
    };
  return s;
}

}  // namespace

FunctionSpec float16_through_float32(FunctionSpec s) {
  return through(std::move(s), is_float16, DataType::float32(), /*back=*/true);
}

FunctionSpec wide_ints_as_float64(FunctionSpec s) {
  return through(std::move(s), is_wide_int, DataType::float64(), /*back=*/false);
}

FunctionSpec float16_and_wide_ints(FunctionSpec s) { return float16_through_float32(wide_ints_as_float64(std::move(s))); }

}  // namespace frazil::functions
