#include "frazil/io/dataset/file_scan.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/dataset/hive.hpp"
#include "frazil/io/dataset/paths.hpp"
#include "frazil/io/dataset/scan_log.hpp"

namespace frazil::io {

namespace {

[[noreturn]] void mismatch(const std::string& column, const DataType& target, const DataType& incoming,
                           const std::string& hint) {
  throw SchemaError(err_msg("data type mismatch for column ", column, ": incoming: ", incoming, " != target: ", target,
                            hint.empty() ? "" : ", ", hint));
}

int int_bits(const DataType& t) { return t.byte_width() * 8; }

// Lossless integer upcast: same signedness and wider, or unsigned into a wider signed.
bool lossless_int(const DataType& from, const DataType& to) {
  if (from.is_signed_integer() == to.is_signed_integer()) return int_bits(to) > int_bits(from);
  return from.is_unsigned_integer() && int_bits(to) > int_bits(from);
}

}  // namespace

bool needs_cast(const std::string& column, const DataType& target, const DataType& incoming, const CastPolicy& p) {
  if (incoming.is_null() && !target.is_null()) {
    if (p.null_upcast) return true;
    mismatch(column, target, incoming, "unimplemented: 'null-upcast' in scan cast options");
  }
  if (target.id() == TypeId::Struct) {
    if (incoming.id() != TypeId::Struct) mismatch(column, target, incoming, "");
    const auto& tf = target.fields();
    const auto& inf = incoming.fields();
    bool cast = tf.size() != inf.size();
    for (size_t t = 0; t < tf.size(); ++t) {
      size_t found = inf.size();
      for (size_t i = 0; i < inf.size(); ++i)
        if (inf[i].name == tf[t].name) found = i;
      if (found == inf.size()) {
        if (p.missing_struct_fields == MissingColumns::Raise)
          mismatch(column, target, incoming,
                   err_msg("encountered missing struct field: ", tf[t].name,
                           ", hint: pass cast_options=pl.ScanCastOptions(missing_struct_fields='insert')"));
        cast = true;
        continue;
      }
      cast |= found != t;
      cast |= needs_cast(column, tf[t].dtype, inf[found].dtype, p);
    }
    for (const auto& f : inf) {
      bool known = false;
      for (const auto& g : tf) known |= g.name == f.name;
      if (known) continue;
      if (p.extra_struct_fields == ExtraColumns::Raise)
        mismatch(column, target, incoming,
                 err_msg("encountered extra struct field: ", f.name,
                         ", hint: specify this field in the schema, or pass "
                         "cast_options=pl.ScanCastOptions(extra_struct_fields='ignore')"));
      cast = true;
    }
    return cast;
  }
  if (target.id() == TypeId::List) {
    if (incoming.id() != TypeId::List) mismatch(column, target, incoming, "");
    return needs_cast(column, target.inner(), incoming.inner(), p);
  }
  if (target == incoming) return false;
  if (target.is_integer() && incoming.is_integer()) {
    if (!p.integer_upcast) mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(integer_cast='upcast')");
    if (!lossless_int(incoming, target)) mismatch(column, target, incoming, "incoming dtype cannot safely cast to target dtype");
    return true;
  }
  if (target.is_float() && incoming.is_float()) {
    if (target.id() == TypeId::Float64) {
      if (!p.float_upcast) mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(float_cast='upcast')");
    } else if (!p.float_downcast) {
      mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(float_cast='downcast')");
    }
    return true;
  }
  if (target.is_float() && incoming.is_integer()) {
    if (!p.integer_to_float) mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(integer_cast='allow-float')");
    return true;
  }
  if (target.id() == TypeId::Datetime && incoming.id() == TypeId::Datetime) {
    auto utc = [](const std::optional<std::string>& z) { return z.value_or("UTC"); };
    if (!p.datetime_convert_timezone && utc(target.time_zone()) != utc(incoming.time_zone()))
      mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(datetime_cast='convert-timezone')");
    const TimeUnit from = incoming.time_unit(), to = target.time_unit();
    if (from != to) {
      if (from == TimeUnit::Nanoseconds && !p.datetime_nanoseconds_downcast)
        mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(datetime_cast='nanosecond-downcast')");
      if (from == TimeUnit::Microseconds && to == TimeUnit::Milliseconds && !p.datetime_microseconds_downcast)
        mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(datetime_cast='microsecond-downcast')");
      if (from == TimeUnit::Microseconds && to == TimeUnit::Nanoseconds && !p.datetime_microseconds_upcast)
        mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(datetime_cast='microsecond-upcast')");
      if (from == TimeUnit::Milliseconds && !p.datetime_milliseconds_upcast)
        mismatch(column, target, incoming, "hint: pass cast_options=pl.ScanCastOptions(datetime_cast='millisecond-upcast')");
    }
    return true;
  }
  mismatch(column, target, incoming, "");
}

ArrayRef conform_array(const ArrayRef& a, const DataType& target, const CastPolicy& p, const CastFn& cast) {
  const DataType& in = a->dtype();
  if (in == target) return a;
  if (target.id() == TypeId::Struct && in.id() == TypeId::Struct) {
    // A struct's field j at row i is its child's row offset + i.
    std::vector<ArrayRef> children;
    for (const auto& tf : target.fields()) {
      ArrayRef child;
      for (size_t i = 0; i < in.fields().size(); ++i)
        if (in.fields()[i].name == tf.name) child = a->child(i)->slice(a->offset(), a->length());
      children.push_back(child ? conform_array(child, tf.dtype, p, cast) : make_null_array(tf.dtype, a->length()));
    }
    Buffer validity;
    if (a->has_validity()) {
      validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(a->length())));
      copy_bits(a->validity_bits(), a->offset(), a->length(), validity.mutable_data(), 0);
    }
    return Array::make(target, a->length(), validity, {}, std::move(children));
  }
  if (target.id() == TypeId::List && in.id() == TypeId::List) {
    ArrayRef values = conform_array(a->child(0), target.inner(), p, cast);
    return Array::make(target, a->length(), a->validity_buffer(), a->buffers(), {values}, a->offset());
  }
  if (!cast) throw InternalError("a scan needs a cast but has no cast function");
  return cast(a, target);
}

// ------------------------------------------------------------------------- FileScan

namespace {

// The directory holding `path` ("a/b=1/" and "a/b=1" are both in "a").
std::string parent_of(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

}  // namespace

FileScan::FileScan(FileScanArgs args, std::shared_ptr<FormatReader> reader)
    : args_(std::move(args)), reader_(std::move(reader)) {
  // Where each input's hive partitions start: below a directory that was named, else the
  // whole path (files and globs, as Polars parses them).
  std::vector<std::string> hive_bases;
  bool single_directory = false;
  if (args_.hive_schema && !args_.hive_schema->empty()) {
    if (args_.hive_partitioning == false)
      throw ComputeError("a hive schema was given but hive_partitioning was disabled");
    if (!args_.hive_partitioning) args_.hive_partitioning = true;  // a hive schema turns it on
  }
  if (!args_.buffers.empty()) {
    for (size_t i = 0; i < args_.buffers.size(); ++i) {
      ScanInput in;
      in.path = args_.paths.size() == args_.buffers.size() ? args_.paths[i] : err_msg("in-memory source #", i + 1);
      in.bytes = args_.buffers[i];
      in.in_memory = true;
      inputs_.push_back(std::move(in));
    }
  } else {
    std::vector<ExpandedPath> expanded;
    for (const auto& p : args_.paths) expanded.push_back(expand_path(p, args_.glob, args_.hidden_file_prefixes));
    single_directory = expanded.size() == 1 && expanded[0].is_directory;
    // With hive partitioning, inputs must start their partitions at one directory level
    // (Polars' rule: a directory starts them below itself, a file or glob at the root; a
    // change of start between inputs of different parents is an error).
    bool all_directories = true;
    size_t start = SIZE_MAX;
    for (size_t i = 0; i < expanded.size(); ++i) {
      all_directories &= expanded[i].is_directory;
      const size_t here = expanded[i].is_directory ? args_.paths[i].size() : 0;
      if (args_.hive_partitioning.value_or(false) && start != SIZE_MAX && start != here &&
          parent_of(args_.paths[i]) != parent_of(args_.paths[i - 1]))
        throw InvalidOperationError(err_msg("attempted to read from different directory levels with hive "
                                            "partitioning enabled: first path: ", args_.paths[i - 1],
                                            ", second path: ", args_.paths[i]));
      start = std::min(start, here);
    }
    for (auto& e : expanded)
      for (auto& f : e.files) {
        hive_bases.push_back(all_directories ? e.hive_base : std::string());
        inputs_.push_back(ScanInput{std::move(f), Buffer(), false});
      }
  }
  if (inputs_.empty()) {
    // Polars' words, raised when the scan is read (a given schema reads as an empty frame).
    const std::string fmt = reader_->format_name();
    std::string paths;
    for (const auto& p : args_.paths) paths += (paths.empty() ? "\"" : ", \"") + p + "\"";
    empty_error_ = err_msg("failed to retrieve ", fmt == "csv" ? "file schemas" : "first file schema", " (", fmt,
                           "): expanded paths were empty (path expansion input: 'paths: [", paths,
                           "], glob: ", args_.glob ? "true" : "false", ").",
                           fmt == "parquet" ? " Hint: passing a schema can allow this scan to succeed with an empty "
                                              "DataFrame."
                                            : "");
    if (args_.buffers.empty() && args_.paths.empty()) empty_error_ = "expected at least 1 source";
  }
  // The file columns: the user's schema, or the first source's.
  if (args_.schema) file_schema_ = *args_.schema;
  else if (!inputs_.empty())
    file_schema_ = reader_->scan_schema(inputs_, args_.missing_columns == MissingColumns::Insert, &schema_error_);
  std::vector<Field> fields;
  if (args_.row_index_name) {
    if (file_schema_.contains(*args_.row_index_name))
      throw DuplicateError(err_msg("cannot add row_index with name '", *args_.row_index_name,
                                   "': column already exists in file"));
    fields.push_back(Field{*args_.row_index_name, DataType::uint32()});
  }
  const bool hive = args_.hive_partitioning.value_or(single_directory) && !args_.buffers.size();
  std::vector<Field> file_fields = file_schema_.fields();
  std::vector<Field> extra_hive;
  if (hive) {
    std::vector<std::string> files;
    for (const auto& in : inputs_) files.push_back(in.path);
    HivePartitions h = read_hive_partitions(files, hive_bases, file_schema_, args_.hive_schema, args_.try_parse_hive_dates);
    hive_ = h.values;
    hive_fields_ = h.schema;
    for (const auto& f : h.schema.fields()) {
      bool in_file = false;
      for (auto& ff : file_fields)
        if (ff.name == f.name) {
          ff.dtype = f.dtype;  // the partition value replaces the file's column, in its place
          in_file = true;
        }
      if (!in_file) extra_hive.push_back(f);
    }
  }
  fields.insert(fields.end(), file_fields.begin(), file_fields.end());
  fields.insert(fields.end(), extra_hive.begin(), extra_hive.end());
  if (args_.include_file_paths) {
    for (const auto& f : fields)
      if (f.name == *args_.include_file_paths)
        throw DuplicateError(err_msg("column name for file paths \"", f.name, "\" conflicts with column name from file"));
    fields.push_back(Field{*args_.include_file_paths, DataType::string()});
  }
  schema_ = Schema(std::move(fields));  // throws DuplicateError (e.g. a file path column named as a file column)
}

bool FileScan::is_generated(const std::string& name) const {
  if (args_.row_index_name && name == *args_.row_index_name) return true;
  if (args_.include_file_paths && name == *args_.include_file_paths) return true;
  return hive_fields_.contains(name);
}

parquet::RowGroupStats FileScan::hive_stats(size_t input) const {
  // One row of partition values: a 1-row group whose statistics are exact.
  parquet::RowGroupStats st;
  st.path = inputs_[input].path;
  st.num_rows = 1;
  for (const Column& c : hive_.columns()) {
    Scalar v = c.get(static_cast<int64_t>(input));
    parquet::ColumnStatistics cs;
    cs.null_count = v.is_null() ? 1 : 0;
    if (!v.is_null()) cs.min = cs.max = v;
    st.names.push_back(c.name());
    st.columns.push_back(cs);
  }
  return st;
}

DataFrame FileScan::read_input(size_t i, const std::vector<std::string>& file_columns, std::optional<int64_t> n_rows,
                               const ReadHints& hints, const CastFn& cast) const {
  const ScanInput& in = inputs_[i];
  const Schema own = reader_->schema(in);
  // Columns of the source outside the scan's schema.
  if (args_.extra_columns == ExtraColumns::Raise)
    for (const auto& f : own.fields())
      if (!file_schema_.contains(f.name) && !is_generated(f.name))
        throw SchemaError(err_msg("extra column in file outside of expected schema: ", f.name,
                                  ", hint: specify this column in the schema, or pass extra_columns='ignore' in scan "
                                  "options. File containing extra column: '", in.path, "'."));
  if (args_.row_index_name && own.contains(*args_.row_index_name))
    throw DuplicateError(err_msg("cannot add row_index with name '", *args_.row_index_name,
                                 "': column already exists in file"));
  std::vector<std::string> present;
  for (const auto& c : file_columns) {
    if (own.contains(c)) present.push_back(c);
    else if (args_.missing_columns == MissingColumns::Raise)
      throw ColumnNotFoundError(err_msg("did not find column ", c, ", consider passing `missing_columns='insert'`"));
  }
  DataFrame df = reader_->read(in, present, n_rows, hints);
  std::vector<Column> cols;
  for (const auto& c : file_columns) {
    const DataType& target = file_schema_.dtype_of(c);
    if (auto idx = df.index_of(c)) {
      const Column& col = df.column(*idx);
      if (!needs_cast(c, target, col.dtype(), args_.cast)) {
        cols.push_back(col);
      } else {
        cols.emplace_back(c, conform_array(col.as_array(), target, args_.cast, cast));
      }
    } else {
      cols.emplace_back(c, make_null_array(target, df.height()));
    }
  }
  return cols.empty() ? DataFrame::empty_with_height(df.height()) : DataFrame(std::move(cols));
}

DataFrame FileScan::read(const std::vector<std::string>* columns, std::optional<int64_t> n_rows, const ReadHints& hints,
                         const std::function<bool(const parquet::RowGroupStats&)>& keep_input, const CastFn& cast) const {
  if (!empty_error_.empty() && !args_.schema) throw ComputeError(empty_error_);
  if (!schema_error_.empty()) throw ComputeError(schema_error_);
  if (n_rows && *n_rows < 0) throw InvalidOperationError("n_rows must not be negative");
  if (args_.n_rows) n_rows = n_rows ? std::min(*n_rows, *args_.n_rows) : *args_.n_rows;
  const std::vector<std::string> all = schema_.names();
  if (!columns) columns = &all;
  std::vector<Field> out_fields;
  for (const auto& c : *columns) out_fields.push_back(Field{c, schema_.dtype_of(c)});  // throws ColumnNotFoundError
  // The file columns to read: wanted ones that are not made by the scan.
  std::vector<std::string> file_columns;
  for (const auto& c : *columns)
    if (!is_generated(c) && file_schema_.contains(c)) file_columns.push_back(c);

  std::vector<size_t> chosen;
  const bool prune = !args_.row_index_name && keep_input && hive_.width() > 0;
  for (size_t i = 0; i < inputs_.size(); ++i)
    if (!prune || keep_input(hive_stats(i))) chosen.push_back(i);
  if (prune) log_files_skipped(inputs_.size() - chosen.size(), inputs_.size());

  std::vector<DataFrame> parts(chosen.size());
  if (n_rows) {
    int64_t left = *n_rows;
    size_t k = 0;
    for (; k < chosen.size() && left > 0; ++k) {
      parts[k] = read_input(chosen[k], file_columns, left, hints, cast);
      if (parts[k].height() > left) parts[k] = parts[k].head(left);
      left -= parts[k].height();
    }
    // Sources after the limit are not read.
    parts.resize(k);
    chosen.resize(k);
  } else {
    parallel_for(chosen.size(), [&](size_t k) { parts[k] = read_input(chosen[k], file_columns, std::nullopt, hints, cast); });
  }

  // The generated columns, then the output order.
  int64_t row = args_.row_index_offset;
  std::vector<DataFrame> frames;
  for (size_t k = 0; k < chosen.size(); ++k) {
    const DataFrame& part = parts[k];
    const int64_t h = part.height();
    std::vector<Column> cols;
    for (const auto& c : *columns) {
      if (args_.row_index_name && c == *args_.row_index_name) {
        if (row + h - 1 > static_cast<int64_t>(UINT32_MAX))
          throw ComputeError(err_msg("row index '", c, "' passes the maximum of the UInt32 index type"));
        std::vector<uint32_t> idx(static_cast<size_t>(h));
        for (int64_t r = 0; r < h; ++r) idx[static_cast<size_t>(r)] = static_cast<uint32_t>(row + r);
        Buffer b = Buffer::allocate(idx.size() * 4);
        if (h) std::memcpy(b.mutable_data(), idx.data(), idx.size() * 4);
        cols.emplace_back(c, Array::make(DataType::uint32(), h, Buffer(), {b}));
      } else if (args_.include_file_paths && c == *args_.include_file_paths) {
        cols.emplace_back(c, scalar_to_array(Scalar(DataType::string(), inputs_[chosen[k]].path), h));
      } else if (hive_fields_.contains(c)) {
        cols.emplace_back(c, scalar_to_array(hive_.column(*hive_.index_of(c)).get(static_cast<int64_t>(chosen[k])), h));
      } else {
        cols.push_back(part.column(*part.index_of(c)));
      }
    }
    row += h;
    frames.push_back(cols.empty() ? DataFrame::empty_with_height(h) : DataFrame(std::move(cols)));
  }
  if (frames.empty()) return out_fields.empty() ? DataFrame() : DataFrame::empty_with_schema(Schema(out_fields));
  return concat_frames(frames);
}

}  // namespace frazil::io
