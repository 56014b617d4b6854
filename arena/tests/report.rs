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
        "Time used per move",
        "Score over the game",
    ] {
        assert!(html.contains(chart), "no chart '{chart}'");
    }
    // Each search chart has one line per configuration, with its spread band, ticks and
    // labelled axes.
    for id in [
        "chart-nodes",
        "chart-depth",
        "chart-time",
        "chart-score",
        "chart-nps",
        "chart-seldepth",
    ] {
        let start = html
            .find(&format!("<figure id=\"{id}\""))
            .unwrap_or_else(|| panic!("no {id}"));
        let figure = &html[start..start + html[start..].find("</figure>").unwrap()];
        assert_eq!(
            figure.matches("<polyline class=\"series\"").count(),
            3,
            "{id}: 3 lines"
        );
        assert_eq!(figure.matches("class=\"band\"").count(), 3, "{id}: 3 bands");
        assert!(
            figure.matches("class=\"xtick\"").count() >= 2,
            "{id}: x ticks"
        );
        assert!(
            figure.matches("class=\"ytick\"").count() >= 2,
            "{id}: y ticks"
        );
        assert!(
            figure.contains("class=\"xlabel\"") && figure.contains("class=\"ylabel\""),
            "{id}: axis labels"
        );
        // Lines that coincide stay distinguishable: three different dash patterns.
        let dashes: std::collections::HashSet<&str> = figure
            .split("stroke-dasharray=\"")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
            .collect();
        assert!(dashes.len() >= 3, "{id}: dash patterns {dashes:?}");
    }
    for part in [
        "id=\"cross-table\"",
        "id=\"standings\"",
        "id=\"lengths\"",
        "id=\"ratings\"",
    ] {
        assert!(html.contains(part), "no {part}");
    }
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

/// `data-elo` of every standings row of a report, by engine.
fn report_elos(html: &str) -> std::collections::BTreeMap<String, f64> {
    html.split("<tr class=\"standing\" data-engine=\"")
        .skip(1)
        .map(|row| {
            let (name, rest) = row.split_once('"').unwrap();
            let elo = rest.split("data-elo=\"").nth(1).unwrap();
            (
                name.to_string(),
                elo[..elo.find('"').unwrap()].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_tournament_s_shards_report_the_ratings_the_arena_prints() {
    let dir = tempfile::tempdir().expect("temp dir");
    let agon = format!("cmd={}", common::agon().display());
    for shard in ["1/2", "2/2"] {
        let mut t = Command::new(arena());
        t.current_dir(dir.path())
            .args(["tournament", "--no-progress", "--game", "mnk m=5 n=5 k=4"])
            .args(["--engine", &agon, "name=d3", "depth=3"])
            .args(["--engine", &agon, "name=d2", "depth=2"])
            .args([
                "--engine",
                &agon,
                "name=ab1",
                "option.Searcher=alphabeta",
                "depth=1",
            ])
            .args(["--rounds", "4", "--seed", "9", "--shard", shard]);
        let out = common::run(t, std::time::Duration::from_secs(120));
        assert!(out.status.success(), "{}", common::text(&out));
    }
    let shards = [
        dir.path().join("arena-out/tournament-1-of-2.jsonl"),
        dir.path().join("arena-out/tournament-2-of-2.jsonl"),
    ];
    let standings = dir.path().join("merged.json");
    let out = Command::new(arena())
        .arg("merge")
        .args(&shards)
        .arg("--standings")
        .arg(&standings)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out));
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&standings).unwrap()).unwrap();
    // The report of both shards, read together, and of one file holding both (a game in
    // two files is counted once).
    let both = dir.path().join("both.jsonl");
    let text = shards
        .iter()
        .map(|s| std::fs::read_to_string(s).unwrap())
        .collect::<String>();
    std::fs::write(&both, text.clone() + &text).unwrap();
    for inputs in [vec![shards[0].clone(), shards[1].clone()], vec![both]] {
        let report = dir.path().join("r.html");
        let out = Command::new(arena())
            .arg("report")
            .args(&inputs)
            .arg("-o")
            .arg(&report)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::text(&out));
        let html = std::fs::read_to_string(&report).unwrap();
        assert!(html.contains("<p>24 games;"), "3 pairings x 4 rounds x 2");
        let elos = report_elos(&html);
        assert_eq!(elos.len(), 3, "{elos:?}");
        for s in merged["standings"]["ranking"].as_array().unwrap() {
            let name = s["name"].as_str().unwrap();
            let printed = s["elo"].as_f64().unwrap();
            assert!(
                (elos[name] - printed).abs() < 0.051,
                "{name}: report {} vs arena merge {printed}",
                elos[name]
            );
        }
    }
}
