#!/usr/bin/env bash
# Installs what tabai's build, tests and benchmark need on a fresh Debian/Ubuntu machine:
# the system packages (only those missing) and the Python virtual environment .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# clang-format (with clang-format-diff) for make lint; ruff comes with requirements-dev.txt;
# ccache: make test builds the library in several folders, and the wheel's build repeats the
# Release build's compiles (CMakeLists.txt uses it when found)
for pkg in build-essential cmake ninja-build pkg-config nettle-dev libgmp-dev libssl-dev openssl \
  valgrind python3-venv clang libclang-rt-14-dev libsecp256k1-dev clang-format ccache; do
  have_pkg "$pkg" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PY" -m venv .venv
fi
stamp=.venv/.tabai-deps
if [ ! -f "$stamp" ] || [ requirements-dev.txt -nt "$stamp" ]; then
  echo "setup: installing Python packages (requirements-dev.txt)"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -r requirements-dev.txt
  touch "$stamp"
fi
