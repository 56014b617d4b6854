//! The command line's small promises: output to a closed pipe ends the arena quietly,
//! nothing-to-do counts are refused, match and tournament count games the same way, and a
//! tournament rerun with other settings says what differs and leaves nothing behind.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;

#[test]
fn a_closed_pipe_ends_the_arena_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("pipe");
    let mut child = arena_match(dir.path(), &marker)
        .args(scripted_engine("normal", "a", "depth=1"))
        .args(scripted_engine("normal", "b", "depth=1"))
        .args([
            "--game",
            "tictactoe",
            "--games",
            "40",
            "--report-every",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // `| head -2`: read two lines, then close the pipe.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..2 {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert!(!line.is_empty());
    }
    drop(out);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(141), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_no_survivors(&marker);
}

#[test]
fn nothing_to_do_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    for (args, expected) in [
        (vec!["match", "--games", "0"], "--games 0"),
        (vec!["match", "--rounds", "0"], "--rounds 0"),
        (vec!["match", "--concurrency", "0"], "--concurrency 0"),
        (vec!["match", "--games", "4", "--rounds", "3"], "disagree"),
        (
            vec![
                "tournament",
                "--games",
                "3",
                "--engine",
                "cmd=agon",
                "--engine",
                "cmd=agon name=b",
            ],
            "must be even",
        ),
        (vec!["match", "-concurrency", "0"], "--concurrency 0"),
        (vec!["match", "-noswap"], "colour-swapped pair"),
    ] {
        let out = Command::new(arena())
            .current_dir(dir.path())
            .args(&args)
            .arg("--no-progress")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    assert!(
        !dir.path().join("arena-out").exists(),
        "nothing was written"
    );
}

#[test]
fn match_and_tournament_count_games_alike_and_a_changed_rerun_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("counts");
    let engines = |c: &mut Command| {
        c.args(scripted_engine("normal", "a", "depth=1"))
            .args(scripted_engine("normal", "b", "depth=1"))
            .args(["--game", "tictactoe"]);
    };
    let mut m = arena_match(dir.path(), &marker);
    engines(&mut m);
    m.args(["--rounds", "3", "--out", "m"]);
    let out = run(m, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        journal(&dir.path().join("m/journal.jsonl")).len(),
        6,
        "--rounds 3 = 6 games"
    );
    let tournament = |games: &str| {
        let mut t = Command::new(arena());
        t.current_dir(dir.path())
            .env("ARENA_TEST_MARKER", &marker)
            .args(["tournament", "--no-progress"]);
        engines(&mut t);
        t.args(["--games", games, "--out", "t"]);
        run(t, Duration::from_secs(60))
    };
    let out = tournament("6");
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Tournament (round-robin) of 2 engines: 3 rounds, 6 games"),
        "{stdout}"
    );
    let records = journal(&dir.path().join("t/tournament.jsonl"));
    assert_eq!(records.len(), 7, "a header and 6 games");
    let runs = |d: &str| {
        std::fs::read_dir(dir.path().join(d))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().is_dir())
            .count()
    };
    let before = runs("t");
    // Another number of games: refused, naming what differs, leaving no run folder.
    let out = tournament("8");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("rounds=3 in the journal, rounds=4 now"),
        "{stderr}"
    );
    assert!(!stderr.contains("cmd="), "no internal settings: {stderr}");
    assert_eq!(runs("t"), before, "no empty run folder");
    assert_no_survivors(&marker);
}
