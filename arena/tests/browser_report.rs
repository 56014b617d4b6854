//! The report of a tournament journal in a real headless Chromium (Debian's `chromium`
//! through playwright-core, installed by `scripts/install-test-deps.sh`): a two-engine
//! tournament with an SPRT, `arena report` of its journal, and the checks of
//! `arena/web-tests/report.mjs` (the cross table in rank order, the SPRT trace with its
//! bounds, labelled axes). The screenshot goes to `target/browser-artifacts/`.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;

#[test]
fn the_report_of_a_tournament_shows_the_cross_table_and_the_sprt_trace() {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let web_tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("web-tests");
    assert!(
        Path::new(&chromium).exists() && web_tests.join("node_modules/playwright-core").exists(),
        "the browser test needs Debian's chromium and playwright-core: run scripts/install-test-deps.sh"
    );
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("browser-report");
    let agon = format!("cmd={}", agon().display());
    let mut t = Command::new(arena());
    t.current_dir(dir.path())
        .env("ARENA_TEST_MARKER", &marker)
        .args(["tournament", "--no-progress", "--game", "mnk m=5 n=5 k=4"])
        .args(["--engine", &agon, "name=deep", "depth=3"])
        .args([
            "--engine",
            &agon,
            "name=shallow",
            "option.Searcher=alphabeta",
            "depth=1",
        ])
        .args([
            "--rounds", "10", "--sprt", "elo0=0", "elo1=10", "--seed", "5",
        ]);
    let out = run(t, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let journal = dir.path().join("arena-out/tournament.jsonl");
    let report = dir.path().join("report.html");
    let out = Command::new(arena())
        .arg("report")
        .arg(&journal)
        .arg("-o")
        .arg(&report)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/browser-artifacts");
    let mut node = Command::new("node");
    node.current_dir(&web_tests)
        .env("CHROMIUM", &chromium)
        .arg("report.mjs")
        .arg(&report)
        .arg(&artifacts);
    let out = run(node, Duration::from_secs(120));
    let text = text(&out);
    println!("{text}");
    assert!(out.status.success(), "report checks failed:\n{text}");
    assert!(text.contains("all report checks passed"), "{text}");
    assert!(
        std::fs::metadata(artifacts.join("report-tournament.png")).is_ok_and(|m| m.len() > 1000)
    );
    assert_no_survivors(&marker);
}
