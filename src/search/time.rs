//! Time management: how long one move may take, from `go`'s limits.
//!
//! Two deadlines: the *soft* one, the time a move should take, and the *hard* one, at
//! which a running iteration is abandoned; and the rule for starting one more iteration
//! ([`Budget::start_before`]: with a clock, only before 65% of the soft deadline, since an
//! iteration costs several times the one before). With a clock the engine budgets
//! `time / moves_to_go + 3/4 increment`, never more than half of what is left, and always
//! keeps `move_overhead` back for the controller's and the pipe's latency. In sudden death
//! moves to go is the game's estimate of the moves left (`Game::moves_left`: Tak counts
//! them from the pieces in hand), else 20, which leaves a reserve for the rest of the game.

use std::time::Duration;

use super::Limits;

/// The deadlines of one search, measured from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time the move should take.
    pub soft: Option<Duration>,
    /// Stop the search at this point.
    pub hard: Option<Duration>,
    /// Do not start another iteration after this: the soft deadline with `movetime`,
    /// [`CLOCK_START_FRACTION`] of it with a clock.
    pub start_before: Option<Duration>,
}

/// With a clock, a new iteration is started only before this fraction of the soft
/// deadline (an iteration costs several times the one before; the hard deadline stops
/// one that runs long). Measured together with [`DEFAULT_MOVES_TO_GO`].
pub const CLOCK_START_FRACTION: f64 = 0.65;

/// Moves to budget for when the clock has no `movestogo`. 20 (25 before): at 10 s + 0.1 s
/// on Tak 6x6 against Tiltak, with 25 and iterations started up to half the soft deadline
/// agon used 241 ms a move and ended its games with 1.9-5.6 s of its 14.6 s unused
/// (Tiltak 288 ms, 0.8-4.2 s left); with 20 and 65% (40 games, seed 21) it uses 280 ms a
/// move, as Tiltak does, and ends with 0.5-4.3 s left, 1.3 s on average (Tiltak 0.7-3.8
/// s, 1.3 s), front-loaded as Tiltak is (534 ms a move in the first 20 plies, Tiltak
/// 492 ms).
const DEFAULT_MOVES_TO_GO: u32 = 20;

/// Deadlines for `limits`. `infinite` searches and depth/nodes-only searches have none.
/// `moves_left` is the game's estimate of the moves the side to move has left
/// ([`crate::game::Game::moves_left`]), used in place of [`DEFAULT_MOVES_TO_GO`] when the
/// clock has no `movestogo`; `None` keeps the default.
pub fn budget(limits: &Limits, move_overhead: Duration, moves_left: Option<u32>) -> Budget {
    let none = Budget {
        soft: None,
        hard: None,
        start_before: None,
    };
    if limits.infinite {
        return none;
    }
    let mut budget = none;
    if let Some(movetime) = limits.movetime {
        // `movetime` is exact: use all of it but the overhead, at least 1 ms.
        let t = movetime
            .saturating_sub(move_overhead)
            .max(Duration::from_millis(1));
        budget = Budget {
            soft: Some(t),
            hard: Some(t),
            start_before: None,
        };
    }
    if let Some(clock) = limits.clock {
        let left = clock.time.saturating_sub(move_overhead);
        let moves = clock
            .moves_to_go
            .or(moves_left)
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, 50);
        let share = left / moves + clock.increment.mul_f64(0.75);
        let soft = share.min(left / 2).max(Duration::from_millis(1));
        let hard = (soft * 3)
            .min(left.mul_f64(0.6))
            .max(soft)
            .max(Duration::from_millis(1));
        budget.soft = Some(budget.soft.map_or(soft, |s| s.min(soft)));
        budget.hard = Some(budget.hard.map_or(hard, |h| h.min(hard)));
    }
    let fraction = if limits.clock.is_some() {
        CLOCK_START_FRACTION
    } else {
        1.0
    };
    budget.start_before = budget.soft.map(|s| s.mul_f64(fraction));
    budget
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MoverClock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_used_whole_minus_overhead() {
        let limits = Limits {
            movetime: Some(ms(500)),
            ..Limits::default()
        };
        let b = budget(&limits, ms(20), None);
        assert_eq!(b.hard, Some(ms(480)));
        assert_eq!(b.soft, Some(ms(480)));
        // The whole of it may go to iterations.
        assert_eq!(b.start_before, Some(ms(480)));
    }

    #[test]
    fn with_a_clock_no_iteration_starts_after_65_percent_of_the_soft_deadline() {
        let limits = Limits {
            clock: Some(MoverClock {
                time: ms(10_010),
                increment: ms(100),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let b = budget(&limits, ms(10), None);
        // 10 s over 20 moves plus 3/4 of 100 ms: 575 ms; 65% of it.
        assert_eq!(b.soft, Some(ms(575)));
        assert_eq!(b.start_before, Some(ms(575).mul_f64(0.65)));
    }

    #[test]
    fn clock_budget_never_risks_the_flag() {
        for (time, inc, mtg) in [
            (10_000, 0, None),
            (100, 0, None),
            (1000, 5000, Some(1)),
            (30, 10, None),
        ] {
            let limits = Limits {
                clock: Some(MoverClock {
                    time: ms(time),
                    increment: ms(inc),
                    moves_to_go: mtg,
                }),
                ..Limits::default()
            };
            let b = budget(&limits, ms(10), None);
            let hard = b.hard.unwrap();
            assert!(b.soft.unwrap() <= hard);
            // Never more than 60% of what is left after the overhead (and at least 1 ms).
            assert!(
                hard <= ms(time).saturating_sub(ms(10)).mul_f64(0.6).max(ms(1)),
                "{time} {inc}: {hard:?}"
            );
        }
    }

    #[test]
    fn the_games_moves_left_spread_the_clock_unless_movestogo_is_given() {
        let clock = |moves_to_go| Limits {
            clock: Some(MoverClock {
                time: ms(10_010),
                increment: ms(100),
                moves_to_go,
            }),
            ..Limits::default()
        };
        // 10 s after the overhead over 40 moves, plus three quarters of the increment.
        assert_eq!(budget(&clock(None), ms(10), Some(40)).soft, Some(ms(325)));
        // Without an estimate: 20 moves.
        assert_eq!(budget(&clock(None), ms(10), None).soft, Some(ms(575)));
        // The controller's movestogo wins over the game's estimate.
        assert_eq!(
            budget(&clock(Some(10)), ms(10), Some(40)).soft,
            Some(ms(1075))
        );
        // An estimate of 0 or 1 moves left still keeps half the clock back.
        for left in [0, 1] {
            assert_eq!(
                budget(&clock(None), ms(10), Some(left)).soft,
                Some(ms(5000))
            );
        }
    }

    #[test]
    fn infinite_and_depth_searches_have_no_deadline() {
        let b = budget(
            &Limits {
                infinite: true,
                movetime: Some(ms(5)),
                ..Limits::default()
            },
            ms(0),
            None,
        );
        assert_eq!(
            b,
            Budget {
                soft: None,
                hard: None,
                start_before: None,
            }
        );
        assert_eq!(
            budget(&Limits::depth(5), ms(0), None),
            Budget {
                soft: None,
                hard: None,
                start_before: None,
            }
        );
    }
}
