//! The arena driving TEI engines (the Tak dialect of Tiltak and racetrack), and the PTN
//! files it writes for Tak games.
//!
//! `scripted_engine tei-strict` accepts exactly what Tiltak's TEI loop accepts and exits
//! on anything else, and logs every line it receives: the tests check what the arena sent.

mod common;

use std::path::Path;
use std::time::Duration;

use agon::games::{new_game, GameSpec};
use common::*;

fn strict_engine(log: &Path) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={}", scripted().display()),
        "args=tei-strict".into(),
        "name=strict".into(),
        "proto=tei".into(),
        "st=0.02".into(),
        format!("env.SCRIPTED_ENGINE_LOG={}", log.display()),
    ]
}

fn agon_tei() -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={}", agon().display()),
        "name=agon".into(),
        "proto=tei".into(),
        "depth=2".into(),
    ]
}

#[test]
fn the_arena_sends_a_tei_engine_only_what_tiltak_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("strict.log");
    let marker = marker("tei-lines");
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args(agon_tei())
        .args(strict_engine(&log))
        .args(["--game", "tak size=4 halfkomi=4", "--games", "4"])
        .args(["--openings", "random:2", "--seed", "5"]);
    let out = run(cmd, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 4);
    assert_no_survivors(&marker);
    for r in &records {
        // The strict engine exits on any line it does not accept: a normal end of every
        // game means every line was acceptable.
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
        let detail = r["result_detail"].as_str().expect("a Tak result code");
        assert!(
            ["R-0", "0-R", "F-0", "0-F", "1/2-1/2"].contains(&detail),
            "{detail}"
        );
    }
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(lines[0], "tei");
    assert!(lines.contains(&"setoption name HalfKomi value 4"), "{sent}");
    assert!(lines.contains(&"teinewgame 4"), "{sent}");
    assert!(!sent.contains("Game"), "no Game option for TEI:\n{sent}");
    assert!(
        !sent.contains("newgame\n") && !sent.contains("ugi"),
        "{sent}"
    );
    // Every game begins with `teinewgame 4` before its first position.
    let mut newgame_seen = false;
    for l in &lines {
        if l.starts_with("teinewgame") {
            newgame_seen = true;
        }
        if l.starts_with("position") {
            assert!(newgame_seen, "position before any teinewgame:\n{sent}");
        }
        if l.starts_with("go") {
            assert!(l.starts_with("go movetime "), "{l}");
        }
    }
}

#[test]
fn tei_clocks_use_wtime_and_btime() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("strict.log");
    let marker = marker("tei-clock");
    let mut cmd = arena_match(dir.path(), &marker);
    let mut strict = strict_engine(&log);
    strict[5] = "tc=5+0.1".into();
    cmd.args(agon_tei()).args(strict).args([
        "--game",
        "tak size=5",
        "--games",
        "2",
        "--openings",
        "start",
    ]);
    let out = run(cmd, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    for r in &records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    let sent = std::fs::read_to_string(&log).unwrap();
    let go = sent.lines().find(|l| l.starts_with("go")).unwrap();
    assert!(
        go.starts_with("go btime ") || go.starts_with("go wtime "),
        "{go}"
    );
    assert!(go.contains(" winc ") || go.contains(" binc "), "{go}");
    assert!(sent.contains("position startpos"), "{sent}");
}

#[test]
fn a_komi_the_tei_engine_does_not_offer_is_a_clear_startup_failure() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("strict.log");
    let marker = marker("tei-komi");
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args(agon_tei()).args(strict_engine(&log)).args([
        "--game",
        "tak size=5 halfkomi=3",
        "--games",
        "2",
    ]);
    let out = run(cmd, Duration::from_secs(60));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 2);
    assert_no_survivors(&marker);
    for r in &records {
        let reason = r["reason"].as_str().unwrap();
        assert!(
            reason.contains("halfkomi=3") && reason.contains("does not offer"),
            "{reason}\n{}",
            text(&out)
        );
        let strict_seat = if r["p1"]["name"] == "strict" {
            "p1"
        } else {
            "p2"
        };
        let lost = if strict_seat == "p1" { "0-1" } else { "1-0" };
        assert_eq!(r["result"], lost, "{r}");
    }
    // The strict engine never saw a komi it would refuse.
    let sent = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!sent.contains("HalfKomi value 3"), "{sent}");
}

#[test]
fn tei_is_refused_for_games_other_than_tak() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("tei-game");
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args(agon_tei())
        .args(["--game", "tictactoe", "--games", "2"]);
    let out = run(cmd, Duration::from_secs(30));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("proto=tei") && err.contains("Tak only"),
        "{err}"
    );
}

/// Whether `m` matches PTN Ninja's move pattern
/// `(\d)?([CS])?([a-h])([1-8])(([<>+-])([1-8]+)?(\*)?)?` in full
/// (gruppler/PTN-Ninja src/Game/PTN/ptn.js, research/rules.md 1.3).
fn ptn_ninja_move(m: &str) -> bool {
    let b = m.as_bytes();
    let mut i = 0;
    if b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if matches!(b.get(i), Some(b'C' | b'S')) {
        i += 1;
    }
    if !matches!(b.get(i), Some(b'a'..=b'h')) || !matches!(b.get(i + 1), Some(b'1'..=b'8')) {
        return false;
    }
    i += 2;
    if i == b.len() {
        return true;
    }
    if !matches!(b[i], b'<' | b'>' | b'+' | b'-') {
        return false;
    }
    i += 1;
    while matches!(b.get(i), Some(b'1'..=b'8')) {
        i += 1;
    }
    if b.get(i) == Some(&b'*') {
        i += 1;
    }
    i == b.len()
}

/// The games of a PTN file: a tag line after moves starts the next game.
fn ptn_games(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    let mut in_moves = false;
    for line in text.lines() {
        if line.starts_with('[') && (in_moves || games.is_empty()) {
            games.push(String::new());
            in_moves = false;
        } else if !line.trim().is_empty() && !line.starts_with('[') {
            in_moves = true;
        }
        let game = games.last_mut().expect("a game starts with its tags");
        game.push_str(line);
        game.push('\n');
    }
    games
}

/// PTN text without its `{...}` comments.
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn tak_games_get_ptn_files_that_replay_to_the_journaled_end() {
    let dir = tempfile::tempdir().unwrap();
    let marker = marker("ptn");
    let openings = dir.path().join("openings.txt");
    // One opening from a non-standard TPS with Black to move, one from the start.
    std::fs::write(&openings, "fen x5/x5/x2,1,x2/x,2,x3/x5 2 3\nmoves a1 e5\n").unwrap();
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args([
        "--engine",
        &format!("cmd={}", agon().display()),
        "name=deep",
        "depth=2",
    ])
    .args(agon_tei())
    .args(["--game", "tak size=5 halfkomi=1", "--games", "4"])
    .arg("--openings")
    .arg(format!("file:{}", openings.display()));
    let out = run(cmd, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 4);
    let mut with_tps = 0;
    for r in &records {
        let ptn_file = r["ptn_file"]
            .as_str()
            .expect("a PTN file for every Tak game");
        // One PTN file per run: this game is the one whose Round is its number.
        let file = std::fs::read_to_string(dir.path().join("arena-out").join(ptn_file)).unwrap();
        let round = format!("[Round \"{}\"]", r["game"].as_u64().unwrap() + 1);
        let ptn = ptn_games(&file)
            .into_iter()
            .find(|g| g.contains(&round))
            .unwrap_or_else(|| panic!("no {round} in {file}"));
        assert_eq!(
            ptn_games(&file).len(),
            4,
            "the run's four games in one file"
        );
        // Comments (`{score/depth time}`) are not moves.
        let ptn = strip_comments(&ptn);
        let mut tags = std::collections::HashMap::new();
        let mut moves = Vec::new();
        for line in ptn.lines().filter(|l| !l.trim().is_empty()) {
            if let Some(tag) = line.strip_prefix('[') {
                let (key, value) = tag
                    .strip_suffix("\"]")
                    .and_then(|t| t.split_once(" \""))
                    .unwrap_or_else(|| panic!("tag line {line}"));
                assert!(key.chars().all(|c| c.is_ascii_alphanumeric()), "{line}");
                tags.insert(key.to_string(), value.to_string());
                continue;
            }
            for word in line.split_whitespace() {
                if word.ends_with('.') && word[..word.len() - 1].chars().all(|c| c.is_ascii_digit())
                {
                    continue;
                }
                if word == "--"
                    || ["R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2"].contains(&word)
                {
                    continue;
                }
                assert!(ptn_ninja_move(word), "'{word}' in {ptn}");
                moves.push(word.to_string());
            }
        }
        assert_eq!(tags["Size"], "5");
        assert_eq!(tags["Komi"], "0.5");
        assert_eq!(tags["Player1"], r["p1"]["name"].as_str().unwrap());
        assert_eq!(tags["Player2"], r["p2"]["name"].as_str().unwrap());
        assert_eq!(Some(tags["Result"].as_str()), r["result_detail"].as_str());
        let spec = GameSpec::parse(r["spec"].as_str().unwrap()).unwrap();
        let mut game = new_game(&spec, tags.get("TPS").map(String::as_str)).unwrap();
        if let Some(tps) = tags.get("TPS") {
            with_tps += 1;
            assert_eq!(Some(tps.as_str()), r["opening"]["position"].as_str());
            assert!(
                ptn.contains("3. -- "),
                "Black moves first from this TPS:\n{ptn}"
            );
        }
        for m in &moves {
            game.play(m).unwrap_or_else(|e| panic!("{m}: {e}\n{ptn}"));
        }
        assert_eq!(
            game.position(),
            r["final_position"].as_str().unwrap(),
            "{ptn}"
        );
        assert_eq!(game.result_detail().as_deref(), r["result_detail"].as_str());
    }
    assert_eq!(with_tps, 2);
}
