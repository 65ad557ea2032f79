// Polars' hive pre-partitioning (its pre_partition_hive flag, part of predicate pushdown
// there). A group-by whose keys include a hive key of the hive-partitioned scan below it,
// or an inner/left/right/semi join of two such scans on a pair of hive keys, becomes a
// union of one group-by (join) per chunk of partition values (at most 64 chunks, the
// leftmost hive key when several qualify): each branch reads its input through
// `key.is_in(values)`, which predicate pushdown brings to the scan, so each branch reads
// only its partitions' files. Groups and join matches never cross partitions, so the
// union holds the same rows.
//
// Between the scan and the group-by or join only filters, slices and simple projections
// may stand (anything else may rename or compute the key). A partition of null values
// leaves the plan as it is. A group-by with maintain_order is not split; a join whose row
// order is observed is split only when each partition value's files are consecutive in
// the order-giving side's scan and no sort stands between, so the union keeps the order.
//
// With `split` false (pre_partition_hive off, predicate pushdown on) a join of two such
// scans only filters each side to the partition values the join can match, as Polars.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node pre_partition_hive(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena, bool split);

}  // namespace frazil::optimizer
