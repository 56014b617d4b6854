//! A whole match: two engines, the games of a [`Schedule`] played by the run loop
//! ([`crate::run_loop`]), resumed from the journal; and the files every finished game
//! leaves (game file, transcript, PGN and PTN).

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::watch;

use crate::journal::{self, Journal};
use crate::pgn::{game_text, pgn_game, ptn_game, RecordFiles};
use crate::record::transcript_text;
use crate::referee::{EngineConfig, GameOutput, RefereeSettings};
use crate::run_loop::{self, Pinning, Run, Unfinished};
use crate::schedule::Schedule;
use crate::sprt::Sprt;
use crate::summary::Summary;

/// A match to run.
#[derive(Debug)]
pub struct MatchConfig {
    /// The two engines; statistics take engine 0's view.
    pub engines: [Arc<EngineConfig>; 2],
    /// Referee settings.
    pub referee: RefereeSettings,
    /// The games.
    pub schedule: Schedule,
    /// Games played at once.
    pub concurrency: usize,
    /// `--affinity`: the cores to pin to, two per worker (engine `i` of worker `w` runs
    /// on core `2w + i` of the list).
    pub affinity: Option<Vec<usize>>,
    /// The run's id (recorded in every journal line).
    pub run_id: String,
    /// Directory for this run's game files and logs.
    pub run_dir: PathBuf,
    /// The journal file.
    pub journal: PathBuf,
    /// Write a protocol transcript per game.
    pub transcripts: bool,
    /// Print the summary every this many games (0: only at the end).
    pub report_every: u64,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
    /// Print nothing (not even that earlier games are resumed): the caller reports.
    pub quiet: bool,
    /// Stop starting games once this test decides (from the pentanomial counts).
    pub sprt: Option<Sprt>,
    /// Fingerprint of the match: written into every record; games of the journal that
    /// carry it are not played again (a killed match resumes).
    pub fingerprint: String,
    /// The run's PGN file and its tags.
    pub records: RecordFiles,
}

/// How a match ended.
#[derive(Debug)]
pub struct MatchOutcome {
    /// The final summary.
    pub summary: Summary,
    /// Whether it was interrupted.
    pub interrupted: bool,
    /// The SPRT's decision when it stopped the match: the decision, the LLR and the
    /// number of games at that moment (games still in progress then are played out and
    /// counted in the summary, but do not undo the decision).
    pub sprt_decision: Option<(crate::sprt::Decision, f64, u64)>,
}

/// Runs the match until every game is played or `cancel` turns true.
///
/// # Errors
/// Failing to create the output directory or to write the journal (a result that cannot
/// be saved stops the match).
pub async fn run_match(
    config: MatchConfig,
    cancel: watch::Receiver<bool>,
) -> anyhow::Result<MatchOutcome> {
    let earlier = journal::finished(&config.journal, &config.fingerprint)?;
    let journal = Journal::open(&config.journal)?;
    let done: std::collections::HashSet<u64> = earlier.iter().map(|r| r.game).collect();
    let pending: Vec<u64> = (0..config.schedule.games)
        .filter(|g| !done.contains(g))
        .collect();
    let schedule = config.schedule;
    let outcome = run_loop::run(
        Run {
            engines: config.engines.to_vec(),
            game_of: Box::new(move |index| ((0, 1), schedule.game(index))),
            pending,
            earlier,
            journal,
            referee: config.referee,
            concurrency: config.concurrency,
            affinity: config.affinity.map(|cores| (cores, Pinning::PerEngine)),
            run_id: config.run_id,
            run_dir: config.run_dir,
            transcripts: config.transcripts,
            records: config.records,
            progress: config.progress,
            quiet: config.quiet,
            report_every: config.report_every,
            sprt: config.sprt,
            stamp: Some(config.fingerprint),
            annotate: None,
            unfinished: Unfinished::Journal,
            report: |_, _, duel| duel.map(Summary::render).unwrap_or_default(),
        },
        cancel,
    )
    .await?;
    Ok(MatchOutcome {
        summary: outcome.duel.expect("a match has two engines"),
        interrupted: outcome.interrupted,
        sprt_decision: outcome.decision,
    })
}

/// Writes a finished game's files under `run_dir`: its own file `games/game-NNNNN.txt`
/// (PGN and the final board), the transcript if any, for gomoku Piskvork's record
/// `games/game-NNNNN.psq`, and appends it to the run's PGN file (and, for Tak, the run's
/// PTN file `games.ptn`); fills in their names, relative to the output directory, in the
/// record.
///
/// # Errors
/// The I/O error writing the game file or the run's PGN (the record then names no game
/// file).
pub fn write_game_files(
    output: &mut GameOutput,
    run_dir: &std::path::Path,
    records: &RecordFiles,
) -> std::io::Result<()> {
    let games_dir = run_dir.join("games");
    let stem = format!("game-{:05}", output.record.game);
    output.record.game_file = Some(format!("{}/games/{stem}.txt", dir_name(run_dir)));
    if let Some(t) = &output.transcript {
        let (lines, dropped) = t.snapshot();
        let path = games_dir.join(format!("{stem}.transcript.txt"));
        if std::fs::write(&path, transcript_text(&lines, dropped)).is_ok() {
            output.record.transcript_file =
                Some(format!("{}/games/{stem}.transcript.txt", dir_name(run_dir)));
        }
    }
    if let Some(psq) = crate::pgn::psq_game(&output.record) {
        let name = format!("{stem}.psq");
        if std::fs::create_dir_all(&games_dir).is_ok()
            && std::fs::write(games_dir.join(&name), psq).is_ok()
        {
            output.record.psq_file = Some(format!("{}/games/{name}", dir_name(run_dir)));
        }
    }
    if let Some(ptn) = ptn_game(&output.record, &records.tags) {
        if crate::pgn::append(&run_dir.join("games.ptn"), &ptn).is_ok() {
            output.record.ptn_file = Some(format!("{}/games.ptn", dir_name(run_dir)));
        }
    }
    let pgn_path = records
        .pgn
        .clone()
        .unwrap_or_else(|| run_dir.join("games.pgn"));
    let pgn = crate::pgn::append(&pgn_path, &pgn_game(&output.record, &records.tags));
    let text = game_text(&output.record, &output.final_board, &records.tags);
    std::fs::create_dir_all(&games_dir)?;
    std::fs::write(games_dir.join(format!("{stem}.txt")), text).inspect_err(|_| {
        output.record.game_file = None;
    })?;
    pgn
}

fn dir_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
