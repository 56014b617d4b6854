//! `arena grade`: grades a folder of bots against reference players of graded strength.
//!
//! Each entry of the folder is one student's bot: a `*.py` file (run with the Python
//! interpreter given), an executable file, or a folder holding `bot.py` or an executable
//! `run`. Every bot first goes through `arena check`; then it plays each level in order, a
//! colour-swapped set of games from the same seeded openings for every student, in a
//! sandbox (memory, CPU time, file size, a private directory, a clean environment, and the
//! `nobody` user when the arena runs as root). A level is beaten with more than half the
//! points; grading stops at the first level not beaten. Levels: `random` (a random legal
//! move), `greedy` (one ply with the game's default heuristic), `depth2`, `depth3` (agon's
//! alpha-beta at that depth), `default` (agon's default search at the time per move).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::watch;

use agon::games::GameSpec;
use agon::protocol::Dialect;

use crate::check::{run_checks, CheckConfig, Status};
use crate::clock::TimeControl;
use crate::process::{LineLimits, SpawnSpec};
use crate::record::{read_journal, GameRecord};
use crate::referee::{EngineConfig, RefereeSettings};
use crate::runner::{run_match, MatchConfig};
use crate::sandbox::Sandbox;
use crate::schedule::{Openings, Schedule};

/// A reference level: its name, the `agon` options that make it, and its search limit
/// (empty: the students' time control).
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
    ("default", &[], ""),
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
    /// Games per level (rounded up to an even number: colour-swapped pairs).
    pub games_per_level: u64,
    /// The students' time control (the reference players use the same).
    pub tc: TimeControl,
    /// Output folder.
    pub out: PathBuf,
    /// Students graded at once.
    pub concurrency: usize,
    /// The sandbox of every bot.
    pub sandbox: Sandbox,
}

/// One student's bot as found in the folder.
#[derive(Clone, Debug)]
pub struct Bot {
    /// The student's name (file or folder name without `.py`).
    pub name: String,
    /// How to start it.
    pub spawn: SpawnSpec,
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
    /// More than half the points.
    pub beaten: bool,
    /// Games the bot lost by a fault, by termination kind.
    pub faults: std::collections::BTreeMap<String, u64>,
    /// The first reason given for each fault kind.
    pub reasons: std::collections::BTreeMap<String, String>,
}

/// One student's report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StudentReport {
    /// The student.
    pub student: String,
    /// The command that ran the bot.
    pub command: String,
    /// Every required conformance check passed.
    pub conformance: bool,
    /// The required checks that failed, with their details.
    pub failed_checks: Vec<String>,
    /// The levels played, weakest first.
    pub levels: Vec<LevelResult>,
    /// The strongest level beaten, if any.
    pub highest_level_beaten: Option<String>,
    /// Moves the bot played and their mean time, ms.
    pub moves: u64,
    /// Mean time per move, ms.
    pub mean_move_ms: f64,
    /// Slowest move, ms.
    pub max_move_ms: f64,
    /// Wall time of this student's grading, seconds.
    pub seconds: f64,
}

/// Finds the bots of `dir`, sorted by name; entries that are no bot are listed as notes.
///
/// # Errors
/// When the folder cannot be read.
pub fn find_bots(dir: &Path, python: &Path) -> std::io::Result<(Vec<Bot>, Vec<String>)> {
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
        // Each bot may read its own file or folder, nothing else of the submissions.
        let python_bot = |script: &Path, name: &str| Bot {
            name: name.to_string(),
            spawn: SpawnSpec {
                program: python.to_path_buf(),
                args: vec![script.display().to_string()],
                home: Some(path.clone()),
                ..SpawnSpec::default()
            },
        };
        if path.is_dir() {
            let (py, run) = (path.join("bot.py"), path.join("run"));
            if py.is_file() {
                bots.push(python_bot(&py, &file_name));
            } else if is_executable(&run) {
                bots.push(Bot {
                    name: file_name,
                    spawn: SpawnSpec {
                        program: run,
                        home: Some(path.clone()),
                        ..SpawnSpec::default()
                    },
                });
            } else {
                notes.push(format!(
                    "{}: a folder without bot.py or an executable run",
                    path.display()
                ));
            }
        } else if let Some(stem) = file_name.strip_suffix(".py") {
            bots.push(python_bot(&path, stem));
        } else if is_executable(&path) {
            bots.push(Bot {
                name: file_name,
                spawn: SpawnSpec {
                    program: path.clone(),
                    home: Some(path),
                    ..SpawnSpec::default()
                },
            });
        } else {
            notes.push(format!(
                "{}: not a .py file, an executable or a folder",
                path.display()
            ));
        }
    }
    Ok((bots, notes))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn agon_config(config: &GradeConfig, level: &Level) -> EngineConfig {
    let &(name, options, tc) = level;
    let mut options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    options.push(("Seed".into(), config.seed.to_string()));
    let time = if tc.is_empty() {
        config.tc
    } else {
        TimeControl::parse(tc).expect("a valid level")
    };
    EngineConfig {
        name: format!("agon-{name}"),
        spawn: SpawnSpec {
            program: config.agon.clone(),
            ..SpawnSpec::default()
        },
        dialect: Dialect::Ugi,
        options,
        tc: time,
    }
}

fn safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Grades one bot: conformance, then the levels in order.
pub async fn grade_bot(
    config: &GradeConfig,
    bot: &Bot,
    cancel: watch::Receiver<bool>,
) -> StudentReport {
    let started = Instant::now();
    let dir = config.out.join(safe(&bot.name));
    let _ = std::fs::create_dir_all(&dir);
    let mut spawn = bot.spawn.clone();
    spawn.sandbox = Some(config.sandbox.clone());
    let check = run_checks(&CheckConfig {
        spec: config.spec.clone(),
        engine: SpawnSpec {
            keep_python_buffered: true,
            ..spawn.clone()
        },
        dialect: Dialect::Ugi,
        deadline: Duration::from_secs(2),
        movetime: 200,
        margin: Duration::from_millis(200),
        seed: config.seed,
    })
    .await;
    let _ = std::fs::write(dir.join("check.txt"), check.text());
    let mut report = StudentReport {
        student: bot.name.clone(),
        command: std::iter::once(spawn.program.display().to_string())
            .chain(spawn.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        conformance: check.passed,
        failed_checks: check
            .checks
            .iter()
            .filter(|c| c.required && c.status == Status::Fail)
            .map(|c| format!("{}: {}", c.id, c.detail))
            .collect(),
        ..StudentReport::default()
    };
    let mut times: Vec<f64> = Vec::new();
    let games = config.games_per_level.max(2).div_ceil(2) * 2;
    for level in LEVELS {
        if *cancel.borrow() {
            break;
        }
        let student = EngineConfig {
            name: bot.name.clone(),
            spawn: spawn.clone(),
            dialect: Dialect::Ugi,
            options: Vec::new(),
            tc: config.tc,
        };
        let reference = agon_config(config, level);
        let level_name = level.0;
        let run_dir = dir.join(level_name);
        let journal = dir.join(format!("{level_name}.jsonl"));
        let _ = std::fs::remove_file(&journal);
        let openings = Openings::parse("random:2", &config.spec).unwrap_or(Openings::Start);
        let match_config = MatchConfig {
            engines: [Arc::new(student), Arc::new(reference)],
            referee: RefereeSettings {
                spec: config.spec.clone(),
                margin: Duration::from_millis(200),
                startup_timeout: Duration::from_secs(5),
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
            schedule: Schedule::new(config.spec.clone(), openings, games, config.seed, false),
            concurrency: 1,
            run_id: format!("grade-{}-{level_name}", safe(&bot.name)),
            run_dir,
            journal: journal.clone(),
            transcripts: false,
            report_every: 0,
            progress: false,
            sprt: None,
            fingerprint: format!("grade {} {level_name} seed {}", bot.name, config.seed),
            records: Default::default(),
        };
        if let Err(e) = run_match(match_config, cancel.clone()).await {
            report.levels.push(LevelResult {
                level: level_name.into(),
                reasons: [("error".to_string(), e.to_string())].into(),
                ..LevelResult::default()
            });
            break;
        }
        let records = read_journal(&journal).unwrap_or_default();
        let result = level_result(level_name, &records, &mut times);
        let beaten = result.beaten;
        report.levels.push(result);
        if beaten {
            report.highest_level_beaten = Some(level_name.into());
        } else {
            break;
        }
    }
    report.moves = times.len() as u64;
    if !times.is_empty() {
        report.mean_move_ms = times.iter().sum::<f64>() / times.len() as f64;
        report.max_move_ms = times.iter().cloned().fold(0.0, f64::max);
    }
    report.seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::write(
        dir.join("report.json"),
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n",
    );
    report
}

/// The bot's (match engine 0's) results in one level's records.
fn level_result(level: &str, records: &[GameRecord], times: &mut Vec<f64>) -> LevelResult {
    let mut r = LevelResult {
        level: level.into(),
        ..LevelResult::default()
    };
    let mut points = 0.0;
    for rec in records {
        let Some(p) = rec.points_of(0) else { continue };
        r.games += 1;
        points += p;
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
            r.reasons.entry(kind).or_insert_with(|| rec.reason.clone());
        }
        for m in &rec.moves {
            if !m.book && m.side == Some(seat) {
                if let Some(t) = m.time_ms {
                    times.push(t);
                }
            }
        }
    }
    if r.games > 0 {
        r.score = points / r.games as f64;
        r.beaten = r.score > 0.5;
    }
    r
}

/// The CSV of all reports: one row per student.
pub fn csv(reports: &[StudentReport]) -> String {
    let mut out = String::from("student,conformance,failed_checks,highest_level_beaten");
    for (name, _, _) in LEVELS {
        out.push_str(&format!(",{name}_score"));
    }
    out.push_str(",faults,moves,mean_move_ms,max_move_ms\n");
    let quote = crate::safe_text::csv_cell;
    for r in reports {
        out.push_str(&quote(&r.student));
        out.push_str(if r.conformance { ",pass" } else { ",fail" });
        out.push(',');
        out.push_str(&quote(
            &r.failed_checks
                .iter()
                .map(|c| c.split(':').next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(" "),
        ));
        out.push(',');
        out.push_str(r.highest_level_beaten.as_deref().unwrap_or("none"));
        for (name, _, _) in LEVELS {
            match r.levels.iter().find(|l| l.level == *name) {
                Some(l) => out.push_str(&format!(",{:.3}", l.score)),
                None => out.push(','),
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
        out.push_str(&quote(&faults.join(" ")));
        out.push_str(&format!(
            ",{},{:.1},{:.1}\n",
            r.moves, r.mean_move_ms, r.max_move_ms
        ));
    }
    out
}
