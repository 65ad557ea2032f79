#include "frazil/core/error.hpp"

namespace frazil {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::ColumnNotFound: return "ColumnNotFoundError";
    case ErrorKind::Schema: return "SchemaError";
    case ErrorKind::SchemaFieldNotFound: return "SchemaFieldNotFoundError";
    case ErrorKind::StructFieldNotFound: return "StructFieldNotFoundError";
    case ErrorKind::InvalidOperation: return "InvalidOperationError";
    case ErrorKind::Compute: return "ComputeError";
    case ErrorKind::Shape: return "ShapeError";
    case ErrorKind::Duplicate: return "DuplicateError";
    case ErrorKind::OutOfBounds: return "OutOfBoundsError";
    case ErrorKind::IO: return "IOError";
    case ErrorKind::OutOfMemory: return "OutOfMemoryError";
    case ErrorKind::Cancelled: return "CancelledError";
    case ErrorKind::SQLInterface: return "SQLInterfaceError";
    case ErrorKind::SQLSyntax: return "SQLSyntaxError";
    case ErrorKind::Internal: return "InternalError";
  }
  return "Error";
}

void throw_error(ErrorKind kind, const std::string& message) {
  switch (kind) {
    case ErrorKind::ColumnNotFound: throw ColumnNotFoundError(message);
    case ErrorKind::Schema: throw SchemaError(message);
    case ErrorKind::SchemaFieldNotFound: throw SchemaFieldNotFoundError(message);
    case ErrorKind::StructFieldNotFound: throw StructFieldNotFoundError(message);
    case ErrorKind::InvalidOperation: throw InvalidOperationError(message);
    case ErrorKind::Compute: throw ComputeError(message);
    case ErrorKind::Shape: throw ShapeError(message);
    case ErrorKind::Duplicate: throw DuplicateError(message);
    case ErrorKind::OutOfBounds: throw OutOfBoundsError(message);
    case ErrorKind::IO: throw IOError(message);
    case ErrorKind::OutOfMemory: throw OutOfMemoryError(message);
    case ErrorKind::Cancelled: throw CancelledError(message);
    case ErrorKind::SQLInterface: throw SQLInterfaceError(message);
    case ErrorKind::SQLSyntax: throw SQLSyntaxError(message);
    case ErrorKind::Internal: throw InternalError(message);
  }
  throw Error(kind, message);
}

void internal_check_failed(const char* expr, const char* file, int line, const std::string& detail) {
  throw InternalError(err_msg("internal error (a frazil bug): check failed: ", expr, " ", detail,
                              " at ", file, ":", line));
}

}  // namespace frazil
