//! `scripts/slurm-tournament.sh` on a real Slurm (issue 24): a single-node cluster on
//! this machine (`scripts/slurm-cluster.sh start`, run here if no cluster answers), the
//! script submitted as a job array with `sbatch`, the shards merged with `arena merge`
//! into standings equal to one local run's with the same seed; then a shard's job
//! cancelled mid-run with `scancel`, requeued with `scontrol requeue`, resuming from its
//! own journal, the same shard started a second time meanwhile and refused by the
//! output lock; then the node failing (set DOWN) mid-shard and Slurm requeueing the
//! tasks by itself (`#SBATCH --requeue`); the merged standings still equal.
//!
//! The cluster has no accounting database (no `sacct`): jobs are waited for with
//! `squeue` and their ends read with `scontrol show job`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{agon, arena, run, text};
use serde_json::Value;

/// Deterministic at fixed depths, and ~50 ms a game: long enough to cancel a shard in
/// the middle, short enough for CI.
const GAME: &str = "clobber rows=4 cols=5";
/// 3 engines, 3 pairings, 2 games a pairing a round: 720 games, 240 a shard (a few
/// seconds each at one game at a time).
const ROUNDS: &str = "120";
const GAMES: u64 = 720;
const SHARDS: u64 = 3;
const SEED: &str = "11";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

struct Log(Instant);

impl Log {
    fn say(&self, what: &str) {
        eprintln!(
            "[slurm test {:6.1} s] {what}",
            self.0.elapsed().as_secs_f64()
        );
    }
}

/// A Slurm client command's output; panics with its stderr when it fails.
fn slurm(words: &[&str]) -> String {
    let out = Command::new(words[0])
        .args(&words[1..])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {words:?}: {e}"));
    assert!(out.status.success(), "{words:?}: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The node's state as `sinfo` sees it, `None` when no controller answers.
fn node_state() -> Option<String> {
    let out = Command::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .ok()?;
    let state = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !state.is_empty()).then_some(state)
}

fn ensure_cluster(log: &Log) {
    if let Some(state) = node_state().filter(|s| ["idle", "mixed", "allocated"].contains(&&**s)) {
        log.say(&format!("Slurm cluster running, node {state}"));
        return;
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    assert!(
        root,
        "no Slurm cluster is running and this test is not root, so it cannot start one: run `sudo scripts/slurm-cluster.sh start` first"
    );
    log.say("no Slurm cluster answers: running scripts/slurm-cluster.sh start");
    let mut start = Command::new(repo().join("scripts/slurm-cluster.sh"));
    start.arg("start");
    let out = run(start, Duration::from_secs(600));
    assert!(
        out.status.success(),
        "scripts/slurm-cluster.sh start failed: {}",
        text(&out)
    );
    log.say(&format!("Slurm cluster started: {}", node_state().unwrap()));
}

/// Cancels the jobs a test submitted when it ends, so a failed run leaves nothing in the
/// queue playing into a deleted folder.
struct Submitted(Vec<String>);

impl Drop for Submitted {
    fn drop(&mut self) {
        for job in &self.0 {
            let _ = Command::new("scancel").arg(job).output();
        }
    }
}

/// Submits the job array `--array=ARRAY` from `dir` (with `SHARDS` in its environment, or
/// leaving the script to take the array's task count); its job id.
fn submit(dir: &Path, out: &str, array: &str, shards_env: bool) -> String {
    let script = repo().join("scripts/slurm-tournament.sh");
    let mut c = Command::new("sbatch");
    c.current_dir(dir)
        .args([
            "--parsable",
            &format!("--array={array}"),
            "--cpus-per-task=1",
        ])
        .arg(format!("--chdir={}", dir.display()))
        .arg(&script)
        .args(["t.json", out, "--rounds", ROUNDS])
        .env("SEED", SEED)
        .env("ARENA", arena());
    if shards_env {
        c.env("SHARDS", SHARDS.to_string());
    } else {
        c.env_remove("SHARDS");
    }
    let out = run(c, Duration::from_secs(30));
    assert!(out.status.success(), "sbatch: {}", text(&out));
    let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    // --parsable prints "jobid" or "jobid;cluster".
    id.split(';').next().unwrap().to_string()
}

/// `(task, state, exit code, restarts)` of every task of array job `job`.
fn tasks(job: &str) -> Vec<(u64, String, String, u64)> {
    let text = slurm(&["scontrol", "-o", "show", "job", job]);
    let mut tasks: Vec<(u64, String, String, u64)> = text
        .lines()
        .map(|line| {
            let field = |key: &str| {
                line.split_whitespace()
                    .find_map(|w| w.strip_prefix(&format!("{key}=")))
                    .unwrap_or_else(|| panic!("no {key} in: {line}"))
                    .to_string()
            };
            (
                // A pending remainder of an array reads "2-3": not one task yet.
                field("ArrayTaskId").parse().unwrap_or(0),
                field("JobState"),
                field("ExitCode"),
                field("Restarts").parse().unwrap_or(0),
            )
        })
        .collect();
    tasks.sort();
    tasks
}

/// The Slurm output files in `dir`, for failure messages.
fn outputs(dir: &Path) -> String {
    let mut all = String::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "out"))
        .collect();
    names.sort();
    for p in names {
        all += &format!(
            "--- {}\n{}",
            p.display(),
            std::fs::read_to_string(&p).unwrap_or_default()
        );
    }
    all
}

/// Waits until `until` holds, polling every 50 ms, or fails after `limit` with `what`
/// and the jobs' states and outputs.
fn wait(dir: &Path, job: &str, limit: Duration, what: &str, mut until: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !until() {
        if Instant::now() > deadline {
            panic!(
                "timed out after {limit:?} waiting for {what}\nsqueue:\n{}\nscontrol show job {job}:\n{}\n{}",
                slurm(&["squeue"]),
                slurm(&["scontrol", "show", "job", job]),
                outputs(dir)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether any task of `job` is still pending or running.
fn in_queue(job: &str) -> bool {
    !slurm(&["squeue", "-h", "-j", job, "-o", "%i"])
        .trim()
        .is_empty()
}

/// Waits before letting a requeued task start at once. slurmd revokes a killed job's
/// credential with a time stamp in whole seconds and refuses a launch of the same job id
/// in that second ("Job credential revoked": the task then FAILS instead of running),
/// which is what the requeue's BeginTime delay avoids.
fn settle() {
    std::thread::sleep(Duration::from_secs(2));
}

/// Whether no process holds the lock file `lock` (the arena that held it has ended).
fn lock_free(lock: &Path) -> bool {
    std::fs::File::open(lock).is_ok_and(|f| f.try_lock().is_ok())
}

fn journal_games(path: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str::<Value>(l).ok()?["game"].as_u64())
        .collect()
}

fn journals(dir: &Path, out: &str) -> Vec<PathBuf> {
    (1..=SHARDS)
        .map(|k| dir.join(format!("{out}/tournament-{k}-of-{SHARDS}.jsonl")))
        .collect()
}

fn standings(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("standings file"))
        .expect("standings JSON")
}

/// `arena merge` of `out`'s shards into `file` (of those that have a journal yet: a task
/// still pending has none); its stdout.
fn merge(dir: &Path, out: &str, file: &str) -> String {
    let mut c = Command::new(arena());
    c.current_dir(dir)
        .arg("merge")
        .args(journals(dir, out).into_iter().filter(|j| j.exists()))
        .args(["--standings", file]);
    let done = run(c, Duration::from_secs(30));
    assert!(done.status.success(), "arena merge: {}", text(&done));
    String::from_utf8_lossy(&done.stdout).into_owned()
}

fn assert_all_completed(job: &str, dir: &Path) {
    let tasks = tasks(job);
    assert_eq!(tasks.len() as u64, SHARDS, "{tasks:?}");
    for (k, state, exit, _) in &tasks {
        assert!(
            state == "COMPLETED" && exit == "0:0",
            "task {k}: {state} {exit}\n{}",
            outputs(dir)
        );
    }
}

/// One test at a time on the one-node cluster: the tournament test times its cancels.
static CLUSTER: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn job_array_on_slurm_merges_to_the_standings_of_one_run() {
    let _cluster = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let log = Log(Instant::now());
    ensure_cluster(&log);
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let mut submitted = Submitted(Vec::new());
    let engines: Vec<Value> = (1..=3)
        .map(|d| serde_json::json!({"name": format!("d{d}"), "cmd": agon(), "depth": d}))
        .collect();
    std::fs::write(
        dir.join("t.json"),
        serde_json::json!({"game": GAME, "engines": engines}).to_string(),
    )
    .unwrap();

    // The single local run.
    let mut single = Command::new(arena());
    single.current_dir(dir).args([
        "tournament",
        "--config",
        "t.json",
        "--out",
        "single",
        "--rounds",
        ROUNDS,
        "--seed",
        SEED,
        "--concurrency",
        "2",
        "--no-progress",
    ]);
    let out = run(single, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    let expected = standings(&dir.join("single/standings.json"));
    assert_eq!(expected["standings"]["games"], GAMES);
    log.say(&format!("single local run: {GAMES} games, seed {SEED}"));

    // The job array.
    let job = submit(dir, "sharded", &format!("1-{SHARDS}"), false);
    submitted.0.push(job.clone());
    log.say(&format!(
        "job array {job} submitted: sbatch --array=1-{SHARDS} scripts/slurm-tournament.sh t.json sharded --rounds {ROUNDS}"
    ));
    wait(dir, &job, Duration::from_secs(120), "the job array", || {
        !in_queue(&job)
    });
    assert_all_completed(&job, dir);
    let logs = outputs(dir);
    for k in 1..=SHARDS {
        assert!(
            logs.contains(&format!(
                "agon-tournament: shard {k}/{SHARDS} of t.json into sharded, job {job}_{k}"
            )),
            "{logs}"
        );
        assert!(
            dir.join(format!("slurm-agon-tournament-{job}_{k}.out"))
                .is_file(),
            "{logs}"
        );
    }
    log.say(&format!(
        "job array {job} finished: {SHARDS} tasks COMPLETED, exit 0:0"
    ));
    let merged = merge(dir, "sharded", "merged.json");
    assert!(
        merged.contains(&format!("Merged {GAMES} of {GAMES} scheduled games")),
        "{merged}"
    );
    log.say(&format!("merged {SHARDS} shards: {GAMES} of {GAMES} games"));
    assert_eq!(standings(&dir.join("merged.json")), expected);
    log.say("merged standings equal the single run's");

    // A shard cancelled mid-run, requeued, resuming from its own journal.
    let job = submit(dir, "requeued", &format!("1-{SHARDS}"), true);
    submitted.0.push(job.clone());
    log.say(&format!("job array {job} submitted"));
    let shard2 = &journals(dir, "requeued")[1];
    let task = format!("{job}_2");
    wait(
        dir,
        &job,
        Duration::from_secs(120),
        "shard 2 to finish 3 games",
        || journal_games(shard2).len() >= 3,
    );
    slurm(&["scancel", &task]);
    wait(
        dir,
        &job,
        Duration::from_secs(60),
        "the cancelled task to end",
        || tasks(&job).iter().any(|t| t.0 == 2 && t.1 == "CANCELLED"),
    );
    let lock = dir.join("requeued/.arena-shard-2-of-3.lock");
    wait(
        dir,
        &job,
        Duration::from_secs(60),
        "the cancelled arena to end",
        || lock_free(&lock),
    );
    let kept = journal_games(shard2).len() as u64;
    assert!(
        (3..GAMES / SHARDS).contains(&kept),
        "the cancel came in the middle of the shard: {kept} of {} games kept",
        GAMES / SHARDS
    );
    log.say(&format!(
        "task {task} cancelled (scancel) mid-run: {kept} of {} games in its journal",
        GAMES / SHARDS
    ));
    let partial = merge(dir, "requeued", "partial.json");
    log.say(&format!(
        "partial merge while shards run: {}",
        partial.lines().next().unwrap_or("")
    ));
    slurm(&["scontrol", "requeue", &task]);
    // A requeued job waits ~2 minutes (its BeginTime) before it may start again; let it
    // start now (but not within the second its last run ended: see settle()).
    settle();
    slurm(&[
        "scontrol",
        "update",
        &format!("jobid={task}"),
        "StartTime=now",
    ]);
    log.say(&format!(
        "task {task} requeued (scontrol requeue; StartTime=now)"
    ));
    let task_log = dir.join(format!("slurm-agon-tournament-{task}.out"));
    wait(
        dir,
        &job,
        Duration::from_secs(120),
        "the requeued task to resume",
        || {
            std::fs::read_to_string(&task_log)
                .unwrap_or_default()
                .contains("Resuming:")
        },
    );
    let task_text = std::fs::read_to_string(&task_log).unwrap();
    assert!(
        task_text.contains(&format!(
            "Resuming: {kept} games already in requeued/tournament-2-of-3.jsonl, {} to play",
            GAMES / SHARDS - kept
        )),
        "{task_text}"
    );
    assert!(
        task_text.contains(&format!("job {task}, restart 1, on ")),
        "{task_text}"
    );
    log.say(&format!(
        "task {task} resumed from its journal: {kept} games kept"
    ));

    // The same shard a second time while the requeued task plays it: refused.
    let holder: Value =
        serde_json::from_str(std::fs::read_to_string(&lock).unwrap().trim()).unwrap();
    let mut twice = Command::new(arena());
    twice.current_dir(dir).args([
        "tournament",
        "--config",
        "t.json",
        "--out",
        "requeued",
        "--rounds",
        ROUNDS,
        "--seed",
        SEED,
        "--shard",
        "2/3",
        "--no-progress",
    ]);
    let refused = run(twice, Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(
        stderr.contains(&format!(
            "requeued is in use by another arena: pid {} on {}",
            holder["pid"],
            holder["host"].as_str().unwrap()
        )) && stderr.contains("--shard 2/3"),
        "{stderr}"
    );
    assert!(
        in_queue(&task),
        "the task still ran when the second copy was refused"
    );
    log.say(&format!(
        "shard 2/3 started a second time while task {task} runs it: refused ({})",
        stderr.trim()
    ));

    // The node fails while task 2 (and whichever others run) plays: Slurm kills the
    // running tasks and, as the script asks (--requeue), requeues them by itself.
    wait(
        dir,
        &job,
        Duration::from_secs(60),
        "the requeued task to play 3 more games",
        || journal_games(shard2).len() as u64 >= kept + 3,
    );
    let before = journal_games(shard2).len();
    let node = slurm(&["sinfo", "-h", "-N", "-o", "%N"]).trim().to_string();
    slurm(&[
        "scontrol",
        "update",
        &format!("nodename={node}"),
        "state=down",
        "reason=agon-slurm-test",
    ]);
    wait(
        dir,
        &job,
        Duration::from_secs(60),
        "the node failure to requeue task 2",
        || tasks(&job).iter().any(|t| t.0 == 2 && t.3 == 2) && lock_free(&lock),
    );
    let cut = journal_games(shard2).len();
    assert!(
        cut < (GAMES / SHARDS) as usize,
        "the node failed in the middle of shard 2: {cut} games"
    );
    log.say(&format!(
        "node {node} set DOWN (scontrol update state=down) while task {task} ran ({before} games, {cut} when it ended, of {}): Slurm requeued it by itself",
        GAMES / SHARDS
    ));
    // The node comes back (ReturnToService=2 once slurmd answers; resumed if not), and
    // the requeued tasks are let start at once rather than after their BeginTime.
    wait(
        dir,
        &job,
        Duration::from_secs(60),
        "the node to return",
        || {
            if node_state().as_deref() == Some("down") {
                let _ = Command::new("scontrol")
                    .args(["update", &format!("nodename={node}"), "state=resume"])
                    .output();
            }
            node_state().is_some_and(|s| ["idle", "mixed", "allocated"].contains(&&*s))
        },
    );
    settle();
    for k in 1..=SHARDS {
        // A task that had already finished is not pending: scontrol refuses, harmlessly.
        let _ = Command::new("scontrol")
            .args(["update", &format!("jobid={job}_{k}"), "StartTime=now"])
            .output();
    }

    wait(dir, &job, Duration::from_secs(120), "the job array", || {
        !in_queue(&job)
    });
    assert_all_completed(&job, dir);
    let restarts: Vec<u64> = tasks(&job).iter().map(|t| t.3).collect();
    assert_eq!(
        restarts[1], 2,
        "task 2 ran three times (scancel + requeue, node failure): {restarts:?}"
    );
    let task_text = std::fs::read_to_string(&task_log).unwrap();
    assert!(
        task_text.contains("DUE TO NODE FAILURE")
            && task_text.contains(&format!("job {task}, restart 2, on ")),
        "{task_text}"
    );
    assert!(
        task_text.contains(&format!("Resuming: {cut} games already in")),
        "the third run resumed from the journal as the node failure left it: {task_text}"
    );
    let mut games = journal_games(shard2);
    games.sort_unstable();
    games.dedup();
    assert_eq!(
        journal_games(shard2).len(),
        games.len(),
        "no game of shard 2 played twice"
    );
    assert_eq!(games.len() as u64, GAMES / SHARDS);
    // The game the cancel cut short was not journaled as a loss of an engine that
    // scancel's SIGTERM reached first: every game ended normally.
    for path in journals(dir, "requeued") {
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().skip(1) {
            let record: Value = serde_json::from_str(line).unwrap();
            assert_eq!(
                record["termination"]["kind"],
                "normal",
                "{}: {line}",
                path.display()
            );
        }
    }
    log.say(&format!(
        "job array {job} finished: every game of shard 2 once, every game ended normally"
    ));
    merge(dir, "requeued", "merged-requeued.json");
    assert_eq!(standings(&dir.join("merged-requeued.json")), expected);
    log.say("merged standings after cancel, requeue and node failure equal the single run's");
    log.say(&format!(
        "slurm test wall time {:.1} s",
        log.0.elapsed().as_secs_f64()
    ));
}

/// `arena class` on the sample class (issue 52), as a job array of `scripts/slurm-class.sh`
/// and as one local run: the same standings, and the command without `--shard` after the
/// array plays nothing.
#[test]
fn a_class_sharded_on_slurm_gives_the_standings_of_one_run() {
    let _cluster = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let log = Log(Instant::now());
    ensure_cluster(&log);
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    // Sandboxed bots run under their own UID and must be able to walk to their files.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let copy = Command::new("cp")
        .arg("-a")
        .arg(repo().join("examples/class"))
        .arg(dir.join("class"))
        .status()
        .unwrap();
    assert!(copy.success());
    // The job script gives --seed from SEED; the local runs give it themselves.
    let flags = ["--game", "mnk m=5 n=5 k=4", "--references", "random,depth2"];
    let class_run = |out: &str, concurrency: &str| {
        let mut c = Command::new(arena());
        c.current_dir(dir)
            .args(["class", "--bots", "class", "--out", out, "--no-progress"])
            .arg("--agon")
            .arg(agon())
            .args(["--concurrency", concurrency, "--seed", SEED])
            .args(flags);
        let out = run(c, Duration::from_secs(300));
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let single = class_run("single", "2");
    log.say("single local run done");
    let mut submitted = Submitted(Vec::new());
    let mut c = Command::new("sbatch");
    c.current_dir(dir)
        .args([
            "--parsable",
            &format!("--array=1-{SHARDS}"),
            "--cpus-per-task=1",
        ])
        .arg(format!("--chdir={}", dir.display()))
        .arg(repo().join("scripts/slurm-class.sh"))
        .args(["class", "sharded"])
        .args(flags)
        .env("SEED", SEED)
        .env("ARENA", arena())
        .env("AGON", agon())
        .env_remove("SHARDS");
    let out = run(c, Duration::from_secs(30));
    assert!(out.status.success(), "sbatch: {}", text(&out));
    let job = String::from_utf8_lossy(&out.stdout)
        .trim()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    submitted.0.push(job.clone());
    log.say(&format!("class job array {job} submitted"));
    wait(
        dir,
        &job,
        Duration::from_secs(300),
        "the class job array",
        || !in_queue(&job),
    );
    assert_all_completed(&job, dir);
    for k in 1..=SHARDS {
        let journal = dir.join(format!("sharded/class-{k}-of-{SHARDS}.jsonl"));
        assert!(
            std::fs::metadata(&journal).is_ok_and(|m| m.len() > 0),
            "shard {k} played nothing\n{}",
            outputs(dir)
        );
    }
    let merged = class_run("sharded", "2");
    assert!(
        merged.contains("0 played now"),
        "the shards played every game: {merged}"
    );
    let read = |out: &str| std::fs::read_to_string(dir.join(out).join("standings.txt")).unwrap();
    assert_eq!(
        read("sharded"),
        read("single"),
        "single run:\n{single}\nsharded:\n{merged}"
    );
    log.say("sharded standings equal the single run's");
}
