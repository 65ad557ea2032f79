// Horizontal functions (sum/mean/min/max/any/all_horizontal) and generators (int_range,
// int_ranges, linear_space).
#include "frazil/compute/cast.hpp"
#include "frazil/compute/horizontal.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/functions/define.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/functions/wide_inputs.hpp"

namespace frazil::functions {

using namespace define;
using compute::HorizontalKind;

namespace {

FunctionSpec horizontal(std::string name, HorizontalKind kind) {
  FunctionSpec s;
  s.name = std::move(name);
  s.min_inputs = 1;
  s.max_inputs = SIZE_MAX;
  s.expand_inputs = true;  // sum_horizontal(pl.all()): one column over all of them (Polars)
  s.display_as_global = true;
  s.zero_sign_insensitive = kind == HorizontalKind::Any || kind == HorizontalKind::All;
  const bool logic = kind == HorizontalKind::Any || kind == HorizontalKind::All;
  s.coercion = logic ? Coercion::None : Coercion::Supertype;
  if (kind == HorizontalKind::Sum || kind == HorizontalKind::Mean) s.params = {bool_param("ignore_nulls", true)};
  // (Int128 and UInt128 too: compute::horizontal is written for any width.)
  const TypeSet numbers = types::numeric | types::boolean | TypeSet::of({TypeId::Int128, TypeId::UInt128});
  // (sum_horizontal of strings concatenates them, as Polars.)
  s.input_types = logic                         ? types::boolean
                  : kind == HorizontalKind::Sum  ? numbers | types::string
                  : kind == HorizontalKind::Mean ? numbers
                                                 : numbers | types::date_like | types::duration | TypeSet::of({TypeId::Time});
  s.output_dtype = [kind, fn = s.name](const CallTypes& c) -> DataType {
    switch (kind) {
      case HorizontalKind::Any:
      case HorizontalKind::All: return DataType::boolean();
      case HorizontalKind::Mean: {
        bool all_f32 = true;
        for (const auto& t : c.inputs) all_f32 &= t.id() == TypeId::Float32;
        return all_f32 ? DataType::float32() : DataType::float64();
      }
      case HorizontalKind::Sum: {
        DataType t = supertype_of_inputs(c, fn.c_str());
        return t.is_boolean() ? DataType::uint32() : t;
      }
      default: return supertype_of_inputs(c, fn.c_str());
    }
  };
  s.check = [kind, fn = s.name](const CallTypes& c) {
    for (const auto& t : c.inputs) {
      const bool ok = kind == HorizontalKind::Any || kind == HorizontalKind::All
                          ? (t.is_boolean() || t.is_null())
                          : (t.is_numeric() || t.is_boolean() || t.is_null() ||
                             (kind == HorizontalKind::Sum && t.is_string()) ||
                             (kind != HorizontalKind::Sum && kind != HorizontalKind::Mean && (t.is_temporal() || t.is_string())));
      if (!ok) throw InvalidOperationError(err_msg("`", fn, "` operation not supported for dtype `", t.short_name(), "`"));
    }
  };
  s.kernel = [kind](const Args& a) -> Kernel {
    const bool ignore = kind == HorizontalKind::Sum || kind == HorizontalKind::Mean ? a.get_bool("ignore_nulls") : true;
    return [kind, ignore](std::span<const ArrayRef> in) {
      DataType out;
      if (kind == HorizontalKind::Any || kind == HorizontalKind::All) {
        out = DataType::boolean();
      } else {
        out = in[0]->dtype();
        for (size_t i = 1; i < in.size(); ++i)
          if (auto t = get_supertype(out, in[i]->dtype())) out = *t;
        if (kind == HorizontalKind::Sum && out.is_boolean()) out = DataType::uint32();
        if (kind == HorizontalKind::Mean) {
          bool all_f32 = true;
          for (const auto& x : in) all_f32 &= x->dtype().id() == TypeId::Float32;
          out = all_f32 ? DataType::float32() : DataType::float64();
        }
      }
      if ((kind == HorizontalKind::Min || kind == HorizontalKind::Max) && out.is_string()) {
        // Strings: the per-row extreme by comparison of the supertype's text.
        throw InvalidOperationError("min_horizontal/max_horizontal of strings is not supported yet");
      }
      return compute::horizontal(kind, in, out, ignore);
    };
  };
  return s;
}

int64_t scalar_int64(const Array& a, const char* fn, const char* what) {
  if (a.length() != 1)
    throw ComputeError(err_msg("`", fn, "`: ", what, " must be a single value, got ", a.length(), " values"));
  if (!(a.dtype().is_integer() || a.dtype().is_null() || a.dtype().is_float()))  // floats truncate (Polars)
    throw InvalidOperationError(err_msg("`", fn, "`: ", what, " must be an integer, got `", a.dtype().short_name(), "`"));
  if (a.is_null(0)) throw ComputeError(err_msg("`", fn, "`: ", what, " is null"));
  return compute::cast(a, DataType::int64())->values<int64_t>()[0];
}

}  // namespace

void register_horizontal_functions(Registry& r) {
  r.add(float16_through_float32(horizontal("sum_horizontal", HorizontalKind::Sum)));
  r.add(float16_through_float32(horizontal("mean_horizontal", HorizontalKind::Mean)));
  r.add(float16_through_float32(horizontal("min_horizontal", HorizontalKind::Min)));
  r.add(float16_through_float32(horizontal("max_horizontal", HorizontalKind::Max)));
  r.add(horizontal("any_horizontal", HorizontalKind::Any));
  r.add(horizontal("all_horizontal", HorizontalKind::All));
  {
    // cast_like(reference): the values cast to the reference's dtype (pl.fold's result takes
    // its accumulator's dtype).
    FunctionSpec s;
    s.name = "cast_like";
    s.min_inputs = s.max_inputs = 2;
    s.output_dtype = [](const CallTypes& c) { return c.inputs[1]; };
    s.kernel = binary([](const Array& x, const Array& like) {
      return x.dtype() == like.dtype() ? x.slice(0, x.length()) : compute::cast(x, like.dtype(), /*strict=*/false);
    });
    r.add(std::move(s));
  }
  {
    // int_range(start, end, step): the root is `start`.
    FunctionSpec s;
    s.name = "int_range";
    s.shape = Shape::Other;
    s.min_inputs = s.max_inputs = 2;
    s.display_as_global = true;
    s.params = {int_param("step", 1), dtype_param("dtype")};
    s.output_dtype = [](const CallTypes& c) { return c.args.get_dtype("dtype").value_or(DataType::int64()); };
    s.check = [](const CallTypes& c) {
      for (const auto& t : c.inputs)
        if (!(t.is_integer() || t.is_float() || t.is_null()))
          throw InvalidOperationError(err_msg("`int_range` needs integer bounds, got `", t.short_name(), "`"));
      if (auto d = c.args.get_dtype("dtype"); d && !d->is_integer())
        throw InvalidOperationError(err_msg("`int_range`: dtype must be an integer type, got ", *d));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [step = a.get_int("step"), dt = a.get_dtype("dtype").value_or(DataType::int64())](std::span<const ArrayRef> in) {
        return compute::int_range(scalar_int64(*in[0], "int_range", "start"), scalar_int64(*in[1], "int_range", "end"),
                                  step, dt);
      };
    };
    r.add(std::move(s));
  }
  {
    // int_ranges(start, end, step): a list per row.
    FunctionSpec s;
    s.name = "int_ranges";
    s.min_inputs = s.max_inputs = 3;
    s.display_as_global = true;
    s.null_if_null = input(0) | input(1) | input(2);
    s.params = {dtype_param("dtype")};
    s.output_dtype = [](const CallTypes& c) { return DataType::list(c.args.get_dtype("dtype").value_or(DataType::int64())); };
    s.check = [](const CallTypes& c) {
      for (const auto& t : c.inputs)
        if (!(t.is_integer() || t.is_null()))
          throw InvalidOperationError(err_msg("`int_ranges` needs integer bounds, got `", t.short_name(), "`"));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [dt = a.get_dtype("dtype").value_or(DataType::int64())](std::span<const ArrayRef> in) {
        return compute::int_ranges(*in[0], *in[1], *in[2], dt);
      };
    };
    r.add(std::move(s));
  }
  {
    // linear_space(start, end, num_samples, closed): the root is `start`.
    FunctionSpec s;
    s.name = "linear_space";
    s.shape = Shape::Other;
    s.min_inputs = s.max_inputs = 3;
    s.display_as_global = true;
    s.params = {string_param("closed", "both", {"both", "left", "right", "none"})};
    s.output_dtype = [](const CallTypes& c) {
      return c.inputs[0].id() == TypeId::Float32 && c.inputs[1].id() == TypeId::Float32 ? DataType::float32()
                                                                                        : DataType::float64();
    };
    s.check = [](const CallTypes& c) {
      for (size_t i = 0; i < 2; ++i)
        if (!(c.inputs[i].is_numeric() || c.inputs[i].is_null()))
          throw InvalidOperationError(err_msg("`linear_space` needs numeric bounds, got `", c.inputs[i].short_name(), "`"));
    };
    s.kernel = [](const Args& a) -> Kernel {
      return [closed = a.get_string("closed")](std::span<const ArrayRef> in) {
        auto value = [](const Array& x, const char* what) {
          if (x.length() != 1 || x.is_null(0))
            throw ComputeError(err_msg("`linear_space`: ", what, " must be a single non-null value"));
          return compute::cast(x, DataType::float64())->values<double>()[0];
        };
        const DataType out = in[0]->dtype().id() == TypeId::Float32 && in[1]->dtype().id() == TypeId::Float32
                                 ? DataType::float32() : DataType::float64();
        return compute::linear_space(value(*in[0], "start"), value(*in[1], "end"),
                                     scalar_int64(*in[2], "linear_space", "num_samples"), closed, out);
      };
    };
    r.add(std::move(s));
  }
  {
    // linear_spaces(start, end, num_samples, closed): a list per row; the root is `start`.
    FunctionSpec s;
    s.name = "linear_spaces";
    s.min_inputs = s.max_inputs = 3;
    s.display_as_global = true;
    s.null_if_null = input(0) | input(1) | input(2);
    s.params = {string_param("closed", "both", {"both", "left", "right", "none"})};
    auto leaf = [](std::span<const DataType> t) {
      return t[0].id() == TypeId::Float32 && t[1].id() == TypeId::Float32 ? DataType::float32() : DataType::float64();
    };
    s.output_dtype = [leaf](const CallTypes& c) { return DataType::list(leaf(c.inputs)); };
    s.check = [](const CallTypes& c) {
      for (size_t i = 0; i < 2; ++i)
        if (!(c.inputs[i].is_numeric() || c.inputs[i].is_null()))
          throw InvalidOperationError(err_msg("`linear_spaces` needs numeric bounds, got `", c.inputs[i].short_name(), "`"));
      if (!(c.inputs[2].is_integer() || c.inputs[2].is_null()))
        throw InvalidOperationError(err_msg("`linear_spaces` needs an integer `num_samples`, got `",
                                            c.inputs[2].short_name(), "`"));
    };
    s.kernel = [leaf](const Args& a) -> Kernel {
      return [closed = a.get_string("closed"), leaf](std::span<const ArrayRef> in) {
        const DataType types[2] = {in[0]->dtype(), in[1]->dtype()};
        return compute::linear_spaces(*in[0], *in[1], *in[2], closed, leaf(types));
      };
    };
    r.add(std::move(s));
  }
}

}  // namespace frazil::functions
