//! `arena grade`: a folder of student bots against graded reference players.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context};

use agon::games::GameSpec;
use arena::clock::TimeControl;
use arena::safe_text::display;

use super::args::GradeArgs;
use super::common::cancel_on_signal;

/// `arena grade`.
pub(crate) async fn grade(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    use arena::grade::{csv, find_bots, grade_bot, GradeConfig};
    let spec = GameSpec::parse(&args.game).with_context(|| format!("--game '{}'", args.game))?;
    let level = arena::sandbox::Level::parse(&args.sandbox)
        .map_err(anyhow::Error::msg)?
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--sandbox off: student bots always run in a sandbox (use strict, userns or limits)"
            )
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
        eprintln!("arena grade: skipped {}", display(n));
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
    arena::outln!(
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
        arena::outln!(
            "  {:<20} conformance {:<4} highest level beaten {:<8} levels {}",
            display(&r.student),
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
    arena::outln!(
        "Graded in {:.1} s: {}, grades.json, and a folder per student",
        started.elapsed().as_secs_f64(),
        args.out.join("grades.csv").display()
    );
    Ok(ExitCode::SUCCESS)
}
