#include "frazil/dsl/name_namespace.hpp"

#include <cctype>
#include <memory>

#include "frazil/compute/string/string_util.hpp"
#include "frazil/compute/string/transform.hpp"
#include "frazil/core/builder.hpp"

namespace frazil::dsl {

NameNameSpace Expr::name() const { return NameNameSpace(*this); }

namespace {

// One name through a String kernel (Unicode case mapping as the str namespace does it).
std::string through(ArrayRef (*kernel)(const Array&), const std::string& s) {
  ViewBuilder b;
  b.push(s);
  return std::string(kernel(*b.finish())->str_value(0));
}

}  // namespace

Expr NameNameSpace::keep() const {
  ExprNode n;
  n.kind = ExprKind::KeepName;
  n.inputs = {e_};
  return Expr::make(std::move(n));
}

Expr NameNameSpace::map(NameMapping fn, std::string display) const {
  ExprNode n;
  n.kind = ExprKind::RenameAlias;
  n.inputs = {e_};
  n.names = {std::move(display)};
  n.rename = std::make_shared<const NameMapping>(std::move(fn));
  return Expr::make(std::move(n));
}

Expr NameNameSpace::prefix(const std::string& prefix) const {
  return map([prefix](const std::string& s) { return prefix + s; }, ".name.prefix(" + prefix + ")");
}

Expr NameNameSpace::suffix(const std::string& suffix) const {
  return map([suffix](const std::string& s) { return s + suffix; }, ".name.suffix(" + suffix + ")");
}

Expr NameNameSpace::to_lowercase() const {
  return map([](const std::string& s) { return through(&compute::str_to_lowercase, s); }, ".name.to_lowercase()");
}

Expr NameNameSpace::to_uppercase() const {
  return map([](const std::string& s) { return through(&compute::str_to_uppercase, s); }, ".name.to_uppercase()");
}

Expr NameNameSpace::strip_prefix(const std::string& prefix) const {
  return map([prefix](const std::string& s) { return s.starts_with(prefix) ? s.substr(prefix.size()) : s; },
             ".name.strip_prefix(" + prefix + ")");
}

Expr NameNameSpace::strip_suffix(const std::string& suffix) const {
  return map([suffix](const std::string& s) { return s.ends_with(suffix) ? s.substr(0, s.size() - suffix.size()) : s; },
             ".name.strip_suffix(" + suffix + ")");
}

Expr NameNameSpace::replace(const std::string& pattern, const std::string& value, bool literal) const {
  std::shared_ptr<const RE2> re;
  if (!literal) {
    // A bad pattern fails here, in the words of Rust's regex crate where they differ.
    RE2::Options opts;
    opts.set_log_errors(false);
    auto compiled = std::make_shared<const RE2>(compute::detail::rust_regex_to_re2(pattern), opts);
    if (!compiled->ok()) {
      const std::string why = compiled->error_code() == RE2::ErrorRepeatArgument
                                  ? "repetition operator missing expression"
                                  : compiled->error();
      throw ComputeError(err_msg("regex parse error: ", why, " in pattern '", pattern, "'"));
    }
    re = std::move(compiled);
  }
  return map(
      [pattern, value, literal, re](const std::string& s) {
        if (literal) {
          if (pattern.empty()) return s;
          std::string out;
          size_t pos = 0;
          for (size_t at; (at = s.find(pattern, pos)) != std::string::npos; pos = at + pattern.size())
            out += s.substr(pos, at - pos) + value;
          return out + s.substr(pos);
        }
        std::string out = s;
        // Polars' $1 / ${name} group references; RE2 writes \1.
        std::string rewrite;
        for (size_t i = 0; i < value.size(); ++i) {
          if (value[i] == '$' && i + 1 < value.size() && std::isdigit(static_cast<unsigned char>(value[i + 1]))) {
            rewrite += '\\';
          } else if (value[i] == '\\') {
            rewrite += "\\\\";
          } else {
            rewrite += value[i];
          }
        }
        RE2::GlobalReplace(&out, *re, rewrite);
        return out;
      },
      ".name.replace(" + pattern + ", " + value + ")");
}

Expr NameNameSpace::prefix_fields(const std::string& prefix) const {
  return e_.function("name.prefix_fields", {}, {{"prefix", prefix}});
}

Expr NameNameSpace::suffix_fields(const std::string& suffix) const {
  return e_.function("name.suffix_fields", {}, {{"suffix", suffix}});
}

Expr selector(ColumnSelection select, std::string display) {
  ExprNode n;
  n.kind = ExprKind::Selector;
  n.names = {std::move(display)};
  n.select = std::make_shared<const ColumnSelection>(std::move(select));
  return Expr::make(std::move(n));
}

}  // namespace frazil::dsl
