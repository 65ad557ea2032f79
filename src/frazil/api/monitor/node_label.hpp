// A short name for a plan node in logs and profiles: "parquet scan (lineitem.parquet)",
// "filter", "group_by(l_returnflag, l_linestatus)", "inner join", "sort(l_orderkey)".
#pragma once

#include <string>

#include "frazil/plan/ir.hpp"

namespace frazil::monitor {

std::string node_label(const plan::IR& ir);

}  // namespace frazil::monitor
