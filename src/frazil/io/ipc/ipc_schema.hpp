// The schema of an Arrow IPC stream or file: read from its FlatBuffers form into what the
// batch decoder needs (each field's Arrow C Data Interface format and body layout), and
// written from a frazil Schema.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frazil/core/schema.hpp"
#include "frazil/io/arrow/c_abi.hpp"
#include "frazil/io/ipc/format/Schema_generated.h"

namespace frazil::io::ipc {

// One field of the schema as the record batches lay it out.
struct IpcField {
  std::string name;
  bool nullable = true;
  // The values' format in the Arrow C Data Interface ("l", "u", "+s", "tsu:UTC", ...).
  std::string format;
  int buffers = 0;       // body buffers of one array of this field (variadic ones not counted)
  bool is_view = false;  // views: variadic data buffers follow the views buffer
  std::vector<IpcField> children;
  // A dictionary-encoded field: the batches hold indices of `index_format` (one node, a
  // validity and an indices buffer, no children) into the dictionary batch of this id.
  std::optional<int64_t> dictionary_id;
  std::string index_format;
  // The field's custom metadata in the Arrow C layout (int32 pair count, then int32-length-prefixed
  // keys and values), empty when it has none: Polars names an Enum's categories there.
  std::string metadata;
};

struct IpcSchema {
  std::vector<IpcField> fields;
  Schema schema;  // frazil's dtypes of the fields
  std::vector<std::pair<std::string, std::string>> metadata;
};

// Throws ComputeError for a malformed schema, InvalidOperationError (naming the column)
// for a type frazil cannot hold.
IpcSchema read_schema(const fb::Schema* schema, const std::string& source);

// An owned Arrow C schema tree of one field (values, or indices + dictionary), or of a
// record batch of the given fields ("+s"); release() frees it. `dictionary_dtype`, when
// given, names the dtype a dictionary id's values are held in (the schema of a
// dictionary then describes those frazil arrays, not the file's layout).
using DictionaryDtype = std::function<std::optional<DataType>(int64_t id)>;
void make_arrow_schema(const IpcField& field, ArrowSchema* out, const DictionaryDtype& dictionary_dtype = {});
void make_arrow_schema(const std::vector<const IpcField*>& fields, ArrowSchema* out,
                       const DictionaryDtype& dictionary_dtype = {});

// How frazil writes a dtype: compat_oldest writes large (int64-offset) strings and binary
// instead of views, for readers that predate views (Polars' CompatLevel.oldest()).
// categorical_as_dictionary: Categorical/Enum fields are dictionary-encoded (ids as
// IpcDictionaries numbers them); otherwise they are described as their strings.
flatbuffers::Offset<fb::Schema> write_schema(flatbuffers::FlatBufferBuilder& fbb, const Schema& schema,
                                             bool compat_oldest,
                                             const std::vector<std::pair<std::string, std::string>>& metadata = {},
                                             bool categorical_as_dictionary = false);

}  // namespace frazil::io::ipc
