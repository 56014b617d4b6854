//! What the book (docs/) says about the arena, checked against what it does (issue 54): how many
//! positions `arena check` asks for moves in, and where an engine's `cmd=` is looked for.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{agon, arena, run, text};

/// A page of the book (`docs/`).
fn page(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../docs")
            .join(name),
    )
    .unwrap()
}

#[test]
fn arena_check_asks_for_moves_in_as_many_positions_as_the_readme_says() {
    let readme = page("writing-a-bot.md");
    let at = readme
        .find(" positions of seeded")
        .expect("the check list of docs/writing-a-bot.md");
    let word = readme[..at].rsplit(' ').next().unwrap();
    let count = [
        "one", "two", "three", "four", "five", "six", "seven", "eight",
    ]
    .iter()
    .position(|w| *w == word)
    .unwrap_or_else(|| panic!("'{word}' is not a number word"))
        + 1;
    // Tic-tac-toe: its random games end before a sixth position.
    for game in ["tictactoe", "clobber:rows=5,cols=6"] {
        let mut c = Command::new(arena());
        c.args(["check", "--game", game, "--movetime", "50", "--"])
            .arg(agon());
        let out = run(c, Duration::from_secs(120));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(&format!("a legal bestmove in each of {count} positions")),
            "{game}: docs/writing-a-bot.md says {word}: {}",
            text(&out)
        );
    }
}

#[test]
fn a_command_is_looked_for_where_the_readme_says() {
    let readme = page("arena.md");
    assert!(readme.contains(
        "| `cmd=PATH` | the program: a path with a `/`, or a name ending in `.py`, is taken relative to the current folder (or `dir=`); any other bare name (`cmd=agon`) is looked for next to `arena`, then on `PATH` |"
    ));
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("mybot");
    std::fs::copy(agon(), &bot).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let check = |cmd: &str, path: Option<&str>| {
        let mut c = Command::new(arena());
        c.current_dir(dir.path())
            .args(["check", "--movetime", "50", "--", cmd]);
        if let Some(p) = path {
            c.env("PATH", p);
        }
        run(c, Duration::from_secs(120))
    };
    // A path with a slash: the current folder.
    let out = check("./mybot", None);
    assert!(out.status.success(), "{}", text(&out));
    // A bare name is not looked for in the current folder, and the error says what to type.
    let out = check("mybot", Some("/usr/bin:/bin"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'mybot' was found neither next to the arena binary nor on PATH (give a path, such as ./mybot)"),
        "{}",
        text(&out)
    );
    // ... but on PATH.
    let out = check(
        "mybot",
        Some(&format!("{}:/usr/bin:/bin", dir.path().display())),
    );
    assert!(out.status.success(), "{}", text(&out));
    // A bare name is found next to the arena binary first (agon, with PATH empty of it).
    let out = check("agon", Some("/usr/bin:/bin"));
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn arena_report_takes_an_output_folder_and_names_the_fix_for_an_empty_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = Command::new(arena());
    m.current_dir(dir.path())
        .args([
            "match",
            "--no-progress",
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--agon",
        ])
        .arg(agon());
    let out = run(m, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    // As the tournaments page says: `arena report arena-out` after the default match.
    assert!(page("tournaments.md").contains("`./target/release/arena report arena-out`"));
    let report = |target: &str| {
        let mut r = Command::new(arena());
        r.current_dir(dir.path())
            .args(["report", target, "-o", "r.html"]);
        run(r, Duration::from_secs(60))
    };
    let out = report("arena-out");
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("2 games -> r.html"));
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let out = report("empty");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("empty is a folder with no journal (*.jsonl) in it: give a journal file, or the --out folder of a match"),
        "{}",
        text(&out)
    );
}

/// `arena serve --port`, `--bind ADDR:PORT`, and errors that name the fix.
#[test]
fn arena_serve_takes_a_port_the_ways_a_newcomer_types_it() {
    assert!(page("web-board.md").contains("./target/release/arena serve --port 9000"));
    let free = || {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    };
    let answers = |args: &[String]| {
        use std::io::BufRead;
        let mut child = Command::new(arena())
            .arg("serve")
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let _ = child.kill();
        let _ = child.wait();
        line
    };
    let port = free();
    assert_eq!(
        answers(&["--port".into(), port.to_string()]).trim(),
        format!("arena serve: http://127.0.0.1:{port}/")
    );
    let port = free();
    assert_eq!(
        answers(&["--bind".into(), format!("127.0.0.1:{port}")]).trim(),
        format!("arena serve: http://127.0.0.1:{port}/")
    );
    let fails = |args: &[&str]| {
        let out = Command::new(arena())
            .arg("serve")
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = fails(&["--bind", "localhost:8080"]);
    assert!(
        err.contains("expected an IP address such as 127.0.0.1 or ::1, optionally with a port")
            && err.contains("write 127.0.0.1 for localhost"),
        "{err}"
    );
    let err = fails(&["--bind", "127.0.0.1:8123", "--port", "8124"]);
    assert!(
        err.contains("--bind names port 8123 and --port 8124: give the port once"),
        "{err}"
    );
}

/// Running a finished match or tournament again resumes it with nothing to play: no new,
/// empty run folder is left beside the first.
#[test]
fn a_resumed_run_with_nothing_left_makes_no_folder() {
    for kind in ["match", "tournament"] {
        let dir = tempfile::tempdir().unwrap();
        let folders = || {
            std::fs::read_dir(dir.path().join("arena-out"))
                .unwrap()
                .flatten()
                .filter(|e| e.path().is_dir() && e.file_name() != "live")
                .count()
        };
        let go = || {
            let mut c = Command::new(arena());
            c.current_dir(dir.path()).args([
                kind,
                "--no-progress",
                "--game",
                "tictactoe",
                "--seed",
                "5",
            ]);
            if kind == "match" {
                c.args(["--games", "2", "--agon"]).arg(agon());
            } else {
                c.args(["--rounds", "1"]);
                for (name, searcher) in [("a", "pvs"), ("b", "random")] {
                    c.arg("--engine").args([
                        format!("cmd={}", agon().display()),
                        format!("name={name}"),
                        format!("option.Searcher={searcher}"),
                    ]);
                }
            }
            let out = run(c, Duration::from_secs(120));
            assert!(out.status.success(), "{}", text(&out));
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        go();
        assert_eq!(folders(), 1, "{kind}");
        let again = go();
        assert!(
            again.contains("0 to play (nothing left: no new run folder)"),
            "{kind}: {again}"
        );
        assert_eq!(folders(), 1, "{kind}: a second, empty run folder");
    }
}
