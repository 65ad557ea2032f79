#include "frazil/io/dataset/paths.hpp"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>

#include "frazil/core/error.hpp"
#include "frazil/core/file_not_found.hpp"
#include "frazil/core/os_error.hpp"

namespace frazil::io {

namespace fs = std::filesystem;

namespace {

bool hidden(const std::string& name, const std::vector<std::string>& prefixes) {
  for (const auto& p : prefixes)
    if (!p.empty() && name.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

bool has_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

bool glob_match(const char* pat, const char* str) {
  while (*pat) {
    if (pat[0] == '*' && pat[1] == '*') {
      const char* rest = pat + 2;
      if (*rest == '/') ++rest;
      for (const char* s = str;; ++s) {
        if (glob_match(rest, s)) return true;
        if (!*s) return false;
      }
    }
    if (*pat == '*') {
      for (const char* s = str;; ++s) {
        if (glob_match(pat + 1, s)) return true;
        if (!*s || *s == '/') return false;
      }
    }
    if (!*str) return false;
    if (*pat == '?') {
      if (*str == '/') return false;
    } else if (*pat == '[') {
      const char* p = pat + 1;
      bool neg = *p == '!' || *p == '^';
      if (neg) ++p;
      bool hit = false;
      bool first = true;
      while (*p && (first || *p != ']')) {
        first = false;
        if (p[1] == '-' && p[2] && p[2] != ']') {
          hit |= *str >= p[0] && *str <= p[2];
          p += 3;
        } else {
          hit |= *str == *p;
          ++p;
        }
      }
      if (*p != ']') return *str == '[' && glob_match(pat + 1, str + 1);  // unterminated: literal
      if (hit == neg || *str == '/') return false;
      pat = p;
    } else if (*pat != *str) {
      return false;
    }
    ++pat;
    ++str;
  }
  return !*str;
}

std::string glob_base(const std::string& pattern) {
  size_t w = pattern.find_first_of("*?[");
  size_t slash = pattern.rfind('/', w);
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : pattern.substr(0, slash);
}

std::vector<std::string> list_files(const std::string& dir, const std::vector<std::string>& hidden_prefixes) {
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::follow_directory_symlink, ec), end;
  if (ec) throw OsError(ec.value(), err_msg("cannot list directory '", dir, "'"));
  for (; it != end; it.increment(ec)) {
    if (ec) throw OsError(ec.value(), err_msg("cannot list directory '", dir, "'"));
    if (!it->is_regular_file(ec)) continue;
    if (hidden(it->path().filename().string(), hidden_prefixes)) continue;
    out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

ExpandedPath expand_path(const std::string& path, bool glob, const std::vector<std::string>& hidden_prefixes) {
  std::error_code ec;
  ExpandedPath out;
  if (!glob || !has_glob(path) || fs::exists(path, ec)) {
    if (fs::is_directory(path, ec)) {
      out.files = list_files(path, hidden_prefixes);
      out.hive_base = path;
      out.is_directory = true;
      return out;
    }
    if (!fs::exists(path, ec)) throw_file_not_found(path);
    // A hidden file named directly is skipped too (as Polars does).
    if (!hidden(fs::path(path).filename().string(), hidden_prefixes)) out.files = {path};
    return out;
  }
  std::string base = glob_base(path);
  if (fs::is_directory(base, ec)) {
    for (const auto& f : list_files(base, hidden_prefixes)) {
      // Match with the same spelling as the pattern ("./x" vs "x").
      std::string candidate = f;
      if (base == "." && path.rfind("./", 0) != 0 && candidate.rfind("./", 0) == 0) candidate = candidate.substr(2);
      if (glob_match(path.c_str(), candidate.c_str())) out.files.push_back(f);
    }
  }
  std::sort(out.files.begin(), out.files.end());
  out.hive_base = base;
  return out;
}

}  // namespace frazil::io
