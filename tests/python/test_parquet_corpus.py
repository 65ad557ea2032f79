"""make test's part of the parquet-testing corpus check (scripts/parquet_corpus.py): the
pyarrow-written equivalents of the corpus's encodings and damaged files are each read equal
to pyarrow or refused with a clear error, never wrong or a crash. The real corpus, when
fetched, is `make parquet-corpus`."""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.skipif(bool(os.environ.get("FRAZIL_VERIFY")), reason="whole-file reads: make test's verify pass adds nothing")
def test_generated_corpus_reads_equal_or_fails_clearly() -> None:
    env = dict(os.environ)
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "parquet_corpus.py"), "--generated"],
                       capture_output=True, text=True, env=env, timeout=600)
    counts = dict(re.findall(r"^(data|bad_data): (.*)$", p.stdout, re.M))
    assert set(counts) == {"data", "bad_data"}, p.stdout + p.stderr
    for line in counts.values():
        n = {k: int(v) for v, k in re.findall(r"(\d+) (equal|clear error|wrong|crash)", line)}
        assert n["wrong"] == 0 and n["crash"] == 0, p.stdout
    assert int(re.match(r"(\d+) equal", counts["data"]).group(1)) >= 25, p.stdout
    assert int(re.search(r"(\d+) clear error", counts["bad_data"]).group(1)) >= 6, p.stdout
    # Every encoding the corpus covers has its file.
    for name in ("delta_binary_packed", "delta_byte_array", "delta_length_byte_array", "byte_stream_split",
                 "rle_dictionary", "nested", "int96", "decimal", "codec_lz4", "codec_brotli", "page_index"):
        assert f"equal  data/{name}" in p.stdout, name
    assert p.returncode == 0


def test_a_dying_child_counts_its_file_as_a_crash_and_the_rest_go_on() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("parquet_corpus", ROOT / "scripts" / "parquet_corpus.py")
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    corpus.CHILD = (
        "import json, os, sys\n"
        "for p in sys.argv[1:]:\n"
        "    print(json.dumps({'path': p}), flush=True)\n"
        "    if 'boom' in p: os.abort()\n"
        "    print(json.dumps({'frazil_error': 'frazil.exceptions.ComputeError: no'}), flush=True)\n"
    )
    files = ["/c/data/a.parquet", "/c/data/boom.parquet", "/c/data/b.parquet", "/c/bad_data/boom2.parquet"]
    got = [(p, kind) for p, kind, _ in corpus.classify_all(files, sys.executable, dict(os.environ))]
    assert got == [("/c/data/a.parquet", "error"), ("/c/data/boom.parquet", "crash"),
                   ("/c/data/b.parquet", "error"), ("/c/bad_data/boom2.parquet", "crash")]
