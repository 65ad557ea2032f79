#include "frazil/io/parquet/schema.hpp"

#include "frazil/core/error.hpp"

namespace frazil::io::parquet {

std::string LeafColumn::dotted_path() const {
  std::string s;
  for (const auto& p : path) {
    if (!s.empty()) s += '.';
    s += p;
  }
  return s;
}

namespace {

constexpr int kMaxSchemaDepth = 48;

struct Raw {
  const SchemaElement* e;
  std::vector<Raw> children;
};

Raw parse_raw(const std::vector<SchemaElement>& els, size_t& i, int depth) {
  if (depth > kMaxSchemaDepth) throw ParquetSchemaError("schema nesting too deep");
  if (i >= els.size()) throw ParquetSchemaError("schema ends inside a group");
  Raw r{&els[i++], {}};
  if (r.e->num_children && *r.e->num_children > 0) {
    int32_t n = *r.e->num_children;
    if (static_cast<size_t>(n) > els.size() - i) throw ParquetSchemaError("schema group has more children than elements");
    r.children.reserve(n);
    for (int32_t c = 0; c < n; ++c) r.children.push_back(parse_raw(els, i, depth + 1));
  } else if (!r.e->type) {
    throw ParquetSchemaError(err_msg("schema group '", r.e->name, "' has no children"));
  }
  return r;
}

bool is_group(const Raw& r) { return !r.children.empty(); }
Repetition rep_of(const Raw& r) { return r.e->repetition.value_or(Repetition::Optional); }

bool has_logical(const SchemaElement& e, LogicalKind k) { return e.logical_type && e.logical_type->kind == k; }
bool has_converted(const SchemaElement& e, ConvertedType c) { return e.converted_type && *e.converted_type == c; }

class Builder {
 public:
  std::vector<LeafColumn> leaves;
  size_t top_level = 0;

  // def/rep are the levels of the parent.
  SchemaNode build(const Raw& r, int16_t def, int16_t rep, std::vector<std::string>& path, int depth) {
    if (depth > kMaxSchemaDepth) throw ParquetSchemaError("schema nesting too deep");
    Repetition rp = rep_of(r);
    path.push_back(r.e->name);
    SchemaNode node;
    if (rp == Repetition::Repeated) {
      // A bare repeated field is a required list of required elements.
      int16_t edef = def + 1, erep = rep + 1;
      SchemaNode elem = build_inner(r, edef, erep, path, depth + 1);
      elem.nullable = false;
      node.kind = SchemaNode::Kind::List;
      node.name = r.e->name;
      node.nullable = false;
      node.def_level = def;
      node.rep_level = rep;
      node.entry_def = edef;
      node.entry_rep = erep;
      node.dtype = DataType::list(elem.dtype);
      node.leaves = elem.leaves;
      node.children.push_back(std::move(elem));
    } else {
      int16_t d = rp == Repetition::Optional ? def + 1 : def;
      node = build_inner(r, d, rep, path, depth + 1);
      node.nullable = rp == Repetition::Optional;
    }
    path.pop_back();
    return node;
  }

 private:
  // The node at levels (def, rep) already counting its own repetition.
  SchemaNode build_inner(const Raw& r, int16_t def, int16_t rep, std::vector<std::string>& path, int depth) {
    const SchemaElement& e = *r.e;
    SchemaNode node;
    node.name = e.name;
    node.def_level = def;
    node.rep_level = rep;
    node.nullable = false;
    if (!is_group(r)) {
      node.kind = SchemaNode::Kind::Primitive;
      node.leaf = static_cast<int>(leaves.size());
      LeafColumn leaf = make_leaf(e);
      leaf.index = leaves.size();
      leaf.path = path;
      leaf.max_def = def;
      leaf.max_rep = rep;
      leaf.top_level = top_level;
      node.dtype = leaf.dtype;
      node.leaves.push_back(node.leaf);
      leaves.push_back(std::move(leaf));
      return node;
    }
    bool is_list = has_logical(e, LogicalKind::List) || has_converted(e, ConvertedType::List);
    bool is_map = has_logical(e, LogicalKind::Map) || has_converted(e, ConvertedType::Map) ||
                  has_converted(e, ConvertedType::MapKeyValue);
    if ((is_list || is_map) && r.children.size() == 1 && rep_of(r.children[0]) == Repetition::Repeated) {
      const Raw& rep_node = r.children[0];
      int16_t edef = def + 1, erep = rep + 1;
      path.push_back(rep_node.e->name);
      SchemaNode elem;
      bool three_level = is_list && is_group(rep_node) && rep_node.children.size() == 1 &&
                         rep_node.e->name != "array" && rep_node.e->name != e.name + "_tuple";
      // A map whose key_value group has no value field is a list of its keys (as pyarrow
      // reads it).
      three_level |= is_map && is_group(rep_node) && rep_node.children.size() == 1;
      if (three_level) {
        elem = build(rep_node.children[0], edef, erep, path, depth + 1);
      } else {
        // Legacy two-level list (the repeated node is the element) or a map's key_value
        // group: the element is required.
        elem = build_inner(rep_node, edef, erep, path, depth + 1);
        elem.nullable = false;
      }
      path.pop_back();
      node.kind = SchemaNode::Kind::List;
      node.entry_def = edef;
      node.entry_rep = erep;
      node.dtype = DataType::list(elem.dtype);
      node.leaves = elem.leaves;
      node.children.push_back(std::move(elem));
      return node;
    }
    node.kind = SchemaNode::Kind::Struct;
    std::vector<Field> fields;
    for (const Raw& c : r.children) {
      SchemaNode child = build(c, def, rep, path, depth + 1);
      fields.push_back(Field{child.name, child.dtype});
      node.leaves.insert(node.leaves.end(), child.leaves.begin(), child.leaves.end());
      node.children.push_back(std::move(child));
    }
    node.dtype = DataType::struct_(std::move(fields));
    return node;
  }

  static LeafColumn make_leaf(const SchemaElement& e) {
    LeafColumn l;
    l.physical = *e.type;
    l.type_length = e.type_length.value_or(0);
    const LogicalType* lt = e.logical_type ? &*e.logical_type : nullptr;
    LogicalKind k = lt ? lt->kind : LogicalKind::None;
    auto ct = e.converted_type;
    auto is_ct = [&](ConvertedType c) { return ct && *ct == c; };
    bool decimal = k == LogicalKind::Decimal || is_ct(ConvertedType::Decimal);
    int precision = k == LogicalKind::Decimal ? lt->precision : e.precision.value_or(0);
    int scale = k == LogicalKind::Decimal ? lt->scale : e.scale.value_or(0);
    auto decimal_dtype = [&] {
      if (precision < 1 || precision > 38 || scale < 0 || scale > precision)
        throw SchemaError(err_msg("column '", e.name, "': unsupported DECIMAL(", precision, ", ", scale, ")"));
      return DataType::decimal(precision, scale);
    };
    if (k == LogicalKind::Unknown) {
      l.dtype = DataType::null();
      l.conversion = Conversion::Null;
      return l;
    }
    switch (l.physical) {
      case PhysicalType::Boolean:
        l.dtype = DataType::boolean();
        l.conversion = Conversion::Boolean;
        return l;
      case PhysicalType::Int32: {
        if (decimal) {
          l.dtype = decimal_dtype();
          l.conversion = Conversion::DecimalInt32;
          return l;
        }
        int bits = 32;
        bool is_signed = true;
        if (k == LogicalKind::Integer) {
          bits = lt->bit_width;
          is_signed = lt->is_signed;
        } else if (ct) {
          switch (*ct) {
            case ConvertedType::Int8: bits = 8; break;
            case ConvertedType::Int16: bits = 16; break;
            case ConvertedType::Uint8: bits = 8; is_signed = false; break;
            case ConvertedType::Uint16: bits = 16; is_signed = false; break;
            case ConvertedType::Uint32: is_signed = false; break;
            default: break;
          }
        }
        if (k == LogicalKind::Date || is_ct(ConvertedType::Date)) {
          l.dtype = DataType::date();
          l.conversion = Conversion::Copy32;
          return l;
        }
        if ((k == LogicalKind::Time && lt->unit == LogicalTimeUnit::Millis) || is_ct(ConvertedType::TimeMillis)) {
          l.dtype = DataType::time();
          l.conversion = Conversion::TimeMillis;
          return l;
        }
        switch (bits) {
          case 8:
            l.dtype = is_signed ? DataType::int8() : DataType::uint8();
            l.conversion = Conversion::Int32To8;
            return l;
          case 16:
            l.dtype = is_signed ? DataType::int16() : DataType::uint16();
            l.conversion = Conversion::Int32To16;
            return l;
          default:
            l.dtype = is_signed ? DataType::int32() : DataType::uint32();
            l.conversion = Conversion::Copy32;
            return l;
        }
      }
      case PhysicalType::Int64: {
        if (decimal) {
          l.dtype = decimal_dtype();
          l.conversion = Conversion::DecimalInt64;
          return l;
        }
        l.conversion = Conversion::Copy64;
        if (k == LogicalKind::Timestamp) {
          TimeUnit u = lt->unit == LogicalTimeUnit::Millis   ? TimeUnit::Milliseconds
                       : lt->unit == LogicalTimeUnit::Micros ? TimeUnit::Microseconds
                                                             : TimeUnit::Nanoseconds;
          l.dtype = DataType::datetime(u, lt->adjusted_to_utc ? std::optional<std::string>("UTC") : std::nullopt);
        } else if (is_ct(ConvertedType::TimestampMillis)) {
          l.dtype = DataType::datetime(TimeUnit::Milliseconds, "UTC");
        } else if (is_ct(ConvertedType::TimestampMicros)) {
          l.dtype = DataType::datetime(TimeUnit::Microseconds, "UTC");
        } else if (k == LogicalKind::Time || is_ct(ConvertedType::TimeMicros)) {
          l.dtype = DataType::time();
          if (k != LogicalKind::Time || lt->unit == LogicalTimeUnit::Micros) l.conversion = Conversion::TimeMicros;
          else if (lt->unit == LogicalTimeUnit::Millis) throw SchemaError(err_msg("column '", e.name, "': TIME(MILLIS) must be INT32"));
        } else if ((k == LogicalKind::Integer && !lt->is_signed) || is_ct(ConvertedType::Uint64)) {
          l.dtype = DataType::uint64();
        } else {
          l.dtype = DataType::int64();
        }
        return l;
      }
      case PhysicalType::Int96:
        l.dtype = DataType::datetime(TimeUnit::Nanoseconds);
        l.conversion = Conversion::Int96;
        return l;
      case PhysicalType::Float:
        l.dtype = DataType::float32();
        l.conversion = Conversion::Copy32;
        return l;
      case PhysicalType::Double:
        l.dtype = DataType::float64();
        l.conversion = Conversion::Copy64;
        return l;
      case PhysicalType::ByteArray:
        if (decimal) {
          l.dtype = decimal_dtype();
          l.conversion = Conversion::DecimalBytes;
          return l;
        }
        l.conversion = Conversion::ByteArray;
        l.dtype = (k == LogicalKind::String || k == LogicalKind::Enum || k == LogicalKind::Json ||
                   is_ct(ConvertedType::Utf8) || is_ct(ConvertedType::Enum) || is_ct(ConvertedType::Json))
                      ? DataType::string()
                      : DataType::binary();
        return l;
      case PhysicalType::FixedLenByteArray:
        if (l.type_length <= 0 || l.type_length > (1 << 24))
          throw ParquetSchemaError(err_msg("column '", e.name, "': invalid FIXED_LEN_BYTE_ARRAY length ", l.type_length));
        if (decimal) {
          if (l.type_length > 16)
            throw SchemaError(err_msg("column '", e.name, "': DECIMAL wider than 16 bytes"));
          l.dtype = decimal_dtype();
          l.conversion = Conversion::DecimalBytes;
          return l;
        }
        if (k == LogicalKind::Float16 && l.type_length == 2) {
          l.dtype = DataType::float16();
          l.conversion = Conversion::Float16;
          return l;
        }
        l.dtype = DataType::binary();
        l.conversion = Conversion::FixedBytes;
        return l;
    }
    throw ParquetSchemaError("unknown physical type");
  }
};

}  // namespace

ParquetSchema::ParquetSchema(const std::vector<SchemaElement>& elements) {
  if (elements.empty()) throw ParquetSchemaError("empty schema");
  size_t i = 0;
  const SchemaElement& root = elements[0];
  if (root.type) throw ParquetSchemaError("schema root is not a group");
  ++i;
  int32_t n = root.num_children.value_or(0);
  if (n < 0 || static_cast<size_t>(n) > elements.size() - 1)
    throw ParquetSchemaError("schema root has more children than elements");
  std::vector<Raw> top;
  for (int32_t c = 0; c < n; ++c) top.push_back(parse_raw(elements, i, 1));
  if (i != elements.size()) throw ParquetSchemaError("schema has elements outside the root group");
  Builder b;
  std::vector<Field> fields;
  for (const Raw& r : top) {
    std::vector<std::string> path;
    SchemaNode node = b.build(r, 0, 0, path, 1);
    fields.push_back(Field{node.name, node.dtype});
    fields_.push_back(std::move(node));
    ++b.top_level;
  }
  leaves_ = std::move(b.leaves);
  schema_ = Schema(std::move(fields));
}

bool ParquetSchema::read_as_wide_integer(size_t field, const DataType& dtype) {
  if (field >= fields_.size() || (dtype.id() != TypeId::Int128 && dtype.id() != TypeId::UInt128)) return false;
  SchemaNode& node = fields_[field];
  if (node.kind != SchemaNode::Kind::Primitive) return false;
  LeafColumn& leaf = leaves_[static_cast<size_t>(node.leaf)];
  if (leaf.conversion != Conversion::FixedBytes || leaf.type_length != 16) return false;
  leaf.dtype = dtype;
  leaf.conversion = Conversion::Int128Bytes;
  node.dtype = dtype;
  std::vector<Field> fields = schema_.fields();
  fields[field].dtype = dtype;
  schema_ = Schema(std::move(fields));
  return true;
}

}  // namespace frazil::io::parquet
