//! Time management: how long one move may take, from `go`'s limits.
//!
//! Two deadlines: the *soft* one, after which no new iteration is started (with a clock,
//! none after 65% of it: `CLOCK_START_FRACTION` in `pvs.rs`), and the *hard* one, at which
//! a running iteration is abandoned. With a clock the engine budgets
//! `time / moves_to_go + 3/4 increment` (moves to go defaults to 20 in sudden death, which
//! leaves a reserve for the rest of the game), never more than half of what is left, and
//! always keeps `move_overhead` back for the controller's and the pipe's latency.

use std::time::Duration;

use super::Limits;

/// The deadlines of one search, measured from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this point.
    pub hard: Option<Duration>,
}

/// Moves to budget for when the clock has no `movestogo`. 20 (25 before): at 10 s + 0.1 s
/// on Tak 6x6 against Tiltak, with 25 and iterations started up to half the soft deadline
/// agon used 241 ms a move and ended its games with 1.9-5.6 s of its 14.6 s unused
/// (Tiltak 288 ms, 0.8-4.2 s left); with 20 and 65% (40 games, seed 21) it uses 280 ms a
/// move, as Tiltak does, and ends with 0.5-4.3 s left, 1.3 s on average (Tiltak 0.7-3.8
/// s, 1.3 s), front-loaded as Tiltak is (534 ms a move in the first 20 plies, Tiltak
/// 492 ms).
const DEFAULT_MOVES_TO_GO: u32 = 20;

/// Deadlines for `limits`. `infinite` searches and depth/nodes-only searches have none.
pub fn budget(limits: &Limits, move_overhead: Duration) -> Budget {
    if limits.infinite {
        return Budget {
            soft: None,
            hard: None,
        };
    }
    let mut budget = Budget {
        soft: None,
        hard: None,
    };
    if let Some(movetime) = limits.movetime {
        // `movetime` is exact: use all of it but the overhead, at least 1 ms.
        let t = movetime
            .saturating_sub(move_overhead)
            .max(Duration::from_millis(1));
        budget = Budget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    if let Some(clock) = limits.clock {
        let left = clock.time.saturating_sub(move_overhead);
        let moves = clock
            .moves_to_go
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
    budget
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_used_whole_minus_overhead() {
        let limits = Limits {
            movetime: Some(ms(500)),
            ..Limits::default()
        };
        let b = budget(&limits, ms(20));
        assert_eq!(b.hard, Some(ms(480)));
        assert_eq!(b.soft, Some(ms(480)));
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
                clock: Some(Clock {
                    time: ms(time),
                    increment: ms(inc),
                    moves_to_go: mtg,
                }),
                ..Limits::default()
            };
            let b = budget(&limits, ms(10));
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
    fn infinite_and_depth_searches_have_no_deadline() {
        let b = budget(
            &Limits {
                infinite: true,
                movetime: Some(ms(5)),
                ..Limits::default()
            },
            ms(0),
        );
        assert_eq!(
            b,
            Budget {
                soft: None,
                hard: None
            }
        );
        assert_eq!(
            budget(&Limits::depth(5), ms(0)),
            Budget {
                soft: None,
                hard: None
            }
        );
    }
}
