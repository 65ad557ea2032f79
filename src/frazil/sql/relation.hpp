// Relation: a LazyFrame with the SQL names of its columns. A column has the name SQL
// sees, the names of the tables that qualify it (`t.a`) and the frame column that holds
// it; joins rename the frame columns that would collide, so every SQL column keeps a
// frame column of its own and the frames are joined exactly as the DataFrame API would.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/dtype.hpp"

namespace frazil::sql {

struct BoundColumn {
  std::vector<std::string> qualifiers;  // the table names and aliases that qualify it
  std::string name;                     // the name SQL refers to it by
  std::string internal;                 // the frame's column
  DataType dtype;
  bool hidden = false;                  // a helper column: not part of `*`
  bool non_null = false;                // known to hold no nulls (from the source's statistics)
  bool qualified_only = false;          // a USING key's side: only `t.k` names it, `*` skips it
};

struct Relation {
  LazyFrame frame;
  std::vector<BoundColumn> columns;

  explicit Relation(LazyFrame f) : frame(std::move(f)) {}
  // A relation over `frame` whose columns are the frame's, qualified by `qualifier`.
  static Relation of_frame(LazyFrame frame, const std::string& qualifier);

  // The visible columns matching `name` (and `qualifier` if not empty): exact matches
  // first; when there are none, the case-insensitive ones.
  std::vector<const BoundColumn*> find(const std::string& qualifier, const std::string& name) const;
  bool has_qualifier(const std::string& qualifier) const;
  const BoundColumn* by_internal(const std::string& internal) const;
  // Every visible column name, for "did you mean".
  std::vector<std::string> names() const;
  // A frame column name not yet used: `base`, else `base:1`, `base:2`, ...
  std::string fresh_internal(const std::string& base) const;
  // Re-reads the frame's schema (after the frame changed) into the columns' dtypes.
  void refresh_dtypes();
};

// Case-insensitive ASCII equality.
bool iequals(const std::string& a, const std::string& b);

}  // namespace frazil::sql
