"""Counts that cannot wrap: row indices, counts and group sizes are UInt32 (as in Polars'
default build), so a query past 2**32 - 2 rows raises ComputeError ("maximum length
reached") instead of answering modulo 2**32 (len() over 430 x 10M rows gave 5,032,704).
The inputs hold 2**32 + 1 rows without materializing them: many references to one frame,
and a Parquet file whose 641 row groups all point at the same column chunk."""
import io
import struct

import numpy as np
import polars
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import frazil as pl

PART = 6_700_417  # 641 * PART == 2**32 + 1
COPIES = 641


@pytest.fixture(scope="module")
def part():
    return pl.from_arrow(pa.table({"a": np.zeros(PART, dtype=np.int8)}))


@pytest.mark.parametrize("query", [
    pytest.param(lambda lf: lf.select(pl.len()), id="len"),
    pytest.param(lambda lf: lf.select(pl.col("a").count()), id="count"),
    pytest.param(lambda lf: lf.group_by(pl.lit(1)).agg(pl.len()), id="group_len"),
    pytest.param(lambda lf: lf.with_row_index().select(pl.len()), id="row_index"),
    pytest.param(lambda lf: lf.select(pl.col("a").sum()), id="sum"),
])
def test_concat_of_references_past_the_limit_raises(part, query):
    with pytest.raises(pl.exceptions.ComputeError, match="maximum length reached"):
        query(pl.concat([part.lazy()] * COPIES)).collect()


def test_concat_just_below_the_limit_counts_right(part):
    out = pl.concat([part.lazy()] * (COPIES - 1)).select(pl.len()).collect()
    assert out.rows() == [((COPIES - 1) * PART,)]


@pytest.fixture(scope="module")
def big_parquet(tmp_path_factory):
    """A Parquet file of 2**32 + 1 rows in 93 KB: one row group of PART zeros, listed 641
    times in the footer (every listing points at the same pages)."""
    path = tmp_path_factory.mktemp("big") / "one.parquet"
    pq.write_table(pa.table({"a": np.zeros(PART, dtype=np.int8)}), path, row_group_size=PART)
    raw = path.read_bytes()
    data = raw[: len(raw) - 8 - struct.unpack("<I", raw[-8:-4])[0]]
    meta = pq.read_metadata(path)
    for _ in range(COPIES - 1):
        meta.append_row_groups(pq.read_metadata(path))
    buf = io.BytesIO()
    meta.write_metadata_file(buf)
    footer = buf.getvalue()[4:-8]  # PAR1 <footer> <length> PAR1
    out = path.with_name("big.parquet")
    out.write_bytes(data + footer + struct.pack("<I", len(footer)) + b"PAR1")
    assert pq.read_metadata(out).num_rows == 2**32 + 1
    return out


@pytest.mark.parametrize("query", [
    pytest.param(lambda lf: lf.select(pl.len()), id="len"),
    pytest.param(lambda lf: lf.select(pl.col("a").count()), id="count"),
])
def test_streamed_counts_past_the_limit_raise(big_parquet, query):
    # The scan streams row group by row group; only the total of the morsels' counts passes
    # UInt32, and it must raise rather than wrap to 1.
    with pytest.raises(pl.exceptions.ComputeError, match=r"maximum length reached: (len|count)\(\) counts 4294967297"):
        query(pl.scan_parquet(big_parquet)).collect()


@pytest.mark.parametrize("offset", [0, 2**32 - 3, 2**32 - 2, 2**32 - 1, 2**32, -1, 2**64])
def test_row_index_offsets_as_polars(offset):
    # Polars' eager with_row_index is the reference (its streaming one panics on overflow).
    def run(m):
        try:
            return m.DataFrame({"a": [1, 2]}).with_row_index(offset=offset)["index"].to_list()
        except Exception as e:
            return type(e).__name__

    assert run(pl) == run(polars)
