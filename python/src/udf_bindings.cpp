// Python functions as user-defined functions of the engine (functions/udf.hpp): the
// callable receives the evaluated inputs as PyColumns and returns a PyColumn. The GIL is
// taken only around the Python call; a Python exception becomes a ComputeError naming it.
#include <nanobind/nanobind.h>

#include <memory>
#include <string>

#include "frazil/core/column.hpp"
#include "frazil/core/error.hpp"
#include "frazil/functions/udf.hpp"

namespace nb = nanobind;

namespace frazil::py {

void register_udf(nb::module_& m) {
  m.def("register_udf", [](nb::object fn) {
    // Released at interpreter exit by clear_udfs (Python calls it while it can still run).
    auto callable = std::make_shared<nb::object>(std::move(fn));
    return functions::register_udf([callable](std::span<const ArrayRef> inputs) -> ArrayRef {
      nb::gil_scoped_acquire gil;
      try {
        nb::list columns;
        for (const ArrayRef& a : inputs) columns.append(nb::cast(Column("", a)));
        nb::object result = (*callable)(columns);
        return nb::cast<Column>(result).as_array();
      } catch (nb::python_error& e) {
        throw ComputeError(std::string("the Python function raised: ") + e.what());
      } catch (const nb::cast_error&) {
        throw ComputeError("the Python function must give a Series");
      }
    });
  });
  m.def("clear_udfs", [] { functions::clear_udfs(); });
}

}  // namespace frazil::py
