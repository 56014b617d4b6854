//! Gomocup brains in the arena (`proto=gomocup`, docs/arena.md): agon's own brain passes
//! `arena check`, plays a match with no fault, and is graded in its box; hostile brains
//! (a taken square, a square off the board, silence, a refused board, chatter, a crash)
//! fail the check that names what they did and lose their games for it.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use agon::game::Game;
use agon::games::mnk::psq::PsqGame;
use agon::games::mnk::{Mnk, MnkSettings};
use common::*;
use serde_json::Value;

/// `pbrain-agon`, built beside `agon`.
fn brain() -> PathBuf {
    let path = agon().with_file_name("pbrain-agon");
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

/// A brain that plays legal moves from its own board but misbehaves as `mode` says.
const HOSTILE: &str = r#"#!/usr/bin/env python3
import sys
mode = sys.argv[1]
size = 15
board = set()
def say(line):
    sys.stdout.write(line + "\r\n")
    sys.stdout.flush()
def move():
    if mode == "taken" and board:
        x, y = sorted(board)[0]
        return "%d,%d" % (x, y)
    if mode == "offboard":
        return "%d,%d" % (size, 3)
    if mode == "crash" and len(board) >= 3:
        sys.exit(3)
    for y in range(size):
        for x in range(size):
            if (x, y) not in board:
                board.add((x, y))
                return "%d,%d" % (x, y)
collecting = False
for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    word = line.split()[0].upper()
    if collecting:
        if word == "DONE":
            collecting = False
            say(move())
        else:
            x, y, f = line.split(",")
            board.add((int(x), int(y)))
        continue
    if word == "ABOUT":
        say('name="hostile-%s"' % mode)
    elif word in ("START", "RESTART"):
        board = set()
        say("ERROR no board for me" if mode == "refuse" else "OK")
    elif word == "INFO":
        if mode == "chatter":
            say("thinking about " + line)
    elif word == "BEGIN":
        if mode == "silent":
            continue
        say(move())
    elif word == "TURN":
        x, y = line.split()[1].split(",")
        board.add((int(x), int(y)))
        if mode == "silent":
            continue
        say(move())
    elif word == "BOARD":
        collecting = True
    elif word == "TAKEBACK":
        x, y = line.split()[1].split(",")
        board.discard((int(x), int(y)))
        say("OK")
    elif word == "END":
        break
    else:
        say("UNKNOWN " + word)
"#;

fn hostile(dir: &Path) -> PathBuf {
    let path = dir.join("hostile_brain.py");
    std::fs::write(&path, HOSTILE).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn check(engine: &[&str], json: &Path) -> (bool, Value) {
    let mut c = Command::new(arena());
    c.args([
        "check",
        "--proto",
        "gomocup",
        "--game",
        "gomoku",
        "--movetime",
        "200",
    ])
    .arg("--json")
    .arg(json)
    .arg("--")
    .args(engine);
    let out = run(c, Duration::from_secs(120));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap())
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    (out.status.success(), report)
}

fn status<'a>(report: &'a Value, id: &str) -> &'a str {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no check {id}: {report}"))["status"]
        .as_str()
        .unwrap()
}

#[test]
fn agons_brain_passes_every_check_and_hostile_brains_fail_the_right_one() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("check.json");
    let (passed, report) = check(&[brain().to_str().unwrap()], &json);
    assert!(passed, "{report:#}");
    for c in report["checks"].as_array().unwrap() {
        assert_eq!(c["status"], "pass", "{c}");
    }
    assert_eq!(report["id_name"], "agon");

    let script = hostile(dir.path());
    let script = script.to_str().unwrap();
    for (mode, failed, says) in [
        ("taken", "legal-moves", "the square is occupied"),
        ("offboard", "begin", "is off the 15x15 board"),
        ("silent", "begin", "no output within"),
        (
            "refuse",
            "start-board",
            "'ERROR no board for me' to 'START 15'",
        ),
        ("chatter", "info-silent", "answered INFO with"),
        ("crash", "crash", "exited with code 3"),
    ] {
        let (passed, report) = check(&[script, mode], &json);
        assert!(!passed, "{mode}: {report:#}");
        assert_eq!(status(&report, failed), "fail", "{mode}: {report:#}");
        let detail = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == failed)
            .unwrap()["detail"]
            .to_string();
        assert!(detail.contains(says), "{mode}: {detail}");
        // No hostile brain knows swap2: a failed recommendation, named by its answer,
        // after which the walk goes on to the unknown command and END.
        if mode == "chatter" {
            assert_eq!(status(&report, "swap2"), "fail", "{report:#}");
            assert!(report
                .to_string()
                .contains("'UNKNOWN SWAP2BOARD' to SWAP2BOARD with 0 stones"));
            assert_eq!(status(&report, "unknown-command"), "pass", "{report:#}");
            assert_eq!(status(&report, "end"), "pass", "{report:#}");
        }
    }
}

/// The brain against agon in agon's own protocol, on Gomocup's clock (a game clock and a
/// most per move): every game ends normally, what the journal records is legal by the
/// library's rules (the referee checked every move), and each game's Piskvork record
/// (`.psq`) replays to the journaled end.
#[test]
fn a_match_between_the_brain_and_agon_has_no_fault() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("gomocup-match");
    let mut c = arena_match(dir.path(), &marker);
    c.args(["--game", "gomoku", "--games", "10", "--concurrency", "2"])
        .args([
            "--seed",
            "5",
            "--each",
            "tc=4",
            "st=0.05",
            "--openings",
            "random:4",
        ])
        .arg("--engine")
        .arg(format!("cmd={}", brain().display()))
        .args(["name=brain", "proto=gomocup", "--engine"])
        .arg(format!("cmd={}", agon().display()))
        .arg("name=agon");
    let out = run(c, Duration::from_secs(300));
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Terminations: normal 10"), "{stdout}");
    let journal = std::fs::read_to_string(dir.path().join("arena-out/journal.jsonl")).unwrap();
    let games: Vec<Value> = journal
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v.get("moves").is_some())
        .collect();
    assert_eq!(games.len(), 10);
    // Every game has the brain on one side, named by its ABOUT, and more moves than the
    // opening's four: it played from a BOARD, then TURNs.
    for g in &games {
        let brain_side = ["p1", "p2"]
            .into_iter()
            .find(|s| g[s]["name"] == "brain")
            .unwrap_or_else(|| panic!("{g}"));
        assert_eq!(g[brain_side]["id_name"], "agon", "{g}");
        let played = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["side"] == brain_side && m.get("book").is_none())
            .count();
        assert!(played >= 3, "{g}");
        // The .psq file: Piskvork's coordinates read back into the same game.
        let psq = g["psq_file"].as_str().unwrap_or_else(|| panic!("{g}"));
        let text = std::fs::read_to_string(dir.path().join("arena-out").join(psq)).unwrap();
        let game = PsqGame::parse(&text).unwrap_or_else(|e| panic!("{psq}: {e}\n{text}"));
        assert!(text.starts_with("Piskvorky 15x15, 0:0, 0\n"), "{text}");
        let mut pos = Mnk::start(&MnkSettings::new(15, 15, 5));
        for (i, &(mv, ms)) in game.moves.iter().enumerate() {
            assert_eq!(pos.format_move(mv), g["moves"][i]["mv"], "{psq} move {i}");
            let book = g["moves"][i].get("book").is_some();
            assert!(
                book == (ms == 0) || !book,
                "{psq}: an opening stone with {ms} ms"
            );
            pos.make_move(mv);
        }
        assert_eq!(pos.format_position(), g["final_position"], "{psq}");
        let names = game.players.unwrap();
        assert_eq!([&names[0], &names[1]], [&g["p1"]["name"], &g["p2"]["name"]]);
        assert_eq!(game.code, 0, "{psq}: a game the rules ended");
    }
}

/// A hostile brain loses its match games for what it did, by the referee's rules.
#[test]
fn a_brain_that_plays_a_taken_square_or_goes_silent_loses_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let script = hostile(dir.path());
    for (mode, termination) in [("taken", "rules infraction"), ("silent", "time forfeit")] {
        let marker = marker("gomocup-hostile");
        let out_dir = dir.path().join(mode);
        let mut c = arena_match(dir.path(), &marker);
        c.args(["--game", "gomoku", "--games", "2", "--each", "st=0.1"])
            .args(["--out", out_dir.to_str().unwrap()])
            .arg("--engine")
            .arg(format!("cmd={} args={mode}", script.display()))
            .args(["name=hostile", "proto=gomocup", "--engine"])
            .arg(format!("cmd={}", agon().display()))
            .arg("name=agon");
        let out = run(c, Duration::from_secs(120));
        assert!(out.status.success(), "{}", text(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("Games 2 scored: hostile 0 wins, 0 draws, 2 losses"),
            "{mode}: {stdout}"
        );
        let pgn = std::fs::read_dir(&out_dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path().join("games.pgn"))
            .find(|p| p.is_file())
            .expect("games.pgn");
        let pgn = std::fs::read_to_string(pgn).unwrap();
        assert!(
            pgn.contains(&format!("[Termination \"{termination}\"]")),
            "{mode}: {pgn}"
        );
        // Piskvork's end codes in the .psq files: 15 a timeout, -2 any other fault.
        let games_dir = std::fs::read_dir(&out_dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path().join("games"))
            .find(|p| p.is_dir())
            .expect("games/");
        let code = if mode == "silent" { 15 } else { -2 };
        for name in ["game-00000.psq", "game-00001.psq"] {
            let text = std::fs::read_to_string(games_dir.join(name)).unwrap();
            assert_eq!(PsqGame::parse(&text).unwrap().code, code, "{mode}: {text}");
        }
    }
}

/// `arena grade --proto gomocup`: a brain submitted as an executable is checked and
/// graded in the strict box (as root), against the reference players.
#[test]
fn grade_takes_gomocup_brains() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bots = dir.path().join("bots");
    std::fs::create_dir_all(&bots).unwrap();
    std::fs::set_permissions(&bots, std::fs::Permissions::from_mode(0o755)).unwrap();
    let copy = bots.join("ann");
    std::fs::copy(brain(), &copy).unwrap();
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
    let grades = dir.path().join("grades");
    let marker = marker("grade-gomocup");
    let mut c = Command::new(arena());
    c.env("ARENA_TEST_MARKER", &marker)
        .args(["grade", "--proto", "gomocup", "--game", "gomoku"])
        .arg("--bots")
        .arg(&bots)
        .arg("--out")
        .arg(&grades)
        .arg("--agon")
        .arg(agon())
        .args(["--games-per-level", "2", "--max-games-per-level", "2"])
        .args(["--tc", "st=0.05", "--startup-ms", "5000"]);
    if unsafe_not_root() {
        c.args(["--sandbox", "userns"]);
    }
    let out = run(c, Duration::from_secs(300));
    assert!(out.status.success(), "{}", text(&out));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(grades.join("grades.json")).unwrap())
            .unwrap();
    let row = &json["students"][0];
    assert_eq!(row["student"], "ann", "{json:#}");
    assert_eq!(row["conformance"], true, "{json:#}");
    assert_eq!(row["status"], "graded", "{json:#}");
    // agon's brain beats the random player in both games.
    let levels = row["levels"].as_array().expect("levels");
    let random = levels
        .iter()
        .find(|l| l["level"] == "random")
        .expect("random");
    assert_eq!(random["wins"], 2, "{json:#}");
}

/// Whether the test runs without root (the strict box needs it).
fn unsafe_not_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() != 0 }
}
