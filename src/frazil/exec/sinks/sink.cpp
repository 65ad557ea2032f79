#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

namespace {
struct MorselRows final : LocalSinkState {
  DataFrame rows;
};
}  // namespace

std::unique_ptr<LocalSinkState> CollectingSink::make_local() const { return std::make_unique<MorselRows>(); }

void CollectingSink::sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const {
  static_cast<MorselRows&>(local).rows = per_morsel(std::move(rows), state);
}

void CollectingSink::combine(LocalSinkState& local) { parts_.push_back(std::move(static_cast<MorselRows&>(local).rows)); }

void CollectingSink::finalize() {
  std::vector<DataFrame> parts = std::move(parts_);
  parts_.clear();
  output_ = finish(concat_frames(parts));
}

}  // namespace frazil::exec
