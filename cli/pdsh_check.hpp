// Compares a query result with a reference answer the way polars.testing.assert_frame_equal
// does with check_dtypes=False: same column names in order, same rows in order, numbers
// equal within rtol=1e-5 / atol=1e-8 whatever their integer or float width.
#pragma once

#include <optional>
#include <string>

#include <frazil/frazil.hpp>

namespace frazil::cli {

// nullopt when equal, else a description of the first difference.
std::optional<std::string> frame_mismatch(const DataFrame& result, const DataFrame& expected);

}  // namespace frazil::cli
