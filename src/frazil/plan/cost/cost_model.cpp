#include "frazil/plan/cost/cost_model.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "frazil/core/stack.hpp"
#include "frazil/io/parquet/file_reader.hpp"

namespace frazil::plan {

using dsl::Operator;

double predicate_selectivity(Node node, const ExprArena& arena) {
  check_stack("cost estimation");  // recursive over the predicate's depth (core/stack.hpp)
  const AExpr& e = arena.get(node);
  auto sel = [&](size_t i) { return predicate_selectivity(e.inputs[i], arena); };
  switch (e.kind) {
    case AExprKind::Literal: {
      auto b = e.literal_bool();
      return b && *b ? 1.0 : 0.0;
    }
    case AExprKind::BinaryExpr:
      switch (e.op) {
        case Operator::And: return sel(0) * sel(1);
        case Operator::Or: {
          double a = sel(0), b = sel(1);
          return a + b - a * b;
        }
        case Operator::Eq:
        case Operator::EqValidity: return 0.1;
        case Operator::NotEq:
        case Operator::NotEqValidity: return 0.9;
        case Operator::Lt:
        case Operator::LtEq:
        case Operator::Gt:
        case Operator::GtEq: return 1.0 / 3.0;
        default: return 0.5;
      }
    case AExprKind::Function: {
      const auto& spec = e.spec();
      if (spec.has_set_input()) {
        // Membership in a set of n values keeps about n tenths of the rows, at most half.
        for (size_t i = 0; i < e.inputs.size(); ++i) {
          if (spec.role(i) != functions::InputRole::Set) continue;
          const AExpr& values = arena.get(e.inputs[i]);
          double n = values.kind == AExprKind::Literal && values.literal().is_series()
                         ? static_cast<double>(values.literal().series->length())
                         : 5.0;
          return std::clamp(0.1 * n, 0.0, 0.5);
        }
      }
      if (!spec.selectivity) return 0.5;
      std::vector<double> inputs(e.inputs.size());
      for (size_t i = 0; i < e.inputs.size(); ++i) inputs[i] = sel(i);
      return spec.selectivity(inputs);
    }
    default: return 0.5;
  }
}

namespace {

// Bytes a value of this dtype takes in CSV text, roughly, plus its separator.
double text_width(const DataType& t) {
  if (t.is_boolean()) return 6;
  if (t.is_integer()) return 7;
  if (t.is_float() || t.id() == TypeId::Decimal) return 11;
  if (t.is_string() || t.id() == TypeId::Binary) return 13;
  if (t.id() == TypeId::Date) return 11;
  if (t.id() == TypeId::Datetime) return 24;
  return 9;
}

std::optional<double> file_rows(const std::string& path, const dsl::ScanSource& scan) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  if (scan.format == dsl::ScanFormat::Parquet) {
    try {
      return static_cast<double>(io::parquet::ParquetFile::open(path)->num_rows());
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  auto bytes = static_cast<double>(fs::file_size(path, ec));
  if (ec) return std::nullopt;
  double width = 1;
  if (scan.file_schema)
    for (const auto& f : scan.file_schema->fields()) width += text_width(f.dtype);
  return bytes / width;
}

}  // namespace

std::optional<double> source_rows(const IR& scan) {
  if (const auto* df = scan.get_if<DataFrameScanNode>()) return static_cast<double>(df->df->height());
  if (!scan.is<ScanNode>()) return std::nullopt;
  const dsl::ScanSource& source = scan.as<ScanNode>().source;
  double total = 0;
  for (const auto& path : source.paths) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
        if (!entry.is_regular_file()) continue;
        auto r = file_rows(entry.path().string(), source);
        if (!r) return std::nullopt;
        total += *r;
      }
      continue;
    }
    auto r = file_rows(path, source);
    if (!r) return std::nullopt;
    total += *r;
  }
  return total;
}

namespace {

class Estimator {
 public:
  Estimator(const IRArena& lp, const ExprArena& ea) : lp_(lp), ea_(ea) {}

  std::optional<PlanCost> cost(Node n) {
    auto it = memo_.find(n.idx);
    if (it != memo_.end()) return it->second;
    auto c = compute(lp_.get(n));
    memo_.emplace(n.idx, c);
    return c;
  }

 private:
  double selectivity(const ExprIR* p) const { return p ? predicate_selectivity(p->node(), ea_) : 1.0; }

  std::optional<PlanCost> compute(const IR& ir) {
    auto in = [&](size_t i) { return cost(ir.inputs[i]); };
    switch (ir.kind()) {
      case IRKind::DataFrameScan:
      case IRKind::Scan: {
        auto n = source_rows(ir);
        if (!n) return std::nullopt;
        const auto* scan = ir.get_if<ScanNode>();
        double read = scan && scan->n_rows ? std::min<double>(*n, static_cast<double>(*scan->n_rows)) : *n;
        // A pushed-down predicate passes over the rows read, as the Filter it was does.
        const ExprIR* predicate = predicate_of(ir);
        const double sel = selectivity(predicate);
        return PlanCost{read * sel, predicate ? 2 * read : read, sel};
      }
      case IRKind::Filter: {
        auto c = in(0);
        if (!c) return c;
        const double sel = selectivity(predicate_of(ir));
        return PlanCost{c->rows * sel, c->work + c->rows, c->kept * sel};
      }
      case IRKind::Select: {
        auto c = in(0);
        if (!c) return c;
        const auto& exprs = ir.as<SelectNode>().exprs;
        bool all_scalar = !exprs.empty() && std::all_of(exprs.begin(), exprs.end(), [&](const auto& e) {
          return is_scalar_ae(e.node(), ea_);
        });
        return PlanCost{all_scalar ? 1.0 : c->rows, c->work + c->rows, all_scalar ? 1.0 : c->kept};
      }
      case IRKind::HStack:
      case IRKind::Distinct: {
        auto c = in(0);
        if (!c) return c;
        if (ir.kind() == IRKind::Distinct) return PlanCost{std::max(1.0, c->rows * 0.5), c->work + c->rows, 1.0};
        return PlanCost{c->rows, c->work + c->rows, c->kept};
      }
      case IRKind::SimpleProjection:
      case IRKind::Rename:
      case IRKind::Cache: return in(0);
      case IRKind::RowIndex:
      case IRKind::Explode: {
        auto c = in(0);
        if (!c) return c;
        return PlanCost{c->rows, c->work + c->rows, c->kept};
      }
      case IRKind::GroupBy: {
        auto c = in(0);
        if (!c) return c;
        return PlanCost{std::min(c->rows, std::max(1.0, c->rows / 10)), c->work + c->rows};
      }
      case IRKind::AsofJoin: {
        // One output row per left row; the right side is read whole.
        auto l = in(0), r = in(1);
        if (!l || !r) return std::nullopt;
        return PlanCost{l->rows, l->work + r->work + l->rows + r->rows, l->kept};
      }
      case IRKind::InequalityJoin: {
        // A third of the pairs, as a guess.
        auto l = in(0), r = in(1);
        if (!l || !r) return std::nullopt;
        const double rows = l->rows * r->rows / 3;
        return PlanCost{rows, l->work + r->work + l->rows + r->rows + rows, 1.0};
      }
      case IRKind::MergeSorted: {
        auto l = in(0), r = in(1);
        if (!l || !r) return std::nullopt;
        return PlanCost{l->rows + r->rows, l->work + r->work + l->rows + r->rows, 1.0};
      }
      case IRKind::Join: {
        auto l = in(0), r = in(1);
        if (!l || !r) return std::nullopt;
        double rows = 0, kept = 1;
        // The side with more rows before its filters is taken for the fact table.
        const bool left_fact = l->rows / std::max(l->kept, 1e-9) >= r->rows / std::max(r->kept, 1e-9);
        switch (ir.as<JoinNode>().options.how) {
          case compute::JoinType::Inner:
            rows = left_fact ? l->rows * r->kept : r->rows * l->kept;
            kept = l->kept * r->kept;
            break;
          case compute::JoinType::Left:
            rows = l->rows;
            kept = l->kept;
            break;
          case compute::JoinType::Right:
            rows = r->rows;
            kept = r->kept;
            break;
          case compute::JoinType::Full: rows = l->rows + r->rows; break;
          case compute::JoinType::Semi:
            rows = l->rows * std::min(0.5, r->kept);
            kept = l->kept * std::min(0.5, r->kept);
            break;
          case compute::JoinType::Anti:
            rows = l->rows * 0.5;
            kept = l->kept * 0.5;
            break;
          case compute::JoinType::Cross: rows = l->rows * r->rows; break;
        }
        return PlanCost{rows, l->work + r->work + l->rows + r->rows + rows, kept};
      }
      case IRKind::Sort: {
        auto c = in(0);
        if (!c) return c;
        const auto& slice = ir.as<SortNode>().slice;
        double rows = slice ? std::min<double>(c->rows, static_cast<double>(slice->second)) : c->rows;
        return PlanCost{rows, c->work + 2 * c->rows, c->kept};
      }
      case IRKind::Slice: {
        auto c = in(0);
        if (!c) return c;
        const auto& sl = ir.as<SliceNode>();
        double avail = sl.offset >= 0 ? std::max(0.0, c->rows - static_cast<double>(sl.offset))
                                      : std::min(c->rows, -static_cast<double>(sl.offset));
        return PlanCost{std::min(avail, static_cast<double>(sl.length)), c->work, c->kept};
      }
      case IRKind::Union: {
        PlanCost total;
        for (size_t i = 0; i < ir.inputs.size(); ++i) {
          auto c = in(i);
          if (!c) return std::nullopt;
          total.rows += c->rows;
          total.work += c->work;
        }
        return total;
      }
      case IRKind::Invalid: return std::nullopt;
    }
    return std::nullopt;
  }

  const IRArena& lp_;
  const ExprArena& ea_;
  std::unordered_map<uint32_t, std::optional<PlanCost>> memo_;
};

}  // namespace

std::optional<PlanCost> estimate_cost(Node node, const IRArena& lp, const ExprArena& ea) {
  return Estimator(lp, ea).cost(node);
}

}  // namespace frazil::plan
