// What a kernel may want to know about the column it runs on, beyond its values: the
// column's name, for error messages that name it as Polars' do ("conversion from `str` to
// `date` failed in column 'x' ..."). The physical layer sets it around a kernel call.
#pragma once

#include <string>

namespace frazil::compute {

// The name of the column the current kernel call reads (empty when unknown).
const std::string& current_column_name();

// Sets current_column_name() for its lifetime (per thread; nests).
class ColumnNameScope {
 public:
  explicit ColumnNameScope(const std::string& name);
  ~ColumnNameScope();
  ColumnNameScope(const ColumnNameScope&) = delete;
  ColumnNameScope& operator=(const ColumnNameScope&) = delete;

 private:
  const std::string* previous_;
};

}  // namespace frazil::compute
