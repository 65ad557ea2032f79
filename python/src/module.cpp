// The nanobind module `frazil._frazil`: thin delegations to the C++ API.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

void register_core(nb::module_& m);
namespace frazil::py {
void remember_main_thread();
void register_lazy(nb::module_& m);
void register_io(nb::module_& m);
void register_sql(nb::module_& m);
void register_udf(nb::module_& m);
void register_nested(nb::module_& m);  // nested_bindings.cpp (struct, name, selectors)
void register_serde(nb::module_& m);   // serde_bindings.cpp (plan serialization, #24)
void register_meta(nb::module_& m);    // meta_bindings.cpp (Expr.meta)
void register_distributed(nb::module_& m);  // distributed_bindings.cpp (stages, fragments, #24)
}

NB_MODULE(_frazil, m) {
  m.doc() = "frazil: a lazy DataFrame engine in C++ (native module)";
  frazil::py::remember_main_thread();
  register_core(m);
  frazil::py::register_lazy(m);
  frazil::py::register_io(m);
  frazil::py::register_sql(m);
  frazil::py::register_udf(m);
  frazil::py::register_nested(m);
  frazil::py::register_serde(m);
  frazil::py::register_meta(m);
  frazil::py::register_distributed(m);
}
