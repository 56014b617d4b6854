//! `arena report`: the HTML page of a journal.

use std::process::ExitCode;

use anyhow::Context;

use super::args::ReportArgs;

/// `arena report`: reads the journal through the record types and writes the page.
pub(crate) fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let records = arena::record::read_journal(&args.journal)
        .with_context(|| format!("cannot read journal {}", args.journal.display()))?;
    let title = format!("Arena report: {}", args.journal.display());
    std::fs::write(&args.output, arena::report::render(&title, &records))
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    arena::outln!("{} games -> {}", records.len(), args.output.display());
    Ok(ExitCode::SUCCESS)
}
