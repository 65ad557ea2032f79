#include "frazil/io/arrow/stream.hpp"

#include <algorithm>
#include <cerrno>
#include <new>
#include <set>

#include "frazil/core/error.hpp"
#include "frazil/io/arrow/export.hpp"
#include "frazil/io/arrow/import.hpp"

namespace frazil::io {

namespace {

struct StreamPrivate {
  bool is_column = false;  // a column stream: one array per chunk of df's only column
  DataFrame df;
  std::vector<int64_t> bounds;  // batch i covers rows [bounds[i], bounds[i + 1])
  size_t next = 0;
  std::string last_error;
  ArrowStringLayout strings = ArrowStringLayout::View;
  ArrowSchema requested{};  // owned copy of the consumer's request (release == null: none)
  std::vector<ArrowArray> prepared;  // every batch, exported up front (prepare_all)
  ~StreamPrivate() {
    if (requested.release) requested.release(&requested);
    for (size_t i = next; i < prepared.size(); ++i)
      if (prepared[i].release) prepared[i].release(&prepared[i]);
  }
  ArrowExportOptions options() const { return {strings, requested.release ? &requested : nullptr}; }
};

void export_batch(const StreamPrivate* p, size_t i, ArrowArray* out) {
  const int64_t start = p->bounds[i], end = p->bounds[i + 1];
  DataFrame batch = p->df.slice(start, end - start);
  if (p->is_column) export_array(batch.column(0).as_array(), out, p->options());
  else export_frame(batch, out, p->options());
}

StreamPrivate* priv(ArrowArrayStream* s) { return static_cast<StreamPrivate*>(s->private_data); }

// C callbacks must not let an exception escape: it becomes an errno and a message.
template <typename F>
int guarded(ArrowArrayStream* s, F&& f) {
  try {
    f();
    return 0;
  } catch (const std::bad_alloc&) {
    priv(s)->last_error = "out of memory";
    return ENOMEM;
  } catch (const std::exception& e) {
    priv(s)->last_error = e.what();
    return EINVAL;
  }
}

int stream_get_schema(ArrowArrayStream* s, ArrowSchema* out) {
  return guarded(s, [&] {
    StreamPrivate* p = priv(s);
    if (p->is_column) export_schema(p->df.column(0).dtype(), p->df.column(0).name(), out, p->options());
    else export_schema(p->df.schema(), out, p->options());
  });
}

int stream_get_next(ArrowArrayStream* s, ArrowArray* out) {
  return guarded(s, [&] {
    StreamPrivate* p = priv(s);
    if (p->next + 1 >= p->bounds.size()) {
      out->release = nullptr;  // end of stream
      return;
    }
    const size_t i = p->next++;
    if (!p->prepared.empty()) {
      *out = p->prepared[i];
      p->prepared[i].release = nullptr;
      return;
    }
    export_batch(p, i, out);
  });
}

const char* stream_get_last_error(ArrowArrayStream* s) {
  const std::string& e = priv(s)->last_error;
  return e.empty() ? nullptr : e.c_str();
}

void stream_release(ArrowArrayStream* s) {
  if (!s || !s->release) return;
  delete priv(s);
  s->release = nullptr;
}

// Holds an imported stream and releases it once.
struct StreamGuard {
  ArrowArrayStream stream{};
  ~StreamGuard() {
    if (stream.release) stream.release(&stream);
  }
  std::string error(int code) {
    const char* msg = stream.get_last_error ? stream.get_last_error(&stream) : nullptr;
    return msg ? std::string(msg) : err_msg("error code ", code);
  }
};

struct SchemaGuard {
  ArrowSchema schema{};
  ~SchemaGuard() {
    if (schema.release) schema.release(&schema);
  }
};

}  // namespace

namespace {

void export_stream_impl(const DataFrame& df, ArrowArrayStream* out, const ArrowExportOptions& options,
                        bool is_column) {
  auto p = std::make_unique<StreamPrivate>();
  p->df = df;
  p->is_column = is_column;
  p->strings = options.strings;
  if (options.requested && options.requested->release) copy_schema_formats(options.requested, &p->requested);
  std::set<int64_t> bounds{0, df.height()};
  for (const auto& col : df.columns()) {
    if (col.is_scalar()) continue;
    int64_t pos = 0;
    for (const auto& chunk : col.chunks()) bounds.insert(pos += chunk->length());
  }
  if (df.height() == 0) bounds = {0};
  p->bounds.assign(bounds.begin(), bounds.end());
  if (options.prepare_all && p->bounds.size() > 1) {
    p->prepared.resize(p->bounds.size() - 1, ArrowArray{});
    // On a throw, ~StreamPrivate releases the batches made so far.
    for (size_t i = 0; i + 1 < p->bounds.size(); ++i) export_batch(p.get(), i, &p->prepared[i]);
  }
  out->get_schema = stream_get_schema;
  out->get_next = stream_get_next;
  out->get_last_error = stream_get_last_error;
  out->release = stream_release;
  out->private_data = p.release();
}

}  // namespace

void export_stream(const DataFrame& df, ArrowArrayStream* out, const ArrowExportOptions& options) {
  export_stream_impl(df, out, options, false);
}

namespace {

void take_stream(ArrowArrayStream* stream, StreamGuard& g, SchemaGuard& sg) {
  if (!stream || !stream->release) throw ComputeError("cannot import an Arrow stream that is released");
  g.stream = *stream;
  stream->release = nullptr;
  if (!g.stream.get_schema || !g.stream.get_next)
    throw ComputeError("cannot import an Arrow stream: callbacks are missing");
  if (int rc = g.stream.get_schema(&g.stream, &sg.schema))
    throw ComputeError("Arrow stream failed to give its schema: " + g.error(rc));
}

}  // namespace

void export_column_stream(const Column& column, ArrowArrayStream* out, const ArrowExportOptions& options) {
  export_stream_impl(DataFrame({column}), out, options, true);
}

Column import_column_stream(ArrowArrayStream* stream, const std::string& name,
                            const ArrowImportOptions& options) {
  StreamGuard g;
  SchemaGuard sg;
  take_stream(stream, g, sg);
  std::string col_name = sg.schema.name && sg.schema.name[0] ? sg.schema.name : name;
  DataType dtype = import_dtype(&sg.schema, col_name);
  std::vector<ArrayRef> chunks;
  while (true) {
    ArrowArray batch{};
    if (int rc = g.stream.get_next(&g.stream, &batch))
      throw ComputeError("Arrow stream failed to give its next batch: " + g.error(rc));
    if (!batch.release) break;
    ArrayRef chunk = import_array(&batch, &sg.schema, col_name, options);
    if (chunk->length() > 0) chunks.push_back(std::move(chunk));
  }
  return Column(col_name, dtype, std::move(chunks));
}

DataFrame import_stream(ArrowArrayStream* stream, const ArrowImportOptions& options) {
  StreamGuard g;
  SchemaGuard sg;
  take_stream(stream, g, sg);
  Schema schema = import_schema(&sg.schema);
  std::vector<std::vector<ArrayRef>> chunks(schema.size());
  int64_t height = 0;
  while (true) {
    ArrowArray batch{};
    if (int rc = g.stream.get_next(&g.stream, &batch))
      throw ComputeError("Arrow stream failed to give its next batch: " + g.error(rc));
    if (!batch.release) break;
    DataFrame part = import_frame(&batch, &sg.schema, options);
    height += part.height();
    for (size_t c = 0; c < schema.size(); ++c) {
      const Column& col = part.column(c);
      for (auto& chunk : col.chunks())
        if (chunk->length() > 0) chunks[c].push_back(chunk);
    }
  }
  if (schema.empty()) return DataFrame::empty_with_height(height);
  std::vector<Column> columns;
  for (size_t c = 0; c < schema.size(); ++c)
    columns.emplace_back(schema.field(c).name, schema.field(c).dtype, std::move(chunks[c]));
  return DataFrame(std::move(columns));
}

}  // namespace frazil::io
