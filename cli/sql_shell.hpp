// `frazil sql`: the SQL shell of the command line (cli/sql_shell.cpp).
#pragma once

namespace frazil::cli {

// argv[1] is "sql"; returns the exit code.
int run_sql(int argc, char** argv);

}  // namespace frazil::cli
