//! One game between two engine processes, refereed with the `agon` library's rules.
//!
//! The step per move follows fastchess's `Match::playMove`
//! (`Disservin/fastchess:app/src/matchmaking/match/match.cpp`): game over? → adjudicate →
//! (optional ping) → `position` with the full move list → `go` with both clocks → read up
//! to `bestmove` with a deadline → charge the clock → check the move with the rules →
//! play it → record it. Every failure becomes one [`Termination`]; the engine at fault
//! loses and is restarted before its next game.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use agon::game::MoveError;
use agon::games::{new_game, AnyGame, GameSpec};
use agon::protocol::{Command, Go, PositionSpec, QueryKind};

use crate::dialect::Dialect;
use tokio::io::BufReader;
use tokio::process::{ChildStdin, ChildStdout};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::client::{shorten, ClientError, EngineClient, EngineId, Transcript};
use crate::clock::{Charge, Clock, TimeControl, TimeoutRule};
use crate::live::Publisher;
use crate::process::{EngineProcess, LineLimits, SpawnSpec};
use crate::record::{
    round_ms, AdjudicationRule, Claims, GameRecord, LiveGame, MoveRecord, OpeningRecord,
    PlayerRecord, Seat, Termination, JOURNAL_VERSION,
};
use crate::schedule::ScheduledGame;

/// `config` pinned to `cores` (`--affinity`).
pub fn pinned(config: &Arc<EngineConfig>, cores: &[usize]) -> Arc<EngineConfig> {
    let mut pinned = (**config).clone();
    pinned.spawn.cpus = cores.to_vec();
    Arc::new(pinned)
}

/// One engine of a match, as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Its name in this match (records, summaries, log files).
    pub name: String,
    /// How to start it (the stderr log is chosen per process).
    pub spawn: SpawnSpec,
    /// The dialect of the handshake.
    pub dialect: Dialect,
    /// Options set after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Its time control.
    pub tc: TimeControl,
}

/// What the referee enforces.
#[derive(Clone, Debug)]
pub struct RefereeSettings {
    /// The game.
    pub spec: GameSpec,
    /// Extra time an engine may use beyond its clock or movetime.
    pub margin: Duration,
    /// Deadline for the handshake and first `readyok` of a new process.
    pub startup_timeout: Duration,
    /// Deadline for `readyok` and `response`.
    pub ping_timeout: Duration,
    /// Wall-clock cap of searches without clock or movetime (depth, nodes).
    pub hard_cap: Duration,
    /// Time an engine gets to exit after `quit` before its group is killed.
    pub grace: Duration,
    /// Adjudicate a draw after this many plies (opening included).
    pub max_plies: Option<u32>,
    /// Score-based draw and resign adjudication (`--draw`, `--resign`).
    pub adjudication: crate::adjudication::Adjudication,
    /// Ask both engines `query result` at the end and record their claims.
    pub query_result: bool,
    /// Send `isready` before every move (stall detection at the cost of latency).
    pub ping_every_move: bool,
    /// Limits on engine output.
    pub limits: LineLimits,
    /// Bytes of each process's stderr kept in its log.
    pub stderr_cap: u64,
    /// Where engine stderr logs go (`None`: discarded).
    pub log_dir: Option<PathBuf>,
    /// Where each game in progress is published after every move (`None`: nowhere);
    /// see [`LiveGame`].
    pub live_dir: Option<PathBuf>,
}

type Client = EngineClient<BufReader<ChildStdout>, ChildStdin>;

#[derive(Debug)]
pub(crate) struct Running {
    pub(crate) process: EngineProcess,
    pub(crate) client: Client,
    pub(crate) id: EngineId,
}

/// An engine process slot: started on demand, reused between games while it behaves,
/// restarted after a failure.
#[derive(Debug)]
pub struct EngineSlot {
    /// The engine's configuration.
    pub config: Arc<EngineConfig>,
    /// Its index in the match (0 or 1).
    pub index: usize,
    worker: usize,
    spawns: u32,
    running: Option<Running>,
    /// The stderr log of the process started last, by file name.
    log: Option<String>,
}

impl EngineSlot {
    /// A slot for engine `index` of worker `worker`; nothing is started yet.
    pub fn new(config: Arc<EngineConfig>, index: usize, worker: usize) -> Self {
        EngineSlot {
            config,
            index,
            worker,
            spawns: 0,
            running: None,
            log: None,
        }
    }

    /// Number of processes started so far.
    pub fn spawns(&self) -> u32 {
        self.spawns
    }

    /// The memory the box of the running engine uses now and its limit, if it has a
    /// cgroup.
    pub fn box_memory(&self) -> Option<(u64, u64)> {
        self.running.as_ref()?.process.box_memory()
    }

    /// A limit the box of the running engine has broken, if it is sandboxed.
    pub fn box_violation(&self) -> Option<crate::sandbox::Violation> {
        self.running.as_ref()?.process.box_violation()
    }

    /// The pid of the running process, if any.
    pub fn pid(&self) -> Option<i32> {
        self.running.as_ref().map(|r| r.process.pid())
    }

    /// Ends the process, if any: `quit`, a grace period, then the group is killed.
    pub async fn stop(&mut self, grace: Duration) {
        if let Some(mut running) = self.running.take() {
            running.process.resume();
            running.client.quit().await;
            drop(running.client);
            running.process.shutdown(grace).await;
        }
    }

    /// Kills the process group at once (no `quit`).
    pub async fn kill(&mut self) {
        if let Some(running) = self.running.take() {
            drop(running.client);
            running.process.shutdown(Duration::ZERO).await;
        }
    }

    fn log_path(&self, settings: &RefereeSettings) -> Option<PathBuf> {
        let dir = settings.log_dir.as_ref()?;
        let safe: String = self
            .config
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        Some(dir.join(format!(
            "{safe}-w{}-{}.stderr.log",
            self.worker, self.spawns
        )))
    }

    /// Starts the process if needed: spawn, handshake, options, `readyok`.
    pub(crate) async fn ensure_started(
        &mut self,
        settings: &RefereeSettings,
        seat: Seat,
        transcript: Option<&Transcript>,
    ) -> Result<(), Termination> {
        if self.running.is_some() {
            return Ok(());
        }
        self.spawns += 1;
        let mut spec = self.config.spawn.clone();
        spec.stderr_log = self.log_path(settings);
        self.log = spec
            .stderr_log
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned());
        spec.stderr_cap = settings.stderr_cap;
        let (process, (stdout, stdin)) =
            EngineProcess::spawn(&spec).map_err(|e| Termination::Crash {
                side: seat,
                phase: "startup".into(),
                detail: format!("cannot start {}: {e}", spec.program.display()),
            })?;
        let mut client = EngineClient::new(stdout, stdin, settings.limits, self.config.dialect);
        client.set_transcript(transcript.cloned(), seat.name());
        client.note(&format!(
            "started {} (pid {})",
            self.config.name,
            process.pid()
        ));
        let deadline = Instant::now() + settings.startup_timeout;
        let id = match client.handshake(deadline).await {
            Ok(id) => id,
            Err(e) => return Err(fault(seat, "startup", e, &process).await),
        };
        for (name, _) in &self.config.options {
            if !id.options.iter().any(|o| o.eq_ignore_ascii_case(name)) {
                client.warnings.push(format!(
                    "option '{name}' is not among the options it advertised"
                ));
            }
        }
        // What the game needs at startup: Agon's `Game`, TEI's `HalfKomi`.
        let mut commands = match crate::dialect::game_options(
            self.config.dialect,
            &settings.spec,
            &id.declarations,
        ) {
            Ok(commands) => commands,
            Err(detail) => {
                client.note(&detail);
                return Err(Termination::Crash {
                    side: seat,
                    phase: "startup".into(),
                    detail,
                });
            }
        };
        for (name, value) in &self.config.options {
            commands.push(Command::SetOption {
                name: name.clone(),
                value: Some(value.clone()),
            });
        }
        for command in &commands {
            if let Err(e) = client.send(command).await {
                return Err(fault(seat, "startup", e, &process).await);
            }
        }
        if let Err(e) = client.ping(deadline).await {
            return Err(fault(seat, "startup", e, &process).await);
        }
        self.running = Some(Running {
            process,
            client,
            id,
        });
        Ok(())
    }

    pub(crate) fn running(&mut self) -> &mut Running {
        self.running.as_mut().expect("engine started")
    }
}

/// Creates the live directory, if any (a failure only loses the live view).
pub fn open_live_dir(settings: &RefereeSettings) {
    if let Some(dir) = &settings.live_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            log::warn!("cannot create the live directory {}: {e}", dir.display());
        }
    }
}

/// Removes the live files of run `run` once it is over: no game of it is in progress.
pub fn close_live_dir(settings: &RefereeSettings, run: &str) {
    let Some(dir) = &settings.live_dir else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!("{run}-w");
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Turns a client error into the termination it means for `seat`.
pub(crate) async fn fault(
    seat: Seat,
    phase: &str,
    error: ClientError,
    process: &EngineProcess,
) -> Termination {
    match error {
        ClientError::Timeout {
            waiting_for,
            waited_ms,
        } => Termination::Stall {
            side: seat,
            waiting_for,
            waited_ms,
        },
        ClientError::Closed { pipe, waiting_for } => {
            let status = process.wait_exit(Duration::from_millis(300)).await;
            if let Some((limit, detail)) = process.limit_violation(status).await {
                return Termination::ResourceLimit {
                    side: seat,
                    limit: limit.into(),
                    detail,
                };
            }
            Termination::Crash {
                side: seat,
                phase: phase.to_string(),
                detail: match status {
                    Some(s) => {
                        format!("{s} (closed its {pipe} while the arena waited for {waiting_for})")
                    }
                    None => format!("closed its {pipe} while the arena waited for {waiting_for}"),
                },
            }
        }
        ClientError::Flood(e) => Termination::OutputFlood {
            side: seat,
            reason: e.to_string(),
        },
        ClientError::Violation { line, reason } => Termination::ProtocolViolation {
            side: seat,
            line,
            reason,
        },
        ClientError::Io(e) => Termination::Crash {
            side: seat,
            phase: phase.to_string(),
            detail: e,
        },
    }
}

/// Everything a finished game produced.
#[derive(Debug)]
pub struct GameOutput {
    /// The journal record (file names not filled in yet).
    pub record: GameRecord,
    /// The final board, for the game file.
    pub final_board: Vec<String>,
    /// The transcript, when asked for.
    pub transcript: Option<Transcript>,
}

struct GameState {
    game: Box<dyn AnyGame>,
    start: PositionSpec,
    played: Vec<String>,
    moves: Vec<MoveRecord>,
    clocks: [Clock; 2],
    last_bestmove: Option<Instant>,
    claims: Option<Claims>,
    notes: Vec<String>,
    /// The live file, written only while a server watches (see [`crate::live`]).
    live: Option<Publisher>,
}

impl GameState {
    /// Publishes the moves so far and `result` in the live file, if a server watches.
    fn publish(&mut self, result: &str) {
        if let Some(live) = self.live.as_mut() {
            let left = |c: &Clock| c.tc.clock.map(|_| c.left_ms());
            let to_move = self
                .game
                .outcome()
                .is_none()
                .then(|| Seat::of(self.game.side_to_move()));
            live.publish(
                &self.moves,
                result,
                self.last_bestmove.map(Instant::into_std),
                [left(&self.clocks[0]), left(&self.clocks[1])],
                to_move,
            );
        }
    }

    fn position_command(&self) -> Command {
        Command::Position {
            position: self.start.clone(),
            moves: self.played.clone(),
        }
    }

    /// The `go` of the mover: see [`go_command`].
    fn go_command(&self, mover: Seat) -> Go {
        go_command(&self.clocks, mover)
    }
}

/// The `go` of the mover, with its own limits only (protocol.md section 7, "What the
/// arena sends"): when the mover is on a clock, all four clock keys (a side without a
/// clock appears with the mover's own time and increment), `movestogo` with periods;
/// its own `movetime`, `depth`, `nodes`. A mover without a clock gets no clock keys,
/// whatever its opponent has. `arena serve` sends the same to an engine it plays.
pub fn go_command(clocks: &[Clock; 2], mover: Seat) -> Go {
    let own = &clocks[mover.index()];
    let mut go = Go {
        movetime: own.tc.movetime,
        depth: own.tc.depth,
        nodes: own.tc.nodes,
        ..Go::default()
    };
    if let Some(own_clock) = own.tc.clock {
        let inc = own_clock.inc_ms;
        let shown = |c: &Clock| match c.tc.clock {
            Some(setting) => (c.left_ms(), setting.inc_ms),
            None => (own.left_ms(), inc),
        };
        let (t1, i1) = shown(&clocks[0]);
        let (t2, i2) = shown(&clocks[1]);
        go.p1time = Some(t1);
        go.p2time = Some(t2);
        go.p1inc = Some(i1);
        go.p2inc = Some(i2);
        go.movestogo = own.moves_to_go();
    }
    go
}

/// How many times (10 ms apart) at most the box of a sandboxed engine that ran out of
/// time is read for a limit before the time forfeit stands (a bot filling its memory is
/// slowed down by the kernel's reclaim well before it is stopped: about 1 s for 512 MiB).
const LIMIT_SETTLE_POLLS: u32 = 300;

/// How long an engine killed by SIGTERM, SIGINT or SIGHUP waits for the arena's own
/// cancel before it counts as a crash (see [`stopped_from_outside`]).
const OUTSIDE_STOP_WAIT: Duration = Duration::from_secs(2);

/// Whether the engine in `slot` was ended by a signal that stops a whole run from outside:
/// a scheduler's cancel or preemption (Slurm's `scancel` sends SIGTERM to every process
/// of the job), a shutdown, or Ctrl-C in a terminal. Such a signal reaches the engine and
/// the arena at the same moment, and the engine may die first.
fn stopped_from_outside(slot: &EngineSlot) -> bool {
    let status = slot.running.as_ref().and_then(|r| r.process.exit_status());
    matches!(
        status,
        Some(crate::process::ExitInfo::Signal(s))
            if s == libc::SIGTERM || s == libc::SIGINT || s == libc::SIGHUP
    )
}

/// Resolves once `cancel` turns true (never if the sender is gone without cancelling).
pub async fn cancelled(cancel: &mut watch::Receiver<bool>) {
    if cancel.wait_for(|v| *v).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Plays one scheduled game. `slots[i]` is match engine `i`. Returns the record; an
/// engine at fault has been stopped (it restarts for its next game). On cancellation the
/// game is recorded as interrupted and both engines are killed.
pub async fn play_game(
    scheduled: &ScheduledGame,
    slots: &mut [EngineSlot; 2],
    settings: &RefereeSettings,
    run: &str,
    transcripts: bool,
    cancel: &mut watch::Receiver<bool>,
) -> GameOutput {
    let started_wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let started = Instant::now();
    let transcript = transcripts.then(Transcript::new);
    let p1_engine = scheduled.p1_engine;
    let p2_engine = 1 - p1_engine;
    let mut game = new_game(&settings.spec, scheduled.opening.position.as_deref())
        .expect("openings are validated");
    let mut moves = Vec::new();
    let mut played = Vec::new();
    for (i, m) in scheduled.opening.moves.iter().enumerate() {
        let side = Seat::of(game.side_to_move());
        let canonical = game.play(m).expect("openings are validated");
        moves.push(MoveRecord {
            ply: i as u32 + 1,
            side: Some(side),
            mv: canonical.clone(),
            book: true,
            ..MoveRecord::default()
        });
        played.push(canonical);
    }
    let mut state = GameState {
        game,
        start: match &scheduled.opening.position {
            Some(p) => PositionSpec::Fen(p.clone()),
            None => PositionSpec::StartPos,
        },
        played,
        moves,
        clocks: [
            Clock::new(slots[p1_engine].config.tc),
            Clock::new(slots[p2_engine].config.tc),
        ],
        last_bestmove: None,
        claims: None,
        notes: Vec::new(),
        live: settings.live_dir.as_ref().map(|dir| {
            Publisher::new(
                dir,
                &format!("{run}-w{}.json", slots[0].worker),
                LiveGame {
                    run: run.to_string(),
                    game: scheduled.index,
                    spec: settings.spec.to_string(),
                    p1: slots[p1_engine].config.name.clone(),
                    p2: slots[p2_engine].config.name.clone(),
                    position: scheduled.opening.position.clone(),
                    moves: Vec::new(),
                    result: "*".into(),
                    updated_unix_ms: 0,
                    moved_unix_ms: 0,
                    thinking: None,
                    clocks_ms: [None, None],
                    to_move: None,
                    turn_unix_ms: 0,
                },
            )
        }),
    };
    state.publish("*");
    let termination = {
        let (a, b) = slots.split_at_mut(1);
        let (p1, p2) = if p1_engine == 0 {
            (&mut a[0], &mut b[0])
        } else {
            (&mut b[0], &mut a[0])
        };
        let mut seats = [p1, p2];
        let result = tokio::select! {
            t = run_game(&mut state, &mut seats, settings, transcript.as_ref()) => Some(t),
            _ = cancelled(cancel) => None,
        };
        match result {
            Some(t) => t,
            None => Termination::Interrupted,
        }
    };
    // A sandboxed engine whose box broke a limit during a game that otherwise ended
    // without a fault loses it for that limit, whether or not the watcher had already
    // ended the box (the result must not depend on when the counters were last read).
    let engine_of = |seat: Seat| {
        if seat == Seat::P1 {
            p1_engine
        } else {
            p2_engine
        }
    };
    let termination = match (&termination, termination.at_fault()) {
        (Termination::Interrupted, _) => termination,
        // Out of time or silent while its box was about to hit a limit (a bot filling its
        // memory is slow before the kernel stops it): the limit is the reason, if it
        // comes within a moment.
        (Termination::TimeForfeit { .. } | Termination::Stall { .. }, Some(seat))
            if slots[engine_of(seat)].config.spawn.sandbox.is_some() =>
        {
            let slot = &slots[engine_of(seat)];
            let mut found = None;
            let (mut peak, mut still) = (0, 0);
            for _ in 0..LIMIT_SETTLE_POLLS {
                found = slot.box_violation();
                // Waits while the box's memory keeps growing or stays at its limit (where
                // the kernel reclaims what it can before it kills); a box that is merely
                // slow stops the wait after 100 ms.
                let (now, limit) = slot.box_memory().unwrap_or((0, u64::MAX));
                if now > peak || now >= limit - limit / 16 {
                    (peak, still) = (now.max(peak), 0);
                } else {
                    still += 1;
                }
                if found.is_some() || still >= 10 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            match found {
                Some((limit, detail)) => Termination::ResourceLimit {
                    side: seat,
                    limit: limit.into(),
                    detail,
                },
                None => termination,
            }
        }
        (_, Some(_)) => termination,
        _ => [Seat::P1, Seat::P2]
            .into_iter()
            .find_map(|seat| {
                let (limit, detail) = slots[engine_of(seat)].box_violation()?;
                Some(Termination::ResourceLimit {
                    side: seat,
                    limit: limit.into(),
                    detail,
                })
            })
            .unwrap_or(termination),
    };
    // An engine stopped from outside is not at fault if the arena is being stopped too:
    // when its cancel follows within a moment, the game is interrupted (not journaled; a
    // resumed run plays it again) rather than lost by that engine. Without this, a job
    // cancelled on a cluster journals the game in progress as a crash.
    let termination = match termination.at_fault() {
        Some(seat) if stopped_from_outside(&slots[engine_of(seat)]) => {
            match tokio::time::timeout(OUTSIDE_STOP_WAIT, cancelled(cancel)).await {
                Ok(()) => Termination::Interrupted,
                Err(_) => termination,
            }
        }
        _ => termination,
    };
    // Engines that failed (or all, when interrupted) are stopped now.
    match (&termination, termination.at_fault()) {
        (Termination::Interrupted, _) => {
            for slot in slots.iter_mut() {
                slot.kill().await;
            }
        }
        (_, Some(seat)) => slots[engine_of(seat)].kill().await,
        _ => {}
    }
    for (seat, engine) in [(Seat::P1, p1_engine), (Seat::P2, p2_engine)] {
        if let Some(r) = slots[engine].running.as_mut() {
            if r.client.ignored_lines > 0 {
                state.notes.push(format!(
                    "{}: {} output lines were not protocol replies (ignored so far)",
                    seat.name(),
                    r.client.ignored_lines
                ));
            }
            for w in r.client.warnings.drain(..) {
                state
                    .notes
                    .push(format!("{}: engine said: {w}", seat.name()));
            }
            r.client.set_transcript(None, "");
        }
    }
    let (result, winner) = match (&termination, termination.at_fault()) {
        (Termination::Interrupted, _) => ("*".to_string(), None),
        (_, Some(seat)) => {
            let winner = seat.other();
            (winner.win_result().to_string(), Some(winner))
        }
        (Termination::Adjudication { winner, .. }, _) => match winner {
            Some(w) => (w.win_result().to_string(), Some(*w)),
            None => ("1/2-1/2".to_string(), None),
        },
        _ => match state.game.outcome() {
            Some(o) => (
                o.score_str().to_string(),
                match o {
                    agon::game::Outcome::Win(side) => Some(Seat::of(side)),
                    agon::game::Outcome::Draw => None,
                },
            ),
            None => ("*".to_string(), None),
        },
    };
    state.publish(&result);
    let player = |engine: usize| PlayerRecord {
        name: slots[engine].config.name.clone(),
        engine,
        tc: slots[engine].config.tc.to_string(),
        id_name: slots[engine]
            .running
            .as_ref()
            .and_then(|r| r.id.name.clone()),
        version: None,
        stderr_log: slots[engine].log.clone(),
    };
    let record = GameRecord {
        version: JOURNAL_VERSION,
        run: run.to_string(),
        game: scheduled.index,
        pair: scheduled.pair,
        spec: settings.spec.to_string(),
        p1: player(p1_engine),
        p2: player(p2_engine),
        opening: OpeningRecord {
            position: scheduled.opening.position.clone(),
            moves: scheduled.opening.moves.clone(),
        },
        moves: state.moves,
        result,
        winner,
        reason: termination.describe(),
        termination,
        claims: state.claims,
        final_position: state.game.position(),
        started_unix_ms: started_wall,
        duration_ms: started.elapsed().as_millis() as u64,
        game_file: None,
        transcript_file: None,
        ptn_file: None,
        psq_file: None,
        notes: state.notes,
        fingerprint: None,
        result_detail: state.game.result_detail(),
    };
    // A sandboxed engine lives in a box for one game: whatever it started is gone before
    // the next game begins.
    for slot in slots.iter_mut() {
        if slot.config.spawn.sandbox.is_some() {
            slot.stop(settings.grace).await;
        }
    }
    GameOutput {
        record,
        final_board: state.game.render(),
        transcript,
    }
}

/// Starts the engine of `seat` (or reuses its process), tells it a new game begins and
/// waits for its `readyok`: the start of every game, in a match and on the web page.
///
/// # Errors
/// The termination that ends the game when the engine fails to start or answer.
pub(crate) async fn begin_game(
    slot: &mut EngineSlot,
    seat: Seat,
    settings: &RefereeSettings,
    transcript: Option<&Transcript>,
) -> Result<(), Termination> {
    slot.ensure_started(settings, seat, transcript).await?;
    let new_game = crate::dialect::new_game(slot.config.dialect, &settings.spec);
    let r = slot.running();
    let deadline = Instant::now() + settings.ping_timeout;
    let step = async {
        r.client.send(&new_game).await?;
        r.client.ping(deadline).await
    };
    match step.await {
        Ok(()) => Ok(()),
        Err(e) => Err(fault(seat, "new game", e, &r.process).await),
    }
}

/// What an engine's search gave: its report and when it was asked and answered.
#[derive(Debug)]
pub(crate) struct Searched {
    /// The `bestmove` and the search's last info.
    pub report: crate::client::SearchReport,
    /// When the `go` was written.
    pub go_sent: Instant,
    /// When the `bestmove` was read.
    pub received: Instant,
    /// CPU time the engine (its whole box when sandboxed) used for it, milliseconds.
    pub cpu_ms: Option<f64>,
}

impl Searched {
    /// The wall time of the search, as the clock is charged.
    pub fn used(&self) -> Duration {
        self.received.duration_since(self.go_sent)
    }
}

/// The first half of an engine's turn, the same in a match and on the web page: lets its
/// box run, pings it when asked to, sends `commands` (the position and the `go`), calls
/// `on_sent` with the moment they were written and `on_info` for every info line, and
/// reads the `bestmove` within `allowance`; then suspends its box again.
///
/// # Errors
/// The termination: a time forfeit (no `bestmove` within the allowance, named by the
/// clock's `limit`), a crash, a stall or a protocol fault.
pub(crate) async fn search(
    slot: &mut EngineSlot,
    mover: Seat,
    commands: [Command; 2],
    (allowance, limit): (Duration, crate::clock::LimitKind),
    settings: &RefereeSettings,
    on_sent: &mut (dyn FnMut(Instant) + Send),
    on_info: &mut (dyn FnMut(Instant, &agon::protocol::Info) + Send),
) -> Result<Searched, Termination> {
    let r = slot.running();
    r.process.resume();
    let cpu_before = r.process.cpu_ns();
    if settings.ping_every_move {
        let deadline = Instant::now() + settings.ping_timeout;
        if let Err(e) = r.client.ping(deadline).await {
            return Err(fault(mover, "ping", e, &r.process).await);
        }
    }
    if let Err(e) = r.client.drain_pending().await {
        return Err(fault(mover, "search", e, &r.process).await);
    }
    if let Err(e) = r.client.send_all(&commands).await {
        return Err(fault(mover, "search", e, &r.process).await);
    }
    let go_sent = Instant::now();
    on_sent(go_sent);
    let mut watch = |info: &agon::protocol::Info| on_info(go_sent, info);
    let report = match r
        .client
        .read_bestmove_watching(go_sent + allowance, go_sent, &mut watch)
        .await
    {
        Ok(report) => report,
        Err(ClientError::Timeout { waited_ms, .. }) => {
            return Err(Termination::TimeForfeit {
                side: mover,
                elapsed_ms: waited_ms,
                allowed_ms: allowance.as_millis() as u64,
                limit: limit.name().into(),
            })
        }
        Err(e) => return Err(fault(mover, "search", e, &r.process).await),
    };
    let received = Instant::now();
    let cpu_ms = r
        .process
        .cpu_ns()
        .zip(cpu_before)
        .map(|(after, before)| (after.saturating_sub(before) as f64 / 1e3).round() / 1e3);
    r.process.suspend();
    Ok(Searched {
        report,
        go_sent,
        received,
        cpu_ms,
    })
}

/// The second half of an engine's turn: charges the mover's clock for the search and
/// plays its move on `game`, returning the move as the rules write it and its record
/// (ply `ply`).
///
/// # Errors
/// The termination: a time forfeit (the search overran the clock), `bestmove none` while
/// legal moves exist, a malformed or an illegal move. The game is left unchanged.
pub(crate) fn judge(
    searched: Searched,
    mover: Seat,
    game: &mut dyn AnyGame,
    clock: &mut Clock,
    settings: &RefereeSettings,
    ply: u32,
) -> Result<(String, MoveRecord), Termination> {
    let used = searched.used();
    if let Charge::Forfeit { allowed, limit } =
        clock.charge(used, settings.margin, settings.hard_cap)
    {
        return Err(Termination::TimeForfeit {
            side: mover,
            elapsed_ms: used.as_millis() as u64,
            allowed_ms: allowed.as_millis() as u64,
            limit: limit.name().into(),
        });
    }
    let report = searched.report;
    let Some(text) = report.best.clone() else {
        return Err(Termination::IllegalMove {
            side: mover,
            mv: "none".into(),
            reason: "bestmove none while legal moves exist".into(),
        });
    };
    let canonical = match game.play(&text) {
        Ok(c) => c,
        Err(MoveError::Syntax { reason, .. }) => {
            return Err(Termination::MalformedReply {
                side: mover,
                line: shorten(&report.line, 200),
                reason,
            })
        }
        Err(MoveError::Illegal { reason, .. }) => {
            return Err(Termination::IllegalMove {
                side: mover,
                mv: shorten(&text, 100),
                reason,
            })
        }
    };
    let record = MoveRecord {
        clock_ms: clock.tc.clock.map(|_| clock.left_ms()),
        bank_ms: clock.bank_ms(),
        cpu_ms: searched.cpu_ms,
        ..MoveRecord::searched(ply, mover, canonical.clone(), used, report.info)
    };
    Ok((canonical, record))
}

/// `timeout=move`: the mover ran over its time (`over`, a time forfeit), so the arena
/// plays the game's first legal move in its place. A search still running is stopped
/// first and its answer thrown away; an engine that does not answer `stop` within the
/// ping deadline stalls (and loses). The clock is charged everything it had: the bank is
/// empty, a game clock at zero (plus its increment).
///
/// # Errors
/// The stall or fault of an engine that does not answer `stop`.
async fn play_default_move(
    slot: &mut EngineSlot,
    (mover, over, still_searching): (Seat, Termination, bool),
    game: &mut dyn AnyGame,
    clock: &mut Clock,
    settings: &RefereeSettings,
    ply: u32,
) -> Result<(String, MoveRecord, String), Termination> {
    let Termination::TimeForfeit {
        elapsed_ms,
        allowed_ms,
        ..
    } = over
    else {
        return Err(over);
    };
    if still_searching {
        let r = slot.running();
        let sent = Instant::now();
        let answered = async {
            r.client.send(&Command::Stop).await?;
            r.client
                .read_bestmove_watching(sent + settings.ping_timeout, sent, &mut |_| {})
                .await
        };
        if let Err(e) = answered.await {
            return Err(fault(mover, "stop after a timeout", e, &r.process).await);
        }
        r.process.suspend();
    }
    let Some(first) = game.legal_moves().into_iter().next() else {
        return Err(over);
    };
    let canonical = game.play(&first).expect("a legal move of the game");
    clock.moves += 1;
    clock.bank = Duration::ZERO;
    if let Some(c) = clock.tc.clock {
        clock.left = Duration::from_millis(c.inc_ms);
    }
    let note = format!(
        "{} ran over its time at ply {ply} ({elapsed_ms} ms, {allowed_ms} ms allowed): the arena played {canonical} for it",
        mover.name()
    );
    let record = MoveRecord {
        ply,
        side: Some(mover),
        mv: canonical.clone(),
        time_ms: Some(elapsed_ms as f64),
        clock_ms: clock.tc.clock.map(|_| clock.left_ms()),
        bank_ms: clock.bank_ms(),
        default_move: true,
        ..MoveRecord::default()
    };
    Ok((canonical, record, note))
}

async fn run_game(
    state: &mut GameState,
    seats: &mut [&mut EngineSlot; 2],
    settings: &RefereeSettings,
    transcript: Option<&Transcript>,
) -> Termination {
    match run_game_inner(state, seats, settings, transcript).await {
        Ok(t) | Err(t) => t,
    }
}

async fn run_game_inner(
    state: &mut GameState,
    seats: &mut [&mut EngineSlot; 2],
    settings: &RefereeSettings,
    transcript: Option<&Transcript>,
) -> Result<Termination, Termination> {
    // Start (or reuse) both engines, then a new game and a ping each.
    for seat in [Seat::P1, Seat::P2] {
        let slot = &mut seats[seat.index()];
        if let Some(r) = slot.running.as_mut() {
            r.client.set_transcript(transcript.cloned(), seat.name());
        }
        begin_game(slot, seat, settings, transcript).await?;
    }
    // A boxed engine not on move is suspended, so that it cannot take CPU time from the
    // one that is (contest judges do the same).
    for seat in seats.iter_mut() {
        seat.running().process.suspend();
    }
    loop {
        if state.game.outcome().is_some() {
            break;
        }
        if let Some(max) = settings.max_plies {
            if state.played.len() as u32 >= max {
                if settings.query_result {
                    ask_claims(state, seats, settings).await;
                }
                return Ok(Termination::Adjudication {
                    rule: AdjudicationRule::MaxPlies,
                    detail: format!("{max} plies played without a result"),
                    winner: None,
                });
            }
        }
        let mover = Seat::of(state.game.side_to_move());
        let index = mover.index();
        let go = state.go_command(mover);
        let (allowance, limit) = state.clocks[index].allowance(settings.margin, settings.hard_cap);
        let position = state.position_command();
        // The search in progress goes to the live file while a server watches; otherwise
        // each info line costs one clock read.
        let live = &mut state.live;
        let mut show = |sent: Instant, info: &agon::protocol::Info| {
            if let Some(live) = live.as_mut() {
                live.thinking(mover, sent.into_std(), info);
            }
        };
        let searched = search(
            seats[index],
            mover,
            [position, Command::Go(go)],
            (allowance, limit),
            settings,
            &mut |_| {},
            &mut show,
        )
        .await;
        let ply = state.played.len() as u32 + 1;
        // A time forfeit, and whether the search was still running then.
        let judged: Result<(String, MoveRecord), (Termination, bool)> = match searched {
            Ok(searched) => {
                let latency = state
                    .last_bestmove
                    .map(|t| searched.go_sent.duration_since(t));
                state.last_bestmove = Some(searched.received);
                judge(
                    searched,
                    mover,
                    state.game.as_mut(),
                    &mut state.clocks[index],
                    settings,
                    ply,
                )
                .map(|(canonical, mut record)| {
                    record.latency_ms = latency.map(round_ms);
                    (canonical, record)
                })
                .map_err(|t| (t, false))
            }
            Err(t) => Err((t, true)),
        };
        let (canonical, record) = match judged {
            Ok(judged) => judged,
            Err((over @ Termination::TimeForfeit { .. }, still_searching))
                if state.clocks[index].tc.timeout == TimeoutRule::DefaultMove =>
            {
                let (canonical, record, note) = play_default_move(
                    seats[index],
                    (mover, over, still_searching),
                    state.game.as_mut(),
                    &mut state.clocks[index],
                    settings,
                    ply,
                )
                .await?;
                state.last_bestmove = Some(Instant::now());
                state.notes.push(note);
                (canonical, record)
            }
            Err((t, _)) => return Err(t),
        };
        state.moves.push(record);
        state.played.push(canonical);
        state.publish("*");
        if state.game.outcome().is_none() {
            use crate::adjudication::Verdict;
            let (rule, detail, winner) = match settings.adjudication.check(&state.moves) {
                None => continue,
                Some(Verdict::Draw(detail)) => (AdjudicationRule::Draw, detail, None),
                Some(Verdict::Resign(loser, detail)) => {
                    (AdjudicationRule::Resign, detail, Some(loser.other()))
                }
            };
            if settings.query_result {
                ask_claims(state, seats, settings).await;
            }
            return Ok(Termination::Adjudication {
                rule,
                detail,
                winner,
            });
        }
    }
    if settings.query_result {
        ask_claims(state, seats, settings).await;
    } else {
        tell_final_position(state, seats).await;
    }
    Ok(Termination::Normal)
}

/// Tells both engines the finished position (no reply is expected), so that engines that
/// learn from finished games see the result whoever made the last move.
async fn tell_final_position(state: &mut GameState, seats: &mut [&mut EngineSlot; 2]) {
    let position = state.position_command();
    for seat in [Seat::P1, Seat::P2] {
        let r = seats[seat.index()].running();
        r.process.resume();
        if let Err(e) = r.client.send(&position).await {
            state.notes.push(format!(
                "{}: final position not delivered: {e}",
                seat.name()
            ));
        }
    }
}

/// Tells both engines the final position and asks `query result`; never a fault.
async fn ask_claims(
    state: &mut GameState,
    seats: &mut [&mut EngineSlot; 2],
    settings: &RefereeSettings,
) {
    let truth = state
        .game
        .outcome()
        .map_or("none", |o| o.protocol_name())
        .to_string();
    let position = state.position_command();
    let mut answers = [None, None];
    for seat in [Seat::P1, Seat::P2] {
        let r = seats[seat.index()].running();
        r.process.resume();
        let deadline = Instant::now() + settings.ping_timeout;
        if r.client.send(&position).await.is_err() {
            continue;
        }
        match r.client.query(QueryKind::Result, deadline).await {
            Ok(answer) => answers[seat.index()] = Some(answer),
            Err(e) => state
                .notes
                .push(format!("{}: no answer to 'query result': {e}", seat.name())),
        }
    }
    let agree = answers.iter().all(|a| a.as_deref() == Some(truth.as_str()));
    if !agree {
        state.notes.push(format!(
            "claims differ from the arena's result '{truth}': p1 {:?}, p2 {:?}",
            answers[0], answers[1]
        ));
    }
    let [p1, p2] = answers;
    state.claims = Some(Claims { p1, p2, agree });
}
