#include "frazil/sql/relation.hpp"

#include <cctype>
#include <unordered_set>

#include "frazil/sql/column_stats.hpp"

namespace frazil::sql {

bool iequals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

Relation Relation::of_frame(LazyFrame frame, const std::string& qualifier) {
  Relation r(std::move(frame));
  const Schema schema = r.frame.collect_schema();
  for (const auto& f : schema.fields()) {
    BoundColumn c;
    if (!qualifier.empty()) c.qualifiers.push_back(qualifier);
    c.name = f.name;
    c.internal = f.name;
    c.dtype = f.dtype;
    auto stats = source_column_stats(r.frame, f.name);
    c.non_null = stats && stats->non_null;
    r.columns.push_back(std::move(c));
  }
  return r;
}

std::vector<const BoundColumn*> Relation::find(const std::string& qualifier, const std::string& name) const {
  std::vector<const BoundColumn*> exact, loose;
  auto qualified = [&](const BoundColumn& c, bool exact_case) {
    if (qualifier.empty()) return true;
    for (const auto& q : c.qualifiers)
      if (exact_case ? q == qualifier : iequals(q, qualifier)) return true;
    return false;
  };
  for (const auto& c : columns) {
    if (c.hidden || (c.qualified_only && qualifier.empty())) continue;
    if (c.name == name && qualified(c, true)) exact.push_back(&c);
    else if (iequals(c.name, name) && qualified(c, false)) loose.push_back(&c);
  }
  return exact.empty() ? loose : exact;
}

bool Relation::has_qualifier(const std::string& qualifier) const {
  for (const auto& c : columns)
    for (const auto& q : c.qualifiers)
      if (iequals(q, qualifier)) return true;
  return false;
}

const BoundColumn* Relation::by_internal(const std::string& internal) const {
  for (const auto& c : columns)
    if (c.internal == internal) return &c;
  return nullptr;
}

std::vector<std::string> Relation::names() const {
  std::vector<std::string> out;
  for (const auto& c : columns)
    if (!c.hidden && !c.qualified_only) out.push_back(c.name);
  return out;
}

std::string Relation::fresh_internal(const std::string& base) const {
  std::unordered_set<std::string> used;
  for (const auto& c : columns) used.insert(c.internal);
  if (!used.count(base)) return base;
  for (int i = 1;; ++i) {
    std::string candidate = base + ":" + std::to_string(i);
    if (!used.count(candidate)) return candidate;
  }
}

void Relation::refresh_dtypes() {
  const Schema schema = frame.collect_schema();
  for (auto& c : columns) {
    auto i = schema.index_of(c.internal);
    if (i) c.dtype = schema.field(*i).dtype;
  }
}

}  // namespace frazil::sql
