//! `arena match`: two engines, colour-swapped pairs, the summary.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};

use agon::games::GameSpec;
use arena::config::EngineSpec;
use arena::journal::{describe, fingerprint};
use arena::referee::EngineConfig;
use arena::runner::{run_match, MatchConfig};
use arena::schedule::Schedule;

use super::args::MatchArgs;
use super::common::*;

pub(crate) async fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
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
    let games = games_per_pairing(&args, 100)?;
    let concurrency = concurrency(&args)?;
    let (openings, openings_text) = openings(&args, &spec)?;
    let schedule = Schedule::new(spec.clone(), openings, games, seed, args.shuffle_openings);
    let run_id = run_id(seed);
    let run_dir = args.out.join(&run_id);
    let journal = args
        .journal
        .clone()
        .unwrap_or_else(|| args.out.join("journal.jsonl"));
    let referee = referee_settings(&args, &spec, &run_dir)?;
    let sprt = sprt_of(&args)?;
    let engines: Vec<Arc<EngineConfig>> = engines.into_iter().map(Arc::new).collect();
    let fingerprint = fingerprint(&describe(
        &engines,
        &format!("match; games={games}{}", adjudication_text(&args)),
        &spec.to_string(),
        &openings_text,
        args.shuffle_openings,
        seed,
    ));
    let _lock = lock_output(&args.out, None)?;
    arena::outln!(
        "Match {} vs {}: {} games of {spec}, openings {}, seed {seed}, concurrency {concurrency}",
        engines[0].name,
        engines[1].name,
        games,
        openings_text
    );
    print_engines(&engines);
    arena::outln!(
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
        affinity: affinity(&args, concurrency)?,
        run_id,
        run_dir,
        journal: journal.clone(),
        transcripts: args.transcripts,
        report_every: args.report_every,
        quiet: false,
        progress: !args.no_progress,
        sprt,
        fingerprint,
        records: record_files(&args, format!("Agon arena match {spec}")),
    };
    let outcome = run_match(config, cancel_rx).await?;
    arena::outln!(
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
    arena::outln!("Journal: {}", journal.display());
    Ok(if outcome.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}
