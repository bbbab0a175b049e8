#!/bin/sh
# Build Rapfi (dhbloo/rapfi, Gomoku/renju, pbrain interface) as a strength-match opponent.
#
# Usage: scripts/build_rapfi.sh [SOURCE] [DEST]
#   SOURCE: a git repository or directory with Rapfi's source (default: $RAPFI_SRC, else
#           /work/.mirror/dhbloo+rapfi/repo, else https://github.com/dhbloo/rapfi)
#   DEST:   where to build it (default: build/rapfi, git-ignored); the binary is
#           DEST/pbrain-rapfi
# Rapfi runs on its classical evaluation when no config.toml lies beside the binary or in the
# working directory: it then loads the config compiled into it (Rapfi/internalConfig.cpp, the
# classical pattern tables), and needs no network weights. The Networks submodule (NNUE
# weights and their config.toml) is not fetched. Debian needs cmake and g++. Rapfi's code is
# never committed here: build/ is git-ignored.
set -eu
src=${1:-${RAPFI_SRC:-/work/.mirror/dhbloo+rapfi/repo}}
dest=${2:-build/rapfi}
if [ ! -e "$src" ] && [ -z "${1:-}" ] && [ -z "${RAPFI_SRC:-}" ]; then
    src=https://github.com/dhbloo/rapfi
fi
if [ -x "$dest/pbrain-rapfi" ]; then
    echo "build_rapfi: $dest/pbrain-rapfi is already built"
    exit 0
fi
for tool in cmake g++; do
    command -v "$tool" >/dev/null || { echo "build_rapfi: needs $tool (apt-get install -y cmake g++)" >&2; exit 1; }
done
if [ ! -e "$dest/source/Rapfi/CMakeLists.txt" ]; then
    mkdir -p "$dest"
    rm -rf "$dest/source"
    if [ -d "$src/objects" ] || [ -d "$src/.git" ] || [ "${src#http}" != "$src" ]; then
        git clone --quiet "$src" "$dest/source"
    elif [ -d "$src" ]; then
        cp -R "$src" "$dest/source"
    else
        echo "build_rapfi: no Rapfi source at $src (give SOURCE or set RAPFI_SRC)" >&2
        exit 1
    fi
fi
jobs=${RAPFI_JOBS:-2}
cmake -S "$dest/source/Rapfi" -B "$dest/cmake" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$dest/cmake" -j "$jobs"
cp "$dest/cmake/pbrain-rapfi" "$dest/pbrain-rapfi"
echo "build_rapfi: built $dest/pbrain-rapfi"
