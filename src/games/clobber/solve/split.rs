//! Proving a large Clobber position two plies deep, with budgets, threads and a journal.
//!
//! # Why
//! The depth-first solver ([`Solver`]) proves a root by proving its children one after
//! another, each to the end. On 5x6 that is hours: after some of White's first moves only
//! 2 of Black's 22 replies win (the opening book, `book-5x6.txt`), and a reply that loses
//! costs a whole proof of White's win before the next is tried. Proving the reply that
//! wins takes 7 to 30 s.
//!
//! # How
//! The root's moves are *branches*; each branch's replies are *leaves*, positions with
//! the root's side to move again. The root's side wins a branch when it wins every leaf,
//! and loses it when it loses one. Each thread takes a branch no other thread works on
//! and proves its leaves one after another in the solver's own order (the order of
//! [`Solver::solve_from`]), each with a budget of nodes (16M at first, about 12 s on 5x6):
//! a branch ends as soon as one leaf refutes it. A leaf that runs out of its budget puts
//! its branch aside until the next round, in which every branch left gets four times as
//! much. So no branch, however hard, holds up the others, and the work of a leaf cut short
//! is not lost: the thread that did it takes the branch up again with its tables.
//!
//! Measured on 5x6 from the start (2 cores): every branch proved as a whole by the plain
//! solver, one after another, took 14 to 110 s each (825 s in all, one of the 27 out of
//! memory at 4 GiB). A first version gave every leaf of every branch the same budget
//! before any got more: its first round alone was 1,064 leaves of a second each, where
//! proving the branches in the solver's order needs about 30 leaves per branch at most.
//!
//! Branches and leaves equal up to the board's symmetries are proved once (their keys
//! are those of the solver's table: multisets of groups in canonical orientation), and a
//! leaf proved in one branch counts in every branch where it appears.
//!
//! # Threads and memory
//! Each thread has its own solver with an equal share of the memory; when its tables fill
//! up, the table of proved sums is emptied (the groups' classes and values, the part worth
//! most to every later leaf, are kept) and the leaf is tried again.
//!
//! # Journal
//! Every leaf proved, and every budget a leaf ran out of, is appended to the journal as
//! it happens. A run given the same journal again (after Ctrl-C, a crash or a reboot)
//! starts where the last one was: proved leaves are not searched again, and the others
//! resume at the budget they reached. The journal is also the proof's top two plies in
//! words: for a lost root, a winning reply to each move.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use fxhash::FxHashMap;

use super::{sum_key, sum_of, Budget, SolveError, Solver, MAX_SOLVE_SQUARES};
use crate::cgt::ZERO;
use crate::game::Game;
use crate::games::clobber::{Clobber, ClobberMove};

/// The first round's budget of a leaf, in solver nodes (about 12 s on 5x6).
pub const FIRST_BUDGET: u64 = 1 << 24;

/// How much each round's budget grows.
pub const GROWTH: u64 = 4;

/// What the split solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitSolution {
    /// Whether the side to move wins.
    pub side_to_move_wins: bool,
    /// A winning move of the side to move, when it wins.
    pub winning_move: Option<ClobberMove>,
    /// When the side to move loses: each of its moves (one per class of moves equal up
    /// to symmetry) with the opponent's reply that wins.
    pub refutations: Vec<(ClobberMove, ClobberMove)>,
    /// Solver nodes this run (leaves proved by an earlier run in the journal not
    /// counted).
    pub nodes: u64,
    /// Leaves read proved from the journal.
    pub resumed: usize,
}

/// Options of [`solve_split`].
pub struct SplitOptions<'a> {
    /// Solver threads.
    pub threads: usize,
    /// Memory for all the threads' tables together.
    pub memory: Budget,
    /// The journal to resume from and append to.
    pub journal: Option<&'a Path>,
    /// Told one line of progress at a time (a leaf proved, a round begun).
    pub progress: &'a (dyn Fn(&str) + Sync),
}

/// Why a split solve did not finish.
#[derive(Debug)]
pub enum SplitError {
    /// The stop flag was raised; the journal holds what was proved.
    Stopped {
        /// Solver nodes this run.
        nodes: u64,
    },
    /// A leaf needed more memory than a thread's share, even with its tables emptied.
    OutOfMemory,
    /// The journal could not be read or written, or belongs to another position.
    Journal(String),
    /// The board has more than [`MAX_SOLVE_SQUARES`] squares.
    TooLarge,
}

/// The state of a leaf, from the root's side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proved {
    Open,
    /// The root's side wins the leaf: the reply fails.
    Wins,
    /// The root's side loses the leaf: the reply refutes the branch.
    Loses,
}

struct Leaf {
    reply: ClobberMove,
    /// The reply in the game's notation.
    name: String,
    pos: Clobber,
    key: u128,
    /// The largest budget this leaf ran out of.
    tried: u64,
}

struct Branch {
    mv: ClobberMove,
    /// The move in the game's notation.
    name: String,
    leaves: Vec<Leaf>,
    /// The reply that refutes it, once proved.
    refuted_by: Option<ClobberMove>,
    /// The largest budget one of its leaves ran out of.
    tried: u64,
    /// Whether a thread works on one of its leaves.
    busy: bool,
    /// The thread that worked on it last (its tables hold that work).
    last_thread: Option<usize>,
}

struct State {
    branches: Vec<Branch>,
    /// Leaf key -> proved state.
    proved: FxHashMap<u128, bool>,
    budget: u64,
    /// The root's result once known: `Some(Some(i))` wins by branch `i`, `Some(None)`
    /// loses.
    result: Option<Option<usize>>,
    /// The task each thread runs: (branch, leaf).
    running: Vec<Option<(usize, usize)>>,
    error: Option<SplitError>,
    nodes: u64,
    journal: Option<File>,
    started: Instant,
}

struct Shared<'a> {
    state: Mutex<State>,
    wake: Condvar,
    /// Each thread's own stop flag, raised to cancel its task.
    cancel: Vec<AtomicBool>,
    stop: &'a AtomicBool,
    progress: &'a (dyn Fn(&str) + Sync),
}

/// The table key of a position (groups in canonical orientation, side to move).
fn position_key(pos: &Clobber) -> u128 {
    sum_key(&sum_of(pos), ZERO, pos.side_to_move())
}

/// `moves` in the solver's order for `pos`, one per class of equal children.
fn distinct_children(
    solver: &mut Solver,
    pos: &Clobber,
) -> Vec<(ClobberMove, String, Clobber, u128)> {
    let mut seen = Vec::new();
    solver
        .ordered_moves(pos, None)
        .into_iter()
        .filter_map(|mv| {
            let mut child = pos.clone();
            child.make_move(mv);
            let key = position_key(&child);
            (!seen.contains(&key)).then(|| {
                seen.push(key);
                (mv, pos.format_move(mv), child, key)
            })
        })
        .collect()
}

/// Proves whether the side to move wins `root`, two plies deep with budgets (see the
/// module's notes), until done or `stop` is raised.
///
/// # Errors
/// [`SplitError`]: stopped, out of memory, or a journal that cannot be used.
pub fn solve_split(
    root: &Clobber,
    options: &SplitOptions<'_>,
    stop: &AtomicBool,
) -> Result<SplitSolution, SplitError> {
    if root.settings_of().squares() > MAX_SOLVE_SQUARES {
        return Err(SplitError::TooLarge);
    }
    let threads = options.threads.max(1);
    let mut orderer = Solver::new();
    let branches: Vec<Branch> = distinct_children(&mut orderer, root)
        .into_iter()
        .map(|(mv, name, child, _)| Branch {
            mv,
            name,
            leaves: distinct_children(&mut orderer, &child)
                .into_iter()
                .map(|(reply, name, pos, key)| Leaf {
                    reply,
                    name,
                    pos,
                    key,
                    tried: 0,
                })
                .collect(),
            refuted_by: None,
            tried: 0,
            busy: false,
            last_thread: None,
        })
        .collect();
    drop(orderer);
    let header = journal_header(root);
    let mut state = State {
        branches,
        proved: FxHashMap::default(),
        budget: FIRST_BUDGET,
        result: None,
        running: vec![None; threads],
        error: None,
        nodes: 0,
        journal: None,
        started: Instant::now(),
    };
    let resumed = match options.journal {
        Some(path) => {
            let resumed = state.resume(path, &header)?;
            state.journal = Some(open_journal(path, &header)?);
            resumed
        }
        None => 0,
    };
    state.settle();
    let shared = Shared {
        state: Mutex::new(state),
        wake: Condvar::new(),
        cancel: (0..threads).map(|_| AtomicBool::new(false)).collect(),
        stop,
        progress: options.progress,
    };
    {
        let state = shared.state.lock().expect("no thread has run yet");
        let leaves: usize = state.branches.iter().map(|b| b.leaves.len()).sum();
        (shared.progress)(&format!(
            "{} moves up to symmetry, {leaves} replies; {} replies proved in the journal",
            state.branches.len(),
            state.proved.len(),
        ));
    }
    let share = options.memory / threads;
    std::thread::scope(|scope| {
        for id in 0..threads {
            let shared = &shared;
            scope.spawn(move || shared.work(id, share));
        }
        // The watcher: a raised stop flag cancels every running task.
        let shared = &shared;
        scope.spawn(move || loop {
            {
                let state = shared.state.lock().expect("a solver thread panicked");
                if state.finished() {
                    break;
                }
            }
            if shared.stop.load(Ordering::Relaxed) {
                for flag in &shared.cancel {
                    flag.store(true, Ordering::Relaxed);
                }
                shared.wake.notify_all();
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        });
    });
    let state = shared.state.into_inner().expect("a solver thread panicked");
    if let Some(error) = state.error {
        return Err(error);
    }
    match state.result {
        Some(Some(i)) => Ok(SplitSolution {
            side_to_move_wins: true,
            winning_move: Some(state.branches[i].mv),
            refutations: Vec::new(),
            nodes: state.nodes,
            resumed,
        }),
        Some(None) => Ok(SplitSolution {
            side_to_move_wins: false,
            winning_move: None,
            refutations: state
                .branches
                .iter()
                .map(|b| (b.mv, b.refuted_by.expect("every branch refuted")))
                .collect(),
            nodes: state.nodes,
            resumed,
        }),
        None => {
            if options.journal.is_some() {
                (options.progress)(&format!(
                    "stopped: {} replies proved are in the journal; the same command goes on \
                     from there",
                    state.proved.len()
                ));
            }
            Err(SplitError::Stopped { nodes: state.nodes })
        }
    }
}

impl Shared<'_> {
    /// A thread's life: take a task, prove its leaf within the budget, report.
    fn work(&self, id: usize, memory: Budget) {
        let mut solver = Solver::new();
        solver.set_memory_limit(memory);
        while let Some((b, l, pos, budget)) = self.next_task(id) {
            let before = solver.nodes();
            let mut answer = self.attempt(&mut solver, &pos, budget, id);
            if matches!(answer, Err(SolveError::OutOfMemory)) {
                solver.forget_sums();
                answer = self.attempt(&mut solver, &pos, budget, id);
            }
            let nodes = solver.nodes() - before;
            self.finish(id, b, l, budget, nodes, answer);
        }
    }

    fn attempt(
        &self,
        solver: &mut Solver,
        pos: &Clobber,
        budget: u64,
        id: usize,
    ) -> Result<bool, SolveError> {
        solver.set_limits(None, Some(budget));
        solver.side_to_move_wins(pos, &self.cancel[id])
    }

    /// The next leaf for thread `id`, waiting while others run and nothing is left at
    /// this round's budget; `None` when the root is decided or the run stops.
    fn next_task(&self, id: usize) -> Option<(usize, usize, Clobber, u64)> {
        let mut state = self.state.lock().expect("a solver thread panicked");
        loop {
            if state.finished() || self.stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some((b, l)) = state.pick(id) {
                let budget = state.budget;
                let branch = &mut state.branches[b];
                branch.busy = true;
                branch.last_thread = Some(id);
                let task = (b, l, branch.leaves[l].pos.clone(), budget);
                state.running[id] = Some((b, l));
                self.cancel[id].store(false, Ordering::Relaxed);
                return Some(task);
            }
            if state.running.iter().any(Option::is_some) {
                state = self
                    .wake
                    .wait_timeout(state, Duration::from_millis(100))
                    .expect("a solver thread panicked")
                    .0;
                continue;
            }
            state.budget = state.budget.saturating_mul(GROWTH);
            let open = state.branches.iter().filter(|b| b.refuted_by.is_none()).count();
            let secs = state.started.elapsed().as_secs_f64();
            (self.progress)(&format!(
                "[{secs:7.1} s] {open} moves open; each open leaf now gets {} nodes",
                state.budget
            ));
        }
    }

    fn finish(
        &self,
        id: usize,
        b: usize,
        l: usize,
        budget: u64,
        nodes: u64,
        answer: Result<bool, SolveError>,
    ) {
        let mut state = self.state.lock().expect("a solver thread panicked");
        state.running[id] = None;
        state.nodes += nodes;
        state.branches[b].busy = false;
        let cancelled = self.cancel[id].load(Ordering::Relaxed);
        match answer {
            Ok(wins) => {
                let key = state.branches[b].leaves[l].key;
                state.proved.insert(key, wins);
                let line = state.leaf_line(b, l, if wins { "win" } else { "loss" }, nodes);
                state.log(&line);
                let secs = state.started.elapsed().as_secs_f64();
                let branch = &state.branches[b];
                let message = format!(
                    "[{secs:7.1} s] {} {}: {} for the side to move ({nodes} nodes)",
                    branch.name,
                    branch.leaves[l].name,
                    if wins { "win" } else { "loss" }
                );
                (self.progress)(&message);
                state.settle();
                // Tasks that no longer matter are cancelled.
                for (t, task) in state.running.clone().into_iter().enumerate() {
                    if let Some((tb, tl)) = task {
                        if state.moot(tb, tl) {
                            self.cancel[t].store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
            Err(SolveError::Stopped) if cancelled => {}
            Err(SolveError::Stopped) => {
                state.branches[b].leaves[l].tried = budget;
                state.branches[b].tried = budget;
                let line = state.leaf_line(b, l, &format!("tried {budget}"), nodes);
                state.log(&line);
            }
            Err(SolveError::OutOfMemory) => {
                state.error.get_or_insert(SplitError::OutOfMemory);
            }
            Err(SolveError::TooLarge | SolveError::NotProved) => {
                unreachable!("the board's size is checked first; no distance is sought")
            }
        }
        drop(state);
        self.wake.notify_all();
    }
}

impl State {
    fn finished(&self) -> bool {
        self.result.is_some() || self.error.is_some()
    }

    /// The state of a leaf from the proved table.
    fn leaf_state(&self, leaf: &Leaf) -> Proved {
        match self.proved.get(&leaf.key) {
            Some(true) => Proved::Wins,
            Some(false) => Proved::Loses,
            None => Proved::Open,
        }
    }

    /// Whether the task on leaf `l` of branch `b` no longer matters.
    fn moot(&self, b: usize, l: usize) -> bool {
        self.finished()
            || self.branches[b].refuted_by.is_some()
            || self.leaf_state(&self.branches[b].leaves[l]) != Proved::Open
    }

    /// The next leaf to prove for thread `id`: the first open leaf of the first open
    /// branch that no thread works on and that has not run out of this round's budget,
    /// preferring the branches this thread worked on last (its tables hold that work).
    ///
    /// Two threads on the leaves of one branch, when no other branch was left, measured
    /// worse on 5x6 (625 s and 822M nodes against 535 s and 628M): the second thread's
    /// leaves are wasted once the first's refutes the branch.
    fn pick(&self, id: usize) -> Option<(usize, usize)> {
        let mut other = None;
        for (b, branch) in self.branches.iter().enumerate() {
            if branch.refuted_by.is_some() || branch.busy || branch.tried >= self.budget {
                continue;
            }
            let Some(l) = branch
                .leaves
                .iter()
                .position(|leaf| self.leaf_state(leaf) == Proved::Open)
            else {
                continue;
            };
            if branch.last_thread.is_none_or(|t| t == id) {
                return Some((b, l));
            }
            other.get_or_insert((b, l));
        }
        other
    }

    /// Brings the branches and the root up to date with the proved leaves.
    fn settle(&mut self) {
        let mut lost = true;
        for i in 0..self.branches.len() {
            if self.branches[i].refuted_by.is_none() {
                let states: Vec<Proved> =
                    self.branches[i].leaves.iter().map(|l| self.leaf_state(l)).collect();
                if let Some(l) = states.iter().position(|&s| s == Proved::Loses) {
                    let reply = self.branches[i].leaves[l].reply;
                    self.branches[i].refuted_by = Some(reply);
                } else if states.iter().all(|&s| s == Proved::Wins) {
                    self.result = Some(Some(i));
                    return;
                }
            }
            lost &= self.branches[i].refuted_by.is_some();
        }
        if lost {
            self.result = Some(None);
        }
    }

    fn leaf_line(&self, b: usize, l: usize, what: &str, nodes: u64) -> String {
        let branch = &self.branches[b];
        format!("{} {} {what} nodes {nodes}", branch.name, branch.leaves[l].name)
    }

    fn log(&mut self, line: &str) {
        if let Some(file) = &mut self.journal {
            if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
                self.error
                    .get_or_insert(SplitError::Journal(format!("cannot write the journal: {e}")));
            }
        }
    }

    /// Reads what an earlier run proved from the journal at `path` (nothing when it does
    /// not exist); returns the leaves read proved. A last line cut short (a run killed
    /// while writing it) is cut off the file: it proved nothing.
    fn resume(&mut self, path: &Path, header: &str) -> Result<usize, SplitError> {
        let text = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(journal_error(path, &format!("cannot read it: {e}"))),
        };
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if whole < text.len() {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| journal_error(path, &format!("cannot open it: {e}")))?;
            file.set_len(whole as u64)
                .map_err(|e| journal_error(path, &format!("cannot cut its last line: {e}")))?;
        }
        let mut proved = 0;
        for (n, line) in BufReader::new(&text[..whole]).lines().enumerate() {
            let line = line.map_err(|e| journal_error(path, &format!("cannot read it: {e}")))?;
            let bad = |why: &str| journal_error(path, &format!("line {}: {why}: '{line}'", n + 1));
            if n == 0 {
                if line != header {
                    return Err(bad(&format!(
                        "it is the journal of another position (this one's first line is '{header}')"
                    )));
                }
                continue;
            }
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let found = match words.as_slice() {
                [mv, reply, ..] => self.branches.iter().enumerate().find_map(|(b, br)| {
                    let l = br.leaves.iter().position(|leaf| leaf.name == *reply);
                    (br.name == *mv).then_some(l.map(|l| (b, l))).flatten()
                }),
                _ => return Err(bad("expected two moves and a result")),
            };
            let Some((b, l)) = found else {
                return Err(bad("no such pair of moves in this position"));
            };
            let key = self.branches[b].leaves[l].key;
            match &words[2..] {
                ["win", "nodes", n] | ["loss", "nodes", n] if n.parse::<u64>().is_ok() => {
                    self.proved.insert(key, words[2] == "win");
                    proved += 1;
                }
                ["tried", budget, "nodes", n] if n.parse::<u64>().is_ok() => {
                    let budget: u64 = budget.parse().map_err(|_| bad("bad budget"))?;
                    let branch = &mut self.branches[b];
                    branch.tried = branch.tried.max(budget);
                    let leaf = &mut branch.leaves[l];
                    leaf.tried = leaf.tried.max(budget);
                    self.budget = self.budget.max(budget);
                }
                _ => return Err(bad("expected 'win', 'loss' or 'tried N', then 'nodes N'")),
            }
        }
        Ok(proved)
    }
}

/// The journal's first line: what it is the journal of.
fn journal_header(root: &Clobber) -> String {
    let s = root.settings_of();
    format!(
        "# agon split-solve journal: clobber rows={} cols={} position {}",
        s.rows(),
        s.cols(),
        root.format_position()
    )
}

fn journal_error(path: &Path, why: &str) -> SplitError {
    SplitError::Journal(format!("journal {}: {why}", path.display()))
}

/// Opens the journal for appending, writing its header when it is new.
fn open_journal(path: &Path, header: &str) -> Result<File, SplitError> {
    let fresh = std::fs::metadata(path).map(|m| m.len() == 0).unwrap_or(true);
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| journal_error(path, &format!("cannot open it: {e}")))?;
    if fresh {
        writeln!(file, "{header}").map_err(|e| journal_error(path, &format!("cannot write: {e}")))?;
    }
    Ok(file)
}
