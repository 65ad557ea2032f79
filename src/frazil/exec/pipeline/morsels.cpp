#include "frazil/exec/pipeline/morsels.hpp"

#include <algorithm>

#include "frazil/core/thread_pool.hpp"

namespace frazil::exec {

namespace {

// The chunk lengths shared by every column, or empty when the columns are chunked
// differently (or a column is a broadcast scalar).
std::vector<int64_t> common_chunk_lengths(const DataFrame& df) {
  std::vector<int64_t> lengths;
  for (size_t c = 0; c < df.width(); ++c) {
    const Column& col = df.column(c);
    if (col.is_scalar()) return {};
    std::vector<int64_t> mine;
    for (const auto& chunk : col.chunks()) mine.push_back(chunk->length());
    if (c == 0) lengths = std::move(mine);
    else if (mine != lengths) return {};
  }
  return lengths;
}

}  // namespace

std::vector<DataFrame> split_morsels(const DataFrame& df, int64_t morsel_size) {
  const int64_t h = df.height();
  morsel_size = std::max<int64_t>(1, morsel_size);
  if (h == 0) return {df};
  std::vector<int64_t> lengths = df.width() ? common_chunk_lengths(df) : std::vector<int64_t>{};
  std::vector<DataFrame> out;
  // A frame longer than a morsel is cut into equal pieces (113k rows become two of 56.5k,
  // not 100k and 13k).
  auto cut = [&](const DataFrame& m) {
    const int64_t len = m.height();
    const int64_t pieces = (len + morsel_size - 1) / morsel_size;
    const int64_t step = (len + pieces - 1) / pieces;
    for (int64_t o = 0; o < len; o += step) out.push_back(m.slice(o, std::min(step, len - o)));
  };
  if (lengths.size() > 1) {
    // Consecutive chunks form one morsel as long as it stays within morsel_size rows, so
    // the pieces a pipeline wrote (about a morsel each) stay one chunk per morsel and need
    // no copy to be made contiguous; small pieces are grouped.
    std::vector<std::vector<ArrayRef>> chunks(df.width());
    for (size_t c = 0; c < df.width(); ++c) chunks[c] = df.column(c).chunks();
    size_t first = 0;
    int64_t rows = 0;
    auto flush = [&](size_t last) {
      std::vector<Column> cols;
      for (size_t c = 0; c < df.width(); ++c)
        cols.emplace_back(df.column(c).name(), df.column(c).dtype(),
                          std::vector<ArrayRef>(chunks[c].begin() + first, chunks[c].begin() + last));
      cut(DataFrame(std::move(cols)));
      first = last;
      rows = 0;
    };
    for (size_t i = 0; i < lengths.size(); ++i) {
      if (rows > 0 && rows + lengths[i] > morsel_size) flush(i);
      rows += lengths[i];
    }
    if (first < lengths.size()) flush(lengths.size());
    return out;
  }
  cut(df);
  return out;
}

DataFrame run_on_morsels(const DataFrame& df, const std::vector<OperatorRef>& ops, int64_t morsel_size) {
  const std::vector<DataFrame> morsels = split_morsels(df, morsel_size);
  std::vector<DataFrame> out(morsels.size());
  parallel_for(morsels.size(), [&](size_t m) {
    physical::ExecState state;
    out[m] = run_operators(ops, morsels[m], state);
  });
  return concat_frames(out);
}

}  // namespace frazil::exec
