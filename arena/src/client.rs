//! The protocol client: protocol verbs over any reader and writer, so tests drive it
//! through `tokio::io::duplex` with no process at all.
//!
//! Every wait has a deadline. Lines that are not protocol replies are skipped and
//! counted (engines print junk; the arena trusts nothing but must not be fragile).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt};
use tokio::time::Instant;

use crate::process::{LineLimits, LineReader, ReadError};
use agon::protocol::{Command, Info, QueryKind, Reply};

use crate::dialect::gomocup::{Heard, Link};
use crate::dialect::Dialect;

/// Longest time a write may take (an engine that stops reading fills the pipe).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a protocol exchange failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// Nothing arrived before the deadline.
    #[error("no {waiting_for} within {waited_ms} ms")]
    Timeout {
        /// What was expected (`ugiok`, `readyok`, `bestmove`, ...).
        waiting_for: String,
        /// How long the arena waited.
        waited_ms: u64,
    },
    /// The engine closed its output or its input (it exited or crashed).
    #[error("engine closed its {pipe} while the arena waited for {waiting_for}")]
    Closed {
        /// `output` or `input`.
        pipe: &'static str,
        /// What was expected.
        waiting_for: String,
    },
    /// The engine printed a line longer than the limit or too many lines.
    #[error("output flood: {0}")]
    Flood(ReadError),
    /// The engine broke the protocol.
    #[error("protocol violation: {reason} (line '{line}')")]
    Violation {
        /// The offending line (shortened).
        line: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Any other I/O failure.
    #[error("i/o error: {0}")]
    Io(String),
}

/// What an engine says about itself in the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineId {
    /// `id name`.
    pub name: Option<String>,
    /// `id author`.
    pub author: Option<String>,
    /// The names of the options it advertised.
    pub options: Vec<String>,
    /// The options as declared (type, default, bounds, combo values).
    pub declarations: Vec<agon::protocol::OptionDecl>,
}

/// The answer to a `go`: the move text as the engine wrote it, and its search report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// The move, `None` for `bestmove none`.
    pub best: Option<String>,
    /// The `bestmove` line as read.
    pub line: String,
    /// The last values of each `info` field seen during this search.
    pub info: Info,
    /// Number of `info` lines.
    pub info_lines: u64,
}

/// Direction of a transcript line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Arena to engine.
    ToEngine,
    /// Engine to arena.
    FromEngine,
    /// A note by the arena.
    Note,
}

/// One timestamped line of a game's protocol transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptLine {
    /// Time since the transcript started.
    pub at: Duration,
    /// Who the line is for (`p1`, `p2`, or an engine name).
    pub who: String,
    /// Its direction.
    pub direction: Direction,
    /// The text (long lines shortened).
    pub text: String,
}

/// A per-game protocol transcript shared by both engines' clients, with a size cap.
#[derive(Clone, Debug)]
pub struct Transcript {
    inner: Arc<Mutex<TranscriptInner>>,
}

#[derive(Debug)]
struct TranscriptInner {
    start: Instant,
    lines: Vec<TranscriptLine>,
    dropped: u64,
}

/// Most lines a transcript keeps.
pub const TRANSCRIPT_MAX_LINES: usize = 20_000;
/// Longest text kept per transcript line.
pub const TRANSCRIPT_MAX_TEXT: usize = 400;

impl Default for Transcript {
    fn default() -> Self {
        Self::new()
    }
}

impl Transcript {
    /// An empty transcript starting now.
    pub fn new() -> Self {
        Transcript {
            inner: Arc::new(Mutex::new(TranscriptInner {
                start: Instant::now(),
                lines: Vec::new(),
                dropped: 0,
            })),
        }
    }

    /// Adds a line.
    pub fn push(&self, who: &str, direction: Direction, text: &str) {
        let mut inner = self.inner.lock().expect("transcript lock");
        if inner.lines.len() >= TRANSCRIPT_MAX_LINES {
            inner.dropped += 1;
            return;
        }
        let text = shorten(text, TRANSCRIPT_MAX_TEXT);
        let at = inner.start.elapsed();
        inner.lines.push(TranscriptLine {
            at,
            who: who.to_string(),
            direction,
            text,
        });
    }

    /// The lines so far and the number of lines dropped past the cap.
    pub fn snapshot(&self) -> (Vec<TranscriptLine>, u64) {
        let inner = self.inner.lock().expect("transcript lock");
        (inner.lines.clone(), inner.dropped)
    }
}

/// `text` cut to at most `max` bytes (on a character boundary), saying how long it was.
pub fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// A protocol client for one engine.
#[derive(Debug)]
pub struct EngineClient<R, W> {
    reader: LineReader<R>,
    writer: W,
    dialect: Dialect,
    /// The translation to and from a Gomocup brain's protocol.
    gomocup: Option<Link>,
    label: String,
    transcript: Option<Transcript>,
    /// Lines that were not protocol replies.
    pub ignored_lines: u64,
    /// `error` replies seen outside a search (for example to an unknown option).
    pub warnings: Vec<String>,
}

impl<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin> EngineClient<R, W> {
    /// A client reading `reader` with `limits` and writing `writer`.
    pub fn new(reader: R, writer: W, limits: LineLimits, dialect: Dialect) -> Self {
        EngineClient {
            reader: LineReader::new(reader, limits),
            writer,
            dialect,
            gomocup: (dialect == Dialect::Gomocup).then(Link::new),
            label: String::new(),
            transcript: None,
            ignored_lines: 0,
            warnings: Vec::new(),
        }
    }

    /// Sends every line from now on to `transcript` under `label` (or stops with `None`).
    pub fn set_transcript(&mut self, transcript: Option<Transcript>, label: &str) {
        self.transcript = transcript;
        self.label = label.to_string();
    }

    /// The dialect in use.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn log(&self, direction: Direction, text: &str) {
        if let Some(t) = &self.transcript {
            t.push(&self.label, direction, text);
        }
    }

    /// Adds a note by the arena to the transcript.
    pub fn note(&self, text: &str) {
        self.log(Direction::Note, text);
    }

    /// Writes one command line and flushes it.
    ///
    /// # Errors
    /// [`ClientError::Closed`] when the engine's input is closed, [`ClientError::Timeout`]
    /// when the engine does not take the line within [`WRITE_TIMEOUT`].
    pub async fn send(&mut self, command: &Command) -> Result<(), ClientError> {
        self.send_all(std::slice::from_ref(command)).await
    }

    /// Writes several command lines with one write (one system call for `position` and
    /// `go`: less latency) and flushes them.
    ///
    /// # Errors
    /// As [`EngineClient::send`].
    pub async fn send_all(&mut self, commands: &[Command]) -> Result<(), ClientError> {
        if let Some(link) = &self.gomocup {
            let hold = link.hold_after_move();
            if !hold.is_zero() {
                tokio::time::sleep(hold).await;
            }
        }
        let mut text = String::new();
        for command in commands {
            let lines = match &mut self.gomocup {
                // Piskvork's manager ends its lines with CR LF.
                Some(link) => link
                    .lines(command)
                    .map_err(|why| {
                        ClientError::Io(format!("cannot say '{command}' to a Gomocup brain: {why}"))
                    })?
                    .into_iter()
                    .map(|l| (l, "\r\n"))
                    .collect(),
                None => vec![(crate::dialect::line(self.dialect, command), "\n")],
            };
            for (line, end) in lines {
                self.log(Direction::ToEngine, &line);
                text.push_str(&line);
                text.push_str(end);
            }
        }
        if text.is_empty() {
            return Ok(());
        }
        let write = async {
            self.writer.write_all(text.as_bytes()).await?;
            self.writer.flush().await
        };
        match tokio::time::timeout(WRITE_TIMEOUT, write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) if is_closed(&e) => Err(ClientError::Closed {
                pipe: "input",
                waiting_for: format!(
                    "it to read '{}'",
                    shorten(text.lines().next().unwrap_or(""), 60)
                ),
            }),
            Ok(Err(e)) => Err(ClientError::Io(e.to_string())),
            Err(_) => Err(ClientError::Timeout {
                waiting_for: "the engine to read its input".into(),
                waited_ms: WRITE_TIMEOUT.as_millis() as u64,
            }),
        }
    }

    /// Reads one reply; junk lines are skipped and counted. With no deadline, only what
    /// is already there is read (nothing there: a timeout at once).
    async fn next_reply(
        &mut self,
        deadline: Option<Instant>,
        started: Instant,
        waiting_for: &str,
    ) -> Result<(Reply, String), ClientError> {
        loop {
            let read = match deadline {
                Some(deadline) => self.reader.read_line(deadline).await,
                None => self
                    .reader
                    .try_read_line()
                    .await
                    .unwrap_or(Err(ReadError::Timeout)),
            };
            let line = match read {
                Ok(line) => line,
                Err(ReadError::Timeout) => {
                    if waiting_for != "nothing" {
                        self.note(&format!("timeout waiting for {waiting_for}"));
                    }
                    return Err(ClientError::Timeout {
                        waiting_for: waiting_for.to_string(),
                        waited_ms: started.elapsed().as_millis() as u64,
                    });
                }
                Err(ReadError::Eof) => {
                    self.note("end of engine output");
                    return Err(ClientError::Closed {
                        pipe: "output",
                        waiting_for: waiting_for.to_string(),
                    });
                }
                Err(ReadError::Io(e)) => return Err(ClientError::Io(e)),
                Err(e) => {
                    self.note(&format!("output flood: {e}"));
                    return Err(ClientError::Flood(e));
                }
            };
            self.log(Direction::FromEngine, &line);
            if let Some(link) = &mut self.gomocup {
                match link.hear(&line) {
                    Heard::Reply(reply) => return Ok((reply, line)),
                    // An awaited OK reads as `readyok`: the end of a Gomocup ping.
                    Heard::Acknowledged => return Ok((Reply::ReadyOk, line)),
                    Heard::Junk => self.ignored_lines += 1,
                }
                continue;
            }
            match line.parse::<Reply>() {
                Ok(reply) => return Ok((reply, line)),
                Err(_) => self.ignored_lines += 1,
            }
        }
    }

    /// Sends the hello word (`ugi`) and reads up to its `ok`, collecting `id` and `option` lines.
    ///
    /// # Errors
    /// Timeout, closed pipes, floods; a `bestmove` before the handshake is a violation.
    pub async fn handshake(&mut self, deadline: Instant) -> Result<EngineId, ClientError> {
        let started = Instant::now();
        let Some(wire) = self.dialect.wire() else {
            return self.about(deadline).await;
        };
        self.send(&Command::Hello(wire)).await?;
        let waiting = format!("{}ok", self.dialect.name());
        let mut id = EngineId::default();
        loop {
            match self.next_reply(Some(deadline), started, &waiting).await? {
                (Reply::HelloOk(d), _) if d == wire => return Ok(id),
                (Reply::Id { field, value }, _) => match field.as_str() {
                    "name" => id.name = Some(value),
                    "author" => id.author = Some(value),
                    _ => {}
                },
                (Reply::Option(decl), _) => {
                    id.options.push(decl.name.clone());
                    id.declarations.push(decl);
                }
                (Reply::BestMove(_), line) => return Err(violation(&line, "bestmove without go")),
                (Reply::Error { code, message }, _) => {
                    self.warnings.push(format!("{code} {message}"))
                }
                _ => {}
            }
        }
    }

    /// A Gomocup brain's handshake: `ABOUT`, answered by `name="...", ...` (or `UNKNOWN`
    /// by brains that predate it: no name then).
    async fn about(&mut self, deadline: Instant) -> Result<EngineId, ClientError> {
        let started = Instant::now();
        self.send(&Command::Hello(agon::protocol::Dialect::Ugi))
            .await?;
        let mut id = EngineId::default();
        loop {
            match self
                .next_reply(Some(deadline), started, "the answer to ABOUT")
                .await?
            {
                (Reply::Id { value, .. }, _) => {
                    id.name = Some(value);
                    return Ok(id);
                }
                (Reply::Error { .. }, _) => return Ok(id),
                (Reply::BestMove(_), line) => {
                    return Err(violation(&line, "a move without a TURN"))
                }
                _ => {}
            }
        }
    }

    /// `isready` and wait for `readyok`. A Gomocup brain has no such pair: its ping waits
    /// for the `OK` of a `START` or `RESTART` still to come, else returns at once.
    ///
    /// # Errors
    /// Timeout (a stall), closed pipes, floods, a `bestmove` without `go`; a Gomocup
    /// brain's `ERROR` instead of `OK`.
    pub async fn ping(&mut self, deadline: Instant) -> Result<(), ClientError> {
        let started = Instant::now();
        if self.gomocup.is_some() {
            while self.gomocup.as_ref().is_some_and(Link::awaiting_ok) {
                match self.next_reply(Some(deadline), started, "OK").await? {
                    (Reply::Error { .. }, line) => {
                        return Err(violation(&line, "the brain refused the board"))
                    }
                    (Reply::BestMove(_), line) => {
                        return Err(violation(&line, "a move without a TURN"))
                    }
                    _ => {}
                }
            }
            return Ok(());
        }
        self.send(&Command::IsReady).await?;
        loop {
            match self.next_reply(Some(deadline), started, "readyok").await? {
                (Reply::ReadyOk, _) => return Ok(()),
                (Reply::BestMove(_), line) => return Err(violation(&line, "bestmove without go")),
                (Reply::Error { code, message }, _) => {
                    self.warnings.push(format!("{code} {message}"))
                }
                _ => {}
            }
        }
    }

    /// Reads whatever the engine already printed, without waiting: a `bestmove` there
    /// was sent without a `go` (a second `bestmove` for one search, say) and would be
    /// taken as the answer to the next `go`, so it is a violation. Other lines are skipped.
    ///
    /// # Errors
    /// A violation for a stray `bestmove`; closed pipes and floods as usual.
    pub async fn drain_pending(&mut self) -> Result<(), ClientError> {
        let now = Instant::now();
        loop {
            match self.next_reply(None, now, "nothing").await {
                Ok((Reply::BestMove(_), line)) => {
                    return Err(violation(&line, "bestmove without go"))
                }
                Ok(_) => {}
                Err(ClientError::Timeout { .. }) => return Ok(()),
                Err(e) => return Err(e),
            }
        }
    }

    /// Reads `info` lines up to `bestmove` (after the caller sent `go`).
    ///
    /// # Errors
    /// Timeout (the caller decides whether it is a time forfeit), closed pipes, floods;
    /// an `error` reply instead of a move is a violation.
    pub async fn read_bestmove(
        &mut self,
        deadline: Instant,
        started: Instant,
    ) -> Result<SearchReport, ClientError> {
        self.read_bestmove_watching(deadline, started, &mut |_| {})
            .await
    }

    /// [`read_bestmove`](Self::read_bestmove), calling `watch` with the merged search
    /// report after every `info` line (a live view of the search).
    ///
    /// # Errors
    /// As `read_bestmove`.
    pub async fn read_bestmove_watching(
        &mut self,
        deadline: Instant,
        started: Instant,
        watch: &mut (dyn FnMut(&Info) + Send),
    ) -> Result<SearchReport, ClientError> {
        let mut report = SearchReport::default();
        loop {
            match self.next_reply(Some(deadline), started, "bestmove").await? {
                (Reply::BestMove(best), line) => {
                    report.best = best;
                    report.line = line;
                    return Ok(report);
                }
                (Reply::Info(info), _) => {
                    report.info_lines += 1;
                    merge_info(&mut report.info, info);
                    watch(&report.info);
                }
                (Reply::Error { .. }, line) => {
                    return Err(violation(&line, "error reply instead of a move"))
                }
                _ => {}
            }
        }
    }

    /// Asks a `query` and returns the text of its `response`.
    ///
    /// # Errors
    /// Timeout, closed pipes, floods; an `error` reply is returned as a violation.
    pub async fn query(
        &mut self,
        kind: QueryKind,
        deadline: Instant,
    ) -> Result<String, ClientError> {
        let started = Instant::now();
        if self.gomocup.is_some() {
            return Err(violation("query", "the Gomocup protocol has no query"));
        }
        self.send(&Command::Query(kind)).await?;
        loop {
            match self.next_reply(Some(deadline), started, "response").await? {
                (Reply::Response(text), _) => return Ok(text),
                (Reply::Error { .. }, line) => return Err(violation(&line, "query refused")),
                _ => {}
            }
        }
    }

    /// Sends `games` then `isready` and reads up to `readyok`: the names of the games the
    /// engine listed (none from an engine that ignores `games`, as old UCI engines do).
    ///
    /// # Errors
    /// Timeout, closed pipes, floods.
    pub async fn list_games(&mut self, deadline: Instant) -> Result<Vec<String>, ClientError> {
        let started = Instant::now();
        self.send_all(&[Command::Games, Command::IsReady]).await?;
        let mut names = Vec::new();
        loop {
            match self.next_reply(Some(deadline), started, "readyok").await? {
                (Reply::ReadyOk, _) => return Ok(names),
                (Reply::Game(text), _) => {
                    if let Some(name) = text.split_whitespace().next() {
                        names.push(name.to_ascii_lowercase());
                    }
                }
                _ => {}
            }
        }
    }

    /// Sends `quit` and closes the engine's input, ignoring errors (it may be gone).
    pub async fn quit(&mut self) {
        let _ = self.send(&Command::Quit).await;
        let _ = tokio::time::timeout(Duration::from_millis(200), self.writer.shutdown()).await;
    }
}

fn violation(line: &str, reason: &str) -> ClientError {
    ClientError::Violation {
        line: shorten(line, 200),
        reason: reason.to_string(),
    }
}

fn is_closed(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::UnexpectedEof
    )
}

/// Keeps the latest value of each field (the principal variation of the latest line that has one).
fn merge_info(into: &mut Info, info: Info) {
    if info.string.is_some() && info.depth.is_none() && info.score.is_none() {
        return;
    }
    into.depth = info.depth.or(into.depth);
    into.seldepth = info.seldepth.or(into.seldepth);
    into.score = info.score.or(into.score);
    into.nodes = info.nodes.or(into.nodes);
    into.nps = info.nps.or(into.nps);
    into.time = info.time.or(into.time);
    into.hashfull = info.hashfull.or(into.hashfull);
    if !info.pv.is_empty() {
        into.pv = info.pv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon::protocol::{Go, PositionSpec, Score};
    use tokio::io::{AsyncBufReadExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

    type TestClient = EngineClient<BufReader<ReadHalf<DuplexStream>>, WriteHalf<DuplexStream>>;

    /// A client connected to a fake engine: (client, engine's reader of commands, engine's writer).
    fn pair() -> (
        TestClient,
        BufReader<ReadHalf<DuplexStream>>,
        WriteHalf<DuplexStream>,
    ) {
        let (arena_side, engine_side) = tokio::io::duplex(1 << 16);
        let (ar, aw) = tokio::io::split(arena_side);
        let (er, ew) = tokio::io::split(engine_side);
        let limits = LineLimits {
            max_line: 1000,
            burst_lines: 1000,
            lines_per_sec: 1000,
        };
        (
            EngineClient::new(BufReader::new(ar), aw, limits, Dialect::Ugi),
            BufReader::new(er),
            ew,
        )
    }

    fn soon(ms: u64) -> Instant {
        Instant::now() + Duration::from_millis(ms)
    }

    async fn expect_line(r: &mut BufReader<ReadHalf<DuplexStream>>, want: &str) {
        let mut line = String::new();
        r.read_line(&mut line).await.unwrap();
        assert_eq!(line.trim_end(), want);
    }

    #[tokio::test]
    async fn handshake_skips_junk_and_reads_ids() {
        let (mut client, mut cmds, mut out) = pair();
        out.write_all(b"hello world\nid name Bot 1\nid author Me\noption name Depth type spin default 3 min 1 max 9\nugiok\n")
            .await
            .unwrap();
        let id = client.handshake(soon(1000)).await.unwrap();
        expect_line(&mut cmds, "ugi").await;
        assert_eq!(id.name.as_deref(), Some("Bot 1"));
        assert_eq!(id.author.as_deref(), Some("Me"));
        assert_eq!(id.options.len(), 1);
        assert_eq!(client.ignored_lines, 1);
    }

    #[tokio::test]
    async fn ping_times_out_without_readyok() {
        let (mut client, mut cmds, _out) = pair();
        let err = client.ping(soon(30)).await.unwrap_err();
        expect_line(&mut cmds, "isready").await;
        assert!(
            matches!(&err, ClientError::Timeout { waiting_for, .. } if waiting_for == "readyok"),
            "{err:?}"
        );
    }

    #[tokio::test]
    async fn bestmove_with_info_merged() {
        let (mut client, mut cmds, mut out) = pair();
        client
            .send(&Command::Position {
                position: PositionSpec::StartPos,
                moves: vec!["b2".into(), "a1".into()],
            })
            .await
            .unwrap();
        client
            .send(&Command::Go(Go {
                p1time: Some(1000),
                p2time: Some(900),
                p1inc: Some(10),
                p2inc: Some(10),
                ..Go::default()
            }))
            .await
            .unwrap();
        expect_line(&mut cmds, "position startpos moves b2 a1").await;
        expect_line(&mut cmds, "go p1time 1000 p2time 900 p1inc 10 p2inc 10").await;
        out.write_all(
            b"info depth 1 score cp 5 nodes 10 pv c3\ninfo string thinking\ninfo depth 2 seldepth 4 score win 3 nodes 99 nps 1000 time 7 pv c1 a3 b3\nbestmove c1 ponder a3\n",
        )
        .await
        .unwrap();
        let report = client
            .read_bestmove(soon(1000), Instant::now())
            .await
            .unwrap();
        assert_eq!(report.best.as_deref(), Some("c1"));
        assert_eq!(report.info_lines, 3);
        assert_eq!(report.info.depth, Some(2));
        assert_eq!(report.info.seldepth, Some(4));
        assert_eq!(report.info.score, Some(Score::Win(3)));
        assert_eq!(report.info.nodes, Some(99));
        assert_eq!(report.info.pv, vec!["c1", "a3", "b3"]);
    }

    #[tokio::test]
    async fn eof_is_closed_and_overlong_is_flood() {
        let (mut client, _cmds, mut out) = pair();
        out.write_all(&vec![b'x'; 5000]).await.unwrap();
        let err = client
            .read_bestmove(soon(1000), Instant::now())
            .await
            .unwrap_err();
        assert!(
            matches!(err, ClientError::Flood(ReadError::TooLong { .. })),
            "{err:?}"
        );
        drop(out);
        let (mut client, cmds, out) = pair();
        drop(out);
        drop(cmds);
        let err = client
            .read_bestmove(soon(1000), Instant::now())
            .await
            .unwrap_err();
        assert!(
            matches!(err, ClientError::Closed { pipe: "output", .. }),
            "{err:?}"
        );
    }

    #[tokio::test]
    async fn stray_bestmove_is_caught_before_the_next_go() {
        let (mut client, _cmds, mut out) = pair();
        client.drain_pending().await.unwrap();
        out.write_all(b"info string late\nbestmove a1\n")
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let err = client.drain_pending().await.unwrap_err();
        assert!(
            matches!(&err, ClientError::Violation { reason, .. } if reason == "bestmove without go"),
            "{err:?}"
        );
    }

    #[tokio::test]
    async fn error_reply_during_search_is_a_violation() {
        let (mut client, _cmds, mut out) = pair();
        out.write_all(b"error no-position no position set\n")
            .await
            .unwrap();
        let err = client
            .read_bestmove(soon(1000), Instant::now())
            .await
            .unwrap_err();
        assert!(matches!(err, ClientError::Violation { .. }), "{err:?}");
    }

    #[tokio::test]
    async fn transcript_records_both_directions() {
        let (mut client, _cmds, mut out) = pair();
        let t = Transcript::new();
        client.set_transcript(Some(t.clone()), "p1");
        out.write_all(b"readyok\n").await.unwrap();
        client.ping(soon(1000)).await.unwrap();
        let (lines, dropped) = t.snapshot();
        assert_eq!(dropped, 0);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].direction, Direction::ToEngine);
        assert_eq!(lines[0].text, "isready");
        assert_eq!(lines[1].direction, Direction::FromEngine);
        assert_eq!(lines[1].text, "readyok");
        assert!(lines[0].at <= lines[1].at);
    }
}
