// The plan format's encodings of values: dtypes (nested, Categorical/Enum with their
// categories, Datetime with its zone, Decimal), schemas, scalars, arrays and frames (as
// Arrow IPC), and function parameter values. Shared by the DSL plan and the IR encoders.
#pragma once

#include <memory>

#include "frazil/core/array.hpp"
#include "frazil/core/dtype.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/functions/args.hpp"
#include "frazil/serde/byte_io.hpp"

namespace frazil::serde {

// Nested dtypes and scalars deeper than this are refused (the codecs recurse over them).
inline constexpr int kMaxValueNesting = 64;

void write_dtype(ByteWriter& w, const DataType& dtype);
DataType read_dtype(ByteReader& r);

void write_schema(ByteWriter& w, const Schema& schema);
Schema read_schema(ByteReader& r);
void write_fields(ByteWriter& w, const std::vector<Field>& fields);
std::vector<Field> read_fields(ByteReader& r);

void write_scalar(ByteWriter& w, const Scalar& value);
Scalar read_scalar(ByteReader& r);

// One array as a one-column Arrow IPC file.
void write_array(ByteWriter& w, const ArrayRef& array);
ArrayRef read_array(ByteReader& r);

// A frame as an Arrow IPC file (its height kept when it has no columns).
void write_frame(ByteWriter& w, const DataFrame& df);
DataFrame read_frame(ByteReader& r);

void write_arg(ByteWriter& w, const functions::ArgValue& value);
functions::ArgValue read_arg(ByteReader& r);

}  // namespace frazil::serde
