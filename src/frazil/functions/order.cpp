// Functions of the rows' order and number: reverse, shift, unique, drop_nulls, head, tail.
#include <algorithm>

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/boolean.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

FunctionSpec reordering(std::string name, Shape shape) {
  FunctionSpec s;
  s.name = std::move(name);
  s.shape = shape;
  s.order_sensitive = true;
  s.output_dtype = same_as_root;
  return s;
}

std::string n_only(std::span<const std::string>, const Args& a) { return std::to_string(a.get_int("n")); }

}  // namespace

void register_order_functions(Registry& r) {
  {
    FunctionSpec s = reordering("reverse", Shape::LengthPreserving);
    s.kernel = unary(compute::reverse);
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reordering("shift", Shape::LengthPreserving);
    s.params = {int_param("n", 1)};
    s.kernel = [](const Args& a) -> Kernel {
      return [n = a.get_int("n")](std::span<const ArrayRef> in) { return compute::shift(*in[0], n); };
    };
    s.format_args = n_only;
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reordering("unique", Shape::Other);
    s.params = {bool_param("maintain_order", false)};
    // Without maintain_order Polars leaves the order undefined; first-seen order is valid for both.
    s.kernel = [](const Args&) -> Kernel {
      return [](std::span<const ArrayRef> in) { return compute::take(*in[0], compute::unique_rows({in[0]}, "first")); };
    };
    s.format_args = [](std::span<const std::string>, const Args&) { return std::string(); };
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reordering("drop_nulls", Shape::Other);
    s.order_sensitive = false;  // keeps the rows it keeps in their order
    s.kernel = unary([](const Array& a) { return compute::filter(a, *compute::is_not_null(a)); });
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reordering("head", Shape::Other);
    s.params = {int_param("n", 10)};
    s.kernel = [](const Args& a) -> Kernel {
      return [n = a.get_int("n")](std::span<const ArrayRef> in) {
        const Array& x = *in[0];
        return x.slice(0, std::min<int64_t>(std::max<int64_t>(n, 0), x.length()));
      };
    };
    s.format_args = n_only;
    r.add(std::move(s));
  }
  {
    FunctionSpec s = reordering("tail", Shape::Other);
    s.params = {int_param("n", 10)};
    s.kernel = [](const Args& a) -> Kernel {
      return [n = a.get_int("n")](std::span<const ArrayRef> in) {
        const Array& x = *in[0];
        const int64_t k = std::min<int64_t>(std::max<int64_t>(n, 0), x.length());
        return x.slice(x.length() - k, k);
      };
    };
    s.format_args = n_only;
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
