//! How Halma presents itself: the camps on the board, jump chains taken apart into the
//! squares they land on (found on the rules' own jump table), and the filled camp that
//! won.

use crate::game::{Game, Outcome, Side};
use crate::view::{square_name, Cell, Ending, GameView, MovePicture, Preset};

use super::{camp_squares, Halma, HalmaMove, NONE};

impl Halma {
    /// The squares a jump chain from `from` to `to` lands on in between, shortest first
    /// found; `None` when `to` is a step or no chain of jumps reaches it.
    fn hops(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let geo = self.geo;
        if (0..8).any(|d| usize::from(geo.step[from][d]) == to) {
            return None;
        }
        // The moving piece has left `from`: it is empty for the chain.
        let empty = |sq: usize| sq == from || self.cells[sq] == 0;
        let mut parent = vec![usize::MAX; geo.n * geo.n];
        parent[from] = from;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(sq) = queue.pop_front() {
            if sq == to {
                let mut path = Vec::new();
                let mut at = parent[to];
                while at != from {
                    path.push(at);
                    at = parent[at];
                }
                path.reverse();
                return Some(path);
            }
            for d in 0..8 {
                let (mid, land) = (geo.step[sq][d], geo.jump[sq][d]);
                if land == NONE {
                    continue;
                }
                let (mid, land) = (usize::from(mid), usize::from(land));
                if !empty(mid) && empty(land) && parent[land] == usize::MAX {
                    parent[land] = sq;
                    queue.push_back(land);
                }
            }
        }
        None
    }

    fn square_text(&self, sq: usize) -> String {
        let n = self.geo.n;
        square_name(sq % n, sq / n)
    }
}

impl GameView for Halma {
    const PRESETS: &'static [Preset] = &[("halma 16x16", &[("size", 16)]), ("halma 8x8", &[("size", 8)])];

    const HOW_TO_MOVE: &'static str = "Drag (or click) a piece to a marked square: a step to any neighbour, or a chain of jumps over pieces; fill the far camp to win.";

    fn side_title(side: Side) -> String {
        match side {
            Side::First => "White".into(),
            Side::Second => "Black".into(),
        }
    }

    fn cells(&self) -> Vec<Vec<Cell>> {
        let n = self.geo.n;
        let mut cells: Vec<Vec<Cell>> = (0..n)
            .rev()
            .map(|rank| {
                (0..n)
                    .map(|file| Cell {
                        sq: square_name(file, rank),
                        stack: match self.cells[rank * n + file] {
                            1 => "w".into(),
                            2 => "b".into(),
                            _ => String::new(),
                        },
                        ..Cell::default()
                    })
                    .collect()
            })
            .collect();
        for side in [Side::First, Side::Second] {
            for (file, rank) in camp_squares(n, side) {
                cells[n - 1 - rank][file].camp = Some(side);
            }
        }
        cells
    }

    fn picture(&self, mv: HalmaMove) -> MovePicture {
        let mut picture = MovePicture::from_notation(self.format_move(mv));
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        if let Some(hops) = self.hops(from, to) {
            picture.hops = hops.iter().map(|&sq| self.square_text(sq)).collect();
        }
        picture
    }

    fn ending(&self) -> Option<Ending> {
        let s = self.settings;
        Some(match self.outcome? {
            Outcome::Win(side) => Ending {
                words: format!(
                    "{} wins by filling {}'s camp",
                    Self::side_title(side),
                    Self::side_title(side.other())
                ),
                squares: camp_squares(s.size, side.other())
                    .into_iter()
                    .map(|(file, rank)| square_name(file, rank))
                    .collect(),
                path: false,
            },
            Outcome::Draw if self.ply >= s.limit => Ending {
                words: format!("Draw: the limit of {} plies was reached", s.limit),
                squares: Vec::new(),
                path: false,
            },
            Outcome::Draw => Ending {
                words: "Draw (the same position a third time, or no legal move)".into(),
                squares: Vec::new(),
                path: false,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameSpec;

    #[test]
    fn camps_and_a_jump_chain() {
        let s = GameSpec::parse("halma size=8").unwrap().settings::<Halma>();
        let pos = Halma::start(&s);
        let cells = pos.cells();
        let camp = |side| cells.iter().flatten().filter(|c| c.camp == Some(side)).count();
        assert_eq!((camp(Side::First), camp(Side::Second)), (10, 10));
        assert_eq!(cells[7][0].sq, "a1");
        assert_eq!(cells[7][0].stack, "w");
        // Every legal jump chain's drawn path is accepted by the rules as that move.
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut chains = 0;
        for mv in moves {
            let p = pos.picture(mv);
            if pos.hops(usize::from(mv.from), usize::from(mv.to)).is_none() {
                assert!(p.hops.is_empty());
                continue;
            }
            chains += 1;
            let mut path = vec![p.from.clone().unwrap()];
            path.extend(p.hops.iter().cloned());
            path.push(p.to[0].clone());
            assert_eq!(pos.parse_move(&path.join("-")).unwrap(), mv, "{path:?}");
        }
        assert!(chains > 0, "the start has jumps");
    }
}
