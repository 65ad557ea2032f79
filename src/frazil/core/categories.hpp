// Categories: the string <-> code mapping behind Categorical and Enum columns.
//
// As in Polars 2, pl.Categorical columns share one process-wide, append-only mapping
// (`Categories::global()`): a string gets its code the first time any column sees it, so
// codes of two Categorical columns are comparable and group-by/joins run on the codes.
// pl.Enum(categories) has a fixed mapping: code i is categories[i], the order of the enum.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace frazil {

class Categories {
 public:
  // The global mapping of pl.Categorical (never freed: codes stay valid for the process).
  static const std::shared_ptr<Categories>& global();
  // A fixed mapping for pl.Enum; raises InvalidOperationError on a duplicate or null entry.
  static std::shared_ptr<const Categories> fixed(std::vector<std::string> categories);

  bool is_fixed() const { return fixed_; }
  uint32_t size() const;
  // The string of a code (a copy: the global mapping may grow concurrently).
  std::string get(uint32_t code) const;
  std::optional<uint32_t> find(std::string_view s) const;
  // The code of `s`, adding it to the global mapping when new (global only).
  uint32_t get_or_insert(std::string_view s);
  // Runs f(code, string_view) for codes [0, n) under one read lock (n <= size()).
  template <class F>
  void for_each(uint32_t n, F&& f) const {
    std::shared_lock lock(mutex_);
    for (uint32_t i = 0; i < n; ++i) f(i, std::string_view(strings_[i]));
  }
  // Codes for a batch of strings under one lock; a missing string of a fixed mapping gives
  // UINT32_MAX. `valid` null means all valid.
  std::vector<uint32_t> encode(const std::vector<std::string_view>& values, bool insert);
  // Lexical rank of every code [0, size()) (for sorting and ordering Categorical).
  std::vector<uint32_t> lexical_ranks() const;
  // Views of all strings in code order (stable: strings are never moved or removed).
  std::vector<std::string_view> views() const;
  // All strings, in code order.
  std::vector<std::string> strings() const;

  bool same_categories(const Categories& o) const;

 private:
  explicit Categories(bool fixed) : fixed_(fixed) {}
  bool fixed_;
  mutable std::shared_mutex mutex_;
  std::deque<std::string> strings_;  // deque: references stay valid while it grows
  std::unordered_map<std::string_view, uint32_t> index_;
};

}  // namespace frazil
