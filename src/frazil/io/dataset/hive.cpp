#include "frazil/io/dataset/hive.hpp"

#include <filesystem>

#include "frazil/core/error.hpp"
#include "frazil/io/csv/csv_reader.hpp"

namespace frazil::io {

namespace fs = std::filesystem;

namespace {

std::string percent_decode(const std::string& s) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

constexpr char kSep = '\x1f';  // no path segment holds it: the values' CSV needs no quoting

}  // namespace

std::vector<std::pair<std::string, std::string>> hive_partitions(const std::string& base, const std::string& file) {
  std::vector<std::pair<std::string, std::string>> out;
  fs::path rel = base.empty() ? fs::path(file) : fs::path(file).lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..") rel = fs::path(file);
  std::vector<std::string> segs;
  for (const auto& p : rel) segs.push_back(p.string());
  if (!segs.empty()) segs.pop_back();  // the file name itself
  for (const auto& seg : segs) {
    const size_t eq = seg.find('=');
    // One '=' with a key before it; globs are not partitions.
    if (eq == std::string::npos || eq == 0 || seg.find('=', eq + 1) != std::string::npos ||
        seg.find('*') != std::string::npos)
      continue;
    std::string key = percent_decode(seg.substr(0, eq));
    std::string val = percent_decode(seg.substr(eq + 1));
    bool replaced = false;
    for (auto& kv : out)
      if (kv.first == key) {
        kv.second = val;
        replaced = true;
      }
    if (!replaced) out.emplace_back(std::move(key), std::move(val));
  }
  return out;
}

HivePartitions read_hive_partitions(const std::vector<std::string>& files, const std::vector<std::string>& bases,
                                    const Schema& file_schema, const std::optional<Schema>& hive_schema,
                                    bool try_parse_dates) {
  HivePartitions out;
  if (files.empty()) return out;
  std::vector<std::vector<std::pair<std::string, std::string>>> parts;
  for (size_t i = 0; i < files.size(); ++i) parts.push_back(hive_partitions(bases.at(i), files[i]));
  std::vector<std::string> keys;
  for (const auto& kv : parts[0]) keys.push_back(kv.first);
  if (keys.empty()) return out;
  // The values as a CSV (one row per file) read with the CSV reader's inference and parsers.
  std::string text;
  // A last constant column keeps rows of only nulls from being empty lines.
  for (size_t k = 0; k < keys.size(); ++k) text += keys[k] + kSep;
  text += "\x1e\n";
  for (size_t f = 0; f < files.size(); ++f) {
    for (size_t k = 0; k < keys.size(); ++k) {
      const std::string* v = nullptr;
      for (const auto& kv : parts[f])
        if (kv.first == keys[k]) v = &kv.second;
      if (!v)
        throw SchemaError(err_msg("hive partition key '", keys[k], "' is missing from the path '", files[f], "'"));
      if (*v != "__HIVE_DEFAULT_PARTITION__") text += *v;
      text += kSep;
    }
    text += "0\n";
  }
  CsvReadOptions o;
  o.separator = kSep;
  o.quote_char.reset();
  o.infer_schema_length.reset();
  o.try_parse_dates = try_parse_dates;
  std::vector<Field> fields;
  for (const auto& k : keys) {
    if (hive_schema) {
      auto t = hive_schema->index_of(k);
      if (!t)
        throw SchemaFieldNotFoundError(err_msg("path contains column not present in the given Hive schema: \"", k,
                                               "\", path = \"", files[0], "\""));
      DataType dt = hive_schema->field(*t).dtype;
      if (!try_parse_dates && dt.is_temporal()) dt = DataType::string();
      fields.push_back(Field{k, dt});
    } else if (auto i = file_schema.index_of(k)) {
      DataType dt = file_schema.field(*i).dtype;
      if (!try_parse_dates && dt.is_temporal()) dt = DataType::string();
      fields.push_back(Field{k, dt});
    }
  }
  if (hive_schema) {
    fields.push_back(Field{"\x1e", DataType::string()});
    o.schema = Schema(fields);
  } else {
    o.schema_overrides = fields;
  }
  o.columns = keys;
  out.values = read_csv_bytes(std::move(text), o);
  out.schema = out.values.schema();
  return out;
}

}  // namespace frazil::io
