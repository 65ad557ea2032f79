// FileScan: what every scan_* has in common (Polars' unified scan arguments), for any file
// format: the sources (paths, globs, directories, in-memory bytes), hive partitions, the
// file path column, the row index, a row limit across files, a schema to read as, and what
// to do with files whose columns differ from it (missing / extra columns, casts).
//
// A FormatReader reads one source of one format; FileScan resolves the scan's schema once
// (when the plan is made) and reads the sources into frames of that schema.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/buffer.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/io/parquet/statistics.hpp"

namespace frazil::io {

// One source: a file, or bytes in memory (a Python BytesIO).
struct ScanInput {
  std::string path;  // the file, or a name for in-memory bytes ("in-memory source #1")
  Buffer bytes;
  bool in_memory = false;
};

// Hints a reader may use; the rows it returns are correct either way.
struct ReadHints {
  // Parquet: skip row groups whose statistics show no row can pass.
  std::function<bool(const parquet::RowGroupStats&)> row_group_predicate;
  // CSV: a filter applied to each parsed chunk (a Boolean mask of the chunk's rows); set
  // only when the scan's predicate reads file columns alone and no row index is made.
  std::function<ArrayRef(const DataFrame&)> row_filter;
};

class FormatReader {
 public:
  virtual ~FormatReader() = default;
  virtual const char* format_name() const = 0;  // "parquet", "csv", ...
  // The source's own columns.
  virtual Schema schema(const ScanInput& input) = 0;
  // The columns of a scan of `inputs` (not empty) when no schema is given: the first
  // source's. A format that infers dtypes (CSV) may merge several sources' instead; with
  // `union_columns` (missing_columns="insert") every column of those sources is kept. A
  // mismatch it cannot merge is returned in *error (raised when the scan is read).
  virtual Schema scan_schema(const std::vector<ScanInput>& inputs, bool union_columns, std::string* error) {
    (void)union_columns;
    (void)error;
    return schema(inputs[0]);
  }
  // The source's `columns` (all of them exist in it), at most n_rows rows when set. With no
  // columns, a frame of the source's height.
  virtual DataFrame read(const ScanInput& input, const std::vector<std::string>& columns,
                         std::optional<int64_t> n_rows, const ReadHints& hints) = 0;
};

enum class MissingColumns : uint8_t { Raise, Insert };
enum class ExtraColumns : uint8_t { Raise, Ignore };

// Polars' ScanCastOptions: which dtype differences between a file and the scan's schema
// are cast instead of raising SchemaError.
struct CastPolicy {
  bool integer_upcast = false;
  bool integer_to_float = false;
  bool float_upcast = false;
  bool float_downcast = false;
  bool datetime_nanoseconds_downcast = false;
  bool datetime_microseconds_downcast = false;
  bool datetime_microseconds_upcast = false;
  bool datetime_milliseconds_upcast = false;
  bool datetime_convert_timezone = false;
  bool null_upcast = true;
  MissingColumns missing_struct_fields = MissingColumns::Raise;
  ExtraColumns extra_struct_fields = ExtraColumns::Raise;
};

struct FileScanArgs {
  std::vector<std::string> paths;  // paths, globs or directories (empty when bytes are given)
  std::vector<Buffer> buffers;     // in-memory sources
  bool glob = true;
  std::vector<std::string> hidden_file_prefixes;  // file names skipped in directories and globs
  std::optional<bool> hive_partitioning;  // unset: on for a single directory
  std::optional<Schema> hive_schema;
  bool try_parse_hive_dates = true;
  std::optional<std::string> include_file_paths;
  std::optional<std::string> row_index_name;
  int64_t row_index_offset = 0;
  std::optional<int64_t> n_rows;  // across the sources, before any filter
  std::optional<Schema> schema;   // read as this schema instead of the first source's
  MissingColumns missing_columns = MissingColumns::Raise;
  ExtraColumns extra_columns = ExtraColumns::Raise;
  CastPolicy cast;
};

// Casts an array to a dtype (the exec layer passes compute's cast).
using CastFn = std::function<ArrayRef(const ArrayRef&, const DataType&)>;

class FileScan {
 public:
  // Expands the sources and reads the first one's schema (and the hive partitions of all).
  // Throws FileNotFoundError for a missing file. With no source at all (an empty directory,
  // a glob that matches nothing), reading raises ComputeError unless a schema was given.
  FileScan(FileScanArgs args, std::shared_ptr<FormatReader> reader);

  const FileScanArgs& args() const { return args_; }
  FormatReader& reader() const { return *reader_; }
  const std::vector<ScanInput>& inputs() const { return inputs_; }
  // [row index] the file columns (hive keys in their place), other hive keys, [file path].
  const Schema& schema() const { return schema_; }
  const Schema& hive_schema() const { return hive_fields_; }
  // The hive values: one row per input, one column per key (hive_schema()).
  const DataFrame& hive_values() const { return hive_; }
  // The hive values of input i as statistics (min = max = the value) for pruning.
  parquet::RowGroupStats hive_stats(size_t input) const;

  // Reads the scan: the output `columns` wanted (nullptr: all), at most n_rows rows (before
  // filtering; combined with the scan's own n_rows), skipping inputs `keep_input` rejects
  // (it sees hive statistics only). Row indices count the rows of skipped inputs too only
  // when their heights are known; inputs are not skipped when a row index is requested.
  DataFrame read(const std::vector<std::string>* columns, std::optional<int64_t> n_rows, const ReadHints& hints,
                 const std::function<bool(const parquet::RowGroupStats&)>& keep_input, const CastFn& cast) const;

  // Whether `name` is a column made by the scan rather than read from the files.
  bool is_generated(const std::string& name) const;

 private:
  DataFrame read_input(size_t i, const std::vector<std::string>& file_columns, std::optional<int64_t> n_rows,
                       const ReadHints& hints, const CastFn& cast) const;

  FileScanArgs args_;
  std::shared_ptr<FormatReader> reader_;
  std::vector<ScanInput> inputs_;
  Schema file_schema_;  // the first source's (or the user's) file columns
  DataFrame hive_;      // one row per input
  Schema hive_fields_;  // its columns
  std::string empty_error_;  // no source: raised when the scan is read without a schema
  std::string schema_error_;  // sources whose schemas do not merge: raised when the scan is read
  Schema schema_;
};

// Whether a source's dtype `incoming` may be read as `target` (false: equal, nothing to
// do); throws SchemaError naming the column and the cast option that would allow it.
bool needs_cast(const std::string& column, const DataType& target, const DataType& incoming, const CastPolicy& policy);

// Makes `array` (of dtype `incoming`) an array of `target` under the policy: struct fields
// reordered, inserted as nulls or dropped, leaves cast through `cast`.
ArrayRef conform_array(const ArrayRef& array, const DataType& target, const CastPolicy& policy, const CastFn& cast);

}  // namespace frazil::io
