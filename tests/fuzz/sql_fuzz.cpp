// libFuzzer target for the SQL front end: the bytes are SQL text, run through the dialect
// rewrite, PostgreSQL's parser, the translation to a LazyFrame and the optimizer over two
// small registered frames (and executed when the text is short, so that the tiny frames
// bound the work). Any frazil::Error but an internal one is an accepted outcome; a crash,
// a hang, an internal check failure or any other exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frazil/frazil.hpp"

using namespace frazil;

namespace {

DataFrame sample() {
  PrimitiveBuilder<int64_t> i(DataType::int64());
  PrimitiveBuilder<double> f(DataType::float64());
  ViewBuilder s;
  BooleanBuilder b;
  PrimitiveBuilder<int32_t> d(DataType::date());
  for (int k = 0; k < 4; ++k) {
    if (k == 3) {
      i.push_null();
      f.push_null();
      s.push_null();
      b.push_null();
      d.push_null();
      continue;
    }
    i.push(k);
    f.push(k * 0.5);
    s.push(k ? "x" : "a long string value");
    b.push(k % 2);
    d.push(19000 + k);
  }
  return DataFrame({Column("i", i.finish()), Column("f", f.finish()), Column("s", s.finish()),
                    Column("b", b.finish()), Column("d", d.finish())});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const DataFrame frame = sample();
  sql::Context ctx;
  ctx.register_frame("t", frame);
  ctx.register_frame("u", frame);
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    LazyFrame lf = ctx.execute(text);
    lf.explain(true);
    if (size < 400) lf.collect();
  } catch (const InternalError&) {
    throw;  // a frazil bug: let the fuzzer report it
  } catch (const Error&) {
  }
  return 0;
}
