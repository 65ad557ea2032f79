// List kernels that change the shape of each list: to_struct (element i as field i), item
// (the one element of each list), sample (random elements of each list).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// A Struct with one field per name: field i holds element i of each list (null past its end).
ArrayRef list_to_struct(const Array& list, const std::vector<std::string>& fields);
// The single element of each list: ComputeError naming the row and length otherwise (an empty
// list gives null when allow_empty).
ArrayRef list_item(const Array& list, bool allow_empty);
// `n` (or `fraction` of the length) random elements of each list; without replacement a
// larger sample than the list is a ShapeError. shuffle: the sample in random order, else in
// the list's order.
ArrayRef list_sample(const Array& list, const Array& n_or_fraction, bool is_fraction, bool with_replacement,
                     bool shuffle, std::optional<uint64_t> seed);

}  // namespace frazil::compute
