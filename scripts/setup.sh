#!/usr/bin/env bash
# Installs everything frazil needs to build and test, and nothing twice:
#  - Debian packages (compilers' libraries: GoogleTest, zstd, snappy, lz4, zlib, fast_float, RE2, graphviz,
#    cctz with the tzdata time-zone database, utf8proc, ICU, simdjson; pkg-config, with which the package
#    test checks frazil.pc)
#  - a virtual environment in .venv with the PyPI packages of requirements-dev.txt
# It is idempotent: each step checks first and is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(g++ make pkg-config libgtest-dev libgmock-dev libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev
              libfast-float-dev libre2-dev graphviz libcctz-dev tzdata libutf8proc-dev libicu-dev libsimdjson-dev
              libbrotli-dev libflatbuffers-dev flatbuffers-compiler
              libpg-query-dev libprotobuf-c-dev libreadline-dev)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PY" -m venv .venv
fi
stamp=.venv/.requirements-$(sha1sum requirements-dev.txt | cut -c1-12)
if [ ! -f "$stamp" ]; then
  echo "setup: installing PyPI packages from requirements-dev.txt"
  .venv/bin/pip install -q --disable-pip-version-check -r requirements-dev.txt
  rm -f .venv/.requirements-*
  touch "$stamp"
fi
