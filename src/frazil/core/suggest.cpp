#include "frazil/core/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace frazil {

size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the dynamic-programming table at a time.
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

namespace {
bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace

std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  for (const auto& c : candidates)
    if (c != name && equal_ignoring_case(c, name)) return c;
  const size_t threshold = std::max<size_t>(1, name.size() / 3);
  std::optional<std::string> best;
  size_t best_distance = threshold + 1;
  for (const auto& c : candidates) {
    // Names whose lengths differ by more than the threshold cannot be close enough.
    size_t gap = c.size() > name.size() ? c.size() - name.size() : name.size() - c.size();
    if (gap > threshold || c == name) continue;
    size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  auto best = closest_name(name, candidates);
  return best ? "\n\nDid you mean \"" + *best + "\"?" : std::string();
}

}  // namespace frazil
