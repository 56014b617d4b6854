"""One question to a fresh agon engine over its protocol, shared by the analysis scripts
(solve-losses.py, clobber-positions.py): set the game and Hash, set up a position, send
one command, and return the first reply line that starts with one of the expected
words, or an `error` line. An engine that neither answers nor ends within `timeout`
seconds is killed and the answer is `no answer`, so a wrong binary cannot hang a script.
"""
import subprocess
import threading


def ask(agon, spec, moves, command, until, hash_mb=64, timeout=60.0):
    """The engine's reply to `command` on the position after `moves` (space-separated)
    of the game `spec`: the first line starting with a word of `until` (a string or a
    tuple) or with `error`; `no answer` if the engine ends or `timeout` passes first."""
    proc = subprocess.Popen([agon], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    watchdog = threading.Timer(timeout, proc.kill)
    watchdog.start()
    answer = "no answer"
    try:
        proc.stdin.write(f"ugi\nsetoption name Game value {spec}\n"
                         f"setoption name Hash value {hash_mb}\n"
                         f"position startpos moves {moves}\n{command}\n")
        proc.stdin.flush()
        expected = (until,) if isinstance(until, str) else tuple(until)
        for line in proc.stdout:
            if line.startswith(expected + ("error",)):
                answer = line.strip()
                break
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    except BrokenPipeError:
        pass
    finally:
        watchdog.cancel()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return answer
