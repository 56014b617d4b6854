//! Time controls and clocks, with fastchess's semantics
//! (`Disservin/fastchess:app/src/game/timecontrol/timecontrol.cpp`): the clock starts at
//! base (+ nothing); after a move the time used is subtracted; the mover loses when it
//! used more than its time left plus the margin; otherwise the clock is clamped at zero
//! and the increment added. Fixed time per move allows `movetime` plus the margin.
//! Both together are Gomocup's clock (`tc=120,st=5`: 5 s at most a move and 120 s a
//! game, as Piskvork's `timeout_turn` and `timeout_match`): a move may take the smaller
//! of the two, plus the margin, and its time comes off the game clock.
//! Depth- and node-limited searches have no clock, so a hard wall-clock cap bounds
//! them (fastchess waits forever there: fastchess #1029).

use std::fmt;
use std::time::Duration;

/// A clock's setting: the base time and the increment per move, in ms (`tc=60+1` is
/// 60000 and 1000). The running clock of a game is [`Clock`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseInc {
    /// Time on the clock at the start (and at each period's start), ms.
    pub base_ms: u64,
    /// Added after each move, ms.
    pub inc_ms: u64,
}

/// What limits an engine's searches. Several limits may be combined (`tc=10+0.1,depth=5`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Base time and increment per move.
    pub clock: Option<BaseInc>,
    /// Moves per time control period (`tc=40/60+0.6`): after this many moves of its own
    /// the engine's clock gets the base time again; `None`: the base is for the game.
    pub period: Option<u32>,
    /// Fixed time per move, in ms; with a clock, the most one move may take (Gomocup's
    /// `timeout_turn` beside its `timeout_match`).
    pub movetime: Option<u64>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// A time bank for the game, ms, beside a time per move (Kaggle's overage time): a
    /// move may take `movetime` plus what is left of the bank, and what it takes beyond
    /// `movetime` comes off the bank.
    pub bank: Option<u64>,
    /// What a move over its time costs: the game (the default), or only the move: the
    /// arena stops the search, throws its answer away and plays the game's first legal
    /// move in the mover's place (`timeout=move`, as some contest platforms do).
    pub timeout: TimeoutRule,
}

/// What a move over its time costs (`timeout=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeoutRule {
    /// The game is lost on time.
    #[default]
    Loss,
    /// The move is played for the engine: the first legal move in the game's order.
    DefaultMove,
}

/// A time control that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad time control '{text}': {reason}")]
pub struct TimeControlError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

fn seconds_to_ms(text: &str, whole: &str) -> Result<u64, TimeControlError> {
    // fastchess and cutechess also take minutes:seconds (`tc=1:30+1`).
    if let Some((minutes, seconds)) = text.split_once(':') {
        let m: u64 = minutes.parse().map_err(|_| TimeControlError {
            text: whole.to_string(),
            reason: format!("'{minutes}' is not a whole number of minutes"),
        })?;
        return Ok(m * 60_000 + seconds_to_ms(seconds, whole)?);
    }
    let value: f64 = text.parse().map_err(|_| TimeControlError {
        text: whole.to_string(),
        reason: format!("'{text}' is not a number of seconds"),
    })?;
    if !value.is_finite() || value < 0.0 {
        return Err(TimeControlError {
            text: whole.to_string(),
            reason: format!("'{text}' is not a non-negative number of seconds"),
        });
    }
    Ok((value * 1000.0).round() as u64)
}

impl TimeControl {
    /// Whether any limit is set.
    pub fn is_set(&self) -> bool {
        self.clock.is_some()
            || self.movetime.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
    }

    /// Adds one `key=value` limit: `tc=BASE+INC` (seconds), `st=SECONDS`, `depth=N`, `nodes=N`.
    /// Returns `Ok(false)` when `key` is not a time-control key.
    ///
    /// # Errors
    /// A [`TimeControlError`] for a bad value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, TimeControlError> {
        let whole = format!("{key}={value}");
        let bad = |reason: &str| TimeControlError {
            text: whole.clone(),
            reason: reason.to_string(),
        };
        match key {
            "tc" => {
                // fastchess/cutechess: `[moves/]time[+inc]`.
                let (period, rest) = match value.split_once('/') {
                    Some((moves, rest)) => {
                        let n: u32 = moves.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                            bad("the moves before '/' must be a positive whole number")
                        })?;
                        (Some(n), rest)
                    }
                    None => (None, value),
                };
                if rest == "inf" || rest == "infinite" {
                    return Err(bad(
                        "no infinite time control: give a clock, st=, depth= or nodes=",
                    ));
                }
                self.period = period;
                let value = rest;
                let (base, inc) = value.split_once('+').unwrap_or((value, "0"));
                let base = seconds_to_ms(base, &whole)?;
                let inc = seconds_to_ms(inc, &whole)?;
                if base == 0 && inc == 0 {
                    return Err(bad("base and increment are both zero"));
                }
                self.clock = Some(BaseInc {
                    base_ms: base,
                    inc_ms: inc,
                });
            }
            "st" => {
                let ms = seconds_to_ms(value, &whole)?;
                if ms == 0 {
                    return Err(bad("zero time per move"));
                }
                self.movetime = Some(ms);
            }
            "depth" | "plies" => {
                self.depth = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&d| d > 0)
                        .ok_or_else(|| bad("not a positive integer"))?,
                )
            }
            "bank" => self.bank = Some(seconds_to_ms(value, &whole)?),
            "timeout" => {
                self.timeout = match value {
                    "loss" => TimeoutRule::Loss,
                    "move" => TimeoutRule::DefaultMove,
                    _ => return Err(bad("use timeout=loss (the default) or timeout=move")),
                }
            }
            "nodes" => {
                self.nodes = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| bad("not a positive integer"))?,
                )
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Parses a comma- or space-separated list of limits, e.g. `tc=10+0.1` or
    /// `depth=3,nodes=1000`, or `st=0.1 bank=2 timeout=move`.
    ///
    /// # Errors
    /// A [`TimeControlError`] for unknown keys or bad values.
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let mut tc = TimeControl::default();
        for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (key, value) = item.split_once('=').ok_or_else(|| TimeControlError {
                text: item.to_string(),
                reason: "expected key=value (tc=, st=, bank=, timeout=, depth=, nodes=)".into(),
            })?;
            if !tc.set(key, value)? {
                return Err(TimeControlError {
                    text: item.to_string(),
                    reason: format!(
                        "unknown limit '{key}' (tc=, st=, bank=, timeout=, depth=, nodes=)"
                    ),
                });
            }
        }
        tc.consistent().map_err(|reason| TimeControlError {
            text: text.to_string(),
            reason,
        })?;
        Ok(tc)
    }

    /// Whether the limits make sense together: a bank needs a time per move and no
    /// clock; `timeout=move` needs a time limit to be over.
    ///
    /// # Errors
    /// What does not fit, in words.
    pub fn consistent(&self) -> Result<(), String> {
        if self.bank.is_some() && (self.movetime.is_none() || self.clock.is_some()) {
            return Err("bank= goes with st= (a time per move) and no tc= clock".into());
        }
        if self.timeout == TimeoutRule::DefaultMove
            && self.movetime.is_none()
            && self.clock.is_none()
        {
            return Err("timeout=move needs st= or tc= (a time to be over)".into());
        }
        Ok(())
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag (PGN standard section 9.6.1): `60+0.6`, `40/60+0.6`
    /// (moves per period, with an increment as fastchess writes it), `0.1/move` for a
    /// fixed time per move (as cutechess writes it), `-` for depth or nodes only.
    pub fn pgn(&self) -> String {
        if let Some(BaseInc {
            base_ms: base,
            inc_ms: inc,
        }) = self.clock
        {
            let period = self.period.map(|n| format!("{n}/")).unwrap_or_default();
            if inc == 0 {
                format!("{period}{}", fmt_seconds(base))
            } else {
                format!("{period}{}+{}", fmt_seconds(base), fmt_seconds(inc))
            }
        } else if let Some(ms) = self.movetime {
            format!("{}/move", fmt_seconds(ms))
        } else {
            "-".into()
        }
    }
}

fn fmt_seconds(ms: u64) -> String {
    let s = format!("{:.3}", ms as f64 / 1000.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The time per engine move a game of the web page may ask for, in ms.
pub const MOVETIME_MS: (u64, u64) = (10, 60_000);
/// The time per engine move of a game that names no time control.
pub const DEFAULT_MOVETIME_MS: u64 = 500;
/// The longest base time and increment of a clock, in ms.
pub const MAX_CLOCK_MS: (u64, u64) = (24 * 3_600_000, 3_600_000);

/// The web page's time controls: the rules of what a page game may ask for.
impl TimeControl {
    /// The time control of a new game, or what is wrong with it: `tc` in `arena match`'s
    /// words (the same parser), else `movetime_ms`.
    pub fn for_page(tc: Option<&str>, movetime_ms: Option<u64>) -> Result<TimeControl, String> {
        let text = tc.map(str::trim).filter(|t| !t.is_empty() && *t != "none");
        let Some(text) = text else {
            let ms = movetime_ms.unwrap_or(DEFAULT_MOVETIME_MS);
            if !(MOVETIME_MS.0..=MOVETIME_MS.1).contains(&ms) {
                return Err(format!(
                    "movetime_ms {ms} is out of range ({}..={})",
                    MOVETIME_MS.0, MOVETIME_MS.1
                ));
            }
            return Ok(TimeControl {
                movetime: Some(ms),
                ..TimeControl::default()
            });
        };
        if let Some(ms) = movetime_ms {
            return Err(format!(
                "tc '{text}' and movetime_ms {ms} both given: give one time control"
            ));
        }
        // `60+1` alone is a clock, as `tc=60+1`.
        let words = if text.contains('=') {
            text.to_string()
        } else {
            format!("tc={text}")
        };
        let parsed = TimeControl::parse(&words).map_err(|e| format!("time control: {e}"))?;
        if let Some(BaseInc {
            base_ms: base,
            inc_ms: inc,
        }) = parsed.clock
        {
            if base == 0 {
                return Err(format!(
                    "time control '{text}': a clock needs a base time above zero"
                ));
            }
            if base > MAX_CLOCK_MS.0 || inc > MAX_CLOCK_MS.1 {
                return Err(format!(
                    "time control '{text}': at most {} h of base time and {} min of increment",
                    MAX_CLOCK_MS.0 / 3_600_000,
                    MAX_CLOCK_MS.1 / 60_000
                ));
            }
        }
        if let Some(ms) = parsed.movetime {
            if !(MOVETIME_MS.0..=MOVETIME_MS.1).contains(&ms) {
                return Err(format!(
                    "time control '{text}': st= of {ms} ms is out of range ({}..={} ms)",
                    MOVETIME_MS.0, MOVETIME_MS.1
                ));
            }
        }
        Ok(parsed)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(BaseInc {
            base_ms: base,
            inc_ms: inc,
        }) = self.clock
        {
            let period = self.period.map(|n| format!("{n}/")).unwrap_or_default();
            parts.push(format!(
                "tc={period}{}+{}",
                fmt_seconds(base),
                fmt_seconds(inc)
            ));
        }
        if let Some(ms) = self.movetime {
            parts.push(format!("st={}", fmt_seconds(ms)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(ms) = self.bank {
            parts.push(format!("bank={}", fmt_seconds(ms)));
        }
        if self.timeout == TimeoutRule::DefaultMove {
            parts.push("timeout=move".into());
        }
        if parts.is_empty() {
            parts.push("none".into());
        }
        f.write_str(&parts.join(","))
    }
}

/// Which limit bounds a search's wall-clock time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// The clock.
    Clock,
    /// The fixed time per move.
    MoveTime,
    /// The hard cap of a depth- or node-limited (or unlimited) search.
    HardCap,
    /// The time per move and what was left of the game's time bank.
    Bank,
}

impl LimitKind {
    /// `clock`, `movetime`, `hard-cap`.
    pub fn name(self) -> &'static str {
        match self {
            LimitKind::Clock => "clock",
            LimitKind::MoveTime => "movetime",
            LimitKind::HardCap => "hard-cap",
            LimitKind::Bank => "bank",
        }
    }
}

/// One engine's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The engine's limits.
    pub tc: TimeControl,
    /// Time left on the clock (meaningful with `tc.clock`).
    pub left: Duration,
    /// Moves this clock has been charged for.
    pub moves: u32,
    /// What is left of the time bank (meaningful with `tc.bank`).
    pub bank: Duration,
}

/// Outcome of charging a move to a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// In time; the clock afterwards.
    InTime,
    /// Over the limit plus the margin.
    Forfeit {
        /// What was allowed, margin included.
        allowed: Duration,
        /// Which limit.
        limit: LimitKind,
    },
}

impl Clock {
    /// A fresh clock for `tc`.
    pub fn new(tc: TimeControl) -> Clock {
        let left = tc
            .clock
            .map_or(Duration::ZERO, |c| Duration::from_millis(c.base_ms));
        Clock {
            tc,
            left,
            moves: 0,
            bank: Duration::from_millis(tc.bank.unwrap_or(0)),
        }
    }

    /// How long the engine may take for this move, margin included, and which limit that
    /// is: with a clock and a time per move, the smaller (the clock when they are equal).
    pub fn allowance(&self, margin: Duration, hard_cap: Duration) -> (Duration, LimitKind) {
        let per_move = self.tc.movetime.map(Duration::from_millis);
        match (self.tc.clock, per_move) {
            (Some(_), Some(turn)) if turn < self.left => (turn + margin, LimitKind::MoveTime),
            (Some(_), _) => (self.left + margin, LimitKind::Clock),
            (None, Some(turn)) if self.tc.bank.is_some() => {
                (turn + self.bank + margin, LimitKind::Bank)
            }
            (None, Some(turn)) => (turn + margin, LimitKind::MoveTime),
            (None, None) => (hard_cap, LimitKind::HardCap),
        }
    }

    /// Charges `used` for a move: a forfeit when over the allowance, else the clock is
    /// reduced (clamped at zero) and the increment added.
    pub fn charge(&mut self, used: Duration, margin: Duration, hard_cap: Duration) -> Charge {
        let (allowed, limit) = self.allowance(margin, hard_cap);
        if used > allowed {
            return Charge::Forfeit { allowed, limit };
        }
        self.moves += 1;
        if let (Some(_), Some(turn)) = (self.tc.bank, self.tc.movetime) {
            let over = used.saturating_sub(Duration::from_millis(turn));
            self.bank = self.bank.saturating_sub(over);
        }
        if let Some(BaseInc {
            base_ms: base,
            inc_ms: inc,
        }) = self.tc.clock
        {
            self.left = self.left.saturating_sub(used) + Duration::from_millis(inc);
            if self.tc.period.is_some_and(|n| self.moves.is_multiple_of(n)) {
                self.left += Duration::from_millis(base);
            }
        }
        Charge::InTime
    }

    /// Moves left until the clock gets its base time again (`movestogo`), with periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        let n = self.tc.period?;
        self.tc.clock?;
        Some(n - self.moves % n)
    }

    /// What is left of the time bank in whole ms, with a bank.
    pub fn bank_ms(&self) -> Option<u64> {
        self.tc.bank.map(|_| self.bank.as_millis() as u64)
    }

    /// Time left in whole ms (for `go`).
    pub fn left_ms(&self) -> u64 {
        self.left.as_millis() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    /// Kaggle's overage bank, worked by hand: 1 s a move and a 2 s bank.
    #[test]
    fn a_bank_pays_for_slow_moves_until_it_is_spent() {
        let tc = TimeControl::parse("st=1 bank=2").unwrap();
        assert_eq!(tc.to_string(), "st=1,bank=2");
        let (margin, cap) = (MS(100), MS(60_000));
        let mut clock = Clock::new(tc);
        assert_eq!(clock.allowance(margin, cap), (MS(3_100), LimitKind::Bank));
        // 0.6 s: within the move's own second, the bank is untouched.
        assert_eq!(clock.charge(MS(600), margin, cap), Charge::InTime);
        assert_eq!(clock.bank_ms(), Some(2_000));
        // 1.5 s: half a second from the bank.
        assert_eq!(clock.charge(MS(1_500), margin, cap), Charge::InTime);
        assert_eq!(clock.bank_ms(), Some(1_500));
        // 2.6 s may take 1 s + 1.5 s + the margin: the bank is empty after it.
        assert_eq!(clock.charge(MS(2_550), margin, cap), Charge::InTime);
        assert_eq!(clock.bank_ms(), Some(0));
        // Now a move has its second and the margin only.
        assert_eq!(
            clock.charge(MS(1_200), margin, cap),
            Charge::Forfeit {
                allowed: MS(1_100),
                limit: LimitKind::Bank
            }
        );
        let tc = TimeControl::parse("st=0.5,bank=1,timeout=move").unwrap();
        assert_eq!(tc.timeout, TimeoutRule::DefaultMove);
        assert_eq!(tc.to_string(), "st=0.5,bank=1,timeout=move");
        for bad in [
            "bank=2",
            "tc=10+1 st=1 bank=2",
            "depth=3 timeout=move",
            "st=1 timeout=draw",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parse_and_display() {
        let tc = TimeControl::parse("tc=10+0.1").unwrap();
        assert_eq!(
            tc.clock,
            Some(crate::clock::BaseInc {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(tc.to_string(), "tc=10+0.1");
        let tc = TimeControl::parse("st=0.5,depth=3 nodes=1000").unwrap();
        assert_eq!(tc.movetime, Some(500));
        assert_eq!(tc.depth, Some(3));
        assert_eq!(tc.nodes, Some(1000));
        assert_eq!(tc.to_string(), "st=0.5,depth=3,nodes=1000");
        assert_eq!(
            TimeControl::parse("tc=2").unwrap().clock,
            Some(crate::clock::BaseInc {
                base_ms: 2000,
                inc_ms: 0
            })
        );
        assert!(TimeControl::parse("tc=x+1").is_err());
        assert!(TimeControl::parse("depth=0").is_err());
        assert!(TimeControl::parse("speed=3").is_err());
        assert!(TimeControl::parse("tc=0+0").is_err());
        // fastchess/cutechess spellings: moves per period, minutes:seconds.
        let tc = TimeControl::parse("tc=40/60+0.6").unwrap();
        assert_eq!(
            (tc.period, tc.clock),
            (
                Some(40),
                Some(crate::clock::BaseInc {
                    base_ms: 60_000,
                    inc_ms: 600
                })
            )
        );
        assert_eq!(tc.to_string(), "tc=40/60+0.6");
        assert_eq!(tc.pgn(), "40/60+0.6");
        assert_eq!(
            TimeControl::parse("tc=1:30+1").unwrap().clock,
            Some(crate::clock::BaseInc {
                base_ms: 90_000,
                inc_ms: 1000
            })
        );
        assert_eq!(TimeControl::parse("tc=10+0.1").unwrap().pgn(), "10+0.1");
        assert_eq!(TimeControl::parse("tc=5").unwrap().pgn(), "5");
        assert_eq!(TimeControl::parse("st=0.1").unwrap().pgn(), "0.1/move");
        assert_eq!(TimeControl::parse("depth=3").unwrap().pgn(), "-");
        assert!(TimeControl::parse("tc=0/60").is_err());
        assert!(TimeControl::parse("tc=inf").is_err());
    }

    #[test]
    fn periods_give_the_base_again() {
        // 2 moves in 1 s: after each engine's 2nd, 4th... move the base comes back.
        let mut c = Clock::new(TimeControl::parse("tc=2/1").unwrap());
        let (margin, cap) = (MS(0), MS(10_000));
        assert_eq!(c.moves_to_go(), Some(2));
        assert_eq!(c.charge(MS(400), margin, cap), Charge::InTime);
        assert_eq!((c.left, c.moves_to_go()), (MS(600), Some(1)));
        assert_eq!(c.charge(MS(500), margin, cap), Charge::InTime);
        assert_eq!((c.left, c.moves_to_go()), (MS(1100), Some(2)));
        assert_eq!(
            Clock::new(TimeControl::parse("tc=1").unwrap()).moves_to_go(),
            None
        );
    }

    #[test]
    fn clock_follows_fastchess() {
        let mut c = Clock::new(TimeControl::parse("tc=1+0.1").unwrap());
        let (margin, cap) = (MS(50), MS(10_000));
        assert_eq!(c.allowance(margin, cap), (MS(1050), LimitKind::Clock));
        assert_eq!(c.charge(MS(300), margin, cap), Charge::InTime);
        assert_eq!(c.left, MS(800));
        // Over the clock but within the margin: clamped at zero, increment added.
        assert_eq!(c.charge(MS(830), margin, cap), Charge::InTime);
        assert_eq!(c.left, MS(100));
        // Exactly the allowance is still in time; one ms more is a forfeit.
        assert_eq!(c.charge(MS(150), margin, cap), Charge::InTime);
        assert_eq!(c.left, MS(100));
        assert_eq!(
            c.charge(MS(151), margin, cap),
            Charge::Forfeit {
                allowed: MS(150),
                limit: LimitKind::Clock
            }
        );
    }

    #[test]
    fn gomocup_clock_caps_each_move_and_the_game() {
        // Gomocup's fastgame league scaled down: 0.5 s a move, 1.2 s a game.
        let mut c = Clock::new(TimeControl::parse("tc=1.2,st=0.5").unwrap());
        let (margin, cap) = (MS(20), MS(10_000));
        assert_eq!(c.allowance(margin, cap), (MS(520), LimitKind::MoveTime));
        assert_eq!(
            c.charge(MS(521), margin, cap),
            Charge::Forfeit {
                allowed: MS(520),
                limit: LimitKind::MoveTime
            }
        );
        assert_eq!(c.charge(MS(500), margin, cap), Charge::InTime);
        assert_eq!(c.charge(MS(450), margin, cap), Charge::InTime);
        // 250 ms left of the game: now the game clock is the smaller limit.
        assert_eq!(c.left, MS(250));
        assert_eq!(c.allowance(margin, cap), (MS(270), LimitKind::Clock));
        assert_eq!(
            c.charge(MS(300), margin, cap),
            Charge::Forfeit {
                allowed: MS(270),
                limit: LimitKind::Clock
            }
        );
        let tc = TimeControl::parse("tc=120,st=5").unwrap();
        assert_eq!(tc.to_string(), "tc=120+0,st=5");
        assert_eq!(tc.pgn(), "120");
    }

    #[test]
    fn movetime_and_hard_cap() {
        let mut c = Clock::new(TimeControl::parse("st=0.2").unwrap());
        assert_eq!(c.charge(MS(240), MS(50), MS(1000)), Charge::InTime);
        assert_eq!(
            c.charge(MS(251), MS(50), MS(1000)),
            Charge::Forfeit {
                allowed: MS(250),
                limit: LimitKind::MoveTime
            }
        );
        let mut d = Clock::new(TimeControl::parse("depth=5").unwrap());
        assert_eq!(
            d.allowance(MS(50), MS(3000)),
            (MS(3000), LimitKind::HardCap)
        );
        assert!(matches!(
            d.charge(MS(3001), MS(50), MS(3000)),
            Charge::Forfeit { .. }
        ));
    }
}
