//! The Agon text protocol: typed [`Command`]s (controller → engine) and [`Reply`]s
//! (engine → controller), their serializer ([`fmt::Display`]) and their parsers
//! ([`std::str::FromStr`]). The full specification for people outside the repository is
//! `protocol.md` at the repository root.
//!
//! ```
//! use agon::protocol::{Command, Reply};
//!
//! let cmd: Command = "position startpos moves b2\r\n".parse().unwrap();
//! assert_eq!(cmd.to_string(), "position startpos moves b2");
//!
//! let err = "go movetime abc".parse::<Command>().unwrap_err();
//! assert_eq!(err.to_string(), "go: 'abc' is not a number for movetime");
//!
//! let cmd: Command = "go wtime 1000 btime 900 movestogo 10".parse().unwrap();
//! assert_eq!(cmd.to_string(), "go p1time 1000 p2time 900 movestogo 10");
//!
//! let reply: Reply = "bestmove (none)".parse().unwrap();
//! assert_eq!(reply, Reply::BestMove(None));
//! assert_eq!(reply.to_string(), "bestmove none");
//! ```
//!
//! # Guarantees
//!
//! - **One line.** `Display` writes exactly one line with no line terminator; line breaks
//!   inside string fields are written as spaces, so a value can never break the framing.
//! - **Round trip.** For every well-formed value `x`, `x.to_string().parse() == Ok(x)`.
//!   Well-formed means: tokens (moves, positions' words, option names, ids) are non-empty
//!   and contain no space or tab, are not a keyword of the line they appear in (`moves`
//!   in a move list, `value` in an option name, `string` in a `pv`, `none` as a best
//!   move...), and free text (messages, `info string`, `response`) has no leading or
//!   trailing whitespace. `board` text keeps its leading spaces. Property tests check this.
//! - **Parsing never panics.** Any `&str` gives `Ok` or a [`ParseError`] that names the
//!   command and the offending or missing argument.
//! - **Strict commands, lenient replies.** [`Command`] parsing is strict (our engine answers
//!   every mistake with an `error` line). [`Reply`] parsing is lenient, because the arena
//!   reads other engines: unknown `info` keys are skipped, `score mate`, `wdl`, `multipv`,
//!   `currmove`, `tbhits` are understood, `bestmove (none)`/`0000` mean no move.
//! - **Framing.** Tokens are separated by any run of spaces and tabs (a `\r` or `\n` inside
//!   a line handed over whole counts as a space too); surrounding whitespace and the line
//!   terminator are ignored; a line longer than [`MAX_LINE`] bytes is refused with
//!   [`ParseError::TooLong`]. Keywords are case-sensitive lowercase, as in UCI.
//! - **Game-neutral.** Moves and positions stay text here; the engine session checks them
//!   against the current game.
//!
//! Protocol version: this module implements version 1 of the protocol described in
//! `protocol.md` (UCI-shaped, UGI-compatible, TEI handshake words accepted).

pub mod examples;
pub mod gomocup;
mod parse;
#[cfg(test)]
mod proptests;

use std::fmt;

use thiserror::Error;

pub use crate::score::Score;

/// The longest line accepted, in bytes, not counting the line terminator.
pub const MAX_LINE: usize = 65536;

/// The handshake word the controller used; replies and new-game words follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `ugi` (Universal Game Interface), the native dialect.
    Ugi,
    /// `uci` (Universal Chess Interface).
    Uci,
    /// `tei` (Tak Engine Interface).
    Tei,
}

impl Dialect {
    /// All dialects.
    pub const ALL: [Dialect; 3] = [Dialect::Ugi, Dialect::Uci, Dialect::Tei];

    /// The handshake word: `ugi`, `uci` or `tei`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Ugi => "ugi",
            Dialect::Uci => "uci",
            Dialect::Tei => "tei",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The position of a `position` command, before its moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PositionSpec {
    /// `startpos`: the current game's standard start.
    StartPos,
    /// `fen <tokens>` (or `tps <tokens>`): the tokens up to `moves`, joined by single spaces.
    Fen(String),
}

/// The limits of a `go` command. All times are milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Go {
    /// Time left on the first player's clock (`p1time`, alias `wtime`).
    pub p1time: Option<u64>,
    /// Time left on the second player's clock (`p2time`, alias `btime`).
    pub p2time: Option<u64>,
    /// The first player's increment per move (`p1inc`, alias `winc`).
    pub p1inc: Option<u64>,
    /// The second player's increment per move (`p2inc`, alias `binc`).
    pub p2inc: Option<u64>,
    /// Moves until the next time control (`movestogo`).
    pub movestogo: Option<u32>,
    /// Search exactly this long (`movetime`).
    pub movetime: Option<u64>,
    /// Search this many plies deep (`depth`).
    pub depth: Option<u32>,
    /// Search about this many nodes (`nodes`).
    pub nodes: Option<u64>,
    /// Search until `stop` (`infinite`).
    pub infinite: bool,
}

/// What a `query` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryKind {
    /// `gameover`: `response true|false`.
    GameOver,
    /// `p1turn`: `response true|false`.
    P1Turn,
    /// `result`: `response p1win|p2win|draw|none`.
    Result,
    /// `position`: `response <position string>`.
    Position,
    /// `game`: `response <canonical game spec>`.
    Game,
}

impl QueryKind {
    /// All kinds, in the order the protocol lists them.
    pub const ALL: [QueryKind; 5] = [
        QueryKind::GameOver,
        QueryKind::P1Turn,
        QueryKind::Result,
        QueryKind::Position,
        QueryKind::Game,
    ];

    /// The protocol word.
    pub fn name(self) -> &'static str {
        match self {
            QueryKind::GameOver => "gameover",
            QueryKind::P1Turn => "p1turn",
            QueryKind::Result => "result",
            QueryKind::Position => "position",
            QueryKind::Game => "game",
        }
    }

    /// The kind called `word` (exact, lowercase).
    pub fn from_name(word: &str) -> Option<QueryKind> {
        QueryKind::ALL.into_iter().find(|k| k.name() == word)
    }
}

impl fmt::Display for QueryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `solve` method as the protocol names it (the engine maps it to its solver).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolveMethod {
    /// `auto`: the game's own solver where it has one, else `search`.
    Auto,
    /// `search`: the default searcher deepened to a proof.
    Search,
    /// `regions`: Clobber's sum of regions.
    Regions,
    /// `threats`: the m,n,k threat search.
    Threats,
}

impl SolveMethod {
    /// Every method, in the order messages list them.
    pub const ALL: [SolveMethod; 4] = [
        SolveMethod::Auto,
        SolveMethod::Search,
        SolveMethod::Regions,
        SolveMethod::Threats,
    ];

    /// The method's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            SolveMethod::Auto => "auto",
            SolveMethod::Search => "search",
            SolveMethod::Regions => "regions",
            SolveMethod::Threats => "threats",
        }
    }

    /// The method called `name`.
    pub fn from_name(name: &str) -> Option<SolveMethod> {
        SolveMethod::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Every name, for messages: `auto, search, regions, threats`.
    pub fn names() -> String {
        SolveMethod::ALL.map(SolveMethod::name).join(", ")
    }
}

/// A line from the controller (GUI, arena, student script) to the engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `ugi` | `uci` | `tei`: the handshake.
    Hello(Dialect),
    /// `isready`: answered `readyok`, also during a search.
    IsReady,
    /// `setoption name <name> [value <value>]`; the name is every token between `name`
    /// and `value` joined by single spaces, the value the rest of the line as written.
    SetOption {
        /// The option name as written (the engine matches it case-insensitively).
        name: String,
        /// The value; `Some("")` for `value` followed by nothing.
        value: Option<String>,
    },
    /// `uginewgame` | `ucinewgame` | `teinewgame [<size>]`.
    NewGame {
        /// Which word was used.
        dialect: Dialect,
        /// The optional board size (TEI sends it).
        size: Option<u32>,
    },
    /// `position startpos|fen <...>|tps <...> [moves <m1> ...]`.
    Position {
        /// The position before the moves.
        position: PositionSpec,
        /// The moves to play from it, as written.
        moves: Vec<String>,
    },
    /// `go ...`: search and answer `bestmove`.
    Go(Go),
    /// `stop`: end the search now (ignored when idle).
    Stop,
    /// `quit`: exit.
    Quit,
    /// `debug on|off`.
    Debug(bool),
    /// `ponderhit` (parsed; the engine does not ponder).
    PonderHit,
    /// `query <kind>`: answered `response ...`.
    Query(QueryKind),
    /// `perft <depth> [divide]`, also written `go perft <depth>`.
    Perft {
        /// Plies to count.
        depth: u32,
        /// Whether to print one `divide` line per root move first.
        divide: bool,
    },
    /// `moves`: list the legal moves.
    Moves,
    /// `show`: print the board.
    Show,
    /// `games`: list the games the engine knows.
    Games,
    /// `eval`: static evaluation of the current position.
    Eval,
    /// `solve [method <m>] [distance] [movetime <ms>]`: prove the value of the current
    /// position.
    Solve {
        /// How to prove (`auto` when absent).
        method: Option<SolveMethod>,
        /// Also prove the distance where the method does not give it by itself (`regions`).
        distance: bool,
        /// Give up after this many milliseconds (`solution unknown`).
        movetime: Option<u64>,
    },
}

/// The type and bounds of an option the engine advertises.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OptionType {
    /// `type check default true|false`.
    Check {
        /// Default value.
        default: bool,
    },
    /// `type spin default <n> min <n> max <n>`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `type combo default <v> var <v1> var <v2> ...`.
    Combo {
        /// Default value (one of `vars`).
        default: String,
        /// The allowed values.
        vars: Vec<String>,
    },
    /// `type string default <text>` (`<empty>` for the empty string).
    String {
        /// Default value.
        default: String,
    },
    /// `type button`.
    Button,
}

/// An `option` line of the handshake.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OptionDecl {
    /// The option name (may contain single spaces).
    pub name: String,
    /// Type, default and bounds.
    pub kind: OptionType,
}

/// An `info` line: search progress, or `info string <free text>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Selective depth in plies.
    pub seldepth: Option<u32>,
    /// Score from the side to move's point of view.
    pub score: Option<Score>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Milliseconds since the search started.
    pub time: Option<u64>,
    /// Hash table fill in permill.
    pub hashfull: Option<u32>,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Free text (`string`, always last on the line).
    pub string: Option<String>,
    /// Write `win`/`loss` scores as UCI's `mate <moves>` (negative when losing), as TEI
    /// controllers expect. Not read back: a parsed `mate` score becomes `win`/`loss`.
    pub mate_scores: bool,
}

/// The machine-readable code of an `error` reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// `unknown-command`: the first word is no command.
    UnknownCommand,
    /// `syntax`: a known command with a bad, missing or extra argument; or a line too long.
    Syntax,
    /// `unknown-option`: `setoption` with a name the engine does not have.
    UnknownOption,
    /// `bad-value`: an option value of the wrong type or out of range.
    BadValue,
    /// `unknown-game`: a game spec naming no known game or parameter.
    UnknownGame,
    /// `bad-position`: a position string the game cannot read.
    BadPosition,
    /// `illegal-move`: a move in `position ... moves` that is no move or not legal.
    IllegalMove,
    /// `no-position`: a command needs a position and there is none.
    NoPosition,
    /// `busy`: `position`, `go`, `setoption`... sent during a search.
    Busy,
    /// `game-over`: the command needs a game in progress.
    GameOver,
    /// `unsupported`: a known command or feature the engine does not implement.
    Unsupported,
}

impl ErrorCode {
    /// All codes, in the order the protocol lists them.
    pub const ALL: [ErrorCode; 11] = [
        ErrorCode::UnknownCommand,
        ErrorCode::Syntax,
        ErrorCode::UnknownOption,
        ErrorCode::BadValue,
        ErrorCode::UnknownGame,
        ErrorCode::BadPosition,
        ErrorCode::IllegalMove,
        ErrorCode::NoPosition,
        ErrorCode::Busy,
        ErrorCode::GameOver,
        ErrorCode::Unsupported,
    ];

    /// The kebab-case protocol word.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown-command",
            ErrorCode::Syntax => "syntax",
            ErrorCode::UnknownOption => "unknown-option",
            ErrorCode::BadValue => "bad-value",
            ErrorCode::UnknownGame => "unknown-game",
            ErrorCode::BadPosition => "bad-position",
            ErrorCode::IllegalMove => "illegal-move",
            ErrorCode::NoPosition => "no-position",
            ErrorCode::Busy => "busy",
            ErrorCode::GameOver => "game-over",
            ErrorCode::Unsupported => "unsupported",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ErrorCode {
    type Err = ParseError;

    /// Reads a kebab-case code (exact, lowercase).
    ///
    /// # Errors
    /// [`ParseError::Syntax`] (command `error`) listing the known codes.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| ParseError::Syntax {
                command: "error".to_string(),
                message: format!(
                    "unknown code '{s}' (codes: {})",
                    ErrorCode::ALL.map(ErrorCode::as_str).join(", ")
                ),
            })
    }
}

/// A line from the engine to the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id <field> <value>`, e.g. `id name Agon 0.1.0`, `id author ...`.
    Id {
        /// `name` or `author` (others are read too).
        field: String,
        /// The rest of the line.
        value: String,
    },
    /// `option name <name> type <type> ...`.
    Option(OptionDecl),
    /// `ugiok` | `uciok` | `teiok`: end of the handshake.
    HelloOk(Dialect),
    /// `readyok`.
    ReadyOk,
    /// `info ...`.
    Info(Info),
    /// `bestmove <move>` or `bestmove none` (`None`).
    BestMove(Option<String>),
    /// `response <text>`: the answer to a `query`.
    Response(String),
    /// `error <code> <message>`.
    Error {
        /// What kind of mistake.
        code: ErrorCode,
        /// For humans: names the command and what was wrong.
        message: String,
    },
    /// `divide <move> <count>`: one root move of `perft ... divide`.
    Divide {
        /// The root move.
        mv: String,
        /// Leaves below it.
        nodes: u64,
    },
    /// `perft depth <d> [stopped] nodes <n> time <ms> nps <n>`.
    Perft {
        /// Depth counted.
        depth: u32,
        /// Leaves at that depth (counted before the stop when `stopped`).
        nodes: u64,
        /// Milliseconds taken.
        time_ms: u64,
        /// Leaves per second.
        nps: u64,
        /// The count was stopped (`stop`, `quit`, end of input) before it was complete.
        stopped: bool,
    },
    /// `moves <m1> <m2> ...`: the legal moves (just `moves` when there are none).
    Moves(Vec<String>),
    /// `board <text>`: one line of the text board (leading spaces kept).
    Board(String),
    /// `showok`: end of the board.
    ShowOk,
    /// `game <name> heuristics ... params ...`: one line of `games` (the text after `game`).
    Game(String),
    /// `gamesok`: end of the game list.
    GamesOk,
    /// `solution <win|loss|draw|unknown> [plies <n>] [move <m>] method <m> nodes <n> time <ms>`:
    /// the answer to `solve`, from the side to move's view.
    Solution {
        /// `win`, `loss`, `draw` or `unknown` (not proved in time).
        result: String,
        /// Distance in plies, when the method gives it.
        plies: Option<u32>,
        /// A best move (a winning one after `win`).
        mv: Option<String>,
        /// `search` or `regions`.
        method: String,
        /// Nodes visited.
        nodes: u64,
        /// Milliseconds taken.
        time_ms: u64,
    },
    /// `eval cp <n> heuristic <name>`.
    Eval {
        /// Static evaluation, side to move's view, in centi-units.
        cp: i32,
        /// The heuristic used.
        heuristic: String,
    },
}

/// Why a line is not a valid [`Command`] or [`Reply`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The line is empty or only whitespace (engines ignore such lines).
    #[error("empty line")]
    Empty,
    /// The line is longer than [`MAX_LINE`] bytes.
    #[error("line too long ({len} bytes, the limit is {MAX_LINE})")]
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// The first word is no command (for [`Reply`]: no reply keyword).
    #[error("unknown command '{word}'")]
    UnknownCommand {
        /// The first word of the line.
        word: String,
    },
    /// A known command (or reply) with a bad, missing or extra argument.
    #[error("{command}: {message}")]
    Syntax {
        /// The command keyword.
        command: String,
        /// What was wrong; names the offending or missing argument.
        message: String,
    },
}

impl ParseError {
    /// The `error` code an engine answers with: `unknown-command` or `syntax`.
    pub fn code(&self) -> ErrorCode {
        match self {
            ParseError::UnknownCommand { .. } => ErrorCode::UnknownCommand,
            _ => ErrorCode::Syntax,
        }
    }

    /// The `error` reply an engine sends for this mistake.
    pub fn to_reply(&self) -> Reply {
        Reply::Error {
            code: self.code(),
            message: self.to_string(),
        }
    }
}

impl std::str::FromStr for Command {
    type Err = ParseError;

    /// Strict parsing of one controller line (the engine side).
    ///
    /// # Errors
    /// A [`ParseError`]: [`ParseError::Empty`] for a blank line, [`ParseError::TooLong`],
    /// [`ParseError::UnknownCommand`] when the first word is no command, otherwise
    /// [`ParseError::Syntax`] naming the command and the bad, missing or extra argument.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse::command(s)
    }
}

impl std::str::FromStr for Reply {
    type Err = ParseError;

    /// Lenient parsing of one engine line (the arena side): see the module docs.
    ///
    /// # Errors
    /// A [`ParseError`] when the line is blank, too long, starts with no reply keyword
    /// ([`ParseError::UnknownCommand`]) or misses a required argument.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse::reply(s)
    }
}

/// Writes text with line breaks turned into spaces, so that output stays one line.
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.0.contains(['\n', '\r']) {
            return f.write_str(self.0);
        }
        for c in self.0.chars() {
            let c = if c == '\n' || c == '\r' { ' ' } else { c };
            fmt::Write::write_char(f, c)?;
        }
        Ok(())
    }
}

/// Writes ` word` for every word.
fn write_words(f: &mut fmt::Formatter<'_>, words: &[String]) -> fmt::Result {
    for word in words {
        write!(f, " {}", OneLine(word))?;
    }
    Ok(())
}

/// Writes ` text` unless the text is empty.
fn write_text(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    if text.is_empty() {
        Ok(())
    } else {
        write!(f, " {}", OneLine(text))
    }
}

impl fmt::Display for Go {
    /// The whole `go` line, limits in a fixed order with the `p1`/`p2` names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let numbers = [
            ("p1time", self.p1time),
            ("p2time", self.p2time),
            ("p1inc", self.p1inc),
            ("p2inc", self.p2inc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("movetime", self.movetime),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
        ];
        for (key, value) in numbers {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hello(dialect) => write!(f, "{dialect}"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {}", OneLine(name))?;
                if let Some(value) = value {
                    f.write_str(" value")?;
                    write_text(f, value)?;
                }
                Ok(())
            }
            Command::NewGame { dialect, size } => {
                write!(f, "{dialect}newgame")?;
                if let Some(size) = size {
                    write!(f, " {size}")?;
                }
                Ok(())
            }
            Command::Position { position, moves } => {
                match position {
                    PositionSpec::StartPos => f.write_str("position startpos")?,
                    PositionSpec::Fen(fen) => write!(f, "position fen {}", OneLine(fen))?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    write_words(f, moves)?;
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Query(kind) => write!(f, "query {kind}"),
            Command::Perft { depth, divide } => {
                write!(f, "perft {depth}")?;
                if *divide {
                    f.write_str(" divide")?;
                }
                Ok(())
            }
            Command::Moves => f.write_str("moves"),
            Command::Show => f.write_str("show"),
            Command::Games => f.write_str("games"),
            Command::Eval => f.write_str("eval"),
            Command::Solve {
                method,
                distance,
                movetime,
            } => {
                f.write_str("solve")?;
                if let Some(method) = method {
                    write!(f, " method {}", method.name())?;
                }
                if *distance {
                    f.write_str(" distance")?;
                }
                if let Some(ms) = movetime {
                    write!(f, " movetime {ms}")?;
                }
                Ok(())
            }
        }
    }
}

/// An option string value: `<empty>` for the empty string (UCI).
struct OptionText<'a>(&'a str);

impl fmt::Display for OptionText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("<empty>")
        } else {
            write!(f, "{}", OneLine(self.0))
        }
    }
}

impl fmt::Display for OptionDecl {
    /// The whole `option name <name> type ...` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", OneLine(&self.name))?;
        match &self.kind {
            OptionType::Check { default } => write!(f, "check default {default}"),
            OptionType::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionType::Combo { default, vars } => {
                write!(f, "combo default {}", OptionText(default))?;
                for var in vars {
                    write!(f, " var {}", OptionText(var))?;
                }
                Ok(())
            }
            OptionType::String { default } => {
                write!(f, "string default {}", OptionText(default))
            }
            OptionType::Button => f.write_str("button"),
        }
    }
}

impl fmt::Display for Info {
    /// The whole `info ...` line; `pv` and then `string` come last.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(depth) = self.depth {
            write!(f, " depth {depth}")?;
        }
        if let Some(seldepth) = self.seldepth {
            write!(f, " seldepth {seldepth}")?;
        }
        match self.score {
            Some(Score::Win(plies)) if self.mate_scores => {
                write!(f, " score mate {}", plies.div_ceil(2))?
            }
            Some(Score::Loss(plies)) if self.mate_scores => {
                write!(f, " score mate -{}", plies.div_ceil(2))?
            }
            Some(score) => write!(f, " score {score}")?,
            None => {}
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("time", self.time),
            ("hashfull", self.hashfull.map(u64::from)),
        ];
        for (key, value) in numbers {
            if let Some(value) = value {
                write!(f, " {key} {value}")?;
            }
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            write_words(f, &self.pv)?;
        }
        if let Some(string) = &self.string {
            f.write_str(" string")?;
            write_text(f, string)?;
        }
        Ok(())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { field, value } => {
                write!(f, "id {}", OneLine(field))?;
                write_text(f, value)
            }
            Reply::Option(decl) => write!(f, "{decl}"),
            Reply::HelloOk(dialect) => write!(f, "{dialect}ok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(info) => write!(f, "{info}"),
            Reply::BestMove(Some(mv)) => write!(f, "bestmove {}", OneLine(mv)),
            Reply::BestMove(None) => f.write_str("bestmove none"),
            Reply::Response(text) => {
                f.write_str("response")?;
                write_text(f, text)
            }
            Reply::Error { code, message } => {
                write!(f, "error {code}")?;
                write_text(f, message)
            }
            Reply::Divide { mv, nodes } => write!(f, "divide {} {nodes}", OneLine(mv)),
            Reply::Perft {
                depth,
                nodes,
                time_ms,
                nps,
                stopped,
            } => {
                // `stopped` comes before the counts, so that a reader that does not know
                // it (and skips a key with its value) fails on the missing `nodes` rather
                // than taking a partial count for a complete one.
                write!(f, "perft depth {depth}")?;
                if *stopped {
                    f.write_str(" stopped")?;
                }
                write!(f, " nodes {nodes} time {time_ms} nps {nps}")
            }
            Reply::Moves(moves) => {
                f.write_str("moves")?;
                write_words(f, moves)
            }
            Reply::Board(text) => {
                f.write_str("board")?;
                write_text(f, text)
            }
            Reply::ShowOk => f.write_str("showok"),
            Reply::Game(text) => {
                f.write_str("game")?;
                write_text(f, text)
            }
            Reply::GamesOk => f.write_str("gamesok"),
            Reply::Solution {
                result,
                plies,
                mv,
                method,
                nodes,
                time_ms,
            } => {
                write!(f, "solution {}", OneLine(result))?;
                if let Some(p) = plies {
                    write!(f, " plies {p}")?;
                }
                if let Some(m) = mv {
                    write!(f, " move {}", OneLine(m))?;
                }
                write!(
                    f,
                    " method {} nodes {nodes} time {time_ms}",
                    OneLine(method)
                )
            }
            Reply::Eval { cp, heuristic } => {
                write!(f, "eval cp {cp}")?;
                if !heuristic.is_empty() {
                    write!(f, " heuristic {}", OneLine(heuristic))?;
                }
                Ok(())
            }
        }
    }
}
