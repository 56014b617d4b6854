//! What the web page draws: a board as rows of cells, as the game itself gives them
//! ([`agon::view::GameView::cells`]), so the page never parses a game's notation.

use agon::game::Side;
use agon::games::AnyGame;
use agon::games::GameSpec;
use serde::Serialize;

/// One square.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// Its name in the game's notation (`b2`).
    pub sq: String,
    /// The pieces from the bottom, one letter each (`x`, `o`, `w`, `b`; Tak `1`, `2`);
    /// empty for an empty square.
    pub stack: String,
    /// The top piece's kind when it is not a plain piece (Tak `S` wall, `C` capstone).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub top: String,
    /// The seat whose home zone holds this square (Halma's camps: `p1`, `p2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub camp: Option<&'static str>,
}

/// A position as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// The game's name (`mnk`, `clobber`, `halma`, `tak`).
    pub game: &'static str,
    /// The canonical spec.
    pub spec: String,
    /// The position string.
    pub position: String,
    /// Rows from the top of the board.
    pub cells: Vec<Vec<Cell>>,
    /// The side to move's letter in the position string (`x`, `w`, `1`...).
    pub to_move: String,
    /// `p1` or `p2`.
    pub to_move_seat: &'static str,
    /// The game's names of the two sides.
    pub sides: [&'static str; 2],
    /// `p1win`, `p2win`, `draw`, or `None` while the game goes on.
    pub outcome: Option<&'static str>,
    /// The game's own result code (Tak's `R-0`...).
    pub result_detail: Option<String>,
    /// The legal moves, canonical (empty when the game is over).
    pub legal: Vec<String>,
}

/// The view of `game`.
pub fn board_view(game: &dyn AnyGame) -> BoardView {
    let spec = game.spec();
    let position = game.position();
    let outcome = game.outcome();
    let cells: Vec<Vec<Cell>> = game
        .cells()
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|c| Cell {
                    sq: c.sq,
                    stack: c.stack,
                    top: c.top,
                    camp: c.camp.map(|side| crate::record::Seat::of(side).name()),
                })
                .collect()
        })
        .collect();
    let side = game.side_to_move();
    BoardView {
        game: spec.name,
        spec: spec.to_string(),
        to_move: position.split(' ').nth(1).unwrap_or("").to_string(),
        to_move_seat: crate::record::Seat::of(side).name(),
        sides: [game.side_name(Side::First), game.side_name(Side::Second)],
        outcome: outcome.map(|o| o.protocol_name()),
        result_detail: game.result_detail(),
        legal: if outcome.is_some() {
            Vec::new()
        } else {
            game.legal_moves()
        },
        cells,
        position,
    }
}

/// The view of the position `position` (or the start) of `spec` after `moves`.
///
/// # Errors
/// A message naming the bad position or move.
pub fn replay(
    spec: &GameSpec,
    position: Option<&str>,
    moves: &[String],
) -> Result<Box<dyn AnyGame>, String> {
    let mut game = agon::games::new_game(spec, position).map_err(|e| e.to_string())?;
    for (i, m) in moves.iter().enumerate() {
        game.play(m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(spec: &str, position: Option<&str>, moves: &[&str]) -> BoardView {
        let spec = GameSpec::parse(spec).unwrap();
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        board_view(replay(&spec, position, &moves).unwrap().as_ref())
    }

    #[test]
    fn tictactoe_squares_are_named_from_the_bottom_left() {
        let v = view("tictactoe", None, &["b2", "a1"]);
        assert_eq!(v.cells.len(), 3);
        assert_eq!(v.cells[2][0].sq, "a1");
        assert_eq!(v.cells[2][0].stack, "o");
        assert_eq!(v.cells[1][1].sq, "b2");
        assert_eq!(v.cells[1][1].stack, "x");
        assert_eq!(v.cells[0][2].sq, "c3");
        assert_eq!(v.legal.len(), 7);
        assert_eq!(v.to_move_seat, "p1");
    }

    #[test]
    fn wide_boards_read_multi_digit_runs() {
        let v = view("mnk m=15 n=15 k=5", None, &["h8"]);
        assert!(v.cells.iter().all(|r| r.len() == 15));
        assert_eq!(v.cells[7][7].stack, "x");
        assert_eq!(v.cells[7][7].sq, "h8");
    }

    #[test]
    fn halma_16_marks_two_camps_of_19() {
        let v = view("halma size=16", None, &[]);
        let count = |seat| {
            v.cells
                .iter()
                .flatten()
                .filter(|c| c.camp == Some(seat))
                .count()
        };
        assert_eq!((count("p1"), count("p2")), (19, 19));
        // Every camp square holds its owner's piece at the start.
        for c in v.cells.iter().flatten() {
            match c.camp {
                Some("p1") => assert_eq!(c.stack, "w", "{}", c.sq),
                Some("p2") => assert_eq!(c.stack, "b", "{}", c.sq),
                _ => assert!(c.stack.is_empty(), "{}", c.sq),
            }
        }
        assert_eq!(v.cells[15][0].camp, Some("p1"));
        assert_eq!(v.cells[15][0].sq, "a1");
    }

    #[test]
    fn tak_stacks_keep_their_order_and_top() {
        // The protocol.md example: a capstone flattening a wall.
        let v = view("tak size=5", Some("x5/x5/x5/x5/2S,11C,x3 1 5"), &["b1<*"]);
        assert_eq!(v.cells[4][0].sq, "a1");
        assert_eq!(v.cells[4][0].stack, "21");
        assert_eq!(v.cells[4][0].top, "C");
        assert_eq!(v.cells[4][1].stack, "1");
        assert_eq!(v.cells[4][1].top, "");
        assert!(v.cells[0].iter().all(|c| c.stack.is_empty()));
    }
}
