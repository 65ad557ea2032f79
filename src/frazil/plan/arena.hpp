// Arena<T>: the flat vector that holds every node of a plan, addressed by Node indices.
// Cloning a plan copies indices, comparing subtrees compares integers, and nothing is
// freed one by one: replaced nodes stay until the arena itself goes.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "frazil/core/error.hpp"

namespace frazil::plan {

// An index into an Arena. 32 bits: a plan never has four billion nodes.
struct Node {
  uint32_t idx = UINT32_MAX;

  constexpr Node() = default;
  constexpr explicit Node(uint32_t i) : idx(i) {}
  bool valid() const { return idx != UINT32_MAX; }
  auto operator<=>(const Node&) const = default;
};

template <typename T>
class Arena {
 public:
  Arena() = default;
  explicit Arena(size_t capacity) { items_.reserve(capacity); }

  Node add(T value) {
    items_.push_back(std::move(value));
    return Node(static_cast<uint32_t>(items_.size() - 1));
  }
  const T& get(Node n) const {
    FRAZIL_CHECK_LT(n.idx, items_.size());
    return items_[n.idx];
  }
  T& get_mut(Node n) {
    FRAZIL_CHECK_LT(n.idx, items_.size());
    return items_[n.idx];
  }
  // Replaces the node in place; every parent pointing at `n` now sees `value`.
  void replace(Node n, T value) { get_mut(n) = std::move(value); }
  // Moves the value out, leaving a default-constructed one behind.
  T take(Node n) { return std::exchange(get_mut(n), T{}); }
  // A shallow copy of the node under a new index (children are shared).
  Node duplicate(Node n) { return add(T(get(n))); }
  Node last_node() const { return Node(static_cast<uint32_t>(items_.size() - 1)); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // Drops every node; cached references to this arena can tell by the version.
  void clear() {
    items_.clear();
    ++version_;
  }
  uint32_t version() const { return version_; }

 private:
  uint32_t version_ = 0;
  std::vector<T> items_;
};

}  // namespace frazil::plan

template <>
struct std::hash<frazil::plan::Node> {
  size_t operator()(const frazil::plan::Node& n) const noexcept { return std::hash<uint32_t>()(n.idx); }
};
