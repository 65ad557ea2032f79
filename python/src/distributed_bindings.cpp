// Distributed execution (issue #24): the stage graph of a LazyFrame, plan fragments run on
// named inputs, and partitions as Arrow IPC bytes (src/frazil/distributed/). Python drives
// the stages (frazil/distributed/run_local.py; a Ray runner later).
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <string>
#include <vector>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/distributed/stage_planner.hpp"
#include "frazil/optimizer/optimizer.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"

namespace nb = nanobind;

namespace frazil::py {

namespace {

std::string_view view(const nb::bytes& b) { return {static_cast<const char*>(b.data()), b.size()}; }
nb::bytes to_bytes(const std::string& s) { return nb::bytes(s.data(), s.size()); }

distributed::StageGraph stages_of(const LazyFrame& lf, size_t partitions, bool allow_broadcast) {
  plan::IRArena lp;
  plan::ExprArena ea;
  const OptFlags flags;
  const plan::Node root = optimizer::optimize(plan::to_alp(lf.plan(), lp, ea, flags), lp, ea, flags);
  distributed::DistOptions options;
  options.partitions = partitions;
  options.allow_broadcast = allow_broadcast;
  return distributed::plan_stages(root, lp, ea, options);
}

}  // namespace

void register_distributed(nb::module_& m) {
  // {"stages": [{"id", "fragments" (one, or one per task), "tasks", "hash_keys", "partitions", "inputs": [(name, stage,
  // frame, mode)], "description"}], "frames": [DataFrame], "ordered": bool}
  m.def(
      "plan_stages",
      [](const LazyFrame& lf, size_t partitions, bool allow_broadcast) {
        distributed::StageGraph g = stages_of(lf, partitions, allow_broadcast);
        nb::list stages;
        for (const auto& s : g.stages) {
          nb::dict d;
          d["id"] = s.id;
          nb::list fragments;
          for (const auto& f : s.fragments) fragments.append(to_bytes(f));
          d["fragments"] = fragments;
          d["tasks"] = s.tasks;
          d["hash_keys"] = s.output.hash_keys;
          d["partitions"] = s.output.partitions;
          nb::list inputs;
          for (const auto& in : s.inputs)
            inputs.append(nb::make_tuple(in.name, in.stage, in.frame, std::string(distributed::input_mode_name(in.mode))));
          d["inputs"] = inputs;
          d["description"] = s.description;
          stages.append(d);
        }
        nb::list frames;
        for (const auto& f : g.frames) frames.append(nb::cast(*f));
        nb::dict out;
        out["stages"] = stages;
        out["frames"] = frames;
        out["ordered"] = g.ordered;
        return out;
      },
      nb::arg("lf"), nb::arg("partitions"), nb::arg("allow_broadcast") = true);
  m.def(
      "explain_stages",
      [](const LazyFrame& lf, size_t partitions, bool allow_broadcast) {
        return distributed::format_stage_graph(stages_of(lf, partitions, allow_broadcast));
      },
      nb::arg("lf"), nb::arg("partitions"), nb::arg("allow_broadcast") = true);
  m.def("execute_fragment", [](const nb::bytes& fragment, const std::map<std::string, DataFrame>& inputs) {
    std::string bytes(view(fragment));
    nb::gil_scoped_release release;
    return distributed::execute_fragment(bytes, inputs);
  });
  m.def("encode_partition", [](const DataFrame& df) { return to_bytes(distributed::encode_partition(df)); });
  m.def("decode_partition", [](const nb::bytes& b) { return distributed::decode_partition(view(b)); });
}

}  // namespace frazil::py
