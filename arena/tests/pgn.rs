//! The run's PGN read by readers that share no code with the arena: Debian's
//! `pgn-extract` (which counts the games and their result tags, though it cannot play
//! non-chess moves) and python-chess's header reader (`chess.pgn.read_headers`, made for
//! games whose moves are not chess); `scripts/install-pgn-tools.sh` installs both. And
//! engines that put terminal controls and PGN-breaking text in every field they send:
//! nothing human-readable the arena writes holds a raw control character, and every game
//! reads back with its true result.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;
use serde_json::Value;

fn pgn_extract() -> PathBuf {
    ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("pgn-extract is missing: run scripts/install-pgn-tools.sh")
}

/// White, Black, Result and Termination of every game, as python-chess reads them.
fn python_headers(pgn: &Path) -> Vec<[String; 4]> {
    let script = r#"
import json, sys
import chess.pgn
games = []
with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        h = chess.pgn.read_headers(f)
        if h is None:
            break
        games.append([h.get("White"), h.get("Black"), h.get("Result"), h.get("Termination")])
print(json.dumps(games))
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(pgn)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "python-chess could not read {} (run scripts/install-pgn-tools.sh): {}",
        pgn.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON from the reader")
}

/// What pgn-extract says: the number of games it parsed, and its whole report.
fn pgn_extract_count(pgn: &Path) -> (usize, String) {
    let out = Command::new(pgn_extract())
        .arg("-r")
        .arg(pgn)
        .output()
        .expect("pgn-extract");
    let report =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let total = report
        .lines()
        .find_map(|l| {
            let (_, rest) = l.split_once(" games matched out of ")?;
            rest.trim_end_matches('.').parse().ok()
        })
        .unwrap_or_else(|| panic!("no game count from pgn-extract:\n{report}"));
    (total, report)
}

/// The PGN Termination tag of a journal termination kind (PGN standard 9.8.1).
fn termination_tag(kind: &str) -> &'static str {
    match kind {
        "normal" => "normal",
        "time_forfeit" => "time forfeit",
        "crash" | "stall" => "abandoned",
        "adjudication" => "adjudication",
        "interrupted" => "unterminated",
        _ => "rules infraction",
    }
}

/// Checks the PGN against the journal with both readers.
fn assert_pgn_matches_journal(pgn: &Path, records: &[Value]) {
    let headers = python_headers(pgn);
    assert_eq!(headers.len(), records.len(), "games in {}", pgn.display());
    for (h, r) in headers.iter().zip(records) {
        let expected = [
            r["p1"]["name"].as_str().unwrap().to_string(),
            r["p2"]["name"].as_str().unwrap().to_string(),
            r["result"].as_str().unwrap().to_string(),
            termination_tag(r["termination"]["kind"].as_str().unwrap()).to_string(),
        ];
        assert_eq!(h, &expected, "game {} of the journal", r["game"]);
    }
    let (count, report) = pgn_extract_count(pgn);
    assert_eq!(count, records.len(), "pgn-extract's game count:\n{report}");
    // pgn-extract checks each game's Result tag against the result ending its moves.
    assert!(!report.contains("Inconsistent result"), "{report}");
}

#[test]
fn a_hundred_games_read_back_by_independent_readers() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("pgn100");
    let mut cmd = arena_match(dir.path(), &marker);
    let agon = format!("cmd={}", agon().display());
    cmd.args(["--engine", &agon, "name=agon d3", "depth=3"])
        .args([
            "--engine",
            &agon,
            "name=alpha-beta d2",
            "option.Searcher=alphabeta",
            "depth=2",
        ])
        .args(["--game", "mnk m=4 n=4 k=3", "--games", "100", "--seed", "3"])
        .args([
            "--resign",
            "movecount=1",
            "score=900",
            "--pgnout",
            "run.pgn",
        ]);
    let out = run(cmd, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_eq!(records.len(), 100);
    let pgn = dir.path().join("run.pgn");
    assert_pgn_matches_journal(&pgn, &records);
    // Resignations happened and are recorded as adjudications with a winner.
    assert!(
        records
            .iter()
            .any(|r| r["termination"]["rule"] == "resign" && r["termination"]["winner"].is_string()),
        "no resignation in 100 games"
    );
    // The arena's own reader takes the PGN back as openings: the same moves, in order.
    let spec = agon::games::GameSpec::parse("mnk m=4 n=4 k=3").unwrap();
    let arena::schedule::Openings::List(games) =
        arena::schedule::Openings::read_pgn(&pgn, &spec).unwrap()
    else {
        panic!("a list");
    };
    for (g, r) in games.iter().zip(&records) {
        let moves: Vec<&str> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["mv"].as_str().unwrap())
            .collect();
        assert_eq!(g.moves, moves, "game {}", r["game"]);
    }
    assert_no_survivors(&marker);
}

/// Every byte a terminal would act on: C0 controls but newline, DEL, and the C1 controls
/// (UTF-8 `C2 80`..`C2 9F`).
fn raw_controls(bytes: &[u8]) -> Vec<usize> {
    let mut at = Vec::new();
    for (i, w) in bytes.windows(2).enumerate() {
        if (w[0] < 0x20 && w[0] != b'\n')
            || w[0] == 0x7f
            || (w[0] == 0xc2 && (0x80..0xa0).contains(&w[1]))
        {
            at.push(i);
        }
    }
    if bytes
        .last()
        .is_some_and(|&b| (b < 0x20 && b != b'\n') || b == 0x7f)
    {
        at.push(bytes.len() - 1);
    }
    at
}

fn assert_clean(what: &str, bytes: &[u8]) {
    let at = raw_controls(bytes);
    assert!(
        at.is_empty(),
        "{what}: raw control bytes at {:?}: {:?}",
        &at[..at.len().min(5)],
        String::from_utf8_lossy(&bytes[at[0].saturating_sub(20)..(at[0] + 20).min(bytes.len())])
    );
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn hostile_engine_text_never_reaches_people_raw() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("hostile");
    // A match: the hostile engine against a plain one, with transcripts.
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args(scripted_engine("hostile", "hostile", "st=1"))
        .args(scripted_engine("normal", "plain", "st=1"))
        .args([
            "--game",
            "tictactoe",
            "--games",
            "10",
            "--transcripts",
            "--query-result",
        ]);
    let out = run(cmd, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    assert_clean("match stdout", &out.stdout);
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_eq!(records.len(), 10);
    // JSON keeps the exact text.
    let raw_pv = records
        .iter()
        .flat_map(|r| r["moves"].as_array().unwrap().iter())
        .filter_map(|m| m["pv"].as_array())
        .any(|pv| pv.iter().any(|w| w.as_str().unwrap().contains('\u{1b}')));
    assert!(raw_pv, "the journal keeps the engine's pv as sent");
    assert!(
        records[0]["p1"]["id_name"]
            .as_str()
            .unwrap_or_default()
            .contains('\u{7}')
            || records[0]["p2"]["id_name"]
                .as_str()
                .unwrap_or_default()
                .contains('\u{7}')
    );
    // Every human-readable file of the run.
    let mut files = Vec::new();
    files_under(&dir.path().join("arena-out"), &mut files);
    let pgns: Vec<&PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    assert_eq!(pgns.len(), 1, "one PGN for the run: {files:?}");
    let mut checked = 0;
    for f in &files {
        let name = f.to_string_lossy();
        if name.ends_with(".txt") || name.ends_with(".pgn") {
            assert_clean(&name, &std::fs::read(f).unwrap());
            checked += 1;
        }
    }
    assert!(
        checked >= 21,
        "10 game files, 10 transcripts and the PGN: {checked}"
    );
    // The comments did not close early: both readers see the true results.
    assert_pgn_matches_journal(pgns[0], &records);
    for r in &records {
        let game = std::fs::read_to_string(
            dir.path()
                .join("arena-out")
                .join(r["game_file"].as_str().unwrap()),
        )
        .unwrap();
        let tmp = dir.path().join("one.pgn");
        std::fs::write(&tmp, &game).unwrap();
        assert_pgn_matches_journal(&tmp, std::slice::from_ref(r));
    }
    // The report page.
    let report = dir.path().join("report.html");
    let out = Command::new(arena())
        .arg("report")
        .arg(dir.path().join("arena-out/journal.jsonl"))
        .arg("-o")
        .arg(&report)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_clean("report.html", &std::fs::read(&report).unwrap());

    // arena check of the hostile engine: terminal output and the JSON.
    let json = dir.path().join("check.json");
    let out = Command::new(arena())
        .arg("check")
        .arg("--json")
        .arg(&json)
        .arg("--")
        .arg(scripted())
        .arg("hostile")
        .output()
        .unwrap();
    assert_clean("check stdout", &out.stdout);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("\\x1b[2J"),
        "shown escaped: {}",
        text(&out)
    );
    let report: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(
        report["id_name"].as_str().unwrap().contains('\u{1b}'),
        "JSON keeps the exact text"
    );

    // arena grade: a student whose name is a spreadsheet formula, whose bot sends the
    // same text; check.txt, the terminal and the CSV stay clean.
    let bots = dir.path().join("bots");
    std::fs::create_dir_all(&bots).unwrap();
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/tictactoe_bot.py"),
    )
    .unwrap();
    let hostile_bot = good.replace(
        "say(\"id name TicTacToeBot\")",
        "say(\"id name TicTacToeBot\\x1b[2J\\x07\\rPASS \\\"} 1-0 {x\")",
    );
    assert_ne!(hostile_bot, good);
    let student = bots.join("=HYPERLINK(\"evil.example\",\"y\").py");
    std::fs::write(&student, hostile_bot).unwrap();
    std::fs::set_permissions(&student, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&bots, std::fs::Permissions::from_mode(0o755)).unwrap();
    let grades = dir.path().join("grades");
    let mut c = Command::new(arena());
    c.arg("grade")
        .arg("--bots")
        .arg(&bots)
        .arg("--out")
        .arg(&grades)
        .arg("--agon")
        .arg(agon())
        .args([
            "--game",
            "tictactoe",
            "--games-per-level",
            "2",
            "--mem",
            "512",
        ]);
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    assert_clean("grade stdout", &out.stdout);
    let csv = std::fs::read_to_string(grades.join("grades.csv")).unwrap();
    assert_clean("grades.csv", csv.as_bytes());
    let row = csv.lines().nth(1).unwrap();
    assert!(
        row.starts_with("\"'=HYPERLINK("),
        "the formula is neutralised: {row}"
    );
    let mut graded = Vec::new();
    files_under(&grades, &mut graded);
    let check_txt: Vec<&PathBuf> = graded.iter().filter(|p| p.ends_with("check.txt")).collect();
    assert_eq!(check_txt.len(), 1, "{graded:?}");
    let text_of_check = std::fs::read(check_txt[0]).unwrap();
    assert_clean("check.txt", &text_of_check);
    assert!(String::from_utf8_lossy(&text_of_check).contains("\\x1b[2J"));
    assert_no_survivors(&marker);
}
