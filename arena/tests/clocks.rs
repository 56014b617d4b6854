//! Clock handling with engines that use exactly their time, overrun it within the
//! margin, and overrun it beyond the margin; with a clock and with a fixed movetime.

mod common;

use std::time::Duration;

use common::*;
use serde_json::Value;

/// Two games (a colour-swapped pair) of tic-tac-toe: "timer" in `mode` with `tc`
/// against a normal engine.
fn clock_match(test: &str, mode: &str, tc: &str, margin_ms: u64) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker(test);
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args(scripted_engine(mode, "timer", tc))
        .args(scripted_engine("normal", "quick", "tc=5+0"))
        .args(["--game", "tictactoe", "--games", "2", "--openings", "start"])
        .args(["--concurrency", "2", "--grace-ms", "100"])
        .args(["--margin-ms", &margin_ms.to_string()]);
    let out = run(cmd, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 2);
    assert_no_survivors(&marker);
    records
}

fn timer_seat(r: &Value) -> &'static str {
    if r["p1"]["name"] == "timer" {
        "p1"
    } else {
        "p2"
    }
}

fn timer_moves(r: &Value) -> Vec<Value> {
    let seat = timer_seat(r);
    r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["side"] == seat)
        .cloned()
        .collect()
}

#[test]
fn using_exactly_the_clock_is_in_time() {
    // The engine sleeps its whole remaining clock on every move: 300 ms, then the
    // 50 ms increment each move. Never a forfeit; the clock is clamped at zero and the
    // increment added, so it reads 50 ms after every move.
    let records = clock_match("exact-clock", "use-exact-time", "tc=0.3+0.05", 150);
    for r in &records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        let moves = timer_moves(r);
        assert!(moves.len() >= 2, "{r}");
        let first = moves[0]["time_ms"].as_f64().unwrap();
        assert!(
            (299.0..345.0).contains(&first),
            "first move took {first} ms: {r}"
        );
        for m in &moves {
            let clock = m["clock_ms"].as_u64().unwrap();
            assert!((50..=51).contains(&clock), "clock {clock} after {m}");
        }
        for m in &moves[1..] {
            let t = m["time_ms"].as_f64().unwrap();
            assert!((49.0..200.0).contains(&t), "{t} ms with a 50 ms clock: {m}");
        }
    }
}

#[test]
fn overrunning_within_the_margin_is_in_time() {
    // 30 ms over a 150 ms margin: in time, clock clamped to zero plus increment.
    let records = clock_match("small-overrun", "overrun-time 30", "tc=0.2+0.05", 150);
    for r in &records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        for m in timer_moves(r) {
            assert_eq!(m["clock_ms"], 50, "{m}");
        }
    }
}

#[test]
fn overrunning_the_clock_beyond_the_margin_forfeits() {
    // The engine would sleep its 300 ms plus 500 ms; the arena stops waiting at
    // 300 + 50 ms margin and records a time forfeit without waiting for the move.
    let records = clock_match("overrun-clock", "overrun-time 500", "tc=0.3+0.05", 50);
    for r in &records {
        let t = &r["termination"];
        assert_eq!(t["kind"], "time_forfeit", "{r}");
        assert_eq!(t["side"], timer_seat(r), "{r}");
        assert_eq!(t["limit"], "clock", "{r}");
        assert_eq!(t["allowed_ms"], 350, "{r}");
        let elapsed = t["elapsed_ms"].as_u64().unwrap();
        assert!((350..700).contains(&elapsed), "waited {elapsed} ms: {r}");
        assert!(timer_moves(r).is_empty(), "{r}");
        let winner = if timer_seat(r) == "p1" { "0-1" } else { "1-0" };
        assert_eq!(r["result"], winner, "{r}");
    }
}

#[test]
fn using_exactly_the_movetime_is_in_time() {
    let records = clock_match("exact-movetime", "use-exact-time", "st=0.2", 150);
    for r in &records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        for m in timer_moves(r) {
            let t = m["time_ms"].as_f64().unwrap();
            assert!((199.0..350.0).contains(&t), "{t} ms for movetime 200: {m}");
            assert!(m.get("clock_ms").is_none(), "no clock with st: {m}");
        }
    }
}

#[test]
fn overrunning_the_movetime_forfeits() {
    let records = clock_match("overrun-movetime", "overrun-time 400", "st=0.2", 50);
    for r in &records {
        let t = &r["termination"];
        assert_eq!(t["kind"], "time_forfeit", "{r}");
        assert_eq!(t["limit"], "movetime", "{r}");
        assert_eq!(t["allowed_ms"], 250, "{r}");
        assert!(t["elapsed_ms"].as_u64().unwrap() < 550, "{r}");
    }
}

/// The timer of `records` spends 250 ms a move at 100 ms a move with a 300 ms bank
/// (and a 50 ms margin): its first move leaves 150 ms of bank, its second none, its third
/// (100 ms and the margin allowed) is over time.
const BANKED: &str = "st=0.1 bank=0.3";

#[test]
fn a_time_bank_pays_for_two_slow_moves_then_the_game_is_lost() {
    let records = clock_match("bank-loss", "overrun-time 150", BANKED, 50);
    for r in &records {
        assert_eq!(r["termination"]["kind"], "time_forfeit", "{r}");
        assert_eq!(r["termination"]["limit"], "bank", "{r}");
        assert_eq!(r["termination"]["side"], timer_seat(r), "{r}");
        let moves = timer_moves(r);
        assert_eq!(moves.len(), 2, "two moves in time, the third over: {r}");
        // 150 ms off the bank, and the fraction of a ms the move took beyond its 250.
        let bank = moves[0]["bank_ms"].as_u64().unwrap();
        assert!((140..=150).contains(&bank), "{bank}: {r}");
        assert_eq!(moves[1]["bank_ms"].as_u64(), Some(0), "{r}");
        assert_eq!(r["termination"]["allowed_ms"].as_u64(), Some(150), "{r}");
    }
}

#[test]
fn with_timeout_move_the_arena_plays_for_a_bot_over_its_time() {
    let tc = format!("{BANKED} timeout=move");
    let records = clock_match("bank-move", "overrun-time 150", &tc, 50);
    for r in &records {
        // The game goes on to its end by the rules.
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        let moves = timer_moves(r);
        assert!(moves.len() >= 3, "{r}");
        assert!(
            moves[..2].iter().all(|m| m.get("default_move").is_none()),
            "{r}"
        );
        for m in &moves[2..] {
            assert_eq!(
                m["default_move"], true,
                "over time from the third move: {m}"
            );
            assert_eq!(m["bank_ms"].as_u64(), Some(0), "{m}");
        }
        let notes = r["notes"].to_string();
        assert!(
            notes.contains("ran over its time") && notes.contains("played"),
            "{r}"
        );
    }
}
