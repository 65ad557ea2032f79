// Bindings of the struct and name namespaces, of selectors and of the global categories
// (struct and categorical parts of issue #18):
// module functions over PyExpr, so python/frazil/expr_struct.py, expr_name.py and
// selectors.py build the C++ DSL's nodes. Python callables (name.map, a selector's
// resolution) are called back with the GIL taken, and released with it.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>

#include "core_common.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"
#include "frazil/dsl/name_namespace.hpp"
#include "frazil/dsl/struct_namespace.hpp"

namespace frazil::py {

using dsl::Expr;

namespace {

// A Python callable owned from C++: copied freely, called and freed with the GIL.
std::shared_ptr<nb::object> hold(nb::object fn) {
  return std::shared_ptr<nb::object>(new nb::object(std::move(fn)), [](nb::object* p) {
    nb::gil_scoped_acquire gil;
    delete p;
  });
}

}  // namespace

void register_nested(nb::module_& m) {
  m.def("as_struct", &dsl::as_struct);
  m.def("field", &dsl::field);
  m.def("struct_field", [](const Expr& e, const std::string& name) { return e.struct_().field(name); });
  m.def("struct_fields", [](const Expr& e, std::vector<std::string> names) { return e.struct_().fields(std::move(names)); });
  m.def("struct_with_fields", [](const Expr& e, std::vector<Expr> exprs) { return e.struct_().with_fields(std::move(exprs)); });
  m.def("struct_eval", [](const Expr& e, std::vector<Expr> exprs) { return e.struct_().eval(std::move(exprs)); });
  m.def("struct_rename_fields", [](const Expr& e, std::vector<std::string> names) {
    return e.struct_().rename_fields(std::move(names));
  });
  m.def("struct_json_encode", [](const Expr& e) { return e.struct_().json_encode(); });

  // The global categories behind pl.Categorical (pl.Categories()): size, code -> string, string -> code.
  m.def("global_categories_size", [] { return Categories::global()->size(); });
  m.def("global_category", [](uint32_t code) {
    if (code >= Categories::global()->size())
      throw nb::index_error(("categorical code " + std::to_string(code) + " is out of bounds").c_str());
    return Categories::global()->get(code);
  });
  m.def("global_category_code", [](const std::string& s) -> nb::object {
    auto code = Categories::global()->find(s);
    return code ? nb::cast(*code) : nb::none();
  });

  m.def("name_keep", [](const Expr& e) { return e.name().keep(); });
  m.def("name_prefix", [](const Expr& e, const std::string& s) { return e.name().prefix(s); });
  m.def("name_suffix", [](const Expr& e, const std::string& s) { return e.name().suffix(s); });
  m.def("name_to_lowercase", [](const Expr& e) { return e.name().to_lowercase(); });
  m.def("name_to_uppercase", [](const Expr& e) { return e.name().to_uppercase(); });
  m.def("name_strip_prefix", [](const Expr& e, const std::string& s) { return e.name().strip_prefix(s); });
  m.def("name_strip_suffix", [](const Expr& e, const std::string& s) { return e.name().strip_suffix(s); });
  m.def("name_replace", [](const Expr& e, const std::string& pattern, const std::string& value, bool literal) {
    return e.name().replace(pattern, value, literal);
  });
  m.def("name_prefix_fields", [](const Expr& e, const std::string& s) { return e.name().prefix_fields(s); });
  m.def("name_suffix_fields", [](const Expr& e, const std::string& s) { return e.name().suffix_fields(s); });
  // name.map(fn): fn(str) -> str, called at conversion.
  m.def("name_map", [](const Expr& e, nb::object fn, std::string display) {
    auto f = hold(std::move(fn));
    return e.name().map(
        [f](const std::string& name) {
          nb::gil_scoped_acquire gil;
          nb::object r = (*f)(name);
          if (!nb::isinstance<nb::str>(r))
            throw InvalidOperationError("name.map: the function must return a str, got " +
                                        nb::cast<std::string>(nb::str(r.type())));
          return nb::cast<std::string>(r);
        },
        std::move(display));
  });
  // A selector: fn([(name, dtype), ...]) -> [name, ...], called at conversion.
  m.def("selector", [](nb::object fn, std::string display) {
    auto f = hold(std::move(fn));
    return dsl::selector(
        [f](const Schema& schema) {
          nb::gil_scoped_acquire gil;
          nb::list fields;
          for (const auto& fd : schema.fields()) fields.append(nb::make_tuple(fd.name, dtype_to_py(fd.dtype)));
          nb::object r = (*f)(fields);
          std::vector<std::string> out;
          for (nb::handle h : r) out.push_back(nb::cast<std::string>(h));
          return out;
        },
        std::move(display));
  });
}

}  // namespace frazil::py
