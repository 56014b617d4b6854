//! `arena report`: the HTML page of a journal.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use super::args::ReportArgs;

/// The journals `path` names: itself when it is a file; for a folder (the `--out` of a
/// match or a tournament), the `.jsonl` files directly in it (a match's `journal.jsonl`,
/// a tournament's `tournament.jsonl` or its shards'), in name order.
fn journals_in(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("cannot read the folder {}", path.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl") && p.is_file())
        .collect();
    found.sort();
    if found.is_empty() {
        anyhow::bail!(
            "{} is a folder with no journal (*.jsonl) in it: give a journal file, or the --out folder of a match (journal.jsonl) or a tournament",
            path.display()
        );
    }
    Ok(found)
}

/// `arena report`: reads the journals (any kind) and writes the page.
pub(crate) fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let mut files = Vec::new();
    for path in &args.journals {
        files.extend(journals_in(path)?);
    }
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let journals = arena::journal::read_many(&paths)?;
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        Some(arena::sprt::Sprt::parse(&args.sprt).map_err(anyhow::Error::msg)?)
    };
    let names: Vec<String> = args
        .journals
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let title = format!("Arena report: {}", names.join(", "));
    arena::atomic_file::write(
        &args.output,
        arena::report::render_with(&title, &journals, sprt),
    )
    .with_context(|| format!("cannot write {}", args.output.display()))?;
    arena::outln!(
        "{} games -> {}",
        journals.records.len(),
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}
