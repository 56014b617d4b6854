//! The game registry: a game name plus parameters becomes monomorphised code.
//!
//! Adding a game means one folder under `src/games/` and one line in the registry
//! below (plus its aliases in [`ALIASES`] if it has any). Nothing in search, protocol,
//! engine or arena changes: a game answers for its own presentation too
//! ([`crate::view::GameView`]), so a board page and the record formats show it without
//! naming it.

use std::fmt;

use thiserror::Error;

use crate::game::{Game, MoveError, Outcome, ParamSpec, PositionError, Side};
use crate::view::{BoardInfo, Cell, GameView};

/// Something that wants to run code for one concrete game type.
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Called with the concrete game type.
    fn visit<G: GameView>(self) -> Self::Output;
}

/// The registry: each game's folder and type, one line each, in the order games are
/// listed. It declares the modules, [`GAME_NAMES`] and [`dispatch`].
macro_rules! registry {
    ($($(#[$attr:meta])* $module:ident::$game:ident,)*) => {
        $($(#[$attr])* pub mod $module;)*

        /// The canonical names of all games, in the order they are listed.
        pub const GAME_NAMES: &[&str] = {
            const ALL: ([&str; 16], usize) = {
                let mut names = [""; 16];
                let mut count = 0;
                $($(#[$attr])* {
                    names[count] = <$module::$game as Game>::NAME;
                    count += 1;
                })*
                (names, count)
            };
            ALL.0.split_at(ALL.1).0
        };

        /// Runs `visitor` with the game called `name` (canonical name only); `None` if
        /// unknown.
        pub fn dispatch<V: GameVisitor>(name: &str, visitor: V) -> Option<V::Output> {
            $($(#[$attr])* {
                if name == <$module::$game as Game>::NAME {
                    return Some(visitor.visit::<$module::$game>());
                }
            })*
            None
        }
    };
}

registry! {
    mnk::Mnk,
    clobber::Clobber,
    halma::Halma,
    tak::Tak,
    #[cfg(feature = "sixth-game")] domineering::Domineering,
}

/// An alias: its name, the game it stands for, and the parameters it fixes.
pub type Alias = (&'static str, &'static str, &'static [(&'static str, i64)]);

/// Short names for common configurations.
pub const ALIASES: &[Alias] = &[
    ("tictactoe", "mnk", &[("m", 3), ("n", 3), ("k", 3)]),
    ("gomoku", "mnk", &[("m", 15), ("n", 15), ("k", 5)]),
    ("tak4line", "tak", &[("size", 4), ("line", 1)]),
];

/// A game name with its parameter values, validated against the game's [`ParamSpec`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Canonical game name.
    pub name: &'static str,
    /// One value per parameter of the game, in the game's order.
    pub values: Vec<i64>,
}

/// A game spec that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// The spec was empty.
    #[error("no game given (known games: {known})")]
    Empty {
        /// The known games and aliases.
        known: String,
    },
    /// No game of that name.
    #[error("unknown game '{name}' (known games: {known})")]
    UnknownGame {
        /// The name as given.
        name: String,
        /// The known games and aliases.
        known: String,
    },
    /// The game has no parameter of that name.
    #[error("game '{game}' has no parameter '{param}' (parameters: {known})")]
    UnknownParam {
        /// The game.
        game: String,
        /// The parameter as given.
        param: String,
        /// The game's parameters.
        known: String,
    },
    /// A parameter value is not an integer or out of range.
    #[error("parameter '{param}' of '{game}': {reason}")]
    BadValue {
        /// The game.
        game: String,
        /// The parameter.
        param: String,
        /// Why the value is refused.
        reason: String,
    },
    /// The parameters are each in range but do not fit together.
    #[error("game '{game}': {reason}")]
    Invalid {
        /// The game.
        game: String,
        /// Why.
        reason: String,
    },
}

fn known_games() -> String {
    let mut names: Vec<&str> = GAME_NAMES.to_vec();
    names.extend(ALIASES.iter().map(|a| a.0));
    names.join(", ")
}

struct ParamsOf;
impl GameVisitor for ParamsOf {
    type Output = &'static [ParamSpec];
    fn visit<G: Game>(self) -> Self::Output {
        G::params()
    }
}

struct CheckSettings<'a>(&'a [i64]);
impl GameVisitor for CheckSettings<'_> {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Self::Output {
        G::settings(self.0).map(|_| ())
    }
}

/// The parameter specs of the game called `name` (canonical), if it exists.
pub fn params_of(name: &str) -> Option<&'static [ParamSpec]> {
    dispatch(name, ParamsOf)
}

impl GameSpec {
    /// The parameters a written spec names: all but those left out at their default
    /// ([`ParamSpec::quiet_default`]).
    fn written_params(&self) -> impl Iterator<Item = (&'static ParamSpec, i64)> + '_ {
        params_of(self.name)
            .unwrap_or(&[])
            .iter()
            .zip(self.values.iter().copied())
            .filter(|(spec, value)| !(spec.quiet_default && *value == spec.default))
    }

    /// The spec in one word (`mnk:m=5,n=5,k=4`): what [`GameSpec::parse`] reads back, for
    /// tools that split an engine's arguments on spaces.
    pub fn one_word(&self) -> String {
        let params: Vec<String> = self
            .written_params()
            .map(|(spec, value)| format!("{}={value}", spec.name))
            .collect();
        if params.is_empty() {
            self.name.to_string()
        } else {
            format!("{}:{}", self.name, params.join(","))
        }
    }

    /// Parses `name [key=value | value]...`, for example `mnk m=5 n=5 k=4`, `mnk 5 5 4`
    /// or `tictactoe`. Bare values fill parameters in order; unnamed parameters take defaults.
    /// The same in one word, for tools that split arguments on spaces:
    /// `name:key=value,key=value` (`mnk:m=5,n=5,k=4`, `mnk:5,5,4`, `clobber:rows=5,cols=6`).
    ///
    /// # Errors
    /// A [`SpecError`] naming the unknown game or parameter, or the bad value.
    pub fn parse(text: &str) -> Result<GameSpec, SpecError> {
        let one_word;
        let text = match text.trim().split_once(':') {
            Some((name, params)) if !name.contains(char::is_whitespace) => {
                one_word = format!("{name} {}", params.replace(',', " "));
                one_word.as_str()
            }
            _ => text,
        };
        let mut tokens = text.split_whitespace();
        let first = tokens.next().ok_or_else(|| SpecError::Empty {
            known: known_games(),
        })?;
        let lower = first.to_ascii_lowercase();
        let (name, fixed): (&'static str, &[(&str, i64)]) =
            if let Some(alias) = ALIASES.iter().find(|a| a.0 == lower) {
                (alias.1, alias.2)
            } else if let Some(&name) = GAME_NAMES.iter().find(|&&n| n == lower) {
                (name, &[])
            } else {
                return Err(SpecError::UnknownGame {
                    name: first.to_string(),
                    known: known_games(),
                });
            };
        let specs = params_of(name).expect("registered game");
        let mut values: Vec<i64> = specs.iter().map(|p| p.default).collect();
        for (key, value) in fixed {
            let i = specs.iter().position(|p| p.name == *key).expect("alias");
            values[i] = *value;
        }
        let known = || specs.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
        let mut positional = 0;
        for token in tokens {
            let (index, value_text) = match token.split_once('=') {
                Some((key, value)) => {
                    let key_lower = key.to_ascii_lowercase();
                    let index =
                        specs
                            .iter()
                            .position(|p| p.name == key_lower)
                            .ok_or_else(|| SpecError::UnknownParam {
                                game: name.to_string(),
                                param: key.to_string(),
                                known: known(),
                            })?;
                    (index, value)
                }
                None => {
                    if positional >= specs.len() {
                        return Err(SpecError::UnknownParam {
                            game: name.to_string(),
                            param: token.to_string(),
                            known: known(),
                        });
                    }
                    positional += 1;
                    (positional - 1, token)
                }
            };
            let spec = &specs[index];
            let value: i64 = value_text.parse().map_err(|_| SpecError::BadValue {
                game: name.to_string(),
                param: spec.name.to_string(),
                reason: format!("'{value_text}' is not an integer"),
            })?;
            if value < spec.min || value > spec.max {
                return Err(SpecError::BadValue {
                    game: name.to_string(),
                    param: spec.name.to_string(),
                    reason: format!("{value} is outside {}..={}", spec.min, spec.max),
                });
            }
            values[index] = value;
        }
        dispatch(name, CheckSettings(&values))
            .expect("registered game")
            .map_err(|reason| SpecError::Invalid {
                game: name.to_string(),
                reason,
            })?;
        Ok(GameSpec { name, values })
    }

    /// The settings of game `G` for this spec.
    ///
    /// # Panics
    /// If `G` is not the game this spec names (a programming error).
    pub fn settings<G: Game>(&self) -> G::Settings {
        assert_eq!(self.name, G::NAME, "spec of another game");
        G::settings(&self.values).expect("validated when parsed")
    }

    /// The settings of game `G` when this spec names it: typed access to a game's
    /// parameters for code that must treat one game apart (a dialect, a record format).
    pub fn settings_of<G: Game>(&self) -> Option<G::Settings> {
        (self.name == G::NAME).then(|| self.settings::<G>())
    }

    /// The spec of a game's settings.
    pub fn of<G: Game>(settings: &G::Settings) -> GameSpec {
        GameSpec {
            name: G::NAME,
            values: G::param_values(settings),
        }
    }
}

impl fmt::Display for GameSpec {
    /// The canonical form: the name and every parameter as `key=value`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        for (spec, value) in self.written_params() {
            write!(f, " {}={}", spec.name, value)?;
        }
        Ok(())
    }
}

/// A game position behind a string-only interface: what a referee, a GUI bridge or a
/// perft tool needs without knowing the concrete game.
pub trait AnyGame: Send + Sync + fmt::Debug {
    /// The spec of the game.
    fn spec(&self) -> GameSpec;
    /// The side to move.
    fn side_to_move(&self) -> Side;
    /// The game's name for `side`.
    fn side_name(&self, side: Side) -> &'static str;
    /// The legal moves in canonical notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Checks and plays a move; returns its canonical notation.
    ///
    /// # Errors
    /// [`MoveError`] when the text is no move or not legal; the position is unchanged.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// How the game ended, if it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The game's own code for how it ended (Tak: the PTN result `R-0`, `0-F`, ...).
    fn result_detail(&self) -> Option<String>;
    /// The canonical position string.
    fn position(&self) -> String;
    /// The text board.
    fn render(&self) -> Vec<String>;
    /// The board as cells, rows from the top ([`GameView::cells`]).
    fn cells(&self) -> Vec<Vec<Cell>>;
    /// The position's hash.
    fn hash(&self) -> u64;
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn AnyGame>;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

#[derive(Clone, Debug)]
struct Erased<G: GameView>(G);

impl<G: GameView> AnyGame for Erased<G> {
    fn spec(&self) -> GameSpec {
        GameSpec::of::<G>(self.0.settings_of())
    }
    fn side_to_move(&self) -> Side {
        self.0.side_to_move()
    }
    fn side_name(&self, side: Side) -> &'static str {
        G::side_name(side)
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.0.generate_moves(&mut moves);
        moves.into_iter().map(|m| self.0.format_move(m)).collect()
    }
    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.0.parse_move(text)?;
        let canonical = self.0.format_move(mv);
        self.0.make_move(mv);
        Ok(canonical)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn result_detail(&self) -> Option<String> {
        self.0.result_detail()
    }
    fn position(&self) -> String {
        self.0.format_position()
    }
    fn render(&self) -> Vec<String> {
        self.0.render()
    }
    fn cells(&self) -> Vec<Vec<Cell>> {
        self.0.cells()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

/// Wraps a concrete position behind [`AnyGame`].
pub fn erase<G: GameView>(pos: G) -> Box<dyn AnyGame> {
    Box::new(Erased(pos))
}

struct NewGame<'a> {
    spec: &'a GameSpec,
    position: Option<&'a str>,
}

impl GameVisitor for NewGame<'_> {
    type Output = Result<Box<dyn AnyGame>, PositionError>;
    fn visit<G: GameView>(self) -> Self::Output {
        let settings = self.spec.settings::<G>();
        let pos = match self.position {
            None => G::start(&settings),
            Some(text) => G::parse_position(&settings, text)?,
        };
        Ok(erase(pos))
    }
}

/// A position of the game `spec`: the start, or `position` parsed.
///
/// # Errors
/// [`PositionError`] when `position` does not parse for this game.
pub fn new_game(
    spec: &GameSpec,
    position: Option<&str>,
) -> Result<Box<dyn AnyGame>, PositionError> {
    dispatch(spec.name, NewGame { spec, position }).expect("spec names a registered game")
}

struct Board<'a> {
    spec: &'a GameSpec,
    start: Option<&'a str>,
    moves: &'a [String],
    players: Option<&'a [String; 2]>,
}

impl GameVisitor for Board<'_> {
    type Output = Result<BoardInfo, String>;
    fn visit<G: GameView>(self) -> Self::Output {
        crate::view::board_info::<G>(
            &self.spec.settings::<G>(),
            self.start,
            self.moves,
            self.players,
        )
    }
}

/// Everything a board page shows of the game `spec` from `start` (or its standard
/// start) after `moves`, between `players` when known ([`crate::view::board_info`]).
///
/// # Errors
/// A message naming the bad position or move.
pub fn board_info(
    spec: &GameSpec,
    start: Option<&str>,
    moves: &[String],
    players: Option<&[String; 2]>,
) -> Result<BoardInfo, String> {
    dispatch(
        spec.name,
        Board {
            spec,
            start,
            moves,
            players,
        },
    )
    .expect("spec names a registered game")
}

struct Describe;
impl GameVisitor for Describe {
    type Output = GameDescription;
    fn visit<G: GameView>(self) -> GameDescription {
        GameDescription {
            name: G::NAME,
            params: G::params(),
            heuristics: G::heuristics().iter().map(|h| h.0).collect(),
            style: G::STYLE,
            presets: G::PRESETS,
        }
    }
}

/// What the engine advertises about one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameDescription {
    /// Canonical name.
    pub name: &'static str,
    /// Parameters with ranges and defaults.
    pub params: &'static [ParamSpec],
    /// Heuristic names, the default first.
    pub heuristics: Vec<&'static str>,
    /// How a page draws it.
    pub style: crate::view::Style,
    /// The configurations a page offers first.
    pub presets: &'static [crate::view::Preset],
}

/// Descriptions of every registered game.
pub fn describe_all() -> Vec<GameDescription> {
    GAME_NAMES
        .iter()
        .map(|name| dispatch(name, Describe).expect("registered"))
        .collect()
}

struct ReadPositionFile<'a> {
    spec: &'a GameSpec,
    text: &'a str,
}

impl GameVisitor for ReadPositionFile<'_> {
    type Output = Result<(GameSpec, String), PositionError>;
    fn visit<G: Game>(self) -> Self::Output {
        let (settings, text) = G::read_position_file(&self.spec.settings::<G>(), self.text)?;
        let pos = G::parse_position(&settings, &text)?;
        Ok((GameSpec::of::<G>(&settings), pos.format_position()))
    }
}

/// Reads a start position from a file's text for the game `spec` (which the file may
/// resize): returns the resulting spec and the canonical position string.
///
/// # Errors
/// A message naming the bad spec or what is wrong in the file.
pub fn read_position_file(spec: &str, text: &str) -> Result<(GameSpec, String), String> {
    let spec = GameSpec::parse(spec).map_err(|e| e.to_string())?;
    dispatch(spec.name, ReadPositionFile { spec: &spec, text })
        .expect("spec names a registered game")
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_word_specs_read_as_the_spaced_ones() {
        for (one, spaced) in [
            ("mnk:m=5,n=5,k=4", "mnk m=5 n=5 k=4"),
            ("mnk:5,5,4", "mnk 5 5 4"),
            ("clobber:rows=5,cols=6", "clobber rows=5 cols=6"),
            ("tak:size=6,halfkomi=4", "tak size=6 halfkomi=4"),
            ("halma:size=8", "halma size=8"),
            ("gomoku:", "gomoku"),
            ("tictactoe", "tictactoe"),
        ] {
            assert_eq!(
                GameSpec::parse(one).unwrap(),
                GameSpec::parse(spaced).unwrap(),
                "{one}"
            );
        }
    }

    #[test]
    fn one_word_round_trips_for_every_game() {
        for name in GAME_NAMES {
            let spec = GameSpec::parse(name).unwrap();
            let word = spec.one_word();
            assert!(!word.contains(' '), "{word}");
            assert_eq!(GameSpec::parse(&word).unwrap(), spec, "{word}");
        }
    }

    #[test]
    fn one_word_errors_name_what_is_wrong() {
        let e = GameSpec::parse("clobber:rows=5,colz=6")
            .unwrap_err()
            .to_string();
        assert!(e.contains("colz"), "{e}");
        let e = GameSpec::parse("clobbr:rows=5").unwrap_err().to_string();
        assert!(e.contains("clobbr"), "{e}");
    }
}
