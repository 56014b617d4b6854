//! agon as a Gomocup brain: the Piskvork protocol (`crate::protocol::gomocup`) spoken
//! over stdin/stdout by `pbrain-agon` (or `agon gomocup`, or any copy of `agon` whose file
//! name starts with `pbrain-`, as Gomocup managers name brains).
//!
//! The brain keeps the board as the manager sees it (its own stones and the opponent's)
//! and, when asked for a move, hands the position to the engine's default search as an
//! m,n,k position with k = 5 (freestyle: five or more in a row wins) and the limits the
//! manager gave (`INFO timeout_turn`, `time_left`, `max_memory`, Yixin-Board's `max_depth`
//! and `max_node`). Colours follow from the stones: the side with fewer stones moves, and
//! with as many, the brain moves first. protocol.md section 11 specifies every command and
//! reply with examples.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::{mpsc, Arc, Mutex};

use crate::engine::{Engine, Flow};
use crate::game::Game;
use crate::games::mnk::{Mnk, MnkSettings};
use crate::protocol::gomocup::{parse_command, Command, ParseError, Point, Reply};
use crate::protocol::{Info, Reply as EngineReply, Score};

/// Board sides agon plays, in squares (m,n,k boards go up to 26; Gomocup uses 15 and 20).
pub const SIZES: std::ops::RangeInclusive<u32> = 5..=26;

/// Stones in a row that win: Gomocup's gomoku.
const K: usize = 5;

/// `time_left`'s value for "no match limit".
const UNLIMITED: i64 = 2_147_483_647;

/// Milliseconds a move takes when the manager gave no turn limit: Gomocup's fastgame limit.
pub const DEFAULT_TURN_MS: u64 = 5_000;

/// Memory the brain needs besides its hash table, in MiB (its own code and boards).
const BASE_MIB: u64 = 8;

/// A line for the manager.
pub type Out = Arc<dyn Fn(Reply) + Send + Sync>;

/// What the brain waits for from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Thinking {
    /// A move to play (`BEGIN`, `TURN`, `BOARD`).
    Move,
    /// `SWAP2BOARD` with 3 or 5 stones: `SWAP` when the side to move stands worse, else
    /// the move.
    SwapOrMove,
}

/// The limits the manager gave with `INFO`.
#[derive(Clone, Debug, Default)]
struct Limits {
    turn_ms: Option<u64>,
    time_left_ms: Option<i64>,
    max_depth: Option<u32>,
    max_node: Option<u64>,
}

/// `INFO rule`'s bit for "exactly five in a row wins" (Gomocup protocol, `INFO rule`: a
/// sum of 1 exactly five, 2 continuous game, 4 renju, 8 caro).
const RULE_EXACT_FIVE: u32 = 1;

/// Whether agon plays Gomocup rule `rule`: freestyle (0) and exactly five (1); why not
/// otherwise.
fn supported_rule(rule: u32) -> Result<(), String> {
    if rule & !RULE_EXACT_FIVE == 0 {
        return Ok(());
    }
    let refused: Vec<&str> = [
        (2, "continuous games (2)"),
        (4, "renju (4)"),
        (8, "caro (8)"),
    ]
    .iter()
    .filter(|&&(bit, _)| rule & bit != 0)
    .map(|&(_, name)| name)
    .collect();
    let refused = if refused.is_empty() {
        "an unknown rule".to_string()
    } else {
        refused.join(", ")
    };
    Err(format!(
        "agon plays freestyle (rule 0: five or more in a row wins) and exactly five (rule 1) only, not {refused}"
    ))
}

/// What is being read between `BOARD` or `SWAP2BOARD` and `DONE`.
enum Collecting {
    Board(Vec<(Point, u8)>),
    Swap2(Vec<Point>),
    /// Lines of a `BOARD` or `SWAP2BOARD` that cannot be carried out, dropped up to `DONE`.
    Dropped,
}

/// One Gomocup session.
pub struct Brain {
    engine: Engine,
    out: Out,
    /// Columns and rows, once `START` or `RECTSTART` was accepted.
    size: Option<(u32, u32)>,
    /// `y * width + x`: 0 empty, 1 the brain's stone, 2 the opponent's.
    cells: Vec<u8>,
    limits: Limits,
    /// The game rule (`INFO rule`): 0 freestyle and 1 exactly five are played.
    rule: u32,
    /// Problems met in `INFO` lines, told at the next command that is no `INFO`.
    pending: Vec<String>,
    collecting: Option<Collecting>,
    thinking: Option<Thinking>,
    /// Lines that came while the brain was thinking, handled after its answer.
    queued: VecDeque<String>,
    /// The last `info` of the running search.
    last_info: Option<Info>,
    /// The swap2 stones, in order, while `SWAP2BOARD` is being answered.
    swap2: Vec<Point>,
}

/// An input event of the brain's loop: a manager line or an engine reply.
pub enum Event {
    /// A line from the manager.
    Line(String),
    /// A reply from the engine's search.
    Engine(EngineReply),
    /// The manager closed the brain's input.
    EndOfInput,
}

impl Brain {
    /// A brain writing to `out`, its engine replying through `engine_sink`.
    pub fn new(out: Out, engine_sink: crate::engine::Sink) -> Brain {
        Brain {
            engine: Engine::new(engine_sink),
            out,
            size: None,
            cells: Vec::new(),
            limits: Limits::default(),
            rule: 0,
            pending: Vec::new(),
            collecting: None,
            thinking: None,
            queued: VecDeque::new(),
            last_info: None,
            swap2: Vec::new(),
        }
    }

    fn say(&self, reply: Reply) {
        (self.out)(reply);
    }

    fn error(&self, message: impl Into<String>) {
        self.say(Reply::Error(message.into()));
    }

    /// Handles one line from the manager.
    pub fn line(&mut self, line: &str) -> Flow {
        if self.thinking.is_some() {
            // Only what concerns the running search is handled now; the rest waits for
            // the answer, in order.
            match parse_command(line) {
                Ok(Command::End) => {
                    self.engine.stop_search();
                    return Flow::Quit;
                }
                Ok(Command::Stop) => {
                    self.engine.handle_line("stop");
                }
                Ok(Command::Info { key, value }) => self.info(&key, &value),
                _ => self.queued.push_back(line.to_string()),
            }
            return Flow::Continue;
        }
        if self.collecting.is_some() {
            return self.collect(line);
        }
        let command = match parse_command(line) {
            Ok(c) => c,
            Err(ParseError::Empty) => return Flow::Continue,
            Err(ParseError::Unknown(word)) => {
                self.say(Reply::Unknown(format!(
                    "'{word}' is no command of the Gomocup protocol"
                )));
                return Flow::Continue;
            }
            Err(ParseError::Bad(why)) => {
                self.error(why);
                return Flow::Continue;
            }
        };
        if !matches!(command, Command::Info { .. }) && !self.pending.is_empty() {
            let problems = std::mem::take(&mut self.pending).join("; ");
            self.error(problems);
            if matches!(command, Command::Board | Command::Swap2Board) {
                // Its lines would be read as commands: read and drop them.
                self.collecting = Some(Collecting::Dropped);
            }
            return Flow::Continue;
        }
        self.command(command)
    }

    /// A line between `BOARD` or `SWAP2BOARD` and `DONE`. A line that does not belong
    /// there is told once, with `ERROR`, and the rest is read up to `DONE` and dropped:
    /// one error for one board. `END` still ends the brain.
    fn collect(&mut self, line: &str) -> Flow {
        let command = match parse_command(line) {
            Ok(c) => Ok(c),
            Err(ParseError::Empty) => return Flow::Continue,
            Err(ParseError::Unknown(word)) => Err(format!("'{word}' is no x,y")),
            Err(ParseError::Bad(why)) => Err(why),
        };
        let collecting = self.collecting.as_mut().expect("collecting");
        let problem = match (collecting, command) {
            (_, Ok(Command::End)) => return Flow::Quit,
            (_, Ok(Command::Done)) => {
                let collected = self.collecting.take().expect("collecting");
                self.done(collected);
                return Flow::Continue;
            }
            (Collecting::Dropped, _) => return Flow::Continue,
            (Collecting::Board(stones), Ok(Command::Stone(p, f))) => {
                stones.push((p, f));
                return Flow::Continue;
            }
            (Collecting::Swap2(squares), Ok(Command::Square(p))) => {
                squares.push(p);
                return Flow::Continue;
            }
            (Collecting::Board(_), Ok(other)) => {
                format!("BOARD: expected x,y,field or DONE, got '{other}'")
            }
            (Collecting::Swap2(_), Ok(other)) => {
                format!("SWAP2BOARD: expected x,y or DONE, got '{other}'")
            }
            (Collecting::Board(_), Err(why)) => format!("BOARD: {why}"),
            (Collecting::Swap2(_), Err(why)) => format!("SWAP2BOARD: {why}"),
        };
        self.error(format!("{problem}; the lines up to DONE are dropped"));
        self.collecting = Some(Collecting::Dropped);
        Flow::Continue
    }

    fn command(&mut self, command: Command) -> Flow {
        match command {
            Command::Start(size) => self.start(size, size),
            Command::RectStart { width, height } => self.start(width, height),
            Command::Restart => match self.size {
                Some(_) => {
                    self.cells.iter_mut().for_each(|c| *c = 0);
                    self.say(Reply::Ok);
                }
                None => self.error("RESTART: no board yet; send START <size> first"),
            },
            Command::Begin => {
                if self.board_ready("BEGIN") {
                    if self.cells.iter().any(|&c| c != 0) {
                        self.error(
                            "BEGIN: the board is not empty; send BOARD to play on from a position",
                        );
                    } else {
                        self.think(Thinking::Move);
                    }
                }
            }
            Command::Turn(p) => {
                if self.board_ready("TURN") && self.put(p, 2, "TURN") {
                    self.think(Thinking::Move);
                }
            }
            Command::Play(p) => {
                if self.board_ready("PLAY") && self.put(p, 1, "PLAY") {
                    self.say(Reply::Move(p));
                }
            }
            Command::Takeback(p) => {
                if self.board_ready("TAKEBACK") {
                    match self.index(p) {
                        Some(i) if self.cells[i] != 0 => {
                            self.cells[i] = 0;
                            self.say(Reply::Ok);
                        }
                        Some(_) => self.error(format!("TAKEBACK {p}: no stone there")),
                        None => self.error(format!("TAKEBACK {p}: {}", self.outside(p))),
                    }
                }
            }
            Command::Board => {
                self.collecting = Some(if self.board_ready("BOARD") {
                    Collecting::Board(Vec::new())
                } else {
                    Collecting::Dropped
                });
            }
            Command::Swap2Board => {
                self.collecting = Some(if self.board_ready("SWAP2BOARD") {
                    Collecting::Swap2(Vec::new())
                } else {
                    Collecting::Dropped
                });
            }
            Command::Stone(..) | Command::Square(_) | Command::Done => {
                self.error(format!(
                    "'{command}' comes only between BOARD or SWAP2BOARD and DONE"
                ));
            }
            Command::Info { key, value } => self.info(&key, &value),
            Command::About => self.say(Reply::About(format!(
                "name=\"agon\", version=\"{}\", author=\"the Agon authors\", country=\"\"",
                env!("CARGO_PKG_VERSION")
            ))),
            Command::Stop => {}
            Command::HashClear => {
                self.engine.handle_line("uginewgame");
            }
            Command::End => return Flow::Quit,
        }
        Flow::Continue
    }

    fn start(&mut self, width: u32, height: u32) {
        let word = if width == height {
            format!("START {width}")
        } else {
            format!("RECTSTART {width},{height}")
        };
        if !SIZES.contains(&width) || !SIZES.contains(&height) {
            self.error(format!(
                "{word}: agon plays boards of {} to {} squares a side",
                SIZES.start(),
                SIZES.end()
            ));
            return;
        }
        self.size = Some((width, height));
        self.cells = vec![0; (width * height) as usize];
        self.say(Reply::Ok);
    }

    fn board_ready(&self, word: &str) -> bool {
        if self.size.is_none() {
            self.error(format!("{word}: no board yet; send START <size> first"));
            return false;
        }
        true
    }

    fn index(&self, p: Point) -> Option<usize> {
        let (w, h) = self.size?;
        (p.x < w && p.y < h).then_some((p.y * w + p.x) as usize)
    }

    fn outside(&self, p: Point) -> String {
        let (w, h) = self.size.unwrap_or((0, 0));
        format!(
            "{p} is outside the {w}x{h} board (x is 0 to {}, y is 0 to {})",
            w.saturating_sub(1),
            h.saturating_sub(1)
        )
    }

    /// Puts a stone of `owner` (1 the brain, 2 the opponent) on `p`, or says why not.
    fn put(&mut self, p: Point, owner: u8, word: &str) -> bool {
        match self.index(p) {
            None => {
                self.error(format!("{word} {p}: {}", self.outside(p)));
                false
            }
            Some(i) if self.cells[i] != 0 => {
                self.error(format!("{word} {p}: the square is occupied"));
                false
            }
            Some(i) => {
                self.cells[i] = owner;
                true
            }
        }
    }

    fn done(&mut self, collected: Collecting) {
        match collected {
            Collecting::Board(stones) => {
                let (w, h) = self.size.expect("checked at BOARD");
                let mut cells = vec![0u8; (w * h) as usize];
                for (p, field) in stones {
                    if field == 3 {
                        self.error(format!(
                            "BOARD: {p},3 marks a continuous game (rule 2), which agon does not play"
                        ));
                        return;
                    }
                    let Some(i) = self.index(p) else {
                        self.error(format!("BOARD: {}", self.outside(p)));
                        return;
                    };
                    if cells[i] != 0 {
                        self.error(format!("BOARD: {p} is given twice"));
                        return;
                    }
                    cells[i] = field;
                }
                // A board the brain cannot move on is refused whole: its board stays.
                let before = std::mem::replace(&mut self.cells, cells);
                if let Err(why) = self.playable() {
                    self.cells = before;
                    return self.error(why);
                }
                self.think(Thinking::Move);
            }
            Collecting::Swap2(squares) => self.swap2(squares),
            Collecting::Dropped => {}
        }
    }

    /// `SWAP2BOARD`: three stones to propose, or the choice after three or five.
    fn swap2(&mut self, squares: Vec<Point>) {
        let (w, h) = self.size.expect("checked at SWAP2BOARD");
        match squares.len() {
            0 => {
                // Three stones around the centre: x, o beside it, x a knight's move away.
                let (cx, cy) = (w / 2, h / 2);
                let stones = vec![
                    Point { x: cx, y: cy },
                    Point { x: cx + 1, y: cy },
                    Point {
                        x: cx + 1,
                        y: cy + 2,
                    },
                ];
                self.say(Reply::Moves(stones));
            }
            3 | 5 => {
                let mut cells = vec![0u8; (w * h) as usize];
                for (n, p) in squares.iter().enumerate() {
                    let Some(i) = self.index(*p) else {
                        self.error(format!("SWAP2BOARD: {}", self.outside(*p)));
                        return;
                    };
                    if cells[i] != 0 {
                        self.error(format!("SWAP2BOARD: {p} is given twice"));
                        return;
                    }
                    // x, o, x, o, x: the brain, if it stays, plays o (the side to move).
                    cells[i] = if n % 2 == 0 { 2 } else { 1 };
                }
                self.cells = cells;
                self.swap2 = squares;
                self.think(Thinking::SwapOrMove);
            }
            n => self.error(format!(
                "SWAP2BOARD: {n} stones; the opening has 0, 3 or 5 before DONE"
            )),
        }
    }

    fn info(&mut self, key: &str, value: &str) {
        let number = |_what: &str| value.trim().parse::<i64>().ok();
        let bad = |brain: &mut Brain, what: &str| {
            brain
                .pending
                .push(format!("INFO {key} '{value}': expected {what}"));
        };
        match key {
            "timeout_turn" => match number("ms") {
                Some(ms) if ms >= 0 => self.limits.turn_ms = Some(ms as u64),
                _ => bad(self, "milliseconds, 0 or more"),
            },
            "time_left" => match number("ms") {
                Some(ms) => self.limits.time_left_ms = Some(ms),
                None => bad(self, "milliseconds"),
            },
            "timeout_match" => match number("ms") {
                // time_left comes before every move when the match is timed; a match limit
                // alone starts the clock full.
                Some(0) => self.limits.time_left_ms = None,
                Some(ms) if ms > 0 => {
                    if self.limits.time_left_ms.is_none() {
                        self.limits.time_left_ms = Some(ms);
                    }
                }
                _ => bad(self, "milliseconds, 0 or more"),
            },
            "max_memory" => match number("bytes") {
                Some(0) => {
                    self.engine.handle_line("setoption name Hash value 64");
                }
                Some(bytes) if bytes > 0 => {
                    let mib = bytes as u64 / (1024 * 1024);
                    if mib < BASE_MIB + 1 {
                        self.pending.push(format!(
                            "INFO max_memory {bytes}: agon needs at least {} MiB",
                            BASE_MIB + 1
                        ));
                    } else {
                        let hash = ((mib - BASE_MIB) / 2).clamp(1, 4096);
                        self.engine
                            .handle_line(&format!("setoption name Hash value {hash}"));
                    }
                }
                _ => bad(self, "bytes, 0 or more"),
            },
            "rule" => match number("a rule") {
                Some(rule) if rule >= 0 => {
                    self.rule = rule as u32;
                    if let Err(why) = supported_rule(self.rule) {
                        self.pending.push(format!("INFO rule {rule}: {why}"));
                    }
                }
                _ => bad(self, "a rule: 0, 1, 2, 4 or 8, or a sum of them"),
            },
            "max_depth" => match number("plies") {
                Some(d) if d > 0 => self.limits.max_depth = Some(d.min(64) as u32),
                Some(_) => self.limits.max_depth = None,
                None => bad(self, "plies"),
            },
            "max_node" => match number("nodes") {
                Some(n) if n > 0 => self.limits.max_node = Some(n as u64),
                Some(_) => self.limits.max_node = None,
                None => bad(self, "nodes"),
            },
            "thread_num" => match number("threads") {
                Some(t) if t >= 1 => {
                    self.engine
                        .handle_line(&format!("setoption name Threads value {}", t.min(64)));
                }
                _ => bad(self, "threads, 1 or more"),
            },
            // game_type, evaluate, folder and every other key: nothing for agon to do.
            _ => {}
        }
    }

    /// The position for the engine: m,n,k with k = 5, the brain's colour from the stones.
    fn position(&self) -> Result<(String, String), String> {
        let (w, h) = self.size.expect("a board");
        let own = self.cells.iter().filter(|&&c| c == 1).count();
        let theirs = self.cells.iter().filter(|&&c| c == 2).count();
        let (own_char, their_char, to_move) = if own == theirs {
            ('x', 'o', 'x')
        } else if own + 1 == theirs {
            ('o', 'x', 'o')
        } else {
            return Err(format!(
                "the board has {own} stones of the brain and {theirs} of its opponent: the side to move has as many stones as the other or one fewer"
            ));
        };
        let mut rows = Vec::with_capacity(h as usize);
        for y in 0..h {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..w {
                match self.cells[(y * w + x) as usize] {
                    0 => empty += 1,
                    c => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(if c == 1 { own_char } else { their_char });
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let exact = if self.exact() { " exact=1" } else { "" };
        let spec = format!("mnk m={w} n={h} k={K}{exact}");
        Ok((spec, format!("{} {to_move}", rows.join("/"))))
    }

    /// Whether the game is Gomocup's rule 1, exactly five in a row.
    fn exact(&self) -> bool {
        self.rule & RULE_EXACT_FIVE != 0
    }

    /// The engine's game on the board of `START`, with the rule of `INFO rule`.
    fn settings(&self) -> Option<MnkSettings> {
        let (w, h) = self.size?;
        Some(MnkSettings {
            exact: self.exact(),
            ..MnkSettings::new(w as usize, h as usize, K)
        })
    }

    /// The engine's game and position for the board, or why the brain cannot move on it.
    fn playable(&self) -> Result<(String, String), String> {
        supported_rule(self.rule).map_err(|why| format!("rule {}: {why}", self.rule))?;
        let (spec, fen) = self.position()?;
        let settings = self.settings().expect("a board");
        let pos =
            Mnk::parse_position(&settings, &fen).map_err(|e| format!("the board: {}", e.reason))?;
        if let Some(outcome) = pos.outcome() {
            let words = match outcome {
                crate::game::Outcome::Draw => "the board is full",
                crate::game::Outcome::Win(side) if side == pos.side_to_move() => {
                    "the brain has five in a row"
                }
                crate::game::Outcome::Win(_) => "the opponent has five in a row",
            };
            return Err(format!("the game is over: {words}"));
        }
        Ok((spec, fen))
    }

    /// Starts the engine's search of the board, or says why there is no move.
    fn think(&mut self, kind: Thinking) {
        let (spec, fen) = match self.playable() {
            Ok(p) => p,
            Err(why) => return self.error(why),
        };
        if let Err(e) = self.engine.set_game(&spec, Some(&fen)) {
            return self.error(e.to_string());
        }
        let go = self.go_line();
        self.last_info = None;
        self.thinking = Some(kind);
        self.engine.handle_line(&go);
    }

    /// The `go` line from the manager's limits.
    fn go_line(&self) -> String {
        let turn = self.limits.turn_ms.unwrap_or(DEFAULT_TURN_MS);
        let mut go = String::from("go");
        if turn == 0 {
            // "As fast as possible": one ply, the static evaluation of each move.
            go.push_str(" depth 1");
            return go;
        }
        // Keep back a twentieth of the turn (20 ms to 300 ms) for the pipes and the
        // manager's own measure.
        let margin = (turn / 20).clamp(20, 300);
        go.push_str(&format!(" movetime {}", turn.saturating_sub(margin).max(1)));
        if let Some(left) = self.limits.time_left_ms.filter(|&t| t != UNLIMITED) {
            let left = left.max(1);
            go.push_str(&format!(" p1time {left} p2time {left}"));
        }
        if let Some(d) = self.limits.max_depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = self.limits.max_node {
            go.push_str(&format!(" nodes {n}"));
        }
        go
    }

    /// The square of an engine move (`h8`: column letter, row number from the bottom).
    fn point_of(&self, mv: &str) -> Option<Point> {
        let (w, h) = self.size?;
        let settings = self.settings()?;
        let cell = Mnk::start(&settings).parse_move(mv).ok()?.0 as u32;
        let (col, row) = (cell % w, cell / w);
        Some(Point {
            x: col,
            y: h - 1 - row,
        })
    }

    /// Handles a reply of the engine's search.
    pub fn engine_reply(&mut self, reply: EngineReply) -> Flow {
        match reply {
            EngineReply::Info(info) => {
                // The reports of finished iterations (a lone `info string` is no report).
                if info.depth.is_some() {
                    self.last_info = Some(info);
                }
                Flow::Continue
            }
            EngineReply::BestMove(mv) => {
                let Some(kind) = self.thinking.take() else {
                    return Flow::Continue;
                };
                self.answer(kind, mv);
                self.drain()
            }
            EngineReply::Error { message, .. } if self.thinking.is_some() => {
                self.thinking = None;
                self.error(message);
                self.drain()
            }
            _ => Flow::Continue,
        }
    }

    fn answer(&mut self, kind: Thinking, mv: Option<String>) {
        let point = mv.as_deref().and_then(|m| self.point_of(m));
        let Some(point) = point else {
            return self.error(format!(
                "the search found no move ({})",
                mv.unwrap_or_else(|| "none".into())
            ));
        };
        let info = self.last_info.take();
        if let Some(info) = &info {
            self.say(Reply::Message(self.summary(info, mv.as_deref())));
        }
        if kind == Thinking::SwapOrMove {
            let score = info.and_then(|i| i.score);
            let worse = match score {
                Some(Score::Cp(cp)) => cp < 0,
                Some(Score::Loss(_)) => true,
                _ => false,
            };
            if worse {
                self.say(Reply::Swap);
                return;
            }
        }
        if let Some(i) = self.index(point) {
            self.cells[i] = 1;
        }
        self.say(Reply::Move(point));
    }

    /// The search's last report, with the principal variation as x,y squares (left out
    /// when the move played came from an iteration that did not finish, so that the
    /// line shown never starts with another move).
    fn summary(&self, info: &Info, played: Option<&str>) -> String {
        let mut words = Vec::new();
        if let Some(d) = info.depth {
            words.push(format!("depth {d}"));
        }
        if let Some(s) = info.score {
            words.push(format!("score {s}"));
        }
        if let Some(n) = info.nodes {
            words.push(format!("nodes {n}"));
        }
        if let Some(t) = info.time {
            words.push(format!("time {t}"));
        }
        let pv: Vec<String> = info
            .pv
            .iter()
            .filter_map(|m| self.point_of(m).map(|p| p.to_string()))
            .collect();
        if !pv.is_empty() && info.pv.first().map(String::as_str) == played {
            words.push(format!("pv {}", pv.join(" ")));
        }
        words.join(" ")
    }

    /// Handles the lines that came while the brain was thinking, until it thinks again.
    fn drain(&mut self) -> Flow {
        while self.thinking.is_none() {
            let Some(line) = self.queued.pop_front() else {
                break;
            };
            if self.line(&line) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// The end of the manager's input: like `END`, but a move being thought about is
    /// answered first (a script that pipes `START`, `BEGIN` gets its move).
    pub fn end_of_input(&mut self) -> Flow {
        if self.thinking.is_some() {
            self.queued.push_back("END".into());
            return Flow::Continue;
        }
        Flow::Quit
    }

    /// Stops a running search.
    pub fn stop(&mut self) {
        self.engine.stop_search();
    }
}

/// Reads lines of `input` and engine replies until `END` or the end of input, writing the
/// brain's replies with `write` (each line ended by CR LF, as the manager ends its own).
pub fn run(input: impl BufRead + Send + 'static, write: impl Write + Send + 'static) {
    let (tx, rx) = mpsc::channel::<Event>();
    let writer = Mutex::new(write);
    let out: Out = Arc::new(move |reply: Reply| {
        let mut w = match writer.lock() {
            Ok(w) => w,
            Err(p) => p.into_inner(),
        };
        // A closed pipe means the manager is gone.
        if write!(w, "{reply}\r\n").and_then(|_| w.flush()).is_err() {
            std::process::exit(0);
        }
    });
    let engine_tx = Mutex::new(tx.clone());
    let sink: crate::engine::Sink = Arc::new(move |reply| {
        if let Ok(tx) = engine_tx.lock() {
            let _ = tx.send(Event::Engine(reply));
        }
    });
    let mut brain = Brain::new(out, sink);
    std::thread::spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            // Lines may end in CR LF, LF or CR; a very long line is cut, not kept.
            match read_line(&mut input, &mut buf) {
                Ok(true) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(Event::Line(line)).is_err() {
                        break;
                    }
                }
                _ => break,
            }
        }
        let _ = tx.send(Event::EndOfInput);
    });
    for event in rx {
        let flow = match event {
            Event::Line(line) => brain.line(&line),
            Event::Engine(reply) => brain.engine_reply(reply),
            Event::EndOfInput => brain.end_of_input(),
        };
        if flow == Flow::Quit {
            break;
        }
    }
    brain.stop();
}

/// The longest line kept, in bytes; the rest of a longer line is read and dropped.
const MAX_LINE: usize = 64 * 1024;

/// Reads one line ended by LF, CR or CR LF into `buf`; `false` at the end of input.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any);
        }
        any = true;
        match available.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                let room = MAX_LINE.saturating_sub(buf.len());
                buf.extend_from_slice(&available[..i.min(room)]);
                let cr = available[i] == b'\r';
                input.consume(i + 1);
                if cr {
                    // CR LF is one end of line.
                    if let Ok(next) = input.fill_buf() {
                        if next.first() == Some(&b'\n') {
                            input.consume(1);
                        }
                    }
                }
                return Ok(true);
            }
            None => {
                let n = available.len();
                let room = MAX_LINE.saturating_sub(buf.len());
                buf.extend_from_slice(&available[..n.min(room)]);
                input.consume(n);
            }
        }
    }
}

/// Whether a program named `argv0` is a Gomocup brain by its name (`pbrain-...`).
pub fn named_as_brain(argv0: &str) -> bool {
    std::path::Path::new(argv0)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.to_ascii_lowercase().starts_with("pbrain-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brain_is_known_by_its_name() {
        assert!(named_as_brain("/opt/gomocup/pbrain-agon"));
        assert!(named_as_brain("PBRAIN-agon64.exe"));
        assert!(!named_as_brain("/usr/bin/agon"));
        assert!(!named_as_brain("/pbrain-dir/agon"));
    }

    #[test]
    fn lines_end_in_lf_cr_or_crlf() {
        let mut input = std::io::Cursor::new(b"START 15\r\nBEGIN\rTURN 1,2\nEND".to_vec());
        let mut lines = Vec::new();
        let mut buf = Vec::new();
        while read_line(&mut input, &mut buf).unwrap() {
            lines.push(String::from_utf8(buf.clone()).unwrap());
            buf.clear();
        }
        assert_eq!(lines, ["START 15", "BEGIN", "TURN 1,2", "END"]);
    }
}
