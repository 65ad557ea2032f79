// Warnings a query raises while it runs (Polars' polars_warn!), for the caller to show: the
// Python binding turns each into a UserWarning once collect() returns. Kept process-wide
// (a query's operators run on pool threads); take_warnings() empties the list.
#pragma once

#include <string>
#include <vector>

namespace frazil {

void add_warning(std::string message);
std::vector<std::string> take_warnings();

}  // namespace frazil
