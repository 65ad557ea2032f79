#include "frazil/io/parquet/file_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <tuple>

#include "frazil/compute/array/layout.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/categorical_array.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/os_error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/parquet/arrow_schema.hpp"
#include "frazil/core/file_not_found.hpp"
#include "frazil/io/parquet/assemble.hpp"
#include "frazil/io/parquet/codec.hpp"
#include "frazil/io/parquet/column_reader.hpp"
#include "frazil/io/parquet/decode_error.hpp"
#include "frazil/io/parquet/writer.hpp"

namespace frazil::io::parquet {

namespace {
constexpr char kMagic[4] = {'P', 'A', 'R', '1'};
}

std::shared_ptr<ParquetFile> ParquetFile::open(const std::string& path, ReaderLimits limits) {
  std::shared_ptr<ParquetFile> f(new ParquetFile());
  f->path_ = path;
  f->limits_ = limits;
  f->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f->fd_ < 0 && errno == ENOENT) throw_file_not_found(path);
  if (f->fd_ < 0) throw_os_error(path);
  struct stat st;
  if (fstat(f->fd_, &st) != 0) f->fail(err_msg("cannot stat: ", std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) f->fail("is a directory");
  f->size_ = static_cast<int64_t>(st.st_size);
  f->parse_footer();
  return f;
}

std::shared_ptr<ParquetFile> ParquetFile::from_buffer(Buffer bytes, std::string name, ReaderLimits limits) {
  std::shared_ptr<ParquetFile> f(new ParquetFile());
  f->path_ = std::move(name);
  f->limits_ = limits;
  f->memory_ = std::move(bytes);
  f->size_ = static_cast<int64_t>(f->memory_.size());
  f->parse_footer();
  return f;
}

ParquetFile::~ParquetFile() {
  if (fd_ >= 0) ::close(fd_);
}

void ParquetFile::fail(const std::string& what) const {
  throw IOError(err_msg("parquet file '", path_, "': ", what));
}

Buffer ParquetFile::read_range(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset)
    fail(err_msg("byte range [", offset, ", ", offset, " + ", length, ") is outside the file of ", size_, " bytes"));
  if (fd_ < 0) return memory_.slice(static_cast<size_t>(offset), static_cast<size_t>(length));
  Buffer b = Buffer::allocate(static_cast<size_t>(length));
  size_t done = 0;
  while (done < static_cast<size_t>(length)) {
    ssize_t got = ::pread(fd_, b.mutable_data() + done, static_cast<size_t>(length) - done,
                          static_cast<off_t>(offset + static_cast<int64_t>(done)));
    if (got < 0) {
      if (errno == EINTR) continue;
      fail(err_msg("read failed: ", std::strerror(errno)));
    }
    if (got == 0) fail("file is shorter than expected (truncated while reading?)");
    done += static_cast<size_t>(got);
  }
  return b;
}

namespace {

// "parquet-mr version 1.2.8 (build ...)" or a bare "parquet-mr": versions before 1.2.9.
bool writer_omits_dictionary_header(const std::string& created_by) {
  if (created_by.rfind("parquet-mr", 0) != 0) return false;
  const size_t v = created_by.find("version ");
  if (v == std::string::npos) return true;
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(created_by.c_str() + v + 8, "%d.%d.%d", &major, &minor, &patch) < 1) return true;
  return std::make_tuple(major, minor, patch) < std::make_tuple(1, 2, 9);
}

}  // namespace

void ParquetFile::parse_footer() {
  if (size_ < 12) fail(err_msg("file of ", size_, " bytes is too small to be parquet"));
  Buffer head = read_range(0, 4);
  Buffer tail = read_range(size_ - 8, 8);
  if (std::memcmp(tail.data() + 4, "PARE", 4) == 0) fail("encrypted parquet files are not supported");
  if (std::memcmp(head.data(), kMagic, 4) != 0 || std::memcmp(tail.data() + 4, kMagic, 4) != 0)
    fail("not a parquet file (magic bytes missing)");
  uint32_t footer_len;
  std::memcpy(&footer_len, tail.data(), 4);
  if (static_cast<int64_t>(footer_len) > size_ - 12) fail(err_msg("footer length ", footer_len, " exceeds the file"));
  data_end_ = size_ - 8 - footer_len;
  Buffer footer = read_range(data_end_, footer_len);
  try {
    md_ = decode_file_metadata(footer.data(), footer.size());
  } catch (const ThriftError& e) {
    fail(err_msg("corrupt footer: ", e.what()));
  }
  if (md_.encrypted) fail("encrypted parquet files are not supported");
  try {
    pschema_ = ParquetSchema(md_.schema);
  } catch (const ParquetSchemaError& e) {
    fail(err_msg("invalid schema: ", e.what()));
  } catch (const SchemaError& e) {
    throw SchemaError(err_msg("parquet file '", path_, "': ", e.what()));
  } catch (const DuplicateError& e) {
    throw DuplicateError(err_msg("parquet file '", path_, "': ", e.what()));
  }
  apply_frazil_schema();
  dictionary_padding_ = md_.created_by && writer_omits_dictionary_header(*md_.created_by);
  const auto& leaves = pschema_.leaves();
  num_rows_ = 0;
  for (size_t g = 0; g < md_.row_groups.size(); ++g) {
    const RowGroup& rg = md_.row_groups[g];
    if (rg.num_rows < 0 || rg.num_rows > limits_.max_rows_per_row_group)
      fail(err_msg("row group ", g, " claims ", rg.num_rows, " rows"));
    if (rg.columns.size() != leaves.size())
      fail(err_msg("row group ", g, " has ", rg.columns.size(), " column chunks but the schema has ", leaves.size(), " leaves"));
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const ColumnChunk& cc = rg.columns[c];
      if (cc.file_path) fail(err_msg("row group ", g, ", column '", leaves[c].dotted_path(), "': column chunks in other files are not supported"));
      if (!cc.meta_data) fail(err_msg("row group ", g, ", column '", leaves[c].dotted_path(), "': missing column metadata"));
      const ColumnMetaData& m = *cc.meta_data;
      if (m.type != leaves[c].physical)
        fail(err_msg("row group ", g, ", column '", leaves[c].dotted_path(), "': physical type differs from the schema"));
      if (m.total_compressed_size < 0 || m.data_page_offset < 0 || m.num_values < 0)
        fail(err_msg("row group ", g, ", column '", leaves[c].dotted_path(), "': negative size or offset"));
      if (m.num_values > limits_.max_values_per_column_chunk)
        fail(err_msg("row group ", g, ", column '", leaves[c].dotted_path(), "' claims ", m.num_values, " values"));
      // A leaf outside any list has exactly one level per row.
      if (leaves[c].max_rep == 0 && m.num_values != rg.num_rows)
        fail(err_msg("row group ", g, ", column '", leaves[c].dotted_path(), "' has ", m.num_values,
                     " values but the row group has ", rg.num_rows, " rows"));
    }
    num_rows_ += rg.num_rows;
  }
}

namespace {

// Polars' spelling of UTC for the zones that mean it.
std::optional<std::string> normalize_zone(const std::optional<std::string>& tz) {
  if (tz && (*tz == "+00:00" || *tz == "-00:00" || *tz == "utc" || *tz == "Z" || *tz == "Etc/UTC")) return "UTC";
  return tz;
}

// The dtypes a footer key gives the top-level columns: frazil's own key, else ARROW:schema.
// The dtype a nested column is written as: an Array as a LIST, Categorical/Enum values as
// their strings, at any depth.
DataType as_written(const DataType& t) {
  if (t.is_categorical()) return DataType::string();
  if (t.id() == TypeId::List || t.id() == TypeId::Array) return DataType::list(as_written(t.inner()));
  if (t.id() == TypeId::Struct) {
    std::vector<Field> fields = t.fields();
    for (Field& f : fields) f.dtype = as_written(f.dtype);
    return DataType::struct_(std::move(fields));
  }
  return t;
}

std::vector<std::pair<std::string, DataType>> footer_dtypes(const FileMetaData& md) {
  std::vector<std::pair<std::string, DataType>> out;
  for (const auto& kv : md.key_value_metadata) {
    if (kv.key != kFrazilSchemaKey || !kv.value) continue;
    const std::string& text = *kv.value;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) nl = text.size();
      std::string line = text.substr(pos, nl - pos);
      pos = nl + 1;
      const size_t tab = line.find('\t');
      if (tab == std::string::npos) continue;
      if (auto dt = parse_dtype(line.substr(tab + 1))) out.emplace_back(line.substr(0, tab), *dt);
    }
    return out;
  }
  for (const auto& kv : md.key_value_metadata) {
    if (kv.key != kArrowSchemaKey || !kv.value) continue;
    if (auto s = decode_arrow_schema(*kv.value))
      for (const auto& f : s->fields()) out.emplace_back(f.name, f.dtype);
  }
  return out;
}

}  // namespace

void ParquetFile::apply_frazil_schema() {
  const auto declared_dtypes = footer_dtypes(md_);
  // Int128/UInt128 change how the leaf decodes (16 bytes each), not just the dtype.
  for (const auto& [name, declared] : declared_dtypes)
    if (auto idx = pschema_.schema().index_of(name)) pschema_.read_as_wide_integer(*idx, declared);
  const auto& fields = pschema_.fields();
  overrides_.assign(fields.size(), std::nullopt);
  std::vector<Field> out = pschema_.schema().fields();
  for (auto& [name, declared] : declared_dtypes) {
    auto idx = pschema_.schema().index_of(name);
    if (!idx) continue;
    DataType dt = declared;
    const DataType& have = fields[*idx].dtype;
    if (fields[*idx].kind != SchemaNode::Kind::Primitive) {
      // Nested: the footer gives back the Arrays (their widths) and the Categorical/Enum
      // values that were written as LISTs and strings, at any depth.
      if (dt != have && as_written(dt) == have) {
        overrides_[*idx] = dt;
        out[*idx].dtype = dt;
      }
      continue;
    }
    if (dt.id() == TypeId::Datetime) dt = DataType::datetime(dt.time_unit(), normalize_zone(dt.time_zone()));
    // Only refinements of the same layout: Int64 -> Duration, a zone name for UTC.
    const bool ok = (have.id() == TypeId::Int64 && dt.id() == TypeId::Duration) ||
                    (have.id() == TypeId::String && dt.is_categorical()) ||
                    (have.id() == TypeId::Datetime && dt.id() == TypeId::Datetime &&
                     have.time_unit() == dt.time_unit() && have.time_zone().has_value() == dt.time_zone().has_value());
    if (!ok || dt == have) continue;
    overrides_[*idx] = dt;
    out[*idx].dtype = dt;
  }
  // Zones that mean UTC read as "UTC", whatever the footer says.
  for (size_t i = 0; i < out.size(); ++i) {
    const DataType& t = out[i].dtype;
    if (t.id() != TypeId::Datetime || !t.time_zone()) continue;
    DataType n = DataType::datetime(t.time_unit(), normalize_zone(t.time_zone()));
    if (n != t && fields[i].kind == SchemaNode::Kind::Primitive) {
      overrides_[i] = n;
      out[i].dtype = n;
    }
  }
  schema_ = Schema(std::move(out));
}

int64_t ParquetFile::row_group_num_rows(size_t i) const {
  if (i >= md_.row_groups.size())
    throw OutOfBoundsError(err_msg("row group ", i, " out of range for '", path_, "' with ", md_.row_groups.size(), " row groups"));
  return md_.row_groups[i].num_rows;
}

RowGroupStats ParquetFile::row_group_stats(size_t i) const {
  RowGroupStats s;
  s.path = path_;
  s.row_group = i;
  s.num_rows = row_group_num_rows(i);
  const RowGroup& rg = md_.row_groups[i];
  const auto& leaves = pschema_.leaves();
  for (const SchemaNode& f : pschema_.fields()) {
    if (f.kind != SchemaNode::Kind::Primitive) continue;
    const LeafColumn& leaf = leaves[f.leaf];
    const ColumnMetaData& m = *rg.columns[leaf.index].meta_data;
    if (!m.statistics) continue;
    bool typed = leaf.index < md_.column_orders.size() && md_.column_orders[leaf.index];
    ColumnStatistics cs = decode_statistics(leaf, *m.statistics, typed);
    const auto& ov = overrides_[&f - pschema_.fields().data()];
    if (ov && ov->is_categorical()) continue;  // string statistics do not order codes
    if (ov) {
      if (cs.min) cs.min = cs.min->with_dtype(*ov);
      if (cs.max) cs.max = cs.max->with_dtype(*ov);
    }
    s.names.push_back(f.name);
    s.columns.push_back(std::move(cs));
  }
  return s;
}

DataFrame ParquetFile::read_row_group(size_t i, const std::vector<std::string>* columns, int64_t row_limit) const {
  const int64_t rg_rows = row_group_num_rows(i);
  const RowGroup& rg = md_.row_groups[i];
  const auto& fields = pschema_.fields();
  const auto& leaves = pschema_.leaves();
  std::vector<size_t> wanted;
  if (columns) {
    for (const auto& name : *columns) {
      auto idx = schema_.index_of(name);
      if (!idx) schema_.dtype_of(name);  // throws ColumnNotFoundError listing the names
      wanted.push_back(*idx);
    }
  } else {
    for (size_t f = 0; f < fields.size(); ++f) wanted.push_back(f);
  }
  const int64_t rows = row_limit >= 0 ? std::min(row_limit, rg_rows) : rg_rows;

  // One task per needed leaf: read its bytes, decode its pages.
  struct Task {
    int leaf;
    bool dense;
    bool levels_needed;
  };
  std::vector<Task> tasks;
  for (size_t f : wanted)
    for (int l : fields[f].leaves)
      tasks.push_back({l, !is_flat(fields[f], leaves), fields[f].kind != SchemaNode::Kind::Primitive});
  std::vector<LeafResult> results(leaves.size());
  auto context = [&](int leaf) {
    return err_msg("parquet file '", path_, "', row group ", i, ", column '", leaves[leaf].dotted_path(), "': ");
  };
  parallel_for(tasks.size(), [&](size_t t) {
    const int l = tasks[t].leaf;
    const ColumnMetaData& m = *rg.columns[leaves[l].index].meta_data;
    // A chunk of no values has nothing to read: writers (pyarrow 26, pandas) give such
    // chunks of 0-row groups a data_page_offset of 0.
    Buffer chunk;
    if (m.num_values != 0) {
      int64_t start = m.data_page_offset;
      if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < start)
        start = *m.dictionary_page_offset;
      if (start < 4 || m.total_compressed_size > data_end_ - start)
        throw IOError(context(l) + err_msg("column chunk [", start, ", +", m.total_compressed_size,
                                           ") lies outside the data of the file"));
      int64_t length = m.total_compressed_size;
      // parquet-mr up to 1.2.8 left the dictionary page header out of the chunk's size
      // (PARQUET-816): read up to 100 bytes more, as Arrow does.
      if (dictionary_padding_) length += std::min<int64_t>(100, data_end_ - start - length);
      chunk = read_range(start, length);
    }
    ChunkReadOptions opt;
    opt.dense = tasks[t].dense;
    opt.levels_needed = tasks[t].levels_needed;
    opt.row_limit = row_limit >= 0 && row_limit < rg_rows ? row_limit : -1;
    try {
      results[l] = read_column_chunk(leaves[l], m, chunk, opt);
    } catch (const DecodeError& e) {
      throw IOError(context(l) + e.what());
    } catch (const CodecError& e) {
      throw IOError(context(l) + e.what());
    } catch (const ThriftError& e) {
      throw IOError(context(l) + "corrupt page header: " + e.what());
    }
  });

  std::vector<Column> cols;
  for (size_t f : wanted) {
    ArrayRef arr;
    try {
      arr = assemble_column(fields[f], leaves, results);
    } catch (const DecodeError& e) {
      throw IOError(err_msg("parquet file '", path_, "', row group ", i, ", column '", fields[f].name, "': ", e.what()));
    }
    if (arr->length() != rows)
      throw IOError(err_msg("parquet file '", path_, "', row group ", i, ", column '", fields[f].name, "': decodes to ",
                            arr->length(), " rows but the row group has ", rows));
    if (overrides_[f]) {
      const DataType& want = *overrides_[f];
      if (want.is_categorical()) arr = encode_categorical(*arr, want);
      else if (want.id() == TypeId::Array && as_written(want.inner()) == want.inner())
        arr = compute::list_to_array(*arr, want.width());
      else if (as_written(want) != want) arr = compute::cast(*arr, want, /*strict=*/true, fields[f].name);
      else arr = arr->with_dtype(want);
    }
    cols.emplace_back(fields[f].name, std::move(arr));
  }
  if (cols.empty()) return DataFrame::empty_with_height(rows);
  return DataFrame(std::move(cols));
}

}  // namespace frazil::io::parquet
