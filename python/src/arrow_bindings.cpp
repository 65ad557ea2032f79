// The Arrow PyCapsule interface: frames and columns out as capsules, capsules in.
#include <nanobind/stl/string.h>

#include "core_common.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/arrow/export.hpp"
#include "frazil/io/arrow/import.hpp"
#include "frazil/io/arrow/stream.hpp"

namespace frazil::py {

namespace {

// Capsules own heap structs; a consumer that moved the data out left `release` null.
template <typename T>
void free_capsule_struct(void* p) noexcept {
  auto* s = static_cast<T*>(p);
  if (s->release) s->release(s);
  delete s;
}

nb::capsule schema_capsule(ArrowSchema* s) {
  return nb::capsule(s, "arrow_schema", free_capsule_struct<ArrowSchema>);
}

template <typename T>
T* capsule_pointer(nb::handle capsule, const char* name) {
  void* p = PyCapsule_GetPointer(capsule.ptr(), name);
  if (!p) throw nb::python_error();
  return static_cast<T*>(p);
}

// The strings' layout ("view", "large" or "regular": Polars' compat levels newest and
// oldest, and Arrow's 32-bit string) and the consumer's requested schema, if any.
io::ArrowExportOptions export_options(nb::handle requested, const std::string& strings) {
  io::ArrowExportOptions options;
  if (strings == "large") options.strings = io::ArrowStringLayout::Large;
  else if (strings == "regular") options.strings = io::ArrowStringLayout::Regular;
  else if (strings != "view") throw InvalidOperationError("unknown Arrow string layout '" + strings + "'");
  if (requested.is_valid() && !requested.is_none()) options.requested = capsule_pointer<ArrowSchema>(requested, "arrow_schema");
  // Every batch is exported before the capsule is handed over: an error (the memory limit)
  // raises here with its class, not in pyarrow or Polars as ArrowInvalid / ComputeError.
  options.prepare_all = true;
  return options;
}

nb::capsule frame_stream(const DataFrame& df, nb::handle requested, const std::string& strings) {
  auto* s = new ArrowArrayStream{};
  nb::capsule capsule(s, "arrow_array_stream", free_capsule_struct<ArrowArrayStream>);
  io::export_stream(df, s, export_options(requested, strings));
  return capsule;
}

nb::capsule frame_schema(const DataFrame& df) {
  auto* s = new ArrowSchema{};
  nb::capsule capsule = schema_capsule(s);
  io::export_schema(df.schema(), s);
  return capsule;
}

nb::capsule column_stream(const Column& c, nb::handle requested, const std::string& strings) {
  auto* s = new ArrowArrayStream{};
  nb::capsule capsule(s, "arrow_array_stream", free_capsule_struct<ArrowArrayStream>);
  io::export_column_stream(c, s, export_options(requested, strings));
  return capsule;
}

nb::capsule column_schema(const Column& c) {
  auto* s = new ArrowSchema{};
  nb::capsule capsule = schema_capsule(s);
  io::export_schema(c.dtype(), c.name(), s);
  return capsule;
}

nb::tuple column_array(const Column& c, nb::handle requested, const std::string& strings) {
  io::ArrowExportOptions options = export_options(requested, strings);
  auto* s = new ArrowSchema{};
  nb::capsule schema = schema_capsule(s);
  io::export_schema(c.dtype(), c.name(), s, options);
  auto* a = new ArrowArray{};
  nb::capsule array(a, "arrow_array", free_capsule_struct<ArrowArray>);
  io::export_array(c.as_array(), a, options);
  return nb::make_tuple(schema, array);
}

// `trusted_utf8`: the producer's string type guarantees UTF-8 (the Python side decides,
// from the producer's module).
DataFrame frame_from_stream(nb::handle capsule, bool trusted_utf8) {
  return io::import_stream(capsule_pointer<ArrowArrayStream>(capsule, "arrow_array_stream"), {!trusted_utf8});
}

Column column_from_stream(nb::handle capsule, const std::string& name, bool trusted_utf8) {
  return io::import_column_stream(capsule_pointer<ArrowArrayStream>(capsule, "arrow_array_stream"), name,
                                  {!trusted_utf8});
}

Column column_from_array(nb::handle schema_capsule, nb::handle array_capsule, const std::string& name,
                         bool trusted_utf8) {
  auto* s = capsule_pointer<ArrowSchema>(schema_capsule, "arrow_schema");
  auto* a = capsule_pointer<ArrowArray>(array_capsule, "arrow_array");
  std::string col = s->name && s->name[0] ? s->name : name;
  return Column(col, io::import_array(a, s, col, {!trusted_utf8}));
}

DataFrame frame_from_array(nb::handle schema_capsule, nb::handle array_capsule, bool trusted_utf8) {
  return io::import_frame(capsule_pointer<ArrowArray>(array_capsule, "arrow_array"),
                          capsule_pointer<ArrowSchema>(schema_capsule, "arrow_schema"), {!trusted_utf8});
}

nb::list schema_from_capsule(nb::handle capsule) {
  Schema schema = io::import_schema(capsule_pointer<ArrowSchema>(capsule, "arrow_schema"));
  nb::list out;
  for (const auto& f : schema.fields()) out.append(nb::make_tuple(f.name, dtype_to_py(f.dtype)));
  return out;
}

}  // namespace

void register_arrow(nb::module_& m) {
  nb::class_<DataFrame> df = nb::borrow<nb::class_<DataFrame>>(m.attr("PyDataFrame"));
  df.def("__arrow_c_stream__", &frame_stream, nb::arg("requested_schema").none() = nb::none(),
         nb::arg("strings") = "view");
  df.def("__arrow_c_schema__", &frame_schema);
  df.def_static("from_arrow_stream", &frame_from_stream, nb::arg("capsule"), nb::arg("trusted_utf8") = false);
  df.def_static("from_arrow_array", &frame_from_array, nb::arg("schema"), nb::arg("array"),
                nb::arg("trusted_utf8") = false);

  nb::class_<Column> col = nb::borrow<nb::class_<Column>>(m.attr("PyColumn"));
  col.def("__arrow_c_stream__", &column_stream, nb::arg("requested_schema").none() = nb::none(),
          nb::arg("strings") = "view");
  col.def("__arrow_c_schema__", &column_schema);
  col.def("__arrow_c_array__", &column_array, nb::arg("requested_schema").none() = nb::none(),
          nb::arg("strings") = "view");
  col.def_static("from_arrow_stream", &column_from_stream, nb::arg("capsule"), nb::arg("name"),
                 nb::arg("trusted_utf8") = false);
  col.def_static("from_arrow_array", &column_from_array, nb::arg("schema"), nb::arg("array"), nb::arg("name"),
                 nb::arg("trusted_utf8") = false);

  m.def("schema_from_arrow", &schema_from_capsule);
}

}  // namespace frazil::py
