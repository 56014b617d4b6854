//! Domineering (Göran Andersson, 1973; Berlekamp, Conway and Guy, "Winning Ways"): on
//! a rectangle of squares the first player (Vertical) places dominoes upright, the second
//! (Horizontal) flat; who cannot place a domino loses.
//!
//! This game exists to prove a rule of the house: a game is one folder under
//! `src/games/` and one line in the registry. It is compiled only with the
//! `sixth-game` feature, and it implements nothing of [`GameView`] beyond the defaults:
//! the web board, the records and the referee show it without knowing it.
//!
//! Notation: a domino is its two squares, lower or left first (`b2-b3` upright, `b2-c2`
//! flat). Position: rows from the top, `x` a square covered by an upright domino, `o`
//! by a flat one, digits for runs of empty squares, then the side to move (`x` or `o`):
//! the empty 4x4 board is `4/4/4/4 x`.

use crate::game::{Game, MoveError, Outcome, ParamSpec, PositionError, Side};
use crate::view::GameView;

/// Board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomineeringSettings {
    /// Rows, 2 to 8.
    pub rows: usize,
    /// Columns, 2 to 8.
    pub cols: usize,
}

/// A domino: its lower or left square (`row * cols + col`, row 0 at the bottom); the
/// side to move decides its direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Domino(u8);

/// A Domineering position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domineering {
    settings: DomineeringSettings,
    /// Squares covered by upright (bit set in `upright`) or flat dominoes.
    upright: u64,
    flat: u64,
    to_move: Side,
}

/// The one heuristic: own moves minus the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomineeringHeuristic {
    /// Mobility, 100 a move.
    Mobility,
}

const KEYS: [u64; 129] = crate::zobrist::keys(0xD0_311E_E121);

impl Domineering {
    fn covered(&self) -> u64 {
        self.upright | self.flat
    }

    /// The second square of a domino of `side` on `sq`, when it is on the board.
    fn partner(&self, side: Side, sq: usize) -> Option<usize> {
        let DomineeringSettings { rows, cols } = self.settings;
        match side {
            Side::First => (sq / cols + 1 < rows).then_some(sq + cols),
            Side::Second => (sq % cols + 1 < cols).then_some(sq + 1),
        }
    }

    fn moves_of(&self, side: Side) -> impl Iterator<Item = Domino> + '_ {
        let squares = self.settings.rows * self.settings.cols;
        let covered = self.covered();
        (0..squares).filter_map(move |sq| {
            let other = self.partner(side, sq)?;
            (covered & (1 << sq | 1 << other) == 0).then_some(Domino(sq as u8))
        })
    }

    fn square_name(&self, sq: usize) -> String {
        let cols = self.settings.cols;
        crate::view::square_name(sq % cols, sq / cols)
    }

    fn square_of(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let file = chars.next()?;
        let rank: usize = chars.as_str().parse().ok()?;
        let col = (file as usize).checked_sub('a' as usize)?;
        let DomineeringSettings { rows, cols } = self.settings;
        (col < cols && (1..=rows).contains(&rank)).then(|| (rank - 1) * cols + col)
    }
}

impl Game for Domineering {
    type Move = Domino;
    type Undo = ();
    type Settings = DomineeringSettings;
    type Heuristic = DomineeringHeuristic;

    const NAME: &'static str = "domineering";

    fn params() -> &'static [ParamSpec] {
        &[
            ParamSpec {
                name: "rows",
                min: 2,
                max: 8,
                default: 4,
                doc: "rows of the board",
                quiet_default: false,
            },
            ParamSpec {
                name: "cols",
                min: 2,
                max: 8,
                default: 4,
                doc: "columns of the board",
                quiet_default: false,
            },
        ]
    }

    fn settings(values: &[i64]) -> Result<DomineeringSettings, String> {
        Ok(DomineeringSettings {
            rows: values[0] as usize,
            cols: values[1] as usize,
        })
    }

    fn param_values(s: &DomineeringSettings) -> Vec<i64> {
        vec![s.rows as i64, s.cols as i64]
    }

    fn start(settings: &DomineeringSettings) -> Domineering {
        Domineering {
            settings: *settings,
            upright: 0,
            flat: 0,
            to_move: Side::First,
        }
    }

    fn settings_of(&self) -> &DomineeringSettings {
        &self.settings
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "vertical",
            Side::Second => "horizontal",
        }
    }

    fn generate_moves(&self, out: &mut Vec<Domino>) {
        out.extend(self.moves_of(self.to_move));
    }

    fn make_move(&mut self, mv: Domino) {
        let sq = usize::from(mv.0);
        let other = self.partner(self.to_move, sq).expect("a legal domino");
        let bits = 1u64 << sq | 1 << other;
        match self.to_move {
            Side::First => self.upright |= bits,
            Side::Second => self.flat |= bits,
        }
        self.to_move = self.to_move.other();
    }

    fn unmake_move(&mut self, mv: Domino, _undo: ()) {
        self.to_move = self.to_move.other();
        let sq = usize::from(mv.0);
        let other = self.partner(self.to_move, sq).expect("a legal domino");
        let bits = 1u64 << sq | 1 << other;
        match self.to_move {
            Side::First => self.upright &= !bits,
            Side::Second => self.flat &= !bits,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        // Who cannot move loses: there are no draws.
        self.moves_of(self.to_move)
            .next()
            .is_none()
            .then(|| Outcome::Win(self.to_move.other()))
    }

    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.to_move == Side::Second {
            KEYS[128]
        } else {
            0
        };
        for sq in 0..64 {
            if self.upright >> sq & 1 == 1 {
                h ^= KEYS[sq];
            }
            if self.flat >> sq & 1 == 1 {
                h ^= KEYS[64 + sq];
            }
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<Domino, MoveError> {
        let (a, b) = text
            .split_once('-')
            .ok_or_else(|| MoveError::syntax(text, "a domino is two squares, as b2-b3"))?;
        let (Some(a), Some(b)) = (self.square_of(a), self.square_of(b)) else {
            return Err(MoveError::syntax(text, "a square is not on the board"));
        };
        let side = self.to_move;
        let (low, high) = (a.min(b), a.max(b));
        if self.partner(side, low) != Some(high) {
            let shape = match side {
                Side::First => "upright (one above the other)",
                Side::Second => "flat (side by side)",
            };
            return Err(MoveError::illegal(
                text,
                format!("{} places its dominoes {shape}", Self::side_name(side)),
            ));
        }
        if self.covered() & (1 << low | 1 << high) != 0 {
            return Err(MoveError::illegal(text, "a square is already covered"));
        }
        Ok(Domino(low as u8))
    }

    fn format_move(&self, mv: Domino) -> String {
        let sq = usize::from(mv.0);
        let other = self.partner(self.to_move, sq).expect("a legal domino");
        format!("{}-{}", self.square_name(sq), self.square_name(other))
    }

    fn parse_position(settings: &DomineeringSettings, text: &str) -> Result<Self, PositionError> {
        let mut pos = Domineering::start(settings);
        let (board, side) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| PositionError::new(text, "expected the board and the side to move"))?;
        pos.to_move = match side.trim() {
            "x" => Side::First,
            "o" => Side::Second,
            other => {
                return Err(PositionError::new(
                    text,
                    format!("side to move '{other}': use x or o"),
                ))
            }
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != settings.rows {
            return Err(PositionError::new(
                text,
                format!("{} rows, the board has {}", rows.len(), settings.rows),
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = settings.rows - 1 - i;
            let mut col = 0;
            for ch in row.chars() {
                match ch {
                    '1'..='8' => col += ch as usize - '0' as usize,
                    'x' | 'o' if col >= settings.cols => {
                        return Err(PositionError::new(
                            text,
                            format!("row {} has more than {} squares", rank + 1, settings.cols),
                        ))
                    }
                    'x' | 'o' => {
                        let bit = 1u64 << (rank * settings.cols + col);
                        if ch == 'x' {
                            pos.upright |= bit;
                        } else {
                            pos.flat |= bit;
                        }
                        col += 1;
                    }
                    _ => {
                        return Err(PositionError::new(
                            text,
                            format!("row {}: '{ch}' is not x, o or a count", rank + 1),
                        ))
                    }
                }
            }
            if col != settings.cols {
                return Err(PositionError::new(
                    text,
                    format!("row {} has {col} squares, not {}", rank + 1, settings.cols),
                ));
            }
        }
        Ok(pos)
    }

    fn format_position(&self) -> String {
        let DomineeringSettings { rows, cols } = self.settings;
        let mut out = String::new();
        for rank in (0..rows).rev() {
            let mut empty = 0;
            for col in 0..cols {
                let bit = 1u64 << (rank * cols + col);
                let letter = if self.upright & bit != 0 {
                    'x'
                } else if self.flat & bit != 0 {
                    'o'
                } else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(letter);
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.to_move == Side::First { 'x' } else { 'o' });
        out
    }

    fn render(&self) -> Vec<String> {
        let DomineeringSettings { rows, cols } = self.settings;
        (0..rows)
            .rev()
            .map(|rank| {
                let row: String = (0..cols)
                    .map(|col| {
                        let bit = 1u64 << (rank * cols + col);
                        if self.upright & bit != 0 {
                            'x'
                        } else if self.flat & bit != 0 {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .collect();
                format!("{} {row}", rank + 1)
            })
            .collect()
    }

    fn heuristics() -> &'static [(&'static str, DomineeringHeuristic)] {
        &[("mobility", DomineeringHeuristic::Mobility)]
    }

    fn evaluate(&self, _heuristic: DomineeringHeuristic) -> i32 {
        let mine = self.moves_of(self.to_move).count() as i32;
        let theirs = self.moves_of(self.to_move.other()).count() as i32;
        100 * (mine - theirs)
    }
}

impl GameView for Domineering {}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(rows: usize, cols: usize) -> Domineering {
        Domineering::start(&DomineeringSettings { rows, cols })
    }

    #[test]
    fn an_empty_board_has_the_counted_moves() {
        // Upright dominoes: (rows - 1) * cols places; flat: rows * (cols - 1).
        let pos = start(4, 5);
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert_eq!(moves.len(), 3 * 5);
        assert_eq!(pos.moves_of(Side::Second).count(), 4 * 4);
    }

    #[test]
    fn two_by_two_is_won_by_who_moves_first() {
        // After one upright domino on 2x2 no flat one fits: Horizontal cannot move.
        let mut pos = start(2, 2);
        let mv = pos.parse_move("a1-a2").unwrap();
        pos.make_move(mv);
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::First)));
        assert!(pos.parse_move("a1-b1").is_err());
        let mut flat = Vec::new();
        pos.generate_moves(&mut flat);
        assert!(flat.is_empty());
    }

    #[test]
    fn position_strings_round_trip() {
        let mut pos = start(3, 4);
        for m in ["b1-b2", "c3-d3"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let text = pos.format_position();
        assert_eq!(text, "2oo/1x2/1x2 x");
        let back = Domineering::parse_position(&pos.settings, &text).unwrap();
        assert_eq!(back, pos);
        assert!(Domineering::parse_position(&pos.settings, "4/4/4 x").is_err());
    }
}
