//! The game-specific half of an engine session: the current game, position and searchers,
//! behind the [`Session`] trait object, so that dispatch on the game happens once per
//! command and the search inside is monomorphised.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::game::{Game, MoveError, Side};
use crate::games::{dispatch, GameSpec, GameVisitor};
use crate::learn::{knows_children, learned_move, limits_for_learning, record_game, LearnStore};
use crate::protocol::{ErrorCode, Info, PositionSpec, Reply};
use crate::search::{new_searcher, Control, Limits, SearchOptions, Searcher, SearcherKind};

use super::{error, no_position, EngineError, EngineOptions, Level, Sink};

/// A learning store shared by the engine and its search thread.
pub(super) type SharedStore = Arc<Mutex<LearnStore>>;

/// The game-specific half of a session, behind a trait object: dispatch on the game
/// happens once per command, the search inside is monomorphised.
pub(super) trait Session: Send {
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

pub(super) fn new_session(
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

struct HeuristicCheck<'a>(&'a str);
impl GameVisitor for HeuristicCheck<'_> {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Self::Output {
        resolve_heuristic::<G>(self.0).map(|_| ())
    }
}

pub(super) fn resolve_heuristic_any(spec: &GameSpec, name: &str) -> Result<(), String> {
    dispatch(spec.name, HeuristicCheck(name)).unwrap_or(Ok(()))
}
