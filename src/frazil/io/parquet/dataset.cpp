#include "frazil/io/parquet/dataset.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <system_error>

#include "frazil/core/error.hpp"
#include "frazil/core/os_error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/dataset/paths.hpp"
#include "frazil/core/file_not_found.hpp"

namespace frazil::io::parquet {

namespace fs = std::filesystem;

namespace {

std::string percent_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

struct HiveColumn {
  std::string name;
  DataType dtype;
};

// Int64 if every value parses as an integer, else Float64 if every value parses as a
// number, else String (as Polars infers partition values).
DataType infer_hive_dtype(const std::vector<const std::optional<std::string>*>& values) {
  bool all_int = true, all_float = true, any = false;
  for (const auto* v : values) {
    if (!*v) continue;
    any = true;
    const std::string& s = **v;
    int64_t i;
    auto r = std::from_chars(s.data(), s.data() + s.size(), i);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) all_int = false;
    double d;
    auto r2 = std::from_chars(s.data(), s.data() + s.size(), d);
    if (r2.ec != std::errc() || r2.ptr != s.data() + s.size() || s.empty()) all_float = false;
  }
  if (!any) return DataType::string();
  if (all_int) return DataType::int64();
  if (all_float) return DataType::float64();
  return DataType::string();
}

Scalar hive_scalar(const DataType& dt, const std::optional<std::string>& v) {
  if (!v) return Scalar::null(dt);
  if (dt.id() == TypeId::Int64) {
    int64_t i = 0;
    std::from_chars(v->data(), v->data() + v->size(), i);
    return Scalar(dt, i);
  }
  if (dt.id() == TypeId::Float64) {
    double d = 0;
    std::from_chars(v->data(), v->data() + v->size(), d);
    return Scalar(dt, d);
  }
  return Scalar(dt, *v);
}

struct Plan {
  std::vector<std::string> files;
  std::vector<std::shared_ptr<ParquetFile>> opened;
  std::vector<HiveColumn> hive;
  std::vector<std::vector<Scalar>> hive_values;  // per file, per hive column
  std::vector<std::string> file_columns;         // projected file columns, in output order
  std::vector<std::string> output;               // output column order
  Schema schema;                                 // of the output
};

Plan make_plan(const std::string& path, const ParquetReadOptions& options) {
  Plan plan;
  plan.files = expand_paths(path);
  std::error_code ec;
  const bool is_dir = fs::is_directory(path, ec);
  const bool use_hive = options.hive_partitioning.value_or(is_dir || has_glob(path));
  for (const auto& f : plan.files) plan.opened.push_back(ParquetFile::open(f, options.limits));
  const Schema& first = plan.opened[0]->schema();

  if (use_hive) {
    std::string base = is_dir ? path : has_glob(path) ? glob_base(path) : fs::path(path).parent_path().string();
    std::vector<std::vector<std::pair<std::string, std::optional<std::string>>>> parts;
    for (const auto& f : plan.files) parts.push_back(hive_partitions(base, f));
    // Keys of the first file, in path order; every file must have the same keys.
    for (const auto& [k, v] : parts[0])
      if (!first.contains(k)) plan.hive.push_back({k, DataType::string()});
    for (size_t h = 0; h < plan.hive.size(); ++h) {
      std::vector<const std::optional<std::string>*> vals;
      for (size_t f = 0; f < parts.size(); ++f) {
        const std::optional<std::string>* found = nullptr;
        for (const auto& kv : parts[f])
          if (kv.first == plan.hive[h].name) found = &kv.second;
        if (!found)
          throw SchemaError(err_msg("hive partition key '", plan.hive[h].name, "' is missing from the path '",
                                    plan.files[f], "'"));
        vals.push_back(found);
      }
      plan.hive[h].dtype = infer_hive_dtype(vals);
    }
    plan.hive_values.resize(plan.files.size());
    for (size_t f = 0; f < parts.size(); ++f)
      for (const auto& hc : plan.hive)
        for (const auto& kv : parts[f])
          if (kv.first == hc.name) plan.hive_values[f].push_back(hive_scalar(hc.dtype, kv.second));
  }

  std::vector<Field> all = first.fields();
  for (const auto& h : plan.hive) all.push_back(Field{h.name, h.dtype});
  Schema full(all);
  if (options.columns) {
    plan.output = *options.columns;
  } else {
    plan.output = full.names();
  }
  std::vector<Field> out_fields;
  for (const auto& name : plan.output) {
    out_fields.push_back(Field{name, full.dtype_of(name)});  // throws ColumnNotFoundError
    if (first.contains(name)) plan.file_columns.push_back(name);
  }
  plan.schema = Schema(out_fields);
  // Every file must agree on the projected columns.
  for (size_t f = 1; f < plan.opened.size(); ++f) {
    const Schema& s = plan.opened[f]->schema();
    for (const auto& name : plan.file_columns) {
      auto idx = s.index_of(name);
      if (!idx)
        throw SchemaError(err_msg("column '", name, "' of '", plan.files[0], "' is missing from '", plan.files[f], "'"));
      if (s.field(*idx).dtype != first.dtype_of(name))
        throw SchemaError(err_msg("column '", name, "' is ", first.dtype_of(name), " in '", plan.files[0], "' but ",
                                  s.field(*idx).dtype, " in '", plan.files[f], "'"));
    }
  }
  return plan;
}

}  // namespace

std::vector<std::pair<std::string, std::optional<std::string>>> hive_partitions(const std::string& base,
                                                                                 const std::string& file) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  fs::path rel = fs::path(file).lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..") rel = fs::path(file);
  std::vector<std::string> segs;
  for (const auto& p : rel) segs.push_back(p.string());
  if (!segs.empty()) segs.pop_back();  // the file name itself
  for (const auto& seg : segs) {
    size_t eq = seg.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    std::string key = percent_decode(seg.substr(0, eq));
    std::string val = percent_decode(seg.substr(eq + 1));
    std::optional<std::string> v;
    if (!val.empty() && val != "__HIVE_DEFAULT_PARTITION__") v = val;
    bool replaced = false;
    for (auto& kv : out)
      if (kv.first == key) {
        kv.second = v;
        replaced = true;
      }
    if (!replaced) out.emplace_back(key, v);
  }
  return out;
}

std::vector<std::string> expand_paths(const std::string& path) {
  std::error_code ec;
  if (!has_glob(path) || fs::exists(path, ec)) {
    if (fs::is_directory(path, ec)) {
      auto files = list_files(path, {".", "_"});
      if (files.empty()) throw IOError(err_msg("no parquet files found in directory '", path, "'"));
      return files;
    }
    if (!fs::exists(path, ec)) throw_file_not_found(path);
    return {path};
  }
  std::string base = glob_base(path);
  std::vector<std::string> out;
  if (fs::is_directory(base, ec)) {
    for (const auto& f : list_files(base, {".", "_"})) {
      // Match with the same spelling as the pattern ("./x" vs "x").
      std::string candidate = f;
      if (base == "." && path.rfind("./", 0) != 0 && candidate.rfind("./", 0) == 0) candidate = candidate.substr(2);
      if (glob_match(path.c_str(), candidate.c_str())) out.push_back(f);
    }
  }
  if (out.empty()) throw IOError(err_msg("no files match the pattern '", path, "'"));
  std::sort(out.begin(), out.end());
  return out;
}

Schema read_parquet_schema(const std::string& path, const ParquetReadOptions& options) {
  return make_plan(path, options).schema;
}

DataFrame read_parquet(const std::string& path, const ParquetReadOptions& options) {
  Plan plan = make_plan(path, options);
  if (options.n_rows && *options.n_rows < 0) throw InvalidOperationError("n_rows must not be negative");

  // Row groups to read, in file order, after the predicate and the row limit.
  struct Task {
    size_t file;
    size_t row_group;
    int64_t limit;  // -1: whole group
  };
  std::vector<Task> tasks;
  int64_t remaining = options.n_rows.value_or(-1);
  for (size_t f = 0; f < plan.opened.size() && remaining != 0; ++f) {
    const ParquetFile& pf = *plan.opened[f];
    for (size_t g = 0; g < pf.num_row_groups() && remaining != 0; ++g) {
      if (options.row_group_predicate) {
        RowGroupStats st = pf.row_group_stats(g);
        for (size_t h = 0; h < plan.hive.size(); ++h) {
          const Scalar& v = plan.hive_values[f][h];
          ColumnStatistics cs;
          cs.null_count = v.is_null() ? st.num_rows : 0;
          if (!v.is_null()) cs.min = cs.max = v;
          st.names.push_back(plan.hive[h].name);
          st.columns.push_back(cs);
        }
        if (!options.row_group_predicate(st)) continue;
      }
      int64_t rows = pf.row_group_num_rows(g);
      if (rows == 0) continue;
      int64_t limit = -1;
      if (remaining >= 0) {
        if (rows >= remaining) limit = remaining;
        remaining -= std::min(rows, remaining);
      }
      tasks.push_back({f, g, limit});
    }
  }

  std::vector<DataFrame> frames(tasks.size());
  auto run = [&](size_t t) {
    const Task& task = tasks[t];
    DataFrame df = plan.opened[task.file]->read_row_group(task.row_group, &plan.file_columns, task.limit);
    std::vector<Column> cols;
    for (const auto& name : plan.output) {
      if (auto idx = df.index_of(name)) {
        cols.push_back(df.column(*idx));
      } else {
        for (size_t h = 0; h < plan.hive.size(); ++h)
          if (plan.hive[h].name == name)
            cols.push_back(Column(name, scalar_to_array(plan.hive_values[task.file][h], df.height())));
      }
    }
    frames[t] = cols.empty() ? DataFrame::empty_with_height(df.height()) : DataFrame(std::move(cols));
  };
  if (options.parallel) {
    parallel_for(tasks.size(), run);
  } else {
    for (size_t t = 0; t < tasks.size(); ++t) run(t);
  }
  if (frames.empty()) {
    if (plan.schema.empty()) return DataFrame();
    return DataFrame::empty_with_schema(plan.schema);
  }
  return concat_frames(frames);
}

}  // namespace frazil::io::parquet
