#!/usr/bin/env bash
# A tournament as a Slurm job array: array task K plays the deterministic shard K/N of
# the schedule (arena tournament --shard K/N); `arena merge` joins the shards' journals
# into the standings of one run, at the end or at any time before (partial standings).
#
#   sbatch --array=1-8 scripts/slurm-tournament.sh tournament.json out --rounds 100
#   ./target/release/arena merge out/tournament-*-of-8.jsonl --standings out/standings.json
#
# Where things go (all relative to the directory sbatch was run in, which Slurm makes the
# job's working directory: on a real cluster it must be on a file system every node sees):
#   out/tournament-K-of-N.jsonl   shard K's journal (a header line, then one line a game)
#   out/standings-K-of-N.json     shard K's own standings when it ends
#   out/<run>/games, out/<run>/logs   game files and engine logs
#   slurm-agon-tournament-<array job>_<K>.out   the task's output (appended to on requeue)
#
# Every task gets the same arguments, so every shard has the same --seed (SEED, default
# 1) and --rounds: the journals carry a fingerprint of the configuration, and `arena
# merge` refuses journals of different tournaments.
#
# Environment:
#   SEED         the tournament's seed (default 1)
#   SHARDS       N, the number of shards (default: the array's task count). Give it when
#                submitting only some tasks again: SHARDS=8 sbatch --array=3 ...
#   CONCURRENCY  games at once in a task (default: --cpus-per-task, below)
#   ARENA        the arena binary (default ./target/release/arena, else arena on PATH)
#
# Requeue-safe: a task that is cancelled, preempted or loses its node resumes its shard
# from its journal when it runs again (scontrol requeue, --requeue on a node failure, or
# the same sbatch line with --array=K): finished games are kept, a game cut short is
# played again. A task never runs twice at once on one journal: the second stops at once
# with a message naming the first (the arena's lock, OUT/.arena-shard-K-of-N.lock; on a
# shared file system that needs flock support, e.g. NFSv4, or Lustre mounted with flock).
#SBATCH --job-name=agon-tournament
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=slurm-%x-%A_%a.out
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: sbatch --array=1-N $0 CONFIG.json OUT [more arena tournament flags]" >&2
    exit 2
fi
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    echo "$0: not a job array task: submit it with sbatch --array=1-N" >&2
    exit 2
fi
config="$1"
out="$2"
shift 2
shards="${SHARDS:-${SLURM_ARRAY_TASK_COUNT:-}}"
if [ -z "$shards" ] || [ "$SLURM_ARRAY_TASK_ID" -lt 1 ] || [ "$SLURM_ARRAY_TASK_ID" -gt "$shards" ]; then
    echo "$0: task $SLURM_ARRAY_TASK_ID of ${shards:-?} shards: number the tasks 1..N (--array=1-N) and give SHARDS=N when submitting only some of them" >&2
    exit 2
fi
arena="${ARENA:-}"
if [ -z "$arena" ]; then
    if [ -x ./target/release/arena ]; then arena=./target/release/arena; else arena=arena; fi
fi
echo "agon-tournament: shard $SLURM_ARRAY_TASK_ID/$shards of $config into $out, job ${SLURM_ARRAY_JOB_ID:-?}_$SLURM_ARRAY_TASK_ID, restart ${SLURM_RESTART_COUNT:-0}, on $(hostname) in $PWD, $(date -u +%FT%TZ)"
# exec: the arena gets Slurm's signals itself (SIGTERM on scancel or preemption: it stops
# at once, keeping every finished game in the journal).
exec "$arena" tournament --config "$config" --out "$out" --no-progress --seed "${SEED:-1}" \
    --concurrency "${CONCURRENCY:-${SLURM_CPUS_PER_TASK:-1}}" \
    --shard "$SLURM_ARRAY_TASK_ID/$shards" "$@"
