#!/bin/sh
# Rapfi as a match brain, with one known glitch of its input filtered out, and optional limits.
#
# When Rapfi answers a TURN at once (a forced win found in a few nodes), the INFO line the
# manager sends next is sometimes split by Rapfi's input reader: it answers
# "ERROR Unknown command: TIMEOUT_TURN" and "ERROR Unknown command: 999" (the rest of the
# line), which the manager then reads as the answer to the following TURN, a forfeit. Only
# those two complaints are dropped; everything else passes through. The lost INFO repeats
# the same byo-yomi limits every move, so Rapfi keeps the time it already had.
#
# Each KEY VALUE pair after RAPFI is sent as "INFO KEY VALUE" right after the manager's first
# line (START), where the protocol puts INFO: Rapfi reads the Yixin-Board keys max_node (nodes
# a move, on top of the clock), max_depth and thread_num (Rapfi/command/gomocup.cpp), which
# bench/gomoku_strength.py's handicap ladder and --rapfi-threads use. The manager never sends
# these keys, so they hold for the whole game. (Sent before START, thread_num 2 left Rapfi
# without an answer to START in 6 of 52 games, forfeits; 1 of 40 starts in a loop on a
# loaded machine, none of 40 with the INFO after START.)
# Usage: bench/rapfi_brain.sh [RAPFI [KEY VALUE]...] (default RAPFI: $RAPFI, else
# build/rapfi/pbrain-rapfi).
rapfi=${1:-${RAPFI:-$(dirname "$0")/../build/rapfi/pbrain-rapfi}}
[ $# -gt 0 ] && shift
info=""
while [ $# -ge 2 ]; do
    info="${info}INFO $1 $2
"
    shift 2
done
{ IFS= read -r first && printf '%s\n' "$first"; printf '%s' "$info"; cat; } | "$rapfi" |
    grep --line-buffered -v -E '^ERROR Unknown command: (TIMEOUT_TURN|TIME_LEFT|TIMEOUT_MATCH|-?[0-9]+)'
