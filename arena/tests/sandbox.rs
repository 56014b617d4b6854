//! The strict sandbox against hostile bots of our own (`tests/data/hostile_bot.py`): a
//! tic-tac-toe bot that plays legal moves and, on the side, tries to signal or trace its
//! opponent, daemonise, multiply its memory, hold processes, spin the CPU, leave files in
//! `/tmp` and `/dev/shm`, reach TCP listeners and a running `arena serve` on loopback,
//! and read another bot's folder, the journal and the arena's command line.
//!
//! For each: the attacker harms nobody (the victim's games end normally), its own fault
//! is named, and afterwards no process, file or cgroup of the boxes remains (a namespace
//! lives only as long as a process in it). Every test runs the arena with a UID range of
//! its own (`ARENA_SANDBOX_UIDS`), so what is left can be told apart from boxes of other
//! arenas running on the machine.
//!
//! These tests need what the strict level needs (root, bubblewrap, cgroup controllers);
//! on a machine without them they fail, naming what is missing, rather than skip.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

/// The tests run one at a time: they measure the whole machine's processes.
static SERIAL: Mutex<()> = Mutex::new(());

fn require_strict() {
    if let Err(e) = arena::sandbox::require(arena::sandbox::Level::Strict) {
        panic!(
            "this machine cannot give the strict sandbox's guarantees, so this test fails \
             instead of skipping: {e}"
        );
    }
}

/// A test's own UID range, folders and marker.
struct Scene {
    dir: tempfile::TempDir,
    first_uid: u32,
    marker: String,
    /// The lines of `/proc/key-users` for this scene's UIDs before the test: key rings a
    /// UID may hold from before (a user key ring lasts as long as the machine) are not
    /// this test's.
    keys_before: Vec<String>,
    _serial: std::sync::MutexGuard<'static, ()>,
}

impl Scene {
    fn new(test: &str, first_uid: u32) -> Scene {
        let serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        require_strict();
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let scene = Scene {
            dir,
            first_uid,
            marker: format!("agonbox{test}{}", std::process::id()),
            keys_before: Vec::new(),
            _serial: serial,
        };
        let scene = Scene {
            keys_before: scene.key_users(),
            ..scene
        };
        scene.assert_clean("before the test");
        scene
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn uids(&self) -> std::ops::RangeInclusive<u32> {
        self.first_uid..=self.first_uid + 9
    }

    /// A bot folder holding `bot.py`: the hostile bot, or a copy of the example bot.
    fn bot(&self, name: &str, hostile: bool, edit: impl Fn(String) -> String) -> PathBuf {
        let folder = self.path().join(name);
        std::fs::create_dir(&folder).unwrap();
        let source = if hostile {
            "tests/data/hostile_bot.py"
        } else {
            "../examples/tictactoe_bot.py"
        };
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(source)).unwrap();
        let bot = folder.join("bot.py");
        std::fs::write(&bot, edit(text)).unwrap();
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        bot
    }

    /// `arena match` of tic-tac-toe in this scene's folder, with its UID range.
    fn arena_match(&self, games: u32, engines: &[Vec<String>]) -> Command {
        let mut c = arena_match(self.path(), &self.marker);
        c.env(
            "ARENA_SANDBOX_UIDS",
            format!("{}-{}", self.uids().start(), self.uids().end()),
        )
        .args(["--game", "tictactoe", "--games", &games.to_string()])
        .args(["--openings", "start", "--concurrency", "1"]);
        for words in engines {
            c.arg("--engine").args(words);
        }
        c
    }

    /// Processes left on the host: of this scene's UIDs, or naming its marker.
    fn leftovers(&self) -> Vec<String> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
                continue;
            };
            if status
                .lines()
                .any(|l| l.starts_with("State:") && l.contains('Z'))
            {
                continue;
            }
            let uid_hit = status.lines().any(|l| {
                l.strip_prefix("Uid:").is_some_and(|ids| {
                    ids.split_whitespace()
                        .filter_map(|i| i.parse::<u32>().ok())
                        .any(|i| self.uids().contains(&i))
                })
            });
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let marker_hit = String::from_utf8_lossy(&cmdline).contains(&self.marker)
                && !String::from_utf8_lossy(&cmdline).contains("ARENA_TEST_MARKER");
            if uid_hit || marker_hit {
                found.push(format!(
                    "pid {pid}: {}",
                    String::from_utf8_lossy(&cmdline).replace('\0', " ")
                ));
            }
        }
        found
    }

    /// Cgroups of this scene's UIDs.
    fn groups(&self) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for controller in ["memory", "pids", "cpu", "cpuacct", "freezer", "unified"] {
            for uid in self.uids() {
                let dir = Path::new("/sys/fs/cgroup")
                    .join(controller)
                    .join("agon-arena")
                    .join(format!("uid-{uid}"));
                if dir.exists() {
                    found.push(dir);
                }
            }
        }
        found
    }

    /// Mounts of the host naming this scene's folder or marker (a box's binds live in
    /// its own mount namespace and must never show here).
    fn mounts(&self) -> Vec<String> {
        let folder = self.path().to_string_lossy().into_owned();
        std::fs::read_to_string("/proc/self/mountinfo")
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains(&folder) || l.contains(&self.marker))
            .map(str::to_string)
            .collect()
    }

    /// Files a bot left in the host's `/tmp` and `/dev/shm`.
    fn files(&self) -> Vec<PathBuf> {
        ["/tmp", "/dev/shm"]
            .iter()
            .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().contains(&self.marker))
            .collect()
    }

    /// The lines of `/proc/key-users` (who owns keys, and how many) for this scene's UIDs.
    fn key_users(&self) -> Vec<String> {
        std::fs::read_to_string("/proc/key-users")
            .unwrap_or_default()
            .lines()
            .filter(|line| {
                let uid = line
                    .split(':')
                    .next()
                    .and_then(|u| u.trim().parse::<u32>().ok());
                uid.is_some_and(|u| self.uids().contains(&u))
            })
            .map(|l| l.trim().to_string())
            .collect()
    }

    /// Kernel state of this scene's UIDs that the test left: keys owned that were not
    /// owned before (`/proc/key-users`), System V IPC objects, UID leases still held.
    fn kernel_state(&self) -> Vec<String> {
        let mut found: Vec<String> = self
            .key_users()
            .into_iter()
            .filter(|l| !self.keys_before.contains(l))
            .map(|l| format!("keys: {l}"))
            .collect();
        for uid in self.uids() {
            for kind in ["shm", "msg", "sem"] {
                for id in arena::sandbox::uid::ipc_of(kind, uid) {
                    found.push(format!("{kind} {id} of uid {uid}"));
                }
            }
            if !arena::sandbox::uid::is_free(uid) {
                found.push(format!("the lease of uid {uid}"));
            }
        }
        found
    }

    /// Nothing of the boxes is left: waits up to 3 s for the kernel to finish.
    fn assert_clean(&self, when: &str) {
        let until = Instant::now() + Duration::from_secs(3);
        loop {
            let (procs, groups, files) = (self.leftovers(), self.groups(), self.files());
            let (kernel, mounts) = (self.kernel_state(), self.mounts());
            if procs.is_empty()
                && groups.is_empty()
                && files.is_empty()
                && kernel.is_empty()
                && mounts.is_empty()
            {
                return;
            }
            if Instant::now() > until {
                panic!(
                    "{when}: left behind: processes {procs:?}, cgroups {groups:?}, files {files:?}, kernel state {kernel:?}, mounts {mounts:?}"
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The `ATTACK` lines of every stderr log of engine `name` in the run folder.
    fn attack_lines(&self, name: &str) -> Vec<String> {
        let mut lines = Vec::new();
        let out = self.path().join("arena-out");
        for run in std::fs::read_dir(&out).unwrap().flatten() {
            let logs = run.path().join("logs");
            for log in std::fs::read_dir(&logs).into_iter().flatten().flatten() {
                let file = log.file_name().to_string_lossy().into_owned();
                if file.starts_with(&format!("{name}-")) {
                    let text = std::fs::read_to_string(log.path()).unwrap_or_default();
                    lines.extend(
                        text.lines()
                            .filter(|l| l.starts_with("ATTACK"))
                            .map(str::to_string),
                    );
                }
            }
        }
        lines
    }

    /// Two games of the hostile bot (with `attacks`) against the victim, both boxed at
    /// `level`, into the folder `level`; `prepare` may change the command. Returns the
    /// journal and the attack lines.
    fn level_match(
        &self,
        level: &str,
        attacks: &str,
        prepare: impl FnOnce(&mut Command),
    ) -> (Vec<Value>, Vec<String>) {
        let hostile = self.path().join("hostile/bot.py");
        let victim = self.path().join("victim/bot.py");
        let marker = format!("env.MARKER={}", self.marker);
        let sandbox = format!("sandbox={level}");
        let mut c = self.arena_match(
            2,
            &[
                engine(
                    &hostile,
                    "hostile",
                    &[&format!("env.ATTACKS={attacks}"), &marker, &sandbox],
                ),
                engine(&victim, "victim", &[&sandbox]),
            ],
        );
        c.args(["--out", level]);
        prepare(&mut c);
        let out = run(c, Duration::from_secs(120));
        assert!(out.status.success(), "{}", text(&out));
        let records = journal(&self.path().join(level).join("journal.jsonl"));
        (records, attack_lines_under(&self.path().join(level)))
    }

    fn journal(&self) -> Vec<Value> {
        journal(&self.path().join("arena-out/journal.jsonl"))
    }
}

/// The example bot made to start a thread for every move (a victim that needs its
/// process limit).
fn threaded(bot: String) -> String {
    bot.replace("import sys", "import sys\nimport threading")
        .replace(
        "        sq = best_move(board, me)",
        "        threading.Thread(target=lambda: None).start()\n        sq = best_move(board, me)",
    )
}

fn engine(bot: &Path, name: &str, extra: &[&str]) -> Vec<String> {
    let mut words = vec![
        format!("cmd={}", bot.display()),
        format!("name={name}"),
        "sandbox=on".to_string(),
    ];
    words.extend(extra.iter().map(|s| s.to_string()));
    words
}

/// Every attack of `kinds` ran (at least one line each) and none succeeded.
fn assert_blocked(lines: &[String], kinds: &[&str]) {
    for kind in kinds {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("ATTACK {kind} "))),
            "the attack '{kind}' never ran: {lines:?}"
        );
    }
    let won: Vec<&String> = lines.iter().filter(|l| l.contains("SUCCEEDED")).collect();
    assert!(won.is_empty(), "attacks that succeeded: {won:?}");
}

/// The victim (engine `victim`) was never at fault; every game ended normally unless the
/// attacker was at fault.
fn assert_victim_unharmed(records: &[Value]) {
    for r in records {
        let kind = r["termination"]["kind"].as_str().unwrap();
        if kind == "normal" {
            continue;
        }
        let side = r["termination"]["side"].as_str().unwrap();
        let at_fault = r[side]["name"].as_str().unwrap();
        assert_eq!(at_fault, "hostile", "the victim was harmed: {r}");
    }
}

fn faults_of_hostile(records: &[Value]) -> Vec<(String, String)> {
    records
        .iter()
        .filter(|r| r["termination"]["kind"] != "normal")
        .map(|r| {
            (
                r["termination"]["kind"].as_str().unwrap().to_string(),
                r["termination"]["limit"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn signals_and_ptrace_reach_no_other_process() {
    let scene = Scene::new("sig", 62000);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let c = scene.arena_match(
        4,
        &[
            engine(&hostile, "hostile", &["env.ATTACKS=signal"]),
            engine(&victim, "victim", &[]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = scene.journal();
    assert_eq!(records.len(), 4);
    for r in &records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    assert_blocked(&scene.attack_lines("hostile"), &["signal", "ptrace"]);
    scene.assert_clean("after the match");
}

#[test]
fn signals_reach_no_unsandboxed_opponent_either() {
    // The opponent is agon, trusted and unboxed, in the host's PID namespace.
    let scene = Scene::new("sig2", 62010);
    let hostile = scene.bot("hostile", true, |t| t);
    let c = scene.arena_match(
        2,
        &[
            engine(&hostile, "hostile", &["env.ATTACKS=signal"]),
            vec![format!("cmd={}", agon().display()), "name=victim".into()],
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    assert_victim_unharmed(&scene.journal());
    for r in scene.journal() {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    assert_blocked(&scene.attack_lines("hostile"), &["signal", "ptrace"]);
    scene.assert_clean("after the match");
}

#[test]
fn daemons_end_with_their_game() {
    let scene = Scene::new("daemon", 62020);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let marker = format!("env.MARKER={}", scene.marker);
    let c = scene.arena_match(
        4,
        &[
            engine(&hostile, "hostile", &["env.ATTACKS=daemon", &marker]),
            engine(&victim, "victim", &[]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    for r in scene.journal() {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    assert_eq!(
        scene.attack_lines("hostile").len(),
        4,
        "one daemon attack per game, each in a fresh box"
    );
    scene.assert_clean("after the match");
}

#[test]
fn a_killed_arena_takes_its_boxes_along_and_the_next_run_cleans_up() {
    let scene = Scene::new("kill", 62030);
    let hostile = scene.bot("hostile", true, |t| {
        // Slow moves, so that the match is surely running when it is killed.
        t.replace(
            "        sq = best_move(board, me)",
            "        time.sleep(0.2)\n        sq = best_move(board, me)",
        )
    });
    let victim = scene.bot("victim", false, |t| t);
    let marker = format!("env.MARKER={}", scene.marker);
    let mut c = scene.arena_match(
        50,
        &[
            engine(&hostile, "hostile", &["env.ATTACKS=daemon", &marker]),
            engine(&victim, "victim", &[]),
        ],
    );
    let mut child = c
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the daemons of the first box to be there.
    let until = Instant::now() + Duration::from_secs(20);
    while scene
        .leftovers()
        .iter()
        .filter(|p| p.contains(&format!("{}-daemon", scene.marker)))
        .count()
        == 0
    {
        assert!(Instant::now() < until, "the daemon never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Every process of the boxes is gone with the arena; only empty cgroups may remain.
    let until = Instant::now() + Duration::from_secs(3);
    while !scene.leftovers().is_empty() {
        assert!(
            Instant::now() < until,
            "survived the arena: {:?}",
            scene.leftovers()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The next arena with the same UIDs removes what the killed one left.
    let mut next = scene.arena_match(
        1,
        &[
            engine(&victim, "victim", &[]),
            vec![format!("cmd={}", agon().display()), "name=agon".into()],
        ],
    );
    next.args(["--out", "second"]);
    let out = run(next, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    scene.assert_clean("after the next run");
}

#[test]
fn memory_is_limited_for_the_whole_tree() {
    let scene = Scene::new("mem", 62040);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let c = scene.arena_match(
        2,
        &[
            engine(
                &hostile,
                "hostile",
                &["env.ATTACKS=memory", "mem=512", "env.MOVE_DELAY=0.1"],
            ),
            engine(&victim, "victim", &["mem=512"]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = scene.journal();
    assert_victim_unharmed(&records);
    let faults = faults_of_hostile(&records);
    assert_eq!(faults.len(), 2, "{records:?}");
    for (kind, limit) in faults {
        assert_eq!(
            (kind.as_str(), limit.as_str()),
            ("resource_limit", "memory")
        );
    }
    scene.assert_clean("after the match");
}

#[test]
fn held_processes_starve_nobody_else_and_a_fork_bomb_is_named() {
    let scene = Scene::new("pids", 62050);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, threaded);
    let c = scene.arena_match(
        2,
        &[
            engine(
                &hostile,
                "hostile",
                &["env.ATTACKS=hold", "env.HOLD=29", "nproc=32"],
            ),
            engine(&victim, "victim", &["nproc=32"]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    for r in scene.journal() {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    scene.assert_clean("after the first match");

    let mut c = scene.arena_match(
        2,
        &[
            engine(&hostile, "hostile", &["env.ATTACKS=forkbomb", "nproc=32"]),
            engine(&victim, "victim", &["nproc=32"]),
        ],
    );
    c.args(["--out", "bomb"]);
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&scene.path().join("bomb/journal.jsonl"));
    assert_victim_unharmed(&records);
    let faults = faults_of_hostile(&records);
    assert_eq!(faults.len(), 2, "{records:?}");
    for (kind, limit) in faults {
        assert_eq!(
            (kind.as_str(), limit.as_str()),
            ("resource_limit", "processes")
        );
    }
    scene.assert_clean("after the fork bomb");
}

#[test]
fn spinning_the_cpu_is_a_cpu_limit_not_a_crash() {
    let scene = Scene::new("cpu", 62060);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    // The bot spends 1.5 s of CPU time before its handshake, with a 1 s limit for its box.
    let c = scene.arena_match(
        2,
        &[
            engine(
                &hostile,
                "hostile",
                &["env.ATTACKS=spin", "env.SPIN=1.5", "cpu=1"],
            ),
            engine(&victim, "victim", &[]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = scene.journal();
    assert_victim_unharmed(&records);
    let faults = faults_of_hostile(&records);
    assert_eq!(faults.len(), 2, "{records:?}");
    for (kind, limit) in faults {
        assert_eq!((kind.as_str(), limit.as_str()), ("resource_limit", "cpu"));
    }
    scene.assert_clean("after the match");
}

#[test]
fn files_in_tmp_and_dev_shm_stay_in_the_box() {
    let scene = Scene::new("files", 62070);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let marker = format!("env.MARKER={}", scene.marker);
    let c = scene.arena_match(
        2,
        &[
            engine(&hostile, "hostile", &["env.ATTACKS=files", &marker]),
            engine(&victim, "victim", &[]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    for r in scene.journal() {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    let lines = scene.attack_lines("hostile");
    assert!(
        lines.iter().any(|l| l.contains("in ['/tmp', '/dev/shm']")),
        "the bot could write its own /tmp and /dev/shm: {lines:?}"
    );
    scene.assert_clean("after the match");

    // 120 MiB in /dev/shm under a 16 MiB file-size limit. Python ignores SIGXFSZ, so the
    // write fails with EFBIG and the bot dies of the error it did not catch: the kernel
    // gives no evidence of a limit (no signal, no counter), and what the bot prints
    // ("File too large") is never taken as one, so it is a crash, its own fault.
    let mut c = scene.arena_match(
        2,
        &[
            engine(
                &hostile,
                "hostile",
                &["env.ATTACKS=bigwrite", &marker, "fsize=16"],
            ),
            engine(&victim, "victim", &[]),
        ],
    );
    c.args(["--out", "big"]);
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&scene.path().join("big/journal.jsonl"));
    assert_victim_unharmed(&records);
    let faults = faults_of_hostile(&records);
    assert_eq!(faults.len(), 2, "{records:?}");
    for (kind, limit) in faults {
        assert_eq!((kind.as_str(), limit.as_str()), ("crash", ""));
    }
    scene.assert_clean("after the big write");
}

/// A running `arena serve` on a loopback port, killed on drop.
struct Server(std::process::Child, u16);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_serve() -> Server {
    use std::io::BufRead;
    let mut child = Command::new(arena())
        .args(["serve", "--port", "0", "--agon"])
        .arg(agon())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in '{line}'"));
    Server(child, port)
}

#[test]
fn loopback_listeners_and_arena_serve_are_out_of_reach() {
    use std::net::TcpListener;
    use std::os::linux::net::SocketAddrExt;
    let scene = Scene::new("net", 62080);
    let v4 = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = v4.local_addr().unwrap().port();
    let v6 = TcpListener::bind(("::1", port)).ok();
    v4.set_nonblocking(true).unwrap();
    let abstract_name = format!("{}-abstract", scene.marker);
    let unix = std::os::unix::net::UnixListener::bind_addr(
        &std::os::unix::net::SocketAddr::from_abstract_name(abstract_name.as_bytes()).unwrap(),
    )
    .unwrap();
    unix.set_nonblocking(true).unwrap();
    let server = start_serve();
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let c = scene.arena_match(
        2,
        &[
            engine(
                &hostile,
                "hostile",
                &[
                    "env.ATTACKS=network",
                    &format!("env.PORT={port}"),
                    &format!("env.SERVE_PORT={}", server.1),
                    &format!("env.ABSTRACT={abstract_name}"),
                ],
            ),
            engine(&victim, "victim", &[]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    for r in scene.journal() {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    assert_blocked(
        &scene.attack_lines("hostile"),
        &["tcp", "serve", "abstract"],
    );
    // Seen from outside: no connection ever arrived.
    assert!(
        v4.accept().is_err(),
        "a connection reached 127.0.0.1:{port}"
    );
    if let Some(v6) = v6 {
        v6.set_nonblocking(true).unwrap();
        assert!(v6.accept().is_err(), "a connection reached [::1]:{port}");
    }
    assert!(
        unix.accept().is_err(),
        "a connection reached @{abstract_name}"
    );
    // The server is still there, and the page works from the host.
    let mut s = std::net::TcpStream::connect(("127.0.0.1", server.1)).unwrap();
    use std::io::{Read, Write};
    write!(
        s,
        "GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    drop(server);
    scene.assert_clean("after the match");
}

#[test]
fn reads_stop_at_the_box() {
    let scene = Scene::new("read", 62090);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let secret = format!("opponent-secret-{}", scene.marker);
    let journal_path = scene.path().join("arena-out/journal.jsonl");
    let reads = [
        victim.display().to_string(),
        journal_path.display().to_string(),
        "/etc/shadow".to_string(),
        "/etc/hostname".to_string(),
        arena().display().to_string(),
    ]
    .join(":");
    let c = scene.arena_match(
        2,
        &[
            engine(
                &hostile,
                "hostile",
                &[
                    "env.ATTACKS=read",
                    &format!("env.READ={reads}"),
                    &format!(
                        "env.SECRET_REVERSED={}",
                        secret.chars().rev().collect::<String>()
                    ),
                ],
            ),
            engine(&victim, "victim", &[&format!("env.SECRET={secret}")]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    // The secret is in the arena's own command line, here on the host.
    assert!(journal_path.exists());
    for r in scene.journal() {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    let lines = scene.attack_lines("hostile");
    assert_blocked(&lines, &["read", "secret"]);
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("ATTACK read"))
            .count(),
        2 * 5,
        "every path was tried in both games: {lines:?}"
    );
    scene.assert_clean("after the match");
}

/// `arena grade` with the scene's UID range.
fn grade(scene: &Scene, bots: &Path, out: &str) -> Vec<Value> {
    let mut c = Command::new(arena());
    c.current_dir(scene.path())
        .env("ARENA_TEST_MARKER", &scene.marker)
        .env(
            "ARENA_SANDBOX_UIDS",
            format!("{}-{}", scene.uids().start(), scene.uids().end()),
        )
        .arg("grade")
        .arg("--bots")
        .arg(bots)
        .args(["--out", out, "--agon"])
        .arg(agon())
        .args([
            "--game",
            "tictactoe",
            "--games-per-level",
            "2",
            "--seed",
            "5",
        ]);
    let result = run(c, Duration::from_secs(300));
    assert!(result.status.success(), "{}", text(&result));
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(scene.path().join(out).join("grades.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(json["sandbox"]["level"], "strict", "{json}");
    json["students"].as_array().unwrap().clone()
}

/// A student's grade: conformance, highest level beaten, each level's score.
fn verdict(reports: &[Value], name: &str) -> Value {
    let r = reports
        .iter()
        .find(|r| r["student"] == name)
        .unwrap_or_else(|| panic!("no report for {name}: {reports:?}"));
    serde_json::json!({
        "conformance": r["conformance"],
        "highest": r["highest_level_beaten"],
        "scores": r["levels"].as_array().unwrap().iter().map(|l| l["score"].clone()).collect::<Vec<_>>(),
    })
}

#[test]
fn in_grade_an_attacking_student_changes_no_other_grade() {
    let scene = Scene::new("grade", 62100);
    let source = |file: &str| {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap()
    };
    let good = source("../examples/tictactoe_bot.py");
    let hostile = source("tests/data/hostile_bot.py").replace(
        "ENV = os.environ",
        &format!(
            "ENV = dict(os.environ, ATTACKS='signal,daemon,hold,files', MARKER='{}', HOLD='20')",
            scene.marker
        ),
    );
    let threaded = threaded(good.clone());
    let all = scene.path().join("all");
    std::fs::create_dir(&all).unwrap();
    for (name, text) in [
        ("ann.py", &good),
        ("bob.py", &threaded),
        ("eve.py", &hostile),
    ] {
        std::fs::write(all.join(name), text).unwrap();
        std::fs::set_permissions(all.join(name), std::fs::Permissions::from_mode(0o644)).unwrap();
        let alone = scene.path().join(format!("alone-{name}"));
        std::fs::create_dir(&alone).unwrap();
        std::fs::write(alone.join(name), text).unwrap();
    }
    let together = grade(&scene, &all, "out-all");
    for student in ["ann", "bob"] {
        let alone = grade(
            &scene,
            &scene.path().join(format!("alone-{student}.py")),
            &format!("out-{student}"),
        );
        assert_eq!(
            verdict(&together, student),
            verdict(&alone, student),
            "{student} graded beside an attacker and alone"
        );
        assert_eq!(verdict(&alone, student)["conformance"], true);
    }
    scene.assert_clean("after grading");
}

#[test]
fn weaker_levels_are_explicit() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // As root, the user-namespace level is refused with the reason; so is a limit given
    // without saying which sandbox it belongs to.
    let cases: [(&[&str], &str); 2] = [
        (&["sandbox=userns"], "as root, use sandbox=strict"),
        (&["mem=100"], "are limits of the sandbox: add sandbox=on"),
    ];
    for (words, expected) in cases {
        let mut c = arena_match(dir.path(), &marker("levels"));
        c.args(["--game", "tictactoe", "--games", "2", "--engine"])
            .arg(format!("cmd={}", agon().display()))
            .args(words)
            .arg("--engine")
            .arg(format!("cmd={}", agon().display()));
        let out = run(c, Duration::from_secs(30));
        assert!(!out.status.success(), "{}", text(&out));
        assert!(text(&out).contains(expected), "{}", text(&out));
    }
}

#[test]
fn without_root_the_userns_level_boxes_engines_and_strict_is_refused() {
    let scene = Scene::new("userns", 62110);
    // The arena runs as an ordinary user (the scene's last UID): its binary, the bots and
    // the working folder are copied where that user may reach them.
    let user = *scene.uids().end();
    let bin = scene.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    for exe in [arena(), agon()] {
        let to = bin.join(exe.file_name().unwrap());
        std::fs::copy(&exe, &to).unwrap();
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let work = scene.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::os::unix::fs::chown(&work, Some(user), Some(user)).unwrap();
    let as_user = |level: &str, out: &str| {
        let mut c = Command::new("/usr/bin/setpriv");
        c.arg(format!("--reuid={user}"))
            .arg(format!("--regid={user}"))
            .arg("--clear-groups")
            .arg(bin.join("arena"))
            .current_dir(&work)
            .env("ARENA_TEST_MARKER", &scene.marker)
            .args([
                "match",
                "--no-progress",
                "--game",
                "tictactoe",
                "--games",
                "2",
            ])
            .args(["--openings", "start", "--out", out, "--engine"])
            .arg(format!("cmd={}", hostile.display()))
            .args(["name=hostile", &format!("sandbox={level}")])
            .arg("env.ATTACKS=signal,daemon,files,network,read")
            .arg(format!("env.MARKER={}", scene.marker))
            .arg(format!("env.READ={}", victim.display()))
            .arg(format!("env.PORT={port}"))
            .arg("--engine")
            .arg(format!("cmd={}", victim.display()))
            .args(["name=victim", &format!("sandbox={level}")]);
        run(c, Duration::from_secs(120))
    };
    let refused = as_user("on", "strict");
    assert!(!refused.status.success(), "{}", text(&refused));
    assert!(
        text(&refused).contains("sandbox=strict needs root"),
        "{}",
        text(&refused)
    );
    let out = as_user("userns", "userns");
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&work.join("userns/journal.jsonl"));
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    let mut lines = Vec::new();
    for run_dir in std::fs::read_dir(work.join("userns")).unwrap().flatten() {
        for log in std::fs::read_dir(run_dir.path().join("logs"))
            .into_iter()
            .flatten()
            .flatten()
        {
            if log.file_name().to_string_lossy().starts_with("hostile-") {
                let text = std::fs::read_to_string(log.path()).unwrap();
                lines.extend(
                    text.lines()
                        .filter(|l| l.starts_with("ATTACK"))
                        .map(String::from),
                );
            }
        }
    }
    assert_blocked(&lines, &["signal", "ptrace", "files", "tcp", "read"]);
    assert!(
        listener.accept().is_err(),
        "a connection reached 127.0.0.1:{port}"
    );
    scene.assert_clean("after the match");
}

#[test]
fn without_a_box_the_same_attacks_are_seen_to_succeed() {
    // The control: the harness above would notice a breach. Unboxed, the hostile bot
    // reads the victim's file, leaves files in /tmp and /dev/shm and daemons behind (only
    // harmless attacks are run unboxed: never `signal` as root).
    let scene = Scene::new("control", 62120);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let mut c = scene.arena_match(
        2,
        &[
            vec![
                format!("cmd={}", hostile.display()),
                "name=hostile".into(),
                "env.ATTACKS=read,files,daemon".into(),
                format!("env.MARKER={}", scene.marker),
                format!("env.READ={}", victim.display()),
            ],
            engine(&victim, "victim", &[]),
        ],
    );
    c.args(["--out", "control"]);
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let lines: Vec<String> = std::fs::read_dir(scene.path().join("control"))
        .unwrap()
        .flatten()
        .flat_map(|run| {
            std::fs::read_dir(run.path().join("logs"))
                .into_iter()
                .flatten()
                .flatten()
        })
        .filter(|log| log.file_name().to_string_lossy().starts_with("hostile-"))
        .flat_map(|log| {
            std::fs::read_to_string(log.path())
                .unwrap()
                .lines()
                .filter(|l| l.starts_with("ATTACK read"))
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        lines.iter().any(|l| l.contains("SUCCEEDED")),
        "unboxed, the read should succeed: {lines:?}"
    );
    let daemons = scene.leftovers();
    let files = scene.files();
    // Clean up before asserting, so that a failure leaves nothing behind either.
    for line in &daemons {
        if let Some(pid) = line
            .strip_prefix("pid ")
            .and_then(|l| l.split(':').next())
            .and_then(|p| p.parse::<i32>().ok())
        {
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
    for f in &files {
        let _ = std::fs::remove_file(f);
    }
    assert!(
        daemons.iter().any(|d| d.contains("-daemon")),
        "unboxed, the daemon should survive: {daemons:?}"
    );
    assert_eq!(
        files.len(),
        2,
        "unboxed, files stay in /tmp and /dev/shm: {files:?}"
    );
    scene.assert_clean("after cleaning up by hand");
}

/// The `ATTACK` lines of every file under `dir` (stderr logs, check reports).
fn attack_lines_under(dir: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(text) = std::fs::read_to_string(&p) {
                lines.extend(
                    text.lines()
                        .filter(|l| l.starts_with("ATTACK"))
                        .map(str::to_string),
                );
            }
        }
    }
    lines
}

/// Runs `command` with a session key ring of its own holding a secret, as a teacher's
/// login session may (the arena inherits it).
fn with_secret_key_ring(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: only system calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let name = c"agon-test-session";
            if libc::syscall(libc::SYS_keyctl, 1, name.as_ptr()) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            let secret = b"teacher-secret-1234";
            if libc::syscall(
                libc::SYS_add_key,
                c"user".as_ptr(),
                c"agon-teacher-secret".as_ptr(),
                secret.as_ptr(),
                secret.len(),
                -3i64, // KEY_SPEC_SESSION_KEYRING
            ) < 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// The arena as an ordinary user (the scene's last UID), for the `userns` level: its
/// binaries are copied where that user may reach them. Returns the command (without
/// engines) and the working folder.
fn as_user(scene: &Scene, out: &str) -> (Command, PathBuf) {
    let user = *scene.uids().end();
    let bin = scene.path().join("bin");
    if !bin.exists() {
        std::fs::create_dir(&bin).unwrap();
        for exe in [arena(), agon()] {
            let to = bin.join(exe.file_name().unwrap());
            std::fs::copy(&exe, &to).unwrap();
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let work = scene.path().join("work");
    if !work.exists() {
        std::fs::create_dir(&work).unwrap();
        std::os::unix::fs::chown(&work, Some(user), Some(user)).unwrap();
    }
    let mut c = Command::new("/usr/bin/setpriv");
    c.arg(format!("--reuid={user}"))
        .arg(format!("--regid={user}"))
        .arg("--clear-groups")
        .arg(bin.join("arena"))
        .current_dir(&work)
        .env("ARENA_TEST_MARKER", &scene.marker)
        .args(["match", "--no-progress", "--game", "tictactoe"])
        .args(["--openings", "start", "--concurrency", "1", "--out", out]);
    (c, work)
}

#[test]
fn no_key_ring_reaches_a_box_at_any_level_and_nothing_passes_between_games() {
    let scene = Scene::new("keys", 62130);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let marker = format!("env.MARKER={}", scene.marker);
    // Two games in a row: the first box leaves a memo in its UID's key rings, the second
    // looks for it.
    for level in ["on", "limits"] {
        let (records, lines) = scene.level_match(level, "keyring", with_secret_key_ring);
        assert_victim_unharmed(&records);
        assert_blocked(
            &lines,
            &["keyring-session", "keyring-memo", "keyring-write"],
        );
        scene.assert_clean(&format!("after the {level} match"));
    }
    let (mut c, work) = as_user(&scene, "userns");
    c.args(["--games", "2", "--engine"])
        .arg(format!("cmd={}", hostile.display()))
        .args([
            "name=hostile",
            "sandbox=userns",
            "env.ATTACKS=keyring",
            &marker,
        ])
        .arg("--engine")
        .arg(format!("cmd={}", victim.display()))
        .args(["name=victim", "sandbox=userns"]);
    with_secret_key_ring(&mut c);
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    assert_victim_unharmed(&journal(&work.join("userns/journal.jsonl")));
    let lines = attack_lines_under(&work.join("userns"));
    assert_blocked(
        &lines,
        &["keyring-session", "keyring-memo", "keyring-write"],
    );
    scene.assert_clean("after the userns match");
}

#[test]
fn no_engine_can_type_into_the_arenas_terminal_at_any_level() {
    let scene = Scene::new("tty", 62140);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    // A terminal of the test's own, the arena's controlling terminal, in raw mode so that
    // any byte typed into it can be read back at once.
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty fills two descriptors we own; tcgetattr/tcsetattr on the slave.
    unsafe {
        assert_eq!(
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null()
            ),
            0
        );
        let mut t: libc::termios = std::mem::zeroed();
        libc::tcgetattr(slave, &mut t);
        libc::cfmakeraw(&mut t);
        libc::tcsetattr(slave, libc::TCSANOW, &t);
        libc::fcntl(slave, libc::F_SETFL, libc::O_NONBLOCK);
    }
    let typed = |slave: i32| -> Vec<u8> {
        let mut buf = [0u8; 4096];
        // SAFETY: a read into a local buffer.
        let n = unsafe { libc::read(slave, buf.as_mut_ptr().cast(), buf.len()) };
        buf[..n.max(0) as usize].to_vec()
    };
    // The control: a process whose controlling terminal this is can type into it (the
    // test is root, which may always), and the check below sees it.
    // SAFETY: ioctl on our own descriptor.
    unsafe {
        libc::ioctl(slave, libc::TIOCSTI, c"z".as_ptr());
    }
    assert_eq!(typed(slave), b"z", "the control keystroke was not seen");
    for level in ["on", "limits", "off"] {
        let mut c = scene.arena_match(
            2,
            &[
                vec![
                    format!("cmd={}", hostile.display()),
                    "name=hostile".into(),
                    format!("sandbox={level}"),
                    "env.ATTACKS=tty".into(),
                    format!("env.MARKER={}", scene.marker),
                ],
                engine(&victim, "victim", &[&format!("sandbox={level}")]),
            ],
        );
        c.args(["--out", level]);
        use std::os::unix::process::CommandExt;
        // SAFETY: only system calls between fork and exec.
        unsafe {
            c.pre_exec(move || {
                if libc::setsid() < 0 || libc::ioctl(slave, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = run(c, Duration::from_secs(120));
        assert!(out.status.success(), "{}", text(&out));
        assert_victim_unharmed(&journal(&scene.path().join(level).join("journal.jsonl")));
        let lines = attack_lines_under(&scene.path().join(level));
        assert_blocked(&lines, &["tty"]);
        let got = typed(slave);
        assert!(
            got.is_empty(),
            "at {level}, something was typed into the terminal: {:?}",
            String::from_utf8_lossy(&got)
        );
    }
    // SAFETY: closing our own descriptors.
    unsafe {
        libc::close(master);
        libc::close(slave);
    }
    scene.assert_clean("after the matches");
}

#[test]
fn the_kernel_surface_is_filtered_and_a_lying_bot_is_a_crash() {
    let scene = Scene::new("kernel", 62150);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, |t| t);
    let marker = format!("env.MARKER={}", scene.marker);
    for level in ["on", "limits"] {
        let (records, lines) = scene.level_match(level, "kernel,ipc", |_| {});
        for r in &records {
            assert_eq!(
                r["termination"]["kind"], "normal",
                "a probe ended a game: {r}"
            );
        }
        assert_blocked(
            &lines,
            &[
                "io_uring",
                "unshare",
                "perf",
                "bpf",
                "ptrace-self",
                "ipc-find",
                "mq-find",
            ],
        );
        for probe in [
            "io_uring_setup",
            "unshare(CLONE_NEWUSER)",
            "perf_event_open",
        ] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.contains(probe) && l.contains("Operation not permitted")),
                "at {level}, {probe} was not refused by the filter: {lines:?}"
            );
        }
        if level == "limits" {
            // No IPC namespace at this level: creating an object is refused outright.
            assert!(
                lines
                    .iter()
                    .filter(
                        |l| l.starts_with("ATTACK ipc-create") || l.starts_with("ATTACK mq-create")
                    )
                    .all(|l| l.contains("Operation not permitted")),
                "{lines:?}"
            );
        }
        scene.assert_clean(&format!("after the {level} match"));
    }
    // A bot that prints what a limit would print and exits: a crash, its own fault.
    let mut c = scene.arena_match(
        2,
        &[
            engine(&hostile, "hostile", &["env.ATTACKS=lie", &marker]),
            engine(&victim, "victim", &[]),
        ],
    );
    c.args(["--out", "lie"]);
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = journal(&scene.path().join("lie/journal.jsonl"));
    assert_victim_unharmed(&records);
    let faults = faults_of_hostile(&records);
    assert_eq!(faults.len(), 2, "{records:?}");
    for (kind, _) in faults {
        assert_eq!(kind, "crash", "{records:?}");
    }
    scene.assert_clean("after the lying bot");
}

#[test]
fn a_submission_named_like_python_runs_only_in_its_box_and_sees_only_itself() {
    let scene = Scene::new("pyname", 62160);
    let hostile = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile_bot.py"),
    )
    .unwrap()
    .replace(
        "ENV = os.environ",
        &format!(
            "ENV = dict(os.environ, ATTACKS='rootcheck,siblings', MARKER='{}')",
            scene.marker
        ),
    );
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/tictactoe_bot.py"),
    )
    .unwrap();
    let bots = scene.path().join("bots");
    std::fs::create_dir(&bots).unwrap();
    std::fs::set_permissions(&bots, std::fs::Permissions::from_mode(0o755)).unwrap();
    for (name, text, mode) in [
        ("python_bot", &hostile, 0o755),
        ("python3", &hostile, 0o755),
        ("bob.py", &good, 0o644),
    ] {
        std::fs::write(bots.join(name), text).unwrap();
        std::fs::set_permissions(bots.join(name), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    std::fs::create_dir(bots.join("carol")).unwrap();
    std::fs::write(bots.join("carol/bot.py"), &good).unwrap();
    let ran_as_root = scene.path().join("never");
    let root_marks = || -> Vec<PathBuf> {
        std::fs::read_dir("/tmp")
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().contains("-ran-as-root"))
            .filter(|p| p.to_string_lossy().contains(&scene.marker))
            .chain(Some(ran_as_root.clone()).filter(|p| p.exists()))
            .collect()
    };
    // grade
    let reports = grade(&scene, &bots, "graded");
    for name in ["python_bot", "python3"] {
        assert!(
            reports
                .iter()
                .any(|r| r["student"] == name && r["status"] == "graded"),
            "{name} was not graded: {reports:?}"
        );
    }
    // match and check, boxed
    let mut c = scene.arena_match(
        2,
        &[
            engine(&bots.join("python_bot"), "hostile", &[]),
            engine(&bots.join("carol/bot.py"), "victim", &[]),
        ],
    );
    c.args(["--out", "matched"]);
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let mut c = Command::new(arena());
    c.current_dir(scene.path())
        .env(
            "ARENA_SANDBOX_UIDS",
            format!("{}-{}", scene.uids().start(), scene.uids().end()),
        )
        .args(["check", "--sandbox", "on", "--game", "tictactoe", "--"])
        .arg(bots.join("python3"));
    let checked = run(c, Duration::from_secs(120));
    assert!(root_marks().is_empty(), "ran as root: {:?}", root_marks());
    // In grade a file submission sees its own file only; in a match the user's `cmd=`
    // names the engine, and its folder is the engine's (README: dir= or the program's
    // folder), so only the root check applies there.
    assert_blocked(
        &attack_lines_under(&scene.path().join("graded")),
        &["rootcheck", "siblings"],
    );
    let mut lines = attack_lines_under(&scene.path().join("matched"));
    lines.extend(
        text(&checked)
            .lines()
            .filter(|l| l.starts_with("ATTACK"))
            .map(String::from),
    );
    let lines: Vec<String> = lines
        .into_iter()
        .filter(|l| l.starts_with("ATTACK rootcheck"))
        .collect();
    assert_blocked(&lines, &["rootcheck"]);
    scene.assert_clean("after grading, matching and checking");
}

/// The victim's reported nps for each of its searched moves, keyed by game and ply.
fn victim_speeds(journal_path: &Path) -> Vec<((u64, u64), u64)> {
    let mut out = Vec::new();
    for r in journal(journal_path) {
        let kind = r["termination"]["kind"].as_str().unwrap();
        assert!(kind == "normal" || kind == "adjudication", "{r}");
        let side = if r["p1"]["name"] == "victim" {
            "p1"
        } else {
            "p2"
        };
        for m in r["moves"].as_array().unwrap() {
            if m["side"] == side && m["book"] != true {
                // The CPU time of each move is journalled beside its wall time.
                assert!(m["cpu_ms"].as_f64().is_some(), "{m}");
                let key = (r["game"].as_u64().unwrap(), m["ply"].as_u64().unwrap());
                out.push((key, m["nps"].as_u64().unwrap()));
            }
        }
    }
    out
}

/// The median of the victim's per-move speed ratios against `other` and against `base`,
/// the same moves of the same games paired.
fn paired_ratio(base: &[((u64, u64), u64)], other: &[((u64, u64), u64)]) -> (f64, usize) {
    let mut ratios: Vec<f64> = other
        .iter()
        .filter_map(|(k, n)| {
            let (_, b) = base.iter().find(|(bk, _)| bk == k)?;
            Some(*n as f64 / *b as f64)
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    (
        ratios.get(ratios.len() / 2).copied().unwrap_or(0.0),
        ratios.len(),
    )
}

#[test]
fn a_spinning_opponent_steals_no_cpu() {
    let scene = Scene::new("theft", 62170);
    // Both players are agon in boxes of their own; the attacker starts four processes
    // that spin for the whole game, the idle one does not. The attacker's box is
    // suspended while the victim is on move, so the victim searches as fast as against
    // the idle one. Both play deterministically (the victim a fixed number of nodes a
    // move, the opponent a fixed depth), so every match plays the same games and the
    // victim's speed is compared move by move; the three opponents take turns, twice,
    // so that the machine's own drift falls on all of them.
    let make = |name: &str, spinners: u32| -> PathBuf {
        let folder = scene.path().join(name);
        std::fs::create_dir(&folder).unwrap();
        std::fs::copy(agon(), folder.join("agon")).unwrap();
        let spin = "(while :; do :; done) &\n".repeat(spinners as usize);
        let run = folder.join("run");
        std::fs::write(&run, format!("#!/bin/sh\n{spin}exec ./agon \"$@\"\n")).unwrap();
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        run
    };
    let victim = make("victim", 0);
    let idle = make("idle", 0);
    let spinner = make("spinner", 4);
    let opponents = [
        ("idle", &idle, "suspend=on"),
        ("spinning", &spinner, "suspend=on"),
        ("spinning-unsuspended", &spinner, "suspend=off"),
    ];
    let mut speeds: Vec<Vec<((u64, u64), u64)>> = vec![Vec::new(); 3];
    for round in 0..2u64 {
        for (i, (label, opponent, suspend)) in opponents.iter().enumerate() {
            let out = format!("{label}-{round}");
            let mut c = arena_match(scene.path(), &scene.marker);
            c.env(
                "ARENA_SANDBOX_UIDS",
                format!("{}-{}", scene.uids().start(), scene.uids().end()),
            )
            .args([
                "--game",
                "mnk m=9 n=9 k=5",
                "--games",
                "2",
                "--max-plies",
                "30",
            ])
            .args(["--openings", "random:2", "--seed", &(3 + round).to_string()])
            .args(["--concurrency", "1", "--out", &out, "--engine"])
            .arg(format!("cmd={}", victim.display()))
            .args([
                "name=victim",
                "sandbox=on",
                "nodes=300000",
                "option.Hash=16",
            ])
            .arg("--engine")
            .arg(format!("cmd={}", opponent.display()))
            .args([
                "name=opponent",
                "sandbox=on",
                "depth=4",
                "option.Hash=16",
                suspend,
            ]);
            let result = run(c, Duration::from_secs(300));
            assert!(result.status.success(), "{}", text(&result));
            let found = victim_speeds(&scene.path().join(&out).join("journal.jsonl"));
            speeds[i].extend(
                found
                    .into_iter()
                    .map(|((game, ply), nps)| ((round * 1000 + game, ply), nps)),
            );
        }
    }
    let (suspended, moves) = paired_ratio(&speeds[0], &speeds[1]);
    let (unsuspended, _) = paired_ratio(&speeds[0], &speeds[2]);
    let median = |v: &[((u64, u64), u64)]| {
        let mut n: Vec<u64> = v.iter().map(|x| x.1).collect();
        n.sort_unstable();
        n[n.len() / 2]
    };
    eprintln!(
        "victim's median nps over {moves} paired moves: idle opponent {}, spinning opponent \
         suspended {} ({:.1}% move by move), spinning opponent not suspended {} ({:.1}%)",
        median(&speeds[0]),
        median(&speeds[1]),
        suspended * 100.0,
        median(&speeds[2]),
        unsuspended * 100.0
    );
    assert!(moves >= 40, "too few paired moves: {moves}");
    assert!(
        suspended >= 0.9,
        "the suspended spinning opponent cut the victim's speed to {:.1}%",
        suspended * 100.0
    );
    scene.assert_clean("after the matches");
}

#[test]
fn userns_boxes_keep_their_process_limits_apart() {
    let scene = Scene::new("usernproc", 62180);
    let hostile = scene.bot("hostile", true, |t| t);
    let victim = scene.bot("victim", false, threaded);
    let (mut c, work) = as_user(&scene, "userns");
    c.args(["--games", "4", "--engine"])
        .arg(format!("cmd={}", hostile.display()))
        .args([
            "name=hostile",
            "sandbox=userns",
            "env.ATTACKS=hold",
            "env.HOLD=22",
            "nproc=32",
        ])
        .arg("--engine")
        .arg(format!("cmd={}", victim.display()))
        .args(["name=victim", "sandbox=userns", "nproc=32"]);
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    for r in journal(&work.join("userns/journal.jsonl")) {
        assert_eq!(r["termination"]["kind"], "normal", "{r}");
    }
    scene.assert_clean("after the match");
}

#[test]
fn affinity_pins_each_engine_to_a_core_of_its_own_or_is_refused() {
    let scene = Scene::new("affinity", 62190);
    let a = scene.bot("a", true, |t| t);
    let b = scene.bot("b", true, |t| t);
    let cores = arena::sandbox::usable_cores();
    assert!(
        cores.len() >= 2,
        "this test needs two cores to pin two engines, the machine gives {cores:?}"
    );
    let spec = |bot: &Path, name: &str| {
        vec![
            format!("cmd={}", bot.display()),
            format!("name={name}"),
            "sandbox=on".to_string(),
            "env.ATTACKS=affinity".to_string(),
        ]
    };
    let mut c = scene.arena_match(2, &[spec(&a, "a"), spec(&b, "b")]);
    c.arg("--affinity");
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    for (name, core) in [("a", cores[0]), ("b", cores[1])] {
        let lines = scene.attack_lines(name);
        assert!(!lines.is_empty(), "{name} said nothing");
        for l in &lines {
            assert!(
                l.ends_with(&format!("cores {core}")),
                "{name} should run on core {core} alone: {l}"
            );
        }
    }
    // One game more at once than there are pairs of cores: refused, with the fix.
    let too_many = cores.len() / 2 + 1;
    let mut c = arena_match(scene.path(), &scene.marker);
    c.args(["--game", "tictactoe", "--affinity", "--out", "many"])
        .args(["--concurrency", &too_many.to_string()])
        .arg("--engine")
        .args(spec(&a, "a"))
        .arg("--engine")
        .args(spec(&b, "b"));
    let out = run(c, Duration::from_secs(60));
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("--affinity with --concurrency {too_many} needs")),
        "{}",
        text(&out)
    );
    scene.assert_clean("after the matches");
}

#[test]
fn a_first_line_naming_a_secret_folder_binds_nothing() {
    let scene = Scene::new("shebang", 62200);
    // A folder the engine must never see, holding a file it would like to read.
    let secret = scene.path().join("secret");
    std::fs::create_dir(&secret).unwrap();
    std::fs::write(secret.join("key.txt"), "teacher-only").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o700)).unwrap();
    let bot = scene.path().join("eve");
    std::fs::create_dir(&bot).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    // An executable whose `#!` line names a program in the secret folder: an arena that
    // followed it would bind that folder into the box.
    let run_file = bot.join("run");
    std::fs::write(
        &run_file,
        format!("#!{}/python3\nprint('hello')\n", secret.display()),
    )
    .unwrap();
    std::fs::set_permissions(&run_file, std::fs::Permissions::from_mode(0o755)).unwrap();
    let victim = scene.bot("victim", false, |t| t);
    let c = scene.arena_match(
        2,
        &[
            engine(&run_file, "hostile", &[]),
            engine(&victim, "victim", &[]),
        ],
    );
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let records = scene.journal();
    assert_victim_unharmed(&records);
    for r in &records {
        let detail = r["termination"]["detail"].as_str().unwrap_or("");
        assert_eq!(r["termination"]["kind"], "crash", "{r}");
        assert!(
            detail.contains("which is not in the box") && detail.contains("python="),
            "the refusal should say why and what to do: {r}"
        );
    }
    scene.assert_clean("after the match");
}
