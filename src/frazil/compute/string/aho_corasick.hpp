// An Aho-Corasick automaton over bytes: finds many literal patterns in one pass. Match
// kinds follow the Rust aho-corasick crate Polars uses: Standard reports each match as
// soon as it ends (the longest pattern ending there), LeftmostFirst the leftmost match,
// preferring patterns given earlier.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace frazil::compute {

class AhoCorasick {
 public:
  struct Match {
    size_t pattern;  // index into the patterns
    size_t start, end;
  };

  AhoCorasick(const std::vector<std::string>& patterns, bool ascii_case_insensitive);

  // Non-overlapping matches, left to right (Standard or LeftmostFirst).
  void find_all(std::string_view text, bool leftmost, std::vector<Match>& out) const;
  // Every match, overlapping ones included, in order of their end (Standard only).
  void find_overlapping(std::string_view text, std::vector<Match>& out) const;
  bool contains_any(std::string_view text) const;
  size_t pattern_count() const { return lengths_.size(); }

 private:
  unsigned char fold(unsigned char c) const { return case_insensitive_ && c >= 'A' && c <= 'Z' ? c + 32 : c; }
  int32_t step(int32_t state, unsigned char c) const;

  struct Node {
    int32_t next[256];
    int32_t fail = 0;
    std::vector<size_t> outputs;  // patterns ending here, the longest first
    std::vector<size_t> own;      // the patterns this node spells (duplicates: several)
    int32_t depth = 0;            // the length of the text the node spells
  };
  std::vector<Node> nodes_;
  std::vector<size_t> lengths_;
  bool case_insensitive_;
  bool has_empty_ = false;
  size_t first_empty_ = 0;
};

}  // namespace frazil::compute
