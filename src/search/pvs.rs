//! The default searcher: iterative deepening principal variation search with a
//! transposition table, TT-move / killer / history move ordering, mate-distance
//! pruning, and time management.
//!
//! The table's move is searched before the other moves of a node are scored: the
//! scoring (history and the game's hint for every move) is paid only when the table's
//! move does not cut off, and then uses the history its search updated. On Tak 6x6
//! komi 2 against Tiltak at fixed nodes (agon 20,000, Tiltak 4,000 visits, seeds 91-94)
//! that scored 46.3% over 400 games against 43.3%, and searched agon's positions of
//! four games at 0.1 s a move to the same depth about 13% sooner. Searching the killers
//! before the scoring too scored 42.3% over 163 games (seeds 93 and 94), and was left out.
//! Where the game asks for the history malus (Tak 5x5), the table's move is scored with
//! the others as before: on 5x5 (the same match, seeds 93 and 94) staging it scored
//! 53.3% over 200 games against 58.3%.
//!
//! # Inexact pruning
//! Each game opts in to what its measurements justify ([`Game::selectivity`]): late
//! move reductions and late move pruning (moves late in the order searched shallower,
//! or not at all near the leaves; the root's late moves are reduced too, by less);
//! reverse futility pruning (a node away from the principal variation whose static
//! evaluation beats beta by a margin per ply left is cut, at most `RFP_DEPTH` plies
//! from the leaves); and null-move pruning (a node away from the principal variation
//! whose evaluation is at least beta passes, where the game allows it,
//! [`Game::make_null`]; if the opponent's reply, searched `2 + depth / 6` plies
//! shallower with a null window, still leaves it at or above beta, the node is cut;
//! never twice in a row, never on a proven score). Where the game asks for it
//! ([`Game::history_malus`]), the quiet moves searched before a cutoff lose in history
//! what the cutoff move gains.
//!
//! Scores are distance-aware (see [`super`]): the shortest win and the longest loss are
//! preferred. A subtree that no search horizon limited is stored in the table as exact
//! at any depth; when a whole iteration is horizon-free the root is solved and the
//! search stops, whatever time is left.
//!
//! # The game's own solver
//! When the game lends one ([`Game::prover`], [`crate::prover`]) and the search is
//! limited by time rather than by depth or nodes (`movetime`, a clock, `infinite`: the
//! engine at play; fixed-depth searches stay plain and reproducible), the solver gets
//! a share of the move's time at the root before the search (the prover says how much,
//! [`Prover::root_share`]): a proved win is played at once, a proved loss is reported as
//! such while the search picks the longest defence, or, where the prover is quick two
//! plies down ([`Prover::ranks_defences`]), the rest of the move's time goes to finding
//! the defence that leaves the opponent the fewest winning replies ([`rank_defences`]).
//! The solver tries the table's move
//! first (the best move of an earlier search that met this position), and root moves it
//! proved losing before its time ran out are left out of the search
//! ([`Prover::refuted`]). Inside the search, every node the prover calls small is handed
//! to it with a small node budget; a proof ends the line as a won or lost leaf (scored
//! with the prover's bound on the distance when it measured none, and stored in the table
//! as the bound it is). Nodes it could not prove are remembered (by hash, [`MISS_SLOTS`]
//! slots) and not asked again.

use std::time::{Duration, Instant};

use super::time::{budget, Budget};
use super::tt::{Bound, LocalTable, SharedTable, TtAccess, DEPTH_EXACT};
use super::{
    knob, terminal_score, Control, Limits, MoveStack, Score, SearchInfo, SearchResult, Searcher,
    INFINITY, WIN, WIN_THRESHOLD,
};
use crate::game::{Forced, Game, Outcome};
use crate::prover::{Proof, ProofLimits, Prover};

/// The inexact pruning that the game ([`Game::selectivity`]) and the knobs allow.
#[derive(Clone, Copy, Debug)]
struct Allowed {
    reductions: bool,
    late_pruning: bool,
    null_move: bool,
    futility_depth: i32,
}

impl Allowed {
    const NONE: Allowed = Allowed {
        reductions: false,
        late_pruning: false,
        null_move: false,
        futility_depth: 0,
    };
}

/// Parameters of the inexact pruning. `reductions`, `late_pruning`, `null_move` and
/// `futility_depth` are this search's: `allowed` where the root position allows inexact
/// pruning ([`Game::inexact_pruning_here`], see [`Tuning::for_position`]), else off.
#[derive(Clone, Debug)]
struct Tuning {
    allowed: Allowed,
    reductions: bool,
    lmr_min_index: usize,
    lmr_table: Vec<[i32; 64]>,
    late_pruning: bool,
    lmp_depth: i32,
    lmp_base: usize,
    lmp_scale: usize,
    hint_depth: i32,
    /// Whether quiet moves searched before a cutoff lose history: the game's choice
    /// ([`Game::history_malus`]) unless the knob `HMALUS` (0 or 1) says.
    history_malus: Option<bool>,
    null_move: bool,
    /// Null-move reduction: the pass is searched `null_base + depth / null_div` plies
    /// shallower than a move.
    null_base: i32,
    null_div: i32,
    /// Reverse futility pruning at this depth and below (0: off), margin per ply.
    futility_depth: i32,
    futility_margin: i32,
    /// Late move reductions at the root too, [`ROOT_LMR_LESS`] plies less than in the
    /// tree.
    root_reductions: bool,
    /// See [`Selectivity::single_reply`].
    single_reply: bool,
}

impl Tuning {
    fn new<G: Game>() -> Tuning {
        let sel = G::selectivity();
        let base = f64::from(knob("LMR_BASE", 50)) / 100.0;
        let div = f64::from(knob("LMR_DIV", 150)) / 100.0;
        let lmr_table = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (i, r) in row.iter_mut().enumerate() {
                    if d > 0 && i > 0 {
                        *r = (base + (d as f64).ln() * (i as f64).ln() / div).max(0.0) as i32;
                    }
                }
                row
            })
            .collect();
        let allowed = Allowed {
            reductions: sel.reductions && knob("LMR", 1) == 1,
            late_pruning: sel.late_pruning && knob("LMP", 1) == 1,
            null_move: sel.null_move && knob("NMP", 1) == 1,
            futility_depth: if sel.futility {
                knob("RFP_DEPTH", 2)
            } else {
                0
            },
        };
        Tuning {
            allowed,
            reductions: allowed.reductions,
            lmr_min_index: knob("LMR_INDEX", 3) as usize,
            lmr_table,
            late_pruning: allowed.late_pruning,
            lmp_depth: knob("LMP_DEPTH", 2),
            lmp_base: knob("LMP_BASE", 8) as usize,
            lmp_scale: knob("LMP_SCALE", 8) as usize,
            hint_depth: knob("HINT_DEPTH", HINT_DEPTH),
            history_malus: match knob("HMALUS", -1) {
                -1 => None,
                k => Some(k == 1),
            },
            null_move: allowed.null_move,
            null_base: knob("NMP_BASE", 2),
            null_div: knob("NMP_DIV", 6).max(1),
            futility_depth: allowed.futility_depth,
            futility_margin: knob("RFP_MARGIN", 150),
            root_reductions: knob("ROOT_LMR", 1) == 1,
            single_reply: sel.single_reply && knob("SINGLE_REPLY", 1) == 1,
        }
    }

    /// Turns the allowed inexact pruning on for a search from a position that allows it
    /// (`here`), off for one that does not.
    fn for_position(&mut self, here: bool) {
        let on = if here { self.allowed } else { Allowed::NONE };
        self.reductions = on.reductions;
        self.late_pruning = on.late_pruning;
        self.null_move = on.null_move;
        self.futility_depth = on.futility_depth;
    }

    /// The late move reduction of the move at `index` in the order at `depth`: the
    /// table's, `less` plies smaller, and never below 0 or deeper than to depth 1 (0 with
    /// reductions off, before the `lmr_min_index`-th move and below depth 3).
    fn late_reduction(&self, depth: i32, index: usize, less: i32) -> i32 {
        if !self.reductions || depth < 3 || index < self.lmr_min_index {
            return 0;
        }
        (self.lmr_table[(depth as usize).min(63)][index.min(63)] - less).clamp(0, depth - 2)
    }
}

/// Late move reductions at the root are this many plies smaller than the tree's
/// (one less than at a principal-variation node). Tak 6x6 komi 2 against Tiltak at fixed
/// nodes: 2 plies less scored better than 1 and than none (see the commit).
const ROOT_LMR_LESS: i32 = 2;
/// Deepest iteration when no depth is given.
pub const MAX_DEPTH: u32 = 128;
const HISTORY_SIZE: usize = 1 << 14;
/// The game's (possibly costly) ordering hint is used at nodes with at least this much depth left.
const HINT_DEPTH: i32 = 2;
/// The root solver's time when the search has no time limit (`go infinite`).
const ROOT_TIME_UNTIMED: Duration = Duration::from_secs(1);
/// Slots of the table of nodes the prover could not prove.
pub const MISS_SLOTS: usize = 1 << 16;
/// The prover is asked at nodes with at least this much depth left. (Asking at the
/// leaves too, 0, lost gomoku 39.0% against Pela 7.9 where 1 scored 50.7%, 200 games
/// each at 0.1 s a move: the VCF there costs more than it finds.)
const PROVER_DEPTH: i32 = 1;

/// Iterative deepening PVS, with a table of its own (`T` = [`LocalTable`]) or one shared
/// with other threads ([`LazySmp`]).
pub struct Pvs<G: Game, T: TtAccess<<G as Game>::Move> = LocalTable<<G as Game>::Move>> {
    heuristic: G::Heuristic,
    move_overhead: Duration,
    tt: T,
    /// The first iteration's depth (helpers of a Lazy SMP search start deeper).
    start_depth: u32,
    moves: MoveStack<G::Move>,
    order_keys: Vec<Vec<u64>>,
    /// Per ply, the moves in the order searched, taken from the keys as needed.
    ordered: MoveStack<G::Move>,
    /// The game's ordering scores of the moves being ordered.
    hints: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: u32,
    horizon_hits: u64,
    aborted: bool,
    hard_deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Whether results the game proves without search ([`Game::forced`]) end a line.
    use_forced: bool,
    /// The game's solver, if it lends one and it is not turned off.
    prover: Option<Box<dyn Prover<G>>>,
    /// Whether this search uses the prover (a search limited by time).
    use_prover: bool,
    /// Hashes of nodes the prover could not prove, by their low bits.
    prover_misses: Vec<u64>,
    tuning: Tuning,
    /// The ply whose node may not pass (the one right after a pass).
    no_null_at: u32,
    /// Whether this search gives history maluses (see [`Tuning::history_malus`]).
    malus: bool,
    /// Static evaluations by position hash (see [`Pvs::evaluate`]).
    eval_cache: EvalCache,
}

/// A direct-mapped table of static evaluations by position hash. The search evaluates
/// many positions more than once (the leaves of one iteration are the pruned nodes of the
/// next, and Tak transposes a lot); a hit returns the same value the evaluation would, so
/// the search is unchanged, only faster where the evaluation costs more than a memory
/// access (Tak's).
struct EvalCache {
    /// (hash, evaluation, whether the slot holds one); empty when off.
    slots: Vec<(u64, i32, bool)>,
}

impl EvalCache {
    fn new(bits: u32) -> Self {
        EvalCache {
            slots: if bits == 0 {
                Vec::new()
            } else {
                vec![(0, 0, false); 1 << bits]
            },
        }
    }

    #[inline]
    fn get_or(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        if self.slots.is_empty() {
            return evaluate();
        }
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[key as usize & mask];
        if slot.2 && slot.0 == key {
            return slot.1;
        }
        let value = evaluate();
        *slot = (key, value, true);
        value
    }

    fn clear(&mut self) {
        self.slots.fill((0, 0, false));
    }
}

/// An ordering key and a move's index in one integer whose ascending order is the keys'
/// descending order, ties by ascending index.
fn packed_order_key(key: i32, index: usize) -> u64 {
    let descending = !((key as u32) ^ 0x8000_0000);
    (u64::from(descending) << 32) | index as u64
}

/// The move index packed into a key by [`packed_order_key`].
#[inline]
fn key_index(key: u64) -> usize {
    key as u32 as usize
}

#[inline]
fn history_index<Move: std::hash::Hash>(mv: &Move) -> usize {
    (fxhash::hash64(mv) as usize) & (HISTORY_SIZE - 1)
}

impl<G: Game> Pvs<G> {
    /// A searcher using `heuristic`, a table of `hash_mb` MiB, keeping `move_overhead` of
    /// every clock budget back.
    pub fn new(heuristic: G::Heuristic, hash_mb: usize, move_overhead: Duration) -> Self {
        Pvs::with_table(heuristic, LocalTable::new(hash_mb), move_overhead, 1)
            .with_prover(G::prover(crate::memory::mib(hash_mb)))
    }
}

impl<G: Game, T: TtAccess<G::Move>> Pvs<G, T> {
    /// A searcher on the table `tt`, starting its iterations at `start_depth`.
    pub fn with_table(
        heuristic: G::Heuristic,
        tt: T,
        move_overhead: Duration,
        start_depth: u32,
    ) -> Self {
        Pvs {
            heuristic,
            move_overhead,
            tt,
            start_depth: start_depth.max(1),
            moves: MoveStack::default(),
            order_keys: Vec::new(),
            ordered: MoveStack::default(),
            hints: Vec::new(),
            killers: Vec::new(),
            history: vec![0; HISTORY_SIZE],
            pv: Vec::new(),
            nodes: 0,
            seldepth: 0,
            horizon_hits: 0,
            aborted: false,
            hard_deadline: None,
            node_limit: None,
            use_forced: true,
            prover: None,
            use_prover: false,
            prover_misses: Vec::new(),
            tuning: Tuning::new::<G>(),
            no_null_at: u32::MAX,
            malus: false,
            eval_cache: EvalCache::new(knob("EVAL_CACHE_BITS", 16).clamp(0, 24) as u32),
        }
    }

    /// The same searcher without the game's proofs without search ([`Game::forced`]),
    /// without its solver, without inexact pruning and extensions ([`Game::selectivity`]): it then
    /// computes exactly the minimax value of the tree to the given depth, as the plain
    /// searchers do (the tests compare them).
    pub fn without_forced(mut self) -> Self {
        self.use_forced = false;
        self.prover = None;
        self.tuning.allowed = Allowed::NONE;
        self.tuning.for_position(false);
        self.tuning.single_reply = false;
        self
    }

    /// The same searcher with `prover` as the game's solver (none: a plain search, as
    /// `solve`'s `search` method wants, to check the solvers independently).
    pub fn with_prover(mut self, prover: Option<Box<dyn Prover<G>>>) -> Self {
        self.prover = prover;
        self
    }

    /// Asks the prover about the node `pos` at `ply`: the score and bound of a proof.
    fn prove_node(&mut self, pos: &G, ply: u32, control: &Control<'_>) -> Option<(i32, Bound)> {
        let key = pos.hash();
        let slot = (key as usize) & (MISS_SLOTS - 1);
        if self.prover_misses[slot] == key {
            return None;
        }
        let prover = self.prover.as_mut()?;
        let budget = prover.in_search(pos)?;
        let limits = ProofLimits {
            stop: control.stop,
            deadline: self.hard_deadline,
            nodes: Some(budget),
        };
        let Some(proof) = prover.prove_node(pos, &limits) else {
            self.prover_misses[slot] = key;
            return None;
        };
        let bound_plies = prover.max_plies(pos);
        Some(proof_score(proof, ply, bound_plies))
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.pv.len() <= ply + 1 {
            self.pv.push(Vec::new());
            self.killers.push([None, None]);
            self.order_keys.push(Vec::new());
        }
    }

    #[inline]
    fn check_limits(&mut self, control: &Control<'_>) {
        if control.stopped()
            || self.node_limit.is_some_and(|n| self.nodes >= n)
            || self.hard_deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// The static evaluation of `pos`, from the cache when it holds it.
    fn evaluate(&mut self, pos: &G) -> i32 {
        let heuristic = self.heuristic;
        self.eval_cache
            .get_or(pos.hash(), || pos.evaluate(heuristic))
    }

    /// The ordering keys of `moves` at `ply` (TT move, killers, then history plus the
    /// game's hint), each packed with the move's index (see [`packed_order_key`]), into
    /// `self.order_keys[ply]`, unsorted.
    fn order_keys(
        &mut self,
        pos: &G,
        ply: usize,
        moves: &[G::Move],
        tt_move: Option<G::Move>,
        use_hint: bool,
    ) {
        let killers = self.killers[ply];
        let history = &self.history;
        let mut hints = std::mem::take(&mut self.hints);
        if use_hint {
            pos.order_scores(moves, &mut hints);
        } else {
            hints.clear();
            hints.resize(moves.len(), 0);
        }
        let keyed = &mut self.order_keys[ply];
        keyed.clear();
        keyed.extend(
            moves
                .iter()
                .zip(&hints)
                .enumerate()
                .map(|(i, (mv, &hint))| {
                    let key = if Some(*mv) == tt_move {
                        i32::MAX
                    } else if Some(*mv) == killers[0] {
                        i32::MAX - 1
                    } else if Some(*mv) == killers[1] {
                        i32::MAX - 2
                    } else {
                        history[history_index(mv)].saturating_add(hint)
                    };
                    packed_order_key(key, i)
                }),
        );
        self.hints = hints;
    }

    /// Orders all `moves` at `ply` (the root's).
    fn order(
        &mut self,
        pos: &G,
        ply: usize,
        moves: &mut [G::Move],
        tt_move: Option<G::Move>,
        use_hint: bool,
    ) {
        self.order_keys(pos, ply, moves, tt_move, use_hint);
        let keyed = &mut self.order_keys[ply];
        keyed.sort_unstable();
        let unsorted = moves.to_vec();
        for (slot, &k) in moves.iter_mut().zip(keyed.iter()) {
            *slot = unsorted[key_index(k)];
        }
    }

    fn reward(&mut self, ply: usize, mv: G::Move, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let h = &mut self.history[history_index(&mv)];
        *h = (*h + depth * depth).min(1 << 24);
    }

    /// The quiet moves `tried` before a cutoff (all but the `kept` ones: table move and
    /// killers) lose from their history what the cutoff move gained.
    fn punish(&mut self, tried: &[G::Move], kept: [Option<G::Move>; 3], depth: i32) {
        for &mv in tried {
            if !kept.contains(&Some(mv)) {
                let h = &mut self.history[history_index(&mv)];
                *h = (*h - depth * depth).max(-(1 << 24));
            }
        }
    }

    fn set_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    fn negamax(
        &mut self,
        pos: &mut G,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        control: &Control<'_>,
    ) -> i32 {
        let p = ply as usize;
        self.ensure_ply(p);
        self.pv[p].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        // The table's slot is far away in memory: fetch it while the game's checks run.
        self.tt.prefetch(pos.hash());
        if let Some(outcome) = pos.outcome() {
            return terminal_score(outcome, pos.side_to_move(), ply);
        }
        if self.nodes & 511 == 0 {
            self.check_limits(control);
        }
        if self.aborted {
            return 0;
        }
        // Mate-distance pruning: no line from here can win sooner than next ply.
        let best_possible = WIN - ply as i32 - 1;
        if best_possible < beta {
            beta = best_possible;
            if alpha >= beta {
                return beta;
            }
        }
        let worst_possible = -(WIN - ply as i32 - 2);
        if worst_possible > alpha {
            alpha = worst_possible;
            if alpha >= beta {
                return alpha;
            }
        }
        // A result the game proves without search (see `Game::forced`) is exact.
        match pos.forced().filter(|_| self.use_forced) {
            Some(Forced::WinNextMove) => return WIN - ply as i32 - 1,
            Some(Forced::LossInTwo) => return -(WIN - ply as i32 - 2),
            None => {}
        }
        let key = pos.hash();
        let pv_node = beta - alpha > 1;
        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.mv;
            if !pv_node && (entry.depth == DEPTH_EXACT || i32::from(entry.depth) >= depth) {
                let score = entry.score(ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    if entry.depth != DEPTH_EXACT {
                        self.horizon_hits += 1;
                    }
                    return score;
                }
            }
        }
        if depth <= 0 {
            self.horizon_hits += 1;
            return self.evaluate(pos);
        }
        // The game's solver, on a node it calls small (see the module doc).
        if self.use_prover && depth >= PROVER_DEPTH {
            if let Some((score, bound)) = self.prove_node(pos, ply, control) {
                self.tt.store(key, None, score, ply, DEPTH_EXACT, bound);
                return score;
            }
        }
        // Pruning by the static evaluation, away from the principal variation and from
        // proven scores: reverse futility near the leaves, then a null move.
        if !pv_node && beta.abs() < WIN_THRESHOLD {
            let nulls = self.tuning.null_move && depth >= 3 && ply != self.no_null_at;
            if depth <= self.tuning.futility_depth || nulls {
                let eval = self.evaluate(pos);
                if depth <= self.tuning.futility_depth
                    && eval - self.tuning.futility_margin * depth >= beta
                {
                    self.horizon_hits += 1;
                    return eval;
                }
                if nulls && eval >= beta && pos.make_null() {
                    let r = self.tuning.null_base + depth / self.tuning.null_div;
                    let saved = self.no_null_at;
                    self.no_null_at = ply + 1;
                    let score = -self.negamax(
                        pos,
                        (depth - 1 - r).max(0),
                        ply + 1,
                        -beta,
                        -beta + 1,
                        control,
                    );
                    self.no_null_at = saved;
                    pos.unmake_null();
                    if self.aborted {
                        return 0;
                    }
                    if score >= beta {
                        self.horizon_hits += 1;
                        return if score >= WIN_THRESHOLD { beta } else { score };
                    }
                }
            }
        }
        let hits_before = self.horizon_hits;
        let mut generated = self.moves.take(p);
        pos.search_moves(&mut generated);
        if generated.is_empty() {
            // Games report a finished game through `outcome`; this is a safety net.
            self.moves.give(p, generated);
            self.horizon_hits += 1;
            return self.evaluate(pos);
        }
        // The table's move, when it is legal here, is searched before the other moves are
        // scored: at most nodes it cuts off, and the scoring (the game's hints for every
        // move) is then never paid for. The others are scored after its search, with the
        // history it has updated. Not where the game asks for the history malus (Tak 5x5),
        // whose maluses it changes: there it measured worse (see the module doc).
        let use_hint = depth >= self.tuning.hint_depth;
        let killers = self.killers[p];
        let mut moves = self.ordered.take(p);
        moves.extend(tt_move.filter(|m| !self.malus && generated.contains(m)));
        let first_unscored = moves.len();
        // The moves are put in order a few at a time, as the search reaches them: most
        // nodes stop after the first few (a cutoff, or late move pruning near the leaves).
        let mut keys = std::mem::take(&mut self.order_keys[p]);
        let mut scored = false;
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let lmp_limit = if self.tuning.late_pruning && !pv_node && depth <= self.tuning.lmp_depth {
            self.tuning.lmp_base + self.tuning.lmp_scale * (depth * depth) as usize
        } else {
            usize::MAX
        };
        for i in 0..generated.len() {
            if i >= lmp_limit && best > -WIN_THRESHOLD {
                // Late moves near the leaves are skipped once a move that does not lose
                // at once has been found; the result is then bounded by a horizon.
                self.horizon_hits += 1;
                break;
            }
            if i == moves.len() {
                if !scored {
                    self.order_keys[p] = keys;
                    self.order_keys(pos, p, &generated, tt_move, use_hint);
                    keys = std::mem::take(&mut self.order_keys[p]);
                    if first_unscored > 0 {
                        keys.retain(|&k| Some(generated[key_index(k)]) != tt_move);
                    }
                    scored = true;
                }
                let next = super::order::sort_next(&mut keys, i - first_unscored);
                moves.extend(next.iter().map(|&k| generated[key_index(k)]));
            }
            let mv = moves[i];
            let quiet = Some(mv) != tt_move && Some(mv) != killers[0] && Some(mv) != killers[1];
            let reduction = if quiet {
                self.tuning.late_reduction(depth, i, i32::from(pv_node))
            } else {
                0
            };
            let undo = pos.make_move(mv);
            let score = if i == 0 {
                let extension = i32::from(self.tuning.single_reply && generated.len() == 1);
                -self.negamax(pos, depth - 1 + extension, ply + 1, -beta, -alpha, control)
            } else {
                self.search_later(pos, depth, ply + 1, alpha, beta, reduction, control)
            };
            pos.unmake_move(mv, undo);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.set_pv(p, mv);
                    if alpha >= beta {
                        self.reward(p, mv, depth);
                        if self.malus {
                            self.punish(&moves[..i], [tt_move, killers[0], killers[1]], depth);
                        }
                        break;
                    }
                }
            }
        }
        self.moves.give(p, generated);
        self.ordered.give(p, moves);
        self.order_keys[p] = keys;
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_depth = if self.horizon_hits == hits_before {
            DEPTH_EXACT
        } else {
            depth.clamp(0, i32::from(DEPTH_EXACT) - 1) as u8
        };
        self.tt
            .store(key, best_move, best, ply, stored_depth, bound);
        best
    }

    /// The score of a move after the first one at a node searched at `depth` with the
    /// window (`alpha`, `beta`), the move made (`child_ply` is the position's ply): a
    /// null-window search `reduction` plies shallower; again at full depth if that beats
    /// `alpha`; and with the full window if the score then falls inside it.
    #[allow(clippy::too_many_arguments)]
    fn search_later(
        &mut self,
        pos: &mut G,
        depth: i32,
        child_ply: u32,
        alpha: i32,
        beta: i32,
        reduction: i32,
        control: &Control<'_>,
    ) -> i32 {
        let null_window = |this: &mut Self, pos: &mut G, d: i32| {
            -this.negamax(pos, d, child_ply, -alpha - 1, -alpha, control)
        };
        let mut s = null_window(self, pos, depth - 1 - reduction);
        if s > alpha && reduction > 0 && !self.aborted {
            s = null_window(self, pos, depth - 1);
        }
        if s > alpha && s < beta && !self.aborted {
            -self.negamax(pos, depth - 1, child_ply, -beta, -alpha, control)
        } else {
            s
        }
    }

    /// One iteration at the root. Returns the best score and move among fully searched
    /// moves (`None` if the first move was not finished).
    fn search_root(
        &mut self,
        pos: &mut G,
        root: &mut [G::Move],
        depth: i32,
        control: &Control<'_>,
    ) -> (i32, Option<G::Move>) {
        self.ensure_ply(0);
        self.pv[0].clear();
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = None;
        let hits_before = self.horizon_hits;
        for (i, &mv) in root.iter().enumerate() {
            // Late moves are reduced as in the tree, but by less.
            let reduction = if self.tuning.root_reductions {
                self.tuning.late_reduction(depth, i, ROOT_LMR_LESS)
            } else {
                0
            };
            let undo = pos.make_move(mv);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, 1, -beta, -alpha, control)
            } else {
                self.search_later(pos, depth, 1, alpha, beta, reduction, control)
            };
            pos.unmake_move(mv, undo);
            if self.aborted {
                break;
            }
            if score > alpha || best.is_none() {
                alpha = alpha.max(score);
                best = Some(mv);
                self.set_pv(0, mv);
            }
        }
        if let Some(mv) = best {
            if !self.aborted {
                let stored_depth = if self.horizon_hits == hits_before {
                    DEPTH_EXACT
                } else {
                    depth.clamp(0, 254) as u8
                };
                self.tt
                    .store(pos.hash(), Some(mv), alpha, 0, stored_depth, Bound::Exact);
            }
            // Search the best move first next iteration.
            if let Some(i) = root.iter().position(|&m| m == mv) {
                root[..=i].rotate_right(1);
            }
        }
        (alpha, best)
    }
}

/// The score (root-relative, `ply` plies down) and the table bound of a proof;
/// `bound_plies` stands in for a distance the prover did not measure, which makes a win a
/// lower bound and a loss an upper bound.
fn proof_score<Move>(proof: Proof<Move>, ply: u32, bound_plies: u32) -> (i32, Bound) {
    // A win is at least one ply away, a loss two; and every score stays in the band.
    let win = |d: u32| WIN - (ply + d.clamp(1, 9000)) as i32;
    let loss = |d: u32| -(WIN - (ply + d.clamp(2, 9000)) as i32);
    match proof {
        Proof::Win { plies: Some(d), .. } => (win(d), Bound::Exact),
        Proof::Win { plies: None, .. } => (win(bound_plies), Bound::Lower),
        Proof::Loss { plies: Some(d) } => (loss(d), Bound::Exact),
        Proof::Loss { plies: None } => (loss(bound_plies), Bound::Upper),
        Proof::Draw => (0, Bound::Exact),
    }
}

/// A move the prover chose at the root, without a search: the proof's `score`, the
/// `depth` of the proof that chose it (1: a proved win; 2: a defence ranked by the
/// opponent's replies) and the solver `nodes` it took.
struct Answer<Move> {
    mv: Move,
    score: i32,
    depth: u32,
    nodes: u64,
}

impl<Move: Copy> Answer<Move> {
    /// Reports the answer as one `info` line and returns it as the search's result.
    fn report(
        self,
        control: &Control<'_>,
        hashfull: u32,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        let elapsed = control.start.elapsed();
        let nodes = self.nodes.max(1);
        on_info(&SearchInfo {
            depth: self.depth,
            seldepth: self.depth,
            score: Score::from_internal(self.score),
            nodes,
            elapsed,
            hashfull: Some(hashfull),
            pv: vec![self.mv],
        });
        SearchResult {
            best: Some(self.mv),
            score: self.score,
            depth: self.depth,
            seldepth: self.depth,
            nodes,
            elapsed,
            pv: vec![self.mv],
            solved: true,
        }
    }
}

/// At a root proved lost, the defence of `root` (in the search's order) that leaves the
/// opponent the fewest winning replies, as `prover` proves them by `deadline`; ties go to
/// the move that leaves more replies in all, then to the earlier move. A defence is
/// given up as soon as it leaves more winning replies than the best so far. `None` when
/// not one defence was ranked in time.
///
/// Why: an opponent that is not perfect goes wrong most often where few of its moves
/// win. In agon's Clobber 5x6 games lost to OpenSpiel's MCTS (5000 simulations) after a
/// proved loss, the defence the search picked often left the opponent 4 or 5 winning
/// replies where another left 1. From 335 positions of such games (proved lost at 22 to
/// 26 stones, agon to move), agon at 100 ms a move against the same MCTS won back 220
/// with this ranking and 193 without it (81 positions won only with it, 54 only without:
/// p = 0.02, sign test).
fn rank_defences<G: Game>(
    pos: &mut G,
    root: &[G::Move],
    prover: &mut dyn Prover<G>,
    limits: &ProofLimits<'_>,
) -> Option<G::Move> {
    let defender = pos.side_to_move();
    let mut best: Option<(usize, usize, G::Move)> = None;
    let mut replies = Vec::new();
    for &mv in root {
        let undo = pos.make_move(mv);
        replies.clear();
        if pos.outcome().is_none() {
            pos.generate_moves(&mut replies);
        }
        let mut winners = 0;
        let mut ranked = true;
        for &reply in &replies {
            let undo_reply = pos.make_move(reply);
            let wins = match pos.outcome() {
                Some(outcome) => matches!(outcome, Outcome::Win(side) if side != defender),
                None => match prover.prove_node(pos, limits) {
                    Some(proof) => matches!(proof, Proof::Loss { .. }),
                    None => {
                        ranked = false;
                        false
                    }
                },
            };
            pos.unmake_move(reply, undo_reply);
            winners += usize::from(wins);
            if !ranked || best.is_some_and(|(fewest, _, _)| winners > fewest) {
                break;
            }
        }
        pos.unmake_move(mv, undo);
        if !ranked {
            break;
        }
        let better = best.is_none_or(|(fewest, most, _)| {
            winners < fewest || (winners == fewest && replies.len() > most)
        });
        if better {
            best = Some((winners, replies.len(), mv));
        }
    }
    best.map(|(_, _, mv)| mv)
}

/// Whether a move of `root` ends the game with a win for the side to move.
fn wins_at_once<G: Game>(pos: &mut G, root: &[G::Move]) -> bool {
    let mover = pos.side_to_move();
    root.iter().any(|&mv| {
        let undo = pos.make_move(mv);
        let won = pos.outcome() == Some(Outcome::Win(mover));
        pos.unmake_move(mv, undo);
        won
    })
}

impl<G: Game, T: TtAccess<G::Move>> Searcher<G> for Pvs<G, T> {
    fn name(&self) -> &'static str {
        "pvs"
    }

    fn search(
        &mut self,
        pos: &mut G,
        limits: &Limits,
        control: &Control<'_>,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.node_limit = limits.nodes;
        self.malus = self
            .tuning
            .history_malus
            .unwrap_or_else(|| pos.history_malus());
        self.tuning.for_position(pos.inexact_pruning_here());
        let Budget {
            soft,
            hard,
            start_before,
        } = budget(limits, self.move_overhead, pos.moves_left());
        self.hard_deadline = hard.map(|h| control.start + h);
        for h in self.history.iter_mut() {
            *h /= 8;
        }

        let mut root = Vec::new();
        pos.search_moves(&mut root);
        let root_is_terminal = root.is_empty() || pos.outcome().is_some();
        let mut result = SearchResult {
            best: None,
            score: pos
                .outcome()
                .map_or(0, |o| terminal_score(o, pos.side_to_move(), 0)),
            depth: 0,
            seldepth: 0,
            nodes: 1,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            solved: root_is_terminal,
        };
        if root.is_empty() {
            result.elapsed = control.start.elapsed();
            return result;
        }
        let tt_move = self.tt.probe(pos.hash()).and_then(|e| e.mv);
        self.ensure_ply(0);
        self.order(pos, 0, &mut root, tt_move, true);
        // A legal answer even if stopped before the first iteration ends.
        result.best = Some(root[0]);
        result.pv = vec![root[0]];

        // The game's solver, in a search limited by time (see the module doc).
        self.use_prover = self.prover.is_some() && limits.depth.is_none() && limits.nodes.is_none();
        if self.use_prover && self.prover_misses.len() != MISS_SLOTS {
            self.prover_misses = vec![0; MISS_SLOTS];
        }
        // A proved loss at the root, reported while the search picks the defence.
        let mut proved_loss = None;
        if self.use_prover && !root_is_terminal && !wins_at_once(pos, &root) {
            let prover = self.prover.as_mut().expect("use_prover");
            let fraction = prover.root_share(pos).clamp(0.0, 1.0);
            let share = soft.map_or(ROOT_TIME_UNTIMED.mul_f64(fraction), |s| s.mul_f64(fraction));
            let deadline = self
                .hard_deadline
                .map_or(control.start + share, |h| h.min(control.start + share));
            let nodes_before = prover.nodes();
            let proof = prover.prove_root(
                pos,
                tt_move.filter(|mv| root.contains(mv)),
                &ProofLimits {
                    stop: control.stop,
                    deadline: Some(deadline),
                    nodes: None,
                },
            );
            let bound_plies = prover.max_plies(pos);
            let solver_nodes = prover.nodes() - nodes_before;
            match proof {
                Some(Proof::Win { mv: Some(mv), .. }) if root.contains(&mv) => {
                    let (score, _) = proof_score(proof.expect("some"), 0, bound_plies);
                    let answer = Answer {
                        mv,
                        score,
                        depth: 1,
                        nodes: solver_nodes,
                    };
                    return answer.report(control, self.tt.hashfull(), on_info);
                }
                Some(loss @ Proof::Loss { .. }) => {
                    let score = proof_score(loss, 0, bound_plies).0;
                    proved_loss = Some(score);
                    // The defence with the fewest winning replies, in the move's time.
                    let end = soft
                        .map(|s| control.start + s)
                        .into_iter()
                        .chain(self.hard_deadline)
                        .min();
                    if let Some(end) = end.filter(|_| prover.ranks_defences(pos)) {
                        let limits = ProofLimits {
                            stop: control.stop,
                            deadline: Some(end),
                            nodes: None,
                        };
                        let nodes_before = prover.nodes();
                        if let Some(mv) = rank_defences(pos, &root, prover.as_mut(), &limits) {
                            let nodes = prover.nodes() - nodes_before + solver_nodes;
                            let answer = Answer {
                                mv,
                                score,
                                depth: 2,
                                nodes,
                            };
                            return answer.report(control, self.tt.hashfull(), on_info);
                        }
                    }
                }
                _ => {
                    // Moves proved losing before the time ran out are not searched.
                    let refuted = prover.refuted();
                    if !refuted.is_empty() && root.iter().any(|mv| !refuted.contains(mv)) {
                        root.retain(|mv| !refuted.contains(mv));
                        result.best = Some(root[0]);
                        result.pv = vec![root[0]];
                    }
                }
            }
        }
        // The search's own proof, else the root solver's, else the search's estimate.
        let reported = |score: i32| match proved_loss {
            Some(loss) if score.abs() < WIN_THRESHOLD => loss,
            _ => score,
        };

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in self.start_depth.min(max_depth)..=max_depth {
            self.horizon_hits = 0;
            let (score, best) = self.search_root(pos, &mut root, depth as i32, control);
            let elapsed = control.start.elapsed();
            if self.aborted {
                // The unfinished iteration searched the last best move first, so a move it
                // finished is at least as well founded as the last result.
                if best.is_some() {
                    result.best = best;
                    result.score = reported(score);
                    result.pv = self.pv[0].clone();
                }
                break;
            }
            result = SearchResult {
                best,
                score: reported(score),
                depth,
                seldepth: self.seldepth,
                nodes: self.nodes,
                elapsed,
                pv: self.pv[0].clone(),
                solved: false,
            };
            on_info(&SearchInfo {
                depth,
                seldepth: self.seldepth,
                score: Score::from_internal(reported(score)),
                nodes: self.nodes,
                elapsed,
                hashfull: Some(self.tt.hashfull()),
                pv: result.pv.clone(),
            });
            // Solved: no horizon was hit, or a proven win/loss within the depth searched.
            if self.horizon_hits == 0 || score.abs() >= WIN_THRESHOLD {
                result.solved = true;
                break;
            }
            // An iteration costs several times the previous one: do not start one that
            // cannot finish (time.rs's rule).
            if start_before.is_some_and(|limit| elapsed >= limit) {
                break;
            }
            if root.len() == 1 && limits.clock.is_some() && !limits.infinite {
                break;
            }
        }
        result.nodes = self.nodes.max(1);
        result.seldepth = self.seldepth;
        result.elapsed = control.start.elapsed();
        result
    }

    fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        if let Some(prover) = &mut self.prover {
            prover.clear();
        }
        self.prover_misses.iter_mut().for_each(|m| *m = 0);
        self.eval_cache.clear();
    }
}

/// Lazy SMP (as in Stockfish since 2015): several PVS threads search the same root and
/// share one transposition table; the first thread's result is the answer, the others
/// fill the table with what they find. Helpers start at alternating depths so that they
/// do not all search the same tree in step.
pub struct LazySmp<G: Game> {
    workers: Vec<Pvs<G, std::sync::Arc<SharedTable<G::Move>>>>,
}

impl<G: Game> LazySmp<G> {
    /// `threads` searchers (at least 1) on a shared table of `hash_mb` MiB.
    pub fn new(
        heuristic: G::Heuristic,
        hash_mb: usize,
        move_overhead: Duration,
        threads: usize,
    ) -> Self {
        let table = std::sync::Arc::new(SharedTable::new(hash_mb));
        LazySmp {
            workers: (0..threads.max(1))
                .map(|i| {
                    let worker = Pvs::with_table(
                        heuristic,
                        std::sync::Arc::clone(&table),
                        move_overhead,
                        1 + (i as u32 % 2),
                    );
                    // The main thread uses the game's solver; helpers search plainly.
                    if i == 0 {
                        worker.with_prover(G::prover(crate::memory::mib(hash_mb)))
                    } else {
                        worker
                    }
                })
                .collect(),
        }
    }
}

impl<G: Game> Searcher<G> for LazySmp<G> {
    fn name(&self) -> &'static str {
        "pvs"
    }

    fn search(
        &mut self,
        pos: &mut G,
        limits: &Limits,
        control: &Control<'_>,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let helpers_stop = std::sync::atomic::AtomicBool::new(false);
        let (main, helpers) = self.workers.split_first_mut().expect("one worker at least");
        std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|helper| {
                    let mut p = pos.clone();
                    let stop = &helpers_stop;
                    let start = control.start;
                    // Helpers search until the main thread is done (or to its depth).
                    let helper_limits = Limits {
                        depth: limits.depth,
                        infinite: true,
                        ..Limits::default()
                    };
                    scope.spawn(move || {
                        let c = Control { stop, start };
                        helper.search(&mut p, &helper_limits, &c, &mut |_| {}).nodes
                    })
                })
                .collect();
            let mut result = main.search(pos, limits, control, on_info);
            helpers_stop.store(true, std::sync::atomic::Ordering::Relaxed);
            for h in handles {
                result.nodes += h.join().unwrap_or(0);
            }
            result
        })
    }

    fn clear(&mut self) {
        for w in &mut self.workers {
            w.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::{Mnk, MnkMove};
    use crate::games::tak::Tak;

    #[test]
    fn a_malus_takes_from_the_quiet_moves_tried_before_the_cutoff() {
        let mut s = Pvs::<Mnk>::new(Mnk::heuristics()[0].1, 1, Duration::ZERO);
        let (a, b, c, d) = (MnkMove(0), MnkMove(1), MnkMove(2), MnkMove(3));
        for mv in [a, b, c, d] {
            s.history[history_index(&mv)] = 10;
        }
        // `b` is the table move: kept; `d` made the cutoff: not among those tried.
        s.punish(&[a, b, c], [Some(b), None, None], 3);
        let h = |s: &Pvs<Mnk>, mv: MnkMove| s.history[history_index(&mv)];
        assert_eq!((h(&s, a), h(&s, b), h(&s, c), h(&s, d)), (1, 10, 1, 10));
        s.punish(&[a], [None, None, None], 5000);
        assert_eq!(h(&s, a), -(1 << 24), "bounded below");
    }

    #[test]
    fn packed_keys_sort_as_a_stable_sort_by_descending_key() {
        let keys = [
            0,
            5,
            -3,
            5,
            i32::MAX,
            i32::MIN,
            0,
            i32::MAX - 2,
            -3,
            i32::MIN + 1,
            7,
            -1,
        ];
        let mut stable: Vec<usize> = (0..keys.len()).collect();
        stable.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
        let mut packed: Vec<u64> = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| packed_order_key(k, i))
            .collect();
        packed.sort_unstable();
        let order: Vec<usize> = packed.iter().map(|&k| key_index(k)).collect();
        assert_eq!(order, stable);
    }

    /// The search with the evaluation cache visits the same nodes and gives the same
    /// result as the search without it, on each of the three Tak bench positions (5x5
    /// start, a 5x5 and a 6x6 middle game), each searched twice in a row (the second
    /// search finds the first one's evaluations in the cache).
    #[test]
    fn the_evaluation_cache_leaves_the_search_unchanged() {
        let run = |cache_bits: u32, spec: &[i64], position: &str, depth: u32| {
            let settings = Tak::settings(spec).unwrap();
            let mut pos = if position == "startpos" {
                Tak::start(&settings)
            } else {
                Tak::parse_position(&settings, position).unwrap()
            };
            let mut s = Pvs::<Tak>::new(Tak::heuristics()[0].1, 8, Duration::ZERO);
            s.eval_cache = EvalCache::new(cache_bits);
            let stop = std::sync::atomic::AtomicBool::new(false);
            (0..2)
                .map(|_| {
                    let r = s.search(
                        &mut pos,
                        &Limits::depth(depth),
                        &Control::new(&stop),
                        &mut |_| {},
                    );
                    (r.best, r.score, r.nodes, r.pv)
                })
                .collect::<Vec<_>>()
        };
        let cases = [
            (&[5, 0, 0][..], "startpos", 4),
            (&[5, 0, 0][..], "x5/x5/x2,2,x2/x,1,1,2,x/x5 1 4", 5),
            (&[6, 4, 0][..], crate::games::tak::MIDGAME_6, 5),
        ];
        for (spec, position, depth) in cases {
            let without = run(0, spec, position, depth);
            // A cache of 2^4 slots also forces collisions of different positions.
            for bits in [4, 16] {
                assert_eq!(
                    run(bits, spec, position, depth),
                    without,
                    "{position}, {bits} bits"
                );
            }
        }
    }

    /// A root move far down the order is reduced, but when the reduced search finds that
    /// it wins, it is searched again at full depth and played. 5x5, White to move, no
    /// move wins at once, but 12 of the 70 leave two or more squares that each complete a
    /// road, of which Black can cover only one (a win in three plies; d3, for one, joins
    /// the row a3-c3 to the column d1, d2, d4). Plain minimax (no pruning) finds the
    /// moves that win; they are put last in the root's order.
    #[test]
    fn a_late_reduced_root_move_that_wins_is_searched_again_and_played() {
        use crate::search::minimax::Minimax;
        let settings = Tak::settings(&[5, 0, 0]).unwrap();
        let mut pos =
            Tak::parse_position(&settings, "2,2,x3/x3,1,x/1,1,1,x2/x3,1,x/2,x2,1,x 1 8").unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let control = Control::new(&stop);
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mover = pos.side_to_move();
        let (mut winners, mut others) = (Vec::new(), Vec::new());
        for &mv in &moves {
            let undo = pos.make_move(mv);
            assert_ne!(
                pos.outcome(),
                Some(Outcome::Win(mover)),
                "no move wins at once"
            );
            let mut plain = Minimax::<Tak>::new(Tak::heuristics()[0].1, 2);
            let reply = plain.search(&mut pos, &Limits::depth(2), &control, &mut |_| {});
            pos.unmake_move(mv, undo);
            if reply.score <= -WIN_THRESHOLD {
                winners.push(mv);
            } else {
                others.push(mv);
            }
        }
        assert!(
            !winners.is_empty() && others.len() >= 3 * winners.len(),
            "{winners:?}"
        );
        let mut root = others;
        let first_winner = root.len();
        root.extend(&winners);
        // Every heuristic at depths 3 and 4, but `net` from depth 4: at depth 3 it plays a
        // move that does not win (scored 1,530), the winners' reduced searches not failing
        // high over it, and finds the win one iteration later.
        for &(name, heuristic) in Tak::heuristics() {
            let depths: &[i32] = if name == "net" { &[4, 5] } else { &[3, 4] };
            for &depth in depths {
                let mut s = Pvs::<Tak>::new(heuristic, 8, Duration::ZERO);
                assert!(s.tuning.root_reductions);
                assert!(
                    s.tuning.late_reduction(depth, first_winner, ROOT_LMR_LESS) >= 1,
                    "the winners are reduced at depth {depth}"
                );
                let (score, best) = s.search_root(&mut pos, &mut root.clone(), depth, &control);
                assert!(
                    score >= WIN_THRESHOLD,
                    "{name} depth {depth}: score {score}"
                );
                assert!(
                    winners.contains(&best.unwrap()),
                    "{name} depth {depth}: {best:?}"
                );
            }
        }
    }

    #[test]
    fn inexact_pruning_is_turned_on_only_where_the_position_allows_it() {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let control = Control::new(&stop);
        let mnk = |spec: &[i64]| Mnk::start(&Mnk::settings(spec).unwrap());
        let heuristic = Mnk::heuristics()[0].1;
        let mut s = Pvs::<Mnk>::new(heuristic, 8, Duration::ZERO);
        let mut reduces = |mut pos: Mnk| {
            s.search(&mut pos, &Limits::depth(2), &control, &mut |_| {});
            s.tuning.reductions
        };
        // Gomoku reduces; tic-tac-toe, searched next by the same searcher, stays exact.
        let mut gomoku = mnk(&[15, 15, 5]);
        gomoku.make_move(gomoku.parse_move("h8").unwrap());
        assert!(reduces(gomoku.clone()));
        assert!(!reduces(mnk(&[3, 3, 3])));
        assert!(reduces(gomoku.clone()));
        // The exact searcher never does.
        let mut exact = Pvs::<Mnk>::new(heuristic, 8, Duration::ZERO).without_forced();
        exact.search(&mut gomoku, &Limits::depth(2), &control, &mut |_| {});
        assert!(!exact.tuning.reductions && !exact.tuning.single_reply);
    }

    #[test]
    fn tak_uses_the_malus_on_5x5_only() {
        let tak = |spec: &[i64]| Tak::start(&Tak::settings(spec).unwrap()).history_malus();
        assert!(tak(&[5, 0, 0]));
        assert!(!tak(&[6, 4, 0]) && !tak(&[4, 0, 0]) && !tak(&[4, 0, 1]));
        assert!(!Mnk::start(&Mnk::settings(&[3, 3, 3]).unwrap()).history_malus());
    }
}
