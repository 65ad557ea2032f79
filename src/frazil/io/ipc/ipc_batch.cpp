#include "frazil/io/ipc/ipc_batch.hpp"

#include <cstring>
#include <memory>

#include "frazil/compute/array/layout.hpp"
#include "frazil/core/bitmap.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/core/string_view.hpp"
#include "frazil/io/arrow/export.hpp"
#include "frazil/io/arrow/import.hpp"
#include "frazil/io/ipc/ipc_dictionaries.hpp"

namespace frazil::io::ipc {

namespace {

// ------------------------------------------------------------ C arrays over a body

struct ArrayNode {
  std::vector<Buffer> keep;  // what the pointers point into
  std::vector<const void*> ptrs;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> child_ptrs;
  std::unique_ptr<ArrowArray> dictionary;
};

void release_node(ArrowArray* a) {
  if (!a || !a->release) return;
  auto* p = static_cast<ArrayNode*>(a->private_data);
  for (auto& c : p->children)
    if (c->release) c->release(c.get());
  if (p->dictionary && p->dictionary->release) p->dictionary->release(p->dictionary.get());
  delete p;
  a->release = nullptr;
}

void fill(ArrowArray* out, std::unique_ptr<ArrayNode> p, int64_t length, int64_t null_count) {
  static const void* kNoBuffers[1] = {nullptr};
  for (auto& c : p->children) p->child_ptrs.push_back(c.get());
  out->length = length;
  out->null_count = null_count;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(p->ptrs.size());
  out->buffers = p->ptrs.empty() ? kNoBuffers : p->ptrs.data();
  out->n_children = static_cast<int64_t>(p->children.size());
  out->children = p->child_ptrs.empty() ? nullptr : p->child_ptrs.data();
  out->dictionary = p->dictionary.get();
  out->release = release_node;
  out->private_data = p.release();
}

// Bytes per value of a fixed-width format (0: not fixed-width).
int64_t fixed_width(const std::string& f) {
  if (f.size() == 1) {
    switch (f[0]) {
      case 'c': case 'C': return 1;
      case 's': case 'S': case 'e': return 2;
      case 'i': case 'I': case 'f': return 4;
      case 'l': case 'L': case 'g': return 8;
      default: return 0;
    }
  }
  if (f == "tdD" || f == "tts" || f == "ttm" || f == "tiM") return 4;
  if (f == "tdm" || f == "ttu" || f == "ttn" || f == "tiD") return 8;
  if (f == "tin" || f == "_pli128" || f == "_plu128") return 16;
  if (f.rfind("ts", 0) == 0 || f.rfind("tD", 0) == 0) return 8;
  if (f.rfind("d:", 0) == 0) {
    const size_t second = f.find(',', f.find(',') + 1);
    return second == std::string::npos ? 16 : std::stoll(f.substr(second + 1)) / 8;
  }
  if (f.rfind("w:", 0) == 0) return std::stoll(f.substr(2));
  return 0;
}

class Decoder {
 public:
  Decoder(const fb::RecordBatch* rb, const Buffer& body, const DictionaryMap& dicts, const std::string& context)
      : rb_(rb), body_(body), dicts_(dicts), context_(context) {
    if (const fb::BodyCompression* c = rb->compression()) {
      if (c->method() != fb::BodyCompressionMethod_BUFFER) bad("unknown body compression method");
      codec_ = c->codec() == fb::CompressionType_ZSTD ? IpcCompression::Zstd : IpcCompression::Lz4;
    }
  }

  // Decompresses every buffer of the batch at once, on the pool (for reads of all columns:
  // a projection decompresses only what it reads, one buffer at a time).
  void decompress_all() {
    if (codec_ == IpcCompression::Uncompressed) return;
    const size_t n = buffer_count();
    std::vector<Buffer> out(n);
    parallel_for(n, [&](size_t i) { out[i] = decompress_ipc_buffer(codec_, raw_buffer(i), context_); });
    decompressed_ = std::move(out);
  }

  void decode(const IpcField& f, ArrowArray* out) {
    const fb::FieldNode* node = next_node();
    const int64_t len = node->length(), nulls = node->null_count();
    if (len < 0 || nulls < 0 || nulls > len) bad(err_msg("column '", f.name, "': length ", len, ", null count ", nulls));
    auto p = std::make_unique<ArrayNode>();
    if (f.dictionary_id) {
      validity(*p, len, nulls, f);
      values(*p, len * fixed_width(f.index_format), f);
      auto it = dicts_.find(*f.dictionary_id);
      if (it == dicts_.end()) bad(err_msg("column '", f.name, "': no dictionary batch of id ", *f.dictionary_id));
      p->dictionary = std::make_unique<ArrowArray>();
      export_array(it->second, p->dictionary.get());
      return fill(out, std::move(p), len, nulls ? -1 : 0);
    }
    const std::string& fmt = f.format;
    if (fmt == "n") return fill(out, std::move(p), len, len);
    if (fmt == "+r" || fmt.rfind("+u", 0) == 0 || fmt.rfind("+v", 0) == 0)
      throw InvalidOperationError(err_msg("IPC ", context_, ": column '", f.name, "' of Arrow format '", fmt,
                                          "' is not supported"));
    validity(*p, len, nulls, f);
    if (fmt == "b") {
      values(*p, bitmap_bytes(len), f);
    } else if (const int64_t w = fixed_width(fmt)) {
      values(*p, len * w, f, w >= 16 ? 16 : 8);
    } else if (fmt == "u" || fmt == "z" || fmt == "U" || fmt == "Z") {
      const bool large = fmt == "U" || fmt == "Z";
      const int64_t last = offsets(*p, len, large, f);
      Buffer data = next_buffer();
      if (last > static_cast<int64_t>(data.size())) bad(err_msg("column '", f.name, "': offsets point past its data"));
      keep(*p, data);
    } else if (f.is_view) {
      values(*p, len * static_cast<int64_t>(sizeof(View)), f);
      const auto* counts = rb_->variadic_buffer_counts();
      if (!counts || variadic_ >= counts->size()) bad(err_msg("column '", f.name, "': variadic buffer count missing"));
      const int64_t k = counts->Get(static_cast<flatbuffers::uoffset_t>(variadic_++));
      if (k < 0 || k > static_cast<int64_t>(buffer_count())) bad(err_msg("column '", f.name, "': ", k, " data buffers"));
      Buffer sizes = Buffer::allocate(static_cast<size_t>(std::max<int64_t>(k, 1)) * sizeof(int64_t));
      for (int64_t i = 0; i < k; ++i) {
        Buffer d = next_buffer();
        sizes.mutable_as<int64_t>()[i] = static_cast<int64_t>(d.size());
        keep(*p, d);
      }
      keep(*p, sizes);
    } else if (fmt == "+l" || fmt == "+m" || fmt == "+L") {
      offsets(*p, len, fmt == "+L", f);
      child(*p, f.children[0]);
    } else if (fmt.rfind("+w:", 0) == 0) {
      child(*p, f.children[0]);
    } else if (fmt == "+s") {
      for (const auto& c : f.children) child(*p, c);
    } else {
      throw InvalidOperationError(err_msg("IPC ", context_, ": column '", f.name, "' of Arrow format '", fmt,
                                          "' is not supported"));
    }
    fill(out, std::move(p), len, nulls ? -1 : 0);
  }

  // Steps over a field without touching its buffers.
  void skip(const IpcField& f) {
    next_node();
    buffer_ += static_cast<size_t>(f.buffers);
    if (f.dictionary_id) return;
    if (f.is_view) {
      const auto* counts = rb_->variadic_buffer_counts();
      if (!counts || variadic_ >= counts->size()) bad("variadic buffer count missing");
      const int64_t k = counts->Get(static_cast<flatbuffers::uoffset_t>(variadic_++));
      if (k < 0) bad("negative variadic buffer count");
      buffer_ += static_cast<size_t>(k);
    }
    for (const auto& c : f.children) skip(c);
  }

  int64_t node_length_at(size_t i) const {
    if (!rb_->nodes() || i >= rb_->nodes()->size()) bad("fewer field nodes than the schema has arrays");
    return rb_->nodes()->Get(static_cast<flatbuffers::uoffset_t>(i))->length();
  }
  size_t node_index() const { return node_; }

 private:
  [[noreturn]] void bad(const std::string& what) const {
    throw ComputeError(err_msg("IPC ", context_, ": malformed record batch: ", what));
  }

  size_t buffer_count() const { return rb_->buffers() ? rb_->buffers()->size() : 0; }

  const fb::FieldNode* next_node() {
    if (!rb_->nodes() || node_ >= rb_->nodes()->size()) bad("fewer field nodes than the schema has arrays");
    return rb_->nodes()->Get(static_cast<flatbuffers::uoffset_t>(node_++));
  }

  // `align`: the alignment the values are read at in place (a misaligned buffer is copied).
  Buffer next_buffer(size_t align = 8) {
    if (buffer_ >= buffer_count()) bad("fewer buffers than the schema needs");
    const size_t i = buffer_++;
    Buffer out;
    if (!decompressed_.empty()) out = decompressed_[i];
    else if (codec_ != IpcCompression::Uncompressed) out = decompress_ipc_buffer(codec_, raw_buffer(i), context_);
    else out = raw_buffer(i);
    // Values are read in place: keep them aligned to 8 bytes (some writers do not), 128-bit
    // values to 16 (they are loaded with 16-byte aligned instructions; Arrow promises 8).
    if (out.size() > 0 && reinterpret_cast<uintptr_t>(out.data()) % align != 0) {
      Buffer copy = Buffer::allocate(out.size());
      std::memcpy(copy.mutable_data(), out.data(), out.size());
      out = copy;
    }
    return out;
  }

  // Buffer i of the body as it is stored (compressed or not), checked to lie in the body.
  Buffer raw_buffer(size_t i) const {
    const fb::Buffer* b = rb_->buffers()->Get(static_cast<flatbuffers::uoffset_t>(i));
    const int64_t off = b->offset(), len = b->length();
    if (off < 0 || len < 0 || off > static_cast<int64_t>(body_.size()) || len > static_cast<int64_t>(body_.size()) - off)
      bad(err_msg("buffer [", off, ", +", len, ") lies outside the body of ", body_.size(), " bytes"));
    return body_.slice(static_cast<size_t>(off), static_cast<size_t>(len));
  }

  static void keep(ArrayNode& p, const Buffer& b) {
    static const uint64_t kZeros[2] = {0, 0};
    p.ptrs.push_back(b.size() > 0 ? static_cast<const void*>(b.data()) : static_cast<const void*>(kZeros));
    p.keep.push_back(b);
  }

  void validity(ArrayNode& p, int64_t len, int64_t nulls, const IpcField& f) {
    Buffer b = next_buffer();
    if (b.size() == 0) {
      if (nulls > 0) bad(err_msg("column '", f.name, "' has ", nulls, " nulls but no validity buffer"));
      p.ptrs.push_back(nullptr);
      return;
    }
    if (static_cast<int64_t>(b.size()) < bitmap_bytes(len)) bad(err_msg("column '", f.name, "': validity buffer too short"));
    p.ptrs.push_back(nulls > 0 ? b.data() : nullptr);
    p.keep.push_back(b);
  }

  void values(ArrayNode& p, int64_t need, const IpcField& f, size_t align = 8) {
    Buffer b = next_buffer(align);
    if (static_cast<int64_t>(b.size()) < need)
      bad(err_msg("column '", f.name, "': values buffer of ", b.size(), " bytes, ", need, " needed"));
    keep(p, b);
  }

  // The offsets buffer; returns the last offset (0 for an empty array without offsets).
  int64_t offsets(ArrayNode& p, int64_t len, bool large, const IpcField& f) {
    Buffer b = next_buffer();
    const int64_t w = large ? 8 : 4;
    if (b.size() == 0 && len == 0) {
      keep(p, b);  // points at zeros
      return 0;
    }
    if (static_cast<int64_t>(b.size()) < (len + 1) * w) bad(err_msg("column '", f.name, "': offsets buffer too short"));
    keep(p, b);
    int64_t last;
    if (large) std::memcpy(&last, b.data() + len * 8, 8);
    else {
      int32_t l32;
      std::memcpy(&l32, b.data() + len * 4, 4);
      last = l32;
    }
    return last;
  }

  void child(ArrayNode& p, const IpcField& c) {
    p.children.push_back(std::make_unique<ArrowArray>());
    decode(c, p.children.back().get());
  }

  const fb::RecordBatch* rb_;
  Buffer body_;
  const DictionaryMap& dicts_;
  const std::string& context_;
  IpcCompression codec_ = IpcCompression::Uncompressed;
  size_t node_ = 0, buffer_ = 0, variadic_ = 0;
  std::vector<Buffer> decompressed_;  // all buffers, when decompress_all() ran
};

const IpcField* find_dictionary_field(const std::vector<IpcField>& fields, int64_t id) {
  for (const auto& f : fields) {
    if (f.dictionary_id && *f.dictionary_id == id) return &f;
    if (const IpcField* c = find_dictionary_field(f.children, id)) return c;
  }
  return nullptr;
}

}  // namespace

DataFrame decode_batch(const IpcSchema& schema, const fb::RecordBatch* rb, const Buffer& body,
                       const DictionaryMap& dictionaries, const std::vector<size_t>* columns,
                       const std::string& context) {
  if (!rb) throw ComputeError(err_msg("IPC ", context, ": record batch message without its header"));
  const int64_t rows = rb->length();
  if (rows < 0) throw ComputeError(err_msg("IPC ", context, ": negative record batch length"));
  std::vector<size_t> all;
  if (!columns) {
    for (size_t i = 0; i < schema.fields.size(); ++i) all.push_back(i);
    columns = &all;
  }
  // Decode the wanted fields in file order (buffers are positional), then order them.
  std::vector<int> slot(schema.fields.size(), -1);
  for (size_t k = 0; k < columns->size(); ++k) slot[(*columns)[k]] = static_cast<int>(k);
  std::vector<std::unique_ptr<ArrowArray>> decoded(columns->size());
  Decoder d(rb, body, dictionaries, context);
  if (columns->size() == schema.fields.size()) d.decompress_all();
  auto release_all = [&] {
    for (auto& a : decoded)
      if (a && a->release) a->release(a.get());
  };
  try {
    for (size_t i = 0; i < schema.fields.size(); ++i) {
      const IpcField& f = schema.fields[i];
      if (slot[i] < 0) {
        d.skip(f);
        continue;
      }
      if (d.node_length_at(d.node_index()) != rows)
        throw ComputeError(err_msg("IPC ", context, ": column '", f.name, "' has ", d.node_length_at(d.node_index()),
                                   " rows in a record batch of ", rows));
      decoded[static_cast<size_t>(slot[i])] = std::make_unique<ArrowArray>();
      d.decode(f, decoded[static_cast<size_t>(slot[i])].get());
    }
  } catch (...) {
    release_all();
    throw;
  }
  if (columns->empty()) return DataFrame::empty_with_height(rows);
  auto top = std::make_unique<ArrayNode>();
  top->ptrs = {nullptr};
  std::vector<const IpcField*> fields;
  for (size_t k = 0; k < columns->size(); ++k) {
    top->children.push_back(std::move(decoded[k]));
    fields.push_back(&schema.fields[(*columns)[k]]);
  }
  ArrowArray array;
  fill(&array, std::move(top), rows, 0);
  ArrowSchema s;
  make_arrow_schema(fields, &s, [&](int64_t id) -> std::optional<DataType> {
    auto it = dictionaries.find(id);
    if (it == dictionaries.end()) return std::nullopt;
    return it->second->dtype();
  });
  try {
    DataFrame df = import_frame(&array, &s);
    s.release(&s);
    return df;
  } catch (...) {
    if (array.release) array.release(&array);
    s.release(&s);
    throw;
  }
}

void decode_dictionary(const IpcSchema& schema, const fb::DictionaryBatch* batch, const Buffer& body,
                       DictionaryMap& dictionaries, const std::string& context) {
  if (!batch || !batch->data()) throw ComputeError(err_msg("IPC ", context, ": dictionary batch without its data"));
  const IpcField* f = find_dictionary_field(schema.fields, batch->id());
  if (!f) throw ComputeError(err_msg("IPC ", context, ": dictionary batch of unknown id ", batch->id()));
  // The values as a one-column batch of the field's value type.
  IpcSchema values;
  values.fields.push_back(*f);
  values.fields[0].dictionary_id.reset();
  values.fields[0].nullable = true;
  DataFrame df = decode_batch(values, batch->data(), body, dictionaries, nullptr, context);
  ArrayRef arr = df.column(0).as_array();
  auto it = dictionaries.find(batch->id());
  if (batch->is_delta() && it != dictionaries.end()) arr = concat_arrays({it->second, arr});
  dictionaries[batch->id()] = arr;
}

// ------------------------------------------------------------------------ encoding

namespace {

class Encoder {
 public:
  Encoder(const EncodeOptions& o, BatchBody& body) : opt_(o), body_(body) {}

  void array(const Array& a, int64_t off, int64_t len) {
    const DataType& t = a.dtype();
    const int64_t pos = a.offset() + off;  // where the window starts in a's buffers
    int64_t nulls = 0;
    if (t.is_null()) nulls = len;
    else if (a.has_validity()) nulls = len - count_set_bits(a.validity_bits(), pos, len);
    nodes_.emplace_back(len, nulls);
    if (t.is_null()) return;  // no buffers
    if (nulls > 0) bits(a.validity_bits(), pos, len);
    else emit(nullptr, 0);
    switch (t.id()) {
      case TypeId::Boolean: bits(a.buffer(0).data(), pos, len); return;
      case TypeId::String:
      case TypeId::Binary: return opt_.compat_oldest ? large_binary(a, off, len) : views(a, pos, len);
      case TypeId::List: {
        const int64_t* o = a.list_offsets() + off;
        const int64_t first = o[0], last = o[len];
        if (first == 0) {
          emit(reinterpret_cast<const uint8_t*>(o), static_cast<size_t>(len + 1) * 8);
        } else {
          std::vector<uint8_t> rebased(static_cast<size_t>(len + 1) * 8);
          auto* r = reinterpret_cast<int64_t*>(rebased.data());
          for (int64_t i = 0; i <= len; ++i) r[i] = o[i] - first;
          emit_owned(std::move(rebased));
        }
        return array(*a.child(0), first, last - first);
      }
      case TypeId::Array: {
        // fixed_size_list: no offsets; row j at child[j * width] (the strict layout, kept
        // alive with the body when it had to be made).
        ArrayRef r = compute::regular_array(*a.slice(off, len));
        if (r.get() != &a) body_.keep.push_back(r);
        return array(*r->child(0), 0, len * t.width());
      }
      case TypeId::Struct:
        // Field i's row j is the child's row offset + j.
        for (const auto& c : a.children()) array(*c, pos, len);
        return;
      case TypeId::Categorical:
      case TypeId::Enum: {
        // Indices into the field's dictionary (ids in the pre-order this walk follows).
        if (!opt_.dictionaries) throw InvalidOperationError(err_msg("cannot write a ", t, " column to Arrow IPC here"));
        emit_owned(opt_.dictionaries->indices(next_dictionary_++, a, pos, len));
        return;
      }
      default: {
        const int64_t w = t.byte_width();
        emit(a.buffer(0).data() + pos * w, static_cast<size_t>(len * w));
        return;
      }
    }
  }

  std::vector<std::pair<int64_t, int64_t>> nodes_;
  std::vector<std::pair<int64_t, int64_t>> buffers_;
  std::vector<int64_t> variadic_;
  int64_t next_dictionary_ = 0;

 private:
  // Uncompressed bytes are written from where they are; made or compressed ones are kept
  // in the body until it is written.
  // With compression, buffers are only noted here and compressed together in finish().
  void emit(const uint8_t* data, size_t size) {
    if (opt_.compression != IpcCompression::Uncompressed) {
      pending_.push_back({data, size});
      return;
    }
    place(data, size);
  }

  void place(const uint8_t* data, size_t size) {
    buffers_.emplace_back(body_.length, static_cast<int64_t>(size));
    body_.pieces.push_back({data, size});
    body_.length += static_cast<int64_t>((size + 7) / 8 * 8);
  }

  void emit_owned(std::vector<uint8_t>&& bytes) {
    body_.owned.push_back(std::move(bytes));  // a deque: the bytes stay where they are
    emit(body_.owned.back().data(), body_.owned.back().size());
  }

 public:
  // Compresses the noted buffers on the pool, then lays them out in order.
  void finish() {
    if (pending_.empty()) return;
    std::vector<std::vector<uint8_t>> packed(pending_.size());
    parallel_for(pending_.size(), [&](size_t i) {
      if (pending_[i].size > 0)
        compress_ipc_buffer(opt_.compression, opt_.compression_level, pending_[i].data, pending_[i].size, packed[i]);
    });
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].size == 0) {
        place(pending_[i].data, 0);
        continue;
      }
      body_.owned.push_back(std::move(packed[i]));
      place(body_.owned.back().data(), body_.owned.back().size());
    }
    pending_.clear();
  }

 private:
  std::vector<BatchBody::Piece> pending_;

  void bits(const uint8_t* src, int64_t pos, int64_t len) {
    if (pos % 8 == 0) return emit(src + pos / 8, static_cast<size_t>(bitmap_bytes(len)));
    std::vector<uint8_t> out(static_cast<size_t>(bitmap_bytes(len)), 0);
    copy_bits(src, pos, len, out.data(), 0);
    emit_owned(std::move(out));
  }

  void views(const Array& a, int64_t pos, int64_t len) {
    const View* v = a.buffer(0).as<View>() + pos;
    const size_t n_data = a.buffers().size() - 1;
    size_t total = 0, used = 0;
    for (size_t k = 0; k < n_data; ++k) total += a.buffer(1 + k).size();
    for (int64_t i = 0; i < len; ++i)
      if (!v[i].is_inline()) used += v[i].length;
    // Data buffers are written whole unless most of their bytes are not this window's.
    if (used * 2 >= total || total == 0) {
      emit(reinterpret_cast<const uint8_t*>(v), static_cast<size_t>(len) * sizeof(View));
      for (size_t k = 0; k < n_data; ++k) emit(a.buffer(1 + k).data(), a.buffer(1 + k).size());
      variadic_.push_back(static_cast<int64_t>(n_data));
      return;
    }
    // A window of a larger array: copy out only the bytes its views use (into buffers of
    // at most 2 GiB: a view's offset is 32 bits).
    std::vector<uint8_t> views_out(static_cast<size_t>(len) * sizeof(View));
    auto* nv = reinterpret_cast<View*>(views_out.data());
    std::memcpy(nv, v, views_out.size());
    std::vector<std::vector<uint8_t>> data(1);
    data[0].reserve(std::min<size_t>(used, size_t(1) << 31));
    for (int64_t i = 0; i < len; ++i) {
      View& x = nv[i];
      if (x.is_inline()) continue;
      if (data.back().size() + x.length > (size_t(1) << 31)) data.emplace_back();
      const char* s = reinterpret_cast<const char*>(a.buffer(1 + x.buffer_index()).data()) + x.offset();
      x = View::make_ref(s, x.length, static_cast<uint32_t>(data.size() - 1), static_cast<uint32_t>(data.back().size()));
      data.back().insert(data.back().end(), s, s + x.length);
    }
    emit_owned(std::move(views_out));
    for (auto& d : data) emit_owned(std::move(d));
    variadic_.push_back(static_cast<int64_t>(data.size()));
  }

  void large_binary(const Array& a, int64_t off, int64_t len) {
    std::vector<uint8_t> offs(static_cast<size_t>(len + 1) * 8, 0);
    auto* o = reinterpret_cast<int64_t*>(offs.data());
    std::vector<uint8_t> data;
    for (int64_t i = 0; i < len; ++i) {
      if (a.is_valid(off + i)) {
        std::string_view s = a.str_value(off + i);
        data.insert(data.end(), s.begin(), s.end());
      }
      o[i + 1] = static_cast<int64_t>(data.size());
    }
    emit_owned(std::move(offs));
    emit_owned(std::move(data));
  }

  const EncodeOptions& opt_;
  BatchBody& body_;
};

}  // namespace

namespace {

// The RecordBatch table of `columns` (each `rows` long) and its body.
flatbuffers::Offset<fb::RecordBatch> encode_record_batch(const std::vector<ArrayRef>& columns, int64_t rows,
                                                         const EncodeOptions& options,
                                                         flatbuffers::FlatBufferBuilder& fbb, BatchBody& body) {
  body = BatchBody();
  Encoder e(options, body);
  for (const ArrayRef& c : columns) {
    body.keep.push_back(c);
    e.array(*c, 0, rows);
  }
  e.finish();
  std::vector<fb::FieldNode> nodes;
  for (const auto& [len, nulls] : e.nodes_) nodes.emplace_back(len, nulls);
  std::vector<fb::Buffer> buffers;
  for (const auto& [off, len] : e.buffers_) buffers.emplace_back(off, len);
  auto nodes_off = fbb.CreateVectorOfStructs(nodes);
  auto buffers_off = fbb.CreateVectorOfStructs(buffers);
  flatbuffers::Offset<fb::BodyCompression> comp;
  if (options.compression != IpcCompression::Uncompressed)
    comp = fb::CreateBodyCompression(
        fbb, options.compression == IpcCompression::Zstd ? fb::CompressionType_ZSTD : fb::CompressionType_LZ4_FRAME);
  auto variadic_off = e.variadic_.empty() ? flatbuffers::Offset<flatbuffers::Vector<int64_t>>()
                                          : fbb.CreateVector(e.variadic_);
  return fb::CreateRecordBatch(fbb, rows, nodes_off, buffers_off, comp, variadic_off);
}

}  // namespace

void encode_batch(const DataFrame& df, const EncodeOptions& options, flatbuffers::FlatBufferBuilder& fbb,
                  BatchBody& body) {
  std::vector<ArrayRef> columns;
  for (const Column& c : df.columns()) columns.push_back(c.as_array());
  auto rb = encode_record_batch(columns, df.height(), options, fbb, body);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion_V5, fb::MessageHeader_RecordBatch, rb.Union(), body.length));
}

void encode_dictionary_batch(int64_t id, const ArrayRef& values, bool delta, const EncodeOptions& options,
                             flatbuffers::FlatBufferBuilder& fbb, BatchBody& body) {
  auto rb = encode_record_batch({values}, values->length(), options, fbb, body);
  auto dict = fb::CreateDictionaryBatch(fbb, id, rb, delta);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion_V5, fb::MessageHeader_DictionaryBatch, dict.Union(), body.length));
}

}  // namespace frazil::io::ipc
