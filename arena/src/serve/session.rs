//! A game played from the web page: each seat is a person (moves come from clicks) or a
//! configured engine (driven over the protocol like the referee does, with its `info`
//! lines shown as they arrive). Rules and legality come from the `agon` library.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agon::games::AnyGame;
use agon::games::GameSpec;
use agon::protocol::{Command, Info, PositionSpec};
use serde::Serialize;
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

use super::view::{board_view, BoardView};
use crate::clock::{Clock, TimeControl};
use crate::record::Termination;
use crate::record::{LiveThinking, MoveRecord, Seat};
use crate::referee::{begin_game, judge, search, EngineConfig, EngineSlot, RefereeSettings};

/// Who sits in a seat.
#[derive(Clone, Debug)]
pub enum Player {
    /// A person at the page.
    Human,
    /// A configured engine.
    Engine(Arc<EngineConfig>),
}

impl Player {
    fn label(&self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Engine(e) => e.name.clone(),
        }
    }
}

/// The clocks of a game on a clock (`tc=`): each side's time left and whose clock runs
/// since when, so that the page counts the running one down between states.
#[derive(Clone, Debug, Serialize)]
pub struct ClockState {
    /// Each side's time left (ms) when its clock last stopped; for the side whose clock
    /// runs, when it started.
    pub left_ms: [u64; 2],
    /// Added to a side's clock after each of its moves (ms).
    pub inc_ms: u64,
    /// Moves until each side's clock gets the base time again (with `tc=MOVES/...`).
    pub moves_to_go: [Option<u32>; 2],
    /// The seat whose clock runs (`p1`, `p2`); none before the game begins and after it
    /// ends.
    pub running: Option<&'static str>,
    /// When the running clock started, in ms since the Unix epoch (server time).
    pub since_unix_ms: u64,
    /// When this state was made, in ms since the Unix epoch (server time): the running
    /// side has `left_ms - (now_unix_ms - since_unix_ms)` left at that moment.
    pub now_unix_ms: u64,
}

/// The state the page is sent on every change.
#[derive(Clone, Debug, Serialize)]
pub struct SessionState {
    /// Session id: 128 random bits in hex.
    pub id: String,
    /// Bumped on every move or status change (not by search info).
    pub version: u64,
    /// The players' labels.
    pub players: [String; 2],
    /// Which seats a person plays.
    pub human: [bool; 2],
    /// The position after the last move.
    pub view: BoardView,
    /// Every move with its search data.
    pub moves: Vec<MoveRecord>,
    /// The search in progress, if an engine is thinking.
    pub thinking: Option<LiveThinking>,
    /// What is happening, in words.
    pub status: String,
    /// Set when the game is over: the result (`1-0`...) and why.
    pub over: Option<(String, String)>,
    /// The time control as `arena match` writes it (`tc=60+1`, `st=0.5`).
    pub tc: String,
    /// The time per engine move (ms), in a game without a clock.
    pub movetime_ms: Option<u64>,
    /// The clocks, in a game on a clock.
    pub clock: Option<ClockState>,
}

/// One game of the page.
pub struct Session {
    /// Its id: 128 random bits in hex.
    pub id: String,
    /// A small number for the engines' log names (not secret, not an address).
    serial: u64,
    start: Option<String>,
    players: [Player; 2],
    /// The time control of both sides: a clock runs for persons and engines alike; a time
    /// per move, depth or nodes limits the engines only.
    tc: TimeControl,
    inner: Mutex<Inner>,
    human_moved: Notify,
    cancel: watch::Sender<bool>,
    /// Bumped on every change the page may show (moves, status, search info).
    changes: watch::Sender<u64>,
    /// Event streams open on this session.
    watchers: AtomicUsize,
}

/// Counts an event stream open on a session while it lives.
pub struct Watching(Arc<Session>);

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.watchers.fetch_sub(1, Ordering::SeqCst);
        self.0.lock().last_seen = Instant::now();
    }
}

struct Inner {
    game: Box<dyn AnyGame>,
    played: Vec<String>,
    moves: Vec<MoveRecord>,
    thinking: Option<LiveThinking>,
    status: String,
    over: Option<(String, String)>,
    version: u64,
    last_seen: Instant,
    /// Each side's clock (time left meaningful with a `tc=` clock).
    clocks: [Clock; 2],
    /// Whether the clocks run: the engines have started and the first turn has begun.
    started: bool,
    /// When the side to move began its turn (an engine: when its `go` was sent).
    turn_started: Instant,
}

/// Why a move from the page was not played.
#[derive(Debug, PartialEq, Eq)]
pub enum MoveRefusal {
    /// The game is over.
    Over,
    /// It is an engine's turn.
    NotYourTurn(String),
    /// The rules refuse it: the library's reason.
    Illegal(String),
    /// The mover's clock ran out before the move came: the game is lost on time.
    OutOfTime(String),
}

impl std::fmt::Display for MoveRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveRefusal::Over => write!(f, "the game is over"),
            MoveRefusal::NotYourTurn(who) => write!(f, "it is {who}'s turn, not yours"),
            MoveRefusal::Illegal(reason) => write!(f, "{reason}"),
            MoveRefusal::OutOfTime(reason) => write!(f, "too late: {reason}"),
        }
    }
}

impl Session {
    /// A new session at `start` (or the game's start); engines start when the driver runs.
    ///
    /// # Errors
    /// A message naming a bad start position.
    pub fn new(
        id: String,
        serial: u64,
        spec: GameSpec,
        start: Option<String>,
        players: [Player; 2],
        tc: TimeControl,
    ) -> Result<Arc<Session>, String> {
        let game = agon::games::new_game(&spec, start.as_deref()).map_err(|e| e.to_string())?;
        let (cancel, _) = watch::channel(false);
        let status = match game.outcome() {
            Some(_) => "the start position is already decided".to_string(),
            None => format!("{} to move", Seat::of(game.side_to_move()).name()),
        };
        Ok(Arc::new(Session {
            id,
            serial,
            start,
            players,
            tc,
            inner: Mutex::new(Inner {
                game,
                played: Vec::new(),
                moves: Vec::new(),
                thinking: None,
                status,
                over: None,
                version: 0,
                last_seen: Instant::now(),
                clocks: [Clock::new(tc), Clock::new(tc)],
                started: false,
                turn_started: Instant::now(),
            }),
            human_moved: Notify::new(),
            cancel,
            changes: watch::channel(0).0,
            watchers: AtomicUsize::new(0),
        }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the event streams that something changed.
    fn changed(&self) {
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// A receiver told of every change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Marks an event stream as open until the returned value is dropped.
    pub fn watch(self: &Arc<Self>) -> Watching {
        self.watchers.fetch_add(1, Ordering::SeqCst);
        Watching(Arc::clone(self))
    }

    /// Whether nobody has an event stream open and nobody asked for the state for
    /// `limit`.
    pub fn abandoned(&self, limit: Duration) -> bool {
        self.watchers.load(Ordering::SeqCst) == 0 && self.idle() > limit
    }

    /// The version of the moves and status (not bumped by search info).
    pub fn version(&self) -> u64 {
        self.lock().version
    }

    /// Whether an engine plays in this session.
    pub fn has_engine(&self) -> bool {
        self.players.iter().any(|p| matches!(p, Player::Engine(_)))
    }

    /// What the page shows; also marks the session as watched.
    pub fn state(&self) -> SessionState {
        let mut inner = self.lock();
        inner.last_seen = Instant::now();
        SessionState {
            id: self.id.clone(),
            version: inner.version,
            players: [self.players[0].label(), self.players[1].label()],
            human: [
                matches!(self.players[0], Player::Human),
                matches!(self.players[1], Player::Human),
            ],
            view: board_view(inner.game.as_ref()),
            moves: inner.moves.clone(),
            thinking: inner.thinking.clone(),
            status: inner.status.clone(),
            over: inner.over.clone(),
            tc: self.tc.to_string(),
            movetime_ms: self
                .tc
                .clock
                .is_none()
                .then_some(self.tc.movetime)
                .flatten(),
            clock: self.clock_state(&inner),
        }
    }

    /// The clocks as the page is sent them (games on a clock only).
    fn clock_state(&self, inner: &Inner) -> Option<ClockState> {
        let inc = self.tc.clock?.inc_ms;
        let now = crate::live::unix_ms();
        let running = (inner.started && inner.over.is_none())
            .then(|| Seat::of(inner.game.side_to_move()).name());
        let since = now.saturating_sub(inner.turn_started.elapsed().as_millis() as u64);
        Some(ClockState {
            left_ms: [inner.clocks[0].left_ms(), inner.clocks[1].left_ms()],
            inc_ms: inc,
            moves_to_go: [inner.clocks[0].moves_to_go(), inner.clocks[1].moves_to_go()],
            running,
            since_unix_ms: if running.is_some() { since } else { now },
            now_unix_ms: now,
        })
    }

    /// Whether the game is on a clock.
    fn on_clock(&self) -> bool {
        self.tc.clock.is_some()
    }

    /// The words of `seat` losing on time.
    fn lost_on_time(&self, inner: &Inner, seat: Seat, detail: &str) -> String {
        let side = pretty(inner.game.side_name(seat.side()));
        format!(
            "{side} ({}) lost on time: {detail}",
            self.players[seat.index()].label()
        )
    }

    /// Ends the game as lost on time by `seat` (its clock shows zero); under the lock.
    fn flag(&self, inner: &mut Inner, seat: Seat, reason: String) {
        inner.clocks[seat.index()].left = Duration::ZERO;
        finish(inner, forfeit(seat), reason);
    }

    /// When the clock of the person to move runs out, if a person is to move on a clock
    /// that runs.
    fn human_deadline(&self) -> Option<Instant> {
        let inner = self.lock();
        if !self.on_clock() || !inner.started || inner.over.is_some() {
            return None;
        }
        let seat = Seat::of(inner.game.side_to_move());
        Some(inner.turn_started + inner.clocks[seat.index()].left)
    }

    /// Ends the game if the person in `seat` is still to move with no time left.
    fn flag_if_due(&self, seat: Seat) {
        let mut inner = self.lock();
        if inner.over.is_some() || Seat::of(inner.game.side_to_move()) != seat {
            return;
        }
        let left = inner.clocks[seat.index()].left;
        let used = inner.turn_started.elapsed();
        if used < left {
            return;
        }
        let reason = self.lost_on_time(
            &inner,
            seat,
            &format!(
                "no move in {} ({} were left on its clock)",
                seconds(used),
                seconds(left)
            ),
        );
        self.flag(&mut inner, seat, reason);
        drop(inner);
        self.changed();
    }

    /// The start position the game was started from (`None`: the game's start).
    pub fn start_position(&self) -> Option<String> {
        self.start.clone()
    }

    /// How long since the page last asked for the state.
    pub fn idle(&self) -> Duration {
        self.lock().last_seen.elapsed()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.lock().over.is_some()
    }

    /// Plays a move a person made.
    ///
    /// # Errors
    /// [`MoveRefusal`] when it is not a person's turn or the rules refuse the move.
    pub fn human_move(&self, text: &str) -> Result<String, MoveRefusal> {
        let mut inner = self.lock();
        if inner.over.is_some() {
            return Err(MoveRefusal::Over);
        }
        let side = inner.game.side_to_move();
        let seat = Seat::of(side);
        if let Player::Engine(e) = &self.players[seat.index()] {
            return Err(MoveRefusal::NotYourTurn(e.name.clone()));
        }
        // On a clock, the server decides: a move that comes after the time ran out loses.
        let timed = self.on_clock() && inner.started;
        let used = inner.turn_started.elapsed();
        if timed {
            let left = inner.clocks[seat.index()].left;
            if used > left {
                let reason = self.lost_on_time(
                    &inner,
                    seat,
                    &format!(
                        "its move came after {} ({} were left on its clock)",
                        seconds(used),
                        seconds(left)
                    ),
                );
                self.flag(&mut inner, seat, reason.clone());
                drop(inner);
                self.changed();
                self.human_moved.notify_one();
                return Err(MoveRefusal::OutOfTime(reason));
            }
        }
        let canonical = inner
            .game
            .play(text.trim())
            .map_err(|e| MoveRefusal::Illegal(e.to_string()))?;
        let ply = inner.played.len() as u32 + 1;
        let clock_ms = if timed {
            // In time (checked above): the increment is added.
            let _ = inner.clocks[seat.index()].charge(used, Duration::ZERO, Duration::MAX);
            Some(inner.clocks[seat.index()].left_ms())
        } else {
            None
        };
        inner.moves.push(MoveRecord {
            ply,
            side: Some(seat),
            mv: canonical.clone(),
            time_ms: timed.then_some(used.as_secs_f64() * 1000.0),
            clock_ms,
            ..MoveRecord::default()
        });
        inner.played.push(canonical.clone());
        self.after_move(&mut inner);
        drop(inner);
        self.changed();
        self.human_moved.notify_one();
        Ok(canonical)
    }

    /// Ends the game now (the page closed it, or the server stops); engines are stopped.
    pub fn stop(&self, why: &str) {
        let mut inner = self.lock();
        if inner.over.is_none() {
            inner.over = Some(("*".into(), why.to_string()));
            inner.status = format!("stopped: {why}");
            inner.thinking = None;
            inner.version += 1;
        }
        drop(inner);
        self.changed();
        let _ = self.cancel.send(true);
        self.human_moved.notify_one();
    }

    fn after_move(&self, inner: &mut Inner) {
        inner.version += 1;
        inner.thinking = None;
        inner.turn_started = Instant::now();
        match inner.game.outcome() {
            Some(o) => {
                let detail = inner
                    .game
                    .result_detail()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default();
                inner.over = Some((
                    o.score_str().to_string(),
                    format!("{}{detail}", o.protocol_name()),
                ));
                inner.status = format!("game over: {}{detail}", o.protocol_name());
            }
            None => {
                let side = inner.game.side_to_move();
                inner.status = format!(
                    "{} ({}) to move",
                    inner.game.side_name(side),
                    self.players[Seat::of(side).index()].label()
                );
            }
        }
    }

    fn end(&self, result: &str, reason: String) {
        let mut inner = self.lock();
        finish(&mut inner, result, reason);
        drop(inner);
        self.changed();
    }

    /// Plays the engines' moves until the game ends or the session is stopped; then
    /// stops the engine processes.
    pub async fn drive(self: Arc<Self>, settings: RefereeSettings) {
        let mut slots: [Option<EngineSlot>; 2] = [None, None];
        for (i, p) in self.players.iter().enumerate() {
            if let Player::Engine(config) = p {
                slots[i] = Some(EngineSlot::new(Arc::clone(config), i, self.serial as usize));
            }
        }
        let mut cancel = self.cancel.subscribe();
        tokio::select! {
            () = self.play(&mut slots, &settings) => {}
            () = crate::referee::cancelled(&mut cancel) => {}
        }
        for slot in slots.iter_mut().flatten() {
            slot.stop(settings.grace).await;
        }
    }

    async fn play(&self, slots: &mut [Option<EngineSlot>; 2], settings: &RefereeSettings) {
        // Start the engines first, so that a broken one is reported at once.
        for (i, slot) in slots.iter_mut().enumerate() {
            let Some(slot) = slot else { continue };
            let seat = if i == 0 { Seat::P1 } else { Seat::P2 };
            {
                let mut inner = self.lock();
                inner.status = format!("starting {}", slot.config.name);
                inner.version += 1;
            }
            self.changed();
            if let Err(t) = begin_game(slot, seat, settings, None).await {
                let reason = self.words(&self.lock(), seat, &t);
                self.end(forfeit(seat), reason);
                return;
            }
        }
        {
            let mut inner = self.lock();
            let over = inner.over.is_some();
            if !over {
                // The clocks start now that every engine is ready.
                inner.started = true;
                self.after_move(&mut inner);
            }
        }
        self.changed();
        loop {
            let (seat, position) = {
                let inner = self.lock();
                if inner.over.is_some() {
                    return;
                }
                let seat = Seat::of(inner.game.side_to_move());
                let position = Command::Position {
                    position: match &self.start {
                        Some(p) => PositionSpec::Fen(p.clone()),
                        None => PositionSpec::StartPos,
                    },
                    moves: inner.played.clone(),
                };
                (seat, position)
            };
            let Some(slot) = slots[seat.index()].as_mut() else {
                // A person's turn: wait for the click; on a clock, no longer than the
                // time left (then the server flags the person, whether or not a page
                // is open).
                let moved = self.human_moved.notified();
                match self.human_deadline() {
                    Some(deadline) => tokio::select! {
                        () = moved => {}
                        () = tokio::time::sleep_until(deadline) => self.flag_if_due(seat),
                    },
                    None => moved.await,
                }
                continue;
            };
            if let Err(t) = self.engine_move(slot, seat, position, settings).await {
                if matches!(t, Termination::TimeForfeit { .. }) && self.on_clock() {
                    // Lost on the clock: it shows zero.
                    let mut inner = self.lock();
                    let reason = self.words(&inner, seat, &t);
                    self.flag(&mut inner, seat, reason);
                    drop(inner);
                    self.changed();
                } else {
                    let reason = self.words(&self.lock(), seat, &t);
                    self.end(forfeit(seat), reason);
                }
                return;
            }
        }
    }

    /// The words of `termination` on the page: the side and the player (`X (agon)`)
    /// for the seat at fault, the referee's own words for the rest.
    fn words(&self, inner: &Inner, seat: Seat, termination: &Termination) -> String {
        let text = termination.describe();
        match text.strip_prefix(seat.name()) {
            Some(rest) if termination.at_fault() == Some(seat) => {
                let side = pretty(inner.game.side_name(seat.side()));
                format!("{side} ({}){rest}", self.players[seat.index()].label())
            }
            _ => text,
        }
    }

    /// Asks the engine in `seat` for a move and plays it: the referee's own turn
    /// ([`search`] and [`judge`]), so that an engine loses here exactly as in a match.
    /// `Err` is the termination that ends the game.
    async fn engine_move(
        &self,
        slot: &mut EngineSlot,
        seat: Seat,
        position: Command,
        settings: &RefereeSettings,
    ) -> Result<(), Termination> {
        let name = slot.config.name.clone();
        let (go, allowance) = {
            let inner = self.lock();
            let go = crate::referee::go_command(&inner.clocks, seat);
            let allowance =
                inner.clocks[seat.index()].allowance(settings.margin, settings.hard_cap);
            (go, allowance)
        };
        let mut sent = |started: Instant| {
            let mut inner = self.lock();
            inner.turn_started = started;
            inner.status = format!("{name} is thinking");
            inner.thinking = Some(LiveThinking {
                seat: Some(seat),
                ..LiveThinking::default()
            });
            inner.version += 1;
            drop(inner);
            self.changed();
        };
        let mut watch = |started: Instant, info: &Info| {
            let mut inner = self.lock();
            let lines = inner.thinking.as_ref().map_or(0, |t| t.lines) + 1;
            inner.thinking = Some(LiveThinking::from_info(
                seat,
                started.elapsed().as_millis() as u64,
                info,
                lines,
            ));
            drop(inner);
            self.changed();
        };
        let searched = search(
            slot,
            seat,
            [position, Command::Go(go)],
            allowance,
            settings,
            &mut sent,
            &mut watch,
        )
        .await?;
        let mut inner = self.lock();
        if inner.over.is_some() {
            return Ok(());
        }
        let ply = inner.played.len() as u32 + 1;
        let Inner { game, clocks, .. } = &mut *inner;
        let (canonical, record) = judge(
            searched,
            seat,
            game.as_mut(),
            &mut clocks[seat.index()],
            settings,
            ply,
        )?;
        inner.moves.push(record);
        inner.played.push(canonical);
        self.after_move(&mut inner);
        drop(inner);
        self.changed();
        Ok(())
    }
}

/// Ends the game with `result` for `reason`, unless it is over already (under the lock).
fn finish(inner: &mut Inner, result: &str, reason: String) {
    if inner.over.is_none() {
        inner.status = format!("game over: {reason}");
        inner.over = Some((result.to_string(), reason));
        inner.thinking = None;
        inner.version += 1;
    }
}

/// A side's name as the page writes it: `x` is `X`, `white` is `White`.
fn pretty(side: &str) -> String {
    let mut chars = side.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `1.2 s`.
fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// The result when `seat` loses by a fault.
fn forfeit(seat: Seat) -> &'static str {
    seat.other().win_result()
}
