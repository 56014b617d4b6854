//! The [`Game`] trait every game implements, and the small types around it.
//!
//! Rules know nothing of search or I/O: a game is a state, legal moves, make/unmake,
//! an outcome, an incremental hash, notation and named heuristics. Search, perft,
//! the engine session and the arena all work through this one trait.

pub mod prover;

use std::fmt;
use std::hash::Hash;

use thiserror::Error;

/// One of the two players. `First` moves first from the standard start
/// (`p1` in the protocol: X in tic-tac-toe, White in Clobber and Tak).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who moves first from the standard start (`p1`).
    First,
    /// The other player (`p2`).
    Second,
}

impl Side {
    /// Both sides, first player first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The protocol name of the side: `p1` or `p2`.
    pub fn protocol_name(self) -> &'static str {
        match self {
            Side::First => "p1",
            Side::Second => "p2",
        }
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.other()
    }
}

/// A result [`Game::forced`] proves without search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// The side to move wins with its next move.
    WinNextMove,
    /// Whatever the side to move plays, the opponent wins with the move after.
    LossInTwo,
}

/// The inexact pruning a game lets the default search use ([`Game::selectivity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selectivity {
    /// Late move reductions: moves late in the order are searched shallower first.
    pub reductions: bool,
    /// Late move pruning: near the leaves, moves late in the order are not searched.
    pub late_pruning: bool,
    /// Null-move pruning: a node whose side to move stays above beta even after passing
    /// (a search shallower by a few plies) is cut. Needs [`Game::make_null`].
    pub null_move: bool,
    /// Reverse futility pruning: near the leaves, a node whose static evaluation is above
    /// beta by a margin per ply left is cut.
    pub futility: bool,
    /// Single-reply extension: a node with one move to search searches it a ply deeper
    /// (gomoku: the block of a four). Exact: it prunes nothing.
    pub single_reply: bool,
}

impl Selectivity {
    /// No inexact pruning: the search is exact to its depth.
    pub const NONE: Selectivity = Selectivity {
        reductions: false,
        late_pruning: false,
        null_move: false,
        futility: false,
        single_reply: false,
    };
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The protocol's result word: `p1win`, `p2win` or `draw` (UGI `query result`).
    pub fn protocol_name(self) -> &'static str {
        match self {
            Outcome::Win(Side::First) => "p1win",
            Outcome::Win(Side::Second) => "p2win",
            Outcome::Draw => "draw",
        }
    }

    /// The result as a PGN-style score string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn score_str(self) -> &'static str {
        match self {
            Outcome::Win(Side::First) => "1-0",
            Outcome::Win(Side::Second) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// A move text that could not be turned into a legal move of the current position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation at all.
    #[error("'{text}' is not a move: {reason}")]
    Syntax {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The text is a well-formed move that is not legal in this position.
    #[error("'{text}' is illegal here: {reason}")]
    Illegal {
        /// The text as given.
        text: String,
        /// Why it is not legal.
        reason: String,
    },
}

impl MoveError {
    /// A syntax error for `text`.
    pub fn syntax(text: &str, reason: impl Into<String>) -> Self {
        MoveError::Syntax {
            text: text.to_string(),
            reason: reason.into(),
        }
    }

    /// A legality error for `text`.
    pub fn illegal(text: &str, reason: impl Into<String>) -> Self {
        MoveError::Illegal {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// A position string that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad position '{text}': {reason}")]
pub struct PositionError {
    /// The position text as given.
    pub text: String,
    /// What is wrong with it (names the field or square).
    pub reason: String,
}

impl PositionError {
    /// A position error for `text`.
    pub fn new(text: &str, reason: impl Into<String>) -> Self {
        PositionError {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// A game parameter: its name, range, default and meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// The parameter name as written in a game spec (`m`, `rows`, `komi`...).
    pub name: &'static str,
    /// Smallest accepted value.
    pub min: i64,
    /// Largest accepted value.
    pub max: i64,
    /// Value used when the parameter is not given.
    pub default: i64,
    /// One line of documentation.
    pub doc: &'static str,
    /// Left out of a spec's written form while at its default (a rule added later, so
    /// that the specs written before it stay the same: `mnk`'s `exact`).
    pub quiet_default: bool,
}

/// Parameter values of a game, one per [`ParamSpec`] of the game, in the same order.
pub type ParamValues = [i64];

/// The rules of one game.
///
/// Implementations keep their state small and make `make_move` cheap; `Undo` is
/// whatever `unmake_move` needs (the whole state for copy-make games).
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// A move: a small `Copy` value.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// What `unmake_move` needs to restore the position.
    type Undo: Send + 'static;
    /// Board size and variant, built from the game's parameters.
    type Settings: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// A named evaluation function of this game.
    type Heuristic: Copy + fmt::Debug + PartialEq + Send + Sync + 'static;

    /// The registry name of the game (`mnk`, `clobber`, ...).
    const NAME: &'static str;

    /// The parameters the game takes, with their ranges and defaults.
    fn params() -> &'static [ParamSpec];

    /// Builds settings from parameter values (one per [`Game::params`], already range-checked).
    ///
    /// # Errors
    /// A message naming the parameter when the combination is invalid (for example k > max(m, n)).
    fn settings(values: &ParamValues) -> Result<Self::Settings, String>;

    /// The parameter values that give `settings` (the inverse of [`Game::settings`]).
    fn param_values(settings: &Self::Settings) -> Vec<i64>;

    /// The standard start position.
    fn start(settings: &Self::Settings) -> Self;

    /// The settings this position was built with.
    fn settings_of(&self) -> &Self::Settings;

    /// The side whose turn it is.
    fn side_to_move(&self) -> Side;

    /// The display name of a side in this game (`X`/`O`, `white`/`black`).
    fn side_name(side: Side) -> &'static str;

    /// Appends every legal move to `out` (does not clear it). Empty when the game is over.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move.
    ///
    /// # Panics
    /// May panic or corrupt the state if `mv` is not legal here; use [`Game::play`] for checked play.
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back `mv`, which was the last move made, using what `make_move` returned.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// `None` while the game goes on, otherwise how it ended.
    fn outcome(&self) -> Option<Outcome>;

    /// The incrementally maintained Zobrist hash of the position (side to move included).
    fn hash(&self) -> u64;

    /// The hash computed from scratch; equals [`Game::hash`] (a test oracle).
    fn hash_from_scratch(&self) -> u64;

    /// Parses a move in this game's notation and checks it is legal here.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] for text that is no move, [`MoveError::Illegal`] for a move not legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The canonical notation of a move of this position.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a position string (the `fen` of the protocol).
    ///
    /// # Errors
    /// A [`PositionError`] naming the field or square that is wrong.
    fn parse_position(settings: &Self::Settings, text: &str) -> Result<Self, PositionError>;

    /// The canonical position string; [`Game::parse_position`] reads it back to an equal position.
    fn format_position(&self) -> String;

    /// A human-readable board, one string per line, with coordinates on the edges.
    fn render(&self) -> Vec<String>;

    /// The named heuristics of this game; the first is the default.
    fn heuristics() -> &'static [(&'static str, Self::Heuristic)];

    /// Static evaluation from the side to move's point of view, in centi-units.
    /// Must stay well inside ±[`crate::search::EVAL_LIMIT`].
    fn evaluate(&self, heuristic: Self::Heuristic) -> i32;

    /// Reads a position file: returns the settings it implies (a file may carry its own
    /// board size) and a position string for them. The default reads the game's position
    /// string, ignoring blank lines and lines starting with `#`.
    ///
    /// # Errors
    /// A [`PositionError`] when the text is no position of this game.
    fn read_position_file(
        settings: &Self::Settings,
        text: &str,
    ) -> Result<(Self::Settings, String), PositionError> {
        let joined: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        Ok((settings.clone(), joined.join(" ")))
    }

    /// Positions for `agon bench`: game parameters (`key=value ...`, empty for the
    /// defaults), a position string or `startpos`, and a search depth. Default: none.
    fn bench_positions() -> &'static [(&'static str, &'static str, u32)] {
        &[]
    }

    /// The number of legal moves (perft's last ply). The default generates them into
    /// `buffer`; a game may count without generating.
    fn count_moves(&self, buffer: &mut Vec<Self::Move>) -> u64 {
        buffer.clear();
        self.generate_moves(buffer);
        buffer.len() as u64
    }

    /// A game-specific code for how the game ended (Tak's PTN result `R-0`, `0-F`, ...),
    /// for records that want more than win/loss/draw. Default: none.
    fn result_detail(&self) -> Option<String> {
        None
    }

    /// The moves the default search considers here: the legal moves, or a subset of them
    /// that the game knows holds every move worth a look (gomoku: the squares near the
    /// stones). Never empty while a legal move exists. Default: all legal moves.
    fn search_moves(&self, out: &mut Vec<Self::Move>) {
        self.generate_moves(out);
    }

    /// A cheap ordering hint for a move: larger is tried first. Default: all equal.
    fn move_order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Ordering scores of all `moves` of this position (larger is tried first), computed
    /// together so that a game can share work between them; replaces `scores`. Default:
    /// [`Game::move_order_hint`] of each.
    fn order_scores(&self, moves: &[Self::Move], scores: &mut Vec<i32>) {
        scores.clear();
        scores.extend(moves.iter().map(|&mv| self.move_order_hint(mv)));
    }

    /// A result the side to move cannot escape, seen without search (an m,n,k line one
    /// stone short whose last square is empty, a Tak road one flat short). It must be
    /// exact: the search takes it as a proof. Cheap positions only; `None` when in doubt.
    /// Default: none.
    fn forced(&self) -> Option<Forced> {
        None
    }

    /// This game's own proof solver, for the search to use while it plays (see
    /// [`prover`]), its tables bounded to `memory` bytes. Default: none.
    fn prover(memory: usize) -> Option<Box<dyn prover::Prover<Self>>> {
        let _ = memory;
        None
    }

    /// Which inexact pruning the default search may use in this game (late move
    /// reductions and pruning): none unless the game opts in, because each is measured
    /// per game. Default: [`Selectivity::NONE`].
    fn selectivity() -> Selectivity {
        Selectivity::NONE
    }

    /// Whether the default search may use the inexact pruning of [`Game::selectivity`]
    /// (all of it: reductions, late move pruning, null moves, futility) in a search from
    /// this position, read once per search: a game whose small boards must stay exact to
    /// the search's depth says no there. Default: yes.
    fn inexact_pruning_here(&self) -> bool {
        true
    }

    /// Whether the default search, at a cutoff, takes from the history of the quiet moves
    /// searched before the cutoff move what that move gains (a "history malus", so that
    /// moves that keep failing sink in the order). Per position, because what it is worth
    /// was measured per game and board size. Default: no.
    fn history_malus(&self) -> bool {
        false
    }

    /// About how many moves the side to move has left in this game, for spreading a clock
    /// over them (the search budgets `time left / moves left` a move when the clock has
    /// no `movestogo`). `None` when the game cannot tell: the search then assumes 20.
    /// Default: `None`.
    fn moves_left(&self) -> Option<u32> {
        None
    }

    /// Passes the turn to the opponent without a move (a "null move", for the search's
    /// null-move pruning), where that is safe for this position; returns `false` and
    /// changes nothing otherwise. [`Game::unmake_null`] takes it back. Default: never.
    fn make_null(&mut self) -> bool {
        false
    }

    /// Takes back a [`Game::make_null`] that returned `true`.
    fn unmake_null(&mut self) {}

    /// Checked play: parses nothing, but refuses a move that is not legal here.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] when `mv` is not among the legal moves.
    fn play(&mut self, mv: Self::Move) -> Result<Self::Undo, MoveError> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(self.make_move(mv))
        } else {
            Err(MoveError::illegal(
                &self.format_move(mv),
                "not among the legal moves",
            ))
        }
    }
}

/// Finds the legal move whose canonical notation is `text`: the reference parser
/// and a fallback for games that only need exact canonical input.
///
/// # Errors
/// [`MoveError::Illegal`] when no legal move formats as `text`.
pub fn find_move_by_text<G: Game>(pos: &G, text: &str) -> Result<G::Move, MoveError> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .find(|&mv| pos.format_move(mv) == text)
        .ok_or_else(|| MoveError::illegal(text, "not a legal move in this position"))
}
