#include "frazil/optimizer/pushdown/slice_pushdown.hpp"

#include <algorithm>
#include <unordered_map>

#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/plan_walk.hpp"

namespace frazil::optimizer {

using plan::ExprArena;
using plan::IRArena;
using plan::Node;
using plan::is_row_local;
using plan::count_parents;

using plan::IR;
using plan::IRKind;

namespace {

// Rows [begin, begin + length) of the input, clipped to it; a negative offset counts
// from the end (Polars' slice).
struct Slice {
  int64_t offset;
  int64_t length;
};

int64_t add_saturating(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

// The slice `outer` of the slice `inner` of some input, when it is one slice of that
// input whatever its height (both from the start, or both tails).
std::optional<Slice> merge(const Slice& inner, const Slice& outer) {
  // The last k2 rows of the last k1 rows are the last min(k1, k2) rows.
  auto is_tail = [](const Slice& s) { return s.offset < 0 && s.offset > INT64_MIN && s.length >= -s.offset; };
  if (is_tail(inner) && is_tail(outer)) {
    const int64_t k = std::min(-inner.offset, -outer.offset);
    return Slice{-k, k};
  }
  if (inner.offset < 0 || outer.offset < 0) return std::nullopt;
  const int64_t left = inner.length > outer.offset ? inner.length - outer.offset : 0;
  return Slice{add_saturating(inner.offset, outer.offset), std::min(left, outer.length)};
}

class SlicePushdown {
 public:
  SlicePushdown(IRArena& lp, ExprArena& ea, Node root) : lp_(lp), ea_(ea), parents_(count_parents(root, lp)) {}

  // Recursive over the plan's depth (a query runs on a large stack; core/stack.hpp).
  Node push(Node n, std::optional<Slice> s) {
    check_stack("slice pushdown");
    if (parents_[n.idx] <= 1) return visit(n, s);
    auto it = shared_.find(n.idx);
    Node done = it != shared_.end() ? it->second : shared_.emplace(n.idx, visit(n, std::nullopt)).first->second;
    return place(done, s);
  }

 private:
  // A Slice node above `n` when there is a slice to apply.
  Node place(Node n, std::optional<Slice> s) {
    if (!s) return n;
    SchemaRef schema = lp_.get(n).schema;
    return lp_.add(IR(plan::SliceNode{s->offset, s->length}, {n}, std::move(schema)));
  }

  Node barrier(Node n, std::optional<Slice> s) {
    const std::vector<Node> inputs = lp_.get(n).inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Node in = push(inputs[i], std::nullopt);
      lp_.get_mut(n).inputs[i] = in;
    }
    return place(n, s);
  }

  Node through(Node n, std::optional<Slice> s) {
    Node in = push(lp_.get(n).inputs[0], s);
    lp_.get_mut(n).inputs[0] = in;
    return n;
  }

  // Every output row is computed from its input row alone and the height is the input's.
  bool row_wise(const IR& ir) const {
    bool any_column = false;
    for (const plan::ExprIR* e : ir.all_exprs()) {
      if (!is_row_local(e->node(), ea_)) return false;
      any_column |= !plan::is_scalar_ae(e->node(), ea_);
    }
    return ir.kind() == IRKind::HStack || any_column;
  }

  Node visit(Node n, std::optional<Slice> s) {
    const IR& ir = lp_.get(n);
    switch (ir.kind()) {
      case IRKind::Slice: {
        const Slice own{ir.as<plan::SliceNode>().offset, ir.as<plan::SliceNode>().length};
        const Node input = ir.inputs[0];
        if (!s) return push(input, own);
        if (auto merged = merge(own, *s)) return push(input, merged);
        return place(push(input, own), s);
      }
      case IRKind::Scan: {
        // Without a predicate the row limit is the first rows of the file; with one, the
        // reader counts rows that passed it. Either way a slice from the start fits.
        if (!s || s->offset < 0) return barrier(n, s);
        int64_t limit = add_saturating(s->offset, s->length);
        if (const auto& n_rows = ir.as<plan::ScanNode>().n_rows) limit = std::min(limit, *n_rows);
        lp_.get_mut(n).as_mut<plan::ScanNode>().n_rows = limit;
        return s->offset == 0 ? n : place(n, Slice{s->offset, s->length});
      }
      case IRKind::Sort: {
        if (!s) return barrier(n, s);
        // A top-k keeps `offset + length` rows: only worth it for a bounded slice.
        if (s->offset >= 0 && s->length > INT64_MAX / 4) return barrier(n, s);
        if (const auto& top_k = ir.as<plan::SortNode>().slice) {
          auto merged = merge(Slice{top_k->first, top_k->second}, *s);
          if (!merged) return barrier(n, s);
          lp_.get_mut(n).as_mut<plan::SortNode>().slice = std::make_pair(merged->offset, merged->length);
        } else {
          lp_.get_mut(n).as_mut<plan::SortNode>().slice = std::make_pair(s->offset, s->length);
        }
        return barrier(n, std::nullopt);
      }
      case IRKind::Select:
      case IRKind::HStack:
        if (!s || !row_wise(ir)) return barrier(n, s);
        return through(n, s);
      case IRKind::SimpleProjection:
      case IRKind::Rename: return through(n, s);
      case IRKind::RowIndex:
        if (s && s->offset >= 0) {
          // Row i of the slice was row offset + i of the input.
          auto& index = lp_.get_mut(n).as_mut<plan::RowIndexNode>();
          index.offset = add_saturating(index.offset, s->offset);
          return through(n, s);
        }
        return barrier(n, s);
      case IRKind::Explode: return barrier(n, s);
      case IRKind::Union: {
        if (!s || s->offset == INT64_MIN) return barrier(n, s);
        // The first offset + length rows of the union lie in the first offset + length
        // rows of the arms; the last k rows in the arms' last k rows.
        const Slice arm = s->offset >= 0 ? Slice{0, add_saturating(s->offset, s->length)} : Slice{s->offset, -s->offset};
        const std::vector<Node> inputs = ir.inputs;
        for (size_t i = 0; i < inputs.size(); ++i) {
          Node in = push(inputs[i], arm);
          lp_.get_mut(n).inputs[i] = in;
        }
        return place(n, s);
      }
      // Filters, joins, group-bys, unique, caches, in-memory scans: the slice stays.
      case IRKind::DataFrameScan:
      case IRKind::Filter:
      case IRKind::GroupBy:
      case IRKind::Join:
      case IRKind::Distinct:
      case IRKind::AsofJoin:
      case IRKind::MergeSorted:
      case IRKind::InequalityJoin:
      case IRKind::Cache: return barrier(n, s);
      case IRKind::Invalid: break;
    }
    throw InternalError("slice pushdown reached an invalid plan node");
  }

  IRArena& lp_;
  ExprArena& ea_;
  std::vector<uint32_t> parents_;
  std::unordered_map<uint32_t, Node> shared_;
};

}  // namespace

Node slice_pushdown(Node root, IRArena& lp_arena, ExprArena& expr_arena) {
  SlicePushdown sp(lp_arena, expr_arena, root);
  return sp.push(root, std::nullopt);
}

}  // namespace frazil::optimizer
