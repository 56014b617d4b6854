//! `arena check`: a conformance checker for one engine and one game.
//!
//! It starts the engine once and walks it through what a controller relies on, one check
//! at a time, each with a deadline: the handshake, option lines, `isready`, the `Game`
//! option, CRLF input, an unknown command, `stop` while idle, moves from several
//! positions (checked with the library's rules), `isready` during a search, exactly one
//! `bestmove` per `go`, time limits (movetime and clock), an illegal move in a `position`
//! list, `perft` where the engine offers it, and `quit`. Each failure comes with a
//! concrete hint. Required checks follow the minimal subset of protocol.md section 2;
//! the others are recommendations (reported, not failing the run).

use std::time::Duration;

use serde::Serialize;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout};
use tokio::time::Instant;

use agon::games::{new_game, AnyGame, GameSpec};
use agon::protocol::Reply;

use crate::dialect::Dialect;

mod gomocup;

use crate::process::{EngineProcess, LineLimits, LineReader, ReadError, SpawnSpec};

/// What to check.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The game the engine is checked on.
    pub spec: GameSpec,
    /// How to start the engine.
    pub engine: SpawnSpec,
    /// The handshake dialect.
    pub dialect: Dialect,
    /// Deadline for the handshake of a freshly started engine (`--startup-ms`, the same
    /// in `check`, `grade` and `match`).
    pub startup: Duration,
    /// Deadline for replies that should come at once (`readyok` and the like).
    pub deadline: Duration,
    /// The `movetime` of the timed searches, in ms.
    pub movetime: u64,
    /// Time a search may overrun its limit.
    pub margin: Duration,
    /// Seed of the positions the engine is asked to move in.
    pub seed: u64,
}

/// The result of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Met.
    Pass,
    /// Not met.
    Fail,
    /// Not applicable.
    Skip,
    /// Not reached because the engine stopped working before it: a required check
    /// missed is a failure.
    Missed,
}

/// One check of the report.
#[derive(Clone, Debug, Serialize)]
pub struct CheckResult {
    /// Short identifier (`handshake`, `isready-during-search`, ...).
    pub id: &'static str,
    /// Whether a failure fails the run.
    pub required: bool,
    /// Pass, fail or skip.
    pub status: Status,
    /// What was seen.
    pub detail: String,
    /// What to do about a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The engine command.
    pub engine: String,
    /// The game spec.
    pub game: String,
    /// The dialect.
    pub dialect: String,
    /// `id name`, if given.
    pub id_name: Option<String>,
    /// Every required check passed (none failed, none was missed).
    pub passed: bool,
    /// Every check, in order.
    pub checks: Vec<CheckResult>,
    /// The last lines the engine wrote to stderr (a traceback, a panic message).
    pub stderr_tail: Vec<String>,
}

impl CheckReport {
    /// The human-readable report. Engine text in it (its name, what it printed) has its
    /// control characters shown escaped.
    pub fn text(&self) -> String {
        use crate::safe_text::display;
        let mut out = format!(
            "arena check: {} (game {}, dialect {})\n",
            display(&self.engine),
            display(&self.game),
            self.dialect
        );
        let mut i = 0;
        while i < self.checks.len() {
            let c = &self.checks[i];
            i += 1;
            // Checks not reached for the same reason share one line.
            if matches!(c.status, Status::Missed | Status::Skip)
                && c.detail.starts_with("not checked: ")
            {
                let mut ids = vec![c.id];
                while let Some(next) = self.checks.get(i) {
                    if next.status == c.status && next.detail == c.detail {
                        ids.push(next.id);
                        i += 1;
                    } else {
                        break;
                    }
                }
                let word = if c.status == Status::Missed {
                    "MISS"
                } else {
                    "skip"
                };
                out.push_str(&format!("  {word} {} ({})\n", ids.join(", "), c.detail));
                continue;
            }
            let status = match (c.status, c.required) {
                (Status::Pass, _) => "PASS",
                (Status::Fail, true) => "FAIL",
                (Status::Fail, false) => "WARN",
                (Status::Skip, _) => "skip",
                (Status::Missed, true) => "MISS",
                (Status::Missed, false) => "skip",
            };
            out.push_str(&format!("  {status} {:<24} {}\n", c.id, display(&c.detail)));
            if c.status == Status::Fail {
                if let Some(h) = &c.hint {
                    out.push_str(&format!("       hint: {}\n", display(h)));
                }
            }
        }
        if !self.stderr_tail.is_empty() {
            out.push_str(&format!(
                "  Its error output (stderr), last {} line(s):\n",
                self.stderr_tail.len()
            ));
            for line in &self.stderr_tail {
                out.push_str(&format!("    | {}\n", display(line)));
            }
        }
        let failed = self.failed(true);
        let warned = self.failed(false);
        let missed = self
            .checks
            .iter()
            .filter(|c| c.required && c.status == Status::Missed)
            .count();
        out.push_str(&if self.passed {
            format!("Result: PASS ({warned} recommendation(s) not met)\n")
        } else if missed > 0 {
            format!("Result: FAIL ({failed} required check(s) failed, {missed} not reached, {warned} recommendation(s) not met)\n")
        } else {
            format!("Result: FAIL ({failed} required check(s) failed, {warned} recommendation(s) not met)\n")
        });
        out
    }

    fn failed(&self, required: bool) -> usize {
        self.checks
            .iter()
            .filter(|c| c.status == Status::Fail && c.required == required)
            .count()
    }

    /// What is wrong, in a few words that the same engine repeats exactly (no times),
    /// for a teacher's table: `ok` when every required check passed.
    pub fn diagnosis(&self) -> String {
        let Some(c) = self.first_problem() else {
            return "ok".into();
        };
        let first_part = |text: &str| text.split("; ").next().unwrap_or("").to_string();
        match c.id {
            "start" => format!("cannot start: {}", c.detail),
            "crash" => format!("crashed: {}", c.detail),
            "handshake" if c.detail.contains("stuck in its output buffer") => {
                "never flushes its output: replies come only when it exits".into()
            }
            "handshake" if c.detail.starts_with("slow start") => {
                "slow start: no handshake within the startup time".into()
            }
            "handshake" => "no answer to the handshake".into(),
            // No move at all within the deadline is slowness, not an illegal move.
            "legal-moves"
                if c.detail.starts_with("no output within")
                    || c.detail.starts_with("no expected reply within") =>
            {
                format!("too slow: {}", first_part(&c.detail))
            }
            "legal-moves" => format!("plays an illegal move: {}", first_part(&c.detail)),
            "stray-output" => format!("stray output: {}", c.detail),
            "movetime" | "clock" => "too slow: over its time limit".into(),
            "isready-during-search" => "does not answer isready while it searches".into(),
            id => format!("fails the {id} check"),
        }
    }

    /// The first required check that failed or was missed, for a one-line summary.
    pub fn first_problem(&self) -> Option<&CheckResult> {
        self.checks
            .iter()
            .find(|c| c.required && matches!(c.status, Status::Fail | Status::Missed))
    }
}

/// Why waiting for a line ended without it.
enum Wait {
    Timeout(Vec<String>),
    Closed(Vec<String>),
    Flood(String),
}

impl Wait {
    fn describe(&self, what: &str, within: Duration) -> String {
        match self {
            Wait::Timeout(seen) if seen.is_empty() => {
                format!("no output within {} ms of {what}", within.as_millis())
            }
            Wait::Timeout(seen) => format!(
                "no expected reply within {} ms of {what} (it printed: {})",
                within.as_millis(),
                summary(seen)
            ),
            Wait::Closed(seen) if seen.is_empty() => format!("the engine exited after {what}"),
            Wait::Closed(seen) => format!(
                "the engine exited after {what} (it printed: {})",
                summary(seen)
            ),
            Wait::Flood(e) => format!("output flood after {what}: {e}"),
        }
    }
}

fn summary(lines: &[String]) -> String {
    let shown: Vec<String> = lines
        .iter()
        .take(3)
        .map(|l| format!("'{}'", crate::client::shorten(l, 60)))
        .collect();
    let more = if lines.len() > 3 {
        format!(" and {} more lines", lines.len() - 3)
    } else {
        String::new()
    };
    format!("{}{more}", shown.join(", "))
}

/// Lines of the engine's stderr kept in the report.
const STDERR_LINES: usize = 20;

const FLUSH_HINT: &str = "does your program flush stdout after each line? In Python use print(..., flush=True) (or run it with python3 -u); in C call fflush(stdout); in Rust stdout is line-buffered only on a terminal: call flush()";

const STRAY_HINT: &str = "print debugging output to stderr, never to stdout (in Python: print(..., file=sys.stderr)): a GUI reads every stdout line as a protocol reply";

/// The first words of every reply of protocol.md (a line starting otherwise is not part
/// of the protocol).
const REPLY_WORDS: &[&str] = &[
    "id",
    "option",
    "ugiok",
    "uciok",
    "teiok",
    "readyok",
    "info",
    "bestmove",
    "response",
    "error",
    "divide",
    "perft",
    "moves",
    "board",
    "showok",
    "game",
    "gamesok",
    "solution",
    "copyprotection",
    "registration",
];

struct Session {
    process: EngineProcess,
    reader: LineReader<BufReader<ChildStdout>>,
    stdin: ChildStdin,
    alive: bool,
    /// The last command sent other than `isready` (which follows most probes), for
    /// saying when the engine died.
    last_sent: String,
    /// Lines on stdout that are no protocol reply (the first few) and their number.
    stray: Vec<String>,
    stray_count: usize,
    /// A Gomocup brain: lines end in CR LF and replies are Gomocup's.
    gomocup: bool,
}

impl Session {
    async fn send(&mut self, line: &str) -> bool {
        if line != "isready" || self.last_sent.is_empty() {
            self.last_sent = line.to_string();
        }
        let end = if self.gomocup { "\r\n" } else { "\n" };
        self.send_bytes(format!("{line}{end}").as_bytes()).await
    }

    /// Notes a line that is no protocol reply.
    fn note(&mut self, line: &str) {
        let first = line.split_whitespace().next().unwrap_or("");
        let reply = if self.gomocup {
            agon::protocol::gomocup::parse_reply(line).is_some()
        } else {
            REPLY_WORDS.contains(&first)
        };
        if !line.is_empty() && !reply {
            self.stray_count += 1;
            let shown = crate::client::shorten(line, 60);
            if self.stray.len() < 3 && !self.stray.contains(&shown) {
                self.stray.push(shown);
            }
        }
    }

    async fn send_bytes(&mut self, bytes: &[u8]) -> bool {
        let write = async {
            self.stdin.write_all(bytes).await?;
            self.stdin.flush().await
        };
        let ok = matches!(
            tokio::time::timeout(Duration::from_secs(2), write).await,
            Ok(Ok(()))
        );
        if !ok {
            self.alive = false;
        }
        ok
    }

    /// Reads until a line satisfies `want`; returns it and the lines skipped before it.
    async fn expect(
        &mut self,
        want: impl Fn(&str) -> bool,
        within: Duration,
    ) -> Result<(String, Vec<String>), Wait> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            match self.reader.read_line(deadline).await {
                Ok(line) => {
                    let line = line.trim().to_string();
                    self.note(&line);
                    if want(&line) {
                        return Ok((line, seen));
                    }
                    if !line.is_empty() {
                        seen.push(line);
                    }
                }
                Err(ReadError::Timeout) => return Err(Wait::Timeout(seen)),
                Err(ReadError::Eof) | Err(ReadError::Io(_)) => {
                    self.alive = false;
                    return Err(Wait::Closed(seen));
                }
                Err(e) => {
                    self.alive = false;
                    return Err(Wait::Flood(e.to_string()));
                }
            }
        }
    }

    /// Every line that arrives within `within` (for extra `bestmove`s).
    async fn collect(&mut self, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut lines = Vec::new();
        while let Ok(line) = self.reader.read_line(deadline).await {
            let line = line.trim().to_string();
            self.note(&line);
            lines.push(line);
        }
        lines
    }

    /// The engine has stopped working (it exited, or flooded its output): records why as
    /// the `crash` check, with its exit status and the command it died after, and marks
    /// every required check not reached as missed.
    async fn stopped(&mut self, checks: &mut Checks) {
        let status = self.process.wait_exit(Duration::from_millis(500)).await;
        let detail = match status {
            Some(status) => format!(
                "the engine {status} after '{}'",
                crate::client::shorten(&self.last_sent, 60)
            ),
            None => format!(
                "the engine closed its output after '{}'",
                crate::client::shorten(&self.last_sent, 60)
            ),
        };
        let first = self.last_sent.split_whitespace().next().unwrap_or("");
        let hint = if first == "agon-check-unknown-command" {
            "it exited on a command it does not know: ignore commands you do not know (or answer 'error unknown-command ...'); never exit on them"
        } else if first == "stop" {
            "it exited on 'stop' while it was not searching: ignore 'stop' then"
        } else if self.process.stderr_tail().trim().is_empty() {
            "it crashed without an error message: run it by hand and type the same commands to see where it stops"
        } else {
            "it crashed: its error output is shown below the checks"
        };
        checks.fail("crash", true, detail, hint);
        skip_rest(checks, "the engine had stopped");
    }
}

fn is_bestmove(line: &str) -> bool {
    line == "bestmove" || line.starts_with("bestmove ")
}

fn is_error(line: &str) -> bool {
    line.starts_with("error ") || line == "error"
}

/// The checks, accumulated.
struct Checks {
    results: Vec<CheckResult>,
    /// Every check the walk in use decides, with whether it is required.
    planned: Vec<(&'static str, bool)>,
}

impl Checks {
    fn pass(&mut self, id: &'static str, required: bool, detail: impl Into<String>) {
        self.results.push(CheckResult {
            id,
            required,
            status: Status::Pass,
            detail: detail.into(),
            hint: None,
        });
    }

    fn fail(
        &mut self,
        id: &'static str,
        required: bool,
        detail: impl Into<String>,
        hint: impl Into<String>,
    ) {
        self.results.push(CheckResult {
            id,
            required,
            status: Status::Fail,
            detail: detail.into(),
            hint: Some(hint.into()),
        });
    }

    fn skip(&mut self, id: &'static str, required: bool, detail: impl Into<String>) {
        self.results.push(CheckResult {
            id,
            required,
            status: Status::Skip,
            detail: detail.into(),
            hint: None,
        });
    }
}

/// Positions to ask for moves: the start and positions along seeded random games, as
/// move lists: a position every two plies, and when a game ends before `count` positions
/// (tic-tac-toe's do), a new random game from the start, so that there are `count`.
fn positions(spec: &GameSpec, seed: u64, count: usize) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    let Ok(mut game) = new_game(spec, None) else {
        return out;
    };
    let mut state = seed;
    let mut moves = Vec::new();
    // A bound for games that end at once from the start (no game of the registry does).
    let mut restarts = 0;
    while out.len() < count && restarts < 64 {
        for _ in 0..2 {
            let legal = game.legal_moves();
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            let (next, r) = agon::zobrist::splitmix64(state);
            state = next;
            let mv = legal[(r % legal.len() as u64) as usize].clone();
            let canonical = game.play(&mv).expect("a legal move");
            moves.push(canonical);
        }
        if game.outcome().is_none() && !game.legal_moves().is_empty() && !out.contains(&moves) {
            out.push(moves.clone());
        } else if game.outcome().is_some() || game.legal_moves().is_empty() {
            restarts += 1;
            let Ok(fresh) = new_game(spec, None) else {
                break;
            };
            game = fresh;
            moves.clear();
        }
    }
    out
}

fn position_line(moves: &[String]) -> String {
    if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    }
}

/// Runs every check against the engine of `config`.
pub async fn run_checks(config: &CheckConfig) -> CheckReport {
    let gomocup = config.dialect == Dialect::Gomocup;
    let mut checks = Checks {
        results: Vec::new(),
        planned: if gomocup {
            gomocup::planned()
        } else {
            STEPS
                .iter()
                .flat_map(|(_, ids)| ids.iter().copied())
                .collect()
        },
    };
    let mut report = CheckReport {
        engine: std::iter::once(config.engine.program.display().to_string())
            .chain(config.engine.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        game: config.spec.to_string(),
        dialect: config.dialect.to_string(),
        id_name: None,
        passed: false,
        checks: Vec::new(),
        stderr_tail: Vec::new(),
    };
    match EngineProcess::spawn(&config.engine) {
        Ok((process, (stdout, stdin))) => {
            checks.pass("start", true, format!("started (pid {})", process.pid()));
            let mut s = Session {
                process,
                reader: LineReader::new(stdout, LineLimits::default()),
                stdin,
                alive: true,
                last_sent: String::new(),
                stray: Vec::new(),
                stray_count: 0,
                gomocup,
            };
            report.id_name = if gomocup {
                gomocup::walk(config, &mut s, &mut checks).await
            } else {
                walk(config, &mut s, &mut checks).await
            };
            if s.stray_count == 0 {
                checks.pass("stray-output", true, "every stdout line is a protocol reply");
            } else {
                checks.fail(
                    "stray-output",
                    true,
                    format!(
                        "{} stdout line(s) that are no protocol reply, such as {}",
                        s.stray_count,
                        s.stray
                            .iter()
                            .map(|l| format!("'{l}'"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    STRAY_HINT,
                );
            }
            if s.process.exit_status().is_none() {
                s.process.kill_group();
            }
            // Its stderr arrives through a pipe: give the last lines a moment.
            tokio::time::sleep(Duration::from_millis(50)).await;
            let tail = s.process.stderr_tail();
            let lines: Vec<String> = tail.lines().map(str::to_string).collect();
            report.stderr_tail = lines[lines.len().saturating_sub(STDERR_LINES)..].to_vec();
        }
        Err(e) => checks.fail(
            "start",
            true,
            format!("cannot start {}: {e}", config.engine.program.display()),
            "check the path; a script needs to be executable (chmod +x) with a first line such as #!/usr/bin/env python3, or give its interpreter with --python",
        ),
    }
    report.passed = !checks
        .results
        .iter()
        .any(|c| c.required && matches!(c.status, Status::Fail | Status::Missed));
    report.checks = checks.results;
    report
}

/// The steps of the walk, in the order they run. Each is one exchange with the engine
/// and decides the named checks; a required check a run does not reach is missed.
const STEPS: &[(Step, &[(&str, bool)])] = &[
    // The handshake reports its own failures (nothing after it is reached without it).
    (Step::Handshake, &[]),
    (Step::Options, &[("options", true)]),
    (Step::Isready, &[("isready", true)]),
    (Step::Game, &[("game", true)]),
    (Step::Crlf, &[("crlf", true)]),
    (Step::UnknownCommand, &[("unknown-command", true)]),
    (Step::StopIdle, &[("stop-idle", true)]),
    (
        Step::Moves,
        &[
            ("legal-moves", true),
            ("one-bestmove", true),
            ("movetime", true),
        ],
    ),
    (Step::Clock, &[("clock", true)]),
    (
        Step::IsreadyDuringSearch,
        &[("isready-during-search", true)],
    ),
    (Step::IllegalInList, &[("illegal-in-list", false)]),
    (Step::Perft, &[("perft", false)]),
    (Step::Quit, &[("quit", true)]),
];

/// One step of the walk ([`STEPS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// `ugi` (or the dialect's hello) answered by `ugiok`, with `id` and option lines.
    Handshake,
    /// The option lines parse.
    Options,
    /// `isready` answered by `readyok`.
    Isready,
    /// The game is accepted (`setoption name Game`, TEI's `teinewgame <size>`).
    Game,
    /// A line ending in CR LF.
    Crlf,
    /// A command it does not know, then `isready`.
    UnknownCommand,
    /// `stop` while no search runs.
    StopIdle,
    /// Legal moves from several positions, one `bestmove` per `go`, within `movetime`.
    Moves,
    /// A move within a clock.
    Clock,
    /// `isready` answered during a search.
    IsreadyDuringSearch,
    /// An illegal move in a `position` list is reported.
    IllegalInList,
    /// `perft`, where offered, counts as the library does.
    Perft,
    /// `quit` ends the process.
    Quit,
}

/// What a step leaves for the walk: go on, or stop (the step has said why).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Next,
    Stop,
}

/// The state the steps share.
struct Walk<'a> {
    config: &'a CheckConfig,
    s: &'a mut Session,
    checks: &'a mut Checks,
    /// The engine's `id name`.
    id_name: Option<String>,
    /// The handshake's lines before its ok.
    options: Vec<String>,
}

/// The checks after a successful start, step by step ([`STEPS`]); returns the engine's
/// `id name`. An engine that stops working ends the walk with the `crash` check.
async fn walk(config: &CheckConfig, s: &mut Session, checks: &mut Checks) -> Option<String> {
    let mut w = Walk {
        config,
        s,
        checks,
        id_name: None,
        options: Vec::new(),
    };
    for (step, _) in STEPS {
        let flow = match step {
            Step::Handshake => handshake(&mut w).await,
            Step::Options => options(&mut w),
            Step::Isready => isready(&mut w).await,
            Step::Game => game(&mut w).await,
            Step::Crlf => crlf(&mut w).await,
            Step::UnknownCommand => unknown_command(&mut w).await,
            Step::StopIdle => stop_idle(&mut w).await,
            Step::Moves => moves(&mut w).await,
            Step::Clock => clock(&mut w).await,
            Step::IsreadyDuringSearch => isready_during_search(&mut w).await,
            Step::IllegalInList => illegal_in_list(&mut w).await,
            Step::Perft => perft(&mut w).await,
            Step::Quit => quit(&mut w).await,
        };
        if flow == Flow::Stop {
            break;
        }
        if !w.s.alive {
            w.s.stopped(w.checks).await;
            break;
        }
    }
    w.id_name
}

/// The handshake, answered at once, with `id` and option lines.
async fn handshake(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    let hello = w.config.dialect.to_string();
    let ok_word = format!("{hello}ok");
    w.s.send(&hello).await;
    let started = Instant::now();
    let (options, id_name) = match w.s.expect(|l| l == ok_word, w.config.startup).await {
        Ok((_, lines)) => {
            let id_name = lines
                .iter()
                .find_map(|l| l.strip_prefix("id name ").map(str::to_string));
            let took = started.elapsed();
            w.checks.pass(
                "handshake",
                true,
                format!(
                    "{ok_word} after {} ms; id name {}",
                    took.as_millis(),
                    id_name.as_deref().unwrap_or("(none)")
                ),
            );
            if took > d {
                w.checks.fail(
                    "start-time",
                    false,
                    format!("slow start: '{ok_word}' came {} ms after '{hello}' (the arena waits --startup-ms {}; GUIs often wait less)", took.as_millis(), w.config.startup.as_millis()),
                    "answer the handshake at once: load data or build tables after it (at isready or the first go)",
                );
            }
            (lines, id_name)
        }
        // The walk says why the engine stopped.
        Err(Wait::Closed(_)) => return Flow::Next,
        Err(Wait::Timeout(seen)) if seen.is_empty() => {
            let (detail, hint) = silent_start(w.s, &hello, w.config.startup).await;
            w.checks.fail("handshake", true, detail, hint);
            skip_rest(w.checks, "no handshake");
            return Flow::Stop;
        }
        Err(wait) => {
            let hint = match &wait {
                Wait::Timeout(_) => format!("end the handshake with a line '{ok_word}'"),
                _ => "print fewer and shorter lines".to_string(),
            };
            w.checks.fail(
                "handshake",
                true,
                wait.describe(&format!("'{hello}'"), w.config.startup),
                hint,
            );
            skip_rest(w.checks, "no handshake");
            return Flow::Stop;
        }
    };
    w.options = options;
    w.id_name = id_name;
    Flow::Next
}

/// The option lines parse as UCI writes them.
fn options(w: &mut Walk<'_>) -> Flow {
    let option_lines: Vec<&String> = w
        .options
        .iter()
        .filter(|l| l.starts_with("option"))
        .collect();
    let bad: Vec<&&String> = option_lines
        .iter()
        .filter(|l| !matches!(l.parse::<Reply>(), Ok(Reply::Option(_))))
        .collect();
    if bad.is_empty() {
        w.checks.pass(
            "options",
            true,
            format!("{} option line(s) parse", option_lines.len()),
        );
    } else {
        w.checks.fail(
            "options",
            true,
            format!("{} option line(s) do not parse: {}", bad.len(), summary(&bad.iter().map(|l| l.to_string()).collect::<Vec<_>>())),
            "write options as UCI does: 'option name <name> type check|spin|combo|string|button [default <v>] [min <n>] [max <n>] [var <v>]...'",
        );
    }
    Flow::Next
}

/// `isready` answered by `readyok`.
async fn isready(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    let answered = ping(
        w.s,
        w.checks,
        "isready",
        true,
        "isready",
        d,
        "answer every 'isready' with 'readyok' at once",
    )
    .await;
    // An engine that stopped is the walk's to report; one that only did not answer
    // cannot be checked further.
    if !answered && w.s.alive {
        skip_rest(w.checks, "no readyok");
        return Flow::Stop;
    }
    Flow::Next
}

/// The game accepted: `setoption name Game`, or TEI's `teinewgame <size>`.
async fn game(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    if w.config.dialect == Dialect::Tei {
        let new_game = crate::dialect::line(
            w.config.dialect,
            &crate::dialect::new_game(w.config.dialect, &w.config.spec),
        );
        w.s.send(&new_game).await;
        ping(
            w.s,
            w.checks,
            "game",
            true,
            &new_game,
            d,
            "accept 'teinewgame <size>' and answer the following isready",
        )
        .await;
    } else if advertises_game(&w.options) {
        w.s.send(&format!("setoption name Game value {}", w.config.spec))
            .await;
        w.s.send("isready").await;
        match w.s.expect(|l| l == "readyok", d).await {
            Ok((_, seen)) if seen.iter().any(|l| is_error(l)) => w.checks.fail(
                "game",
                true,
                format!("the engine refused the game: {}", summary(&seen)),
                format!("the engine must play {} to be checked on it", w.config.spec),
            ),
            Ok(_) => w.checks.pass(
                "game",
                true,
                format!("setoption name Game value {} accepted", w.config.spec),
            ),
            Err(Wait::Closed(_)) => {}
            Err(wait) => w.checks.fail(
                "game",
                true,
                wait.describe("setoption name Game", d),
                "answer isready after setoption",
            ),
        }
    } else {
        w.checks.skip(
            "game",
            true,
            format!(
                "no Game option advertised: assuming the engine plays {}",
                w.config.spec
            ),
        );
    }
    Flow::Next
}

/// A line ending in CR LF.
async fn crlf(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    w.s.send_bytes(b"isready\r\n").await;
    expect_ready(
        w.s,
        w.checks,
        "crlf",
        true,
        "'isready' ending in CR LF",
        d,
        "strip the line end: in Python line.strip(), in Rust line.trim()",
    )
    .await;
    Flow::Next
}

/// A command the engine does not know, then `isready`.
async fn unknown_command(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    w.s.send("agon-check-unknown-command 42").await;
    w.s.send("isready").await;
    expect_ready(w.s, w.checks, "unknown-command", true, "an unknown command then isready", d, "ignore commands you do not know (or answer 'error unknown-command ...'); never exit on them").await;
    Flow::Next
}

/// `stop` while no search runs is ignored.
async fn stop_idle(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    w.s.send("stop").await;
    w.s.send("isready").await;
    match w.s.expect(|l| l == "readyok", d).await {
        Ok((_, seen)) if seen.iter().any(|l| is_bestmove(l)) => w.checks.fail(
            "stop-idle",
            true,
            "answered 'stop' with a bestmove although no search was running",
            "ignore 'stop' when no search is running",
        ),
        Ok(_) => w
            .checks
            .pass("stop-idle", true, "'stop' while idle ignored"),
        Err(wait) => w.checks.fail(
            "stop-idle",
            true,
            wait.describe("stop, isready", d),
            "ignore 'stop' when no search is running",
        ),
    }
    Flow::Next
}

/// Legal moves from several positions, one `bestmove` per `go`, within `movetime`.
async fn moves(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    let movetime = w.config.movetime;
    let mut bad_moves = Vec::new();
    let mut extra = Vec::new();
    let mut slow = Vec::new();
    let mut asked = 0;
    for moves in positions(&w.config.spec, w.config.seed, 6) {
        asked += 1;
        w.s.send(&position_line(&moves)).await;
        let go_at = Instant::now();
        w.s.send(&format!("go movetime {movetime}")).await;
        let limit = Duration::from_millis(movetime) + w.config.margin;
        match w.s.expect(is_bestmove, limit + d).await {
            Ok((line, _)) => {
                let used = go_at.elapsed();
                if used > limit {
                    slow.push(format!(
                        "{} ms after 'go movetime {movetime}'",
                        used.as_millis()
                    ));
                }
                if let Err(why) = check_move(&w.config.spec, &moves, &line) {
                    bad_moves.push(why);
                }
                let more = w.s.collect(Duration::from_millis(150)).await;
                if more.iter().any(|l| is_bestmove(l)) {
                    extra.push(position_line(&moves));
                }
            }
            Err(Wait::Closed(_)) => break,
            Err(wait) => {
                bad_moves.push(wait.describe(
                    &format!("go movetime {movetime} at '{}'", position_line(&moves)),
                    limit + d,
                ));
                break;
            }
        }
    }
    if !w.s.alive {
        return Flow::Next;
    }
    if bad_moves.is_empty() {
        w.checks.pass(
            "legal-moves",
            true,
            format!("a legal bestmove in each of {asked} positions"),
        );
    } else {
        w.checks.fail("legal-moves", true, bad_moves.join("; "), "rebuild the position from the whole 'position ... moves' line every time and play only legal moves; answer 'bestmove none' only when there is none; flush after bestmove");
    }
    if extra.is_empty() {
        w.checks
            .pass("one-bestmove", true, "exactly one bestmove per go");
    } else {
        w.checks.fail(
            "one-bestmove",
            true,
            format!("a second bestmove after {}", extra.join(", ")),
            "print exactly one 'bestmove' for each 'go'",
        );
    }
    if slow.is_empty() {
        w.checks.pass(
            "movetime",
            true,
            format!(
                "every 'go movetime {movetime}' answered within {movetime} ms + {} ms",
                w.config.margin.as_millis()
            ),
        );
    } else {
        w.checks.fail(
            "movetime",
            true,
            slow.join(", "),
            "stop searching when movetime runs out; check the clock inside your search loop",
        );
    }
    Flow::Next
}

/// A move within a clock.
async fn clock(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    let clock_ms = 3000;
    w.s.send("position startpos").await;
    let go_at = Instant::now();
    w.s.send(&crate::dialect::clock_go(w.config.dialect, clock_ms))
        .await;
    let limit = Duration::from_millis(clock_ms) + w.config.margin;
    match w.s.expect(is_bestmove, limit + d).await {
        Ok(_) if go_at.elapsed() > limit => w.checks.fail(
            "clock",
            true,
            format!(
                "bestmove {} ms after a go with {clock_ms} ms on the clock: it would lose on time",
                go_at.elapsed().as_millis()
            ),
            "use a fraction of the remaining time (for example time/20 + increment/2)",
        ),
        Ok(_) => w.checks.pass(
            "clock",
            true,
            format!(
                "answered a {clock_ms} ms clock in {} ms",
                go_at.elapsed().as_millis()
            ),
        ),
        Err(wait) => w.checks.fail(
            "clock",
            true,
            wait.describe(
                &crate::dialect::clock_go(w.config.dialect, clock_ms),
                limit + d,
            ),
            "read the clock fields of go (p1time/p2time or wtime/btime) and answer in time",
        ),
    }
    let _ = w.s.collect(Duration::from_millis(100)).await;
    Flow::Next
}

/// `isready` answered during a search.
async fn isready_during_search(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    w.s.send("position startpos").await;
    let long = 1000;
    w.s.send(&format!("go movetime {long}")).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    w.s.send("isready").await;
    let search_limit = Duration::from_millis(long) + w.config.margin + d;
    let mut got_ready = None;
    let mut got_best = None;
    let start = Instant::now();
    while got_ready.is_none() || got_best.is_none() {
        let left = search_limit.saturating_sub(start.elapsed());
        match w.s.expect(|l| l == "readyok" || is_bestmove(l), left).await {
            Ok((l, _)) if l == "readyok" => got_ready = Some(start.elapsed()),
            Ok(_) => got_best = Some(start.elapsed()),
            Err(_) => break,
        }
    }
    match (got_ready, got_best) {
        (Some(r), Some(b)) if r <= b => w.checks.pass("isready-during-search", true, format!("readyok after {} ms, during the search", r.as_millis())),
        (Some(r), Some(_)) if r <= d => w.checks.pass("isready-during-search", true, format!("readyok after {} ms (after its bestmove)", r.as_millis())),
        (Some(r), _) => w.checks.fail("isready-during-search", true, format!("readyok only after {} ms", r.as_millis()), "answer isready at once even while searching: read stdin on its own thread, or search in short slices and check for input"),
        (None, _) => w.checks.fail("isready-during-search", true, "no readyok for an isready sent during a search", "answer isready at once even while searching"),
    }
    let _ = w.s.collect(Duration::from_millis(100)).await;
    Flow::Next
}

/// An illegal move in a `position` list is reported, not played.
async fn illegal_in_list(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    let illegal = illegal_move_text(&w.config.spec);
    w.s.send(&format!("position startpos moves {illegal}"))
        .await;
    w.s.send("isready").await;
    match w.s.expect(|l| l == "readyok", d).await {
        Ok((_, seen)) if seen.iter().any(|l| is_error(l)) => w.checks.pass("illegal-in-list", false, format!("'position startpos moves {illegal}' reported: {}", summary(&seen))),
        Ok(_) => w.checks.fail("illegal-in-list", false, format!("'position startpos moves {illegal}' accepted silently"), "check each move of a position list and answer 'error illegal-move ...' (protocol.md section 5)"),
        Err(wait) => w.checks.fail("illegal-in-list", false, wait.describe("an illegal move in a position list", d), "an illegal move in a position list must not crash the engine"),
    }
    Flow::Next
}

/// `perft`, where offered, counts the leaves as the library does.
async fn perft(w: &mut Walk<'_>) -> Flow {
    let d = w.config.deadline;
    w.s.send("position startpos").await;
    w.s.send("perft 2").await;
    w.s.send("isready").await;
    match w
        .s
        .expect(|l| l.starts_with("perft ") || l == "readyok", d)
        .await
    {
        Ok((l, _)) if l.starts_with("perft ") => {
            let expected = library_perft(&w.config.spec, 2);
            let nodes = l
                .split_whitespace()
                .skip_while(|w| *w != "nodes")
                .nth(1)
                .and_then(|n| n.parse::<u64>().ok());
            if nodes == Some(expected) {
                w.checks.pass(
                    "perft",
                    false,
                    format!("perft 2 = {expected}, as the library counts"),
                );
            } else {
                w.checks.fail("perft", false, format!("'{l}' but the library counts {expected} leaves at depth 2"), "your move generator differs from the rules: compare 'perft 1' with the legal moves");
            }
            let _ = w.s.expect(|l| l == "readyok", d).await;
        }
        Ok(_) => w.checks.skip("perft", false, "no perft support"),
        Err(wait) => w.checks.fail(
            "perft",
            false,
            wait.describe("perft 2", d),
            "answer or ignore 'perft'; never exit on it",
        ),
    }
    Flow::Next
}

/// `quit` ends the process.
async fn quit(w: &mut Walk<'_>) -> Flow {
    w.s.send("quit").await;
    match w.s.process.wait_exit(Duration::from_millis(1000)).await {
        Some(status) => w
            .checks
            .pass("quit", true, format!("exited after quit ({status})")),
        None => w.checks.fail(
            "quit",
            true,
            "still running 1 s after quit",
            "exit when you read 'quit' (in Python: break out of the input loop or sys.exit())",
        ),
    }
    Flow::Stop
}

/// Whether the handshake's lines advertise a `Game` option.
fn advertises_game(lines: &[String]) -> bool {
    lines.iter().filter(|l| l.starts_with("option")).any(|l| {
        matches!(l.parse::<Reply>(), Ok(Reply::Option(o)) if o.name.eq_ignore_ascii_case("game"))
    })
}

/// Tells apart why an engine said nothing at all to the handshake: `quit` and the end of
/// input are sent, then its output watched. Replies that come at once were stuck in its
/// output buffer (printed but never flushed); replies that come later are a slow start;
/// an exit without a word, or nothing at all, mean it does not read or answer its input.
async fn silent_start(s: &mut Session, hello: &str, startup: Duration) -> (String, String) {
    let waited = startup.as_millis();
    s.send("quit").await;
    let _ = s.stdin.shutdown().await;
    let quit_at = Instant::now();
    match s.expect(|_| true, Duration::from_secs(10)).await {
        Ok((first, _)) if quit_at.elapsed() < Duration::from_millis(300) => (
            format!("no output within {waited} ms of '{hello}'; its replies ('{}') came only when it exited: they were stuck in its output buffer", crate::client::shorten(&first, 40)),
            FLUSH_HINT.to_string(),
        ),
        Ok((first, _)) => (
            format!(
                "slow start: no output within {waited} ms of '{hello}'; it answered ('{}') {} ms later",
                crate::client::shorten(&first, 40),
                (startup + quit_at.elapsed()).as_millis()
            ),
            format!("answer the handshake within {waited} ms: do slow set-up after it, or raise --startup-ms"),
        ),
        Err(Wait::Closed(_)) => (
            format!("no output within {waited} ms of '{hello}', and it exited at the end of its input without a word"),
            "read stdin line by line and answer each command: 'ugi' (or 'uci') with 'id name ...' and 'ugiok'".to_string(),
        ),
        Err(_) => (
            format!("no output within {waited} ms of '{hello}', nor after 'quit' and the end of its input: it is stuck, or does not read stdin"),
            "read stdin line by line (for line in sys.stdin: ...) and answer each command at once".to_string(),
        ),
    }
}

async fn ping(
    s: &mut Session,
    checks: &mut Checks,
    id: &'static str,
    required: bool,
    what: &str,
    d: Duration,
    hint: &str,
) -> bool {
    s.send("isready").await;
    expect_ready(s, checks, id, required, what, d, hint).await
}

async fn expect_ready(
    s: &mut Session,
    checks: &mut Checks,
    id: &'static str,
    required: bool,
    what: &str,
    d: Duration,
    hint: &str,
) -> bool {
    match s.expect(|l| l == "readyok", d).await {
        Ok(_) => {
            checks.pass(id, required, format!("readyok after {what}"));
            true
        }
        // The engine is gone: the caller records that as a crash, not as this check.
        Err(Wait::Closed(_)) => false,
        Err(w) => {
            let hint = match &w {
                Wait::Timeout(seen) if seen.is_empty() && id == "isready" => {
                    format!("{hint}; {FLUSH_HINT}")
                }
                _ => hint.to_string(),
            };
            checks.fail(id, required, w.describe(what, d), hint);
            false
        }
    }
}

/// Marks every check not done yet: a required one as missed (a failure), a
/// recommendation as skipped.
fn skip_rest(checks: &mut Checks, why: &str) {
    let done: Vec<&str> = checks.results.iter().map(|c| c.id).collect();
    for &(id, required) in &checks.planned {
        if !done.contains(&id) {
            checks.results.push(CheckResult {
                id,
                required,
                status: if required {
                    Status::Missed
                } else {
                    Status::Skip
                },
                detail: format!("not checked: {why}"),
                hint: None,
            });
        }
    }
}

/// Checks a `bestmove` line against the library's rules after `moves`.
fn check_move(spec: &GameSpec, moves: &[String], line: &str) -> Result<(), String> {
    let mut game: Box<dyn AnyGame> = new_game(spec, None).map_err(|e| e.to_string())?;
    for m in moves {
        game.play(m).map_err(|e| e.to_string())?;
    }
    let mv = line.split_whitespace().nth(1).unwrap_or("");
    if mv.is_empty() || mv == "none" || mv == "(none)" || mv == "0000" {
        return if game.legal_moves().is_empty() {
            Ok(())
        } else {
            Err(format!(
                "'{line}' after '{}' although there are legal moves",
                position_line(moves)
            ))
        };
    }
    game.play(mv)
        .map(|_| ())
        .map_err(|e| format!("'{line}' after '{}': {e}", position_line(moves)))
}

/// A move text that is illegal at the start: the first legal move played twice.
fn illegal_move_text(spec: &GameSpec) -> String {
    let Ok(mut game) = new_game(spec, None) else {
        return "zz99".into();
    };
    let first = game.legal_moves().into_iter().next().unwrap_or_default();
    let _ = game.play(&first);
    if game.legal_moves().contains(&first) {
        "zz99".into()
    } else {
        format!("{first} {first}")
    }
}

fn library_perft(spec: &GameSpec, depth: u32) -> u64 {
    fn count(game: &dyn AnyGame, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = game.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut next = game.clone_box();
                let _ = next.play(m);
                count(next.as_ref(), depth - 1)
            })
            .sum()
    }
    new_game(spec, None).map_or(0, |g| count(g.as_ref(), depth))
}

/// How to start the command `words` (program and arguments): a `.py` file without the
/// execute bit runs with `python`; a bare name is looked for next to the arena binary,
/// then on `PATH`; see [`crate::config::engine_command`].
///
/// # Errors
/// The one thing that is wrong: no command, no such file, not executable, not found.
pub fn spawn_spec(words: &[String], python: &str) -> Result<SpawnSpec, String> {
    let (first, rest) = words
        .split_first()
        .ok_or("no engine command given after --")?;
    let (program, args, home) = crate::config::engine_command(first, rest, None, python)?;
    Ok(SpawnSpec {
        program,
        args,
        home: Some(home),
        // Python's own buffering stays on: a bot that does not flush is found here, not
        // by the first GUI that does not set PYTHONUNBUFFERED.
        keep_python_buffered: true,
        ..SpawnSpec::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// README: "a legal bestmove in six positions of a seeded random game": six in every
    /// game, also tic-tac-toe, whose random games end before a sixth position.
    #[test]
    fn six_distinct_positions_in_progress_in_every_game() {
        for text in [
            "tictactoe",
            "mnk m=5 n=5 k=4",
            "clobber rows=4 cols=4",
            "tak size=3",
            "halma size=8",
        ] {
            let spec = GameSpec::parse(text).unwrap();
            for seed in [1, 2, 0xdead_beef] {
                let list = positions(&spec, seed, 6);
                assert_eq!(list.len(), 6, "{text} seed {seed}: {list:?}");
                for (i, moves) in list.iter().enumerate() {
                    assert!(!list[..i].contains(moves), "{text}: {moves:?} twice");
                    let mut game = new_game(&spec, None).unwrap();
                    for m in moves {
                        game.play(m).unwrap();
                    }
                    assert!(game.outcome().is_none(), "{text}: {moves:?} is over");
                }
            }
        }
    }
}
