// The dictionaries of the Categorical and Enum fields of a frame written to Arrow IPC.
//
// Each such field, at any depth of List, Array and Struct, is one dictionary-encoded field
// whose id is its place in a pre-order walk of the schema's dtypes (the walk the schema
// writer and the batch encoder make too). An Enum's dictionary is its categories, written
// once, and its codes are the indices. A Categorical's codes index the process-wide
// mapping, so the file gets only the strings its rows use: each batch adds the strings
// earlier batches did not have as a delta dictionary batch, and its codes are rewritten
// as indices into that per-file dictionary (uint32 indices, as Polars writes them).
#pragma once

#include <cstdint>
#include <vector>

#include "frazil/core/frame.hpp"

namespace frazil::io::ipc {

class IpcDictionaries {
 public:
  explicit IpcDictionaries(const Schema& schema);

  struct Update {
    int64_t id;
    ArrayRef values;  // String: the new entries, in index order
    bool delta;       // appended to the dictionary already written
  };
  // The dictionary entries `batch` needs that earlier batches did not add (nothing for a
  // field whose dictionary is complete).
  std::vector<Update> update(const DataFrame& batch);

  // The uint32 indices of rows [pos, pos + len) of `codes` (a Categorical/Enum array of
  // dictionary `id`), as little-endian bytes; a null row's index is 0.
  std::vector<uint8_t> indices(int64_t id, const Array& codes, int64_t pos, int64_t len) const;

 private:
  struct Entry {
    DataType dtype;
    bool written = false;             // some dictionary batch of this id was written
    std::vector<uint32_t> index_of;   // Categorical: global code -> index + 1 (0: not in the file)
    uint32_t size = 0;                // entries written
  };
  std::vector<Entry> entries_;
};

// Calls f(id, dtype) for each Categorical/Enum node of `t`, in the pre-order that numbers
// the dictionaries (`next_id` counts on from one field to the next).
template <typename F>
void for_each_dictionary_dtype(const DataType& t, int64_t& next_id, const F& f) {
  if (t.is_categorical()) return f(next_id++, t);
  if (t.id() == TypeId::List || t.id() == TypeId::Array) return for_each_dictionary_dtype(t.inner(), next_id, f);
  if (t.id() == TypeId::Struct)
    for (const auto& field : t.fields()) for_each_dictionary_dtype(field.dtype, next_id, f);
}

}  // namespace frazil::io::ipc
