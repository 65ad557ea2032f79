// rank: the position of each value in its segment's sorted order, ties resolved by method.
#pragma once

#include <cstdint>
#include <optional>

#include "frazil/compute/segments.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class RankMethod : uint8_t { Average, Min, Max, Dense, Ordinal, Random };

// 1-based ranks among the segment's non-null values (nulls stay null; NaN ranks above every
// number). Ties: average of their positions (Float64), the lowest or highest position, the
// number of distinct values up to them (dense), their order of appearance (ordinal) or a
// random order (seeded). Every method but average gives UInt32.
ArrayRef rank(const Array& values, Segments segments, RankMethod method, bool descending,
              std::optional<uint64_t> seed = std::nullopt);

}  // namespace frazil::compute
