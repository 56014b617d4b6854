//! `arena check`: passes the real engine and the example bots, and fails each misbehaving
//! engine with the right diagnosis (the failing check and its hint).

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use serde_json::Value;

/// Runs `arena check` on `command` and returns its exit code and JSON report.
fn check(dir: &Path, game: &str, command: &[&str]) -> (i32, Value, String) {
    let json = dir.join(format!("report-{}.json", std::process::id()));
    let mut c = Command::new(arena());
    c.current_dir(dir)
        .args([
            "check",
            "--game",
            game,
            "--deadline-ms",
            "1000",
            "--startup-ms",
            "1500",
            "--movetime",
            "100",
        ])
        .arg("--json")
        .arg(&json)
        .arg("--")
        .args(command);
    let out = run(c, Duration::from_secs(60));
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{e}\n{}", text(&out))),
    )
    .unwrap();
    (out.status.code().unwrap_or(-1), report, text(&out))
}

fn status<'a>(report: &'a Value, id: &str) -> &'a str {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no check {id} in {report}"))["status"]
        .as_str()
        .unwrap()
}

fn hint<'a>(report: &'a Value, id: &str) -> &'a str {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap()["hint"]
        .as_str()
        .unwrap_or("")
}

/// The ids of the required checks that failed.
fn failures(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "fail" && c["required"] == true)
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

fn examples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

#[test]
fn agon_passes_every_check() {
    let dir = tempfile::tempdir().unwrap();
    let agon = agon();
    let agon = agon.to_str().unwrap();
    let (code, report, out) = check(dir.path(), "mnk m=5 n=5 k=4", &[agon]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(report["passed"], true);
    for c in report["checks"].as_array().unwrap() {
        assert_eq!(c["status"], "pass", "{c}\n{out}");
    }
    assert!(out.contains("PASS handshake"), "{out}");
    let (code, report, out) = check(dir.path(), "tak size=5", &[agon]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(status(&report, "perft"), "pass");
}

#[test]
fn the_example_bots_pass() {
    let dir = tempfile::tempdir().unwrap();
    let py = examples().join("tictactoe_bot.py");
    let (code, report, out) = check(dir.path(), "tictactoe", &[py.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(failures(&report).is_empty(), "{out}");
    // It does not check the moves of a position list: a recommendation, not a failure.
    assert_eq!(status(&report, "illegal-in-list"), "fail");
    assert_eq!(status(&report, "perft"), "skip");
    let bot = agon().with_file_name("clobber-bot");
    assert!(bot.is_file(), "the workspace builds examples/clobber-bot");
    let (code, report, out) = check(
        dir.path(),
        "clobber rows=5 cols=6",
        &[bot.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(status(&report, "illegal-in-list"), "pass", "{out}");
}

#[test]
fn misbehaving_engines_fail_with_the_right_diagnosis() {
    let dir = tempfile::tempdir().unwrap();
    let scripted = scripted();
    let s = scripted.to_str().unwrap();
    let cases: [(&[&str], &str, &str); 10] = [
        (&[s, "crash-at-start"], "crash", "crashed"),
        (&[s, "crash-mid-game", "0"], "crash", "crashed"),
        (&[s, "exit-after-bestmove"], "crash", "crashed"),
        (&[s, "slow-start", "4000"], "handshake", "--startup-ms"),
        (&[s, "garbage-lines"], "stray-output", "stderr"),
        (&[s, "no-readyok"], "isready", "readyok"),
        (&[s, "illegal-move"], "legal-moves", "legal"),
        (&[s, "double-bestmove"], "one-bestmove", "exactly one"),
        (&[s, "hang-on-go"], "legal-moves", "bestmove"),
        (&[s, "overrun-time", "400"], "movetime", "movetime"),
    ];
    for (command, failing, hint_word) in cases {
        let (code, report, out) = check(dir.path(), "tictactoe", command);
        assert_eq!(code, 1, "{command:?}\n{out}");
        assert_eq!(report["passed"], false);
        assert_eq!(
            failures(&report).first().map(String::as_str),
            Some(failing),
            "{command:?}\n{out}"
        );
        let h = hint(&report, failing);
        assert!(h.contains(hint_word), "{command:?}: hint '{h}'\n{out}");
    }
    // Where the engine died is named: after which command.
    let (_, report, out) = check(dir.path(), "tictactoe", &[s, "crash-mid-game", "0"]);
    let crash = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "crash")
        .unwrap();
    assert!(
        crash["detail"]
            .as_str()
            .unwrap()
            .contains("after 'go movetime 100'"),
        "{out}"
    );
    assert_eq!(status(&report, "legal-moves"), "missed", "{out}");
    // A slow start within the startup time passes, with a recommendation.
    let (code, report, out) = check(dir.path(), "tictactoe", &[s, "slow-start", "1200"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(status(&report, "start-time"), "fail", "{out}");
}

#[test]
fn python_bots_that_do_not_flush_or_exit_on_unknown_commands_are_diagnosed() {
    let dir = tempfile::tempdir().unwrap();
    let silent = dir.path().join("no_flush.py");
    std::fs::write(
        &silent,
        "import sys\nfor line in sys.stdin:\n    w = line.split()\n    if w and w[0] == 'ugi':\n        sys.stdout.write('id name NoFlush\\nugiok\\n')\n    elif w and w[0] == 'isready':\n        sys.stdout.write('readyok\\n')\n    elif w and w[0] == 'quit':\n        break\n",
    )
    .unwrap();
    let (code, report, out) = check(dir.path(), "tictactoe", &[silent.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(failures(&report)[0], "handshake", "{out}");
    assert!(hint(&report, "handshake").contains("flush=True"), "{out}");
    assert!(out.contains("no output within 1500 ms of 'ugi'"), "{out}");
    assert!(out.contains("came only when it exited"), "{out}");

    let strict = dir.path().join("strict.py");
    std::fs::write(
        &strict,
        "import sys\nfor line in sys.stdin:\n    w = line.split()\n    if not w: continue\n    if w[0] == 'ugi': print('ugiok', flush=True)\n    elif w[0] == 'isready': print('readyok', flush=True)\n    else: sys.exit(1)\n",
    )
    .unwrap();
    let (code, report, out) = check(dir.path(), "tictactoe", &[strict.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(failures(&report)[0], "crash", "{out}");
    assert!(hint(&report, "crash").contains("ignore commands"), "{out}");
    // A required check not reached because of the exit is missed: a failure.
    assert_eq!(status(&report, "quit"), "missed", "{out}");
}

#[test]
fn a_missing_program_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Command::new(arena());
    c.args(["check", "--", "/nonexistent/bot"]);
    let out = run(c, Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/bot"));
    drop(dir);
}
