#!/usr/bin/env bash
# A tournament as a Slurm job array: every array task plays one deterministic shard of the
# same schedule; a last job (started after all of them) merges the journals.
#
#   sbatch --array=1-8 scripts/slurm-tournament.sh tournament.json out-dir [more arena flags]
#   # when the array is done (or chain it: sbatch --dependency=afterok:<jobid> ...):
#   ./target/release/arena merge out-dir/tournament-*-of-8.jsonl --standings out-dir/standings.json
#
# Every task must get the same flags (above all --seed and --rounds): the journals carry a
# fingerprint of the configuration and `arena merge` refuses journals of different
# tournaments. A task that is killed or preempted resumes its shard when requeued
# (sbatch --requeue): the journal keeps every finished game.
#SBATCH --job-name=agon-tournament
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --requeue
set -euo pipefail
config="$1"
out="$2"
shift 2
arena="${ARENA:-./target/release/arena}"
"$arena" tournament --config "$config" --out "$out" --no-progress --seed "${SEED:-1}" \
    --concurrency "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" "$@"
