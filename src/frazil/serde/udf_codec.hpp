// How user-defined functions travel in a serialized plan: an expression holds only a
// callable's id (functions/udf.hpp), so the host that registered the callable (the Python
// bindings: pickle) provides the codec. Without one, a plan with a UDF is refused.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace frazil::serde {

struct UdfCodec {
  // The bytes of callable `id`; throws when it cannot be serialized (a C++ callable).
  std::function<std::string(int64_t id)> encode;
  // Registers the callable the bytes describe and returns its new id.
  std::function<int64_t(std::string_view bytes)> decode;
};

// Installs the codec (an empty one removes it).
void set_udf_codec(UdfCodec codec);
std::string encode_udf(int64_t id);
int64_t decode_udf(std::string_view bytes);

}  // namespace frazil::serde
