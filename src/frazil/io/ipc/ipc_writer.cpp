#include "frazil/io/ipc/ipc_writer.hpp"

#include <algorithm>
#include <vector>

#include "frazil/core/error.hpp"
#include "frazil/io/ipc/format/File_generated.h"
#include "frazil/io/ipc/ipc_batch.hpp"
#include "frazil/io/ipc/ipc_dictionaries.hpp"
#include "frazil/io/ipc/ipc_message.hpp"
#include "frazil/io/ipc/ipc_schema.hpp"

namespace frazil::io::ipc {

struct IpcWriter::Impl {
  std::unique_ptr<OutputFile> file;
  OutputStream* out = nullptr;
  Schema schema;
  IpcWriteOptions opt;
  EncodeOptions enc;
  std::unique_ptr<IpcDictionaries> dictionaries;
  std::vector<fb::Block> blocks;
  std::vector<fb::Block> dictionary_blocks;
  std::vector<DataFrame> pending;  // rows waiting for a full record batch
  int64_t pending_rows = 0;
  bool started = false;
  bool finished = false;

  void start() {
    started = true;
    if (!opt.stream) {
      static const uint8_t magic[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
      out->write(magic, 8);
    }
    flatbuffers::FlatBufferBuilder fbb;
    auto s = write_schema(fbb, schema, opt.compat_oldest, {}, /*categorical_as_dictionary=*/true);
    fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion_V5, fb::MessageHeader_Schema, s.Union(), 0));
    write_message(*out, fbb, std::vector<uint8_t>{});
  }

  // The dictionary entries the Categorical/Enum columns of `df` add, before the record
  // batches that use them. Called once per write_batch, so that a frame written whole has
  // one dictionary per field (Polars reads no delta dictionaries); a sink's later batches
  // that bring new strings add them as deltas.
  void write_dictionaries(const DataFrame& df) {
    for (const auto& u : dictionaries->update(df)) {
      flatbuffers::FlatBufferBuilder fbb;
      BatchBody body;
      encode_dictionary_batch(u.id, u.values, u.delta, enc, fbb, body);
      const int64_t offset = out->bytes_written();
      const int32_t meta = write_message(*out, fbb, body);
      dictionary_blocks.emplace_back(offset, meta, body.length);
    }
  }

  void write_record_batch(const DataFrame& df) {
    flatbuffers::FlatBufferBuilder fbb;
    BatchBody body;
    encode_batch(df, enc, fbb, body);
    const int64_t offset = out->bytes_written();
    const int32_t meta = write_message(*out, fbb, body);
    blocks.emplace_back(offset, meta, body.length);
  }
};

namespace {

void check_options(const IpcWriteOptions& o) {
  if (o.record_batch_size < 0) throw InvalidOperationError("record_batch_size must not be negative");
  if (o.compression_level && o.compression == IpcCompression::Zstd &&
      (*o.compression_level < 1 || *o.compression_level > 22))
    throw InvalidOperationError(err_msg("compression level ", *o.compression_level,
                                        " is out of range: valid compression range 1..=22 exceeded."));
}

}  // namespace

IpcWriter::IpcWriter(const std::string& path, Schema schema, IpcWriteOptions options) : impl_(std::make_unique<Impl>()) {
  check_options(options);
  impl_->schema = std::move(schema);
  impl_->opt = options;
  impl_->dictionaries = std::make_unique<IpcDictionaries>(impl_->schema);
  impl_->enc = EncodeOptions{options.compression, options.compression_level, options.compat_oldest,
                             impl_->dictionaries.get()};
  impl_->file = std::make_unique<OutputFile>(path, options.file_buffer_bytes);
  impl_->out = impl_->file.get();
}

IpcWriter::IpcWriter(OutputStream& out, Schema schema, IpcWriteOptions options) : impl_(std::make_unique<Impl>()) {
  check_options(options);
  impl_->schema = std::move(schema);
  impl_->opt = options;
  impl_->dictionaries = std::make_unique<IpcDictionaries>(impl_->schema);
  impl_->enc = EncodeOptions{options.compression, options.compression_level, options.compat_oldest,
                             impl_->dictionaries.get()};
  impl_->out = &out;
}

IpcWriter::~IpcWriter() = default;

void IpcWriter::write_batch(const DataFrame& batch) {
  Impl& w = *impl_;
  if (w.finished) throw InvalidOperationError("write_batch after finish");
  if (batch.schema() != w.schema)
    throw SchemaError(err_msg("cannot write a batch with schema ", batch.schema().to_string(),
                              " to an IPC file of schema ", w.schema.to_string()));
  if (!w.started) w.start();
  if (batch.height() == 0) return;
  w.write_dictionaries(batch);
  if (w.opt.record_batch_size > 0) {
    // Batches of exactly record_batch_size rows (the last may be shorter), across the
    // batches given: the rest waits for the next batch or finish().
    const int64_t step = w.opt.record_batch_size;
    w.pending.push_back(batch);
    w.pending_rows += batch.height();
    if (w.pending_rows < step) return;
    DataFrame all = concat_frames(w.pending);
    w.pending.clear();
    int64_t start = 0;
    for (; all.height() - start >= step; start += step) w.write_record_batch(all.slice(start, step));
    w.pending_rows = all.height() - start;
    if (w.pending_rows > 0) w.pending.push_back(all.slice(start, w.pending_rows));
    return;
  }
  // Record batches end where any column's chunk ends, so that each column of a batch is one
  // chunk, written from where it is (no concatenation).
  std::vector<int64_t> ends;
  for (const Column& c : batch.columns()) {
    int64_t at = 0;
    for (const auto& ch : c.chunks()) ends.push_back(at += ch->length());
  }
  ends.push_back(batch.height());
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  int64_t start = 0;
  for (int64_t end : ends) {
    if (end <= start) continue;
    w.write_record_batch(batch.slice(start, end - start));
    start = end;
  }
}

void IpcWriter::finish() {
  Impl& w = *impl_;
  if (w.finished) return;
  if (!w.started) w.start();
  if (w.pending_rows > 0) {
    w.write_record_batch(concat_frames(w.pending));
    w.pending.clear();
    w.pending_rows = 0;
  }
  if (w.opt.stream) {
    write_end_of_stream(*w.out);
  } else {
    write_end_of_stream(*w.out);  // readers of the file's stream part stop here
    flatbuffers::FlatBufferBuilder fbb;
    auto s = write_schema(fbb, w.schema, w.opt.compat_oldest, {}, /*categorical_as_dictionary=*/true);
    auto batches = fbb.CreateVectorOfStructs(w.blocks);
    auto dicts = fbb.CreateVectorOfStructs(w.dictionary_blocks);
    fbb.Finish(fb::CreateFooter(fbb, fb::MetadataVersion_V5, s, dicts, batches));
    w.out->write(fbb.GetBufferPointer(), fbb.GetSize());
    const int32_t len = static_cast<int32_t>(fbb.GetSize());
    w.out->write(&len, 4);
    w.out->write("ARROW1", 6);
  }
  w.finished = true;
  if (w.file) w.file->commit();
}

void IpcWriter::abort() noexcept {
  impl_->finished = true;
  if (impl_->file) impl_->file->abort();
}

void write_ipc(const DataFrame& df, const std::string& path, const IpcWriteOptions& options) {
  IpcWriter w(path, df.schema(), options);
  w.write_batch(df);
  w.finish();
}

std::string write_ipc_to_string(const DataFrame& df, const IpcWriteOptions& options) {
  MemoryOutput out;
  IpcWriter w(out, df.schema(), options);
  w.write_batch(df);
  w.finish();
  return out.take();
}

}  // namespace frazil::io::ipc
