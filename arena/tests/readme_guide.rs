//! The book's "Write your own bot" and "Grading a class" pages, typed as a newcomer
//! types them: each `<!-- readme-test: NAME -->` block runs line by line with `sh -c` in a
//! fresh folder that looks like a clone (`examples/` copied, `target/release/` holding the
//! built binaries), with relative paths exactly as written. `cargo build` lines are skipped:
//! the binaries under test are already built.
//!
//! The grading run gets a class with one submission for each way a student's bot goes
//! wrong, and every row's diagnosis is checked against what that bot really does.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;
use serde_json::Value;

/// The page of the book that holds the block `name`.
fn page_of(name: &str) -> &'static str {
    if name.starts_with("grading") {
        "docs/grading.md"
    } else {
        "docs/writing-a-bot.md"
    }
}

/// Every file under `dir` whose name ends with `suffix`, sorted.
fn files_named(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}

/// Runs every line of a block; each must succeed. Returns the combined output.
fn run_block(dir: &Path, name: &str, marker: &str) -> String {
    run_doc_block(dir, page_of(name), name, marker)
}

#[test]
fn write_a_bot_for_tictactoe_as_the_readme_says() {
    let dir = fresh_clone();
    let marker = marker("readme-ttt");
    let out = run_block(dir.path(), "write-a-bot-tictactoe", &marker);
    assert!(out.contains("PASS handshake"), "{out}");
    assert!(!out.contains("FAIL"), "{out}");
    // The match went to its end: 20 games, each with a transcript.
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 20);
    let transcripts = files_named(&dir.path().join("arena-out"), ".transcript.txt");
    assert_eq!(transcripts.len(), 20, "one transcript per game:\n{out}");
    let first = std::fs::read_to_string(&transcripts[0]).unwrap();
    assert!(
        first.contains("> ugi") && first.contains("< bestmove"),
        "{first}"
    );
    assert_no_survivors(&marker);
}

#[test]
fn write_a_bot_for_clobber_as_the_readme_says() {
    let dir = fresh_clone();
    let marker = marker("readme-clobber");
    let out = run_block(dir.path(), "write-a-bot-clobber", &marker);
    assert!(!out.contains("FAIL"), "{out}");
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    assert_every_game(&records, 20);
    for r in &records {
        let kind = r["termination"]["kind"].as_str().unwrap_or("");
        assert!(
            !matches!(kind, "illegal_move" | "crash" | "time_forfeit"),
            "the example Clobber bot must play legal games to the end: {r}"
        );
    }
    assert_no_survivors(&marker);
}

/// One submission for each way a bot goes wrong, each a variant of the README's example.
fn write_class(dir: &Path) {
    let subs = dir.join("submissions");
    std::fs::create_dir(&subs).unwrap();
    let good = std::fs::read_to_string(repo().join("examples/tictactoe_bot.py")).unwrap();
    let play = "        sq = best_move(board, me)";
    let loop_start = "board, me = [None] * 9, \"x\"\n";
    assert!(good.contains(play) && good.contains(loop_start));
    let variants = [
        ("good.py", good.clone()),
        (
            "slow.py",
            good.replace(
                loop_start,
                &format!("import time\ntime.sleep(12)\n{loop_start}"),
            ),
        ),
        (
            "noflush.py",
            good.replace(
                "print(line, flush=True)",
                "sys.stdout.write(line + \"\\n\")",
            ),
        ),
        (
            "crash.py",
            good.replace(play, "        sq = best_move(board, me) + undefined_name"),
        ),
        (
            "illegal.py",
            good.replace(
                play,
                "        sq = next((s for s in range(9) if board[s]), 0)",
            ),
        ),
        (
            "junk.py",
            good.replace(
                play,
                &format!("        print('thinking...', flush=True)\n{play}"),
            ),
        ),
        (
            "venvbot.py",
            good.replace(loop_start, &format!("import agon_helper\n{loop_start}")),
        ),
    ];
    for (name, text) in variants {
        let path = subs.join(name);
        std::fs::write(&path, text).unwrap();
        // As handed in: no execute bit.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::write(subs.join("notes.txt"), "not a bot").unwrap();
    std::fs::set_permissions(&subs, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn rows(dir: &Path) -> (Vec<Value>, String) {
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("grades/grades.json")).unwrap())
            .unwrap();
    let csv = std::fs::read_to_string(dir.join("grades/grades.csv")).unwrap();
    (json["students"].as_array().unwrap().clone(), csv)
}

fn student<'a>(rows: &'a [Value], name: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["student"] == name)
        .unwrap_or_else(|| panic!("no row for {name}: {rows:?}"))
}

fn diagnosis(rows: &[Value], name: &str) -> String {
    student(rows, name)["diagnosis"]
        .as_str()
        .unwrap_or_else(|| panic!("{name} has no diagnosis"))
        .to_string()
}

#[test]
fn grading_a_class_as_the_readme_says() {
    let dir = fresh_clone();
    let d = dir.path();
    write_class(d);
    let marker = marker("readme-grade");
    let out = run_block(d, "grading", &marker);
    let (students, csv) = rows(d);

    // Every entry of submissions/ has a row, the non-bot one skipped with its reason.
    assert_eq!(students.len(), 8, "{out}");
    assert_eq!(csv.lines().count(), 9, "{csv}");
    let notes = student(&students, "notes.txt");
    assert_eq!(notes["status"], "skipped", "{notes}");

    let good = student(&students, "good");
    assert_eq!(diagnosis(&students, "good"), "ok", "{good}");
    assert_eq!(good["conformance"], true);
    assert_eq!(good["levels"][0]["level"], "random");
    assert_eq!(good["levels"][0]["verdict"], "beaten", "{good}");

    let slow = diagnosis(&students, "slow");
    assert!(slow.starts_with("slow start"), "{slow}");
    let noflush = diagnosis(&students, "noflush");
    assert!(noflush.starts_with("never flushes"), "{noflush}");
    // Matches run Python unbuffered, so the bot that forgets to flush still plays.
    assert_eq!(
        student(&students, "noflush")["levels"][0]["verdict"],
        "beaten"
    );
    let crash = diagnosis(&students, "crash");
    assert!(
        crash.starts_with("crashed: the engine exited with code 1 after 'go"),
        "{crash}"
    );
    // Two games lost by crashing are a verdict, not an open question.
    let crashed = &student(&students, "crash")["levels"][0];
    assert_eq!(crashed["games"], 2, "{crashed}");
    assert_eq!(crashed["verdict"], "not beaten", "{crashed}");
    let check = std::fs::read_to_string(d.join("grades/crash/check.txt")).unwrap();
    assert!(
        check.contains("NameError: name 'undefined_name' is not defined"),
        "the traceback belongs in check.txt:\n{check}"
    );
    let illegal = diagnosis(&students, "illegal");
    assert!(illegal.starts_with("plays an illegal move"), "{illegal}");
    let junk = diagnosis(&students, "junk");
    assert!(
        junk.starts_with("stray output") && junk.contains("thinking..."),
        "{junk}"
    );
    // Without its package the venv bot crashes, and says why.
    let venv = diagnosis(&students, "venvbot");
    assert!(venv.starts_with("crashed"), "{venv}");
    let check = std::fs::read_to_string(d.join("grades/venvbot/check.txt")).unwrap();
    assert!(check.contains("No module named 'agon_helper'"), "{check}");

    std::fs::rename(d.join("grades"), d.join("grades-first")).unwrap();

    // The virtualenv block: the bot's package now comes from the venv it names.
    let venv_block = doc_block(page_of("grading-venv"), "grading-venv");
    assert_eq!(venv_block.len(), 2, "{venv_block:?}");
    let mut c = Command::new("sh");
    c.arg("-c").arg(&venv_block[0]).current_dir(d);
    let made = run(c, Duration::from_secs(120));
    assert!(made.status.success(), "{}", text(&made));
    let site = std::fs::read_dir(d.join("venv/lib"))
        .unwrap()
        .flatten()
        .next()
        .expect("venv/lib/pythonX.Y")
        .path()
        .join("site-packages");
    std::fs::write(site.join("agon_helper.py"), "HELLO = 1\n").unwrap();
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(&venv_block[1])
        .current_dir(d)
        .env("ARENA_TEST_MARKER", &marker);
    let graded = run(c, Duration::from_secs(400));
    assert!(graded.status.success(), "{}", text(&graded));
    let (again, _) = rows(d);
    assert_eq!(diagnosis(&again, "venvbot"), "ok", "{again:?}");
    assert_eq!(student(&again, "venvbot")["levels"][0]["verdict"], "beaten");
    // The other rows do not depend on the interpreter: same grades as the first run.
    for name in ["good", "noflush", "crash", "illegal", "junk", "notes.txt"] {
        assert_eq!(
            student(&again, name)["levels"],
            student(&students, name)["levels"],
            "{name} graded differently with the same seed"
        );
    }
    assert_no_survivors(&marker);
}
