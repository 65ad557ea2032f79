// The expression table of the plan format. Expressions are written once each (shared
// subtrees by identity), children before parents, by an explicit-stack walk, so a chain of
// 100,000 operations neither recurses nor repeats; an expression is referred to by its
// index in the table (0: no expression).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "frazil/dsl/expr.hpp"
#include "frazil/serde/byte_io.hpp"

namespace frazil::serde {

class ExprTableWriter {
 public:
  // The index of `e` in the table, encoding it and every input not yet in the table.
  uint64_t add(const dsl::Expr& e);
  // The table: a count, then the nodes in order.
  void finish(ByteWriter& out) const;

 private:
  void encode(const dsl::ExprNode& node);
  std::unordered_map<const dsl::ExprNode*, uint64_t> ids_;
  uint64_t count_ = 0;
  ByteWriter nodes_;
};

class ExprTableReader {
 public:
  // Reads the table written by ExprTableWriter::finish.
  void read(ByteReader& r);
  // The expression of index `i` (0 is refused unless `optional`).
  dsl::Expr get(ByteReader& r, uint64_t i, bool optional = false) const;
  dsl::Expr read_ref(ByteReader& r) const { return get(r, r.varint()); }
  std::vector<dsl::Expr> read_refs(ByteReader& r) const;

 private:
  dsl::Expr decode(ByteReader& r) const;
  std::vector<dsl::Expr> exprs_;  // exprs_[i - 1] is index i
};

void write_expr_refs(ByteWriter& w, ExprTableWriter& table, const std::vector<dsl::Expr>& exprs);

}  // namespace frazil::serde
