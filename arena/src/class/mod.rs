//! `arena class`: a class tournament. Every student's bot of a submissions folder (found
//! as `arena grade` finds them, [`crate::grade::find_bots`]) meets every other and the
//! reference players ([`crate::grade::LEVELS`], named `ref-<level>`) in colour-swapped
//! pairs from seeded openings, each bot in a box of its own for each game, played by the
//! run loop of `match` and `tournament` ([`crate::run_loop`]). Standings are the
//! tournament's ([`Standings::of`]: joint Bradley-Terry ratings with 95% intervals, a
//! cross table).
//!
//! **Versions and incremental runs.** A submission's version is the first 12 hex digits
//! of the SHA-256 of its content ([`crate::grade::content_hash`]). Every game has a key:
//! the class's settings (game, time control, openings, seed, protocol, limits), the
//! round, the two entrants with their versions and who moved first. The journals in the
//! output folder (`class.jsonl`, and `class-K-of-N.jsonl` of shards) keep every game ever
//! played, keyed in its record's `fingerprint`; a run plays only the games of the
//! schedule whose key no journal holds. A changed submission gets a new version, so only
//! its games are played again; the others are reused as they were. Games of earlier
//! versions stay in the journal (the results show them as not counted).
//!
//! **Schedule.** A round robin up to [`ROUND_ROBIN_MAX`] entrants; above, the first
//! rounds of a Berger table (the circle method: every entrant meets `R` different
//! opponents, one a round), `--schedule rounds:R`. Shard `K/N` plays the pairs (a pairing
//! in one round: two games) with `pair % N == K - 1`, as tournaments do; the unsharded
//! command afterwards finds every game in the shards' journals and writes the results.
//!
//! **Settling the top.** With `--settle-top K`, once the schedule is played, neighbours
//! among the first `K` places whose order is not decided (the likelihood of superiority
//! between them is between 2.5% and 97.5%) play more colour-swapped pairs, two at a time,
//! until every such order is decided or `--settle-games` more games were played
//! (CodinGame reruns the top of its ranking in the same spirit). These games are keyed
//! too (`x1`, `x2`, ... for each pairing), so a rerun reuses them.

pub mod marks;
pub mod site;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use serde::Serialize;
use tokio::sync::watch;

use agon::games::GameSpec;

use crate::check::{run_checks, CheckConfig};
use crate::clock::TimeControl;
use crate::dialect::Dialect;
use crate::grade::{Bot, Level};
use crate::journal::Journal;
use crate::process::{LineLimits, SpawnSpec};
use crate::record::{GameRecord, Seat, Termination};
use crate::referee::{EngineConfig, RefereeSettings};
use crate::run_loop::{self, Run, Unfinished};
use crate::sandbox::Sandbox;
use crate::schedule::{Openings, Schedule, ScheduledGame, Shard};
use crate::tournament::Standings;

/// The most entrants played as a full round robin by default; more get
/// [`ClassFormat::Rounds`] with [`DEFAULT_ROUNDS`] rounds.
pub const ROUND_ROBIN_MAX: usize = 60;
/// Rounds of a Berger table for a class too large for a round robin.
pub const DEFAULT_ROUNDS: u64 = 30;
/// The prefix of reference players' names.
pub const REFERENCE_PREFIX: &str = "ref-";

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassFormat {
    /// Everyone against everyone.
    RoundRobin,
    /// The first `R` rounds of a Berger table: `R` different opponents each.
    Rounds(u64),
}

impl ClassFormat {
    /// `round-robin` or `rounds:R`.
    ///
    /// # Errors
    /// A message naming the accepted forms.
    pub fn parse(text: &str) -> Result<ClassFormat, String> {
        if text == "round-robin" || text == "rr" {
            return Ok(ClassFormat::RoundRobin);
        }
        match text.strip_prefix("rounds:").map(str::parse::<u64>) {
            Some(Ok(r)) if r > 0 => Ok(ClassFormat::Rounds(r)),
            _ => Err(format!(
                "--schedule '{text}': use round-robin or rounds:R (R > 0: each entrant meets R opponents)"
            )),
        }
    }

    /// The pairings (entrant indices) of `n` entrants.
    pub fn pairings(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            ClassFormat::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
            ClassFormat::Rounds(r) => berger_rounds(n, r),
        }
    }

    /// For people.
    pub fn describe(self) -> String {
        match self {
            ClassFormat::RoundRobin => "round robin".into(),
            ClassFormat::Rounds(r) => format!("{r} rounds of a Berger table"),
        }
    }
}

/// The pairings of the first `rounds` rounds of a round robin by the circle method
/// (Berger tables): entrant 0 stays, the others turn one place a round; with an odd
/// count a bye joins. Each round pairs everyone once, and no pairing repeats while
/// `rounds < n` (more rounds are capped at a full round robin).
pub fn berger_rounds(n: usize, rounds: u64) -> Vec<(usize, usize)> {
    if n < 2 {
        return Vec::new();
    }
    let m = n + n % 2; // with a bye (index n) when odd
    let mut out = Vec::new();
    for r in 0..(rounds as usize).min(m - 1) {
        let at = |i: usize| -> usize {
            if i == 0 {
                0
            } else {
                1 + (i - 1 + r) % (m - 1)
            }
        };
        for i in 0..m / 2 {
            let (a, b) = (at(i), at(m - 1 - i));
            if a < n && b < n {
                out.push((a.min(b), a.max(b)));
            }
        }
    }
    out
}

/// What to run and how.
#[derive(Clone, Debug)]
pub struct ClassConfig {
    /// The game.
    pub spec: GameSpec,
    /// The submissions folder.
    pub bots: PathBuf,
    /// The interpreter of Python bots.
    pub python: PathBuf,
    /// The `agon` binary of the reference players.
    pub agon: PathBuf,
    /// The reference levels that take part.
    pub levels: Vec<&'static Level>,
    /// Seed of the openings and the reference players.
    pub seed: u64,
    /// Openings (`random:2` by default).
    pub openings: String,
    /// Games per pairing (colour-swapped pairs; even).
    pub games: u64,
    /// Who meets whom; `None`: by the class's size (a round robin up to
    /// [`ROUND_ROBIN_MAX`] players, else [`DEFAULT_ROUNDS`] rounds of a Berger table).
    pub format: Option<ClassFormat>,
    /// The bots' time control (the reference players have their own limits).
    pub tc: TimeControl,
    /// Output folder.
    pub out: PathBuf,
    /// Games at once.
    pub concurrency: usize,
    /// The box of every bot.
    pub sandbox: Sandbox,
    /// Handshake deadline.
    pub startup: Duration,
    /// The bots' protocol.
    pub proto: Dialect,
    /// Play only this shard of the schedule.
    pub shard: Option<Shard>,
    /// Settle the order of the first K places with at most this many more games.
    pub settle: Option<(usize, u64)>,
    /// Bytes of stderr kept of each bot's game.
    pub stderr_cap: u64,
    /// Show a progress bar.
    pub progress: bool,
}

/// One player of the class: a student's bot or a reference player.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// The student's name, or `ref-<level>`.
    pub name: String,
    /// The version that plays: 12 hex digits of the content's SHA-256.
    pub version: String,
    /// The reference level, for a reference player.
    pub level: Option<&'static str>,
    /// How it is started.
    pub engine: Arc<EngineConfig>,
    /// The submission, for a student.
    pub bot: Option<Bot>,
}

/// A student's conformance check, as kept between runs (per version).
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct CheckSummary {
    /// Every required check passed.
    pub passed: bool,
    /// It answered the handshake (a bot that cannot start does not play).
    pub starts: bool,
    /// What is wrong, in a few words (`ok` when nothing is).
    pub diagnosis: String,
    /// The required checks that failed.
    pub failed: Vec<String>,
    /// The report, with the bot's stderr.
    pub text: String,
}

/// One planned game.
#[derive(Clone, Debug)]
pub struct Planned {
    /// Its key (see the module's documentation).
    pub key: String,
    /// The two entrants (indices into the entrants).
    pub pair: (usize, usize),
    /// The entrant that moves first.
    pub first: usize,
    /// Its round (the opening's index).
    pub round: u64,
    /// Its colour-swapped pair's index (shards split by it).
    pub pair_index: u64,
}

/// A student's line of the results.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StudentLine {
    /// The name.
    pub name: String,
    /// The version that played.
    pub version: String,
    /// `student` or `reference`.
    pub kind: &'static str,
    /// `played`, `withdrawn` (it cannot start: see the diagnosis), or `skipped` (no bot).
    pub status: String,
    /// Place in the standings (1 = first), when it played.
    pub rank: Option<usize>,
    /// Rating and its 95% error bar.
    pub elo: f64,
    /// The error bar.
    pub error: f64,
    /// Games counted, points and W/D/L.
    pub games: u64,
    /// Points.
    pub points: f64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Games lost by its own fault, by verdict (`time limit exceeded`...).
    pub faults: BTreeMap<String, u64>,
    /// The reference levels it scored more than half the points against.
    pub beat_levels: Vec<String>,
    /// The conformance check's diagnosis.
    pub diagnosis: String,
    /// Other submissions with the same content.
    pub same_content_as: Vec<String>,
    /// Earlier versions found in the journals, with their games (not counted).
    pub earlier_versions: Vec<(String, u64)>,
}

impl StudentLine {
    /// The rating and its error bar as CSV cells, one decimal (empty when it did not
    /// play).
    pub fn rating_cells(&self) -> (String, String) {
        match self.rank {
            Some(_) => (format!("{:.1}", self.elo), format!("{:.1}", self.error)),
            None => (String::new(), String::new()),
        }
    }
}

/// The results of a class run.
#[derive(Debug)]
pub struct ClassResults {
    /// Who met whom.
    pub format: ClassFormat,
    /// The entrants, in schedule order.
    pub entrants: Vec<Entrant>,
    /// Every counted game, engine indices = entrant indices.
    pub games: Vec<GameRecord>,
    /// The standings.
    pub standings: Standings,
    /// A line per entrant and per skipped submission, by rank then name.
    pub lines: Vec<StudentLine>,
    /// The checks of the students, by name.
    pub checks: BTreeMap<String, CheckSummary>,
    /// Games played by this run.
    pub played_now: usize,
    /// Games reused from the journals.
    pub reused: usize,
    /// Games of the schedule not played (another shard's, or cut short).
    pub missing: usize,
    /// Interrupted by a signal.
    pub interrupted: bool,
    /// Every game in the journals (counted or not), for the site's version history.
    pub all_games: Vec<GameRecord>,
}

/// The name of the folder of a class's journal for `shard`.
pub fn journal_name(shard: Option<Shard>) -> String {
    match shard {
        Some(s) => format!("class-{}-of-{}.jsonl", s.index, s.count),
        None => "class.jsonl".into(),
    }
}

/// The verdict of a game lost by a fault, in the words contest platforms use.
pub fn verdict(termination: &Termination) -> Option<&'static str> {
    Some(match termination {
        Termination::TimeForfeit { .. } => "time limit exceeded",
        Termination::ResourceLimit { limit, .. } => match limit.as_str() {
            "memory" => "memory limit exceeded",
            "cpu" => "CPU time limit exceeded",
            "processes" => "process limit exceeded",
            "file-size" => "output file limit exceeded",
            _ => "resource limit exceeded",
        },
        Termination::Crash { phase, .. } if phase == "startup" => "did not start",
        Termination::Crash { .. } => "runtime error (crashed)",
        Termination::IllegalMove { .. } => "illegal move",
        Termination::MalformedReply { .. }
        | Termination::ProtocolViolation { .. }
        | Termination::OutputFlood { .. } => "output format error",
        Termination::Stall { .. } => "no answer (stalled)",
        _ => return None,
    })
}

/// The hex SHA-256 of a file's bytes (the reference players' binary), shortened.
fn file_version(path: &Path) -> String {
    match crate::grade::content_hash(path, 1 << 30) {
        Ok(h) => h[..12].to_string(),
        Err(_) => "unknown".into(),
    }
}

/// The entrants: the reference players first (weakest first), then the students by name;
/// and the submissions that are no bot, with why.
///
/// # Errors
/// The submissions folder cannot be read.
pub fn entrants(
    config: &ClassConfig,
) -> anyhow::Result<(Vec<Entrant>, Vec<crate::grade::Skipped>)> {
    let (bots, mut skipped) = crate::grade::find_bots(&config.bots, &config.python)
        .with_context(|| format!("cannot read --bots {}", config.bots.display()))?;
    let agon_version = file_version(&config.agon);
    let mut out: Vec<Entrant> = config
        .levels
        .iter()
        .map(|level| {
            let mut engine = crate::grade::reference_engine(&config.agon, config.seed, level);
            engine.name = format!("{REFERENCE_PREFIX}{}", level.0);
            Entrant {
                name: engine.name.clone(),
                version: agon_version.clone(),
                level: Some(level.0),
                engine: Arc::new(engine),
                bot: None,
            }
        })
        .collect();
    for bot in bots {
        if bot.name.starts_with(REFERENCE_PREFIX) {
            skipped.push((
                bot.name.clone(),
                format!("names starting with '{REFERENCE_PREFIX}' are the reference players'"),
            ));
            continue;
        }
        let version = match &bot.content {
            Ok(h) => h[..12].to_string(),
            // Not hashed (too large or unreadable): a version of its own every run.
            Err(_) => format!(
                "unhashed-{}",
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs())
            ),
        };
        let mut spawn = bot.spawn.clone();
        spawn.sandbox = Some(config.sandbox.clone());
        out.push(Entrant {
            name: bot.name.clone(),
            version,
            level: None,
            engine: Arc::new(EngineConfig {
                name: bot.name.clone(),
                spawn,
                dialect: config.proto,
                options: Vec::new(),
                tc: config.tc,
            }),
            bot: Some(bot),
        });
    }
    Ok((out, skipped))
}

/// The fingerprint of everything but the two players that decides a game.
pub fn settings_fingerprint(config: &ClassConfig) -> String {
    crate::journal::fingerprint(&format!(
        "class v1|{}|{}|{}|{}|{}|{:?}|{}",
        config.spec,
        config.tc,
        config.openings,
        config.seed,
        config.proto,
        config.sandbox.effective(),
        config.sandbox.level.name()
    ))
}

/// The key of a game (see the module's documentation): `tag` is the round (`r0`) or
/// the settling batch (`x1`).
pub fn game_key(settings: &str, tag: &str, a: &Entrant, b: &Entrant, first: &Entrant) -> String {
    let (a, b) = if a.name <= b.name { (a, b) } else { (b, a) };
    format!(
        "class {settings} {tag} {}@{} {}@{} first={}",
        a.name, a.version, b.name, b.version, first.name
    )
}

/// The two games of a colour-swapped pair between entrants `a` and `b` (`a` first in the
/// first), keyed with `tag` (`r0`, `x1`).
fn colour_swapped(
    settings: &str,
    tag: &str,
    entrants: &[Entrant],
    (a, b): (usize, usize),
    round: u64,
    pair_index: u64,
) -> [Planned; 2] {
    [a, b].map(|first| Planned {
        key: game_key(settings, tag, &entrants[a], &entrants[b], &entrants[first]),
        pair: (a, b),
        first,
        round,
        pair_index,
    })
}

/// The main schedule: for each pairing and round, a colour-swapped pair.
pub fn plan(
    config: &ClassConfig,
    format: ClassFormat,
    entrants: &[Entrant],
    active: &[usize],
) -> Vec<Planned> {
    let settings = settings_fingerprint(config);
    let pairings: Vec<(usize, usize)> = format
        .pairings(active.len())
        .into_iter()
        .map(|(i, j)| (active[i], active[j]))
        .collect();
    let rounds = config.games.div_ceil(2).max(1);
    let mut out = Vec::new();
    for round in 0..rounds {
        for (p, &(a, b)) in pairings.iter().enumerate() {
            let pair_index = round * pairings.len() as u64 + p as u64;
            out.extend(colour_swapped(
                &settings,
                &format!("r{round}"),
                entrants,
                (a, b),
                round,
                pair_index,
            ));
        }
    }
    out
}

/// Every game of the class's journals in `out` (`class.jsonl`, `class-K-of-N.jsonl`),
/// finished ones only, in file order (the main journal first).
pub fn read_journals(out: &Path) -> anyhow::Result<Vec<GameRecord>> {
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(out) {
        Ok(dir) => dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("class") && n.ends_with(".jsonl"))
            })
            .collect(),
        Err(_) => Vec::new(),
    };
    paths.sort();
    let mut games = Vec::new();
    for path in paths {
        let contents = crate::journal::read(&path)
            .with_context(|| format!("cannot read the class journal {}", path.display()))?;
        games.extend(
            contents
                .games
                .into_iter()
                .filter(|g| g.outcome().is_some() && g.fingerprint.is_some()),
        );
    }
    Ok(games)
}

/// Keeps a copy of each submission's version in `out/submissions/NAME@VERSION` (once:
/// a version is its content), so that the code that played each game stays at hand
/// after the student hands in another. A copy, not a link: the student's files can
/// change. Links inside a folder are copied as links (never followed); FIFOs, sockets
/// and devices are left out.
fn archive(out: &Path, e: &Entrant) -> std::io::Result<()> {
    let Some(bot) = &e.bot else { return Ok(()) };
    // A submission too large to hash has a new version every run: copying it each time
    // would fill the disk.
    if bot.content.is_err() {
        return Ok(());
    }
    let Some(home) = &bot.spawn.home else {
        return Ok(());
    };
    let dir = out.join("submissions");
    let name = format!("{}@{}", crate::grade::folder_name(&e.name), e.version);
    let target = dir.join(&name);
    if std::fs::symlink_metadata(&target).is_ok() {
        return Ok(());
    }
    std::fs::create_dir_all(&dir)?;
    // A name of this process's own: shards may archive the same version at once.
    let temp = dir.join(format!(".{name}.{}.partial", std::process::id()));
    let _ = std::fs::remove_dir_all(&temp);
    std::fs::create_dir(&temp)?;
    let entry = home
        .file_name()
        .map_or_else(|| "bot".into(), |n| n.to_os_string());
    let copied = copy_tree(home, &temp.join(entry)).and_then(|()| std::fs::rename(&temp, &target));
    match copied {
        Err(_) if std::fs::symlink_metadata(&target).is_ok() => {
            let _ = std::fs::remove_dir_all(&temp);
            Ok(())
        }
        other => other,
    }
}

/// Copies `from` (a file or a folder) to `to` without following links.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    let kind = meta.file_type();
    if kind.is_symlink() {
        std::os::unix::fs::symlink(std::fs::read_link(from)?, to)
    } else if kind.is_dir() {
        std::fs::create_dir(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else if kind.is_file() {
        std::fs::copy(from, to).map(|_| ())
    } else {
        Ok(())
    }
}

/// The check of every student, reusing the ones kept for the same version in
/// `out/checks/`; a bot is checked in its box as it will play.
async fn check_students(
    config: &ClassConfig,
    entrants: &[Entrant],
    cancel: &watch::Receiver<bool>,
) -> BTreeMap<String, CheckSummary> {
    let dir = config.out.join("checks");
    let _ = std::fs::create_dir_all(&dir);
    let permits = Arc::new(tokio::sync::Semaphore::new(config.concurrency.max(1)));
    let mut tasks = Vec::new();
    for e in entrants.iter().filter(|e| e.bot.is_some()) {
        let path = dir.join(format!(
            "{}@{}.json",
            crate::grade::folder_name(&e.name),
            e.version
        ));
        if let Some(kept) = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str::<CheckSummary>(&t).ok())
        {
            tasks.push((e.name.clone(), None, Some(kept)));
            continue;
        }
        let check = CheckConfig {
            spec: config.spec.clone(),
            engine: SpawnSpec {
                keep_python_buffered: true,
                ..e.engine.spawn.clone()
            },
            dialect: config.proto,
            startup: config.startup,
            deadline: Duration::from_secs(2),
            movetime: 200,
            margin: Duration::from_millis(200),
            seed: config.seed,
        };
        let (permits, cancel) = (Arc::clone(&permits), cancel.clone());
        let task = tokio::spawn(async move {
            let _permit = permits.acquire_owned().await.expect("semaphore");
            if *cancel.borrow() {
                return None;
            }
            let report = run_checks(&check).await;
            let summary = CheckSummary {
                passed: report.passed,
                starts: !report
                    .checks
                    .iter()
                    .any(|c| c.id == "handshake" && c.status == crate::check::Status::Fail),
                diagnosis: report.diagnosis(),
                failed: crate::grade::failed_checks(&report),
                text: report.text(),
            };
            let _ = crate::atomic_file::write(
                &path,
                serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n",
            );
            Some(summary)
        });
        tasks.push((e.name.clone(), Some(task), None));
    }
    let mut out = BTreeMap::new();
    for (name, task, kept) in tasks {
        let summary = match (task, kept) {
            (_, Some(kept)) => Some(kept),
            (Some(task), None) => task.await.ok().flatten(),
            (None, None) => None,
        };
        if let Some(s) = summary {
            out.insert(name, s);
        }
    }
    out
}

/// The referee's settings of a class game.
fn referee(config: &ClassConfig, run_dir: &Path) -> RefereeSettings {
    RefereeSettings {
        spec: config.spec.clone(),
        margin: Duration::from_millis(200),
        startup_timeout: config.startup,
        ping_timeout: Duration::from_secs(2),
        hard_cap: Duration::from_secs(10),
        grace: Duration::from_millis(300),
        max_plies: Some(400),
        adjudication: Default::default(),
        query_result: false,
        ping_every_move: false,
        limits: LineLimits::default(),
        stderr_cap: config.stderr_cap,
        log_dir: Some(run_dir.join("logs")),
        live_dir: None,
    }
}

/// Plays the games of `todo` (indices into `planned`) with the run loop, appending to
/// `journal`; the finished records, keyed.
#[allow(clippy::too_many_arguments)]
async fn play(
    config: &ClassConfig,
    entrants: &[Entrant],
    planned: Arc<Vec<Planned>>,
    todo: Vec<u64>,
    journal: Journal,
    run_id: &str,
    cancel: watch::Receiver<bool>,
) -> anyhow::Result<(Vec<GameRecord>, bool)> {
    if todo.is_empty() {
        return Ok((Vec::new(), false));
    }
    let run_dir = config.out.join("runs").join(run_id);
    let openings = Openings::parse(&config.openings, &config.spec)
        .map_err(|e| anyhow::anyhow!("--openings: {e}"))?;
    let rounds = planned.iter().map(|p| p.round + 1).max().unwrap_or(1);
    let schedule = Schedule::new(
        config.spec.clone(),
        openings,
        rounds * 2,
        config.seed,
        false,
    );
    let of = Arc::clone(&planned);
    let keys = Arc::clone(&planned);
    let versions: Vec<String> = entrants.iter().map(|e| e.version.clone()).collect();
    let outcome = run_loop::run(
        Run {
            engines: entrants.iter().map(|e| Arc::clone(&e.engine)).collect(),
            game_of: Box::new(move |index| {
                let p = &of[index as usize];
                (
                    p.pair,
                    ScheduledGame {
                        index,
                        pair: p.pair_index,
                        p1_engine: usize::from(p.first != p.pair.0),
                        opening: schedule.opening(p.round),
                    },
                )
            }),
            pending: todo,
            earlier: Vec::new(),
            journal,
            referee: referee(config, &run_dir),
            concurrency: config.concurrency,
            affinity: None,
            run_id: run_id.to_string(),
            run_dir,
            transcripts: false,
            records: Default::default(),
            progress: config.progress,
            quiet: true,
            report_every: 0,
            sprt: None,
            stamp: None,
            annotate: Some(Box::new(move |record: &mut GameRecord| {
                record.fingerprint = keys.get(record.game as usize).map(|p| p.key.clone());
                for player in [&mut record.p1, &mut record.p2] {
                    player.version = versions.get(player.engine).cloned();
                }
            })),
            unfinished: Unfinished::Drop,
            report: |_, _, _| String::new(),
        },
        cancel,
    )
    .await?;
    Ok((outcome.games, outcome.interrupted))
}

/// Runs the class (this shard of it): checks, the schedule, the settling games, then
/// the results. The journals keep every game; nothing already played is played again.
///
/// # Errors
/// An unreadable submissions folder or journal, or a journal that cannot be written.
pub async fn run_class(
    config: &ClassConfig,
    cancel: watch::Receiver<bool>,
) -> anyhow::Result<ClassResults> {
    std::fs::create_dir_all(&config.out)
        .with_context(|| format!("cannot create {}", config.out.display()))?;
    let (entrants, skipped) = entrants(config)?;
    if entrants.iter().all(|e| e.bot.is_none()) {
        anyhow::bail!(
            "no bots in {}: each student is a NAME.py file, an executable file, or a folder holding bot.py or an executable run",
            config.bots.display()
        );
    }
    // By the number of players before any is withdrawn, so that every shard agrees.
    let format = config
        .format
        .unwrap_or(if entrants.len() <= ROUND_ROBIN_MAX {
            ClassFormat::RoundRobin
        } else {
            ClassFormat::Rounds(DEFAULT_ROUNDS)
        });
    for e in &entrants {
        if let Err(err) = archive(&config.out, e) {
            eprintln!(
                "arena class: warning: {} version {} not archived: {err}",
                crate::safe_text::display(&e.name),
                e.version
            );
        }
    }
    let checks = check_students(config, &entrants, &cancel).await;
    // A bot that cannot even start is withdrawn: each of its games would wait for its
    // handshake and end the same way.
    let active: Vec<usize> = (0..entrants.len())
        .filter(|&i| checks.get(&entrants[i].name).is_none_or(|c| c.starts))
        .collect();
    let planned = plan(config, format, &entrants, &active);
    let all_games = read_journals(&config.out)?;
    let mut known: HashMap<String, GameRecord> = HashMap::new();
    for g in &all_games {
        if let Some(key) = &g.fingerprint {
            known.entry(key.clone()).or_insert_with(|| g.clone());
        }
    }
    let run_id = format!(
        "class-{}{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis()),
        config
            .shard
            .map_or(String::new(), |s| format!("-{}-of-{}", s.index, s.count))
    );
    let journal_path = config.out.join(journal_name(config.shard));
    let todo: Vec<u64> = planned
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            !known.contains_key(&p.key) && config.shard.is_none_or(|s| s.has_pair(p.pair_index))
        })
        .map(|(i, _)| i as u64)
        .collect();
    let reused_main = planned.len()
        - planned
            .iter()
            .filter(|p| !known.contains_key(&p.key))
            .count();
    crate::outln!(
        "Class: {} entrants ({} students, {} reference players), {}, {} games scheduled: {} already played, {} to play{}",
        active.len(),
        active.iter().filter(|&&i| entrants[i].bot.is_some()).count(),
        active.iter().filter(|&&i| entrants[i].bot.is_none()).count(),
        format.describe(),
        planned.len(),
        reused_main,
        todo.len(),
        config
            .shard
            .map_or(String::new(), |s| format!(" (shard {}/{})", s.index, s.count))
    );
    let journal = Journal::open(&journal_path)
        .with_context(|| format!("cannot open {}", journal_path.display()))?;
    let planned = Arc::new(planned);
    let (new_games, mut interrupted) = play(
        config,
        &entrants,
        Arc::clone(&planned),
        todo,
        journal,
        &run_id,
        cancel.clone(),
    )
    .await?;
    let mut played_now = new_games.len();
    for g in new_games {
        if let Some(key) = g.fingerprint.clone() {
            known.insert(key, g);
        }
    }
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let mut counted: Vec<&Planned> = planned.iter().collect();
    let mut settle_games: Vec<Planned> = Vec::new();
    if let (Some((top, budget)), None, false) = (config.settle, config.shard, interrupted) {
        let settings = settings_fingerprint(config);
        let base_rounds = config.games.div_ceil(2).max(1);
        let mut batches: HashMap<(usize, usize), u64> = HashMap::new();
        let mut spent = 0u64;
        loop {
            let games = collect(&counted_keys(&counted, &settle_games), &known, &entrants);
            let standings = Standings::of(&names, &games);
            let undecided: Vec<(usize, usize)> = standings
                .ranking
                .iter()
                .take(top.min(standings.ranking.len()))
                .zip(standings.ranking.iter().skip(1))
                .filter(|(s, _)| s.los_next.is_some_and(|l| l > 0.025 && l < 0.975))
                .filter_map(|(a, b)| {
                    let i = names.iter().position(|n| *n == a.name)?;
                    let j = names.iter().position(|n| *n == b.name)?;
                    active.contains(&i).then_some((i.min(j), i.max(j)))
                })
                .collect();
            if undecided.is_empty() || spent >= budget || *cancel.borrow() {
                break;
            }
            let mut batch = Vec::new();
            for (a, b) in undecided {
                let x = batches.entry((a, b)).or_insert(0);
                for _ in 0..2 {
                    *x += 1;
                    let round = base_rounds + *x - 1;
                    batch.extend(colour_swapped(
                        &settings,
                        &format!("x{x}"),
                        &entrants,
                        (a, b),
                        round,
                        u64::MAX,
                    ));
                }
            }
            batch.truncate(usize::try_from(budget - spent).unwrap_or(usize::MAX) & !1);
            if batch.is_empty() {
                break;
            }
            spent += batch.len() as u64;
            let planned_batch = Arc::new(batch.clone());
            let todo: Vec<u64> = (0..batch.len() as u64)
                .filter(|&i| !known.contains_key(&batch[i as usize].key))
                .collect();
            let journal = Journal::open(&journal_path)?;
            let (games, stopped) = play(
                config,
                &entrants,
                planned_batch,
                todo,
                journal,
                &run_id,
                cancel.clone(),
            )
            .await?;
            played_now += games.len();
            interrupted |= stopped;
            for g in games {
                if let Some(key) = g.fingerprint.clone() {
                    known.insert(key, g);
                }
            }
            settle_games.extend(batch);
            if stopped {
                break;
            }
        }
        if !settle_games.is_empty() {
            crate::outln!(
                "Settling places 1 to {}: {} more games between neighbours whose order was not sure",
                top + 1,
                settle_games.len()
            );
        }
    }
    counted.extend(settle_games.iter());
    let keys: Vec<&str> = counted.iter().map(|p| p.key.as_str()).collect();
    let games = collect(&keys, &known, &entrants);
    let missing = keys.len() - games.len();
    let reused = games.len().saturating_sub(played_now);
    let standings = Standings::of(&names, &games);
    let lines = lines(
        &entrants, &active, &skipped, &games, &standings, &checks, &all_games,
    );
    Ok(ClassResults {
        format,
        entrants,
        games,
        standings,
        lines,
        checks,
        played_now,
        reused,
        missing,
        interrupted,
        all_games,
    })
}

fn counted_keys<'a>(main: &[&'a Planned], settle: &'a [Planned]) -> Vec<&'a str> {
    main.iter()
        .map(|p| p.key.as_str())
        .chain(settle.iter().map(|p| p.key.as_str()))
        .collect()
}

/// The records of `keys` that are known, with engine indices set to the entrants'.
fn collect(
    keys: &[&str],
    known: &HashMap<String, GameRecord>,
    entrants: &[Entrant],
) -> Vec<GameRecord> {
    let index: HashMap<&str, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    keys.iter()
        .filter_map(|k| known.get(*k))
        .filter_map(|g| {
            let mut g = g.clone();
            g.p1.engine = *index.get(g.p1.name.as_str())?;
            g.p2.engine = *index.get(g.p2.name.as_str())?;
            Some(g)
        })
        .collect()
}

/// The seat of entrant `engine` in `g`.
pub fn seat_of(g: &GameRecord, engine: usize) -> Seat {
    if g.p1.engine == engine {
        Seat::P1
    } else {
        Seat::P2
    }
}

fn lines(
    entrants: &[Entrant],
    active: &[usize],
    skipped: &[crate::grade::Skipped],
    games: &[GameRecord],
    standings: &Standings,
    checks: &BTreeMap<String, CheckSummary>,
    all_games: &[GameRecord],
) -> Vec<StudentLine> {
    let mut out = Vec::new();
    for (i, e) in entrants.iter().enumerate() {
        let check = checks.get(&e.name);
        let mut line = StudentLine {
            name: e.name.clone(),
            version: e.version.clone(),
            kind: if e.bot.is_some() {
                "student"
            } else {
                "reference"
            },
            status: if active.contains(&i) {
                "played"
            } else {
                "withdrawn"
            }
            .into(),
            diagnosis: check.map_or("reference player".into(), |c| c.diagnosis.clone()),
            same_content_as: e
                .bot
                .as_ref()
                .map_or_else(Vec::new, |b| b.same_content_as.clone()),
            ..StudentLine::default()
        };
        if let Some(rank) = standings.ranking.iter().position(|s| s.name == e.name) {
            let s = &standings.ranking[rank];
            if active.contains(&i) {
                line.rank = Some(rank + 1);
            }
            line.elo = s.elo;
            line.error = s.error;
            line.games = s.games;
            line.points = s.points;
            line.wins = s.wins;
            line.draws = s.draws;
            line.losses = s.losses;
        }
        for g in games
            .iter()
            .filter(|g| g.p1.engine == i || g.p2.engine == i)
        {
            if g.termination.at_fault() == Some(seat_of(g, i)) {
                if let Some(v) = verdict(&g.termination) {
                    *line.faults.entry(v.to_string()).or_default() += 1;
                }
            }
        }
        for (j, r) in entrants.iter().enumerate() {
            if let Some(level) = r.level.filter(|_| j != i) {
                let [w, d, l] = standings.cross[i][j];
                if w + d + l > 0 && (w as f64 + d as f64 / 2.0) * 2.0 > (w + d + l) as f64 {
                    line.beat_levels.push(level.to_string());
                }
            }
        }
        let mut earlier: BTreeMap<String, u64> = BTreeMap::new();
        for g in all_games {
            for p in [&g.p1, &g.p2] {
                if p.name == e.name {
                    if let Some(v) = p.version.as_ref().filter(|v| **v != e.version) {
                        *earlier.entry(v.clone()).or_default() += 1;
                    }
                }
            }
        }
        line.earlier_versions = earlier.into_iter().collect();
        out.push(line);
    }
    for (name, reason) in skipped {
        out.push(StudentLine {
            name: name.clone(),
            kind: "student",
            status: "skipped".into(),
            diagnosis: reason.clone(),
            ..StudentLine::default()
        });
    }
    out.sort_by(|a, b| {
        a.rank
            .unwrap_or(usize::MAX)
            .cmp(&b.rank.unwrap_or(usize::MAX))
            .then(a.name.cmp(&b.name))
    });
    out
}

/// The results as CSV: one row per entrant and skipped submission, by rank.
pub fn csv(lines: &[StudentLine]) -> String {
    use crate::safe_text::csv_cell;
    let mut out = String::from(
        "rank,name,kind,version,status,elo,elo_error,games,points,wins,draws,losses,beat_levels,faults,diagnosis,same_content_as\n",
    );
    for l in lines {
        let faults: Vec<String> = l.faults.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let rating = l.rating_cells();
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            l.rank.map_or(String::new(), |r| r.to_string()),
            csv_cell(&l.name),
            l.kind,
            l.version,
            l.status,
            rating.0,
            rating.1,
            l.games,
            l.points,
            l.wins,
            l.draws,
            l.losses,
            l.beat_levels.join(" "),
            csv_cell(&faults.join("; ")),
            csv_cell(&l.diagnosis),
            csv_cell(&l.same_content_as.join(";")),
        ));
    }
    out
}

/// Which students the checks and games flagged, for the end of the run's output.
pub fn duplicate_groups(entrants: &[Entrant]) -> Vec<Vec<String>> {
    let mut seen: HashSet<Vec<String>> = HashSet::new();
    let mut out = Vec::new();
    for e in entrants {
        if let Some(b) = &e.bot {
            if !b.same_content_as.is_empty() {
                let mut group = b.same_content_as.clone();
                group.push(e.name.clone());
                group.sort();
                if seen.insert(group.clone()) {
                    out.push(group);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Berger table's rounds pair everyone once a round and never repeat a pairing; a
    /// full table is a round robin.
    #[test]
    fn berger_rounds_are_a_round_robin_in_slices() {
        for n in [2usize, 3, 4, 7, 8, 12] {
            let full = berger_rounds(n, n as u64);
            let mut set: Vec<(usize, usize)> = full.clone();
            set.sort();
            set.dedup();
            assert_eq!(set.len(), full.len(), "n={n}: no pairing twice");
            assert_eq!(
                full.len(),
                n * (n - 1) / 2,
                "n={n}: everyone meets everyone"
            );
            let three = berger_rounds(n, 3);
            for p in 0..n {
                let meets = three.iter().filter(|(a, b)| *a == p || *b == p).count();
                // Three opponents each (two when a bye falls on it, n odd).
                let expect = 3.min(n - 1);
                assert!(
                    meets == expect || (n % 2 == 1 && meets + 1 == expect),
                    "n={n} player {p}: {meets}"
                );
            }
        }
        assert_eq!(ClassFormat::parse("rounds:5"), Ok(ClassFormat::Rounds(5)));
        assert!(ClassFormat::parse("rounds:0").is_err());
        assert!(ClassFormat::parse("swiss").is_err());
    }
}
