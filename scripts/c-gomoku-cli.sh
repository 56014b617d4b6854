#!/usr/bin/env bash
# agon's Gomocup brain driven by another program's manager: builds c-gomoku-cli
# (nkg114mc/c-gomoku-cli, GPL-3.0, a c-chess-cli derivative for gomoku; never part of
# this project) from a checkout and plays pbrain-agon against a second brain, then
# fails unless every game ended by the rules (no crash, time loss, illegal move or
# engine error).
#
#   scripts/c-gomoku-cli.sh SRC [OUT]
#
# SRC: a checkout of https://github.com/nkg114mc/c-gomoku-cli (or a folder holding its
# src/Makefile). OUT: the output folder (default /tmp/agon-cgc). Environment:
#   GAMES=100      games (colour-swapped pairs, -repeat)
#   TC=0/0.2       c-gomoku-cli's tc: match_time/turn_time in seconds (0: no match limit)
#   SIZE=20        board size (Gomocup's; the openings file is 20x20)
#   OPPONENT=PATH  the second brain (default: pbrain-agon itself)
#   CONCURRENCY=2
# The build needs g++ and make; today's GCC wants -fpermissive and a few includes the
# sources leave out, given below.
set -euo pipefail
SRC=${1:?usage: scripts/c-gomoku-cli.sh SRC [OUT]}
OUT=${2:-/tmp/agon-cgc}
GAMES=${GAMES:-100}
TC=${TC:-0/0.2}
SIZE=${SIZE:-20}
CONCURRENCY=${CONCURRENCY:-2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BRAIN="$ROOT/target/release/pbrain-agon"
OPPONENT=${OPPONENT:-$BRAIN}
[ -d "$SRC/src" ] || { echo "$SRC has no src/: give a checkout of nkg114mc/c-gomoku-cli" >&2; exit 2; }
[ -x "$BRAIN" ] || (cd "$ROOT" && cargo build --release -p agon)
mkdir -p "$OUT"
if [ ! -x "$OUT/c-gomoku-cli" ]; then
  rm -rf "$OUT/build" && cp -r "$SRC" "$OUT/build"
  (cd "$OUT/build/src" && CXXFLAGS="-fpermissive -include cstring -include cstdint -include cstdlib" make -j"$(nproc)" >"$OUT/build.log" 2>&1) \
    || { echo "c-gomoku-cli did not build: see $OUT/build.log" >&2; exit 1; }
  cp "$OUT/build/src/c-gomoku-cli" "$OUT/c-gomoku-cli"
fi
OPENINGS="$SRC/opening_examples/offset_freestyle_20x20.txt"
cd "$OUT"
rm -f games.sgf messages.txt
"$OUT/c-gomoku-cli" -each tc="$TC" \
  -engine name=agon cmd="$BRAIN" \
  -engine name=opponent cmd="$OPPONENT" \
  -rule 0 -boardsize "$SIZE" -games "$GAMES" -repeat -concurrency "$CONCURRENCY" \
  -drawafter $((SIZE * SIZE)) -sgf games.sgf -msg messages.txt \
  -openings file="$OPENINGS" order=random srand=1 2>&1 | tee match.log
# Every finished game has a reason in braces: "win by five connection" or a draw by the
# rules; anything else ("by opponent illegal move", "by time forfeit", "by opponent crash",
# "by adjudication") or an engine message about a crash or timeout is a fault.
finished=$(grep -c '^\[[0-9]*\] Finished game' match.log || true)
faults=$(grep '^\[[0-9]*\] Finished game' match.log | grep -vcE '\{(Black|White) win by five connection\}|\{Draw' || true)
engine_faults=$(grep -ciE 'crashed|engine .*timeout|output ERROR' match.log || true)
echo "games finished: $finished of $GAMES; ended otherwise than by five in a row or a draw: $faults; engine fault lines: $engine_faults"
[ "$faults" -eq 0 ] && [ "$engine_faults" -eq 0 ] && [ "$finished" -eq "$GAMES" ]
