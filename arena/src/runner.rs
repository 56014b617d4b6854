//! A whole match: workers that play scheduled games concurrently (each keeps its own
//! pair of engine processes between games), and a collector that writes every finished
//! game to disk at once (game file, transcript, journal line) and keeps the summary.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::sync::{mpsc, watch};

use crate::pgn::{game_text, pgn_game, ptn_game, RecordFiles};
use crate::record::{complete_lines, transcript_text, GameRecord, Journal};
use crate::referee::{
    close_live_dir, open_live_dir, play_game, EngineConfig, EngineSlot, GameOutput, RefereeSettings,
};
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
    let games_dir = config.run_dir.join("games");
    let earlier = earlier_games(&config.journal, &config.fingerprint)?;
    let mut journal = Journal::open(&config.journal)?;
    let done: std::collections::HashSet<u64> = earlier.iter().map(|r| r.game).collect();
    let pending: Vec<u64> = (0..config.schedule.games)
        .filter(|g| !done.contains(g))
        .collect();
    if !earlier.is_empty() && !config.quiet {
        crate::outln!(
            "Resuming: {} games of this match already in {}, {} to play{}",
            earlier.len(),
            config.journal.display(),
            pending.len(),
            if pending.is_empty() {
                " (nothing left: no new run folder)"
            } else {
                ""
            }
        );
    }
    // A run with nothing left to play leaves no empty folder behind.
    if !pending.is_empty() {
        std::fs::create_dir_all(&games_dir)?;
        if let Some(logs) = &config.referee.log_dir {
            std::fs::create_dir_all(logs)?;
        }
    }
    open_live_dir(&config.referee);
    let pending = Arc::new(pending);
    let config = Arc::new(config);
    let next = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, mut rx) = mpsc::channel::<GameOutput>(64);
    let workers = config.concurrency.clamp(1, 256).min(pending.len().max(1));
    let mut handles = Vec::new();
    for worker in 0..workers {
        let config = Arc::clone(&config);
        let next = Arc::clone(&next);
        let pending = Arc::clone(&pending);
        let stop = Arc::clone(&stop);
        let tx = tx.clone();
        let mut cancel = cancel.clone();
        handles.push(tokio::spawn(async move {
            let pin = |i: usize| match &config.affinity {
                Some(cores) => crate::referee::pinned(&config.engines[i], &[cores[2 * worker + i]]),
                None => Arc::clone(&config.engines[i]),
            };
            let mut slots = [
                EngineSlot::new(pin(0), 0, worker),
                EngineSlot::new(pin(1), 1, worker),
            ];
            loop {
                if *cancel.borrow() || stop.load(Ordering::SeqCst) {
                    break;
                }
                let Some(&index) = pending.get(next.fetch_add(1, Ordering::SeqCst) as usize) else {
                    break;
                };
                let scheduled = config.schedule.game(index);
                let output = play_game(
                    &scheduled,
                    &mut slots,
                    &config.referee,
                    &config.run_id,
                    config.transcripts,
                    &mut cancel,
                )
                .await;
                if tx.send(output).await.is_err() {
                    break;
                }
            }
            for slot in slots.iter_mut() {
                if *cancel.borrow() {
                    slot.kill().await;
                } else {
                    slot.stop(config.referee.grace).await;
                }
            }
        }));
    }
    drop(tx);

    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let mut summary = Summary::new(names);
    earlier.iter().for_each(|r| summary.add(r));
    let bar = if config.progress {
        let bar = ProgressBar::with_draw_target(
            Some(config.schedule.games),
            ProgressDrawTarget::stderr(),
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30.cyan/blue} {pos}/{len} games  {elapsed_precise}  {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_position(summary.games);
        bar.enable_steady_tick(Duration::from_millis(250));
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut sprt_decision = None;
    while let Some(mut output) = rx.recv().await {
        output.record.fingerprint = Some(config.fingerprint.clone());
        if let Err(e) = write_game_files(&mut output, &config.run_dir, &config.records) {
            bar.suspend(|| eprintln!("arena: cannot write the game file: {e}"));
        }
        journal.append(&output.record)?;
        summary.add(&output.record);
        if let (Some(sprt), None) = (config.sprt, sprt_decision) {
            let llr = sprt.llr_pentanomial(&summary.pentanomial);
            if let Some(decision) = sprt.decide(llr) {
                sprt_decision = Some((decision, llr, summary.games));
                stop.store(true, Ordering::SeqCst);
            }
        }
        bar.inc(1);
        bar.set_message(summary.short());
        let done = summary.games;
        if config.report_every > 0
            && done.is_multiple_of(config.report_every)
            && done < config.schedule.games
        {
            let text = summary.render();
            bar.suspend(|| crate::outln!("--- after {done} games ---\n{text}"));
        }
    }
    for h in handles {
        let _ = h.await;
    }
    bar.finish_and_clear();
    close_live_dir(&config.referee, &config.run_id);
    Ok(MatchOutcome {
        interrupted: *cancel.borrow(),
        summary,
        sprt_decision,
    })
}

/// The finished games of the journal at `path` recorded with `fingerprint` (none if the
/// file does not exist). An incomplete last line, left by a run killed mid-write, is
/// reported and ignored (opening the journal cuts it off).
///
/// # Errors
/// An unreadable journal or a complete line that is not a record.
fn earlier_games(path: &std::path::Path, fingerprint: &str) -> anyhow::Result<Vec<GameRecord>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let (text, _) = complete_lines(path)?;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record: GameRecord = serde_json::from_str(line)
            .map_err(|e| anyhow::anyhow!("{}:{}: not a game record: {e}", path.display(), i + 1))?;
        if record.fingerprint.as_deref() == Some(fingerprint)
            && record.outcome().is_some()
            && !games.iter().any(|g: &GameRecord| g.game == record.game)
        {
            games.push(record);
        }
    }
    Ok(games)
}

/// Writes a finished game's files under `run_dir`: its own file `games/game-NNNNN.txt`
/// (PGN and the final board), the transcript if any, and appends it to the run's PGN file
/// (and, for Tak, the run's PTN file `games.ptn`); fills in their names, relative to the
/// output directory, in the record.
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
