//! The arena against the misbehaving `scripted_engine`: every misbehaviour gives its
//! termination, the engine at fault loses, the match goes on to the end (the faulty
//! engine restarted), the journal holds every game, and no process survives the run.

mod common;

use std::path::Path;
use std::time::Duration;

use common::*;
use serde_json::Value;

const GAMES: u64 = 4;

struct Run {
    records: Vec<Value>,
    dir: tempfile::TempDir,
}

/// Plays `GAMES` games of tic-tac-toe: engine 0 "bad" in `mode`, engine 1 "good" (normal).
fn fault_match(test: &str, mode: &str, bad_tc: &str, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker(test);
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args(scripted_engine(mode, "bad", bad_tc))
        .args(scripted_engine("normal", "good", "tc=2+0.1"))
        .args(["--game", "tictactoe", "--games", &GAMES.to_string()])
        .args([
            "--openings",
            "random:1",
            "--seed",
            "7",
            "--concurrency",
            "1",
        ])
        .args([
            "--startup-ms",
            "1500",
            "--ping-ms",
            "1000",
            "--margin-ms",
            "50",
        ])
        .args(["--grace-ms", "100", "--hard-cap-ms", "1000"])
        .args(extra);
    let out = run(cmd, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, GAMES);
    assert_no_survivors(&marker);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("=== Final ==="), "{}", text(&out));
    Run { records, dir }
}

fn seat_of(record: &Value, name: &str) -> &'static str {
    if record["p1"]["name"] == name {
        "p1"
    } else {
        "p2"
    }
}

/// Every game ended with `kind`, blamed on "bad", and "good" won it.
fn assert_bad_lost_every_game(run: &Run, kind: &str) {
    for r in &run.records {
        let bad = seat_of(r, "bad");
        let t = &r["termination"];
        assert_eq!(t["kind"], kind, "{r}");
        assert_eq!(t["side"], bad, "{r}");
        let expected = if bad == "p1" { "0-1" } else { "1-0" };
        assert_eq!(r["result"], expected, "{r}");
        assert_eq!(r["winner"], if bad == "p1" { "p2" } else { "p1" }, "{r}");
    }
}

/// Every game's termination reason mentions `text`.
fn assert_every_reason_contains(run: &Run, text: &str) {
    for r in &run.records {
        let reason = r["termination"]["reason"].as_str().unwrap_or("");
        assert!(reason.contains(text), "{r}");
    }
}

fn stderr_logs_of(dir: &Path, name: &str) -> usize {
    let out = dir.join("arena-out");
    let run = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .find(|e| e.path().join("logs").is_dir())
        .expect("run directory")
        .path();
    std::fs::read_dir(run.join("logs"))
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{name}-"))
        })
        .count()
}

#[test]
fn crash_at_start() {
    let run = fault_match("crash-at-start", "crash-at-start", "tc=2+0.1", &[]);
    assert_bad_lost_every_game(&run, "crash");
    for r in &run.records {
        assert_eq!(r["termination"]["phase"], "startup", "{r}");
        let detail = r["termination"]["detail"].as_str().unwrap();
        assert!(detail.contains("exited with code 3"), "{detail}");
    }
    // A failed engine is restarted for every game.
    assert_eq!(stderr_logs_of(run.dir.path(), "bad"), GAMES as usize);
}

#[test]
fn crash_mid_game() {
    let run = fault_match("crash-mid-game", "crash-mid-game 1", "tc=2+0.1", &[]);
    assert_bad_lost_every_game(&run, "crash");
    for r in &run.records {
        assert_eq!(r["termination"]["phase"], "search", "{r}");
        let detail = r["termination"]["detail"].as_str().unwrap();
        assert!(detail.contains("killed by signal 6"), "{detail}");
        // Its first move was played and recorded before the crash.
        let bad = seat_of(r, "bad");
        let bad_moves = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["side"] == bad && m.get("book").is_none())
            .count();
        assert_eq!(bad_moves, 1, "{r}");
    }
    assert_eq!(stderr_logs_of(run.dir.path(), "bad"), GAMES as usize);
}

#[test]
fn hang_on_go_loses_on_time() {
    let run = fault_match("hang-on-go", "hang-on-go", "tc=0.3+0", &[]);
    assert_bad_lost_every_game(&run, "time_forfeit");
    for r in &run.records {
        let t = &r["termination"];
        assert_eq!(t["limit"], "clock", "{r}");
        assert_eq!(t["allowed_ms"], 350, "{r}");
        let elapsed = t["elapsed_ms"].as_u64().unwrap();
        assert!((350..1000).contains(&elapsed), "{r}");
    }
}

#[test]
fn hang_on_go_with_depth_limit_hits_the_hard_cap() {
    // fastchess #1029: no deadline for depth/nodes searches. Ours is --hard-cap-ms.
    let run = fault_match("hang-depth", "hang-on-go", "depth=3", &[]);
    assert_bad_lost_every_game(&run, "time_forfeit");
    for r in &run.records {
        assert_eq!(r["termination"]["limit"], "hard-cap", "{r}");
        assert_eq!(r["termination"]["allowed_ms"], 1000, "{r}");
    }
}

#[test]
fn no_readyok_is_a_stall() {
    let run = fault_match("no-readyok", "no-readyok", "tc=2+0.1", &[]);
    assert_bad_lost_every_game(&run, "stall");
    for r in &run.records {
        assert_eq!(r["termination"]["waiting_for"], "readyok", "{r}");
        assert!(
            r["termination"]["waited_ms"].as_u64().unwrap() >= 1000,
            "{r}"
        );
    }
}

#[test]
fn illegal_move() {
    let run = fault_match("illegal-move", "illegal-move", "tc=2+0.1", &[]);
    assert_bad_lost_every_game(&run, "illegal_move");
    for r in &run.records {
        let t = &r["termination"];
        assert!(t["reason"].as_str().unwrap().contains("occupied"), "{r}");
        // The illegal move never enters the record.
        let moves: Vec<&str> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["mv"].as_str().unwrap())
            .collect();
        let mut unique = moves.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), moves.len(), "{r}");
    }
}

#[test]
fn malformed_move() {
    let run = fault_match("malformed-move", "malformed-move", "tc=2+0.1", &[]);
    assert_bad_lost_every_game(&run, "malformed_reply");
    for r in &run.records {
        assert_eq!(r["termination"]["line"], "bestmove !!", "{r}");
    }
}

#[test]
fn garbage_lines_are_skipped() {
    let run = fault_match("garbage-lines", "garbage-lines", "tc=2+0.1", &[]);
    for r in &run.records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        let notes = r["notes"].to_string();
        assert!(notes.contains("not protocol replies"), "{r}");
    }
    // Played properly, so the process was reused for every game.
    assert_eq!(stderr_logs_of(run.dir.path(), "bad"), 1);
}

#[test]
fn huge_line_is_an_output_flood() {
    let run = fault_match("huge-line", "huge-line", "tc=2+0.1", &[]);
    assert_bad_lost_every_game(&run, "output_flood");
    assert_every_reason_contains(&run, "65536 bytes");
}

#[test]
fn info_flood_is_an_output_flood() {
    let run = fault_match("info-flood", "info-flood", "tc=2+0.1", &[]);
    assert_bad_lost_every_game(&run, "output_flood");
    assert_every_reason_contains(&run, "lines per second");
}

#[test]
fn exit_after_bestmove_is_a_crash() {
    let run = fault_match(
        "exit-after-bestmove",
        "exit-after-bestmove",
        "tc=2+0.1",
        &[],
    );
    assert_bad_lost_every_game(&run, "crash");
    for r in &run.records {
        let detail = r["termination"]["detail"].as_str().unwrap();
        assert!(detail.contains("exited with code 0"), "{detail}");
    }
}

#[test]
fn leave_child_is_cleaned_up() {
    // The engine plays normally; its `sleep 1000` child must not survive the match
    // (fault_match checks that no process with the test's marker is left).
    let run = fault_match("leave-child", "leave-child", "tc=2+0.1", &[]);
    for r in &run.records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
}

#[test]
fn wrong_claims_are_recorded_not_trusted() {
    let run = fault_match(
        "wrong-claim",
        "wrong-claim",
        "tc=2+0.1",
        &["--query-result"],
    );
    let mut decisive = 0;
    for r in &run.records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        let claims = &r["claims"];
        let bad = seat_of(r, "bad");
        let good = if bad == "p1" { "p2" } else { "p1" };
        let truth = match r["result"].as_str().unwrap() {
            "1-0" => "p1win",
            "0-1" => "p2win",
            _ => "draw",
        };
        assert_eq!(claims[good], truth, "{r}");
        if truth != "draw" {
            decisive += 1;
            assert_ne!(claims[bad], truth, "{r}");
            assert_eq!(claims["agree"], false, "{r}");
        }
    }
    assert!(decisive > 0, "no decisive game to check");
}

#[test]
fn a_second_bestmove_is_a_protocol_violation() {
    // The stray line would otherwise answer the next `go` with a move for the old position.
    let run = fault_match("double-bestmove", "double-bestmove", "tc=2+0.1", &[]);
    assert_bad_lost_every_game(&run, "protocol_violation");
    for r in &run.records {
        assert_eq!(r["termination"]["reason"], "bestmove without go", "{r}");
    }
}
