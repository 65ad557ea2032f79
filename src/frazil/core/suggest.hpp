// "Did you mean ...?": the known names closest to a mistyped one, for error messages about
// columns, functions, files and parameters.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace frazil {

// Levenshtein distance (insertions, deletions, substitutions), case-sensitive.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidates within a third of `name`'s length (at least 1, at most 3) edits of it,
// closest first, at most `limit` of them; a candidate equal to `name` ignoring case is
// always one.
std::vector<std::string> closest_names(std::string_view name, std::span<const std::string> candidates,
                                       size_t limit = 3);

// "; did you mean 'x'?" / "; did you mean one of 'x', 'y'?", or "" when nothing is close.
std::string did_you_mean(std::string_view name, std::span<const std::string> candidates);

// The closest candidate (the first of closest_names), if any.
std::optional<std::string> closest_name(std::string_view name, std::span<const std::string> candidates);

// Polars' wording for a column that is not found: "\n\nDid you mean \"x\"?", or "".
std::string did_you_mean_column(std::string_view name, std::span<const std::string> candidates);

}  // namespace frazil
