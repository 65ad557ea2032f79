// A hand-made Arrow producer for tests: owns its buffers and children and counts how
// often its release callback runs, so tests can check "exactly once".
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "frazil/io/arrow/c_abi.hpp"

namespace frazil::testing {

struct ProducerArray {
  std::vector<std::vector<uint8_t>> storage;
  std::vector<const void*> buffers;
  std::vector<std::unique_ptr<ProducerArray>> children_owned;
  std::vector<ArrowArray*> children;
  std::unique_ptr<ProducerArray> dictionary_owned;
  ArrowArray array{};
  int* release_count = nullptr;

  template <typename T>
  void add(const std::vector<T>& values) {
    storage.emplace_back(values.size() * sizeof(T) + 64);
    if (!values.empty()) std::memcpy(storage.back().data(), values.data(), values.size() * sizeof(T));
    buffers.push_back(storage.back().data());
  }
  void add_null() { buffers.push_back(nullptr); }
  void add_bits(const std::vector<bool>& bits) {
    std::vector<uint8_t> bytes((bits.size() + 7) / 8 + 8, 0);
    for (size_t i = 0; i < bits.size(); ++i)
      if (bits[i]) bytes[i / 8] |= uint8_t(1u << (i % 8));
    storage.push_back(std::move(bytes));
    buffers.push_back(storage.back().data());
  }
  void add_child(std::unique_ptr<ProducerArray> c) {
    children_owned.push_back(std::move(c));
  }

  // Fills `array`; the release callback frees nothing (the ProducerArray owns it all)
  // but counts calls and releases children as the specification requires.
  ArrowArray* finish(int64_t length, int64_t null_count = 0, int64_t offset = 0) {
    for (auto& c : children_owned) {
      children.push_back(&c->array);
    }
    array.length = length;
    array.null_count = null_count;
    array.offset = offset;
    array.n_buffers = static_cast<int64_t>(buffers.size());
    array.buffers = buffers.data();
    array.n_children = static_cast<int64_t>(children.size());
    array.children = children.empty() ? nullptr : children.data();
    array.dictionary = dictionary_owned ? &dictionary_owned->array : nullptr;
    array.private_data = this;
    array.release = [](ArrowArray* a) {
      auto* self = static_cast<ProducerArray*>(a->private_data);
      for (int64_t i = 0; i < a->n_children; ++i)
        if (a->children[i]->release) a->children[i]->release(a->children[i]);
      if (a->dictionary && a->dictionary->release) a->dictionary->release(a->dictionary);
      if (self->release_count) ++*self->release_count;
      a->release = nullptr;
    };
    return &array;
  }
};

// A schema node with static storage for its strings.
struct ProducerSchema {
  std::string format, name;
  std::vector<std::unique_ptr<ProducerSchema>> children_owned;
  std::vector<ArrowSchema*> children;
  std::unique_ptr<ProducerSchema> dictionary_owned;
  ArrowSchema schema{};

  ProducerSchema(std::string f, std::string n = "") : format(std::move(f)), name(std::move(n)) {}
  ProducerSchema* child(std::string f, std::string n = "") {
    children_owned.push_back(std::make_unique<ProducerSchema>(std::move(f), std::move(n)));
    return children_owned.back().get();
  }
  ArrowSchema* finish() {
    children.clear();
    for (auto& c : children_owned) children.push_back(c->finish());
    schema.format = format.c_str();
    schema.name = name.c_str();
    schema.metadata = nullptr;
    schema.flags = ARROW_FLAG_NULLABLE;
    schema.n_children = static_cast<int64_t>(children.size());
    schema.children = children.empty() ? nullptr : children.data();
    schema.dictionary = dictionary_owned ? dictionary_owned->finish() : nullptr;
    schema.private_data = nullptr;
    schema.release = [](ArrowSchema* s) { s->release = nullptr; };
    return &schema;
  }
};

}  // namespace frazil::testing
