#!/usr/bin/env bash
# agon against Rapfi (dhbloo/rapfi, GPL-3.0, Gomocup 2024 champion; never part of this
# project), refereed by the arena over the Gomocup protocol: builds Rapfi's
# pbrain-rapfi from a checkout with CMake, runs `arena check --proto gomocup` on it,
# then a match of gomoku 15x15 freestyle.
#
#   scripts/rapfi.sh SRC [OUT]
#
# SRC: a checkout of https://github.com/dhbloo/rapfi. Without its Networks submodule
# Rapfi plays with its built-in classical evaluation (its internal configuration); with
# the submodule and a config.toml beside the binary it uses its NNUE networks. OUT: the
# output folder (default /tmp/agon-rapfi). Environment: GAMES=100, TC=st=0.1 (the
# arena's time control for both; `tc=120 st=5` is Gomocup's fastgame), SEED=11,
# CONCURRENCY=2, AGON=the agon to measure (default: this checkout's release build), and
# OPENINGS=balanced (the default: 100 openings of 2 to 8 stones that Rapfi's own
# `opengen` search scores within 50 of even, made once into OUT/balanced.txt; or any
# --openings value, such as gomocup:PATH with Piskvork's openings.txt from a checkout of
# https://github.com/plastovicka/Piskvork, or random:4).
set -euo pipefail
SRC=${1:?usage: scripts/rapfi.sh SRC [OUT]}
OUT=${2:-/tmp/agon-rapfi}
GAMES=${GAMES:-100}
TC=${TC:-st=0.1}
OPENINGS=${OPENINGS:-balanced}
SEED=${SEED:-11}
CONCURRENCY=${CONCURRENCY:-2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$SRC/Rapfi/CMakeLists.txt" ] || { echo "$SRC has no Rapfi/CMakeLists.txt: give a checkout of dhbloo/rapfi" >&2; exit 2; }
command -v cmake >/dev/null || { echo "cmake is needed (Debian: apt-get install cmake)" >&2; exit 2; }
mkdir -p "$OUT/build"
if [ ! -x "$OUT/build/pbrain-rapfi" ]; then
  (cd "$OUT/build" && cmake "$SRC/Rapfi" -DCMAKE_BUILD_TYPE=Release >"$OUT/cmake.log" 2>&1 \
    && make -j"$(nproc)" >"$OUT/build.log" 2>&1) \
    || { echo "Rapfi did not build: see $OUT/cmake.log and $OUT/build.log" >&2; exit 1; }
fi
(cd "$ROOT" && cargo build --release --workspace)
ARENA="$ROOT/target/release/arena"
AGON=${AGON:-$ROOT/target/release/agon}
"$ARENA" check --proto gomocup --game gomoku -- "$OUT/build/pbrain-rapfi"
if [ "$OPENINGS" = balanced ]; then
  if [ ! -s "$OUT/balanced.txt" ]; then
    echo "making 100 balanced openings with Rapfi's opengen (about 3 minutes)"
    "$OUT/build/pbrain-rapfi" opengen -n 100 --max-move 8 -q -t "$(nproc)" \
      -o "$OUT/balanced.txt.part" >"$OUT/opengen.log" 2>&1 \
      && mv "$OUT/balanced.txt.part" "$OUT/balanced.txt" \
      || { echo "opengen failed: see $OUT/opengen.log" >&2; exit 1; }
  fi
  OPENINGS="gomocup:$OUT/balanced.txt"
fi
cd "$OUT"
# TC is split into the arena's words on purpose (`tc=120 st=5`).
# shellcheck disable=SC2086
"$ARENA" match --game gomoku --games "$GAMES" --concurrency "$CONCURRENCY" --seed "$SEED" \
  --openings "$OPENINGS" --each $TC --out "$OUT/match" \
  --engine cmd="$AGON" name=agon \
  --engine cmd="$OUT/build/pbrain-rapfi" name=rapfi proto=gomocup
"$ARENA" report "$OUT/match" -o "$OUT/report.html"
