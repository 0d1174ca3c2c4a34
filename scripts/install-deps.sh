#!/usr/bin/env bash
# The single list of Debian packages INR-Arch needs. Idempotent: installs only what is
# missing, so `make run` / `make test` can call it every time at almost no cost.
set -euo pipefail

PACKAGES=(
  # build
  build-essential cmake ninja-build ccache pkg-config
  # C++ libraries
  nlohmann-json3-dev libfmt-dev libcli11-dev googletest libgtest-dev libbenchmark-dev
  # PyTorch front end and its tests (Debian's torch lives in /usr/bin/python3)
  python3 python3-numpy python3-torch
  # the Python tests, two at a time (make test-python)
  python3-pytest-xdist
  # make bench-pytorch's plots
  python3-matplotlib
  # installing the Python front end as a package (pip install ./python, offline)
  python3-pip python3-setuptools python3-venv
  # MLIR backend checks
  mlir-19-tools llvm-19
  # fuzzing the readers (make fuzz: libFuzzer with ASan/UBSan comes with clang's runtime)
  clang-14 libclang-rt-14-dev
  # the HTML report (inrarch report): Graphviz draws the design, headless Chromium tests the page
  graphviz chromium
  # the RTL backend's checks: Verilator simulates and lints, Icarus parses, Yosys synthesizes
  verilator iverilog yosys
  # the benchmarks' wall time and peak memory (/usr/bin/time -v: make bench-zoo, bench-rtl)
  time
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root (or install them) and retry" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
