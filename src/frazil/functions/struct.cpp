// Struct functions: as_struct (pl.struct), struct.field, struct.rename_fields,
// struct.json_encode, struct.with_fields, struct.eval, name.prefix_fields / name.suffix_fields,
// name.map_fields (a registered callable from the field names to new ones).
// Field names that come from the inputs' output names are bound at conversion (bind_names).
#include <algorithm>

#include "frazil/compute/struct/struct.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/functions/udf.hpp"

namespace frazil::functions {

using namespace define;

namespace {

constexpr TypeSet struct_type = TypeSet::of({TypeId::Struct});

// The bound names of `count` inputs; before binding (a call not yet converted), field_<i>.
std::vector<std::string> bound_names(const Args& a, size_t count) {
  std::vector<std::string> names = a.get_string_list("names");
  if (names.size() == count) return names;
  names.clear();
  for (size_t i = 0; i < count; ++i) names.push_back("field_" + std::to_string(i));
  return names;
}

std::vector<std::string> renamed(const DataType& t, const std::string& prefix, const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& f : t.fields()) out.push_back(prefix + f.name + suffix);
  return out;
}

DataType with_names(const DataType& t, const std::vector<std::string>& names) {
  std::vector<Field> fields;
  for (size_t i = 0; i < t.fields().size() && i < names.size(); ++i) fields.push_back({names[i], t.fields()[i].dtype});
  return DataType::struct_(std::move(fields));
}

// The position of field `index` (negative from the end); ColumnNotFoundError out of bounds.
size_t field_position(const DataType& t, int64_t index) {
  const int64_t n = static_cast<int64_t>(t.fields().size());
  const int64_t i = index < 0 ? index + n : index;
  if (i < 0 || i >= n)
    throw ColumnNotFoundError(err_msg("struct field index ", index, " is out of bounds for a struct of ", n, " fields"));
  return static_cast<size_t>(i);
}

// The struct dtype without the fields named in `drop`, and the positions of those kept.
std::pair<DataType, std::vector<size_t>> kept_fields(const DataType& t, const std::vector<std::string>& drop) {
  std::vector<Field> fields;
  std::vector<size_t> keep;
  for (size_t i = 0; i < t.fields().size(); ++i) {
    if (std::find(drop.begin(), drop.end(), t.fields()[i].name) != drop.end()) continue;
    fields.push_back(t.fields()[i]);
    keep.push_back(i);
  }
  return {DataType::struct_(std::move(fields)), std::move(keep)};
}

FunctionSpec affix_fields(std::string name, bool is_prefix) {
  FunctionSpec s;
  s.name = std::move(name);
  const std::string param = is_prefix ? "prefix" : "suffix";
  s.params = {string_param(param, "")};
  s.input_types = struct_type;
  s.null_if_null = input(0);
  auto names = [param, is_prefix](const DataType& t, const Args& a) {
    return is_prefix ? renamed(t, a.get_string(param), "") : renamed(t, "", a.get_string(param));
  };
  s.output_dtype = [names](const CallTypes& c) { return with_names(c.inputs[0], names(c.inputs[0], c.args)); };
  s.kernel = [names](const Args& a) -> Kernel {
    return [a, names](std::span<const ArrayRef> in) {
      return compute::struct_rename_fields(*in[0], names(in[0]->dtype(), a));
    };
  };
  s.format_args = [](std::span<const std::string>, const Args&) { return std::string(); };
  return s;
}

// The field names of `t` through callable `id` (a String array in, one of equal length out).
std::vector<std::string> mapped_field_names(const DataType& t, int64_t id) {
  if (t.id() != TypeId::Struct)
    throw InvalidOperationError(err_msg("name.map_fields operation not supported for dtype `", t, "` (expected: Struct)"));
  ViewBuilder names;
  for (const auto& f : t.fields()) names.push(f.name);
  const ArrayRef in = names.finish();
  ArrayRef out;
  try {
    out = call_udf(id, std::span<const ArrayRef>(&in, 1));
  } catch (const Error& e) {
    throw ComputeError(err_msg("'name.map_fields' produced an error: ", e.what()));
  }
  if (out->dtype().id() != TypeId::String || out->length() != in->length() || out->null_count() > 0)
    throw ComputeError("'name.map_fields': the function must map each field name to a str");
  std::vector<std::string> renamed;
  for (int64_t i = 0; i < out->length(); ++i) {
    renamed.emplace_back(out->str_value(i));
    if (std::find(renamed.begin(), renamed.end() - 1, renamed.back()) != renamed.end() - 1)
      throw DuplicateError(err_msg("multiple fields with name '", renamed.back(), "' found"));
  }
  return renamed;
}

// with_fields(exprs) / eval(exprs): the root struct with the inputs after it as fields (by
// their output names, bound at conversion), added to its own fields or alone.
FunctionSpec rebuilt_struct(std::string name, compute::StructFieldsBase base) {
  FunctionSpec s;
  s.name = std::move(name);
  s.min_inputs = 1;
  s.max_inputs = SIZE_MAX;
  s.expand_inputs = true;
  s.input_types = struct_type;
  s.params = {string_list_param("names")};
  s.bind_names = [](const Args& a, std::span<const std::string> names) {
    return a.with("names", std::vector<std::string>(names.begin() + (names.empty() ? 0 : 1), names.end()));
  };
  s.output_dtype = [base](const CallTypes& c) {
    return compute::struct_with_fields_dtype(c.inputs[0], bound_names(c.args, c.inputs.size() - 1),
                                             c.inputs.subspan(1), base);
  };
  s.kernel = [base](const Args& a) -> Kernel {
    return [a, base](std::span<const ArrayRef> in) {
      return compute::struct_with_fields(*in[0], bound_names(a, in.size() - 1), in.subspan(1), base);
    };
  };
  s.format_args = [](std::span<const std::string> inputs, const Args&) {
    std::string out;
    for (size_t i = 0; i < inputs.size(); ++i) out += (i ? ", " : "") + inputs[i];
    return "[" + out + "]";
  };
  return s;
}

}  // namespace

void register_struct_functions(Registry& r) {
  {
    FunctionSpec s;
    s.name = "as_struct";
    s.min_inputs = 1;
    s.max_inputs = SIZE_MAX;
    s.expand_inputs = true;
    s.display_as_global = true;
    s.params = {string_list_param("names")};
    s.bind_names = [](const Args& a, std::span<const std::string> names) {
      return a.with("names", std::vector<std::string>(names.begin(), names.end()));
    };
    s.check = [](const CallTypes& c) {
      auto names = bound_names(c.args, c.inputs.size());
      for (size_t i = 0; i < names.size(); ++i)
        for (size_t j = 0; j < i; ++j)
          if (names[i] == names[j]) throw DuplicateError(err_msg("multiple fields with name '", names[i], "' found"));
    };
    s.output_dtype = [](const CallTypes& c) {
      auto names = bound_names(c.args, c.inputs.size());
      std::vector<Field> fields;
      for (size_t i = 0; i < c.inputs.size(); ++i) fields.push_back({names[i], c.inputs[i]});
      return DataType::struct_(std::move(fields));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [a](std::span<const ArrayRef> in) {
        return compute::struct_from_fields(bound_names(a, in.size()), in);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "struct.field";
    s.params = {string_param("name", "")};
    s.input_types = struct_type;
    s.null_if_null = input(0);
    s.output_dtype = [](const CallTypes& c) {
      const auto& t = c.inputs[0];
      if (t.is_null()) return DataType::null();
      return t.fields()[compute::struct_field_index(t, c.args.get_string("name"))].dtype;
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [name = a.get_string("name")](std::span<const ArrayRef> in) {
        if (in[0]->dtype().is_null()) return in[0];
        return compute::struct_field(*in[0], compute::struct_field_index(in[0]->dtype(), name));
      };
    };
    s.format_args = [](std::span<const std::string>, const Args& a) { return a.get_string("name"); };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "struct.rename_fields";
    s.params = {string_list_param("names")};
    s.input_types = struct_type;
    s.null_if_null = input(0);
    s.output_dtype = [](const CallTypes& c) { return with_names(c.inputs[0], c.args.get_string_list("names")); };
    s.kernel = [](const Args& a) -> Kernel {
      return [names = a.get_string_list("names")](std::span<const ArrayRef> in) {
        return compute::struct_rename_fields(*in[0], names);
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "struct.json_encode";
    s.input_types = struct_type;  // a null row is the text "null": not null_if_null
    s.output_dtype = fixed(DataType::string());
    s.kernel = unary(compute::struct_json_encode);
    r.add(std::move(s));
  }
  r.add(rebuilt_struct("struct.with_fields", compute::StructFieldsBase::Keep));
  r.add(rebuilt_struct("struct.eval", compute::StructFieldsBase::Drop));
  {
    // struct[i]: the field at a position (negative from the end).
    FunctionSpec s;
    s.name = "struct.field_by_index";
    s.params = {int_param("index", 0)};
    s.input_types = struct_type;
    s.null_if_null = input(0);
    s.output_dtype = [](const CallTypes& c) {
      const auto& t = c.inputs[0];
      if (t.is_null()) return DataType::null();
      return t.fields()[field_position(t, c.args.get_int("index"))].dtype;
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [i = a.get_int("index")](std::span<const ArrayRef> in) {
        if (in[0]->dtype().is_null()) return in[0];
        return compute::struct_field(*in[0], field_position(in[0]->dtype(), i));
      };
    };
    s.format_args = [](std::span<const std::string>, const Args& a) { return std::to_string(a.get_int("index")); };
    r.add(std::move(s));
  }
  {
    // struct.drop(names, strict): the struct without those fields (strict: each must exist).
    FunctionSpec s;
    s.name = "struct.drop";
    s.params = {string_list_param("names"), bool_param("strict", true)};
    s.input_types = struct_type;
    s.null_if_null = input(0);
    s.check = [](const CallTypes& c) {
      if (!c.args.get_bool("strict") || c.inputs[0].id() != TypeId::Struct) return;
      for (const auto& n : c.args.get_string_list("names")) compute::struct_field_index(c.inputs[0], n);
    };
    s.output_dtype = [](const CallTypes& c) {
      if (c.inputs[0].id() != TypeId::Struct) return c.inputs[0];
      return kept_fields(c.inputs[0], c.args.get_string_list("names")).first;
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [names = a.get_string_list("names")](std::span<const ArrayRef> in) {
        const Array& x = *in[0];
        auto [dtype, keep] = kept_fields(x.dtype(), names);
        std::vector<ArrayRef> children;
        for (size_t i : keep) children.push_back(x.child(i));
        return Array::make(dtype, x.length(), x.validity_buffer(), {}, std::move(children), x.offset(),
                           x.has_validity() ? -1 : 0);
      };
    };
    r.add(std::move(s));
  }
  r.add(affix_fields("name.prefix_fields", true));
  r.add(affix_fields("name.suffix_fields", false));
  {
    // name.map_fields(function): each field renamed by a Python (or C++) callable, called
    // once at planning for the dtype and once per chunk by the kernel.
    FunctionSpec s;
    s.name = "name.map_fields";
    s.params = {int_param(kUdfIdParam, -1)};
    s.input_types = struct_type;
    s.null_if_null = input(0);
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) {
      return with_names(c.inputs[0], mapped_field_names(c.inputs[0], c.args.get_int(kUdfIdParam)));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [id = a.get_int(kUdfIdParam)](std::span<const ArrayRef> in) {
        return compute::struct_rename_fields(*in[0], mapped_field_names(in[0]->dtype(), id));
      };
    };
    s.format_args = [](std::span<const std::string>, const Args&) { return std::string(); };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
