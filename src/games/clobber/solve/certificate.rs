//! Certificates: a proof of a Clobber result that a program sharing no code with the
//! solver can check.
//!
//! A certificate is a text file of *records*, one per line, each a claim about a sum of
//! groups and its justification:
//!
//! ```text
//! <id> <W|L> <w|b> <sum> <justification>
//! ```
//!
//! - `W` or `L`: the side to move (`w`, White, Left, the first player; or `b`) wins or
//!   loses the sum when it moves first;
//! - `<sum>`: the groups, `+` between them (`0` for none), each as its rows from the
//!   first, `/` between rows, `w`, `b` and `.` for the squares;
//! - justifications, each naming other records by id:
//!   - `end`: the side to move has no move (a loss);
//!   - `move C`: a win, by a move to the sum of record `C`, a loss for the opponent;
//!   - `all C1 C2 ...`: a loss, every move leading to one of these records, each a win
//!     for the opponent;
//!   - `cancel C`: the sum is record `C`'s plus a group and its colour-swapped copy, whose
//!     sum is 0 (G + (-G) = 0), so the claim is `C`'s;
//!   - `drop C P1 P2`: the sum is `C`'s plus a group G that the side to move loses whoever
//!     moves first (records `P1`, White to move, and `P2`, Black to move): G = 0;
//!   - `positive G1 H1 G2 H2 ...`: every group is a win for White whoever moves first
//!     (for each group, `Gi` White to move wins it, `Hi` Black to move loses it), so the
//!     sum is too (a sum of positive games is positive); `negative ...` the same for
//!     Black.
//!
//! The first line is `root <id>`, the record of the position proved. The facts of
//! combinatorial game theory used are in Siegel, *Combinatorial Game Theory* (AMS 2013),
//! ch. II.1. The checker (`tests/clobber_certificate.rs`) reads the groups, plays the
//! moves and cuts the groups apart with its own code.
//!
//! The solver (with its values of small groups, which the certificate does not use) is
//! the oracle that picks the winning moves; the records go down to positions with no move.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use fxhash::FxHashMap;

use super::*;

/// What [`Solver::write_certificate`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertificateStats {
    /// Whether the side to move wins.
    pub side_to_move_wins: bool,
    /// Records written.
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
    records: u64,
    bytes: u64,
}

impl Solver {
    /// Proves `pos` and writes its certificate to `out` (see the module's notes).
    ///
    /// # Errors
    /// [`CertificateError`]: the solver stopped or ran out of memory, or writing failed.
    pub fn write_certificate(
        &mut self,
        pos: &Clobber,
        out: &mut dyn Write,
        stop: &AtomicBool,
    ) -> Result<CertificateStats, CertificateError> {
        if pos.settings_of().squares() > MAX_SOLVE_SQUARES {
            return Err(SolveError::TooLarge.into());
        }
        let mut groups = sum_of(pos);
        groups.sort_unstable();
        let mover = pos.side_to_move();
        let wins = self.sum_wins(&groups, mover, stop)?;
        let mut writer = Writer {
            solver: self,
            out,
            stop,
            ids: FxHashMap::default(),
            records: 0,
            bytes: 0,
        };
        let root = writer.prove(&groups, mover, wins)?;
        writer.line(&format!("root {root}"))?;
        Ok(CertificateStats {
            side_to_move_wins: wins,
            records: writer.records,
            bytes: writer.bytes,
        })
    }

    /// Whether `mover` wins the sum of `groups`.
    fn sum_wins(
        &mut self,
        groups: &[Region],
        mover: Side,
        stop: &AtomicBool,
    ) -> Result<bool, SolveError> {
        let (big, value) = self.fold(groups.to_vec(), ZERO);
        self.wins(big, value, mover, stop)
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

fn sum_text(groups: &[Region]) -> String {
    if groups.is_empty() {
        return "0".to_string();
    }
    groups.iter().map(|&g| group_text(g)).collect::<Vec<_>>().join("+")
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

impl Writer<'_> {
    fn line(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.bytes += text.len() as u64 + 1;
        Ok(())
    }

    /// Writes the record of the claim "`mover` wins (`wins`) or loses the sum of `groups`
    /// (sorted)" after the records it rests on; returns its id.
    fn prove(
        &mut self,
        groups: &[Region],
        mover: Side,
        wins: bool,
    ) -> Result<u64, CertificateError> {
        let key = sum_key(groups, ZERO, mover);
        if let Some(&id) = self.ids.get(&(key, wins)) {
            return Ok(id);
        }
        let justification = self.justify(groups, mover, wins)?;
        let id = self.records;
        self.records += 1;
        let claim = if wins { 'W' } else { 'L' };
        let text = format!(
            "{id} {claim} {} {} {justification}",
            side_letter(mover),
            sum_text(groups)
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
        mover: Side,
        wins: bool,
    ) -> Result<String, CertificateError> {
        if groups.is_empty() {
            return if wins {
                Err(CertificateError::Inconsistent("a win claimed where there is no move"))
            } else {
                Ok("end".to_string())
            };
        }
        if groups.len() > 1 {
            // A group and its negative.
            for i in 0..groups.len() {
                let neg = groups[i].negative();
                if let Some(j) = (0..groups.len()).find(|&j| j != i && groups[j] == neg) {
                    let c = self.prove(&without(groups, &[i, j]), mover, wins)?;
                    return Ok(format!("cancel {c}"));
                }
            }
            // A group that is 0.
            for (i, &g) in groups.iter().enumerate() {
                if self.class(g)? == Class::P {
                    let c = self.prove(&without(groups, &[i]), mover, wins)?;
                    let p1 = self.prove(&[g], Side::First, false)?;
                    let p2 = self.prove(&[g], Side::Second, false)?;
                    return Ok(format!("drop {c} {p1} {p2}"));
                }
            }
            // All positive, or all negative.
            let mut classes = Vec::with_capacity(groups.len());
            for &g in groups {
                classes.push(self.class(g)?);
            }
            for (class, owner, word) in [
                (Class::L, Side::First, "positive"),
                (Class::R, Side::Second, "negative"),
            ] {
                if classes.iter().all(|&c| c == class) {
                    if wins != (mover == owner) {
                        return Err(CertificateError::Inconsistent("a sum of one sign"));
                    }
                    let mut ids = Vec::new();
                    for &g in groups {
                        ids.push(self.prove(&[g], owner, true)?);
                        ids.push(self.prove(&[g], owner.other(), false)?);
                    }
                    let ids: Vec<String> = ids.iter().map(u64::to_string).collect();
                    return Ok(format!("{word} {}", ids.join(" ")));
                }
            }
        }
        // A move: every child, as the solver sees it.
        let other = mover.other();
        let mut moves = Vec::new();
        let mut parts = Vec::new();
        let mut children = Vec::new();
        for (i, &g) in groups.iter().enumerate() {
            moves.clear();
            local_moves(g, mover, &mut moves);
            for &mv in &moves {
                parts.clear();
                play_local(g, mover, mv, &mut parts);
                let mut child = without(groups, &[i]);
                child.extend_from_slice(&parts);
                child.sort_unstable();
                children.push(child);
            }
        }
        if wins {
            // The child with the fewest stones that the opponent loses.
            children.sort_by_key(|c| c.iter().map(|g| g.stones()).sum::<u32>());
            for child in &children {
                if !self.solver.sum_wins(child, other, self.stop)? {
                    let c = self.prove(child, other, false)?;
                    return Ok(format!("move {c}"));
                }
            }
            return Err(CertificateError::Inconsistent("a win with no move to a loss"));
        }
        let mut ids = Vec::with_capacity(children.len());
        for child in &children {
            ids.push(self.prove(child, other, true)?.to_string());
        }
        ids.dedup();
        Ok(format!("all {}", ids.join(" ")))
    }
}
