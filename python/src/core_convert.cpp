// Python objects <-> frazil arrays: Polars' dtype inference for lists of Python values,
// building arrays of a given dtype, and reading values back as Python objects.
#include <Python.h>
#include <datetime.h>
#include <nanobind/stl/string.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "core_common.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/calendar.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/half.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil::py {

namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

// ---- classification of Python values ------------------------------------------------

enum class Kind { None, Bool, Int, Float, Str, Bytes, Datetime, Date, Delta, Time, Decimal, List, Dict, Other };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::None: return "None";
    case Kind::Bool: return "Boolean";
    case Kind::Int: return "Int64";
    case Kind::Float: return "Float64";
    case Kind::Str: return "String";
    case Kind::Bytes: return "Binary";
    case Kind::Datetime: return "Datetime";
    case Kind::Date: return "Date";
    case Kind::Delta: return "Duration";
    case Kind::Time: return "Time";
    case Kind::Decimal: return "Decimal";
    case Kind::List: return "List";
    case Kind::Dict: return "Struct";
    case Kind::Other: return "object";
  }
  return "?";
}

PyObject* decimal_type() {
  static PyObject* type = [] {
    nb::object t = nb::module_::import_("decimal").attr("Decimal");
    return t.release().ptr();
  }();
  return type;
}

// A decimal context wide enough for any Decimal(38, s) value (the default one keeps 28
// digits and would round 10**38 - 1).
PyObject* wide_decimal_context() {
  static PyObject* ctx = [] {
    nb::object c = nb::module_::import_("decimal").attr("Context")(nb::arg("prec") = 100);
    return c.release().ptr();
  }();
  return ctx;
}

bool is_numpy_bool(PyObject* o) {
  const char* n = Py_TYPE(o)->tp_name;
  return std::strcmp(n, "numpy.bool") == 0 || std::strcmp(n, "numpy.bool_") == 0;
}

Kind classify(PyObject* o) {
  if (o == Py_None) return Kind::None;
  if (PyBool_Check(o) || is_numpy_bool(o)) return Kind::Bool;
  if (PyLong_Check(o)) return Kind::Int;
  if (PyFloat_Check(o)) return Kind::Float;
  if (PyUnicode_Check(o)) return Kind::Str;
  if (PyBytes_Check(o) || PyByteArray_Check(o) || PyMemoryView_Check(o)) return Kind::Bytes;
  if (PyDateTime_Check(o)) return Kind::Datetime;
  if (PyDate_Check(o)) return Kind::Date;
  if (PyDelta_Check(o)) return Kind::Delta;
  if (PyTime_Check(o)) return Kind::Time;
  if (PyObject_TypeCheck(o, reinterpret_cast<PyTypeObject*>(decimal_type()))) return Kind::Decimal;
  if (PyList_Check(o) || PyTuple_Check(o)) return Kind::List;
  if (PyDict_Check(o)) return Kind::Dict;
  if (PyIndex_Check(o)) return Kind::Int;  // numpy integers
  if (Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float) return Kind::Float;
  return Kind::Other;
}

std::string py_repr(PyObject* o) {
  nb::object r = nb::steal(PyObject_Repr(o));
  if (!r.is_valid()) {
    PyErr_Clear();
    return "<unprintable>";
  }
  return nb::cast<std::string>(r);
}

std::string type_name(PyObject* o) { return Py_TYPE(o)->tp_name; }

[[noreturn]] void unexpected(PyObject* o, const std::string& expected, const std::string& column) {
  throw nb::type_error(err_msg("unexpected value while building column '", column, "' of type ",
                               expected, "; found value of type ", type_name(o), ": ", py_repr(o))
                           .c_str());
}

// Borrowed items of a sequence (a list, tuple, or anything iterable).
struct Items {
  nb::object holder;
  std::vector<PyObject*> items;
};

Items items_of(nb::handle values) {
  Items out;
  out.holder = nb::steal(PySequence_Fast(values.ptr(), "column data must be a sequence"));
  if (!out.holder.is_valid()) throw nb::python_error();
  Py_ssize_t n = PySequence_Fast_GET_SIZE(out.holder.ptr());
  PyObject** p = PySequence_Fast_ITEMS(out.holder.ptr());
  out.items.assign(p, p + n);
  return out;
}

std::vector<PyObject*> sequence_items(PyObject* seq) {  // list or tuple, borrowed
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** p = PySequence_Fast_ITEMS(seq);
  return std::vector<PyObject*>(p, p + n);
}

// The key of a tzinfo as Polars names it: a ZoneInfo's key, else "UTC" (fixed offsets
// are converted to UTC).
std::string tz_name(PyObject* tzinfo) {
  nb::handle tz(tzinfo);
  if (nb::hasattr(tz, "key")) {
    nb::object key = tz.attr("key");
    if (nb::isinstance<nb::str>(key)) return nb::cast<std::string>(key);
  }
  return "UTC";
}

// ---- inference ------------------------------------------------------------------------

class Inferer {
 public:
  explicit Inferer(const std::string& column) : column_(column) {}

  void add(PyObject* o) {
    Kind k = classify(o);
    if (k == Kind::None) return;
    if (k == Kind::Other)
      throw nb::type_error(err_msg("cannot build column '", column_, "' from a value of type ",
                                   type_name(o), ": ", py_repr(o)).c_str());
    merge_kind(k, o);
    switch (k) {
      case Kind::Int: add_int(o); break;
      case Kind::Datetime: add_datetime(o); break;
      case Kind::Decimal: add_decimal(o); break;
      case Kind::List:
        if (!child_) child_ = std::make_unique<Inferer>(column_);
        for (PyObject* e : sequence_items(o)) child_->add(e);
        break;
      case Kind::Dict: add_dict(o); break;
      default: break;
    }
  }

  DataType result() const {
    switch (kind_) {
      case Kind::None: return DataType::null();
      case Kind::Bool: return DataType::boolean();
      case Kind::Int:
        // Past 64 bits, or negatives next to values above Int64: Int128, as Polars.
        if (uint128_ && !negative_) return DataType::uint128();
        if (int128_ || (above_int64_ && negative_)) return DataType::int128();
        if (above_int64_) return DataType::uint64();
        return DataType::int64();
      case Kind::Float: return DataType::float64();
      case Kind::Str: return DataType::string();
      case Kind::Bytes: return DataType::binary();
      case Kind::Datetime: return DataType::datetime(TimeUnit::Microseconds, tz_);
      case Kind::Date: return DataType::date();
      case Kind::Delta: return DataType::duration(TimeUnit::Microseconds);
      case Kind::Time: return DataType::time();
      case Kind::Decimal: return DataType::decimal(38, max_scale_);
      case Kind::List: return DataType::list(child_ ? child_->result() : DataType::null());
      case Kind::Dict: {
        std::vector<Field> fields;
        for (const auto& [name, inf] : fields_) fields.push_back(Field{name, inf->result()});
        return DataType::struct_(std::move(fields));
      }
      case Kind::Other: break;
    }
    return DataType::null();
  }

 private:
  void merge_kind(Kind k, PyObject* o) {
    if (kind_ == Kind::None || kind_ == k) {
      kind_ = k;
      return;
    }
    auto numeric_rank = [](Kind x) { return x == Kind::Bool ? 0 : x == Kind::Int ? 1 : x == Kind::Float ? 2 : -1; };
    int a = numeric_rank(kind_), b = numeric_rank(k);
    if (a >= 0 && b >= 0) {  // bool < int < float, as Python's own numeric tower
      if (b > a) kind_ = k;
      if (kind_ == Kind::Float && above_int64_) above_int64_ = false;
      if (kind_ == Kind::Float) int128_ = false;
      return;
    }
    unexpected(o, result().to_string(), column_);
  }

  void add_int(PyObject* o) {
    nb::object idx = nb::steal(PyNumber_Index(o));
    if (!idx.is_valid()) throw nb::python_error();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
    if (overflow == 0) {
      if (v < 0) negative_ = true;
    } else {
      unsigned long long u = overflow > 0 ? PyLong_AsUnsignedLongLong(idx.ptr()) : 0;
      if (overflow < 0 || PyErr_Occurred()) {
        PyErr_Clear();
        if (kind_ == Kind::Float) return;
        unsigned char bytes[16];
        if (_PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(idx.ptr()), bytes, 16, 1, 1) < 0) {
          PyErr_Clear();
          // Past Int128 but within UInt128 (and no negatives): UInt128, as Polars.
          if (overflow < 0 || negative_ ||
              _PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(idx.ptr()), bytes, 16, 1, 0) < 0) {
            PyErr_Clear();
            throw nb::type_error(err_msg("integer ", py_repr(o), " in column '", column_,
                                         "' does not fit in 128 bits").c_str());
          }
          uint128_ = true;
          return;
        }
        int128_ = true;
        if (overflow < 0) negative_ = true;
        return;
      }
      (void)u;
      above_int64_ = true;
    }
  }

  void add_datetime(PyObject* o) {
    PyObject* tz = PyDateTime_DATE_GET_TZINFO(o);
    std::optional<std::string> name;
    if (tz != Py_None) name = tz_name(tz);
    if (!seen_datetime_) {
      seen_datetime_ = true;
      tz_ = name;
    } else if (tz_.has_value() != name.has_value()) {
      throw nb::type_error(err_msg("column '", column_, "' mixes time-zone-aware and naive datetimes").c_str());
    }
  }

  void add_decimal(PyObject* o) {
    nb::object t = nb::steal(PyObject_CallMethod(o, "as_tuple", nullptr));
    if (!t.is_valid()) throw nb::python_error();
    nb::object exp = t.attr("exponent");
    if (!nb::isinstance<nb::int_>(exp))
      throw nb::type_error(err_msg("column '", column_, "' holds a non-finite Decimal: ", py_repr(o)).c_str());
    int e = nb::cast<int>(exp);
    if (e < 0) max_scale_ = std::max(max_scale_, -e);
    if (max_scale_ > 38)
      throw nb::type_error(err_msg("Decimal scale above 38 in column '", column_, "'").c_str());
  }

  void add_dict(PyObject* o) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &value)) {
      if (!PyUnicode_Check(key))
        throw nb::type_error(err_msg("struct field names must be strings in column '", column_, "'").c_str());
      std::string name = nb::cast<std::string>(nb::handle(key));
      Inferer* f = nullptr;
      for (auto& [n, inf] : fields_)
        if (n == name) f = inf.get();
      if (!f) {
        fields_.emplace_back(name, std::make_unique<Inferer>(column_));
        f = fields_.back().second.get();
      }
      f->add(value);
    }
  }

  const std::string& column_;
  Kind kind_ = Kind::None;
  bool negative_ = false, above_int64_ = false, int128_ = false, uint128_ = false;
  bool seen_datetime_ = false;
  std::optional<std::string> tz_;
  int max_scale_ = 0;
  std::unique_ptr<Inferer> child_;
  std::vector<std::pair<std::string, std::unique_ptr<Inferer>>> fields_;
};

// ---- building arrays -------------------------------------------------------------------

int64_t to_int64(PyObject* o, const std::string& expected, const std::string& column) {
  Kind k = classify(o);
  if (k == Kind::Bool) return PyObject_IsTrue(o);
  if (k != Kind::Int) unexpected(o, expected, column);
  nb::object idx = nb::steal(PyNumber_Index(o));
  if (!idx.is_valid()) throw nb::python_error();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
  if (overflow)
    throw nb::type_error(err_msg("integer ", py_repr(o), " is out of range for ", expected, " in column '", column, "'").c_str());
  return v;
}

uint64_t to_uint64(PyObject* o, const std::string& expected, const std::string& column) {
  Kind k = classify(o);
  if (k == Kind::Bool) return PyObject_IsTrue(o);
  if (k != Kind::Int) unexpected(o, expected, column);
  nb::object idx = nb::steal(PyNumber_Index(o));
  if (!idx.is_valid()) throw nb::python_error();
  unsigned long long v = PyLong_AsUnsignedLongLong(idx.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw nb::type_error(err_msg("integer ", py_repr(o), " is out of range for ", expected, " in column '", column, "'").c_str());
  }
  return v;
}

double to_double(PyObject* o, const std::string& expected, const std::string& column) {
  Kind k = classify(o);
  if (k != Kind::Bool && k != Kind::Int && k != Kind::Float) unexpected(o, expected, column);
  double d = PyFloat_AsDouble(o);
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return d;
}

std::string_view to_bytes(PyObject* o, Py_buffer* view, const std::string& expected, const std::string& column) {
  if (PyBytes_Check(o)) return {PyBytes_AS_STRING(o), static_cast<size_t>(PyBytes_GET_SIZE(o))};
  if (PyByteArray_Check(o)) return {PyByteArray_AS_STRING(o), static_cast<size_t>(PyByteArray_GET_SIZE(o))};
  if (PyMemoryView_Check(o)) {
    if (PyObject_GetBuffer(o, view, PyBUF_CONTIG_RO) != 0) throw nb::python_error();
    return {static_cast<const char*>(view->buf), static_cast<size_t>(view->len)};
  }
  unexpected(o, expected, column);
}

int64_t micros_of_delta(PyObject* o) {
  return PyDateTime_DELTA_GET_DAYS(o) * kMicrosPerDay +
         PyDateTime_DELTA_GET_SECONDS(o) * 1000000LL + PyDateTime_DELTA_GET_MICROSECONDS(o);
}

int64_t from_micros(int64_t us, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Nanoseconds: return us * 1000;
    case TimeUnit::Microseconds: return us;
    case TimeUnit::Milliseconds: return floor_div(us, 1000);
  }
  return us;
}

int64_t datetime_value(PyObject* o, const DataType& t, const std::string& column) {
  if (PyDate_Check(o) && !PyDateTime_Check(o)) {
    // A date is its midnight, UTC in a zoned column as a naive datetime is (Polars).
    const int64_t days = days_from_civil(PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o));
    return from_micros(days * kMicrosPerDay, t.time_unit());
  }
  if (!PyDateTime_Check(o)) unexpected(o, t.to_string(), column);
  int64_t days = days_from_civil(PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o));
  int64_t us = days * kMicrosPerDay + PyDateTime_DATE_GET_HOUR(o) * 3600000000LL +
               PyDateTime_DATE_GET_MINUTE(o) * 60000000LL + PyDateTime_DATE_GET_SECOND(o) * 1000000LL +
               PyDateTime_DATE_GET_MICROSECOND(o);
  if (PyDateTime_DATE_GET_TZINFO(o) != Py_None) {
    nb::object off = nb::steal(PyObject_CallMethod(o, "utcoffset", nullptr));
    if (!off.is_valid()) throw nb::python_error();
    if (off.ptr() != Py_None) us -= micros_of_delta(off.ptr());
  }
  return from_micros(us, t.time_unit());
}

int128_t decimal_value(PyObject* o, const DataType& t, const std::string& column) {
  Kind k = classify(o);
  nb::object scaled;
  if (k == Kind::Int || k == Kind::Bool) {
    nb::object factor = nb::steal(PyNumber_Power(nb::int_(10).ptr(), nb::int_(t.scale()).ptr(), Py_None));
    scaled = nb::steal(PyNumber_Multiply(o, factor.ptr()));
  } else if (k == Kind::Decimal || k == Kind::Float) {
    // A float goes through its shortest repr (0.1 -> Decimal("0.1")), as Polars reads it.
    nb::object d = nb::borrow(o);
    if (k == Kind::Float) {
      const double f = PyFloat_AsDouble(o);
      if (!std::isfinite(f))
        throw nb::type_error(err_msg("column '", column, "' holds a non-finite value for ", t.to_string(), ": ",
                                     py_repr(o)).c_str());
      nb::object text = nb::steal(PyObject_Repr(o));
      d = nb::steal(PyObject_CallFunctionObjArgs(decimal_type(), text.ptr(), nullptr));
      if (!d.is_valid()) throw nb::python_error();
    }
    nb::object s = nb::steal(PyObject_CallMethod(d.ptr(), "scaleb", "iO", t.scale(), wide_decimal_context()));
    if (!s.is_valid()) throw nb::python_error();
    nb::object integral = nb::steal(PyObject_CallMethod(s.ptr(), "to_integral_value", "OO", Py_None, wide_decimal_context()));
    if (!integral.is_valid()) throw nb::python_error();
    scaled = nb::steal(PyNumber_Long(integral.ptr()));
  } else {
    unexpected(o, t.to_string(), column);
  }
  if (!scaled.is_valid()) throw nb::python_error();
  nb::object limit = nb::steal(PyNumber_Power(nb::int_(10).ptr(), nb::int_(t.precision()).ptr(), Py_None));
  nb::object mag = nb::steal(PyNumber_Absolute(scaled.ptr()));
  if (PyObject_RichCompareBool(mag.ptr(), limit.ptr(), Py_GE) == 1)
    throw nb::type_error(err_msg("Decimal ", py_repr(o), " does not fit in ", t.to_string(), " in column '", column, "'").c_str());
  // Split into two 64-bit halves (the value fits in 127 bits since precision <= 38).
  nb::object mask = nb::steal(PyLong_FromUnsignedLongLong(~0ULL));
  nb::object lo = nb::steal(PyNumber_And(scaled.ptr(), mask.ptr()));
  nb::object hi = nb::steal(PyNumber_Rshift(scaled.ptr(), nb::int_(64).ptr()));
  uint64_t l = PyLong_AsUnsignedLongLong(lo.ptr());
  int64_t h = PyLong_AsLongLong(hi.ptr());
  return static_cast<int128_t>((static_cast<unsigned __int128>(static_cast<uint64_t>(h)) << 64) | l);
}

template <typename T, typename F>
ArrayRef build_primitive(const std::vector<PyObject*>& values, const DataType& t, F convert) {
  PrimitiveBuilder<T> b(t, static_cast<int64_t>(values.size()));
  for (PyObject* o : values) {
    if (o == Py_None) b.push_null();
    else b.push(convert(o));
  }
  return b.finish();
}

template <typename T>
ArrayRef build_int(const std::vector<PyObject*>& values, const DataType& t, const std::string& column) {
  const std::string name = t.to_string();
  return build_primitive<T>(values, t, [&](PyObject* o) -> T {
    if constexpr (std::is_unsigned_v<T>) {
      uint64_t v = to_uint64(o, name, column);
      if (v > std::numeric_limits<T>::max())
        throw nb::type_error(err_msg("integer ", v, " is out of range for ", name, " in column '", column, "'").c_str());
      return static_cast<T>(v);
    } else {
      int64_t v = to_int64(o, name, column);
      if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
        throw nb::type_error(err_msg("integer ", v, " is out of range for ", name, " in column '", column, "'").c_str());
      return static_cast<T>(v);
    }
  });
}

ArrayRef build(const std::vector<PyObject*>& values, const DataType& t, const std::string& column);

// Int128/UInt128 from Python ints: the 16 little-endian bytes of the value (range checked).
ArrayRef build_int128(const std::vector<PyObject*>& values, const DataType& t, const std::string& column) {
  const std::string name = t.to_string();
  const bool is_signed = t.id() == TypeId::Int128;
  return build_primitive<int128_t>(values, t, [&](PyObject* o) -> int128_t {
    Kind k = classify(o);
    if (k == Kind::Bool) return PyObject_IsTrue(o);
    if (k != Kind::Int) unexpected(o, name, column);
    nb::object idx = nb::steal(PyNumber_Index(o));
    if (!idx.is_valid()) throw nb::python_error();
    unsigned char bytes[16];
    if (_PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(idx.ptr()), bytes, 16, 1, is_signed) < 0) {
      PyErr_Clear();
      throw nb::type_error(err_msg("integer ", py_repr(o), " is out of range for ", name, " in column '", column, "'").c_str());
    }
    int128_t v;
    std::memcpy(&v, bytes, 16);
    return v;
  });
}

ArrayRef build_list(const std::vector<PyObject*>& values, const DataType& t, const std::string& column) {
  const int64_t n = static_cast<int64_t>(values.size());
  Buffer offsets = Buffer::allocate((n + 1) * sizeof(int64_t));
  int64_t* o = offsets.mutable_as<int64_t>();
  ValidityBuilder validity;
  std::vector<PyObject*> flat;
  o[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    PyObject* v = values[i];
    if (v == Py_None) {
      validity.push(false);
    } else if (PyList_Check(v) || PyTuple_Check(v)) {
      validity.push(true);
      for (PyObject* e : sequence_items(v)) flat.push_back(e);
    } else {
      unexpected(v, t.to_string(), column);
    }
    o[i + 1] = static_cast<int64_t>(flat.size());
  }
  ArrayRef child = build(flat, t.inner(), column);
  int64_t nc = validity.null_count();
  return Array::make(t, n, validity.finish(), {offsets}, {child}, 0, nc);
}

ArrayRef build_struct(const std::vector<PyObject*>& values, const DataType& t, const std::string& column) {
  const int64_t n = static_cast<int64_t>(values.size());
  ValidityBuilder validity;
  for (PyObject* v : values) {
    if (v != Py_None && !PyDict_Check(v)) unexpected(v, t.to_string(), column);
    validity.push(v != Py_None);
  }
  std::vector<ArrayRef> children;
  for (const auto& f : t.fields()) {
    std::vector<PyObject*> field_values;
    field_values.reserve(n);
    nb::str key(f.name.c_str(), f.name.size());
    for (PyObject* v : values) {
      PyObject* item = v == Py_None ? nullptr : PyDict_GetItemWithError(v, key.ptr());
      if (!item && PyErr_Occurred()) throw nb::python_error();
      field_values.push_back(item ? item : Py_None);
    }
    children.push_back(build(field_values, f.dtype, column));
  }
  int64_t nc = validity.null_count();
  return Array::make(t, n, validity.finish(), {}, std::move(children), 0, nc);
}

// Polars builds a temporal column from integers alone as its physical values (days, units
// since the epoch or midnight); integers mixed with dates or times are refused.
bool all_integers(const std::vector<PyObject*>& values) {
  bool any = false;
  for (PyObject* o : values) {
    if (o == Py_None) continue;
    const Kind k = classify(o);
    if (k != Kind::Int && k != Kind::Bool) return false;
    any = true;
  }
  return any;
}

ArrayRef build(const std::vector<PyObject*>& values, const DataType& t, const std::string& column) {
  const std::string name = t.to_string();
  if (t.is_temporal() && all_integers(values)) {
    if (t.id() == TypeId::Date) return build_int<int32_t>(values, t, column);
    return build_int<int64_t>(values, t, column);
  }
  switch (t.id()) {
    case TypeId::Null:
      for (PyObject* o : values)
        if (o != Py_None) unexpected(o, name, column);
      return make_null_array(t, static_cast<int64_t>(values.size()));
    case TypeId::Boolean: {
      BooleanBuilder b(static_cast<int64_t>(values.size()));
      for (PyObject* o : values) {
        if (o == Py_None) b.push_null();
        else if (classify(o) == Kind::Bool) b.push(PyObject_IsTrue(o) == 1);
        else unexpected(o, name, column);
      }
      return b.finish();
    }
    case TypeId::Int8: return build_int<int8_t>(values, t, column);
    case TypeId::Int16: return build_int<int16_t>(values, t, column);
    case TypeId::Int32: return build_int<int32_t>(values, t, column);
    case TypeId::Int64: return build_int<int64_t>(values, t, column);
    case TypeId::UInt8: return build_int<uint8_t>(values, t, column);
    case TypeId::UInt16: return build_int<uint16_t>(values, t, column);
    case TypeId::UInt32: return build_int<uint32_t>(values, t, column);
    case TypeId::UInt64: return build_int<uint64_t>(values, t, column);
    case TypeId::Float32:
      return build_primitive<float>(values, t, [&](PyObject* o) { return static_cast<float>(to_double(o, name, column)); });
    case TypeId::Float64:
      return build_primitive<double>(values, t, [&](PyObject* o) { return to_double(o, name, column); });
    case TypeId::String: {
      ViewBuilder b(t, static_cast<int64_t>(values.size()));
      for (PyObject* o : values) {
        if (o == Py_None) {
          b.push_null();
          continue;
        }
        if (!PyUnicode_Check(o)) unexpected(o, name, column);
        Py_ssize_t len;
        const char* s = PyUnicode_AsUTF8AndSize(o, &len);
        if (!s) throw nb::python_error();
        b.push(std::string_view(s, static_cast<size_t>(len)));
      }
      return b.finish();
    }
    case TypeId::Binary: {
      ViewBuilder b(t, static_cast<int64_t>(values.size()));
      for (PyObject* o : values) {
        if (o == Py_None) {
          b.push_null();
          continue;
        }
        Py_buffer view{};
        std::string_view bytes = to_bytes(o, &view, name, column);
        b.push(bytes);
        if (view.obj) PyBuffer_Release(&view);
      }
      return b.finish();
    }
    case TypeId::Date:
      return build_primitive<int32_t>(values, t, [&](PyObject* o) {
        if (!PyDate_Check(o) || PyDateTime_Check(o)) unexpected(o, name, column);
        return static_cast<int32_t>(days_from_civil(PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o)));
      });
    case TypeId::Datetime:
      return build_primitive<int64_t>(values, t, [&](PyObject* o) { return datetime_value(o, t, column); });
    case TypeId::Duration:
      return build_primitive<int64_t>(values, t, [&](PyObject* o) {
        if (!PyDelta_Check(o)) unexpected(o, name, column);
        return from_micros(micros_of_delta(o), t.time_unit());
      });
    case TypeId::Time:
      return build_primitive<int64_t>(values, t, [&](PyObject* o) {
        if (!PyTime_Check(o)) unexpected(o, name, column);
        int64_t us = PyDateTime_TIME_GET_HOUR(o) * 3600000000LL + PyDateTime_TIME_GET_MINUTE(o) * 60000000LL +
                     PyDateTime_TIME_GET_SECOND(o) * 1000000LL + PyDateTime_TIME_GET_MICROSECOND(o);
        return us * 1000;
      });
    case TypeId::Decimal:
      return build_primitive<int128_t>(values, t, [&](PyObject* o) { return decimal_value(o, t, column); });
    case TypeId::List: return build_list(values, t, column);
    case TypeId::Array: {
      ArrayRef lists = build_list(values, DataType::list(t.inner()), column);
      const int64_t* o = lists->list_offsets();
      for (int64_t i = 0; i < lists->length(); ++i)
        if (lists->is_valid(i) && o[i + 1] - o[i] != t.width())
          throw ComputeError(err_msg("not all elements have the specified width ", t.width(), " (column '", column,
                                     "', row ", i, " holds ", o[i + 1] - o[i], ")"));
      return lists->with_dtype(t);
    }
    case TypeId::Struct: return build_struct(values, t, column);
    case TypeId::Int128:
    case TypeId::UInt128: return build_int128(values, t, column);
    case TypeId::Float16:
      return compute::cast(*build(values, DataType::float32(), column), t, true, column);
    case TypeId::Categorical:
    case TypeId::Enum:
      // Through the strings: an Enum rejects a value that is not a category (Polars' error).
      return compute::cast(*build(values, DataType::string(), column), t, true, column);
  }
  FRAZIL_CHECK(false);
  return nullptr;
}

// ---- reading values back ---------------------------------------------------------------

PyObject* tz_object(const std::string& tz) {
  nb::object f = nb::module_::import_("frazil._convert").attr("tzinfo_for");
  return f(tz).release().ptr();
}

struct ToPy {
  nb::object tz;  // tzinfo of a Datetime column with a time zone

  PyObject* value(const Array& a, int64_t i) {
    if (!a.is_valid(i)) Py_RETURN_NONE;
    const DataType& t = a.dtype();
    switch (t.id()) {
      case TypeId::Null: Py_RETURN_NONE;
      case TypeId::Boolean: return PyBool_FromLong(a.bool_value(i));
      case TypeId::Int8: return PyLong_FromLong(a.values<int8_t>()[i]);
      case TypeId::Int16: return PyLong_FromLong(a.values<int16_t>()[i]);
      case TypeId::Int32: return PyLong_FromLong(a.values<int32_t>()[i]);
      case TypeId::Int64: return PyLong_FromLongLong(a.values<int64_t>()[i]);
      case TypeId::UInt8: return PyLong_FromUnsignedLong(a.values<uint8_t>()[i]);
      case TypeId::UInt16: return PyLong_FromUnsignedLong(a.values<uint16_t>()[i]);
      case TypeId::UInt32: return PyLong_FromUnsignedLong(a.values<uint32_t>()[i]);
      case TypeId::UInt64: return PyLong_FromUnsignedLongLong(a.values<uint64_t>()[i]);
      case TypeId::Float32: return PyFloat_FromDouble(a.values<float>()[i]);
      case TypeId::Float64: return PyFloat_FromDouble(a.values<double>()[i]);
      case TypeId::String: {
        std::string_view s = a.str_value(i);
        return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
      }
      case TypeId::Binary: {
        std::string_view s = a.str_value(i);
        return PyBytes_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
      }
      case TypeId::Date: {
        CivilDate d = civil_from_days(a.values<int32_t>()[i]);
        return PyDate_FromDate(static_cast<int>(d.year), d.month, d.day);
      }
      case TypeId::Datetime: return datetime(a.values<int64_t>()[i], t);
      case TypeId::Duration: {
        // Nanoseconds are truncated toward zero, as Polars does for durations.
        int64_t v = a.values<int64_t>()[i];
        int64_t us = t.time_unit() == TimeUnit::Nanoseconds ? v / 1000 : to_micros(v, t.time_unit());
        int64_t days = floor_div(us, kMicrosPerDay), rem = us - days * kMicrosPerDay;
        return PyDelta_FromDSU(static_cast<int>(days), static_cast<int>(rem / 1000000), static_cast<int>(rem % 1000000));
      }
      case TypeId::Time: {
        int64_t us = a.values<int64_t>()[i] / 1000;
        return PyTime_FromTime(static_cast<int>(us / 3600000000LL), static_cast<int>(us / 60000000LL % 60),
                               static_cast<int>(us / 1000000 % 60), static_cast<int>(us % 1000000));
      }
      case TypeId::Int128:
      case TypeId::UInt128: {
        const uint8_t* p = a.buffer(0).data() + (a.offset() + i) * 16;
        return _PyLong_FromByteArray(p, 16, 1, t.id() == TypeId::Int128);
      }
      case TypeId::Float16: return PyFloat_FromDouble(half_to_float(a.values<uint16_t>()[i]));
      case TypeId::Categorical:
      case TypeId::Enum: {
        std::string s = t.categories().get(a.values<uint32_t>()[i]);
        return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
      }
      case TypeId::Decimal: {
        std::string s = array_get(a, i).to_string();
        return PyObject_CallFunction(decimal_type(), "s", s.c_str());
      }
      case TypeId::Array:
      case TypeId::List: {
        const int64_t* o = a.list_offsets();
        return list(*a.child(0), o[i], o[i + 1] - o[i]);
      }
      case TypeId::Struct: {
        nb::dict d;
        for (size_t f = 0; f < a.children().size(); ++f) {
          ToPy sub;
          nb::object v = nb::steal(sub.value(*a.child(f), a.offset() + i));
          if (!v.is_valid()) throw nb::python_error();
          d[t.fields()[f].name.c_str()] = v;
        }
        return d.release().ptr();
      }
    }
    Py_RETURN_NONE;
  }

  static int64_t to_micros(int64_t v, TimeUnit unit) {
    switch (unit) {
      case TimeUnit::Nanoseconds: return floor_div(v, 1000);
      case TimeUnit::Microseconds: return v;
      case TimeUnit::Milliseconds: return v * 1000;
    }
    return v;
  }

  PyObject* datetime(int64_t v, const DataType& t) {
    int64_t us = to_micros(v, t.time_unit());
    int64_t days = floor_div(us, kMicrosPerDay), rem = us - days * kMicrosPerDay;
    CivilDate d = civil_from_days(days);
    int h = static_cast<int>(rem / 3600000000LL), mi = static_cast<int>(rem / 60000000LL % 60),
        s = static_cast<int>(rem / 1000000 % 60), u = static_cast<int>(rem % 1000000);
    if (!t.time_zone())
      return PyDateTime_FromDateAndTime(static_cast<int>(d.year), d.month, d.day, h, mi, s, u);
    if (!tz.is_valid()) tz = nb::steal(tz_object(*t.time_zone()));
    nb::object utc = nb::steal(PyDateTimeAPI->DateTime_FromDateAndTime(
        static_cast<int>(d.year), d.month, d.day, h, mi, s, u, PyDateTime_TimeZone_UTC,
        PyDateTimeAPI->DateTimeType));
    if (!utc.is_valid()) return nullptr;
    return PyObject_CallMethod(utc.ptr(), "astimezone", "O", tz.ptr());
  }

  PyObject* list(const Array& a, int64_t start, int64_t len) {
    PyObject* out = PyList_New(len);
    if (!out) return nullptr;
    ToPy sub;
    for (int64_t i = 0; i < len; ++i) {
      PyObject* v = sub.value(a, start + i);
      if (!v) {
        Py_DECREF(out);
        return nullptr;
      }
      PyList_SET_ITEM(out, i, v);
    }
    return out;
  }
};

}  // namespace

DataType infer_dtype(nb::handle values, const std::string& column) {
  Items items = items_of(values);
  Inferer inf(column);
  for (PyObject* o : items.items) inf.add(o);
  return inf.result();
}

ArrayRef array_from_py(nb::handle values, const DataType& dtype, const std::string& column) {
  Items items = items_of(values);
  return build(items.items, dtype, column);
}

nb::list column_to_py(const Column& column) {
  nb::list out = nb::steal<nb::list>(PyList_New(column.length()));
  int64_t pos = 0;
  ToPy conv;
  for (const auto& chunk : column.chunks()) {
    for (int64_t i = 0; i < chunk->length(); ++i) {
      PyObject* v = conv.value(*chunk, i);
      if (!v) throw nb::python_error();
      PyList_SET_ITEM(out.ptr(), pos++, v);
    }
  }
  return out;
}

nb::object scalar_to_py(const Scalar& value) {
  ArrayRef a = scalar_to_array(value, 1);
  ToPy conv;
  PyObject* v = conv.value(*a, 0);
  if (!v) throw nb::python_error();
  return nb::steal(v);
}

void register_convert(nb::module_& m) {
  PyDateTime_IMPORT;
  if (!PyDateTimeAPI) throw nb::python_error();
  m.def("infer_dtype", [](nb::handle values, const std::string& name) { return dtype_to_py(infer_dtype(values, name)); });
}

}  // namespace frazil::py
