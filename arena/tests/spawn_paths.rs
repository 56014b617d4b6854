//! Every place the arena starts a process, found by reading its source: the one spawn
//! path is `sandbox::command` (which builds the command, boxed or not, and is the only
//! code that names a program to run) and `EngineProcess::spawn` (which runs what it
//! built). A new `Command::new`, `fork` or `exec` anywhere else fails this test, so that
//! no untrusted program can be started outside a box by a path nobody reviewed (an
//! earlier arena asked any program named `python*` for its layout, as root, outside any
//! box).

use std::path::{Path, PathBuf};

/// Ways to start a process, as they appear in Rust source.
const STARTS: [&str; 9] = [
    ".spawn()",
    "Command::new(",
    "process::Command",
    "libc::fork",
    "libc::vfork",
    "libc::execv",
    "libc::execve",
    "posix_spawn",
    "libc::clone",
];

/// `(file, why it may)`: the only files allowed to start processes.
const ALLOWED: [(&str, &str); 3] = [
    (
        "src/sandbox/mod.rs",
        "sandbox::command: every engine and probe, in its box when it has a sandbox",
    ),
    (
        "src/process.rs",
        "EngineProcess::spawn runs what sandbox::command built (and its unit tests start /bin/sh)",
    ),
    (
        "src/bin/scripted_engine.rs",
        "a test engine of the suite, not part of the arena",
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_sandbox_starts_processes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(
        files.len() > 20,
        "the arena's source was not found: {files:?}"
    );
    let mut found = Vec::new();
    let mut seen_allowed = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        // A file's unit tests (after `#[cfg(test)]`) are not the arena.
        for (n, line) in text
            .lines()
            .enumerate()
            .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        {
            let code = line.split("//").next().unwrap_or("");
            if STARTS.iter().any(|s| code.contains(s)) {
                if ALLOWED.iter().any(|(f, _)| *f == rel) {
                    seen_allowed.push(rel.clone());
                } else {
                    found.push(format!("{rel}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "processes started outside the one spawn path (sandbox::command): {found:#?}"
    );
    // The spawn path itself is where this test expects it (a rename would otherwise
    // leave the test checking nothing).
    for file in ["src/sandbox/mod.rs", "src/process.rs"] {
        assert!(
            seen_allowed.iter().any(|f| f == file),
            "{file} starts nothing?"
        );
    }
    let process = std::fs::read_to_string(root.join("src/process.rs")).unwrap();
    assert!(
        process.contains("crate::sandbox::command(spec)"),
        "EngineProcess::spawn no longer builds its command with sandbox::command"
    );
}
