// Bindings of the SQL layer: frazil::sql::Context and the helpers frazil.sql() needs.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "frazil/sql/context.hpp"

namespace nb = nanobind;

namespace frazil::py {

void register_sql(nb::module_& m) {
  nb::class_<sql::Context>(m, "PySQLContext")
      .def(nb::init<>())
      .def("register", [](sql::Context& c, const std::string& name, const LazyFrame& lf) { c.register_frame(name, lf); })
      .def("unregister", &sql::Context::unregister)
      .def("tables", &sql::Context::tables)
      .def("execute", &sql::Context::execute);
  m.def("sql_table_names", &sql::referenced_tables);
  m.def("sql_expr", &sql::sql_expr);
}

}  // namespace frazil::py
