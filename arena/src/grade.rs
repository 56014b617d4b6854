//! `arena grade`: grades a folder of bots against reference players of graded strength.
//!
//! Each entry of the folder is one student's bot: a `*.py` file (run with the Python
//! interpreter given), an executable file, or a folder holding `bot.py` or an executable
//! `run`. A symbolic link (an entry, or a folder's `bot.py` or `run`) is skipped, never
//! followed; bots whose content is the same byte for byte are flagged ([`content_hash`]).
//! Every bot first goes through `arena check`; then it plays each level in order,
//! colour-swapped pairs of games from the same seeded openings for every student, each
//! game in a box of its own ([`crate::sandbox`]). A level is beaten with more than half the
//! points; grading stops at the first level not beaten. Games are played in batches until
//! the 95% confidence interval of the score is on one side of one half (or a cap is
//! reached: the verdict is then marked uncertain). Levels: `random` (a random legal move),
//! `greedy` (one ply with the game's default heuristic), `depth2`, `depth3` (agon's
//! alpha-beta at that depth), `default` (agon's default search at a fixed node budget, so
//! that the same seed gives the same grades).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::watch;

use crate::dialect::Dialect;
use agon::games::GameSpec;

use crate::check::{run_checks, CheckConfig, Status};
use crate::clock::TimeControl;
use crate::process::{LineLimits, SpawnSpec};
use crate::record::GameRecord;
use crate::referee::{EngineConfig, RefereeSettings};
use crate::runner::{run_match, MatchConfig};
use crate::sandbox::Sandbox;
use crate::schedule::{Openings, Schedule};

/// A reference level: its name, the `agon` options that make it, and its search limit.
pub type Level = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

/// The reference levels, weakest first.
pub const LEVELS: &[Level] = &[
    ("random", &[("Searcher", "random")], "depth=1"),
    (
        "greedy",
        &[("Searcher", "alphabeta"), ("Depth", "1")],
        "depth=1",
    ),
    (
        "depth2",
        &[("Searcher", "alphabeta"), ("Depth", "2")],
        "depth=2",
    ),
    (
        "depth3",
        &[("Searcher", "alphabeta"), ("Depth", "3")],
        "depth=3",
    ),
    ("default", &[], "nodes=20000"),
];

/// What to grade and how.
#[derive(Clone, Debug)]
pub struct GradeConfig {
    /// The game.
    pub spec: GameSpec,
    /// The folder of bots.
    pub bots: PathBuf,
    /// The interpreter for Python bots.
    pub python: PathBuf,
    /// The `agon` binary of the reference players.
    pub agon: PathBuf,
    /// Seed of the openings (and of the random player).
    pub seed: u64,
    /// Games per level at first, and per further batch while the verdict is uncertain
    /// (rounded up to an even number: colour-swapped pairs).
    pub games_per_level: u64,
    /// Most games per level.
    pub max_games_per_level: u64,
    /// The students' time control (the reference players use the same).
    pub tc: TimeControl,
    /// Output folder.
    pub out: PathBuf,
    /// Students graded at once.
    pub concurrency: usize,
    /// The sandbox of every bot.
    pub sandbox: Sandbox,
    /// Deadline for a bot's handshake when it starts, in its check and its games.
    pub startup: Duration,
    /// The bots' protocol (the reference players speak Agon's own).
    pub proto: Dialect,
}

/// One student's bot as found in the folder.
#[derive(Clone, Debug)]
pub struct Bot {
    /// The student's name (file or folder name without `.py`).
    pub name: String,
    /// How to start it.
    pub spawn: SpawnSpec,
    /// The SHA-256 of the submission's content ([`content_hash`]), or why it was not
    /// compared with the others.
    pub content: Result<String, String>,
    /// The other bots of the folder with the same content, by name.
    pub same_content_as: Vec<String>,
}

/// The result of one level.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LevelResult {
    /// The level's name.
    pub level: String,
    /// Games played.
    pub games: u64,
    /// Wins, draws, losses of the bot.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Points / games.
    pub score: f64,
    /// Lower end of the score's 95% confidence interval.
    pub low: f64,
    /// Upper end of the score's 95% confidence interval.
    pub high: f64,
    /// More than half the points.
    pub beaten: bool,
    /// `beaten`, `not beaten`, or `uncertain` (the interval still holds one half after the
    /// most games allowed).
    pub verdict: String,
    /// Games the bot lost by a fault, by termination kind.
    pub faults: std::collections::BTreeMap<String, u64>,
}

/// One student's line of the grades: only what the same seed repeats exactly (times are
/// in [`Timing`]).
#[derive(Clone, Debug, Default, Serialize)]
pub struct StudentReport {
    /// The student (the file or folder name, without `.py`).
    pub student: String,
    /// `graded`, or `skipped` (not a bot: see `diagnosis`).
    pub status: String,
    /// The command that ran the bot.
    pub command: String,
    /// Every required conformance check passed.
    pub conformance: bool,
    /// The required checks that failed, then how many more were not reached (`crash`,
    /// `6 more checks not reached`; in the CSV joined by `; `).
    pub failed_checks: Vec<String>,
    /// What is wrong, in a few words (`ok` when nothing is).
    pub diagnosis: String,
    /// The levels played, weakest first.
    pub levels: Vec<LevelResult>,
    /// The strongest level beaten, if any.
    pub highest_level_beaten: Option<String>,
    /// The other submissions with the same content (byte for byte: [`content_hash`]), by
    /// name; empty when none.
    pub same_content_as: Vec<String>,
    /// The first reason given for each fault kind (times included: not repeatable).
    #[serde(skip)]
    pub fault_reasons: std::collections::BTreeMap<String, String>,
    /// How long it took.
    #[serde(skip)]
    pub timing: Timing,
}

/// What was measured of one student's grading (varies from run to run).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Timing {
    /// Wall time of this student's grading, seconds.
    pub seconds: f64,
    /// Moves the bot played.
    pub moves: u64,
    /// Mean time per move, ms.
    pub mean_move_ms: f64,
    /// Slowest move, ms.
    pub max_move_ms: f64,
}

impl StudentReport {
    /// The row of a submission that is no bot.
    pub fn skipped(name: &str, reason: &str) -> StudentReport {
        StudentReport {
            student: name.to_string(),
            status: "skipped".into(),
            diagnosis: reason.to_string(),
            ..StudentReport::default()
        }
    }
}

/// A submission that is no bot: its name and why.
pub type Skipped = (String, String);

/// Finds the bots of `dir`, sorted by name; entries that are no bot come back as
/// `(name, reason)`.
///
/// A symbolic link is never followed: an entry of `dir` that is one, or a folder whose
/// `bot.py` or `run` is one, is skipped (run as root, the sandbox would bind whatever it
/// points to: another student's work, or any file of the machine). Each bot comes with
/// its [`content_hash`] and the other bots of the same content
/// ([`Bot::same_content_as`]).
///
/// # Errors
/// When the folder cannot be read.
pub fn find_bots(dir: &Path, python: &Path) -> std::io::Result<(Vec<Bot>, Vec<Skipped>)> {
    let mut bots = Vec::new();
    let mut notes = Vec::new();
    // Absolute, not canonical: the bots run in their own boxes, away from this directory.
    let dir = crate::sandbox::bwrap::absolute(dir);
    let mut entries: Vec<_> = std::fs::read_dir(&dir)?.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if file_name.starts_with('.') {
            continue;
        }
        // The entry itself, not what it may point to.
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) => {
                notes.push((file_name, format!("cannot be read: {e}")));
                continue;
            }
        };
        if meta.file_type().is_symlink() {
            notes.push((file_name, symlink_note("a symbolic link", &path)));
            continue;
        }
        // Each bot may read its own file or folder, nothing else of the submissions.
        let python_bot = |script: &Path, name: &str| Bot {
            name: name.to_string(),
            spawn: SpawnSpec {
                program: python.to_path_buf(),
                args: vec![script.display().to_string()],
                home: Some(path.clone()),
                ..SpawnSpec::default()
            },
            content: content_hash(&path, CONTENT_CAP),
            same_content_as: Vec::new(),
        };
        if meta.is_dir() {
            let (py, run) = (path.join("bot.py"), path.join("run"));
            let py_meta = std::fs::symlink_metadata(&py).ok();
            let run_meta = std::fs::symlink_metadata(&run).ok();
            let link = [("bot.py", &py, &py_meta), ("run", &run, &run_meta)]
                .into_iter()
                .find(|(_, _, m)| m.as_ref().is_some_and(|m| m.file_type().is_symlink()));
            if let Some((inner, link, _)) = link {
                notes.push((
                    file_name,
                    symlink_note(&format!("its {inner} is a symbolic link"), link),
                ));
            } else if py_meta.is_some_and(|m| m.is_file()) {
                bots.push(python_bot(&py, &file_name));
            } else if run_meta.is_some_and(|m| is_executable(&m)) {
                bots.push(Bot {
                    name: file_name,
                    spawn: SpawnSpec {
                        program: run,
                        home: Some(path.clone()),
                        ..SpawnSpec::default()
                    },
                    content: content_hash(&path, CONTENT_CAP),
                    same_content_as: Vec::new(),
                });
            } else {
                notes.push((
                    file_name,
                    "a folder without bot.py or an executable run".to_string(),
                ));
            }
        } else if !meta.is_file() {
            notes.push((
                file_name,
                "not a regular file or a folder (a FIFO, a socket or a device)".to_string(),
            ));
        } else if let Some(stem) = file_name.strip_suffix(".py") {
            bots.push(python_bot(&path, stem));
        } else if is_executable(&meta) {
            bots.push(Bot {
                name: file_name,
                spawn: SpawnSpec {
                    program: path.clone(),
                    home: Some(path.clone()),
                    ..SpawnSpec::default()
                },
                content: content_hash(&path, CONTENT_CAP),
                same_content_as: Vec::new(),
            });
        } else {
            notes.push((
                file_name,
                "not a .py file, an executable file or a folder".to_string(),
            ));
        }
    }
    for group in same_content_indices(&bots) {
        for &i in &group {
            bots[i].same_content_as = group
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| bots[j].name.clone())
                .collect();
        }
    }
    Ok((bots, notes))
}

/// Why a symbolic link is skipped: `what` (the link, or the folder's `bot.py` or `run`
/// being one), the text of its target (read with `readlink`, never followed).
fn symlink_note(what: &str, link: &Path) -> String {
    let target =
        std::fs::read_link(link).map_or_else(|_| "?".to_string(), |t| t.display().to_string());
    format!("{what} (to {target}): submissions must be files or folders of their own; not followed")
}

/// A regular file with an execute bit (`meta` from `symlink_metadata`: a link is not one).
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.is_file() && meta.permissions().mode() & 0o111 != 0
}

/// The most bytes of one submission that [`content_hash`] reads in `arena grade`: file
/// contents, names and link targets together.
pub const CONTENT_CAP: u64 = 64 << 20;

/// The SHA-256 (in hex) of a submission's content, so that students who handed in the
/// same work can be flagged. A file: its bytes. A folder: every entry below it, in the
/// order of their relative paths, each with its path and its kind: a regular file with
/// its bytes, a symbolic link with the text of its target (never followed), a folder, a
/// FIFO, a socket or a device with nothing more (never opened). A file and a folder are
/// never equal; two files with the same bytes are, whatever their names, and so are two
/// folders with the same paths and bytes.
///
/// # Errors
/// Why the submission is not compared: something could not be read, or it is more than
/// `cap` bytes (file contents, names and link targets together). Nothing is left out
/// silently.
pub fn content_hash(path: &Path, cap: u64) -> Result<String, String> {
    use sha2::{Digest, Sha256};
    use std::os::unix::ffi::OsStrExt;
    let meta = std::fs::symlink_metadata(path).map_err(|e| format!("cannot read it: {e}"))?;
    let mut budget = cap;
    let mut hash = Sha256::new();
    if meta.is_file() {
        hash.update(b"file\0");
        hash.update(file_digest(path, &mut budget, cap)?);
    } else if meta.is_dir() {
        hash.update(b"folder\0");
        // Every entry below the folder, relative to it; `DirEntry::file_type` does not
        // follow links, so a link to a folder is an entry, not a folder to walk.
        let mut entries: Vec<(PathBuf, std::fs::FileType)> = Vec::new();
        let mut folders = vec![PathBuf::new()];
        while let Some(folder) = folders.pop() {
            let unreadable =
                |e: std::io::Error| format!("cannot read {}: {e}", path.join(&folder).display());
            for entry in std::fs::read_dir(path.join(&folder)).map_err(unreadable)? {
                let entry = entry.map_err(unreadable)?;
                let kind = entry.file_type().map_err(unreadable)?;
                let rel = folder.join(entry.file_name());
                spend(&mut budget, rel.as_os_str().len() as u64, cap)?;
                if kind.is_dir() {
                    folders.push(rel.clone());
                }
                entries.push((rel, kind));
            }
        }
        entries.sort_by(|a, b| a.0.as_os_str().as_bytes().cmp(b.0.as_os_str().as_bytes()));
        for (rel, kind) in entries {
            let full = path.join(&rel);
            let (tag, detail): (&[u8], Vec<u8>) = if kind.is_file() {
                (b"f", file_digest(&full, &mut budget, cap)?)
            } else if kind.is_symlink() {
                let target = std::fs::read_link(&full)
                    .map_err(|e| format!("cannot read the link {}: {e}", full.display()))?;
                let target = target.as_os_str().as_bytes().to_vec();
                spend(&mut budget, target.len() as u64, cap)?;
                (b"l", target)
            } else if kind.is_dir() {
                (b"d", Vec::new())
            } else {
                (b"o", Vec::new())
            };
            let name = rel.as_os_str().as_bytes();
            hash.update(tag);
            hash.update((name.len() as u64).to_le_bytes());
            hash.update(name);
            hash.update((detail.len() as u64).to_le_bytes());
            hash.update(&detail);
        }
    } else {
        return Err("not a regular file or a folder".into());
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Takes `n` bytes from `budget`, or says that the submission is over `cap`.
fn spend(budget: &mut u64, n: u64, cap: u64) -> Result<(), String> {
    *budget = budget.checked_sub(n).ok_or_else(|| over_cap(cap))?;
    Ok(())
}

fn over_cap(cap: u64) -> String {
    let size = if cap >= 1 << 20 && cap.is_multiple_of(1 << 20) {
        format!("{} MiB", cap >> 20)
    } else {
        format!("{cap} bytes")
    };
    format!("more than {size} of files: not compared with the other submissions")
}

/// The SHA-256 of a regular file's bytes, read at most to what is left of `budget`.
fn file_digest(path: &Path, budget: &mut u64, cap: u64) -> Result<Vec<u8>, String> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let unreadable = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    // No link followed and no FIFO waited on, should the file have changed since it
    // was listed.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(unreadable)?;
    if !file.metadata().map_err(unreadable)?.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    let mut hash = Sha256::new();
    let mut reader = file.take(budget.saturating_add(1));
    let mut buffer = vec![0u8; 64 << 10];
    let mut read = 0u64;
    loop {
        let n = reader.read(&mut buffer).map_err(unreadable)?;
        if n == 0 {
            break;
        }
        hash.update(&buffer[..n]);
        read += n as u64;
    }
    spend(budget, read, cap)?;
    Ok(hash.finalize().to_vec())
}

/// The groups of two or more bots with the same content, as indices into `bots`, each in
/// the order of `bots`, in the order of their first bot. Bots not compared (an error as
/// their content) are in none.
fn same_content_indices(bots: &[Bot]) -> Vec<Vec<usize>> {
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, bot) in bots.iter().enumerate() {
        let Ok(hash) = &bot.content else { continue };
        match groups.iter_mut().find(|(h, _)| h == hash) {
            Some((_, group)) => group.push(i),
            None => groups.push((hash, vec![i])),
        }
    }
    groups
        .into_iter()
        .map(|(_, group)| group)
        .filter(|group| group.len() > 1)
        .collect()
}

/// The names of each group of two or more bots with the same content (see
/// [`content_hash`]), in the order of `bots` (found by [`find_bots`]: sorted by name).
pub fn same_content_groups(bots: &[Bot]) -> Vec<Vec<String>> {
    same_content_indices(bots)
        .into_iter()
        .map(|group| group.into_iter().map(|i| bots[i].name.clone()).collect())
        .collect()
}

fn agon_config(config: &GradeConfig, level: &Level) -> EngineConfig {
    reference_engine(&config.agon, config.seed, level)
}

/// The reference player of `level`: `agon` at `path` with the level's options and limit
/// and `seed` (named `agon-<level>`).
pub fn reference_engine(agon: &Path, seed: u64, level: &Level) -> EngineConfig {
    let &(name, options, tc) = level;
    let mut options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    options.push(("Seed".into(), seed.to_string()));
    let time = TimeControl::parse(tc).expect("a valid level");
    EngineConfig {
        name: format!("agon-{name}"),
        spawn: SpawnSpec {
            program: agon.to_path_buf(),
            ..SpawnSpec::default()
        },
        dialect: Dialect::Ugi,
        options,
        tc: time,
    }
}

/// The folder name of a student: the name itself when it is plain, else its plain
/// characters and a hash of the whole name, so that `a b` and `a_b` never share a folder.
pub fn folder_name(name: &str) -> String {
    let plain: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if plain == name && !name.is_empty() {
        return plain;
    }
    // FNV-1a, 32 bits: stable across builds and platforms.
    let hash = name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("{plain}-{hash:08x}")
}

/// The mean score of `scores` and its 95% confidence interval: Wilson's score interval
/// (Wilson 1927, "Probable inference, the law of succession, and statistical inference")
/// with the points of a game (0, ½ or 1) as the successes. Unlike the normal approximation
/// it is never empty: two wins out of two give [0.67, 1], not [1, 1]. Draws make the true
/// spread smaller than a win/loss coin's, so the interval errs on the wide side.
pub fn score_interval(scores: &[f64]) -> (f64, f64, f64) {
    score_interval_z(scores, 1.959_963_984_540_054)
}

/// [`score_interval`] with `z` standard deviations on each side.
pub fn score_interval_z(scores: &[f64], z: f64) -> (f64, f64, f64) {
    if scores.is_empty() {
        return (0.0, 0.0, 1.0);
    }
    #[allow(non_snake_case)]
    let Z = z;
    let n = scores.len() as f64;
    let p = scores.iter().sum::<f64>() / n;
    let z2n = Z * Z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = Z / (1.0 + z2n) * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

/// The z of each look when a level's score is looked at up to `looks` times (after each
/// batch): Pocock's constant for an overall two-sided error of 5% (Pocock 1977, "Group
/// sequential methods in the design and analysis of clinical trials", Biometrika 64,
/// Table 1). Looking four times at 1.96 would wrongly decide a level that a bot ties with
/// about 13% of the time instead of 5%.
pub fn sequential_z(looks: u64) -> f64 {
    match looks {
        0 | 1 => 1.960,
        2 => 2.178,
        3 => 2.289,
        4 => 2.361,
        5 => 2.413,
        6 => 2.453,
        7 => 2.485,
        8 => 2.512,
        9 => 2.535,
        _ => 2.555,
    }
}

/// Grades one bot: conformance, then the levels in order.
pub async fn grade_bot(
    config: &GradeConfig,
    bot: &Bot,
    cancel: watch::Receiver<bool>,
) -> StudentReport {
    let started = Instant::now();
    let folder = folder_name(&bot.name);
    let dir = config.out.join(&folder);
    let _ = std::fs::create_dir_all(&dir);
    let mut spawn = bot.spawn.clone();
    spawn.sandbox = Some(config.sandbox.clone());
    let check = run_checks(&CheckConfig {
        spec: config.spec.clone(),
        engine: SpawnSpec {
            keep_python_buffered: true,
            ..spawn.clone()
        },
        dialect: config.proto,
        startup: config.startup,
        deadline: Duration::from_secs(2),
        movetime: 200,
        margin: Duration::from_millis(200),
        seed: config.seed,
    })
    .await;
    let _ = crate::atomic_file::write(&dir.join("check.txt"), check.text());
    let mut report = StudentReport {
        student: bot.name.clone(),
        status: "graded".into(),
        command: std::iter::once(spawn.program.display().to_string())
            .chain(spawn.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        conformance: check.passed,
        failed_checks: failed_checks(&check),
        diagnosis: check.diagnosis(),
        same_content_as: bot.same_content_as.clone(),
        ..StudentReport::default()
    };
    let mut times: Vec<f64> = Vec::new();
    let batch = config.games_per_level.max(2).div_ceil(2) * 2;
    let most = config.max_games_per_level.max(batch);
    let z = sequential_z(most.div_ceil(batch));
    for level in LEVELS {
        if *cancel.borrow() {
            break;
        }
        let student = EngineConfig {
            name: bot.name.clone(),
            spawn: spawn.clone(),
            dialect: config.proto,
            options: Vec::new(),
            tc: config.tc,
        };
        let reference = Arc::new(agon_config(config, level));
        let student = Arc::new(student);
        let level_name = level.0;
        let run_dir = dir.join(level_name);
        let journal = dir.join(format!("{level_name}.jsonl"));
        let _ = std::fs::remove_file(&journal);
        let openings = Openings::parse("random:2", &config.spec).unwrap_or(Openings::Start);
        // Batches of games while the verdict is open: the journal keeps the games played,
        // and each larger schedule plays only the new ones (same openings, same order).
        // A bot that failed its check plays one pair first: if it lost both by its own
        // fault (it cannot start, crashes, plays illegal moves), the level is lost without
        // more games; otherwise it plays on like any other bot.
        let mut planned = if check.passed { batch } else { 2 };
        let records = loop {
            let match_config = MatchConfig {
                engines: [Arc::clone(&student), Arc::clone(&reference)],
                referee: RefereeSettings {
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
                    stderr_cap: 64 << 10,
                    log_dir: Some(run_dir.join("logs")),
                    live_dir: None,
                },
                schedule: Schedule::new(
                    config.spec.clone(),
                    openings.clone(),
                    planned,
                    config.seed,
                    false,
                ),
                concurrency: 1,
                affinity: None,
                run_id: format!("grade-{folder}-{level_name}"),
                run_dir: run_dir.clone(),
                journal: journal.clone(),
                transcripts: false,
                report_every: 0,
                progress: false,
                quiet: true,
                sprt: None,
                fingerprint: format!("grade {} {level_name} seed {}", bot.name, config.seed),
                records: Default::default(),
            };
            if let Err(e) = run_match(match_config, cancel.clone()).await {
                report
                    .fault_reasons
                    .insert("error".into(), format!("{level_name}: {e}"));
                break None;
            }
            let records = crate::journal::read(&journal)
                .map(|c| c.games)
                .unwrap_or_default();
            let (_, low, high) = score_interval_z(&bot_scores(&records), z);
            let decided = planned >= batch && (low > 0.5 || high < 0.5);
            let hopeless = planned < batch && records.iter().all(lost_by_own_fault);
            if decided || hopeless || planned >= most || *cancel.borrow() {
                break Some(records);
            }
            planned = if planned < batch {
                batch
            } else {
                (planned + batch).min(most)
            };
        };
        let Some(records) = records else { break };
        let result = level_result(
            level_name,
            &records,
            z,
            &mut times,
            &mut report.fault_reasons,
        );
        let beaten = result.beaten;
        report.levels.push(result);
        if beaten {
            report.highest_level_beaten = Some(level_name.into());
        } else {
            break;
        }
    }
    report.timing.moves = times.len() as u64;
    if !times.is_empty() {
        report.timing.mean_move_ms = times.iter().sum::<f64>() / times.len() as f64;
        report.timing.max_move_ms = times.iter().cloned().fold(0.0, f64::max);
    }
    report.timing.seconds = started.elapsed().as_secs_f64();
    let detail = serde_json::json!({
        "report": &report,
        "timing": &report.timing,
        "fault_reasons": &report.fault_reasons,
        "check": &check,
        "content": match &bot.content {
            Ok(sha256) => serde_json::json!({ "sha256": sha256 }),
            Err(why) => serde_json::json!({ "not_compared": why }),
        },
    });
    let _ = crate::atomic_file::write(
        &dir.join("report.json"),
        serde_json::to_string_pretty(&detail).unwrap_or_default() + "\n",
    );
    report
}

/// The required checks that failed, then how many more were not reached.
pub fn failed_checks(check: &crate::check::CheckReport) -> Vec<String> {
    let required = |status: Status| {
        check
            .checks
            .iter()
            .filter(move |c| c.required && c.status == status)
    };
    let mut out: Vec<String> = required(Status::Fail).map(|c| c.id.to_string()).collect();
    let missed = required(Status::Missed).count();
    if missed > 0 {
        out.push(missed_text(missed, !out.is_empty()));
    }
    out
}

/// `6 more checks not reached` after a failed check, `1 check not reached` alone.
fn missed_text(missed: usize, after_failures: bool) -> String {
    format!(
        "{missed} {}{} not reached",
        if after_failures { "more " } else { "" },
        if missed == 1 { "check" } else { "checks" }
    )
}

/// Whether the bot (match engine 0) lost the game by its own fault: a crash, a stall, an
/// illegal move, a time forfeit, a resource limit.
fn lost_by_own_fault(record: &GameRecord) -> bool {
    let bot = if record.p1.engine == 0 {
        crate::record::Seat::P1
    } else {
        crate::record::Seat::P2
    };
    record.termination.at_fault() == Some(bot)
}

/// The bot's (match engine 0's) points in each game of `records`.
fn bot_scores(records: &[GameRecord]) -> Vec<f64> {
    records.iter().filter_map(|r| r.points_of(0)).collect()
}

/// The bot's (match engine 0's) results in one level's records; its move times go to
/// `times` and the first reason of each fault kind to `reasons`.
fn level_result(
    level: &str,
    records: &[GameRecord],
    z: f64,
    times: &mut Vec<f64>,
    reasons: &mut std::collections::BTreeMap<String, String>,
) -> LevelResult {
    let mut r = LevelResult {
        level: level.into(),
        ..LevelResult::default()
    };
    for rec in records {
        let Some(p) = rec.points_of(0) else { continue };
        r.games += 1;
        match p {
            x if x > 0.75 => r.wins += 1,
            x if x > 0.25 => r.draws += 1,
            _ => r.losses += 1,
        }
        let seat = if rec.p1.engine == 0 {
            crate::record::Seat::P1
        } else {
            crate::record::Seat::P2
        };
        if rec.termination.at_fault() == Some(seat) {
            let kind = rec.termination.kind().to_string();
            *r.faults.entry(kind.clone()).or_default() += 1;
            reasons
                .entry(kind)
                .or_insert_with(|| format!("{level}: {}", rec.reason));
        }
        for m in &rec.moves {
            if !m.book && m.side == Some(seat) {
                if let Some(t) = m.time_ms {
                    times.push(t);
                }
            }
        }
    }
    let (score, low, high) = score_interval_z(&bot_scores(records), z);
    r.score = score;
    r.low = low;
    r.high = high;
    r.beaten = r.games > 0 && score > 0.5;
    // Every game lost by the bot's own fault (crash, illegal move, no start) is a
    // verdict whatever the number of games: more games would only repeat the fault.
    let all_faults = !records.is_empty() && records.iter().all(lost_by_own_fault);
    r.verdict = if low > 0.5 || high < 0.5 || all_faults {
        if r.beaten {
            "beaten"
        } else {
            "not beaten"
        }
    } else {
        "uncertain"
    }
    .to_string();
    r
}

/// The CSV of all reports: one row per submission, graded or skipped. The same seed (and
/// the same bots) give the same file, byte for byte.
pub fn csv(reports: &[StudentReport]) -> String {
    use crate::safe_text::csv_cell;
    let mut out = String::from(
        "student,status,diagnosis,conformance,failed_checks,highest_level_beaten,uncertain_levels",
    );
    for (name, _, _) in LEVELS {
        out.push_str(&format!(
            ",{name}_score,{name}_low,{name}_high,{name}_games"
        ));
    }
    // New columns go at the end, so that readers of the older columns keep working.
    out.push_str(",faults,same_content_as\n");
    for r in reports {
        out.push_str(&csv_cell(&r.student));
        out.push(',');
        out.push_str(&r.status);
        out.push(',');
        out.push_str(&csv_cell(&r.diagnosis));
        if r.status == "skipped" {
            out.push_str(&",".repeat(4 + 4 * LEVELS.len() + 1));
            out.push(',');
            out.push_str(&csv_cell(&r.same_content_as.join(";")));
            out.push('\n');
            continue;
        }
        out.push_str(if r.conformance { ",pass," } else { ",fail," });
        out.push_str(&csv_cell(&r.failed_checks.join("; ")));
        out.push(',');
        out.push_str(r.highest_level_beaten.as_deref().unwrap_or("none"));
        out.push(',');
        let uncertain: Vec<&str> = r
            .levels
            .iter()
            .filter(|l| l.verdict == "uncertain")
            .map(|l| l.level.as_str())
            .collect();
        out.push_str(&csv_cell(&uncertain.join(" ")));
        for (name, _, _) in LEVELS {
            match r.levels.iter().find(|l| l.level == *name) {
                Some(l) => out.push_str(&format!(
                    ",{:.3},{:.3},{:.3},{}",
                    l.score, l.low, l.high, l.games
                )),
                None => out.push_str(",,,,"),
            }
        }
        let mut faults = std::collections::BTreeMap::<String, u64>::new();
        for l in &r.levels {
            for (k, v) in &l.faults {
                *faults.entry(k.clone()).or_default() += v;
            }
        }
        let faults: Vec<String> = faults.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push(',');
        out.push_str(&csv_cell(&faults.join(" ")));
        out.push(',');
        out.push_str(&csv_cell(&r.same_content_as.join(";")));
        out.push('\n');
    }
    out
}

/// The times of every graded student, as CSV (they vary from run to run, so they are kept
/// apart from the grades).
pub fn timing_csv(reports: &[StudentReport]) -> String {
    use crate::safe_text::csv_cell;
    let mut out = String::from("student,seconds,moves,mean_move_ms,max_move_ms\n");
    for r in reports.iter().filter(|r| r.status == "graded") {
        let t = &r.timing;
        out.push_str(&format!(
            "{},{:.1},{},{:.1},{:.1}\n",
            csv_cell(&r.student),
            t.seconds,
            t.moves,
            t.mean_move_ms,
            t.max_move_ms
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{missed_text, score_interval};

    /// The `failed_checks` cell reads as words ("crash; 6 more checks not reached"), not
    /// "crash +6 not reached".
    #[test]
    fn checks_not_reached_in_words() {
        assert_eq!(missed_text(6, true), "6 more checks not reached");
        assert_eq!(missed_text(1, true), "1 more check not reached");
        assert_eq!(missed_text(2, false), "2 checks not reached");
    }

    #[test]
    fn wilson_interval_matches_published_values() {
        // 8 successes in 10: Wilson's 95% interval is [0.490, 0.943] (Newcombe 1998,
        // "Two-sided confidence intervals for the single proportion", Table I style
        // figures; also any Wilson calculator).
        let scores: Vec<f64> = [1.0; 8].into_iter().chain([0.0; 2]).collect();
        let (p, low, high) = score_interval(&scores);
        assert_eq!(p, 0.8);
        assert!((low - 0.4902).abs() < 5e-4, "{low}");
        assert!((high - 0.9433).abs() < 5e-4, "{high}");
        // All wins in two games: not a point interval.
        let (_, low, high) = score_interval(&[1.0, 1.0]);
        assert!((low - 0.3424).abs() < 5e-4 && high == 1.0, "{low} {high}");
    }
}
