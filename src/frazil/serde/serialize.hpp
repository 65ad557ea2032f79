// Plans and expressions to bytes and back (the format: serde/format.hpp). What a LazyFrame
// holds before optimization (the DSL plan) round-trips with every node and expression kind,
// dtype, literal (whole-series literals too), scan and in-memory frame (as Arrow IPC); Python
// UDFs travel through the codec the Python layer installs (udf_codec.hpp). Corrupt or
// truncated bytes are a ComputeError naming the byte offset.
#pragma once

#include <string>
#include <string_view>

#include "frazil/dsl/dsl_plan.hpp"
#include "frazil/dsl/expr.hpp"

namespace frazil::serde {

struct ReadOptions {
  // File scans are rebuilt (their files opened to read the schema); off, a scan is refused
  // (the fuzz target reads untrusted bytes that could name any file).
  bool allow_scans = true;
};

std::string serialize_expr(const dsl::Expr& expr);
dsl::Expr deserialize_expr(std::string_view bytes, const ReadOptions& options = {});

std::string serialize_dsl_plan(const dsl::DslPlanRef& plan);
dsl::DslPlanRef deserialize_dsl_plan(std::string_view bytes, const ReadOptions& options = {});

}  // namespace frazil::serde
