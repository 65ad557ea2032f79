// Shared declarations of the core and Arrow bindings (python/src/core_*.cpp, arrow_*.cpp).
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "frazil/core/array.hpp"
#include "frazil/core/column.hpp"
#include "frazil/core/dtype.hpp"
#include "frazil/core/frame.hpp"

namespace nb = nanobind;

namespace frazil::py {

// DataType <-> its Python description: a name ("Int64") for parameterless types, else a
// tuple: ("Datetime", unit, tz|None), ("Duration", unit), ("Decimal", precision, scale),
// ("List", inner), ("Struct", [(name, dtype), ...]). frazil/datatypes.py reads and
// writes the same shapes.
nb::object dtype_to_py(const DataType& dtype);
DataType dtype_from_py(nb::handle obj);

// Polars' inference of a column dtype from a sequence of Python values.
DataType infer_dtype(nb::handle values, const std::string& column);
// Builds an array of `dtype` from a sequence of Python values; a value that does not
// fit raises TypeError naming the column.
ArrayRef array_from_py(nb::handle values, const DataType& dtype, const std::string& column);
// Python values of a column (int, float, str, bytes, date, datetime, ..., None).
nb::list column_to_py(const Column& column);
nb::object scalar_to_py(const Scalar& value);

void register_convert(nb::module_& m);
void register_arrow(nb::module_& m);

}  // namespace frazil::py
