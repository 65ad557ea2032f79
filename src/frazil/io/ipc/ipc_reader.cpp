#include "frazil/io/ipc/ipc_reader.hpp"

#include <cstring>
#include <exception>
#include <mutex>

#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/ipc/format/File_generated.h"
#include "frazil/io/ipc/ipc_batch.hpp"
#include "frazil/io/ipc/ipc_message.hpp"
#include "frazil/io/ipc/ipc_schema.hpp"

namespace frazil::io::ipc {

struct IpcDictionaries {
  DictionaryMap map;
};

namespace {

constexpr char kMagic[6] = {'A', 'R', 'R', 'O', 'W', '1'};

[[noreturn]] void not_ipc(const InputFile& in, const std::string& what) {
  throw ComputeError(err_msg("'", in.name(), "' is not an Arrow IPC file: ", what));
}

std::string context(const InputFile& in) { return "'" + in.name() + "'"; }

// A message's body as a buffer of the input.
Buffer body_of(const InputFile& in, const MessageRead& m) { return in.read(m.body_offset, m.body_length); }

void check_version(const InputFile& in, const fb::Message* m) {
  if (m->version() < fb::MetadataVersion_V4)
    throw InvalidOperationError(err_msg("IPC ", context(in), ": metadata version ", int(m->version()) + 1,
                                        " (before Arrow 0.8) is not supported"));
}

std::vector<size_t> indices_of(const IpcSchema& s, const std::vector<std::string>* columns) {
  std::vector<size_t> out;
  if (!columns) {
    for (size_t i = 0; i < s.fields.size(); ++i) out.push_back(i);
    return out;
  }
  for (const auto& name : *columns) {
    auto idx = s.schema.index_of(name);
    if (!idx) s.schema.dtype_of(name);  // throws ColumnNotFoundError listing the columns
    out.push_back(*idx);
  }
  return out;
}

}  // namespace

bool is_ipc_file(const InputFile& in) {
  if (in.size() < 6) return false;
  Buffer head = in.read(0, 6);
  return std::memcmp(head.data(), kMagic, 6) == 0;
}

// ----------------------------------------------------------------------- the file format

std::shared_ptr<IpcFileReader> IpcFileReader::open(const std::string& path, bool memory_map) {
  return open(InputFile::open(path, memory_map));
}

std::shared_ptr<IpcFileReader> IpcFileReader::open(std::shared_ptr<InputFile> input) {
  std::shared_ptr<IpcFileReader> r(new IpcFileReader());
  r->in_ = std::move(input);
  const InputFile& in = *r->in_;
  if (in.size() >= 4) {
    Buffer head = in.read(0, 4);
    if (std::memcmp(head.data(), "FEA1", 4) == 0)
      throw InvalidOperationError(err_msg("'", in.name(), "' is a Feather v1 file, which is not supported"));
  }
  if (in.size() < 6 + 2 + 4 + 6 || !is_ipc_file(in)) not_ipc(in, "the ARROW1 magic bytes are missing");
  Buffer tail = in.read(in.size() - 10, 10);
  if (std::memcmp(tail.data() + 4, kMagic, 6) != 0) not_ipc(in, "the file does not end with ARROW1 (truncated?)");
  int32_t footer_len;
  std::memcpy(&footer_len, tail.data(), 4);
  if (footer_len <= 0 || footer_len > in.size() - 18) not_ipc(in, err_msg("footer length ", footer_len));
  Buffer footer = in.read(in.size() - 10 - footer_len, footer_len);
  if (reinterpret_cast<uintptr_t>(footer.data()) % 8 != 0) {
    Buffer copy = Buffer::allocate(footer.size());
    std::memcpy(copy.mutable_data(), footer.data(), footer.size());
    footer = copy;
  }
  flatbuffers::Verifier v(footer.data(), footer.size());
  if (!fb::VerifyFooterBuffer(v)) not_ipc(in, "the footer is not a valid flatbuffer");
  const fb::Footer* f = fb::GetFooter(footer.data());
  if (f->version() < fb::MetadataVersion_V4)
    throw InvalidOperationError(err_msg("IPC ", context(in), ": metadata version before Arrow 0.8 is not supported"));
  r->schema_ = std::make_unique<IpcSchema>(read_schema(f->schema(), context(in)));
  r->dictionaries_ = std::make_unique<IpcDictionaries>();
  DictionaryMap& dicts = r->dictionaries_->map;
  if (f->dictionaries())
    for (const fb::Block* b : *f->dictionaries()) {
      auto m = read_message(in, b->offset());
      if (!m || m->message->header_type() != fb::MessageHeader_DictionaryBatch)
        not_ipc(in, err_msg("no dictionary batch at byte ", b->offset()));
      decode_dictionary(*r->schema_, m->message->header_as_DictionaryBatch(), body_of(in, *m), dicts, context(in));
    }
  if (f->record_batches())
    for (const fb::Block* b : *f->record_batches()) {
      if (b->offset() < 8 || b->offset() >= in.size()) not_ipc(in, err_msg("record batch block at byte ", b->offset()));
      r->batches_.push_back(b->offset());
    }
  return r;
}

IpcFileReader::~IpcFileReader() = default;

const Schema& IpcFileReader::schema() const { return schema_->schema; }

int64_t IpcFileReader::batch_rows(size_t i) const {
  auto m = read_message(*in_, batches_.at(i));
  if (!m || m->message->header_type() != fb::MessageHeader_RecordBatch)
    not_ipc(*in_, err_msg("no record batch at byte ", batches_[i]));
  const int64_t rows = m->message->header_as_RecordBatch()->length();
  if (rows < 0) not_ipc(*in_, "negative record batch length");
  return rows;
}

int64_t IpcFileReader::num_rows() const {
  int64_t n = 0;
  for (size_t i = 0; i < batches_.size(); ++i) n += batch_rows(i);
  return n;
}

DataFrame IpcFileReader::read_batch(size_t i, const std::vector<std::string>* columns) const {
  auto m = read_message(*in_, batches_.at(i));
  if (!m || m->message->header_type() != fb::MessageHeader_RecordBatch)
    not_ipc(*in_, err_msg("no record batch at byte ", batches_[i]));
  check_version(*in_, m->message);
  std::vector<size_t> idx = indices_of(*schema_, columns);
  return decode_batch(*schema_, m->message->header_as_RecordBatch(), body_of(*in_, *m), dictionaries_->map, &idx,
                      context(*in_));
}

// --------------------------------------------------------------------- the stream format

std::unique_ptr<IpcStreamReader> IpcStreamReader::open(std::shared_ptr<InputFile> input) {
  std::unique_ptr<IpcStreamReader> r(new IpcStreamReader());
  r->in_ = std::move(input);
  const InputFile& in = *r->in_;
  auto m = read_message(in, 0);
  if (!m) throw ComputeError(err_msg("IPC stream ", context(in), " is empty: it has no schema message"));
  if (m->message->header_type() != fb::MessageHeader_Schema)
    throw ComputeError(err_msg("IPC stream ", context(in), " does not start with a schema message"));
  check_version(in, m->message);
  r->schema_ = std::make_unique<IpcSchema>(read_schema(m->message->header_as_Schema(), context(in)));
  r->dictionaries_ = std::make_unique<IpcDictionaries>();
  r->pos_ = m->end;
  return r;
}

IpcStreamReader::~IpcStreamReader() = default;

const Schema& IpcStreamReader::schema() const { return schema_->schema; }

std::optional<DataFrame> IpcStreamReader::next(const std::vector<std::string>* columns) {
  DictionaryMap& dicts = dictionaries_->map;
  while (!done_) {
    auto m = read_message(*in_, pos_);
    if (!m) {
      done_ = true;
      break;
    }
    pos_ = m->end;
    check_version(*in_, m->message);
    switch (m->message->header_type()) {
      case fb::MessageHeader_DictionaryBatch:
        decode_dictionary(*schema_, m->message->header_as_DictionaryBatch(), body_of(*in_, *m), dicts, context(*in_));
        break;
      case fb::MessageHeader_RecordBatch: {
        std::vector<size_t> idx = indices_of(*schema_, columns);
        return decode_batch(*schema_, m->message->header_as_RecordBatch(), body_of(*in_, *m), dicts, &idx,
                            context(*in_));
      }
      case fb::MessageHeader_Schema:
        throw ComputeError(err_msg("IPC stream ", context(*in_), " has a second schema message"));
      default:
        throw InvalidOperationError(err_msg("IPC stream ", context(*in_), ": tensor messages are not supported"));
    }
  }
  return std::nullopt;
}

// ------------------------------------------------------------------------- whole reads

namespace {

DataFrame finish(std::vector<DataFrame> parts, const Schema& schema, const std::vector<std::string>* columns) {
  if (!parts.empty()) return concat_frames(parts);
  if (!columns) return DataFrame::empty_with_schema(schema);
  std::vector<Field> fields;
  for (const auto& c : *columns) fields.push_back(Field{c, schema.dtype_of(c)});
  return DataFrame::empty_with_schema(Schema(std::move(fields)));
}

}  // namespace

DataFrame read_ipc(std::shared_ptr<InputFile> input, const IpcReadOptions& options) {
  if (options.n_rows && *options.n_rows < 0) throw InvalidOperationError("n_rows must not be negative");
  const std::vector<std::string>* cols = options.columns ? &*options.columns : nullptr;
  int64_t left = options.n_rows.value_or(-1);
  std::vector<DataFrame> parts;
  if (is_ipc_file(*input)) {
    auto r = IpcFileReader::open(std::move(input));
    // The footer says where every batch is: the ones n_rows needs are decoded on the pool
    // (checking the views of a string column is most of a read's time).
    size_t needed = r->num_batches();
    if (left >= 0) {
      int64_t rows = 0;
      for (needed = 0; needed < r->num_batches() && rows < left; ++needed) rows += r->batch_rows(needed);
    }
    parts.resize(needed);
    std::vector<std::exception_ptr> errors(needed);
    parallel_for(needed, [&](size_t i) {
      try {
        parts[i] = r->read_batch(i, cols);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
    // The first bad batch's error, whichever task raised first.
    for (const auto& e : errors)
      if (e) std::rethrow_exception(e);
    for (DataFrame& df : parts) {
      if (left >= 0 && df.height() > left) df = df.head(left);
      if (left >= 0) left -= df.height();
    }
    return finish(std::move(parts), r->schema(), cols);
  }
  auto r = IpcStreamReader::open(std::move(input));
  while (left != 0) {
    auto df = r->next(cols);
    if (!df) break;
    if (left >= 0 && df->height() > left) *df = df->head(left);
    if (left >= 0) left -= df->height();
    parts.push_back(std::move(*df));
  }
  return finish(std::move(parts), r->schema(), cols);
}

DataFrame read_ipc(const std::string& path, const IpcReadOptions& options) {
  return read_ipc(InputFile::open(path, options.memory_map), options);
}

Schema read_ipc_schema(std::shared_ptr<InputFile> input) {
  if (is_ipc_file(*input)) return IpcFileReader::open(std::move(input))->schema();
  return IpcStreamReader::open(std::move(input))->schema();
}

Schema read_ipc_schema(const std::string& path) { return read_ipc_schema(InputFile::open(path, true)); }

}  // namespace frazil::io::ipc
