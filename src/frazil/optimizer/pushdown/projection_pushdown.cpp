#include "frazil/optimizer/pushdown/projection_pushdown.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "frazil/core/error.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/optimizer/pushdown/join_columns.hpp"
#include "frazil/plan/conversion/asof_join.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"

namespace frazil::optimizer {

using plan::ExprArena;
using plan::ExprIR;
using plan::IRArena;
using plan::Node;
using plan::columns_of;

using plan::AExpr;
using plan::AExprKind;
using plan::IR;
using plan::IRKind;

namespace {

using NameSet = std::unordered_set<std::string>;

// The columns needed from a node's output: every one (`all`, the common case, kept O(1) so
// that long chains of with_columns do not pass their whole schema down at each step), or
// the named ones.
struct Need {
  bool all = false;
  NameSet names;

  static Need everything() { return Need{true, {}}; }
  bool has(const std::string& c) const { return all || names.count(c) > 0; }
  bool empty() const { return !all && names.empty(); }
  void add(const std::string& c) {
    if (!all) names.insert(c);
  }
  void add(std::string&& c) {
    if (!all) names.insert(std::move(c));
  }
  // Returns whether this need grew.
  bool merge(const Need& other) {
    if (all) return false;
    if (other.all) {
      all = true;
      names.clear();
      return true;
    }
    bool grew = false;
    for (const auto& c : other.names) grew |= names.insert(c).second;
    return grew;
  }
  // Everything `other` needs is needed here too.
  bool covers(const Need& other) const {
    if (all) return true;
    if (other.all) return false;
    for (const auto& c : other.names)
      if (!names.count(c)) return false;
    return true;
  }
  // The needed names among `schema`'s (the node's own output schema).
  NameSet resolve(const Schema& schema) const;
};

using plan::Height;

Height height_of(Node node, const ExprArena& arena) {
  if (plan::is_scalar_ae(node, arena)) return Height::Scalar;
  return plan::expr_height(node, arena) == Height::Frame ? Height::Frame : Height::Other;
}

void add_columns(Node node, const ExprArena& arena, NameSet& out) {
  for (auto& c : columns_of(node, arena)) out.insert(std::move(c));
}

void add_columns(Node node, const ExprArena& arena, Need& out) {
  if (out.all) return;
  for (auto& c : columns_of(node, arena)) out.names.insert(std::move(c));
}

Schema subset_schema(const Schema& schema, const NameSet& names) {
  Schema out;
  for (const auto& f : schema.fields())
    if (names.count(f.name)) out.push(f);
  return out;
}

std::vector<std::string> ordered(const Schema& schema, const NameSet& names) {
  std::vector<std::string> out;
  for (const auto& f : schema.fields())
    if (names.count(f.name)) out.push_back(f.name);
  return out;
}

NameSet all_names(const Schema& schema) {
  NameSet out;
  for (const auto& f : schema.fields()) out.insert(f.name);
  return out;
}

NameSet Need::resolve(const Schema& schema) const { return all ? all_names(schema) : names; }

std::vector<std::string> ordered(const Schema& schema, const Need& need) {
  if (need.all) return schema.names();
  return ordered(schema, need.names);
}

// The schema's names are exactly `names`, in this order.
bool has_names(const Schema& schema, const std::vector<std::string>& names) {
  if (schema.size() != names.size()) return false;
  for (size_t i = 0; i < names.size(); ++i)
    if (schema.field(i).name != names[i]) return false;
  return true;
}

// The column a scan reads when none is used (the height still is): the narrowest.
std::string narrowest(const Schema& schema) {
  auto width = [](const DataType& t) {
    if (t.is_nested()) return 1000;
    int w = t.byte_width();
    return w == 0 ? 1 : w;  // Boolean, Null
  };
  size_t best = 0;
  for (size_t i = 1; i < schema.size(); ++i)
    if (width(schema.field(i).dtype) < width(schema.field(best).dtype)) best = i;
  return schema.field(best).name;
}

// What a node keeps, given the columns needed from it.
struct Decision {
  std::vector<Need> input_needs;
  std::vector<bool> keep;  // Select/HStack exprs, GroupBy aggregations
};

// Dense slots for the nodes of the subplan being optimized: the node index itself when the
// subplan is most of the arena, a hash map when it is a small part of it (cache_states
// re-optimizes thousands of small subplans of one big arena: arrays the size of the arena
// for each would make that quadratic).
class Slots {
 public:
  static constexpr size_t npos = SIZE_MAX;

  void init(const std::vector<Node>& nodes, size_t arena_size) {
    direct_ = nodes.size() * 8 >= arena_size;
    map_.clear();
    if (direct_) {
      size_ = arena_size;
      return;
    }
    for (Node n : nodes) map_.emplace(n.idx, map_.size());
    size_ = nodes.size();
  }
  size_t size() const { return size_; }
  // The slot of a node of the subplan; npos for a node added since.
  size_t find(Node n) const {
    if (direct_) return n.idx < size_ ? n.idx : npos;
    auto it = map_.find(n.idx);
    return it == map_.end() ? npos : it->second;
  }
  size_t at(Node n) const {
    const size_t s = find(n);
    FRAZIL_CHECK(s != npos);
    return s;
  }

 private:
  bool direct_ = true;
  size_t size_ = 0;
  std::unordered_map<uint32_t, size_t> map_;
};

class ProjectionPushdown {
 public:
  ProjectionPushdown(IRArena& lp, ExprArena& ea) : lp_(lp), ea_(ea) {}

  Node run(Node root) {
    std::vector<bool> seen(lp_.size(), false);
    std::vector<Node> post;
    dfs(root, seen, post);
    // One slot per node of the subplan: only those are looked up (projections added while
    // rewriting are never forwarded nor revisited).
    slots_.init(post, lp_.size());
    original_.resize(slots_.size());
    needed_.resize(slots_.size());
    keep_.resize(slots_.size());
    forward_.assign(slots_.size(), Node());
    std::vector<Node> order(post.rbegin(), post.rend());  // parents before children
    for (Node n : order) original_[slot(n)] = lp_.get(n).schema;

    compute_needs(root, order);

    for (Node n : post) rewrite(n);
    return resolve(root);
  }

 private:
  // Post-order, inputs in order, with an explicit stack (plans may be 100,000 steps deep).
  void dfs(Node root, std::vector<bool>& seen, std::vector<Node>& post) {
    seen[root.idx] = true;
    std::vector<std::pair<Node, size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      const std::vector<Node>& inputs = lp_.get(n).inputs;
      if (next < inputs.size()) {
        const Node in = inputs[next++];
        if (!seen[in.idx]) {
          seen[in.idx] = true;
          stack.emplace_back(in, 0);
        }
        continue;
      }
      post.push_back(n);
      stack.pop_back();
    }
  }

  size_t slot(Node n) const { return slots_.at(n); }
  const Schema& original(Node n) const { return *original_[slot(n)]; }

  // Top-down: every node's needs are final once all its parents are done. Cache nodes of
  // one id share their input's result, so they need the union of their consumers' needs;
  // that union may grow as later consumers are seen, hence the repeat.
  void compute_needs(Node root, const std::vector<Node>& order) {
    std::unordered_map<uint64_t, Need> cache_needs;
    for (int round = 0;; ++round) {
      FRAZIL_CHECK_LT(round, 100);
      for (Node n : order) needed_[slot(n)] = Need();
      needed_[slot(root)] = Need::everything();
      for (Node n : order) {
        Need& need = needed_[slot(n)];
        const IR& ir = lp_.get(n);
        if (ir.kind() == IRKind::Cache) {
          const auto it = cache_needs.find(ir.as<plan::CacheNode>().id);
          if (it != cache_needs.end()) need.merge(it->second);
        }
        Decision d = decide(n, need);
        for (size_t i = 0; i < ir.inputs.size(); ++i) needed_[slot(ir.inputs[i])].merge(d.input_needs[i]);
        keep_[slot(n)] = std::move(d.keep);
      }
      for (Node n : order) {
        const IR& ir = lp_.get(n);
        if (ir.kind() == IRKind::Cache) cache_needs[ir.as<plan::CacheNode>().id].merge(needed_[slot(n)]);
      }
      // Done when every cache already needed the union of its id: another round would
      // compute the same (usually after the first: consumers of one id need the same).
      bool stable = true;
      for (Node n : order) {
        const IR& ir = lp_.get(n);
        if (ir.kind() == IRKind::Cache)
          stable = stable && needed_[slot(n)].covers(cache_needs[ir.as<plan::CacheNode>().id]);
      }
      if (stable) return;
    }
  }

  std::vector<bool> keep_projection(const IR& ir, const Need& need) const {
    const std::vector<ExprIR>& exprs = plan::projection_exprs(ir);
    const size_t n = exprs.size();
    // Every expression is needed: nothing to decide about heights.
    if (need.all) return std::vector<bool>(n, true);
    std::vector<bool> keep(n, false);
    std::vector<Height> heights(n);
    bool frame_kept = false, any_frame = false;
    for (size_t i = 0; i < n; ++i) {
      heights[i] = height_of(exprs[i].node(), ea_);
      // An expression of its own length fixes (or fails) the height: it always stays.
      keep[i] = need.has(exprs[i].output_name()) || heights[i] == Height::Other;
      // Only a frame-height expression vouches for the height (one of its own length may be 1).
      any_frame |= heights[i] == Height::Frame;
      frame_kept |= keep[i] && heights[i] == Height::Frame;
    }
    if (ir.kind() == IRKind::Select) {
      if (any_frame && !frame_kept) {
        // Keep one expression of the frame's height, a plain column when there is one.
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; ++i)
          if (heights[i] == Height::Frame && ea_.get(exprs[i].node()).kind == AExprKind::Column) pick = i;
        for (size_t i = 0; i < n && pick == n; ++i)
          if (heights[i] == Height::Frame) pick = i;
        keep[pick] = true;
      }
      if (n > 0 && std::none_of(keep.begin(), keep.end(), [](bool b) { return b; })) keep[0] = true;
    }
    return keep;
  }

  // Which input columns a join needs for `need`; falls back to everything when fewer input
  // columns would change the output names (suffixes depend on which columns collide).
  std::pair<NameSet, NameSet> join_needs(const IR& ir, const NameSet& need) const {
    const Schema& ls = original(ir.inputs[0]);
    const Schema& rs = original(ir.inputs[1]);
    NameSet left, right;
    for (const auto& k : ir.as<plan::JoinNode>().left_on) add_columns(k.node(), ea_, left);
    for (const auto& k : ir.as<plan::JoinNode>().right_on) add_columns(k.node(), ea_, right);
    const auto columns = join_columns(ir, ls, rs, ea_);
    for (const auto& c : columns) {
      if (!need.count(c.output)) continue;
      if (c.side != JoinSide::Right) {
        left.insert(c.input);
        continue;
      }
      right.insert(c.input);
      // A suffixed right column keeps its name only next to the left column it collided with.
      if (c.output != c.input && ls.contains(c.input)) left.insert(c.input);
    }
    if (!same_origins(ir, columns, subset_schema(ls, left), subset_schema(rs, right), need))
      return {all_names(ls), all_names(rs)};
    return {left, right};
  }

  // Which input columns a join_asof needs for `need`: its keys and `by` columns, the needed
  // columns' origins, and a left column a needed right column was suffixed against (without
  // it the right column would lose its suffix). Fewer other columns rename nothing.
  std::pair<NameSet, NameSet> asof_needs(const IR& ir, const Schema& ls, const Schema& rs, const NameSet& need) const {
    const auto& j = ir.as<plan::AsofJoinNode>();
    NameSet left, right;
    add_columns(j.left_on.node(), ea_, left);
    add_columns(j.right_on.node(), ea_, right);
    left.insert(j.options.left_by.begin(), j.options.left_by.end());
    right.insert(j.options.right_by.begin(), j.options.right_by.end());
    for (const auto& c : plan::asof_join_columns(ls, rs, j, ea_)) {
      if (!need.count(c.output)) continue;
      if (!c.from_right) {
        left.insert(c.input);
      } else if (!c.right_key) {
        right.insert(c.input);
        if (c.output != c.input && ls.contains(c.input)) left.insert(c.input);
      }
    }
    return {left, right};
  }

  // The needed output columns keep their names and origins with these input schemas.
  bool same_origins(const IR& ir, const std::vector<JoinColumn>& before, const Schema& ls, const Schema& rs,
                    const NameSet& need) const {
    std::unordered_map<std::string, const JoinColumn*> after;
    const auto now = join_columns(ir, ls, rs, ea_);
    for (const auto& c : now) after[c.output] = &c;
    for (const auto& c : before) {
      if (!need.count(c.output)) continue;
      auto it = after.find(c.output);
      if (it == after.end() || it->second->side != c.side || it->second->input != c.input) return false;
    }
    return true;
  }

  Decision decide(Node n, const Need& need) const {
    const IR& ir = lp_.get(n);
    Decision d;
    d.input_needs.resize(ir.inputs.size());
    auto& in0 = d.input_needs.empty() ? d.input_needs.emplace_back() : d.input_needs[0];
    switch (ir.kind()) {
      case IRKind::DataFrameScan:
      case IRKind::Scan: break;
      case IRKind::Filter:
        // The input has the same columns as the output: `all` covers the predicate's.
        in0 = need;
        add_columns(ir.as<plan::FilterNode>().predicate.node(), ea_, in0);
        break;
      case IRKind::Sort:
        in0 = need;
        for (const auto& k : ir.as<plan::SortNode>().by) add_columns(k.node(), ea_, in0);
        break;
      case IRKind::Slice:
      case IRKind::Cache: in0 = need; break;
      case IRKind::Distinct:
        // unique() over all columns compares every column: none may go.
        if (ir.as<plan::DistinctNode>().subset.empty()) {
          in0 = Need::everything();
        } else {
          in0 = need;
          for (const auto& c : ir.as<plan::DistinctNode>().subset) in0.add(c);
        }
        break;
      case IRKind::Union: {
        Need arm = need.empty() ? Need{false, {original(n).field(0).name}} : need;
        for (auto& s : d.input_needs) s = arm;
        break;
      }
      case IRKind::SimpleProjection: {
        // The input may have more columns than this node: name the ones it keeps.
        in0.names = need.resolve(original(n));
        if (in0.empty() && !original(n).empty()) in0.add(original(n).field(0).name);
        break;
      }
      case IRKind::Select:
      case IRKind::HStack: {
        d.keep = keep_projection(ir, need);
        // with_columns outputs every input column: all of the output needs all of the input.
        if (ir.kind() == IRKind::HStack && need.all) {
          in0 = Need::everything();
          break;
        }
        const Schema& input = original(ir.inputs[0]);
        const std::vector<ExprIR>& exprs = plan::projection_exprs(ir);
        for (size_t i = 0; i < exprs.size(); ++i) {
          if (!d.keep[i]) continue;
          add_columns(exprs[i].node(), ea_, in0);
          // An overwritten column keeps its place only if the input still has it.
          if (ir.kind() == IRKind::HStack && input.contains(exprs[i].output_name())) in0.add(exprs[i].output_name());
        }
        if (ir.kind() == IRKind::HStack)
          for (const auto& c : need.names)
            if (input.contains(c)) in0.add(c);
        break;
      }
      case IRKind::GroupBy: {
        const auto& g = ir.as<plan::GroupByNode>();
        for (const auto& k : g.keys) add_columns(k.node(), ea_, in0);
        d.keep.resize(g.aggs.size());
        for (size_t i = 0; i < g.aggs.size(); ++i) {
          d.keep[i] = need.has(g.aggs[i].output_name());
          if (d.keep[i]) add_columns(g.aggs[i].node(), ea_, in0);
        }
        break;
      }
      case IRKind::Join: {
        auto [left, right] = join_needs(ir, need.resolve(original(n)));
        d.input_needs[0].names = std::move(left);
        d.input_needs[1].names = std::move(right);
        break;
      }
      case IRKind::AsofJoin: {
        auto [left, right] = asof_needs(ir, original(ir.inputs[0]), original(ir.inputs[1]), need.resolve(original(n)));
        d.input_needs[0].names = std::move(left);
        d.input_needs[1].names = std::move(right);
        break;
      }
      case IRKind::InequalityJoin:
        // Every input column: fewer would change which right names take the suffix.
        for (auto& s : d.input_needs) s = Need::everything();
        break;
      case IRKind::MergeSorted: {
        // Both inputs keep the same columns, the key among them.
        Need arm = need;
        arm.add(ir.as<plan::MergeSortedNode>().key);
        for (auto& s : d.input_needs) s = arm;
        break;
      }
      case IRKind::Explode:
        if (need.all) {
          in0 = Need::everything();  // an explode drops nothing of its input
          break;
        }
        // The exploded columns decide how many rows there are, needed or not.
        in0 = need;
        for (const auto& c : ir.as<plan::ExplodeNode>().columns) in0.add(c);
        break;
      case IRKind::Rename: {
        if (need.all) {
          in0 = Need::everything();
          break;
        }
        const auto& r = ir.as<plan::RenameNode>();
        std::unordered_map<std::string, std::string> back;
        for (size_t i = 0; i < r.existing.size(); ++i) back[r.new_names[i]] = r.existing[i];
        for (const auto& c : need.names) {
          auto it = back.find(c);
          in0.add(it == back.end() ? c : it->second);
        }
        break;
      }
      case IRKind::RowIndex:
        if (need.all) {
          in0 = Need::everything();
          break;
        }
        in0 = need;
        in0.names.erase(ir.as<plan::RowIndexNode>().name);
        break;
      case IRKind::Invalid: throw InternalError("projection pushdown reached an invalid plan node");
    }
    return d;
  }

  Node resolve(Node n) const {
    for (size_t s = slots_.find(n); s != Slots::npos && forward_[s].valid(); s = slots_.find(n)) n = forward_[s];
    return n;
  }

  // `n` restricted to exactly `names` (in this order), adding a projection if needed.
  Node exact(Node n, const std::vector<std::string>& names) {
    const SchemaRef schema = lp_.get(n).schema;
    if (has_names(*schema, names)) return n;
    Schema out;
    for (const auto& name : names) out.push(Field{name, schema->dtype_of(name)});
    return lp_.add(plan::make_simple_projection(n, std::make_shared<const Schema>(std::move(out))));
  }

  static SchemaRef fields_of(const Schema& from, const std::vector<std::string>& names) {
    Schema out;
    for (const auto& name : names) out.push(Field{name, from.dtype_of(name)});
    return std::make_shared<const Schema>(std::move(out));
  }

  // Bottom-up: inputs are rewritten (and resolved) before their consumers. A node is
  // edited in place, and left as it is when it keeps everything and its inputs kept their
  // schemas (the same objects); only unions and joins, which may add projections below
  // themselves (growing the arena), work on a copy.
  void rewrite(Node n) {
    const Need& need = needed_[slot(n)];
    const IRKind kind = lp_.get(n).kind();
    if (kind == IRKind::Union || kind == IRKind::Join || kind == IRKind::AsofJoin || kind == IRKind::MergeSorted) {
      rewrite_adding(n, need);
      return;
    }
    IR& ir = lp_.get_mut(n);
    bool inputs_unchanged = true;
    for (Node& in : ir.inputs) {
      const Schema* planned = original_[slot(in)].get();
      in = resolve(in);
      inputs_unchanged &= lp_.get(in).schema.get() == planned;
    }
    auto input_schema = [&](size_t i) { return lp_.get(ir.inputs[i]).schema; };
    switch (ir.kind()) {
      case IRKind::DataFrameScan:
      case IRKind::Scan: {
        const SchemaRef source_ref = ir.is<plan::ScanNode>() ? ir.as<plan::ScanNode>().source_schema
                                                             : ir.as<plan::DataFrameScanNode>().source_schema;
        const Schema& source = *source_ref;
        // Everything it reads now is needed: it keeps reading exactly that.
        if (source.empty() || need.all) break;
        std::vector<std::string> proj = ordered(source, need.names);
        if (proj.empty()) proj.push_back(narrowest(source));
        std::optional<std::vector<std::string>> projection;
        if (proj.size() == source.size()) {
          ir.schema = source_ref;
        } else {
          ir.schema = fields_of(source, proj);
          projection = std::move(proj);
        }
        if (ir.is<plan::ScanNode>()) ir.as_mut<plan::ScanNode>().projection = std::move(projection);
        else ir.as_mut<plan::DataFrameScanNode>().projection = std::move(projection);
        break;
      }
      case IRKind::Filter:
      case IRKind::Sort:
      case IRKind::Slice:
      case IRKind::Cache:
      case IRKind::Distinct: ir.schema = input_schema(0); break;
      case IRKind::SimpleProjection: {
        const Schema& orig = original(n);
        std::vector<std::string> cols = ordered(orig, need);
        if (cols.empty() && !orig.empty()) cols.push_back(orig.field(0).name);
        if (has_names(*input_schema(0), cols)) {
          forward_[slot(n)] = ir.inputs[0];
          return;
        }
        if (!need.all || !inputs_unchanged) {
          ir.schema = fields_of(*input_schema(0), cols);
          ir.as_mut<plan::SimpleProjectionNode>().columns = ir.schema->names();
        }
        break;
      }
      case IRKind::Select:
      case IRKind::HStack: {
        const std::vector<bool>& keep = keep_[slot(n)];
        const bool all_kept = std::all_of(keep.begin(), keep.end(), [](bool b) { return b; });
        if (all_kept && (ir.kind() == IRKind::Select || inputs_unchanged)) break;
        std::vector<plan::ExprIR> kept;
        const std::vector<plan::ExprIR>& exprs = plan::projection_exprs(ir);
        for (size_t i = 0; i < exprs.size(); ++i)
          if (keep[i]) kept.push_back(exprs[i]);
        const Schema& orig = original(n);
        if (ir.kind() == IRKind::HStack) {
          if (kept.empty()) {
            forward_[slot(n)] = ir.inputs[0];
            return;
          }
          Schema out = *input_schema(0);
          for (const auto& e : kept) out.set(e.output_name(), orig.dtype_of(e.output_name()));
          ir.schema = std::make_shared<const Schema>(std::move(out));
        } else {
          std::vector<std::string> names;
          for (const auto& e : kept) names.push_back(e.output_name());
          ir.schema = fields_of(orig, names);
        }
        plan::projection_exprs_mut(ir) = std::move(kept);
        break;
      }
      case IRKind::GroupBy: {
        const std::vector<bool>& keep = keep_[slot(n)];
        if (std::all_of(keep.begin(), keep.end(), [](bool b) { return b; })) break;
        const auto& g = ir.as<plan::GroupByNode>();
        std::vector<plan::ExprIR> kept;
        std::vector<std::string> names;
        for (const auto& k : g.keys) names.push_back(k.output_name());
        for (size_t i = 0; i < g.aggs.size(); ++i)
          if (keep[i]) {
            kept.push_back(g.aggs[i]);
            names.push_back(g.aggs[i].output_name());
          }
        ir.schema = fields_of(original(n), names);
        ir.as_mut<plan::GroupByNode>().aggs = std::move(kept);
        break;
      }
      case IRKind::Rename: {
        const Schema& input = *input_schema(0);
        const auto& r = ir.as<plan::RenameNode>();
        std::vector<std::string> from, to;
        for (size_t i = 0; i < r.existing.size(); ++i)
          if (input.contains(r.existing[i])) {
            from.push_back(r.existing[i]);
            to.push_back(r.new_names[i]);
          }
        if (from.empty()) {  // nothing renamed is used any more
          forward_[slot(n)] = ir.inputs[0];
          return;
        }
        if (inputs_unchanged && from.size() == r.existing.size()) break;
        std::vector<Field> fields = input.fields();
        for (auto& f : fields) {
          auto it = std::find(from.begin(), from.end(), f.name);
          if (it != from.end()) f.name = to[it - from.begin()];
        }
        ir.as_mut<plan::RenameNode>() = plan::RenameNode{std::move(from), std::move(to)};
        ir.schema = std::make_shared<const Schema>(Schema(std::move(fields)));
        break;
      }
      case IRKind::RowIndex:
        if (!inputs_unchanged) {
          Schema out;
          out.push(original(n).field(0));
          for (const auto& f : input_schema(0)->fields()) out.push(f);
          ir.schema = std::make_shared<const Schema>(std::move(out));
        }
        break;
      case IRKind::Explode:
        if (!inputs_unchanged) ir.schema = plan::explode_schema(*input_schema(0), ir.as<plan::ExplodeNode>().columns);
        break;
      case IRKind::InequalityJoin: break;  // its inputs keep every column
      case IRKind::Union:
      case IRKind::Join:
      case IRKind::AsofJoin:
      case IRKind::MergeSorted:
      case IRKind::Invalid: throw InternalError("projection pushdown reached an invalid plan node");
    }
  }

  // Unions and joins: on a copy, as exact() adds nodes to the arena.
  void rewrite_adding(Node n, const Need& need) {
    IR ir = lp_.get(n);
    for (Node& in : ir.inputs) in = resolve(in);
    if (ir.kind() == IRKind::Union || ir.kind() == IRKind::MergeSorted) {
      const Schema& orig = original(n);
      Need arm = need.empty() ? Need{false, {orig.field(0).name}} : need;
      if (const auto* m = ir.get_if<plan::MergeSortedNode>()) arm.add(m->key);
      const auto names = ordered(orig, arm);
      for (Node& in : ir.inputs) in = exact(in, names);
      ir.schema = lp_.get(ir.inputs[0]).schema;
    } else if (ir.kind() == IRKind::AsofJoin) {
      const std::vector<Node> planned = lp_.get(n).inputs;
      const Schema& ls = original(planned[0]);
      const Schema& rs = original(planned[1]);
      auto [left, right] = asof_needs(ir, ls, rs, need.resolve(original(n)));
      ir.inputs[0] = exact(ir.inputs[0], ordered(ls, left));
      ir.inputs[1] = exact(ir.inputs[1], ordered(rs, right));
      ir.schema = plan::asof_join_schema(*lp_.get(ir.inputs[0]).schema, *lp_.get(ir.inputs[1]).schema,
                                         ir.as<plan::AsofJoinNode>(), ea_);
    } else {
      rewrite_join(n, ir, need.resolve(original(n)));
    }
    lp_.replace(n, std::move(ir));
  }

  void rewrite_join(Node n, IR& ir, const NameSet& need) {
    // The inputs as planned (`ir`'s are resolved already and may be other nodes).
    const std::vector<Node> planned = lp_.get(n).inputs;
    const auto before = join_columns(ir, original(planned[0]), original(planned[1]), ea_);
    auto try_schema = [&]() -> SchemaRef {
      const Schema& ls = *lp_.get(ir.inputs[0]).schema;
      const Schema& rs = *lp_.get(ir.inputs[1]).schema;
      if (!same_origins(ir, before, ls, rs, need)) return nullptr;
      try {
        const auto& j = ir.as<plan::JoinNode>();
        return plan::join_schema(ls, rs, j.left_on, j.right_on, j.options, ea_);
      } catch (const Error&) {
        return nullptr;
      }
    };
    SchemaRef schema = try_schema();
    if (!schema) {
      // Extra input columns changed which names collide: give the join exactly what it
      // was planned with (join_needs checked that those keep every name).
      IR original_ir = ir;
      original_ir.inputs = planned;
      auto [left, right] = join_needs(original_ir, need);
      ir.inputs[0] = exact(ir.inputs[0], ordered(original(planned[0]), left));
      ir.inputs[1] = exact(ir.inputs[1], ordered(original(planned[1]), right));
      schema = try_schema();
      FRAZIL_CHECK(schema != nullptr);
    }
    ir.schema = std::move(schema);
  }

  IRArena& lp_;
  ExprArena& ea_;
  // Indexed by slot.
  Slots slots_;
  std::vector<SchemaRef> original_;
  std::vector<Need> needed_;
  std::vector<std::vector<bool>> keep_;  // Select/HStack/GroupBy: the expressions kept
  std::vector<Node> forward_;            // a node that disappeared -> the one in its place
};

}  // namespace

Node projection_pushdown(Node root, IRArena& lp_arena, ExprArena& expr_arena) {
  ProjectionPushdown pp(lp_arena, expr_arena);
  return pp.run(root);
}

}  // namespace frazil::optimizer
