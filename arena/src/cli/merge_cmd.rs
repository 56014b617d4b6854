//! `arena merge`: the shards' journals of one tournament joined into its standings.

use std::process::ExitCode;

use arena::journal::merge as merge_journals;
use arena::tournament::{write_standings, Standings};

use super::args::MergeArgs;

pub(crate) fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let (header, games, shards) = merge_journals(&args.journals)?;
    let shard_list: Vec<String> = shards
        .iter()
        .map(|(s, n)| format!("{s}: {n} games"))
        .collect();
    arena::outln!(
        "Merged {} of {} scheduled games ({})",
        games.len(),
        header.games,
        shard_list.join(", ")
    );
    let standings = Standings::of(&header.engines, &games);
    arena::outln!("=== Standings ===\n{}", standings.render());
    if let Some(path) = &args.standings {
        write_standings(path, &header, &standings)?;
        arena::outln!("Standings: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
