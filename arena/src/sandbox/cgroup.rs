//! One control group per box: memory, processes and CPU limits that hold for the whole
//! process tree of an engine, and the counters that say which limit it hit.
//!
//! Two layouts are supported, found at run time:
//! - **cgroup v1** (separate hierarchies under `/sys/fs/cgroup/{memory,pids,cpu,cpuacct}`,
//!   as on this project's CI machine): `memory.limit_in_bytes` (and
//!   `memory.memsw.limit_in_bytes` where swap accounting exists), `pids.max`,
//!   `cpu.cfs_quota_us`; counters `memory.oom_control` (`oom_kill N`), `pids.events`
//!   (`max N`), `cpuacct.usage` (ns). v1 has no `memory.oom.group`: the OOM killer kills one
//!   process and the rest lives on, so the arena ends the whole box itself when the
//!   `oom_kill` counter moves (kernel documentation, `admin-guide/cgroup-v1/memory.rst`).
//! - **cgroup v2** (one hierarchy with `cgroup.controllers` at `/sys/fs/cgroup`):
//!   `memory.max`, `memory.swap.max`, `pids.max`, `cpu.max`; counters `memory.events`
//!   (`oom_kill N`), `pids.events` (`max N`), `cpu.stat` (`usage_usec N`); `cgroup.kill`
//!   (`admin-guide/cgroup-v2.rst`).
//!
//! Every box group lives under `agon-arena/` and is named after the box's UID
//! (`uid-61000`): the UID lease (see [`super::uid`]) makes the name unique among live
//! arenas, and a group whose lease nobody holds was left by an arena that was killed, so it
//! is removed when its UID is leased again.

use std::ffi::CString;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where the groups of boxes live, under each hierarchy.
const PARENT: &str = "agon-arena";

/// The controllers a box needs, and where they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Separate v1 hierarchies (a controller co-mounted with another appears once).
    V1 {
        /// The memory hierarchy's root.
        memory: PathBuf,
        /// The pids hierarchy's root.
        pids: PathBuf,
        /// The cpuacct hierarchy's root (CPU time used).
        cpuacct: PathBuf,
        /// The cpu hierarchy's root (CPU quota), when mounted.
        cpu: Option<PathBuf>,
        /// The freezer hierarchy's root (suspending a box while its opponent thinks),
        /// when mounted.
        freezer: Option<PathBuf>,
    },
    /// The unified v2 hierarchy's root.
    V2(PathBuf),
}

impl Layout {
    /// The layout of this machine under `root` (normally `/sys/fs/cgroup`).
    ///
    /// # Errors
    /// A sentence naming the missing controller.
    pub fn detect(root: &Path) -> Result<Layout, String> {
        let controllers = std::fs::read_to_string(root.join("cgroup.controllers"));
        if let Ok(list) = controllers {
            // The root itself is a v2 hierarchy.
            let have: Vec<&str> = list.split_whitespace().collect();
            for needed in ["memory", "pids", "cpu"] {
                if !have.contains(&needed) {
                    return Err(format!(
                        "the cgroup v2 hierarchy at {} has no '{needed}' controller (it has: {})",
                        root.display(),
                        list.trim()
                    ));
                }
            }
            return Ok(Layout::V2(root.to_path_buf()));
        }
        let find = |name: &str, file: &str| -> Result<PathBuf, String> {
            let dir = root.join(name);
            if dir.join(file).exists() {
                Ok(std::fs::canonicalize(&dir).unwrap_or(dir))
            } else {
                Err(format!(
                    "no cgroup '{name}' controller: {} is missing (cgroup v1), and {} is not a cgroup v2 hierarchy",
                    dir.join(file).display(),
                    root.display()
                ))
            }
        };
        let memory = find("memory", "memory.limit_in_bytes")?;
        let pids = find("pids", "cgroup.procs")?;
        let cpuacct = find("cpuacct", "cpuacct.usage")?;
        let cpu = find("cpu", "cpu.cfs_quota_us").ok();
        let freezer = find("freezer", "cgroup.procs").ok();
        Ok(Layout::V1 {
            memory,
            pids,
            cpuacct,
            cpu,
            freezer,
        })
    }

    /// Every hierarchy root a box has a group in, without duplicates.
    fn roots(&self) -> Vec<PathBuf> {
        match self {
            Layout::V2(root) => vec![root.clone()],
            Layout::V1 {
                memory,
                pids,
                cpuacct,
                cpu,
                freezer,
            } => {
                let mut roots = vec![memory.clone(), pids.clone(), cpuacct.clone()];
                roots.extend(cpu.iter().cloned());
                roots.extend(freezer.iter().cloned());
                roots.sort();
                roots.dedup();
                roots
            }
        }
    }

    /// The name of this layout for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Layout::V1 { .. } => "cgroup v1",
            Layout::V2(_) => "cgroup v2",
        }
    }
}

/// Limits of one box's group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupLimits {
    /// Memory of the whole tree (tmpfs pages included), bytes.
    pub memory_bytes: Option<u64>,
    /// Processes and threads of the whole tree.
    pub processes: Option<u64>,
    /// CPU cores' worth of time per period (a quota), whole cores.
    pub cpus: Option<u32>,
}

/// What a group's counters say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Processes the OOM killer killed in the group.
    pub oom_kills: u64,
    /// Forks refused by `pids.max`.
    pub pids_refused: u64,
    /// CPU time used by the whole tree, nanoseconds.
    pub cpu_ns: u64,
    /// Highest memory use seen, bytes (0 where the kernel does not say).
    pub memory_peak: u64,
    /// Memory in use now, bytes.
    pub memory_now: u64,
}

/// The group of one box: created with its limits, entered by the engine before `exec`,
/// read while it runs, emptied and removed afterwards.
#[derive(Debug)]
pub struct BoxGroup {
    layout: Layout,
    /// One directory per hierarchy.
    dirs: Vec<PathBuf>,
    /// The `cgroup.procs` files the child writes itself into, prepared before the fork.
    procs_files: Vec<CString>,
    removed: std::sync::atomic::AtomicBool,
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    std::fs::write(path, value).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot write '{value}' to {}: {e}", path.display()),
        )
    })
}

/// The number after `key ` in a flat keyed file (`oom_kill 3`).
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        (words.next() == Some(key))
            .then(|| words.next()?.parse().ok())
            .flatten()
    })
}

fn read_number(path: &Path) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0)
}

impl BoxGroup {
    /// Creates the group `name` (removing a stale one of that name first) with `limits`.
    ///
    /// # Errors
    /// When a directory cannot be made or a limit cannot be written; whatever was created
    /// is removed again.
    pub fn create(layout: &Layout, name: &str, limits: GroupLimits) -> io::Result<BoxGroup> {
        let mut group = BoxGroup {
            layout: layout.clone(),
            dirs: Vec::new(),
            procs_files: Vec::new(),
            removed: std::sync::atomic::AtomicBool::new(false),
        };
        for root in layout.roots() {
            let parent = root.join(PARENT);
            if !parent.exists() {
                std::fs::create_dir_all(&parent)?;
                if let Layout::V2(_) = layout {
                    // Children of agon-arena may use these controllers (the root's
                    // subtree_control must list them too; systemd normally does).
                    let _ = write(&root.join("cgroup.subtree_control"), "+memory +pids +cpu");
                    write(&parent.join("cgroup.subtree_control"), "+memory +pids +cpu")?;
                }
            }
            let dir = parent.join(name);
            if dir.exists() {
                remove_dir(layout, &dir)?;
            }
            std::fs::create_dir(&dir).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display()))
            })?;
            group.dirs.push(dir);
        }
        group.procs_files = group
            .dirs
            .iter()
            .map(|d| {
                use std::os::unix::ffi::OsStrExt;
                CString::new(d.join("cgroup.procs").as_os_str().as_bytes())
                    .expect("no NUL in a cgroup path")
            })
            .collect();
        if let Err(e) = group.set_limits(limits) {
            group.remove();
            return Err(e);
        }
        Ok(group)
    }

    /// The directory of this group in the hierarchy rooted at `root`.
    fn dir_in(&self, root: &Path) -> Option<&PathBuf> {
        self.dirs.iter().find(|d| d.starts_with(root))
    }

    fn set_limits(&self, limits: GroupLimits) -> io::Result<()> {
        match &self.layout {
            Layout::V1 {
                memory, pids, cpu, ..
            } => {
                if let (Some(bytes), Some(dir)) = (limits.memory_bytes, self.dir_in(memory)) {
                    write(&dir.join("memory.limit_in_bytes"), &bytes.to_string())?;
                    // With swap accounting, swap counts too (absent without it).
                    let memsw = dir.join("memory.memsw.limit_in_bytes");
                    if memsw.exists() {
                        write(&memsw, &bytes.to_string())?;
                    }
                }
                if let (Some(n), Some(dir)) = (limits.processes, self.dir_in(pids)) {
                    write(&dir.join("pids.max"), &n.to_string())?;
                }
                if let (Some(cores), Some(dir)) =
                    (limits.cpus, cpu.as_ref().and_then(|c| self.dir_in(c)))
                {
                    write(&dir.join("cpu.cfs_period_us"), "100000")?;
                    write(
                        &dir.join("cpu.cfs_quota_us"),
                        &(u64::from(cores) * 100_000).to_string(),
                    )?;
                }
            }
            Layout::V2(_) => {
                let dir = &self.dirs[0];
                if let Some(bytes) = limits.memory_bytes {
                    write(&dir.join("memory.max"), &bytes.to_string())?;
                    let swap = dir.join("memory.swap.max");
                    if swap.exists() {
                        write(&swap, "0")?;
                    }
                    let group_kill = dir.join("memory.oom.group");
                    if group_kill.exists() {
                        write(&group_kill, "1")?;
                    }
                }
                if let Some(n) = limits.processes {
                    write(&dir.join("pids.max"), &n.to_string())?;
                }
                if let Some(cores) = limits.cpus {
                    write(
                        &dir.join("cpu.max"),
                        &format!("{} 100000", u64::from(cores) * 100_000),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// The `cgroup.procs` files to write `0` into from the child, before `exec`.
    pub fn procs_files(&self) -> Vec<CString> {
        self.procs_files.clone()
    }

    /// The counters now.
    pub fn counters(&self) -> Counters {
        match &self.layout {
            Layout::V1 {
                memory,
                pids,
                cpuacct,
                ..
            } => {
                let mem = self.dir_in(memory);
                Counters {
                    oom_kills: mem
                        .and_then(|d| std::fs::read_to_string(d.join("memory.oom_control")).ok())
                        .and_then(|t| keyed(&t, "oom_kill"))
                        .unwrap_or(0),
                    pids_refused: self
                        .dir_in(pids)
                        .and_then(|d| std::fs::read_to_string(d.join("pids.events")).ok())
                        .and_then(|t| keyed(&t, "max"))
                        .unwrap_or(0),
                    cpu_ns: self
                        .dir_in(cpuacct)
                        .map_or(0, |d| read_number(&d.join("cpuacct.usage"))),
                    memory_peak: mem
                        .map_or(0, |d| read_number(&d.join("memory.max_usage_in_bytes"))),
                    memory_now: mem.map_or(0, |d| read_number(&d.join("memory.usage_in_bytes"))),
                }
            }
            Layout::V2(_) => {
                let dir = &self.dirs[0];
                let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
                Counters {
                    oom_kills: keyed(&read("memory.events"), "oom_kill").unwrap_or(0),
                    pids_refused: keyed(&read("pids.events"), "max").unwrap_or(0),
                    cpu_ns: keyed(&read("cpu.stat"), "usage_usec").unwrap_or(0) * 1000,
                    memory_peak: read_number(&dir.join("memory.peak")),
                    memory_now: read_number(&dir.join("memory.current")),
                }
            }
        }
    }

    /// The file that freezes the group, and the values for frozen and thawed.
    fn freezer(&self) -> Option<(PathBuf, &'static str, &'static str)> {
        match &self.layout {
            Layout::V1 { freezer, .. } => {
                let dir = self.dir_in(freezer.as_ref()?)?;
                Some((dir.join("freezer.state"), "FROZEN", "THAWED"))
            }
            Layout::V2(_) => {
                let file = self.dirs[0].join("cgroup.freeze");
                file.exists().then_some((file, "1", "0"))
            }
        }
    }

    /// Whether this group can be frozen (a freezer hierarchy, or cgroup v2).
    pub fn can_freeze(&self) -> bool {
        self.freezer().is_some()
    }

    /// Freezes (`true`) or thaws the whole group; when freezing, waits up to 100 ms for
    /// the kernel to report every task frozen.
    pub fn freeze(&self, frozen: bool) {
        let Some((file, on, off)) = self.freezer() else {
            return;
        };
        if let Err(e) = write(&file, if frozen { on } else { off }) {
            log::warn!("sandbox: {e}");
            return;
        }
        if !frozen {
            return;
        }
        let until = Instant::now() + Duration::from_millis(100);
        while Instant::now() < until {
            let done = match &self.layout {
                Layout::V1 { .. } => {
                    std::fs::read_to_string(&file).is_ok_and(|t| t.trim() == "FROZEN")
                }
                Layout::V2(_) => {
                    std::fs::read_to_string(self.dirs[0].join("cgroup.events"))
                        .ok()
                        .and_then(|t| keyed(&t, "frozen"))
                        == Some(1)
                }
            };
            if done {
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// Whether any process is left in the group.
    pub fn is_empty(&self) -> bool {
        self.dirs.iter().all(|d| {
            std::fs::read_to_string(d.join("cgroup.procs")).map_or(true, |t| t.trim().is_empty())
        })
    }

    /// Kills every process in the group (idempotent).
    pub fn kill_all(&self) {
        for dir in &self.dirs {
            kill_members(&self.layout, dir);
        }
    }

    /// Kills what is left, waits for the group to empty, and removes its directories.
    pub fn remove(&self) {
        if self.removed.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        for dir in &self.dirs {
            if let Err(e) = remove_dir(&self.layout, dir) {
                log::warn!("sandbox: {e}");
            }
        }
    }
}

impl Drop for BoxGroup {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Sends SIGKILL to every process of the group at `dir` (`cgroup.kill` on v2 where the
/// kernel has it).
fn kill_members(layout: &Layout, dir: &Path) {
    if let Layout::V2(_) = layout {
        if write(&dir.join("cgroup.kill"), "1").is_ok() {
            return;
        }
    }
    let Ok(text) = std::fs::read_to_string(dir.join("cgroup.procs")) else {
        return;
    };
    for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
        // SAFETY: plain syscall. The pid was listed as a member of the box's group a moment
        // ago; a member that has exited stays a zombie (and keeps its pid) until its parent,
        // also in the box, reaps it.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Empties the group at `dir` and removes it, retrying while the kernel still holds it
/// (a process that was just killed is removed from the group a few ms later).
fn remove_dir(layout: &Layout, dir: &Path) -> io::Result<()> {
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        kill_members(layout, dir);
        match std::fs::remove_dir(dir) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) if Instant::now() >= until => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot remove the cgroup {}: {e}", dir.display()),
                ))
            }
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    }
}

/// The names of the box groups that exist now (in any hierarchy).
pub fn existing_groups(layout: &Layout) -> Vec<String> {
    let mut names: Vec<String> = layout
        .roots()
        .iter()
        .filter_map(|root| std::fs::read_dir(root.join(PARENT)).ok())
        .flat_map(|entries| entries.filter_map(Result::ok))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Removes the group `name` from every hierarchy (a stale group of a killed arena).
///
/// # Errors
/// When a directory cannot be removed.
pub fn remove_group(layout: &Layout, name: &str) -> io::Result<()> {
    for root in layout.roots() {
        let dir = root.join(PARENT).join(name);
        if dir.exists() {
            remove_dir(layout, &dir)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_files() {
        let text = "oom_kill_disable 0\nunder_oom 0\noom_kill 4\n";
        assert_eq!(keyed(text, "oom_kill"), Some(4));
        assert_eq!(keyed(text, "under_oom"), Some(0));
        assert_eq!(keyed("max 8246\n", "max"), Some(8246));
        assert_eq!(keyed("usage_usec 12\nuser_usec 3", "usage_usec"), Some(12));
        assert_eq!(keyed("", "max"), None);
    }

    #[test]
    fn layouts_are_told_apart() {
        let v2 = tempfile::tempdir().unwrap();
        std::fs::write(
            v2.path().join("cgroup.controllers"),
            "cpuset cpu io memory pids\n",
        )
        .unwrap();
        assert_eq!(
            Layout::detect(v2.path()),
            Ok(Layout::V2(v2.path().to_path_buf()))
        );
        std::fs::write(v2.path().join("cgroup.controllers"), "hugetlb\n").unwrap();
        let err = Layout::detect(v2.path()).unwrap_err();
        assert!(err.contains("no 'memory' controller"), "{err}");

        let v1 = tempfile::tempdir().unwrap();
        for (dir, file) in [
            ("memory", "memory.limit_in_bytes"),
            ("pids", "cgroup.procs"),
            ("cpuacct", "cpuacct.usage"),
        ] {
            std::fs::create_dir(v1.path().join(dir)).unwrap();
            std::fs::write(v1.path().join(dir).join(file), "").unwrap();
        }
        match Layout::detect(v1.path()) {
            Ok(Layout::V1 { cpu: None, .. }) => {}
            other => panic!("{other:?}"),
        }
        std::fs::remove_file(v1.path().join("pids/cgroup.procs")).unwrap();
        let err = Layout::detect(v1.path()).unwrap_err();
        assert!(err.contains("no cgroup 'pids' controller"), "{err}");
    }

    #[test]
    fn v2_limits_are_written_where_the_kernel_reads_them() {
        // A stand-in hierarchy: the files a v2 group has, as plain files.
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("cgroup.controllers"), "memory pids cpu\n").unwrap();
        let layout = Layout::detect(root.path()).unwrap();
        let parent = root.path().join(PARENT);
        std::fs::create_dir(&parent).unwrap();
        let mut group = BoxGroup {
            layout: layout.clone(),
            dirs: vec![parent.join("uid-61000")],
            procs_files: Vec::new(),
            removed: std::sync::atomic::AtomicBool::new(true),
        };
        std::fs::create_dir(&group.dirs[0]).unwrap();
        std::fs::write(group.dirs[0].join("memory.swap.max"), "max").unwrap();
        group
            .set_limits(GroupLimits {
                memory_bytes: Some(512 << 20),
                processes: Some(32),
                cpus: Some(1),
            })
            .unwrap();
        let read = |f: &str| std::fs::read_to_string(group.dirs[0].join(f)).unwrap();
        assert_eq!(read("memory.max"), "536870912");
        assert_eq!(read("memory.swap.max"), "0");
        assert_eq!(read("pids.max"), "32");
        assert_eq!(read("cpu.max"), "100000 100000");
        std::fs::write(
            group.dirs[0].join("memory.events"),
            "low 0\nhigh 0\nmax 9\noom 2\noom_kill 2\n",
        )
        .unwrap();
        std::fs::write(group.dirs[0].join("pids.events"), "max 5\n").unwrap();
        std::fs::write(
            group.dirs[0].join("cpu.stat"),
            "usage_usec 1500\nuser_usec 1000\n",
        )
        .unwrap();
        let c = group.counters();
        assert_eq!((c.oom_kills, c.pids_refused, c.cpu_ns), (2, 5, 1_500_000));
        group.dirs.clear();
    }
}
