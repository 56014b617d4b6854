//! `arena class`: a class tournament between a folder of student bots and the reference
//! players.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};

use agon::games::GameSpec;
use arena::class::{ClassConfig, ClassFormat};
use arena::clock::TimeControl;
use arena::safe_text::display;
use arena::schedule::Shard;

use super::args::ClassArgs;
use super::common::cancel_on_signal;

/// `arena class`.
pub(crate) async fn class(args: &ClassArgs) -> anyhow::Result<ExitCode> {
    use arena::class::{marks::Marks, run_class, site};
    let spec = GameSpec::parse(&args.game).with_context(|| format!("--game '{}'", args.game))?;
    let tc = TimeControl::parse(&args.tc).with_context(|| format!("--tc '{}'", args.tc))?;
    if args.games == 0 || args.games % 2 == 1 {
        bail!(
            "--games {}: give an even number above zero (each pairing plays colour-swapped pairs)",
            args.games
        );
    }
    let levels: Vec<&'static arena::grade::Level> = if args.references == "none" {
        Vec::new()
    } else {
        args.references
            .split(',')
            .map(|name| {
                let name = name
                    .trim()
                    .trim_start_matches(arena::class::REFERENCE_PREFIX);
                arena::grade::LEVELS
                    .iter()
                    .find(|l| l.0 == name)
                    .ok_or_else(|| {
                        anyhow::anyhow!(
                            "--references: '{name}' is not a level ({}, or none)",
                            arena::grade::LEVELS
                                .iter()
                                .map(|l| l.0)
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })
            })
            .collect::<anyhow::Result<_>>()?
    };
    // The rule file is read first: a typo in it stops the run before any game.
    let marks = match &args.marks {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read --marks {}", path.display()))?;
            let names: Vec<&str> = levels.iter().map(|l| l.0).collect();
            Some(
                Marks::parse(&text, &names)
                    .map_err(|e| anyhow::anyhow!("--marks {}: {e}", path.display()))?,
            )
        }
        None => None,
    };
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let super::common::StudentSetup {
        sandbox,
        python,
        agon,
        proto,
    } = super::common::student_setup(&args.students, &spec)?;
    if !args.bots.is_dir() {
        bail!(
            "--bots {}: not a folder (one entry per student: NAME.py, an executable, or a folder with bot.py or run)",
            args.bots.display()
        );
    }
    let format = args
        .schedule
        .as_deref()
        .map(ClassFormat::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let _lock = super::common::lock_output(&args.out, shard.map(|s| (s.index, s.count)))?;
    let config = ClassConfig {
        spec: spec.clone(),
        bots: args.bots.clone(),
        python,
        agon,
        levels,
        seed: args.seed,
        openings: args.openings.clone(),
        games: args.games,
        format,
        tc,
        out: args.out.clone(),
        concurrency: args
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        sandbox,
        startup: std::time::Duration::from_millis(args.students.startup_ms),
        proto,
        shard,
        settle: args.settle_top.map(|k| (k, args.settle_games)),
        stderr_cap: args.stderr_cap,
        progress: !args.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    arena::outln!(
        "Class on {spec} from {}, time control {}, seed {}; {}",
        args.bots.display(),
        config.tc,
        args.seed,
        config.sandbox.describe()
    );
    let started = Instant::now();
    let results = run_class(&config, cancel_on_signal()).await?;
    for group in arena::class::duplicate_groups(&results.entrants) {
        let names: Vec<String> = group.iter().map(|n| display(n).into_owned()).collect();
        eprintln!(
            "arena class: warning: the same content, byte for byte: {}",
            names.join(", ")
        );
    }
    arena::outln!(
        "{} games counted: {} played now, {} from earlier runs{}",
        results.games.len(),
        results.played_now,
        results.reused,
        if results.missing > 0 {
            format!(", {} not played yet", results.missing)
        } else {
            String::new()
        }
    );
    if results.interrupted {
        arena::outln!(
            "Interrupted: every finished game is in {}; run the same command again to go on",
            args.out.join(arena::class::journal_name(shard)).display()
        );
        return Ok(ExitCode::from(130));
    }
    if let Some(s) = shard {
        arena::outln!(
            "Shard {}/{} done in {:.1} s; when every shard is done, the same command without --shard writes the results",
            s.index,
            s.count,
            started.elapsed().as_secs_f64()
        );
        return Ok(ExitCode::SUCCESS);
    }
    arena::outln!("{}", results.standings.render());
    for l in results.lines.iter().filter(|l| l.rank.is_none()) {
        arena::outln!(
            "  {:<20} {}: {}",
            display(&l.name),
            l.status,
            display(&l.diagnosis)
        );
    }
    let out = &args.out;
    arena::atomic_file::write(&out.join("class.csv"), arena::class::csv(&results.lines))?;
    arena::atomic_file::write(&out.join("standings.txt"), results.standings.render())?;
    let json = serde_json::json!({
        "game": spec.to_string(),
        "seed": args.seed,
        "time_control": config.tc.to_string(),
        "schedule": results.format.describe(),
        "games_counted": results.games.len(),
        "sandbox": {
            "level": config.sandbox.level.name(),
            "limits": config.sandbox.effective(),
        },
        "students": results.lines,
        "standings": results.standings,
    });
    arena::atomic_file::write(
        &out.join("class.json"),
        serde_json::to_string_pretty(&json)? + "\n",
    )?;
    if let Some(marks) = &marks {
        arena::atomic_file::write(&out.join("gradebook.csv"), marks.gradebook(&results.lines))?;
    }
    site::write_site(
        out,
        &results,
        &site::SiteInfo {
            spec,
            tc: config.tc.to_string(),
            format: results.format.describe(),
            seed: args.seed,
            sandbox: config.sandbox.describe(),
            stderr_cap: args.stderr_cap,
        },
    )
    .with_context(|| format!("cannot write the site in {}", out.join("site").display()))?;
    arena::outln!(
        "Done in {:.1} s: {} (open it in a browser), class.csv, class.json{}; private/NAME/ holds each student's own pages",
        started.elapsed().as_secs_f64(),
        out.join("site/index.html").display(),
        if marks.is_some() { ", gradebook.csv" } else { "" }
    );
    Ok(ExitCode::SUCCESS)
}
