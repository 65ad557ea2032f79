// Building and reading List(Int64) arrays in the list kernel tests.
#pragma once

#include <optional>
#include <vector>

#include "../elementwise_test_util.hpp"
#include "frazil/compute/explode.hpp"

namespace frazil::test {

using ListValue = std::optional<Opt<int64_t>>;  // nullopt: a null list
using Lists64 = std::vector<ListValue>;

// A List(Int64) array from its rows; `hidden` elements sit under each null list (as Arrow
// allows), and the array is sliced by `skip` rows when given (a list with an offset).
inline ArrayRef list_i64(const Lists64& rows, int64_t hidden = 0, int64_t skip = 0) {
  Opt<int64_t> values;
  Buffer offsets = Buffer::allocate((rows.size() + 1) * sizeof(int64_t));
  int64_t* o = offsets.mutable_as<int64_t>();
  Buffer validity = Buffer::zeroed((rows.size() + 7) / 8);
  o[0] = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i]) {
      set_bit(validity.mutable_data(), i);
      values.insert(values.end(), rows[i]->begin(), rows[i]->end());
    } else {
      for (int64_t k = 0; k < hidden; ++k) values.push_back(-1);
    }
    o[i + 1] = static_cast<int64_t>(values.size());
  }
  ArrayRef a = Array::make(DataType::list(DataType::int64()), static_cast<int64_t>(rows.size()), validity, {offsets},
                           {i64(values)});
  return skip ? a->slice(skip, a->length() - skip) : a;
}

// The rows of a List(Int64) array.
inline Lists64 rows_of(const Array& list) {
  Lists64 out;
  const int64_t* o = list.list_offsets();
  for (int64_t i = 0; i < list.length(); ++i) {
    if (list.is_null(i)) {
      out.push_back(std::nullopt);
      continue;
    }
    ArrayRef part = list.child(0)->slice(o[i], o[i + 1] - o[i]);
    out.push_back(values_of<int64_t>(*part));
  }
  return out;
}

}  // namespace frazil::test
