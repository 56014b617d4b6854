//! The box's namespaces and file system, made by bubblewrap (`bwrap`, Debian package
//! `bubblewrap`; <https://github.com/containers/bubblewrap>).
//!
//! bwrap does in one well-reviewed program what contest judges do (IOI's `isolate`,
//! `nsjail`): new PID, network, mount, IPC, UTS and cgroup namespaces, a new root on a
//! tmpfs holding only read-only binds of what the engine needs, a fresh `/proc` (only the
//! box's own processes), a minimal `/dev`, private `/tmp` and `/dev/shm` of bounded size,
//! and a PID 1 whose death (with `--die-with-parent`, when the arena dies) takes every
//! process of the box with it, daemons included.
//!
//! As root (the `strict` level) bwrap runs privileged, so that its binds can reach folders
//! only root may traverse, and the engine is started through `setpriv` with the box's own
//! UID, no supplementary groups, no capabilities and `no_new_privs`. Without root (the
//! `userns` level) bwrap runs in a user namespace of its own (`--unshare-user`) and
//! forbids nested ones (`--disable-userns`).

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Where the sandboxed engine's program lives and what it may read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The program, as an absolute path (never canonicalised: a virtualenv's `python3`
    /// must stay the virtualenv's).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory inside the box.
    pub cwd: PathBuf,
    /// Host paths bound read-only at the same path inside the box (besides the system).
    pub read_only: Vec<PathBuf>,
    /// The whole environment of the engine.
    pub env: Vec<(String, String)>,
    /// Size of each of `/tmp` and `/dev/shm`, bytes.
    pub tmpfs_bytes: u64,
    /// Run the engine as this UID (and GID) through `setpriv`: bwrap itself runs as root.
    /// `None`: bwrap runs unprivileged in a user namespace.
    pub uid: Option<u32>,
    /// File descriptors, open in bwrap, each holding a seccomp program to load before
    /// the engine starts (`--add-seccomp-fd`).
    pub seccomp_fds: Vec<i32>,
    /// A process limit set inside the box, by `prlimit`, after bwrap has made the box's
    /// user namespace: the kernel then counts the box's processes against it apart from
    /// every other box of the same user (the `userns` level).
    pub nproc_inside: Option<u64>,
}

/// System folders every box sees read-only (the top-level ones are links into `/usr` on
/// a merged-`/usr` system, and are recreated as links).
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// Files and folders of `/etc` that programs need to start: the dynamic loader's cache,
/// alternatives (`/usr/bin/java` and the like are links through it), the time zone, and
/// Java's configuration (`/usr/lib/jvm/*/conf` points into it). Nothing else of `/etc`.
const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
];

/// Whether `path` is visible in every box anyway.
pub fn is_system(path: &Path) -> bool {
    SYSTEM.iter().any(|s| path.starts_with(s))
        || ETC.iter().any(|s| path.starts_with(s))
        || path.to_string_lossy().starts_with("/etc/java")
}

/// `path` made absolute against the current directory, `.` and `..` removed lexically
/// (no symbolic link is followed).
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .unwrap_or_else(|_| PathBuf::from("/"))
            .join(path)
    };
    let mut out = PathBuf::from("/");
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// Keeps the shortest paths: a path inside another one of the list is dropped (the
/// outer bind shows it already), as are system paths.
pub fn minimal(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut sorted: Vec<PathBuf> = paths
        .iter()
        .filter(|p| !is_system(p) && p.as_path() != Path::new("/"))
        .cloned()
        .collect();
    sorted.sort_by_key(|p| p.components().count());
    let mut kept: Vec<PathBuf> = Vec::new();
    for p in sorted {
        if !kept.iter().any(|k| p.starts_with(k)) {
            kept.push(p);
        }
    }
    kept.sort();
    kept
}

/// `program` and, for a symbolic link, each target in turn (a virtualenv's `bin/python3`
/// is a link to the base interpreter), as absolute paths. Only for programs the user
/// named: what a submission's links point to is never followed.
pub fn link_chain(program: &Path) -> Vec<PathBuf> {
    let mut out = vec![absolute(program)];
    let mut current = absolute(program);
    for _ in 0..16 {
        match std::fs::read_link(&current) {
            Ok(target) => {
                let base = current.parent().unwrap_or(Path::new("/"));
                current = absolute(&base.join(target));
                out.push(current.clone());
            }
            Err(_) => break,
        }
    }
    out
}

/// The absolute interpreter path of a `#!` script (`#!/usr/bin/env python3` gives
/// `/usr/bin/env`).
pub fn shebang(path: &Path) -> Option<PathBuf> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut head = [0u8; 256];
    // Never through a link: what a submission's link points to is not read.
    let n = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?
        .read(&mut head)
        .ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let end = line.iter().position(|&b| b == b'\n').unwrap_or(line.len());
    let text = std::str::from_utf8(&line[..end]).ok()?;
    let interpreter = text.split_whitespace().next()?;
    interpreter
        .starts_with('/')
        .then(|| PathBuf::from(interpreter))
}

/// bwrap's arguments for `plan` (the engine's command line comes last).
pub fn args(plan: &Plan) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
    push(&[
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "box",
    ]);
    if plan.uid.is_none() {
        push(&["--unshare-user", "--disable-userns"]);
    }
    for fd in &plan.seccomp_fds {
        a.extend(["--add-seccomp-fd".into(), fd.to_string().into()]);
    }
    a.extend(["--clearenv".into()]);
    for (k, v) in &plan.env {
        a.extend(["--setenv".into(), k.into(), v.into()]);
    }
    for dir in SYSTEM {
        let path = Path::new(dir);
        match std::fs::read_link(path) {
            Ok(target) => a.extend(["--symlink".into(), target.into(), path.into()]),
            Err(_) if path.is_dir() => a.extend(["--ro-bind".into(), path.into(), path.into()]),
            Err(_) => {}
        }
    }
    let mut etc: Vec<PathBuf> = ETC.iter().map(PathBuf::from).collect();
    if let Ok(entries) = std::fs::read_dir("/etc") {
        etc.extend(
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().starts_with("/etc/java")),
        );
    }
    for path in etc {
        a.extend(["--ro-bind-try".into(), path.clone().into(), path.into()]);
    }
    let size = plan.tmpfs_bytes.max(1 << 20).to_string();
    a.extend([
        "--proc".into(),
        "/proc".into(),
        "--dev".into(),
        "/dev".into(),
    ]);
    for tmp in ["/tmp", "/dev/shm"] {
        a.extend([
            "--perms".into(),
            "1777".into(),
            "--size".into(),
            size.clone().into(),
            "--tmpfs".into(),
            tmp.into(),
        ]);
    }
    // Folders on the way to each bind are made world-readable (bwrap would make them 0700
    // as root, which the engine's UID could not cross).
    let mut made: Vec<PathBuf> = vec!["/".into(), "/tmp".into(), "/dev".into()];
    for path in &plan.read_only {
        let mut ancestors: Vec<&Path> = path.ancestors().skip(1).collect();
        ancestors.reverse();
        for dir in ancestors {
            if !made.iter().any(|m| m == dir) {
                a.extend(["--perms".into(), "0755".into(), "--dir".into(), dir.into()]);
                made.push(dir.to_path_buf());
            }
        }
        a.extend(["--ro-bind".into(), path.into(), path.into()]);
    }
    a.extend(["--chdir".into(), plan.cwd.clone().into()]);
    if let Some(uid) = plan.uid {
        a.extend([
            "/usr/bin/setpriv".into(),
            format!("--reuid={uid}").into(),
            format!("--regid={uid}").into(),
            "--clear-groups".into(),
            "--inh-caps=-all".into(),
            "--bounding-set=-all".into(),
            "--no-new-privs".into(),
            "--".into(),
        ]);
    } else {
        a.push("--".into());
    }
    if let Some(n) = plan.nproc_inside {
        a.extend([
            "/usr/bin/prlimit".into(),
            format!("--nproc={n}:{n}").into(),
            "--".into(),
        ]);
    }
    a.push(plan.program.clone().into());
    a.extend(plan.args.iter().map(OsString::from));
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_paths_are_lexical() {
        assert_eq!(absolute(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        let here = std::env::current_dir().unwrap();
        assert_eq!(absolute(Path::new("x/y")), here.join("x/y"));
    }

    #[test]
    fn nested_and_system_paths_are_dropped() {
        let kept = minimal(&[
            "/home/t/bots/ann".into(),
            "/home/t/bots/ann/venv".into(),
            "/usr/lib/python3".into(),
            "/opt/py".into(),
            "/".into(),
        ]);
        assert_eq!(
            kept,
            vec![PathBuf::from("/home/t/bots/ann"), "/opt/py".into()]
        );
    }

    #[test]
    fn shebang_and_link_chain() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("base/bin");
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("python9"), "").unwrap();
        let venv = dir.path().join("venv/bin");
        std::fs::create_dir_all(&venv).unwrap();
        std::os::unix::fs::symlink(base.join("python9"), venv.join("python3")).unwrap();
        assert_eq!(
            link_chain(&venv.join("python3")),
            vec![venv.join("python3"), base.join("python9")]
        );
        let script = dir.path().join("bot");
        std::fs::write(
            &script,
            format!("#!{} -u\nprint(1)\n", venv.join("python3").display()),
        )
        .unwrap();
        assert_eq!(shebang(&script), Some(venv.join("python3")));
        // A script's first line is content, not configuration: it adds nothing.
        assert_eq!(link_chain(&script), vec![script.clone()]);
    }
}
