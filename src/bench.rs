//! `agon bench`: a fixed, deterministic set of positions of every game, searched to a
//! fixed depth with a fresh table each; prints nodes and nodes per second. Node counts
//! are identical on every build (Zobrist keys are compile-time constants), so they are
//! also a signature of the search: a change that alters them changed the search.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::games::{dispatch, GameSpec, GameVisitor, GAME_NAMES};
use crate::search::{new_searcher, Control, Limits, SearchOptions, SearcherKind};

/// Totals of one bench run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BenchTotals {
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

struct BenchGame<'a> {
    kind: SearcherKind,
    ordering: bool,
    rows: &'a mut Vec<[String; 6]>,
}

/// The position lines, columns as wide as their widest cell (game names and moves vary
/// in length), the position last as it may be long.
fn table(rows: &[[String; 6]]) -> String {
    let mut width = [0; 6];
    for row in rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for [spec, depth, nodes, ms, best, position] in rows {
        let _ = writeln!(
            out,
            "{spec:<w0$}  depth {depth:>w1$}  nodes {nodes:>w2$}  time {ms:>w3$} ms  best {best:<w4$}  {position}",
            w0 = width[0],
            w1 = width[1],
            w2 = width[2],
            w3 = width[3],
            w4 = width[4],
        );
    }
    out
}

impl GameVisitor for BenchGame<'_> {
    type Output = Result<BenchTotals, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut totals = BenchTotals::default();
        for &(params, position, depth) in G::bench_positions() {
            let spec =
                GameSpec::parse(&format!("{} {params}", G::NAME)).map_err(|e| e.to_string())?;
            let settings = spec.settings::<G>();
            let mut pos = if position == "startpos" {
                G::start(&settings)
            } else {
                G::parse_position(&settings, position).map_err(|e| e.to_string())?
            };
            let options = SearchOptions {
                ordering: self.ordering,
                default_depth: depth,
                ..SearchOptions::plain(G::heuristics()[0].1)
            };
            let mut searcher = new_searcher::<G>(self.kind, &options);
            let stop = AtomicBool::new(false);
            let start = Instant::now();
            let result = searcher.search(
                &mut pos,
                &Limits::depth(depth),
                &Control::new(&stop),
                &mut |_| {},
            );
            let elapsed = start.elapsed();
            totals.nodes += result.nodes;
            totals.elapsed += elapsed;
            let best = result
                .best
                .map_or("none".to_string(), |m| pos.format_move(m));
            self.rows.push([
                spec.to_string(),
                depth.to_string(),
                result.nodes.to_string(),
                elapsed.as_millis().to_string(),
                best,
                position.to_string(),
            ]);
        }
        Ok(totals)
    }
}

/// Nodes per second of a total.
pub fn nps(totals: BenchTotals) -> u64 {
    (totals.nodes as f64 / totals.elapsed.as_secs_f64().max(1e-9)) as u64
}

/// Runs the bench for the games in `only` (all when empty) with searcher `kind` (move
/// ordering on or off for alpha-beta); returns
/// the report text, one line per position, then per game and overall totals.
///
/// # Errors
/// A message when a name in `only` is not a game.
pub fn run_bench(only: &[String], kind: SearcherKind, ordering: bool) -> Result<String, String> {
    for name in only {
        if !GAME_NAMES.contains(&name.as_str()) {
            return Err(format!(
                "unknown game '{name}' (games: {})",
                GAME_NAMES.join(", ")
            ));
        }
    }
    let mut rows = Vec::new();
    let mut all = BenchTotals::default();
    let mut per_game = Vec::new();
    for name in GAME_NAMES
        .iter()
        .filter(|n| only.is_empty() || only.iter().any(|o| o == *n))
    {
        let totals = dispatch(
            name,
            BenchGame {
                kind,
                ordering,
                rows: &mut rows,
            },
        )
        .expect("registered")?;
        all.nodes += totals.nodes;
        all.elapsed += totals.elapsed;
        per_game.push((name, totals));
    }
    let mut report = table(&rows);
    for (name, totals) in per_game {
        let _ = writeln!(
            report,
            "game {name}: nodes {} time {} ms nps {}",
            totals.nodes,
            totals.elapsed.as_millis(),
            nps(totals)
        );
    }
    let _ = writeln!(
        report,
        "total ({}): nodes {} time {} ms nps {}",
        kind.name(),
        all.nodes,
        all.elapsed.as_millis(),
        nps(all)
    );
    Ok(report)
}
