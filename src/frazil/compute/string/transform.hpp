// Kernels of Polars' `str` namespace that reshape each string: slice, head, tail,
// reverse (by grapheme), lengths, strip_chars(_start/_end), strip_prefix/suffix,
// pad_start/pad_end, zfill, case mapping (full Unicode mappings through ICU, final sigma
// included), titlecase, normalize (utf8proc). Positions and lengths count characters
// (code points). Integer and String arguments are arrays of one value or one per row.
#pragma once

#include <optional>
#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Negative offset counts from the end; a null length means to the end.
ArrayRef str_slice(const Array& values, const Array& offset, const Array& length);
ArrayRef str_slice(const Array& values, int64_t offset, std::optional<int64_t> length);
// The first / last n characters (negative n: all but the last / first -n).
ArrayRef str_head(const Array& values, const Array& n);
ArrayRef str_tail(const Array& values, const Array& n);
ArrayRef str_reverse(const Array& values);
ArrayRef str_len_bytes(const Array& values);  // UInt32
ArrayRef str_len_chars(const Array& values);  // UInt32

enum class StripSide { Both, Start, End };
// characters null (or a Null array): Unicode White_Space; otherwise any of its code points.
ArrayRef str_strip_chars(const Array& values, const Array& characters, StripSide side);
ArrayRef str_strip_chars(const Array& values, const std::optional<std::string>& characters);
ArrayRef str_strip_prefix(const Array& values, const Array& prefix);
ArrayRef str_strip_suffix(const Array& values, const Array& suffix);

// Pads to `length` characters with one fill character (at the start or the end).
ArrayRef str_pad(const Array& values, const Array& length, const std::string& fill, bool at_start);
// Zeros after a leading sign up to `length` characters.
ArrayRef str_zfill(const Array& values, const Array& length);

ArrayRef str_to_uppercase(const Array& values);
ArrayRef str_to_lowercase(const Array& values);
// Lowercase, then the first letter after any non-letter uppercased (Polars' rule).
ArrayRef str_to_titlecase(const Array& values);
// form: "NFC", "NFKC", "NFD", "NFKD".
ArrayRef str_normalize(const Array& values, const std::string& form);

}  // namespace frazil::compute
