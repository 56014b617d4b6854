//! The engine's options as one table, as Stockfish's `OptionsMap` keeps them: each entry
//! is a name, a kind with its range or values, a default, what it does and how it is
//! applied. The handshake's `option` lines, `setoption`'s parsing and its error messages
//! all come from [`TABLE`]; protocol.md's section 6 is checked against it by a test.

use crate::protocol::{ErrorCode, OptionDecl, OptionType};
use crate::search::SearcherKind;

use super::{error, EngineError};

/// Engine options (the `setoption` values a search uses).
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

/// A named difficulty: a fixed search depth per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Depth 1: sees only its own move (misses the opponent's threats).
    Easy,
    /// Depth 2: sees the opponent's reply (blocks immediate threats).
    Medium,
    /// Depth 4.
    Hard,
    /// Depth 6.
    Expert,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The search depth in plies (the difficulty ladder of the Tak course project,
    /// seeds/002: depths 2..5 there; here 1, 2, 4, 6 since PVS searches deeper in the
    /// same time).
    pub fn depth(self) -> u32 {
        match self {
            Level::Easy => 1,
            Level::Medium => 2,
            Level::Hard => 4,
            Level::Expert => 6,
        }
    }

    /// Parses a name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// An option's kind, with its range or its values.
pub(super) enum Kind {
    /// `true` or `false`.
    Check,
    /// An integer in `min..=max`.
    Spin { min: i64, max: i64 },
    /// One of the values (matched without regard to case).
    Combo(fn() -> Vec<String>),
    /// Free text (`<empty>` is the empty string).
    Text,
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Value {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl Value {
    pub(super) fn int(&self) -> i64 {
        match self {
            Value::Int(v) => *v,
            Value::Bool(b) => i64::from(*b),
            Value::Text(_) => 0,
        }
    }

    pub(super) fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }
}

/// What setting an option does.
pub(super) enum Effect {
    /// Changes the search options (the session is reconfigured with them).
    Search(fn(&mut EngineOptions, &Value)),
    /// `Game`: switches the game.
    Game,
    /// `HalfKomi`: the komi of Tak games from `teinewgame` (and the one in progress).
    HalfKomi,
    /// `LearnFile`: opens (or closes) the learning store.
    LearnFile,
}

/// One option.
pub(super) struct EngineOption {
    /// The name, as declared.
    pub name: &'static str,
    /// Kind and range.
    pub kind: Kind,
    /// The default.
    pub default: fn() -> Value,
    /// What it does, in a few words (protocol.md says it at length).
    pub doc: &'static str,
    /// How it is applied.
    pub effect: Effect,
}

fn level_names() -> Vec<String> {
    Level::ALL
        .iter()
        .map(|l| l.name().to_string())
        .chain(["custom".to_string()])
        .collect()
}

fn searcher_names() -> Vec<String> {
    SearcherKind::ALL
        .iter()
        .map(|k| k.name().to_string())
        .collect()
}

fn defaults() -> EngineOptions {
    EngineOptions::default()
}

/// Every option, in handshake order.
pub(super) const TABLE: [EngineOption; 13] = [
    EngineOption {
        name: "Game",
        kind: Kind::Text,
        default: || Value::Text("tictactoe".into()),
        doc: "the game, as a game spec; resets the position",
        effect: Effect::Game,
    },
    EngineOption {
        name: "Searcher",
        kind: Kind::Combo(searcher_names),
        default: || Value::Text(defaults().searcher.name().into()),
        doc: "the search algorithm",
        effect: Effect::Search(|o, v| {
            o.searcher = SearcherKind::from_name(v.text()).unwrap_or(o.searcher);
        }),
    },
    EngineOption {
        name: "Heuristic",
        kind: Kind::Text,
        default: || Value::Text(defaults().heuristic),
        doc: "the evaluation: one of the game's heuristics, or default",
        effect: Effect::Search(|o, v| o.heuristic = v.text().to_string()),
    },
    EngineOption {
        name: "Ordering",
        kind: Kind::Check,
        default: || Value::Bool(defaults().ordering),
        doc: "move ordering in alphabeta",
        effect: Effect::Search(|o, v| o.ordering = *v == Value::Bool(true)),
    },
    EngineOption {
        name: "Hash",
        kind: Kind::Spin { min: 1, max: 4096 },
        default: || Value::Int(defaults().hash_mb as i64),
        doc: "transposition table and solver tables, MiB",
        effect: Effect::Search(|o, v| o.hash_mb = v.int() as usize),
    },
    EngineOption {
        name: "HalfKomi",
        kind: Kind::Spin { min: -10, max: 10 },
        default: || Value::Int(0),
        doc: "twice Black's komi in Tak games started by tei or teinewgame",
        effect: Effect::HalfKomi,
    },
    EngineOption {
        name: "Depth",
        kind: Kind::Spin { min: 1, max: 64 },
        default: || Value::Int(i64::from(defaults().depth)),
        doc: "depth of minimax and alphabeta when go gives none",
        effect: Effect::Search(|o, v| o.depth = v.int() as u32),
    },
    EngineOption {
        name: "MoveOverhead",
        kind: Kind::Spin { min: 0, max: 5000 },
        default: || Value::Int(defaults().move_overhead as i64),
        doc: "milliseconds kept back from every move",
        effect: Effect::Search(|o, v| o.move_overhead = v.int() as u64),
    },
    EngineOption {
        name: "Level",
        kind: Kind::Combo(level_names),
        default: || Value::Text("custom".into()),
        doc: "a named strength capping every search's depth; custom: none",
        effect: Effect::Search(|o, v| o.level = Level::from_name(v.text())),
    },
    EngineOption {
        name: "LearnFile",
        kind: Kind::Text,
        default: || Value::Text(String::new()),
        doc: "the learning store; empty: learning off",
        effect: Effect::LearnFile,
    },
    EngineOption {
        name: "Seed",
        kind: Kind::Spin {
            min: 0,
            max: i32::MAX as i64,
        },
        default: || Value::Int(defaults().seed as i64),
        doc: "seed of the random and mcts searchers",
        effect: Effect::Search(|o, v| o.seed = v.int() as u64),
    },
    EngineOption {
        name: "Threads",
        kind: Kind::Spin { min: 1, max: 64 },
        default: || Value::Int(defaults().threads as i64),
        doc: "threads of pvs (Lazy SMP)",
        effect: Effect::Search(|o, v| o.threads = v.int() as usize),
    },
    EngineOption {
        name: "Playout",
        kind: Kind::Spin { min: 0, max: 1000 },
        default: || Value::Int(i64::from(defaults().playout)),
        doc: "random plies of an mcts playout before the heuristic",
        effect: Effect::Search(|o, v| o.playout = v.int() as u32),
    },
];

impl EngineOption {
    /// The option's `option` line.
    pub(super) fn declaration(&self) -> OptionDecl {
        let default = (self.default)();
        let kind = match &self.kind {
            Kind::Check => OptionType::Check {
                default: default == Value::Bool(true),
            },
            Kind::Spin { min, max } => OptionType::Spin {
                default: default.int(),
                min: *min,
                max: *max,
            },
            Kind::Combo(vars) => OptionType::Combo {
                default: default.text().to_string(),
                vars: vars(),
            },
            Kind::Text => OptionType::String {
                default: default.text().to_string(),
            },
        };
        OptionDecl {
            name: self.name.into(),
            kind,
        }
    }

    /// The value `setoption` gave, checked against the kind.
    ///
    /// # Errors
    /// `bad-value`, naming the option, the value and what it must be.
    pub(super) fn parse(&self, value: Option<&str>) -> Result<Value, EngineError> {
        let text = value.unwrap_or("").trim();
        let name = self.name;
        match &self.kind {
            Kind::Check => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err(error(
                    ErrorCode::BadValue,
                    format!("option {name}: '{text}' is not true or false"),
                )),
            },
            Kind::Spin { min, max } => {
                let v: i64 = text.parse().map_err(|_| {
                    error(
                        ErrorCode::BadValue,
                        format!("option {name}: '{text}' is not an integer"),
                    )
                })?;
                if v < *min || v > *max {
                    return Err(error(
                        ErrorCode::BadValue,
                        format!("option {name}: {v} is outside {min}..{max}"),
                    ));
                }
                Ok(Value::Int(v))
            }
            Kind::Combo(vars) => {
                let vars = vars();
                match vars.iter().find(|v| v.eq_ignore_ascii_case(text)) {
                    Some(v) => Ok(Value::Text(v.clone())),
                    None => Err(error(
                        ErrorCode::BadValue,
                        format!("option {name}: '{text}' is not one of {}", vars.join(", ")),
                    )),
                }
            }
            Kind::Text => Ok(Value::Text(if text == "<empty>" {
                String::new()
            } else {
                text.to_string()
            })),
        }
    }
}

/// The option named `name` (without regard to case or surrounding spaces).
///
/// # Errors
/// `unknown-option`, listing every option.
pub(super) fn find(name: &str) -> Result<&'static EngineOption, EngineError> {
    let name = name.trim();
    TABLE
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let names: Vec<&str> = TABLE.iter().map(|o| o.name).collect();
            error(
                ErrorCode::UnknownOption,
                format!("no option named '{name}' (options: {})", names.join(", ")),
            )
        })
}

/// The options the engine advertises, in handshake order.
pub fn option_declarations() -> Vec<OptionDecl> {
    TABLE.iter().map(EngineOption::declaration).collect()
}

/// Each option's name and what it does, in handshake order (for `--help` texts and docs).
pub fn option_docs() -> Vec<(&'static str, &'static str)> {
    TABLE.iter().map(|o| (o.name, o.doc)).collect()
}
