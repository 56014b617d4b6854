//! The house's first rule, "a game is one folder under `src/games/` and one line in the
//! registry", shown with a sixth game: Domineering (`src/games/domineering/`, compiled
//! with the `sixth-game` feature). The game implements no presentation of its own
//! (every `GameView` default), and nothing in the arena names it; yet it plays in a
//! match, its games go to PGN, `arena report` reports them and the web board draws it,
//! takes its moves apart and says how it ended.
//!
//! Ignored by default: it builds agon and arena a second time with the feature, into
//! `target/sixth-game` (about four minutes on two cores). Run it with
//! `cargo test --release -p arena --test sixth_game -- --ignored`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{get_json as get, run, start_serve_of, text};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file of the tree that names the sixth game, outside its own folder.
fn files_naming_it() -> Vec<String> {
    let out = Command::new("git")
        .args([
            "grep",
            "-il",
            "domineering",
            "--",
            "src",
            "arena/src",
            "arena/web",
        ])
        .current_dir(root())
        .output()
        .expect("git grep");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("src/games/domineering/"))
        .map(str::to_string)
        .collect()
}

#[test]
#[ignore = "builds agon and arena again with --features sixth-game (about four minutes)"]
fn a_sixth_game_is_one_folder_and_one_registry_line() {
    // The code: one folder, and in the rest of the source one line (the registry's).
    let naming = files_naming_it();
    assert_eq!(naming, ["src/games/mod.rs"], "files naming the game");
    let registry = std::fs::read_to_string(root().join("src/games/mod.rs")).unwrap();
    let lines: Vec<&str> = registry
        .lines()
        .filter(|l| l.to_lowercase().contains("domineering"))
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");

    // A build with the game.
    let target = root().join("target/sixth-game");
    let build = run(
        {
            let mut c = Command::new(env!("CARGO"));
            c.args(["build", "--release", "--features", "agon/sixth-game"])
                .args([
                    "-p", "agon", "-p", "arena", "--bin", "agon", "--bin", "arena",
                ])
                .arg("--target-dir")
                .arg(&target)
                .current_dir(root());
            c
        },
        Duration::from_secs(1800),
    );
    assert!(build.status.success(), "{}", text(&build));
    let (agon, arena) = (target.join("release/agon"), target.join("release/arena"));

    // The engine lists it and plays it.
    let dir = tempfile::tempdir().unwrap();
    let mut m = Command::new(&arena);
    m.current_dir(dir.path()).args([
        "match",
        "--game",
        "domineering rows=4 cols=5",
        "--games",
        "4",
        "--seed",
        "3",
        "--no-progress",
        "--agon",
    ]);
    m.arg(&agon);
    let out = run(m, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let journal = std::fs::read_to_string(dir.path().join("arena-out/journal.jsonl")).unwrap();
    let records: Vec<Value> = journal
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4);
    for r in &records {
        assert_eq!(r["spec"], "domineering rows=4 cols=5");
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        // Who cannot place a domino loses: no draws in Domineering.
        assert!(r["result"] == "1-0" || r["result"] == "0-1", "{r}");
    }
    // PGN: every game, with the game's spec and its moves.
    let run_dir = std::fs::read_dir(dir.path().join("arena-out"))
        .unwrap()
        .flatten()
        .find(|e| e.path().join("games.pgn").exists())
        .expect("a run folder")
        .path();
    let pgn = std::fs::read_to_string(run_dir.join("games.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[GameSpec \"domineering rows=4 cols=5\"]")
            .count(),
        4
    );
    assert!(pgn.contains("1. "), "{pgn}");
    // The report.
    let mut report = Command::new(&arena);
    report.current_dir(dir.path()).args([
        "report",
        "arena-out/journal.jsonl",
        "--output",
        "report.html",
    ]);
    let out = run(report, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let page = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(page.contains("domineering"), "the report names the game");

    // The web board: presets, a board, moves taken apart, an ending in words.
    let engine = format!("cmd={} name=agon", agon.display());
    let served = start_serve_of(&arena, &["--engine", &engine]);
    let port = served.port;
    let (status, config) = get(port, "/api/config");
    assert_eq!(status, 200);
    let game = config["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "domineering")
        .expect("offered on the page");
    assert_eq!(game["presets"][0]["label"], "domineering");
    let (status, board) = get(port, "/api/board?spec=domineering%20rows%3D2%20cols%3D3");
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["view"]["cells"].as_array().unwrap().len(), 2);
    // Upright dominoes on 2x3: one per column.
    assert_eq!(board["moves"].as_array().unwrap().len(), 3, "{board}");
    let (status, end) = get(
        port,
        "/api/board?spec=domineering%20rows%3D2%20cols%3D3&moves=a1-a2%20b1-c1",
    );
    assert_eq!(status, 200, "{end}");
    assert_eq!(end["last"]["from"], "b1");
    assert_eq!(end["last"]["to"][0], "c1");
    // a1, a2, b1 and c1 are covered: no upright domino fits in what is left (b2, c2), so
    // Vertical cannot move and Horizontal wins.
    assert_eq!(end["result"]["winner"], "p2", "{end}");
    assert_eq!(end["result"]["words"], "Horizontal wins");
}
