// Builders of frazil columns from JSON values, one per dtype and nested like it (a list
// builder holds its element builder, a struct builder one per field). core has builders of
// flat arrays only; the nested ones frazil needs for JSON live here.
#pragma once

#include <simdjson.h>

#include <memory>
#include <string>

#include "frazil/core/array.hpp"

namespace frazil::io::json {

class ColumnBuilder {
 public:
  // Throws InvalidOperationError for a dtype JSON cannot be read as.
  // `column`: the field's name, for the errors of values checked only at finish() (Enum).
  static std::unique_ptr<ColumnBuilder> make(const DataType& dtype, const std::string& column = "");
  virtual ~ColumnBuilder() = default;
  // Appends a value; when it does not fit the dtype, appends a null instead and returns
  // false (the caller raises, or keeps the null when errors are ignored).
  virtual bool push(simdjson::dom::element value) = 0;
  virtual void push_null() = 0;
  virtual ArrayRef finish() = 0;
  const DataType& dtype() const { return dtype_; }

 protected:
  explicit ColumnBuilder(DataType dtype) : dtype_(std::move(dtype)) {}
  bool fail() {
    push_null();
    return false;
  }
  DataType dtype_;
};

// The JSON text of a value (what a String column holds for a non-string value).
std::string json_text(simdjson::dom::element value);

}  // namespace frazil::io::json
