#include "frazil/serde/udf_codec.hpp"

#include <memory>
#include <mutex>

#include "frazil/core/error.hpp"

namespace frazil::serde {

namespace {
std::mutex& codec_mutex() {
  static std::mutex m;
  return m;
}
std::shared_ptr<const UdfCodec>& codec_slot() {
  static std::shared_ptr<const UdfCodec> c;
  return c;
}
std::shared_ptr<const UdfCodec> current() {
  std::lock_guard<std::mutex> lock(codec_mutex());
  return codec_slot();
}
}  // namespace

void set_udf_codec(UdfCodec codec) {
  std::shared_ptr<const UdfCodec> next;
  if (codec.encode && codec.decode) next = std::make_shared<const UdfCodec>(std::move(codec));
  std::lock_guard<std::mutex> lock(codec_mutex());
  codec_slot() = std::move(next);
}

std::string encode_udf(int64_t id) {
  auto c = current();
  if (!c) {
    throw ComputeError(err_msg("cannot serialize a user-defined function (id ", id,
                               "): only Python functions can be serialized, through the Python API"));
  }
  return c->encode(id);
}

int64_t decode_udf(std::string_view bytes) {
  auto c = current();
  if (!c) throw ComputeError("cannot deserialize a user-defined function: no host registered a way to load it (use the Python API)");
  return c->decode(bytes);
}

}  // namespace frazil::serde
