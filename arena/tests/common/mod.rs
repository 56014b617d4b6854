//! Helpers for the arena's end-to-end tests: the real `arena`, `scripted_engine` and
//! `agon` binaries, a marker in the environment to find every process a run started,
//! and journal readers.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The arena binary under test.
pub fn arena() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arena"))
}

/// The misbehaving test engine.
pub fn scripted() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_scripted_engine"))
}

/// The real engine: `target/<profile>/agon`, a sibling of this test's `deps` directory.
/// `cargo test --workspace` builds it.
pub fn agon() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    let agon = profile_dir.join("agon");
    assert!(
        agon.is_file(),
        "{} is missing: run `cargo test --workspace` (or `cargo build -p agon`) so the engine binary is built",
        agon.display()
    );
    agon
}

/// A unique marker for one test's processes.
pub fn marker(test: &str) -> String {
    format!(
        "arena-e2e-{test}-{}-{}",
        std::process::id(),
        Instant::now().elapsed().as_nanos() ^ (std::ptr::addr_of!(test) as u128)
    )
}

/// An `arena match` command in `dir`, with the marker in its environment.
pub fn arena_match(dir: &Path, marker: &str) -> Command {
    let mut c = Command::new(arena());
    c.current_dir(dir)
        .arg("match")
        .arg("--no-progress")
        .env("ARENA_TEST_MARKER", marker);
    c
}

/// Runs a command to its end, with a time limit; panics with its output on a timeout.
pub fn run(mut command: Command, limit: Duration) -> Output {
    let child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn arena");
    let pid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.expect("arena output"),
        Err(_) => {
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            let out = rx.recv().expect("killed arena").expect("output");
            panic!(
                "arena did not finish in {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// Stdout and stderr of a finished run, for failure messages.
pub fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every line of a journal parsed as JSON (panics on a line that is not a JSON object).
pub fn journal(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read journal {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let v: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("journal line {} is not JSON ({e}): {line}", i + 1));
            assert!(v.is_object(), "line {} is not an object", i + 1);
            v
        })
        .collect()
}

/// Checks the journal holds exactly games `0..games`, each a complete record.
pub fn assert_every_game(records: &[Value], games: u64) {
    let mut indices: Vec<u64> = records
        .iter()
        .map(|r| r["game"].as_u64().unwrap())
        .collect();
    indices.sort_unstable();
    assert_eq!(
        indices,
        (0..games).collect::<Vec<_>>(),
        "games in the journal"
    );
    for r in records {
        assert_complete(r);
    }
}

/// Checks one record has every field the journal promises.
pub fn assert_complete(r: &Value) {
    for key in [
        "version",
        "run",
        "game",
        "pair",
        "spec",
        "p1",
        "p2",
        "opening",
        "moves",
        "result",
        "termination",
        "reason",
        "final_position",
        "started_unix_ms",
        "duration_ms",
    ] {
        assert!(r.get(key).is_some(), "record lacks '{key}': {r}");
    }
    assert!(r["termination"]["kind"].is_string(), "{r}");
    let result = r["result"].as_str().unwrap();
    assert!(["1-0", "0-1", "1/2-1/2", "*"].contains(&result), "{r}");
    // The record must parse as the arena's own type too.
    let typed: arena::record::GameRecord =
        serde_json::from_value(r.clone()).unwrap_or_else(|e| panic!("not a GameRecord ({e}): {r}"));
    assert_eq!(typed.result, result);
}

/// Pids of live (non-zombie) processes whose environment holds `marker`.
pub fn processes_with(marker: &str) -> Vec<(i32, String)> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let needle = format!("ARENA_TEST_MARKER={marker}");
        if !environ
            .split(|&b| b == 0)
            .any(|var| var == needle.as_bytes())
        {
            continue;
        }
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next())
            .unwrap_or("?");
        if state != "Z" {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            found.push((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    found
}

/// Waits up to 3 s for every process with `marker` to be gone; panics naming survivors.
pub fn assert_no_survivors(marker: &str) {
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        let alive = processes_with(marker);
        if alive.is_empty() {
            return;
        }
        if Instant::now() > until {
            for (pid, _) in &alive {
                unsafe {
                    libc::kill(*pid, libc::SIGKILL);
                }
            }
            panic!("processes of the test survived the arena: {alive:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The `--engine` words of the scripted engine in `mode`; `tc` is one or more limits
/// (`tc=1+0.1`, `st=0.1 bank=0.3`).
pub fn scripted_engine(mode: &str, name: &str, tc: &str) -> Vec<String> {
    let mut words = vec![
        "--engine".into(),
        format!("cmd={}", scripted().display()),
        format!("args={mode}"),
        format!("name={name}"),
    ];
    words.extend(tc.split_whitespace().map(str::to_string));
    words
}

/// Plays one colour-swapped pair of 4x5 Clobber from the start between two agon
/// configurations (words after `cmd=`) into `journal`.
pub fn clobber_pair(dir: &Path, journal: &Path, a: &str, b: &str) {
    let agon = agon();
    let mut cmd = arena_match(dir, &marker("report"));
    let engine = |words: &str| -> Vec<String> {
        let mut v = vec![format!("cmd={}", agon.display())];
        v.extend(words.split_whitespace().map(str::to_string));
        v
    };
    cmd.args(["--game", "clobber rows=4 cols=5", "--games", "2"])
        .args(["--openings", "start", "--report-every", "0"])
        .arg("--journal")
        .arg(journal)
        .arg("--engine")
        .args(engine(a))
        .arg("--engine")
        .args(engine(b));
    let out = run(cmd, Duration::from_secs(120));
    assert!(
        out.status.success(),
        "arena match failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The status code and the body of a whole HTTP/1.1 answer read from a socket (the
/// test fails, quoting the answer, when it has no status).
pub fn http_status_and_body(text: &str) -> (u16, &str) {
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in '{text}'"));
    (status, text.split_once("\r\n\r\n").map_or("", |(_, b)| b))
}

/// A running `arena serve`, killed on drop.
pub struct Served {
    /// The server process.
    pub child: std::process::Child,
    /// The loopback port it answers on.
    pub port: u16,
    /// The indented lines it printed after its address, up to `answering ...`.
    pub banner: Vec<String>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `arena serve --port 0` with `args`: reads the address it prints and its banner
/// (so that it is listening when this returns), then drains the rest of its output so
/// that it never blocks on a full pipe.
pub fn start_serve(args: &[&str]) -> Served {
    start_serve_of(&arena(), args)
}

/// [`start_serve`] with the arena binary at `program`.
pub fn start_serve_of(program: &Path, args: &[&str]) -> Served {
    use std::io::BufRead;
    let mut child = Command::new(program)
        .arg("serve")
        .args(["--port", "0"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start arena serve");
    let mut out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    out.read_line(&mut line).expect("read the address");
    let mut banner = Vec::new();
    loop {
        let mut more = String::new();
        if out.read_line(&mut more).unwrap_or(0) == 0 || !more.starts_with("  ") {
            break;
        }
        let answering = more.contains("answering");
        banner.push(more.trim().to_string());
        if answering {
            break;
        }
    }
    std::thread::spawn(move || {
        let mut sink = String::new();
        while out.read_line(&mut sink).unwrap_or(0) > 0 {
            sink.clear();
        }
    });
    let port = line
        .trim()
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in '{line}'"));
    Served {
        child,
        port,
        banner,
    }
}

/// A bot that exits at once: its check fails and it loses its first pair by its own fault,
/// so it is graded in a few seconds.
pub fn quitter(tag: &str) -> String {
    format!("import sys\nsys.exit(3)  # {tag}\n")
}

/// `GET path` from the server on the loopback `port`: the status and the body as JSON.
pub fn get_json(port: u16, path: &str) -> (u16, Value) {
    use std::io::{Read, Write};
    use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
    let addr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port);
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read the answer");
    let (status, body) = http_status_and_body(&text);
    let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: '{body}'"));
    (status, json)
}

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shell lines of the block tagged `<!-- readme-test: NAME -->` in `page` (a file of
/// the repository: `README.md`, `docs/grading.md`), as a newcomer types them: comments
/// dropped, `cargo build` lines skipped (the binaries under test are built already).
pub fn doc_block(page: &str, name: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(repo().join(page)).unwrap();
    let tag = format!("<!-- readme-test: {name} -->");
    let start = readme
        .find(&tag)
        .unwrap_or_else(|| panic!("{page} has no block {tag}"));
    let rest = &readme[start + tag.len()..];
    let body = rest
        .trim_start()
        .strip_prefix("```sh\n")
        .unwrap_or_else(|| panic!("{tag} is not followed by a sh block"));
    let body = &body[..body.find("```").expect("closed block")];
    body.lines()
        .map(|l| match l.find("  #") {
            Some(i) => l[..i].trim().to_string(),
            None => l.trim().to_string(),
        })
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("cargo build"))
        .collect()
}

/// A folder that looks like a fresh clone after `cargo build --release --workspace`:
/// `examples/` and `scripts/` copied, `target/release/` holding the binaries under test.
pub fn fresh_clone() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // Sandboxed bots run under their own UID and must be able to walk to their files.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for folder in ["examples", "scripts"] {
        let copy = Command::new("cp")
            .arg("-a")
            .arg(repo().join(folder))
            .arg(dir.path())
            .status()
            .unwrap();
        assert!(copy.success());
    }
    let release = dir.path().join("target/release");
    std::fs::create_dir_all(&release).unwrap();
    for (name, path) in [
        ("arena", arena()),
        ("agon", agon()),
        ("scripted_engine", scripted()),
    ] {
        std::os::unix::fs::symlink(path, release.join(name)).unwrap();
    }
    dir
}

/// Types every line of the block `name` of `page` ([`doc_block`]) with `sh -c` in `dir`,
/// as a newcomer would; each must succeed. Their output, each after its `$ line`.
pub fn run_doc_block(dir: &Path, page: &str, name: &str, marker: &str) -> String {
    let mut all = String::new();
    for line in doc_block(page, name) {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(&line)
            .current_dir(dir)
            .env("ARENA_TEST_MARKER", marker);
        let out = run(c, Duration::from_secs(600));
        let shown = text(&out);
        assert!(
            out.status.success(),
            "block {name} of {page}: `{line}` failed:\n{shown}"
        );
        all.push_str(&format!("$ {line}\n{shown}\n"));
    }
    all
}
