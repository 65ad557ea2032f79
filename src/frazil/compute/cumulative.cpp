#include "frazil/compute/cumulative.hpp"

#include <algorithm>

#include "frazil/compute/kernel_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

const char* kind_name(CumulativeKind kind) {
  switch (kind) {
    case CumulativeKind::Sum: return "cum_sum";
    case CumulativeKind::Min: return "cum_min";
    case CumulativeKind::Max: return "cum_max";
    case CumulativeKind::Count: return "cum_count";
  }
  return "cumulative";
}

// The physical numeric type of a dtype the running min / max apply to.
std::optional<TypeId> physical(const DataType& t) {
  if (t.is_primitive_numeric()) return t.id();
  switch (t.id()) {
    case TypeId::Date: return TypeId::Int32;
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return TypeId::Int64;
    default: return std::nullopt;
  }
}

template <typename In, typename Out, typename Step>
ArrayRef run(const Array& values, const DataType& out_dtype, Step step) {
  const int64_t n = values.length();
  Buffer out = alloc_values<Out>(n);
  Out* o = out.mutable_as<Out>();
  const In* v = values.values<In>();
  bool started = false;
  Out acc{};
  for (int64_t i = 0; i < n; ++i) {
    if (!values.is_valid(i)) {
      o[i] = acc;
      continue;
    }
    acc = started ? step(acc, static_cast<Out>(v[i])) : static_cast<Out>(v[i]);
    started = true;
    o[i] = acc;
  }
  return make_fixed(out_dtype, n, aligned_validity(values), std::move(out));
}

}  // namespace

DataType cumulative_dtype(CumulativeKind kind, const DataType& t) {
  if (kind == CumulativeKind::Count) return DataType::uint32();
  if (t.is_null()) return kind == CumulativeKind::Sum ? DataType::int64() : t;
  if (kind == CumulativeKind::Sum) {
    if (t.is_boolean()) return DataType::uint32();
    switch (t.id()) {
      case TypeId::Int8:
      case TypeId::Int16:
      case TypeId::UInt8:
      case TypeId::UInt16: return DataType::int64();
      default: break;
    }
    if (t.is_primitive_numeric() || t.id() == TypeId::Duration) return t;
  } else if (physical(t)) {
    return t;
  }
  throw InvalidOperationError(err_msg("`", kind_name(kind), "` operation not supported for dtype `", t.to_string(), "`"));
}

ArrayRef cumulative(const Array& values, CumulativeKind kind) {
  const DataType out = cumulative_dtype(kind, values.dtype());
  const int64_t n = values.length();
  if (kind == CumulativeKind::Count) {
    Buffer buf = alloc_values<uint32_t>(n);
    uint32_t* o = buf.mutable_as<uint32_t>();
    uint32_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
      count += values.is_valid(i) ? 1 : 0;
      o[i] = count;
    }
    return make_fixed(out, n, Buffer(), std::move(buf));
  }
  if (values.dtype().is_null()) return make_null_array(out, n);
  if (values.dtype().is_boolean()) {
    // cum_sum: the running number of trues.
    Buffer buf = alloc_values<uint32_t>(n);
    uint32_t* o = buf.mutable_as<uint32_t>();
    uint32_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (values.is_valid(i) && values.bool_value(i)) ++count;
      o[i] = count;
    }
    return make_fixed(out, n, aligned_validity(values), std::move(buf));
  }
  const TypeId in_id = *physical(values.dtype());
  const TypeId out_id = *physical(out);
  return dispatch_numeric(in_id, [&](auto in_tag) -> ArrayRef {
    using In = typename decltype(in_tag)::type;
    return dispatch_numeric(out_id, [&](auto out_tag) -> ArrayRef {
      using Out = typename decltype(out_tag)::type;
      switch (kind) {
        case CumulativeKind::Sum: return run<In, Out>(values, out, [](Out a, Out b) { return static_cast<Out>(a + b); });
        case CumulativeKind::Min: return run<In, Out>(values, out, [](Out a, Out b) { return b < a ? b : a; });
        default: return run<In, Out>(values, out, [](Out a, Out b) { return b > a ? b : a; });
      }
    });
  });
}

}  // namespace frazil::compute
