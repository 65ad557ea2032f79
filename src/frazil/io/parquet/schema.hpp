// The Parquet schema tree (flattened SchemaElements) resolved into frazil dtypes: one
// SchemaNode per top-level column (with nested children for lists and structs) and one
// LeafColumn per column chunk, carrying its max definition/repetition levels and how
// physical values convert to the frazil dtype.
#pragma once

#include <string>
#include <vector>

#include "frazil/core/dtype.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/io/parquet/metadata.hpp"

namespace frazil::io::parquet {

// How a leaf's physical values become frazil values.
enum class Conversion : uint8_t {
  Boolean,        // bit-packed booleans
  Copy32,         // INT32 / FLOAT as is (Int32, UInt32, Date, Float32)
  Copy64,         // INT64 / DOUBLE as is (Int64, UInt64, Datetime, Time ns, Float64)
  Int32To8,       // INT32 narrowed to 8 bits (Int8 / UInt8)
  Int32To16,      // INT32 narrowed to 16 bits (Int16 / UInt16)
  TimeMillis,     // INT32 ms since midnight -> Time ns
  TimeMicros,     // INT64 us -> Time ns
  Int96,          // INT96 -> Datetime ns
  DecimalInt32,   // INT32 -> Decimal (int128)
  DecimalInt64,   // INT64 -> Decimal
  DecimalBytes,   // big-endian two's complement (BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY) -> Decimal
  Float16,        // FIXED_LEN_BYTE_ARRAY(2) half floats -> Float16 (their bits)
  Int128Bytes,    // FIXED_LEN_BYTE_ARRAY(16) little-endian -> Int128 / UInt128 (as the footer says)
  ByteArray,      // BYTE_ARRAY -> String / Binary views
  FixedBytes,     // FIXED_LEN_BYTE_ARRAY -> Binary views
  Null,           // UNKNOWN logical type: all null
};

struct LeafColumn {
  size_t index = 0;                 // column chunk index in each row group
  std::vector<std::string> path;    // path_in_schema
  PhysicalType physical = PhysicalType::Int32;
  int32_t type_length = 0;          // FIXED_LEN_BYTE_ARRAY width
  int16_t max_def = 0;
  int16_t max_rep = 0;
  DataType dtype;                   // the frazil dtype of this leaf's values
  Conversion conversion = Conversion::Copy32;
  size_t top_level = 0;             // index of the top-level column it belongs to
  std::string dotted_path() const;
};

struct SchemaNode {
  enum class Kind : uint8_t { Primitive, Struct, List };
  Kind kind = Kind::Primitive;
  std::string name;
  DataType dtype;
  bool nullable = true;
  int16_t def_level = 0;    // values at this node are valid iff def >= def_level (when nullable)
  int16_t rep_level = 0;
  int leaf = -1;            // Primitive: index into ParquetSchema::leaves()
  int16_t entry_def = 0;    // List: a list entry exists iff def >= entry_def
  int16_t entry_rep = 0;    // List: rep level of entries after the first
  std::vector<SchemaNode> children;  // Struct fields, or the List element
  std::vector<int> leaves;           // every leaf below, in order
};

class ParquetSchema {
 public:
  ParquetSchema() = default;
  // Throws SchemaError (unsupported) or IOError-worthy std::runtime_error via
  // ParquetSchemaError (malformed).
  explicit ParquetSchema(const std::vector<SchemaElement>& elements);

  const std::vector<SchemaNode>& fields() const { return fields_; }
  const std::vector<LeafColumn>& leaves() const { return leaves_; }
  const Schema& schema() const { return schema_; }

  // Top-level field `field`, a FIXED_LEN_BYTE_ARRAY(16) without a logical type, read as
  // `dtype` (Int128 or UInt128: how Polars writes them, known only from the ARROW:schema
  // footer). False, and nothing changed, for any other field or dtype.
  bool read_as_wide_integer(size_t field, const DataType& dtype);

 private:
  std::vector<SchemaNode> fields_;
  std::vector<LeafColumn> leaves_;
  Schema schema_;
};

class ParquetSchemaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace frazil::io::parquet
