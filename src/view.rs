//! What a board page or a record needs of any game, in the game's own words: the board
//! as cells, a move taken apart into squares, how a finished game ended, the game's own
//! counts and its own record formats. Every game implements [`GameView`], and a tool
//! draws any game without naming it (OpenSpiel's games answer for their strings and
//! structures the same way).
//!
//! The defaults fit a game whose position string (protocol.md section 8) is rows of
//! letters, `/` between rows and digits for runs of empty squares, and whose moves are a
//! square (a placement) or `from-to`: a simple game implements nothing.

use crate::game::{Game, Outcome, Side};

/// One square of the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// Its name (`b2`).
    pub sq: String,
    /// The pieces from the bottom, one letter each (`x`, `o`, `w`, `b`; Tak `1`, `2`);
    /// empty for an empty square.
    pub stack: String,
    /// The top piece's kind when it is not a plain piece (Tak `S` wall, `C` capstone).
    pub top: String,
    /// The side whose home zone holds this square (Halma's camps).
    pub camp: Option<Side>,
}

/// A move taken apart, so that a page can show where a piece may go and mark the last
/// move without knowing any rule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MovePicture {
    /// Its canonical notation: what a page sends to play it.
    pub mv: String,
    /// The square a piece or stack leaves (none for placements).
    pub from: Option<String>,
    /// Where it ends: the placed or destination square, or the squares a spread drops
    /// on, in order.
    pub to: Vec<String>,
    /// A placement of a piece of another kind than the plain one (Tak `F`, `S`, `C`).
    pub kind: Option<&'static str>,
    /// A spread: the pieces dropped on each square of `to`.
    pub drops: Vec<u32>,
    /// A jump chain: the squares landed on between `from` and `to`.
    pub hops: Vec<String>,
}

impl MovePicture {
    /// The picture of a move written as a square (`b2`) or `from-to` (`a1-b2`).
    pub fn from_notation(text: String) -> MovePicture {
        match text.split_once('-') {
            Some((from, to)) => MovePicture {
                from: Some(from.to_string()),
                to: vec![to.to_string()],
                mv: text,
                ..MovePicture::default()
            },
            None => MovePicture {
                to: vec![text.clone()],
                mv: text,
                ..MovePicture::default()
            },
        }
    }
}

/// How a finished game ended, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `White wins by road`, `Draw: the board is full`.
    pub words: String,
    /// The squares that decided it: the line, the road, the filled camp.
    pub squares: Vec<String>,
    /// Whether `squares` form a line or path, in order, to draw through (an area, such as
    /// a camp, is only marked).
    pub path: bool,
}

/// How a game's pieces look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pieces {
    /// A letter per piece (`X`, `O`).
    Letters,
    /// A disc per piece in its side's colour.
    Discs,
    /// Stacks of pieces, bottom first, with a top piece of a kind.
    Stacks,
}

impl Pieces {
    /// The name a page uses: `letters`, `discs`, `stacks`.
    pub fn name(self) -> &'static str {
        match self {
            Pieces::Letters => "letters",
            Pieces::Discs => "discs",
            Pieces::Stacks => "stacks",
        }
    }
}

/// How a page draws a game's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Squares in two shades, like a chessboard.
    pub checkered: bool,
    /// How the pieces look.
    pub pieces: Pieces,
    /// The kinds a placement may have ([`MovePicture::kind`]), each with its name
    /// (Tak: `F` flat, `S` wall, `C` capstone).
    pub kinds: &'static [(&'static str, &'static str)],
}

/// A configuration a page offers: its label and the parameters it sets (the others take
/// their defaults).
pub type Preset = (&'static str, &'static [(&'static str, i64)]);

/// A number per side that the game counts (Tak: stones and capstones in hand, flats).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// What is counted, plural (`stones left`).
    pub label: &'static str,
    /// The first side's number, then the second's.
    pub values: [u32; 2],
}

/// The game in one of its own record formats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    /// The format's name (`TPS`, `PTN`).
    pub format: &'static str,
    /// The text.
    pub text: String,
}

/// How a game presents itself; every method has a default for a simple game.
pub trait GameView: Game {
    /// How a page draws the board.
    const STYLE: Style = Style {
        checkered: false,
        pieces: Pieces::Discs,
        kinds: &[],
    };

    /// The configurations a page offers first (none: the game with its defaults).
    const PRESETS: &'static [Preset] = &[];

    /// One line: how a person enters a move on a board page.
    const HOW_TO_MOVE: &'static str =
        "Click a marked square (or drag a piece onto one), or type a move in the game's notation.";

    /// A side's name for sentences (`X`, `White`).
    fn side_title(side: Side) -> String {
        title(Self::side_name(side))
    }

    /// The board, rows from the top.
    fn cells(&self) -> Vec<Vec<Cell>> {
        let position = self.format_position();
        let board = position.split(' ').next().unwrap_or("");
        let mut cells: Vec<Vec<Cell>> = board.split('/').map(letter_row).collect();
        name_squares(&mut cells);
        cells
    }

    /// `mv` (legal in this position) taken apart.
    fn picture(&self, mv: Self::Move) -> MovePicture {
        MovePicture::from_notation(self.format_move(mv))
    }

    /// How the game ended, when it has.
    fn ending(&self) -> Option<Ending> {
        let words = match self.outcome()? {
            Outcome::Win(side) => format!("{} wins", Self::side_title(side)),
            Outcome::Draw => "Draw".to_string(),
        };
        Some(Ending {
            words,
            squares: Vec::new(),
            path: false,
        })
    }

    /// What the game counts per side, to show beside the board.
    fn counts(&self) -> Vec<Count> {
        Vec::new()
    }

    /// A line about the standing of the game that the counts do not say (Tak's flat
    /// count with komi).
    fn standing(&self) -> Option<String> {
        None
    }

    /// The game in its own record formats: from `start` (or the standard start), the
    /// moves `played`, between `players` when known.
    fn exports(
        &self,
        _start: Option<&str>,
        _played: &[String],
        _players: Option<&[String; 2]>,
    ) -> Vec<Export> {
        Vec::new()
    }
}

/// `a1`-style name of the square on file `file` and rank `rank`, both from 0.
pub fn square_name(file: usize, rank: usize) -> String {
    let letter = char::from(b'a' + (file % 26) as u8);
    format!("{letter}{}", rank + 1)
}

/// Names every cell of `cells` (rows from the top) from the bottom left, `a1`.
pub fn name_squares(cells: &mut [Vec<Cell>]) {
    let rows = cells.len();
    for (r, row) in cells.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            cell.sq = square_name(c, rows - 1 - r);
        }
    }
}

/// A side's name for sentences: `x` is `X`, `white` is `White`.
pub fn title(name: &str) -> String {
    if name.len() == 1 {
        return name.to_ascii_uppercase();
    }
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A row of a letter position: a letter is a piece, a number or `.` empty squares.
fn letter_row(text: &str) -> Vec<Cell> {
    let mut row = Vec::new();
    let mut run = 0usize;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            run = run * 10 + d as usize;
            continue;
        }
        row.extend(std::iter::repeat_n(Cell::default(), run));
        run = 0;
        if ch == '.' {
            row.push(Cell::default());
        } else {
            row.push(Cell {
                stack: ch.to_ascii_lowercase().to_string(),
                ..Cell::default()
            });
        }
    }
    row.extend(std::iter::repeat_n(Cell::default(), run));
    row
}

/// Everything a board page shows of a position, for any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardInfo {
    /// The board, rows from the top.
    pub cells: Vec<Vec<Cell>>,
    /// The game's names of the two sides, for sentences (`White`, `X`).
    pub sides: [String; 2],
    /// How to enter a move.
    pub how_to_move: &'static str,
    /// Every legal move, taken apart (none when the game is over).
    pub moves: Vec<MovePicture>,
    /// The last move, taken apart.
    pub last: Option<MovePicture>,
    /// How the game ended, when it has.
    pub ending: Option<Ending>,
    /// The outcome, when the game has ended.
    pub outcome: Option<Outcome>,
    /// The game's own result code (Tak's `R-0`).
    pub result_code: Option<String>,
    /// The game's counts per side.
    pub counts: Vec<Count>,
    /// The standing in words.
    pub standing: Option<String>,
    /// The game in its record formats.
    pub exports: Vec<Export>,
    /// The moves played, canonical.
    pub played: Vec<String>,
}

/// The board information of game `G` from `start` (or the standard start) after `moves`.
///
/// # Errors
/// A message naming the bad position or move (`move 3 (b7): ...`).
pub fn board_info<G: GameView>(
    settings: &G::Settings,
    start: Option<&str>,
    moves: &[String],
    players: Option<&[String; 2]>,
) -> Result<BoardInfo, String> {
    let mut now = match start {
        None => G::start(settings),
        Some(text) => G::parse_position(settings, text).map_err(|e| e.to_string())?,
    };
    let mut last = None;
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = now
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        played.push(now.format_move(mv));
        last = Some(now.picture(mv));
        now.make_move(mv);
    }
    let mut legal = Vec::new();
    if now.outcome().is_none() {
        now.generate_moves(&mut legal);
    }
    Ok(BoardInfo {
        cells: now.cells(),
        sides: [G::side_title(Side::First), G::side_title(Side::Second)],
        how_to_move: G::HOW_TO_MOVE,
        moves: legal.into_iter().map(|m| now.picture(m)).collect(),
        last,
        ending: now.ending(),
        outcome: now.outcome(),
        result_code: now.result_detail(),
        counts: now.counts(),
        standing: now.standing(),
        exports: now.exports(start, &played, players),
        played,
    })
}

#[cfg(test)]
mod tests {
    use crate::game::Outcome;
    use crate::games::{board_info, new_game, GameSpec, GAME_NAMES};

    /// Every registered game, with its defaults: a board, its moves taken apart, a
    /// finished game in words, from the game itself.
    #[test]
    fn every_game_presents_a_board_a_move_and_an_ending() {
        for name in GAME_NAMES {
            let spec = GameSpec::parse(name).unwrap();
            let start = board_info(&spec, None, &[], None).unwrap();
            let rows = new_game(&spec, None).unwrap().position();
            let rows = rows.split(' ').next().unwrap().split('/').count();
            assert_eq!(start.cells.len(), rows, "{name}: a row of cells per row");
            assert!(
                start.cells.iter().all(|r| r.len() == start.cells[0].len()),
                "{name}"
            );
            assert_eq!(
                start.cells[rows - 1][0].sq,
                "a1",
                "{name}: a1 at the bottom left"
            );
            assert!(!start.moves.is_empty(), "{name}: moves at the start");
            assert!(start.ending.is_none() && start.outcome.is_none(), "{name}");
            // A seeded game to its end (the first legal move each time, then the last).
            let mut game = new_game(&spec, None).unwrap();
            let mut played = Vec::new();
            while game.outcome().is_none() && played.len() < 5000 {
                let moves = game.legal_moves();
                let mv = if played.len() % 2 == 0 {
                    moves[0].clone()
                } else {
                    moves[moves.len() - 1].clone()
                };
                played.push(game.play(&mv).unwrap());
            }
            let end = board_info(&spec, None, &played, None).unwrap();
            let outcome = end
                .outcome
                .unwrap_or_else(|| panic!("{name}: the game ended"));
            let ending = end.ending.unwrap();
            assert!(!ending.words.is_empty(), "{name}");
            if let Outcome::Win(_) = outcome {
                assert!(ending.words.contains("wins"), "{name}: {}", ending.words);
            }
            let last = end.last.unwrap();
            assert_eq!(
                last.mv,
                *played.last().unwrap(),
                "{name}: the last move's picture"
            );
            assert!(!last.to.is_empty(), "{name}");
            assert!(end.moves.is_empty(), "{name}: no moves after the end");
        }
    }
}
