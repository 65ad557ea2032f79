// Struct kernels: building a struct from field arrays, reading, renaming and replacing
// fields, and encoding rows as JSON objects (Polars' pl.struct and `struct` namespace).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// The index of the field `name` of a Struct dtype; SchemaFieldNotFoundError naming it and
// the fields there are when there is none.
size_t struct_field_index(const DataType& dtype, const std::string& name);

// A Struct of the given fields (one name per array; DuplicateError on a repeated name).
// One-row fields broadcast to the longest field's length; every row is valid.
ArrayRef struct_from_fields(const std::vector<std::string>& names, std::span<const ArrayRef> fields);
// Field `index` of a Struct array, null where the struct row is null.
ArrayRef struct_field(const Array& values, size_t index);
// Every field of a Struct array (struct_field of each).
std::vector<ArrayRef> struct_fields(const Array& values);
// The same rows with the fields renamed (names.size() must equal the field count).
ArrayRef struct_rename_fields(const Array& values, const std::vector<std::string>& names);
// Which fields a rebuilt struct starts from: its own (with_fields: replaced by name or
// appended) or none (struct.eval: exactly the new fields, a repeated name a DuplicateError).
enum class StructFieldsBase : uint8_t { Keep, Drop };
// The dtype of `dtype` with the fields named `names` replaced (by name) or appended, in order.
DataType struct_with_fields_dtype(const DataType& dtype, const std::vector<std::string>& names,
                                  std::span<const DataType> dtypes, StructFieldsBase base = StructFieldsBase::Keep);
// The struct with `fields` (named `names`) replacing its fields of those names or appended;
// the struct's validity is kept. One-row inputs broadcast.
ArrayRef struct_with_fields(const Array& values, const std::vector<std::string>& names,
                            std::span<const ArrayRef> fields, StructFieldsBase base = StructFieldsBase::Keep);
// Each row as a compact JSON object ({"a":1,"b":"x"}); a null row is the text null, as in Polars.
ArrayRef struct_json_encode(const Array& values);

}  // namespace frazil::compute
