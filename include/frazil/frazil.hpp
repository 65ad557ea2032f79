// The public C++ API of frazil: include this one header. Installed with the headers it
// includes (cmake/InstallPublicHeaders.cmake); everything else in src/ stays internal.
#pragma once

#include "frazil/core/array.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/column.hpp"
#include "frazil/core/dtype.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/api/lazy_frame.hpp"
#include "frazil/dsl/dt_namespace.hpp"
#include "frazil/dsl/list_namespace.hpp"
#include "frazil/dsl/expr.hpp"
#include "frazil/dsl/str_namespace.hpp"
#include "frazil/version.hpp"

namespace frazil {
using dsl::col;
using dsl::cols;
using dsl::lit;
using dsl::when;
using dsl::len;
using dsl::concat_str;
}  // namespace frazil
#include "frazil/api/io.hpp"
#include "frazil/arrow.hpp"
#include "frazil/sql/context.hpp"
