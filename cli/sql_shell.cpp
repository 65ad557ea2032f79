// `frazil sql`: SQL from the command line, a file or an interactive prompt.
//
//   frazil sql [-c SQL] [FILE] [--data DIR] [--table NAME=PATH]... [--max-rows N]
//
// Tables: every *.parquet / *.csv file of --data DIR under its file name's stem, and
// each --table NAME=PATH; read_parquet('path') / read_csv('path') work in any query.
// Without -c or FILE, an interactive prompt (with line editing and history in
// ~/.frazil_history when readline is available); statements end with ';'. Commands:
// .tables  .schema [TABLE]  .timer on|off  .maxrows N  .read FILE  .help  .quit
#include "sql_shell.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "frazil/frazil.hpp"

#ifdef FRAZIL_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace frazil::cli {

namespace {

const char* kSqlUsage =
    "usage: frazil sql [-c SQL] [FILE] [--data DIR] [--table NAME=PATH]... [--max-rows N]\n"
    "\n"
    "Runs SQL over Parquet and CSV files: the statements of -c SQL, of FILE, or typed at the\n"
    "prompt (statements end with ';').\n"
    "  --data DIR         register every *.parquet / *.csv file of DIR as a table (its name's stem)\n"
    "  --table NAME=PATH  register one file as table NAME\n"
    "  --max-rows N       rows shown per result (default 20)\n"
    "prompt commands: .tables  .schema [TABLE]  .timer on|off  .maxrows N  .read FILE  .help  .quit\n";

struct Shell {
  sql::Context ctx;
  bool timer = false;
  int64_t max_rows = 20;

  // Runs the statements of `text`, printing each result. False when one failed.
  bool run(const std::string& text) {
    std::vector<std::string> statements;
    try {
      statements = sql::split_statements(text);
    } catch (const std::exception& e) {
      std::cerr << "Error: " << e.what() << "\n";
      return false;
    }
    for (const auto& stmt : statements) {
      auto t0 = std::chrono::steady_clock::now();
      try {
        DataFrame out = ctx.execute(stmt).collect();
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (out.width() > 0 || out.height() > 0) std::cout << out.to_string(max_rows, 16, 40) << "\n";
        if (timer) std::cout << "Run Time: " << secs << " s\n";
      } catch (const std::exception& e) {
        std::cerr << "Error: " << e.what() << "\n";
        return false;
      }
    }
    return true;
  }

  // A prompt command (a line starting with '.'); false for .quit.
  bool command(const std::string& line) {
    std::istringstream in(line);
    std::string cmd, arg;
    in >> cmd >> arg;
    if (cmd == ".quit" || cmd == ".exit" || cmd == ".q") return false;
    if (cmd == ".help") {
      std::cout << kSqlUsage;
    } else if (cmd == ".tables") {
      for (const auto& t : ctx.tables()) std::cout << t << "\n";
    } else if (cmd == ".schema") {
      for (const auto& t : ctx.tables()) {
        if (!arg.empty() && arg != t) continue;
        try {
          std::cout << t << ": " << ctx.table(t)->collect_schema().to_string() << "\n";
        } catch (const std::exception& e) {
          std::cerr << "Error: " << e.what() << "\n";
        }
      }
    } else if (cmd == ".timer") {
      if (arg != "on" && arg != "off") std::cerr << "Error: .timer on|off\n";
      else timer = arg == "on";
    } else if (cmd == ".maxrows") {
      try {
        max_rows = std::max<int64_t>(1, std::stoll(arg));
      } catch (const std::exception&) {
        std::cerr << "Error: .maxrows needs a number\n";
      }
    } else if (cmd == ".read") {
      std::ifstream f(arg);
      if (!f) std::cerr << "Error: cannot read '" << arg << "'\n";
      else {
        std::stringstream ss;
        ss << f.rdbuf();
        run(ss.str());
      }
    } else {
      std::cerr << "Error: unknown command " << cmd << " (.help lists them)\n";
    }
    return true;
  }

  void register_file(const std::string& name, const std::filesystem::path& path) {
    const std::string ext = path.extension().string();
    if (ext == ".parquet") ctx.register_frame(name, scan_parquet(path.string()));
    else if (ext == ".csv") {
      io::CsvReadOptions o;
      o.try_parse_dates = true;
      ctx.register_frame(name, scan_csv(path.string(), o));
    } else {
      throw std::runtime_error("'" + path.string() + "' is neither .parquet nor .csv");
    }
  }
};

bool complete_statement(const std::string& buffer) {
  // Ends with ';' outside quotes and comments (good enough for a prompt: the parser has the
  // last word).
  bool single = false, dbl = false;
  char last = 0;
  for (size_t i = 0; i < buffer.size(); ++i) {
    const char c = buffer[i];
    if (!dbl && c == '\'') single = !single;
    else if (!single && c == '"') dbl = !dbl;
    else if (!single && !dbl && c == '-' && i + 1 < buffer.size() && buffer[i + 1] == '-') {
      while (i < buffer.size() && buffer[i] != '\n') ++i;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) last = c;
  }
  return !single && !dbl && last == ';';
}

int interactive(Shell& shell) {
  const bool tty = isatty(STDIN_FILENO);
  std::string history_path;
#ifdef FRAZIL_HAVE_READLINE
  if (const char* home = std::getenv("HOME")) history_path = std::string(home) + "/.frazil_history";
  if (tty && !history_path.empty()) read_history(history_path.c_str());
#endif
  if (tty) std::cout << "frazil SQL; statements end with ';', .help for commands, .quit to leave\n";
  std::string buffer;
  for (;;) {
    const char* prompt = buffer.empty() ? "frazil> " : "   ...> ";
    std::string line;
#ifdef FRAZIL_HAVE_READLINE
    if (tty) {
      char* raw = readline(prompt);
      if (!raw) break;
      line = raw;
      std::free(raw);
    } else if (!std::getline(std::cin, line)) {
      break;
    }
#else
    if (tty) std::cout << prompt << std::flush;
    if (!std::getline(std::cin, line)) break;
#endif
    if (buffer.empty()) {
      size_t first = line.find_first_not_of(" \t");
      if (first == std::string::npos) continue;
      if (line[first] == '.') {
#ifdef FRAZIL_HAVE_READLINE
        if (tty) add_history(line.c_str());
#endif
        if (!shell.command(line.substr(first))) break;
        continue;
      }
    }
    buffer += (buffer.empty() ? "" : "\n") + line;
    if (!complete_statement(buffer)) continue;
#ifdef FRAZIL_HAVE_READLINE
    if (tty) add_history(buffer.c_str());
#endif
    shell.run(buffer);
    buffer.clear();
  }
  if (!buffer.empty()) shell.run(buffer);
#ifdef FRAZIL_HAVE_READLINE
  if (tty && !history_path.empty()) write_history(history_path.c_str());
#endif
  if (tty) std::cout << "\n";
  return 0;
}

}  // namespace

int run_sql(int argc, char** argv) {
  Shell shell;
  std::string command, file;
  try {
    for (int i = 2; i < argc; ++i) {
      std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
        return argv[++i];
      };
      if (a == "-c") command = value();
      else if (a == "--data") {
        const std::string dir = value();
        if (!std::filesystem::is_directory(dir)) throw std::runtime_error("--data: '" + dir + "' is not a directory");
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {
          const auto ext = entry.path().extension().string();
          if (entry.is_regular_file() && (ext == ".parquet" || ext == ".csv"))
            shell.register_file(entry.path().stem().string(), entry.path());
        }
      } else if (a == "--table") {
        const std::string spec = value();
        const size_t eq = spec.find('=');
        if (eq == std::string::npos || eq == 0) throw std::runtime_error("--table needs NAME=PATH, got '" + spec + "'");
        shell.register_file(spec.substr(0, eq), spec.substr(eq + 1));
      } else if (a == "--max-rows") {
        shell.max_rows = std::max<int64_t>(1, std::stoll(value()));
      } else if (a == "-h" || a == "--help") {
        std::cout << kSqlUsage;
        return 0;
      } else if (!a.empty() && a[0] == '-') {
        throw std::runtime_error("unknown option " + a);
      } else if (file.empty()) {
        file = a;
      } else {
        throw std::runtime_error("more than one FILE given");
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "frazil sql: " << e.what() << "\n\n" << kSqlUsage;
    return 2;
  }
  if (!command.empty()) return shell.run(command) ? 0 : 1;
  if (!file.empty()) {
    std::ifstream f(file);
    if (!f) {
      std::cerr << "frazil sql: cannot read '" << file << "'\n";
      return 2;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    return shell.run(ss.str()) ? 0 : 1;
  }
  return interactive(shell);
}

}  // namespace frazil::cli
