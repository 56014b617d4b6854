#!/usr/bin/env bash
# Strength measurement as a habit: an SPRT of the current agon against a baseline, on any game.
#
#   scripts/sprt.sh BASELINE [GAME] [-- extra arena match arguments]
#
# BASELINE is a git revision (built once into $AGON_SPRT_CACHE, default /tmp/agon-sprt/<hash>)
# or the path of an agon binary. GAME defaults to "mnk m=5 n=5 k=4". Environment:
#   TC       time control of both engines (default 1+0.02; e.g. "depth=4" or "st=0.05")
#   SPRT     the test (default "elo0=0 elo1=5 alpha=0.05 beta=0.05"; fastchess's normalized Elo)
#   GAMES    the most games before giving up without a decision (default 20000)
#   NEW_OPTS, BASE_OPTS   extra engine words for each side (e.g. "option.Searcher=alphabeta")
# The match stops as soon as the log-likelihood ratio crosses a bound; the last lines say
# "H1 accepted" (the change gains at least elo1), "H0 accepted" (it does not gain elo0),
# or "no decision yet". Exit status: 0 for H1, 1 for H0, 2 for no decision or an error.
set -euo pipefail
if [[ $# -lt 1 ]]; then
    sed -n '2,14p' "$0"
    exit 2
fi
base="$1"
shift
game="mnk m=5 n=5 k=4"
if [[ $# -gt 0 && "$1" != "--" ]]; then
    game="$1"
    shift
fi
[[ "${1:-}" == "--" ]] && shift
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
cargo build --release --manifest-path "$root/Cargo.toml" -p agon -p arena >&2
new="$target/release/agon"
if [[ -x "$base" ]]; then
    base_bin="$base"
else
    rev="$(git -C "$root" rev-parse --verify "$base^{commit}")"
    cache="${AGON_SPRT_CACHE:-/tmp/agon-sprt}/$rev"
    base_bin="$cache/target/release/agon"
    if [[ ! -x "$base_bin" ]]; then
        rm -rf "$cache/src"
        mkdir -p "$cache"
        git -C "$root" worktree add --detach "$cache/src" "$rev" >&2
        CARGO_TARGET_DIR="$cache/target" cargo build --release --manifest-path "$cache/src/Cargo.toml" -p agon >&2
        git -C "$root" worktree remove --force "$cache/src" >&2
    fi
fi
tc="${TC:-1+0.02}"
case "$tc" in *=*) ;; *) tc="tc=$tc" ;; esac
out="$(mktemp -d /tmp/agon-sprt-run.XXXXXX)"
# shellcheck disable=SC2086
"$target/release/arena" match --no-progress --report-every 0 --out "$out" \
    --game "$game" --games "${GAMES:-20000}" \
    --engine cmd="$new" name=new "$tc" ${NEW_OPTS:-} \
    --engine cmd="$base_bin" name=base "$tc" ${BASE_OPTS:-} \
    --sprt ${SPRT:-elo0=0 elo1=5 alpha=0.05 beta=0.05} "$@" | tee "$out/summary.txt"
if grep -q "H1 accepted" "$out/summary.txt"; then exit 0; fi
if grep -q "H0 accepted" "$out/summary.txt"; then exit 1; fi
exit 2
