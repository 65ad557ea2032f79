// The DSL plan in the plan format: the expression table, then the plan nodes (each once,
// shared inputs by identity, inputs before the steps over them, by an explicit-stack walk),
// then the root's index.
#include <unordered_map>

#include "frazil/core/error.hpp"
#include "frazil/serde/expr_codec.hpp"
#include "frazil/serde/format.hpp"
#include "frazil/serde/scan/scan_codec.hpp"
#include "frazil/serde/serialize.hpp"
#include "frazil/serde/value_codec.hpp"

namespace frazil::serde {

using namespace dsl;

namespace {

constexpr uint8_t kDslKindCount = static_cast<uint8_t>(DslKind::JoinWhere) + 1;
constexpr uint8_t kJoinTypeCount = static_cast<uint8_t>(compute::JoinType::Cross) + 1;

class PlanWriter {
 public:
  uint64_t add(const DslPlanRef& root) {
    std::vector<std::pair<const DslPlan*, size_t>> stack{{root.get(), 0}};
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (ids_.contains(node)) {
        stack.pop_back();
        continue;
      }
      if (next < node->inputs.size()) {
        const DslPlan* child = node->inputs[next++].get();
        if (!child) throw ComputeError("cannot serialize a plan with a missing input");
        if (!ids_.contains(child)) stack.emplace_back(child, 0);
        continue;
      }
      const DslPlan* done = node;
      stack.pop_back();
      encode(*done);
      ids_.emplace(done, ++count_);
    }
    return ids_.at(root.get());
  }

  std::string finish(uint64_t root) {
    ByteWriter out;
    write_header(out, Content::DslPlan);
    exprs_.finish(out);
    out.varint(count_);
    out.raw(nodes_.bytes());
    out.varint(root);
    return out.take();
  }

 private:
  void encode(const DslPlan& p) {
    ByteWriter& w = nodes_;
    const auto kind = static_cast<uint8_t>(p.kind());
    if (kind >= kDslKindCount) {
      throw ComputeError(err_msg("cannot serialize plan step kind ", int(kind), ": not in the plan format yet"));
    }
    w.u8(kind);
    w.varint(p.inputs.size());
    for (const auto& in : p.inputs) w.varint(ids_.at(in.get()));
    switch (p.kind()) {
      case DslKind::DataFrameScan: write_frame(w, *p.as<DslDataFrameScan>().df); break;
      case DslKind::Scan: write_scan_source(w, p.as<DslScan>().source); break;
      case DslKind::Filter: w.varint(exprs_.add(p.as<DslFilter>().predicate)); break;
      case DslKind::Select: write_expr_refs(w, exprs_, p.as<DslSelect>().exprs); break;
      case DslKind::WithColumns: write_expr_refs(w, exprs_, p.as<DslWithColumns>().exprs); break;
      case DslKind::GroupBy: {
        const auto& g = p.as<DslGroupBy>();
        write_expr_refs(w, exprs_, g.keys);
        write_expr_refs(w, exprs_, g.aggs);
        w.boolean(g.maintain_order);
        break;
      }
      case DslKind::Join: {
        const auto& j = p.as<DslJoin>();
        write_expr_refs(w, exprs_, j.left_on);
        write_expr_refs(w, exprs_, j.right_on);
        w.u8(static_cast<uint8_t>(j.options.how));
        w.str(j.options.suffix);
        w.boolean(j.options.coalesce);
        break;
      }
      case DslKind::Sort: {
        const auto& s = p.as<DslSort>();
        write_expr_refs(w, exprs_, s.by);
        w.bools(s.options.descending);
        w.bools(s.options.nulls_last);
        w.boolean(s.options.maintain_order);
        break;
      }
      case DslKind::Slice: {
        const auto& s = p.as<DslSlice>();
        w.i64(s.offset);
        w.boolean(s.length.has_value());
        if (s.length) w.i64(*s.length);
        break;
      }
      case DslKind::Union: w.boolean(p.as<DslUnion>().rechunk); break;
      case DslKind::Distinct: {
        const auto& d = p.as<DslDistinct>();
        w.strs(d.subset);
        w.str(d.keep);
        w.boolean(d.maintain_order);
        break;
      }
      case DslKind::Rename: {
        const auto& r = p.as<DslRename>();
        w.strs(r.existing);
        w.strs(r.new_names);
        break;
      }
      case DslKind::Drop: w.strs(p.as<DslDrop>().columns); break;
      case DslKind::WithRowIndex: {
        const auto& r = p.as<DslWithRowIndex>();
        w.str(r.name);
        w.i64(r.offset);
        break;
      }
      case DslKind::Explode: {
        const auto& e = p.as<DslExplode>();
        w.strs(e.columns);
        w.boolean(e.options.empty_as_null);
        w.boolean(e.options.keep_nulls);
        break;
      }
      case DslKind::AsofJoin: {
        const auto& j = p.as<DslAsofJoin>();
        w.varint(exprs_.add(j.left_on));
        w.varint(exprs_.add(j.right_on));
        const AsofJoinOptions& o = j.options;
        w.u8(static_cast<uint8_t>(o.strategy));
        w.strs(o.left_by);
        w.strs(o.right_by);
        w.boolean(o.tolerance.has_value());
        if (o.tolerance) w.f64(*o.tolerance);
        w.boolean(o.tolerance_str.has_value());
        if (o.tolerance_str) w.str(*o.tolerance_str);
        w.boolean(o.allow_exact_matches);
        w.boolean(o.check_sortedness);
        w.str(o.suffix);
        w.boolean(o.coalesce);
        break;
      }
      case DslKind::MergeSorted: {
        const auto& m = p.as<DslMergeSorted>();
        w.str(m.key);
        w.boolean(m.maintain_order);
        break;
      }
      case DslKind::JoinWhere: {
        const auto& j = p.as<DslJoinWhere>();
        w.varint(j.predicates.size());
        for (const auto& e : j.predicates) w.varint(exprs_.add(e));
        w.str(j.suffix);
        break;
      }
      default: throw ComputeError(err_msg("cannot serialize plan step kind ", int(kind), ": not in the plan format yet"));
    }
  }

  std::unordered_map<const DslPlan*, uint64_t> ids_;
  uint64_t count_ = 0;
  ExprTableWriter exprs_;
  ByteWriter nodes_;
};

class PlanReader {
 public:
  PlanReader(ByteReader& r, const ReadOptions& options) : r_(r), options_(options) {}

  DslPlanRef read() {
    exprs_.read(r_);
    const size_t n = r_.count(2);
    nodes_.reserve(n);
    for (size_t i = 0; i < n; ++i) nodes_.push_back(decode());
    const uint64_t root = r_.varint();
    if (root == 0 || root > nodes_.size()) r_.fail(err_msg("a root reference to step ", root, " of ", nodes_.size()));
    if (!r_.at_end()) r_.fail(err_msg(r_.remaining(), " bytes after the end of the plan"));
    return nodes_[root - 1];
  }

 private:
  template <typename Step>
  DslPlanRef make(Step step, std::vector<DslPlanRef> inputs) {
    return std::make_shared<DslPlan>(DslPlan{std::move(step), std::move(inputs)});
  }

  DslPlanRef decode() {
    ByteReader& r = r_;
    const size_t at = r.offset();
    const auto kind = static_cast<DslKind>(r.enum_u8(kDslKindCount, "plan step kind"));
    const size_t n_inputs = r.count(1);
    std::vector<DslPlanRef> inputs;
    inputs.reserve(n_inputs);
    for (size_t i = 0; i < n_inputs; ++i) {
      const uint64_t id = r.varint();
      if (id == 0 || id > nodes_.size()) r.fail(err_msg("a reference to step ", id, " of the ", nodes_.size(), " read so far"));
      inputs.push_back(nodes_[id - 1]);
    }
    auto arity = [&](size_t lo, size_t hi) {
      if (inputs.size() < lo || inputs.size() > hi) {
        throw ComputeError(err_msg("cannot deserialize the plan: the step at byte ", at, " has ", inputs.size(),
                                   " inputs, its kind takes ", lo, hi == lo ? "" : " or more"));
      }
    };
    switch (kind) {
      case DslKind::DataFrameScan:
        arity(0, 0);
        return make(DslDataFrameScan{std::make_shared<const DataFrame>(read_frame(r))}, {});
      case DslKind::Scan:
        arity(0, 0);
        if (!options_.allow_scans) r.fail("a file scan where none is allowed");
        return make(DslScan{read_scan_source(r)}, {});
      case DslKind::Filter: arity(1, 1); return make(DslFilter{exprs_.read_ref(r)}, std::move(inputs));
      case DslKind::Select: arity(1, 1); return make(DslSelect{exprs_.read_refs(r)}, std::move(inputs));
      case DslKind::WithColumns: arity(1, 1); return make(DslWithColumns{exprs_.read_refs(r)}, std::move(inputs));
      case DslKind::GroupBy: {
        arity(1, 1);
        DslGroupBy g;
        g.keys = exprs_.read_refs(r);
        g.aggs = exprs_.read_refs(r);
        g.maintain_order = r.boolean();
        return make(std::move(g), std::move(inputs));
      }
      case DslKind::Join: {
        arity(2, 2);
        DslJoin j;
        j.left_on = exprs_.read_refs(r);
        j.right_on = exprs_.read_refs(r);
        j.options.how = static_cast<compute::JoinType>(r.enum_u8(kJoinTypeCount, "join type"));
        j.options.suffix = r.str();
        j.options.coalesce = r.boolean();
        if (j.left_on.size() != j.right_on.size()) r.fail("a join with unequal key counts");
        return make(std::move(j), std::move(inputs));
      }
      case DslKind::Sort: {
        arity(1, 1);
        DslSort s;
        s.by = exprs_.read_refs(r);
        s.options.descending = r.bools();
        s.options.nulls_last = r.bools();
        s.options.maintain_order = r.boolean();
        for (size_t k : {s.options.descending.size(), s.options.nulls_last.size()}) {
          if (k == 0 || (k > 1 && k != s.by.size())) r.fail("sort flags that do not match the sort keys");
        }
        return make(std::move(s), std::move(inputs));
      }
      case DslKind::Slice: {
        arity(1, 1);
        DslSlice s;
        s.offset = r.i64();
        if (r.boolean()) {
          s.length = r.i64();
          if (*s.length < 0) r.fail("a negative slice length");
        }
        return make(std::move(s), std::move(inputs));
      }
      case DslKind::Union: arity(1, SIZE_MAX); return make(DslUnion{r.boolean()}, std::move(inputs));
      case DslKind::Distinct: {
        arity(1, 1);
        DslDistinct d;
        d.subset = r.strs();
        d.keep = r.str();
        d.maintain_order = r.boolean();
        return make(std::move(d), std::move(inputs));
      }
      case DslKind::Rename: {
        arity(1, 1);
        DslRename d;
        d.existing = r.strs();
        d.new_names = r.strs();
        if (d.existing.size() != d.new_names.size()) r.fail("a rename with unequal name counts");
        return make(std::move(d), std::move(inputs));
      }
      case DslKind::Drop: arity(1, 1); return make(DslDrop{r.strs()}, std::move(inputs));
      case DslKind::WithRowIndex: {
        arity(1, 1);
        DslWithRowIndex d;
        d.name = r.str();
        d.offset = r.i64();
        return make(std::move(d), std::move(inputs));
      }
      case DslKind::Explode: {
        arity(1, 1);
        DslExplode e;
        e.columns = r.strs();
        e.options.empty_as_null = r.boolean();
        e.options.keep_nulls = r.boolean();
        return make(std::move(e), std::move(inputs));
      }
      case DslKind::AsofJoin: {
        arity(2, 2);
        DslAsofJoin j;
        j.left_on = exprs_.read_ref(r);
        j.right_on = exprs_.read_ref(r);
        AsofJoinOptions& o = j.options;
        o.strategy = static_cast<AsofStrategy>(r.enum_u8(3, "asof strategy"));
        o.left_by = r.strs();
        o.right_by = r.strs();
        if (r.boolean()) o.tolerance = r.f64();
        if (r.boolean()) o.tolerance_str = r.str();
        o.allow_exact_matches = r.boolean();
        o.check_sortedness = r.boolean();
        o.suffix = r.str();
        o.coalesce = r.boolean();
        return make(std::move(j), std::move(inputs));
      }
      case DslKind::MergeSorted: {
        arity(2, 2);
        DslMergeSorted m;
        m.key = r.str();
        m.maintain_order = r.boolean();
        return make(std::move(m), std::move(inputs));
      }
      case DslKind::JoinWhere: {
        arity(2, 2);
        DslJoinWhere j;
        const size_t n = r.count(1);
        for (size_t i = 0; i < n; ++i) j.predicates.push_back(exprs_.read_ref(r));
        j.suffix = r.str();
        return make(std::move(j), std::move(inputs));
      }
    }
    r.fail("an unknown plan step kind");
  }

  ByteReader& r_;
  const ReadOptions& options_;
  ExprTableReader exprs_;
  std::vector<DslPlanRef> nodes_;
};

}  // namespace

std::string serialize_expr(const Expr& expr) {
  if (!expr.valid()) throw ComputeError("cannot serialize an empty expression");
  ExprTableWriter table;
  const uint64_t root = table.add(expr);
  ByteWriter out;
  write_header(out, Content::Expr);
  table.finish(out);
  out.varint(root);
  return out.take();
}

Expr deserialize_expr(std::string_view bytes, const ReadOptions&) {
  ByteReader r(bytes);
  read_header(r, Content::Expr);
  ExprTableReader table;
  table.read(r);
  Expr e = table.read_ref(r);
  if (!r.at_end()) r.fail(err_msg(r.remaining(), " bytes after the end of the expression"));
  return e;
}

std::string serialize_dsl_plan(const DslPlanRef& plan) {
  if (!plan) throw ComputeError("cannot serialize an empty plan");
  PlanWriter w;
  const uint64_t root = w.add(plan);
  return w.finish(root);
}

DslPlanRef deserialize_dsl_plan(std::string_view bytes, const ReadOptions& options) {
  ByteReader r(bytes);
  read_header(r, Content::DslPlan);
  return PlanReader(r, options).read();
}

}  // namespace frazil::serde
