// "Did you mean ...?": the closest of some names to one that was not found (a column,
// a function, a file), by edit distance, as Polars suggests column names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frazil {

// Levenshtein distance over bytes (insertions, deletions, substitutions).
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `name` within max(1, len(name) / 3) edits (the first of
// equally close ones), or nothing. A candidate equal to `name` up to case always wins.
std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& candidates);

// "\n\nDid you mean \"x\"?" when there is a close candidate, else "".
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace frazil
