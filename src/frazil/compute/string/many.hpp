// Many literal patterns at once, with an Aho-Corasick automaton (Polars' str.contains_any,
// str.replace_many, str.extract_many, str.find_many). Patterns (and replacements) are a
// List(String) array of one list for every row; extract_many and find_many also take one
// list per row.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

ArrayRef str_contains_any(const Array& values, const Array& patterns, bool ascii_case_insensitive);
// replace_with: one replacement for each pattern (or one for all).
ArrayRef str_replace_many(const Array& values, const Array& patterns, const Array& replace_with,
                          bool ascii_case_insensitive, bool leftmost);
// List(String) of the matched texts / List(UInt32) of their byte offsets.
ArrayRef str_extract_many(const Array& values, const Array& patterns, bool ascii_case_insensitive, bool overlapping,
                          bool leftmost);
ArrayRef str_find_many(const Array& values, const Array& patterns, bool ascii_case_insensitive, bool overlapping,
                       bool leftmost);

}  // namespace frazil::compute
