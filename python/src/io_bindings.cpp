// Bindings of file I/O: scan_csv / scan_parquet (lazy), write_csv / write_parquet.
// Options arrive as a dict of Polars' keyword names; frazil/io.py documents them.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "core_common.hpp"
#include "frazil/api/io.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/dataset/file_scan.hpp"
#include "frazil/io/fs/compressed.hpp"
#include "frazil/io/fs/output_file.hpp"
#include "frazil/io/ipc/ipc_reader.hpp"
#include "frazil/io/json/json_reader.hpp"
#include "frazil/io/json/json_writer.hpp"
#include "frazil/io/ipc/ipc_writer.hpp"

namespace frazil::py {

namespace {

char single_char(nb::handle v, const char* what) {
  std::string s = nb::cast<std::string>(v);
  if (s.size() != 1) throw InvalidOperationError(err_msg("`", what, "` must be a single byte, got \"", s, "\""));
  return s[0];
}

Schema schema_from_py(nb::handle obj) {
  // A list of (name, native dtype) pairs.
  std::vector<Field> fields;
  for (nb::handle item : obj) {
    nb::tuple t = nb::cast<nb::tuple>(item);
    fields.push_back(Field{nb::cast<std::string>(t[0]), dtype_from_py(t[1])});
  }
  return Schema(std::move(fields));
}

io::CsvReadOptions csv_options(const nb::dict& d) {
  io::CsvReadOptions o;
  for (auto [key, value] : d) {
    std::string k = nb::cast<std::string>(key);
    if (value.is_none() && k != "quote_char" && k != "infer_schema_length") continue;
    if (k == "separator") o.separator = single_char(value, "separator");
    else if (k == "has_header") o.has_header = nb::cast<bool>(value);
    else if (k == "new_columns") o.new_columns = nb::cast<std::vector<std::string>>(value);
    else if (k == "schema") o.schema = schema_from_py(value);
    else if (k == "schema_overrides") o.schema_overrides = schema_from_py(value).fields();
    else if (k == "infer_schema_files")
      o.infer_schema_files = nb::cast<int64_t>(value);
    else if (k == "infer_schema_length")
      o.infer_schema_length = value.is_none() ? std::nullopt : std::optional<int64_t>(nb::cast<int64_t>(value));
    else if (k == "try_parse_dates") o.try_parse_dates = nb::cast<bool>(value);
    else if (k == "null_values_all") o.null_values.all = nb::cast<std::vector<std::string>>(value);
    else if (k == "null_values_per_column") {
      for (nb::handle item : value) {
        nb::tuple t = nb::cast<nb::tuple>(item);
        o.null_values.per_column.emplace_back(nb::cast<std::string>(t[0]), nb::cast<std::string>(t[1]));
      }
    } else if (k == "quote_char") {
      if (value.is_none()) o.quote_char.reset();
      else o.quote_char = single_char(value, "quote_char");
    } else if (k == "skip_rows") o.skip_rows = nb::cast<int64_t>(value);
    else if (k == "skip_lines") o.skip_lines = nb::cast<int64_t>(value);
    else if (k == "skip_rows_after_header") o.skip_rows_after_header = nb::cast<int64_t>(value);
    else if (k == "n_rows") o.n_rows = nb::cast<int64_t>(value);
    else if (k == "comment_prefix") o.comment_prefix = nb::cast<std::string>(value);
    else if (k == "missing_utf8_is_empty_string") o.missing_utf8_is_empty_string = nb::cast<bool>(value);
    else if (k == "row_index_name") o.row_index_name = nb::cast<std::string>(value);
    else if (k == "row_index_offset") o.row_index_offset = nb::cast<int64_t>(value);
    else if (k == "truncate_ragged_lines") o.truncate_ragged_lines = nb::cast<bool>(value);
    else if (k == "decimal_comma") o.decimal_comma = nb::cast<bool>(value);
    else if (k == "ignore_errors") o.ignore_errors = nb::cast<bool>(value);
    else if (k == "encoding") {
      std::string e = nb::cast<std::string>(value);
      if (e == "utf8") o.encoding = io::CsvEncoding::Utf8;
      else if (e == "utf8-lossy") o.encoding = io::CsvEncoding::Utf8Lossy;
      else throw InvalidOperationError("`encoding` must be 'utf8' or 'utf8-lossy', got '" + e + "'");
    } else if (k == "eol_char") o.eol_char = single_char(value, "eol_char");
    else if (k == "columns") o.columns = nb::cast<std::vector<std::string>>(value);
    else if (k == "raise_if_empty") o.raise_if_empty = nb::cast<bool>(value);
    else throw InvalidOperationError("unknown CSV read option " + k);
  }
  return o;
}

io::CsvWriteOptions csv_write_options(const nb::dict& d) {
  io::CsvWriteOptions o;
  for (auto [key, value] : d) {
    std::string k = nb::cast<std::string>(key);
    if (value.is_none()) continue;
    if (k == "include_header") o.include_header = nb::cast<bool>(value);
    else if (k == "include_bom") o.include_bom = nb::cast<bool>(value);
    else if (k == "separator") o.separator = single_char(value, "separator");
    else if (k == "quote_char") o.quote_char = single_char(value, "quote_char");
    else if (k == "null_value") o.null_value = nb::cast<std::string>(value);
    else if (k == "line_terminator") o.line_terminator = nb::cast<std::string>(value);
    else if (k == "date_format") o.date_format = nb::cast<std::string>(value);
    else if (k == "datetime_format") o.datetime_format = nb::cast<std::string>(value);
    else if (k == "time_format") o.time_format = nb::cast<std::string>(value);
    else if (k == "float_precision") o.float_precision = nb::cast<int>(value);
    else if (k == "float_scientific") o.float_scientific = nb::cast<bool>(value);
    else if (k == "decimal_comma") o.decimal_comma = nb::cast<bool>(value);
    else if (k == "quote_style") {
      std::string q = nb::cast<std::string>(value);
      if (q == "necessary") o.quote_style = io::QuoteStyle::Necessary;
      else if (q == "always") o.quote_style = io::QuoteStyle::Always;
      else if (q == "never") o.quote_style = io::QuoteStyle::Never;
      else if (q == "non_numeric") o.quote_style = io::QuoteStyle::NonNumeric;
      else throw InvalidOperationError("unknown quote_style '" + q + "'");
    } else throw InvalidOperationError("unknown CSV write option " + k);
  }
  return o;
}

io::parquet::ParquetReadOptions parquet_options(const nb::dict& d) {
  io::parquet::ParquetReadOptions o;
  for (auto [key, value] : d) {
    std::string k = nb::cast<std::string>(key);
    if (value.is_none()) continue;
    if (k == "columns") o.columns = nb::cast<std::vector<std::string>>(value);
    else if (k == "n_rows") o.n_rows = nb::cast<int64_t>(value);
    else if (k == "hive_partitioning") o.hive_partitioning = nb::cast<bool>(value);
    else if (k == "parallel") o.parallel = nb::cast<bool>(value);
    else throw InvalidOperationError("unknown Parquet read option " + k);
  }
  return o;
}

io::parquet::ParquetWriteOptions parquet_write_options(const nb::dict& d) {
  io::parquet::ParquetWriteOptions o;
  for (auto [key, value] : d) {
    std::string k = nb::cast<std::string>(key);
    if (value.is_none()) continue;
    if (k == "compression") {
      std::string c = nb::cast<std::string>(value);
      using C = io::parquet::ParquetCompression;
      if (c == "zstd") o.compression = C::Zstd;
      else if (c == "snappy") o.compression = C::Snappy;
      else if (c == "gzip") o.compression = C::Gzip;
      else if (c == "lz4") o.compression = C::Lz4;
      else if (c == "brotli") o.compression = C::Brotli;
      else if (c == "uncompressed") o.compression = C::Uncompressed;
      else throw InvalidOperationError("unknown compression '" + c + "'");
    } else if (k == "compression_level") o.compression_level = nb::cast<int>(value);
    else if (k == "row_group_size") o.row_group_size = nb::cast<int64_t>(value);
    else if (k == "data_page_size") o.data_page_size = nb::cast<int64_t>(value);
    else if (k == "statistics") o.statistics = nb::cast<bool>(value);
    else throw InvalidOperationError("unknown Parquet write option " + k);
  }
  return o;
}

// A path (str) or the bytes of an in-memory file.
std::shared_ptr<io::InputFile> input_from_py(nb::handle source, bool memory_map) {
  if (nb::isinstance<nb::bytes>(source)) {
    nb::bytes b = nb::borrow<nb::bytes>(source);
    Buffer buf = Buffer::allocate(b.size());
    if (b.size()) std::memcpy(buf.mutable_data(), b.c_str(), b.size());
    return io::InputFile::from_buffer(std::move(buf), "in-memory bytes");
  }
  return io::InputFile::open(nb::cast<std::string>(source), memory_map);
}

Buffer buffer_from_bytes(nb::handle obj) {
  nb::bytes b = nb::borrow<nb::bytes>(obj);
  Buffer buf = Buffer::allocate(b.size());
  if (b.size()) std::memcpy(buf.mutable_data(), b.c_str(), b.size());
  return buf;
}

// The sources (a list of paths, or of bytes) and the options every scan has.
io::FileScanArgs scan_args(nb::handle sources, const nb::dict& d) {
  io::FileScanArgs a;
  size_t n_bytes = 0, n_paths = 0;
  for (nb::handle src : sources) {
    if (nb::isinstance<nb::bytes>(src)) {
      a.buffers.push_back(buffer_from_bytes(src));
      ++n_bytes;
    } else {
      a.paths.push_back(nb::cast<std::string>(src));
      ++n_paths;
    }
  }
  if (n_bytes && n_paths) throw InvalidOperationError("a scan cannot mix paths and in-memory sources");
  for (auto [key, value] : d) {
    std::string k = nb::cast<std::string>(key);
    if (value.is_none()) continue;
    if (k == "glob") a.glob = nb::cast<bool>(value);
    else if (k == "hidden_file_prefix") a.hidden_file_prefixes = nb::cast<std::vector<std::string>>(value);
    else if (k == "hive_partitioning") a.hive_partitioning = nb::cast<bool>(value);
    else if (k == "hive_schema") a.hive_schema = schema_from_py(value);
    else if (k == "try_parse_hive_dates") a.try_parse_hive_dates = nb::cast<bool>(value);
    else if (k == "include_file_paths") a.include_file_paths = nb::cast<std::string>(value);
    else if (k == "row_index_name") a.row_index_name = nb::cast<std::string>(value);
    else if (k == "row_index_offset") a.row_index_offset = nb::cast<int64_t>(value);
    else if (k == "n_rows") a.n_rows = nb::cast<int64_t>(value);
    else if (k == "schema") a.schema = schema_from_py(value);
    else if (k == "missing_columns") {
      std::string v = nb::cast<std::string>(value);
      if (v == "insert") a.missing_columns = io::MissingColumns::Insert;
      else if (v == "raise") a.missing_columns = io::MissingColumns::Raise;
      else throw InvalidOperationError("missing_columns must be 'insert' or 'raise', got '" + v + "'");
    } else if (k == "extra_columns") {
      std::string v = nb::cast<std::string>(value);
      if (v == "ignore") a.extra_columns = io::ExtraColumns::Ignore;
      else if (v == "raise") a.extra_columns = io::ExtraColumns::Raise;
      else throw InvalidOperationError("extra_columns must be 'ignore' or 'raise', got '" + v + "'");
    } else if (k == "cast") {
      // Policy flags by name (frazil/io.py turns ScanCastOptions into them).
      io::CastPolicy& c = a.cast;
      for (auto [fk, fv] : nb::cast<nb::dict>(value)) {
        std::string f = nb::cast<std::string>(fk);
        bool on = nb::cast<bool>(fv);
        if (f == "integer_upcast") c.integer_upcast = on;
        else if (f == "integer_to_float") c.integer_to_float = on;
        else if (f == "float_upcast") c.float_upcast = on;
        else if (f == "float_downcast") c.float_downcast = on;
        else if (f == "datetime_nanoseconds_downcast") c.datetime_nanoseconds_downcast = on;
        else if (f == "datetime_microseconds_downcast") c.datetime_microseconds_downcast = on;
        else if (f == "datetime_microseconds_upcast") c.datetime_microseconds_upcast = on;
        else if (f == "datetime_milliseconds_upcast") c.datetime_milliseconds_upcast = on;
        else if (f == "datetime_convert_timezone") c.datetime_convert_timezone = on;
        else if (f == "missing_struct_fields_insert") c.missing_struct_fields = on ? io::MissingColumns::Insert : io::MissingColumns::Raise;
        else if (f == "extra_struct_fields_ignore") c.extra_struct_fields = on ? io::ExtraColumns::Ignore : io::ExtraColumns::Raise;
        else throw InvalidOperationError("unknown scan cast option " + f);
      }
    } else {
      throw InvalidOperationError("unknown scan option " + k);
    }
  }
  return a;
}

io::JsonReadOptions json_options(const nb::dict& d) {
  io::JsonReadOptions o;
  for (auto [key, value] : d) {
    std::string k = nb::cast<std::string>(key);
    if (k == "infer_schema_length") {
      o.infer_schema_length = value.is_none() ? std::nullopt : std::optional<int64_t>(nb::cast<int64_t>(value));
      continue;
    }
    if (value.is_none()) continue;
    if (k == "schema") o.schema = schema_from_py(value);
    else if (k == "schema_overrides") o.schema_overrides = schema_from_py(value).fields();
    else if (k == "ignore_errors") o.ignore_errors = nb::cast<bool>(value);
    else if (k == "n_rows") o.n_rows = nb::cast<int64_t>(value);
    else throw InvalidOperationError("unknown JSON read option " + k);
  }
  return o;
}

io::ipc::IpcWriteOptions ipc_write_options(const nb::dict& d) {
  io::ipc::IpcWriteOptions o;
  for (auto [key, value] : d) {
    std::string k = nb::cast<std::string>(key);
    if (value.is_none()) continue;
    if (k == "compression") {
      std::string c = nb::cast<std::string>(value);
      if (c == "uncompressed") o.compression = io::ipc::IpcCompression::Uncompressed;
      else if (c == "lz4") o.compression = io::ipc::IpcCompression::Lz4;
      else if (c == "zstd") o.compression = io::ipc::IpcCompression::Zstd;
      else throw InvalidOperationError("compression must be one of {'uncompressed', 'lz4', 'zstd'}, got '" + c + "'");
    } else if (k == "compression_level") o.compression_level = nb::cast<int>(value);
    else if (k == "compat_oldest") o.compat_oldest = nb::cast<bool>(value);
    else if (k == "record_batch_size") o.record_batch_size = nb::cast<int64_t>(value);
    else if (k == "stream") o.stream = nb::cast<bool>(value);
    else throw InvalidOperationError("unknown IPC write option " + k);
  }
  return o;
}

}  // namespace

OptFlags flags_from_dict(const std::map<std::string, bool>& d);

void register_io(nb::module_& m) {
  m.def("sink_file", [](const LazyFrame& lf, const std::string& format, const std::string& path, const nb::dict& opts,
                        const std::map<std::string, bool>& flags) {
    io::SinkOptions o;
    if (format == "csv") o = csv_write_options(opts);
    else if (format == "parquet") o = parquet_write_options(opts);
    else if (format == "ipc") o = ipc_write_options(opts);
    else if (format == "ndjson") o = io::NdjsonWriteOptions{};
    else throw InvalidOperationError("unknown sink format " + format);
    OptFlags f = flags_from_dict(flags);
    nb::gil_scoped_release release;
    sink_file(lf, path, o, f);
  });
  m.def("scan_csv_sources", [](nb::handle sources, const nb::dict& args, const nb::dict& opts) {
    return scan_csv(scan_args(sources, args), csv_options(opts));
  });
  m.def("scan_parquet_sources", [](nb::handle sources, const nb::dict& args, const nb::dict& opts) {
    return scan_parquet(scan_args(sources, args), parquet_options(opts));
  });
  m.def("scan_ndjson_sources", [](nb::handle sources, const nb::dict& args, const nb::dict& opts) {
    return scan_ndjson(scan_args(sources, args), json_options(opts));
  });
  m.def("read_json", [](nb::bytes data, const nb::dict& opts) {
    io::JsonReadOptions o = json_options(opts);
    std::string text(data.c_str(), data.size());
    nb::gil_scoped_release release;
    return io::read_json(text.data(), text.size(), o, "JSON input");
  });
  m.def("write_ndjson", [](const DataFrame& df, bool json_array) {
    std::string out;
    {
      nb::gil_scoped_release release;
      out = json_array ? io::write_json_string(df) : io::write_ndjson_string(df);
    }
    return nb::bytes(out.data(), out.size());
  });
  m.def("write_ndjson_file", [](const DataFrame& df, const std::string& path, bool json_array) {
    nb::gil_scoped_release release;
    io::NdjsonWriter w(path, df.schema(), json_array);
    w.write_batch(df);
    w.finish();
  });
  m.def("scan_ipc_sources", [](nb::handle sources, const nb::dict& args, bool memory_map) {
    return scan_ipc(scan_args(sources, args), memory_map);
  });
  m.def("read_ipc", [](nb::handle source, std::optional<std::vector<std::string>> columns, std::optional<int64_t> n_rows,
                       bool memory_map) {
    io::ipc::IpcReadOptions o;
    o.columns = std::move(columns);
    o.n_rows = n_rows;
    auto input = input_from_py(source, memory_map);
    nb::gil_scoped_release release;
    return io::ipc::read_ipc(input, o);
  });
  m.def("read_ipc_schema", [](nb::handle source) {
    nb::list out;
    const Schema schema = io::ipc::read_ipc_schema(input_from_py(source, true));
    for (const auto& f : schema.fields())
      out.append(nb::make_tuple(f.name, dtype_to_py(f.dtype)));
    return out;
  });
  m.def("write_ipc", [](const DataFrame& df, std::optional<std::string> path, const nb::dict& opts) -> nb::object {
    io::ipc::IpcWriteOptions o = ipc_write_options(opts);
    if (!path) {
      std::string out;
      {
        nb::gil_scoped_release release;
        out = io::ipc::write_ipc_to_string(df, o);
      }
      return nb::bytes(out.data(), out.size());
    }
    {
      nb::gil_scoped_release release;
      io::ipc::write_ipc(df, *path, o);
    }
    return nb::none();
  });
  m.def("scan_csv", [](const std::string& path, const nb::dict& opts) { return scan_csv(path, csv_options(opts)); });
  m.def("write_csv", [](const DataFrame& df, std::optional<std::string> path, const nb::dict& opts) -> nb::object {
    io::CsvWriteOptions o = csv_write_options(opts);
    if (!path) return nb::str(frazil::write_csv_string(df, o).c_str());
    {
      nb::gil_scoped_release release;
      frazil::write_csv(df, *path, o);
    }
    return nb::none();
  });
  m.def("scan_parquet",
        [](const std::string& path, const nb::dict& opts) { return scan_parquet(path, parquet_options(opts)); });
  m.def("write_parquet_bytes", [](const DataFrame& df, const nb::dict& opts) {
    io::parquet::ParquetWriteOptions o = parquet_write_options(opts);
    std::vector<uint8_t> out;
    {
      nb::gil_scoped_release release;
      out = io::parquet::write_parquet_to_buffer(df, o);
    }
    return nb::bytes(reinterpret_cast<const char*>(out.data()), out.size());
  });
  m.def("write_file_bytes", [](const std::string& path, nb::bytes data) {
    std::string copy(data.c_str(), data.size());
    nb::gil_scoped_release release;
    io::OutputFile f(path);
    f.write(copy);
    f.commit();
  });
  m.def("compress_text", [](nb::bytes data, const std::string& how, std::optional<int> level) {
    io::TextCompression kind = io::TextCompression::None;
    if (how == "gzip") kind = io::TextCompression::Gzip;
    else if (how == "zstd") kind = io::TextCompression::Zstd;
    else if (how != "uncompressed") throw InvalidOperationError("unknown compression '" + how + "'");
    std::string in(data.c_str(), data.size());
    std::string out = io::compress(kind, in, level);
    return nb::bytes(out.data(), out.size());
  });
  m.def("write_parquet", [](const DataFrame& df, const std::string& path, const nb::dict& opts) {
    io::parquet::ParquetWriteOptions o = parquet_write_options(opts);
    nb::gil_scoped_release release;
    frazil::write_parquet(df, path, o);
  });
}

}  // namespace frazil::py
