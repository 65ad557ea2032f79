// Handing a frazil result to any Arrow consumer (pyarrow, DuckDB, nanoarrow, Arrow C++)
// through the Arrow C Stream Interface, and reading one back: no copies either way.
#include <iostream>

#include <frazil/frazil.hpp>

int main() {
  using namespace frazil;
  PrimitiveBuilder<int64_t> id(DataType::int64());
  ViewBuilder name;
  for (int i = 0; i < 4; ++i) {
    id.push(i);
    name.push(i % 2 ? "a string longer than twelve bytes" : "short");
  }
  DataFrame df({Column("id", id.finish()), Column("name", name.finish())});

  // Export: the stream owns references to df's buffers until it is released.
  ArrowArrayStream stream;
  to_arrow_stream(LazyFrame::from_frame(df).filter(col("id") >= 1), &stream);

  ArrowSchema schema;
  if (stream.get_schema(&stream, &schema) != 0) return 1;
  std::cout << "schema: " << schema.format << " with " << schema.n_children << " fields ("
            << schema.children[0]->format << ", " << schema.children[1]->format << ")\n";
  schema.release(&schema);

  // Import: from_arrow_stream takes the stream over and releases it.
  DataFrame back = from_arrow_stream(&stream);
  std::cout << back.to_string() << "\n";
  return (back.height() == 3 && back.column("name").get(0) == Scalar::string("a string longer than twelve bytes")) ? 0 : 1;
}
