// Python functions as user-defined functions of the engine (functions/udf.hpp): the
// callable receives the evaluated inputs as PyColumns and returns a PyColumn. The GIL is
// taken only around the Python call; a Python exception becomes a ComputeError naming it,
// and the exception object is kept so that the error translation raises it again as itself
// (Polars re-raises the function's own exception: ValueError stays ValueError).
#include <nanobind/nanobind.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "frazil/core/column.hpp"
#include "frazil/core/error.hpp"
#include "frazil/functions/udf.hpp"

namespace nb = nanobind;

namespace frazil::py {

namespace {

// The exceptions raised by Python functions, by the number their ComputeError names. Only
// touched under the GIL. Bounded: an error the engine catches itself never comes back.
constexpr const char* kUdfErrorMark = "[python exception #";
constexpr std::size_t kKeptUdfErrors = 16;
std::deque<std::pair<std::uint64_t, nb::object>>& udf_errors() {
  static auto* errors = new std::deque<std::pair<std::uint64_t, nb::object>>();  // never freed: outlives Python
  return *errors;
}
std::uint64_t next_udf_error = 1;

std::string keep_udf_error(nb::python_error& e) {
  auto& errors = udf_errors();
  if (errors.size() >= kKeptUdfErrors) errors.pop_front();
  const std::uint64_t id = next_udf_error++;
  errors.emplace_back(id, nb::borrow<nb::object>(e.value()));
  return std::string(kUdfErrorMark) + std::to_string(id) + "] ";
}

}  // namespace

bool raise_kept_udf_error(const char* message) {
  const std::string text(message);
  const auto at = text.find(kUdfErrorMark);
  if (at == std::string::npos) return false;
  const std::uint64_t id = std::strtoull(text.c_str() + at + std::strlen(kUdfErrorMark), nullptr, 10);
  auto& errors = udf_errors();
  for (auto it = errors.begin(); it != errors.end(); ++it) {
    if (it->first != id) continue;
    nb::object exc = std::move(it->second);
    errors.erase(it);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
    return true;
  }
  return false;
}

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
        throw ComputeError("the Python function raised " + keep_udf_error(e) + e.what());
      } catch (const nb::cast_error&) {
        throw ComputeError("the Python function must give a Series");
      }
    });
  });
  m.def("clear_udfs", [] { functions::clear_udfs(); });
}

}  // namespace frazil::py
