# Two commands matter: `make run` (the main job) and `make test` (every test).
# Both do any missing set-up first (Debian packages, .venv, the build).
VENV   := .venv
PY     := $(CURDIR)/$(VENV)/bin/python
CMAKE  := $(CURDIR)/$(VENV)/bin/cmake
CTEST  := $(CURDIR)/$(VENV)/bin/ctest
BUILD  := build
JOBS   ?= $(shell nproc)
BUILD_TYPE ?= Release
export PYTHONPATH := $(CURDIR)/python

# `make run` options (README.md, "make run"): PDS-H scale factor, engines, timed runs per
# query, threads per engine, file format, queries, seconds allowed per engine and query.
SCALE   ?= 1
ENGINES ?= frazil,frazil-sql,polars,duckdb,datafusion
REPS    ?= 3
THREADS ?= 2
FORMAT  ?= parquet
QUERIES ?= 1-22
TIMEOUT ?= 600

.PHONY: all setup setup-bench configure build test test-cpp test-python test-ray install wheel run data clean fuzz sanitize lint parquet-corpus format tidy

all: build

setup: $(VENV)/.setup-done

$(VENV)/.setup-done: scripts/setup.sh requirements-dev.txt
	bash scripts/setup.sh
	touch $@

# Benchmark-only packages (DuckDB, DataFusion, matplotlib), for `make run` only.
setup-bench: $(VENV)/.bench-done

$(VENV)/.bench-done: requirements-bench.txt $(VENV)/.setup-done
	$(VENV)/bin/pip install -q --disable-pip-version-check -r requirements-bench.txt
	touch $@

# ccache, when installed, lets several work trees of one machine share compiled objects.
CCACHE := $(shell command -v ccache 2>/dev/null)

$(BUILD)/build.ninja: $(VENV)/.setup-done CMakeLists.txt
	$(CMAKE) -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE)) \
	  -DPython_EXECUTABLE=$(PY) -DCMAKE_MAKE_PROGRAM=$(CURDIR)/$(VENV)/bin/ninja

configure: $(BUILD)/build.ninja

# flock: several shells (or engineers) may build at once; ninja must not run twice in one dir.
build: configure
	flock $(BUILD).lock $(CMAKE) --build $(BUILD) -j $(JOBS)

test-cpp: build
	$(CTEST) --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The Python suite twice: as it is, then in verify mode (every collect also runs
# unoptimized and must agree, api/verify.hpp), as DuckDB runs its tests under
# enable_verification. The fuzz budget is left out of the second run: its optimizer
# oracle already compares every query with and without optimizations.
test-python: build
	$(PY) -m pytest tests/python -q -p no:cacheprovider
	FRAZIL_VERIFY=1 $(PY) -m pytest tests/python -q -p no:cacheprovider \
	  --deselect tests/python/fuzz/test_fuzz.py::test_fuzz_budget --ignore tests/python/test_ray_engine.py

test: test-cpp test-python

# Just the Ray engine (issue #24) on a local 2-CPU cluster in a loopback-only namespace: the
# 22 PDS-H queries at scale 1, a killed task retried, an error that must surface. It is part
# of test-python too (once: the verify run leaves it out, its workers do not verify).
test-ray: build
	$(PY) -m pytest tests/python/test_ray_engine.py -q -p no:cacheprovider

# The C++ package (library, public headers, CMake package, frazil.pc) into PREFIX.
PREFIX ?= /usr/local
install: build
	$(CMAKE) --install $(BUILD) --prefix $(PREFIX) --component dev

# Layering (no include from a lower layer to a higher one) and the Python linter (ruff,
# configured in pyproject.toml). CI runs it before `make test`.
lint: setup
	$(PY) scripts/check_layers.py
	$(VENV)/bin/ruff check python tests/python bench scripts

# clang-format (.clang-format) over the C++ files you changed since HEAD, or FILES=...;
# `make format FILES="$$(git ls-files 'src/*.[ch]pp')"` formats everything.
CHANGED_CPP = $(shell git diff --name-only HEAD -- 'src/*.cpp' 'src/*.hpp' 'tests/*.cpp' 'tests/*.hpp' 'python/src/*.cpp' 'include/*.hpp')
format:
	@command -v clang-format >/dev/null || { echo "make format: needs clang-format (apt-get install clang-format)"; exit 1; }
	@files="$(or $(FILES),$(CHANGED_CPP))"; [ -z "$$files" ] && echo "make format: no changed C++ files" || clang-format -i $$files

# clang-tidy (.clang-tidy) over the changed sources (or FILES=...), with the build's
# compile_commands.json. Not in CI: slow, and not in the set-up packages.
tidy: configure
	@command -v clang-tidy >/dev/null || { echo "make tidy: needs clang-tidy (apt-get install clang-tidy)"; exit 1; }
	@files="$(or $(FILES),$(filter %.cpp,$(CHANGED_CPP)))"; [ -z "$$files" ] && echo "make tidy: no changed C++ sources" || clang-tidy -p $(BUILD) --quiet --extra-arg=-Wno-unknown-warning-option $$files

# The PDS-H benchmark: generates the data once (data/pdsh/), runs, validates and times the
# 22 queries in frazil and its peers, prints the table and writes bench/results/*.png.
run: build setup-bench
	$(PY) -m bench.pdsh.run --scale $(SCALE) --engines $(ENGINES) --reps $(REPS) \
	  --threads $(THREADS) --format $(FORMAT) --queries $(QUERIES) --timeout $(TIMEOUT)

# PDS-H tables for SCALE and FORMAT, generated once under data/pdsh/.
data: setup
	$(PY) -m bench.pdsh.datagen --scale $(SCALE) --format $(FORMAT)

# Every file of the apache/parquet-testing corpus read by frazil and pyarrow: counts of
# equal / clear error / wrong / crash (PARQUET_TESTING_DIR, or the fetched mirror; without
# either, pyarrow-written equivalents, as tests/python/test_parquet_corpus.py reads in make test).
parquet-corpus: build
	$(PY) scripts/parquet_corpus.py $(PARQUET_TESTING_DIR)

# A portable wheel in dist/: `pip wheel .` (baseline instruction set with AVX2 dispatch of
# the hot kernels, codecs linked statically; about 20 minutes on 2 cores the first time,
# build-wheel/ is kept), then `auditwheel repair`, which gives it its manylinux tag and
# copies in the one shared library left (RE2). tests/python/test_wheel.py checks it.
WHEEL_RAW := build-wheel/raw
wheel: setup
	$(VENV)/bin/pip install -q --disable-pip-version-check -r requirements-wheel.txt
	rm -rf $(WHEEL_RAW) && mkdir -p dist
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(VENV)/bin/pip wheel . --no-deps --no-build-isolation -w $(WHEEL_RAW) \
	  $(if $(CCACHE),-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(VENV)/bin/auditwheel repair --wheel-dir dist $(WHEEL_RAW)/frazil-*.whl
	$(VENV)/bin/auditwheel show dist/frazil-*manylinux*.whl

clean:
	rm -rf $(BUILD) $(BUILD).lock python/frazil/_frazil*.so

# libFuzzer runs of the CSV and Parquet readers, of DSL -> IR conversion and of the plan
# format reader (serde) under
# ASan+UBSan (clang is installed when missing). Crashing inputs land in
# tests/fuzz/corpus/<target>/, which `make test` replays.
FUZZ_SECONDS ?= 60
# clang 16: Debian's default clang 14 has no _Float16 on x86 (core/half.hpp).
FUZZ_CXX ?= clang++-16
fuzz-readers: setup
	command -v $(FUZZ_CXX) >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-16 libclang-rt-16-dev)
	$(CMAKE) -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -UFRAZIL_ONLY_LAYERS -UFRAZIL_EXCLUDE -DFRAZIL_SANITIZE=ON -DFRAZIL_BUILD_FUZZERS=ON -DFRAZIL_BUILD_TESTS=OFF -DFRAZIL_BUILD_PYTHON=OFF \
	  -DFRAZIL_BUILD_PROGRAMS=OFF -DCMAKE_MAKE_PROGRAM=$(CURDIR)/$(VENV)/bin/ninja
	$(CMAKE) --build build-fuzz -j $(JOBS)
	for t in csv parquet dsl sql serde; do \
	  mkdir -p build-fuzz/corpus-$$t && cp tests/fuzz/corpus/$$t/* build-fuzz/corpus-$$t/ && \
	  build-fuzz/$${t}_fuzz build-fuzz/corpus-$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 \
	    -artifact_prefix=tests/fuzz/corpus/$$t/crash- || exit 1; \
	done
.PHONY: fuzz-readers

# The query fuzzer (tests/python/fuzz): random frames and queries run through frazil and
# Polars, plus the optimizer, TLP and NoREC oracles; failures are shrunk and printed as
# reproducers. `make test` runs 2,000 queries of a fixed seed (~40 s); this runs FUZZ_SECONDS
# (e.g. `make fuzz FUZZ_SECONDS=1800 FUZZ_SEED=7`).
fuzz: build
	cd tests/python && $(PY) -m fuzz.run --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) \
	  --report $(CURDIR)/$(BUILD)/fuzz-report.json --crash-file $(CURDIR)/$(BUILD)/fuzz-last-case.py

# ASan+UBSan: the C++ tests and the Python module built in build-asan (the module lands in
# build-asan/python/frazil next to links to the Python sources), then the C++ suite and the
# Python tests below with the sanitizer runtime (and libstdc++, whose __cxa_throw ASan must
# find at start-up) preloaded. Not part of `make test`.
SAN_BUILD     ?= build-asan
SAN_PYTESTS   ?= tests/python/test_lazy_*.py tests/python/test_core_*.py tests/python/fuzz
SAN_ENV       := ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1 \
                 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
sanitize: setup
	$(CMAKE) -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFRAZIL_SANITIZE=ON \
	  -DFRAZIL_BUILD_PROGRAMS=OFF -DFRAZIL_PYTHON_OUTPUT_DIR=$(CURDIR)/$(SAN_BUILD)/python/frazil \
	  -DPython_EXECUTABLE=$(PY) -DCMAKE_MAKE_PROGRAM=$(CURDIR)/$(VENV)/bin/ninja
	flock $(SAN_BUILD).lock $(CMAKE) --build $(SAN_BUILD) -j $(JOBS)
	$(SAN_ENV) $(SAN_BUILD)/frazil_tests --gtest_brief=1
	mkdir -p $(SAN_BUILD)/python/frazil
	for f in python/frazil/*.py; do ln -sf $(CURDIR)/$$f $(SAN_BUILD)/python/frazil/; done
	cd $(CURDIR) && $(SAN_ENV) LD_PRELOAD="$$(g++ -print-file-name=libasan.so) $$(g++ -print-file-name=libstdc++.so)" \
	  PYTHONPATH=$(CURDIR)/$(SAN_BUILD)/python FUZZ_SECONDS=$${FUZZ_SECONDS_SAN:-30} \
	  $(PY) -m pytest $(SAN_PYTESTS) -q -p no:cacheprovider
