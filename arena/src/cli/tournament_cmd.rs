//! `arena tournament`: any number of engines, round robin or gauntlet, resumable, shards.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context};

use agon::games::GameSpec;
use arena::config::EngineSpec;
use arena::journal::{describe, fingerprint, Header};
use arena::referee::EngineConfig;
use arena::schedule::{Schedule, Shard};
use arena::summary::Summary;
use arena::tournament::{
    run_tournament, write_standings, Format, Standings, TournamentConfig, TournamentSchedule,
};

use super::args::TournamentArgs;
use super::common::*;

pub(crate) async fn tournament(args: TournamentArgs) -> anyhow::Result<ExitCode> {
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
    let games = games_per_pairing(common, 2)?;
    if games % 2 == 1 {
        bail!(
            "--games {games}: a tournament plays every opening as a colour-swapped pair in each pairing, so the games per pairing must be even (--rounds {} is --games {})",
            games / 2 + 1,
            games + 1
        );
    }
    let rounds = games / 2;
    let concurrency = concurrency(common)?;
    // A fixed default seed, so that running the same command again resumes it.
    let seed = common.seed.unwrap_or(1);
    let (openings, openings_text) = openings(common, &spec)?;
    let engines: Vec<Arc<EngineConfig>> = engines.into_iter().map(Arc::new).collect();
    let pairings = format.pairings(engines.len());
    let schedule = TournamentSchedule {
        pairings,
        rounds,
        openings: Schedule::new(
            spec.clone(),
            openings,
            rounds * 2,
            seed,
            common.shuffle_openings,
        ),
    };
    let description = describe(
        &engines,
        &format!(
            "format={format:?}; rounds={rounds}{}",
            adjudication_text(common)
        ),
        &spec.to_string(),
        &openings_text,
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
    let header = Header {
        fingerprint: fingerprint(&description),
        shard,
        engines: engines.iter().map(|e| e.name.clone()).collect(),
        games: schedule.games(),
        description,
        sprt: (!common.sprt.is_empty()).then(|| common.sprt.join(" ")),
    };
    let _lock = lock_output(
        &common.out,
        (shard != Shard::ALL).then_some((shard.index, shard.count)),
    )?;
    arena::outln!(
        "Tournament ({}) of {} engines: {rounds} rounds, {} games of {spec}{}, openings {openings_text}, seed {seed}, concurrency {concurrency}",
        format.name(),
        engines.len(),
        schedule.games(),
        if shard == Shard::ALL { String::new() } else { format!(" (shard {shard})") },
    );
    print_engines(&engines);
    arena::outln!(
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
        referee: referee_settings(common, &spec, &run_dir)?,
        concurrency,
        affinity: affinity(common, concurrency)?,
        run_id,
        run_dir,
        journal: journal.clone(),
        transcripts: common.transcripts,
        progress: !common.no_progress,
        report_every: common.report_every,
        sprt,
        records: record_files(common, format!("Agon arena tournament {spec}")),
    };
    let outcome = run_tournament(config, cancel_on_signal()).await?;
    let standings = Standings::of(&header.engines, &outcome.games);
    arena::outln!(
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
        arena::out!("{}", duel.render());
        print_sprt(&sprt, &duel, outcome.decision);
    }
    write_standings(&standings_path, &header, &standings)?;
    arena::outln!(
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
