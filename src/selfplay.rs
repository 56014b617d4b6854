//! `agon selfplay`: games of the default engine against itself, for fitting evaluations
//! and move scores to the engine's own play.
//!
//! Every move is searched to a fixed number of nodes with a fresh searcher per game and
//! side, so a game depends only on its index and the seed: the same command writes the
//! same file on every machine, with any number of threads. The first `random_plies` plies
//! of a game are drawn from the seed among the `random_top` moves the game's ordering hint
//! ranks highest (in Tak: flat placements near the centre and near other pieces), which
//! spreads the games over many openings without opening with nonsense.
//!
//! Output: `#` comment lines saying how the games were made, then one line per game,
//! `RESULT|MOVES|SCORES`: the first player's result (1, 0.5, 0); the moves in the game's
//! notation, space-separated; for every move, the searched root score for the side that
//! played it (centi-units; `w` or `l` for a proven win or loss; `-` for a drawn opening
//! ply).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::game::{Game, Outcome, Side};
use crate::games::{dispatch, GameSpec, GameVisitor};
use crate::search::{new_searcher, Control, Limits, SearchOptions, SearcherKind, WIN_THRESHOLD};
use crate::zobrist::splitmix64;

/// How the games are played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayOptions {
    /// Number of games.
    pub games: usize,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Seed of the opening draws.
    pub seed: u64,
    /// Plies drawn at random at the start of each game.
    pub random_plies: u32,
    /// The random plies are drawn among this many moves, best by the ordering hint.
    pub random_top: usize,
    /// A game still going after this many plies is recorded as a draw.
    pub max_plies: u32,
    /// Games played at once.
    pub threads: usize,
    /// A line for the header, e.g. which commit's engine played (may be empty).
    pub note: String,
}

/// One finished game.
struct Record {
    result: f64,
    moves: Vec<String>,
    scores: Vec<String>,
}

fn play_one<G: Game>(start: &G, options: &SelfPlayOptions, index: usize) -> Record {
    let mut pos = start.clone();
    let search_options = SearchOptions::plain(G::heuristics()[0].1);
    let mut searchers = [
        new_searcher::<G>(SearcherKind::Pvs, &search_options),
        new_searcher::<G>(SearcherKind::Pvs, &search_options),
    ];
    let limits = Limits {
        nodes: Some(options.nodes),
        ..Limits::default()
    };
    let (mut rng, _) =
        splitmix64(options.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let stop = AtomicBool::new(false);
    let mut moves = Vec::new();
    let mut scores = Vec::new();
    let mut buffer = Vec::new();
    let mut ply = 0;
    while pos.outcome().is_none() && ply < options.max_plies {
        let (mv, score) = if ply < options.random_plies {
            buffer.clear();
            pos.generate_moves(&mut buffer);
            let mut keyed: Vec<(i32, G::Move)> = buffer
                .iter()
                .map(|&m| (pos.move_order_hint(m), m))
                .collect();
            keyed.sort_by_key(|e| std::cmp::Reverse(e.0));
            let top = keyed.len().min(options.random_top.max(1));
            let (next, r) = splitmix64(rng);
            rng = next;
            (keyed[(r % top as u64) as usize].1, "-".to_string())
        } else {
            let searcher = &mut searchers[pos.side_to_move().index()];
            let result = searcher.search(&mut pos, &limits, &Control::new(&stop), &mut |_| {});
            let Some(mv) = result.best else { break };
            let score = if result.score >= WIN_THRESHOLD {
                "w".to_string()
            } else if result.score <= -WIN_THRESHOLD {
                "l".to_string()
            } else {
                result.score.to_string()
            };
            (mv, score)
        };
        moves.push(pos.format_move(mv));
        scores.push(score);
        pos.make_move(mv);
        ply += 1;
    }
    let result = match pos.outcome() {
        Some(Outcome::Win(Side::First)) => 1.0,
        Some(Outcome::Win(Side::Second)) => 0.0,
        _ => 0.5,
    };
    Record {
        result,
        moves,
        scores,
    }
}

struct SelfPlayGame<'a> {
    spec: &'a GameSpec,
    options: &'a SelfPlayOptions,
    progress: &'a (dyn Fn(usize) + Sync),
}

impl GameVisitor for SelfPlayGame<'_> {
    type Output = String;
    fn visit<G: Game>(self) -> String {
        let start = G::start(&self.spec.settings::<G>());
        let next = AtomicUsize::new(0);
        let records: Mutex<Vec<Option<Record>>> =
            Mutex::new((0..self.options.games).map(|_| None).collect());
        std::thread::scope(|scope| {
            for _ in 0..self.options.threads.max(1) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= self.options.games {
                        break;
                    }
                    let record = play_one(&start, self.options, i);
                    let mut all = records.lock().unwrap_or_else(|p| p.into_inner());
                    all[i] = Some(record);
                    let done = all.iter().filter(|r| r.is_some()).count();
                    drop(all);
                    (self.progress)(done);
                });
            }
        });
        let o = self.options;
        let mut out = format!(
            "# Self-play of agon's default engine: {}, {} games, {} nodes a move, seed {},\n\
             # {} random plies among the {} best by the ordering hint, draw after {} plies.\n\
             # Made by: agon selfplay --game \"{}\" --games {} --nodes {} --seed {} \
             --random-plies {} --random-top {} --max-plies {} ({})\n\
             # RESULT (first player's: 1, 0.5, 0)|MOVES|SCORES (mover's view; w/l proven; - drawn)\n",
            self.spec,
            o.games,
            o.nodes,
            o.seed,
            o.random_plies,
            o.random_top,
            o.max_plies,
            self.spec,
            o.games,
            o.nodes,
            o.seed,
            o.random_plies,
            o.random_top,
            o.max_plies,
            crate::engine::ENGINE_NAME,
        );
        if !o.note.is_empty() {
            let _ = writeln!(out, "# {}", o.note.replace('\n', " "));
        }
        for record in records.into_inner().unwrap_or_else(|p| p.into_inner()) {
            let record = record.expect("every game played");
            let _ = writeln!(
                out,
                "{}|{}|{}",
                record.result,
                record.moves.join(" "),
                record.scores.join(" ")
            );
        }
        out
    }
}

/// Plays the games and returns the file's text.
///
/// # Errors
/// A message when the game spec is not a game.
pub fn selfplay(
    spec_text: &str,
    options: &SelfPlayOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<String, String> {
    let spec = GameSpec::parse(spec_text).map_err(|e| e.to_string())?;
    dispatch(
        spec.name,
        SelfPlayGame {
            spec: &spec,
            options,
            progress,
        },
    )
    .ok_or_else(|| format!("unknown game '{}'", spec.name))
}

/// One game of a self-play file, read back.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    /// The first player's result: 1, 0.5 or 0.
    pub result: f64,
    /// The moves as written.
    pub moves: Vec<String>,
    /// The mover's score of every move (`None` for drawn plies; proven results as
    /// ±[`crate::search::WIN`]).
    pub scores: Vec<Option<i32>>,
}

/// Reads the game lines of a self-play file (comment lines skipped).
///
/// # Errors
/// A message naming the line that is not `RESULT|MOVES|SCORES`.
pub fn read_games(text: &str) -> Result<Vec<GameLine>, String> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |what: &str| format!("line {}: {what}", i + 1);
        let mut parts = line.split('|');
        let (Some(result), Some(moves), Some(scores)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("not RESULT|MOVES|SCORES"));
        };
        let result: f64 = result.trim().parse().map_err(|_| bad("bad result"))?;
        let moves: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
        let scores = scores
            .split_whitespace()
            .map(|s| match s {
                "-" => Ok(None),
                "w" => Ok(Some(crate::search::WIN)),
                "l" => Ok(Some(-crate::search::WIN)),
                n => n.parse().map(Some).map_err(|_| bad("bad score")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if scores.len() != moves.len() {
            return Err(bad("as many scores as moves"));
        }
        games.push(GameLine {
            result,
            moves,
            scores,
        });
    }
    Ok(games)
}
