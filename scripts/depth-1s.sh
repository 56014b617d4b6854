#!/usr/bin/env bash
# Depth reached and nodes per second in one second from each game's start (issue #6):
# for every start below, `go movetime 1000` from the start position, and the last
# completed iteration's depth, nodes and nps from the engine's own `info` lines.
#
#   scripts/depth-1s.sh [AGON...]     (default: target/release/agon)
#
# Give several binaries (for example a baseline build and the current one) to measure
# them one after the other in the same run; each start is run REPEAT times (default 1)
# per binary, alternating binaries, and every run is printed. The machine should be idle.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ $# -eq 0 ]]; then
    set -- "$root/target/release/agon"
fi
repeat="${REPEAT:-1}"
starts=(
    "tictactoe"
    "mnk m=5 n=5 k=4"
    "mnk m=15 n=15 k=5"
    "clobber rows=5 cols=6"
    "clobber rows=8 cols=8"
    "halma size=8"
    "halma"
    "tak size=5"
    "tak size=6"
)
printf '%-22s %-40s %6s %12s %10s\n' start binary depth nodes nps
for spec in "${starts[@]}"; do
    for ((i = 0; i < repeat; i++)); do
        for agon in "$@"; do
            last="$( (
                printf 'ugi\nsetoption name Game value %s\nposition startpos\ngo movetime 1000\n' "$spec"
                sleep 1.5
                echo quit
            ) | "$agon" 2>/dev/null | grep '^info depth' | tail -1)"
            depth="$(sed -n 's/.* depth \([0-9]*\).*/\1/p' <<<"$last")"
            nodes="$(sed -n 's/.* nodes \([0-9]*\).*/\1/p' <<<"$last")"
            nps="$(sed -n 's/.* nps \([0-9]*\).*/\1/p' <<<"$last")"
            printf '%-22s %-40s %6s %12s %10s\n' "$spec" "$agon" "$depth" "$nodes" "$nps"
        done
    done
done
