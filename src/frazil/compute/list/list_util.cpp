#include "frazil/compute/list/list_util.hpp"

#include "frazil/compute/cast.hpp"

namespace frazil::compute::list_detail {

IntArg::IntArg(const Array& arg, std::string_view what) : n_(arg.length()) {
  if (!arg.dtype().is_integer() && !arg.dtype().is_null())
    throw InvalidOperationError(err_msg(what, " expects an integer argument, got ", arg.dtype()));
  values_ = cast(arg, DataType::int64());
}

int64_t broadcast_length(int64_t n, int64_t m, std::string_view what) {
  if (m == n || m == 1) return n;
  if (n == 1) return m;
  throw ShapeError(err_msg(what, ": the argument has ", m, " rows but the list column has ", n));
}

}  // namespace frazil::compute::list_detail
