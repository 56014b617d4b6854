//! Stopping the arena mid-match: SIGKILL leaves a journal of complete records and no
//! engine alive; Ctrl-C (SIGINT) records the games in progress as interrupted.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::*;

fn journal_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// Waits until the journal has `n` lines (at most 30 s).
fn wait_for_lines(child: &mut Child, path: &Path, n: usize) {
    let until = Instant::now() + Duration::from_secs(30);
    while journal_lines(path) < n {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the arena ended before {n} games were written"
        );
        assert!(Instant::now() < until, "no {n} games within 30 s");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn sigkill_mid_match_leaves_complete_records_and_no_engine() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("sigkill");
    let journal_path = dir.path().join("arena-out/journal.jsonl");
    let agon_path = agon();
    let spawn = || {
        let mut cmd = arena_match(dir.path(), &marker);
        cmd.args([
            "--engine",
            &format!("cmd={}", agon_path.display()),
            "name=agon",
        ])
        .args(scripted_engine("use-exact-time", "slow", "st=0.02"))
        .args([
            "--game",
            "mnk m=5 n=5 k=4",
            "--games",
            "200",
            "--each",
            "tc=1+0.01",
        ])
        .args(["--concurrency", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
    };
    let mut child = spawn();
    wait_for_lines(&mut child, &journal_path, 3);
    // Let games be in flight, then kill without warning.
    std::thread::sleep(Duration::from_millis(137));
    child.kill().unwrap();
    child.wait().unwrap();
    let records = journal(&journal_path);
    assert!(records.len() >= 3);
    for r in &records {
        assert_complete(r);
    }
    // The engines die with the arena (parent-death signal), even killed with SIGKILL.
    assert_no_survivors(&marker);
    // A new run appends to the same journal, which stays valid line by line.
    let before = records.len();
    let mut child = spawn();
    wait_for_lines(&mut child, &journal_path, before + 2);
    child.kill().unwrap();
    child.wait().unwrap();
    let records = journal(&journal_path);
    assert!(records.len() >= before + 2);
    for r in &records {
        assert_complete(r);
    }
    let runs: std::collections::BTreeSet<&str> =
        records.iter().map(|r| r["run"].as_str().unwrap()).collect();
    assert_eq!(runs.len(), 2, "two runs in one journal");
    assert_no_survivors(&marker);
}

/// A 100-game tic-tac-toe match, two at a time, between a `use-exact-time` engine and
/// one with behaviour `b` (0.05 s a move), started in `dir` and under way: two games are in
/// its journal and the next ones have begun. Returns the arena and its journal's path.
fn match_under_way(dir: &Path, marker: &str, b: &str) -> (Child, PathBuf) {
    let journal_path = dir.join("arena-out/journal.jsonl");
    let mut cmd = arena_match(dir, marker);
    cmd.args(scripted_engine("use-exact-time", "a", "st=0.05"))
        .args(scripted_engine(b, "b", "st=0.05"))
        .args([
            "--game",
            "tictactoe",
            "--games",
            "100",
            "--concurrency",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    wait_for_lines(&mut child, &journal_path, 2);
    std::thread::sleep(Duration::from_millis(60));
    (child, journal_path)
}

#[test]
fn ctrl_c_records_games_in_progress_as_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("sigint");
    let (child, journal_path) = match_under_way(dir.path(), &marker, "leave-child");
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "slow to stop");
    assert_eq!(out.status.code(), Some(130), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("=== Final (interrupted) ==="));
    let records = journal(&journal_path);
    for r in &records {
        assert_complete(r);
    }
    let interrupted: Vec<_> = records
        .iter()
        .filter(|r| r["termination"]["kind"] == "interrupted")
        .collect();
    assert!(!interrupted.is_empty(), "games in progress are recorded");
    for r in &interrupted {
        assert_eq!(r["result"], "*", "{r}");
    }
    // Every game started is in the journal: indices 0..n without gaps.
    let mut games: Vec<u64> = records
        .iter()
        .map(|r| r["game"].as_u64().unwrap())
        .collect();
    games.sort_unstable();
    assert_eq!(games, (0..games.len() as u64).collect::<Vec<_>>());
    assert!(games.len() < 100);
    assert_no_survivors(&marker);
}

/// A scheduler's cancel (Slurm's `scancel`), a shutdown or a terminal's Ctrl-C signals
/// every process of the run, engines included, and an engine may die a moment before the
/// arena hears of its own signal. The game in progress is then interrupted, not a crash
/// lost by that engine: here every engine gets SIGTERM 100 ms before the arena does.
#[test]
fn sigterm_to_engines_then_arena_is_an_interruption_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("sigterm-all");
    let (child, journal_path) = match_under_way(dir.path(), &marker, "use-exact-time");
    let engines: Vec<i32> = processes_with(&marker)
        .into_iter()
        .map(|(pid, _)| pid)
        .filter(|&pid| pid != child.id() as i32)
        .collect();
    assert!(!engines.is_empty(), "engines are running");
    for &pid in &engines {
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
    }
    std::thread::sleep(Duration::from_millis(100));
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out));
    let records = journal(&journal_path);
    let crashes: Vec<_> = records
        .iter()
        .filter(|r| {
            r["termination"]["kind"] != "normal" && r["termination"]["kind"] != "interrupted"
        })
        .collect();
    assert!(crashes.is_empty(), "no engine is blamed: {crashes:?}");
    assert!(
        records
            .iter()
            .any(|r| r["termination"]["kind"] == "interrupted"),
        "the games in progress are interrupted: {records:?}"
    );
    assert_no_survivors(&marker);
}
