// The C++ face of Polars' `str` namespace: col("a").str().contains("x"). Each method is
// the registry's function of the same name; text arguments may be given as strings
// (literals) or as expressions (one value per row).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/dsl/expr.hpp"

namespace frazil::dsl {

class StrNameSpace {
 public:
  explicit StrNameSpace(Expr e) : e_(std::move(e)) {}

  Expr contains(const Expr& pattern, bool literal = false, bool strict = true) const;
  Expr contains(const std::string& pattern, bool literal = false) const { return contains(lit(pattern), literal); }
  Expr starts_with(const Expr& prefix) const;
  Expr starts_with(const std::string& prefix) const { return starts_with(lit(prefix)); }
  Expr ends_with(const Expr& suffix) const;
  Expr ends_with(const std::string& suffix) const { return ends_with(lit(suffix)); }
  Expr count_matches(const std::string& pattern, bool literal = false) const;
  Expr find(const std::string& pattern, bool literal = false, bool strict = true) const;
  Expr extract(const std::string& pattern, int64_t group_index = 1) const;
  Expr extract_all(const std::string& pattern) const;
  Expr extract_groups(const std::string& pattern) const;
  Expr replace(const std::string& pattern, const Expr& value, bool literal = false, int64_t n = 1) const;
  Expr replace_all(const std::string& pattern, const Expr& value, bool literal = false) const;
  Expr escape_regex() const;
  Expr contains_any(const std::vector<std::string>& patterns, bool ascii_case_insensitive = false) const;
  Expr replace_many(const std::vector<std::string>& patterns, const std::vector<std::string>& replace_with,
                    bool ascii_case_insensitive = false, bool leftmost = false) const;
  Expr extract_many(const std::vector<std::string>& patterns, bool ascii_case_insensitive = false,
                    bool overlapping = false, bool leftmost = false) const;
  Expr find_many(const std::vector<std::string>& patterns, bool ascii_case_insensitive = false,
                 bool overlapping = false, bool leftmost = false) const;

  Expr slice(const Expr& offset, const Expr& length) const;
  Expr slice(int64_t offset, std::optional<int64_t> length = std::nullopt) const;
  Expr head(const Expr& n) const;
  Expr tail(const Expr& n) const;
  Expr reverse() const;
  Expr len_bytes() const;
  Expr len_chars() const;
  Expr to_uppercase() const;
  Expr to_lowercase() const;
  Expr to_titlecase() const;
  Expr normalize(const std::string& form = "NFC") const;
  Expr strip_chars() const;  // whitespace
  Expr strip_chars(const std::string& characters) const;
  Expr strip_chars_start(const std::string& characters) const;
  Expr strip_chars_end(const std::string& characters) const;
  Expr strip_prefix(const std::string& prefix) const;
  Expr strip_suffix(const std::string& suffix) const;
  Expr pad_start(const Expr& length, const std::string& fill_char = " ") const;
  Expr pad_end(const Expr& length, const std::string& fill_char = " ") const;
  Expr zfill(const Expr& length) const;

  Expr split(const std::string& by, bool inclusive = false) const;
  Expr split_exact(const std::string& by, int64_t n, bool inclusive = false) const;
  Expr splitn(const std::string& by, int64_t n) const;

  // format nullopt: inferred from the data.
  Expr to_date(std::optional<std::string> format = std::nullopt, bool strict = true, bool exact = true) const;
  Expr to_datetime(std::optional<std::string> format = std::nullopt, TimeUnit unit = TimeUnit::Microseconds,
                   std::optional<std::string> time_zone = std::nullopt, bool strict = true, bool exact = true,
                   const std::string& ambiguous = "raise") const;
  Expr to_time(std::optional<std::string> format = std::nullopt, bool strict = true) const;
  Expr to_integer(const Expr& base, const DataType& dtype = DataType::int64(), bool strict = true) const;
  Expr to_decimal(int scale) const;
  Expr encode(const std::string& encoding) const;
  Expr decode(const std::string& encoding, bool strict = true) const;
  Expr json_decode(const DataType& dtype) const;
  Expr json_path_match(const std::string& path) const;
  Expr join(const std::string& delimiter = "", bool ignore_nulls = true) const;

 private:
  Expr e_;
};

// pl.concat_str: the inputs row by row (others cast to String) joined by `separator`.
Expr concat_str(std::vector<Expr> inputs, const std::string& separator = "", bool ignore_nulls = false);

}  // namespace frazil::dsl
