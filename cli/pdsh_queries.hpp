// The 22 PDS-H queries in frazil's C++ API, the same queries as bench/pdsh/queries/*.py.
#pragma once

#include <string>

#include <frazil/frazil.hpp>

namespace frazil::cli {

// Where the tables are: <dir>/<table>.parquet (or .csv).
struct PdshTables {
  std::string dir;
  std::string format = "parquet";
  LazyFrame operator()(const std::string& table) const;
};

constexpr int kPdshQueries = 22;

// Query n (1..22) over the tables; throws frazil::InvalidOperationError for other n.
LazyFrame pdsh_query(int n, const PdshTables& tables);

}  // namespace frazil::cli
