// The `frazil` command line.
//
//   frazil sql [-c SQL] [FILE] [--data DIR] [--table NAME=PATH]...
//
// runs SQL over Parquet / CSV files, or opens an interactive prompt (cli/sql_shell.cpp).
//
//   frazil pdsh [--data DIR] [--format parquet|csv] [--query N[,M-K]] [--reps R]
//               [--explain] [--quiet] [--answers DIR]
//
// runs the PDS-H queries (cli/pdsh_queries.cpp) over generated tables (`make data`),
// printing each result, its plan on request, and timings: the first run, then the median
// of R more runs. With --answers, each result is checked against DIR/q<N>.parquet.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "pdsh_check.hpp"
#include "pdsh_queries.hpp"
#include "sql_shell.hpp"

namespace {

using frazil::cli::kPdshQueries;

const char* kUsage =
    "usage: frazil sql [-c SQL] [FILE] [--data DIR] [--table NAME=PATH]... (frazil sql --help)\n"
    "       frazil pdsh [--data DIR] [--format parquet|csv] [--query N[,M-K]] [--reps R]\n"
    "                   [--explain] [--quiet] [--answers DIR]\n"
    "\n"
    "sql      run SQL over Parquet / CSV files, or an interactive SQL prompt\n"
    "pdsh     run the 22 PDS-H queries (or some) over the tables in DIR\n"
    "         (default data/pdsh/sf1/<format>, made by `make data`)\n"
    "  --query N[,M-K]  queries to run (default: all 22)\n"
    "  --reps R         timed runs after the first, median reported (default 0)\n"
    "  --explain        print each optimized plan before running it\n"
    "  --quiet          print timings only, not the result frames\n"
    "  --answers DIR    check each result against DIR/q<N>.parquet\n";

struct Options {
  std::string data;
  std::string format = "parquet";
  std::vector<int> queries;
  int reps = 0;
  bool explain = false;
  bool quiet = false;
  std::string answers;
};

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "frazil: " << message << "\n\n" << kUsage;
  std::exit(2);
}

std::vector<int> parse_queries(const std::string& text) {
  std::vector<int> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!part.empty() && (part[0] == 'q' || part[0] == 'Q')) part = part.substr(1);
    if (!part.empty()) {
      try {
        size_t dash = part.find('-');
        int lo = std::stoi(part.substr(0, dash));
        int hi = dash == std::string::npos ? lo : std::stoi(part.substr(dash + 1));
        for (int q = lo; q <= hi; ++q) out.push_back(q);
      } catch (const std::exception&) {
        fail("cannot read query list '" + text + "'");
      }
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  for (int q : out) {
    if (q < 1 || q > kPdshQueries) fail("PDS-H has queries 1 to 22, not " + std::to_string(q));
  }
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) fail(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--data") o.data = value(i);
    else if (a == "--format") o.format = value(i);
    else if (a == "--query" || a == "--queries") o.queries = parse_queries(value(i));
    else if (a == "--reps") o.reps = std::max(0, std::atoi(value(i).c_str()));
    else if (a == "--explain") o.explain = true;
    else if (a == "--quiet") o.quiet = true;
    else if (a == "--answers") o.answers = value(i);
    else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else fail("unknown option " + a);
  }
  if (o.format != "parquet" && o.format != "csv") fail("--format must be parquet or csv");
  if (o.data.empty()) o.data = "data/pdsh/sf1/" + o.format;
  if (o.queries.empty()) {
    for (int q = 1; q <= kPdshQueries; ++q) o.queries.push_back(q);
  }
  if (!std::filesystem::exists(std::filesystem::path(o.data) / ("lineitem." + o.format))) {
    fail("no PDS-H tables in " + o.data + " (generate them with `make data`, or pass --data DIR)");
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Row {
  int query;
  std::string status;  // ok | WRONG | FAILED
  int64_t rows = -1;
  double first = 0;
  std::optional<double> median;
  std::string detail;
};

int run_pdsh(const Options& o) {
  frazil::cli::PdshTables tables{o.data, o.format};
  const bool tty = isatty(STDERR_FILENO);
  std::vector<Row> rows;
  for (size_t k = 0; k < o.queries.size(); ++k) {
    int n = o.queries[k];
    Row row{n, "ok"};
    if (tty) std::cerr << "[" << k + 1 << "/" << o.queries.size() << "] q" << n << " running ...\r" << std::flush;
    try {
      frazil::LazyFrame lf = frazil::cli::pdsh_query(n, tables);
      if (o.explain) std::cout << "q" << n << " plan:\n" << lf.explain() << "\n\n";
      auto t0 = std::chrono::steady_clock::now();
      frazil::DataFrame result = lf.collect();
      row.first = seconds_since(t0);
      row.rows = result.height();
      std::vector<double> times;
      for (int r = 0; r < o.reps; ++r) {
        auto t1 = std::chrono::steady_clock::now();
        lf.collect();
        times.push_back(seconds_since(t1));
      }
      if (!times.empty()) {
        std::sort(times.begin(), times.end());
        size_t m = times.size() / 2;
        row.median = times.size() % 2 ? times[m] : (times[m - 1] + times[m]) / 2;
      }
      if (!o.answers.empty()) {
        auto answer_path = std::filesystem::path(o.answers) / ("q" + std::to_string(n) + ".parquet");
        if (auto diff = frazil::cli::frame_mismatch(result, frazil::read_parquet(answer_path.string()))) {
          row.status = "WRONG";
          row.detail = *diff;
        }
      }
      if (!o.quiet) std::cout << "q" << n << ":\n" << result.to_string() << "\n";
    } catch (const std::exception& e) {
      row.status = "FAILED";
      row.detail = e.what();
    }
    if (tty) std::cerr << "\33[2K";
    std::printf("q%-3d %-7s %8s rows  first %8.3f s", n, row.status.c_str(),
                row.rows >= 0 ? std::to_string(row.rows).c_str() : "-", row.first);
    if (row.median) std::printf("  median of %d %8.3f s", o.reps, *row.median);
    if (!row.detail.empty()) std::printf("  %s", row.detail.c_str());
    std::printf("\n");
    std::fflush(stdout);
    rows.push_back(row);
  }
  double total = 0;
  int ok = 0;
  for (const Row& r : rows) {
    total += r.median.value_or(r.first);
    ok += r.status == "ok";
  }
  std::printf("%d/%zu queries %s, %.3f s in total (%s)\n", ok, rows.size(),
              o.answers.empty() ? "ran" : "matched their answers", total, o.reps ? "medians" : "first runs");
  return ok == static_cast<int>(rows.size()) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) fail("missing command");
  std::string command = argv[1];
  if (command == "-h" || command == "--help" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "pdsh") return run_pdsh(parse(argc, argv));
  if (command == "sql") return frazil::cli::run_sql(argc, argv);
  fail("unknown command '" + command + "'");
}
