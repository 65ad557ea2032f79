// The Arrow PyCapsule interface: frames and columns out as capsules, capsules in.
#include <nanobind/stl/string.h>

#include <memory>

#include "core_common.hpp"
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

nb::capsule frame_stream(const DataFrame& df, nb::handle /*requested_schema: ignored*/) {
  auto* s = new ArrowArrayStream{};
  std::unique_ptr<ArrowArrayStream> owned(s);
  io::export_stream(df, s, /*prepare_all=*/true);  // errors raise here, with their class
  owned.release();
  return nb::capsule(s, "arrow_array_stream", free_capsule_struct<ArrowArrayStream>);
}

nb::capsule frame_schema(const DataFrame& df) {
  auto* s = new ArrowSchema{};
  io::export_schema(df.schema(), s);
  return schema_capsule(s);
}

nb::capsule column_stream(const Column& c, nb::handle /*requested_schema*/) {
  auto* s = new ArrowArrayStream{};
  std::unique_ptr<ArrowArrayStream> owned(s);
  io::export_column_stream(c, s, /*prepare_all=*/true);
  owned.release();
  return nb::capsule(s, "arrow_array_stream", free_capsule_struct<ArrowArrayStream>);
}

nb::capsule column_schema(const Column& c) {
  auto* s = new ArrowSchema{};
  io::export_schema(c.dtype(), c.name(), s);
  return schema_capsule(s);
}

nb::tuple column_array(const Column& c, nb::handle /*requested_schema*/) {
  nb::capsule schema = column_schema(c);
  auto* a = new ArrowArray{};
  nb::capsule array(a, "arrow_array", free_capsule_struct<ArrowArray>);
  io::export_array(c.as_array(), a);
  return nb::make_tuple(schema, array);
}

DataFrame frame_from_stream(nb::handle capsule) {
  return io::import_stream(capsule_pointer<ArrowArrayStream>(capsule, "arrow_array_stream"));
}

Column column_from_stream(nb::handle capsule, const std::string& name) {
  return io::import_column_stream(capsule_pointer<ArrowArrayStream>(capsule, "arrow_array_stream"), name);
}

Column column_from_array(nb::handle schema_capsule, nb::handle array_capsule, const std::string& name) {
  auto* s = capsule_pointer<ArrowSchema>(schema_capsule, "arrow_schema");
  auto* a = capsule_pointer<ArrowArray>(array_capsule, "arrow_array");
  std::string col = s->name && s->name[0] ? s->name : name;
  return Column(col, io::import_array(a, s, col));
}

DataFrame frame_from_array(nb::handle schema_capsule, nb::handle array_capsule) {
  return io::import_frame(capsule_pointer<ArrowArray>(array_capsule, "arrow_array"),
                          capsule_pointer<ArrowSchema>(schema_capsule, "arrow_schema"));
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
  df.def("__arrow_c_stream__", &frame_stream, nb::arg("requested_schema").none() = nb::none());
  df.def("__arrow_c_schema__", &frame_schema);
  df.def_static("from_arrow_stream", &frame_from_stream);
  df.def_static("from_arrow_array", &frame_from_array);

  nb::class_<Column> col = nb::borrow<nb::class_<Column>>(m.attr("PyColumn"));
  col.def("__arrow_c_stream__", &column_stream, nb::arg("requested_schema").none() = nb::none());
  col.def("__arrow_c_schema__", &column_schema);
  col.def("__arrow_c_array__", &column_array, nb::arg("requested_schema").none() = nb::none());
  col.def_static("from_arrow_stream", &column_from_stream);
  col.def_static("from_arrow_array", &column_from_array);

  m.def("schema_from_arrow", &schema_from_capsule);
}

}  // namespace frazil::py
