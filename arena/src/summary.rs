//! The running summary of a match: results, Elo with its error, LOS, draw ratio,
//! terminations by kind, per-engine search statistics and the arena's own latency.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use crate::record::{GameRecord, Seat};
use crate::stats::{EloEstimate, Pentanomial, Trinomial};

/// Search statistics of one engine over its moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineStats {
    /// Moves it searched (book moves excluded).
    pub moves: u64,
    /// Sum and count of reported depths.
    pub depth_sum: u64,
    /// Moves with a reported depth.
    pub depth_moves: u64,
    /// Sum of reported selective depths.
    pub seldepth_sum: u64,
    /// Moves with a reported selective depth.
    pub seldepth_moves: u64,
    /// Sum of reported nodes.
    pub nodes_sum: u64,
    /// Moves with reported nodes.
    pub nodes_moves: u64,
    /// Wall time of those moves with reported nodes, ms (for nodes per second).
    pub nodes_time_ms: f64,
    /// Wall time of all its moves, ms.
    pub time_ms: f64,
    /// Games it lost by a fault, by termination kind.
    pub faults: BTreeMap<String, u64>,
}

/// The per-engine figures as numbers, for JSON and pages: each is computed once, here,
/// and the terminal, `arena report` and the live page show these same values.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Figures {
    /// The engine's name.
    pub engine: String,
    /// Searched (non-book) moves.
    pub moves: u64,
    /// Mean reported depth (nominal plies completed) per move that reported one.
    pub depth: Option<f64>,
    /// Mean reported selective depth (deepest ply reached) per move that reported one.
    pub seldepth: Option<f64>,
    /// Mean reported nodes per move that reported them.
    pub nodes_per_move: Option<f64>,
    /// Mean wall time per move as the arena timed it (`go` written to `bestmove` read), ms.
    pub ms_per_move: Option<f64>,
    /// Nodes per second: the reported nodes of all moves that reported them over the
    /// arena's wall time of those moves (not the mean of the engines' own `nps`).
    pub nps: Option<f64>,
}

impl EngineStats {
    /// Adds one move of this engine (book moves are not searched and are skipped).
    pub fn add_move(&mut self, m: &crate::record::MoveRecord) {
        if m.book {
            return;
        }
        self.moves += 1;
        let t = m.time_ms.unwrap_or(0.0);
        self.time_ms += t;
        if let Some(d) = m.depth {
            self.depth_sum += u64::from(d);
            self.depth_moves += 1;
        }
        if let Some(d) = m.seldepth {
            self.seldepth_sum += u64::from(d);
            self.seldepth_moves += 1;
        }
        if let Some(n) = m.nodes {
            self.nodes_sum += n;
            self.nodes_moves += 1;
            self.nodes_time_ms += t;
        }
    }

    /// The figures of these moves, named `engine`.
    pub fn figures(&self, engine: &str) -> Figures {
        let per = |sum: f64, n: u64| (n > 0).then(|| sum / n as f64);
        Figures {
            engine: engine.to_string(),
            moves: self.moves,
            depth: per(self.depth_sum as f64, self.depth_moves),
            seldepth: per(self.seldepth_sum as f64, self.seldepth_moves),
            nodes_per_move: per(self.nodes_sum as f64, self.nodes_moves),
            ms_per_move: per(self.time_ms, self.moves).map(|v| v.max(0.0)),
            nps: (self.nodes_time_ms > 0.0)
                .then(|| self.nodes_sum as f64 / (self.nodes_time_ms / 1000.0)),
        }
    }
}

impl Figures {
    /// The figures as printed everywhere: depth and seldepth with two decimals, nodes per
    /// move and nps whole, ms per move with two decimals, `-` where nothing was reported.
    pub fn cells(&self) -> [String; 5] {
        let show = |v: Option<f64>, digits: usize| {
            v.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
        };
        [
            show(self.depth, 2),
            show(self.seldepth, 2),
            show(self.nodes_per_move, 0),
            show(self.ms_per_move, 2),
            show(self.nps, 0),
        ]
    }
}

/// Everything the summary shows, updated game by game.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The two engines' names (engine 0 is the point of view).
    pub names: [String; 2],
    /// Game counts from engine 0's view.
    pub trinomial: Trinomial,
    /// Pair counts from engine 0's view.
    pub pentanomial: Pentanomial,
    pending_pairs: HashMap<u64, f64>,
    /// Games by termination kind.
    pub terminations: BTreeMap<String, u64>,
    /// Per engine.
    pub engines: [EngineStats; 2],
    /// Games recorded (interrupted included).
    pub games: u64,
    /// Interrupted games (not scored).
    pub interrupted: u64,
    /// Games whose engines' claims disagreed with the arena.
    pub claim_mismatches: u64,
    /// Arena latency samples: count, sum and maximum, ms.
    pub latency: (u64, f64, f64),
}

impl Summary {
    /// An empty summary for engines named `names`.
    pub fn new(names: [String; 2]) -> Self {
        Summary {
            names,
            ..Summary::default()
        }
    }

    /// Adds a finished game.
    pub fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        *self
            .terminations
            .entry(record.termination.kind().to_string())
            .or_default() += 1;
        if let Some(seat) = record.termination.at_fault() {
            let engine = record.player(seat).engine;
            *self.engines[engine]
                .faults
                .entry(record.termination.kind().to_string())
                .or_default() += 1;
        }
        if record.claims.as_ref().is_some_and(|c| !c.agree) {
            self.claim_mismatches += 1;
        }
        for m in record.moves.iter().filter(|m| !m.book) {
            let Some(seat) = m.side else { continue };
            self.engines[record.player(seat).engine].add_move(m);
            if let Some(l) = m.latency_ms {
                self.latency.0 += 1;
                self.latency.1 += l;
                self.latency.2 = self.latency.2.max(l);
            }
        }
        let Some(points) = record.points_of(0) else {
            self.interrupted += 1;
            return;
        };
        if points == 1.0 {
            self.trinomial.wins += 1;
        } else if points == 0.0 {
            self.trinomial.losses += 1;
        } else {
            self.trinomial.draws += 1;
        }
        if let Some(first) = self.pending_pairs.remove(&record.pair) {
            self.pentanomial.add_pair(first, points);
        } else {
            self.pending_pairs.insert(record.pair, points);
        }
    }

    /// The summary as text, several lines.
    pub fn render(&self) -> String {
        // Names come from command lines and file names: shown with controls escaped.
        let a = crate::safe_text::display(&self.names[0]);
        let b = crate::safe_text::display(&self.names[1]);
        let t = &self.trinomial;
        let mut out = String::new();
        let scored = t.games();
        let _ = writeln!(
            out,
            "Games {scored} scored{}: {a} {}, {}, {} (W/D/L from {a}'s view)",
            if self.interrupted > 0 {
                format!(" ({} interrupted)", self.interrupted)
            } else {
                String::new()
            },
            count(t.wins, "win", "wins"),
            count(t.draws, "draw", "draws"),
            count(t.losses, "loss", "losses")
        );
        if let Some(e) = t.elo() {
            let _ = writeln!(
                out,
                "Score of {a} vs {b}: {:.1}/{scored} = {:.1}%; draw ratio {:.1}%",
                t.points(),
                e.score * 100.0,
                t.draw_ratio() * 100.0
            );
            let _ = writeln!(
                out,
                "Elo difference ({a} minus {b}): {}, LOS {:.2}%, nElo {}",
                elo_text(&e),
                e.los * 100.0,
                nelo_text(&e)
            );
        }
        if let Some(e) = self.pentanomial.elo() {
            let c = self.pentanomial.counts;
            let _ = writeln!(
                out,
                "Pairs {} [LL LD WL+DD WD WW] = [{} {} {} {} {}]: Elo {}, LOS {:.2}%",
                self.pentanomial.pairs(),
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                elo_text(&e),
                e.los * 100.0
            );
        }
        let kinds: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(out, "Terminations: {}", kinds.join(", "));
        for (i, e) in self.engines.iter().enumerate() {
            let faults: Vec<String> = e.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let [depth, seldepth, nodes, ms, nps] = e.figures(&self.names[i]).cells();
            let _ = writeln!(
                out,
                "{:<20} {} moves, avg depth {depth}, seldepth {seldepth}, {nodes} nodes/move, {ms} ms/move, {nps} nps{}",
                crate::safe_text::display(&self.names[i]),
                e.moves,
                if faults.is_empty() {
                    String::new()
                } else {
                    format!("; lost by fault: {}", faults.join(", "))
                }
            );
        }
        if self.latency.0 > 0 {
            let _ = writeln!(
                out,
                "Arena latency (bestmove read -> next go written): mean {:.3} ms, max {:.3} ms over {} moves",
                self.latency.1 / self.latency.0 as f64,
                self.latency.2,
                self.latency.0
            );
        }
        if self.claim_mismatches > 0 {
            let _ = writeln!(
                out,
                "Engines' claimed results differed from the arena's in {} games (see the journal's claims)",
                self.claim_mismatches
            );
        }
        out
    }

    /// Both engines' figures, engine 0 first.
    pub fn figures(&self) -> [Figures; 2] {
        [0, 1].map(|i| self.engines[i].figures(&self.names[i]))
    }

    /// One short line for the progress bar.
    pub fn short(&self) -> String {
        let t = &self.trinomial;
        let elo = t
            .elo()
            .map(|e| format!(" Elo {}", elo_text(&e)))
            .unwrap_or_default();
        format!("W/D/L {}/{}/{}{elo}", t.wins, t.draws, t.losses)
    }
}

/// `1 win`, `2 wins`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A signed number with two decimals that never shows `-0.00`.
pub fn signed(v: f64) -> String {
    let text = format!("{v:+.2}");
    if text == "-0.00" {
        "+0.00".into()
    } else {
        text
    }
}

fn nelo_text(e: &EloEstimate) -> String {
    if e.nelo.is_finite() && e.nelo_error.is_finite() {
        format!("{} ± {:.2}", signed(e.nelo), e.nelo_error)
    } else {
        "unbounded (every game the same result)".into()
    }
}

/// Elo with its 95% interval; an interval that reaches a 0% or 100% score is one-sided
/// and says so (never `± inf`).
pub fn elo_text(e: &EloEstimate) -> String {
    match (e.elo.is_finite(), e.lower.is_finite(), e.upper.is_finite()) {
        _ if e.score >= 1.0 && !e.lower.is_finite() => "all games won: no finite estimate".into(),
        _ if e.score <= 0.0 && !e.upper.is_finite() => "all games lost: no finite estimate".into(),
        (true, true, true) => format!("{} ± {:.2}", signed(e.elo), e.error),
        (false, true, _) => format!("all games won: at least {} (95%)", signed(e.lower)),
        (false, _, true) => format!("all games lost: at most {} (95%)", signed(e.upper)),
        (true, true, false) => format!(
            "{}, at least {} (95%; no upper bound yet)",
            signed(e.elo),
            signed(e.lower)
        ),
        (true, false, true) => format!(
            "{}, at most {} (95%; no lower bound yet)",
            signed(e.elo),
            signed(e.upper)
        ),
        _ => "no bound yet".into(),
    }
}

/// Which seat engine 0 had, for readers of records.
pub fn seat_of_engine(record: &GameRecord, engine: usize) -> Seat {
    if record.p1.engine == engine {
        Seat::P1
    } else {
        Seat::P2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Trinomial;

    #[test]
    fn words_and_numbers_for_people() {
        assert_eq!(count(1, "loss", "losses"), "1 loss");
        assert_eq!(count(0, "loss", "losses"), "0 losses");
        assert_eq!(signed(-0.001), "+0.00");
        assert_eq!(signed(-0.006), "-0.01");
        let even = Trinomial {
            wins: 0,
            losses: 0,
            draws: 4,
        }
        .elo()
        .unwrap();
        assert_eq!(elo_text(&even), "+0.00 ± 0.00");
        // 9 wins and a draw: the interval reaches a 100% score, so it has no upper end.
        let sweep = Trinomial {
            wins: 9,
            losses: 0,
            draws: 1,
        }
        .elo()
        .unwrap();
        let text = elo_text(&sweep);
        assert!(
            text.contains("no upper bound") && !text.contains("inf"),
            "{text}"
        );
        let all = Trinomial {
            wins: 5,
            losses: 0,
            draws: 0,
        }
        .elo()
        .unwrap();
        assert_eq!(elo_text(&all), "all games won: no finite estimate");
    }
}
