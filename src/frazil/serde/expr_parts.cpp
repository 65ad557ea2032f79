#include "frazil/serde/expr_parts.hpp"

#include "frazil/core/error.hpp"
#include "frazil/functions/registry.hpp"
#include "frazil/functions/udf.hpp"
#include "frazil/serde/udf_codec.hpp"
#include "frazil/serde/value_codec.hpp"

namespace frazil::serde {

namespace {
// The variant alternative each ArgType holds.
size_t arg_index(functions::ArgType t) { return static_cast<size_t>(t) + 1; }
}  // namespace

void write_function(ByteWriter& w, const functions::FunctionCall& call) {
  w.boolean(call.spec != nullptr);
  if (!call.spec) return;
  w.str(call.name());
  w.varint(call.args.size());
  const bool udf = functions::is_udf(*call.spec);
  for (size_t i = 0; i < call.args.size(); ++i) {
    w.str(call.args.name(i));
    if (udf && call.args.name(i) == functions::kUdfIdParam) {
      w.boolean(true);  // the callable's bytes instead of its id
      w.str(encode_udf(std::get<int64_t>(call.args.value(i))));
    } else {
      w.boolean(false);
      write_arg(w, call.args.value(i));
    }
  }
}

functions::FunctionCall read_function(ByteReader& r) {
  if (!r.boolean()) return {};
  const size_t at = r.offset();
  const std::string name = r.str();
  const functions::FunctionSpec* spec = functions::find(name);
  if (!spec) {
    throw ComputeError(err_msg("cannot deserialize the plan: unknown function `", name, "` at byte ", at,
                               " (written by another frazil version?)"));
  }
  std::vector<functions::ArgValue> values;
  for (const auto& p : spec->params) values.push_back(p.default_value);
  const size_t n = r.count(2);
  for (size_t k = 0; k < n; ++k) {
    const size_t param_at = r.offset();
    const std::string param = r.str();
    size_t i = 0;
    while (i < spec->params.size() && spec->params[i].name != param) ++i;
    if (i == spec->params.size()) {
      throw ComputeError(err_msg("cannot deserialize the plan: function `", name, "` has no parameter `", param,
                                 "` (at byte ", param_at, ")"));
    }
    const functions::Param& p = spec->params[i];
    functions::ArgValue v;
    if (r.boolean()) {
      if (!functions::is_udf(*spec) || p.name != functions::kUdfIdParam) r.fail("a callable where none can be");
      v = decode_udf(r.str());
    } else {
      v = read_arg(r);
    }
    const bool none_ok = p.nullable || std::holds_alternative<std::monostate>(p.default_value);
    if (!(v.index() == arg_index(p.type) || (none_ok && std::holds_alternative<std::monostate>(v)))) {
      throw ComputeError(err_msg("cannot deserialize the plan: parameter `", param, "` of `", name, "` at byte ",
                                 param_at, " is not of type ", functions::arg_type_name(p.type)));
    }
    values[i] = std::move(v);
  }
  return functions::FunctionCall(*spec, functions::Args(spec->params, std::move(values)));
}

void write_window(ByteWriter& w, const dsl::WindowOptions& o) {
  w.u8(static_cast<uint8_t>(o.kind));
  w.varint(o.num_order_by);
  w.boolean(o.descending);
  w.boolean(o.nulls_last);
  w.u8(static_cast<uint8_t>(o.mapping));
  w.str(o.period);
  w.str(o.offset);
  w.str(o.closed);
}

dsl::WindowOptions read_window(ByteReader& r) {
  dsl::WindowOptions o;
  o.kind = static_cast<dsl::WindowKind>(r.enum_u8(2, "window kind"));
  o.num_order_by = r.varint();
  o.descending = r.boolean();
  o.nulls_last = r.boolean();
  o.mapping = static_cast<dsl::WindowMapping>(r.enum_u8(3, "window mapping"));
  o.period = r.str();
  o.offset = r.str();
  o.closed = r.str();
  return o;
}

void write_agg_options(ByteWriter& w, const compute::AggOptions& o) {
  w.i64(o.ddof);
  w.f64(o.quantile);
  w.str(o.interpolation);
  w.boolean(o.ignore_nulls);
}

compute::AggOptions read_agg_options(ByteReader& r) {
  compute::AggOptions o;
  const int64_t ddof = r.i64();
  if (ddof < 0 || ddof > 255) r.fail(err_msg("an invalid ddof ", ddof));
  o.ddof = static_cast<int>(ddof);
  o.quantile = r.f64();
  o.interpolation = r.str();
  o.ignore_nulls = r.boolean();
  return o;
}

void write_sort_flags(ByteWriter& w, const dsl::SortFlags& s) {
  w.boolean(s.descending);
  w.boolean(s.nulls_last);
  w.boolean(s.maintain_order);
  w.bools(s.descending_by);
  w.bools(s.nulls_last_by);
}

dsl::SortFlags read_sort_flags(ByteReader& r) {
  dsl::SortFlags s;
  s.descending = r.boolean();
  s.nulls_last = r.boolean();
  s.maintain_order = r.boolean();
  s.descending_by = r.bools();
  s.nulls_last_by = r.bools();
  return s;
}

}  // namespace frazil::serde
