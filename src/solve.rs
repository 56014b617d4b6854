//! Proving the value of a position: `agon solve`.
//!
//! Three methods:
//! - `search`, for every game: the default searcher ([`crate::search::pvs`]) deepened
//!   until an iteration is cut by no horizon or finds a forced result. The result is a
//!   win or loss with its distance in plies (shortest win, longest loss), or a draw.
//! - `regions`, for Clobber boards of up to 64 squares: the combinatorial-game solver of
//!   [`crate::games::clobber::solve`], far faster, proving who wins; the distance, when
//!   asked for (`distance`), by a second and much slower search over the same groups.
//! - `threats`, for m,n,k boards of up to 128 squares: the proof search of
//!   [`crate::games::mnk::solve`] (threats, forced blocks, dead squares, symmetry), proving
//!   win, loss or draw, then the distance of a win or a loss by the same search with a
//!   budget of moves.
//!
//! `auto` (the default) takes `regions` or `threats` where they apply and `search`
//! elsewhere.
//!
//! Every method keeps its tables within a memory budget (`--hash`, the protocol's `Hash`
//! option; see [`crate::memory`]): a proof that needs more ends as `unknown`, or, when
//! the value was proved and only its distance was being sought, as the value without the
//! distance.

use std::any::Any;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome, Side};
use crate::games::clobber::solve::{
    solve_split, CertificateError, SolveError, Solver as RegionSolver, SplitError, SplitOptions,
    MAX_SOLVE_SQUARES,
};
use crate::games::clobber::Clobber;
use crate::games::mnk::bits::Bits;
use crate::games::mnk::solve::{
    SolveError as MnkSolveError, Solver as ThreatSolver, Value as MnkValue,
    MAX_SQUARES as MAX_THREAT_SQUARES,
};
use crate::games::mnk::Mnk;
use crate::games::{dispatch, GameSpec, GameVisitor};
use crate::search::{Control, Limits, Score, SearchOptions, Searcher};

/// How to prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// `regions` (Clobber) or `threats` (m,n,k) where they apply, else `search`.
    Auto,
    /// Iterative deepening to a proof (every game; gives distances).
    Search,
    /// Clobber's sum-of-regions solver (Clobber up to 64 squares; distances only when
    /// asked for, by a slower second search).
    Regions,
    /// The m,n,k threat solver (boards up to 128 squares; distances by a second proof
    /// with a budget of moves).
    Threats,
}

impl Method {
    /// Every method, in the order the help lists them.
    pub const ALL: [Method; 4] = [
        Method::Auto,
        Method::Search,
        Method::Regions,
        Method::Threats,
    ];

    /// The method's name: `auto`, `search`, `regions` or `threats`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Search => "search",
            Method::Regions => "regions",
            Method::Threats => "threats",
        }
    }

    /// The method called `name` (`auto`, `search`, `regions`, `threats`).
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The names of all methods, for messages: `auto, search, regions, threats`.
    pub fn names() -> String {
        Method::ALL.map(Method::name).join(", ")
    }
}

/// The proved value, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins; in this many plies when known.
    Win(Option<u32>),
    /// The side to move loses; in this many plies when known.
    Loss(Option<u32>),
    /// Neither side can force a win.
    Draw,
}

impl Verdict {
    /// A win or a loss (as `wins` says) without its distance.
    fn proved(wins: bool) -> Verdict {
        if wins {
            Verdict::Win(None)
        } else {
            Verdict::Loss(None)
        }
    }
}

/// Why a solve ended before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The time limit passed or `stop` came.
    Stopped,
    /// The tables reached the memory budget of this many MiB.
    Memory {
        /// The budget.
        mib: usize,
    },
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cut::Stopped => f.write_str("time limit reached"),
            Cut::Memory { mib } => write!(f, "memory limit of {mib} MiB reached"),
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// The canonical game spec.
    pub game: String,
    /// The position solved, in the game's notation.
    pub position: String,
    /// The side to move's name in the game (`x`, `w`, ...).
    pub side_to_move: &'static str,
    /// The value, `None` when the time or memory ran out first.
    pub verdict: Option<Verdict>,
    /// Why the solve ended early: before the value (`verdict` is `None`) or before the
    /// distance (a win or loss without plies).
    pub cut: Option<Cut>,
    /// A best move (a winning one when the side to move wins).
    pub best_move: Option<String>,
    /// `search`, `regions` or `threats`.
    pub method: &'static str,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// For a lost position solved two plies deep: each move of the side to move (up to
    /// symmetry) with the reply that wins against it.
    pub refutations: Vec<(String, String)>,
    /// The certificate written: its file, records and bytes.
    pub certificate: Option<(String, u64, u64)>,
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "game: {}", self.game)?;
        writeln!(f, "position: {}", self.position)?;
        let mover = self.side_to_move;
        let plies = |p: Option<u32>| p.map_or(String::new(), |p| format!(" in {p} plies"));
        let result = match self.verdict {
            Some(Verdict::Win(p)) => format!("win for {mover} (the side to move){}", plies(p)),
            Some(Verdict::Loss(p)) => format!("loss for {mover} (the side to move){}", plies(p)),
            Some(Verdict::Draw) => "draw".to_string(),
            None => format!(
                "unknown ({} before a proof)",
                self.cut.unwrap_or(Cut::Stopped)
            ),
        };
        writeln!(f, "result: {result}")?;
        if let (Some(_), Some(cut)) = (self.verdict, self.cut) {
            writeln!(f, "distance: not found ({cut})")?;
        }
        if let Some(mv) = &self.best_move {
            writeln!(f, "best move: {mv}")?;
        }
        if !self.refutations.is_empty() {
            let pairs: Vec<String> = self
                .refutations
                .iter()
                .map(|(m, r)| format!("{m} {r}"))
                .collect();
            writeln!(f, "refutations: {}", pairs.join(", "))?;
        }
        if let Some((file, records, bytes)) = &self.certificate {
            writeln!(f, "certificate: {file} ({records} records, {bytes} bytes)")?;
        }
        writeln!(f, "method: {}", self.method)?;
        writeln!(f, "nodes: {}", self.nodes)?;
        let ms = self.elapsed.as_secs_f64() * 1000.0;
        writeln!(f, "time: {ms:.0} ms")
    }
}

/// How the command line's `solve` may split a large Clobber proof two plies deep
/// ([`crate::games::clobber::solve::solve_split`]).
pub struct SplitSettings<'a> {
    /// Solver threads.
    pub threads: usize,
    /// The journal to resume from and append to.
    pub journal: Option<&'a std::path::Path>,
    /// Where progress lines go.
    pub progress: &'a (dyn Fn(&str) + Sync),
}

/// Live stones from which `agon solve` splits a Clobber proof by itself (see
/// [`SplitSettings`]). Measured from the start, one thread: 4x7 (28 stones, a first-player
/// win) 8.7 s as one proof against 11.1 s split; 5x6 (30 stones) as one proof ran out of
/// 4 GiB on one of its first moves, split it is proved within 8 GiB.
pub const SPLIT_STONES: usize = 29;

/// Proves the value of `position` (the start when `None`) of the game `spec`, giving up
/// after `limit` (never when `None`), when `stop` is raised, or when its tables would
/// take more than `memory_mib` MiB. `distance` asks the `regions` method for the
/// distance too (the other methods always give it); when the time or memory runs out
/// while it is sought, the proved result comes without it.
///
/// # Errors
/// A message for an unknown game, a bad position, or a method that does not apply.
pub fn solve(
    spec: &str,
    position: Option<&str>,
    method: Method,
    distance: bool,
    limit: Option<Duration>,
    memory_mib: usize,
    stop: Arc<AtomicBool>,
) -> Result<SolveReport, String> {
    let request = Request {
        method,
        distance,
        limit,
        memory_mib,
        split: None,
        certificate: None,
    };
    solve_request(spec, position, request, stop)
}

/// What [`solve_request`] is asked: the arguments of [`solve`], and how a Clobber proof
/// may be split.
pub struct Request<'a> {
    /// How to prove.
    pub method: Method,
    /// Whether to seek the distance too (`regions`).
    pub distance: bool,
    /// Give up after this long.
    pub limit: Option<Duration>,
    /// The tables' memory.
    pub memory_mib: usize,
    /// `None`: never split (the protocol's `solve`); else a Clobber proof of at least
    /// [`SPLIT_STONES`] stones, or any with more than one thread or a journal, is split
    /// two plies deep.
    pub split: Option<SplitSettings<'a>>,
    /// Clobber: write the proof's certificate to this file
    /// ([`crate::games::clobber::solve::Solver::write_certificate`]).
    pub certificate: Option<&'a std::path::Path>,
}

/// [`solve`] with a split Clobber proof allowed (`agon solve` on the command line).
///
/// # Errors
/// As [`solve`].
pub fn solve_request(
    spec: &str,
    position: Option<&str>,
    request: Request<'_>,
    stop: Arc<AtomicBool>,
) -> Result<SolveReport, String> {
    let Request {
        method,
        distance,
        limit,
        memory_mib,
        split,
        certificate,
    } = request;
    let spec = GameSpec::parse(spec).map_err(|e| e.to_string())?;
    let name = spec.name;
    dispatch(
        name,
        SolveGame {
            spec: &spec,
            position,
            method,
            distance,
            limit,
            memory_mib: memory_mib.max(1),
            split,
            certificate,
            stop,
        },
    )
    .ok_or_else(|| format!("unknown game '{name}'"))?
}

struct SolveGame<'a> {
    spec: &'a GameSpec,
    position: Option<&'a str>,
    method: Method,
    distance: bool,
    limit: Option<Duration>,
    memory_mib: usize,
    split: Option<SplitSettings<'a>>,
    certificate: Option<&'a std::path::Path>,
    stop: Arc<AtomicBool>,
}

impl GameVisitor for SolveGame<'_> {
    type Output = Result<SolveReport, String>;

    fn visit<G: Game>(self) -> Self::Output {
        let settings = self.spec.settings::<G>();
        let mut pos = match self.position {
            None => G::start(&settings),
            Some(text) => G::parse_position(&settings, text).map_err(|e| e.to_string())?,
        };
        let clobber = (&pos as &dyn Any).downcast_ref::<Clobber>();
        let regions_apply = clobber.is_some_and(|c| {
            let s = c.settings_of();
            s.rows() * s.cols() <= MAX_SOLVE_SQUARES
        });
        let mnk = (&pos as &dyn Any).downcast_ref::<Mnk>();
        let threats_apply = mnk.is_some_and(|p| {
            let s = p.settings_of();
            s.m * s.n <= MAX_THREAT_SQUARES && !s.exact
        });
        let use_regions = match self.method {
            Method::Regions if !regions_apply => {
                return Err(format!(
                    "method 'regions' applies to Clobber boards of up to {MAX_SOLVE_SQUARES} \
                     squares only; use 'search'"
                ))
            }
            Method::Regions => true,
            Method::Auto => regions_apply,
            Method::Search | Method::Threats => false,
        };
        let use_threats = match self.method {
            Method::Threats if !threats_apply => {
                return Err(format!(
                    "method 'threats' applies to m,n,k boards of up to {MAX_THREAT_SQUARES} \
                     squares, freestyle (not exact=1), only; use 'search'"
                ))
            }
            Method::Threats => true,
            Method::Auto => threats_apply,
            Method::Search | Method::Regions => false,
        };
        if self.certificate.is_some() && !(use_regions && clobber.is_some()) {
            return Err(
                "a certificate is written by the 'regions' method, for Clobber only".into(),
            );
        }
        // A timer raises the stop flag when the limit passes.
        if let Some(limit) = self.limit {
            let stop = Arc::clone(&self.stop);
            std::thread::spawn(move || {
                std::thread::sleep(limit);
                stop.store(true, Ordering::Relaxed);
            });
        }
        let mut report = SolveReport {
            game: self.spec.to_string(),
            position: pos.format_position(),
            side_to_move: G::side_name(pos.side_to_move()),
            verdict: None,
            cut: None,
            best_move: None,
            method: if use_regions {
                "regions"
            } else if use_threats {
                "threats"
            } else {
                "search"
            },
            nodes: 0,
            elapsed: Duration::ZERO,
            refutations: Vec::new(),
            certificate: None,
        };
        let start = Instant::now();
        let budget = crate::memory::mib(self.memory_mib);
        let memory_cut = Cut::Memory {
            mib: self.memory_mib,
        };
        if let Some(mnk) = mnk.filter(|p| use_threats && p.outcome().is_none()) {
            let squares = mnk.settings_of().m * mnk.settings_of().n;
            if squares <= <u64 as Bits>::SQUARES as usize {
                threat_solve::<u64>(mnk, budget, &self.stop, memory_cut, &mut report);
            } else {
                threat_solve::<u128>(mnk, budget, &self.stop, memory_cut, &mut report);
            }
        } else if let Some((clobber, path)) = clobber.filter(|_| use_regions).zip(self.certificate)
        {
            if self.distance {
                return Err(
                    "a certificate proves the value, not the distance: leave out \
                            --distance"
                        .to_string(),
                );
            }
            let file = std::fs::File::create(path)
                .map_err(|e| format!("cannot write the certificate {}: {e}", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            let mut solver = RegionSolver::new();
            solver.set_memory_limit(budget);
            // Large boards as the split solver takes them: pieces two plies deep.
            let stones = clobber.stone_count(Side::First) + clobber.stone_count(Side::Second);
            let split = if stones >= SPLIT_STONES { 2 } else { 0 };
            match solver.write_certificate(clobber, split, &mut out, &self.stop) {
                Ok(stats) => {
                    use std::io::Write as _;
                    out.flush().map_err(|e| {
                        format!("cannot write the certificate {}: {e}", path.display())
                    })?;
                    report.verdict = Some(Verdict::proved(stats.side_to_move_wins));
                    report.certificate =
                        Some((path.display().to_string(), stats.records, stats.bytes));
                }
                Err(CertificateError::Solve(SolveError::OutOfMemory)) => {
                    report.cut = Some(memory_cut)
                }
                Err(CertificateError::Solve(_)) => report.cut = Some(Cut::Stopped),
                Err(CertificateError::Io(e)) => {
                    return Err(format!(
                        "cannot write the certificate {}: {e}",
                        path.display()
                    ))
                }
                Err(CertificateError::Inconsistent(why)) => {
                    return Err(format!("the solver contradicted itself ({why}): a bug"))
                }
            }
            report.nodes = solver.nodes();
        } else if let Some((clobber, split)) = clobber
            .filter(|c| use_regions && c.outcome().is_none())
            .zip(self.split.as_ref())
            .filter(|(c, s)| {
                !self.distance
                    && self.certificate.is_none()
                    && (s.threads > 1
                        || s.journal.is_some()
                        || c.stone_count(Side::First) + c.stone_count(Side::Second) >= SPLIT_STONES)
            })
        {
            let options = SplitOptions {
                threads: split.threads,
                memory: budget,
                journal: split.journal,
                progress: split.progress,
            };
            match solve_split(clobber, &options, &self.stop) {
                Ok(solution) => {
                    report.verdict = Some(Verdict::proved(solution.side_to_move_wins));
                    report.best_move = solution.winning_move.map(|m| clobber.format_move(m));
                    report.nodes = solution.nodes;
                    report.refutations = solution
                        .refutations
                        .iter()
                        .map(|&(m, r)| {
                            let mut child = clobber.clone();
                            child.make_move(m);
                            (clobber.format_move(m), child.format_move(r))
                        })
                        .collect();
                }
                Err(SplitError::Stopped { nodes }) => {
                    report.nodes = nodes;
                    report.cut = Some(Cut::Stopped);
                }
                Err(SplitError::OutOfMemory) => report.cut = Some(memory_cut),
                Err(SplitError::Journal(why)) => return Err(why),
                Err(SplitError::TooLarge) => unreachable!("size checked above"),
            }
        } else if let Some(clobber) = clobber.filter(|_| use_regions) {
            let mut solver = RegionSolver::new();
            solver.set_memory_limit(budget);
            match solver.solve(clobber, &self.stop) {
                Ok(solution) => {
                    report.verdict = Some(Verdict::proved(solution.side_to_move_wins));
                    report.best_move = solution.winning_move.map(|m| clobber.format_move(m));
                    report.nodes = solution.nodes;
                    if self.distance {
                        let wins = solution.side_to_move_wins;
                        match solver.distance(clobber, wins, &self.stop) {
                            Ok((plies, mv)) => {
                                report.verdict = Some(if wins {
                                    Verdict::Win(Some(plies))
                                } else {
                                    Verdict::Loss(Some(plies))
                                });
                                report.best_move = mv.map(|m| clobber.format_move(m));
                            }
                            // Out of time: the proved result stands, without a distance.
                            Err(SolveError::Stopped) => report.cut = Some(Cut::Stopped),
                            Err(SolveError::OutOfMemory) => report.cut = Some(memory_cut),
                            Err(e) => log::error!("no distance for a proved result: {e:?}"),
                        }
                        report.nodes = solver.nodes();
                    }
                }
                Err(SolveError::Stopped) => {
                    report.nodes = solver.nodes();
                    report.cut = Some(Cut::Stopped);
                }
                Err(SolveError::OutOfMemory) => {
                    report.nodes = solver.nodes();
                    report.cut = Some(memory_cut);
                }
                Err(e) => unreachable!("size checked above: {e:?}"),
            }
        } else {
            let options = SearchOptions {
                // The table is the search's memory: the budget, within the `Hash` range.
                hash_mb: self.memory_mib.clamp(1, 4096),
                default_depth: 1,
                ..SearchOptions::plain(G::heuristics()[0].1)
            };
            // The plain search: no game solver inside, so that it checks the solvers.
            let mut searcher = crate::search::pvs::Pvs::<G>::new(
                options.heuristic,
                options.hash_mb,
                options.move_overhead,
            )
            .with_prover(None);
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let result = searcher.search(&mut pos, &limits, &Control::new(&self.stop), &mut |_| {});
            report.nodes = result.nodes;
            report.best_move = result.best.map(|m| pos.format_move(m));
            if result.solved {
                report.verdict = Some(match Score::from_internal(result.score) {
                    Score::Win(p) => Verdict::Win(Some(p)),
                    Score::Loss(p) => Verdict::Loss(Some(p)),
                    Score::Cp(_) => Verdict::Draw,
                });
            } else {
                report.cut = Some(Cut::Stopped);
            }
            if let Some(outcome) = pos.outcome() {
                // A finished game: the result is the game's, not the search's.
                report.best_move = None;
                report.cut = None;
                report.verdict = Some(match outcome {
                    Outcome::Draw => Verdict::Draw,
                    Outcome::Win(side) if side == pos.side_to_move() => Verdict::Win(Some(0)),
                    Outcome::Win(_) => Verdict::Loss(Some(0)),
                });
            }
        }
        report.elapsed = start.elapsed();
        Ok(report)
    }
}

/// The m,n,k threat solver of width `B` on `mnk`, its result into `report`.
fn threat_solve<B: Bits>(
    mnk: &Mnk,
    budget: crate::memory::Budget,
    stop: &AtomicBool,
    memory_cut: Cut,
    report: &mut SolveReport,
) {
    let mut solver = ThreatSolver::<B>::of_width(mnk).expect("size checked above");
    solver.set_memory_limit(budget);
    match solver.solve_with_distance(mnk, stop) {
        Ok(solution) => {
            report.cut = solution.cut.map(|c| match c {
                MnkSolveError::OutOfMemory => memory_cut,
                _ => Cut::Stopped,
            });
            report.verdict = Some(match solution.value {
                MnkValue::Win => Verdict::Win(solution.plies),
                MnkValue::Loss => Verdict::Loss(solution.plies),
                MnkValue::Draw => Verdict::Draw,
            });
            report.best_move = solution
                .winning_move
                .map(|c| mnk.format_move(crate::games::mnk::MnkMove(c as u16)));
            report.nodes = solution.nodes;
        }
        Err(MnkSolveError::Stopped) => {
            report.nodes = solver.nodes();
            report.cut = Some(Cut::Stopped);
        }
        Err(MnkSolveError::OutOfMemory) => {
            report.nodes = solver.nodes();
            report.cut = Some(memory_cut);
        }
        Err(MnkSolveError::TooLarge | MnkSolveError::ExactRule) => {
            unreachable!("checked above")
        }
    }
}
