#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for arena/tests/slurm.rs and for trying
# scripts/slurm-tournament.sh before a real cluster:
#
#   sudo scripts/slurm-cluster.sh start    # install if missing, configure, start, wait
#   sudo scripts/slurm-cluster.sh status   # sinfo
#   sudo scripts/slurm-cluster.sh stop     # stop slurmd, slurmctld and munged
#
# start installs Debian's slurm-wlm and munge if they are missing, writes a minimal
# /etc/slurm/slurm.conf (one node, this machine, with the CPUs and memory `slurmd -C`
# finds, every address 127.0.0.1), starts munged, slurmctld and slurmd, and waits until
# sinfo shows the node idle. Running it again does only what is missing. It never
# overwrites a slurm.conf it did not write.
#
# No accounting database: AccountingStorageType=accounting_storage/none and
# JobAcctGatherType=jobacct_gather/none, so there is no slurmdbd and no `sacct`; wait for
# jobs with `squeue` and read their end with `scontrol show job` (MinJobAge keeps a
# finished job there for 10 minutes).
set -euo pipefail

conf=/etc/slurm/slurm.conf
mark="# Written by agon's scripts/slurm-cluster.sh: a single-node test cluster."
log=/var/log/slurm
say() { echo "slurm-cluster: $*" >&2; }

if [ "$(id -u)" != 0 ]; then
    say "needs root (it installs packages and starts munged, slurmctld and slurmd): run sudo $0 ${1:-start}"
    exit 1
fi

# A daemon is running when its pid file names a live process of that name.
running() {
    local pidfile="$1" name="$2" pid
    [ -s "$pidfile" ] || return 1
    pid="$(cat "$pidfile")"
    [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm")" = "$name" ]
}

stop_pidfile() {
    local pidfile="$1" name="$2" pid
    if running "$pidfile" "$name"; then
        pid="$(cat "$pidfile")"
        kill "$pid"
        for _ in $(seq 50); do
            [ -d "/proc/$pid" ] || break
            sleep 0.1
        done
        say "stopped $name (pid $pid)"
    fi
}

install_packages() {
    local missing=()
    command -v munged >/dev/null || [ -x /usr/sbin/munged ] || missing+=(munge)
    for tool in slurmctld slurmd sbatch; do
        command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || {
            missing+=(slurm-wlm)
            break
        }
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]} from Debian"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

start_munge() {
    install -d -o munge -g munge -m 0755 /run/munge
    install -d -o munge -g munge -m 0700 /var/log/munge /var/lib/munge /etc/munge
    if [ ! -s /etc/munge/munge.key ]; then
        mungekey --create --keyfile /etc/munge/munge.key
        chown munge:munge /etc/munge/munge.key
        chmod 0400 /etc/munge/munge.key
    fi
    if ! running /run/munge/munged.pid munged; then
        runuser -u munge -- /usr/sbin/munged
        say "started munged"
    fi
    munge -n | unmunge >/dev/null
}

write_conf() {
    if [ -e "$conf" ] && ! grep -qF "$mark" "$conf"; then
        say "$conf exists and was not written by this script: not overwriting it"
        say "(stop here, or move it away to get the single-node test cluster)"
        exit 1
    fi
    local node host
    # NodeName=HOST CPUs=.. Boards=.. SocketsPerBoard=.. CoresPerSocket=.. ThreadsPerCore=.. RealMemory=..
    node="$(slurmd -C | head -n 1)"
    host="$(hostname -s)"
    install -d -m 0755 /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$log"
    cat >"$conf.new" <<EOF
$mark
# Every address is the loopback; no accounting database (see the script's header).
ClusterName=agon-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$log/slurmctld.log
SlurmdLogFile=$log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MinJobAge=600
KillWait=10
InactiveLimit=0
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    if ! cmp -s "$conf.new" "$conf"; then
        mv "$conf.new" "$conf"
        say "wrote $conf (node: $node)"
        # Daemons running on an older file read the new one.
        if running /run/slurmctld.pid slurmctld; then scontrol reconfigure; fi
    else
        rm "$conf.new"
    fi
}

node_state() {
    sinfo -h -N -n "$(hostname -s)" -o %T 2>/dev/null | head -n 1
}

start() {
    install_packages
    start_munge
    write_conf
    if ! running /run/slurmctld.pid slurmctld; then
        /usr/sbin/slurmctld
        say "started slurmctld"
    fi
    if ! running /run/slurmd.pid slurmd; then
        /usr/sbin/slurmd
        say "started slurmd"
    fi
    local state=""
    for _ in $(seq 120); do
        state="$(node_state || true)"
        case "$state" in
        idle | mixed | allocated) break ;;
        down* | drain*)
            scontrol update nodename="$(hostname -s)" state=resume 2>/dev/null || true
            ;;
        esac
        sleep 0.5
    done
    case "$state" in
    idle | mixed | allocated) say "node $(hostname -s) is $state" ;;
    *)
        say "the node did not become idle in 60 s (state '${state:-unknown}'); logs:"
        tail -n 20 "$log/slurmctld.log" "$log/slurmd.log" >&2 || true
        exit 1
        ;;
    esac
    sinfo
}

stop() {
    stop_pidfile /run/slurmd.pid slurmd
    stop_pidfile /run/slurmctld.pid slurmctld
    stop_pidfile /run/munge/munged.pid munged
}

case "${1:-start}" in
start) start ;;
stop) stop ;;
status) sinfo ;;
*)
    say "usage: $0 start|stop|status"
    exit 2
    ;;
esac
