#include "frazil/exec/query_observer.hpp"

namespace frazil::exec {

namespace {
int64_t array_bytes(const Array& a) {
  int64_t n = static_cast<int64_t>(a.validity_buffer().size());
  for (const auto& b : a.buffers()) n += static_cast<int64_t>(b.size());
  for (const auto& c : a.children()) n += array_bytes(*c);
  return n;
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
