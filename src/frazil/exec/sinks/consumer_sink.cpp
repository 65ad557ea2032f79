#include "frazil/exec/sinks/consumer_sink.hpp"

namespace frazil::exec {

namespace {
struct PendingRows final : LocalSinkState {
  DataFrame rows;
};
}  // namespace

std::string ConsumerSink::describe() const {
  return "hand over to the caller in row order, " + std::to_string(wave_) + " batches in memory at a time";
}

std::unique_ptr<LocalSinkState> ConsumerSink::make_local() const { return std::make_unique<PendingRows>(); }

void ConsumerSink::sink(DataFrame rows, LocalSinkState& local, physical::ExecState&) const {
  static_cast<PendingRows&>(local).rows = std::move(rows);
}

void ConsumerSink::combine(LocalSinkState& local) {
  DataFrame rows = std::move(static_cast<PendingRows&>(local).rows);
  rows_ += rows.height();
  consume_(rows);
}

}  // namespace frazil::exec
