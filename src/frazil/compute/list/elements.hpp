// List kernels that pick elements of each list: len, get, gather, gather_every, slice
// (head, tail), reverse, shift, drop_nulls, and concat_list. A null list stays null; an
// argument of one row applies to every list, a null argument gives a null list.
#pragma once

#include <span>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// The number of elements of each list (UInt32; null for a null list).
ArrayRef list_len(const Array& list);
// Element `index` of each list (negative: from the end). Out of bounds: null when
// null_on_oob, else ComputeError naming the row, the index and the list's length.
ArrayRef list_get(const Array& list, const Array& index, bool null_on_oob);
// The elements at `indices` (a List of integers, one list per row or one for all).
ArrayRef list_gather(const Array& list, const Array& indices, bool null_on_oob);
// Every n-th element from `offset`.
ArrayRef list_gather_every(const Array& list, const Array& n, const Array& offset);
// Polars' slice: `offset` negative from the end, `length` null to the end; clamped.
ArrayRef list_slice(const Array& list, const Array& offset, const Array& length);
ArrayRef list_head(const Array& list, const Array& n);
ArrayRef list_tail(const Array& list, const Array& n);
ArrayRef list_reverse(const Array& list);
// Elements moved by n places (positive: later, leading nulls).
ArrayRef list_shift(const Array& list, const Array& n);
ArrayRef list_drop_nulls(const Array& list);
// Row by row, the lists (or single values) of every input one after the other, all cast to
// the supertype of their inner dtypes. A null list or value in any input makes the row null.
ArrayRef concat_list(std::span<const ArrayRef> inputs);

}  // namespace frazil::compute
