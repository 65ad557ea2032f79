#include "frazil/compute/string/many.hpp"

#include "frazil/compute/string/aho_corasick.hpp"
#include "frazil/compute/string/string_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// The patterns of row i of a List(String) array (nullopt for a null list); a String array
// of one value is one pattern.
std::optional<std::vector<std::string>> patterns_at(const Array& lists, int64_t i, const char* what) {
  const int64_t k = lists.length() == 1 ? 0 : i;
  if (lists.dtype().is_null() || lists.is_null(k)) return std::nullopt;
  std::vector<std::string> out;
  if (lists.dtype().is_string()) {
    out.emplace_back(lists.str_value(k));
    return out;
  }
  if (lists.dtype().id() != TypeId::List ||
      !(lists.dtype().inner().is_string() || lists.dtype().inner().is_null()))
    throw InvalidOperationError(err_msg(what, " operation not supported for dtypes `str` and `", lists.dtype().short_name(), "`"));
  const int64_t* off = lists.list_offsets();
  const Array& child = *lists.child(0);
  for (int64_t j = off[k]; j < off[k + 1]; ++j) {
    if (child.dtype().is_null() || child.is_null(j))
      throw InvalidOperationError("'patterns'/'replace_with' should not have nulls");
    out.emplace_back(child.str_value(j));
  }
  return out;
}

void require_one(const Array& lists, const char* what) {
  if (lists.length() != 1)
    throw ComputeError(err_msg("not yet implemented: `", what, "` with a pattern per row"));
}

}  // namespace

ArrayRef str_contains_any(const Array& values, const Array& patterns, bool ci) {
  require_string(values, "str.contains_any");
  require_one(patterns, "str.contains_any");
  if (patterns.dtype().id() == TypeId::List && patterns.dtype().inner().is_null())
    throw InvalidOperationError("str.contains_any operation not supported for dtypes `str` and `list[null]`");
  auto pats = patterns_at(patterns, 0, "str.contains_any");
  if (!pats) return make_null_array(DataType::boolean(), values.length());
  const AhoCorasick ac(*pats, ci);
  return predicate(values, [&](std::string_view s) { return ac.contains_any(s); });
}

ArrayRef str_replace_many(const Array& values, const Array& patterns, const Array& replace_with, bool ci,
                          bool leftmost) {
  require_string(values, "str.replace_many");
  require_one(patterns, "str.replace_many");
  require_one(replace_with, "str.replace_many");
  if (replace_with.dtype().is_string())
    throw InvalidOperationError(
        "`str.replace_many` with a flat str datatype as replacement is invalid. Use `implode` to wrap the string value "
        "into a list.");
  auto pats = patterns_at(patterns, 0, "str.replace_many");
  auto reps = patterns_at(replace_with, 0, "str.replace_many");
  if (!pats || !reps) return make_null_array(DataType::string(), values.length());
  if (reps->size() == 1 && pats->size() != 1) reps->resize(pats->size(), (*reps)[0]);
  if (reps->size() != pats->size())
    throw ShapeError("expected the same amount of patterns as replacement strings");
  const AhoCorasick ac(*pats, ci);
  std::vector<AhoCorasick::Match> matches;
  std::string buf;
  return map_strings(values, [&](int64_t i, std::string_view s, ViewWriter& w) {
    ac.find_all(s, leftmost, matches);
    if (matches.empty()) {
      w.push_same(i);
      return;
    }
    buf.clear();
    size_t last = 0;
    for (const auto& m : matches) {
      buf.append(s.substr(last, m.start - last));
      buf += (*reps)[m.pattern];
      last = m.end;
    }
    buf.append(s.substr(last));
    w.push_new(buf);
  });
}

namespace {

template <typename Emit>
void each_match_list(const Array& values, const Array& patterns, bool ci, bool overlapping, bool leftmost,
                     const char* what, int64_t n, Emit emit) {
  if (overlapping && leftmost) throw InvalidOperationError("can not use `overlapping` together with `leftmost`");
  std::optional<AhoCorasick> shared;
  if (patterns.length() == 1) {
    if (auto p = patterns_at(patterns, 0, what)) shared.emplace(*p, ci);
  }
  std::vector<AhoCorasick::Match> matches;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    std::optional<AhoCorasick> own;
    const AhoCorasick* ac = shared ? &*shared : nullptr;
    if (!shared && patterns.length() != 1) {
      if (auto p = patterns_at(patterns, i, what)) own.emplace(*p, ci), ac = &*own;
    }
    if (!ac || values.dtype().is_null() || values.is_null(r)) {
      emit(i, r, nullptr);
      continue;
    }
    const std::string_view s = values.str_value(r);
    if (overlapping) ac->find_overlapping(s, matches);
    else ac->find_all(s, leftmost, matches);
    emit(i, r, &matches);
  }
}

}  // namespace

ArrayRef str_extract_many(const Array& values, const Array& patterns, bool ci, bool overlapping, bool leftmost) {
  require_string(values, "str.extract_many");
  const int64_t n = output_length(values, {&patterns}, "str.extract_many");
  StringListBuilder b(values, n);
  each_match_list(values, patterns, ci, overlapping, leftmost, "str.extract_many", n,
                  [&](int64_t, int64_t r, const std::vector<AhoCorasick::Match>* ms) {
                    if (!ms) return b.end_row(false);
                    const std::string_view s = values.str_value(r);
                    for (const auto& m : *ms) b.add_sub(r, s, m.start, m.end - m.start);
                    b.end_row();
                  });
  return b.finish();
}

ArrayRef str_find_many(const Array& values, const Array& patterns, bool ci, bool overlapping, bool leftmost) {
  require_string(values, "str.find_many");
  const int64_t n = output_length(values, {&patterns}, "str.find_many");
  std::vector<int64_t> offsets{0};
  PrimitiveBuilder<uint32_t> positions(DataType::uint32());
  ValidityBuilder validity;
  each_match_list(values, patterns, ci, overlapping, leftmost, "str.find_many", n,
                  [&](int64_t, int64_t, const std::vector<AhoCorasick::Match>* ms) {
                    validity.push(ms != nullptr);
                    if (ms)
                      for (const auto& m : *ms) positions.push(static_cast<uint32_t>(m.start));
                    offsets.push_back(positions.length());
                  });
  Buffer off = Buffer::allocate(offsets.size() * sizeof(int64_t));
  std::memcpy(off.mutable_data(), offsets.data(), offsets.size() * sizeof(int64_t));
  const int64_t nulls = validity.null_count();
  return Array::make(DataType::list(DataType::uint32()), n, validity.finish(), {off}, {positions.finish()}, 0, nulls);
}

}  // namespace frazil::compute
