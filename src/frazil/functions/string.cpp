// String functions (Polars' `str` namespace).
#include "frazil/compute/string.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

// A function of a String root; `matcher`s report another dtype as an unsupported
// operation, the others as a schema error, as Polars does.
FunctionSpec string_function(std::string name, bool matcher = false) {
  FunctionSpec s;
  s.name = "str." + name;
  s.input_types = types::string;
  s.type_error = matcher ? TypeErrorStyle::NotSupported : TypeErrorStyle::ExpectedString;
  s.null_if_null = input(0);
  s.output_dtype = same_as_root;
  return s;
}

// A matcher's display: str.contains(["pattern"]).
auto quoted(const char* param) {
  return [param](std::span<const std::string>, const Args& a) { return "[\"" + a.get_string(param) + "\"]"; };
}

}  // namespace

void register_string_functions(Registry& r) {
  {
    FunctionSpec s = string_function("contains", true);
    s.params = {string_param("pattern", ""), bool_param("literal", false)};
    s.output_dtype = boolean;
    s.kernel = [](const Args& a) -> Kernel {
      return [p = a.get_string("pattern"), lit = a.get_bool("literal")](std::span<const ArrayRef> in) {
        return compute::str_contains(*in[0], p, lit);
      };
    };
    s.selectivity = [](std::span<const double>) { return 0.2; };
    s.format_args = quoted("pattern");
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("starts_with", true);
    s.params = {string_param("prefix", "")};
    s.output_dtype = boolean;
    s.kernel = [](const Args& a) -> Kernel {
      return [p = a.get_string("prefix")](std::span<const ArrayRef> in) { return compute::str_starts_with(*in[0], p); };
    };
    s.selectivity = [](std::span<const double>) { return 0.2; };
    s.format_args = quoted("prefix");
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("ends_with", true);
    s.params = {string_param("suffix", "")};
    s.output_dtype = boolean;
    s.kernel = [](const Args& a) -> Kernel {
      return [p = a.get_string("suffix")](std::span<const ArrayRef> in) { return compute::str_ends_with(*in[0], p); };
    };
    s.selectivity = [](std::span<const double>) { return 0.2; };
    s.format_args = quoted("suffix");
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("slice");
    s.params = {int_param("offset", 0), optional_int_param("length")};
    s.kernel = [](const Args& a) -> Kernel {
      return [off = a.get_int("offset"), len = a.get_optional_int("length")](std::span<const ArrayRef> in) {
        return compute::str_slice(*in[0], off, len);
      };
    };
    s.format_args = [](std::span<const std::string>, const Args& a) {
      auto len = a.get_optional_int("length");
      return std::to_string(a.get_int("offset")) + ", " + (len ? std::to_string(*len) : "null");
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("len_bytes");
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = unary(compute::str_len_bytes);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("len_chars");
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = unary(compute::str_len_chars);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("to_uppercase");
    s.kernel = unary(compute::str_to_uppercase);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("to_lowercase");
    s.kernel = unary(compute::str_to_lowercase);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = string_function("strip_chars");
    s.params = {optional_string_param("characters")};  // None: whitespace
    s.kernel = [](const Args& a) -> Kernel {
      return [chars = a.get_optional_string("characters")](std::span<const ArrayRef> in) {
        return compute::str_strip_chars(*in[0], chars);
      };
    };
    r.add(std::move(s));
  }
  for (const bool all : {false, true}) {
    FunctionSpec s = string_function(all ? "replace_all" : "replace", true);
    s.params = {string_param("pattern", ""), string_param("value", ""), bool_param("literal", false)};
    s.kernel = [all](const Args& a) -> Kernel {
      return [p = a.get_string("pattern"), v = a.get_string("value"), lit = a.get_bool("literal"),
              all](std::span<const ArrayRef> in) { return compute::str_replace(*in[0], p, v, lit, all); };
    };
    s.format_args = [](std::span<const std::string>, const Args&) { return std::string(); };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
