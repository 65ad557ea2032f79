// The `bin` namespace: bin.contains, starts_with, ends_with, size, slice, head, tail, get,
// encode, decode, reinterpret (byte-level kernels in compute/binary/).
#include "frazil/compute/binary/binary.hpp"
#include "frazil/compute/string/convert.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

constexpr TypeSet binary_type = TypeSet::of({TypeId::Binary});

FunctionSpec binary_row(std::string name, size_t inputs) {
  FunctionSpec s;
  s.name = std::move(name);
  s.min_inputs = s.max_inputs = inputs;
  s.input_types = binary_type;
  s.type_error = TypeErrorStyle::ExpectedString;  // SchemaError: expected `Binary`
  s.null_if_null = all_inputs;
  return s;
}

FunctionSpec matcher(std::string name, ArrayRef (*kernel)(const Array&, const Array&)) {
  FunctionSpec s = binary_row(std::move(name), 2);
  s.output_dtype = boolean;
  s.null_or_false_if_null = all_inputs;
  s.kernel = binary(kernel);
  return s;
}

FunctionSpec window(std::string name, ArrayRef (*kernel)(const Array&, const Array&)) {
  FunctionSpec s = binary_row(std::move(name), 2);
  s.output_dtype = fixed(DataType::binary());
  s.kernel = binary(kernel);
  return s;
}

}  // namespace

void register_binary_functions(Registry& r) {
  r.add(matcher("bin.contains", compute::bin_contains));
  r.add(matcher("bin.starts_with", compute::bin_starts_with));
  r.add(matcher("bin.ends_with", compute::bin_ends_with));
  {
    FunctionSpec s = binary_row("bin.size", 1);
    s.params = {string_param("unit", "b", {"b", "kb", "mb", "gb", "tb"})};
    s.output_dtype = [](const CallTypes& c) {
      return c.args.get_string("unit") == "b" ? DataType::uint32() : DataType::float64();
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [unit = a.get_string("unit")](std::span<const ArrayRef> in) { return compute::bin_size(*in[0], unit); };
    };
    r.add(std::move(s));
  }
  {
    // slice(offset, length): a null length is "to the end" (the Python layer passes a
    // typed null for length=None), a null in a per-row length gives a null row.
    FunctionSpec s = binary_row("bin.slice", 3);
    s.null_if_null = input(0) | input(1);
    s.output_dtype = fixed(DataType::binary());
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) { return compute::bin_slice(*in[0], *in[1], *in[2]); };
    };
    r.add(std::move(s));
  }
  r.add(window("bin.head", compute::bin_head));
  r.add(window("bin.tail", compute::bin_tail));
  {
    FunctionSpec s = binary_row("bin.get", 2);
    s.params = {bool_param("null_on_oob", false)};
    s.fallible = true;
    s.output_dtype = fixed(DataType::uint8());
    s.kernel = [](const Args& a) -> Kernel {
      return [oob = a.get_bool("null_on_oob")](std::span<const ArrayRef> in) {
        return compute::bin_get(*in[0], *in[1], oob);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = binary_row("bin.encode", 1);
    s.params = {string_param("encoding", "hex", {"hex", "base64"})};
    s.output_dtype = fixed(DataType::string());
    s.kernel = [](const Args& a) -> Kernel {
      return [enc = a.get_string("encoding")](std::span<const ArrayRef> in) {
        // Binary and String share their layout: the String kernel reads the bytes.
        return compute::str_encode(*in[0]->with_dtype(in[0]->dtype().is_null() ? DataType::null() : DataType::string()), enc);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = binary_row("bin.decode", 1);
    s.params = {string_param("encoding", "hex", {"hex", "base64"}), bool_param("strict", true)};
    s.fallible = true;
    s.output_dtype = fixed(DataType::binary());
    s.kernel = [](const Args& a) -> Kernel {
      return [enc = a.get_string("encoding"), strict = a.get_bool("strict")](std::span<const ArrayRef> in) {
        return compute::str_decode(*in[0]->with_dtype(in[0]->dtype().is_null() ? DataType::null() : DataType::string()),
                                   enc, strict);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = binary_row("bin.reinterpret", 1);
    s.params = {dtype_param("dtype"), string_param("endianness", "little", {"little", "big"})};
    s.check = [](const CallTypes& c) {
      auto t = c.args.get_dtype("dtype");
      if (!t) throw InvalidOperationError("bin.reinterpret: a dtype is needed");
      compute::check_reinterpret_dtype(*t);
    };
    s.output_dtype = [](const CallTypes& c) { return c.args.get_dtype("dtype").value_or(DataType::int64()); };
    s.kernel = [](const Args& a) -> Kernel {
      return [t = a.get_dtype("dtype").value_or(DataType::int64()),
              little = a.get_string("endianness") == "little"](std::span<const ArrayRef> in) {
        return compute::bin_reinterpret(*in[0], t, little);
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
