//! One engine session: options, the current game and position, and the search thread.
//!
//! [`Engine::handle_line`] takes one protocol line and emits [`Reply`] values through the
//! sink it was built with; it never reads or writes stdio itself. A search runs on its
//! own thread, so `isready` and `stop` are answered while it runs. Every bad line gets
//! exactly one `error` reply; nothing here panics on input.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::game::Side;
use crate::games::{describe_all, GameSpec};
use crate::learn::LearnStore;
use crate::protocol::{Command, ErrorCode, Go, QueryKind, Reply, SolveMethod};
use crate::search::{Limits, MoverClock};

/// Where replies go. Called from the input thread and the search thread.
pub type Sink = Arc<dyn Fn(Reply) + Send + Sync>;

/// The engine's name and version as `id name` prints them.
pub const ENGINE_NAME: &str = concat!("Agon ", env!("CARGO_PKG_VERSION"));
/// `id author`.
pub const ENGINE_AUTHOR: &str = "The Agon developers";

mod jobs;
mod options;
mod session;
mod tei;

use options::Effect;
pub use options::{option_declarations, option_docs, EngineOptions, Level};
use session::{new_session, resolve_heuristic_any, Session, SharedStore};

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

impl Engine {
    /// An engine playing tic-tac-toe from the start, with default options.
    pub fn new(sink: Sink) -> Engine {
        let options = EngineOptions::default();
        let spec = GameSpec::parse("tictactoe").expect("built-in game");
        let session = new_session(&spec, &options, None).expect("built-in game");
        let tei = Arc::new(AtomicBool::new(false));
        let sink = tei::mate_scores_when(&tei, sink);
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
                if let Err(reply) = self.handshake(dialect) {
                    self.emit(reply);
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
                jobs::solver_method(method.unwrap_or(SolveMethod::Auto)),
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
            clock: time.map(|t| MoverClock {
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

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), EngineError> {
        let option = options::find(name)?;
        let value = option.parse(value)?;
        let mut options = self.options.clone();
        match option.effect {
            Effect::Game => return self.set_game(value.text(), None),
            Effect::HalfKomi => return self.set_half_komi(value.int() as i32),
            Effect::LearnFile => {
                let text = value.text().to_string();
                let store = if text.is_empty() {
                    None
                } else {
                    let store = LearnStore::open(&text).map_err(|e| {
                        error(ErrorCode::BadValue, format!("option LearnFile: {e}"))
                    })?;
                    Some(Arc::new(Mutex::new(store)))
                };
                self.learn = store;
                self.session.set_learn(self.learn.clone());
                options.learn_file = text;
            }
            Effect::Search(apply) => apply(&mut options, &value),
        }
        self.session
            .configure(&options)
            .map_err(|m| error(ErrorCode::BadValue, format!("option Heuristic: {m}")))?;
        self.options = options;
        Ok(())
    }
}

pub(super) fn no_position() -> EngineError {
    error(
        ErrorCode::NoPosition,
        "no valid position: send a correct 'position' command first",
    )
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_search();
    }
}
