//! The `arena` binary: `arena match` plays a match between two engine processes.
//! See the README's arena section for every flag and the journal format.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use agon::games::GameSpec;
use arena::clock::TimeControl;
use arena::config::EngineSpec;
use arena::process::LineLimits;
use arena::referee::{EngineConfig, RefereeSettings};
use arena::runner::{run_match, MatchConfig};
use arena::schedule::{Openings, Schedule};
use arena::sprt::{Decision, Sprt};
use arena::summary::Summary;
use arena::tournament::{
    config_engine_words, describe, merge as merge_journals, run_tournament, write_standings,
    Format, Header, Shard, Standings, TournamentConfig, TournamentSchedule,
};

/// The game of the built-in default match.
const DEFAULT_GAME: &str = "mnk m=5 n=5 k=4";
/// The time control when none is given.
const DEFAULT_TC: &str = "tc=1+0.02";

/// Agon arena: referee matches between engine processes.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a match between two engines (default: agon's PVS against agon's depth-3
    /// minimax baseline on 5x5 four-in-a-row, 100 games).
    Match(MatchArgs),
    /// Play a round robin or gauntlet between any number of engines, with a cross table
    /// and jointly fitted ratings; resumes from its journal; --shard K/N plays a slice.
    Tournament(TournamentArgs),
    /// Join the journals of a tournament's shards into one set of standings.
    Merge(MergeArgs),
    /// Write a self-contained HTML report (SVG charts of nodes, depth, time and score per
    /// move for each engine configuration, standings with error bars) from a journal.
    Report(ReportArgs),
    /// Check that one engine speaks the protocol: handshake, isready, options, unknown
    /// commands, stop, legal moves, one bestmove per go, time limits, quit. Prints a report
    /// with a hint per failure; exit status 0 when every required check passes, 1 if not.
    Check(CheckArgs),
    /// Grade a folder of bots (one per student: a .py file, an executable, or a folder with
    /// bot.py or run) against reference players of graded strength, in a sandbox; writes a
    /// report per student, grades.json and grades.csv.
    Grade(GradeArgs),
    /// Serve a local web page: play any configured engine or watch two play (with their
    /// live search info), follow running matches and tournaments (--watch OUT), replay
    /// journaled games with per-move statistics, and open reports.
    Serve(ServeArgs),
}

#[derive(Args, Debug)]
struct ServeArgs {
    /// Port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to bind.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Answer peers other than this machine and any Host header (off: loopback only).
    #[arg(long)]
    allow_remote: bool,
    /// An engine the page may start, as one string of --engine keys, e.g.
    /// --engine "cmd=./mybot name=mine"; repeat for more. Without --engine or --config:
    /// agon, agon-easy, agon-minimax-d3 and agon-random.
    #[arg(long, value_name = "WORDS")]
    engine: Vec<String>,
    /// Engines from a JSON file in the format of `tournament --config`.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The agon binary of the default engines.
    #[arg(long, value_name = "PATH")]
    agon: Option<PathBuf>,
    /// An output folder of `arena match` or `tournament` to follow live (repeatable).
    #[arg(long, value_name = "DIR")]
    watch: Vec<PathBuf>,
    /// A journal to replay and report (repeatable).
    #[arg(long, value_name = "FILE")]
    journal: Vec<PathBuf>,
    /// Time an engine may overrun its move time before it loses (ms).
    #[arg(long, default_value_t = 1000)]
    margin_ms: u64,
    /// Deadline for an engine's handshake and first readyok (ms).
    #[arg(long, default_value_t = 10_000)]
    startup_ms: u64,
}

/// A `--config` file: its `"game"`, if any, and the `--engine` words of each of its
/// `"engines"`.
fn read_engine_config(path: &Path) -> anyhow::Result<(Option<String>, Vec<Vec<String>>)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read --config {}", path.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("--config {}: not valid JSON", path.display()))?;
    let game = value
        .get("game")
        .and_then(|g| g.as_str())
        .map(str::to_string);
    let Some(list) = value.get("engines").and_then(|e| e.as_array()) else {
        bail!("--config {}: needs \"engines\": [...]", path.display());
    };
    let mut groups = Vec::new();
    for (i, e) in list.iter().enumerate() {
        groups.push(config_engine_words(
            e,
            &format!("--config {} engine {}", path.display(), i + 1),
        )?);
    }
    Ok((game, groups))
}

/// `arena serve`.
async fn serve(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let mut groups: Vec<Vec<String>> = match &args.config {
        // The page picks the game, so a config's "game" does not apply here.
        Some(path) => read_engine_config(path)?.1,
        None => Vec::new(),
    };
    groups.extend(args.engine.iter().map(|e| vec![e.clone()]));
    if groups.is_empty() {
        let agon = args
            .agon
            .as_ref()
            .map_or_else(|| "agon".to_string(), |p| p.display().to_string());
        groups = vec![
            agon_words(&agon, "agon", &[]),
            agon_words(&agon, "agon-easy", &["option.Level=easy"]),
            agon_words(
                &agon,
                "agon-minimax-d3",
                &["option.Searcher=minimax", "option.Depth=3"],
            ),
            agon_words(&agon, "agon-random", &["option.Searcher=random"]),
        ];
    }
    let engines = build_engines(&groups, &EngineSpec::default())?;
    let mut names = std::collections::HashSet::new();
    for e in &engines {
        if e.name == "human" || !names.insert(e.name.clone()) {
            bail!(
                "engine name '{}' is used twice (or is 'human'); give each a name=",
                e.name
            );
        }
    }
    for dir in &args.watch {
        if !dir.is_dir() {
            bail!("--watch {}: not a folder", dir.display());
        }
    }
    for j in &args.journal {
        if !j.is_file() {
            bail!("--journal {}: no such file", j.display());
        }
    }
    let spec = GameSpec::parse("tictactoe").expect("valid");
    let referee = RefereeSettings {
        spec,
        margin: Duration::from_millis(args.margin_ms),
        startup_timeout: Duration::from_millis(args.startup_ms),
        ping_timeout: Duration::from_millis(5_000),
        hard_cap: Duration::from_secs(120),
        grace: Duration::from_millis(300),
        max_plies: None,
        query_result: false,
        ping_every_move: false,
        limits: LineLimits {
            max_line: 65_536,
            burst_lines: 20_000,
            lines_per_sec: 20_000,
        },
        stderr_cap: 0,
        log_dir: None,
        live_dir: None,
    };
    let config = arena::serve::ServeConfig {
        engines: engines.into_iter().map(Arc::new).collect(),
        watch: args.watch.clone(),
        journals: args.journal.clone(),
        allow_remote: args.allow_remote,
        referee,
    };
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let listener = tokio::net::TcpListener::bind((args.bind, args.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
    let address = listener.local_addr()?;
    let host = if address.ip().is_unspecified() {
        "127.0.0.1".to_string()
    } else if address.is_ipv6() {
        format!("[{}]", address.ip())
    } else {
        address.ip().to_string()
    };
    println!("arena serve: http://{host}:{}/", address.port());
    println!("  engines: {}", names.join(", "));
    if !args.allow_remote {
        println!("  answering this machine only (--allow-remote to change)");
    }
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    arena::serve::serve(listener, arena::serve::router(config)).await?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Args, Debug)]
struct GradeArgs {
    /// The game.
    #[arg(long, default_value = "tictactoe")]
    game: String,
    /// The folder of bots.
    #[arg(long)]
    bots: PathBuf,
    /// The interpreter of Python bots.
    #[arg(long, default_value = "python3")]
    python: String,
    /// The agon binary of the reference players (default: next to the arena).
    #[arg(long)]
    agon: Option<PathBuf>,
    /// Seed of the openings and of the random player.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games per level (colour-swapped pairs).
    #[arg(long, default_value_t = 4)]
    games_per_level: u64,
    /// The bots' time control (also the default level's).
    #[arg(long, default_value = "st=0.1")]
    tc: String,
    /// Output folder.
    #[arg(long, default_value = "grade-out")]
    out: PathBuf,
    /// Students graded at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// How bots are isolated: strict (namespaces, a UID per bot, cgroup limits; needs
    /// root), userns (namespaces without root, per-process limits), limits (per-process
    /// limits and Landlock only). See README, "Security model".
    #[arg(long, default_value = "strict")]
    sandbox: String,
    /// Memory limit per bot and game, MiB.
    #[arg(long, default_value_t = 1024)]
    mem: u64,
    /// CPU time limit per bot and game, seconds.
    #[arg(long, default_value_t = 60)]
    cpu: u64,
    /// Processes and threads per bot.
    #[arg(long, default_value_t = 32)]
    nproc: u64,
    /// Largest file a bot may write, MiB.
    #[arg(long, default_value_t = 16)]
    fsize: u64,
}

/// `arena grade`.
async fn grade(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    use arena::grade::{csv, find_bots, grade_bot, GradeConfig};
    let spec = GameSpec::parse(&args.game).with_context(|| format!("--game '{}'", args.game))?;
    let level = arena::sandbox::Level::parse(&args.sandbox)
        .map_err(anyhow::Error::msg)?
        .ok_or_else(|| {
            anyhow::anyhow!("--sandbox off: student bots always run in a sandbox (use strict, userns or limits)")
        })?;
    arena::sandbox::require(level).map_err(anyhow::Error::msg)?;
    let mut sandbox = arena::sandbox::Sandbox::for_grading(level);
    sandbox.memory_bytes = Some(args.mem << 20);
    sandbox.cpu_seconds = Some(args.cpu);
    sandbox.processes = Some(args.nproc);
    sandbox.file_bytes = Some(args.fsize << 20);
    let python = arena::config::resolve_program(&args.python, None).map_err(anyhow::Error::msg)?;
    let agon = match &args.agon {
        Some(p) => p.clone(),
        None => arena::config::resolve_program("agon", None).map_err(anyhow::Error::msg)?,
    };
    let tc = TimeControl::parse(&args.tc).with_context(|| format!("--tc '{}'", args.tc))?;
    let (bots, notes) = find_bots(&args.bots, &python)
        .with_context(|| format!("cannot read --bots {}", args.bots.display()))?;
    for n in &notes {
        eprintln!("arena grade: skipped {n}");
    }
    if bots.is_empty() {
        bail!("no bots in {}", args.bots.display());
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let config = Arc::new(GradeConfig {
        spec: spec.clone(),
        bots: args.bots.clone(),
        python,
        agon,
        seed: args.seed,
        games_per_level: args.games_per_level,
        tc,
        out: args.out.clone(),
        concurrency: args.concurrency.max(1),
        sandbox,
    });
    println!(
        "Grading {} bot(s) from {} on {spec}, seed {}, {} games per level, levels {}",
        bots.len(),
        args.bots.display(),
        args.seed,
        args.games_per_level,
        arena::grade::LEVELS
            .iter()
            .map(|l| l.0)
            .collect::<Vec<_>>()
            .join(" < ")
    );
    println!("  {}", config.sandbox.describe());
    let started = std::time::Instant::now();
    let cancel = cancel_on_signal();
    let permits = Arc::new(tokio::sync::Semaphore::new(config.concurrency));
    let mut tasks = Vec::new();
    for bot in bots {
        let (config, permits, cancel) = (Arc::clone(&config), Arc::clone(&permits), cancel.clone());
        tasks.push(tokio::spawn(async move {
            let _permit = permits.acquire_owned().await.expect("semaphore");
            grade_bot(&config, &bot, cancel).await
        }));
    }
    let mut reports = Vec::new();
    for t in tasks {
        reports.push(t.await.context("a grading task failed")?);
    }
    reports.sort_by(|a, b| a.student.cmp(&b.student));
    for r in &reports {
        println!(
            "  {:<20} conformance {:<4} highest level beaten {:<8} levels {}",
            r.student,
            if r.conformance { "pass" } else { "FAIL" },
            r.highest_level_beaten.as_deref().unwrap_or("none"),
            r.levels
                .iter()
                .map(|l| format!(
                    "{} {:.0}%{}",
                    l.level,
                    100.0 * l.score,
                    if l.faults.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " ({})",
                            l.faults.keys().cloned().collect::<Vec<_>>().join(",")
                        )
                    }
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    std::fs::write(args.out.join("grades.csv"), csv(&reports))?;
    let json = serde_json::json!({
        "game": spec.to_string(),
        "seed": args.seed,
        "sandbox": {
            "level": config.sandbox.level.name(),
            "limits": config.sandbox.effective(),
        },
        "students": reports,
    });
    std::fs::write(
        args.out.join("grades.json"),
        serde_json::to_string_pretty(&json)? + "\n",
    )?;
    println!(
        "Graded in {:.1} s: {}/grades.csv, grades.json, and a folder per student",
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The game to check the engine on.
    #[arg(long, default_value = "tictactoe")]
    game: String,
    /// The handshake dialect: ugi, uci or tei.
    #[arg(long, default_value = "ugi")]
    proto: String,
    /// Also write the report as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Deadline for replies that should come at once (handshake, readyok), ms.
    #[arg(long, default_value_t = 2000)]
    deadline_ms: u64,
    /// movetime of the timed searches, ms.
    #[arg(long, default_value_t = 300)]
    movetime: u64,
    /// Time a search may overrun its limit, ms.
    #[arg(long, default_value_t = 200)]
    margin_ms: u64,
    /// Seed of the positions the engine is asked to move in.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Interpreter for a command ending in `.py`.
    #[arg(long, default_value = "python3")]
    python: String,
    /// The engine command and its arguments, after `--`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// `arena check`: runs the conformance checks and prints (and writes) the report.
async fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let spec = GameSpec::parse(&args.game).with_context(|| format!("--game '{}'", args.game))?;
    let dialect = match args.proto.as_str() {
        "ugi" => agon::protocol::Dialect::Ugi,
        "uci" => agon::protocol::Dialect::Uci,
        "tei" => agon::protocol::Dialect::Tei,
        other => bail!("--proto '{other}': use ugi, uci or tei"),
    };
    if dialect == agon::protocol::Dialect::Tei && spec.name != "tak" {
        bail!("--proto tei plays Tak only; the game is '{spec}'");
    }
    let engine =
        arena::check::spawn_spec(&args.command, &args.python).map_err(anyhow::Error::msg)?;
    let config = arena::check::CheckConfig {
        spec,
        engine,
        dialect,
        deadline: Duration::from_millis(args.deadline_ms),
        movetime: args.movetime,
        margin: Duration::from_millis(args.margin_ms),
        seed: args.seed,
    };
    let report = arena::check::run_checks(&config).await;
    print!("{}", report.text());
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[derive(Args, Debug)]
struct ReportArgs {
    /// The journal to read (one JSON game record per line).
    journal: PathBuf,
    /// Where to write the page.
    #[arg(short, long, default_value = "report.html")]
    output: PathBuf,
}

/// `arena report`: reads the journal through the record types and writes the page.
fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let records = arena::record::read_journal(&args.journal)
        .with_context(|| format!("cannot read journal {}", args.journal.display()))?;
    let title = format!("Arena report: {}", args.journal.display());
    std::fs::write(&args.output, arena::report::render(&title, &records))
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("{} games -> {}", records.len(), args.output.display());
    Ok(ExitCode::SUCCESS)
}

#[derive(Args, Debug)]
struct TournamentArgs {
    #[command(flatten)]
    common: MatchArgs,
    /// Engines from a JSON file: {"engines": [{"name": "d1", "cmd": "agon",
    /// "args": ["..."], "dir": "...", "proto": "ugi", "tc": "1+0.01", "depth": 3,
    /// "options": {"Depth": 3}, "env": {"K": "V"}}, ...], "game": "..."}; the keys are
    /// those of --engine. Engines given with --engine come after the file's.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// round-robin (everyone against everyone) or gauntlet (the first engine against each other).
    #[arg(long, default_value = "round-robin")]
    format: String,
    /// Rounds: each pairing plays one colour-swapped pair of games per round, all pairings
    /// of a round from the same opening.
    #[arg(long, default_value_t = 1)]
    rounds: u64,
    /// Play only slice K of N of the schedule (pairs p with p % N == K-1); merge the
    /// shards' journals with `arena merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Where the standings go as JSON (default OUT/standings.json, per shard
    /// OUT/standings-K-of-N.json).
    #[arg(long, value_name = "FILE")]
    standings: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// The shards' journals.
    #[arg(required = true)]
    journals: Vec<PathBuf>,
    /// Write the merged standings as JSON here.
    #[arg(long, value_name = "FILE")]
    standings: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct MatchArgs {
    /// An engine, as key=value words (give it twice; once: it plays the baseline;
    /// never: the default pair). Keys: cmd=PATH args="ARGS" name=NAME dir=DIR
    /// proto=ugi|uci|tei option.NAME=VALUE env.NAME=VALUE tc=BASE+INC st=SECONDS
    /// depth=N nodes=N. A bare cmd (no '/') is looked for next to the arena binary, then on PATH.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// The `--engine` words grouped by occurrence (filled from the matches, not by clap).
    #[arg(skip)]
    engine_groups: Vec<Vec<String>>,
    /// Settings for both engines (each --engine overrides them), e.g. --each tc=5+0.05.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// The agon binary used for the built-in engines.
    #[arg(long, value_name = "PATH")]
    agon: Option<PathBuf>,
    /// The game and its parameters, e.g. "tictactoe", "mnk m=5 n=5 k=4", "clobber rows=5 cols=6".
    #[arg(long, default_value = DEFAULT_GAME)]
    game: String,
    /// Number of games (played as colour-swapped pairs from the same opening).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Openings: start, random:PLIES (random legal plies from the seed) or file:PATH
    /// (one per line: a move list, "fen POSITION [moves ...]" or a position string).
    #[arg(long, default_value = "random:2")]
    openings: String,
    /// Shuffle the openings of a file with the seed (default: file order).
    #[arg(long)]
    shuffle_openings: bool,
    /// Seed of the schedule (random openings, shuffling); printed so a run can be repeated.
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once (each with its own two engine processes).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Time an engine may overrun its clock or movetime before it loses on time (ms).
    #[arg(long, default_value_t = 100)]
    margin_ms: u64,
    /// Deadline for a new engine's handshake and first readyok (ms).
    #[arg(long, default_value_t = 10_000)]
    startup_ms: u64,
    /// Deadline for readyok (new game, pings) and query answers (ms).
    #[arg(long, default_value_t = 5_000)]
    ping_ms: u64,
    /// Wall-clock cap of a search limited only by depth or nodes (ms).
    #[arg(long, default_value_t = 60_000)]
    hard_cap_ms: u64,
    /// Time an engine gets to exit after quit before its process group is killed (ms).
    #[arg(long, default_value_t = 300)]
    grace_ms: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long)]
    max_plies: Option<u32>,
    /// Ask both engines `query result` after each game and record their claims.
    #[arg(long)]
    query_result: bool,
    /// Ping (isready) the engine before every move.
    #[arg(long)]
    ping_every_move: bool,
    /// Longest engine output line accepted (bytes).
    #[arg(long, default_value_t = 65_536)]
    max_line_bytes: usize,
    /// Engine output lines per second allowed (sustained; the same number may come at once).
    #[arg(long, default_value_t = 20_000)]
    max_lines_per_sec: u32,
    /// Bytes of each engine process's stderr kept in its log.
    #[arg(long, default_value_t = 1 << 20)]
    stderr_cap: u64,
    /// Output directory: the journal, and per run a folder with game files and engine logs.
    #[arg(long, default_value = "arena-out")]
    out: PathBuf,
    /// The journal (default OUT/journal.jsonl); appended to, one JSON line per game.
    #[arg(long)]
    journal: Option<PathBuf>,
    /// Write a timestamped protocol transcript of every game.
    #[arg(long)]
    transcripts: bool,
    /// Print the summary every N games (0: only at the end).
    #[arg(long, default_value_t = 25)]
    report_every: u64,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
    /// Stop early by a sequential test between two engines, fastchess style:
    /// --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Vec<String>,
}

fn agon_words(path: &str, name: &str, extra: &[&str]) -> Vec<String> {
    let mut w = vec![format!("cmd={path}"), format!("name={name}")];
    w.extend(extra.iter().map(|s| s.to_string()));
    w
}

fn run_id(seed: u64) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let (days, secs) = (now / 86_400, now % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-s{seed}-p{}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60,
        std::process::id()
    )
}

async fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let spec = GameSpec::parse(&args.game).with_context(|| format!("--game '{}'", args.game))?;
    let agon = match &args.agon {
        Some(p) => p.display().to_string(),
        None => "agon".to_string(),
    };
    let each = EngineSpec::parse(&args.each)?;
    let baseline = agon_words(
        &agon,
        "agon-minimax-d3",
        &["option.Searcher=minimax", "option.Depth=3"],
    );
    let default_engine = agon_words(&agon, "agon", &[]);
    let engine_words: Vec<Vec<String>> = match args.engine_groups.len() {
        0 => vec![default_engine, baseline],
        1 => vec![args.engine_groups[0].clone(), baseline],
        2 => args.engine_groups.clone(),
        n => bail!("{n} engines given; a match takes two (--engine twice)"),
    };
    let mut engines = build_engines(&engine_words, &each)?;
    check_dialects(&engines, &spec)?;
    if engines[0].name == engines[1].name {
        engines[0].name.push_str("-1");
        engines[1].name.push_str("-2");
    }
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000)
    });
    let openings = Openings::parse(&args.openings, &spec)?;
    let schedule = Schedule::new(
        spec.clone(),
        openings,
        args.games,
        seed,
        args.shuffle_openings,
    );
    let run_id = run_id(seed);
    let run_dir = args.out.join(&run_id);
    let journal = args
        .journal
        .clone()
        .unwrap_or_else(|| args.out.join("journal.jsonl"));
    let concurrency = concurrency(&args);
    let referee = referee_settings(&args, &spec, &run_dir);
    let sprt = sprt_of(&args)?;
    let engines: Vec<Arc<EngineConfig>> = engines.into_iter().map(Arc::new).collect();
    let fingerprint = arena::tournament::fingerprint(&describe(
        &engines,
        &format!("match; games={}", args.games),
        &spec.to_string(),
        &args.openings,
        args.shuffle_openings,
        seed,
    ));
    println!(
        "Match {} vs {}: {} games of {spec}, openings {}, seed {seed}, concurrency {concurrency}",
        engines[0].name, engines[1].name, args.games, args.openings
    );
    print_engines(&engines);
    println!(
        "  journal {}, games and logs in {}",
        journal.display(),
        run_dir.display()
    );
    let cancel_rx = cancel_on_signal();
    let config = MatchConfig {
        engines: [Arc::clone(&engines[0]), Arc::clone(&engines[1])],
        referee,
        schedule,
        concurrency,
        run_id,
        run_dir,
        journal: journal.clone(),
        transcripts: args.transcripts,
        report_every: args.report_every,
        progress: !args.no_progress,
        sprt,
        fingerprint,
    };
    let outcome = run_match(config, cancel_rx).await?;
    println!(
        "=== Final{} ===\n{}",
        if outcome.interrupted {
            " (interrupted)"
        } else {
            ""
        },
        outcome.summary.render()
    );
    if let Some(sprt) = sprt {
        print_sprt(&sprt, &outcome.summary, outcome.sprt_decision);
    }
    println!("Journal: {}", journal.display());
    Ok(if outcome.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

fn sprt_of(args: &MatchArgs) -> anyhow::Result<Option<Sprt>> {
    if args.sprt.is_empty() {
        return Ok(None);
    }
    Sprt::parse(&args.sprt)
        .map(Some)
        .map_err(anyhow::Error::msg)
}

/// The SPRT line. A decision taken during the match stands: games that were still in
/// progress when it stopped are counted in the summary but do not undo it.
fn print_sprt(sprt: &Sprt, summary: &Summary, decided: Option<(Decision, f64, u64)>) {
    let llr = sprt.llr_pentanomial(&summary.pentanomial);
    let (lower, upper) = sprt.bounds();
    let name = |d: Decision| match d {
        Decision::AcceptH1 => "H1 accepted",
        Decision::AcceptH0 => "H0 accepted",
    };
    let verdict = match (decided, sprt.decide(llr)) {
        (Some((d, at_llr, games)), _) if games != summary.games => format!(
            "{} after {games} games (LLR {at_llr:.3}; the {} game(s) in progress then were played out)",
            name(d),
            summary.games - games
        ),
        (Some((d, _, _)), _) | (None, Some(d)) => name(d).to_string(),
        (None, None) => "no decision yet".to_string(),
    };
    println!(
        "SPRT [{}, {}] ({:?} Elo, alpha {}, beta {}), pentanomial: LLR {llr:.3} in ({lower:.3}, {upper:.3}): {verdict}",
        sprt.elo0, sprt.elo1, sprt.model, sprt.alpha, sprt.beta,
    );
}

fn concurrency(args: &MatchArgs) -> usize {
    args.concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(2)
    })
}

fn print_engines(engines: &[Arc<EngineConfig>]) {
    for e in engines {
        let options: Vec<String> = e.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!(
            "  {}: {} {} [{}]{}",
            e.name,
            e.spawn.program.display(),
            e.spawn.args.join(" "),
            e.tc,
            if options.is_empty() {
                String::new()
            } else {
                format!(" options {}", options.join(" "))
            }
        );
    }
}

/// Stops the run on Ctrl-C or SIGTERM: games in progress are recorded as interrupted.
fn cancel_on_signal() -> tokio::sync::watch::Receiver<bool> {
    let (cancel_tx, cancel_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        eprintln!("\narena: interrupted; recording games in progress and stopping engines");
        let _ = cancel_tx.send(true);
        // Keep the sender alive so receivers see the flag.
        std::future::pending::<()>().await;
    });
    cancel_rx
}

fn referee_settings(args: &MatchArgs, spec: &GameSpec, run_dir: &Path) -> RefereeSettings {
    RefereeSettings {
        spec: spec.clone(),
        margin: Duration::from_millis(args.margin_ms),
        startup_timeout: Duration::from_millis(args.startup_ms),
        ping_timeout: Duration::from_millis(args.ping_ms),
        hard_cap: Duration::from_millis(args.hard_cap_ms),
        grace: Duration::from_millis(args.grace_ms),
        max_plies: args.max_plies,
        query_result: args.query_result,
        ping_every_move: args.ping_every_move,
        limits: LineLimits {
            max_line: args.max_line_bytes,
            burst_lines: args.max_lines_per_sec,
            lines_per_sec: args.max_lines_per_sec,
        },
        stderr_cap: args.stderr_cap,
        log_dir: Some(run_dir.join("logs")),
        live_dir: Some(args.out.join("live")),
    }
}

/// TEI engines play Tak only: refuse another game before any process starts.
fn check_dialects(engines: &[EngineConfig], spec: &GameSpec) -> anyhow::Result<()> {
    for e in engines {
        if e.dialect == agon::protocol::Dialect::Tei && spec.name != "tak" {
            bail!(
                "engine '{}' speaks TEI (proto=tei), which plays Tak only; the game is '{spec}'",
                e.name
            );
        }
    }
    Ok(())
}

/// Engine configurations from `--engine` word groups over the `--each` defaults.
fn build_engines(groups: &[Vec<String>], each: &EngineSpec) -> anyhow::Result<Vec<EngineConfig>> {
    let default_tc = TimeControl::parse(DEFAULT_TC).expect("valid default");
    let mut engines = Vec::new();
    for (i, words) in groups.iter().enumerate() {
        let spec = EngineSpec::parse(words)?.over(each);
        let mut config = spec
            .build(&format!("engine{}", i + 1), default_tc)
            .with_context(|| format!("engine {}", i + 1))?;
        if spec.name.is_none() {
            config.name = config
                .spawn
                .program
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| format!("engine{}", i + 1));
        }
        engines.push(config);
    }
    Ok(engines)
}

async fn tournament(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let common = &args.common;
    let mut game = common.game.clone();
    let mut groups = Vec::new();
    if let Some(path) = &args.config {
        let (config_game, engines) = read_engine_config(path)?;
        if let Some(g) = config_game {
            game = g;
        }
        groups = engines;
    }
    groups.extend(common.engine_groups.iter().cloned());
    if groups.len() < 2 {
        bail!(
            "a tournament needs at least two engines (--engine ... repeated, or --config FILE); {} given",
            groups.len()
        );
    }
    let spec = GameSpec::parse(&game).with_context(|| format!("game '{game}'"))?;
    let each = EngineSpec::parse(&common.each)?;
    let engines = build_engines(&groups, &each)?;
    check_dialects(&engines, &spec)?;
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|o| o.name == e.name) {
            bail!(
                "two engines are named '{}': give each a distinct name=",
                e.name
            );
        }
    }
    let format = Format::parse(&args.format).map_err(anyhow::Error::msg)?;
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(anyhow::Error::msg)?,
        None => Shard::ALL,
    };
    let sprt = sprt_of(common)?;
    if sprt.is_some() && engines.len() != 2 {
        bail!(
            "--sprt compares two engines; this tournament has {}",
            engines.len()
        );
    }
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    // A fixed default seed, so that running the same command again resumes it.
    let seed = common.seed.unwrap_or(1);
    let openings = Openings::parse(&common.openings, &spec)?;
    let engines: Vec<Arc<EngineConfig>> = engines.into_iter().map(Arc::new).collect();
    let pairings = format.pairings(engines.len());
    let schedule = TournamentSchedule {
        pairings,
        rounds: args.rounds,
        openings: Schedule::new(
            spec.clone(),
            openings,
            args.rounds * 2,
            seed,
            common.shuffle_openings,
        ),
    };
    let description = describe(
        &engines,
        &format!("format={format:?}; rounds={}", args.rounds),
        &spec.to_string(),
        &common.openings,
        common.shuffle_openings,
        seed,
    );
    let suffix = if shard == Shard::ALL {
        String::new()
    } else {
        format!("-{}-of-{}", shard.index, shard.count)
    };
    let journal = common
        .journal
        .clone()
        .unwrap_or_else(|| common.out.join(format!("tournament{suffix}.jsonl")));
    let standings_path = args
        .standings
        .clone()
        .unwrap_or_else(|| common.out.join(format!("standings{suffix}.json")));
    let run_id = run_id(seed);
    let run_dir = common.out.join(&run_id);
    let concurrency = concurrency(common);
    let header = Header {
        fingerprint: arena::tournament::fingerprint(&description),
        shard,
        engines: engines.iter().map(|e| e.name.clone()).collect(),
        games: schedule.games(),
        description,
    };
    println!(
        "Tournament ({:?}) of {} engines: {} rounds, {} games of {spec}{}, openings {}, seed {seed}, concurrency {concurrency}",
        format,
        engines.len(),
        args.rounds,
        schedule.games(),
        if shard == Shard::ALL { String::new() } else { format!(" (shard {shard})") },
        common.openings
    );
    print_engines(&engines);
    println!(
        "  journal {}, games and logs in {}",
        journal.display(),
        run_dir.display()
    );
    let config = TournamentConfig {
        engines,
        format,
        schedule,
        shard,
        header: header.clone(),
        referee: referee_settings(common, &spec, &run_dir),
        concurrency,
        run_id,
        run_dir,
        journal: journal.clone(),
        transcripts: common.transcripts,
        progress: !common.no_progress,
        report_every: common.report_every,
        sprt,
    };
    let outcome = run_tournament(config, cancel_on_signal()).await?;
    let standings = Standings::of(&header.engines, &outcome.games);
    println!(
        "=== {} ===\n{}",
        if outcome.interrupted {
            "Standings (interrupted)"
        } else {
            "Standings"
        },
        standings.render()
    );
    if let Some(sprt) = sprt {
        let mut duel = Summary::new([header.engines[0].clone(), header.engines[1].clone()]);
        outcome.games.iter().for_each(|g| duel.add(g));
        print!("{}", duel.render());
        print_sprt(&sprt, &duel, outcome.decision);
    }
    write_standings(&standings_path, &header, &standings)?;
    println!(
        "Journal: {}; standings: {}",
        journal.display(),
        standings_path.display()
    );
    Ok(if outcome.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let (header, games, shards) = merge_journals(&args.journals)?;
    let shard_list: Vec<String> = shards
        .iter()
        .map(|(s, n)| format!("{s}: {n} games"))
        .collect();
    println!(
        "Merged {} of {} scheduled games ({})",
        games.len(),
        header.games,
        shard_list.join(", ")
    );
    let standings = Standings::of(&header.engines, &games);
    println!("=== Standings ===\n{}", standings.render());
    if let Some(path) = &args.standings {
        write_standings(path, &header, &standings)?;
        println!("Standings: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let matches = Cli::command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let args = match &mut cli.command {
        Command::Match(args) => Some(args),
        Command::Tournament(t) => Some(&mut t.common),
        Command::Merge(_)
        | Command::Report(_)
        | Command::Check(_)
        | Command::Grade(_)
        | Command::Serve(_) => None,
    };
    if let (Some(args), Some((_, sub))) = (args, matches.subcommand()) {
        if let Ok(Some(groups)) = sub.try_get_occurrences::<String>("engine") {
            args.engine_groups = groups.map(|g| g.cloned().collect()).collect();
        }
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("arena: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Match(args) => run(args).await,
            Command::Tournament(args) => {
                let games_given = matches.subcommand().is_some_and(|(_, sub)| {
                    sub.value_source("games") == Some(clap::parser::ValueSource::CommandLine)
                });
                if games_given {
                    Err(anyhow::anyhow!(
                        "a tournament counts rounds, not games: use --rounds N (one colour-swapped pair per pairing per round)"
                    ))
                } else {
                    tournament(args).await
                }
            }
            Command::Merge(args) => merge(args),
            Command::Report(args) => report(&args),
            Command::Check(args) => check(&args).await,
            Command::Grade(args) => grade(&args).await,
            Command::Serve(args) => serve(&args).await,
        }
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arena: {e:#}");
            ExitCode::from(2)
        }
    }
}
