//! Suspending a box without a cgroup freezer, and reading a process's CPU time: the box's
//! processes found in `/proc` (its outermost process and every descendant, or every
//! process of its UID), stopped with SIGSTOP and continued with SIGCONT.
//!
//! A process that forks while the others are being stopped is caught by the next pass;
//! the passes repeat until one finds every process stopped. The cgroup freezer (the
//! `strict` level) does the same in the kernel, atomically.

use std::collections::HashMap;
use std::time::Duration;

/// `(parent, state, utime + stime + cutime + cstime in clock ticks)` of `pid`, from
/// `/proc/PID/stat`.
fn stat(pid: i32) -> Option<(i32, char, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields follow the last ')'.
    let rest = text.get(text.rfind(')')? + 2..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let parent = fields.get(1)?.parse().ok()?;
    // Fields 14-17 of stat(5) are 11-14 here (state is field 3).
    let ticks: u64 = (11..15)
        .filter_map(|i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    Some((parent, state, ticks))
}

/// Every live process: pid -> parent.
fn parents() -> HashMap<i32, i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return HashMap::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| Some((pid, stat(pid)?.0)))
        .collect()
}

/// `root` and its descendants now (empty when `root` is gone or not positive).
pub fn descendants(root: i32) -> Vec<i32> {
    if root <= 0 {
        return Vec::new();
    }
    let parents = parents();
    if !parents.contains_key(&root) {
        return Vec::new();
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(
            parents
                .iter()
                .filter(|&(_, &parent)| parent == p)
                .map(|(&pid, _)| pid),
        );
        i += 1;
    }
    found
}

/// CPU time of one process (its threads and reaped children), nanoseconds.
pub fn process_cpu_ns(pid: i32) -> Option<u64> {
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(stat(pid)?.2 * (1_000_000_000 / hz))
}

/// Stops every process `members` lists, pass after pass, until a pass finds all of them
/// stopped (at most 200 passes, about 20 ms); returns those it found.
pub fn stop_all(members: impl Fn() -> Vec<i32>) -> Vec<i32> {
    let mut all = Vec::new();
    for _ in 0..200 {
        let pids = members();
        all.extend(
            pids.iter()
                .filter(|p| !all.contains(*p))
                .collect::<Vec<_>>(),
        );
        let mut all_stopped = true;
        for &pid in &pids {
            match stat(pid) {
                Some((_, 'T' | 't' | 'Z' | 'X', _)) | None => {}
                Some(_) => {
                    all_stopped = false;
                    // SAFETY: plain syscall on a process of the box.
                    unsafe {
                        libc::kill(pid, libc::SIGSTOP);
                    }
                }
            }
        }
        if all_stopped {
            return all;
        }
        std::thread::sleep(Duration::from_micros(100));
    }
    log::warn!("sandbox: a box kept starting processes while it was being suspended");
    all
}

/// Continues every process of `pids`.
pub fn continue_all(pids: &[i32]) {
    for &pid in pids {
        // SAFETY: plain syscall on a process of the box.
        unsafe {
            libc::kill(pid, libc::SIGCONT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_is_a_descendant_and_can_be_stopped_and_continued() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let me = std::process::id() as i32;
        let pid = child.id() as i32;
        assert!(descendants(me).contains(&pid));
        stop_all(|| vec![pid]);
        assert!(matches!(stat(pid), Some((_, 'T', _))), "{:?}", stat(pid));
        continue_all(&[pid]);
        std::thread::sleep(Duration::from_millis(20));
        assert!(matches!(stat(pid), Some((_, 'S', _))), "{:?}", stat(pid));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(descendants(-1).is_empty());
    }
}
