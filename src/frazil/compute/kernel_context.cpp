#include "frazil/compute/kernel_context.hpp"

namespace frazil::compute {

namespace {
const std::string kEmpty;
thread_local const std::string* current = &kEmpty;
}  // namespace

const std::string& current_column_name() { return *current; }

ColumnNameScope::ColumnNameScope(const std::string& name) : previous_(current) { current = &name; }
ColumnNameScope::~ColumnNameScope() { current = previous_; }

}  // namespace frazil::compute
