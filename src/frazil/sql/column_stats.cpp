#include "frazil/sql/column_stats.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>

#include "frazil/compute/aggregate.hpp"
#include "frazil/io/parquet/file_reader.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/cost/cost_model.hpp"

namespace frazil::sql {

namespace {

// An integer-valued scalar (integers, dates, datetimes) as a double.
std::optional<double> ordinal(const Scalar& s) {
  const DataType& t = s.dtype();
  if (s.is_null()) return std::nullopt;
  if (t.is_integer() || t.id() == TypeId::Date || t.id() == TypeId::Datetime || t.id() == TypeId::Duration)
    return s.to_double();
  return std::nullopt;
}

std::map<std::string, SourceColumnStats> parquet_stats(const std::vector<std::string>& paths) {
  struct Acc {
    bool non_null = true;
    bool range_known = true;
    std::optional<double> lo, hi;
  };
  std::map<std::string, Acc> acc;
  double rows = 0;
  bool first = true;
  for (const auto& path : paths) {
    auto file = io::parquet::ParquetFile::open(path);
    rows += static_cast<double>(file->num_rows());
    for (const auto& f : file->schema().fields()) {
      if (first) acc[f.name];
      else if (!acc.count(f.name)) acc[f.name] = Acc{false, false, {}, {}};
    }
    first = false;
    for (size_t g = 0; g < file->num_row_groups(); ++g) {
      auto stats = file->row_group_stats(g);
      for (auto& [name, a] : acc) {
        const auto* c = stats.get(name);
        if (!c) {
          a.non_null = false;
          a.range_known = false;
          continue;
        }
        if (!c->null_count || *c->null_count != 0) a.non_null = false;
        auto lo = c->min ? ordinal(*c->min) : std::nullopt;
        auto hi = c->max ? ordinal(*c->max) : std::nullopt;
        if (!lo || !hi) {
          a.range_known = false;
          continue;
        }
        a.lo = a.lo ? std::min(*a.lo, *lo) : *lo;
        a.hi = a.hi ? std::max(*a.hi, *hi) : *hi;
      }
    }
  }
  std::map<std::string, SourceColumnStats> out;
  for (const auto& [name, a] : acc) {
    SourceColumnStats s;
    s.non_null = a.non_null;
    if (a.range_known && a.lo && a.hi) s.distinct_bound = std::min(rows, *a.hi - *a.lo + 1);
    out[name] = s;
  }
  return out;
}

// Footers read once per file set: planning asks about the same tables again and again.
const std::map<std::string, SourceColumnStats>& cached_parquet_stats(const std::vector<std::string>& paths) {
  static std::mutex mu;
  static std::map<std::vector<std::string>, std::pair<std::string, std::map<std::string, SourceColumnStats>>> cache;
  std::lock_guard<std::mutex> lock(mu);
  // Keyed by the paths and their sizes and times, so that a rewritten file is read again.
  std::string stamp;
  for (const auto& p : paths) {
    std::error_code ec;
    auto size = std::filesystem::file_size(p, ec);
    auto time = std::filesystem::last_write_time(p, ec);
    stamp += std::to_string(size) + ":" + std::to_string(time.time_since_epoch().count()) + ";";
  }
  auto it = cache.find(paths);
  if (it == cache.end() || it->second.first != stamp) {
    if (cache.size() > 256) cache.clear();
    it = cache.insert_or_assign(paths, std::make_pair(stamp, parquet_stats(paths))).first;
  }
  return it->second.second;
}

std::optional<SourceColumnStats> frame_stats(const DataFrame& df, const std::string& column) {
  auto i = df.index_of(column);
  if (!i) return std::nullopt;
  const Column& c = df.column(*i);
  SourceColumnStats out;
  out.non_null = c.null_count() == 0;
  const DataType& t = c.dtype();
  if (c.length() > 0 && (t.is_integer() || t.id() == TypeId::Date)) {
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& chunk : c.chunks()) {
      Scalar mn = compute::aggregate(compute::AggKind::Min, *chunk);
      Scalar mx = compute::aggregate(compute::AggKind::Max, *chunk);
      if (auto a = ordinal(mn)) lo = std::min(lo, *a);
      if (auto b = ordinal(mx)) hi = std::max(hi, *b);
    }
    if (lo <= hi) out.distinct_bound = std::min(static_cast<double>(c.length()), hi - lo + 1);
  }
  return out;
}

}  // namespace

std::optional<SourceColumnStats> source_column_stats(const LazyFrame& frame, const std::string& column) {
  const dsl::DslPlan* p = frame.plan().get();
  // Filters and slices keep a column's nulls absent and its values within bounds.
  while (p && (p->kind() == dsl::DslKind::Filter || p->kind() == dsl::DslKind::Slice || p->kind() == dsl::DslKind::Sort))
    p = p->inputs[0].get();
  if (!p) return std::nullopt;
  try {
    if (p->kind() == dsl::DslKind::DataFrameScan && p->as<dsl::DslDataFrameScan>().df)
      return frame_stats(*p->as<dsl::DslDataFrameScan>().df, column);
    if (p->kind() == dsl::DslKind::Scan && p->as<dsl::DslScan>().source.format == dsl::ScanFormat::Parquet) {
      const auto& all = cached_parquet_stats(p->as<dsl::DslScan>().source.paths);
      auto it = all.find(column);
      if (it == all.end()) return std::nullopt;
      return it->second;
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

double estimate_rows(const LazyFrame& frame) {
  try {
    plan::IRArena lp;
    plan::ExprArena ea;
    plan::OptFlags flags;
    plan::Node root = plan::to_alp(frame.plan(), lp, ea, flags);
    auto cost = plan::estimate_cost(root, lp, ea);
    if (cost) return std::max(1.0, cost->rows);
  } catch (const std::exception&) {
  }
  return 1e6;
}

}  // namespace frazil::sql
