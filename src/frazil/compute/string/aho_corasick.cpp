#include "frazil/compute/string/aho_corasick.hpp"

#include <algorithm>
#include <queue>

namespace frazil::compute {

AhoCorasick::AhoCorasick(const std::vector<std::string>& patterns, bool ascii_case_insensitive)
    : case_insensitive_(ascii_case_insensitive) {
  nodes_.emplace_back();
  std::fill(std::begin(nodes_[0].next), std::end(nodes_[0].next), -1);
  for (size_t p = 0; p < patterns.size(); ++p) {
    lengths_.push_back(patterns[p].size());
    if (patterns[p].empty()) {
      if (!has_empty_) has_empty_ = true, first_empty_ = p;
      continue;
    }
    int32_t s = 0;
    for (unsigned char c : patterns[p]) {
      c = fold(c);
      if (nodes_[static_cast<size_t>(s)].next[c] < 0) {
        const int32_t depth = nodes_[static_cast<size_t>(s)].depth + 1;
        nodes_[static_cast<size_t>(s)].next[c] = static_cast<int32_t>(nodes_.size());
        nodes_.emplace_back();
        std::fill(std::begin(nodes_.back().next), std::end(nodes_.back().next), -1);
        nodes_.back().depth = depth;
      }
      s = nodes_[static_cast<size_t>(s)].next[c];
    }
    nodes_[static_cast<size_t>(s)].own.push_back(p);
  }
  // Failure links breadth first; a node's outputs: its own pattern, then its failure's.
  std::queue<int32_t> q;
  for (int c = 0; c < 256; ++c) {
    int32_t& t = nodes_[0].next[c];
    if (t < 0) {
      t = 0;
    } else {
      nodes_[static_cast<size_t>(t)].fail = 0;
      q.push(t);
    }
  }

  while (!q.empty()) {
    const int32_t s = q.front();
    q.pop();
    Node& node = nodes_[static_cast<size_t>(s)];
    for (size_t p : node.own) node.outputs.push_back(p);
    for (size_t out : nodes_[static_cast<size_t>(node.fail)].outputs) node.outputs.push_back(out);
    for (int c = 0; c < 256; ++c) {
      const int32_t t = node.next[c];
      if (t < 0) {
        node.next[c] = nodes_[static_cast<size_t>(node.fail)].next[c];
      } else {
        nodes_[static_cast<size_t>(t)].fail = s == 0 ? 0 : nodes_[static_cast<size_t>(node.fail)].next[c];
        q.push(t);
      }
    }
  }
}

int32_t AhoCorasick::step(int32_t state, unsigned char c) const { return nodes_[static_cast<size_t>(state)].next[fold(c)]; }

namespace {

// The next character boundary after byte i (empty matches never split a character).
size_t next_char(std::string_view text, size_t i) {
  ++i;
  while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  return i;
}

}  // namespace

void AhoCorasick::find_all(std::string_view text, bool leftmost, std::vector<Match>& out) const {
  out.clear();
  if (!leftmost && has_empty_) {
    // The empty pattern matches at once, at every character boundary.
    for (size_t i = 0; i <= text.size(); i = next_char(text, i)) out.push_back({first_empty_, i, i});
    return;
  }
  if (!leftmost) {
    int32_t s = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      s = step(s, static_cast<unsigned char>(text[i]));
      const auto& outs = nodes_[static_cast<size_t>(s)].outputs;
      if (!outs.empty()) {
        const size_t p = outs.front();
        out.push_back({p, i + 1 - lengths_[p], i + 1});
        s = 0;  // the next match starts after this one
      }
    }
    return;
  }
  // Leftmost-first: at each start, the pattern given first among those that match there.
  size_t i = 0;
  while (i < text.size()) {
    int32_t best = -1;
    size_t best_end = 0;
    // Walk the trie from the root along text[i..]: a transition to a node one deeper is
    // a trie edge (completed failure transitions never go deeper).
    int32_t s = 0;
    for (size_t j = i; j < text.size(); ++j) {
      const int32_t t = step(s, static_cast<unsigned char>(text[j]));
      if (nodes_[static_cast<size_t>(t)].depth != nodes_[static_cast<size_t>(s)].depth + 1) break;
      s = t;
      const auto& own = nodes_[static_cast<size_t>(s)].own;
      if (!own.empty() && (best < 0 || static_cast<int32_t>(own.front()) < best)) {
        best = static_cast<int32_t>(own.front());
        best_end = j + 1;
      }
    }
    if (has_empty_ && (best < 0 || static_cast<int32_t>(first_empty_) < best)) {
      best = static_cast<int32_t>(first_empty_);
      best_end = i;
    }
    if (best >= 0) {
      out.push_back({static_cast<size_t>(best), i, best_end});
      if (best_end > i) {
        i = best_end;
      } else {
        // An empty match: the next search starts a character on.
        i = next_char(text, i);
        if (i == text.size()) out.push_back({first_empty_, i, i});
      }
    } else {
      ++i;
    }
  }
}

void AhoCorasick::find_overlapping(std::string_view text, std::vector<Match>& out) const {
  out.clear();
  int32_t s = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    s = step(s, static_cast<unsigned char>(text[i]));
    for (size_t p : nodes_[static_cast<size_t>(s)].outputs) out.push_back({p, i + 1 - lengths_[p], i + 1});
  }
}

bool AhoCorasick::contains_any(std::string_view text) const {
  if (has_empty_) return true;
  int32_t s = 0;
  for (unsigned char c : text) {
    s = step(s, c);
    if (!nodes_[static_cast<size_t>(s)].outputs.empty()) return true;
  }
  return false;
}

}  // namespace frazil::compute
