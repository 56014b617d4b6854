//! Files a teacher shares are readable (issue 54): every file and folder `arena grade`,
//! `arena match` and `arena report` write gets the mode `File::create` and `mkdir` give,
//! 0666 and 0777 less the umask, as the journals always had. Before, the grades, each
//! `check.txt` and `report.json`, the standings and the HTML report were 0600 whatever
//! the umask.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;

/// `command` run with `umask`.
fn with_umask(mut command: Command, umask: libc::mode_t) -> Command {
    unsafe {
        command.pre_exec(move || {
            libc::umask(umask);
            Ok(())
        });
    }
    command
}

/// Every file and folder under `root` (not following links) whose mode is not `file` or
/// `folder`, with its mode.
fn wrong_modes(root: &Path, file: u32, folder: u32) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let meta = std::fs::symlink_metadata(entry.path()).unwrap();
            let mode = meta.permissions().mode() & 0o777;
            let want = if meta.is_dir() {
                stack.push(entry.path());
                folder
            } else {
                files += 1;
                file
            };
            if mode != want {
                wrong.push(format!("{} {mode:o}", entry.path().display()));
            }
        }
    }
    assert!(files > 3, "only {files} files under {}", root.display());
    wrong
}

#[test]
fn a_graded_class_is_readable_under_umask_022() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bots = dir.path().join("bots");
    for (name, text) in [("ann.py", quitter("ann")), ("bob/bot.py", quitter("bob"))] {
        let path = bots.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    for folder in ["", "bob"] {
        std::fs::set_permissions(bots.join(folder), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    let grades = dir.path().join("grades");
    let mut c = Command::new(arena());
    c.env("ARENA_TEST_MARKER", marker("modes"))
        .arg("grade")
        .arg("--bots")
        .arg(&bots)
        .arg("--out")
        .arg(&grades)
        .arg("--agon")
        .arg(agon())
        .args(["--game", "tictactoe", "--games-per-level", "2"])
        .args(["--max-games-per-level", "2", "--startup-ms", "3000"]);
    let out = run(with_umask(c, 0o022), Duration::from_secs(240));
    assert!(out.status.success(), "{}", text(&out));
    for name in [
        "grades.csv",
        "grades.json",
        "ann/check.txt",
        "ann/report.json",
    ] {
        assert!(grades.join(name).is_file(), "no {name}: {}", text(&out));
    }
    // The failed checks in words (was "handshake +14 not reached").
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(grades.join("grades.json")).unwrap())
            .unwrap();
    let failed: Vec<String> = json["students"][0]["failed_checks"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let last = failed.last().unwrap();
    assert!(
        failed.len() >= 2 && last.ends_with(" more checks not reached") && !last.contains('+'),
        "{failed:?}"
    );
    let csv = std::fs::read_to_string(grades.join("grades.csv")).unwrap();
    assert!(csv.contains(&failed.join("; ")), "{csv}");
    let wrong = wrong_modes(&grades, 0o644, 0o755);
    assert!(
        wrong.is_empty(),
        "not 0644 files and 0755 folders: {wrong:#?}"
    );
}

#[test]
fn a_match_and_its_report_follow_the_umask() {
    for (umask, file, folder) in [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700)] {
        let dir = tempfile::tempdir().unwrap();
        let mut c = arena_match(dir.path(), &marker("modes-match"));
        c.arg("--agon").arg(agon()).args([
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--pgnout",
            "arena-out/games.pgn",
        ]);
        let out = run(with_umask(c, umask), Duration::from_secs(120));
        assert!(out.status.success(), "{}", text(&out));
        let mut r = Command::new(arena());
        r.current_dir(dir.path()).args([
            "report",
            "arena-out/journal.jsonl",
            "-o",
            "arena-out/report.html",
        ]);
        let out = run(with_umask(r, umask), Duration::from_secs(60));
        assert!(out.status.success(), "{}", text(&out));
        let wrong = wrong_modes(&dir.path().join("arena-out"), file, folder);
        assert!(
            wrong.is_empty(),
            "umask {umask:o}: not {file:o} files and {folder:o} folders: {wrong:#?}"
        );
    }
}
