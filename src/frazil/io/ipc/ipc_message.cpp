#include "frazil/io/ipc/ipc_message.hpp"

#include <cstring>

#include "frazil/core/error.hpp"
#include "frazil/io/ipc/ipc_batch.hpp"

namespace frazil::io::ipc {

namespace {

constexpr uint32_t kContinuation = 0xFFFFFFFFu;

[[noreturn]] void malformed(const InputFile& in, int64_t pos, const std::string& what) {
  throw ComputeError(err_msg("IPC '", in.name(), "': malformed message at byte ", pos, ": ", what));
}

}  // namespace

const fb::Message* verify_message(const Buffer& bytes, const std::string& context) {
  flatbuffers::Verifier v(bytes.data(), bytes.size());
  if (!fb::VerifyMessageBuffer(v)) throw ComputeError(err_msg("IPC ", context, ": message metadata is not a valid flatbuffer"));
  return fb::GetMessage(bytes.data());
}

std::optional<MessageRead> read_message(const InputFile& in, int64_t pos) {
  if (pos >= in.size()) return std::nullopt;
  if (in.size() - pos < 4) malformed(in, pos, "truncated length prefix");
  Buffer head = in.read(pos, std::min<int64_t>(8, in.size() - pos));
  uint32_t first;
  std::memcpy(&first, head.data(), 4);
  int64_t at = pos + 4;
  int32_t length;
  if (first == kContinuation) {
    if (head.size() < 8) malformed(in, pos, "truncated length prefix");
    std::memcpy(&length, head.data() + 4, 4);
    at += 4;
  } else {
    std::memcpy(&length, &first, 4);  // a stream from before Arrow 0.15
  }
  if (length == 0) return std::nullopt;
  if (length < 0 || length > in.size() - at) malformed(in, pos, err_msg("metadata length ", length, " exceeds the input"));
  MessageRead m;
  m.metadata = in.read(at, length);
  // Flatbuffers are read in place: keep them 8-byte aligned.
  if (reinterpret_cast<uintptr_t>(m.metadata.data()) % 8 != 0) {
    Buffer copy = Buffer::allocate(m.metadata.size());
    std::memcpy(copy.mutable_data(), m.metadata.data(), m.metadata.size());
    m.metadata = copy;
  }
  m.message = verify_message(m.metadata, err_msg("'", in.name(), "' at byte ", pos));
  m.body_offset = at + length;
  m.body_length = m.message->body_length();
  if (m.body_length < 0 || m.body_length > in.size() - m.body_offset)
    malformed(in, pos, err_msg("body of ", m.body_length, " bytes exceeds the input"));
  m.end = m.body_offset + m.body_length;
  return m;
}

int32_t write_message(OutputStream& out, const flatbuffers::FlatBufferBuilder& fbb, const std::vector<uint8_t>& body) {
  const size_t size = fbb.GetSize();
  const size_t padded = (size + 8 + 7) / 8 * 8 - 8;  // prefix + metadata end on an 8-byte boundary
  uint8_t prefix[8];
  const uint32_t marker = kContinuation;
  const int32_t len = static_cast<int32_t>(padded);
  std::memcpy(prefix, &marker, 4);
  std::memcpy(prefix + 4, &len, 4);
  out.write(prefix, 8);
  out.write(fbb.GetBufferPointer(), size);
  static const uint8_t zeros[8] = {};
  out.write(zeros, padded - size);
  if (!body.empty()) out.write(body.data(), body.size());
  return static_cast<int32_t>(8 + padded);
}

int32_t write_message(OutputStream& out, const flatbuffers::FlatBufferBuilder& fbb, const BatchBody& body) {
  const int32_t meta = write_message(out, fbb, std::vector<uint8_t>{});
  static const uint8_t zeros[8] = {};
  for (const auto& p : body.pieces) {
    if (p.size) out.write(p.data, p.size);
    out.write(zeros, (8 - p.size % 8) % 8);
  }
  return meta;
}

void write_end_of_stream(OutputStream& out) {
  const uint8_t eos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  out.write(eos, 8);
}

}  // namespace frazil::io::ipc
