#!/bin/sh
# Installs the Debian packages REACT needs, only when some are missing.
# Every dependency of the project is listed here and nowhere else.
set -eu
PKGS="build-essential pkg-config meson ninja-build
libgsl-dev libjansson-dev libyaml-dev libcriterion-dev
libns3-dev libjemalloc-dev libopenmpi-dev openmpi-bin gnuplot-nox
clang libclang-rt-dev xz-utils"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "bootstrap: installing$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
