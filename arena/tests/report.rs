//! `arena report` end to end: three configurations of the real engine play Clobber at the
//! same fixed depth into one journal, and the report's per-configuration node counts must
//! follow search theory: minimax visits every node, alpha-beta prunes (fewer), and
//! alpha-beta with good move ordering prunes more (Knuth & Moore 1975, "An analysis of
//! alpha-beta pruning": best case about b^(d/2) leaves against b^d for minimax).

mod common;

use std::process::Command;

use common::{arena, clobber_pair as pair};

/// The `data-mean-nodes` of a configuration's standings row.
fn mean_nodes(html: &str, name: &str) -> f64 {
    let key = format!("data-config=\"{name}\" data-mean-nodes=\"");
    let start = html
        .find(&key)
        .unwrap_or_else(|| panic!("no row for {name}"))
        + key.len();
    let end = start + html[start..].find('"').expect("closing quote");
    html[start..end]
        .parse()
        .unwrap_or_else(|e| panic!("nodes of {name}: {e}"))
}

#[test]
fn clobber_comparison_orders_node_counts_as_theory_says() {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = dir.path().join("journal.jsonl");
    let mm = "name=minimax option.Searcher=minimax option.Depth=4 depth=4";
    let ab =
        "name=ab-noorder option.Searcher=alphabeta option.Ordering=false option.Depth=4 depth=4";
    let abo =
        "name=ab-ordered option.Searcher=alphabeta option.Ordering=true option.Depth=4 depth=4";
    pair(dir.path(), &journal, mm, ab);
    pair(dir.path(), &journal, abo, mm);

    let report = dir.path().join("report.html");
    let out = Command::new(arena())
        .arg("report")
        .arg(&journal)
        .arg("-o")
        .arg(&report)
        .output()
        .expect("run arena report");
    assert!(
        out.status.success(),
        "arena report failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&report).expect("report written");
    for chart in [
        "Nodes per move",
        "Depth per move",
        "Time per move",
        "Score over the game",
    ] {
        assert!(html.contains(chart), "no chart '{chart}'");
    }
    assert_eq!(
        html.matches("<polyline").count(),
        12,
        "3 lines in each of 4 charts"
    );
    assert!(!html.contains("<script"), "no scripts in the report");
    let (m, a, o) = (
        mean_nodes(&html, "minimax"),
        mean_nodes(&html, "ab-noorder"),
        mean_nodes(&html, "ab-ordered"),
    );
    eprintln!("mean nodes per move: minimax {m:.1}, ab-noorder {a:.1}, ab-ordered {o:.1}");
    assert!(
        m > a && a > o,
        "minimax {m} > ab-noorder {a} > ab-ordered {o}"
    );
}

#[test]
fn unreadable_journal_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let journal = dir.path().join("j.jsonl");
    std::fs::write(&journal, "{not json\n").expect("write");
    let out = Command::new(arena())
        .arg("report")
        .arg(&journal)
        .arg("-o")
        .arg(dir.path().join("r.html"))
        .output()
        .expect("run arena report");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("j.jsonl:1"), "names the file and line: {err}");
}
