// Rows a sink spilled, read back batch by batch as a pipeline asks for them (any batch, in
// parallel: the file is read with pread), so a consumer streams them without the whole
// file in memory. The file stays while any source over it lives.
#pragma once

#include <memory>

#include "frazil/exec/sources/source.hpp"
#include "frazil/exec/spill/spill_file.hpp"

namespace frazil::exec {

class SpillFileSource final : public MorselSource {
 public:
  // `what` names the sink for explain ("cache 3").
  SpillFileSource(std::shared_ptr<const spill::SpillFile> file, std::string what)
      : file_(std::move(file)), what_(std::move(what)) {}
  std::string describe() const override {
    return what_ + " read back from FRAZIL_TEMP_DIRECTORY: " + std::to_string(file_->rows()) + " rows in " +
           std::to_string(file_->num_batches()) + " batches";
  }
  size_t num_batches() const override { return file_->num_batches(); }
  DataFrame batch(size_t i) const override { return file_->read_batch(i); }
  int64_t total_rows() const override { return file_->rows(); }

 private:
  std::shared_ptr<const spill::SpillFile> file_;
  std::string what_;
};

}  // namespace frazil::exec
