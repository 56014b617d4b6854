//! How an m,n,k game presents itself: the default board, and the k in a row that won.

use crate::game::{Game, Outcome};
use crate::view::{title, Ending, GameView, Pieces, Preset, Style};

use super::Mnk;

impl GameView for Mnk {
    const STYLE: Style = Style {
        checkered: true,
        pieces: Pieces::Letters,
        kinds: &[],
    };

    const PRESETS: &'static [Preset] = &[
        ("tictactoe", &[("m", 3), ("n", 3), ("k", 3)]),
        ("mnk 5x5 k=4", &[("m", 5), ("n", 5), ("k", 4)]),
        ("gomoku 15x15", &[("m", 15), ("n", 15), ("k", 5)]),
    ];

    const HOW_TO_MOVE: &'static str =
        "Click an empty square to place your stone; k in a row (across, down or diagonal) wins.";

    fn ending(&self) -> Option<Ending> {
        let k = self.settings.k;
        let m = self.settings.m;
        Some(match self.outcome? {
            Outcome::Draw => Ending {
                words: "Draw: the board is full".into(),
                squares: Vec::new(),
                path: false,
            },
            Outcome::Win(side) => {
                let code = Mnk::code(side);
                // The winning window (under the exact rule, not a piece of an overline).
                let line = self
                    .geometry
                    .windows
                    .chunks_exact(k)
                    .enumerate()
                    .find(|&(w, cells)| {
                        cells.iter().all(|&c| self.cells[c as usize] == code)
                            && !self.overline(w, code)
                    })
                    .map_or(&[][..], |(_, cells)| cells);
                Ending {
                    words: format!("{} wins with {k} in a row", title(Mnk::side_name(side))),
                    squares: line
                        .iter()
                        .map(|&c| crate::view::square_name(c as usize % m, c as usize / m))
                        .collect(),
                    path: true,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameSpec;

    #[test]
    fn the_winning_line_is_named() {
        let s = GameSpec::parse("tictactoe").unwrap().settings::<Mnk>();
        let mut pos = Mnk::start(&s);
        for m in ["a1", "b1", "b2", "c1", "c3"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let e = pos.ending().unwrap();
        assert_eq!(e.words, "X wins with 3 in a row");
        let mut line = e.squares.clone();
        line.sort();
        assert_eq!(line, ["a1", "b2", "c3"]);
        assert_eq!(Mnk::start(&s).ending(), None);
    }
}
