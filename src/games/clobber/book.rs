//! The Clobber 5x6 opening book: positions after two plies from the start, proved
//! offline by the region solver.
//!
//! At 28 stones the solver needs from a second to minutes a position (median 10 s;
//! `scripts/clobber-book.py`), far more than a move's share, and most of the positions
//! it proves are won for the first player (412 of the 595 proved so far). The move
//! played there decides whether the win is kept, and the search alone often throws it
//! away: after three plies, the positions of games against OpenSpiel's MCTS were won
//! for the *second* player in 173 of 225 proved (`tests/data/clobber-5x6-positions.txt`).
//! The book (`book-5x6.txt`, made by that script) holds the proofs: a won position with
//! a winning move, a lost one, or one not proved in time.
//! [`RegionProver`](super::solve::RegionProver) looks a position up before it solves;
//! so the book is used wherever the solver is (a search with a time limit), and not by a
//! search to a fixed depth or node count.
//!
//! A line is `MOVE MOVE | win MOVE`, `| loss` or `| unknown`. The positions are taken up
//! to the board's one colour-keeping symmetry (rows reversed), so each line also
//! stands for its mirror image.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{Clobber, ClobberMove, ClobberSettings};
use crate::game::Game;

/// The book's text, compiled in.
const BOOK_5X6: &str = include_str!("book-5x6.txt");

/// Rows and columns of the book's board.
const ROWS: usize = 5;
const COLS: usize = 6;

/// What the book proved about a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookResult {
    /// The side to move wins by this move.
    Win(ClobberMove),
    /// The side to move loses whatever it plays.
    Loss,
}

/// The book's entry for `pos`, if it has one.
pub fn lookup(pos: &Clobber) -> Option<BookResult> {
    let settings = pos.settings_of();
    if settings.rows() != ROWS || settings.cols() != COLS {
        return None;
    }
    let stones =
        pos.stone_count(crate::game::Side::First) + pos.stone_count(crate::game::Side::Second);
    if stones != ROWS * COLS - 2 {
        return None;
    }
    book().get(&pos.format_position()).copied()
}

/// Position string -> result, both mirror images of every proved line.
fn book() -> &'static HashMap<String, BookResult> {
    static BOOK: OnceLock<HashMap<String, BookResult>> = OnceLock::new();
    BOOK.get_or_init(|| {
        parse(BOOK_5X6).unwrap_or_else(|e| panic!("src/games/clobber/book-5x6.txt: {e}"))
    })
}

/// The book's entries from its text, or the first bad line's number and what is wrong.
pub(super) fn parse(text: &str) -> Result<HashMap<String, BookResult>, String> {
    let settings = ClobberSettings::new(ROWS, COLS)?;
    let start = Clobber::start(&settings);
    let mut out = HashMap::new();
    for (number, line) in text.lines().enumerate() {
        let number = number + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| format!("line {number}: {what}: {line:?}");
        let (moves, result) = line.split_once('|').ok_or_else(|| bad("no '|'"))?;
        let moves: Vec<&str> = moves.split_whitespace().collect();
        if moves.len() != 2 {
            return Err(bad("not two moves"));
        }
        let result: Vec<&str> = result.split_whitespace().collect();
        let winning = match result.as_slice() {
            ["win", mv] => Some(*mv),
            ["loss"] => None,
            ["unknown"] => continue,
            _ => return Err(bad("the result is not `win MOVE`, `loss` or `unknown`")),
        };
        let mut images = Vec::with_capacity(2);
        for mirrored in [false, true] {
            let turn = |text: &str| {
                if mirrored {
                    mirror(text)
                } else {
                    Some(text.to_string())
                }
            };
            let mut pos = start.clone();
            for &text in &moves {
                let text = turn(text).ok_or_else(|| bad("a move that is not two squares"))?;
                let mv = pos.parse_move(&text).map_err(|e| bad(&e.to_string()))?;
                pos.make_move(mv);
            }
            let entry = match winning {
                Some(text) => {
                    let text = turn(text).ok_or_else(|| bad("a move that is not two squares"))?;
                    BookResult::Win(pos.parse_move(&text).map_err(|e| bad(&e.to_string()))?)
                }
                None => BookResult::Loss,
            };
            images.push((pos.format_position(), entry));
        }
        // A position that is its own mirror image is one entry.
        images.dedup_by(|a, b| a.0 == b.0);
        for (key, entry) in images {
            if out.insert(key, entry).is_some() {
                return Err(bad("a position already in the book"));
            }
        }
    }
    Ok(out)
}

/// `text` (a move, `a1-a2`) with the rows reversed, `a5-a4`; `None` if it is not two
/// squares of the book's board.
fn mirror(text: &str) -> Option<String> {
    let squares: Vec<&str> = text.split('-').collect();
    if squares.len() != 2 {
        return None;
    }
    let mut out = Vec::with_capacity(2);
    for square in squares {
        let (col, row) = square.split_at(1);
        let row: usize = row.parse().ok().filter(|r| (1..=ROWS).contains(r))?;
        out.push(format!("{col}{}", ROWS + 1 - row));
    }
    Some(out.join("-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Clobber {
        let mut pos = Clobber::start(&ClobberSettings::new(ROWS, COLS).unwrap());
        for text in moves {
            let mv = pos.parse_move(text).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn mirror_reverses_the_rows() {
        assert_eq!(mirror("a1-a2").as_deref(), Some("a5-a4"));
        assert_eq!(mirror("c3-d3").as_deref(), Some("c3-d3"));
        assert_eq!(mirror("f5-e5").as_deref(), Some("f1-e1"));
        assert_eq!(mirror("a6-a5"), None);
        assert_eq!(mirror("a1"), None);
    }

    #[test]
    fn a_line_stands_for_its_mirror_image() {
        // The 5x6 start is the same with its rows reversed (a1 and a5 are both white).
        let book =
            parse("b2-b3 e4-f4 | win c1-d1\nb4-a4 e2-d2 | loss\nc1-c2 d1-d2 | unknown\n").unwrap();
        assert_eq!(book.len(), 4);
        let pos = after(&["b4-b3", "e2-f2"]);
        let want = pos.parse_move("c5-d5").unwrap();
        assert_eq!(
            book.get(&pos.format_position()),
            Some(&BookResult::Win(want))
        );
        let pos = after(&["b2-a2", "e4-d4"]);
        assert_eq!(book.get(&pos.format_position()), Some(&BookResult::Loss));
        // Unknown lines are not entries.
        assert!(!book.contains_key(&after(&["c1-c2", "d1-d2"]).format_position()));
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for (text, want) in [
            ("a1-a2 b1-c1 win a3-a4\n", "line 1: no '|'"),
            ("# c\na1-a2 | loss\n", "line 2: not two moves"),
            ("a1-a2 b1-c1 | won a3-a4\n", "line 1: the result is not"),
            ("a1-a3 b1-c1 | loss\n", "line 1:"),
            ("a1-a2 b1-c1 | win a1-a2\n", "line 1:"),
            (
                "a1-a2 b1-c1 | loss\na1-a2 b1-c1 | loss\n",
                "line 2: a position already",
            ),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.starts_with(want), "{text:?}: {err}");
        }
    }

    #[test]
    fn the_compiled_book_is_well_formed_and_its_moves_legal() {
        // Every line parses, every winning move is legal where it is named (parse_move
        // checks it), and only positions of 28 stones with the first player to move are
        // looked up.
        let book = parse(BOOK_5X6).unwrap();
        for text in book.keys() {
            assert!(text.ends_with(" w"), "{text}");
            assert_eq!(text.matches(['w', 'b']).count() - 1, 28, "{text}");
        }
        assert_eq!(lookup(&after(&[])), None);
    }
}
