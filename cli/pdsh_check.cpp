#include "pdsh_check.hpp"

#include <cmath>
#include <cstdio>

namespace frazil::cli {
namespace {

constexpr double kRtol = 1e-5;
constexpr double kAtol = 1e-8;

bool values_equal(const Scalar& a, const Scalar& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (a.dtype().is_primitive_numeric() && b.dtype().is_primitive_numeric()) {
    double x = a.to_double();
    double y = b.to_double();
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return x == y || std::fabs(x - y) <= kAtol + kRtol * std::fabs(y);
  }
  return a.to_string() == b.to_string();
}

// Full precision for numbers: the frame display rounds to a few digits.
std::string show(const Scalar& v) {
  if (v.is_null() || !v.dtype().is_primitive_numeric()) return v.to_string();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v.to_double());
  return buf;
}

}  // namespace

std::optional<std::string> frame_mismatch(const DataFrame& result, const DataFrame& expected) {
  if (result.names() != expected.names()) {
    std::string got, want;
    for (const auto& n : result.names()) got += (got.empty() ? "" : ", ") + n;
    for (const auto& n : expected.names()) want += (want.empty() ? "" : ", ") + n;
    return "columns [" + got + "] != expected [" + want + "]";
  }
  if (result.height() != expected.height()) {
    return "height " + std::to_string(result.height()) + " != expected " + std::to_string(expected.height());
  }
  for (size_t c = 0; c < result.width(); ++c) {
    const Column& got = result.column(c);
    const Column& want = expected.column(c);
    for (int64_t i = 0; i < result.height(); ++i) {
      Scalar a = got.get(i);
      Scalar b = want.get(i);
      if (!values_equal(a, b)) {
        return "column " + got.name() + ", row " + std::to_string(i) + ": " + show(a) + " != expected " + show(b);
      }
    }
  }
  return std::nullopt;
}

}  // namespace frazil::cli
