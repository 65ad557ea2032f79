#include "frazil/core/categories.hpp"

#include <algorithm>
#include <mutex>
#include <numeric>

#include "frazil/core/error.hpp"

namespace frazil {

const std::shared_ptr<Categories>& Categories::global() {
  static const std::shared_ptr<Categories> g(new Categories(false));
  return g;
}

std::shared_ptr<const Categories> Categories::fixed(std::vector<std::string> categories) {
  std::shared_ptr<Categories> c(new Categories(true));
  for (auto& s : categories) {
    c->strings_.push_back(std::move(s));
    auto [it, inserted] =
        c->index_.emplace(std::string_view(c->strings_.back()), uint32_t(c->strings_.size() - 1));
    if (!inserted)
      throw InvalidOperationError("Enum categories must be unique; found duplicate '" +
                                  c->strings_.back() + "'");
  }
  return c;
}

uint32_t Categories::size() const {
  std::shared_lock lock(mutex_);
  return static_cast<uint32_t>(strings_.size());
}

std::string Categories::get(uint32_t code) const {
  std::shared_lock lock(mutex_);
  FRAZIL_CHECK(code < strings_.size());
  return strings_[code];
}

std::optional<uint32_t> Categories::find(std::string_view s) const {
  std::shared_lock lock(mutex_);
  auto it = index_.find(s);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

uint32_t Categories::get_or_insert(std::string_view s) {
  FRAZIL_CHECK(!fixed_);
  if (auto c = find(s)) return *c;
  std::unique_lock lock(mutex_);
  auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  strings_.emplace_back(s);
  uint32_t code = static_cast<uint32_t>(strings_.size() - 1);
  index_.emplace(std::string_view(strings_.back()), code);
  return code;
}

std::vector<uint32_t> Categories::encode(const std::vector<std::string_view>& values, bool insert) {
  std::vector<uint32_t> out(values.size(), UINT32_MAX);
  std::vector<size_t> missing;
  {
    std::shared_lock lock(mutex_);
    for (size_t i = 0; i < values.size(); ++i) {
      auto it = index_.find(values[i]);
      if (it != index_.end()) out[i] = it->second;
      else missing.push_back(i);
    }
  }
  if (missing.empty() || !insert || fixed_) return out;
  std::unique_lock lock(mutex_);
  for (size_t i : missing) {
    auto it = index_.find(values[i]);
    if (it != index_.end()) {
      out[i] = it->second;
      continue;
    }
    strings_.emplace_back(values[i]);
    uint32_t code = static_cast<uint32_t>(strings_.size() - 1);
    index_.emplace(std::string_view(strings_.back()), code);
    out[i] = code;
  }
  return out;
}

std::vector<uint32_t> Categories::lexical_ranks() const {
  std::shared_lock lock(mutex_);
  std::vector<uint32_t> order(strings_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return strings_[a] < strings_[b]; });
  std::vector<uint32_t> rank(strings_.size());
  for (uint32_t r = 0; r < order.size(); ++r) rank[order[r]] = r;
  return rank;
}

std::vector<std::string_view> Categories::views() const {
  std::shared_lock lock(mutex_);
  return {strings_.begin(), strings_.end()};
}

std::vector<std::string> Categories::strings() const {
  std::shared_lock lock(mutex_);
  return {strings_.begin(), strings_.end()};
}

bool Categories::same_categories(const Categories& o) const {
  if (this == &o) return true;
  if (fixed_ != o.fixed_) return false;
  std::shared_lock l1(mutex_);
  std::shared_lock l2(o.mutex_);
  return std::equal(strings_.begin(), strings_.end(), o.strings_.begin(), o.strings_.end());
}

}  // namespace frazil
