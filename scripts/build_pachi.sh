#!/bin/sh
# Build Pachi (pasky/pachi, classical MCTS, no neural network) as a strength-match opponent.
#
# Usage: scripts/build_pachi.sh [SOURCE] [DEST]
#   SOURCE: a git repository or directory with Pachi's source (default: $PACHI_SRC, else
#           /work/.mirror/pasky+pachi/repo, else https://github.com/pasky/pachi)
#   DEST:   where to build it (default: build/pachi, git-ignored); the binary is DEST/pachi
# Pachi's Makefile reads .git/HEAD, so the copy is made a git repository. Built with DCNN=0
# (no Caffe) and JOSEKIFIX=0 (which would also build KataGo). Pachi's code is never
# committed here: build/ is git-ignored. Debian needs only build-essential.
set -eu
src=${1:-${PACHI_SRC:-/work/.mirror/pasky+pachi/repo}}
dest=${2:-build/pachi}
if [ ! -e "$src" ] && [ -z "${1:-}" ] && [ -z "${PACHI_SRC:-}" ]; then
    src=https://github.com/pasky/pachi
fi
if [ -x "$dest/pachi" ]; then
    echo "build_pachi: $dest/pachi is already built"
    exit 0
fi
if [ ! -e "$dest/Makefile" ]; then
    mkdir -p "$(dirname "$dest")"
    rm -rf "$dest"
    if [ -d "$src/objects" ] || [ -d "$src/.git" ] || [ "${src#http}" != "$src" ]; then
        git clone --quiet "$src" "$dest"
    elif [ -d "$src" ]; then
        cp -R "$src" "$dest"
    else
        echo "build_pachi: no Pachi source at $src (give SOURCE or set PACHI_SRC)" >&2
        exit 1
    fi
fi
if [ ! -f "$dest/.git/HEAD" ]; then
    (cd "$dest" && git init --quiet && git add -A && \
        git -c user.name=build -c user.email=build@localhost commit --quiet -m snapshot)
fi
jobs=${PACHI_JOBS:-2}
(cd "$dest" && make -j"$jobs" DCNN=0 JOSEKIFIX=0)
echo "build_pachi: built $dest/pachi"
