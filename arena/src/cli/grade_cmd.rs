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
    let super::common::StudentSetup {
        sandbox,
        python,
        agon,
        proto,
    } = super::common::student_setup(&args.students, &spec)?;
    let tc = TimeControl::parse(&args.tc).with_context(|| format!("--tc '{}'", args.tc))?;
    let (bots, skipped) = find_bots(&args.bots, &python)
        .with_context(|| format!("cannot read --bots {}", args.bots.display()))?;
    for (name, reason) in &skipped {
        eprintln!(
            "arena grade: skipped {}: {}",
            display(name),
            display(reason)
        );
    }
    for group in arena::grade::same_content_groups(&bots) {
        let names: Vec<String> = group.iter().map(|n| display(n).into_owned()).collect();
        eprintln!(
            "arena grade: warning: the same content, byte for byte: {} (see same_content_as in grades.csv and grades.json)",
            names.join(", ")
        );
    }
    for bot in &bots {
        if let Err(why) = &bot.content {
            eprintln!(
                "arena grade: warning: {}: {}",
                display(&bot.name),
                display(why)
            );
        }
    }
    if bots.is_empty() {
        bail!(
            "no bots in {}: each student is a NAME.py file, an executable file, or a folder holding bot.py or an executable run",
            args.bots.display()
        );
    }
    let _lock = super::common::lock_output(&args.out, None)?;
    let config = Arc::new(GradeConfig {
        spec: spec.clone(),
        bots: args.bots.clone(),
        python,
        agon,
        seed: args.seed,
        games_per_level: args.games_per_level,
        max_games_per_level: args.max_games_per_level,
        tc,
        out: args.out.clone(),
        concurrency: args
            .concurrency
            .unwrap_or_else(|| {
                std::thread::available_parallelism()
                    .map_or(1, |n| n.get())
                    .min(4)
            })
            .max(1),
        sandbox,
        startup: std::time::Duration::from_millis(args.students.startup_ms),
        proto,
    });
    arena::outln!(
        "Grading {} bot(s) from {} on {spec}, seed {}, {}-{} games per level, levels {}",
        bots.len(),
        args.bots.display(),
        args.seed,
        args.games_per_level,
        args.max_games_per_level.max(args.games_per_level),
        arena::grade::LEVELS
            .iter()
            .map(|l| l.0)
            .collect::<Vec<_>>()
            .join(" < ")
    );
    arena::outln!("  {}", config.sandbox.describe());
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
    reports.extend(
        skipped
            .iter()
            .map(|(name, reason)| arena::grade::StudentReport::skipped(name, reason)),
    );
    reports.sort_by(|a, b| a.student.cmp(&b.student));
    for r in &reports {
        if r.status == "skipped" {
            arena::outln!(
                "  {:<20} skipped: {}",
                display(&r.student),
                display(&r.diagnosis)
            );
            continue;
        }
        arena::outln!(
            "  {:<20} {:<4} highest level beaten {:<8} {:>5.1} s  levels {}",
            display(&r.student),
            if r.conformance { "ok" } else { "FAIL" },
            r.highest_level_beaten.as_deref().unwrap_or("none"),
            r.timing.seconds,
            r.levels
                .iter()
                .map(|l| format!(
                    "{} {:.0}% [{:.0}-{:.0}] of {}{}{}",
                    l.level,
                    100.0 * l.score,
                    100.0 * l.low,
                    100.0 * l.high,
                    l.games,
                    if l.verdict == "uncertain" {
                        " uncertain"
                    } else {
                        ""
                    },
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
        if !r.same_content_as.is_empty() {
            let names: Vec<String> = r
                .same_content_as
                .iter()
                .map(|n| display(n).into_owned())
                .collect();
            arena::outln!("  {:<20}   the same content as {}", "", names.join(", "));
        }
        if !r.conformance {
            arena::outln!(
                "  {:<20}   {} (see {}/check.txt)",
                "",
                display(&r.diagnosis),
                args.out
                    .join(arena::grade::folder_name(&r.student))
                    .display()
            );
        }
    }
    arena::atomic_file::write(&args.out.join("grades.csv"), csv(&reports))?;
    arena::atomic_file::write(
        &args.out.join("timing.csv"),
        arena::grade::timing_csv(&reports),
    )?;
    let json = serde_json::json!({
        "game": spec.to_string(),
        "seed": args.seed,
        "time_control": args.tc,
        "games_per_level": [args.games_per_level, args.max_games_per_level],
        "sandbox": {
            "level": config.sandbox.level.name(),
            "limits": config.sandbox.effective(),
        },
        "students": reports,
    });
    arena::atomic_file::write(
        &args.out.join("grades.json"),
        serde_json::to_string_pretty(&json)? + "\n",
    )?;
    arena::outln!(
        "Graded in {:.1} s: {} and grades.json (the same seed gives the same files), timing.csv, a folder per student",
        started.elapsed().as_secs_f64(),
        args.out.join("grades.csv").display()
    );
    Ok(ExitCode::SUCCESS)
}
