#!/usr/bin/env bash
# Build KataGo (CPU, Eigen backend) and fetch the small network from the katrain wheel into
# .katago/ (git-ignored), for the tests and benchmarks that run against a real KataGo.
#
#   scripts/build_katago.sh            # uses $KATAGO_SRC, else the read-only mirror if present
#   KATAGO_SRC=/path/to/KataGo scripts/build_katago.sh
#
# Needs cmake and a C++ compiler; installs Debian's libeigen3-dev libzip-dev zlib1g-dev when
# run as root and they are missing. Prints the two
# environment variables the tests read (TENGEN_KATAGO, TENGEN_KATAGO_MODEL).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${KATAGO_OUT:-$ROOT/.katago}"
PYTHON="${PYTHON:-python3}"
JOBS="${JOBS:-$(nproc)}"
SRC="${KATAGO_SRC:-}"
MIRROR=/work/.mirror/lightvector+KataGo/repo

# The libraries KataGo's Eigen build needs, from Debian, where missing and we may install.
missing=()
for pkg in libeigen3-dev libzip-dev zlib1g-dev; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    else
        echo "build_katago: install ${missing[*]} (Debian) first" >&2
        exit 2
    fi
fi

mkdir -p "$OUT"
if [ -z "$SRC" ]; then
    if [ -d "$OUT/src/cpp" ]; then
        SRC="$OUT/src"
    elif [ -d "$MIRROR" ]; then
        # A bare git dir whose largest files may be absent: export the C++ sources of its newest
        # commit, less the test networks (not needed to build).
        rm -rf "$OUT/src.tmp" && mkdir -p "$OUT/src.tmp"
        git --git-dir="$MIRROR" archive HEAD cpp ':(exclude)cpp/tests/models' | tar -x -C "$OUT/src.tmp"
        mv "$OUT/src.tmp" "$OUT/src"
        SRC="$OUT/src"
    else
        echo "build_katago: no KataGo source; set KATAGO_SRC to a checkout of lightvector/KataGo" >&2
        exit 2
    fi
fi
[ -f "$SRC/cpp/CMakeLists.txt" ] || { echo "build_katago: $SRC/cpp/CMakeLists.txt missing" >&2; exit 2; }

if [ ! -x "$OUT/katago" ]; then
    AVX2=0
    grep -q avx2 /proc/cpuinfo 2>/dev/null && AVX2=1
    cmake -S "$SRC/cpp" -B "$OUT/build" -DUSE_BACKEND=EIGEN -DCMAKE_BUILD_TYPE=Release \
        -DNO_GIT_REVISION=1 -DUSE_AVX2="$AVX2"
    cmake --build "$OUT/build" -j "$JOBS"
    cp "$OUT/build/katago" "$OUT/katago"
fi

# The network: katrain's wheel ships a small one (katrain/models/*.bin.gz).
if ! ls "$OUT"/model*.bin.gz >/dev/null 2>&1; then
    rm -rf "$OUT/wheel" && mkdir -p "$OUT/wheel"
    "$PYTHON" -m pip download --quiet katrain --no-deps --dest "$OUT/wheel"
    "$PYTHON" - "$OUT" <<'PY'
import pathlib, sys, zipfile
out = pathlib.Path(sys.argv[1])
wheel = next((out / "wheel").glob("katrain-*.whl"))
with zipfile.ZipFile(wheel) as zf:
    models = [n for n in zf.namelist() if n.startswith("katrain/models/") and n.endswith(".bin.gz")]
    if not models:
        sys.exit(f"build_katago: no model in {wheel.name}")
    name = min(models, key=lambda n: zf.getinfo(n).file_size)
    (out / ("model-" + pathlib.Path(name).name)).write_bytes(zf.read(name))
PY
fi

MODEL="$(ls "$OUT"/model*.bin.gz | head -n 1)"
echo "TENGEN_KATAGO=$OUT/katago"
echo "TENGEN_KATAGO_MODEL=$MODEL"
