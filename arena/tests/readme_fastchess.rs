//! The fastchess-style examples of docs/arena.md, run as written: each ```` ```sh fastchess ````
//! block is followed by a ```` ```sh arena-spelling ```` block with the same match in the
//! arena's own options. Both run in one folder (as a reader would, in order, with
//! `./target/release/arena`), and must play the same games: the same players, colours
//! and openings, and, where no clock makes moves depend on timing, the same moves, results
//! and terminations.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use serde_json::Value;

/// The page's code blocks with the given info string, in order.
fn blocks(readme: &str, info: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match &mut current {
            None if line.trim() == format!("```{info}") => current = Some(String::new()),
            None => {}
            Some(_) if line.trim() == "```" => out.push(current.take().expect("block")),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    out
}

/// The game records a block's run wrote (`--out DIR`), by game index.
fn games_of(dir: &Path, block: &str) -> Vec<Value> {
    let words: Vec<&str> = block.split_whitespace().collect();
    let out = words
        .windows(2)
        .find(|w| w[0] == "--out")
        .map(|w| w[1])
        .expect("every example of docs/arena.md names its --out");
    let file = if block.contains(" tournament ") {
        "tournament.jsonl"
    } else {
        "journal.jsonl"
    };
    let mut games: Vec<Value> = journal(&dir.join(out).join(file))
        .into_iter()
        .filter(|r| r.get("tournament").is_none())
        .collect();
    games.sort_by_key(|r| r["game"].as_u64());
    games
}

fn moves(r: &Value) -> Vec<String> {
    r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mv"].as_str().unwrap().to_string())
        .collect()
}

fn run_block(dir: &Path, marker: &str, block: &str) -> String {
    let mut c = Command::new("bash");
    c.current_dir(dir)
        .args(["-e", "-c", block])
        .env("ARENA_TEST_MARKER", marker);
    let out = run(c, Duration::from_secs(300));
    assert!(
        out.status.success(),
        "docs/arena.md example failed:\n{block}\n{}",
        text(&out)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn readme_fastchess_examples_play_the_same_games_as_the_arena_spelling() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/arena.md"))
        .expect("docs/arena.md");
    let fastchess = blocks(&readme, "sh fastchess");
    let native = blocks(&readme, "sh arena-spelling");
    assert!(
        fastchess.len() >= 3,
        "docs/arena.md shows fastchess-style examples"
    );
    assert_eq!(
        fastchess.len(),
        native.len(),
        "each has the arena's spelling beside it"
    );
    let dir = tempfile::tempdir().unwrap();
    // `./target/release/arena` as docs/arena.md writes it.
    let bin = dir.path().join("target/release");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(arena(), bin.join("arena")).unwrap();
    std::os::unix::fs::symlink(agon(), bin.join("agon")).unwrap();
    let marker = marker("readme-fastchess");
    for (fc, ours) in fastchess.iter().zip(&native) {
        let fc_out = run_block(dir.path(), &marker, fc);
        let our_out = run_block(dir.path(), &marker, ours);
        let (a, b) = (games_of(dir.path(), fc), games_of(dir.path(), ours));
        assert!(!a.is_empty(), "{fc}\n{fc_out}");
        assert_eq!(a.len(), b.len(), "games:\n{fc}\n{ours}\n{our_out}");
        let clock = fc.contains("tc=") || fc.contains("st=");
        for (x, y) in a.iter().zip(&b) {
            let at = format!("game {} of\n{fc}", x["game"]);
            assert_eq!(x["game"], y["game"], "{at}");
            assert_eq!(x["p1"]["name"], y["p1"]["name"], "{at}");
            assert_eq!(x["p2"]["name"], y["p2"]["name"], "{at}");
            assert_eq!(x["p1"]["tc"], y["p1"]["tc"], "{at}");
            assert_eq!(x["opening"], y["opening"], "{at}");
            if !clock {
                assert_eq!(moves(x), moves(y), "{at}");
                assert_eq!(x["result"], y["result"], "{at}");
                assert_eq!(x["termination"], y["termination"], "{at}");
            }
        }
        // The options took effect: a shuffled EPD book gives several openings, a PGN book
        // cut to two plies gives two-move openings, a period clock is recorded as such.
        if fc.contains("format=epd") {
            let positions: std::collections::HashSet<String> = a
                .iter()
                .map(|r| r["opening"]["position"].to_string())
                .collect();
            assert!(positions.len() > 1, "{positions:?}");
        }
        if fc.contains("format=pgn") {
            assert!(a
                .iter()
                .all(|r| r["opening"]["moves"].as_array().unwrap().len() == 2));
        }
        if fc.contains("tc=40/1+0.01") {
            assert_eq!(a[0]["p1"]["tc"], "tc=40/1+0.01");
        }
        if fc.contains("-draw") || fc.contains("-resign") {
            assert!(
                a.iter().any(|r| r["termination"]["kind"] == "adjudication"),
                "adjudication happened in {fc}"
            );
        }
    }
    // The PGN of the first example holds its games.
    let pgn = std::fs::read_to_string(dir.path().join("fastchess.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[Event ").count(),
        games_of(dir.path(), &fastchess[0]).len()
    );
    assert_no_survivors(&marker);
}
