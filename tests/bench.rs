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
