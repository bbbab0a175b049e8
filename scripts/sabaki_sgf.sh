#!/usr/bin/env bash
# Install Sabaki's own SGF parser (@sabaki/sgf, from the npm registry) into .cache/sabaki
# (git-ignored), so that the tests can check that Sabaki reads tengen's analysed records: the
# moves, SBKV (its win-rate graph) and the review comments. Needs Node.js and npm; the tests
# that use it skip with a message when it is absent.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/.cache/sabaki"
VERSION=3.4.7  # the newest release of the parser Sabaki is built on

if [ -f "$OUT/node_modules/@sabaki/sgf/package.json" ] &&
    grep -q "\"version\": \"$VERSION\"" "$OUT/node_modules/@sabaki/sgf/package.json"; then
    exit 0
fi
mkdir -p "$OUT"
npm install --prefix "$OUT" --no-audit --no-fund --silent "@sabaki/sgf@$VERSION"
echo "installed @sabaki/sgf $VERSION in $OUT"
