//! The `go` lines the arena sends, as protocol.md section 7 ("What the arena sends")
//! documents them: every fenced `arena-go` block there is played as a one-game match
//! between two scripted engines with the block's time controls, and the first `go` each
//! side received (read from the protocol transcript) must be the block's line.

mod common;

use std::time::Duration;

use common::*;

/// One `arena-go` block: the game, each side's engine keys, the expected first `go` of
/// each side (exact, or a prefix when written with ` …`).
#[derive(Debug, Default)]
struct Block {
    line: usize,
    game: Option<String>,
    keys: [String; 2],
    expected: [Option<(String, bool)>; 2],
}

fn blocks() -> Vec<Block> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../protocol.md"))
        .expect("protocol.md");
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut current, line.trim()) {
            (None, "```arena-go") => {
                current = Some(Block {
                    line: i + 1,
                    ..Block::default()
                })
            }
            (None, _) => {}
            (Some(_), "```") => out.push(current.take().expect("open block")),
            (Some(b), l) => {
                if let Some(g) = l.strip_prefix("game: ") {
                    b.game = Some(g.to_string());
                } else if let Some((seat, keys)) = l.split_once(": ") {
                    let i = if seat == "p1" { 0 } else { 1 };
                    b.keys[i] = keys.to_string();
                } else if let Some((seat, go)) = l.split_once(" < ") {
                    let i = if seat == "p1" { 0 } else { 1 };
                    b.expected[i] = Some(match go.strip_suffix(" …") {
                        Some(prefix) => (prefix.to_string(), true),
                        None => (go.to_string(), false),
                    });
                } else {
                    panic!("protocol.md:{}: unreadable line in arena-go: {l}", i + 1);
                }
            }
        }
    }
    out
}

#[test]
fn every_go_line_in_protocol_md_is_what_the_arena_sends() {
    let blocks = blocks();
    assert!(
        blocks.len() >= 6,
        "protocol.md should document the go lines: {blocks:?}"
    );
    for block in blocks {
        let dir = tempfile::tempdir().unwrap();
        let marker = marker("go-lines");
        let tei = block.keys[0].contains("proto=tei");
        let mode = if tei { "tei-strict" } else { "normal" };
        let mut cmd = arena_match(dir.path(), &marker);
        for (i, keys) in block.keys.iter().enumerate() {
            cmd.arg("--engine")
                .arg(format!("cmd={}", scripted().display()))
                .arg(format!("args={mode}"))
                .arg(format!("name=e{}", i + 1))
                .args(keys.split_whitespace());
        }
        cmd.args(["--games", "1", "--openings", "start", "--transcripts"])
            .args(["--game", block.game.as_deref().unwrap_or("tictactoe")]);
        let out = run(cmd, Duration::from_secs(60));
        assert!(
            out.status.success(),
            "protocol.md:{}: {}",
            block.line,
            text(&out)
        );
        let records = journal(&dir.path().join("arena-out/journal.jsonl"));
        let transcript = std::fs::read_to_string(
            dir.path()
                .join("arena-out")
                .join(records[0]["transcript_file"].as_str().unwrap()),
        )
        .unwrap();
        for (i, seat) in ["p1", "p2"].iter().enumerate() {
            let first_go = transcript
                .lines()
                .filter_map(|l| {
                    let mut parts = l.trim_start().splitn(4, ' ');
                    let _time = parts.next()?;
                    let who = parts.next()?;
                    let arrow = parts.next()?;
                    let rest = parts.next()?;
                    (who == *seat && arrow == ">" && rest.starts_with("go"))
                        .then(|| rest.to_string())
                })
                .next()
                .unwrap_or_else(|| {
                    panic!("protocol.md:{}: no go to {seat}:\n{transcript}", block.line)
                });
            let (expected, prefix) = block.expected[i]
                .clone()
                .expect("an expected line per side");
            if prefix {
                assert!(
                    first_go.starts_with(&expected),
                    "protocol.md:{}: {seat} got '{first_go}', documented '{expected} …'",
                    block.line
                );
            } else {
                assert_eq!(first_go, expected, "protocol.md:{}: {seat}", block.line);
            }
        }
        assert_no_survivors(&marker);
    }
}
