//! What starting an engine takes and how it ended: the data that the box and the engine
//! process both speak (the box is what spawns; `process` reads and writes the lines).

use std::path::PathBuf;

use super::Sandbox;

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpawnSpec {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory (the arena's when `None`).
    pub dir: Option<PathBuf>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Where stderr goes (discarded when `None`).
    pub stderr_log: Option<PathBuf>,
    /// Bytes of stderr kept in the log; the rest is drained and dropped.
    pub stderr_cap: u64,
    /// Leave Python's output buffering alone (`arena check` does, to find bots that do not
    /// flush); otherwise `PYTHONUNBUFFERED=1` is set.
    pub keep_python_buffered: bool,
    /// What a sandboxed engine may read as its own (a folder, or a single file): by
    /// default `dir`, else the folder of the program (or of the script an interpreter in
    /// a system folder runs). See [`crate::sandbox`].
    pub home: Option<PathBuf>,
    /// Isolation and limits for an untrusted engine ([`crate::sandbox`]).
    pub sandbox: Option<Sandbox>,
    /// The CPU cores the engine may run on (`--affinity`); empty for any.
    pub cpus: Vec<usize>,
}

/// How an engine process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitInfo {
    /// It exited with this code.
    Code(i32),
    /// It was killed by this signal.
    Signal(i32),
}

impl std::fmt::Display for ExitInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExitInfo::Code(c) => write!(f, "exited with code {c}"),
            ExitInfo::Signal(s) => write!(f, "killed by signal {s}"),
        }
    }
}
