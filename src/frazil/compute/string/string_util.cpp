#include "frazil/compute/string/string_util.hpp"

#include "frazil/compute/cast.hpp"

namespace frazil::compute::detail {

IntArg::IntArg(const Array& a, int64_t n, const char* what) {
  if (a.length() != 1 && a.length() != n)
    throw ShapeError(err_msg("arguments for `", what, "` have different lengths (", n, " != ", a.length(), ")"));
  one_ = a.length() == 1;
  if (a.dtype().is_null()) {
    null_ = true;
    return;
  }
  if (!a.dtype().is_integer())
    throw InvalidOperationError(err_msg("`", what, "` expects an integer argument, got ", a.dtype()));
  ints_ = a.dtype().id() == TypeId::Int64 ? share(a) : cast(a, DataType::int64(), false);
}

std::string rust_regex_to_re2(std::string_view p) {
  static const char* const kWord = "\\pL\\p{Nl}\\pM\\p{Nd}\\p{Pc}\\x{200C}\\x{200D}";
  static const char* const kSpace =
      "\\t\\n\\x0B\\f\\r \\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}"
      "\\x{3000}";
  std::string out;
  out.reserve(p.size() + 16);
  int depth = 0;  // inside a character class
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      const char e = p[++i];
      const bool in_class = depth > 0;
      switch (e) {
        case 'd': out += "\\p{Nd}"; break;
        case 'D': out += "\\P{Nd}"; break;
        case 'w': out += in_class ? std::string(kWord) : "[" + std::string(kWord) + "]"; break;
        case 'W': out += in_class ? std::string("\\W") : "[^" + std::string(kWord) + "]"; break;
        case 's': out += in_class ? std::string(kSpace) : "[" + std::string(kSpace) + "]"; break;
        case 'S': out += in_class ? std::string("\\S") : "[^" + std::string(kSpace) + "]"; break;
        default:
          out.push_back('\\');
          out.push_back(e);
          // \x{..}, \p{..}, \P{..}: copy the braces as they are.
          if ((e == 'x' || e == 'p' || e == 'P') && i + 1 < p.size() && p[i + 1] == '{') {
            const size_t close = p.find('}', i + 1);
            if (close != std::string_view::npos) {
              out.append(p.substr(i + 1, close - i));
              i = close;
            }
          }
      }
      continue;
    }
    if (c == '[') {
      if (depth > 0 && i + 1 < p.size() && p[i + 1] == ':') {
        // [:alpha:] inside a class.
        const size_t close = p.find(":]", i + 2);
        if (close != std::string_view::npos) {
          out.append(p.substr(i, close + 2 - i));
          i = close + 1;
          continue;
        }
      }
      ++depth;
      out.push_back(c);
      // A ']' right after '[' or '[^' is a literal.
      if (i + 1 < p.size() && p[i + 1] == '^') out.push_back(p[++i]);
      if (i + 1 < p.size() && p[i + 1] == ']') out.push_back(p[++i]);
      continue;
    }
    if (c == ']' && depth > 0) --depth;
    // Rust's (?<name>...) is RE2's (?P<name>...) (look-behinds (?<= (?<! stay refused).
    if (c == '(' && depth == 0 && p.substr(i, 3) == "(?<" && i + 3 < p.size() && p[i + 3] != '=' &&
        p[i + 3] != '!') {
      out += "(?P<";
      i += 2;
      continue;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace frazil::compute::detail
