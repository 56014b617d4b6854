//! What several subcommands share: engines from `--engine` words and `--config` files,
//! referee settings, run ids, the SPRT line, signal handling.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};

use agon::games::GameSpec;
use arena::adjudication::{Adjudication, DrawRule, ResignRule};
use arena::clock::TimeControl;
use arena::config::EngineSpec;
use arena::pgn::{PgnSettings, RecordFiles};
use arena::process::LineLimits;
use arena::referee::{EngineConfig, RefereeSettings};
use arena::sprt::{Decision, Sprt};
use arena::summary::Summary;
use arena::tournament::config_engine_words;

use super::args::{MatchArgs, DEFAULT_TC};

/// A `--config` file: its `"game"`, if any, and the `--engine` words of each of its
/// `"engines"`.
pub(crate) fn read_engine_config(
    path: &Path,
) -> anyhow::Result<(Option<String>, Vec<Vec<String>>)> {
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

pub(crate) fn agon_words(path: &str, name: &str, extra: &[&str]) -> Vec<String> {
    let mut w = vec![format!("cmd={path}"), format!("name={name}")];
    w.extend(extra.iter().map(|s| s.to_string()));
    w
}

pub(crate) fn run_id(seed: u64) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let [y, m, d, hour, minute, second] = arena::out_lock::utc(now);
    format!(
        "{y:04}{m:02}{d:02}-{hour:02}{minute:02}{second:02}-s{seed}-p{}",
        std::process::id()
    )
}

/// Locks the output folder `out` for this run (shard `K/N` locks only its own journal's
/// lock file): a second arena on it stops here, naming the running one.
/// What `grade` and `class` need to start student bots, from their shared flags: the
/// box (`--sandbox`, never off, with its limits, after checking this machine can give
/// it), the Python interpreter, the reference players' agon and the bots' protocol.
pub(crate) struct StudentSetup {
    pub(crate) sandbox: arena::sandbox::Sandbox,
    pub(crate) python: std::path::PathBuf,
    pub(crate) agon: std::path::PathBuf,
    pub(crate) proto: arena::dialect::Dialect,
}

pub(crate) fn student_setup(
    b: &super::args::StudentBoxArgs,
    spec: &agon::games::GameSpec,
) -> anyhow::Result<StudentSetup> {
    let level = arena::sandbox::Level::parse(&b.sandbox)
        .map_err(anyhow::Error::msg)?
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--sandbox off: student bots always run in a sandbox (use strict, userns or limits)"
            )
        })?;
    arena::sandbox::require(level).map_err(anyhow::Error::msg)?;
    let mut sandbox = arena::sandbox::Sandbox::for_grading(level);
    sandbox.memory_bytes = Some(b.mem << 20);
    sandbox.cpu_seconds = Some(b.cpu);
    sandbox.processes = Some(b.nproc);
    sandbox.file_bytes = Some(b.fsize << 20);
    let python = arena::config::resolve_program(&b.python, None).map_err(anyhow::Error::msg)?;
    let agon = match &b.agon {
        Some(p) => p.clone(),
        None => arena::config::resolve_program("agon", None).map_err(anyhow::Error::msg)?,
    };
    let proto = arena::dialect::parse(&b.proto).map_err(|e| anyhow::anyhow!("--{e}"))?;
    arena::dialect::plays(proto, spec).map_err(|e| anyhow::anyhow!("--proto {proto} {e}"))?;
    Ok(StudentSetup {
        sandbox,
        python,
        agon,
        proto,
    })
}

pub(crate) fn lock_output(
    out: &Path,
    shard: Option<(u64, u64)>,
) -> anyhow::Result<arena::out_lock::OutputLock> {
    use arena::out_lock::{lock_path, Holder, OutputLock};
    Ok(OutputLock::acquire(
        out,
        &lock_path(out, shard),
        &Holder::this_process(),
    )?)
}

pub(crate) fn sprt_of(args: &MatchArgs) -> anyhow::Result<Option<Sprt>> {
    if args.sprt.is_empty() {
        return Ok(None);
    }
    Sprt::parse(&args.sprt)
        .map(Some)
        .map_err(anyhow::Error::msg)
}

/// The SPRT line. A decision taken during the match stands: games that were still in
/// progress when it stopped are counted in the summary but do not undo it.
pub(crate) fn print_sprt(sprt: &Sprt, summary: &Summary, decided: Option<(Decision, f64, u64)>) {
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
    arena::outln!(
        "SPRT [{}, {}] ({:?} Elo, alpha {}, beta {}), pentanomial: LLR {llr:.3} in ({lower:.3}, {upper:.3}): {verdict}",
        sprt.elo0, sprt.elo1, sprt.model, sprt.alpha, sprt.beta,
    );
}

/// Games played at once: `--concurrency`, by default the number of cores up to 2.
///
/// # Errors
/// `--concurrency 0`.
pub(crate) fn concurrency(args: &MatchArgs) -> anyhow::Result<usize> {
    match args.concurrency {
        Some(0) => bail!("--concurrency 0: at least one game must be played at a time"),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(2)),
    }
}

/// The cores engines are pinned to with `--affinity`, two per game played at once
/// (`None` without it).
///
/// # Errors
/// Fewer cores than two per game, naming how many there are and what to lower.
pub(crate) fn affinity(args: &MatchArgs, concurrency: usize) -> anyhow::Result<Option<Vec<usize>>> {
    if !args.affinity {
        return Ok(None);
    }
    let cores = arena::sandbox::usable_cores();
    if cores.len() < 2 * concurrency {
        bail!(
            "--affinity with --concurrency {concurrency} needs {} cores (one per engine of each game played at once); this arena may use {} ({:?}): use --concurrency {} or leave --affinity out",
            2 * concurrency,
            cores.len(),
            cores,
            (cores.len() / 2).max(1)
        );
    }
    Ok(Some(cores))
}

/// Games per pairing from `--games` and `--rounds` (a round is one colour-swapped pair),
/// the same way for a match and a tournament; `default` when neither is given.
///
/// # Errors
/// Zero games, or `--games` and `--rounds` that disagree.
pub(crate) fn games_per_pairing(args: &MatchArgs, default: u64) -> anyhow::Result<u64> {
    let games = match (args.games, args.rounds) {
        (Some(g), Some(r)) if g != 2 * r => bail!(
            "--games {g} and --rounds {r} disagree: a round is one colour-swapped pair, so --rounds {r} is --games {}",
            2 * r
        ),
        (Some(g), _) => g,
        (None, Some(r)) => 2 * r,
        (None, None) => default,
    };
    if games == 0 {
        bail!("--games 0 / --rounds 0: nothing to play; give at least 1 game (1 round)");
    }
    Ok(games)
}

/// The openings of `--openings`, cut by `--opening-plies` and `--opening-start`, and
/// their description for the fingerprint.
///
/// # Errors
/// An unreadable or invalid list, or a start beyond it.
pub(crate) fn openings(
    args: &MatchArgs,
    spec: &GameSpec,
) -> anyhow::Result<(arena::schedule::Openings, String)> {
    let openings = arena::schedule::Openings::parse(&args.openings, spec)?
        .trimmed(args.opening_plies, args.opening_start)
        .map_err(anyhow::Error::msg)?;
    let mut text = args.openings.clone();
    if let Some(p) = args.opening_plies {
        text.push_str(&format!(" plies={p}"));
    }
    if let Some(s) = args.opening_start {
        text.push_str(&format!(" start={s}"));
    }
    Ok((openings, text))
}

/// The adjudication flags for a fingerprint (empty when none is given, so that earlier
/// journals keep their fingerprints).
pub(crate) fn adjudication_text(args: &MatchArgs) -> String {
    let mut text = String::new();
    if let Some(m) = args.max_plies {
        text.push_str(&format!("; max_plies={m}"));
    }
    if !args.draw.is_empty() {
        text.push_str(&format!("; draw={}", args.draw.join(" ")));
    }
    if !args.resign.is_empty() {
        text.push_str(&format!("; resign={}", args.resign.join(" ")));
    }
    text
}

/// The run's PGN file and tags from `--pgnout`, `--event`, `--site`.
pub(crate) fn record_files(args: &MatchArgs, default_event: String) -> RecordFiles {
    RecordFiles {
        pgn: args.pgnout.clone(),
        tags: PgnSettings {
            event: args.event.clone().unwrap_or(default_event),
            site: args.site.clone().unwrap_or_else(|| "?".into()),
        },
    }
}

pub(crate) fn print_engines(engines: &[Arc<EngineConfig>]) {
    for e in engines {
        let options: Vec<String> = e.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        arena::outln!(
            "  {}: {} {} [{}]{}",
            arena::safe_text::display(&e.name),
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
pub(crate) fn cancel_on_signal() -> tokio::sync::watch::Receiver<bool> {
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

/// The referee's settings from the match flags.
///
/// # Errors
/// A bad `--draw` or `--resign`.
pub(crate) fn referee_settings(
    args: &MatchArgs,
    spec: &GameSpec,
    run_dir: &Path,
) -> anyhow::Result<RefereeSettings> {
    let adjudication = Adjudication {
        draw: (!args.draw.is_empty())
            .then(|| DrawRule::parse(&args.draw))
            .transpose()
            .map_err(anyhow::Error::msg)?,
        resign: (!args.resign.is_empty())
            .then(|| ResignRule::parse(&args.resign))
            .transpose()
            .map_err(anyhow::Error::msg)?,
    };
    Ok(RefereeSettings {
        adjudication,
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
    })
}

/// TEI engines play Tak only: refuse another game before any process starts.
pub(crate) fn check_dialects(engines: &[EngineConfig], spec: &GameSpec) -> anyhow::Result<()> {
    for e in engines {
        if let Err(why) = arena::dialect::plays(e.dialect, spec) {
            bail!(
                "engine '{}' speaks {} (proto={}), which {why}",
                e.name,
                e.dialect.name().to_uppercase(),
                e.dialect
            );
        }
    }
    Ok(())
}

/// Engine configurations from `--engine` word groups over the `--each` defaults.
pub(crate) fn build_engines(
    groups: &[Vec<String>],
    each: &EngineSpec,
) -> anyhow::Result<Vec<EngineConfig>> {
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
