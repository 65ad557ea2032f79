// SourceText: the SQL a user wrote and where each character of the text handed to the
// parser came from, so that every error names a position in what the user wrote.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frazil/core/error.hpp"

namespace frazil::sql {

class SourceText {
 public:
  SourceText() = default;
  explicit SourceText(std::string original);
  SourceText(std::string original, std::string rewritten, std::vector<int32_t> origin);

  const std::string& original() const { return original_; }
  const std::string& rewritten() const { return rewritten_; }
  // The offset in the original text of a (0-based) offset in the rewritten one; -1 stays -1.
  int32_t to_original(int32_t rewritten_offset) const;
  // " at line L, column C" plus the line and a caret under the position; empty for -1.
  // `offset` is in the original text.
  std::string describe(int32_t offset) const;

 private:
  std::string original_;
  std::string rewritten_;
  std::vector<int32_t> origin_;  // origin_[i]: original offset of rewritten char i
};

// Throws an error of `kind` whose message ends with the position (a rewritten-text offset,
// as the parse tree's `location` fields hold; -1 when unknown).
[[noreturn]] void fail_at(ErrorKind kind, const SourceText& src, int32_t location, const std::string& message);

// "; did you mean 'x'?" when a candidate is close to `name` (edit distance), else "".
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace frazil::sql
