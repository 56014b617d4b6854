//! `arena report`: the HTML page of a journal.

use std::process::ExitCode;

use anyhow::Context;

use super::args::ReportArgs;

/// `arena report`: reads the journals (any kind) and writes the page.
pub(crate) fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let paths: Vec<&std::path::Path> = args.journals.iter().map(|p| p.as_path()).collect();
    let journals = arena::report::read_journals(&paths)?;
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
