#include "frazil/io/csv/csv_reader.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/csv/csv_chunk_parser.hpp"
#include "frazil/io/csv/csv_filter.hpp"
#include "frazil/io/csv/csv_infer.hpp"
#include "frazil/io/csv/csv_source.hpp"
#include "frazil/io/csv/csv_utf8.hpp"

namespace frazil::io {

using namespace csv_detail;

namespace {

constexpr int64_t kMinChunkBytes = 64 << 10;
constexpr int64_t kMaxChunkBytes = 64 << 20;
constexpr size_t kRowWidthSample = 64 << 10;

// Maps the file pages of [begin, end) in one call instead of one fault per page (the
// chunk's parser would otherwise stall on each first touch).
void prefault(const char* data, size_t begin, size_t end) {
#ifdef MADV_POPULATE_READ
  const uintptr_t page = 4096;
  uintptr_t b = (reinterpret_cast<uintptr_t>(data) + begin) & ~(page - 1);
  uintptr_t e = reinterpret_cast<uintptr_t>(data) + end;
  if (e > b) ::madvise(reinterpret_cast<void*>(b), e - b, MADV_POPULATE_READ);
#else
  (void)data, (void)begin, (void)end;
#endif
}

// 1-based line of byte `pos`, as an editor counts it.
int64_t line_of(const CsvBytes& f, size_t pos, char eol) {
  return 1 + static_cast<int64_t>(count_char(f.data, f.data + std::min(pos, f.size), eol));
}

Dialect make_dialect(const CsvReadOptions& o) {
  Dialect d;
  d.sep = o.separator;
  d.eol = o.eol_char;
  d.has_quote = o.quote_char.has_value();
  if (d.has_quote) d.quote = *o.quote_char;
  if (o.comment_prefix) d.comment = *o.comment_prefix;
  if (d.sep == d.eol)
    throw InvalidOperationError("the CSV separator and eol_char must differ");
  if (d.has_quote && (d.quote == d.sep || d.quote == d.eol))
    throw InvalidOperationError("the CSV quote_char must differ from the separator and eol_char");
  if (o.comment_prefix && (d.comment.empty() || d.comment.size() > 5))
    throw InvalidOperationError("comment_prefix must be 1 to 5 bytes long");
  if (o.skip_rows < 0 || o.skip_lines < 0 || o.skip_rows_after_header < 0 || (o.n_rows && *o.n_rows < 0) ||
      (o.infer_schema_length && *o.infer_schema_length < 0) || o.batch_rows <= 0 ||
      o.row_index_offset < 0)
    throw InvalidOperationError("CSV row counts and offsets must not be negative");
  return d;
}

// Names made unique as Polars does: a second "a" becomes "a_duplicated_0".
std::vector<std::string> dedup_names(std::vector<std::string> names) {
  std::unordered_map<std::string, int> seen;
  std::unordered_set<std::string> all(names.begin(), names.end());
  for (auto& n : names) {
    auto [it, fresh] = seen.emplace(n, 0);
    if (fresh) continue;
    std::string candidate;
    do {
      candidate = n + "_duplicated_" + std::to_string(it->second++);
    } while (all.count(candidate));
    all.insert(candidate);
    n = std::move(candidate);
  }
  return names;
}

std::string quote_name(const std::string& s) { return "'" + s + "'"; }

}  // namespace

// ---------------------------------------------------------------------------------------

struct CsvReader::Impl {
  CsvReadOptions opt;
  Dialect dialect;
  std::vector<std::string> paths;
  std::optional<CsvBytes> memory;  // from_bytes input

  // Resolved on the first file.
  bool resolved = false;
  bool no_columns_yet = false;           // the first input was empty: nothing to read
  std::vector<std::string> first_names;  // header names of the first file (deduplicated)
  std::string first_file;
  Schema file_schema;                    // final names + dtypes of every file column
  std::vector<bool> inferred;            // the dtype came from inference
  std::vector<bool> sample_had_values;
  std::vector<size_t> slot_cols;         // file column of each materialised slot
  Schema out_schema;
  std::vector<std::vector<std::string>> null_values;  // per file column

  // Progress.
  size_t file_idx = 0;
  struct Current {
    CsvBytes bytes;
    ChunkPlan plan;
    size_t pos = 0;
    int64_t chunk_bytes = 0;
    double row_bytes = 64;
  };
  std::optional<Current> cur;
  int64_t rows_read = 0;  // data rows taken (before the predicate): row index and n_rows
  std::deque<DataFrame> ready;
  bool finished = false;

  // ------------------------------------------------------------------ opening a file

  CsvBytes open_bytes(size_t i) {
    if (memory) return *memory;
    return map_csv_file(paths[i]);
  }

  struct Preamble {
    std::vector<std::string> names;
    size_t body = 0;
    bool empty = false;  // no header and no data
  };

  [[noreturn]] void throw_unterminated(const CsvBytes& f, size_t pos) {
    throw ComputeError(err_msg("unterminated quoted field starting at line ", line_of(f, pos, dialect.eol),
                               " of ", quote_name(f.name), ": a field opened with ",
                               dialect.quote, " never closes"));
  }

  std::string header_text(const CsvBytes& f, const char* b, const char* e, size_t pos) {
    if (is_valid_utf8(b, e)) return std::string(b, e);
    if (opt.encoding == CsvEncoding::Utf8Lossy) {
      std::string s;
      utf8_lossy(b, e, s);
      return s;
    }
    throw ComputeError(err_msg("invalid UTF-8 in the header of ", quote_name(f.name), " at line ",
                               line_of(f, pos, dialect.eol), "; pass encoding=utf8-lossy to replace it"));
  }

  // Skips `n` rows (comment lines do not count) from p.
  const char* skip_rows(const CsvBytes& f, const char* p, int64_t n) {
    const char* end = f.data + f.size;
    while (n > 0 && p < end) {
      if (is_comment_at(dialect, p, end)) {
        p = skip_line(dialect, p, end);
        continue;
      }
      bool unterminated;
      const char* next = skip_row(dialect, p, end, unterminated);
      if (unterminated) throw_unterminated(f, static_cast<size_t>(p - f.data));
      p = next;
      --n;
    }
    return p;
  }

  const char* skip_comments(const char* p, const char* end) {
    while (p < end && is_comment_at(dialect, p, end)) p = skip_line(dialect, p, end);
    return p;
  }

  Preamble read_preamble(const CsvBytes& f) {
    Preamble out;
    const char* p = f.data;
    const char* end = f.data + f.size;
    if (f.size >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    // skip_lines: raw lines, quotes not interpreted (Polars' skip_lines).
    for (int64_t n = opt.skip_lines; n > 0 && p < end; --n) {
      const char* nl = static_cast<const char*>(std::memchr(p, dialect.eol, static_cast<size_t>(end - p)));
      p = nl ? nl + 1 : end;
    }
    if (opt.skip_rows > 0) {
      // Empty lines at the very start are not rows skip_rows counts (as Polars reads them).
      while (p < end && (*p == dialect.eol || (*p == '\r' && p + 1 < end && p[1] == dialect.eol)))
        p += *p == '\r' ? 2 : 1;
    }
    p = skip_rows(f, p, opt.skip_rows);
    p = skip_comments(p, end);
    if (p >= end) out.empty = true;
    if (opt.has_header) {
      if (p < end) {
        std::string scratch;
        for (;;) {
          RawField fld = scan_field(dialect, p, end);
          if (fld.unterminated) throw_unterminated(f, static_cast<size_t>(p - f.data));
          const char *b, *e;
          field_content(dialect, fld, scratch, b, e);
          out.names.push_back(header_text(f, b, e, static_cast<size_t>(fld.begin - f.data)));
          p = fld.next;
          if (fld.last) break;
        }
        out.names = dedup_names(std::move(out.names));
      }
    } else if (opt.schema) {
      out.names = opt.schema->names();
    } else if (p < end) {
      // Column count from the first row.
      size_t n = 0;
      const char* q = p;
      for (;;) {
        RawField fld = scan_field(dialect, q, end);
        ++n;
        q = fld.next;
        if (fld.last) break;
      }
      for (size_t i = 0; i < n; ++i) out.names.push_back("column_" + std::to_string(i));
    }
    p = skip_rows(f, p, opt.skip_rows_after_header);
    out.body = static_cast<size_t>(p - f.data);
    return out;
  }

  InferredColumns infer(const CsvBytes& f, size_t body, size_t ncols) {
    InferOptions io;
    io.max_rows = opt.infer_schema_length;
    io.try_parse_dates = opt.try_parse_dates;
    io.decimal_comma = opt.decimal_comma;
    io.null_values = null_values;
    return infer_columns(dialect, f.data, body, f.size, ncols, io);
  }

  // Resolves the schema from the first file.
  void resolve(const CsvBytes& f, const Preamble& pre_in) {
    Preamble pre = pre_in;
    // An empty file read with a schema and a header: the schema's columns, no rows.
    const bool empty_with_schema = opt.schema && opt.has_header && pre.empty;
    if (empty_with_schema) pre.names = opt.schema->names();
    first_file = f.name;
    first_names = pre.names;
    const size_t ncols = pre.names.size();
    std::vector<std::string> final_names = pre.names;
    if (!opt.new_columns.empty()) {
      if (opt.new_columns.size() > ncols)
        throw ShapeError(err_msg("new_columns has ", opt.new_columns.size(), " names but ",
                                 quote_name(f.name), " has ", ncols, " columns"));
      for (size_t i = 0; i < opt.new_columns.size(); ++i) final_names[i] = opt.new_columns[i];
    }
    std::vector<DataType> dtypes(ncols, DataType::string());
    inferred.assign(ncols, false);
    sample_had_values.assign(ncols, true);
    std::vector<size_t> schema_order;  // full schema with a header: output in schema order

    // Null values per file column (by final name).
    null_values.assign(ncols, opt.null_values.all);
    for (const auto& [name, value] : opt.null_values.per_column) {
      auto it = std::find(final_names.begin(), final_names.end(), name);
      size_t idx = static_cast<size_t>(it - final_names.begin());
      if (it == final_names.end()) {
        auto raw = std::find(pre.names.begin(), pre.names.end(), name);
        if (raw == pre.names.end())
          throw ColumnNotFoundError(err_msg("null_values names column ", quote_name(name),
                                            ", which is not in ", quote_name(f.name)));
        idx = static_cast<size_t>(raw - pre.names.begin());
      }
      null_values[idx].push_back(value);
    }

    if (opt.schema) {
      const Schema& s = *opt.schema;
      if (opt.has_header && !empty_with_schema) {
        std::vector<std::string> missing, extra;
        for (const auto& fld : s.fields())
          if (std::find(pre.names.begin(), pre.names.end(), fld.name) == pre.names.end())
            missing.push_back(fld.name);
        for (const auto& n : pre.names)
          if (!s.contains(n)) extra.push_back(n);
        if (!missing.empty() || !extra.empty()) {
          std::string msg = err_msg("the schema does not match the header of ", quote_name(f.name), ":");
          if (!missing.empty()) {
            msg += " schema columns not in the file:";
            for (auto& m : missing) msg += " " + quote_name(m);
            msg += ";";
          }
          if (!extra.empty()) {
            msg += " file columns not in the schema:";
            for (auto& m : extra) msg += " " + quote_name(m);
            msg += ";";
          }
          msg += " give every header column a dtype (or use schema_overrides)";
          throw SchemaError(msg);
        }
        for (size_t i = 0; i < ncols; ++i) dtypes[i] = s.dtype_of(pre.names[i]);
        for (const auto& fld : s.fields())
          schema_order.push_back(static_cast<size_t>(
              std::find(pre.names.begin(), pre.names.end(), fld.name) - pre.names.begin()));
      } else {
        for (size_t i = 0; i < ncols; ++i) dtypes[i] = s.field(i).dtype;
      }
    } else {
      std::vector<bool> overridden(ncols, false);
      for (const auto& fld : opt.schema_overrides) {
        for (size_t i = 0; i < ncols; ++i) {
          if (final_names[i] == fld.name) {
            dtypes[i] = fld.dtype;
            overridden[i] = true;
          }
        }
      }
      bool need = false;
      for (size_t i = 0; i < ncols; ++i) need |= !overridden[i];
      if (need && opt.infer_schema_length.value_or(1) != 0) {
        InferredColumns inf = infer(f, pre.body, ncols);
        for (size_t i = 0; i < ncols; ++i) {
          if (overridden[i]) continue;
          dtypes[i] = inf.dtypes[i];
          inferred[i] = true;
          sample_had_values[i] = !inf.no_values[i];
        }
      }
    }
    std::vector<Field> fields;
    for (size_t i = 0; i < final_names.size(); ++i) {
      if (!csv_readable_dtype(dtypes[i]))
        throw InvalidOperationError(err_msg("cannot read column ", quote_name(final_names[i]),
                                            " as ", dtypes[i], " from CSV"));
      fields.push_back(Field{final_names[i], dtypes[i]});
    }
    file_schema = Schema(std::move(fields));

    // Projection.
    const size_t width = file_schema.size();
    if (opt.columns) {
      for (const auto& name : *opt.columns) {
        auto idx = file_schema.index_of(name);
        if (!idx) {
          auto it = std::find(first_names.begin(), first_names.end(), name);
          if (it != first_names.end()) idx = static_cast<size_t>(it - first_names.begin());
        }
        if (!idx) file_schema.dtype_of(name);  // throws ColumnNotFoundError naming the columns
        slot_cols.push_back(*idx);
      }
    } else if (opt.projection) {
      for (size_t i : *opt.projection) {
        if (i >= width)
          throw OutOfBoundsError(err_msg("projection index ", i, " is out of bounds for ",
                                         quote_name(f.name), " with ", width, " columns"));
        slot_cols.push_back(i);
      }
    } else if (!schema_order.empty()) {
      slot_cols = schema_order;
    } else {
      for (size_t i = 0; i < width; ++i) slot_cols.push_back(i);
    }
    std::vector<Field> out_fields;
    if (opt.row_index_name) {
      if (file_schema.contains(*opt.row_index_name))
        throw DuplicateError(err_msg("cannot add a row index named ", quote_name(*opt.row_index_name),
                                     ": the column already exists in ", quote_name(f.name)));
      out_fields.push_back(Field{*opt.row_index_name, DataType::uint32()});
    }
    for (size_t c : slot_cols) out_fields.push_back(file_schema.field(c));
    out_schema = Schema(std::move(out_fields));  // throws DuplicateError on a repeated projection
    resolved = true;
  }

  // Later files must have the first file's columns, and (where inferred) dtypes.
  void check_same_schema(const CsvBytes& f, const Preamble& pre) {
    if (pre.empty) return;
    if (pre.names.size() != first_names.size() || (opt.has_header && pre.names != first_names)) {
      auto list = [](const std::vector<std::string>& v) {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + quote_name(v[i]);
        return s + "]";
      };
      throw SchemaError(err_msg("schemas differ between CSV files: ", quote_name(first_file),
                                " has columns ", list(first_names), " but ", quote_name(f.name),
                                " has ", list(pre.names)));
    }
    bool any_inferred = std::find(inferred.begin(), inferred.end(), true) != inferred.end();
    if (!any_inferred) return;
    InferredColumns inf = infer(f, pre.body, pre.names.size());
    for (size_t i = 0; i < pre.names.size(); ++i) {
      if (!inferred[i] || inf.no_values[i]) continue;
      const DataType& want = file_schema.field(i).dtype;
      if (want.is_string() || inf.dtypes[i] == want) continue;
      if (!sample_had_values[i]) continue;
      throw SchemaError(err_msg("schemas differ between CSV files: column ", quote_name(file_schema.field(i).name),
                                " is ", want, " in ", quote_name(first_file), " but ", inf.dtypes[i], " in ",
                                quote_name(f.name), "; pass schema or schema_overrides to read them together"));
    }
  }

  ChunkPlan make_plan() const {
    ChunkPlan plan;
    plan.dialect = dialect;
    plan.columns.resize(file_schema.size());
    for (size_t c = 0; c < file_schema.size(); ++c) {
      ColumnPlan& cp = plan.columns[c];
      cp.dtype = file_schema.field(c).dtype;
      cp.null_values = null_values[c];
      const bool text = cp.dtype.is_view() || cp.dtype.is_categorical();  // strings, also as categories
      cp.quoted_empty_is_value = text;
      cp.unquoted_empty_is_value = text && opt.missing_utf8_is_empty_string;
    }
    for (size_t s = 0; s < slot_cols.size(); ++s) {
      // A column projected twice is parsed once per slot: give the duplicate its own plan.
      FRAZIL_CHECK(plan.columns[slot_cols[s]].slot < 0);
      plan.columns[slot_cols[s]].slot = static_cast<int>(s);
    }
    plan.num_slots = slot_cols.size();
    plan.config.decimal_comma = opt.decimal_comma;
    plan.config.encoding = opt.encoding;
    plan.truncate_ragged_lines = opt.truncate_ragged_lines;
    plan.ignore_errors = opt.ignore_errors;
    return plan;
  }

  // Opens file `i`; false when it has no rows to read.
  bool open(size_t i) {
    CsvBytes f = open_bytes(i);
    Preamble pre = read_preamble(f);
    if (!resolved) {
      if (pre.empty && pre.names.empty() && !opt.schema) {
        if (opt.raise_if_empty) throw ComputeError(err_msg("empty CSV: ", quote_name(f.name)));
        if (paths.size() <= 1) {
          // Nothing at all: an empty frame with no columns (or the row index).
          no_columns_yet = true;
        }
      }
      resolve(f, pre);
    } else {
      check_same_schema(f, pre);
    }
    if (pre.empty || pre.body >= f.size) return false;
    Current c;
    c.plan = make_plan();
    c.pos = pre.body;
    // Row width from a sample, to size chunks and builders.
    size_t sample_end = std::min(f.size, pre.body + kRowWidthSample);
    size_t lines = count_char(f.data + pre.body, f.data + sample_end, dialect.eol);
    c.row_bytes = std::max(1.0, double(sample_end - pre.body) / double(std::max<size_t>(lines, 1)));
    if (opt.chunk_size_bytes > 0) {
      c.chunk_bytes = opt.chunk_size_bytes;
    } else {
      c.chunk_bytes = std::clamp<int64_t>(static_cast<int64_t>(c.row_bytes * double(opt.batch_rows)),
                                          kMinChunkBytes, kMaxChunkBytes);
    }
    c.bytes = std::move(f);
    cur = std::move(c);
    return true;
  }

  // ------------------------------------------------------------------ errors

  [[noreturn]] void throw_chunk_error(const CsvBytes& f, const ChunkPlan& plan, const ChunkError& err) {
    const int64_t line = line_of(f, err.pos, dialect.eol);
    const std::string where = err_msg("line ", line, " of ", quote_name(f.name));
    switch (err.kind) {
      case ChunkErrorKind::Unterminated: throw_unterminated(f, err.pos);
      case ChunkErrorKind::Ragged:
        throw ComputeError(err_msg(where, " has more fields than the ", plan.columns.size(),
                                   " columns of the schema; set truncate_ragged_lines=True to drop the extra fields"));
      case ChunkErrorKind::BadUtf8:
        throw ComputeError(err_msg("invalid UTF-8 in column ", quote_name(file_schema.field(err.column).name),
                                   " at ", where, "; pass encoding=utf8-lossy to replace invalid bytes, or read the column as Binary"));
      case ChunkErrorKind::BadValue: {
        const Field& fld = file_schema.field(err.column);
        // Polars' words first ("could not parse `x` as dtype `i64` at column 'a' (column number 1)").
        std::string msg = err_msg("could not parse `", err.value, "` as dtype `", fld.dtype.short_name(),
                                  "` at column ", quote_name(fld.name), " (column number ", err.column + 1, "), ",
                                  where, ".\n");
        if (inferred[err.column]) {
          msg += err_msg("The dtype was inferred from the first ", opt.infer_schema_length.value_or(0),
                         " rows. You might want to:\n"
                         "- increase infer_schema_length (e.g. 10000), or set it to None to use every row,\n"
                         "- give the column's dtype with schema_overrides (e.g. {",
                         quote_name(fld.name), ": String}) or the whole schema,\n");
        } else {
          msg += "You might want to:\n- pass another dtype for the column in schema / schema_overrides,\n";
        }
        msg += err_msg("- add `", err.value, "` to null_values, or set ignore_errors=True.");
        throw ComputeError(msg);
      }
    }
    FRAZIL_CHECK(false);
  }

  // ------------------------------------------------------------------ parsing

  // Parses the next window of the current file into `ready`.
  void parse_window() {
    Current& c = *cur;
    const CsvBytes& f = c.bytes;
    const char* data = f.data;
    const size_t size = f.size;
    const size_t pos = c.pos;
    int64_t remaining = opt.n_rows ? *opt.n_rows - rows_read : INT64_MAX;
    int64_t chunk = c.chunk_bytes;
    if (opt.n_rows && opt.chunk_size_bytes <= 0)
      chunk = std::min<int64_t>(chunk, std::max<int64_t>(4096, static_cast<int64_t>(c.row_bytes * 1.5 * double(remaining)) + 1024));
    const size_t threads = thread_pool_size();
    const size_t left = size - pos;
    size_t k_chunks = std::max<size_t>(1, std::min<size_t>(2 * threads, (left + chunk - 1) / chunk));
    // Nominal cut points; the window ends at the last.
    std::vector<size_t> nominal(k_chunks + 1);
    for (size_t k = 0; k <= k_chunks; ++k) nominal[k] = std::min(size, pos + k * static_cast<size_t>(chunk));
    nominal[k_chunks] = std::min(size, pos + k_chunks * static_cast<size_t>(chunk));
    // Guess the row start after each inner cut from the parity of quote chars.
    std::vector<size_t> starts(k_chunks);
    starts[0] = pos;
    if (k_chunks > 1) {
      std::vector<size_t> quotes(k_chunks, 0);
      if (dialect.has_quote) {
        parallel_for(k_chunks - 1, [&](size_t k) {
          size_t b = k == 0 ? pos : nominal[k] - 1;
          size_t e = nominal[k + 1] - 1;
          quotes[k + 1] = b < e ? count_char(data + b, data + e, dialect.quote) : 0;
        });
      }
      size_t parity = 0;
      for (size_t k = 1; k < k_chunks; ++k) {
        parity += quotes[k];
        starts[k] = static_cast<size_t>(
            guess_row_start(dialect, data + pos, data + nominal[k], data + size, parity & 1) - data);
        starts[k] = std::max(starts[k], starts[k - 1]);
      }
    }
    std::vector<ChunkResult> results(k_chunks);
    auto reserve_for = [&](size_t bytes) {
      return static_cast<int64_t>(std::min<double>(double(remaining), double(bytes) / c.row_bytes * 1.1 + 16));
    };
    parallel_for(k_chunks, [&](size_t k) {
      const size_t target = nominal[k + 1];
      const size_t begin = starts[k];
      if (f.owner && !memory) prefault(data, begin, std::min(size, target + 4096));
      // Speculative chunks may not run far past their target.
      const size_t limit = k == 0 ? size : std::min<size_t>(size, std::max(target, begin) + static_cast<size_t>(chunk));
      results[k] = parse_chunk(data, size, begin, std::max(target, begin), limit, remaining, c.plan,
                               reserve_for(target > begin ? target - begin : 0));
    });
    // Check the guesses in order; parse again from the true start where one was wrong.
    size_t valid = pos;
    int64_t got = 0;
    std::vector<ChunkResult*> accepted;
    for (size_t k = 0; k < k_chunks && got < remaining; ++k) {
      ChunkResult& r = results[k];
      const size_t target = std::max(nominal[k + 1], valid);
      if (r.begin != valid || !r.complete || (r.error && r.max_rows != remaining - got)) {
        r = parse_chunk(data, size, valid, target, size, remaining - got, c.plan,
                        reserve_for(target - valid));
      }
      if (r.error) throw_chunk_error(f, c.plan, *r.error);
      valid = r.end;
      got += r.rows;
      accepted.push_back(&r);
    }
    c.pos = valid;
    // Frames in file order, with the row index, cut to n_rows.
    std::vector<DataFrame> frames(accepted.size());
    int64_t offset = rows_read;
    for (size_t i = 0; i < accepted.size(); ++i) {
      ChunkResult& r = *accepted[i];
      int64_t take = std::min<int64_t>(r.rows, remaining - (offset - rows_read));
      std::vector<Column> cols;
      if (opt.row_index_name) {
        const int64_t first = opt.row_index_offset + offset;
        if (first + take - 1 > static_cast<int64_t>(UINT32_MAX))
          throw ComputeError(err_msg("the row index ", quote_name(*opt.row_index_name),
                                     " does not fit in UInt32 past row ", UINT32_MAX));
        PrimitiveBuilder<uint32_t> idx(DataType::uint32(), take);
        for (int64_t j = 0; j < take; ++j) idx.push(static_cast<uint32_t>(first + j));
        cols.emplace_back(*opt.row_index_name, idx.finish());
      }
      for (size_t s = 0; s < slot_cols.size(); ++s) {
        ArrayRef a = r.columns[s];
        if (take < r.rows) a = a->slice(0, take);
        cols.emplace_back(out_schema.field(s + (opt.row_index_name ? 1 : 0)).name, std::move(a));
      }
      frames[i] = cols.empty() ? DataFrame::empty_with_height(take) : DataFrame(std::move(cols));
      offset += take;
      r.columns.clear();
    }
    rows_read = offset;
    if (opt.predicate) {
      parallel_for(frames.size(), [&](size_t i) {
        if (frames[i].height() > 0) frames[i] = filter_by_mask(frames[i], opt.predicate(frames[i]));
      });
    }
    for (auto& fr : frames)
      if (fr.height() > 0) ready.push_back(std::move(fr));
  }

  std::optional<DataFrame> next() {
    while (ready.empty()) {
      if (finished) return std::nullopt;
      if (opt.n_rows && rows_read >= *opt.n_rows) {
        finished = true;
        cur.reset();
        continue;
      }
      if (!cur) {
        if (file_idx >= std::max<size_t>(paths.size(), 1) || (memory && file_idx >= 1)) {
          finished = true;
          continue;
        }
        size_t i = file_idx++;
        if (i == 0 && resolved && first_open_pending) {
          // The first file was opened by the constructor.
          first_open_pending = false;
          if (!first_has_rows) continue;
        } else if (!open(i)) {
          continue;
        }
      }
      if (cur->pos >= cur->bytes.size) {
        cur.reset();
        continue;
      }
      parse_window();
    }
    DataFrame out = std::move(ready.front());
    ready.pop_front();
    return out;
  }

  bool first_open_pending = false;
  bool first_has_rows = false;

  void start() {
    dialect = make_dialect(opt);
    if (opt.schema)
      for (const auto& fld : opt.schema->fields())
        if (!csv_readable_dtype(fld.dtype))
          throw InvalidOperationError(err_msg("cannot read column ", quote_name(fld.name), " as ",
                                              fld.dtype, " from CSV"));
    first_has_rows = open(0);
    first_open_pending = true;
  }
};

// ---------------------------------------------------------------------------------------

CsvReader::CsvReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

CsvReader::CsvReader(const std::string& path, CsvReadOptions options)
    : CsvReader(expand_csv_paths(path), std::move(options)) {}

CsvReader::CsvReader(std::vector<std::string> paths, CsvReadOptions options) : impl_(std::make_unique<Impl>()) {
  if (paths.empty()) throw IOError("no CSV files to read");
  impl_->opt = std::move(options);
  impl_->paths = std::move(paths);
  impl_->start();
}

CsvReader CsvReader::from_bytes(std::string data, CsvReadOptions options, std::string name) {
  auto impl = std::make_unique<Impl>();
  impl->opt = std::move(options);
  impl->memory = csv_bytes_from_string(std::move(data), std::move(name));
  impl->start();
  return CsvReader(std::move(impl));
}

CsvReader::~CsvReader() = default;
CsvReader::CsvReader(CsvReader&&) noexcept = default;
CsvReader& CsvReader::operator=(CsvReader&&) noexcept = default;

const Schema& CsvReader::schema() const { return impl_->out_schema; }
const Schema& CsvReader::file_schema() const { return impl_->file_schema; }

std::optional<DataFrame> CsvReader::next_batch() { return impl_->next(); }

DataFrame CsvReader::read_all() {
  std::vector<DataFrame> frames;
  while (auto b = next_batch()) frames.push_back(std::move(*b));
  if (frames.empty()) {
    if (impl_->out_schema.empty() && impl_->no_columns_yet) return DataFrame();
    return DataFrame::empty_with_schema(impl_->out_schema);
  }
  DataFrame out = concat_frames(frames);
  if (impl_->opt.rechunk) out = out.rechunk();
  return out;
}

DataFrame read_csv(const std::string& path, const CsvReadOptions& options) {
  return CsvReader(path, options).read_all();
}

DataFrame read_csv(const std::vector<std::string>& paths, const CsvReadOptions& options) {
  return CsvReader(paths, options).read_all();
}

DataFrame read_csv_bytes(std::string data, const CsvReadOptions& options) {
  return CsvReader::from_bytes(std::move(data), options).read_all();
}

Schema read_csv_schema(const std::string& path, const CsvReadOptions& options) {
  CsvReadOptions o = options;
  o.predicate = nullptr;
  CsvReader reader(expand_csv_paths(path).front(), std::move(o));
  return reader.file_schema();
}

}  // namespace frazil::io
