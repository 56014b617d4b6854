//! TEMPORARY stand-in for `agon::protocol` (the engine-core work lands it on main):
//! the same type names and shapes as the brief's API, reduced to what the arena uses.
//! Once `agon::protocol` exists this file is deleted and `crate::wire` imports become
//! `agon::protocol` imports.

use std::fmt;
use std::str::FromStr;

pub use agon::search::Score;

/// Protocol dialect, chosen by the first word the controller sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `ugi` / `ugiok` / `uginewgame`.
    Ugi,
    /// `uci` / `uciok` / `ucinewgame`.
    Uci,
    /// `tei` / `teiok` / `teinewgame`.
    Tei,
}

impl Dialect {
    /// The hello word.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Ugi => "ugi",
            Dialect::Uci => "uci",
            Dialect::Tei => "tei",
        }
    }
}

/// The position of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionSpec {
    /// The game's start.
    StartPos,
    /// A position string of the game.
    Fen(String),
}

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// First player's clock (ms).
    pub p1time: Option<u64>,
    /// Second player's clock (ms).
    pub p2time: Option<u64>,
    /// First player's increment (ms).
    pub p1inc: Option<u64>,
    /// Second player's increment (ms).
    pub p2inc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move (ms).
    pub movetime: Option<u64>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
}

/// What `query` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    /// `query gameover`.
    GameOver,
    /// `query p1turn`.
    P1Turn,
    /// `query result`.
    Result,
    /// `query position`.
    Position,
    /// `query game`.
    Game,
}

/// Controller -> engine (the subset the arena sends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` | `uci` | `tei`.
    Hello(Dialect),
    /// `isready`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// Option name.
        name: String,
        /// Option value.
        value: Option<String>,
    },
    /// `uginewgame` and friends.
    NewGame {
        /// Which word.
        dialect: Dialect,
        /// TEI board size.
        size: Option<u32>,
    },
    /// `position ...`.
    Position {
        /// Start or position string.
        position: PositionSpec,
        /// Moves from there.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `query ...`.
    Query(QueryKind),
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hello(d) => f.write_str(d.name()),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                if let Some(v) = value {
                    write!(f, " value {v}")?;
                }
                Ok(())
            }
            Command::NewGame { dialect, size } => {
                write!(f, "{}newgame", dialect.name())?;
                if let Some(s) = size {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            Command::Position { position, moves } => {
                match position {
                    PositionSpec::StartPos => f.write_str("position startpos")?,
                    PositionSpec::Fen(text) => write!(f, "position fen {text}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(go) => {
                f.write_str("go")?;
                let pairs = [
                    ("p1time", go.p1time),
                    ("p2time", go.p2time),
                    ("p1inc", go.p1inc),
                    ("p2inc", go.p2inc),
                    ("movestogo", go.movestogo.map(u64::from)),
                    ("movetime", go.movetime),
                    ("depth", go.depth.map(u64::from)),
                    ("nodes", go.nodes),
                ];
                for (key, value) in pairs {
                    if let Some(v) = value {
                        write!(f, " {key} {v}")?;
                    }
                }
                if go.infinite {
                    f.write_str(" infinite")?;
                }
                Ok(())
            }
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::Query(kind) => {
                let word = match kind {
                    QueryKind::GameOver => "gameover",
                    QueryKind::P1Turn => "p1turn",
                    QueryKind::Result => "result",
                    QueryKind::Position => "position",
                    QueryKind::Game => "game",
                };
                write!(f, "query {word}")
            }
        }
    }
}

/// An `info` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Depth.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Score.
    pub score: Option<Score>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time (ms).
    pub time: Option<u64>,
    /// Hash fill, permill.
    pub hashfull: Option<u32>,
    /// Principal variation.
    pub pv: Vec<String>,
    /// `info string` text.
    pub string: Option<String>,
}

/// Engine -> controller (the subset the arena reads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name|author ...`.
    Id {
        /// `name` or `author`.
        field: String,
        /// The text.
        value: String,
    },
    /// `option ...` (kept as text here).
    Option(String),
    /// `ugiok` | `uciok` | `teiok`.
    HelloOk(Dialect),
    /// `readyok`.
    ReadyOk,
    /// `info ...`.
    Info(Info),
    /// `bestmove <m>` or `bestmove none`.
    BestMove(Option<String>),
    /// `response <text>`.
    Response(String),
    /// `error <code> <message>`.
    Error {
        /// The code word.
        code: String,
        /// The message.
        message: String,
    },
}

/// A line that is no reply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Empty line.
    #[error("empty line")]
    Empty,
    /// Unknown first word.
    #[error("unknown reply '{word}'")]
    UnknownCommand {
        /// The word.
        word: String,
    },
    /// Bad arguments.
    #[error("{command}: {message}")]
    Syntax {
        /// The reply word.
        command: String,
        /// What is wrong.
        message: String,
    },
}

fn rest_after<'a>(line: &'a str, word: &str) -> &'a str {
    let trimmed = line.trim_start();
    trimmed[word.len()..].trim()
}

fn parse_info(tokens: &[&str]) -> Result<Info, ParseError> {
    let mut info = Info::default();
    let bad = |key: &str| ParseError::Syntax {
        command: "info".into(),
        message: format!("bad value for {key}"),
    };
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let value = tokens.get(i + 1).copied();
        match key {
            "depth" => info.depth = Some(value.and_then(|v| v.parse().ok()).ok_or(bad(key))?),
            "seldepth" => info.seldepth = Some(value.and_then(|v| v.parse().ok()).ok_or(bad(key))?),
            "nodes" => info.nodes = Some(value.and_then(|v| v.parse().ok()).ok_or(bad(key))?),
            "nps" => info.nps = Some(value.and_then(|v| v.parse().ok()).ok_or(bad(key))?),
            "time" => info.time = Some(value.and_then(|v| v.parse().ok()).ok_or(bad(key))?),
            "hashfull" => info.hashfull = Some(value.and_then(|v| v.parse().ok()).ok_or(bad(key))?),
            "score" => {
                let kind = value.ok_or(bad(key))?;
                let n: i64 = tokens
                    .get(i + 2)
                    .and_then(|v| v.parse().ok())
                    .ok_or(bad(key))?;
                info.score = Some(match kind {
                    "cp" => Score::Cp(n as i32),
                    "win" => Score::Win(n.unsigned_abs() as u32),
                    "loss" => Score::Loss(n.unsigned_abs() as u32),
                    "mate" if n > 0 => Score::Win((2 * n - 1) as u32),
                    "mate" => Score::Loss((2 * n.unsigned_abs()) as u32),
                    _ => return Err(bad(key)),
                });
                i += 3;
                // `lowerbound` / `upperbound` flags.
                while matches!(tokens.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
                continue;
            }
            "pv" => {
                info.pv = tokens[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "string" => {
                info.string = Some(tokens[i + 1..].join(" "));
                break;
            }
            "wdl" => {
                i += 4;
                continue;
            }
            _ => {}
        }
        i += 2;
    }
    Ok(info)
}

impl FromStr for Reply {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Reply, ParseError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&word) = tokens.first() else {
            return Err(ParseError::Empty);
        };
        let syntax = |message: &str| ParseError::Syntax {
            command: word.to_string(),
            message: message.to_string(),
        };
        Ok(match word {
            "id" => Reply::Id {
                field: tokens.get(1).ok_or(syntax("missing field"))?.to_string(),
                value: tokens[2..].join(" "),
            },
            "option" => Reply::Option(rest_after(line, word).to_string()),
            "ugiok" => Reply::HelloOk(Dialect::Ugi),
            "uciok" => Reply::HelloOk(Dialect::Uci),
            "teiok" => Reply::HelloOk(Dialect::Tei),
            "readyok" => Reply::ReadyOk,
            "info" => Reply::Info(parse_info(&tokens[1..])?),
            "bestmove" => match tokens.get(1) {
                None => return Err(syntax("missing move")),
                Some(&("none" | "(none)" | "0000")) => Reply::BestMove(None),
                Some(m) => Reply::BestMove(Some(m.to_string())),
            },
            "response" => Reply::Response(rest_after(line, word).to_string()),
            "error" => Reply::Error {
                code: tokens.get(1).unwrap_or(&"").to_string(),
                message: tokens.get(2..).map(|t| t.join(" ")).unwrap_or_default(),
            },
            _ => {
                return Err(ParseError::UnknownCommand {
                    word: word.to_string(),
                })
            }
        })
    }
}
