#include "frazil/functions/udf.hpp"

#include <memory>
#include <mutex>
#include <vector>

#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/registry.hpp"

namespace frazil::functions {

namespace {

std::mutex& udf_mutex() {
  static std::mutex mu;
  return mu;
}

std::vector<std::shared_ptr<const UdfCallable>>& udf_table() {
  static std::vector<std::shared_ptr<const UdfCallable>> table;
  return table;
}

}  // namespace

int64_t register_udf(UdfCallable fn) {
  std::lock_guard<std::mutex> lock(udf_mutex());
  udf_table().push_back(std::make_shared<const UdfCallable>(std::move(fn)));
  return static_cast<int64_t>(udf_table().size()) - 1;
}

void clear_udfs() {
  std::vector<std::shared_ptr<const UdfCallable>> dropped;
  {
    std::lock_guard<std::mutex> lock(udf_mutex());
    // The slots stay (ids are positions); the callables go.
    for (auto& f : udf_table()) dropped.push_back(std::move(f));
  }
}

ArrayRef call_udf(int64_t id, std::span<const ArrayRef> inputs) {
  std::shared_ptr<const UdfCallable> fn;
  {
    std::lock_guard<std::mutex> lock(udf_mutex());
    if (id >= 0 && id < static_cast<int64_t>(udf_table().size())) fn = udf_table()[id];
  }
  if (!fn) throw ComputeError(err_msg("no user-defined function with id ", id, " is registered"));
  // Called without the lock: the callable may run a query of its own.
  return (*fn)(inputs);
}

bool is_udf(const FunctionSpec& spec) {
  return spec.name == "map_batches" || spec.name == "map_elements" || spec.name == "name.map_fields";
}

void register_udf_functions(Registry& r) {
  for (const bool batches : {true, false}) {
    FunctionSpec s;
    s.name = batches ? "map_batches" : "map_elements";
    s.min_inputs = 1;
    s.max_inputs = 1024;  // pl.map_batches([a, b, ...], f): one callable over several columns
    s.params = {int_param(kUdfIdParam, -1), dtype_param("return_dtype")};
    // A batch function may give any length; an element function keeps the input's height.
    s.shape = batches ? Shape::Other : Shape::LengthPreserving;
    s.fallible = true;
    s.nondeterministic = true;
    s.order_sensitive = true;
    s.output_dtype = [](const CallTypes& c) {
      const std::optional<DataType> d = c.args.get_dtype("return_dtype");
      return d ? *d : c.inputs[0];
    };
    s.kernel = [name = s.name](const Args& a) -> Kernel {
      return [id = a.get_int("function"), want = a.get_dtype("return_dtype"), name](std::span<const ArrayRef> in) {
        ArrayRef out = call_udf(id, in);
        const DataType planned = want ? *want : in[0]->dtype();
        if (out->dtype() == planned) return out;
        try {
          return compute::cast(*out, planned, /*strict=*/true);
        } catch (const Error& e) {
          throw ComputeError(err_msg("the function given to `", name, "` returned ", out->dtype().short_name(),
                                     " where ", planned.short_name(), " was planned (set `return_dtype`): ",
                                     e.what()));
        }
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
