// A first frazil program: build a frame, run a lazy query, print the result and the plan.
#include <iostream>

#include <frazil/frazil.hpp>

int main() {
  using namespace frazil;
  PrimitiveBuilder<int64_t> city_id(DataType::int64());
  PrimitiveBuilder<double> temp(DataType::float64());
  ViewBuilder city;
  const char* names[] = {"Oslo", "Lima", "Oslo", "Pune", "Lima", "Oslo"};
  double temps[] = {-3.5, 18.25, 1.0, 31.5, 17.0, -1.0};
  for (int i = 0; i < 6; ++i) {
    city.push(names[i]);
    temp.push(temps[i]);
    city_id.push(i);
  }
  DataFrame df({Column("city", city.finish()), Column("temp", temp.finish()), Column("id", city_id.finish())});

  LazyFrame q = LazyFrame::from_frame(df)
                    .filter(col("temp") > -2.0)
                    .group_by({col("city")})
                    .agg({col("temp").mean().alias("mean_temp"), len().alias("n")})
                    .sort({col("mean_temp")}, SortArgs{{true}});
  std::cout << q.explain() << "\n\n" << q.collect().to_string() << std::endl;
  DataFrame out = q.collect();
  // The example is run by `make test`: exit non-zero if the answer is wrong.
  return (out.height() == 3 && out.column("city").get(0) == Scalar::string("Pune")) ? 0 : 1;
}
