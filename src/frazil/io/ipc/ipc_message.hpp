// Encapsulated messages of the Arrow IPC format: [0xFFFFFFFF][int32 metadata length]
// [Message flatbuffer, padded to 8 bytes][body]. A 0 length ends a stream; streams from
// before Arrow 0.15 lack the 0xFFFFFFFF marker, and are read too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frazil/io/fs/input_file.hpp"
#include "frazil/io/fs/output_file.hpp"
#include "frazil/io/ipc/format/Message_generated.h"

namespace frazil::io::ipc {

struct MessageRead {
  Buffer metadata;  // holds the verified flatbuffer
  const fb::Message* message = nullptr;
  int64_t body_offset = 0;  // in the input
  int64_t body_length = 0;
  int64_t end = 0;          // where the next message starts
};

// The message at `pos`: nullopt at an end-of-stream marker or at the end of the input.
// Throws ComputeError naming the input and position when the bytes are not a message.
std::optional<MessageRead> read_message(const InputFile& in, int64_t pos);

// Verifies the flatbuffer of a message (or a file footer) before it is read.
const fb::Message* verify_message(const Buffer& bytes, const std::string& context);

// Writes one message (its metadata from a finished builder, then `body`, whose length must
// be a multiple of 8) and returns the length of the metadata part with its prefix and
// padding (what a file footer's Block records).
int32_t write_message(OutputStream& out, const flatbuffers::FlatBufferBuilder& fbb, const std::vector<uint8_t>& body);
// The same with a body of pieces, each padded with zeros to a multiple of 8 bytes.
struct BatchBody;
int32_t write_message(OutputStream& out, const flatbuffers::FlatBufferBuilder& fbb, const BatchBody& body);

// The end-of-stream marker.
void write_end_of_stream(OutputStream& out);

}  // namespace frazil::io::ipc
