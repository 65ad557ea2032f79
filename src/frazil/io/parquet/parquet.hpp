// frazil's own Parquet reader and writer: the one header to include.
//   ParquetFile::open(path)          footer, schema, row-group statistics, read_row_group
//   read_parquet(path, options)       files, directories, globs, hive partitions
//   write_parquet(df, path, options)  zstd/snappy/gzip/lz4/uncompressed, dictionary, stats
#pragma once

#include "frazil/io/parquet/dataset.hpp"
#include "frazil/io/parquet/file_reader.hpp"
#include "frazil/io/parquet/statistics.hpp"
#include "frazil/io/parquet/writer.hpp"
