//! The one loop that plays a run's games, for `arena match`, `arena tournament` and
//! grading alike (fastchess runs its round robin and gauntlet on one base in the same
//! way). Workers take the next pending game of the schedule, each keeping one process
//! per engine between games; a collector writes every finished game to disk at once
//! (game file, records, journal line), keeps the tallies, stops starting games when an
//! SPRT decides, and reports progress.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::sync::{mpsc, watch};

use crate::journal::Journal;
use crate::pgn::RecordFiles;
use crate::record::GameRecord;
use crate::referee::{
    close_live_dir, open_live_dir, pinned, play_game, EngineConfig, EngineSlot, GameOutput,
    RefereeSettings,
};
use crate::runner::write_game_files;
use crate::schedule::ScheduledGame;
use crate::sprt::{Decision, Sprt};
use crate::summary::Summary;

/// Game `index` of a run: the two engines that meet (the first is the schedule's
/// engine 0 of the game, see [`ScheduledGame`]) and the game itself.
pub type GameOf = dyn Fn(u64) -> ((usize, usize), ScheduledGame) + Send + Sync;

/// How `--affinity` shares a worker's two cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pinning {
    /// Engine `i` of worker `w` runs on core `2w + i` of the list (a match: each engine
    /// keeps its seat).
    PerEngine,
    /// Every engine of worker `w` may run on its cores `2w` and `2w + 1` (a tournament:
    /// any two engines may meet).
    Shared,
}

/// What becomes of a game that a signal interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfinished {
    /// It is journaled (termination `interrupted`) and counted in the tallies; a resumed
    /// run plays it again.
    Journal,
    /// It is dropped; a resumed run plays it again.
    Drop,
}

/// The text printed every `report_every` games: from the engines' names, the games so
/// far and, with two engines, their summary.
pub type Report = fn(&[String], &[GameRecord], Option<&Summary>) -> String;

/// What a run adds to each record before it is written (`arena class`: the game's key
/// and the versions that played), from the record with the run's engine indices.
pub type Annotate = dyn Fn(&mut GameRecord) + Send + Sync;

/// A run to play.
pub struct Run {
    /// The engines, by index.
    pub engines: Vec<Arc<EngineConfig>>,
    /// The schedule.
    pub game_of: Box<GameOf>,
    /// The game indices to play, in order.
    pub pending: Vec<u64>,
    /// The games already played (a resumed run), counted in the tallies.
    pub earlier: Vec<GameRecord>,
    /// The journal to append to.
    pub journal: Journal,
    /// Referee settings.
    pub referee: RefereeSettings,
    /// Games played at once.
    pub concurrency: usize,
    /// `--affinity`: the cores, two per worker, and how they are shared.
    pub affinity: Option<(Vec<usize>, Pinning)>,
    /// The run's id (in every record).
    pub run_id: String,
    /// Directory of this run's game files and logs.
    pub run_dir: PathBuf,
    /// Write a protocol transcript of every game.
    pub transcripts: bool,
    /// The run's PGN file and its tags.
    pub records: RecordFiles,
    /// Show a progress bar.
    pub progress: bool,
    /// Print nothing (not even that earlier games are resumed): the caller reports.
    pub quiet: bool,
    /// Print [`Run::report`] every this many games (0: never).
    pub report_every: u64,
    /// Stop starting games once this test decides (two engines only).
    pub sprt: Option<Sprt>,
    /// A fingerprint written into every record (a match's journal has no header).
    pub stamp: Option<String>,
    /// Called on every record before it is written.
    pub annotate: Option<Box<Annotate>>,
    /// What becomes of interrupted games.
    pub unfinished: Unfinished,
    /// The periodic report.
    pub report: Report,
}

/// How a run ended.
#[derive(Debug)]
pub struct Outcome {
    /// Every game of the run, earlier ones first, then in the order they finished.
    pub games: Vec<GameRecord>,
    /// With two engines: their summary over those games, from engine 0's view.
    pub duel: Option<Summary>,
    /// Games that were already in the journal at the start.
    pub resumed: usize,
    /// Interrupted by a signal.
    pub interrupted: bool,
    /// The SPRT's decision when it stopped the run: the decision, the LLR and the number
    /// of games then (games still in progress are played out and counted, but do not
    /// undo it).
    pub decision: Option<(Decision, f64, u64)>,
}

/// The shared part of a run, read by every worker.
struct Plan {
    engines: Vec<Arc<EngineConfig>>,
    game_of: Box<GameOf>,
    pending: Vec<u64>,
    referee: RefereeSettings,
    affinity: Option<(Vec<usize>, Pinning)>,
    run_id: String,
    transcripts: bool,
}

/// Plays the run until every pending game is played, an SPRT decides or `cancel` turns
/// true.
///
/// # Errors
/// Failing to create the run's folder or to write the journal (a result that cannot be
/// saved stops the run).
pub async fn run(run: Run, cancel: watch::Receiver<bool>) -> anyhow::Result<Outcome> {
    let Run {
        engines,
        game_of,
        pending,
        earlier,
        mut journal,
        referee,
        concurrency,
        affinity,
        run_id,
        run_dir,
        transcripts,
        records,
        progress,
        quiet,
        report_every,
        sprt,
        stamp,
        annotate,
        unfinished,
        report,
    } = run;
    let resumed = earlier.len();
    let total = (resumed + pending.len()) as u64;
    if resumed > 0 && !quiet {
        crate::outln!(
            "Resuming: {resumed} games already in {}, {} to play{}",
            journal.path().display(),
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
        std::fs::create_dir_all(run_dir.join("games"))?;
        if let Some(logs) = &referee.log_dir {
            std::fs::create_dir_all(logs)?;
        }
    }
    open_live_dir(&referee);
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    let workers = concurrency.clamp(1, 256).min(pending.len().max(1));
    let plan = Arc::new(Plan {
        engines,
        game_of,
        pending,
        referee,
        affinity,
        run_id,
        transcripts,
    });
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, mut rx) = mpsc::channel::<GameOutput>(64);
    let handles: Vec<_> = (0..workers)
        .map(|worker| {
            tokio::spawn(play_worker(
                Arc::clone(&plan),
                worker,
                Arc::clone(&next),
                Arc::clone(&stop),
                tx.clone(),
                cancel.clone(),
            ))
        })
        .collect();
    drop(tx);

    let mut duel = (names.len() == 2).then(|| Summary::new([names[0].clone(), names[1].clone()]));
    if let Some(d) = duel.as_mut() {
        earlier.iter().for_each(|g| d.add(g));
    }
    let mut games = earlier;
    let decide = |duel: &Option<Summary>| -> Option<(Decision, f64, u64)> {
        let (sprt, d) = (sprt?, duel.as_ref()?);
        let llr = sprt.llr_pentanomial(&d.pentanomial);
        sprt.decide(llr).map(|x| (x, llr, d.games))
    };
    let mut decision = decide(&duel);
    if decision.is_some() {
        stop.store(true, Ordering::SeqCst);
    }
    let bar = progress_bar(progress, total, resumed as u64);
    while let Some(mut output) = rx.recv().await {
        if output.record.outcome().is_none() && unfinished == Unfinished::Drop {
            continue;
        }
        output.record.fingerprint = stamp.clone().or(output.record.fingerprint);
        if let Some(annotate) = &annotate {
            annotate(&mut output.record);
        }
        if let Err(e) = write_game_files(&mut output, &run_dir, &records) {
            bar.suspend(|| eprintln!("arena: cannot write the game file: {e}"));
        }
        journal.append(&output.record)?;
        if let Some(d) = duel.as_mut() {
            d.add(&output.record);
            let mut message = d.short();
            if let Some(sprt) = sprt {
                let llr = sprt.llr_pentanomial(&d.pentanomial);
                message += &format!("  LLR {llr:+.2} {:?}", sprt.bounds());
            }
            bar.set_message(message);
        }
        if decision.is_none() {
            decision = decide(&duel);
            if decision.is_some() {
                stop.store(true, Ordering::SeqCst);
            }
        }
        games.push(output.record);
        bar.inc(1);
        let done = games.len() as u64;
        if report_every > 0 && done.is_multiple_of(report_every) && done < total {
            let text = report(&names, &games, duel.as_ref());
            bar.suspend(|| crate::outln!("--- after {done} of {total} games ---\n{text}"));
        }
    }
    for h in handles {
        let _ = h.await;
    }
    bar.finish_and_clear();
    close_live_dir(&plan.referee, &plan.run_id);
    Ok(Outcome {
        games,
        duel,
        resumed,
        interrupted: *cancel.borrow(),
        decision,
    })
}

/// One worker: plays the next pending game until none is left, the run stops or it is
/// cancelled, then stops its engines (kills them when cancelled).
async fn play_worker(
    plan: Arc<Plan>,
    worker: usize,
    next: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    tx: mpsc::Sender<GameOutput>,
    mut cancel: watch::Receiver<bool>,
) {
    let mut slots: Vec<Option<EngineSlot>> = plan
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let config = match &plan.affinity {
                Some((cores, Pinning::PerEngine)) => pinned(e, &[cores[2 * worker + i % 2]]),
                Some((cores, Pinning::Shared)) => pinned(e, &cores[2 * worker..2 * worker + 2]),
                None => Arc::clone(e),
            };
            Some(EngineSlot::new(config, i, worker))
        })
        .collect();
    loop {
        if *cancel.borrow() || stop.load(Ordering::SeqCst) {
            break;
        }
        let Some(&index) = plan.pending.get(next.fetch_add(1, Ordering::SeqCst)) else {
            break;
        };
        let ((a, b), scheduled) = (plan.game_of)(index);
        let (Some(first), Some(second)) = (slots[a].take(), slots[b].take()) else {
            break;
        };
        let mut pair = [first, second];
        let mut output = play_game(
            &scheduled,
            &mut pair,
            &plan.referee,
            &plan.run_id,
            plan.transcripts,
            &mut cancel,
        )
        .await;
        let [first, second] = pair;
        slots[a] = Some(first);
        slots[b] = Some(second);
        // The referee numbers the two players 0 and 1; the journal keeps the run's
        // engine indices.
        for player in [&mut output.record.p1, &mut output.record.p2] {
            player.engine = if player.engine == 0 { a } else { b };
        }
        if tx.send(output).await.is_err() {
            break;
        }
    }
    for slot in slots.iter_mut().flatten() {
        if *cancel.borrow() {
            slot.kill().await;
        } else {
            slot.stop(plan.referee.grace).await;
        }
    }
}

fn progress_bar(show: bool, total: u64, done: u64) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30.cyan/blue} {pos}/{len} games  {elapsed_precise}  {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_position(done);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
