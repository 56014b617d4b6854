//! The `agon bench` node counts are a signature of the search: every searcher and game
//! is deterministic at fixed depth, so any change in search behaviour (ordering, pruning,
//! evaluation, move generation) changes a count. The recorded counts live in
//! `tests/data/bench-signature.txt`; a change that alters them on purpose updates that
//! file (`agon bench | grep -E '^(game|total)' | sed -E 's/ time [0-9]+ ms nps [0-9]+//'`)
//! and says so in its commit message.

use std::process::Command;

#[test]
fn bench_node_counts_match_the_recorded_signature() {
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .arg("bench")
        .output()
        .expect("run agon bench");
    assert!(out.status.success(), "agon bench failed");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let measured: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("game ") || l.starts_with("total "))
        .map(|l| match l.find(" time ") {
            Some(i) => l[..i].to_string(),
            None => l.to_string(),
        })
        .collect();
    let recorded: Vec<String> = include_str!("data/bench-signature.txt")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        measured, recorded,
        "the search behaves differently from the recorded bench signature; if this is \
         intended, update tests/data/bench-signature.txt and say why in the commit"
    );
}

/// The position lines are a table: each column starts at the same place on every line,
/// whatever the length of the game's name or the move (before, "halma size=8 strict=0
/// limit=600" pushed its line's columns out of line).
#[test]
fn bench_columns_line_up() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(["bench", "--only", "mnk", "--only", "halma", "--only", "tak"])
        .output()
        .expect("run agon bench");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("  depth ")).collect();
    assert!(rows.len() > 5, "{text}");
    for key in ["  depth ", "  nodes ", "  time ", " ms  best "] {
        let at: Vec<usize> = rows.iter().map(|l| l.find(key).unwrap()).collect();
        assert!(at.iter().all(|&a| a == at[0]), "'{key}' at {at:?}:\n{text}");
    }
    // The position after the move, in one column.
    let position: Vec<usize> = rows
        .iter()
        .map(|l| {
            let best = l.find(" best ").unwrap() + 6;
            let mv = l[best..].find(' ').unwrap();
            best + mv + l[best + mv..].find(|c| c != ' ').unwrap()
        })
        .collect();
    assert!(
        position.iter().all(|&p| p == position[0]),
        "{position:?}:\n{text}"
    );
}
