//! `arena grade` on a folder with a good Python bot, one that never flushes, one that plays
//! illegal moves, one that crashes and one that tries to allocate 10 GB: the right report
//! for each, one CSV row per student, the same grades from the same seed.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use serde_json::Value;

/// Writes the five bots, each a variant of examples/tictactoe_bot.py.
fn write_bots(dir: &Path) {
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/tictactoe_bot.py"),
    )
    .unwrap();
    let play = "        sq = best_move(board, me)";
    assert!(good.contains(play) && good.contains("print(line, flush=True)"));
    let variants = [
        ("good.py", good.clone()),
        (
            "no_flush.py",
            good.replace(
                "print(line, flush=True)",
                "sys.stdout.write(line + \"\\n\")",
            ),
        ),
        (
            "illegal.py",
            good.replace(
                play,
                "        sq = next((s for s in range(9) if board[s]), 0)",
            ),
        ),
        (
            "crash.py",
            good.replace(play, "        raise SystemExit(3)"),
        ),
        (
            "hog.py",
            good.replace(
                play,
                &format!("        hog = bytearray(10 * 1024**3)\n{play}"),
            ),
        ),
    ];
    for (name, text) in variants {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::write(dir.join("notes.txt"), "not a bot").unwrap();
    // When the arena runs as root, bots run as `nobody`, who must be able to read them.
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn grade(bots: &Path, out: &Path) -> (Vec<Value>, String, String) {
    let mut c = Command::new(arena());
    c.arg("grade")
        .arg("--bots")
        .arg(bots)
        .arg("--out")
        .arg(out)
        .arg("--agon")
        .arg(agon())
        .args([
            "--game",
            "tictactoe",
            "--games-per-level",
            "2",
            "--seed",
            "3",
        ])
        .args(["--concurrency", "2", "--mem", "512"]);
    let result = run(c, Duration::from_secs(120));
    assert!(result.status.success(), "{}", text(&result));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("grades.json")).unwrap()).unwrap();
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    (
        json["students"].as_array().unwrap().clone(),
        csv,
        text(&result),
    )
}

fn student<'a>(reports: &'a [Value], name: &str) -> &'a Value {
    reports
        .iter()
        .find(|r| r["student"] == name)
        .unwrap_or_else(|| panic!("no report for {name}"))
}

#[test]
fn grading_a_folder_of_bots_reports_each_problem() {
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots");
    std::fs::create_dir(&bots).unwrap();
    write_bots(&bots);
    let (reports, csv, out) = grade(&bots, &dir.path().join("out1"));
    assert_eq!(reports.len(), 5, "{out}");
    assert!(out.contains("skipped") || !out.is_empty());

    let good = student(&reports, "good");
    assert_eq!(good["conformance"], true, "{good}");
    let first = &good["levels"][0];
    assert_eq!(first["level"], "random");
    assert_eq!(first["score"], 1.0, "beats the random mover: {good}");
    assert_eq!(good["highest_level_beaten"], "random", "{good}");
    // Tic-tac-toe: the one-ply player already draws against it.
    assert_eq!(good["levels"][1]["level"], "greedy");
    assert!(good["moves"].as_u64().unwrap() > 0);

    let silent = student(&reports, "no_flush");
    assert_eq!(silent["conformance"], false, "{silent}");
    let failed = silent["failed_checks"][0].as_str().unwrap();
    assert!(failed.starts_with("handshake: no output"), "{failed}");
    let hint = std::fs::read_to_string(dir.path().join("out1/no_flush/check.txt")).unwrap();
    assert!(hint.contains("flush=True"), "{hint}");
    // The arena itself runs Python unbuffered, so its games are played normally.
    assert_eq!(silent["levels"][0]["score"], 1.0, "{silent}");

    let illegal = student(&reports, "illegal");
    assert_eq!(
        illegal["levels"][0]["faults"]["illegal_move"], 2,
        "{illegal}"
    );
    assert_eq!(illegal["highest_level_beaten"], Value::Null);

    let crash = student(&reports, "crash");
    assert_eq!(crash["levels"][0]["faults"]["crash"], 2, "{crash}");
    assert!(crash["levels"][0]["reasons"]["crash"]
        .as_str()
        .unwrap()
        .contains("exited with code 3"));

    let hog = student(&reports, "hog");
    assert_eq!(hog["levels"][0]["faults"]["resource_limit"], 2, "{hog}");
    let reason = hog["levels"][0]["reasons"]["resource_limit"]
        .as_str()
        .unwrap();
    assert!(reason.contains("memory limit"), "{reason}");

    // One CSV row per student, in name order.
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 6, "{csv}");
    assert!(rows[0].starts_with("student,conformance,failed_checks,highest_level_beaten"));
    let names: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r.split(',').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "\"crash\"",
            "\"good\"",
            "\"hog\"",
            "\"illegal\"",
            "\"no_flush\""
        ]
    );
    assert!(rows
        .iter()
        .any(|r| r.starts_with("\"hog\",fail") && r.contains("resource_limit=2")));

    // The same seed gives the same grades.
    let (again, _, _) = grade(&bots, &dir.path().join("out2"));
    let grades = |rs: &[Value]| -> Vec<(String, String, Vec<f64>)> {
        rs.iter()
            .map(|r| {
                (
                    r["student"].as_str().unwrap().to_string(),
                    r["highest_level_beaten"].to_string(),
                    r["levels"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|l| l["score"].as_f64().unwrap())
                        .collect(),
                )
            })
            .collect()
    };
    assert_eq!(grades(&reports), grades(&again));
}

#[test]
fn a_sandboxed_engine_cannot_write_next_to_its_directory_or_a_big_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/tictactoe_bot.py"),
    )
    .unwrap();
    let play = "        sq = best_move(board, me)";
    let big = dir.path().join("big.py");
    std::fs::write(
        &big,
        good.replace(
            play,
            &format!("        open('big.bin', 'wb').write(b'x' * (64 << 20))\n{play}"),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&big, std::fs::Permissions::from_mode(0o755)).unwrap();
    let marker = marker("sandbox");
    let mut cmd = arena_match(dir.path(), &marker);
    cmd.args([
        "--engine",
        &format!("cmd={}", big.display()),
        "name=big",
        "fsize=4",
        "sandbox=limits",
    ])
    .args([
        "--engine",
        &format!("cmd={}", agon().display()),
        "name=agon",
    ])
    .args(["--game", "tictactoe", "--games", "2", "--openings", "start"]);
    let out = run(cmd, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&dir.path().join("arena-out/journal.jsonl"));
    for r in &records {
        assert_eq!(r["termination"]["kind"], "resource_limit", "{r}");
        assert_eq!(r["termination"]["limit"], "file-size", "{r}");
    }
    assert!(!dir.path().join("big.bin").exists());
    if unsafe { libc::geteuid() } == 0 {
        // As root the arena runs sandboxed engines as `nobody`: `../x` is refused.
        let escape = dir.path().join("escape.py");
        std::fs::write(
            &escape,
            good.replace(
                play,
                &format!("        open('../escape.txt', 'w').write('x')\n{play}"),
            ),
        )
        .unwrap();
        std::fs::set_permissions(&escape, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = arena_match(dir.path(), &marker);
        cmd.args([
            "--engine",
            &format!("cmd={}", escape.display()),
            "name=escape",
            "sandbox=limits",
        ])
        .args([
            "--engine",
            &format!("cmd={}", agon().display()),
            "name=agon",
        ])
        .args([
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--openings",
            "start",
            "--out",
            "out2",
        ]);
        let out = run(cmd, Duration::from_secs(60));
        assert!(out.status.success(), "{}", text(&out));
        let records = journal(&dir.path().join("out2/journal.jsonl"));
        for r in &records {
            assert_eq!(r["termination"]["limit"], "filesystem", "{r}");
        }
    }
    if unsafe { libc::geteuid() } == 0 {
        // As `nobody`, a bot that starts processes without end hits its process limit.
        let forks = dir.path().join("forks.py");
        std::fs::write(
            &forks,
            good.replace(
                play,
                &format!("        import subprocess\n        kids = [subprocess.Popen(['sleep', '5'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(64)]\n{play}"),
            ),
        )
        .unwrap();
        std::fs::set_permissions(&forks, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = arena_match(dir.path(), &marker);
        cmd.args([
            "--engine",
            &format!("cmd={}", forks.display()),
            "name=forks",
            "sandbox=limits",
            "nproc=16",
        ])
        .args([
            "--engine",
            &format!("cmd={}", agon().display()),
            "name=agon",
        ])
        .args([
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--openings",
            "start",
            "--out",
            "out4",
        ]);
        let out = run(cmd, Duration::from_secs(60));
        assert!(out.status.success(), "{}", text(&out));
        for r in &journal(&dir.path().join("out4/journal.jsonl")) {
            assert_eq!(r["termination"]["limit"], "processes", "{r}");
        }
    }
    if arena::sandbox::landlock::landlock_abi() > 0 {
        // Landlock confines writes to the private directory, absolute paths included.
        let target = dir.path().join("outside.txt");
        let absolute = dir.path().join("absolute.py");
        std::fs::write(
            &absolute,
            good.replace(
                play,
                &format!(
                    "        open({:?}, 'w').write('x')\n{play}",
                    target.display().to_string()
                ),
            ),
        )
        .unwrap();
        std::fs::set_permissions(&absolute, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = arena_match(dir.path(), &marker);
        cmd.args([
            "--engine",
            &format!("cmd={}", absolute.display()),
            "name=abs",
            "sandbox=limits",
        ])
        .args([
            "--engine",
            &format!("cmd={}", agon().display()),
            "name=agon",
        ])
        .args([
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--openings",
            "start",
            "--out",
            "out3",
        ]);
        let out = run(cmd, Duration::from_secs(60));
        assert!(out.status.success(), "{}", text(&out));
        for r in &journal(&dir.path().join("out3/journal.jsonl")) {
            assert_eq!(r["termination"]["limit"], "filesystem", "{r}");
        }
        assert!(!target.exists(), "{} was written", target.display());
    }
    assert_no_survivors(&marker);
}
