#!/bin/sh
# Rapfi as a match brain, with one known glitch of its input filtered out.
#
# When Rapfi answers a TURN at once (a forced win found in a few nodes), the INFO line the
# manager sends next is sometimes split by Rapfi's input reader: it answers
# "ERROR Unknown command: TIMEOUT_TURN" and "ERROR Unknown command: 999" (the rest of the
# line), which the manager then reads as the answer to the following TURN, a forfeit. Only
# those two complaints are dropped; everything else passes through. The lost INFO repeats
# the same byo-yomi limits every move, so Rapfi keeps the time it already had.
# Usage: bench/rapfi_brain.sh [RAPFI] (default: $RAPFI, else build/rapfi/pbrain-rapfi).
rapfi=${1:-${RAPFI:-$(dirname "$0")/../build/rapfi/pbrain-rapfi}}
"$rapfi" | grep --line-buffered -v -E '^ERROR Unknown command: (TIMEOUT_TURN|TIME_LEFT|TIMEOUT_MATCH|-?[0-9]+)'
