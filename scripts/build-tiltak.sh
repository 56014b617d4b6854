#!/usr/bin/env bash
# Builds Tiltak's TEI binary (MortenLohne/tiltak, GPL-3.0, not on crates.io) from a local
# checkout and prints the binary's path. Tiltak is an opponent for scripts/vs-tiltak.sh;
# nothing of it is part of this repository. The comparisons in issue 21 use commit fc4f52f.
#
#   git clone https://github.com/MortenLohne/tiltak /some/where && git -C /some/where checkout fc4f52f
#   scripts/build-tiltak.sh /some/where            # prints /some/where/target/release/tei
#
# Environment: CARGO (default cargo). The build needs the crates Tiltak depends on (cargo
# fetches them, or uses the local registry cache); the binary itself never uses the network.
set -euo pipefail
if [[ $# -ne 1 ]]; then
    echo "usage: $0 PATH-TO-TILTAK-CHECKOUT" >&2
    exit 2
fi
if [[ ! -d "$1" ]]; then
    echo "$0: $1: no such folder (clone Tiltak there first; see the top of this script)" >&2
    exit 2
fi
src="$(cd "$1" && pwd)"
if [[ ! -f "$src/Cargo.toml" || ! -f "$src/src/bin/tei.rs" ]]; then
    echo "$src does not look like a Tiltak checkout (no Cargo.toml or src/bin/tei.rs)" >&2
    exit 2
fi
echo "building Tiltak $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '(not a git checkout)') in $src" >&2
# Its own target folder, so that it never mixes with this workspace's.
(cd "$src" && "${CARGO:-cargo}" build --release --bin tei --features smol --target-dir "$src/target" >&2)
bin="$src/target/release/tei"
[[ -x "$bin" ]] || { echo "no binary at $bin" >&2; exit 1; }
echo "$bin"
