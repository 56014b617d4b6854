//! Tournaments between any number of engines: round robin or gauntlet, colour-swapped
//! pairs from the same opening, a journal that lets a killed run resume, deterministic
//! shards whose journals merge into the standings of one run, and standings with a cross
//! table and jointly fitted Bradley-Terry ratings ([`crate::ratings`]).
//!
//! The schedule is a pure function of the configuration and the seed: game `g` belongs to
//! pair `g / 2`; pair `p` is round `p / P` and pairing `p % P` (`P` pairings per round);
//! in game `2p` the pairing's first engine moves first, in `2p + 1` the second. Every
//! pairing of a round starts from the round's opening. Shard `K/N` plays the pairs with
//! `p % N == K - 1`, so pairs never straddle shards.
//!
//! Journal ([`crate::journal`]): the first line is a header `{"tournament": {...}}`
//! holding a fingerprint of everything that decides the games (engines, game, openings,
//! seed, rounds, format) and the shard; every other line is one finished game
//! ([`GameRecord`], with the tournament's game index and engine indices).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::journal::{self, Header};
use crate::ratings::{fit, PairScore, Ratings};
use crate::record::GameRecord;
use crate::referee::{EngineConfig, RefereeSettings};
use crate::run_loop::{self, Pinning, Run, Unfinished};
use crate::schedule::{Schedule, ScheduledGame, Shard};
use crate::sprt::{Decision, Sprt};

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Everyone against everyone.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Format {
    /// Parses `round-robin` or `gauntlet`.
    ///
    /// # Errors
    /// A message naming the accepted values.
    pub fn parse(text: &str) -> Result<Format, String> {
        match text {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!("--format '{text}': use round-robin or gauntlet")),
        }
    }

    /// `round-robin` or `gauntlet`.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }

    /// The pairings of one round for `n` engines, in a fixed order.
    pub fn pairings(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            Format::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
            Format::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        }
    }
}

/// The tournament's schedule.
#[derive(Clone, Debug)]
pub struct TournamentSchedule {
    /// Pairings of one round (engine indices).
    pub pairings: Vec<(usize, usize)>,
    /// Rounds: each pairing plays one colour-swapped pair per round.
    pub rounds: u64,
    /// Openings by round (pair `r` of this schedule is round `r`'s opening).
    pub openings: Schedule,
}

impl TournamentSchedule {
    /// Number of games in the whole tournament.
    pub fn games(&self) -> u64 {
        self.rounds * self.pairings.len() as u64 * 2
    }

    /// Game `index`: its pairing and what the referee needs (`p1_engine` is 0 when the
    /// pairing's first engine moves first).
    pub fn game(&self, index: u64) -> ((usize, usize), ScheduledGame) {
        let pair = index / 2;
        let per_round = self.pairings.len() as u64;
        let round = pair / per_round;
        let pairing = self.pairings[(pair % per_round) as usize];
        (
            pairing,
            ScheduledGame {
                index,
                pair,
                p1_engine: (index % 2) as usize,
                opening: self.openings.opening(round),
            },
        )
    }
}

/// A tournament to run.
#[derive(Debug)]
pub struct TournamentConfig {
    /// The engines.
    pub engines: Vec<Arc<EngineConfig>>,
    /// Format (kept for the record; the pairings are in the schedule).
    pub format: Format,
    /// The schedule.
    pub schedule: TournamentSchedule,
    /// The part of it this process plays.
    pub shard: Shard,
    /// The journal's header for this tournament.
    pub header: Header,
    /// Referee settings.
    pub referee: RefereeSettings,
    /// Games played at once.
    pub concurrency: usize,
    /// `--affinity`: the cores to pin to, two per worker (shared by the worker's engines).
    pub affinity: Option<Vec<usize>>,
    /// The run's id.
    pub run_id: String,
    /// Directory of this run's game files and logs.
    pub run_dir: PathBuf,
    /// The journal.
    pub journal: PathBuf,
    /// Write protocol transcripts.
    pub transcripts: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// Print the standings every this many games (0: only at the end).
    pub report_every: u64,
    /// Stop when this test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// The run's PGN file and its tags.
    pub records: crate::pgn::RecordFiles,
}

/// How a tournament ended.
#[derive(Debug)]
pub struct TournamentOutcome {
    /// All finished games of this shard (earlier runs included).
    pub games: Vec<GameRecord>,
    /// Games that were already in the journal at the start.
    pub resumed: usize,
    /// Interrupted by a signal.
    pub interrupted: bool,
    /// The SPRT's decision, if any: the decision, the LLR and the number of games of the
    /// duel when it was taken.
    pub decision: Option<(Decision, f64, u64)>,
}

/// Runs the tournament (this shard of it) until done, decided or cancelled, resuming
/// from the journal.
///
/// # Errors
/// A mismatched journal, or failing to write it.
pub async fn run_tournament(
    config: TournamentConfig,
    cancel: watch::Receiver<bool>,
) -> anyhow::Result<TournamentOutcome> {
    // The journal first: a run it refuses leaves no folder behind.
    let (journal, earlier) = journal::open_tournament(&config.journal, &config.header)?;
    let played: std::collections::HashSet<u64> = earlier.iter().map(|g| g.game).collect();
    let pending: Vec<u64> = (0..config.schedule.games())
        .filter(|&g| config.shard.has_pair(g / 2) && !played.contains(&g))
        .collect();
    let schedule = config.schedule;
    let outcome = run_loop::run(
        Run {
            engines: config.engines,
            game_of: Box::new(move |index| schedule.game(index)),
            pending,
            earlier,
            journal,
            referee: config.referee,
            concurrency: config.concurrency,
            affinity: config.affinity.map(|cores| (cores, Pinning::Shared)),
            run_id: config.run_id,
            run_dir: config.run_dir,
            transcripts: config.transcripts,
            records: config.records,
            progress: config.progress,
            quiet: false,
            report_every: config.report_every,
            sprt: config.sprt,
            stamp: None,
            annotate: None,
            unfinished: Unfinished::Drop,
            report: |names, games, _| Standings::of(names, games).render(),
        },
        cancel,
    )
    .await?;
    Ok(TournamentOutcome {
        games: outcome.games,
        resumed: outcome.resumed,
        interrupted: outcome.interrupted,
        decision: outcome.decision,
    })
}

/// One engine's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// Its name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Wins, draws, losses.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Points (a draw is half a point).
    pub points: f64,
    /// Bradley-Terry rating (mean of the field 0).
    pub elo: f64,
    /// Its 95% error bar.
    pub error: f64,
    /// Likelihood of superiority over the engine ranked just below (`None` for the last).
    pub los_next: Option<f64>,
}

/// The standings of a set of games: ranking, cross table and ratings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    /// Games scored.
    pub games: u64,
    /// Engines by rank (rating, then points, then name).
    pub ranking: Vec<Standing>,
    /// Engine names in their original order (the cross table's order).
    pub engines: Vec<String>,
    /// `cross[i][j]` = `[wins, draws, losses]` of engine `i` against engine `j`.
    pub cross: Vec<Vec<[u64; 3]>>,
    /// The fit itself (original order): ratings, errors, LOS matrix, prior used.
    pub ratings: Ratings,
}

impl Standings {
    /// Standings of `games` between the engines `names` (records carry engine indices).
    pub fn of(names: &[String], games: &[GameRecord]) -> Standings {
        let n = names.len();
        let mut cross = vec![vec![[0u64; 3]; n]; n];
        let mut scored = 0;
        for g in games {
            let (a, b) = (g.p1.engine, g.p2.engine);
            if a >= n || b >= n {
                continue;
            }
            let Some(p1_points) = points_of_p1(g) else {
                continue;
            };
            scored += 1;
            let col = |points: f64| {
                if points == 1.0 {
                    0
                } else if points == 0.5 {
                    1
                } else {
                    2
                }
            };
            cross[a][b][col(p1_points)] += 1;
            cross[b][a][col(1.0 - p1_points)] += 1;
        }
        let table: Vec<Vec<PairScore>> = cross
            .iter()
            .map(|row| {
                row.iter()
                    .map(|[w, d, l]| PairScore {
                        games: (w + d + l) as f64,
                        points: *w as f64 + *d as f64 / 2.0,
                    })
                    .collect()
            })
            .collect();
        let ratings = fit(&table);
        let mut order: Vec<usize> = (0..n).collect();
        let points = |i: usize| table[i].iter().map(|c| c.points).sum::<f64>();
        order.sort_by(|&x, &y| {
            ratings.elo[y]
                .total_cmp(&ratings.elo[x])
                .then(points(y).total_cmp(&points(x)))
                .then(names[x].cmp(&names[y]))
        });
        let ranking = order
            .iter()
            .enumerate()
            .map(|(rank, &i)| {
                let sum = |k: usize| cross[i].iter().map(|c| c[k]).sum::<u64>();
                Standing {
                    name: names[i].clone(),
                    games: sum(0) + sum(1) + sum(2),
                    wins: sum(0),
                    draws: sum(1),
                    losses: sum(2),
                    points: points(i),
                    elo: ratings.elo[i],
                    error: ratings.error[i],
                    los_next: order.get(rank + 1).map(|&j| ratings.los[i][j]),
                }
            })
            .collect();
        Standings {
            games: scored,
            ranking,
            engines: names.to_vec(),
            cross,
            ratings,
        }
    }

    /// The standings as text: ranking with ratings, then the cross table.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let width = self
            .engines
            .iter()
            .map(|n| n.len())
            .max()
            .unwrap_or(4)
            .max(6);
        let _ = writeln!(
            out,
            "Ratings (Bradley-Terry, joint maximum likelihood, draws = half points; ± 95%){}",
            if self.ratings.prior {
                "; one virtual draw per pairing added (someone won or lost every game)"
            } else {
                ""
            }
        );
        let _ = writeln!(
            out,
            "{:>4} {:<width$} {:>8} {:>8} {:>6} {:>7} {:>6} {:>18} {:>9}",
            "rank", "engine", "elo", "±", "games", "points", "score", "W/D/L", "LOS next"
        );
        for (rank, s) in self.ranking.iter().enumerate() {
            let score = if s.games > 0 {
                format!("{:.1}%", 100.0 * s.points / s.games as f64)
            } else {
                "-".into()
            };
            let _ = writeln!(
                out,
                "{:>4} {:<width$} {:>+8.1} {:>8.1} {:>6} {:>7.1} {:>6} {:>18} {:>9}",
                rank + 1,
                s.name,
                s.elo,
                s.error,
                s.games,
                s.points,
                score,
                format!("{}/{}/{}", s.wins, s.draws, s.losses),
                s.los_next
                    .map_or("-".into(), |l| format!("{:.1}%", l * 100.0))
            );
        }
        let _ = writeln!(
            out,
            "Cross table (row's points against column, of games played; engines by rank):"
        );
        let order: Vec<usize> = self
            .ranking
            .iter()
            .filter_map(|s| self.engines.iter().position(|n| *n == s.name))
            .collect();
        let cell = 11;
        let width = width + 1 + self.engines.len().to_string().len() + 1;
        let _ = write!(out, "{:<width$}", "");
        for rank in 0..order.len() {
            let _ = write!(out, " {:>cell$}", format!("#{}", rank + 1));
        }
        let _ = writeln!(out);
        for (rank, &i) in order.iter().enumerate() {
            let _ = write!(
                out,
                "{:<width$}",
                format!("#{} {}", rank + 1, self.engines[i])
            );
            for &j in &order {
                let [w, d, l] = self.cross[i][j];
                let games = w + d + l;
                let text = if i == j {
                    "-".to_string()
                } else if games == 0 {
                    ".".to_string()
                } else {
                    format!("{}/{games}", w as f64 + d as f64 / 2.0)
                };
                let _ = write!(out, " {text:>cell$}");
            }
            let _ = writeln!(out);
        }
        out
    }
}

fn points_of_p1(g: &GameRecord) -> Option<f64> {
    match g.result.as_str() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The words of one engine object of a `--config` file, as `--engine` would take them.
///
/// # Errors
/// A value that is not a string, number or boolean (or list/object where allowed).
pub fn config_engine_words(engine: &serde_json::Value, at: &str) -> anyhow::Result<Vec<String>> {
    let serde_json::Value::Object(map) = engine else {
        bail!("{at}: an engine must be an object of key: value");
    };
    let text = |v: &serde_json::Value, key: &str| -> anyhow::Result<String> {
        match v {
            serde_json::Value::String(s) => Ok(s.clone()),
            serde_json::Value::Number(n) => Ok(n.to_string()),
            serde_json::Value::Bool(b) => Ok(b.to_string()),
            _ => bail!("{at}: '{key}' must be a string or a number"),
        }
    };
    let mut words = Vec::new();
    for (key, value) in map {
        match (key.as_str(), value) {
            ("options" | "env", serde_json::Value::Object(inner)) => {
                let prefix = if key == "options" { "option" } else { "env" };
                for (k, v) in inner {
                    words.push(format!("{prefix}.{k}={}", text(v, k)?));
                }
            }
            ("args", serde_json::Value::Array(list)) => {
                let quoted: anyhow::Result<Vec<String>> = list
                    .iter()
                    .map(|a| {
                        let a = text(a, "args")?;
                        Ok(if a.contains('\'') {
                            format!("\"{}\"", a.replace('\\', "\\\\").replace('"', "\\\""))
                        } else {
                            format!("'{a}'")
                        })
                    })
                    .collect();
                words.push(format!("args={}", quoted?.join(" ")));
            }
            (key, value) => words.push(format!("{key}={}", text(value, key)?)),
        }
    }
    Ok(words)
}

/// Writes the standings as pretty JSON with the tournament's fingerprint.
///
/// # Errors
/// Failing to create or write the file.
pub fn write_standings(path: &Path, header: &Header, standings: &Standings) -> anyhow::Result<()> {
    let value = serde_json::json!({
        "fingerprint": header.fingerprint,
        "games_scheduled": header.games,
        "standings": standings,
    });
    crate::atomic_file::write(path, serde_json::to_string_pretty(&value)? + "\n")
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings() {
        assert_eq!(
            Format::RoundRobin.pairings(4),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(Format::Gauntlet.pairings(4), vec![(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn shards_partition_the_pairs() {
        let shards: Vec<Shard> = (1..=3)
            .map(|k| Shard::parse(&format!("{k}/3")).unwrap())
            .collect();
        for pair in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.has_pair(pair)).count(), 1);
        }
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn hand_worked_standings() {
        // Three engines; A beats B twice, A-C drawn twice, B-C one win each.
        let names: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
        let g = |p1: usize, p2: usize, result: &str| -> GameRecord {
            let mut r: GameRecord = serde_json::from_value(serde_json::json!({
                "version": 1, "run": "t", "game": 0, "pair": 0, "spec": "tictactoe",
                "p1": {"name": "x", "engine": p1, "tc": "d1"},
                "p2": {"name": "y", "engine": p2, "tc": "d1"},
                "opening": {"position": null, "moves": []}, "moves": [],
                "result": result, "winner": null, "termination": {"kind": "normal"},
                "reason": "", "final_position": "", "started_unix_ms": 0, "duration_ms": 0
            }))
            .unwrap();
            r.game = 0;
            r
        };
        let games = vec![
            g(0, 1, "1-0"),
            g(1, 0, "0-1"),
            g(0, 2, "1/2-1/2"),
            g(2, 0, "1/2-1/2"),
            g(1, 2, "1-0"),
            g(2, 1, "1-0"),
            g(2, 1, "*"),
        ];
        let s = Standings::of(&names, &games);
        assert_eq!(s.games, 6);
        assert_eq!(s.cross[0][1], [2, 0, 0]);
        assert_eq!(s.cross[1][0], [0, 0, 2]);
        assert_eq!(s.cross[0][2], [0, 2, 0]);
        assert_eq!(s.cross[1][2], [1, 0, 1]);
        assert_eq!(s.ranking[0].name, "A");
        assert_eq!(s.ranking[0].points, 3.0);
        // B scored against C, C against A: everyone reaches everyone, a finite maximum.
        assert!(!s.ratings.prior);
        assert!(s.ratings.elo[0] > s.ratings.elo[2] && s.ratings.elo[2] > s.ratings.elo[1]);
    }
}
