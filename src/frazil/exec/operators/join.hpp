// Executes a Join plan node over its two materialised inputs. The build side's hash table
// is built once (compute/join_table.hpp); the probe side is probed and gathered morsel by
// morsel on every core, without first being copied into one piece.
#pragma once

#include <functional>

#include "frazil/compute/join_table.hpp"
#include "frazil/exec/operators/operators.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

// `left_schema`/`right_schema` are the inputs' planned schemas (the key expressions are
// bound against them).
DataFrame execute_join(const plan::IR& ir, const DataFrame& left, const DataFrame& right,
                       const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea,
                       int64_t morsel_size);

// Streaming joins, for the executor's pipelines: inner, left, semi and anti joins with
// row-local keys can build their table on the (materialised) right input and then probe
// the left input morsel by morsel as one more streaming operator, so the left side flows
// from its source through the join (and on into whatever consumes it) without ever being
// gathered. Left row order is kept.
bool join_streams_left(const plan::IR& ir, const plan::ExprArena& ea);
OperatorRef make_join_probe(const plan::IR& ir, const DataFrame& right, const Schema& left_schema,
                            const Schema& right_schema, const plan::ExprArena& ea);

// The hash of each row's join keys on one side (`left`: the left keys, bound to `schema`),
// equal for equal keys on both sides: what a spilling join partitions its rows by; and
// which rows have a null key (`null_key`, left empty when none has).
std::function<std::vector<uint64_t>(const DataFrame&, std::vector<uint8_t>& null_key)> join_key_hasher(
    const plan::IR& ir, const plan::ExprArena& ea, bool left, const Schema& schema);

// Keeps the rows of a join's right input (or of what feeds it, with the key columns under
// the same names) whose right keys match a key of `left`: for the input of a group-by by the
// right join keys, whose groups without a partner on the left the join would drop anyway.
OperatorRef make_right_key_filter(const plan::IR& ir, const DataFrame& left, const Schema& left_schema,
                                  const Schema& right_schema, const plan::ExprArena& ea);

// The other way round, for inner, left, semi and anti joins whose left input is the
// smaller: the table is built on the (materialised) left input, the right input streams
// through probe_operator(), which keeps only its matching rows, and finish() puts them in
// left order (each left row's matches in right order, as Polars' maintain_order="left").
// Only the matches of the right side are ever held in memory.
class LeftBuildJoin {
 public:
  LeftBuildJoin(const plan::IR& ir, DataFrame left, const Schema& left_schema, const Schema& right_schema,
                const plan::ExprArena& ea, int64_t morsel_size);
  const OperatorRef& probe_operator() const { return probe_; }
  // `matched`: the probe operator's outputs concatenated in order.
  DataFrame finish(const DataFrame& matched) const;

 private:
  const plan::IR& ir_;
  const plan::ExprArena& ea_;
  DataFrame left_;
  int64_t morsel_size_;
  std::shared_ptr<const compute::JoinTable> table_;
  OperatorRef probe_;
};

// Inner and left joins whose output order nobody observes (plan/row_order.hpp) and whose
// left input is the smaller: the table is built on the left, the right input streams
// through probe_operator(), which emits every match at once in probe order, and the
// pipeline goes on past the join. A left join then adds unmatched_rows(): the left rows no
// probe row matched, with null right columns.
class UnorderedLeftBuildJoin {
 public:
  UnorderedLeftBuildJoin(const plan::IR& ir, DataFrame left, const Schema& left_schema,
                         const Schema& right_schema, const plan::ExprArena& ea);
  const OperatorRef& probe_operator() const { return probe_; }
  bool keeps_unmatched() const;
  // Only after every right morsel went through probe_operator().
  DataFrame unmatched_rows() const;

 private:
  const plan::IR& ir_;
  const plan::ExprArena& ea_;
  DataFrame left_;
  Schema right_schema_;
  std::shared_ptr<const compute::JoinTable> table_;
  std::shared_ptr<class HitMarks> hits_;
  OperatorRef probe_;
};

}  // namespace frazil::exec
