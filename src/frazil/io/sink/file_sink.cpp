#include "frazil/io/sink/file_sink.hpp"

#include "frazil/io/csv/csv_writer.hpp"
#include "frazil/io/json/json_writer.hpp"

namespace frazil::io {

namespace {

// Every writer has write_batch / finish / abort; the sink forwards to them.
template <typename Writer>
class WriterSink final : public FileSink {
 public:
  template <typename... Args>
  explicit WriterSink(Args&&... args) : w_(std::forward<Args>(args)...) {}
  void write(const DataFrame& batch) override { w_.write_batch(batch); }
  void finish() override { w_.finish(); }
  void abort() noexcept override { w_.abort(); }

 private:
  Writer w_;
};

}  // namespace

std::unique_ptr<FileSink> make_file_sink(const std::string& path, const Schema& schema, const SinkOptions& options) {
  struct Make {
    const std::string& path;
    const Schema& schema;
    std::unique_ptr<FileSink> operator()(const CsvWriteOptions& o) const {
      return std::make_unique<WriterSink<CsvWriter>>(path, schema, o);
    }
    std::unique_ptr<FileSink> operator()(const parquet::ParquetWriteOptions& o) const {
      return std::make_unique<WriterSink<parquet::ParquetWriter>>(path, schema, o);
    }
    std::unique_ptr<FileSink> operator()(const ipc::IpcWriteOptions& o) const {
      return std::make_unique<WriterSink<ipc::IpcWriter>>(path, schema, o);
    }
    std::unique_ptr<FileSink> operator()(const NdjsonWriteOptions& o) const {
      return std::make_unique<WriterSink<NdjsonWriter>>(path, schema, o.json_array);
    }
  };
  return std::visit(Make{path, schema}, options);
}

}  // namespace frazil::io
