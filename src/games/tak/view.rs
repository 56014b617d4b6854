//! How Tak presents itself: stacks as cells, placements and spreads taken apart, the
//! road or line that won (from the rules' own bitboards), reserves and the flat count
//! with komi, and the game as TPS and PTN.

use crate::game::{Game, Outcome, Side};
use crate::view::{
    name_squares, title, Cell, Count, Ending, Export, GameView, MovePicture, Pieces, Preset, Style,
};

use super::ptn::{komi_text, PtnGame, PtnMove};
use super::{square_name, stack_text, EndKind, Tak, TakMove, CAP, WALL};

impl Tak {
    /// The square `steps` away from `sq` towards `dir` (0 `+`, 1 `>`, 2 `-`, 3 `<`).
    fn step_from(&self, sq: usize, dir: usize, steps: usize) -> usize {
        (sq as isize + self.geo.offset[dir] * steps as isize) as usize
    }

    /// Flats on top of a stack (the flat count), White then Black.
    pub fn flat_counts(&self) -> [u32; 2] {
        [
            self.flats(Side::First).count_ones(),
            self.flats(Side::Second).count_ones(),
        ]
    }

    /// The squares of `side`'s road, a shortest chain of its flats and capstones joining
    /// two opposite edges (in the line variant its line of four); empty when none.
    pub fn winning_squares(&self, side: Side) -> Vec<usize> {
        let g = self.geo;
        if self.settings.line {
            let flats = self.flats(side);
            return g
                .lines
                .iter()
                .find(|&&line| flats & line == line)
                .map_or_else(Vec::new, |&line| bits(line));
        }
        let road = self.road_pieces(side);
        let mut best: Vec<usize> = Vec::new();
        for (from, to) in [(g.col_first, g.col_last), (g.row_first, g.row_last)] {
            // Breadth-first from one edge, one ring of the rules' flood at a time.
            let mut rings = vec![from & road];
            let mut seen = rings[0];
            while rings.last().is_some_and(|&r| r != 0 && r & to == 0) {
                let grown = self.flood_step(*rings.last().expect("not empty")) & road & !seen;
                seen |= grown;
                rings.push(grown);
            }
            let last = *rings.last().expect("not empty");
            if last & to == 0 {
                continue;
            }
            // Walk back from an end square through the rings.
            let mut at = (last & to).trailing_zeros() as usize;
            let mut path = vec![at];
            for ring in rings.iter().rev().skip(1) {
                let next = self.flood_step(1u64 << at) & ring;
                at = next.trailing_zeros() as usize;
                path.push(at);
            }
            if best.is_empty() || path.len() < best.len() {
                best = path;
            }
        }
        best
    }

    /// The squares next to those of `set` (orthogonally), and `set` itself.
    fn flood_step(&self, set: u64) -> u64 {
        let g = self.geo;
        let n = g.n;
        (set | ((set << 1) & !g.col_first) | ((set >> 1) & !g.col_last) | (set << n) | (set >> n))
            & g.board
    }
}

/// The squares of a bitboard, lowest first.
fn bits(mut set: u64) -> Vec<usize> {
    let mut out = Vec::new();
    while set != 0 {
        out.push(set.trailing_zeros() as usize);
        set &= set - 1;
    }
    out
}

impl GameView for Tak {
    const STYLE: Style = Style {
        checkered: false,
        pieces: Pieces::Stacks,
        kinds: &[("F", "flat"), ("S", "wall"), ("C", "capstone")],
    };

    const PRESETS: &'static [Preset] = &[
        ("tak 5x5", &[("size", 5)]),
        ("tak 6x6", &[("size", 6)]),
        ("tak 4x4 line of four", &[("size", 4), ("line", 1)]),
    ];

    const HOW_TO_MOVE: &'static str = "Click an empty square to place (flat, wall or capstone below); click your stack to pick it up, then click marked squares to drop one stone each (the number is what you still carry). A road edge to edge wins.";

    fn cells(&self) -> Vec<Vec<Cell>> {
        let n = self.size();
        let mut cells: Vec<Vec<Cell>> = (0..n)
            .rev()
            .map(|row| {
                (0..n)
                    .map(|col| {
                        let text = stack_text(self, row * n + col);
                        let (stack, top) = match text.strip_suffix(['S', 'C']) {
                            Some(rest) => (rest.to_string(), text[rest.len()..].to_string()),
                            None => (text, String::new()),
                        };
                        Cell {
                            stack,
                            top,
                            ..Cell::default()
                        }
                    })
                    .collect()
            })
            .collect();
        name_squares(&mut cells);
        cells
    }

    fn picture(&self, mv: TakMove) -> MovePicture {
        let n = self.size();
        let text = self.format_move(mv);
        let sq = mv.square();
        if mv.is_place() {
            return MovePicture {
                mv: text,
                to: vec![square_name(n, sq)],
                kind: Some(match mv.kind() {
                    WALL => "S",
                    CAP => "C",
                    _ => "F",
                }),
                ..MovePicture::default()
            };
        }
        let drops = mv.drops();
        MovePicture {
            mv: text,
            from: Some(square_name(n, sq)),
            to: (1..=drops.len())
                .map(|i| square_name(n, self.step_from(sq, mv.dir(), i)))
                .collect(),
            drops,
            ..MovePicture::default()
        }
    }

    fn ending(&self) -> Option<Ending> {
        let (outcome, kind) = self.finish()?;
        let flats = self.flat_counts();
        let komi = komi_text(self.settings.half_komi);
        let name = |side: Side| title(Tak::side_name(side));
        let (words, squares) = match (outcome, kind) {
            (Outcome::Win(side), EndKind::Road) => {
                let how = if self.settings.line {
                    "a line of four"
                } else {
                    "road"
                };
                (
                    format!("{} wins by {how}", name(side)),
                    self.winning_squares(side),
                )
            }
            (Outcome::Win(side), EndKind::Flats) => (
                format!(
                    "{} wins on flats ({} to {}, komi {komi})",
                    name(side),
                    flats[0],
                    flats[1]
                ),
                Vec::new(),
            ),
            (Outcome::Draw, EndKind::Flats) => (
                format!("Draw on flats ({} to {}, komi {komi})", flats[0], flats[1]),
                Vec::new(),
            ),
            (_, EndKind::Repetition) => (
                "Draw by repetition (the same position a third time)".to_string(),
                Vec::new(),
            ),
            (Outcome::Draw, EndKind::Road) => ("Draw".to_string(), Vec::new()),
        };
        let n = self.size();
        Some(Ending {
            words,
            squares: squares.into_iter().map(|sq| square_name(n, sq)).collect(),
            path: true,
        })
    }

    fn counts(&self) -> Vec<Count> {
        let (w, b) = (self.reserves(Side::First), self.reserves(Side::Second));
        vec![
            Count {
                label: "stones left",
                values: [u32::from(w.0), u32::from(b.0)],
            },
            Count {
                label: "capstones left",
                values: [u32::from(w.1), u32::from(b.1)],
            },
            Count {
                label: "flats on top",
                values: self.flat_counts(),
            },
        ]
    }

    fn standing(&self) -> Option<String> {
        let flats = self.flat_counts();
        let half_komi = self.settings.half_komi;
        let diff = 2 * (i64::from(flats[0]) - i64::from(flats[1])) - i64::from(half_komi);
        let lead = if diff == 0 {
            "even".to_string()
        } else {
            let who = if diff > 0 { "White" } else { "Black" };
            format!("{who} ahead by {}", komi_text(diff.unsigned_abs() as i32))
        };
        Some(format!(
            "White {} - Black {} - komi {}: {lead} (from White's side)",
            flats[0],
            flats[1],
            komi_text(half_komi)
        ))
    }

    fn exports(
        &self,
        start: Option<&str>,
        played: &[String],
        players: Option<&[String; 2]>,
    ) -> Vec<Export> {
        let mut head = vec![("Site".to_string(), "Agon".to_string())];
        if let Some([p1, p2]) = players {
            head.push(("Player1".into(), p1.clone()));
            head.push(("Player2".into(), p2.clone()));
        }
        let ptn = PtnGame {
            settings: self.settings,
            head,
            tail: Vec::new(),
            start: start.map(str::to_string),
            moves: played
                .iter()
                .map(|mv| PtnMove {
                    mv: mv.clone(),
                    comment: None,
                })
                .collect(),
            closing: None,
            result: self.result_detail(),
        };
        vec![
            Export {
                format: "TPS",
                text: self.format_position(),
            },
            Export {
                format: "PTN",
                text: ptn.write(),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(spec: &str, start: Option<&str>, moves: &[&str]) -> Tak {
        let settings = crate::games::GameSpec::parse(spec)
            .unwrap()
            .settings::<Tak>();
        let mut pos = match start {
            Some(tps) => Tak::parse_position(&settings, tps).unwrap(),
            None => Tak::start(&settings),
        };
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn a_road_is_a_shortest_edge_to_edge_chain() {
        // White's flats along rank 5 and a branch down from b5: the road is the rank.
        let pos = after(
            "tak size=5",
            Some("1,1,1,1,x/x,1,x3/x5/x5/2,2,2,2,x 1 8"),
            &["e5"],
        );
        let ending = pos.ending().unwrap();
        assert_eq!(ending.words, "White wins by road");
        let mut road = ending.squares.clone();
        road.sort();
        assert_eq!(road, ["a5", "b5", "c5", "d5", "e5"]);
    }

    #[test]
    fn spreads_are_taken_apart_into_landing_squares() {
        let pos = after("tak size=5", Some("x5/x5/x5/x5/2S,11C,x3 1 5"), &[]);
        let mv = pos.parse_move("2b1>11").unwrap();
        let p = pos.picture(mv);
        assert_eq!(p.from.as_deref(), Some("b1"));
        assert_eq!(p.to, ["c1", "d1"]);
        assert_eq!(p.drops, [1, 1]);
        let cells = pos.cells();
        assert_eq!(cells[4][0].sq, "a1");
        assert_eq!((cells[4][0].stack.as_str(), cells[4][0].top.as_str()), ("2", "S"));
        assert_eq!((cells[4][1].stack.as_str(), cells[4][1].top.as_str()), ("11", "C"));
    }

    #[test]
    fn the_line_variant_shows_its_line() {
        let pos = after(
            "tak4line",
            Some("1,1,1,x/2,2,2,x/x4/x4 1 4"),
            &["d4"],
        );
        let ending = pos.ending().unwrap();
        assert_eq!(ending.words, "White wins by a line of four");
        assert_eq!(ending.squares, ["a4", "b4", "c4", "d4"]);
    }
}
