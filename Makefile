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

.PHONY: all setup configure build test test-cpp test-python run clean

all: build

setup: $(VENV)/.setup-done

$(VENV)/.setup-done: scripts/setup.sh requirements-dev.txt
	bash scripts/setup.sh
	touch $@

$(BUILD)/build.ninja: $(VENV)/.setup-done CMakeLists.txt
	$(CMAKE) -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DPython_EXECUTABLE=$(PY) -DCMAKE_MAKE_PROGRAM=$(CURDIR)/$(VENV)/bin/ninja

configure: $(BUILD)/build.ninja

# flock: several shells (or engineers) may build at once; ninja must not run twice in one dir.
build: configure
	flock $(BUILD).lock $(CMAKE) --build $(BUILD) -j $(JOBS)

test-cpp: build
	$(CTEST) --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-python: build
	$(PY) -m pytest tests/python -q -p no:cacheprovider

test: test-cpp test-python

run: build
	$(PY) -m frazil.demo

clean:
	rm -rf $(BUILD) $(BUILD).lock python/frazil/_frazil*.so
