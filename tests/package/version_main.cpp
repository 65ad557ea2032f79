// Built by the package test with nothing but the installed package's flags: prints the
// version and runs a small query, so both the headers and the link line are checked.
#include <iostream>

#include <frazil/frazil.hpp>

int main() {
  using namespace frazil;
  PrimitiveBuilder<int64_t> values(DataType::int64());
  for (int64_t v : {3, 1, 2}) values.push(v);
  DataFrame df({Column("v", values.finish())});
  DataFrame out = LazyFrame::from_frame(df).select({col("v").sum()}).collect();
  if (out.column("v").get(0) != Scalar::int64(6)) return 1;
  std::cout << "frazil " << frazil::version() << "\n";
  return 0;
}
