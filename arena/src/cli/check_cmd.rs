//! `arena check`: the conformance checks of one engine.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use agon::games::GameSpec;

use super::args::CheckArgs;

/// `arena check`: runs the conformance checks and prints (and writes) the report.
pub(crate) async fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let game = args.game.as_deref().unwrap_or("tictactoe");
    let spec = GameSpec::parse(game).with_context(|| format!("--game '{game}'"))?;
    let dialect = arena::dialect::parse(&args.proto).map_err(|e| anyhow::anyhow!("--{e}"))?;
    arena::dialect::plays(dialect, &spec).map_err(|e| anyhow::anyhow!("--proto {dialect} {e}"))?;
    let mut engine =
        arena::check::spawn_spec(&args.command, &args.python).map_err(anyhow::Error::msg)?;
    if let Some(level) = arena::sandbox::Level::parse(&args.sandbox).map_err(anyhow::Error::msg)? {
        arena::sandbox::require(level).map_err(anyhow::Error::msg)?;
        engine.sandbox = Some(arena::sandbox::Sandbox::for_grading(level));
    }
    if args.game.is_none() {
        println!("(checking on tictactoe, the default: --game GAME for another, for example --game clobber:rows=5,cols=6)");
    }
    let config = arena::check::CheckConfig {
        spec,
        engine,
        dialect,
        startup: Duration::from_millis(args.startup_ms),
        deadline: Duration::from_millis(args.deadline_ms),
        movetime: args.movetime,
        margin: Duration::from_millis(args.margin_ms),
        seed: args.seed,
    };
    let report = arena::check::run_checks(&config).await;
    arena::out!("{}", report.text());
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&report)?;
        arena::atomic_file::write(path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(if report.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
