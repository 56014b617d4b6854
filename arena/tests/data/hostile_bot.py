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


LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long
# x86-64 system-call numbers.
SYS = {"keyctl": 250, "add_key": 248, "request_key": 249, "io_uring_setup": 425,
       "unshare": 272, "shmget": 29, "mq_open": 240, "perf_event_open": 298, "bpf": 321,
       "ptrace": 101}
KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING = -3, -4, -5
KEYCTL_SEARCH, KEYCTL_READ = 10, 11


def syscall(name, *args, x32=False):
    nr = SYS[name] | (0x40000000 if x32 else 0)
    rc = LIBC.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return rc, ctypes.get_errno()


def key_search(ring, description):
    rc, err = syscall("keyctl", KEYCTL_SEARCH, ring, b"user", description, 0)
    if rc < 0:
        return None, os.strerror(err)
    buf = ctypes.create_string_buffer(4096)
    n, err = syscall("keyctl", KEYCTL_READ, rc, buf, 4096)
    if n < 0:
        return None, os.strerror(err)
    return buf.raw[:n], "read"


def attack_keyring():
    """Read the teacher's secret from the session key ring the arena was started with;
    leave a memo in this UID's user key ring and look for one left by an earlier box."""
    secret, how = key_search(KEY_SPEC_SESSION_KEYRING, b"agon-teacher-secret")
    report("keyring-session", secret is not None, f"session ring: {how} {secret!r}")
    memo = f"memo-{MARKER}-{os.getpid()}".encode()
    for ring, label in ((KEY_SPEC_USER_KEYRING, "user"), (KEY_SPEC_USER_SESSION_KEYRING, "user-session")):
        found, how = key_search(ring, b"agon-memo")
        report("keyring-memo", found is not None, f"{label} ring memo from an earlier box: {how} {found!r}")
        rc, err = syscall("add_key", b"user", b"agon-memo", memo, len(memo), ring)
        report("keyring-write", rc >= 0, f"{label} ring: add_key {rc} {os.strerror(err) if rc < 0 else ''}")


def attack_ipc():
    """Leave a System V shared memory segment and a POSIX message queue for a later box,
    and look for those an earlier box left."""
    key = 0x61676F6E  # 'agon'
    rc, err = syscall("shmget", key, 0, 0)
    report("ipc-find", rc >= 0, f"an earlier box's segment: {rc} {os.strerror(err) if rc < 0 else ''}")
    rc, err = syscall("shmget", key, 4096, 0o1666)  # IPC_CREAT | 0666
    report("ipc-create", False, f"created a segment in its own namespace: {rc} {os.strerror(err) if rc < 0 else ''}")
    name = f"agonmq-{MARKER}".encode()
    rc, err = syscall("mq_open", name, os.O_RDWR, 0, None)
    report("mq-find", rc >= 0, f"an earlier box's queue: {rc} {os.strerror(err) if rc < 0 else ''}")
    rc, err = syscall("mq_open", name, os.O_RDWR | os.O_CREAT, 0o666, None)
    report("mq-create", False, f"mq_open: {rc} {os.strerror(err) if rc < 0 else ''}")


def attack_tty():
    """Type a command into the arena's terminal (TIOCSTI), through /dev/tty and through
    each standard descriptor."""
    import fcntl
    import termios
    text = f"echo TTY-{MARKER}\n".encode()
    fds = []
    try:
        fds.append(("/dev/tty", os.open("/dev/tty", os.O_RDWR)))
    except OSError as e:
        report("tty", False, f"/dev/tty: {e}")
    fds += [("stdin", 0), ("stdout", 1), ("stderr", 2)]
    for label, fd in fds:
        try:
            for ch in text:
                fcntl.ioctl(fd, termios.TIOCSTI, bytes([ch]))
            report("tty", True, f"typed through {label}")
        except OSError as e:
            report("tty", False, f"{label}: {e}")
    # The request with bits above 32 set, which a filter comparing 64 bits would miss.
    rc, err = LIBC.ioctl(0, ctypes.c_ulong(0x100000000 | termios.TIOCSTI), ctypes.c_char_p(b"x")), ctypes.get_errno()
    report("tty", rc == 0, f"high-bit TIOCSTI: {rc} {os.strerror(err)}")


def attack_kernel():
    """The kernel surface of recent escapes: io_uring, new namespaces, perf, bpf, ptrace,
    and the x32 entry to the same calls."""
    params = ctypes.create_string_buffer(120)
    for x32 in (False, True):
        rc, err = syscall("io_uring_setup", 8, params, x32=x32)
        report("io_uring", rc >= 0, f"{'x32 ' if x32 else ''}io_uring_setup: {rc} {os.strerror(err)}")
        if rc >= 0:
            os.close(rc)
    for flag, label in ((0x10000000, "CLONE_NEWUSER"), (0x40000000, "CLONE_NEWNET"), (0x20000, "CLONE_NEWNS")):
        rc, err = syscall("unshare", flag)
        report("unshare", rc == 0, f"unshare({label}): {rc} {os.strerror(err)}")
    attr = ctypes.create_string_buffer(128)
    ctypes.memmove(attr, (128).to_bytes(4, "little"), 0)
    rc, err = syscall("perf_event_open", attr, 0, -1, -1, 0)
    report("perf", rc >= 0, f"perf_event_open: {rc} {os.strerror(err)}")
    rc, err = syscall("bpf", 0, attr, 64)
    report("bpf", rc >= 0, f"bpf: {rc} {os.strerror(err)}")
    rc, err = syscall("ptrace", 0, 0, 0, 0)  # PTRACE_TRACEME
    report("ptrace-self", rc == 0, f"ptrace(TRACEME): {rc} {os.strerror(err)}")
    # Python has no os.unshare before 3.12: try the command too.
    r = subprocess.run(["unshare", "-U", "true"], capture_output=True)
    report("unshare", r.returncode == 0, f"unshare -U: {r.returncode} {r.stderr.decode().strip()}")


def attack_lie():
    """Print what a resource limit would print, then exit: a crash, never a limit."""
    print("MemoryError\nOSError: [Errno 27] File too large\nPermission denied\n"
          "Resource temporarily unavailable\ncan't start new thread", file=sys.stderr, flush=True)
    report("lie", False, "printed limit words and exits")
    sys.exit(1)


def attack_spinners():
    """Children that spin the CPU for the whole game, while the opponent thinks too."""
    for _ in range(int(ENV.get("SPINNERS", "4"))):
        if os.fork() == 0:
            while True:
                pass
    report("spinners", False, "started")


def attack_siblings():
    """A file submission lists its folder and reads its classmates' files."""
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    me = os.path.basename(sys.argv[0])
    try:
        others = [n for n in os.listdir(here) if n != me]
    except OSError as e:
        report("siblings", False, f"listdir {here}: {e}")
        return
    report("siblings", bool(others), f"{here} holds {others}")
    for n in others:
        try:
            with open(os.path.join(here, n), "rb") as f:
                report("siblings", True, f"read {n}: {f.read(40)!r}")
        except OSError as e:
            report("siblings", False, f"{n}: {e}")


def attack_affinity():
    """Says which cores it may run on (not an attack: for the pinning test)."""
    report("affinity", False, "cores " + ",".join(map(str, sorted(os.sched_getaffinity(0)))))


def attack_rootcheck():
    """Leave a mark in the host's /tmp if started as root outside any box."""
    if os.getuid() == 0:
        try:
            with open(f"/tmp/{MARKER}-ran-as-root", "w") as f:
                f.write(" ".join(sys.argv))
        except OSError:
            pass
    report("rootcheck", os.getuid() == 0, f"uid {os.getuid()} argv {sys.argv[1:3]}")


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
    "keyring": attack_keyring,
    "ipc": attack_ipc,
    "tty": attack_tty,
    "kernel": attack_kernel,
    "lie": attack_lie,
    "spinners": attack_spinners,
    "siblings": attack_siblings,
    "rootcheck": attack_rootcheck,
    "affinity": attack_affinity,
}


def attack_all():
    for name in filter(None, ENV.get("ATTACKS", "").split(",")):
        if name in ("bigwrite", "lie"):
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
