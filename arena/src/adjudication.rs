//! Score-based adjudication as fastchess and cutechess-cli offer it (`-draw`, `-resign`),
//! from the scores the engines report in their `info` lines (each from the mover's view).
//!
//! - **Draw** (`-draw movenumber=N movecount=M score=S`): once the game has reached move
//!   `N` (ply `2N`, opening included), when the last `2M` searched moves (`M` of each
//!   side) all reported a score within `S` centi-units of 0, the game is a draw.
//! - **Resign** (`-resign movecount=M score=S [twosided=true]`): when a side's last `M`
//!   moves all reported a score of `-S` or worse (a proven loss counts), it loses. With
//!   `twosided=true` both engines must agree: the last `2M` moves have one side at `-S`
//!   or worse and the other at `+S` or better.
//!
//! A move without a reported score breaks a streak, as it does in fastchess
//! (`Disservin/fastchess:app/src/matchmaking/match/match.cpp`, `DrawTracker` and
//! `ResignTracker`). Book moves carry no score and are skipped.

use serde::{Deserialize, Serialize};

use crate::record::{MoveRecord, ScoreRecord, Seat};

/// `-draw`: a draw when both engines see an even game for long enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// The first move number at which a draw may be adjudicated.
    pub move_number: u32,
    /// Consecutive moves of each side within the threshold.
    pub move_count: u32,
    /// The threshold, centi-units.
    pub score: i32,
}

/// `-resign`: a loss for a side whose engine sees itself lost for long enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Consecutive moves at or below `-score`.
    pub move_count: u32,
    /// The threshold, centi-units.
    pub score: i32,
    /// Both engines must agree.
    pub two_sided: bool,
}

/// The score-based rules in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// `-draw`, if given.
    pub draw: Option<DrawRule>,
    /// `-resign`, if given.
    pub resign: Option<ResignRule>,
}

/// What a rule decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A draw, with the details in words.
    Draw(String),
    /// The seat that loses, with the details in words.
    Resign(Seat, String),
}

/// A score as centi-units from the mover's view; proven results count as beyond any
/// threshold.
fn cp(score: ScoreRecord) -> i64 {
    match score {
        ScoreRecord::Cp(v) => i64::from(v),
        ScoreRecord::Win(_) => i64::from(i32::MAX),
        ScoreRecord::Loss(_) => -i64::from(i32::MAX),
    }
}

fn words(kind: &str, text: &[String]) -> Result<Vec<(String, String)>, String> {
    text.iter()
        .flat_map(|w| w.split_whitespace())
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("{kind}: '{w}' is not KEY=VALUE"))
        })
        .collect()
}

fn number<T: std::str::FromStr>(kind: &str, key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{kind}: {key}='{value}' is not a whole number"))
}

impl DrawRule {
    /// Parses `movenumber=N movecount=M score=S` (fastchess's `-draw`).
    ///
    /// # Errors
    /// A message naming the bad or missing key.
    pub fn parse(text: &[String]) -> Result<DrawRule, String> {
        let (mut n, mut m, mut s) = (None, None, None);
        for (k, v) in words("--draw", text)? {
            match k.as_str() {
                "movenumber" => n = Some(number("--draw", &k, &v)?),
                "movecount" => m = Some(number("--draw", &k, &v)?),
                "score" => s = Some(number::<i32>("--draw", &k, &v)?.abs()),
                _ => {
                    return Err(format!(
                        "--draw: unknown key '{k}' (movenumber, movecount, score)"
                    ))
                }
            }
        }
        match (m, s) {
            (Some(move_count), Some(score)) if move_count > 0 => Ok(DrawRule {
                move_number: n.unwrap_or(0),
                move_count,
                score,
            }),
            _ => Err(
                "--draw needs movecount=M (at least 1) and score=CP, and takes movenumber=N".into(),
            ),
        }
    }

    fn check(&self, moves: &[MoveRecord]) -> Option<String> {
        let plies = moves.len() as u32;
        if plies < 2 * self.move_number {
            return None;
        }
        let need = 2 * self.move_count as usize;
        let searched: Vec<&MoveRecord> = moves.iter().rev().take(need).collect();
        if searched.len() < need {
            return None;
        }
        let even = searched.iter().all(|m| {
            !m.book
                && m.score
                    .is_some_and(|s| cp(s).abs() <= i64::from(self.score))
        });
        even.then(|| {
            format!(
                "both engines scored within {} cp for {} moves each, from move {}",
                self.score, self.move_count, self.move_number
            )
        })
    }
}

impl ResignRule {
    /// Parses `movecount=M score=S [twosided=true|false]` (fastchess's `-resign`).
    ///
    /// # Errors
    /// A message naming the bad or missing key.
    pub fn parse(text: &[String]) -> Result<ResignRule, String> {
        let (mut m, mut s, mut two) = (None, None, false);
        for (k, v) in words("--resign", text)? {
            match k.as_str() {
                "movecount" => m = Some(number("--resign", &k, &v)?),
                "score" => s = Some(number::<i32>("--resign", &k, &v)?.abs()),
                "twosided" => {
                    two = match v.as_str() {
                        "true" | "1" | "on" => true,
                        "false" | "0" | "off" => false,
                        _ => return Err(format!("--resign: twosided='{v}': use true or false")),
                    }
                }
                _ => {
                    return Err(format!(
                        "--resign: unknown key '{k}' (movecount, score, twosided)"
                    ))
                }
            }
        }
        match (m, s) {
            (Some(move_count), Some(score)) if move_count > 0 => Ok(ResignRule {
                move_count,
                score,
                two_sided: two,
            }),
            _ => Err("--resign needs movecount=M (at least 1) and score=CP, and takes twosided=true|false".into()),
        }
    }

    fn check(&self, moves: &[MoveRecord]) -> Option<(Seat, String)> {
        let last = moves.last()?;
        let mover = last.side?;
        let lost =
            |m: &&MoveRecord| !m.book && m.score.is_some_and(|s| cp(s) <= -i64::from(self.score));
        let won =
            |m: &&MoveRecord| !m.book && m.score.is_some_and(|s| cp(s) >= i64::from(self.score));
        let count = self.move_count as usize;
        if self.two_sided {
            let recent: Vec<&MoveRecord> = moves.iter().rev().take(2 * count).collect();
            if recent.len() < 2 * count {
                return None;
            }
            for loser in [mover, mover.other()] {
                if recent.iter().all(|m| {
                    if m.side == Some(loser) {
                        lost(m)
                    } else {
                        won(m)
                    }
                }) {
                    return Some((
                        loser,
                        format!(
                            "both engines agreed for {count} moves each that {} is lost (score {} cp or beyond)",
                            loser.name(),
                            self.score
                        ),
                    ));
                }
            }
            return None;
        }
        let own: Vec<&MoveRecord> = moves
            .iter()
            .rev()
            .filter(|m| m.side == Some(mover))
            .take(count)
            .collect();
        (own.len() == count && own.iter().all(lost)).then(|| {
            (
                mover,
                format!(
                    "{} scored -{} cp or worse for {count} moves in a row",
                    mover.name(),
                    self.score
                ),
            )
        })
    }
}

impl Adjudication {
    /// The verdict after the last move of `moves`, if any rule applies.
    pub fn check(&self, moves: &[MoveRecord]) -> Option<Verdict> {
        if let Some((seat, why)) = self.resign.as_ref().and_then(|r| r.check(moves)) {
            return Some(Verdict::Resign(seat, why));
        }
        self.draw
            .as_ref()
            .and_then(|d| d.check(moves))
            .map(Verdict::Draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    /// Plies with the given scores (mover's view), p1 first.
    fn game(scores: &[Option<i32>]) -> Vec<MoveRecord> {
        scores
            .iter()
            .enumerate()
            .map(|(i, s)| MoveRecord {
                ply: i as u32 + 1,
                side: Some(if i % 2 == 0 { Seat::P1 } else { Seat::P2 }),
                mv: "x".into(),
                score: s.map(ScoreRecord::Cp),
                ..MoveRecord::default()
            })
            .collect()
    }

    #[test]
    fn parse_fastchess_words() {
        let d = DrawRule::parse(&w("movenumber=40 movecount=8 score=10")).unwrap();
        assert_eq!((d.move_number, d.move_count, d.score), (40, 8, 10));
        let r = ResignRule::parse(&w("movecount=3 score=600 twosided=true")).unwrap();
        assert_eq!((r.move_count, r.score, r.two_sided), (3, 600, true));
        assert!(DrawRule::parse(&w("movecount=x score=1"))
            .unwrap_err()
            .contains("movecount='x'"));
        assert!(ResignRule::parse(&w("score=5"))
            .unwrap_err()
            .contains("needs movecount"));
        assert!(DrawRule::parse(&w("colour=1"))
            .unwrap_err()
            .contains("unknown key 'colour'"));
    }

    #[test]
    fn draw_needs_the_move_number_and_both_sides() {
        let d = Adjudication {
            draw: Some(DrawRule::parse(&w("movenumber=3 movecount=2 score=10")).unwrap()),
            resign: None,
        };
        // 4 plies within 10 but only at ply 4 < 2*3.
        assert_eq!(
            d.check(&game(&[Some(0), Some(5), Some(-10), Some(3)])),
            None
        );
        let six = game(&[Some(50), Some(0), Some(5), Some(-10), Some(3), Some(0)]);
        assert!(matches!(d.check(&six), Some(Verdict::Draw(_))));
        // One score over the threshold, or a missing score, in the last 4 plies: no draw.
        let over = game(&[Some(0), Some(0), Some(11), Some(0), Some(0), Some(0)]);
        assert_eq!(d.check(&over), None);
        let missing = game(&[Some(0), Some(0), Some(0), None, Some(0), Some(0)]);
        assert_eq!(d.check(&missing), None);
    }

    #[test]
    fn resign_one_and_two_sided() {
        let one = Adjudication {
            draw: None,
            resign: Some(ResignRule::parse(&w("movecount=2 score=500")).unwrap()),
        };
        // p1 (plies 1, 3) scores -600 twice: p1 resigns after its second such move.
        let g = game(&[Some(-600), Some(0), Some(-700)]);
        assert!(matches!(one.check(&g), Some(Verdict::Resign(Seat::P1, _))));
        // The verdict is about the mover: after p2's reply p1's streak is not re-checked.
        assert_eq!(one.check(&game(&[Some(-600), Some(0), Some(-499)])), None);
        let two = Adjudication {
            draw: None,
            resign: Some(ResignRule::parse(&w("movecount=2 score=500 twosided=true")).unwrap()),
        };
        // p1 sees -600 but p2 only +100: no agreement.
        assert_eq!(
            two.check(&game(&[Some(-600), Some(100), Some(-600), Some(100)])),
            None
        );
        let agreed = game(&[Some(-600), Some(600), Some(-600), Some(900)]);
        assert!(matches!(
            two.check(&agreed),
            Some(Verdict::Resign(Seat::P1, _))
        ));
        // A proven loss counts.
        let mut proven = game(&[Some(0), Some(-800), Some(0)]);
        proven.push(MoveRecord {
            ply: 4,
            side: Some(Seat::P2),
            score: Some(ScoreRecord::Loss(3)),
            ..MoveRecord::default()
        });
        assert!(matches!(
            one.check(&proven),
            Some(Verdict::Resign(Seat::P2, _))
        ));
    }
}
