#!/usr/bin/env bash
# A class tournament as a Slurm job array: array task K plays the deterministic shard K/N
# of the class's schedule (arena class --shard K/N); afterwards the same arena class
# command without --shard finds every shard's games in OUT and writes the standings, the
# site and the grade book (it plays only what no shard played).
#
#   sbatch --array=1-8 scripts/slurm-class.sh SUBMISSIONS OUT --game "mnk m=5 n=5 k=4"
#   ./target/release/arena class --bots SUBMISSIONS --out OUT --game "mnk m=5 n=5 k=4"
#
# Where things go (relative to the directory sbatch was run in, which must be on a file
# system every node sees): OUT/class-K-of-N.jsonl (shard K's games), OUT/checks/ (each
# submission's conformance check, by version), OUT/runs/<run>/logs (the bots' stderr),
# slurm-agon-class-<array job>_<K>.out (the task's output, appended to on requeue).
#
# Every task must get the same flags and SEED (the games' keys hold the class's
# settings: a task with other flags plays other games). Requeue-safe: a task that is
# stopped resumes from the games in the journals. The sandbox needs root on the nodes
# (or pass --sandbox userns).
#
# Environment: SEED (default 1), SHARDS (default: the array's task count), CONCURRENCY
# (default: --cpus-per-task), ARENA, AGON (default ./target/release/arena and .../agon).
#SBATCH --job-name=agon-class
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=slurm-%x-%A_%a.out
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: sbatch --array=1-N $0 SUBMISSIONS OUT [more arena class flags]" >&2
    exit 2
fi
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    echo "$0: not a job array task: submit it with sbatch --array=1-N" >&2
    exit 2
fi
bots="$1"
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
agon="${AGON:-}"
if [ -z "$agon" ]; then
    if [ -x ./target/release/agon ]; then agon=./target/release/agon; else agon=agon; fi
fi
echo "agon-class: shard $SLURM_ARRAY_TASK_ID/$shards of $bots into $out, job ${SLURM_ARRAY_JOB_ID:-?}_$SLURM_ARRAY_TASK_ID, restart ${SLURM_RESTART_COUNT:-0}, on $(hostname) in $PWD, $(date -u +%FT%TZ)"
exec "$arena" class --bots "$bots" --out "$out" --agon "$agon" --no-progress --seed "${SEED:-1}" \
    --concurrency "${CONCURRENCY:-${SLURM_CPUS_PER_TASK:-1}}" \
    --shard "$SLURM_ARRAY_TASK_ID/$shards" "$@"
