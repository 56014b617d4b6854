//! `arena report`: a self-contained HTML page (inline SVG, no scripts, no network) from
//! any journal the arena writes: a match's, a tournament's (its header line included),
//! the shards of one, or several appended matches.
//!
//! The numbers are the ones the arena prints: the ratings and the cross table are
//! [`Standings::of`] (the same call `arena tournament` prints and `arena serve` shows), and
//! with two engines the Elo difference, pairs and SPRT are [`Summary`] and [`Sprt`], as
//! `arena match` prints them. Charts: per engine configuration (told apart by the engine
//! name each game recorded) the mean nodes, nps, depth, selective depth, time used, clock
//! left and score of its n-th searched move, each with a band of one standard deviation
//! across games; game lengths; ratings with their 95% intervals; the SPRT's LLR over the
//! games with its bounds.

use std::collections::BTreeMap;

use crate::record::{GameRecord, ScoreRecord, Seat};
use crate::safe_text::html as escape_html;
use crate::sprt::Model;
use crate::stats::Trinomial;
use crate::summary::{EngineStats, Figures, Summary};

mod page;
mod svg;

use crate::tournament::Standings;
pub use page::{render, render_with};

/// Scores of a win or loss in N plies are drawn at this many centi-units.
const MATE_CP: f64 = 1000.0;

/// Escapes text for HTML (control characters shown escaped; see [`crate::safe_text`]).
pub fn escape(text: &str) -> String {
    escape_html(text)
}

/// The engines of `records` by name (order of first appearance, the lower engine index of
/// a game first, so that engine 0 of a match's command line comes first whoever moved
/// first) and the records with
/// their engine indices rewritten to that order, so that several matches of one journal
/// are rated together.
pub fn by_name(records: &[GameRecord]) -> (Vec<String>, Vec<GameRecord>) {
    let mut names: Vec<String> = Vec::new();
    let mut index = |name: &str| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    let remapped = records
        .iter()
        .map(|r| {
            let mut r = r.clone();
            // Engine 0 of the command line first, whoever moved first in the game.
            if r.p2.engine < r.p1.engine {
                r.p2.engine = index(&r.p2.name);
                r.p1.engine = index(&r.p1.name);
            } else {
                r.p1.engine = index(&r.p1.name);
                r.p2.engine = index(&r.p2.name);
            }
            r
        })
        .collect();
    (names, remapped)
}

/// The match's summary when the records hold exactly two engines: what `arena match`
/// prints, from engine 0's view (see [`by_name`]).
pub fn match_summary(records: &[GameRecord]) -> Option<Summary> {
    let (names, remapped) = by_name(records);
    let [a, b] = <[String; 2]>::try_from(names).ok()?;
    let mut summary = Summary::new([a, b]);
    remapped.iter().for_each(|r| summary.add(r));
    Some(summary)
}

/// Every configuration's figures (what the terminal prints per engine), engine 0 first.
pub fn figures(records: &[GameRecord]) -> Vec<Figures> {
    gather(records).iter().map(ConfigStats::figures).collect()
}

/// The standings of the records, rated exactly as `arena tournament` rates them.
pub fn standings(records: &[GameRecord]) -> (Vec<String>, Standings) {
    let (names, remapped) = by_name(records);
    let s = Standings::of(&names, &remapped);
    (names, s)
}

/// Mean and spread per move number (the configuration's 1st, 2nd... searched move).
#[derive(Clone, Debug, Default)]
pub(crate) struct Series {
    /// Sum, sum of squares, count.
    sums: Vec<(f64, f64, u64)>,
}

impl Series {
    fn add(&mut self, index: usize, value: f64) {
        if self.sums.len() <= index {
            self.sums.resize(index + 1, (0.0, 0.0, 0));
        }
        let s = &mut self.sums[index];
        s.0 += value;
        s.1 += value * value;
        s.2 += 1;
    }

    /// Mean and standard deviation at each move number.
    pub(crate) fn points(&self) -> Vec<Option<(f64, f64)>> {
        self.sums
            .iter()
            .map(|&(s, q, n)| {
                (n > 0).then(|| {
                    let mean = s / n as f64;
                    (mean, (q / n as f64 - mean * mean).max(0.0).sqrt())
                })
            })
            .collect()
    }
}

/// What the report knows about one engine configuration.
#[derive(Clone, Debug, Default)]
pub struct ConfigStats {
    /// The engine name from the journal.
    pub name: String,
    /// Games, wins, draws and losses against any opponent.
    pub results: Trinomial,
    /// Results as the first player.
    pub as_p1: Trinomial,
    /// Results as the second player.
    pub as_p2: Trinomial,
    /// Searched (non-book) moves.
    pub moves: u64,
    /// The figures the terminal prints too (see [`crate::summary::Figures`]).
    pub search: EngineStats,
    nodes: Series,
    nps: Series,
    depth: Series,
    seldepth: Series,
    time: Series,
    clock: Series,
    score: Series,
}

impl ConfigStats {
    /// The configuration's figures, computed as the terminal's summary computes them.
    pub fn figures(&self) -> Figures {
        self.search.figures(&self.name)
    }
}

/// Gathers every configuration of the records, in order of first appearance.
pub fn gather(records: &[GameRecord]) -> Vec<ConfigStats> {
    let mut order: Vec<String> = Vec::new();
    let mut by_name: BTreeMap<String, ConfigStats> = BTreeMap::new();
    for record in records {
        let outcome = record.outcome();
        // Engine 0 of the command line first, as in [`by_name`].
        let seats = if record.p2.engine < record.p1.engine {
            [Seat::P2, Seat::P1]
        } else {
            [Seat::P1, Seat::P2]
        };
        for seat in seats {
            let name = record.player(seat).name.clone();
            let stats = by_name.entry(name.clone()).or_insert_with(|| {
                order.push(name.clone());
                ConfigStats {
                    name,
                    ..ConfigStats::default()
                }
            });
            if outcome.is_some() {
                let colour = if seat == Seat::P1 {
                    &mut stats.as_p1
                } else {
                    &mut stats.as_p2
                };
                for t in [&mut stats.results, colour] {
                    match record.winner {
                        Some(w) if w == seat => t.wins += 1,
                        Some(_) => t.losses += 1,
                        None => t.draws += 1,
                    }
                }
            }
            let searched = record
                .moves
                .iter()
                .filter(|m| m.side == Some(seat) && !m.book);
            for (i, m) in searched.enumerate() {
                stats.moves += 1;
                stats.search.add_move(m);
                if let Some(n) = m.nodes {
                    stats.nodes.add(i, n as f64);
                }
                if let Some(n) = m.nps {
                    stats.nps.add(i, n as f64);
                }
                if let Some(d) = m.depth {
                    stats.depth.add(i, f64::from(d));
                }
                if let Some(d) = m.seldepth {
                    stats.seldepth.add(i, f64::from(d));
                }
                if let Some(t) = m.time_ms {
                    stats.time.add(i, t);
                }
                if let Some(c) = m.clock_ms {
                    stats.clock.add(i, c as f64);
                }
                if let Some(s) = m.score {
                    let cp = match s {
                        ScoreRecord::Cp(v) => f64::from(v).clamp(-MATE_CP, MATE_CP),
                        ScoreRecord::Win(_) => MATE_CP,
                        ScoreRecord::Loss(_) => -MATE_CP,
                    };
                    stats.score.add(i, cp);
                }
            }
        }
    }
    order
        .into_iter()
        .filter_map(|n| by_name.remove(&n))
        .collect()
}
