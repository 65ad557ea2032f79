// libFuzzer target for DSL -> IR conversion (with simplification and type coercion), the
// optimizer and explain(): the bytes spell a random expression tree over a small frame of
// every common dtype, used as a select, a filter and a group_by aggregation. Any
// frazil::Error is an accepted outcome; a crash, a hang or an internal check failure is a
// bug. Execution is left out: the differential fuzzer (tests/python/fuzz) covers results.
#include "frazil/functions/registry.hpp"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "frazil/frazil.hpp"

using namespace frazil;
using dsl::Expr;

namespace {

struct Reader {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  uint8_t next() { return pos < size ? data[pos++] : 0; }
  bool done() const { return pos >= size; }
};

const char* kColumns[] = {"i", "f", "s", "b", "d", "u"};

Expr leaf(Reader& r) {
  switch (r.next() % 8) {
    case 0: return dsl::lit(static_cast<int>(r.next()) - 128);
    case 1: return dsl::lit(static_cast<double>(r.next()) / 7.0);
    case 2: return dsl::lit(std::string(1 + r.next() % 3, 'a' + r.next() % 3));
    case 3: return dsl::lit(r.next() % 2 == 0);
    case 4: return dsl::lit_null();
    default: return dsl::col(kColumns[r.next() % 6]);
  }
}

Expr build(Reader& r, int depth) {
  if (depth <= 0 || r.done()) return leaf(r);
  const uint8_t op = r.next();
  switch (op % 12) {
    case 0:
    case 1: return build(r, depth - 1).binary(static_cast<dsl::Operator>(r.next() % 17), build(r, depth - 1));
    case 2: return build(r, depth - 1).not_();
    case 3: return build(r, depth - 1).is_null();
    case 4: return build(r, depth - 1).cast(r.next() % 2 ? DataType::int32() : DataType::float64(), r.next() % 2);
    case 5: return dsl::when(build(r, depth - 1)).then(build(r, depth - 1)).otherwise(build(r, depth - 1));
    case 6: return build(r, depth - 1).agg(static_cast<compute::AggKind>(r.next() % 16));
    case 7: return build(r, depth - 1).fill_null(build(r, depth - 1));
    case 8: return build(r, depth - 1).is_between(build(r, depth - 1), build(r, depth - 1));
    case 9: return build(r, depth - 1).sort(r.next() % 2).reverse();
    case 10: return build(r, depth - 1).over({dsl::col(kColumns[r.next() % 6])});
    default: {
      // Any one-input function of the registry, with its parameters at their defaults.
      static const std::vector<const functions::FunctionSpec*> unary = [] {
        std::vector<const functions::FunctionSpec*> out;
        for (const auto* s : functions::all())
          if (s->min_inputs == 1) out.push_back(s);
        return out;
      }();
      const auto& spec = *unary[r.next() % unary.size()];
      return build(r, depth - 1).function(functions::FunctionCall(spec, functions::Args::defaults(spec.params)));
    }
  }
}

DataFrame sample() {
  PrimitiveBuilder<int64_t> i(DataType::int64());
  PrimitiveBuilder<double> f(DataType::float64());
  ViewBuilder s;
  BooleanBuilder b;
  PrimitiveBuilder<int32_t> d(DataType::date());
  PrimitiveBuilder<uint32_t> u(DataType::uint32());
  for (int k = 0; k < 3; ++k) {
    i.push(k);
    f.push(k * 0.5);
    s.push(k ? "x" : "a long string value");
    b.push(k % 2);
    d.push(19000 + k);
    u.push(k);
  }
  return DataFrame({Column("i", i.finish()), Column("f", f.finish()), Column("s", s.finish()),
                    Column("b", b.finish()), Column("d", d.finish()), Column("u", u.finish())});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const LazyFrame base = LazyFrame::from_frame(sample());
  Reader r{data, size};
  Expr e;
  try {
    e = build(r, 6);
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
    return 0;  // a tree the DSL rejects as it is built (a function given the wrong arity)
  }
  const LazyFrame queries[] = {
      base.select({e}),
      base.filter(e),
      base.group_by({dsl::col("s")}).agg({e.alias("x")}),
  };
  for (const auto& q : queries) {
    try {
      q.explain(true);
      q.explain(false, OptFlags::none());
    } catch (const InternalError&) {
      throw;  // a frazil bug: let the fuzzer report it
    } catch (const Error&) {
    }
  }
  return 0;
}
