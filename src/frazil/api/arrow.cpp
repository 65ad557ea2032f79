// The public Arrow API (include/frazil/arrow.hpp): thin delegations to io/arrow.
#include "frazil/arrow.hpp"

#include "frazil/io/arrow/export.hpp"
#include "frazil/io/arrow/import.hpp"
#include "frazil/io/arrow/stream.hpp"

namespace frazil {

void to_arrow_stream(const DataFrame& df, ArrowArrayStream* out, ArrowStringLayout strings) {
  io::export_stream(df, out, {strings});
}
void to_arrow_stream(const LazyFrame& lf, ArrowArrayStream* out, ArrowStringLayout strings) {
  io::export_stream(lf.collect(), out, {strings});
}
DataFrame from_arrow_stream(ArrowArrayStream* stream) { return io::import_stream(stream); }

void to_arrow_schema(const Schema& schema, ArrowSchema* out, ArrowStringLayout strings) {
  io::export_schema(schema, out, {strings});
}
void to_arrow_array(const DataFrame& df, ArrowArray* out, ArrowStringLayout strings) {
  io::export_frame(df, out, {strings});
}
DataFrame from_arrow_array(ArrowArray* array, const ArrowSchema* schema) { return io::import_frame(array, schema); }

}  // namespace frazil
