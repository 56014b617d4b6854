//! An independent checker of Clobber certificates (`agon solve --certificate`), and the
//! certificates of every small board whose value is published, checked.
//!
//! The checker shares no code with the solver: it reads each group from the text, plays
//! moves on its own grids, cuts groups apart by its own flood fill, computes the canonical
//! values of small groups with its own arithmetic of games, and compares sums in its own
//! normal form (each large group cropped, in the least of its eight orientations as text,
//! the groups sorted, beside the canonical value of the small groups and named games). It
//! accepts a claim only by the rules of Clobber and these facts of combinatorial game
//! theory (Siegel, *Combinatorial Game Theory*, AMS 2013, ch. II): equal games may replace
//! each other in a sum; the canonical form (no dominated option, no reversible one) is
//! unique; a game that the player to move loses whoever starts is 0; G + (-G) = 0; a sum
//! of positive games is positive. Every record may rest only on the records before it, so
//! the file is checked line by line as it is read.

use std::collections::{HashMap, HashSet};
use std::io::BufRead;
use std::process::Command;

/// A group: rows of squares, 0 empty, 1 White (w, Left), 2 Black (b).
type Grid = Vec<Vec<u8>>;

/// A game in the checker's table.
type Id = u32;

const ZERO: Id = 0;

/// Short games, each form interned once: `{ left | right }` with the options sorted.
struct Games {
    forms: Vec<(Vec<Id>, Vec<Id>)>,
    index: HashMap<(Vec<Id>, Vec<Id>), Id>,
    le_memo: HashMap<(Id, Id), bool>,
    canon_memo: HashMap<Id, Id>,
    sum_memo: HashMap<(Id, Id), Id>,
}

impl Games {
    fn new() -> Games {
        let mut g = Games {
            forms: Vec::new(),
            index: HashMap::new(),
            le_memo: HashMap::new(),
            canon_memo: HashMap::new(),
            sum_memo: HashMap::new(),
        };
        let zero = g.form(Vec::new(), Vec::new());
        assert_eq!(zero, ZERO);
        g.canon_memo.insert(ZERO, ZERO);
        g
    }

    fn form(&mut self, mut left: Vec<Id>, mut right: Vec<Id>) -> Id {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        let key = (left, right);
        if let Some(&id) = self.index.get(&key) {
            return id;
        }
        let id = self.forms.len() as Id;
        self.forms.push(key.clone());
        self.index.insert(key, id);
        id
    }

    /// `g <= h`: no Left option of `g` at least `h`, no Right option of `h` at most `g`.
    fn le(&mut self, g: Id, h: Id) -> bool {
        if g == h {
            return true;
        }
        if let Some(&known) = self.le_memo.get(&(g, h)) {
            return known;
        }
        let gl = self.forms[g as usize].0.clone();
        let hr = self.forms[h as usize].1.clone();
        let result = !gl.iter().any(|&x| self.le(h, x)) && !hr.iter().any(|&x| self.le(x, g));
        self.le_memo.insert((g, h), result);
        result
    }

    /// The canonical form of `{ left | right }`, whose options are canonical: dominated
    /// options removed and reversible ones bypassed until neither is left.
    fn canonical(&mut self, mut left: Vec<Id>, mut right: Vec<Id>) -> Id {
        loop {
            left.sort_unstable();
            left.dedup();
            right.sort_unstable();
            right.dedup();
            // Dominated: a Left option at most another; a Right option at least another.
            let l = left.clone();
            left.retain(|&a| !l.iter().any(|&b| b != a && self.le(a, b)));
            let r = right.clone();
            right.retain(|&a| !r.iter().any(|&b| b != a && self.le(b, a)));
            let g = self.form(left.clone(), right.clone());
            // Reversible: a Left option with a Right option at most g is replaced by that
            // option's Left options; the same turned for Right.
            let mut changed = false;
            for i in 0..left.len() {
                let a = left[i];
                let ar = self.forms[a as usize].1.clone();
                if let Some(&x) = ar.iter().find(|&&x| self.le(x, g)) {
                    left.swap_remove(i);
                    left.extend(self.forms[x as usize].0.clone());
                    changed = true;
                    break;
                }
            }
            if !changed {
                for i in 0..right.len() {
                    let a = right[i];
                    let al = self.forms[a as usize].0.clone();
                    if let Some(&x) = al.iter().find(|&&x| self.le(g, x)) {
                        right.swap_remove(i);
                        right.extend(self.forms[x as usize].1.clone());
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                self.canon_memo.insert(g, g);
                return g;
            }
        }
    }

    /// The canonical form of `g + h` (both canonical).
    fn add(&mut self, g: Id, h: Id) -> Id {
        if g == ZERO {
            return h;
        }
        if h == ZERO {
            return g;
        }
        let key = (g.min(h), g.max(h));
        if let Some(&s) = self.sum_memo.get(&key) {
            return s;
        }
        let (gl, gr) = self.forms[g as usize].clone();
        let (hl, hr) = self.forms[h as usize].clone();
        let mut left = Vec::new();
        let mut right = Vec::new();
        for x in gl {
            left.push(self.add(x, h));
        }
        for x in hl {
            left.push(self.add(g, x));
        }
        for x in gr {
            right.push(self.add(x, h));
        }
        for x in hr {
            right.push(self.add(g, x));
        }
        let s = self.canonical(left, right);
        self.sum_memo.insert(key, s);
        s
    }

    /// Whether `mover` (1 Left, 2 Right) moving first wins `g`: Left loses moving first
    /// exactly when g <= 0, Right when g >= 0.
    fn first_wins(&mut self, g: Id, mover: u8) -> bool {
        if mover == 1 {
            !self.le(g, ZERO)
        } else {
            !self.le(ZERO, g)
        }
    }

    /// The options of `mover` in `g`.
    fn options(&self, g: Id, mover: u8) -> Vec<Id> {
        let (l, r) = &self.forms[g as usize];
        if mover == 1 {
            l.clone()
        } else {
            r.clone()
        }
    }
}

fn parse_group(text: &str) -> Result<Grid, String> {
    let grid: Grid = text
        .split('/')
        .map(|row| {
            row.chars()
                .map(|c| match c {
                    '.' => Ok(0),
                    'w' => Ok(1),
                    'b' => Ok(2),
                    other => Err(format!("bad square '{other}' in group '{text}'")),
                })
                .collect()
        })
        .collect::<Result<_, _>>()?;
    let width = grid[0].len();
    if width == 0 || grid.iter().any(|r| r.len() != width) {
        return Err(format!("ragged group '{text}'"));
    }
    if grid.len() * width > 64 {
        return Err(format!("group '{text}' over 64 squares"));
    }
    Ok(grid)
}

/// The connected groups of stones of `grid` (orthogonal neighbours), each cropped to its
/// bounding box; groups where no two stones of opposite colours touch are left out (no
/// move in them, ever: their value is 0).
fn components(grid: &Grid) -> Vec<Grid> {
    let (h, w) = (grid.len(), grid[0].len());
    let mut seen = vec![vec![false; w]; h];
    let mut out = Vec::new();
    for r0 in 0..h {
        for c0 in 0..w {
            if grid[r0][c0] == 0 || seen[r0][c0] {
                continue;
            }
            let mut cells = vec![(r0, c0)];
            seen[r0][c0] = true;
            let mut i = 0;
            while i < cells.len() {
                let (r, c) = cells[i];
                i += 1;
                for (nr, nc) in neighbours(r, c, h, w) {
                    if grid[nr][nc] != 0 && !seen[nr][nc] {
                        seen[nr][nc] = true;
                        cells.push((nr, nc));
                    }
                }
            }
            let live = cells.iter().any(|&(r, c)| {
                neighbours(r, c, h, w)
                    .into_iter()
                    .any(|(nr, nc)| grid[nr][nc] != 0 && grid[nr][nc] != grid[r][c])
            });
            if !live {
                continue;
            }
            let (rmin, rmax) = (
                cells.iter().map(|p| p.0).min().unwrap(),
                cells.iter().map(|p| p.0).max().unwrap(),
            );
            let (cmin, cmax) = (
                cells.iter().map(|p| p.1).min().unwrap(),
                cells.iter().map(|p| p.1).max().unwrap(),
            );
            let mut g = vec![vec![0u8; cmax - cmin + 1]; rmax - rmin + 1];
            for &(r, c) in &cells {
                g[r - rmin][c - cmin] = grid[r][c];
            }
            out.push(g);
        }
    }
    out
}

fn neighbours(r: usize, c: usize, h: usize, w: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::with_capacity(4);
    if r > 0 {
        v.push((r - 1, c));
    }
    if r + 1 < h {
        v.push((r + 1, c));
    }
    if c > 0 {
        v.push((r, c - 1));
    }
    if c + 1 < w {
        v.push((r, c + 1));
    }
    v
}

fn text_of(g: &Grid) -> String {
    g.iter()
        .map(|row| {
            row.iter()
                .map(|&s| ['.', 'w', 'b'][s as usize])
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The least text of the eight orientations of a cropped group.
fn orient(g: &Grid) -> String {
    let (h, w) = (g.len(), g[0].len());
    let mut best: Option<String> = None;
    for t in 0..8 {
        let (th, tw) = if t >= 4 { (w, h) } else { (h, w) };
        let mut out = vec![vec![0u8; tw]; th];
        for (r, row) in g.iter().enumerate() {
            for (c, &s) in row.iter().enumerate() {
                let (mut rr, mut cc) = if t >= 4 { (c, r) } else { (r, c) };
                if t & 1 != 0 {
                    rr = th - 1 - rr;
                }
                if t & 2 != 0 {
                    cc = tw - 1 - cc;
                }
                out[rr][cc] = s;
            }
        }
        let text = text_of(&out);
        if best.as_ref().is_none_or(|b| text < *b) {
            best = Some(text);
        }
    }
    best.unwrap()
}

fn stones(g: &Grid) -> usize {
    g.iter().flatten().filter(|&&s| s != 0).count()
}

fn swap_colours(g: &Grid) -> Grid {
    g.iter()
        .map(|row| row.iter().map(|&s| [0, 2, 1][s as usize]).collect())
        .collect()
}

/// The grids after each move of `mover` (1 or 2) in `g`.
fn moves_in(g: &Grid, mover: u8) -> Vec<Grid> {
    let (h, w) = (g.len(), g[0].len());
    let mut out = Vec::new();
    for r in 0..h {
        for c in 0..w {
            if g[r][c] != mover {
                continue;
            }
            for (nr, nc) in neighbours(r, c, h, w) {
                if g[nr][nc] == 3 - mover {
                    let mut moved = g.clone();
                    moved[nr][nc] = mover;
                    moved[r][c] = 0;
                    out.push(moved);
                }
            }
        }
    }
    out
}

/// A sum in normal form: the large groups (least orientations, sorted) and the
/// canonical value of everything else.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Normal {
    big: Vec<String>,
    value: Id,
}

struct Record {
    wins: bool,
    mover: u8,
    sum: Normal,
}

struct Checker {
    games: Games,
    /// Groups of at most this many stones count by their value.
    small: usize,
    /// Canonical value of each small group met (by its least orientation).
    values: HashMap<String, Id>,
    /// The certificate's games by number, as canonical games of the checker.
    named: HashMap<u64, Id>,
    records: Vec<Record>,
}

impl Checker {
    fn new(small: usize) -> Checker {
        Checker {
            games: Games::new(),
            small,
            values: HashMap::new(),
            named: HashMap::new(),
            records: Vec::new(),
        }
    }

    /// The canonical value of a live group, computed from its moves.
    fn value_of(&mut self, g: &Grid) -> Id {
        let key = orient(g);
        if let Some(&v) = self.values.get(&key) {
            return v;
        }
        let mut options = [Vec::new(), Vec::new()];
        for mover in [1u8, 2] {
            for moved in moves_in(g, mover) {
                let mut v = ZERO;
                for part in components(&moved) {
                    let pv = self.value_of(&part);
                    v = self.games.add(v, pv);
                }
                options[mover as usize - 1].push(v);
            }
        }
        let [l, r] = options;
        let v = self.games.canonical(l, r);
        self.values.insert(key, v);
        v
    }

    /// The normal form of the sum of `groups` (any grids) and the game `value`.
    fn normal(&mut self, groups: &[Grid], mut value: Id) -> Normal {
        let mut big = Vec::new();
        for g in groups {
            for part in components(g) {
                if stones(&part) <= self.small {
                    let v = self.value_of(&part);
                    value = self.games.add(value, v);
                } else {
                    big.push(orient(&part));
                }
            }
        }
        big.sort();
        Normal { big, value }
    }

    /// The normal forms after each move of `mover` in `sum`.
    fn children(&mut self, sum: &Normal, mover: u8) -> Result<Vec<Normal>, String> {
        let grids: Vec<Grid> = sum
            .big
            .iter()
            .map(|t| parse_group(t))
            .collect::<Result<_, _>>()?;
        let mut out = Vec::new();
        for (i, g) in grids.iter().enumerate() {
            for moved in moves_in(g, mover) {
                let mut rest = grids.clone();
                rest[i] = moved;
                out.push(self.normal(&rest, sum.value));
            }
        }
        for option in self.games.options(sum.value, mover) {
            out.push(Normal {
                big: sum.big.clone(),
                value: option,
            });
        }
        Ok(out)
    }

    fn parse_sum(&mut self, text: &str) -> Result<Normal, String> {
        let mut groups = Vec::new();
        let mut value = ZERO;
        if text != "0" {
            for term in text.split('+') {
                if let Some(n) = term.strip_prefix('g') {
                    let n: u64 = n.parse().map_err(|_| format!("bad game '{term}'"))?;
                    let g = *self
                        .named
                        .get(&n)
                        .ok_or(format!("game {n} not defined before"))?;
                    value = self.games.add(value, g);
                } else {
                    groups.push(parse_group(term)?);
                }
            }
        }
        Ok(self.normal(&groups, value))
    }

    fn define(&mut self, words: &[&str]) -> Result<(), String> {
        let [_, n, options] = words else {
            return Err("a game line is 'g <n> <left>|<right>'".into());
        };
        let n: u64 = n.parse().map_err(|_| "bad game number".to_string())?;
        let (l, r) = options.split_once('|').ok_or("no '|' in the game")?;
        let mut sides = [Vec::new(), Vec::new()];
        for (side, list) in [l, r].into_iter().enumerate() {
            for o in list.split(',').filter(|o| !o.is_empty()) {
                let o: u64 = o.parse().map_err(|_| format!("bad option '{o}'"))?;
                let g = *self
                    .named
                    .get(&o)
                    .ok_or(format!("option {o} not defined before"))?;
                sides[side].push(g);
            }
        }
        let [l, r] = sides;
        let g = self.games.canonical(l, r);
        if self.named.insert(n, g).is_some() {
            return Err(format!("game {n} defined twice"));
        }
        Ok(())
    }

    fn get(&self, id: usize) -> Result<&Record, String> {
        self.records
            .get(id)
            .ok_or(format!("record {id} is not an earlier record"))
    }

    /// Requires record `id` to claim `wins` for `mover` on `sum`.
    fn expect(&self, id: usize, wins: bool, mover: u8, sum: &Normal) -> Result<(), String> {
        let r = self.get(id)?;
        if r.wins != wins || r.mover != mover || r.sum != *sum {
            return Err(format!("record {id} is not the claim needed"));
        }
        Ok(())
    }

    /// Checks a record whose claim is `wins` for `mover` on `sum` by its justification.
    fn check(
        &mut self,
        wins: bool,
        mover: u8,
        sum: &Normal,
        kind: &str,
        refs: &[usize],
    ) -> Result<(), String> {
        let other = 3 - mover;
        match (kind, refs) {
            ("value", []) => {
                if !sum.big.is_empty() {
                    return Err("'value' of a sum with a large group".into());
                }
                if self.games.first_wins(sum.value, mover) != wins {
                    return Err("the value's outcome is not the claim".into());
                }
            }
            ("move", &[c]) => {
                if !wins {
                    return Err("'move' claims a win".into());
                }
                let target = self.get(c)?.sum.clone();
                self.expect(c, false, other, &target)?;
                if !self.children(sum, mover)?.contains(&target) {
                    return Err("no move leads to that sum".into());
                }
            }
            ("all", cs) => {
                if wins {
                    return Err("'all' claims a loss".into());
                }
                let mut covered = HashSet::new();
                for &c in cs {
                    let child = self.get(c)?;
                    if !child.wins || child.mover != other {
                        return Err(format!("record {c} is not a win for the opponent"));
                    }
                    covered.insert(child.sum.clone());
                }
                for child in self.children(sum, mover)? {
                    if !covered.contains(&child) {
                        return Err("a move is not answered".into());
                    }
                }
            }
            ("cancel", &[c]) => {
                let rest = self.get(c)?.sum.clone();
                let extra = difference(&sum.big, &rest.big).ok_or("not a part of the sum")?;
                let ok = rest.value == sum.value
                    && extra.len() == 2
                    && orient(&swap_colours(&parse_group(&extra[0])?)) == extra[1];
                if !ok {
                    return Err("the groups left out are not a group and its negative".into());
                }
                self.expect(c, wins, mover, &rest)?;
            }
            ("drop", &[c, p1, p2]) => {
                let rest = self.get(c)?.sum.clone();
                let extra = difference(&sum.big, &rest.big).ok_or("not a part of the sum")?;
                if extra.len() != 1 || rest.value != sum.value {
                    return Err("not the sum less one group".into());
                }
                let alone = self.normal(&[parse_group(&extra[0])?], ZERO);
                self.expect(p1, false, 1, &alone)?;
                self.expect(p2, false, 2, &alone)?;
                self.expect(c, wins, mover, &rest)?;
            }
            ("positive" | "negative", ids) => {
                let owner = if kind == "positive" { 1 } else { 2 };
                if wins != (mover == owner) {
                    return Err("the claim is not the owner's".into());
                }
                if sum.big.is_empty() || ids.len() != 2 * sum.big.len() {
                    return Err("not two claims per large group".into());
                }
                let signed = if owner == 1 {
                    self.games.le(ZERO, sum.value)
                } else {
                    self.games.le(sum.value, ZERO)
                };
                if !signed {
                    return Err("the value of the small terms has not the sign".into());
                }
                let mut proved = Vec::new();
                for pair in ids.chunks(2) {
                    let g = self.get(pair[0])?.sum.clone();
                    if g.big.len() != 1 || g.value != ZERO {
                        return Err("a claim is not about one group".into());
                    }
                    self.expect(pair[0], true, owner, &g)?;
                    self.expect(pair[1], false, 3 - owner, &g)?;
                    proved.push(g.big[0].clone());
                }
                proved.sort();
                if proved != sum.big {
                    return Err("the claims are not about the sum's groups".into());
                }
            }
            _ => return Err("unknown justification".into()),
        }
        Ok(())
    }

    /// Reads and checks one record line.
    fn record(&mut self, words: &[&str]) -> Result<(), String> {
        if words.len() < 5 {
            return Err("too few words".into());
        }
        let id: usize = words[0].parse().map_err(|_| "bad id".to_string())?;
        if id != self.records.len() {
            return Err(format!("record {id} out of order"));
        }
        let wins = match words[1] {
            "W" => true,
            "L" => false,
            _ => return Err("claim is not W or L".into()),
        };
        let mover = match words[2] {
            "w" => 1,
            "b" => 2,
            _ => return Err("side is not w or b".into()),
        };
        let sum = self.parse_sum(words[3])?;
        let refs: Vec<usize> = words[5..]
            .iter()
            .map(|w| w.parse().map_err(|_| format!("bad reference '{w}'")))
            .collect::<Result<_, _>>()?;
        self.check(wins, mover, &sum, words[4], &refs)?;
        self.records.push(Record { wins, mover, sum });
        Ok(())
    }
}

/// `whole` less `part` as multisets, when `part` is in `whole`.
fn difference(whole: &[String], part: &[String]) -> Option<Vec<String>> {
    let mut rest = whole.to_vec();
    for p in part {
        let i = rest.iter().position(|x| x == p)?;
        rest.remove(i);
    }
    Some(rest)
}

/// Checks a certificate (its lines) of the start of a `rows` x `cols` board: the root
/// claims the start with White to move, and every record holds. Returns the root's claim.
/// The start of a `rows` x `cols` board: White on the corner square, White to move.
fn start_of(rows: usize, cols: usize) -> (Grid, u8) {
    let grid = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| if (r + c) % 2 == 0 { 1 } else { 2 })
                .collect()
        })
        .collect();
    (grid, 1)
}

/// A position in agon's notation (`bw1b/w.bw w`: rows separated by `/`, `w`, `b`, `.` or
/// a count of empty squares, then the side to move), read by the checker's own code.
fn grid_of(text: &str) -> Result<(Grid, u8), String> {
    let bad = || format!("not a Clobber position: {text:?}");
    let (board, side) = text.trim().split_once(' ').ok_or_else(bad)?;
    let mover = match side {
        "w" => 1,
        "b" => 2,
        _ => return Err(bad()),
    };
    let mut grid: Grid = Vec::new();
    for row in board.split('/') {
        let mut cells = Vec::new();
        for c in row.chars() {
            match c {
                'w' => cells.push(1),
                'b' => cells.push(2),
                '.' => cells.push(0),
                '1'..='9' => cells.extend(std::iter::repeat_n(0, c as usize - '0' as usize)),
                _ => return Err(bad()),
            }
        }
        if grid.first().is_some_and(|first| first.len() != cells.len()) {
            return Err(bad());
        }
        grid.push(cells);
    }
    Ok((grid, mover))
}

/// Checks a certificate read line by line; where `root` is given, the certificate's root
/// must be that grid with that side to move. Returns whether the side to move wins.
fn check_lines(
    lines: impl Iterator<Item = std::io::Result<String>>,
    root_position: Option<(Grid, u8)>,
) -> Result<bool, String> {
    let mut checker: Option<Checker> = None;
    let mut root = None;
    for (n, line) in lines.enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", n + 1))?;
        let bad = |why: String| format!("line {}: {why}: {line}", n + 1);
        let words: Vec<&str> = line.split(' ').collect();
        match (&mut checker, words.as_slice()) {
            (None, ["small", s]) => {
                checker = Some(Checker::new(s.parse().map_err(|_| bad("bad size".into()))?));
            }
            (None, _) => return Err(bad("the first line is not 'small <S>'".into())),
            (Some(_), _) if root.is_some() => return Err(bad("a line after the root".into())),
            (Some(c), ["root", id]) => {
                let id: usize = id.parse().map_err(|_| bad("bad root".into()))?;
                root = Some(c.get(id).map_err(bad)?.wins);
                if let Some((grid, mover)) = &root_position {
                    let start = c.normal(std::slice::from_ref(grid), ZERO);
                    if c.records[id].mover != *mover || c.records[id].sum != start {
                        return Err(bad("the root is not the position expected".into()));
                    }
                }
            }
            (Some(c), ["g", ..]) => c.define(&words).map_err(bad)?,
            (Some(c), _) => c.record(&words).map_err(bad)?,
        }
    }
    root.ok_or_else(|| "no root line".to_string())
}

fn check_certificate(text: &str, rows: usize, cols: usize) -> Result<bool, String> {
    check_lines(
        text.lines().map(|l| Ok(l.to_string())),
        Some(start_of(rows, cols)),
    )
}

/// The value of one group text by the checker's arithmetic, described.
fn describe(games: &Games, g: Id) -> String {
    if g == ZERO {
        return "0".into();
    }
    let (l, r) = &games.forms[g as usize];
    let side = |v: &[Id]| {
        v.iter()
            .map(|&x| describe(games, x))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("{{{}|{}}}", side(l), side(r))
}

fn certificate_of(rows: usize, cols: usize) -> (String, String) {
    certificate_with(rows, cols, &[])
}

/// The certificate and output of `agon solve` on a `rows` x `cols` board, with `extra`
/// arguments (a `--position`).
fn certificate_with(rows: usize, cols: usize, extra: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cert.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "--game",
            &format!("clobber rows={rows} cols={cols}"),
            "solve",
        ])
        .args(extra)
        .arg("--certificate")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{extra:?}: {out:?}");
    (
        std::fs::read_to_string(&path).unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// A grid and side to move in agon's notation, written by the checker's own code.
fn position_text(grid: &Grid, mover: u8) -> String {
    format!("{} {}", text_of(grid), if mover == 1 { 'w' } else { 'b' })
}

/// Certificates of positions, not only of starts (`agon solve --position P
/// --certificate F`), checked against the published values of 2x10 (N; MCGS 2026) and 3x6
/// (P; Grossman 2004): after every first move of White, Black to move, the certificate
/// checks with that position as its root; on 3x6 Black wins after every one, on 2x10
/// after at least one Black loses (the first found ends the board). A certificate checked against another position is refused.
#[test]
fn certificates_of_positions_check_against_published_values() {
    for (rows, cols, first_wins) in [(2, 10, true), (3, 6, false)] {
        let (start, _) = start_of(rows, cols);
        let mut black_loses = 0;
        let mut texts = Vec::new();
        for moved in moves_in(&start, 1) {
            let position = position_text(&moved, 2);
            let (text, _) = certificate_with(rows, cols, &["--position", &position]);
            let lines = || text.lines().map(|l| Ok(l.to_string()));
            let wins = check_lines(lines(), Some(grid_of(&position).unwrap()))
                .unwrap_or_else(|e| panic!("{position}: {e}"));
            if !first_wins {
                assert!(wins, "{rows}x{cols} is P: Black wins after {position}");
            }
            black_loses += usize::from(!wins);
            // Checked against the start instead, the root is refused.
            let refused = check_lines(lines(), Some(start_of(rows, cols))).unwrap_err();
            assert!(refused.contains("the root is not"), "{refused}");
            texts.push(text);
            if first_wins && !wins {
                break; // one winning first move is enough
            }
        }
        assert!(
            texts.len() >= 2,
            "{rows}x{cols}: {} first moves",
            texts.len()
        );
        if first_wins {
            assert!(black_loses > 0, "{rows}x{cols} is N: a first move must win");
        }
    }
}

/// The checker's arithmetic against textbook facts (Siegel 2013, ch. II) and known
/// Clobber values (Albert, Grossman, Nowakowski, Wolfe, "An introduction to Clobber",
/// Integers 5 (2005)): `wb` is `*`, `wwb` is up `{0|*}`, `* + * = 0`, up + down = 0,
/// `{0,*|}` = 1 (a reversible option), up + up + `*` is positive, up + `*` is fuzzy,
/// `1/2 + 1/2 = 1`.
#[test]
fn the_checkers_arithmetic_knows_the_textbook() {
    let mut c = Checker::new(8);
    let star = c.value_of(&parse_group("wb").unwrap());
    assert_eq!(describe(&c.games, star), "{0|0}");
    let up = c.value_of(&parse_group("wwb").unwrap());
    assert_eq!(describe(&c.games, up), "{0|{0|0}}");
    let down = c.value_of(&parse_group("bbw").unwrap());
    let g = &mut c.games;
    assert_eq!(g.add(star, star), ZERO);
    assert_eq!(g.add(up, down), ZERO);
    let one = g.canonical(vec![ZERO], vec![]);
    assert_eq!(g.canonical(vec![ZERO, star], vec![]), one);
    let uu = g.add(up, up);
    let uus = g.add(uu, star);
    assert!(g.le(ZERO, uus) && !g.le(uus, ZERO));
    let us = g.add(up, star);
    assert!(g.first_wins(us, 1) && g.first_wins(us, 2));
    let half = g.canonical(vec![ZERO], vec![one]);
    assert_eq!(g.add(half, half), one);
}

/// Every board of J.P. Grossman's table (TCS 313 (2004), App. A) up to 20 stones, and the
/// MCGS table's 2x9 to 2x12 (ualberta-mueller-group/MCGS, docs/MCGS-results.html), and 4x6,
/// 5x5 and 3x8: the certificate written, checked, and its value the published one. N: the
/// first player (White here) wins; P: the second.
#[test]
fn certificates_of_published_boards_check() {
    let published = [
        (2, 2, 'N'),
        (2, 3, 'P'),
        (2, 4, 'N'),
        (2, 5, 'N'),
        (2, 6, 'P'),
        (2, 7, 'N'),
        (2, 8, 'N'),
        (2, 9, 'P'),
        (2, 10, 'N'),
        (3, 3, 'N'),
        (3, 4, 'P'),
        (3, 5, 'N'),
        (3, 6, 'P'),
        (4, 4, 'N'),
        (4, 5, 'N'),
    ];
    for (rows, cols, value) in published {
        let (text, report) = certificate_of(rows, cols);
        let wins =
            check_certificate(&text, rows, cols).unwrap_or_else(|e| panic!("{rows}x{cols}: {e}"));
        assert_eq!(wins, value == 'N', "{rows}x{cols}");
        assert!(report.contains("certificate: "), "{report}");
    }
}

/// Certificates written in pieces two plies deep (as `agon solve --certificate` writes
/// them for boards of 29 stones or more, 5x6), each piece proved with the solver's table
/// emptied: they check, with the published values, as the ones in one piece do.
#[test]
fn certificates_written_in_pieces_check() {
    use agon::game::Game;
    use agon::games::clobber::solve::Solver;
    use agon::games::clobber::{Clobber, ClobberSettings};
    for (rows, cols, first_wins) in [(3, 4, false), (4, 4, true), (3, 6, false), (4, 5, true)] {
        let pos = Clobber::start(&ClobberSettings::new(rows, cols).unwrap());
        let mut text = Vec::new();
        let stats = Solver::new()
            .write_certificate(
                &pos,
                2,
                &mut text,
                &std::sync::atomic::AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!(stats.side_to_move_wins, first_wins, "{rows}x{cols}");
        let text = String::from_utf8(text).unwrap();
        let wins =
            check_certificate(&text, rows, cols).unwrap_or_else(|e| panic!("{rows}x{cols}: {e}"));
        assert_eq!(wins, first_wins, "{rows}x{cols}");
    }
}

/// Checks `text` record by record, with no claim about a board (for hand-made ones).
fn check_text(text: &str) -> Result<(), String> {
    check_lines(text.lines().map(|l| Ok(l.to_string())), None).map(|_| ())
}

/// The checker is not a rubber stamp: a certificate with one claim turned, one move
/// changed, one answer left out, a record resting on itself or on a later one, a false
/// cancellation, a wrong value or a sign it has not is refused.
#[test]
fn checker_refuses_broken_certificates() {
    let (text, _) = certificate_of(3, 4);
    check_certificate(&text, 3, 4).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let broken = |f: &dyn Fn(&str) -> Option<String>| -> Vec<String> {
        (0..lines.len())
            .filter_map(|i| {
                f(lines[i]).map(|changed| {
                    let mut copy: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    copy[i] = changed;
                    copy.join("\n")
                })
            })
            .collect()
    };
    // The root's claim turned.
    let root_id = lines.last().unwrap().strip_prefix("root ").unwrap();
    let turned = broken(&|l| {
        let rest = l.strip_prefix(&format!("{root_id} "))?;
        Some(match rest.split_at(1) {
            ("W", tail) => format!("{root_id} L{tail}"),
            (_, tail) => format!("{root_id} W{tail}"),
        })
    });
    assert_eq!(turned.len(), 1);
    assert!(check_certificate(&turned[0], 3, 4).is_err());
    // An answer left out of each 'all' (the last reference dropped), one at a time.
    let short = broken(&|l| {
        let words: Vec<&str> = l.split(' ').collect();
        (words.get(4) == Some(&"all") && words.len() > 6)
            .then(|| words[..words.len() - 1].join(" "))
    });
    assert!(!short.is_empty());
    let refused = short
        .iter()
        .filter(|t| check_certificate(t, 3, 4).is_err())
        .count();
    // Dropping a reference that another reference covers (two moves to one sum) is no
    // fault; the rest must be refused.
    assert!(
        refused * 10 >= short.len() * 9,
        "{refused} of {}",
        short.len()
    );
    // A winning move pointed at another earlier record of the right kind but another sum.
    let losses: Vec<&str> = lines
        .iter()
        .filter(|l| l.split(' ').nth(1) == Some("L"))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    let moved = broken(&|l| {
        let words: Vec<&str> = l.split(' ').collect();
        (words.get(4) == Some(&"move")).then(|| {
            let mut w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
            let other = losses.iter().find(|&&id| id != words[5] && id < words[0])?;
            w[5] = other.to_string();
            Some(w.join(" "))
        })?
    });
    assert!(!moved.is_empty());
    let refused = moved
        .iter()
        .filter(|t| check_certificate(t, 3, 4).is_err())
        .count();
    assert!(
        refused * 10 >= moved.len() * 9,
        "{refused} of {}",
        moved.len()
    );
    // A record resting on itself (or on a later record).
    let cyclic = broken(&|l| {
        let words: Vec<&str> = l.split(' ').collect();
        (words.get(4) == Some(&"move"))
            .then(|| format!("{} move {}", words[..4].join(" "), words[0]))
    });
    assert!(!cyclic.is_empty());
    assert!(cyclic.iter().all(|t| check_certificate(t, 3, 4).is_err()));
    // Hand-made: wwb is up {0|*}; up plus up is positive, a win for White moving first.
    let zero = "small 0\n0 L w 0 value\n";
    assert!(check_text(&format!("{zero}1 L w wwb+wwb cancel 0\nroot 1")).is_err());
    assert!(check_text(&format!("{zero}1 L w wwb+bbw cancel 0\nroot 1")).is_ok());
    // wb is *, its own negative (the same group turned).
    assert!(check_text(&format!("{zero}1 L w wb+wb cancel 0\nroot 1")).is_ok());
    // Values: up + up is not lost by White moving first; up + down is.
    assert!(check_text("small 8\n0 L w wwb+wwb value\nroot 0").is_err());
    assert!(check_text("small 8\n0 W w wwb+wwb value\nroot 0").is_ok());
    assert!(check_text("small 8\n0 L w wwb+bbw value\nroot 0").is_ok());
    // A named game: g1 is *; White moves to 0 and wins; and * is not positive.
    let star = "small 8\ng 0 |\ng 1 0|0\n0 L b 0 value\n";
    assert!(check_text(&format!("{star}1 W w g1 move 0\nroot 1")).is_ok());
    assert!(check_text(&format!("{star}1 W w wb move 0\nroot 1")).is_ok());
    assert!(check_text(&format!("{star}1 L w g1 value\nroot 1")).is_err());
    assert!(
        check_text(&format!("{star}1 W w g2 value\nroot 1")).is_err(),
        "g2 undefined"
    );
    // wwwb (a row) is {0|up}, positive: White wins it moving first (to 0, two dead
    // stones) and Black loses it (to wwb, up). Two of them are positive; with a `*`
    // beside them the sum is not known positive by that rule, and is refused.
    let rows = "small 3\ng 0 |\ng 1 0|0\n0 L b 0 value\n1 W w wwwb move 0\n\
                2 W w wwb value\n3 L b wwwb all 2\n";
    assert!(check_text(&format!("{rows}4 W w wwwb+wwwb positive 1 3 1 3\nroot 4")).is_ok());
    assert!(check_text(&format!("{rows}4 W b wwwb+wwwb positive 1 3 1 3\nroot 4")).is_err());
    assert!(check_text(&format!(
        "{rows}4 W w wwwb+wwwb+g1 positive 1 3 1 3\nroot 4"
    ))
    .is_err());
    assert!(check_text(&format!(
        "{rows}4 W w wwwb+wwwb+wb positive 1 3 1 3\nroot 4"
    ))
    .is_err());
}

/// The larger published boards' certificates: 3x8, 5x5 and 4x6 (P), 3x9 and 4x7 (N);
/// minutes, so kept out of the test command (docs/longer-checks.md).
#[test]
#[ignore = "minutes: run with --ignored (docs/longer-checks.md)"]
fn certificates_of_larger_published_boards_check() {
    for (rows, cols, first_wins) in [(3, 8, false), (5, 5, false), (4, 6, false), (3, 9, true)] {
        let (text, _) = certificate_of(rows, cols);
        let wins =
            check_certificate(&text, rows, cols).unwrap_or_else(|e| panic!("{rows}x{cols}: {e}"));
        assert_eq!(wins, first_wins, "{rows}x{cols}");
    }
}

/// Checks the certificate file `AGON_CERTIFICATE` of the board `AGON_BOARD` (`5x6`), as
/// `agon solve --certificate` wrote it, reading it line by line; where the board's value
/// is published it must be that value (5x6: P, Grossman 2004 and MCGS 2026). For a
/// certificate of a position (`agon solve --position P --certificate F`), `AGON_POSITION`
/// names the position instead, and `AGON_VALUE` (`win` or `loss`, for the side to move)
/// the value it must have.
#[test]
#[ignore = "checks a file written beforehand: AGON_CERTIFICATE=5x6.cert AGON_BOARD=5x6"]
fn certificate_file_checks() {
    let path = std::env::var("AGON_CERTIFICATE").expect("AGON_CERTIFICATE names the file");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let started = std::time::Instant::now();
    if let Ok(position) = std::env::var("AGON_POSITION") {
        let root = grid_of(&position).unwrap_or_else(|e| panic!("AGON_POSITION: {e}"));
        let wins = check_lines(std::io::BufReader::new(file).lines(), Some(root))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let value = if wins { "win" } else { "loss" };
        println!(
            "{path}: {position} is a {value} for the side to move (checked in {:.0} s)",
            started.elapsed().as_secs_f64()
        );
        if let Ok(expected) = std::env::var("AGON_VALUE") {
            assert_eq!(value, expected, "{position}: not the value expected");
        }
        return;
    }
    let board = std::env::var("AGON_BOARD").expect("AGON_BOARD names the board, as 5x6");
    let (rows, cols) = board
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .expect("AGON_BOARD is <rows>x<cols>");
    let wins = check_lines(
        std::io::BufReader::new(file).lines(),
        Some(start_of(rows, cols)),
    )
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    println!(
        "{path}: {board} is {} (checked in {:.0} s)",
        if wins {
            "N, a first-player win"
        } else {
            "P, a second-player win"
        },
        started.elapsed().as_secs_f64()
    );
    let published = [
        ("5x6", false),
        ("4x7", true),
        ("3x10", false),
        ("4x6", false),
    ];
    if let Some(&(_, first_wins)) = published.iter().find(|(b, _)| *b == board) {
        assert_eq!(wins, first_wins, "{board}: not the published value");
    }
}
