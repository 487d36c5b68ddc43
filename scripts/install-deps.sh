#!/usr/bin/env bash
# Installs the Debian packages augur builds and tests with, only if some are missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config ninja-build
  libeigen3-dev libboost-math-dev libmuparser-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopen-trace-format2-dev otf2-tools libdtl-dev
  libsimgrid-dev
  openmpi-bin libopenmpi-dev mpich libmpich-dev gfortran
  clang libclang-rt-14-dev
  ccache
  gnuplot-nox
  texlive-latex-base poppler-utils
)
[ "$#" -gt 0 ] && packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
