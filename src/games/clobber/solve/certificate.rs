//! Certificates: a proof of a Clobber result that a program sharing no code with the
//! solver can check.
//!
//! A certificate is a text file. Its first line is `small <S>`: sums are read with every
//! group of at most `S` stones replaced by its canonical value (what the solver does;
//! any `S` is sound, it only changes how records are matched). Then come *game lines*,
//! which name games by their options, and *records*, each a claim about a sum with its
//! justification:
//!
//! ```text
//! g <n> <left options>|<right options>
//! <id> <W|L> <w|b> <sum> <justification>
//! ```
//!
//! - a game line defines game `n` as `{ left | right }`, the options being games defined
//!   on earlier lines, by number, `,` between them (`g 0 |` is 0, `g 1 0|0` is `*`);
//! - `W` or `L`: the side to move (`w`, White, Left, the first player; or `b`) wins or
//!   loses the sum when it moves first;
//! - `<sum>`: its terms, `+` between them (`0` for none): groups, each as its rows from
//!   the first, `/` between rows, `w`, `b` and `.` for the squares; and games, `g<n>`;
//! - justifications, each naming earlier records by id:
//!   - `value`: the sum has no group of more than `S` stones, and the outcome of its
//!     value (the sum of the groups' canonical values and the games) with this side to
//!     move first is the claim;
//!   - `move C`: a win, by a move to the sum of record `C`, a loss for the opponent (a
//!     move in a group, or to an option of the canonical value of the small terms);
//!   - `all C1 C2 ...`: a loss, every move leading to one of these records, each a win
//!     for the opponent;
//!   - `cancel C`: the sum is record `C`'s plus a group and its colour-swapped copy, whose
//!     sum is 0 (G + (-G) = 0), so the claim is `C`'s;
//!   - `drop C P1 P2`: the sum is `C`'s plus a group G that the side to move loses whoever
//!     moves first (records `P1`, White to move, and `P2`, Black to move): G = 0;
//!   - `positive G1 H1 G2 H2 ...`: every large group is a win for White whoever moves
//!     first (for each, `Gi` White to move wins it, `Hi` Black to move loses it) and the
//!     value of the small terms is at least 0, so the sum is positive; `negative ...` the
//!     same for Black.
//!
//! The last line is `root <id>`, the record of the position proved. The facts of
//! combinatorial game theory used are in Siegel, *Combinatorial Game Theory* (AMS 2013),
//! ch. II: equal games may replace each other in a sum, canonical forms are unique, and
//! the three above. The checker (`tests/clobber_certificate.rs`) reads the groups, plays
//! the moves, cuts the groups apart and computes canonical values with its own code.
//!
//! The solver is the oracle that picks the winning moves; the records mirror its search
//! over large groups and the value of the small ones, and end at sums of small groups.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use fxhash::{FxHashMap, FxHashSet};

use super::*;

/// What [`Solver::write_certificate`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertificateStats {
    /// Whether the side to move wins.
    pub side_to_move_wins: bool,
    /// Records written (game lines not counted).
    pub records: u64,
    /// Bytes written.
    pub bytes: u64,
}

/// Why no certificate was written.
#[derive(Debug)]
pub enum CertificateError {
    /// The solver stopped or ran out of memory.
    Solve(SolveError),
    /// Writing failed.
    Io(std::io::Error),
    /// The solver's answers contradict each other (a bug, reported rather than written).
    Inconsistent(&'static str),
}

impl From<SolveError> for CertificateError {
    fn from(e: SolveError) -> Self {
        CertificateError::Solve(e)
    }
}

impl From<std::io::Error> for CertificateError {
    fn from(e: std::io::Error) -> Self {
        CertificateError::Io(e)
    }
}

struct Writer<'a> {
    solver: &'a mut Solver,
    out: &'a mut dyn Write,
    stop: &'a AtomicBool,
    /// (sum key, claim) -> record id.
    ids: FxHashMap<(u128, bool), u64>,
    /// Games whose line is written.
    defined: FxHashSet<GameId>,
    records: u64,
    bytes: u64,
    /// Plies proved position by position above the pieces.
    split: u32,
}

impl Solver {
    /// Proves `pos` and writes its certificate to `out` (see the module's notes).
    ///
    /// With `split` above 0 the top `split` plies are proved position by position, and
    /// each position `split` plies deep is proved as a piece of its own, the table of
    /// sums emptied before it (the records written stay, and a piece met again is not
    /// proved twice): 5x6 in one piece ran out of 15 GB, its pieces two plies deep fit
    /// in a few. The winning replies two plies deep are taken from the opening book where
    /// it has them (5x6), else tried in the solver's order.
    ///
    /// # Errors
    /// [`CertificateError`]: the solver stopped or ran out of memory, or writing failed.
    pub fn write_certificate(
        &mut self,
        pos: &Clobber,
        split: u32,
        out: &mut dyn Write,
        stop: &AtomicBool,
    ) -> Result<CertificateStats, CertificateError> {
        if pos.settings_of().squares() > MAX_SOLVE_SQUARES {
            return Err(SolveError::TooLarge.into());
        }
        let small = self.small;
        let mut writer = Writer {
            solver: self,
            out,
            stop,
            ids: FxHashMap::default(),
            defined: FxHashSet::default(),
            records: 0,
            bytes: 0,
            split,
        };
        writer.line(&format!("small {small}"))?;
        let (root, wins) = writer.prove_position(pos, None, 0)?;
        writer.line(&format!("root {root}"))?;
        Ok(CertificateStats {
            side_to_move_wins: wins,
            records: writer.records,
            bytes: writer.bytes,
        })
    }

    /// Whether `mover` moving first wins the game `value` alone.
    fn value_wins(&mut self, value: GameId, mover: Side) -> bool {
        match mover {
            Side::First => self.games.left_first_wins(value),
            Side::Second => self.games.right_first_wins(value),
        }
    }

    /// Whether `value` is at least 0 (`positive`) or at most 0: the other side moving
    /// first loses it (Siegel II.1).
    fn value_signed(&mut self, value: GameId, positive: bool) -> bool {
        let other = if positive { Side::Second } else { Side::First };
        !self.value_wins(value, other)
    }
}

/// A group in the certificate's words: rows from the first, `/` between.
fn group_text(g: Region) -> String {
    let mut s = String::new();
    for r in 0..g.h {
        if r > 0 {
            s.push('/');
        }
        for c in 0..g.w {
            let bit = 1u64 << (u32::from(r) * u32::from(g.w) + u32::from(c));
            s.push(if g.left & bit != 0 {
                'w'
            } else if g.right & bit != 0 {
                'b'
            } else {
                '.'
            });
        }
    }
    s
}

/// The large groups and the value of the small ones, as a certificate's sum.
fn sum_text(groups: &[Region], value: GameId) -> String {
    let mut terms: Vec<String> = groups.iter().map(|&g| group_text(g)).collect();
    if value != ZERO {
        terms.push(format!("g{value}"));
    }
    if terms.is_empty() {
        "0".to_string()
    } else {
        terms.join("+")
    }
}

fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'w',
        Side::Second => 'b',
    }
}

/// `groups` without the ones at `skip` (sorted, as `groups` is).
fn without(groups: &[Region], skip: &[usize]) -> Vec<Region> {
    groups
        .iter()
        .enumerate()
        .filter(|(i, _)| !skip.contains(i))
        .map(|(_, &g)| g)
        .collect()
}

fn joined(ids: &[u64]) -> String {
    ids.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

impl Writer<'_> {
    fn line(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.bytes += text.len() as u64 + 1;
        Ok(())
    }

    /// Writes the game line of `g`, after those of its options, unless written.
    fn define(&mut self, g: GameId) -> std::io::Result<()> {
        if self.defined.contains(&g) {
            return Ok(());
        }
        let left = self.solver.games.left_options(g).to_vec();
        let right = self.solver.games.right_options(g).to_vec();
        for &o in left.iter().chain(&right) {
            self.define(o)?;
        }
        let list = |v: &[GameId]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        self.line(&format!("g {g} {}|{}", list(&left), list(&right)))?;
        self.defined.insert(g);
        Ok(())
    }

    /// The large groups (sorted) and the value of the small ones of `pos`, and whether
    /// every group with a move is large.
    fn sum_of_position(&mut self, pos: &Clobber) -> (Vec<Region>, GameId, bool) {
        let groups = sum_of(pos);
        let (mut big, value) = self.solver.fold(groups.clone(), ZERO);
        big.sort_unstable();
        let all_large = big.len() == groups.len();
        (big, value, all_large)
    }

    /// Whether `mover` wins the sum, proved afresh: the table of sums emptied first.
    fn fresh_wins(
        &mut self,
        big: &[Region],
        value: GameId,
        mover: Side,
    ) -> Result<bool, CertificateError> {
        self.solver.forget_sums();
        Ok(self.solver.wins(big.to_vec(), value, mover, self.stop)?)
    }

    /// Writes the records of `pos` (with `wins`, the claim, when the parent knows it)
    /// `depth` plies from the root: position by position above [`Writer::split`], as a
    /// piece of its own there (see [`Solver::write_certificate`]). Returns the record's id
    /// and the claim.
    fn prove_position(
        &mut self,
        pos: &Clobber,
        wins: Option<bool>,
        depth: u32,
    ) -> Result<(u64, bool), CertificateError> {
        let (big, value, all_large) = self.sum_of_position(pos);
        let mover = pos.side_to_move();
        let key = sum_key(&big, value, mover);
        for claim in [true, false] {
            if wins.is_none_or(|w| w == claim) {
                if let Some(&id) = self.ids.get(&(key, claim)) {
                    return Ok((id, claim));
                }
            }
        }
        // Moves in small groups are not the checker's moves (it plays the value's
        // canonical options): such a position is a piece.
        if depth >= self.split || !all_large || big.is_empty() {
            let proved = self.fresh_wins(&big, value, mover)?;
            if wins.is_some_and(|w| w != proved) {
                return Err(CertificateError::Inconsistent("a piece is not what its parent proved"));
            }
            return Ok((self.prove(&big, value, mover, proved)?, proved));
        }
        let other = mover.other();
        let mut moves = self.solver.ordered_moves(pos, None);
        let justification = match wins {
            Some(false) => {
                let mut ids = Vec::with_capacity(moves.len());
                for mv in moves {
                    let mut child = pos.clone();
                    child.make_move(mv);
                    ids.push(self.prove_position(&child, Some(true), depth + 1)?.0);
                }
                ids.sort_unstable();
                ids.dedup();
                (false, format!("all {}", joined(&ids)))
            }
            _ => {
                // The replies the book proves winning first.
                moves.sort_by_key(|&mv| {
                    let mut child = pos.clone();
                    child.make_move(mv);
                    crate::games::clobber::book::lookup(&child)
                        != Some(crate::games::clobber::book::BookResult::Loss)
                });
                let mut found = None;
                let mut answered = Vec::new();
                for mv in moves {
                    let mut child = pos.clone();
                    child.make_move(mv);
                    let (id, child_wins) = if depth + 1 >= self.split {
                        // A piece: proved afresh; its proof is in the table, so its
                        // records come at once.
                        let (cb, cv, _) = self.sum_of_position(&child);
                        let child_wins = self.fresh_wins(&cb, cv, other)?;
                        if child_wins && wins.is_some() {
                            // Not needed: the parent is known won, another move wins.
                            continue;
                        }
                        (self.prove(&cb, cv, other, child_wins)?, child_wins)
                    } else {
                        self.prove_position(&child, None, depth + 1)?
                    };
                    if child_wins {
                        answered.push(id);
                    } else {
                        found = Some(id);
                        break;
                    }
                }
                match found {
                    Some(c) => (true, format!("move {c}")),
                    None if wins == Some(true) => {
                        return Err(CertificateError::Inconsistent("a win with no move to a loss"))
                    }
                    None => {
                        answered.sort_unstable();
                        answered.dedup();
                        (false, format!("all {}", joined(&answered)))
                    }
                }
            }
        };
        let (claim, justification) = justification;
        self.define(value)?;
        let id = self.records;
        self.records += 1;
        let text = format!(
            "{id} {} {} {} {justification}",
            if claim { 'W' } else { 'L' },
            side_letter(mover),
            sum_text(&big, value)
        );
        self.line(&text)?;
        self.ids.insert((key, claim), id);
        Ok((id, claim))
    }

    /// Writes the record of the claim "`mover` wins (`wins`) or loses the sum of the
    /// large `groups` (sorted) and `value`" after the records it rests on; returns its id.
    fn prove(
        &mut self,
        groups: &[Region],
        value: GameId,
        mover: Side,
        wins: bool,
    ) -> Result<u64, CertificateError> {
        let key = sum_key(groups, value, mover);
        if let Some(&id) = self.ids.get(&(key, wins)) {
            return Ok(id);
        }
        let justification = self.justify(groups, value, mover, wins)?;
        self.define(value)?;
        let id = self.records;
        self.records += 1;
        let claim = if wins { 'W' } else { 'L' };
        let text = format!(
            "{id} {claim} {} {} {justification}",
            side_letter(mover),
            sum_text(groups, value)
        );
        self.line(&text)?;
        self.ids.insert((key, wins), id);
        Ok(id)
    }

    fn class(&mut self, g: Region) -> Result<Class, CertificateError> {
        Ok(self.solver.class(g, self.stop)?)
    }

    fn justify(
        &mut self,
        groups: &[Region],
        value: GameId,
        mover: Side,
        wins: bool,
    ) -> Result<String, CertificateError> {
        if groups.is_empty() {
            return if self.solver.value_wins(value, mover) == wins {
                Ok("value".to_string())
            } else {
                Err(CertificateError::Inconsistent("a value claimed with the wrong outcome"))
            };
        }
        if groups.len() > 1 {
            if let Some(justification) = self.simplify(groups, value, mover, wins)? {
                return Ok(justification);
            }
        }
        // A move: every child, as the solver sees it (moves in the large groups, then to
        // the options of the value).
        let other = mover.other();
        let mut moves = Vec::new();
        let mut parts = Vec::new();
        let mut children: Vec<(Vec<Region>, GameId)> = Vec::new();
        for (i, &g) in groups.iter().enumerate() {
            moves.clear();
            local_moves(g, mover, &mut moves);
            for &mv in &moves {
                parts.clear();
                play_local(g, mover, mv, &mut parts);
                let mut child = without(groups, &[i]);
                let child_value = self.solver.fold_into(&parts, value, &mut child);
                child.sort_unstable();
                children.push((child, child_value));
            }
        }
        let options = match mover {
            Side::First => self.solver.games.left_options(value).to_vec(),
            Side::Second => self.solver.games.right_options(value).to_vec(),
        };
        children.extend(options.into_iter().map(|o| (groups.to_vec(), o)));
        if wins {
            // A child the table already knows lost for the opponent (no new search),
            // the one with the fewest stones; else the first the solver proves lost.
            let stones = |c: &(Vec<Region>, GameId)| c.0.iter().map(|g| g.stones()).sum::<u32>();
            children.sort_by_key(stones);
            let known = children.iter().position(|(big, v)| {
                if big.is_empty() {
                    !self.solver.value_wins(*v, other)
                } else {
                    self.solver.table.get(&sum_key(big, *v, other)) == Some(&false)
                }
            });
            let found = match known {
                Some(i) => Some(i),
                None => {
                    let mut found = None;
                    for (i, (big, v)) in children.iter().enumerate() {
                        if !self.solver.wins(big.clone(), *v, other, self.stop)? {
                            found = Some(i);
                            break;
                        }
                    }
                    found
                }
            };
            let Some(i) = found else {
                return Err(CertificateError::Inconsistent("a win with no move to a loss"));
            };
            let (big, v) = children.swap_remove(i);
            let c = self.prove(&big, v, other, false)?;
            return Ok(format!("move {c}"));
        }
        let mut ids = Vec::with_capacity(children.len());
        for (big, v) in &children {
            ids.push(self.prove(big, *v, other, true)?);
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(format!("all {}", joined(&ids)))
    }

    /// The shortcuts of a sum of two or more large groups (as [`Solver::wins_sum`] takes
    /// them): a group and its negative, a group that is 0, groups all of one sign.
    fn simplify(
        &mut self,
        groups: &[Region],
        value: GameId,
        mover: Side,
        wins: bool,
    ) -> Result<Option<String>, CertificateError> {
        for i in 0..groups.len() {
            let neg = groups[i].negative();
            if let Some(j) = (0..groups.len()).find(|&j| j != i && groups[j] == neg) {
                let c = self.prove(&without(groups, &[i, j]), value, mover, wins)?;
                return Ok(Some(format!("cancel {c}")));
            }
        }
        for (i, &g) in groups.iter().enumerate() {
            if self.class(g)? == Class::P {
                let c = self.prove(&without(groups, &[i]), value, mover, wins)?;
                let p1 = self.prove(&[g], ZERO, Side::First, false)?;
                let p2 = self.prove(&[g], ZERO, Side::Second, false)?;
                return Ok(Some(format!("drop {c} {p1} {p2}")));
            }
        }
        let mut classes = Vec::with_capacity(groups.len());
        for &g in groups {
            classes.push(self.class(g)?);
        }
        for (class, owner, word) in [
            (Class::L, Side::First, "positive"),
            (Class::R, Side::Second, "negative"),
        ] {
            if classes.iter().all(|&c| c == class)
                && self.solver.value_signed(value, owner == Side::First)
            {
                if wins != (mover == owner) {
                    return Err(CertificateError::Inconsistent("a sum of one sign"));
                }
                let mut ids = Vec::new();
                for &g in groups {
                    ids.push(self.prove(&[g], ZERO, owner, true)?);
                    ids.push(self.prove(&[g], ZERO, owner.other(), false)?);
                }
                return Ok(Some(format!("{word} {}", joined(&ids))));
            }
        }
        Ok(None)
    }
}
