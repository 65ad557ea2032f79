#include "frazil/exec/query_observer.hpp"

namespace frazil::exec {

namespace {
// The bytes of the rows an array covers: a slice counts its share of the shared buffers
// (a frame's morsels are slices of its columns).
int64_t array_bytes(const Array& a) {
  const int64_t n = a.length();
  int64_t bytes = a.has_validity() ? (n + 7) / 8 : 0;
  const DataType& t = a.dtype();
  if (t.is_boolean()) return bytes + (n + 7) / 8;
  if (t.is_view()) {
    int64_t data = 0;
    for (size_t i = 1; i < a.buffers().size(); ++i) data += static_cast<int64_t>(a.buffer(i).size());
    const int64_t all_views = static_cast<int64_t>(a.buffer(0).size() / sizeof(View));
    return bytes + n * static_cast<int64_t>(sizeof(View)) + (all_views > 0 ? data * n / all_views : 0);
  }
  if (t.is_list_like()) return bytes + (n + 1) * 8 + array_bytes(*a.child(0));
  if (t.id() == TypeId::Struct) {
    for (const auto& c : a.children()) bytes += array_bytes(*c);
    return bytes;
  }
  if (t.is_fixed_width()) return bytes + n * t.byte_width();
  return bytes;
}
}  // namespace

int64_t frame_bytes(const DataFrame& df) {
  int64_t n = 0;
  for (const auto& col : df.columns()) {
    if (col.is_scalar()) continue;
    for (const auto& chunk : col.chunks()) n += array_bytes(*chunk);
  }
  return n;
}

}  // namespace frazil::exec
