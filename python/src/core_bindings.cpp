// The native DataFrame and Column classes and the error translation. Each method is a
// one-line delegation to the C++ API; frazil/dataframe.py and series.py wrap them.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "core_common.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"
#include "frazil/core/os_error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/version.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/utf8.hpp"
#include "frazil/core/env.hpp"
#include "frazil/core/file_not_found.hpp"

namespace frazil::py {

bool raise_kept_udf_error(const char* message);  // udf_bindings.cpp

namespace {

const char* exception_name(ErrorKind kind) {
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
    case ErrorKind::Cancelled: return "QueryCancelledError";
    case ErrorKind::SQLInterface: return "SQLInterfaceError";
    case ErrorKind::SQLSyntax: return "SQLSyntaxError";
    case ErrorKind::IO:
    case ErrorKind::OutOfMemory:
    case ErrorKind::Internal: break;
  }
  return "PanicException";
}

// Raises `cls` (a frazil.exceptions class name, or a builtin) with `what` made valid UTF-8:
// a message quoting file contents may hold any bytes, and PyErr_SetString would turn them
// into a UnicodeDecodeError that loses the class.
void raise_python(PyObject* builtin, const char* frazil_class, const char* what) {
  const std::string text = utf8_escape_invalid(what);
  if (builtin) return PyErr_SetString(builtin, text.c_str());
  PyObject* mod = PyImport_ImportModule("frazil.exceptions");
  PyObject* cls = mod ? PyObject_GetAttrString(mod, frazil_class) : nullptr;
  Py_XDECREF(mod);
  if (!cls) {
    PyErr_Clear();
    return PyErr_SetString(PyExc_RuntimeError, text.c_str());
  }
  PyErr_SetString(cls, text.c_str());
  Py_DECREF(cls);
}

// frazil::Error -> the exception class of the same name in frazil.exceptions (IO errors are
// OSError, memory errors MemoryError, as in Polars); any other C++ exception reaching Python
// is a frazil bug, raised as PanicException (Polars' class for its own bugs).
void translate_error(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const OsError& e) {
    // OSError(errno, message) is constructed as its subclass: FileNotFoundError,
    // PermissionError, IsADirectoryError, ...
    PyObject* msg = PyUnicode_DecodeUTF8(e.what(), static_cast<Py_ssize_t>(std::strlen(e.what())), "backslashreplace");
    if (!msg) return;
    // The subclass for the errno (OSError(errno, ...) picks it), raised with the message
    // alone as its text, as Polars raises it, and errno set (with strerror set too, Python
    // would print "[Errno N] reason" instead of the message).
    PyObject* probe = PyObject_CallFunction(PyExc_OSError, "is", e.code(), "");
    if (!probe) {
      Py_DECREF(msg);
      return;
    }
    PyObject* cls = reinterpret_cast<PyObject*>(Py_TYPE(probe));
    Py_INCREF(cls);
    Py_DECREF(probe);
    PyObject* exc = PyObject_CallFunctionObjArgs(cls, msg, nullptr);
    Py_DECREF(msg);
    if (exc) {
      PyObject* code = PyLong_FromLong(e.code());
      if (code) PyObject_SetAttrString(exc, "errno", code);
      Py_XDECREF(code);
      PyErr_SetObject(cls, exc);
      Py_DECREF(exc);
    }
    Py_DECREF(cls);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Compute && raise_kept_udf_error(e.what())) return;
    if (dynamic_cast<const FileNotFoundError*>(&e)) return raise_python(PyExc_FileNotFoundError, nullptr, e.what());
    if (e.kind() == ErrorKind::IO) return raise_python(PyExc_OSError, nullptr, e.what());
    if (e.kind() == ErrorKind::OutOfMemory) return raise_python(PyExc_MemoryError, nullptr, e.what());
    raise_python(nullptr, exception_name(e.kind()), e.what());
  } catch (const std::bad_alloc&) {
    raise_python(PyExc_MemoryError, nullptr, "out of memory (std::bad_alloc)");
  } catch (const std::exception& e) {
    raise_python(nullptr, "PanicException", err_msg("internal error (a frazil bug): ", e.what()).c_str());
  }
}

Column column_from_values(const std::string& name, nb::handle values, nb::handle dtype) {
  DataType t = dtype.is_none() ? infer_dtype(values, name) : dtype_from_py(dtype);
  return Column(name, array_from_py(values, t, name));
}

nb::list frame_schema(const DataFrame& df) {
  nb::list out;
  for (const auto& c : df.columns()) out.append(nb::make_tuple(c.name(), dtype_to_py(c.dtype())));
  return out;
}

// Display strings of rows [start, start + n) of a column (Polars' cell formatting), strings
// cut after `max_chars` characters (Polars' fmt_str_lengths, 30 by default).
std::vector<std::string> format_values(const Column& c, int64_t start, int64_t n, size_t max_chars) {
  std::vector<std::string> out;
  for (int64_t i = start; i < start + n; ++i) {
    Scalar v = c.get(i);
    if (!(v.dtype().is_string() || v.dtype().is_categorical()) || v.is_null()) {
      out.push_back(v.to_string());
      continue;
    }
    const std::string& s = v.as_string();
    size_t chars = 0, cut = s.size();
    for (size_t b = 0; b < s.size(); ++b) {
      if ((static_cast<unsigned char>(s[b]) & 0xC0) == 0x80) continue;
      if (chars++ == max_chars) {
        cut = b;
        break;
      }
    }
    out.push_back(cut < s.size() ? "\"" + s.substr(0, cut) + "…" : "\"" + s + "\"");
  }
  return out;
}

// The address of one buffer of one chunk, to check zero-copy exchange in tests.
uintptr_t buffer_address(const Column& c, size_t chunk, size_t buffer) {
  auto chunks = c.chunks();
  if (chunk >= chunks.size() || buffer >= chunks[chunk]->buffers().size())
    throw OutOfBoundsError(err_msg("no buffer ", buffer, " in chunk ", chunk, " of column '", c.name(), "'"));
  const Array& a = *chunks[chunk];
  return reinterpret_cast<uintptr_t>(a.buffer(buffer).data()) +
         (buffer == 0 && a.dtype().is_fixed_width() ? a.offset() * a.dtype().byte_width() : 0);
}

}  // namespace

}  // namespace frazil::py

using namespace frazil;
using namespace frazil::py;

namespace {

// Shown positions of n items when at most `max` are shown: the first half, -1 for the
// ellipsis, the last half (as the engine's own table, DataFrame::to_string).
std::vector<int64_t> shown_positions(int64_t n, int64_t max) {
  std::vector<int64_t> out;
  if (n <= max) {
    for (int64_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  for (int64_t i = 0; i < (max + 1) / 2; ++i) out.push_back(i);
  out.push_back(-1);
  for (int64_t i = n - max / 2; i < n; ++i) out.push_back(i);
  return out;
}

// The first max_width code points of `s` and "…" when it is longer.
std::string cut_cell(const std::string& s, int64_t max_width) {
  int64_t cells = 0;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = s[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    if (cells == max_width) return s.substr(0, i) + "…";
    ++cells;
    i += len;
  }
  return s;
}

// The cells of a frame's table, one vector per shown column: name, "---", dtype, values
// ("…" for elided rows, a column of "…" for elided columns), for frazil/frame_table.py,
// which lays them out with pl.Config's table options.
std::vector<std::vector<std::string>> display_cells(const DataFrame& df, int64_t max_rows, int64_t max_cols,
                                                    int64_t max_width) {
  std::vector<int64_t> rows = shown_positions(df.height(), max_rows);
  std::vector<std::vector<std::string>> out;
  for (int64_t c : shown_positions(static_cast<int64_t>(df.width()), max_cols)) {
    std::vector<std::string> col;
    if (c < 0) {
      col = {"…", "", ""};
      col.resize(3 + rows.size(), "…");
    } else {
      const Column& column = df.column(static_cast<size_t>(c));
      col = {cut_cell(column.name(), max_width), "---", column.dtype().short_name()};
      for (int64_t r : rows) col.push_back(r < 0 ? "…" : cut_cell(column.get(r).to_string(), max_width));
    }
    out.push_back(std::move(col));
  }
  return out;
}

}  // namespace

void register_core(nb::module_& m) {
  nb::register_exception_translator(translate_error);
  m.def("version", []() { return std::string(frazil::version()); });
  m.def("set_memory_limit", [](int64_t bytes) { set_memory_limit(bytes); });
  m.def("memory_limit", []() { return memory_limit(); });
  m.def("memory_in_use", []() { return memory_in_use(); });
  m.def("parse_memory_size", [](const std::string& text) { return parse_memory_size(text); });
  m.def("thread_pool_size", []() { return thread_pool_size(); });
  m.def("check_environment", &check_environment);
  m.def("set_leak_warnings", [](bool on) { nb::set_leak_warnings(on); });

  nb::class_<Column>(m, "PyColumn")
      .def_static("from_values", &column_from_values, nb::arg("name"), nb::arg("values"),
                  nb::arg("dtype").none() = nb::none())
      .def_prop_ro("name", &Column::name)
      .def_prop_ro("dtype", [](const Column& c) { return dtype_to_py(c.dtype()); })
      .def_prop_ro("dtype_short_name", [](const Column& c) { return c.dtype().short_name(); })
      .def("__len__", &Column::length)
      .def("null_count", &Column::null_count)
      .def("n_chunks", &Column::num_chunks)
      .def("chunk_lengths", [](const Column& c) {
        std::vector<int64_t> out;
        if (c.is_scalar()) return std::vector<int64_t>{c.length()};
        for (const auto& a : c.chunks()) out.push_back(a->length());
        return out;
      })
      .def("to_list", &column_to_py)
      .def("get", [](const Column& c, int64_t i) { return scalar_to_py(c.get(i)); })
      .def("rename", &Column::rename)
      .def("slice", &Column::slice)
      .def("rechunk", [](const Column& c) { return Column(c.name(), c.as_array()); })
      .def("format_values", &format_values, nb::arg("start"), nb::arg("n"), nb::arg("max_chars") = 30)
      .def("buffer_address", &buffer_address);

  nb::class_<DataFrame>(m, "PyDataFrame")
      .def(nb::init<std::vector<Column>>())
      .def_static("empty_with_height", &DataFrame::empty_with_height)
      .def_prop_ro("height", &DataFrame::height)
      .def_prop_ro("width", &DataFrame::width)
      .def("columns", &DataFrame::names)
      .def("schema", &frame_schema)
      .def("column", nb::overload_cast<const std::string&>(&DataFrame::column, nb::const_))
      .def("column_at", [](const DataFrame& df, size_t i) {
        if (i >= df.width()) throw OutOfBoundsError(err_msg("column index ", i, " is out of bounds for ", df.width(), " columns"));
        return df.column(i);
      })
      .def("get_columns", &DataFrame::columns)
      .def("slice", &DataFrame::slice)
      .def("head", &DataFrame::head)
      .def("select", &DataFrame::select)
      .def("rechunk", [](const DataFrame& df) { return df.rechunk(); })
      .def("equals", &DataFrame::equals)
      .def("to_string", &DataFrame::to_string, nb::arg("max_rows") = 10, nb::arg("max_cols") = 8,
           nb::arg("max_width") = 30)
      .def("display_cells", &display_cells, nb::arg("max_rows") = 10, nb::arg("max_cols") = 8,
           nb::arg("max_width") = 30);

  register_convert(m);
  register_arrow(m);
}
