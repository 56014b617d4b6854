//! The arena against the real `agon` engine: the README's default match, what the
//! arena tells engines (checked in the transcripts), claims, reproducible schedules.

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::*;
use serde_json::Value;

#[test]
fn default_match_runs_with_no_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("default");
    agon(); // the default engines are the agon binary next to the arena
    let mut cmd = std::process::Command::new(arena());
    cmd.current_dir(dir.path())
        .arg("match")
        .env("ARENA_TEST_MARKER", &marker);
    let out = run(cmd, Duration::from_secs(100));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", text(&out));
    for expected in [
        "Match agon vs agon-minimax-d3",
        "=== Final ===",
        "W/D/L from agon's view",
        "Elo difference (agon minus agon-minimax-d3)",
        "LOS",
        "draw ratio",
        "Terminations:",
        "avg depth",
        "nodes/move",
        "ms/move",
        "nps",
        "Arena latency",
    ] {
        assert!(
            stdout.contains(expected),
            "missing '{expected}':\n{}",
            text(&out)
        );
    }
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 100);
    assert_no_survivors(&marker);
    // Games in progress were published for `arena serve` (the browser test watches one)
    // and the finished run removed its live files.
    let live: Vec<_> = std::fs::read_dir(dir.path().join("arena-out/live"))
        .expect("the live folder exists")
        .collect();
    assert!(live.is_empty(), "live files left behind: {live:?}");
    let mut kinds = BTreeMap::new();
    for r in &records {
        *kinds
            .entry(r["termination"]["kind"].as_str().unwrap().to_string())
            .or_insert(0) += 1;
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        // Both engines searched and reported; the record has their data.
        let searched: Vec<&Value> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m.get("book").is_none())
            .collect();
        assert!(searched.len() >= 2, "{r}");
        for m in searched {
            assert!(m["depth"].as_u64().unwrap() >= 1, "{m}");
            assert!(m["time_ms"].is_number() && m["clock_ms"].is_number(), "{m}");
            assert!(m["pv"].as_array().is_some_and(|pv| !pv.is_empty()), "{m}");
        }
    }
    assert_eq!(kinds.get("normal").copied(), Some(100), "{kinds:?}");
}

#[test]
fn agon_against_a_weak_engine_with_transcripts_and_claims() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("transcripts");
    let agon_path = agon();
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args([
        "--engine",
        &format!("cmd={}", agon_path.display()),
        "name=agon",
        "tc=2+0.05",
    ])
    .args(scripted_engine("normal", "first-legal", "tc=2+0.05"))
    .args(["--game", "tictactoe", "--games", "4", "--openings", "start"])
    .args(["--transcripts", "--query-result", "--concurrency", "2"]);
    let out = run(cmd, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 4);
    assert_no_survivors(&marker);
    for r in &records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        // Perfect play never loses tic-tac-toe.
        let agon_seat = if r["p1"]["name"] == "agon" {
            "p1"
        } else {
            "p2"
        };
        let lost = if agon_seat == "p1" { "0-1" } else { "1-0" };
        assert_ne!(r["result"], lost, "{r}");
        // Both engines were asked for the result and agree with the arena.
        assert_eq!(r["claims"]["agree"], true, "{r}");
        // The transcript shows exactly what each engine was told.
        let path = dir
            .path()
            .join("arena-out")
            .join(r["transcript_file"].as_str().unwrap());
        let transcript = std::fs::read_to_string(&path).unwrap();
        let moves: Vec<&str> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["mv"].as_str().unwrap())
            .collect();
        let mut times = Vec::new();
        let mut gos = 0;
        assert!(
            transcript.starts_with("# ") && transcript.contains("'>' sent to the engine"),
            "a legend first: {transcript}"
        );
        for line in transcript.lines().skip(1) {
            let mut parts = line.split_whitespace();
            let at: f64 = parts.next().unwrap().parse().unwrap();
            times.push(at);
            let who = parts.next().unwrap();
            assert!(who == "p1" || who == "p2", "{line}");
            let arrow = parts.next().unwrap();
            let rest: Vec<&str> = parts.collect();
            // protocol.md's arrows: '>' to the engine, '<' from it.
            assert!(arrow == ">" || arrow == "<" || arrow == "#", "{line}");
            if arrow == ">" && rest.first() == Some(&"go") {
                gos += 1;
                let go = rest.join(" ");
                assert!(
                    go.starts_with("go p1time ")
                        && go.contains(" p2time ")
                        && go.contains(" p1inc 50 p2inc 50"),
                    "{line}"
                );
            }
            if arrow == ">" && rest.first() == Some(&"position") {
                // `position startpos [moves <every move so far>]`
                assert_eq!(rest[1], "startpos", "{line}");
                let told: Vec<&str> = rest.iter().skip(3).copied().collect();
                assert_eq!(told, moves[..told.len()], "{line}");
            }
        }
        assert!(
            times.windows(2).all(|w| w[0] <= w[1]),
            "timestamps go forward"
        );
        assert_eq!(gos, moves.len(), "one go per move");
        // The game file has the tags and the moves.
        let game_file = std::fs::read_to_string(
            dir.path()
                .join("arena-out")
                .join(r["game_file"].as_str().unwrap()),
        )
        .unwrap();
        assert!(game_file.contains(&format!("[Result \"{}\"]", r["result"].as_str().unwrap())));
        assert!(
            game_file.contains(&format!("1. {}", moves[0])),
            "{game_file}"
        );
    }
}

fn scripted_pair_run(seed: &str, openings: &str) -> Vec<(u64, String, Vec<String>)> {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("seed");
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args(scripted_engine("normal", "a", "tc=2+0"))
        .args(scripted_engine("garbage-lines", "b", "tc=2+0"))
        .args([
            "--game",
            "mnk m=4 n=4 k=3",
            "--games",
            "6",
            "--openings",
            openings,
        ])
        .args(["--seed", seed, "--concurrency", "2"]);
    let out = run(cmd, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 6);
    assert_no_survivors(&marker);
    let mut games: Vec<(u64, String, Vec<String>)> = records
        .iter()
        .map(|r| {
            (
                r["game"].as_u64().unwrap(),
                r["opening"].to_string(),
                r["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["mv"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    games.sort();
    games
}

#[test]
fn a_seed_reproduces_the_schedule_and_pairs_share_openings() {
    let a = scripted_pair_run("11", "random:3");
    let b = scripted_pair_run("11", "random:3");
    assert_eq!(a, b, "same seed, same games (whatever the concurrency did)");
    let c = scripted_pair_run("12", "random:3");
    assert_ne!(
        a.iter().map(|g| &g.1).collect::<Vec<_>>(),
        c.iter().map(|g| &g.1).collect::<Vec<_>>()
    );
    for pair in a.chunks(2) {
        assert_eq!(pair[0].1, pair[1].1, "a pair shares its opening");
        assert_eq!(pair[0].2[..3], pair[1].2[..3]);
    }
}

#[test]
fn openings_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openings.txt");
    std::fs::write(&file, "# two openings\nb2 a1\nfen 4/4/1x2/4 o moves d4\n").unwrap();
    let games = scripted_pair_run("1", &format!("file:{}", file.display()));
    let openings: Vec<Value> = games
        .iter()
        .map(|g| serde_json::from_str(&g.1).unwrap())
        .collect();
    assert_eq!(openings[0]["moves"], serde_json::json!(["b2", "a1"]));
    assert_eq!(openings[1], openings[0]);
    assert_eq!(openings[2]["position"], "4/4/1x2/4 o");
    assert_eq!(openings[2]["moves"], serde_json::json!(["d4"]));
    // The list cycles.
    assert_eq!(openings[4], openings[0]);
    assert_eq!(games[0].2[..2], ["b2", "a1"]);
}

#[test]
fn bad_engine_path_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("badpath");
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args(["--engine", "cmd=./no/such/engine", "name=ghost"]);
    let out = run(cmd, Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no such file"), "{stderr}");
    assert!(!dir.path().join("arena-out/journal.jsonl").exists());
    // Each other wrong path gets the one thing that is wrong with it.
    std::fs::write(dir.path().join("engine.sh"), "#!/bin/sh\n").unwrap();
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    for (cmd, expected) in [
        ("cmd=./engine.sh", "not executable: "),
        ("cmd=./folder", "is a folder: give the program inside it"),
        (
            "cmd=nosuchprogram",
            "found neither next to the arena binary nor on PATH",
        ),
    ] {
        let mut c = arena_match(dir.path(), &marker);
        c.args(["--engine", cmd, "name=ghost"]);
        let out = run(c, Duration::from_secs(20));
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{cmd}: {stderr}");
        assert!(
            !stderr.contains("ENGINE_KEYS") && !stderr.contains("option.NAME=VALUE"),
            "{stderr}"
        );
    }
}
