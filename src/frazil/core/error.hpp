// The one exception hierarchy for user-facing errors, with Polars' error kinds,
// and FRAZIL_CHECK for internal invariants (a bug in frazil, not in the input).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace frazil {

enum class ErrorKind {
  ColumnNotFound,
  Schema,
  SchemaFieldNotFound,
  StructFieldNotFound,  // a struct has no field of that name
  InvalidOperation,
  Compute,
  Shape,
  Duplicate,
  OutOfBounds,
  IO,
  OutOfMemory,
  Cancelled,  // the query was cancelled or ran past its timeout (core/cancel.hpp)
  SQLInterface,  // SQL that names something unknown or uses a construct not supported
  SQLSyntax,     // SQL that does not parse
  Internal,
};

const char* error_kind_name(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

#define FRAZIL_DEFINE_ERROR(Name, Kind)                                           \
  class Name : public Error {                                                     \
   public:                                                                        \
    explicit Name(const std::string& message) : Error(ErrorKind::Kind, message) {} \
  };

FRAZIL_DEFINE_ERROR(ColumnNotFoundError, ColumnNotFound)
FRAZIL_DEFINE_ERROR(SchemaError, Schema)
FRAZIL_DEFINE_ERROR(SchemaFieldNotFoundError, SchemaFieldNotFound)
FRAZIL_DEFINE_ERROR(StructFieldNotFoundError, StructFieldNotFound)
FRAZIL_DEFINE_ERROR(InvalidOperationError, InvalidOperation)
FRAZIL_DEFINE_ERROR(ComputeError, Compute)
FRAZIL_DEFINE_ERROR(ShapeError, Shape)
FRAZIL_DEFINE_ERROR(DuplicateError, Duplicate)
FRAZIL_DEFINE_ERROR(OutOfBoundsError, OutOfBounds)
FRAZIL_DEFINE_ERROR(IOError, IO)
FRAZIL_DEFINE_ERROR(OutOfMemoryError, OutOfMemory)
FRAZIL_DEFINE_ERROR(CancelledError, Cancelled)
FRAZIL_DEFINE_ERROR(SQLInterfaceError, SQLInterface)
FRAZIL_DEFINE_ERROR(SQLSyntaxError, SQLSyntax)
FRAZIL_DEFINE_ERROR(InternalError, Internal)
#undef FRAZIL_DEFINE_ERROR

// Builds a message from streamable parts: err_msg("column '", name, "' not found").
template <typename... Parts>
std::string err_msg(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

// Throws an exception of the given kind (the matching subclass).
[[noreturn]] void throw_error(ErrorKind kind, const std::string& message);

[[noreturn]] void internal_check_failed(const char* expr, const char* file, int line,
                                        const std::string& detail);

}  // namespace frazil

// Internal invariant: a failure is a frazil bug and names the expression and location.
#define FRAZIL_CHECK(cond)                                                           \
  do {                                                                               \
    if (!(cond)) ::frazil::internal_check_failed(#cond, __FILE__, __LINE__, "");     \
  } while (0)

// Internal comparison check that prints both operands.
#define FRAZIL_CHECK_OP(a, op, b)                                                     \
  do {                                                                                \
    auto&& frazil_a_ = (a);                                                           \
    auto&& frazil_b_ = (b);                                                           \
    if (!(frazil_a_ op frazil_b_))                                                    \
      ::frazil::internal_check_failed(#a " " #op " " #b, __FILE__, __LINE__,          \
                                      ::frazil::err_msg("(", frazil_a_, " vs ", frazil_b_, ")")); \
  } while (0)
#define FRAZIL_CHECK_EQ(a, b) FRAZIL_CHECK_OP(a, ==, b)
#define FRAZIL_CHECK_LT(a, b) FRAZIL_CHECK_OP(a, <, b)
#define FRAZIL_CHECK_LE(a, b) FRAZIL_CHECK_OP(a, <=, b)
