#include "frazil/exec/sinks/row_index_sink.hpp"

#include "frazil/core/error.hpp"

namespace frazil::exec {

std::string RowIndexSink::describe() const {
  return "row index \"" + index_.name + "\" from " + std::to_string(index_.offset);
}

DataFrame RowIndexSink::finish(DataFrame df) {
  const int64_t h = df.height();
  if (index_.offset < 0) throw ComputeError("row index offset must be non-negative");
  if (index_.offset + h > static_cast<int64_t>(UINT32_MAX))
    // the last index must be at most kMaxLength
    throw ComputeError(err_msg("row index with offset ", index_.offset, " overflows on dataframe with height ", h));
  Buffer values = Buffer::allocate(h * sizeof(uint32_t));
  for (int64_t i = 0; i < h; ++i) values.mutable_as<uint32_t>()[i] = static_cast<uint32_t>(index_.offset + i);
  std::vector<Column> cols{Column(index_.name, Array::make(DataType::uint32(), h, Buffer(), {values}))};
  for (const auto& c : df.columns()) cols.push_back(c);
  return DataFrame(std::move(cols));
}

}  // namespace frazil::exec
