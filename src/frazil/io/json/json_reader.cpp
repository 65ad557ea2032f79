#include "frazil/io/json/json_reader.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstring>

#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/fs/compressed.hpp"
#include "frazil/io/json/json_builder.hpp"
#include "frazil/io/json/json_infer.hpp"

namespace frazil::io {

namespace {

using simdjson::dom::element;

// 1-based line number of byte `pos`.
int64_t line_of(const char* data, size_t pos) {
  return 1 + std::count(data, data + pos, '\n');
}

[[noreturn]] void bad_line(const char* data, size_t pos, const std::string& name, const std::string& what) {
  throw ComputeError(err_msg("error parsing NDJSON '", name, "' at line ", line_of(data, pos), ": ", what));
}

// Polars' words, with the value's dtype ("i64", "list[i64]", "str", "null").
std::string not_an_object(element row) {
  return "NDJSON line expected to contain JSON object: " + json::infer_value(row).short_name();
}

bool blank(const char* b, const char* e) {
  for (; b < e; ++b)
    if (*b != ' ' && *b != '\t' && *b != '\r' && *b != '\n') return false;
  return true;
}

// Calls f(line_begin, line_end) for each non-blank line of [b, e) until f returns false.
template <typename F>
void for_each_line(const char* b, const char* e, F&& f) {
  while (b < e) {
    const char* nl = static_cast<const char*>(std::memchr(b, '\n', static_cast<size_t>(e - b)));
    const char* end = nl ? nl : e;
    if (!blank(b, end) && !f(b, end)) return;
    b = nl ? nl + 1 : e;
  }
}

Schema apply_overrides(Schema inferred, const JsonReadOptions& o) {
  if (o.schema_overrides.empty()) return inferred;
  std::vector<Field> fields = inferred.fields();
  for (const auto& ov : o.schema_overrides)
    for (auto& f : fields)
      if (f.name == ov.name) f.dtype = ov.dtype;
  return Schema(std::move(fields));
}

// Columns of a row object's fields merged into `fields`.
void merge_row(element row, std::vector<Field>& fields) {
  for (auto kv : simdjson::dom::object(row.get_object().value())) {
    const std::string key(kv.key);
    DataType t = json::infer_value(kv.value);
    bool found = false;
    for (auto& f : fields)
      if (f.name == key) {
        f.dtype = json::merge_types(f.dtype, t);
        found = true;
        break;
      }
    if (!found) fields.push_back(Field{key, t});
  }
}

// Polars' words for a value that does not fit its column.
std::string value_error(element v, const Field& f) {
  using simdjson::dom::element_type;
  std::string text = v.type() == element_type::STRING ? std::string(v.get_string().value()) : json::json_text(v);
  if (text.size() > 100) text = text.substr(0, 100) + "...";
  if (f.dtype.is_null()) return "got non-null value for NULL-typed column: " + text;
  const char* kind = v.type() == element_type::STRING   ? "string"
                     : v.type() == element_type::BOOL   ? "boolean"
                     : v.type() == element_type::ARRAY  ? "array"
                     : v.type() == element_type::OBJECT ? "object"
                                                        : "number";
  return err_msg("cannot parse '", text, "' (", kind, ") as ", f.dtype);
}

// Builds rows into column builders; one per parallel task.
class RowBuilder {
 public:
  RowBuilder(const Schema& schema, const JsonReadOptions& o, const char* data, const std::string& name)
      : schema_(schema), o_(o), data_(data), name_(name) {
    for (const auto& f : schema.fields()) cols_.push_back(json::ColumnBuilder::make(f.dtype, f.name));
  }
  // One row; `pos` is the line's offset in the input (for errors).
  void add(element row, size_t pos) {
    if (row.type() != simdjson::dom::element_type::OBJECT) {
      if (o_.ignore_errors) return null_row();
      bad_line(data_, pos, name_, not_an_object(row));
    }
    simdjson::dom::object obj = row.get_object().value();
    for (size_t i = 0; i < cols_.size(); ++i) {
      element v;
      if (obj.at_key(schema_.field(i).name).get(v) != simdjson::SUCCESS) {
        cols_[i]->push_null();
      } else if (!cols_[i]->push(v) && !o_.ignore_errors) {
        throw ComputeError(value_error(v, schema_.field(i)) + err_msg(" (column '", schema_.field(i).name, "', line ",
                                                                      line_of(data_, pos), " of '", name_,
                                                                      "'; set ignore_errors=True to read it as null)"));
      }
    }
    ++rows_;
  }
  void null_row() {
    for (auto& c : cols_) c->push_null();
    ++rows_;
  }
  int64_t rows() const { return rows_; }
  DataFrame finish() {
    std::vector<Column> cols;
    for (size_t i = 0; i < cols_.size(); ++i) cols.emplace_back(schema_.field(i).name, cols_[i]->finish());
    return cols.empty() ? DataFrame::empty_with_height(rows_) : DataFrame(std::move(cols));
  }

 private:
  const Schema& schema_;
  const JsonReadOptions& o_;
  const char* data_;
  const std::string& name_;
  std::vector<std::unique_ptr<json::ColumnBuilder>> cols_;
  int64_t rows_ = 0;
};

// Parses the lines of [b, e) into `rb`, at most `limit` rows (-1: all).
void parse_lines(const char* data, const char* b, const char* e, RowBuilder& rb, int64_t limit, const JsonReadOptions& o,
                 const std::string& name) {
  simdjson::dom::parser parser;
  for_each_line(b, e, [&](const char* lb, const char* le) {
    if (limit >= 0 && rb.rows() >= limit) return false;
    element row;
    auto err = parser.parse(lb, static_cast<size_t>(le - lb)).get(row);
    if (err) {
      if (o.ignore_errors) {
        rb.null_row();
        return true;
      }
      bad_line(data, static_cast<size_t>(lb - data), name, simdjson::error_message(err));
    }
    rb.add(row, static_cast<size_t>(lb - data));
    return true;
  });
}

Schema projected(const Schema& s, const JsonReadOptions& o) {
  if (!o.columns) return s;
  std::vector<Field> fields;
  for (const auto& c : *o.columns) fields.push_back(Field{c, s.dtype_of(c)});  // throws ColumnNotFoundError
  return Schema(std::move(fields));
}

}  // namespace

Schema ndjson_schema(const char* data, size_t size, const JsonReadOptions& o, const std::string& name) {
  if (o.schema) return *o.schema;
  std::vector<Field> fields;
  simdjson::dom::parser parser;
  int64_t seen = 0;
  for_each_line(data, data + size, [&](const char* lb, const char* le) {
    if (o.infer_schema_length && seen >= *o.infer_schema_length) return false;
    element row;
    auto err = parser.parse(lb, static_cast<size_t>(le - lb)).get(row);
    if (err) {
      if (o.ignore_errors) return true;
      bad_line(data, static_cast<size_t>(lb - data), name, simdjson::error_message(err));
    }
    if (row.type() != simdjson::dom::element_type::OBJECT) {
      if (o.ignore_errors) return true;
      bad_line(data, static_cast<size_t>(lb - data), name, not_an_object(row));
    }
    merge_row(row, fields);
    ++seen;
    return true;
  });
  return apply_overrides(Schema(std::move(fields)), o);
}

DataFrame read_ndjson(const char* data, size_t size, const JsonReadOptions& o, const std::string& name,
                      const Schema* schema) {
  const Schema full = schema ? *schema : ndjson_schema(data, size, o, name);
  const Schema s = projected(full, o);
  const int64_t limit = o.n_rows.value_or(-1);
  if (limit >= 0 || size < (1 << 20)) {
    RowBuilder rb(s, o, data, name);
    parse_lines(data, data, data + size, rb, limit, o, name);
    return rb.finish();
  }
  // Chunks cut at line ends, parsed in parallel, concatenated in order.
  const size_t target = o.chunk_size_bytes > 0 ? static_cast<size_t>(o.chunk_size_bytes)
                                               : std::max<size_t>(1 << 20, size / (4 * thread_pool_size()));
  std::vector<std::pair<const char*, const char*>> chunks;
  const char* b = data;
  const char* end = data + size;
  while (b < end) {
    const char* e = b + std::min(target, static_cast<size_t>(end - b));
    if (e < end) {
      const char* nl = static_cast<const char*>(std::memchr(e, '\n', static_cast<size_t>(end - e)));
      e = nl ? nl + 1 : end;
    }
    chunks.emplace_back(b, e);
    b = e;
  }
  std::vector<DataFrame> parts(chunks.size());
  parallel_for(chunks.size(), [&](size_t i) {
    RowBuilder rb(s, o, data, name);
    parse_lines(data, chunks[i].first, chunks[i].second, rb, -1, o, name);
    parts[i] = rb.finish();
  });
  return concat_frames(parts);
}

namespace {

// The rows of a JSON document: the elements of a top-level array, or one object.
element parse_document(simdjson::dom::parser& parser, const char* data, size_t size, const std::string& name) {
  element doc;
  auto err = parser.parse(data, size).get(doc);
  if (err) throw ComputeError(err_msg("error parsing JSON '", name, "': ", simdjson::error_message(err)));
  return doc;
}

}  // namespace

Schema json_schema(const char* data, size_t size, const JsonReadOptions& o, const std::string& name) {
  if (o.schema) return *o.schema;
  simdjson::dom::parser parser;
  element doc = parse_document(parser, data, size, name);
  std::vector<Field> fields;
  if (doc.type() == simdjson::dom::element_type::OBJECT) {
    merge_row(doc, fields);
  } else if (doc.type() == simdjson::dom::element_type::ARRAY) {
    int64_t seen = 0;
    for (element row : simdjson::dom::array(doc.get_array().value())) {
      if (o.infer_schema_length && seen++ >= *o.infer_schema_length) break;
      if (row.type() != simdjson::dom::element_type::OBJECT)
        throw ComputeError(err_msg("error parsing JSON '", name, "': the array's elements must be objects"));
      merge_row(row, fields);
    }
  } else {
    throw ComputeError(err_msg("error parsing JSON '", name, "': expected an array of objects or an object"));
  }
  return apply_overrides(Schema(std::move(fields)), o);
}

DataFrame read_json(const char* data, size_t size, const JsonReadOptions& o, const std::string& name) {
  // gzip, zstd or zlib input is decompressed (zlib's header, 0x78 then a check byte, never
  // starts JSON text), and a UTF-8 byte order mark skipped, as Polars does.
  const auto* bytes = reinterpret_cast<const uint8_t*>(data);
  TextCompression kind = detect_compression(bytes, size);
  if (kind == TextCompression::None && size >= 2 && bytes[0] == 0x78 && (bytes[0] * 256 + bytes[1]) % 31 == 0)
    kind = TextCompression::Gzip;  // zlib: the gzip inflater reads both headers
  std::string inflated;
  if (kind != TextCompression::None) {
    inflated = decompress(kind, bytes, size, name);
    data = inflated.data();
    size = inflated.size();
  }
  if (size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
    data += 3;
    size -= 3;
  }
  const Schema s = projected(json_schema(data, size, o, name), o);
  simdjson::dom::parser parser;
  element doc = parse_document(parser, data, size, name);
  RowBuilder rb(s, o, data, name);
  const int64_t limit = o.n_rows.value_or(-1);
  if (doc.type() == simdjson::dom::element_type::OBJECT) {
    rb.add(doc, 0);
  } else {
    for (element row : simdjson::dom::array(doc.get_array().value())) {
      if (limit >= 0 && rb.rows() >= limit) break;
      rb.add(row, 0);
    }
  }
  // Objects without keys make no columns, and then no rows either (Polars: "{}" is 0 x 0).
  if (s.size() == 0) return DataFrame::empty_with_height(0);
  return rb.finish();
}

}  // namespace frazil::io
