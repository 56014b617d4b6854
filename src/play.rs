//! `agon play`: a person plays the engine on a text terminal (or a pipe).
//!
//! Generic over every registered game through [`GameVisitor`]: nothing here knows a
//! game's rules. Input is read line by line, so the same loop serves a terminal and a
//! script; end of input is `quit`. The engine's choice of move is
//! [`crate::learn::choose_move`]: the
//! search's best move, adjusted at the root by the learning store when one is given
//! (see [`crate::learn`]).

use std::fmt;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::game::{Game, Outcome, Side};
use crate::games::{dispatch, GameSpec, GameVisitor};
use crate::learn::{choose_move, record_game, LearnError, LearnStore};
use crate::search::{new_searcher, Limits, SearchOptions, Searcher, SearcherKind};

/// Who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// The person.
    Human,
    /// The engine.
    Engine,
    /// Drawn from the seed before every game.
    Random,
}

/// Everything `agon play` needs.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// The game.
    pub spec: GameSpec,
    /// Who moves first.
    pub first: First,
    /// Seed of the first-move draws.
    pub seed: u64,
    /// The engine's limits per move.
    pub limits: Limits,
    /// How the limits are described to the player (`hard (depth 4)`).
    pub strength: String,
    /// The learning store, if learning is on.
    pub learn: Option<PathBuf>,
    /// Every game starts here (a position string of the game) instead of the start.
    pub position: Option<String>,
}

/// Games won by each side and drawn over a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the person won.
    pub human: u32,
    /// Games the engine won.
    pub engine: u32,
    /// Drawn games.
    pub draws: u32,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "you {}, engine {}, draws {}",
            self.human, self.engine, self.draws
        )
    }
}

/// Why a session could not run.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The learning store could not be used.
    #[error(transparent)]
    Learn(#[from] LearnError),
    /// Reading the input or writing the output failed.
    #[error("terminal: {0}")]
    Io(#[from] std::io::Error),
    /// The start position given is not a position of the game.
    #[error("bad start position: {0}")]
    Position(String),
}

/// A simple seeded generator (splitmix64) for the first-move draw.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

const HELP: &str = "\
Commands:
  <move>   a move in the game's notation (type `moves` to see them)
  moves    list the legal moves
  undo     take back your last move and the engine's reply
  hint     ask the engine for a move
  help     this text
  quit     end the session (end of input does the same)";

struct Session<'a, R, W> {
    config: &'a PlayConfig,
    input: R,
    out: W,
    rng: SplitMix,
    store: Option<LearnStore>,
    tally: Tally,
}

/// How one game ended for the session.
enum GameEnd {
    Finished,
    Quit,
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// Prompts and reads one trimmed line; `None` at end of input.
    fn ask(&mut self, prompt: &str) -> Result<Option<String>, PlayError> {
        write!(self.out, "{prompt}> ")?;
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            writeln!(self.out)?;
            return Ok(None);
        }
        Ok(Some(line.trim().to_string()))
    }

    fn show<G: Game>(&mut self, pos: &G) -> Result<(), PlayError> {
        writeln!(self.out)?;
        for line in pos.render() {
            writeln!(self.out, "  {line}")?;
        }
        writeln!(self.out)?;
        Ok(())
    }

    fn play_game<G: Game>(
        &mut self,
        searcher: &mut dyn Searcher<G>,
        number: u32,
    ) -> Result<GameEnd, PlayError> {
        let settings = self.config.spec.settings::<G>();
        let start = match &self.config.position {
            Some(text) => G::parse_position(&settings, text)
                .map_err(|e| PlayError::Position(format!("'{text}': {e}")))?,
            None => G::start(&settings),
        };
        let mut pos = start.clone();
        searcher.clear();
        // "First" is whoever makes the first move of this game: from a given position,
        // the side to move there.
        let mover = pos.side_to_move();
        let human = match self.config.first {
            First::Human => mover,
            First::Engine => mover.other(),
            First::Random => {
                if self.rng.next() & 1 == 0 {
                    mover
                } else {
                    mover.other()
                }
            }
        };
        let engine = human.other();
        writeln!(
            self.out,
            "Game {number}: you play {} ({}), the engine plays {}.",
            G::side_name(human),
            if human == mover {
                "you move first"
            } else {
                "the engine moves first"
            },
            G::side_name(engine)
        )?;
        let mut history: Vec<(G::Move, G::Undo, Side)> = Vec::new();
        self.show(&pos)?;
        let outcome = loop {
            if let Some(outcome) = pos.outcome() {
                break outcome;
            }
            if pos.side_to_move() == engine {
                let mv = choose_move(&mut pos, searcher, &self.config.limits, self.store.as_ref())
                    .expect("a position without outcome has a move");
                writeln!(self.out, "Engine plays {}", pos.format_move(mv))?;
                let undo = pos.make_move(mv);
                history.push((mv, undo, engine));
                self.show(&pos)?;
                continue;
            }
            let prompt = format!("Your move ({})", G::side_name(human));
            let Some(line) = self.ask(&prompt)? else {
                return Ok(GameEnd::Quit);
            };
            match line.to_ascii_lowercase().as_str() {
                "" => {}
                "help" | "?" => writeln!(self.out, "{HELP}")?,
                "quit" | "exit" => return Ok(GameEnd::Quit),
                "moves" => {
                    let mut moves = Vec::new();
                    pos.generate_moves(&mut moves);
                    let texts: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
                    writeln!(self.out, "Legal moves: {}", texts.join(" "))?;
                }
                "hint" => {
                    let mv =
                        choose_move(&mut pos, searcher, &self.config.limits, self.store.as_ref())
                            .expect("a position without outcome has a move");
                    writeln!(self.out, "Hint: {}", pos.format_move(mv))?;
                }
                "undo" => {
                    if !history.iter().any(|h| h.2 == human) {
                        writeln!(self.out, "Nothing to undo: you have not moved yet.")?;
                        continue;
                    }
                    let mut taken = Vec::new();
                    while let Some((mv, undo, side)) = history.pop() {
                        pos.unmake_move(mv, undo);
                        taken.push(pos.format_move(mv));
                        if side == human {
                            break;
                        }
                    }
                    taken.reverse();
                    writeln!(self.out, "Took back {}.", taken.join(" and "))?;
                    self.show(&pos)?;
                }
                _ => match pos.parse_move(&line) {
                    Ok(mv) => {
                        let undo = pos.make_move(mv);
                        history.push((mv, undo, human));
                        self.show(&pos)?;
                    }
                    Err(e) => writeln!(
                        self.out,
                        "{e}. Type `moves` for the legal moves or `help` for commands."
                    )?,
                },
            }
        };
        let verdict = match outcome {
            Outcome::Draw => {
                self.tally.draws += 1;
                "The game is a draw.".to_string()
            }
            Outcome::Win(side) if side == human => {
                self.tally.human += 1;
                format!("{} wins: you won!", G::side_name(side))
            }
            Outcome::Win(side) => {
                self.tally.engine += 1;
                format!("{} wins: the engine won.", G::side_name(side))
            }
        };
        writeln!(self.out, "Result: {verdict}")?;
        if let Some(store) = &mut self.store {
            let moves: Vec<G::Move> = history.iter().map(|h| h.0).collect();
            match record_game(store, &start, &moves, outcome) {
                Ok(()) => writeln!(
                    self.out,
                    "Learned from this game ({} positions in {}).",
                    store.len(),
                    store.path().display()
                )?,
                Err(e) => writeln!(self.out, "Could not learn from this game: {e}")?,
            }
        }
        writeln!(self.out, "Session: {}", self.tally)?;
        Ok(GameEnd::Finished)
    }
}

struct PlayVisitor<'a, R, W> {
    config: &'a PlayConfig,
    input: R,
    out: W,
}

impl<R: BufRead, W: Write> GameVisitor for PlayVisitor<'_, R, W> {
    type Output = Result<Tally, PlayError>;
    fn visit<G: Game>(self) -> Self::Output {
        let store = match &self.config.learn {
            Some(path) => Some(LearnStore::open(path)?),
            None => None,
        };
        let options = SearchOptions::plain(G::heuristics()[0].1);
        let mut searcher = new_searcher::<G>(SearcherKind::Pvs, &options);
        let mut session = Session {
            config: self.config,
            input: self.input,
            out: self.out,
            rng: SplitMix(self.config.seed),
            store,
            tally: Tally::default(),
        };
        writeln!(
            session.out,
            "agon play: {}, engine strength {}, seed {}{}.",
            self.config.spec,
            self.config.strength,
            self.config.seed,
            match &self.config.learn {
                Some(p) => format!(", learning in {}", p.display()),
                None => String::new(),
            }
        )?;
        writeln!(session.out, "Type `help` for commands.")?;
        let mut number = 1;
        loop {
            match session.play_game::<G>(searcher.as_mut(), number)? {
                GameEnd::Quit => break,
                GameEnd::Finished => {}
            }
            let again = loop {
                match session.ask("Play again? (y/n)")? {
                    None => break false,
                    Some(a) if a.eq_ignore_ascii_case("y") || a.eq_ignore_ascii_case("yes") => {
                        break true
                    }
                    Some(a) if a.eq_ignore_ascii_case("n") || a.eq_ignore_ascii_case("no") => {
                        break false
                    }
                    Some(a) => writeln!(session.out, "Please answer y or n (not '{a}').")?,
                }
            };
            if !again {
                break;
            }
            number += 1;
        }
        let t = session.tally;
        let games = t.human + t.engine + t.draws;
        writeln!(
            session.out,
            "Session summary: {games} finished game{}: you won {}, the engine won {}, {} drawn.",
            if games == 1 { "" } else { "s" },
            t.human,
            t.engine,
            t.draws
        )?;
        session.out.flush()?;
        Ok(t)
    }
}

/// Runs a session of `config` reading commands from `input` and writing to `out`.
///
/// # Errors
/// [`PlayError`] when the learning store is unusable or the terminal fails.
pub fn run(config: &PlayConfig, input: impl BufRead, out: impl Write) -> Result<Tally, PlayError> {
    dispatch(config.spec.name, PlayVisitor { config, input, out })
        .expect("spec names a registered game")
}
