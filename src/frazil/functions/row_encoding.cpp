// Row encoding: _row_encode (columns -> one order-preserving Binary key per row) and
// _row_decode (the key back into a Struct of the columns), kernels in compute/row_encoding/.
#include "frazil/compute/row_encoding/row_encoding.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

// The per-column options from the `descending` / `nulls_last` lists (empty: all false).
std::vector<compute::RowEncodingField> field_options(const Args& a, size_t columns) {
  const auto& desc = a.get_int_list("descending");
  const auto& last = a.get_int_list("nulls_last");
  if (a.get_bool("unordered") || (desc.empty() && last.empty())) return {};
  auto check = [columns](const std::vector<int64_t>& v, const char* what) {
    if (!v.empty() && v.size() != columns)
      throw InvalidOperationError(err_msg("`", what, "` of row encoding has ", v.size(), " values for ", columns, " columns"));
  };
  check(desc, "descending");
  check(last, "nulls_last");
  std::vector<compute::RowEncodingField> out(columns);
  for (size_t i = 0; i < columns; ++i) {
    out[i].descending = !desc.empty() && desc[i] != 0;
    out[i].nulls_last = !last.empty() && last[i] != 0;
  }
  return out;
}

std::vector<Param> field_params() {
  return {bool_param("unordered", false), int_list_param("descending"), int_list_param("nulls_last")};
}

}  // namespace

void register_row_encoding_functions(Registry& r) {
  {
    FunctionSpec s;
    s.name = "_row_encode";
    s.min_inputs = 1;
    s.max_inputs = SIZE_MAX;
    s.expand_inputs = true;
    s.display_as_global = true;
    s.params = field_params();
    s.output_dtype = fixed(DataType::binary());
    s.check = [](const CallTypes& c) {
      for (const auto& t : c.inputs)
        if (!compute::row_encodable(t))
          throw InvalidOperationError(err_msg("row encoding is not supported for dtype `", t.short_name(), "`"));
      field_options(c.args, c.inputs.size());
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [a](std::span<const ArrayRef> in) {
        std::vector<ArrayRef> cols(in.begin(), in.end());
        return compute::row_encode(cols, field_options(a, cols.size()));
      };
    };
    r.add(std::move(s));
  }
  {
    // `dtype` is the Struct of the encoded columns' names and dtypes.
    FunctionSpec s;
    s.name = "_row_decode";
    s.params = field_params();
    s.params.push_back(dtype_param("dtype"));
    s.input_types = TypeSet::of({TypeId::Binary});
    s.fallible = true;
    s.output_dtype = [](const CallTypes& c) {
      auto t = c.args.get_dtype("dtype");
      if (!t || t->id() != TypeId::Struct) throw InvalidOperationError("_row_decode needs the encoded columns' dtypes");
      return *t;
    };
    s.check = [](const CallTypes& c) {
      auto t = c.args.get_dtype("dtype");
      if (!t || t->id() != TypeId::Struct) throw InvalidOperationError("_row_decode needs the encoded columns' dtypes");
      for (const auto& f : t->fields())
        if (!compute::row_encodable(f.dtype))
          throw InvalidOperationError(err_msg("row decoding is not supported for dtype `", f.dtype.short_name(), "`"));
      field_options(c.args, t->fields().size());
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [a](std::span<const ArrayRef> in) {
        const DataType t = *a.get_dtype("dtype");
        std::vector<DataType> dtypes;
        for (const auto& f : t.fields()) dtypes.push_back(f.dtype);
        auto cols = compute::row_decode(*in[0], dtypes, field_options(a, dtypes.size()));
        return Array::make(t, in[0]->length(), Buffer(), {}, std::move(cols));
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
