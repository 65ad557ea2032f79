#include "frazil/core/frame.hpp"

#include <algorithm>

#include "frazil/core/error.hpp"
#include "frazil/core/length_limit.hpp"

namespace frazil {

DataFrame::DataFrame(std::vector<Column> columns) : columns_(std::move(columns)) {
  auto duplicate = [](const std::string& name) {
    return DuplicateError(err_msg("column with name '", name, "' has more than one occurrence"));
  };
  if (columns_.size() > kIndexedWidth) {
    auto index = std::make_shared<std::unordered_map<std::string, size_t>>();
    index->reserve(columns_.size());
    for (size_t i = 0; i < columns_.size(); ++i)
      if (!index->emplace(columns_[i].name(), i).second) throw duplicate(columns_[i].name());
    index_ = std::move(index);
  } else {
    for (size_t i = 0; i < columns_.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (columns_[i].name() == columns_[j].name()) throw duplicate(columns_[i].name());
  }
  if (!columns_.empty()) {
    height_ = columns_[0].length();
    for (const auto& c : columns_)
      if (c.length() != height_)
        throw ShapeError(err_msg("could not create a new DataFrame: height of column '", c.name(), "' (",
                                 c.length(), ") does not match height of column '", columns_[0].name(),
                                 "' (", height_, ")"));
  }
}

DataFrame DataFrame::empty_with_height(int64_t height) {
  if (height > kMaxLength) [[unlikely]]
    check_length(height, "a frame");
  DataFrame df;
  df.height_ = height;
  return df;
}

DataFrame DataFrame::empty_with_schema(const Schema& schema) {
  std::vector<Column> cols;
  for (const auto& f : schema.fields()) cols.emplace_back(f.name, make_empty_array(f.dtype));
  return DataFrame(std::move(cols));
}

std::optional<size_t> DataFrame::index_of(const std::string& name) const {
  if (index_) {
    auto it = index_->find(name);
    if (it == index_->end()) return std::nullopt;
    return it->second;
  }
  for (size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i].name() == name) return i;
  return std::nullopt;
}

const Column& DataFrame::column(const std::string& name) const {
  if (auto i = index_of(name)) return columns_[*i];
  schema().dtype_of(name);  // throws ColumnNotFoundError with the valid names
  throw ColumnNotFoundError(name);
}

Schema DataFrame::schema() const {
  std::vector<Field> fields;
  for (const auto& c : columns_) fields.push_back(Field{c.name(), c.dtype()});
  return Schema(std::move(fields));
}

std::vector<std::string> DataFrame::names() const {
  std::vector<std::string> out;
  for (const auto& c : columns_) out.push_back(c.name());
  return out;
}

DataFrame DataFrame::slice(int64_t offset, int64_t length) const {
  if (offset < 0) offset = std::max<int64_t>(0, height_ + offset);
  offset = std::min(offset, height_);
  length = std::clamp<int64_t>(length, 0, height_ - offset);
  std::vector<Column> cols;
  for (const auto& c : columns_) cols.push_back(c.slice(offset, length));
  DataFrame out;  // the same names: no new checks, the same index
  out.columns_ = std::move(cols);
  out.height_ = length;
  out.index_ = index_;
  return out;
}

DataFrame DataFrame::select(const std::vector<std::string>& names) const {
  std::vector<Column> cols;
  for (const auto& n : names) cols.push_back(column(n));
  DataFrame out(std::move(cols));
  out.height_ = height_;
  return out;
}

DataFrame DataFrame::with_column(Column column) const {
  std::vector<Column> cols = columns_;
  if (auto i = index_of(column.name())) cols[*i] = std::move(column);
  else cols.push_back(std::move(column));
  DataFrame out(std::move(cols));
  return out;
}

DataFrame DataFrame::rechunk() && {
  for (auto& c : columns_)
    if (c.is_scalar() || c.num_chunks() != 1) c = Column(c.name(), c.as_array());
  return std::move(*this);
}

DataFrame DataFrame::rechunk() const& {
  std::vector<Column> cols;
  for (const auto& c : columns_) {
    if (!c.is_scalar() && c.num_chunks() == 1) cols.push_back(c);
    else cols.emplace_back(c.name(), c.as_array());
  }
  DataFrame out(std::move(cols));
  out.height_ = height_;
  return out;
}

bool DataFrame::equals(const DataFrame& o) const {
  if (height_ != o.height_ || width() != o.width()) return false;
  for (size_t c = 0; c < width(); ++c) {
    const Column& a = columns_[c];
    const Column& b = o.columns_[c];
    if (a.name() != b.name() || a.dtype() != b.dtype()) return false;
    ArrayRef x = a.as_array(), y = b.as_array();
    for (int64_t i = 0; i < height_; ++i)
      if (!(array_get(*x, i) == array_get(*y, i))) return false;
  }
  return true;
}

// Display width in terminal cells: count UTF-8 code points.
static size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Longer values keep their first `max_width` characters and end in "…", as Polars does.
static std::string truncate_cell(const std::string& s, int64_t max_width) {
  if (static_cast<int64_t>(display_width(s)) <= max_width) return s;
  std::string out;
  size_t cells = 0;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = s[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    if (static_cast<int64_t>(cells) >= max_width) break;
    out.append(s, i, len);
    ++cells;
    i += len;
  }
  return out + "…";
}

std::string DataFrame::to_string(int64_t max_rows, int64_t max_cols, int64_t max_width) const {
  std::string out = err_msg("shape: (", height_, ", ", width(), ")\n");
  // Which rows and columns to show; -1 marks the ellipsis.
  std::vector<int64_t> rows, cols;
  if (height_ <= max_rows) {
    for (int64_t i = 0; i < height_; ++i) rows.push_back(i);
  } else {
    int64_t head = (max_rows + 1) / 2, tail = max_rows / 2;
    for (int64_t i = 0; i < head; ++i) rows.push_back(i);
    rows.push_back(-1);
    for (int64_t i = height_ - tail; i < height_; ++i) rows.push_back(i);
  }
  int64_t w = static_cast<int64_t>(width());
  if (w <= max_cols) {
    for (int64_t i = 0; i < w; ++i) cols.push_back(i);
  } else {
    int64_t head = (max_cols + 1) / 2, tail = max_cols / 2;
    for (int64_t i = 0; i < head; ++i) cols.push_back(i);
    cols.push_back(-1);
    for (int64_t i = w - tail; i < w; ++i) cols.push_back(i);
  }
  std::vector<std::vector<std::string>> cells(cols.size());
  std::vector<size_t> widths(cols.size(), 0);
  for (size_t c = 0; c < cols.size(); ++c) {
    auto& col = cells[c];
    if (cols[c] < 0) {
      col = {"…", "", ""};
      for (size_t r = 0; r < rows.size(); ++r) col.push_back("…");
    } else {
      const Column& column = columns_[cols[c]];
      col = {truncate_cell(column.name(), max_width), "---", column.dtype().short_name()};
      for (int64_t r : rows) {
        if (r < 0) col.push_back("…");
        else {
          Scalar v = column.get(r);
          std::string s = v.to_string();
          col.push_back(truncate_cell(s, max_width));
        }
      }
    }
    for (const auto& s : col) widths[c] = std::max(widths[c], display_width(s));
  }
  auto line = [&](const char* left, const char* fill, const char* sep, const char* right) {
    std::string s = left;
    for (size_t c = 0; c < cols.size(); ++c) {
      if (c) s += sep;
      for (size_t i = 0; i < widths[c] + 2; ++i) s += fill;
    }
    return s + right + "\n";
  };
  auto row = [&](size_t r) {
    std::string s = "│";
    for (size_t c = 0; c < cols.size(); ++c) {
      if (c) s += "┆";
      const std::string& v = cells[c][r];
      s += " " + v + std::string(widths[c] - display_width(v), ' ') + " ";
    }
    return s + "│\n";
  };
  out += line("┌", "─", "┬", "┐");
  for (size_t r = 0; r < 3; ++r)
    if (!cols.empty()) out += row(r);
  out += line("╞", "═", "╪", "╡");
  for (size_t r = 3; r < 3 + rows.size(); ++r) out += row(r);
  out += line("└", "─", "┴", "┘");
  out.pop_back();
  return out;
}

DataFrame concat_frames(const std::vector<DataFrame>& frames) {
  if (frames.empty()) return DataFrame();
  if (frames.size() == 1) return frames[0];
  const DataFrame& first = frames[0];
  std::vector<Column> cols;
  int64_t total = 0;
  for (const auto& f : frames) total += f.height();
  if (total > kMaxLength) [[unlikely]]
    check_length(total, "the concatenated frame");
  for (size_t c = 0; c < first.width(); ++c) {
    std::vector<ArrayRef> chunks;
    for (const auto& f : frames) {
      if (f.width() != first.width())
        throw ShapeError(err_msg("unable to vstack: frames have ", first.width(), " and ", f.width(), " columns"));
      const Column& col = f.column(c);
      if (col.name() != first.column(c).name())
        throw ShapeError(err_msg("unable to vstack: column names differ: '", first.column(c).name(),
                                 "' and '", col.name(), "'"));
      if (col.dtype() != first.column(c).dtype())
        throw SchemaError(err_msg("type ", col.dtype(), " is incompatible with expected type ",
                                  first.column(c).dtype(), " for column '", col.name(), "'"));
      for (auto& ch : col.chunks()) chunks.push_back(ch);
    }
    cols.emplace_back(first.column(c).name(), first.column(c).dtype(), std::move(chunks));
  }
  if (cols.empty()) return DataFrame::empty_with_height(total);
  return DataFrame(std::move(cols));
}

}  // namespace frazil
