//! Limits on a sandboxed engine's files and processes, and what `arena grade` refuses or
//! flags in a folder of submissions (links, equal content). Grading a class end to end, as
//! the README describes it, is tested in `readme_guide.rs`.

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
            // The kernel's default for SIGXFSZ (Python ignores it): the signal that kills
            // the bot is the evidence of the limit.
            &format!("        import signal; signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n        open('big.bin', 'wb').write(b'x' * (64 << 20))\n{play}"),
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
        // The refused write is a crash of the bot's own making: what it prints
        // ("Permission denied") is no evidence of a limit, and the kernel gives none.
        for r in &records {
            assert_eq!(r["termination"]["kind"], "crash", "{r}");
            let side = r["termination"]["side"].as_str().unwrap();
            assert_eq!(r[side]["name"], "escape", "{r}");
        }
        assert!(!dir.path().join("escape.txt").exists());
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
        // Without a cgroup the kernel keeps no count of refused forks: the bot's
        // uncaught error is a crash, its own fault.
        for r in &journal(&dir.path().join("out4/journal.jsonl")) {
            assert_eq!(r["termination"]["kind"], "crash", "{r}");
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
            assert_eq!(r["termination"]["kind"], "crash", "{r}");
        }
        assert!(!target.exists(), "{} was written", target.display());
    }
    assert_no_survivors(&marker);
}

/// A FIFO at `path`: opening it to read waits for a writer, so a test that finishes has
/// not read it.
fn fifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o000) }, 0, "mkfifo");
}

/// `f` on a thread of its own; panics if it takes more than 20 seconds (it waits on a
/// FIFO: it opened what it should not have).
fn within_20s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .expect("still running after 20 s: it opened a FIFO it should have left alone")
}

#[test]
fn grade_never_follows_a_symbolic_link_among_the_submissions() {
    let dir = tempfile::tempdir().unwrap();
    let (outside, bots) = (dir.path().join("outside"), dir.path().join("bots"));
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(bots.join("bob")).unwrap();
    std::fs::write(bots.join("bob/bot.py"), "print('bob')\n").unwrap();
    // Targets no one may read: a FIFO (reading it would wait for ever), mode 0000, in a
    // folder of mode 0700.
    let secret = outside.join("secret.py");
    fifo(&secret);
    std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o700)).unwrap();
    let link = |target: &Path, at: &Path| std::os::unix::fs::symlink(target, at).unwrap();
    // A file outside the folder, a classmate's folder, a folder's bot.py and run.
    link(&secret, &bots.join("eve.py"));
    link(Path::new("bob"), &bots.join("mallory"));
    std::fs::create_dir_all(bots.join("trudy")).unwrap();
    link(Path::new("../bob/bot.py"), &bots.join("trudy/bot.py"));
    std::fs::create_dir_all(bots.join("oscar")).unwrap();
    link(&secret, &bots.join("oscar/run"));

    let (found, skipped) = within_20s({
        let bots = bots.clone();
        move || arena::grade::find_bots(&bots, Path::new("/usr/bin/python3")).unwrap()
    });
    let names: Vec<&str> = found.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["bob"], "{skipped:?}");
    let reason = |name: &str| {
        skipped
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| panic!("no skipped row for {name}: {skipped:?}"))
    };
    let secret = secret.display().to_string();
    for (name, says, target) in [
        ("eve.py", "a symbolic link (to ", secret.as_str()),
        ("mallory", "a symbolic link (to ", "bob"),
        (
            "trudy",
            "its bot.py is a symbolic link (to ",
            "../bob/bot.py",
        ),
        ("oscar", "its run is a symbolic link (to ", secret.as_str()),
    ] {
        let r = reason(name);
        assert!(
            r.starts_with(&format!("{says}{target})")) && r.ends_with("not followed"),
            "{name}: {r}"
        );
    }
    assert_eq!(skipped.len(), 4, "{skipped:?}");
}

#[test]
fn content_hash_compares_bytes_and_paths_never_following_links() {
    use arena::grade::{content_hash, CONTENT_CAP};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hash = |p: &str| content_hash(&d.join(p), CONTENT_CAP).unwrap();
    std::fs::write(d.join("a.py"), "print(1)\n").unwrap();
    std::fs::write(d.join("b.py"), "print(1)\n").unwrap();
    std::fs::write(d.join("c.py"), "print(2)\n").unwrap();
    assert_eq!(hash("a.py"), hash("b.py"), "same bytes, other names");
    assert_ne!(hash("a.py"), hash("c.py"));
    for f in ["x", "y", "z", "w"] {
        std::fs::create_dir_all(d.join(f).join("lib")).unwrap();
        std::fs::write(d.join(f).join("bot.py"), "print(1)\n").unwrap();
        std::fs::write(d.join(f).join("lib/util.py"), "x = 1\n").unwrap();
    }
    assert_eq!(hash("x"), hash("y"), "the same files");
    assert_ne!(hash("x"), hash("a.py"), "a folder is not a file");
    std::fs::write(d.join("z/lib/util.py"), "x = 2\n").unwrap();
    assert_ne!(hash("x"), hash("z"), "other bytes");
    std::fs::rename(d.join("w/lib/util.py"), d.join("w/lib/other.py")).unwrap();
    assert_ne!(hash("x"), hash("w"), "another path");
    // Links inside a folder count by their text, never followed: one to a FIFO is not
    // opened, and two to different targets differ.
    fifo(&d.join("pipe"));
    std::os::unix::fs::symlink(d.join("pipe"), d.join("x/data")).unwrap();
    std::os::unix::fs::symlink(d.join("a.py"), d.join("y/data")).unwrap();
    let x = within_20s({
        let x = d.join("x");
        move || content_hash(&x, CONTENT_CAP)
    });
    assert_ne!(x.unwrap(), hash("y"));
    // Over the cap: not compared, and said so.
    let over = content_hash(&d.join("x"), 8).unwrap_err();
    assert!(over.contains("not compared"), "{over}");
}

#[test]
fn grade_flags_submissions_with_the_same_content() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let bots = dir.path().join("bots");
    let files = [
        ("ann.py", quitter("ann")),
        ("bob.py", quitter("ann")),
        ("cid.py", quitter("cid")),
        ("dan/bot.py", quitter("dan")),
        ("dan/notes.txt", "mine\n".to_string()),
        ("eve/bot.py", quitter("dan")),
        ("eve/notes.txt", "mine\n".to_string()),
        ("fay/bot.py", quitter("dan")),
        ("fay/notes.txt", "my own\n".to_string()),
    ];
    for (name, text) in files {
        let path = bots.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    for folder in ["", "dan", "eve", "fay"] {
        std::fs::set_permissions(bots.join(folder), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    let expected = [
        ("ann", vec!["bob"]),
        ("bob", vec!["ann"]),
        ("cid", vec![]),
        ("dan", vec!["eve"]),
        ("eve", vec!["dan"]),
        ("fay", vec![]),
    ];
    // The library's view first.
    let (found, _) = arena::grade::find_bots(&bots, Path::new("/usr/bin/python3")).unwrap();
    for (bot, (name, same)) in found.iter().zip(&expected) {
        assert_eq!(bot.name, *name);
        assert_eq!(bot.same_content_as, *same, "{name}");
    }
    assert_eq!(
        arena::grade::same_content_groups(&found),
        [["ann", "bob"], ["dan", "eve"]]
    );

    let marker = marker("grade-same");
    let grades = dir.path().join("grades");
    let mut c = std::process::Command::new(arena());
    c.env("ARENA_TEST_MARKER", &marker)
        .arg("grade")
        .arg("--bots")
        .arg(&bots)
        .arg("--out")
        .arg(&grades)
        .arg("--agon")
        .arg(agon())
        .args(["--game", "tictactoe", "--games-per-level", "2"])
        .args(["--max-games-per-level", "2", "--startup-ms", "3000"]);
    let out = run(c, Duration::from_secs(240));
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for group in ["ann, bob", "dan, eve"] {
        assert!(
            stderr.contains(&format!(
                "warning: the same content, byte for byte: {group} ("
            )),
            "{}",
            text(&out)
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(grades.join("grades.json")).unwrap())
            .unwrap();
    let students = json["students"].as_array().unwrap();
    assert_eq!(students.len(), expected.len(), "{json}");
    for (name, same) in &expected {
        let row = students.iter().find(|r| r["student"] == *name).unwrap();
        assert_eq!(row["same_content_as"], serde_json::json!(same), "{row}");
    }
    let csv = std::fs::read_to_string(grades.join("grades.csv")).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("student,status,diagnosis,conformance,failed_checks,")
            && header.ends_with(",faults,same_content_as"),
        "{header}"
    );
    for (name, same) in &expected {
        let row = lines.next().unwrap();
        assert!(row.starts_with(&format!("\"{name}\",graded,")), "{row}");
        assert!(row.ends_with(&format!(",\"{}\"", same.join(";"))), "{row}");
    }
    assert_no_survivors(&marker);
}
