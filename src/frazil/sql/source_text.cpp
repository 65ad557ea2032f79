#include "frazil/sql/source_text.hpp"

#include <algorithm>
#include <cctype>

namespace frazil::sql {

SourceText::SourceText(std::string original) : original_(original), rewritten_(std::move(original)) {
  origin_.resize(rewritten_.size() + 1);
  for (size_t i = 0; i < origin_.size(); ++i) origin_[i] = static_cast<int32_t>(i);
}

SourceText::SourceText(std::string original, std::string rewritten, std::vector<int32_t> origin)
    : original_(std::move(original)), rewritten_(std::move(rewritten)), origin_(std::move(origin)) {}

int32_t SourceText::to_original(int32_t offset) const {
  if (offset < 0) return -1;
  if (origin_.empty()) return offset;
  return origin_[std::min<size_t>(static_cast<size_t>(offset), origin_.size() - 1)];
}

std::string SourceText::describe(int32_t offset) const {
  if (offset < 0 || original_.empty()) return "";
  const size_t pos = std::min<size_t>(static_cast<size_t>(offset), original_.size());
  size_t line_start = original_.rfind('\n', pos == 0 ? 0 : pos - 1);
  line_start = (line_start == std::string::npos || pos == 0) ? 0 : line_start + 1;
  if (pos > 0 && original_[pos - 1] == '\n') line_start = pos;
  size_t line_end = original_.find('\n', pos);
  if (line_end == std::string::npos) line_end = original_.size();
  const int64_t line = 1 + std::count(original_.begin(), original_.begin() + static_cast<std::ptrdiff_t>(line_start), '\n');
  const size_t column = pos - line_start + 1;
  std::string text = original_.substr(line_start, line_end - line_start);
  // Long lines are cut around the position so that the caret stays readable.
  size_t shown_from = 0;
  if (column > 60) shown_from = column - 40;
  std::string shown = text.substr(shown_from, 80);
  for (char& c : shown)
    if (c == '\t') c = ' ';
  std::string prefix = shown_from > 0 ? "..." : "";
  std::string out = " at line " + std::to_string(line) + ", column " + std::to_string(column) + ":\n  " + prefix +
                    shown + (shown_from + 80 < text.size() ? "..." : "") + "\n  " +
                    std::string(prefix.size() + (column - 1 - shown_from), ' ') + "^";
  return out;
}

void fail_at(ErrorKind kind, const SourceText& src, int32_t location, const std::string& message) {
  throw_error(kind, message + src.describe(src.to_original(location)));
}

namespace {

// Edits (insert, delete, substitute, swap two neighbours) from a to b, case ignored.
size_t edit_distance(const std::string& a, const std::string& b) {
  auto eq = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (eq(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && eq(a[i - 1], b[j - 2]) && eq(a[i - 2], b[j - 1])) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  size_t best_distance = 0;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(name, c);
    if (!best || d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  // Close enough to be a typo: a third of the name's characters at most.
  if (best && best_distance <= std::max<size_t>(1, (name.size() + 2) / 3) && *best != name)
    return "; did you mean '" + *best + "'?";
  return "";
}

}  // namespace frazil::sql
