//! One arena at a time on an output folder: an exclusive `flock` on a lock file in the
//! folder, held for the whole run.
//!
//! Two arenas appending to one journal interleave their lines (issue 19 saw 105 lines for
//! 60 games), so every command that writes a run folder (`match`, `tournament`, `grade`)
//! takes [`OutputLock::acquire`] before it writes anything else there. The lock is
//! non-blocking: a second arena stops at once with [`LockError::Busy`], which names the
//! running one (pid, host, command line, start time) from what it wrote into the lock
//! file. The kernel releases an `flock` when its process dies, however it dies, so a
//! killed run leaves no stale lock behind and can be resumed at once; the file itself
//! stays (removing a locked file would let a third arena lock a new file of the same
//! name while the second still holds the old one).
//!
//! Shards of one tournament share a folder but not a journal: each takes its own lock
//! file (`.arena-shard-K-of-N.lock`), so different shards run side by side while the same
//! shard twice is refused.
//!
//! The lock is `std::fs::File::try_lock`, which is `flock(LOCK_EX | LOCK_NB)` on Unix. On
//! a shared file system it holds across machines only where that file system passes
//! `flock` on (NFSv4 does, emulated with byte-range locks; Lustre needs its `flock` mount
//! option).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// Why an output folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another arena holds the lock.
    #[error(
        "{folder} is in use by another arena: {holder} (lock file {lock}). Wait for it to finish or stop it; a stopped or killed run can be resumed by running the same command again"
    )]
    Busy {
        /// The output folder.
        folder: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// Who holds it, in words.
        holder: String,
    },
    /// The folder or the lock file could not be created or written.
    #[error("cannot lock {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// What a lock file holds: who took the lock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Holder {
    /// The arena's process id.
    pub pid: u32,
    /// The machine it runs on.
    pub host: String,
    /// Its command line, words separated by spaces (words with spaces quoted).
    pub command: String,
    /// When it took the lock, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub started: String,
}

impl Holder {
    /// This process.
    pub fn this_process() -> Holder {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let [y, mo, d, h, mi, s] = utc(now);
        Holder {
            pid: std::process::id(),
            host: host_name(),
            command: std::env::args()
                .map(|w| {
                    if w.is_empty() || w.contains(char::is_whitespace) {
                        format!("'{w}'")
                    } else {
                        w
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
            started: format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
        }
    }
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pid {} on {}, started {}: {}",
            self.pid,
            crate::safe_text::display(&self.host),
            self.started,
            crate::safe_text::display(&self.command)
        )
    }
}

/// The lock file of a run in `folder`: `.arena.lock`, or `.arena-shard-K-of-N.lock` for
/// shard `K/N` of a tournament.
pub fn lock_path(folder: &Path, shard: Option<(u64, u64)>) -> PathBuf {
    match shard {
        Some((k, n)) => folder.join(format!(".arena-shard-{k}-of-{n}.lock")),
        None => folder.join(".arena.lock"),
    }
}

/// A held lock; dropping it (or the process ending) releases it.
#[derive(Debug)]
pub struct OutputLock {
    file: File,
    path: PathBuf,
}

impl OutputLock {
    /// Creates `folder` if needed and locks `lock` in it (see [`lock_path`]), writing
    /// `holder` into the file.
    ///
    /// # Errors
    /// [`LockError::Busy`] naming the holder when another process has the lock;
    /// [`LockError::Io`] when the folder or file cannot be made.
    pub fn acquire(folder: &Path, lock: &Path, holder: &Holder) -> Result<OutputLock, LockError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| LockError::Io { path, source }
        };
        std::fs::create_dir_all(folder).map_err(io(folder))?;
        // Not truncated on open: the holder's text stays readable until we hold the lock.
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(lock)
            .map_err(io(lock))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Busy {
                    folder: folder.to_path_buf(),
                    lock: lock.to_path_buf(),
                    holder: read_holder(&mut file),
                })
            }
            Err(TryLockError::Error(e)) => return Err(io(lock)(e)),
        }
        let text = serde_json::to_string(holder).expect("a holder serialises") + "\n";
        file.set_len(0).map_err(io(lock))?;
        file.seek(SeekFrom::Start(0)).map_err(io(lock))?;
        file.write_all(text.as_bytes()).map_err(io(lock))?;
        file.flush().map_err(io(lock))?;
        Ok(OutputLock {
            file,
            path: lock.to_path_buf(),
        })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// The holder's line from a lock file someone else holds. It writes the line right after
/// taking the lock, so an empty file is read again for a moment before giving up.
fn read_holder(file: &mut File) -> String {
    for _ in 0..20 {
        let mut text = String::new();
        let read = file
            .seek(SeekFrom::Start(0))
            .and_then(|_| file.read_to_string(&mut text));
        if read.is_ok() {
            if let Ok(holder) = serde_json::from_str::<Holder>(text.trim()) {
                return holder.to_string();
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    "a process that has not said who it is yet".into()
}

/// This machine's name (Linux's `/proc/sys/kernel/hostname`, else `$HOSTNAME`).
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "an unknown host".into())
}

/// `[year, month, day, hour, minute, second]` of a Unix time, UTC (the civil date from
/// days since 1970-01-01 is Howard Hinnant's `civil_from_days`).
pub fn utc(unix_secs: u64) -> [i64; 6] {
    let (days, secs) = ((unix_secs / 86_400) as i64, (unix_secs % 86_400) as i64);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    [y, m, d, secs / 3600, secs % 3600 / 60, secs % 60]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        // 2000-03-01 is day 11017; 1970-01-01 is day 0; 2024-02-29T23:59:59 is 1709251199.
        assert_eq!(utc(0), [1970, 1, 1, 0, 0, 0]);
        assert_eq!(utc(11_017 * 86_400 + 3661), [2000, 3, 1, 1, 1, 1]);
        assert_eq!(utc(1_709_251_199), [2024, 2, 29, 23, 59, 59]);
    }

    #[test]
    fn a_second_lock_is_refused_and_names_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("out");
        let lock = lock_path(&folder, None);
        let first = Holder {
            pid: 4242,
            host: "node7".into(),
            command: "arena tournament --out out".into(),
            started: "2026-01-02T03:04:05Z".into(),
        };
        let held = OutputLock::acquire(&folder, &lock, &first).unwrap();
        let err = OutputLock::acquire(&folder, &lock, &Holder::this_process()).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(
                "in use by another arena: pid 4242 on node7, started 2026-01-02T03:04:05Z: arena tournament --out out"
            ),
            "{text}"
        );
        // Another shard's lock in the same folder is free.
        let shard = lock_path(&folder, Some((2, 3)));
        assert!(shard.ends_with(".arena-shard-2-of-3.lock"));
        OutputLock::acquire(&folder, &shard, &first).unwrap();
        drop(held);
        OutputLock::acquire(&folder, &lock, &Holder::this_process()).unwrap();
    }
}
