//! Limits on a sandboxed engine's files and processes. Grading a class end to end, as the
//! README describes it, is tested in `readme_guide.rs`.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use common::*;

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
