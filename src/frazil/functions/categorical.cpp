// The `cat` namespace: string functions of Categorical/Enum columns computed once per
// category and gathered by code (compute/categorical), and the code conversions.
#include "frazil/compute/categorical/categorical.hpp"
#include "frazil/compute/string/match.hpp"
#include "frazil/compute/string/transform.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

inline constexpr TypeSet kCategorical = TypeSet::of({TypeId::Categorical, TypeId::Enum});

FunctionSpec cat_function(std::string name) {
  FunctionSpec s;
  s.name = "cat." + name;
  s.input_types = kCategorical;
  s.null_if_null = all_inputs;
  return s;
}

// A kernel running f on the strings of the root, per category.
template <typename F>
Kernel per_category_kernel(F f) {
  return [f](std::span<const ArrayRef> in) -> ArrayRef {
    if (!in[0]->dtype().is_categorical()) return f(*in[0]);  // a Null root
    return compute::per_category(*in[0], [&f](const Array& strings) { return f(strings); });
  };
}

}  // namespace

void register_categorical_functions(Registry& r) {
  for (const bool bytes : {true, false}) {
    FunctionSpec s = cat_function(bytes ? "len_bytes" : "len_chars");
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = [bytes](const Args&) -> Kernel {
      return per_category_kernel([bytes](const Array& v) {
        return bytes ? compute::str_len_bytes(v) : compute::str_len_chars(v);
      });
    };
    r.add(std::move(s));
  }
  for (const bool start : {true, false}) {
    FunctionSpec s = cat_function(start ? "starts_with" : "ends_with");
    s.params = {string_param(start ? "prefix" : "suffix", "")};
    s.output_dtype = boolean;
    s.kernel = [start](const Args& a) -> Kernel {
      std::string p = a.get_string(start ? "prefix" : "suffix");
      return per_category_kernel([start, p](const Array& v) {
        return start ? compute::str_starts_with(v, p) : compute::str_ends_with(v, p);
      });
    };
    r.add(std::move(s));
  }
  {
    // slice(offset, length): a String result, as Polars.
    FunctionSpec s = cat_function("slice");
    s.params = {int_param("offset", 0), optional_int_param("length")};
    s.output_dtype = fixed(DataType::string());
    s.kernel = [](const Args& a) -> Kernel {
      const int64_t off = a.get_int("offset");
      const std::optional<int64_t> len = a.get_optional_int("length");
      return per_category_kernel([off, len](const Array& v) { return compute::str_slice(v, off, len); });
    };
    r.add(std::move(s));
  }
  {
    // The codes: UInt32 for Categorical, the smallest of UInt8/16/32 holding an Enum's.
    FunctionSpec s = cat_function("physical");
    s.output_dtype = [](const CallTypes& c) {
      return c.inputs[0].is_categorical() ? compute::categorical_physical_dtype(c.inputs[0]) : DataType::uint32();
    };
    s.kernel = unary([](const Array& a) -> ArrayRef {
      if (!a.dtype().is_categorical()) return make_null_array(DataType::uint32(), a.length());
      return compute::categorical_physical(a);
    });
    r.add(std::move(s));
  }
  {
    // to(dtype, strict): integer codes (the physical type) -> Categorical/Enum.
    FunctionSpec s;
    s.name = "cat.to";
    s.input_types = types::integer;
    s.null_if_null = all_inputs;
    s.fallible = true;
    s.params = {dtype_param("dtype"), bool_param("strict", true)};
    s.check = [](const CallTypes& c) {
      std::optional<DataType> t = c.args.get_dtype("dtype");
      if (!t || !t->is_categorical()) throw InvalidOperationError("cat.to needs a Categorical or Enum dtype");
    };
    s.output_dtype = [](const CallTypes& c) { return c.args.get_dtype("dtype").value_or(DataType::categorical()); };
    s.kernel = [](const Args& a) -> Kernel {
      std::optional<DataType> t = a.get_dtype("dtype");
      if (!t || !t->is_categorical()) throw InvalidOperationError("cat.to needs a Categorical or Enum dtype");
      return [to = *t, strict = a.get_bool("strict")](std::span<const ArrayRef> in) {
        return compute::categorical_from_physical(*in[0], to, strict);
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
