//! One engine session: options, the current game and position, and the search thread.
//!
//! [`Engine::handle_line`] takes one protocol line and emits [`Reply`] values through the
//! sink it was built with; it never reads or writes stdio itself. A search runs on its
//! own thread, so `isready` and `stop` are answered while it runs. Every bad line gets
//! exactly one `error` reply; nothing here panics on input.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::game::{Game, MoveError, Side};
use crate::games::{describe_all, dispatch, GameSpec, GameVisitor};
use crate::learn::LearnStore;
use crate::play::{knows_children, learned_move, limits_for_learning, record_game, Level};
use crate::protocol::{
    Command, Dialect, ErrorCode, Go, Info, OptionDecl, OptionType, PositionSpec, QueryKind, Reply,
};
use crate::search::{new_searcher, Clock, Control, Limits, SearchOptions, Searcher, SearcherKind};

/// A learning store shared by the engine and its search thread.
type SharedStore = Arc<Mutex<LearnStore>>;

/// Where replies go. Called from the input thread and the search thread.
pub type Sink = Arc<dyn Fn(Reply) + Send + Sync>;

/// The engine's name and version as `id name` prints them.
pub const ENGINE_NAME: &str = concat!("Agon ", env!("CARGO_PKG_VERSION"));
/// `id author`.
pub const ENGINE_AUTHOR: &str = "The Agon developers";

/// How long the input thread waits for a `perft` or `solve` to finish before it reads
/// the next command (see `Engine::start_job`).
const HEAD_START: Duration = Duration::from_millis(20);

/// Whether the caller should keep reading input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// `quit` was received: stop reading.
    Quit,
}

/// Engine options (the `setoption` values).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Which searcher `go` uses.
    pub searcher: SearcherKind,
    /// Heuristic name, or `default`.
    pub heuristic: String,
    /// Move ordering for alpha-beta.
    pub ordering: bool,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Depth when `go` gives no limit.
    pub depth: u32,
    /// Time kept back per move, in ms.
    pub move_overhead: u64,
    /// A named level caps every search at its depth; `None` is `custom`.
    pub level: Option<Level>,
    /// The learning store's path; empty when learning is off.
    pub learn_file: String,
    /// Seed of the `random` and `mcts` searchers.
    pub seed: u64,
    /// Random plies of an `mcts` playout.
    pub playout: u32,
    /// Threads of the `pvs` search.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            searcher: SearcherKind::Pvs,
            heuristic: "default".to_string(),
            ordering: true,
            hash_mb: 16,
            depth: 4,
            move_overhead: 5,
            level: None,
            learn_file: String::new(),
            seed: 0,
            playout: crate::search::DEFAULT_PLAYOUT,
            threads: 1,
        }
    }
}

/// The game-specific half of a session, behind a trait object: dispatch on the game
/// happens once per command, the search inside is monomorphised.
trait Session: Send {
    fn spec(&self) -> GameSpec;
    fn side_to_move(&self) -> Option<Side>;
    fn set_position(
        &mut self,
        position: &PositionSpec,
        moves: &[String],
    ) -> Result<(), EngineError>;
    fn position(&self) -> Option<String>;
    fn legal_moves(&self) -> Option<Vec<String>>;
    fn render(&self) -> Option<Vec<String>>;
    fn outcome_name(&self) -> Option<&'static str>;
    /// Starts a perft count on its own thread, which sets `done` just before it emits the
    /// final `perft` line.
    fn perft(
        &mut self,
        depth: u32,
        divide: bool,
        stop: Arc<AtomicBool>,
        done: Arc<AtomicBool>,
        sink: Sink,
    ) -> Result<JoinHandle<()>, EngineError>;
    fn eval(&self) -> Option<(i32, &'static str)>;
    fn configure(&mut self, options: &EngineOptions) -> Result<(), String>;
    fn new_game(&mut self);
    fn set_learn(&mut self, store: Option<SharedStore>);
    /// Starts a search; the thread sets `done` just before it emits `bestmove`.
    fn go(
        &mut self,
        limits: Limits,
        stop: Arc<AtomicBool>,
        done: Arc<AtomicBool>,
        sink: Sink,
    ) -> Result<JoinHandle<()>, EngineError>;
}

/// What a searcher is built from: a change of any of these builds a new one.
type SearcherKey = (
    SearcherKind,
    usize,
    bool,
    u64,
    u32,
    &'static str,
    u64,
    u32,
    usize,
);

struct GameSession<G: Game> {
    start: G,
    position: Option<G>,
    heuristic: (&'static str, G::Heuristic),
    searcher: Arc<Mutex<Box<dyn Searcher<G>>>>,
    searcher_key: SearcherKey,
    default_depth: u32,
    level: Option<Level>,
    /// The start and moves of the current game, as the last `position` gave them.
    line: (G, Vec<G::Move>),
    learn: Option<SharedStore>,
    /// The last game recorded (start position and moves), so it is learned once.
    learned: Arc<Mutex<Option<String>>>,
}

/// Records the finished game `start` + `moves` unless it is the one recorded last.
fn learn_once<G: Game>(
    store: &Mutex<LearnStore>,
    learned: &Mutex<Option<String>>,
    start: &G,
    moves: &[G::Move],
    outcome: crate::game::Outcome,
) -> Result<bool, crate::learn::LearnError> {
    let mut pos = start.clone();
    let mut key = start.format_position();
    for &mv in moves {
        key.push(' ');
        key.push_str(&pos.format_move(mv));
        pos.make_move(mv);
    }
    let mut last = learned.lock().unwrap_or_else(|p| p.into_inner());
    if last.as_deref() == Some(key.as_str()) {
        return Ok(false);
    }
    let mut store = store.lock().unwrap_or_else(|p| p.into_inner());
    record_game(&mut store, start, moves, outcome)?;
    *last = Some(key);
    Ok(true)
}

/// A refused command: the code and message of its `error` reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// The machine-readable code.
    pub code: ErrorCode,
    /// What was wrong, for a person.
    pub message: String,
}

impl From<EngineError> for Reply {
    fn from(e: EngineError) -> Reply {
        Reply::Error {
            code: e.code,
            message: e.message,
        }
    }
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)
    }
}

fn error(code: ErrorCode, message: impl Into<String>) -> EngineError {
    EngineError {
        code,
        message: message.into(),
    }
}

fn resolve_heuristic<G: Game>(name: &str) -> Result<(&'static str, G::Heuristic), String> {
    let table = G::heuristics();
    if name.eq_ignore_ascii_case("default") {
        return Ok(table[0]);
    }
    table
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .copied()
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|h| h.0).collect();
            format!(
                "'{name}' is not a heuristic of {} (known: default, {})",
                G::NAME,
                names.join(", ")
            )
        })
}

impl<G: Game> GameSession<G> {
    fn new(start: G, options: &EngineOptions) -> Result<Self, String> {
        let heuristic = resolve_heuristic::<G>(&options.heuristic)?;
        let searcher = Self::build(options, heuristic.1);
        Ok(GameSession {
            position: Some(start.clone()),
            line: (start.clone(), Vec::new()),
            level: options.level,
            learn: None,
            learned: Arc::new(Mutex::new(None)),
            start,
            heuristic,
            searcher: Arc::new(Mutex::new(searcher)),
            searcher_key: Self::key(options, heuristic.0),
            default_depth: options.depth,
        })
    }

    fn key(options: &EngineOptions, heuristic: &'static str) -> SearcherKey {
        (
            options.searcher,
            options.hash_mb,
            options.ordering,
            options.move_overhead,
            // Only the fixed-depth searchers hold the Depth option; pvs keeps its table.
            if options.searcher == SearcherKind::Pvs {
                0
            } else {
                options.depth
            },
            heuristic,
            options.seed,
            options.playout,
            options.threads,
        )
    }

    fn build(options: &EngineOptions, heuristic: G::Heuristic) -> Box<dyn Searcher<G>> {
        new_searcher::<G>(
            options.searcher,
            &SearchOptions {
                heuristic,
                ordering: options.ordering,
                hash_mb: options.hash_mb,
                default_depth: options.depth,
                move_overhead: Duration::from_millis(options.move_overhead),
                seed: options.seed,
                playout: options.playout,
                threads: options.threads,
            },
        )
    }

    /// Formats a line of moves starting at `pos`.
    fn format_line(pos: &G, line: &[G::Move]) -> Vec<String> {
        let mut p = pos.clone();
        let mut out = Vec::with_capacity(line.len());
        for &mv in line {
            out.push(p.format_move(mv));
            p.make_move(mv);
        }
        out
    }
}

fn move_error_reply(index: usize, text: &str, err: &MoveError) -> EngineError {
    // A move list entry that is no move at all is as fatal to the list as an illegal one:
    // both get `illegal-move`, and the message says which of the two it was.
    error(
        ErrorCode::IllegalMove,
        format!("move {} of the list ({text}): {err}", index + 1),
    )
}

impl<G: Game> Session for GameSession<G> {
    fn spec(&self) -> GameSpec {
        GameSpec::of::<G>(self.start.settings_of())
    }

    fn side_to_move(&self) -> Option<Side> {
        self.position.as_ref().map(|p| p.side_to_move())
    }

    fn set_position(
        &mut self,
        position: &PositionSpec,
        moves: &[String],
    ) -> Result<(), EngineError> {
        // Whatever happens, the old position is gone: a failed `position` leaves none.
        self.position = None;
        let mut pos = match position {
            PositionSpec::StartPos => self.start.clone(),
            PositionSpec::Fen(text) => G::parse_position(self.start.settings_of(), text)
                .map_err(|e| error(ErrorCode::BadPosition, e.to_string()))?,
        };
        let line_start = pos.clone();
        let mut line = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| move_error_reply(i, text, &e))?;
            pos.make_move(mv);
            line.push(mv);
        }
        // A finished game arrives: learn from it (once) when learning is on.
        if let (Some(store), Some(outcome)) = (&self.learn, pos.outcome()) {
            if let Err(e) = learn_once(store, &self.learned, &line_start, &line, outcome) {
                log::warn!("learning: {e}");
            }
        }
        self.line = (line_start, line);
        self.position = Some(pos);
        Ok(())
    }

    fn position(&self) -> Option<String> {
        self.position.as_ref().map(|p| p.format_position())
    }

    fn legal_moves(&self) -> Option<Vec<String>> {
        let pos = self.position.as_ref()?;
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        Some(moves.into_iter().map(|m| pos.format_move(m)).collect())
    }

    fn render(&self) -> Option<Vec<String>> {
        self.position.as_ref().map(|p| p.render())
    }

    fn outcome_name(&self) -> Option<&'static str> {
        let pos = self.position.as_ref()?;
        Some(pos.outcome().map_or("none", |o| o.protocol_name()))
    }

    fn perft(
        &mut self,
        depth: u32,
        divide: bool,
        stop: Arc<AtomicBool>,
        done: Arc<AtomicBool>,
        sink: Sink,
    ) -> Result<JoinHandle<()>, EngineError> {
        let mut pos = self.position.clone().ok_or_else(no_position)?;
        let count = move || {
            let start = Instant::now();
            let (nodes, stopped) = if divide {
                let mut each = |mv: &str, count: u64| {
                    sink(Reply::Divide {
                        mv: mv.to_string(),
                        nodes: count,
                    })
                };
                let (lines, stopped) =
                    match crate::perft::divide_until(&mut pos, depth, &stop, &mut each) {
                        Ok(lines) => (lines, false),
                        Err(lines) => (lines, true),
                    };
                let total = if depth == 0 {
                    1
                } else {
                    lines.iter().map(|l| l.1).sum()
                };
                (total, stopped)
            } else {
                match crate::perft::perft_until(&mut pos, depth, &stop) {
                    Ok(n) => (n, false),
                    Err(n) => (n, true),
                }
            };
            let elapsed = start.elapsed();
            let time_ms = elapsed.as_millis() as u64;
            let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
            done.store(true, Ordering::SeqCst);
            sink(Reply::Perft {
                depth,
                nodes,
                time_ms,
                nps,
                stopped,
            });
        };
        std::thread::Builder::new()
            .name("perft".into())
            .spawn(count)
            .map_err(|e| {
                error(
                    ErrorCode::Busy,
                    format!("cannot start the perft thread: {e}"),
                )
            })
    }

    fn eval(&self) -> Option<(i32, &'static str)> {
        let pos = self.position.as_ref()?;
        Some((pos.evaluate(self.heuristic.1), self.heuristic.0))
    }

    fn configure(&mut self, options: &EngineOptions) -> Result<(), String> {
        let heuristic = resolve_heuristic::<G>(&options.heuristic)?;
        let key = Self::key(options, heuristic.0);
        if key != self.searcher_key {
            self.searcher = Arc::new(Mutex::new(Self::build(options, heuristic.1)));
            self.searcher_key = key;
        }
        self.heuristic = heuristic;
        self.default_depth = options.depth;
        self.level = options.level;
        Ok(())
    }

    fn new_game(&mut self) {
        if let Ok(mut s) = self.searcher.lock() {
            s.clear();
        }
        self.position = Some(self.start.clone());
        self.line = (self.start.clone(), Vec::new());
    }

    fn set_learn(&mut self, store: Option<SharedStore>) {
        self.learn = store;
    }

    fn go(
        &mut self,
        mut limits: Limits,
        stop: Arc<AtomicBool>,
        done: Arc<AtomicBool>,
        sink: Sink,
    ) -> Result<JoinHandle<()>, EngineError> {
        let pos = self.position.clone().ok_or_else(|| {
            error(
                ErrorCode::NoPosition,
                "no valid position: send a correct 'position' command first",
            )
        })?;
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && !limits.infinite
        {
            limits.depth = Some(self.default_depth);
        }
        // A named level caps every search at its depth, whatever the clock allows.
        if let Some(level) = self.level {
            limits.depth = Some(limits.depth.map_or(level.depth(), |d| d.min(level.depth())));
        }
        let searcher = Arc::clone(&self.searcher);
        let learn = self.learn.clone();
        let learned = Arc::clone(&self.learned);
        let line = self.line.clone();
        std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let mut pos = pos;
                let root = pos.clone();
                let control = Control::new(&stop);
                let result = {
                    let mut searcher = match searcher.lock() {
                        Ok(s) => s,
                        Err(poisoned) => poisoned.into_inner(),
                    };
                    let mut on_info = |info: &crate::search::SearchInfo<G::Move>| {
                        let ms = info.elapsed.as_millis() as u64;
                        sink(Reply::Info(Info {
                            depth: Some(info.depth),
                            // Never below depth: a line that ends the game early still
                            // completes the iteration (protocol.md, `info`).
                            seldepth: Some(info.seldepth.max(info.depth)),
                            score: Some(info.score),
                            nodes: Some(info.nodes),
                            nps: Some(
                                (info.nodes as f64 / info.elapsed.as_secs_f64().max(1e-6)) as u64,
                            ),
                            time: Some(ms),
                            hashfull: info.hashfull,
                            pv: Self::format_line(&root, &info.pv),
                            string: None,
                            mate_scores: false,
                        }));
                    };
                    // With learning, half the time goes to the main search and half to
                    // searching each root move for the learned bonus.
                    let store = learn
                        .as_ref()
                        .map(|s| s.lock().unwrap_or_else(|p| p.into_inner()));
                    let store = store.filter(|s| knows_children(&mut pos, s));
                    let main_limits = match &store {
                        Some(_) => limits_for_learning(&limits),
                        None => limits.clone(),
                    };
                    let mut result =
                        searcher.search(&mut pos, &main_limits, &control, &mut on_info);
                    if let (Some(store), Some(best)) = (&store, result.best) {
                        let chosen =
                            learned_move(&mut pos, &mut **searcher, &limits, store, best, &control);
                        result.best = Some(chosen);
                    }
                    result
                };
                // The engine's own move ends the game: learn from it now.
                if let (Some(store), Some(best)) = (&learn, result.best) {
                    let mut after = root.clone();
                    after.make_move(best);
                    if let Some(outcome) = after.outcome() {
                        let mut moves = line.1.clone();
                        moves.push(best);
                        if let Err(e) = learn_once(store, &learned, &line.0, &moves, outcome) {
                            sink(Reply::Info(Info {
                                string: Some(format!("learning: {e}")),
                                ..Info::default()
                            }));
                        }
                    }
                }
                // `go infinite` answers only after `stop`, as UCI requires.
                if limits.infinite {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
                let best = result.best.map(|mv| root.format_move(mv));
                if best.is_none() {
                    let why = root
                        .outcome()
                        .map_or("no legal move", |o| o.protocol_name());
                    sink(Reply::Info(Info {
                        string: Some(format!("game over: {why}")),
                        ..Info::default()
                    }));
                }
                // Idle from here on: a controller that has read `bestmove` may send anything.
                done.store(true, Ordering::SeqCst);
                sink(Reply::BestMove(best));
            })
            .map_err(|e| {
                error(
                    ErrorCode::Busy,
                    format!("cannot start the search thread: {e}"),
                )
            })
    }
}

struct NewSession<'a> {
    spec: &'a GameSpec,
    options: &'a EngineOptions,
    position: Option<&'a str>,
}

impl GameVisitor for NewSession<'_> {
    type Output = Result<Box<dyn Session>, EngineError>;
    fn visit<G: Game>(self) -> Self::Output {
        let settings = self.spec.settings::<G>();
        let start = match self.position {
            None => G::start(&settings),
            Some(text) => G::parse_position(&settings, text)
                .map_err(|e| error(ErrorCode::BadPosition, e.to_string()))?,
        };
        let session =
            GameSession::new(start, self.options).map_err(|m| error(ErrorCode::BadValue, m))?;
        Ok(Box::new(session))
    }
}

fn new_session(
    spec: &GameSpec,
    options: &EngineOptions,
    position: Option<&str>,
) -> Result<Box<dyn Session>, EngineError> {
    dispatch(
        spec.name,
        NewSession {
            spec,
            options,
            position,
        },
    )
    .unwrap_or_else(|| {
        Err(error(
            ErrorCode::UnknownGame,
            format!("unknown game '{}'", spec.name),
        ))
    })
}

struct RunningSearch {
    stop: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// An engine: options, a game session and at most one running search.
pub struct Engine {
    sink: Sink,
    options: EngineOptions,
    session: Box<dyn Session>,
    search: Option<RunningSearch>,
    learn: Option<SharedStore>,
    /// The `HalfKomi` option: twice Black's komi in Tak games started by `teinewgame`.
    half_komi: i32,
    /// Set by the `tei` handshake: `info` scores are written as `mate <moves>`.
    tei: Arc<AtomicBool>,
}

/// The options the engine advertises, in handshake order.
pub fn option_declarations() -> Vec<OptionDecl> {
    let d = EngineOptions::default();
    vec![
        OptionDecl {
            name: "Game".into(),
            kind: OptionType::String {
                default: "tictactoe".into(),
            },
        },
        OptionDecl {
            name: "Searcher".into(),
            kind: OptionType::Combo {
                default: d.searcher.name().into(),
                vars: SearcherKind::ALL
                    .iter()
                    .map(|k| k.name().to_string())
                    .collect(),
            },
        },
        OptionDecl {
            name: "Heuristic".into(),
            kind: OptionType::String {
                default: d.heuristic.clone(),
            },
        },
        OptionDecl {
            name: "Ordering".into(),
            kind: OptionType::Check {
                default: d.ordering,
            },
        },
        OptionDecl {
            name: "Hash".into(),
            kind: OptionType::Spin {
                default: d.hash_mb as i64,
                min: 1,
                max: 4096,
            },
        },
        OptionDecl {
            name: "HalfKomi".into(),
            kind: OptionType::Spin {
                default: 0,
                min: -10,
                max: 10,
            },
        },
        OptionDecl {
            name: "Depth".into(),
            kind: OptionType::Spin {
                default: d.depth as i64,
                min: 1,
                max: 64,
            },
        },
        OptionDecl {
            name: "MoveOverhead".into(),
            kind: OptionType::Spin {
                default: d.move_overhead as i64,
                min: 0,
                max: 5000,
            },
        },
        OptionDecl {
            name: "Level".into(),
            kind: OptionType::Combo {
                default: "custom".into(),
                vars: Level::ALL
                    .iter()
                    .map(|l| l.name().to_string())
                    .chain(["custom".to_string()])
                    .collect(),
            },
        },
        OptionDecl {
            name: "LearnFile".into(),
            kind: OptionType::String {
                default: String::new(),
            },
        },
        OptionDecl {
            name: "Seed".into(),
            kind: OptionType::Spin {
                default: 0,
                min: 0,
                max: i64::from(i32::MAX),
            },
        },
        OptionDecl {
            name: "Threads".into(),
            kind: OptionType::Spin {
                default: 1,
                min: 1,
                max: 64,
            },
        },
        OptionDecl {
            name: "Playout".into(),
            kind: OptionType::Spin {
                default: i64::from(crate::search::DEFAULT_PLAYOUT),
                min: 0,
                max: 1000,
            },
        },
    ]
}

fn parse_spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, EngineError> {
    let text = value.unwrap_or("").trim();
    let v: i64 = text.parse().map_err(|_| {
        error(
            ErrorCode::BadValue,
            format!("option {name}: '{text}' is not an integer"),
        )
    })?;
    if v < min || v > max {
        return Err(error(
            ErrorCode::BadValue,
            format!("option {name}: {v} is outside {min}..{max}"),
        ));
    }
    Ok(v)
}

impl Engine {
    /// An engine playing tic-tac-toe from the start, with default options.
    pub fn new(sink: Sink) -> Engine {
        let options = EngineOptions::default();
        let spec = GameSpec::parse("tictactoe").expect("built-in game");
        let session = new_session(&spec, &options, None).expect("built-in game");
        let tei = Arc::new(AtomicBool::new(false));
        let tei_flag = Arc::clone(&tei);
        let sink: Sink = Arc::new(move |reply| match reply {
            Reply::Info(mut info) if tei_flag.load(Ordering::Relaxed) => {
                info.mate_scores = true;
                sink(Reply::Info(info))
            }
            other => sink(other),
        });
        Engine {
            sink,
            options,
            session,
            search: None,
            learn: None,
            half_komi: 0,
            tei,
        }
    }

    /// Switches to the game `spec`, with `position` as its start position if given.
    ///
    /// # Errors
    /// The error reply for an unknown game, bad parameters or a bad position.
    pub fn set_game(&mut self, spec: &str, position: Option<&str>) -> Result<(), EngineError> {
        let spec = GameSpec::parse(spec).map_err(|e| {
            let code = match e {
                crate::games::SpecError::UnknownGame { .. }
                | crate::games::SpecError::Empty { .. } => ErrorCode::UnknownGame,
                _ => ErrorCode::BadValue,
            };
            error(code, format!("option Game: {e}"))
        })?;
        let mut options = self.options.clone();
        if resolve_heuristic_any(&spec, &options.heuristic).is_err() {
            options.heuristic = "default".into();
        }
        self.session = new_session(&spec, &options, position)?;
        self.session.set_learn(self.learn.clone());
        self.options = options;
        Ok(())
    }

    /// Switches to Tak of `size` with the `HalfKomi` option (`teinewgame <size>`, `tei`).
    fn set_tak(&mut self, size: u32) -> Result<(), EngineError> {
        if !(3..=8).contains(&size) {
            return Err(error(
                ErrorCode::BadValue,
                format!("teinewgame {size}: Tak is played on sizes 3 to 8"),
            ));
        }
        self.set_game(
            &format!("tak size={size} halfkomi={}", self.half_komi),
            None,
        )
    }

    fn emit(&self, reply: impl Into<Reply>) {
        (self.sink)(reply.into());
    }

    fn is_searching(&mut self) -> bool {
        match &self.search {
            Some(s) if s.done.load(Ordering::SeqCst) || s.handle.is_finished() => {
                let s = self.search.take().expect("checked");
                let _ = s.handle.join();
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Waits until a running search, count or proof has finished on its own and emitted
    /// its last line (the command-line tools use this; `stop_search` ends it first).
    pub fn wait(&mut self) {
        if let Some(s) = self.search.take() {
            let _ = s.handle.join();
        }
    }

    /// Stops a running search and waits until its `bestmove` has been emitted.
    pub fn stop_search(&mut self) {
        if let Some(s) = self.search.take() {
            s.stop.store(true, Ordering::Relaxed);
            let _ = s.handle.join();
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match line.parse::<Command>() {
            Ok(command) => self.handle(command),
            Err(crate::protocol::ParseError::Empty) => Flow::Continue,
            Err(e) => {
                self.emit(error(e.code(), e.to_string()));
                Flow::Continue
            }
        }
    }

    /// Handles one parsed command.
    pub fn handle(&mut self, command: Command) -> Flow {
        let busy = self.is_searching();
        match command {
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            Command::IsReady => self.emit(Reply::ReadyOk),
            Command::Stop => self.stop_search(),
            Command::Debug(_) => {}
            Command::Hello(dialect) => {
                self.emit(Reply::Id {
                    field: "name".into(),
                    value: ENGINE_NAME.into(),
                });
                self.emit(Reply::Id {
                    field: "author".into(),
                    value: ENGINE_AUTHOR.into(),
                });
                for decl in option_declarations() {
                    self.emit(Reply::Option(decl));
                }
                self.emit(Reply::HelloOk(dialect));
                self.tei.store(dialect == Dialect::Tei, Ordering::Relaxed);
                if dialect == Dialect::Tei && self.session.spec().name != "tak" {
                    if let Err(reply) = self.set_tak(5) {
                        self.emit(reply);
                    }
                }
            }
            _ if busy => {
                self.emit(error(
                    ErrorCode::Busy,
                    "a search is running: send 'stop' first",
                ));
            }
            Command::PonderHit => {
                self.emit(error(ErrorCode::Unsupported, "pondering is not supported"))
            }
            Command::SetOption { name, value } => {
                if let Err(reply) = self.set_option(&name, value.as_deref()) {
                    self.emit(reply);
                }
            }
            Command::NewGame { size, .. } => match size {
                Some(size) => {
                    if let Err(reply) = self.set_tak(size) {
                        self.emit(reply);
                    }
                }
                None => self.session.new_game(),
            },
            Command::Position { position, moves } => {
                if let Err(reply) = self.session.set_position(&position, &moves) {
                    self.emit(reply);
                }
            }
            Command::Go(go) => self.go(go),
            Command::Query(kind) => self.query(kind),
            Command::Perft { depth, divide } => self.perft(depth, divide),
            Command::Moves => match self.session.legal_moves() {
                Some(moves) => self.emit(Reply::Moves(moves)),
                None => self.emit(no_position()),
            },
            Command::Show => match self.session.render() {
                Some(lines) => {
                    for line in lines {
                        self.emit(Reply::Board(line));
                    }
                    self.emit(Reply::ShowOk);
                }
                None => self.emit(no_position()),
            },
            Command::Games => {
                for g in describe_all() {
                    let params: Vec<String> = g
                        .params
                        .iter()
                        .map(|p| format!("{}={}..{}:{}", p.name, p.min, p.max, p.default))
                        .collect();
                    self.emit(Reply::Game(format!(
                        "{} heuristics {} params {}",
                        g.name,
                        g.heuristics.join(","),
                        params.join(" ")
                    )));
                }
                self.emit(Reply::GamesOk);
            }
            Command::Solve {
                method,
                distance,
                movetime,
            } => self.solve(
                method.unwrap_or(crate::solve::Method::Auto),
                distance,
                movetime,
            ),
            Command::Eval => match self.session.eval() {
                Some((cp, heuristic)) => self.emit(Reply::Eval {
                    cp,
                    heuristic: heuristic.into(),
                }),
                None => self.emit(no_position()),
            },
        }
        Flow::Continue
    }

    fn query(&mut self, kind: QueryKind) {
        let reply = match kind {
            QueryKind::Game => Some(self.session.spec().to_string()),
            QueryKind::Position => self.session.position(),
            QueryKind::Result => self.session.outcome_name().map(str::to_string),
            QueryKind::GameOver => self
                .session
                .outcome_name()
                .map(|o| (o != "none").to_string()),
            QueryKind::P1Turn => self
                .session
                .side_to_move()
                .map(|s| (s == Side::First).to_string()),
        };
        match reply {
            Some(text) => self.emit(Reply::Response(text)),
            None => self.emit(no_position()),
        }
    }

    fn go(&mut self, go: Go) {
        let Some(side) = self.session.side_to_move() else {
            self.emit(no_position());
            return;
        };
        let ms = Duration::from_millis;
        let (time, inc) = match side {
            Side::First => (go.p1time, go.p1inc),
            Side::Second => (go.p2time, go.p2inc),
        };
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            clock: time.map(|t| Clock {
                time: ms(t),
                increment: ms(inc.unwrap_or(0)),
                moves_to_go: go.movestogo,
            }),
            infinite: go.infinite,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let sink = Arc::clone(&self.sink);
        match self
            .session
            .go(limits, Arc::clone(&stop), Arc::clone(&done), sink)
        {
            Ok(handle) => self.search = Some(RunningSearch { stop, done, handle }),
            Err(reply) => self.emit(reply),
        }
    }

    /// `perft`: counts on its own thread, so that `isready`, `stop`, `quit` and the end of
    /// input are answered meanwhile (a `perft 50` runs for ever).
    fn perft(&mut self, depth: u32, divide: bool) {
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let sink = Arc::clone(&self.sink);
        match self
            .session
            .perft(depth, divide, Arc::clone(&stop), Arc::clone(&done), sink)
        {
            Ok(handle) => self.start_job(RunningSearch { stop, done, handle }),
            Err(reply) => self.emit(reply),
        }
    }

    /// Keeps `job` (a `perft` or `solve`) as the running task, giving it [`HEAD_START`]
    /// to finish first: a quick one then answers before any later command is read (a
    /// controller sending `perft 2` then `isready` gets the count first, as before these
    /// ran on their own thread), a long one is still interruptible at once after that.
    fn start_job(&mut self, job: RunningSearch) {
        let deadline = Instant::now() + HEAD_START;
        while !job.handle.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(200));
        }
        if job.handle.is_finished() {
            let _ = job.handle.join();
        } else {
            self.search = Some(job);
        }
    }

    /// `solve`: proves the value of the current position on the search thread, so that
    /// `stop` and `isready` are answered meanwhile; one `solution` line at the end.
    fn solve(&mut self, method: crate::solve::Method, distance: bool, movetime: Option<u64>) {
        let Some(position) = self.session.position() else {
            self.emit(no_position());
            return;
        };
        let spec = self.session.spec().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let sink = Arc::clone(&self.sink);
        let (thread_stop, thread_done) = (Arc::clone(&stop), Arc::clone(&done));
        // The proof's tables take at most `Hash` MiB.
        let memory_mib = self.options.hash_mb;
        let spawned = std::thread::Builder::new()
            .name("solve".into())
            .spawn(move || {
                let limit = movetime.map(Duration::from_millis);
                let solved = crate::solve::solve(
                    &spec,
                    Some(&position),
                    method,
                    distance,
                    limit,
                    memory_mib,
                    thread_stop,
                );
                let reply = match solved {
                    Ok(report) => {
                        if let Some(cut @ crate::solve::Cut::Memory { .. }) = report.cut {
                            let what = if report.verdict.is_some() {
                                "the distance"
                            } else {
                                "a proof"
                            };
                            sink(Reply::Info(Info {
                                string: Some(format!(
                                    "solve: {cut} (the Hash option) before {what}, after {} \
                                     nodes; a larger Hash may finish it",
                                    report.nodes
                                )),
                                ..Info::default()
                            }));
                        }
                        solution_reply(&report)
                    }
                    Err(message) => error(ErrorCode::BadPosition, message).into(),
                };
                thread_done.store(true, Ordering::SeqCst);
                sink(reply);
            });
        match spawned {
            Ok(handle) => self.start_job(RunningSearch { stop, done, handle }),
            Err(e) => self.emit(error(
                ErrorCode::Busy,
                format!("cannot start the solve thread: {e}"),
            )),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), EngineError> {
        let lower = name.trim().to_ascii_lowercase();
        let mut options = self.options.clone();
        match lower.as_str() {
            "game" => return self.set_game(value.unwrap_or(""), None),
            "searcher" => {
                let text = value.unwrap_or("").trim();
                options.searcher = SearcherKind::from_name(text).ok_or_else(|| {
                    error(ErrorCode::BadValue, format!("option Searcher: '{text}' is not one of pvs, alphabeta, minimax, random"))
                })?;
            }
            "heuristic" => options.heuristic = value.unwrap_or("").trim().to_string(),
            "ordering" => {
                let text = value.unwrap_or("").trim().to_ascii_lowercase();
                options.ordering = match text.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(error(ErrorCode::BadValue, format!("option Ordering: '{text}' is not true or false"))),
                };
            }
            "hash" => options.hash_mb = parse_spin("Hash", value, 1, 4096)? as usize,
            "seed" => options.seed = parse_spin("Seed", value, 0, i64::from(i32::MAX))? as u64,
            "playout" => options.playout = parse_spin("Playout", value, 0, 1000)? as u32,
            "threads" => options.threads = parse_spin("Threads", value, 1, 64)? as usize,
            "halfkomi" => {
                self.half_komi = parse_spin("HalfKomi", value, -10, 10)? as i32;
                // A Tak game in progress takes the new komi (its size and variant stay).
                let spec = self.session.spec();
                if spec.name == "tak" {
                    let text = format!(
                        "tak size={} halfkomi={} line={}",
                        spec.values[0], self.half_komi, spec.values[2]
                    );
                    return self.set_game(&text, None);
                }
                return Ok(());
            }
            "depth" => options.depth = parse_spin("Depth", value, 1, 64)? as u32,
            "moveoverhead" => options.move_overhead = parse_spin("MoveOverhead", value, 0, 5000)? as u64,
            "level" => {
                let text = value.unwrap_or("").trim();
                options.level = if text.eq_ignore_ascii_case("custom") {
                    None
                } else {
                    Some(Level::from_name(text).ok_or_else(|| {
                        error(ErrorCode::BadValue, format!("option Level: '{text}' is not one of easy, medium, hard, expert, custom"))
                    })?)
                };
            }
            "learnfile" => {
                let mut text = value.unwrap_or("").trim().to_string();
                if text == "<empty>" {
                    text.clear();
                }
                let store = if text.is_empty() {
                    None
                } else {
                    let store = LearnStore::open(&text)
                        .map_err(|e| error(ErrorCode::BadValue, format!("option LearnFile: {e}")))?;
                    Some(Arc::new(Mutex::new(store)))
                };
                self.learn = store;
                self.session.set_learn(self.learn.clone());
                options.learn_file = text;
            }
            _ => {
                return Err(error(
                    ErrorCode::UnknownOption,
                    format!("no option named '{}' (options: Game, Searcher, Heuristic, Ordering, Hash, HalfKomi, Depth, MoveOverhead, Level, LearnFile, Seed, Threads, Playout)", name.trim()),
                ))
            }
        }
        self.session
            .configure(&options)
            .map_err(|m| error(ErrorCode::BadValue, format!("option Heuristic: {m}")))?;
        self.options = options;
        Ok(())
    }
}

/// The `solution` line of a solve report.
fn solution_reply(report: &crate::solve::SolveReport) -> Reply {
    use crate::solve::Verdict;
    let (result, plies) = match report.verdict {
        Some(Verdict::Win(p)) => ("win", p),
        Some(Verdict::Loss(p)) => ("loss", p),
        Some(Verdict::Draw) => ("draw", None),
        None => ("unknown", None),
    };
    Reply::Solution {
        result: result.to_string(),
        plies,
        mv: report
            .best_move
            .clone()
            .filter(|_| report.verdict.is_some()),
        method: report.method.to_string(),
        nodes: report.nodes,
        time_ms: report.elapsed.as_millis() as u64,
    }
}

fn no_position() -> EngineError {
    error(
        ErrorCode::NoPosition,
        "no valid position: send a correct 'position' command first",
    )
}

struct HeuristicCheck<'a>(&'a str);
impl GameVisitor for HeuristicCheck<'_> {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Self::Output {
        resolve_heuristic::<G>(self.0).map(|_| ())
    }
}

fn resolve_heuristic_any(spec: &GameSpec, name: &str) -> Result<(), String> {
    dispatch(spec.name, HeuristicCheck(name)).unwrap_or(Ok(()))
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_search();
    }
}
