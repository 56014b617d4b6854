//! Engine processes: spawned in their own process group, read line by line with a
//! bounded line length, a bounded line rate and a deadline on every read, stderr
//! captured to a size-capped log, and killed as a whole group when done.
//!
//! Guarantees: a process spawned here never outlives its [`EngineProcess`] value
//! (dropping it kills the group, and the whole box of a sandboxed engine), and, through
//! `PR_SET_PDEATHSIG`, the engine itself dies with the arena even when the arena is killed
//! with SIGKILL. How an engine is started, boxed or not, is [`crate::sandbox`]'s business.

use std::io;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};

pub use crate::sandbox::spawn::{ExitInfo, SpawnSpec};
use crate::sandbox::{BoxGuard, Violation};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Bounds on what an engine may print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineLimits {
    /// Longest accepted line in bytes, without its end of line.
    pub max_line: usize,
    /// Lines that may arrive at once before the rate cap applies.
    pub burst_lines: u32,
    /// Sustained lines per second allowed.
    pub lines_per_sec: u32,
}

impl Default for LineLimits {
    fn default() -> Self {
        LineLimits {
            max_line: 65_536,
            burst_lines: 20_000,
            lines_per_sec: 20_000,
        }
    }
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The deadline passed first.
    #[error("no line before the deadline")]
    Timeout,
    /// The engine closed its output (it exited or crashed).
    #[error("end of output")]
    Eof,
    /// A line longer than the limit.
    #[error("a line of more than {limit} bytes")]
    TooLong {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// More lines than the rate cap allows.
    #[error("more than {burst} lines at once or {per_sec} lines per second")]
    Flood {
        /// The burst allowance.
        burst: u32,
        /// The sustained rate allowed.
        per_sec: u32,
    },
    /// Reading failed.
    #[error("read error: {0}")]
    Io(String),
}

/// Token bucket for the line-rate cap.
#[derive(Debug)]
struct RateCap {
    tokens: f64,
    last: Instant,
}

/// Reads lines from an engine's output with the [`LineLimits`] and a deadline per read.
///
/// Cancel-safe: a read abandoned at its deadline (or dropped) keeps what it had read,
/// and the next call goes on from there.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    limits: LineLimits,
    rate: RateCap,
    overlong: bool,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// A reader over `inner` with `limits`.
    pub fn new(inner: R, limits: LineLimits) -> Self {
        LineReader {
            inner,
            buf: Vec::new(),
            limits,
            rate: RateCap {
                tokens: f64::from(limits.burst_lines),
                last: Instant::now(),
            },
            overlong: false,
        }
    }

    /// The next line (without its end of line, lossily decoded as UTF-8), read before `deadline`.
    ///
    /// # Errors
    /// [`ReadError`]: timeout, end of output, an overlong line, a flood, or an I/O error.
    pub async fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        match tokio::time::timeout_at(deadline, self.read_line_unbounded()).await {
            Ok(result) => result,
            Err(_) => Err(ReadError::Timeout),
        }
    }

    /// A line that is already available, without waiting (and without the timer, whose
    /// millisecond resolution would add latency): `None` when nothing complete is there.
    pub async fn try_read_line(&mut self) -> Option<Result<String, ReadError>> {
        let mut read = std::pin::pin!(self.read_line_unbounded());
        std::future::poll_fn(|cx| match std::future::Future::poll(read.as_mut(), cx) {
            std::task::Poll::Ready(result) => std::task::Poll::Ready(Some(result)),
            std::task::Poll::Pending => std::task::Poll::Ready(None),
        })
        .await
    }

    async fn read_line_unbounded(&mut self) -> Result<String, ReadError> {
        loop {
            let available = self
                .inner
                .fill_buf()
                .await
                .map_err(|e| ReadError::Io(e.to_string()))?;
            if available.is_empty() {
                if self.buf.is_empty() || self.overlong {
                    return Err(ReadError::Eof);
                }
                // A last line without an end of line.
                let line = std::mem::take(&mut self.buf);
                return self.finish(line);
            }
            match memchr(b'\n', available) {
                Some(i) => {
                    let overlong = self.overlong;
                    if !overlong {
                        self.buf.extend_from_slice(&available[..i]);
                    }
                    self.inner.consume(i + 1);
                    self.overlong = false;
                    let line = std::mem::take(&mut self.buf);
                    if overlong || line.len() > self.limits.max_line {
                        // The rest of an overlong line was skipped; report it once, at its start.
                        if overlong {
                            continue;
                        }
                        return Err(ReadError::TooLong {
                            limit: self.limits.max_line,
                        });
                    }
                    return self.finish(line);
                }
                None => {
                    let n = available.len();
                    if !self.overlong {
                        self.buf.extend_from_slice(available);
                    }
                    self.inner.consume(n);
                    if !self.overlong && self.buf.len() > self.limits.max_line {
                        self.overlong = true;
                        self.buf = Vec::new();
                        return Err(ReadError::TooLong {
                            limit: self.limits.max_line,
                        });
                    }
                }
            }
        }
    }

    fn finish(&mut self, mut line: Vec<u8>) -> Result<String, ReadError> {
        let now = Instant::now();
        let refill =
            now.duration_since(self.rate.last).as_secs_f64() * f64::from(self.limits.lines_per_sec);
        self.rate.last = now;
        self.rate.tokens = (self.rate.tokens + refill).min(f64::from(self.limits.burst_lines));
        if self.rate.tokens < 1.0 {
            return Err(ReadError::Flood {
                burst: self.limits.burst_lines,
                per_sec: self.limits.lines_per_sec,
            });
        }
        self.rate.tokens -= 1.0;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Ok(match String::from_utf8(line) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

/// A running engine process, leader of its own process group.
#[derive(Debug)]
pub struct EngineProcess {
    child: Child,
    pid: i32,
    stderr_task: Option<JoinHandle<()>>,
    killed: bool,
    /// The last few KiB of stderr (for telling a resource limit from a crash).
    stderr_tail: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    /// The box of a sandboxed engine, torn down when the process ends.
    guard: Option<BoxGuard>,
}

/// The output and input pipes of an engine.
pub type EnginePipes = (BufReader<ChildStdout>, ChildStdin);

impl EngineProcess {
    /// Starts `spec` in a new process group with piped stdin, stdout and stderr.
    ///
    /// # Errors
    /// The OS error when the program cannot be started (not found, not executable...).
    pub fn spawn(spec: &SpawnSpec) -> io::Result<(EngineProcess, EnginePipes)> {
        let (mut command, mut guard) = crate::sandbox::command(spec)?;
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Every engine leads a session of its own (sandbox::PreExec calls setsid), and so
        // a process group whose id is its pid.
        let mut child = command.spawn()?;
        let pid = child.id().map(|p| p as i32).unwrap_or(0);
        if let Some(guard) = guard.as_mut() {
            guard.watch(pid);
        }
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take().expect("piped stdin");
        let stderr = child.stderr.take().expect("piped stderr");
        let log = spec.stderr_log.clone();
        let cap = spec.stderr_cap;
        let stderr_tail = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let tail = std::sync::Arc::clone(&stderr_tail);
        let stderr_task =
            tokio::spawn(async move { drain_stderr(stderr, log.as_deref(), cap, tail).await });
        Ok((
            EngineProcess {
                child,
                pid,
                stderr_task: Some(stderr_task),
                killed: false,
                stderr_tail,
                guard,
            },
            (BufReader::with_capacity(64 * 1024, stdout), stdin),
        ))
    }

    /// The process id (also the process group id).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// The sandbox limit the engine's end points to, if it ran in a sandbox: waits briefly
    /// for the box's counters to settle, then looks at them and at the exit status (never
    /// at what the engine printed).
    pub async fn limit_violation(&self, status: Option<ExitInfo>) -> Option<Violation> {
        let guard = self.guard.as_ref()?;
        tokio::time::sleep(Duration::from_millis(50)).await;
        guard.violation(status)
    }

    /// A limit the box of a sandboxed engine has broken so far, from its counters only
    /// (the engine may still be running).
    pub fn box_violation(&self) -> Option<Violation> {
        self.guard.as_ref()?.counted_violation()
    }

    /// The memory the box of a sandboxed engine uses now and its limit (`None` without a
    /// cgroup).
    pub fn box_memory(&self) -> Option<(u64, u64)> {
        self.guard.as_ref()?.memory_now()
    }

    /// The last few KiB of what the engine wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        let t = self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&t).into_owned()
    }

    /// How the leader process ended, if it has, without reaping it
    /// (so the group id cannot be reused before the group is killed).
    pub fn exit_status(&self) -> Option<ExitInfo> {
        if self.pid <= 0 {
            return None;
        }
        // SAFETY: waitid with WNOWAIT only inspects the state of our own child.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let rc = libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT | libc::WNOHANG,
            );
            if rc != 0 || info.si_pid() == 0 {
                return None;
            }
            let status = info.si_status();
            Some(match info.si_code {
                libc::CLD_EXITED => ExitInfo::Code(status),
                _ => ExitInfo::Signal(status),
            })
        }
    }

    /// Waits up to `wait` for the leader to end; returns how it ended.
    pub async fn wait_exit(&self, wait: Duration) -> Option<ExitInfo> {
        let until = Instant::now() + wait;
        loop {
            if let Some(status) = self.exit_status() {
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// Ends the engine: gives it `grace` to exit by itself (the caller has sent `quit`
    /// and closed stdin), then kills the whole process group and reaps the leader.
    pub async fn shutdown(mut self, grace: Duration) -> Option<ExitInfo> {
        let status = self.wait_exit(grace).await;
        self.kill_group();
        let _ = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
        if let Some(mut guard) = self.guard.take() {
            // Removing a cgroup may have to wait for the kernel a few ms.
            let _ = tokio::task::spawn_blocking(move || guard.teardown()).await;
        }
        if let Some(task) = self.stderr_task.take() {
            // stderr closes when every process of the group is gone.
            let _ = tokio::time::timeout(Duration::from_millis(500), task).await;
        }
        status
    }

    /// Sends SIGKILL to the whole process group, and to every process of the box of a
    /// sandboxed engine (idempotent).
    pub fn kill_group(&mut self) {
        if !self.killed && self.pid > 0 {
            // SAFETY: plain syscall; the leader is not reaped yet, so the group id is ours.
            unsafe {
                libc::killpg(self.pid, libc::SIGKILL);
            }
            self.killed = true;
        }
        if let Some(guard) = &mut self.guard {
            guard.kill();
        }
    }

    /// Suspends a sandboxed engine's whole box while it is not on move (nothing for an
    /// engine without a box).
    pub fn suspend(&mut self) {
        if let Some(guard) = &mut self.guard {
            guard.suspend();
        }
    }

    /// Lets a suspended box run again.
    pub fn resume(&mut self) {
        if let Some(guard) = &mut self.guard {
            guard.resume();
        }
    }

    /// CPU time used so far: the whole box's for a sandboxed engine, else the engine
    /// process's own (its threads and reaped children), nanoseconds.
    pub fn cpu_ns(&self) -> Option<u64> {
        match &self.guard {
            Some(guard) => Some(guard.cpu_ns()),
            None => crate::sandbox::freeze::process_cpu_ns(self.pid),
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill_group();
        let _ = self.child.start_kill();
        if let Some(mut guard) = self.guard.take() {
            guard.teardown();
        }
    }
}

async fn drain_stderr(
    mut stderr: tokio::process::ChildStderr,
    log: Option<&Path>,
    cap: u64,
    tail: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
) {
    let mut file = match log {
        Some(path) => tokio::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .await
            .ok(),
        None => None,
    };
    let mut written: u64 = 0;
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        {
            let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
            t.extend_from_slice(&buf[..n]);
            let excess = t.len().saturating_sub(4096);
            t.drain(..excess);
        }
        if let Some(f) = file.as_mut() {
            if written < cap {
                let keep = ((cap - written) as usize).min(n);
                let _ = f.write_all(&buf[..keep]).await;
                written += keep as u64;
                if written >= cap {
                    let _ = f
                        .write_all(
                            format!("\n[arena: stderr truncated after {cap} bytes]\n").as_bytes(),
                        )
                        .await;
                }
            }
        }
    }
    if let Some(mut f) = file {
        let _ = f.flush().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_line: usize) -> LineLimits {
        LineLimits {
            max_line,
            burst_lines: 100,
            lines_per_sec: 100,
        }
    }

    /// Pids of the non-zombie processes in process group `pgid`, from /proc.
    fn live_members(pgid: i32) -> Vec<i32> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // pid (comm) state ppid pgrp ...: split after the last ')'.
            let rest = &stat[stat.rfind(')').unwrap() + 2..];
            let fields: Vec<&str> = rest.split(' ').collect();
            if fields[0] != "Z" && fields[2].parse::<i32>() == Ok(pgid) {
                out.push(pid);
            }
        }
        out
    }

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    #[tokio::test]
    async fn lines_crlf_and_last_line_without_newline() {
        let data: &[u8] = b"one\r\ntwo\n\nthree";
        let mut r = LineReader::new(data, limits(100));
        assert_eq!(r.read_line(far()).await.unwrap(), "one");
        assert_eq!(r.read_line(far()).await.unwrap(), "two");
        assert_eq!(r.read_line(far()).await.unwrap(), "");
        assert_eq!(r.read_line(far()).await.unwrap(), "three");
        assert_eq!(r.read_line(far()).await, Err(ReadError::Eof));
    }

    #[tokio::test]
    async fn overlong_line_is_reported_once_and_skipped() {
        let mut data = vec![b'x'; 1000];
        data.extend_from_slice(b"\nok\n");
        let mut r = LineReader::new(&data[..], limits(10));
        assert_eq!(
            r.read_line(far()).await,
            Err(ReadError::TooLong { limit: 10 })
        );
        assert_eq!(r.read_line(far()).await.unwrap(), "ok");
    }

    #[tokio::test]
    async fn invalid_utf8_is_replaced() {
        let data: &[u8] = b"a\xffb\n";
        let mut r = LineReader::new(data, limits(10));
        assert_eq!(r.read_line(far()).await.unwrap(), "a\u{fffd}b");
    }

    #[tokio::test]
    async fn flood_is_detected() {
        let data = "info\n".repeat(500);
        let mut r = LineReader::new(data.as_bytes(), limits(10));
        let mut got = 0;
        let err = loop {
            match r.read_line(far()).await {
                Ok(_) => got += 1,
                Err(e) => break e,
            }
        };
        assert!(matches!(err, ReadError::Flood { .. }), "{err:?}");
        assert!((100..110).contains(&got), "{got} lines before the cap");
    }

    #[tokio::test]
    async fn try_read_does_not_wait() {
        let (client, mut server) = tokio::io::duplex(64);
        let mut r = LineReader::new(BufReader::new(client), limits(100));
        let started = std::time::Instant::now();
        assert_eq!(r.try_read_line().await, None);
        server.write_all(b"ab").await.unwrap();
        assert_eq!(r.try_read_line().await, None);
        server.write_all(b"c\nd\n").await.unwrap();
        assert_eq!(r.try_read_line().await, Some(Ok("abc".into())));
        assert_eq!(r.try_read_line().await, Some(Ok("d".into())));
        assert!(started.elapsed() < Duration::from_millis(50));
    }

    #[tokio::test]
    async fn deadline_keeps_partial_line() {
        let (client, mut server) = tokio::io::duplex(64);
        let mut r = LineReader::new(BufReader::new(client), limits(100));
        server.write_all(b"hal").await.unwrap();
        let soon = Instant::now() + Duration::from_millis(30);
        assert_eq!(r.read_line(soon).await, Err(ReadError::Timeout));
        server.write_all(b"f\n").await.unwrap();
        assert_eq!(r.read_line(far()).await.unwrap(), "half");
    }

    #[tokio::test]
    async fn spawn_kill_group_and_reap() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("stderr.log");
        let spec = SpawnSpec {
            program: "/bin/sh".into(),
            args: vec![
                "-c".into(),
                "echo hello; echo oops >&2; sleep 1000 & read x; sleep 1000".into(),
            ],
            stderr_log: Some(log.clone()),
            stderr_cap: 3,
            ..SpawnSpec::default()
        };
        let (process, (stdout, stdin)) = EngineProcess::spawn(&spec).unwrap();
        let pid = process.pid();
        let mut r = LineReader::new(stdout, LineLimits::default());
        assert_eq!(r.read_line(far()).await.unwrap(), "hello");
        assert!(process.exit_status().is_none());
        drop(stdin);
        let status = process.shutdown(Duration::from_millis(50)).await;
        assert_eq!(status, None, "sleep does not exit by itself");
        // Every process of the group is dead (killed orphans may stay zombies a moment,
        // until init reaps them).
        let mut alive = live_members(pid);
        for _ in 0..100 {
            if alive.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
            alive = live_members(pid);
        }
        assert!(
            alive.is_empty(),
            "process group {pid} still has live members {alive:?}"
        );
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.starts_with("oop"), "{text}");
        assert!(text.contains("truncated after 3 bytes"), "{text}");
    }

    #[tokio::test]
    async fn exit_status_of_a_crash() {
        let spec = SpawnSpec {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), "exit 7".into()],
            ..SpawnSpec::default()
        };
        let (process, (stdout, _stdin)) = EngineProcess::spawn(&spec).unwrap();
        let mut r = LineReader::new(stdout, LineLimits::default());
        assert_eq!(r.read_line(far()).await, Err(ReadError::Eof));
        let status = process.wait_exit(Duration::from_secs(2)).await;
        assert_eq!(status, Some(ExitInfo::Code(7)));
        process.shutdown(Duration::ZERO).await;
    }
}
