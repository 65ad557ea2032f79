#include "frazil/core/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace frazil {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
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

std::vector<std::string> closest_names(std::string_view name, std::span<const std::string> candidates,
                                       size_t limit) {
  const size_t max_distance = std::clamp<size_t>(name.size() / 3, 1, 3);
  std::vector<std::pair<size_t, const std::string*>> close;
  for (const auto& c : candidates) {
    if (c == name) continue;
    const size_t d = equal_ignoring_case(c, name) ? 0 : edit_distance(name, c);
    if (d <= max_distance) close.emplace_back(d, &c);
  }
  std::stable_sort(close.begin(), close.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < close.size() && i < limit; ++i) out.push_back(*close[i].second);
  return out;
}

std::string did_you_mean(std::string_view name, std::span<const std::string> candidates) {
  const auto close = closest_names(name, candidates);
  if (close.empty()) return "";
  if (close.size() == 1) return "; did you mean '" + close[0] + "'?";
  std::string s = "; did you mean one of ";
  for (size_t i = 0; i < close.size(); ++i) s += (i ? ", '" : "'") + close[i] + "'";
  return s + "?";
}

std::optional<std::string> closest_name(std::string_view name, std::span<const std::string> candidates) {
  auto close = closest_names(name, candidates, 1);
  if (close.empty()) return std::nullopt;
  return close[0];
}

std::string did_you_mean_column(std::string_view name, std::span<const std::string> candidates) {
  auto best = closest_name(name, candidates);
  return best ? "\n\nDid you mean \"" + *best + "\"?" : std::string();
}

}  // namespace frazil
