//! The box: every untrusted engine's process tree isolated the way contest judges isolate
//! submissions, and the one place where the arena turns a [`SpawnSpec`] into a command.
//!
//! Levels, strongest first (`sandbox=` in an engine spec, `--sandbox` of `arena grade`):
//! - [`Level::Strict`] (`sandbox=on`): new PID, network, mount, IPC and UTS namespaces and
//!   a new root holding only read-only binds of the system, the engine's own folder and
//!   its interpreter ([`bwrap`]); a UID of its own, leased per box ([`uid`]); one cgroup
//!   per box with memory, process and CPU limits for the whole tree ([`cgroup`]), watched
//!   while it runs; `RLIMIT_FSIZE` for file size. Needs root, bubblewrap and the cgroup
//!   controllers; the arena refuses to start, naming what is missing, rather than run
//!   with less.
//! - [`Level::Userns`]: the same namespaces and file system without root, through an
//!   unprivileged user namespace; the arena's own UID (the namespaces keep boxes apart);
//!   per-process `setrlimit` limits instead of cgroups.
//! - [`Level::Limits`]: no namespaces: `setrlimit`, a fresh private working directory,
//!   Landlock write rules, a clean environment, and (as root) a UID of its own per box.
//!
//! A box lives for one engine process: the arena starts a sandboxed engine afresh for
//! every game, and [`BoxGuard::teardown`] leaves nothing behind (no process, cgroup,
//! directory or namespace). What an arena killed with SIGKILL leaves is removed by the
//! next one: its boxes die with it (`PR_SET_PDEATHSIG`, then the PID namespace), and its
//! cgroups are swept when their UIDs are free again.

pub mod bwrap;
pub mod cgroup;
pub mod freeze;
pub mod landlock;
pub mod seccomp;
pub mod spawn;
pub mod uid;

pub use spawn::{ExitInfo, SpawnSpec};

use std::ffi::CString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tokio::process::Command;

/// How strongly an engine is isolated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Level {
    /// Namespaces, a UID per box, cgroup limits for the whole tree (root only).
    #[default]
    Strict,
    /// Namespaces through a user namespace, per-process limits (no root needed).
    Userns,
    /// Per-process limits, a private directory and Landlock; no namespaces.
    Limits,
}

impl Level {
    /// Reads a `sandbox=` value: `None` for off.
    ///
    /// # Errors
    /// A message naming the accepted values.
    pub fn parse(text: &str) -> Result<Option<Level>, String> {
        match text {
            "on" | "strict" | "1" | "true" => Ok(Some(Level::Strict)),
            "userns" => Ok(Some(Level::Userns)),
            "limits" => Ok(Some(Level::Limits)),
            "off" | "0" | "false" => Ok(None),
            _ => Err(format!(
                "sandbox '{text}': use on (= strict), strict, userns, limits or off"
            )),
        }
    }

    /// The level's name, as `sandbox=` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Strict => "strict",
            Level::Userns => "userns",
            Level::Limits => "limits",
        }
    }
}

/// Isolation and limits for an untrusted engine. A limit left `None` takes the level's
/// default (see [`Sandbox::effective`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sandbox {
    /// How strongly it is isolated.
    pub level: Level,
    /// Memory: of the whole box (`strict`), or address space per process.
    pub memory_bytes: Option<u64>,
    /// CPU time: of the whole box (`strict`), or per process.
    pub cpu_seconds: Option<u64>,
    /// Processes and threads: of the whole box (`strict`), or of the UID.
    pub processes: Option<u64>,
    /// Largest file the engine may write, bytes.
    pub file_bytes: Option<u64>,
    /// CPU cores the box may use at once (`strict`).
    pub cpus: Option<u32>,
    /// More host paths the engine may read (`ro=PATH`), bound at the same path.
    pub read_only: Vec<PathBuf>,
    /// `suspend=off`: `Some(true)` keeps the box running while its opponent is on move
    /// (an engine that thinks on the opponent's time); by default it is suspended.
    pub keep_running: Option<bool>,
}

/// The limits in force, defaults filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    /// Memory, bytes.
    pub memory_bytes: u64,
    /// CPU seconds (`None`: only the game's clock bounds it).
    pub cpu_seconds: Option<u64>,
    /// Processes and threads.
    pub processes: u64,
    /// Largest file, bytes.
    pub file_bytes: u64,
    /// CPU cores at once (strict only).
    pub cpus: u32,
}

impl Sandbox {
    /// A sandbox of `level` with the default limits.
    pub fn new(level: Level) -> Sandbox {
        Sandbox {
            level,
            ..Sandbox::default()
        }
    }

    /// The limits `arena grade` uses for student bots unless told otherwise: a class's
    /// worth (1 GiB, 32 processes, one core, 60 CPU seconds and 16 MiB files per game).
    pub fn for_grading(level: Level) -> Sandbox {
        Sandbox {
            level,
            memory_bytes: Some(1 << 30),
            cpu_seconds: Some(60),
            processes: Some(32),
            file_bytes: Some(16 << 20),
            cpus: Some(1),
            read_only: Vec::new(),
            keep_running: None,
        }
    }

    /// The limits in force: given ones, else 2 GiB, 64 processes, 256 MiB files, one
    /// core, and no CPU-time limit beyond the game's clock.
    pub fn effective(&self) -> Limits {
        Limits {
            memory_bytes: self.memory_bytes.unwrap_or(2 << 30),
            cpu_seconds: self.cpu_seconds,
            processes: self.processes.unwrap_or(64),
            file_bytes: self.file_bytes.unwrap_or(256 << 20),
            cpus: self.cpus.unwrap_or(1),
        }
    }

    /// One line for people: the level and its limits.
    pub fn describe(&self) -> String {
        let l = self.effective();
        let scope = if self.level == Level::Strict {
            "for the whole box"
        } else {
            "per process"
        };
        format!(
            "sandbox {}: memory {} MiB {scope}, {} processes, {}, files up to {} MiB{}",
            self.level.name(),
            l.memory_bytes >> 20,
            l.processes,
            l.cpu_seconds
                .map_or("CPU time bounded by the clock".to_string(), |s| format!(
                    "{s} CPU seconds"
                )),
            l.file_bytes >> 20,
            match self.level {
                Level::Strict => format!(", {} core(s)", l.cpus),
                // The guarantee this level lacks, said where the limits are printed.
                Level::Userns => format!(
                    " (no cgroup without root: a box may use up to {} x {} MiB of memory \
                     in all; processes are counted per box)",
                    l.processes,
                    l.memory_bytes >> 20
                ),
                Level::Limits => String::new(),
            }
        )
    }
}

/// What this machine offers for a level, found once per arena run.
#[derive(Clone, Debug)]
struct Support {
    bwrap: PathBuf,
    layout: Option<cgroup::Layout>,
}

fn euid() -> u32 {
    // SAFETY: no arguments, cannot fail.
    unsafe { libc::geteuid() }
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .chain([PathBuf::from("/usr/bin").join(name)])
        .find(|p| p.is_file())
}

/// Checks that this machine can give every guarantee of `level`.
///
/// # Errors
/// A message naming what the machine lacks and what to do about it.
pub fn require(level: Level) -> Result<(), String> {
    support(level).map(|_| ())
}

fn support(level: Level) -> Result<Support, String> {
    static STRICT: OnceLock<Result<Support, String>> = OnceLock::new();
    static USERNS: OnceLock<Result<Support, String>> = OnceLock::new();
    match level {
        Level::Strict => STRICT.get_or_init(|| probe(Level::Strict)).clone(),
        Level::Userns => USERNS.get_or_init(|| probe(Level::Userns)).clone(),
        Level::Limits => Ok(Support {
            bwrap: PathBuf::new(),
            layout: None,
        }),
    }
}

fn probe(level: Level) -> Result<Support, String> {
    let name = level.name();
    let root = euid() == 0;
    if level == Level::Strict && !root {
        return Err(format!(
            "sandbox={name} needs root (this arena runs as uid {}): it gives every engine a UID \
             of its own and cgroup limits. Without root, use sandbox=userns (namespaces and \
             per-process limits; see docs/security.md)",
            euid()
        ));
    }
    if level == Level::Userns && root {
        return Err(format!(
            "sandbox={name} is for running without root; as root, use sandbox=strict"
        ));
    }
    let bwrap = find_on_path("bwrap").ok_or_else(|| {
        format!("sandbox={name} needs bubblewrap: install it (Debian/Ubuntu: apt-get install bubblewrap)")
    })?;
    let layout = if level == Level::Strict {
        if !Path::new("/usr/bin/setpriv").is_file() {
            return Err(format!(
                "sandbox={name} needs /usr/bin/setpriv (util-linux) to start engines under their own UID"
            ));
        }
        let layout = cgroup::Layout::detect(Path::new("/sys/fs/cgroup"))
            .map_err(|e| format!("sandbox={name} needs cgroup limits: {e}"))?;
        // Groups left by an arena that was killed, whose UIDs nobody holds now.
        for group in cgroup::existing_groups(&layout) {
            if let Some(uid) = group.strip_prefix("uid-").and_then(|u| u.parse().ok()) {
                if uid::is_free(uid) {
                    uid::kill_all_of(uid);
                    if let Err(e) = cgroup::remove_group(&layout, &group) {
                        log::warn!("sandbox: a stale group: {e}");
                    }
                }
            }
        }
        Some(layout)
    } else {
        None
    };
    let support = Support { bwrap, layout };
    self_test(level, &support)?;
    Ok(support)
}

/// Starts one empty box, to find out before any game whether the kernel allows it.
fn self_test(level: Level, support: &Support) -> Result<(), String> {
    let sandbox = Sandbox::new(level);
    let spec = SpawnSpec {
        program: "/bin/true".into(),
        home: Some(PathBuf::from("/usr/bin")),
        sandbox: Some(sandbox),
        ..SpawnSpec::default()
    };
    let (command, guard) = build(&spec, support)
        .map_err(|e| format!("sandbox={}: cannot prepare a box: {e}", level.name()))?;
    let mut command = command.into_std();
    let out = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output();
    if let Some(mut guard) = guard {
        guard.teardown();
    }
    match out {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!(
            "sandbox={}: this machine cannot start a box ({}): {}. Check that user and PID \
             namespaces are allowed (sysctl user.max_user_namespaces, \
             kernel.apparmor_restrict_unprivileged_userns) and that bubblewrap works",
            level.name(),
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Err(format!(
            "sandbox={}: cannot run {}: {e}",
            level.name(),
            support.bwrap.display()
        )),
    }
}

/// A limit an engine broke: `(limit, detail)`, limit one of `memory`, `cpu`,
/// `processes`, `file-size`.
pub type Violation = (&'static str, String);

/// The resources of one box, held while its engine runs.
#[derive(Debug)]
pub struct BoxGuard {
    level: Level,
    limits: Limits,
    group: Option<Arc<cgroup::BoxGroup>>,
    lease: Option<uid::UidLease>,
    private_dir: Option<PathBuf>,
    /// Set by the watcher when it ended the box for a limit.
    seen: Arc<Mutex<Option<Violation>>>,
    watcher: Option<tokio::task::JoinHandle<()>>,
    torn_down: bool,
    /// The box's outermost process (0 before it is started).
    pid: i32,
    /// Whether the box is suspended now.
    frozen: bool,
    /// Never suspended (`suspend=off`).
    keep_running: bool,
    /// The processes stopped by signal, to continue.
    stopped: Vec<i32>,
    /// The read ends of the seccomp pipes, open until bwrap has started.
    seccomp_pipes: Vec<std::os::fd::OwnedFd>,
}

/// How often a running box's counters are read.
const WATCH_EVERY: Duration = Duration::from_millis(50);

impl BoxGuard {
    /// Starts watching the box whose outermost process is `pid`: a limit broken ends the
    /// whole box at once (cgroup v1 has no group OOM kill, and a refused fork or a spent
    /// CPU budget kills nothing by itself).
    pub fn watch(&mut self, pid: i32) {
        self.pid = pid;
        // bwrap has its copies of the seccomp programs now.
        self.seccomp_pipes.clear();
        let Some(group) = self.group.clone() else {
            return;
        };
        let (limits, seen) = (self.limits, Arc::clone(&self.seen));
        self.watcher = Some(tokio::spawn(async move {
            loop {
                tokio::time::sleep(WATCH_EVERY).await;
                if let Some(v) = group_violation(&group, &limits) {
                    *seen.lock().unwrap_or_else(|p| p.into_inner()) = Some(v);
                    // SAFETY: plain syscall on our own child, not reaped before the
                    // guard is torn down.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                    group.kill_all();
                    return;
                }
            }
        }));
    }

    /// A limit the box broke, by its counters alone (what the watcher saw, or sees now).
    pub fn counted_violation(&self) -> Option<Violation> {
        if let Some(v) = self.seen.lock().unwrap_or_else(|p| p.into_inner()).clone() {
            return Some(v);
        }
        group_violation(self.group.as_deref()?, &self.limits)
    }

    /// The memory the box uses now and its limit, bytes (`None` without a cgroup).
    pub fn memory_now(&self) -> Option<(u64, u64)> {
        Some((
            self.group.as_ref()?.counters().memory_now,
            self.limits.memory_bytes,
        ))
    }

    /// The limit the engine's end points to, from evidence the kernel gives only: the
    /// box's counters, then the signal that ended it. What the engine printed never
    /// counts (a bot could print anything).
    pub fn violation(&self, status: Option<ExitInfo>) -> Option<Violation> {
        if let Some(v) = self.counted_violation() {
            return Some(v);
        }
        // bwrap exits with 128 + the signal that killed the engine.
        let status = match status {
            Some(ExitInfo::Code(c)) if self.level != Level::Limits && c > 128 && c < 160 => {
                Some(ExitInfo::Signal(c - 128))
            }
            s => s,
        };
        status_violation(&self.limits, status)
    }

    /// CPU time used so far, nanoseconds: the whole box's (its cgroup's counter), else
    /// its outermost process's with its threads and reaped children (cheap to read every
    /// move, unlike a walk over `/proc`).
    pub fn cpu_ns(&self) -> u64 {
        match &self.group {
            Some(group) => group.counters().cpu_ns,
            None => freeze::process_cpu_ns(self.pid).unwrap_or(0),
        }
    }

    /// The box's processes now, where it has no cgroup: those of its UID (as root),
    /// else its outermost process and its descendants.
    fn members(&self) -> Vec<i32> {
        match &self.lease {
            Some(lease) => uid::processes_of(lease.uid()),
            None => freeze::descendants(self.pid),
        }
    }

    /// Suspends every process of the box (cgroup freezer, else SIGSTOP to each), so that
    /// it uses no CPU while its opponent thinks. Idempotent.
    pub fn suspend(&mut self) {
        if self.frozen || self.keep_running || self.pid <= 0 || self.torn_down {
            return;
        }
        self.frozen = true;
        match &self.group {
            Some(group) if group.can_freeze() => group.freeze(true),
            _ => self.stopped = freeze::stop_all(|| self.members()),
        }
    }

    /// Lets a suspended box run again. Idempotent.
    pub fn resume(&mut self) {
        if !self.frozen {
            return;
        }
        self.frozen = false;
        match &self.group {
            Some(group) if group.can_freeze() => group.freeze(false),
            // Nothing of a stopped box can start a process: those stopped are all.
            _ => freeze::continue_all(&std::mem::take(&mut self.stopped)),
        }
    }

    /// Kills every process of the box at once.
    pub fn kill(&mut self) {
        // A frozen task dies only once thawed (cgroup v1).
        self.resume();
        if let Some(group) = &self.group {
            group.kill_all();
        }
        if let (Some(lease), None) = (&self.lease, &self.group) {
            uid::kill_all_of(lease.uid());
        }
    }

    /// Removes everything the box had: processes, cgroup, private directory, kernel state
    /// of its UID (System V IPC objects), UID lease. Blocks for at most a few ms (up to
    /// 3 s if the kernel is slow to empty a group).
    pub fn teardown(&mut self) {
        if self.torn_down {
            return;
        }
        if let Some(w) = self.watcher.take() {
            w.abort();
        }
        self.kill();
        self.torn_down = true;
        if let Some(group) = &self.group {
            group.remove();
        }
        if let Some(dir) = self.private_dir.take() {
            let _ = std::fs::remove_dir_all(&dir);
            if let Some(parent) = dir.parent() {
                // Only when empty: other engines of this arena may still use it.
                let _ = std::fs::remove_dir(parent);
            }
        }
        if let Some(lease) = &self.lease {
            uid::scrub(lease.uid(), self.group.is_some());
        }
        self.lease = None;
    }
}

impl Drop for BoxGuard {
    fn drop(&mut self) {
        self.teardown();
    }
}

fn group_violation(group: &cgroup::BoxGroup, limits: &Limits) -> Option<Violation> {
    let c = group.counters();
    if c.oom_kills > 0 {
        return Some((
            "memory",
            format!(
                "the box reached its memory limit of {} MiB: the kernel killed {} of its processes",
                limits.memory_bytes >> 20,
                c.oom_kills
            ),
        ));
    }
    if c.pids_refused > 0 {
        return Some((
            "processes",
            format!(
                "the box tried to run more than {} processes and threads ({} refused)",
                limits.processes, c.pids_refused
            ),
        ));
    }
    if let Some(seconds) = limits.cpu_seconds {
        if c.cpu_ns > seconds * 1_000_000_000 {
            return Some((
                "cpu",
                format!(
                    "the box used {:.2} s of CPU time, over its {seconds} s",
                    c.cpu_ns as f64 / 1e9
                ),
            ));
        }
    }
    None
}

/// What the signal that ended an engine says about a limit (per-process limits): the
/// kernel's own signals for CPU time and file size.
fn status_violation(limits: &Limits, status: Option<ExitInfo>) -> Option<Violation> {
    match status {
        Some(ExitInfo::Signal(libc::SIGXCPU)) => Some((
            "cpu",
            format!(
                "killed by SIGXCPU after {} CPU seconds",
                limits.cpu_seconds.unwrap_or(0)
            ),
        )),
        Some(ExitInfo::Signal(libc::SIGXFSZ)) => Some((
            "file-size",
            format!(
                "killed by SIGXFSZ: wrote a file over {} MiB",
                limits.file_bytes >> 20
            ),
        )),
        _ => None,
    }
}

/// The folder (or file) an engine may read as its own: `home` when given, else `dir`, else
/// the folder of the script an interpreter in a system folder runs, else the program's folder.
fn engine_home(spec: &SpawnSpec) -> PathBuf {
    if let Some(home) = spec.home.as_ref().or(spec.dir.as_ref()) {
        return bwrap::absolute(home);
    }
    let program = bwrap::absolute(&spec.program);
    if bwrap::is_system(&program) {
        if let Some(script) = spec.args.first().map(Path::new).filter(|p| p.is_file()) {
            let script = bwrap::absolute(script);
            return script.parent().map_or(script.clone(), Path::to_path_buf);
        }
    }
    program.parent().map_or(program.clone(), Path::to_path_buf)
}

/// What a program named by the user (the arena's command line: `cmd=`, `python=`,
/// `--python`), outside the engine's own folder, needs in the box: the path to run and the
/// folders to bind. Found from the file system alone, never by running anything: the
/// folders of its symbolic-link chain and, for a Python interpreter, the prefix above each
/// `bin` folder of that chain and the base interpreter a virtualenv's `pyvenv.cfg` names.
/// A pyenv shim (a shell script that would not work in a box) is resolved to the
/// interpreter pyenv would choose (`PYENV_VERSION`, `.python-version`, the global
/// `version` file).
///
/// # Errors
/// A program that cannot work in a box, with what to give instead.
fn interpreter_binds(program: &Path) -> Result<(PathBuf, Vec<PathBuf>), String> {
    let program = match pyenv_shim_target(program) {
        Some(found) => found?,
        None => program.to_path_buf(),
    };
    let chain = bwrap::link_chain(&program);
    let python = chain.iter().any(|p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("python"))
    });
    let mut binds = Vec::new();
    for link in &chain {
        let Some(folder) = link.parent() else {
            continue;
        };
        binds.push(folder.to_path_buf());
        if !python || folder.file_name().is_none_or(|n| n != "bin") {
            continue;
        }
        let Some(prefix) = folder.parent() else {
            continue;
        };
        binds.push(prefix.to_path_buf());
        // A virtualenv: `home = /base/bin` in its pyvenv.cfg.
        if let Ok(cfg) = std::fs::read_to_string(prefix.join("pyvenv.cfg")) {
            for line in cfg.lines() {
                let Some((key, value)) = line.split_once('=') else {
                    continue;
                };
                if key.trim() == "home" {
                    let home = bwrap::absolute(Path::new(value.trim()));
                    if home.file_name().is_some_and(|n| n == "bin") {
                        if let Some(base) = home.parent() {
                            binds.push(base.to_path_buf());
                        }
                    }
                    binds.push(home);
                }
            }
        }
    }
    binds.retain(|b| b.as_path() != Path::new("/") && !is_home_root(b));
    Ok((program, binds))
}

/// `/root`, `/home` and `/home/NAME` are never bound whole.
fn is_home_root(path: &Path) -> bool {
    path == Path::new("/root")
        || path == Path::new("/home")
        || (path.starts_with("/home") && path.components().count() == 3)
}

/// The interpreter a pyenv shim stands for: `None` when `program` is no shim.
fn pyenv_shim_target(program: &Path) -> Option<Result<PathBuf, String>> {
    let shims = program.parent()?;
    if shims.file_name()? != "shims" {
        return None;
    }
    let root = shims.parent()?;
    if !root.join("versions").is_dir() {
        return None;
    }
    let name = program.file_name()?;
    let version = std::env::var("PYENV_VERSION").ok().or_else(|| {
        let cwd = std::env::current_dir().ok()?;
        cwd.ancestors()
            .find_map(|d| std::fs::read_to_string(d.join(".python-version")).ok())
            .or_else(|| std::fs::read_to_string(root.join("version")).ok())
    });
    let version = version
        .as_deref()
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or("system")
        .to_string();
    let candidate = root.join("versions").join(&version).join("bin").join(name);
    Some(if candidate.is_file() {
        Ok(candidate)
    } else if version == "system" {
        let fallback = Path::new("/usr/bin").join(name);
        if fallback.is_file() {
            Ok(fallback)
        } else {
            Err(format!(
                "{} is a pyenv shim for the system Python, and /usr/bin has no {}: name an interpreter (python=PATH)",
                program.display(),
                name.to_string_lossy()
            ))
        }
    } else {
        Err(format!(
            "{} is a pyenv shim whose version '{version}' has no {}: name the interpreter itself (python=PATH, for example the output of `pyenv which python3`)",
            program.display(),
            candidate.display()
        ))
    })
}

/// The environment of a sandboxed engine: nothing of the arena's.
fn clean_env(spec: &SpawnSpec, home: &str) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), home.into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
    ];
    if !spec.keep_python_buffered {
        env.push(("PYTHONUNBUFFERED".into(), "1".into()));
    }
    env.extend(spec.env.iter().cloned());
    env
}

/// Everything the child does between fork and exec, prepared before the fork.
struct PreExec {
    parent: libc::pid_t,
    /// A session keyring of its own (boxed engines): the arena's (a login session's
    /// secrets) is not inherited.
    new_keyring: bool,
    cgroup_procs: Vec<CString>,
    rlimits: Vec<(libc::__rlimit_resource_t, u64)>,
    user: Option<u32>,
    landlock: Option<(u64, Vec<CString>)>,
    /// Seccomp programs installed last, just before `exec` (the `limits` level; the
    /// namespaced levels hand them to bwrap).
    seccomp: &'static [seccompiler::BpfProgram],
    /// Descriptors the new program inherits (the seccomp programs bwrap reads): open
    /// with close-on-exec in the arena, so no other child sees them, and cleared here.
    keep_fds: Vec<i32>,
    /// Cores the engine may run on (`--affinity`).
    cpus: Option<libc::cpu_set_t>,
}

impl PreExec {
    fn new(parent: libc::pid_t) -> PreExec {
        PreExec {
            parent,
            new_keyring: false,
            cgroup_procs: Vec::new(),
            rlimits: Vec::new(),
            user: None,
            landlock: None,
            seccomp: &[],
            keep_fds: Vec::new(),
            cpus: None,
        }
    }

    /// Runs in the child. Only async-signal-safe calls: setsid, keyctl, open/write/close,
    /// fcntl, setrlimit, sched_setaffinity, setgroups/setresgid/setresuid, prctl, Landlock
    /// and seccomp system calls.
    fn run(&self) -> io::Result<()> {
        // SAFETY: every call below is a plain system call on memory prepared before the
        // fork that outlives the call.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() != self.parent {
                // The arena died between fork and prctl.
                libc::_exit(1);
            }
            // A session of its own, at every level: no controlling terminal, so no
            // `/dev/tty` to type into (TIOCSTI) and no signal from the arena's terminal.
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            if self.new_keyring {
                const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;
                let rc = libc::syscall(
                    libc::SYS_keyctl,
                    KEYCTL_JOIN_SESSION_KEYRING,
                    std::ptr::null::<libc::c_char>(),
                );
                // A kernel without key management has no key ring to leak.
                if rc < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::ENOSYS) {
                    return Err(io::Error::last_os_error());
                }
            }
            for file in &self.cgroup_procs {
                let fd = libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                if fd < 0 {
                    return Err(io::Error::last_os_error());
                }
                let ok = libc::write(fd, b"0".as_ptr().cast(), 1) == 1;
                let e = io::Error::last_os_error();
                libc::close(fd);
                if !ok {
                    return Err(e);
                }
            }
            for &fd in &self.keep_fds {
                if libc::fcntl(fd, libc::F_SETFD, 0) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if let Some(set) = &self.cpus {
                if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            for &(resource, value) in &self.rlimits {
                let lim = libc::rlimit {
                    rlim_cur: value,
                    rlim_max: value,
                };
                if libc::setrlimit(resource, &lim) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if let Some(uid) = self.user {
                if libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setresgid(uid, uid, uid) != 0
                    || libc::setresuid(uid, uid, uid) != 0
                {
                    return Err(io::Error::last_os_error());
                }
                // The death signal is reset by a credential change.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                if libc::getppid() != self.parent {
                    libc::_exit(1);
                }
            }
        }
        if let Some((rights, paths)) = &self.landlock {
            landlock::restrict_writes(*rights, paths)?;
        }
        if !self.seccomp.is_empty() {
            seccomp::install(self.seccomp)?;
        }
        Ok(())
    }
}

/// A pipe holding `bytes`, its write end closed: the read end, for bwrap to read once.
fn pipe_with(bytes: &[u8]) -> io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills the two descriptors, which we own from here on.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (read, write) = unsafe {
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::fs::File::from_raw_fd(fds[1]),
        )
    };
    // A filter is a few KiB, far below a pipe's 64 KiB: the write never blocks.
    use std::io::Write;
    (&write).write_all(bytes)?;
    drop(write);
    Ok(read)
}

/// The command that starts `spec` (in its box when it has a sandbox), and the box's guard.
///
/// # Errors
/// When the box cannot be prepared (no UID free, a cgroup cannot be made, the machine
/// lacks what the level needs).
pub fn command(spec: &SpawnSpec) -> io::Result<(Command, Option<BoxGuard>)> {
    let support = match &spec.sandbox {
        Some(s) => support(s.level).map_err(io::Error::other)?,
        None => Support {
            bwrap: PathBuf::new(),
            layout: None,
        },
    };
    build(spec, &support)
}

fn build(spec: &SpawnSpec, support: &Support) -> io::Result<(Command, Option<BoxGuard>)> {
    let parent = std::process::id() as libc::pid_t;
    let Some(sandbox) = &spec.sandbox else {
        let mut command = Command::new(&spec.program);
        command.args(&spec.args);
        if spec.keep_python_buffered {
            command.env_remove("PYTHONUNBUFFERED");
        } else {
            command.env("PYTHONUNBUFFERED", "1");
        }
        command.envs(spec.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut pre = PreExec::new(parent);
        pre.cpus = cpu_set(&spec.cpus);
        // SAFETY: PreExec::run only makes async-signal-safe calls.
        unsafe {
            command.pre_exec(move || pre.run());
        }
        return Ok((command, None));
    };
    let limits = sandbox.effective();
    let root = euid() == 0;
    let mut guard = BoxGuard {
        level: sandbox.level,
        limits,
        group: None,
        lease: None,
        private_dir: None,
        seen: Arc::new(Mutex::new(None)),
        watcher: None,
        torn_down: false,
        pid: 0,
        frozen: false,
        keep_running: sandbox.keep_running == Some(true),
        stopped: Vec::new(),
        seccomp_pipes: Vec::new(),
    };
    if root && sandbox.level != Level::Userns {
        let layout = support.layout.clone();
        // What an arena killed earlier may have left under this UID: with cgroups, every
        // process of a box is in its group (it cannot leave it); without, look for it.
        guard.lease = Some(uid::lease(|uid| {
            if let Some(layout) = &layout {
                let _ = cgroup::remove_group(layout, &format!("uid-{uid}"));
            }
            uid::scrub(uid, layout.is_some());
        })?);
    }
    let uid = guard.lease.as_ref().map(uid::UidLease::uid);
    let mut rlimits = vec![
        (libc::RLIMIT_FSIZE, limits.file_bytes),
        (libc::RLIMIT_CORE, 0),
    ];
    if sandbox.level != Level::Strict {
        rlimits.push((libc::RLIMIT_AS, limits.memory_bytes));
        if let Some(s) = limits.cpu_seconds {
            rlimits.push((libc::RLIMIT_CPU, s));
        }
    }
    if sandbox.level == Level::Limits {
        // At `userns` the process limit is set inside the box (see bwrap::Plan): set
        // here, the kernel would count it against every box of the same user at once.
        rlimits.push((libc::RLIMIT_NPROC, limits.processes));
    }
    let mut pre = PreExec::new(parent);
    pre.new_keyring = true;
    pre.rlimits = rlimits;
    pre.cpus = cpu_set(&spec.cpus);
    let command = match sandbox.level {
        Level::Strict | Level::Userns => {
            if let (Some(layout), Some(uid)) = (&support.layout, uid) {
                let group = cgroup::BoxGroup::create(
                    layout,
                    &format!("uid-{uid}"),
                    cgroup::GroupLimits {
                        memory_bytes: Some(limits.memory_bytes),
                        processes: Some(limits.processes),
                        cpus: Some(limits.cpus),
                    },
                )?;
                pre.cgroup_procs = group.procs_files();
                guard.group = Some(Arc::new(group));
            }
            let home = engine_home(spec);
            let mut program = bwrap::absolute(&spec.program);
            // The engine's own file or folder: bound as it is, never through a link.
            if std::fs::symlink_metadata(&home).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(io::Error::other(format!(
                    "{} is a symbolic link: a boxed engine's folder or file must be its own, not a link (it is not followed)",
                    home.display()
                )));
            }
            let mut read_only = vec![home.clone()];
            if !program.starts_with(&home) {
                // A program the user named (an interpreter, an engine beside its `dir=`).
                let (resolved, binds) = interpreter_binds(&program).map_err(io::Error::other)?;
                program = resolved;
                read_only.extend(binds);
            }
            read_only.extend(sandbox.read_only.iter().map(|p| bwrap::absolute(p)));
            // A script's `#!` line is the engine's content, not the user's configuration:
            // its interpreter must be in the box already.
            if let Some(interpreter) = bwrap::shebang(&program) {
                let visible = bwrap::is_system(&interpreter)
                    || read_only.iter().any(|r| interpreter.starts_with(r));
                if !visible {
                    return Err(io::Error::other(format!(
                        "the first line of {} names {}, which is not in the box: a boxed script's #! line must name a system interpreter (such as #!/usr/bin/env python3); in arena match, python=PATH or ro=FOLDER gives it another",
                        program.display(),
                        interpreter.display()
                    )));
                }
            }
            // A program inside the engine's own folder needs nothing more of it.
            let read_only = bwrap::minimal(&read_only);
            let cwd = if home.is_dir() {
                home.clone()
            } else {
                home.parent().map_or_else(|| "/".into(), Path::to_path_buf)
            };
            let mut fds = Vec::new();
            for program in seccomp::programs(seccomp::Profile::Namespaced)? {
                let fd = pipe_with(&seccomp::to_bytes(program))?;
                use std::os::fd::AsRawFd;
                fds.push(fd.as_raw_fd());
                guard.seccomp_pipes.push(fd);
            }
            pre.keep_fds = fds.clone();
            let plan = bwrap::Plan {
                program,
                args: spec.args.clone(),
                cwd,
                read_only,
                env: clean_env(spec, "/tmp"),
                tmpfs_bytes: limits.memory_bytes,
                uid,
                seccomp_fds: fds,
                nproc_inside: (sandbox.level == Level::Userns).then_some(limits.processes),
            };
            let mut command = Command::new(&support.bwrap);
            command.args(bwrap::args(&plan)).env_clear();
            command
        }
        Level::Limits => {
            static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            // The parent is the arena's own (mode 0755): an engine running under another
            // UID cannot create files next to its directory.
            let parent_dir =
                std::env::temp_dir().join(format!("arena-sandbox-{}", std::process::id()));
            std::fs::create_dir_all(&parent_dir)?;
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&parent_dir, std::fs::Permissions::from_mode(0o755))?;
            let dir = parent_dir.join(format!("engine-{n}"));
            std::fs::create_dir_all(&dir)?;
            if let Some(uid) = uid {
                std::os::unix::fs::chown(&dir, Some(uid), Some(uid))?;
            }
            guard.private_dir = Some(dir.clone());
            pre.user = uid;
            let abi = landlock::landlock_abi();
            if abi > 0 {
                use std::os::unix::ffi::OsStrExt;
                // The private directory, and the device files programs write to (never a
                // terminal).
                let allowed: Vec<&std::ffi::OsStr> = [dir.as_os_str()]
                    .into_iter()
                    .chain(["/dev/null", "/dev/zero", "/dev/full"].map(std::ffi::OsStr::new))
                    .collect();
                let paths = allowed
                    .iter()
                    .filter_map(|p| CString::new(p.as_bytes()).ok())
                    .collect();
                pre.landlock = Some((landlock::write_rights(abi), paths));
            }
            pre.seccomp = seccomp::programs(seccomp::Profile::NoNamespaces)?;
            let mut command = Command::new(&spec.program);
            command
                .args(&spec.args)
                .env_clear()
                .envs(clean_env(spec, &dir.to_string_lossy()))
                .current_dir(&dir);
            command
        }
    };
    let mut command = command;
    // SAFETY: PreExec::run only makes async-signal-safe calls.
    unsafe {
        command.pre_exec(move || pre.run());
    }
    Ok((command, Some(guard)))
}

/// A CPU set holding `cores` (`None` when empty: no pinning).
fn cpu_set(cores: &[usize]) -> Option<libc::cpu_set_t> {
    if cores.is_empty() {
        return None;
    }
    // SAFETY: cpu_set_t is plain data; CPU_ZERO and CPU_SET write inside it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_ZERO(&mut set);
        for &c in cores {
            libc::CPU_SET(c, &mut set);
        }
        Some(set)
    }
}

/// The cores this process may run on (its affinity mask), in order.
pub fn usable_cores() -> Vec<usize> {
    // SAFETY: sched_getaffinity fills a cpu_set_t of the size given.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}
