// Bindings for Expr.meta (python/frazil/expr_meta.py): the C++ expression tree's nodes as
// Python values, structural equality and hashing, and rebuilding nodes.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>

#include "core_common.hpp"
#include "frazil/dsl/expr_meta.hpp"
#include "frazil/functions/function_spec.hpp"
#include "frazil/io/parquet/file_reader.hpp"

namespace frazil::py {

using dsl::Expr;
using dsl::ExprKind;

namespace {

const char* kind_name(ExprKind k) {
  switch (k) {
    case ExprKind::Column: return "column";
    case ExprKind::Columns: return "columns";
    case ExprKind::Wildcard: return "wildcard";
    case ExprKind::Exclude: return "exclude";
    case ExprKind::Nth: return "nth";
    case ExprKind::Literal: return "literal";
    case ExprKind::Alias: return "alias";
    case ExprKind::BinaryExpr: return "binary";
    case ExprKind::Cast: return "cast";
    case ExprKind::Agg: return "agg";
    case ExprKind::Ternary: return "ternary";
    case ExprKind::Function: return "function";
    case ExprKind::Len: return "len";
    case ExprKind::Sort: return "sort";
    case ExprKind::SortBy: return "sort_by";
    case ExprKind::Filter: return "filter";
    case ExprKind::Window: return "window";
    case ExprKind::RenameAlias: return "rename_alias";
    case ExprKind::KeepName: return "keep_name";
    case ExprKind::Selector: return "selector";
    case ExprKind::StructFields: return "struct_fields";
    case ExprKind::Field: return "field";
  }
  return "unknown";
}

const char* shape_name(functions::Shape s) {
  switch (s) {
    case functions::Shape::Elementwise: return "elementwise";
    case functions::Shape::Reduction: return "reduction";
    case functions::Shape::LengthPreserving: return "length_preserving";
    case functions::Shape::Other: return "other";
  }
  return "other";
}

// One node: {"kind", "names", "inputs", "label", and per kind "function", "shape",
// "series_literal", "agg", "explode"}.
nb::dict node_info(const Expr& e) {
  const dsl::ExprNode& n = e.node();
  nb::dict d;
  d["kind"] = kind_name(n.kind);
  d["names"] = n.names;
  d["inputs"] = n.inputs;
  d["label"] = dsl::node_label(e);
  if (n.kind == ExprKind::Function && n.function.spec) {
    d["function"] = n.function.name();
    d["shape"] = shape_name(n.function.spec->shape);
  }
  if (n.kind == ExprKind::Literal) d["series_literal"] = n.literal.is_series();
  if (n.kind == ExprKind::Agg) d["agg"] = compute::agg_name(n.agg);
  if (n.kind == ExprKind::Window) {
    d["rolling"] = n.window.kind == dsl::WindowKind::Rolling;
    d["explode"] = n.window.mapping == dsl::WindowMapping::Explode;
    d["join"] = n.window.mapping == dsl::WindowMapping::Join;
  }
  return d;
}

// The key-value metadata of a Parquet file's footer (read_parquet_metadata): a path, or
// the file's bytes.
nb::dict parquet_key_values(nb::handle source) {
  std::shared_ptr<io::parquet::ParquetFile> file;
  if (nb::isinstance<nb::bytes>(source)) {
    nb::bytes b = nb::borrow<nb::bytes>(source);
    Buffer buf = Buffer::allocate(b.size());
    std::memcpy(buf.mutable_data(), b.c_str(), b.size());
    file = io::parquet::ParquetFile::from_buffer(std::move(buf), "in-memory source");
  } else {
    file = io::parquet::ParquetFile::open(nb::cast<std::string>(source));
  }
  nb::dict out;
  for (const auto& kv : file->metadata().key_value_metadata) out[kv.key.c_str()] = kv.value.value_or("");
  return out;
}

}  // namespace

void register_meta(nb::module_& m) {
  m.def("parquet_key_values", &parquet_key_values);
  m.def("expr_node", &node_info);
  m.def("expr_same", &dsl::same_expr);
  m.def("expr_hash", &dsl::expr_hash);
  m.def("expr_with_inputs", &dsl::with_inputs);
  m.def("expr_apply_rename", &dsl::apply_rename);
}

}  // namespace frazil::py
