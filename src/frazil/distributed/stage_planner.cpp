#include "frazil/distributed/stage_planner.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "frazil/distributed/aggregation_split.hpp"
#include "frazil/distributed/scan_split.hpp"
#include "frazil/plan/cost/cost_model.hpp"
#include "frazil/plan/expr/properties.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/row_order.hpp"

namespace frazil::distributed {

using plan::IR;
using plan::Node;

const char* input_mode_name(InputMode mode) {
  switch (mode) {
    case InputMode::Hash: return "hash";
    case InputMode::Same: return "same task";
    case InputMode::All: return "all";
    case InputMode::Slice: return "slice";
  }
  return "?";
}

namespace {

// A subplan of the fragment being built, and how its rows are spread over the tasks.
struct Built {
  Node node;
  size_t tasks = 1;
  std::vector<std::string> hashed;  // output columns the tasks are hash-partitioned by
  bool ordered = true;              // the tasks' outputs, concatenated, are in row order
};

DataFrame empty_frame(const Schema& schema) {
  std::vector<Column> cols;
  for (const auto& f : schema.fields()) cols.emplace_back(f.name, make_empty_array(f.dtype));
  return DataFrame(std::move(cols));
}

// The names of plain column expressions; nullopt when one is computed.
std::optional<std::vector<std::string>> column_names(const std::vector<plan::ExprIR>& exprs,
                                                     const plan::ExprArena& ea) {
  std::vector<std::string> out;
  for (const auto& e : exprs) {
    const plan::AExpr& a = ea.get(e.node());
    if (!a.is_column() || a.name != e.output_name()) return std::nullopt;
    out.push_back(a.name);
  }
  return out;
}

bool all_in(const std::vector<std::string>& names, const Schema& schema) {
  for (const auto& n : names)
    if (!schema.contains(n)) return false;
  return true;
}

class Planner {
 public:
  Planner(const plan::IRArena& lp, const plan::ExprArena& ea, const DistOptions& options)
      : lp_(lp), ea_(ea), opt_(options) {
    if (opt_.partitions == 0) throw InvalidOperationError("a distributed plan needs at least one partition");
  }

  StageGraph run(Node root) {
    unordered_ = plan::unordered_outputs(root, lp_, ea_);
    Built b = visit(root);
    cut(b, OutputSpec{});
    graph_.ordered = b.ordered;
    return std::move(graph_);
  }

 private:
  const Schema& schema(Node n) const { return *lp_.get(n).schema; }
  // Whether a later node (or the result) sees the order of node n's rows; nodes the
  // planner made are taken as observed.
  bool order_observed(Node n) const { return n.idx >= unordered_.size() || !unordered_[n.idx]; }

  Node with_inputs(Node n, std::vector<Node> inputs) {
    IR ir = lp_.get(n);
    ir.inputs = std::move(inputs);
    return lp_.add(std::move(ir));
  }

  // Makes `b` a stage; returns its id.
  int cut(const Built& b, OutputSpec output) {
    Stage s;
    s.id = static_cast<int>(graph_.stages.size());
    s.tasks = b.tasks;
    std::vector<std::string> names;
    for (Node leaf : fragment_inputs(b.node, lp_)) {
      const StageInput& in = inputs_.at(leaf.idx);
      names.push_back(in.name);
      s.inputs.push_back(in);
    }
    s.description = plan::explain_plan(b.node, lp_, ea_);
    if (!s.description.empty() && s.description.back() != '\n') s.description += '\n';
    const std::vector<Node> split = split_scans(b.node);
    for (Node leaf : split)
      if (scan_splits_.at(leaf.idx).size() != b.tasks)
        throw InternalError(err_msg("a stage of ", b.tasks, " tasks reads a scan split into ",
                                    scan_splits_.at(leaf.idx).size()));
    if (split.empty()) s.fragments = {serialize_fragment(b.node, lp_, ea_, names, output)};
    // One fragment per task, each reading its own split of every split scan.
    for (size_t t = 0; !split.empty() && t < b.tasks; ++t) {
      for (Node leaf : split) {
        IR ir = lp_.get(leaf);
        ir.as_mut<plan::ScanNode>().source = scan_splits_.at(leaf.idx).at(t).source;
        lp_.replace(leaf, std::move(ir));
      }
      s.fragments.push_back(serialize_fragment(b.node, lp_, ea_, names, output));
    }
    for (Node leaf : split) {
      const std::vector<ScanSplit>& splits = scan_splits_.at(leaf.idx);
      IR ir = lp_.get(leaf);
      ir.as_mut<plan::ScanNode>().source = scan_sources_.at(leaf.idx);
      lp_.replace(leaf, std::move(ir));
      s.description += describe_splits(splits) + "\n";
    }
    s.output = std::move(output);
    graph_.stages.push_back(std::move(s));
    return graph_.stages.back().id;
  }

  Node placeholder(int stage, const Schema& schema, InputMode mode) {
    auto sch = std::make_shared<const Schema>(schema);
    plan::DataFrameScanNode scan{std::make_shared<const DataFrame>(empty_frame(schema)), sch, std::nullopt, std::nullopt};
    Node n = lp_.add(IR(std::move(scan), {}, sch));
    inputs_[n.idx] = StageInput{"s" + std::to_string(stage) + "_" + std::to_string(next_name_++), stage, -1, mode};
    return n;
  }

  Built gather(const Built& b) {
    if (b.tasks == 1) return b;
    const int s = cut(b, OutputSpec{});
    return Built{placeholder(s, schema(b.node), InputMode::All), 1, {}, b.ordered};
  }

  Built hash_exchange(const Built& b, const std::vector<std::string>& keys) {
    const size_t n = opt_.partitions;
    if (b.tasks == n && b.hashed == keys) return b;  // already co-partitioned
    const int s = cut(b, OutputSpec{keys, n});
    return Built{placeholder(s, schema(b.node), InputMode::Hash), n, keys, false};
  }

  Built local(Node n, const std::vector<Built>& ins, size_t tasks, std::vector<std::string> hashed, bool ordered) {
    std::vector<Node> nodes;
    for (const auto& b : ins) nodes.push_back(b.node);
    Node out = with_inputs(n, std::move(nodes));
    if (!all_in(hashed, schema(out))) hashed.clear();
    return Built{out, tasks, std::move(hashed), ordered};
  }

  // The node on one task, its inputs gathered.
  Built gathered(Node n) {
    std::vector<Built> ins;
    bool ordered = true;
    for (Node in : lp_.get(n).inputs) {
      ins.push_back(gather(visit(in)));
      ordered = ordered && ins.back().ordered;
    }
    return local(n, ins, 1, {}, ordered);
  }

  Built visit(Node n) {
    const IR ir = lp_.get(n);
    switch (ir.kind()) {
      case plan::IRKind::DataFrameScan: {
        const auto& df = ir.as<plan::DataFrameScanNode>().df;
        int frame = -1;
        for (size_t f = 0; f < graph_.frames.size(); ++f)
          if (graph_.frames[f] == df) frame = static_cast<int>(f);
        if (frame < 0) {
          frame = static_cast<int>(graph_.frames.size());
          graph_.frames.push_back(df);
        }
        Node copy = lp_.add(IR(ir));
        inputs_[copy.idx] = StageInput{"f" + std::to_string(frame) + "_" + std::to_string(next_name_++), -1, frame,
                                       InputMode::Slice};
        return Built{copy, opt_.partitions, {}, true};
      }
      case plan::IRKind::Scan: {
        std::vector<ScanSplit> splits = split_scan(ir.as<plan::ScanNode>(), ea_, opt_.partitions);
        if (splits.size() < 2) return Built{n, 1, {}, true};
        Node copy = lp_.add(IR(ir));
        const size_t tasks = splits.size();
        scan_sources_[copy.idx] = ir.as<plan::ScanNode>().source;
        scan_splits_[copy.idx] = std::move(splits);
        return Built{copy, tasks, {}, true};
      }
      case plan::IRKind::Filter: {
        const Node pred = ir.as<plan::FilterNode>().predicate.node();
        if (!plan::is_elementwise_rec(pred, ea_)) {
          if (auto keys = window_keys({pred})) return by_window_keys(n, *keys);
          return gathered(n);
        }
        Built in = visit(ir.inputs[0]);
        return local(n, {in}, in.tasks, in.hashed, in.ordered);
      }
      case plan::IRKind::SimpleProjection: {
        Built in = visit(ir.inputs[0]);
        return local(n, {in}, in.tasks, in.hashed, in.ordered);
      }
      case plan::IRKind::Explode: {
        Built in = visit(ir.inputs[0]);
        return local(n, {in}, in.tasks, kept_keys(ir, in.hashed), in.ordered);
      }
      case plan::IRKind::Rename: {
        Built in = visit(ir.inputs[0]);
        return local(n, {in}, in.tasks, {}, in.ordered);
      }
      case plan::IRKind::Select:
      case plan::IRKind::HStack: return visit_projection(n, ir);
      case plan::IRKind::GroupBy: return visit_aggregation(n, ir);
      case plan::IRKind::Join: return visit_join(n, ir);
      case plan::IRKind::Sort: {
        const auto& s = ir.as<plan::SortNode>();
        Built in = visit(ir.inputs[0]);
        if (in.tasks > 1 && s.slice && s.slice->first >= 0) {
          // top-k per task, then the final top-k over the gathered candidates
          IR per_task = ir;
          per_task.as_mut<plan::SortNode>().slice = std::make_pair(int64_t{0}, s.slice->first + s.slice->second);
          per_task.inputs = {in.node};
          Built candidates{lp_.add(std::move(per_task)), in.tasks, {}, false};
          return local(n, {gather(candidates)}, 1, {}, true);
        }
        return local(n, {gather(in)}, 1, {}, true);
      }
      case plan::IRKind::Slice: {
        const auto& s = ir.as<plan::SliceNode>();
        Built in = visit(ir.inputs[0]);
        if (in.tasks > 1 && in.ordered && s.offset >= 0) {
          IR per_task(plan::SliceNode{0, s.offset + s.length}, {in.node}, ir.schema);
          Built heads{lp_.add(std::move(per_task)), in.tasks, {}, true};
          return local(n, {gather(heads)}, 1, {}, true);
        }
        return local(n, {gather(in)}, 1, {}, in.ordered);
      }
      case plan::IRKind::Distinct: {
        const auto& d = ir.as<plan::DistinctNode>();
        Built in = visit(ir.inputs[0]);
        if (in.tasks > 1 && !d.maintain_order && (d.keep == "any" || d.keep == "none")) {
          std::vector<std::string> keys = d.subset.empty() ? schema(in.node).names() : d.subset;
          if (!keys.empty()) {
            Built h = hash_exchange(in, keys);
            return local(n, {h}, h.tasks, keys, false);
          }
        }
        return local(n, {gather(in)}, 1, {}, in.ordered);
      }
      case plan::IRKind::Union: {
        std::vector<Built> ins;
        for (Node in : ir.inputs) ins.push_back(visit(in));
        bool aligned = !ins.empty();
        for (const auto& b : ins) aligned = aligned && b.tasks == ins[0].tasks;
        // Task j's parts of every input together: the inputs' rows interleave, so only
        // where nobody sees the order (else each input gathered, one after the other).
        bool in_order = true;
        for (const auto& b : ins) in_order = in_order && b.ordered;
        if (aligned && ins[0].tasks > 1 && !(in_order && order_observed(n))) return local(n, ins, ins[0].tasks, {}, false);
        bool ordered = true;
        for (auto& b : ins) {
          b = gather(b);
          ordered = ordered && b.ordered;
        }
        return local(n, ins, 1, {}, ordered);
      }
      case plan::IRKind::Cache: {
        // One stage per cache id: its readers may be distinct nodes of one id (q17, q2).
        const uint64_t id = ir.as<plan::CacheNode>().id;
        auto it = caches_.find(id);
        if (it == caches_.end()) {
          Built in = visit(ir.inputs[0]);
          const int s = cut(in, OutputSpec{});
          it = caches_.emplace(id, std::make_pair(s, in)).first;
        }
        const auto& [stage, in] = it->second;
        return Built{placeholder(stage, schema(in.node), in.tasks == 1 ? InputMode::All : InputMode::Same), in.tasks,
                     in.hashed, in.ordered};
      }
      default: return gathered(n);
    }
  }

  Built visit_projection(Node n, const IR& ir) {
    const auto& exprs = plan::projection_exprs(ir);
    bool row_wise = true, any_rows = ir.is<plan::HStackNode>();
    for (const auto& e : exprs) {
      row_wise = row_wise && plan::is_elementwise_rec(e.node(), ea_);
      any_rows = any_rows || !plan::is_scalar_ae(e.node(), ea_);
    }
    if (row_wise && any_rows) {
      Built in = visit(ir.inputs[0]);
      return local(n, {in}, in.tasks, kept_keys(ir, in.hashed), in.ordered);
    }
    if (any_rows) {
      std::vector<Node> nodes;
      for (const auto& e : exprs) nodes.push_back(e.node());
      if (auto keys = window_keys(nodes)) return by_window_keys(n, *keys);
    }
    if (ir.is<plan::SelectNode>()) return visit_aggregation(n, ir);
    return gathered(n);
  }

  // The keys every window of `exprs` partitions by, when the expressions are row-wise but
  // for windows over plain columns (no rolling or exploding window): rows equal on them
  // are in one partition of every window, so hashing by them lets each task evaluate its
  // partitions whole. nullopt otherwise.
  std::optional<std::vector<std::string>> window_keys(const std::vector<Node>& exprs) const {
    plan::WindowKeys w;
    for (Node e : exprs)
      if (!plan::lets_filters_through(e, ea_, w)) return std::nullopt;
    if (!w.any || w.keys.empty()) return std::nullopt;
    std::vector<std::string> keys(w.keys.begin(), w.keys.end());
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  // A node with windows over `keys`: its input hashed by them (unless already), run per task.
  Built by_window_keys(Node n, const std::vector<std::string>& keys) {
    const IR ir = lp_.get(n);  // a copy: visiting adds nodes to the arena
    Built in = visit(ir.inputs[0]);
    if (in.tasks == 1) return local(n, {in}, 1, {}, in.ordered);
    // Hashing moves rows out of their order, which a window keeps: only where nobody sees it.
    if (in.ordered && order_observed(n)) return local(n, {gather(in)}, 1, {}, true);
    Built h = hash_exchange(in, keys);
    return local(n, {h}, h.tasks, kept_keys(ir, keys), false);
  }

  // Of the columns `hashed` the input is partitioned by, those `ir` passes on unchanged:
  // all of them, or none when one is recomputed, dropped or exploded.
  std::vector<std::string> kept_keys(const IR& ir, const std::vector<std::string>& hashed) const {
    if (ir.is<plan::FilterNode>()) return hashed;
    for (const auto& k : hashed) {
      bool kept = ir.is<plan::HStackNode>();
      if (const auto* x = ir.get_if<plan::ExplodeNode>()) {
        kept = std::find(x->columns.begin(), x->columns.end(), k) == x->columns.end();
      } else {
        for (const auto& e : plan::projection_exprs(ir)) {
          if (e.output_name() != k) continue;
          const plan::AExpr& a = ea_.get(e.node());
          kept = a.is_column() && a.name == k;
        }
      }
      if (!kept) return {};
    }
    return hashed;
  }

  Built visit_aggregation(Node n, const IR& ir) {
    Built in = visit(ir.inputs[0]);
    if (in.tasks == 1) return local(n, {in}, 1, {}, in.ordered);
    const auto* g = ir.get_if<plan::GroupByNode>();
    // Already hash-partitioned by the keys (a join on them): every group is on one task.
    if (g && !g->maintain_order && in.tasks == opt_.partitions)
      if (auto keys = column_names(g->keys, ea_); keys && *keys == in.hashed) return local(n, {in}, in.tasks, *keys, false);
    // n_unique's partial state is a list of distinct values per group: with many groups
    // (q21: one per order) hashing the raw rows by plain-column keys is much cheaper.
    if (g && !g->maintain_order && has_n_unique(g->aggs))
      if (auto keys = column_names(g->keys, ea_)) {
        Built h = hash_exchange(in, *keys);
        return local(n, {h}, h.tasks, *keys, false);
      }
    if (auto split = split_aggregation(n, lp_, ea_)) {
      Built partial = local(split->partial, {in}, in.tasks, {}, in.ordered);
      if (g && !g->maintain_order) {
        std::vector<std::string> keys;
        for (const auto& k : g->keys) keys.push_back(k.output_name());
        Built h = hash_exchange(partial, keys);
        return Built{add_final(*split, h.node, lp_, ea_), h.tasks, keys, false};
      }
      Built one = gather(partial);
      return Built{add_final(*split, one.node, lp_, ea_), 1, {}, one.ordered};
    }
    // Not decomposable: the raw rows hashed by plain-column keys, each task grouping its own.
    if (g && !g->maintain_order)
      if (auto keys = column_names(g->keys, ea_)) {
        Built h = hash_exchange(in, *keys);
        return local(n, {h}, h.tasks, *keys, false);
      }
    return local(n, {gather(in)}, 1, {}, in.ordered);
  }

  Built visit_join(Node n, const IR& ir) {
    using compute::JoinType;
    const auto& j = ir.as<plan::JoinNode>();
    const JoinType how = j.options.how;
    Built left = visit(ir.inputs[0]);
    Built right = visit(ir.inputs[1]);
    const bool right_ok = opt_.allow_broadcast && (how == JoinType::Inner || how == JoinType::Left ||
                                                   how == JoinType::Semi || how == JoinType::Anti ||
                                                   how == JoinType::Cross);
    const bool left_ok = opt_.allow_broadcast && (how == JoinType::Inner || how == JoinType::Right);
    const bool keep_left_keys = how == JoinType::Inner || how == JoinType::Left || how == JoinType::Semi ||
                                how == JoinType::Anti;
    auto lkeys = column_names(j.left_on, ea_);
    auto rkeys = column_names(j.right_on, ea_);
    const bool hashable = how != JoinType::Cross && lkeys && rkeys;
    if (left.tasks == 1 && right.tasks == 1) return local(n, {left, right}, 1, {}, left.ordered && right.ordered);
    // A one-task side that may be broadcast runs inside every task of the other.
    if (right.tasks == 1 && right_ok) return local(n, {left, right}, left.tasks, left.hashed, left.ordered);
    if (left.tasks == 1 && left_ok) return local(n, {left, right}, right.tasks, {}, false);
    if (left.tasks > 1 && right.tasks > 1) {
      const auto lc = plan::estimate_cost(ir.inputs[0], lp_, ea_);
      const auto rc = plan::estimate_cost(ir.inputs[1], lp_, ea_);
      const double copies = static_cast<double>(opt_.partitions - 1);
      const bool sized = lc && rc;
      if (right_ok && ((sized && rc->rows * copies <= lc->rows * opt_.broadcast_factor) || (!sized && !hashable)))
        return local(n, {left, gather(right)}, left.tasks, left.hashed, left.ordered);
      if (left_ok && sized && lc->rows * copies <= rc->rows * opt_.broadcast_factor)
        return local(n, {gather(left), right}, right.tasks, {}, false);
    }
    if (hashable) {
      Built r = right;
      if (how == JoinType::Semi || how == JoinType::Anti) r = distinct_keys(right, *rkeys);
      Built lh = hash_exchange(left, *lkeys);
      Built rh = hash_exchange(r, *rkeys);
      return local(n, {lh, rh}, lh.tasks, keep_left_keys ? *lkeys : std::vector<std::string>{}, false);
    }
    return local(n, {gather(left), gather(right)}, 1, {}, left.ordered && right.ordered);
  }

  // The split scans among the fragment's leaves; each must have one split per task of the
  // fragment (the planner only combines partitioned inputs of equal task counts).
  std::vector<Node> split_scans(Node root) const {
    std::vector<Node> out, stack{root};
    std::vector<bool> seen(lp_.size(), false);
    while (!stack.empty()) {
      const Node n = stack.back();
      stack.pop_back();
      if (seen[n.idx]) continue;
      seen[n.idx] = true;
      if (scan_splits_.count(n.idx)) out.push_back(n);
      const auto& inputs = lp_.get(n).inputs;
      for (auto it = inputs.rbegin(); it != inputs.rend(); ++it) stack.push_back(*it);  // depth first, in order
    }
    return out;
  }

  bool has_n_unique(const std::vector<plan::ExprIR>& exprs) const {
    std::vector<Node> stack;
    for (const auto& e : exprs) stack.push_back(e.node());
    while (!stack.empty()) {
      const plan::AExpr& a = ea_.get(stack.back());
      stack.pop_back();
      if (a.kind == plan::AExprKind::Agg && a.agg == compute::AggKind::NUnique) return true;
      stack.insert(stack.end(), a.inputs.begin(), a.inputs.end());
    }
    return false;
  }

  // The right side of a semi/anti join reduced to its distinct keys on every task.
  Built distinct_keys(const Built& b, const std::vector<std::string>& keys) {
    Schema s;
    for (const auto& k : keys) s.push(schema(b.node).field(*schema(b.node).index_of(k)));
    auto sch = std::make_shared<const Schema>(std::move(s));
    Node proj = lp_.add(plan::make_simple_projection(b.node, sch));
    plan::DistinctNode d;
    Node distinct = lp_.add(IR(std::move(d), {proj}, sch));
    return Built{distinct, b.tasks, b.hashed == keys ? keys : std::vector<std::string>{}, false};
  }

  plan::IRArena lp_;
  plan::ExprArena ea_;
  std::vector<bool> unordered_;  // plan::unordered_outputs of the root, by node index
  DistOptions opt_;
  StageGraph graph_;
  std::unordered_map<uint32_t, StageInput> inputs_;
  std::unordered_map<uint64_t, std::pair<int, Built>> caches_;  // by cache id: its stage, its output
  std::unordered_map<uint32_t, std::vector<ScanSplit>> scan_splits_;  // split scan leaves by node
  std::unordered_map<uint32_t, dsl::ScanSource> scan_sources_;        // and their whole sources
  int next_name_ = 0;
};

}  // namespace

StageGraph plan_stages(Node root, const plan::IRArena& lp, const plan::ExprArena& ea, const DistOptions& options) {
  return Planner(lp, ea, options).run(root);
}

std::string format_stage_graph(const StageGraph& graph) {
  std::ostringstream out;
  for (const auto& s : graph.stages) {
    out << "=== Stage " << s.id << " (" << s.tasks << (s.tasks == 1 ? " task" : " tasks") << ") -> ";
    if (s.output.hash_keys.empty()) out << (s.id + 1 == static_cast<int>(graph.stages.size()) ? "result" : "whole");
    else {
      out << "hash(";
      for (size_t i = 0; i < s.output.hash_keys.size(); ++i) out << (i ? ", " : "") << s.output.hash_keys[i];
      out << ") into " << s.output.partitions;
    }
    out << " ===\n";
    for (const auto& in : s.inputs) {
      out << "  input " << in.name << " <- ";
      if (in.stage >= 0) out << "stage " << in.stage;
      else out << "frame " << in.frame << " (" << graph.frames[in.frame]->height() << " rows)";
      out << ", " << input_mode_name(in.mode) << "\n";
    }
    std::istringstream plan(s.description);
    for (std::string line; std::getline(plan, line);) out << "  " << line << "\n";
  }
  return out.str();
}

DataFrame run_local(const StageGraph& graph, const exec::ExecOptions& options) {
  // outputs[stage][task][partition], as Arrow IPC bytes
  std::vector<std::vector<std::vector<std::string>>> outputs(graph.stages.size());
  auto decode_all = [](const std::vector<std::string>& parts, std::vector<DataFrame>& into) {
    for (const auto& p : parts) into.push_back(decode_partition(p));
  };
  for (const auto& s : graph.stages) {
    outputs[s.id].resize(s.tasks);
    for (size_t t = 0; t < s.tasks; ++t) {
      std::map<std::string, DataFrame> inputs;
      for (const auto& in : s.inputs) {
        if (in.stage < 0) {
          const DataFrame& df = *graph.frames.at(in.frame);
          if (in.mode == InputMode::Slice) {
            const int64_t h = df.height(), n = static_cast<int64_t>(s.tasks), i = static_cast<int64_t>(t);
            inputs[in.name] = df.slice(h * i / n, h * (i + 1) / n - h * i / n);
          } else {
            inputs[in.name] = df;
          }
          continue;
        }
        const auto& up = outputs.at(in.stage);
        std::vector<DataFrame> frames;
        switch (in.mode) {
          case InputMode::Hash:
            for (const auto& task : up) frames.push_back(decode_partition(task.at(t)));
            break;
          case InputMode::Same: frames.push_back(decode_partition(up.at(t).at(0))); break;
          default:
            for (const auto& task : up) decode_all(task, frames);
        }
        inputs[in.name] = frames.size() == 1 ? frames[0] : concat_frames(frames);
      }
      for (const DataFrame& part : execute_fragment(s.fragment_of(t), inputs, options))
        outputs[s.id][t].push_back(encode_partition(part));
    }
  }
  std::vector<DataFrame> result;
  for (const auto& task : outputs.back()) decode_all(task, result);
  return result.size() == 1 ? result[0] : concat_frames(result);
}

}  // namespace frazil::distributed
