// Functions of distinct values: is_duplicated, is_unique, is_first_distinct,
// is_last_distinct, mode, value_counts, unique_counts.
#include "frazil/compute/distinct.hpp"
#include "frazil/compute/hash.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"

namespace frazil::functions {

using namespace define;

namespace {

FunctionSpec distinct_test(std::string name, compute::DistinctTest test, bool order_sensitive) {
  FunctionSpec s;
  s.name = std::move(name);
  s.shape = Shape::LengthPreserving;
  s.order_sensitive = order_sensitive;
  s.zero_sign_insensitive = true;
  s.input_types = TypeSet::any() - TypeSet::of({TypeId::List, TypeId::Struct});
  s.output_dtype = boolean;
  s.segmented_kernel = [test](const Args&) -> SegmentedKernel {
    return [test](std::span<const ArrayRef> in, std::span<const int64_t> off) {
      return compute::distinct_test(test, *in[0], off);
    };
  };
  return s;
}

std::string count_field(const Args& a) {
  if (auto n = a.get_optional_string("count_name")) return *n;
  return a.get_bool("normalize") ? "proportion" : "count";
}

}  // namespace

void register_distinct_functions(Registry& r) {
  using compute::DistinctTest;
  r.add(distinct_test("is_duplicated", DistinctTest::Duplicated, false));
  r.add(distinct_test("is_unique", DistinctTest::Unique, false));
  r.add(distinct_test("is_first_distinct", DistinctTest::FirstDistinct, true));
  r.add(distinct_test("is_last_distinct", DistinctTest::LastDistinct, true));
  {
    FunctionSpec s;
    s.name = "mode";
    s.shape = Shape::Other;
    s.zero_sign_insensitive = true;
    s.params = {bool_param("maintain_order", false)};
    s.output_dtype = same_as_root;
    s.kernel = unary(compute::mode);
    r.add(std::move(s));
  }
  {
    // A Struct {<input's name>: value, count}; `value_name` is bound to the input's name.
    FunctionSpec s;
    s.name = "value_counts";
    s.shape = Shape::Other;
    s.zero_sign_insensitive = true;
    s.params = {bool_param("sort", false), bool_param("parallel", false), optional_string_param("count_name"),
                bool_param("normalize", false), string_param("value_name", "")};
    s.bind_names = [](const Args& a, std::span<const std::string> names) {
      return a.with("value_name", names.empty() ? std::string() : names[0]);
    };
    s.output_dtype = [](const CallTypes& c) {
      return DataType::struct_({{c.args.get_string("value_name"), c.inputs[0]},
                                {count_field(c.args), c.args.get_bool("normalize") ? DataType::float64()
                                                                                   : DataType::uint32()}});
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [a](std::span<const ArrayRef> in) {
        return compute::value_counts(*in[0], a.get_string("value_name"), count_field(a), a.get_bool("sort"),
                                     a.get_bool("normalize"));
      };
    };
    s.format_args = [](std::span<const std::string>, const Args& a) {
      return std::string(a.get_bool("sort") ? "sort=true" : "");
    };
    r.add(std::move(s));
  }
  {
    // hash(seed): a UInt64 per row (equal values hash equally; not Polars' hash values).
    FunctionSpec s;
    s.name = "hash";
    s.params = {int_param("seed", 0)};
    s.output_dtype = fixed(DataType::uint64());
    s.kernel = [](const Args& a) -> Kernel {
      return [seed = static_cast<uint64_t>(a.get_int("seed"))](std::span<const ArrayRef> in) {
        const Array& x = *in[0];
        const int64_t n = x.length();
        Buffer out = compute::detail::alloc_values<uint64_t>(n);
        uint64_t* h = out.mutable_as<uint64_t>();
        compute::hash_array(x, h, false);
        const uint64_t s0 = compute::hash_u64(seed);
        for (int64_t i = 0; i < n; ++i) h[i] = compute::hash_combine(s0, h[i]);
        return compute::detail::make_fixed(DataType::uint64(), n, Buffer(), std::move(out));
      };
    };
    r.add(std::move(s));
  }
  {
    FunctionSpec s;
    s.name = "unique_counts";
    s.shape = Shape::Other;
    s.order_sensitive = true;  // first-appearance order
    s.zero_sign_insensitive = true;
    s.output_dtype = fixed(DataType::uint32());
    s.kernel = unary(compute::unique_counts);
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
