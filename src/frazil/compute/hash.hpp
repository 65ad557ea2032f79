// Hashing of rows for group-by, join and unique. Equal values hash equally across
// chunks; floats are canonicalised (-0.0 -> 0.0, every NaN -> one NaN); null has its own
// hash.
#pragma once

#include <cstdint>
#include <vector>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// out[i] = hash(values[i]) if !combine, else out[i] = combine(out[i], hash(values[i])).
void hash_array(const Array& values, uint64_t* out, bool combine);

// Hashes of the rows formed by several key columns of equal length.
std::vector<uint64_t> hash_rows(const std::vector<ArrayRef>& keys);

// Whether row i of `a` equals row j of `b` with null == null and NaN == NaN (group/join
// equality). a and b have the same dtype.
bool values_equal(const Array& a, int64_t i, const Array& b, int64_t j);

}  // namespace frazil::compute
