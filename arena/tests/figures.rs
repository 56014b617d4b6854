//! One source for every figure (issue 54): the default match's terminal summary,
//! `arena report` on its journal and the live view of its folder (`arena serve --watch`)
//! must show the same ratings, nps, depths, nodes and times, from engine 0's view (the
//! first engine of the command line), whoever moved first in the journal's first game.

mod common;

use std::io::{Read, Write};
use std::process::Command;
use std::time::Duration;

use common::{agon, arena, run, start_serve, text};

/// The block the terminal prints under `=== Final ===`.
fn final_block(stdout: &str) -> String {
    let (_, after) = stdout
        .split_once("=== Final ===\n")
        .unwrap_or_else(|| panic!("no final summary in:\n{stdout}"));
    after
        .lines()
        .take_while(|l| !l.is_empty() && !l.starts_with("Journal:"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The engine lines of a summary: name, then depth, seldepth, nodes/move, ms/move, nps as
/// printed.
fn engine_lines(block: &str) -> Vec<(String, [String; 5])> {
    block
        .lines()
        .filter(|l| l.contains(" moves, avg depth "))
        .map(|l| {
            let name = l.split_whitespace().next().unwrap().to_string();
            let after = |key: &str| -> String {
                let at = l.find(key).unwrap_or_else(|| panic!("no '{key}' in {l}")) + key.len();
                l[at..]
                    .split([',', ' '])
                    .find(|w| !w.is_empty())
                    .unwrap()
                    .to_string()
            };
            let before = |key: &str| -> String {
                let at = l.find(key).unwrap_or_else(|| panic!("no '{key}' in {l}"));
                l[..at]
                    .rsplit([',', ' '])
                    .find(|w| !w.is_empty())
                    .unwrap()
                    .to_string()
            };
            (
                name,
                [
                    after("avg depth "),
                    after("seldepth "),
                    before(" nodes/move"),
                    before(" ms/move"),
                    before(" nps"),
                ],
            )
        })
        .collect()
}

/// The Elo difference line's names and number: (`a`, `b`, elo, error, LOS%).
fn elo_line(block: &str) -> (String, String, f64, f64, f64) {
    let line = block
        .lines()
        .find(|l| l.starts_with("Elo difference ("))
        .unwrap_or_else(|| panic!("no Elo line in:\n{block}"));
    let inner = &line["Elo difference (".len()..line.find("):").unwrap()];
    let (a, b) = inner.split_once(" minus ").unwrap();
    let rest = &line[line.find("): ").unwrap() + 3..];
    let words: Vec<&str> = rest.split_whitespace().collect();
    let number = |w: &str| w.trim_end_matches([',', '%']).parse::<f64>().unwrap();
    (
        a.to_string(),
        b.to_string(),
        number(words[0]),
        number(words[2]),
        number(words[4]),
    )
}

/// The inside of the element with `id` in `html`, with the page's escapes undone.
fn element(html: &str, open: &str, close: &str) -> String {
    let start = html
        .find(open)
        .unwrap_or_else(|| panic!("no {open} in the report"))
        + open.len();
    let end = start + html[start..].find(close).unwrap();
    html[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The cells of the report's Engines row for `name`.
fn report_engine_row(html: &str, name: &str) -> Vec<String> {
    let row = element(
        html,
        &format!("<tr class=\"config\" data-config=\"{name}\""),
        "</tr>",
    );
    row.split("<td>")
        .skip(1)
        .map(|c| c.trim_end_matches("</td>").to_string())
        .collect()
}

/// The joint ratings of the report's standings, by engine.
fn report_ratings(html: &str) -> Vec<(String, f64)> {
    html.split("<tr class=\"standing\" data-engine=\"")
        .skip(1)
        .map(|row| {
            let name = &row[..row.find('"').unwrap()];
            let elo = element(row, "data-elo=\"", "\"");
            (name.to_string(), elo.parse().unwrap())
        })
        .collect()
}

fn get_json(port: u16, path: &str) -> serde_json::Value {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let (status, body) = common::http_status_and_body(&answer);
    assert_eq!(status, 200, "{path}: {answer}");
    // The body may be chunked: take the JSON object it holds.
    let body = &body[body.find('{').unwrap()..=body.rfind('}').unwrap()];
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
}

#[test]
fn terminal_report_and_live_view_show_the_same_figures() {
    let dir = tempfile::tempdir().unwrap();
    // The default pair (agon against agon-minimax-d3), shortened and made repeatable:
    // both at depth 3 from seed 2's openings give the same 12 games every time, with a
    // finite Elo difference (-29.02: 3 wins, 5 draws, 4 losses). The default match's own
    // clock made the games vary, and a run where agon won all 12 had no Elo to compare.
    let mut m = Command::new(arena());
    m.current_dir(dir.path())
        .args(["match", "--no-progress", "--games", "12", "--seed", "2"])
        .args(["--each", "depth=3", "--agon"])
        .arg(agon());
    let out = run(m, Duration::from_secs(300));
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let terminal = final_block(&stdout);
    let (a, b, elo, error, los) = elo_line(&terminal);
    assert_eq!((a.as_str(), b.as_str()), ("agon", "agon-minimax-d3"));
    let engines = engine_lines(&terminal);
    assert_eq!(engines.len(), 2, "{terminal}");
    for (name, cells) in &engines {
        let depth: f64 = cells[0].parse().unwrap();
        let seldepth: f64 = cells[1].parse().unwrap();
        assert!(
            seldepth >= depth,
            "{name}: seldepth below depth in\n{terminal}"
        );
    }
    // The journal's first game must not decide whose view the report takes: put a game
    // that engine 1 opened first (the journal holds both colours of every pair).
    let journal = dir.path().join("arena-out/journal.jsonl");
    let mut lines: Vec<String> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let opened_by_1 = lines
        .iter()
        .position(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["p1"]["engine"] == 1
        })
        .expect("a game that engine 1 opened");
    let first = lines.remove(opened_by_1);
    lines.insert(0, first);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();

    // arena report on the same journal.
    let html_path = dir.path().join("report.html");
    let out = run(
        {
            let mut r = Command::new(arena());
            r.arg("report").arg(&journal).arg("-o").arg(&html_path);
            r
        },
        Duration::from_secs(60),
    );
    assert!(out.status.success(), "{}", text(&out));
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(
        html.contains("<h2>agon against agon-minimax-d3</h2>"),
        "the report must take engine 0's view"
    );
    let report_summary = element(&html, "<pre id=\"match-summary\">", "</pre>");
    assert_eq!(
        report_summary.trim_end(),
        terminal.trim_end(),
        "the report's match summary differs from the terminal's"
    );
    for (name, cells) in &engines {
        let row = report_engine_row(&html, name);
        assert_eq!(
            &row[row.len() - 5..],
            cells.as_slice(),
            "{name}: the report's Engines row (depth, seldepth, nodes/move, ms/move, nps) \
             differs from the terminal's"
        );
    }
    let ratings = report_ratings(&html);
    let rating = |n: &str| ratings.iter().find(|(e, _)| e == n).unwrap().1;
    // Two engines: the joint ratings are plus and minus half the Elo difference (as the
    // report says), to the 0.1 they are printed with.
    assert!(
        (rating("agon") - rating("agon-minimax-d3") - elo).abs() < 0.2,
        "ratings {ratings:?} against the Elo difference {elo}"
    );

    // The live view of the folder: the page's JSON.
    let served = start_serve(&["--watch", dir.path().join("arena-out").to_str().unwrap()]);
    let live = get_json(served.port, "/api/live");
    let folder = &live["folders"][0];
    let live_summary = folder["figures"]["summary"].as_str().unwrap();
    assert_eq!(
        live_summary.trim_end(),
        terminal.trim_end(),
        "the live view's match summary differs from the terminal's"
    );
    let (la, lb, lelo, lerror, llos) = elo_line(live_summary);
    assert_eq!((la, lb, lelo, lerror, llos), (a, b, elo, error, los));
    let live_engines = folder["figures"]["engines"].as_array().unwrap();
    assert_eq!(live_engines.len(), 2);
    for (e, (name, cells)) in live_engines.iter().zip(&engines) {
        assert_eq!(
            e["engine"],
            name.as_str(),
            "engine 0 first on the live view"
        );
        // The page prints these numbers with the terminal's digits.
        let shown = |key: &str, digits: usize| {
            e[key]
                .as_f64()
                .map_or("-".to_string(), |v| format!("{v:.digits$}"))
        };
        assert_eq!(
            [
                shown("depth", 2),
                shown("seldepth", 2),
                shown("nodes_per_move", 0),
                shown("ms_per_move", 2),
                shown("nps", 0),
            ],
            *cells,
            "{name}: the live view's figures differ from the terminal's"
        );
    }
    for s in folder["standings"].as_array().unwrap() {
        let name = s["engine"].as_str().unwrap();
        assert!(
            (s["elo"].as_f64().unwrap() - rating(name)).abs() < 0.05,
            "{name}: the live view's rating differs from the report's"
        );
    }
    // The replay tab's journal view carries the same figures.
    let replay = get_json(
        served.port,
        &format!(
            "/api/journal?path={}",
            journal.to_str().unwrap().replace('/', "%2F")
        ),
    );
    assert_eq!(replay["figures"], folder["figures"]);
}
