#include "frazil/exec/sinks/join_build_sink.hpp"

#include "frazil/exec/operators/join.hpp"
#include "frazil/exec/operators/join_probe.hpp"

namespace frazil::exec {

JoinBuildSink::JoinBuildSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                             const Schema& right_schema)
    : join_(join), ea_(ea), left_schema_(left_schema), right_schema_(right_schema) {}

std::string JoinBuildSink::describe() const {
  const auto how = join_.as<plan::JoinNode>().options.how;
  const bool keys_only = how == compute::JoinType::Semi || how == compute::JoinType::Anti;
  return "join build: the right side of the " + join_label(join_, ea_) + ", hash table built at finalize" +
         (keys_only ? " (keys only)" : "");
}

DataFrame JoinBuildSink::finish(DataFrame all) {
  rows_ = all.height();
  probe_ = make_join_probe(join_, all, left_schema_, right_schema_, ea_);
  return DataFrame();
}

}  // namespace frazil::exec
