//! A user id of its own for every box, leased from a reserved range.
//!
//! Two boxes never share a UID, so no bot can signal, trace or read another through
//! anything the kernel checks by user (`kill`, `ptrace`, `/proc`, files, `RLIMIT_NPROC`),
//! whatever namespace tricks it tries. The range `61000..62000` lies above Debian's
//! `UID_MAX` (60000, `/etc/login.defs`) and below `nobody` (65534) and the subordinate
//! ranges of `/etc/subuid` (100000 and up); a UID that has a name in the user database is
//! skipped; [`range`] says how to choose another range. A lease is an exclusive `flock` on `/run/agon-arena/uid-N.lock`, so arenas
//! running side by side (and the boxes of one arena) never pick the same UID, and the
//! kernel releases it when the arena dies, however it dies.

use std::fs::File;
use std::io;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// The first UID of the default range.
pub const FIRST: u32 = 61_000;
/// How many UIDs the default range holds.
pub const COUNT: u32 = 1_000;

/// The UIDs boxes may use: `ARENA_SANDBOX_UIDS=FIRST-LAST` when set (for a machine where
/// the default range is taken, or to keep two groups of arenas apart), else
/// `61000-61999`. A range that includes 0 or a UID below 1000 is refused.
///
/// # Errors
/// A message naming the variable and what is wrong with it.
pub fn range() -> Result<std::ops::RangeInclusive<u32>, String> {
    let Ok(text) = std::env::var("ARENA_SANDBOX_UIDS") else {
        return Ok(FIRST..=FIRST + COUNT - 1);
    };
    let parsed = text
        .split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?)));
    match parsed {
        Some((a, b)) if a >= 1000 && a <= b => Ok(a..=b),
        _ => Err(format!(
            "ARENA_SANDBOX_UIDS='{text}': expected FIRST-LAST, two UIDs of 1000 or more, FIRST <= LAST"
        )),
    }
}

/// Where the lock files live (root only).
pub fn lock_dir() -> PathBuf {
    PathBuf::from("/run/agon-arena")
}

/// A UID held for one box; released when dropped.
#[derive(Debug)]
pub struct UidLease {
    uid: u32,
    _lock: File,
}

impl UidLease {
    /// The leased UID (also used as the GID).
    pub fn uid(&self) -> u32 {
        self.uid
    }
}

fn has_name(uid: u32) -> bool {
    // SAFETY: getpwuid's result is only tested for null, before any other call.
    unsafe { !libc::getpwuid(uid).is_null() }
}

/// Tries to lock `path` without waiting: the open file holds the lock.
fn try_lock(path: &Path) -> io::Result<Option<File>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)?;
    // SAFETY: plain syscall on a descriptor we own.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        Ok(Some(file))
    } else {
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            Ok(None)
        } else {
            Err(e)
        }
    }
}

fn ensure_lock_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            return Err(io::Error::new(
                e.kind(),
                format!("cannot create {}: {e}", dir.display()),
            ))
        }
    }
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() || meta.uid() != 0 || meta.mode() & 0o022 != 0 {
        return Err(io::Error::other(format!(
            "{} must be a directory owned by root and writable only by root",
            dir.display()
        )));
    }
    Ok(())
}

/// Leases a free UID of the range, in turn: each lease starts looking just after the
/// last UID handed out (by any arena of the machine: the turn is kept in
/// `/run/agon-arena/next`), so a UID goes back to a box only after every other UID of the
/// range has. `on_stale(uid)` runs while the lease is held, before it is returned, to
/// clean what an arena killed earlier left under that UID.
///
/// # Errors
/// When the lock folder cannot be used, or every UID of the range is taken.
pub fn lease(on_stale: impl Fn(u32)) -> io::Result<UidLease> {
    let dir = lock_dir();
    ensure_lock_dir(&dir)?;
    let uids = range().map_err(io::Error::other)?;
    let (first, count) = (*uids.start(), uids.end() - uids.start() + 1);
    let turn = Turn::open(&dir.join("next"))?;
    let start = turn.read().map_or(0, |n| n.wrapping_sub(first) % count);
    for i in 0..count {
        let uid = first + (start + i) % count;
        if has_name(uid) {
            continue;
        }
        if let Some(lock) = try_lock(&dir.join(format!("uid-{uid}.lock")))? {
            turn.write(uid + 1);
            drop(turn);
            on_stale(uid);
            return Ok(UidLease { uid, _lock: lock });
        }
    }
    Err(io::Error::other(format!(
        "all sandbox UIDs ({}-{}) are in use (ARENA_SANDBOX_UIDS sets the range)",
        uids.start(),
        uids.end()
    )))
}

/// The file that holds whose turn is next, locked while open.
struct Turn(File);

impl Turn {
    fn open(path: &Path) -> io::Result<Turn> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)?;
        // SAFETY: plain syscall on a descriptor we own; released when it is closed.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Turn(file))
    }

    fn read(&self) -> Option<u32> {
        use std::io::Read;
        let mut text = String::new();
        (&self.0).read_to_string(&mut text).ok()?;
        text.trim().parse().ok()
    }

    fn write(&self, next: u32) {
        use std::io::{Seek, Write};
        let mut f = &self.0;
        let _ = f.set_len(0);
        let _ = f.seek(std::io::SeekFrom::Start(0));
        let _ = write!(f, "{next}");
    }
}

/// Removes the kernel state a box may have left under `uid` outside its namespaces: its
/// processes (unless `in_cgroup`: a box's processes cannot leave its cgroup, which is
/// emptied and removed by itself) and the System V IPC objects it owns in the arena's IPC
/// namespace. (Key rings need nothing: no box can make a key, the system-call filter
/// refuses every key call, and touching a UID's user key ring would create it.) Root
/// only. Called when a UID is leased and when its box is torn down.
pub fn scrub(uid: u32, in_cgroup: bool) {
    if !in_cgroup {
        kill_all_of(uid);
    }
    remove_ipc_of(uid);
}

/// The ids of the System V IPC objects of one kind (`shm`, `msg`, `sem`) whose owner or
/// creator is `uid`, from `/proc/sysvipc/KIND`.
pub fn ipc_of(kind: &str, uid: u32) -> Vec<i32> {
    let Ok(text) = std::fs::read_to_string(format!("/proc/sysvipc/{kind}")) else {
        return Vec::new();
    };
    let mut lines = text.lines();
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    let columns: Vec<&str> = header.split_whitespace().collect();
    let at = |name: &str| columns.iter().position(|c| *c == name);
    let (Some(id), Some(owner), Some(creator)) = (
        at(match kind {
            "shm" => "shmid",
            "msg" => "msqid",
            _ => "semid",
        }),
        at("uid"),
        at("cuid"),
    ) else {
        return Vec::new();
    };
    lines
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let hit = [owner, creator]
                .iter()
                .any(|&c| f.get(c).and_then(|v| v.parse::<u32>().ok()) == Some(uid));
            hit.then(|| f.get(id)?.parse().ok()).flatten()
        })
        .collect()
}

fn remove_ipc_of(uid: u32) {
    // SAFETY: plain syscalls on ids just read; a removed or reused id fails harmlessly
    // (only objects of the box's UID are listed).
    unsafe {
        for id in ipc_of("shm", uid) {
            libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
        }
        for id in ipc_of("msg", uid) {
            libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut());
        }
        for id in ipc_of("sem", uid) {
            libc::semctl(id, 0, libc::IPC_RMID);
        }
    }
}

/// Whether the lease of `uid` is free now (nobody holds it); the check's own lock is
/// released before returning.
pub fn is_free(uid: u32) -> bool {
    matches!(
        try_lock(&lock_dir().join(format!("uid-{uid}.lock"))),
        Ok(Some(_))
    )
}

/// The pids of the live processes whose real, effective or saved UID is `uid`, from /proc.
pub fn processes_of(uid: u32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
                return false;
            };
            let zombie = status
                .lines()
                .any(|l| l.starts_with("State:") && l.contains('Z'));
            let owned = status.lines().any(|l| {
                l.strip_prefix("Uid:").is_some_and(|ids| {
                    ids.split_whitespace()
                        .take(3)
                        .any(|id| id.parse() == Ok(uid))
                })
            });
            owned && !zombie
        })
        .collect()
}

/// Kills every process of `uid` until none is left (up to about a second): used where a
/// box has no cgroup (the `limits` level) and for stale leases.
pub fn kill_all_of(uid: u32) {
    for _ in 0..200 {
        let pids = processes_of(uid);
        if pids.is_empty() {
            return;
        }
        for pid in pids {
            // SAFETY: plain syscall; the process runs under a UID that only boxes use.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_excludes_a_second_holder_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("uid-1.lock");
        let first = try_lock(&path).unwrap();
        assert!(first.is_some());
        assert!(
            try_lock(&path).unwrap().is_none(),
            "a second lock was granted"
        );
        drop(first);
        assert!(try_lock(&path).unwrap().is_some());
    }

    #[test]
    fn a_symlinked_lock_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.path().join("uid-2.lock");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(try_lock(&link).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    }
}
