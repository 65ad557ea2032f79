// Plan serialization (issue #24): LazyFrame and Expr to the plan format's bytes and back
// (serde/serialize.hpp), and the codec that carries Python UDFs in them (plan_serde.py
// installs it: pickle of the registered callable).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/error.hpp"
#include "frazil/serde/format.hpp"
#include "frazil/serde/serialize.hpp"
#include "frazil/serde/udf_codec.hpp"

namespace nb = nanobind;

namespace frazil::py {

namespace {

std::string_view view(const nb::bytes& b) { return {static_cast<const char*>(b.data()), b.size()}; }
nb::bytes to_bytes(const std::string& s) { return nb::bytes(s.data(), s.size()); }

}  // namespace

void register_serde(nb::module_& m) {
  m.def("serialize_plan", [](const LazyFrame& lf) { return to_bytes(serde::serialize_dsl_plan(lf.plan())); });
  m.def("deserialize_plan", [](const nb::bytes& b) { return LazyFrame(serde::deserialize_dsl_plan(view(b))); });
  // A frame alone: the plan of one in-memory scan (pickling of DataFrame and Series).
  m.def("serialize_frame", [](const DataFrame& df) {
    return to_bytes(serde::serialize_dsl_plan(LazyFrame::from_frame(df).plan()));
  });
  m.def("deserialize_frame", [](const nb::bytes& b) {
    const dsl::DslPlanRef plan = serde::deserialize_dsl_plan(view(b));
    if (plan->kind() != dsl::DslKind::DataFrameScan) {
      throw ComputeError("cannot deserialize a DataFrame: the bytes hold a LazyFrame plan (use LazyFrame.deserialize)");
    }
    return *plan->as<dsl::DslDataFrameScan>().df;
  });
  m.def("serialize_expr", [](const dsl::Expr& e) { return to_bytes(serde::serialize_expr(e)); });
  m.def("deserialize_expr", [](const nb::bytes& b) { return serde::deserialize_expr(view(b)); });
  m.def("plan_format_version", [] { return serde::kFormatVersion; });
  // encode(id) -> bytes, decode(bytes) -> id; None for both removes the codec (at exit).
  m.def(
      "set_udf_codec",
      [](nb::object encode, nb::object decode) {
        if (encode.is_none() || decode.is_none()) {
          serde::set_udf_codec({});
          return;
        }
        auto enc = std::make_shared<nb::object>(std::move(encode));
        auto dec = std::make_shared<nb::object>(std::move(decode));
        serde::UdfCodec codec;
        codec.encode = [enc](int64_t id) -> std::string {
          nb::gil_scoped_acquire gil;
          try {
            nb::bytes out = nb::cast<nb::bytes>((*enc)(id));
            return std::string(view(out));
          } catch (nb::python_error& e) {
            throw ComputeError(std::string("cannot serialize the Python function of a UDF: ") + nb::str(e.value()).c_str());
          }
        };
        codec.decode = [dec](std::string_view bytes) -> int64_t {
          nb::gil_scoped_acquire gil;
          try {
            return nb::cast<int64_t>((*dec)(nb::bytes(bytes.data(), bytes.size())));
          } catch (nb::python_error& e) {
            throw ComputeError(std::string("cannot deserialize the Python function of a UDF: ") + nb::str(e.value()).c_str());
          }
        };
        serde::set_udf_codec(std::move(codec));
      },
      nb::arg("encode").none(), nb::arg("decode").none());
}

}  // namespace frazil::py
