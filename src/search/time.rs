//! Time management: how long one move may take, from `go`'s limits.
//!
//! Two deadlines: the *soft* one, the time a move should take, and the *hard* one, at
//! which a running iteration is abandoned; and the rule for starting one more iteration
//! ([`Budget::start_before`]: with a clock, only before 65% of the soft deadline, since an
//! iteration costs several times the one before). With a clock the engine budgets
//! `(time - reserve) / moves_to_go + 3/4 increment`, never more than half of what is left,
//! and always keeps `move_overhead` back for the controller's and the pipe's latency. In
//! sudden death moves to go is the game's estimate of the moves left (`Game::moves_left`:
//! Tak counts them from the pieces in hand), else 20, and never fewer than
//! [`MIN_MOVES_TO_GO`]; the reserve is [`RESERVE_INCREMENTS`] increments, so that a long
//! game is played to its end with seconds in hand rather than on the increment alone.

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

/// Moves to budget for at least, whatever the game's estimate: the estimate counts the
/// placements left, and a Tak game that ends on flats goes on for many stack moves after
/// it says 4, so that spending a quarter of the clock a move there left agon's clock under
/// 1 s in 29 of 40 games at 10 s + 0.1 s (issue 53).
pub const MIN_MOVES_TO_GO: u32 = 12;

/// With an increment, this many increments of the clock are kept back and never budgeted
/// (below them a move is paid from the increment alone): with [`MIN_MOVES_TO_GO`] the
/// clock settles near `RESERVE_INCREMENTS + MIN_MOVES_TO_GO / 4` increments in a long game
/// instead of near one increment (1.3 s at 10 s + 0.1 s; Tiltak settles near 2.2 s).
pub const RESERVE_INCREMENTS: u32 = 10;

/// The parameters of the clock rule, the constants above unless an experiment knob
/// (`AGON_KNOB_TIME_MIN_MOVES`, `AGON_KNOB_TIME_RESERVE`) says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Never budget for fewer moves than this.
    pub min_moves: u32,
    /// Increments kept in hand.
    pub reserve_increments: u32,
}

impl Policy {
    /// The constants of this module.
    pub const DEFAULT: Policy = Policy {
        min_moves: MIN_MOVES_TO_GO,
        reserve_increments: RESERVE_INCREMENTS,
    };

    /// The defaults with the experiment knobs applied.
    pub fn from_knobs() -> Policy {
        let knob = |name: &str, default: u32| {
            super::knob(name, default as i32)
                .try_into()
                .unwrap_or(default)
        };
        Policy {
            min_moves: knob("TIME_MIN_MOVES", MIN_MOVES_TO_GO),
            reserve_increments: knob("TIME_RESERVE", RESERVE_INCREMENTS),
        }
    }
}

/// Deadlines for `limits` under the default [`Policy`] (with its knobs).
/// `infinite` searches and depth/nodes-only searches have none.
/// `moves_left` is the game's estimate of the moves the side to move has left
/// ([`crate::game::Game::moves_left`]), used in place of [`DEFAULT_MOVES_TO_GO`] when the
/// clock has no `movestogo`; `None` keeps the default.
pub fn budget(limits: &Limits, move_overhead: Duration, moves_left: Option<u32>) -> Budget {
    budget_with(Policy::from_knobs(), limits, move_overhead, moves_left)
}

/// [`budget`] under `policy`.
pub fn budget_with(
    policy: Policy,
    limits: &Limits,
    move_overhead: Duration,
    moves_left: Option<u32>,
) -> Budget {
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
        // The controller's movestogo is a fact and is kept; the game's estimate is not.
        let moves = match clock.moves_to_go {
            Some(n) => n,
            None => moves_left
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .max(policy.min_moves),
        }
        .clamp(1, 50);
        let reserve = if clock.moves_to_go.is_some() {
            Duration::ZERO
        } else {
            clock.increment * policy.reserve_increments
        };
        // Below the reserve the move is paid from the increment alone.
        let spendable = left.saturating_sub(reserve);
        let share = spendable / moves + clock.increment.mul_f64(0.75);
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
        // 10 s less ten increments kept back, over 20 moves, plus 3/4 of 100 ms: 525 ms;
        // 65% of it.
        assert_eq!(b.soft, Some(ms(525)));
        assert_eq!(b.start_before, Some(ms(525).mul_f64(0.65)));
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
        // 10 s after the overhead, less 1 s kept back, over 40 moves, plus three quarters
        // of the increment.
        assert_eq!(budget(&clock(None), ms(10), Some(40)).soft, Some(ms(300)));
        // Without an estimate: 20 moves.
        assert_eq!(budget(&clock(None), ms(10), None).soft, Some(ms(525)));
        // The controller's movestogo wins over the game's estimate, and nothing is kept
        // back: the clock is refilled after those moves.
        assert_eq!(
            budget(&clock(Some(10)), ms(10), Some(40)).soft,
            Some(ms(1075))
        );
        // An estimate of 0, 1 or 4 moves left is read as 12 moves.
        for left in [0, 1, 4, 12] {
            assert_eq!(
                budget(&clock(None), ms(10), Some(left)).soft,
                Some(ms(825)),
                "{left}"
            );
        }
    }

    /// A long game played at the soft deadline every move, the game's estimate shrinking
    /// to nothing: the clock settles above the reserve and never falls.
    #[test]
    fn a_long_game_keeps_seconds_in_hand() {
        for (base, inc) in [(10_000, 100), (60_000, 600), (900_000, 10_000)] {
            let mut time = ms(base);
            let mut lowest = time;
            for ply in 0..300u32 {
                let limits = Limits {
                    clock: Some(MoverClock {
                        time,
                        increment: ms(inc),
                        moves_to_go: None,
                    }),
                    ..Limits::default()
                };
                let estimate = 50u32.saturating_sub(ply / 2).max(4);
                let spent = budget(&limits, ms(20), Some(estimate)).soft.unwrap();
                time = time - spent + ms(inc);
                lowest = lowest.min(time);
            }
            // Ten increments kept back, and the last moves budgeted over 12: the clock
            // stays near 12.5 increments (with the overhead).
            assert!(lowest >= ms(inc * 12), "{base}+{inc}: {lowest:?}");
            assert!(lowest <= ms(inc * 14), "{base}+{inc}: {lowest:?}");
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
