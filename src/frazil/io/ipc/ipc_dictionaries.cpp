#include "frazil/io/ipc/ipc_dictionaries.hpp"

#include <cstring>

#include "frazil/core/builder.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"

namespace frazil::io::ipc {

namespace {

// Calls f(id, array) for each Categorical/Enum array of `a`'s tree, in the order of
// for_each_dictionary_dtype. Children are visited whole (rows outside a slice included:
// their strings may join the dictionary, which is harmless).
template <typename F>
void for_each_dictionary_array(const Array& a, int64_t& next_id, const F& f) {
  const DataType& t = a.dtype();
  if (t.is_categorical()) return f(next_id++, a);
  if (t.id() == TypeId::List || t.id() == TypeId::Array) return for_each_dictionary_array(*a.child(0), next_id, f);
  if (t.id() == TypeId::Struct)
    for (const auto& c : a.children()) for_each_dictionary_array(*c, next_id, f);
}

}  // namespace

IpcDictionaries::IpcDictionaries(const Schema& schema) {
  int64_t id = 0;
  for (const auto& field : schema.fields())
    for_each_dictionary_dtype(field.dtype, id, [&](int64_t, const DataType& t) {
      Entry e;
      e.dtype = t;
      entries_.push_back(std::move(e));
    });
}

std::vector<IpcDictionaries::Update> IpcDictionaries::update(const DataFrame& batch) {
  std::vector<Update> out;
  if (entries_.empty()) return out;
  std::vector<std::vector<uint32_t>> fresh(entries_.size());  // new global codes, in order of first use
  int64_t id = 0;
  for (const Column& col : batch.columns()) {
    for (const ArrayRef& chunk : col.chunks()) {
      int64_t chunk_id = id;
      for_each_dictionary_array(*chunk, chunk_id, [&](int64_t k, const Array& a) {
        Entry& e = entries_[static_cast<size_t>(k)];
        if (e.dtype.id() == TypeId::Enum) return;
        const uint32_t* codes = a.values<uint32_t>();
        for (int64_t i = 0; i < a.length(); ++i) {
          if (a.is_null(i)) continue;
          const uint32_t c = codes[i];
          if (c >= e.index_of.size()) e.index_of.resize(std::max<size_t>(c + 1, e.index_of.size() * 2), 0);
          if (e.index_of[c] != 0) continue;
          e.index_of[c] = e.size + static_cast<uint32_t>(fresh[k].size()) + 1;
          fresh[k].push_back(c);
        }
      });
    }
    for_each_dictionary_dtype(col.dtype(), id, [](int64_t, const DataType&) {});
  }
  for (size_t k = 0; k < entries_.size(); ++k) {
    Entry& e = entries_[k];
    ViewBuilder values(DataType::string());
    if (e.dtype.id() == TypeId::Enum) {
      if (e.written) continue;
      for (std::string_view s : e.dtype.categories().views()) values.push(s);
    } else {
      if (e.written && fresh[k].empty()) continue;
      const Categories& cats = e.dtype.categories();
      for (uint32_t c : fresh[k]) values.push(cats.get(c));
      e.size += static_cast<uint32_t>(fresh[k].size());
    }
    out.push_back(Update{static_cast<int64_t>(k), values.finish(), e.written});
    e.written = true;
  }
  return out;
}

std::vector<uint8_t> IpcDictionaries::indices(int64_t id, const Array& codes, int64_t pos, int64_t len) const {
  const Entry& e = entries_.at(static_cast<size_t>(id));
  std::vector<uint8_t> out(static_cast<size_t>(len) * 4, 0);
  const uint32_t* in = codes.buffer(0).as<uint32_t>() + pos;
  if (e.dtype.id() == TypeId::Enum) {
    std::memcpy(out.data(), in, out.size());
    return out;
  }
  auto* o = reinterpret_cast<uint32_t*>(out.data());
  const uint8_t* bits = codes.has_validity() ? codes.validity_bits() : nullptr;
  for (int64_t i = 0; i < len; ++i) {
    if (bits && !get_bit(bits, pos + i)) continue;
    const uint32_t c = in[i];
    if (c >= e.index_of.size() || e.index_of[c] == 0)
      throw ComputeError(err_msg("IPC writer: category code ", c, " is not in the dictionary of field ", id,
                                 " (update() was not called for this batch)"));
    o[i] = e.index_of[c] - 1;
  }
  return out;
}

}  // namespace frazil::io::ipc
