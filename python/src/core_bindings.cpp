#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "frazil/frazil.hpp"

namespace nb = nanobind;

void register_core(nb::module_& m) {
  m.def("version", []() { return std::string("0.1.0"); });
}
