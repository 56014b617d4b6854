//! An independent checker of Clobber certificates (`agon solve --certificate`), and the
//! certificates of every small board whose value is published, checked.
//!
//! The checker shares no code with the solver: it reads each group from the text, plays
//! moves on its own grids, cuts groups apart by its own flood fill, and compares sums in
//! its own normal form (each group cropped, in the least of its eight orientations as
//! text, the groups sorted). It accepts a claim only by the rules of Clobber and three
//! facts of combinatorial game theory (Siegel, *Combinatorial Game Theory*, AMS 2013,
//! II.1): a game that the player to move loses whoever starts is 0 and leaves a sum's
//! outcome unchanged; G + (-G) = 0; a sum of positive games is positive.

use std::collections::{HashMap, HashSet};
use std::process::Command;

/// A group: rows of squares, 0 empty, 1 White (w, Left), 2 Black (b).
type Grid = Vec<Vec<u8>>;

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
    Ok(grid)
}

fn parse_sum(text: &str) -> Result<Vec<Grid>, String> {
    if text == "0" {
        return Ok(Vec::new());
    }
    text.split('+').map(parse_group).collect()
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
        let text = format!("{th}x{tw}:{}", text_of(&out));
        if best.as_ref().is_none_or(|b| text < *b) {
            best = Some(text);
        }
    }
    best.unwrap()
}

/// A sum's normal form: its live groups, each in its least orientation, sorted.
fn normal(groups: &[Grid]) -> Vec<String> {
    let mut out: Vec<String> = groups
        .iter()
        .flat_map(components)
        .map(|g| orient(&g))
        .collect();
    out.sort();
    out
}

fn swap_colours(g: &Grid) -> Grid {
    g.iter()
        .map(|row| row.iter().map(|&s| [0, 2, 1][s as usize]).collect())
        .collect()
}

/// The normal forms of the sums after each move of `mover` (1 or 2) in `groups`.
fn children(groups: &[Grid], mover: u8) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let (h, w) = (g.len(), g[0].len());
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
                        let mut sum: Vec<Grid> = groups.to_vec();
                        sum[i] = moved;
                        out.push(normal(&sum));
                    }
                }
            }
        }
    }
    out
}

struct Record {
    wins: bool,
    mover: u8,
    groups: Vec<Grid>,
    kind: String,
    refs: Vec<usize>,
}

struct Checker {
    records: HashMap<usize, Record>,
    /// 1: being checked (a cycle if met again), 2: checked.
    state: HashMap<usize, u8>,
}

impl Checker {
    fn read(text: &str) -> Result<(Checker, usize), String> {
        let mut records = HashMap::new();
        let mut root = None;
        for (n, line) in text.lines().enumerate() {
            let bad = |why: &str| format!("line {}: {why}: {line}", n + 1);
            let words: Vec<&str> = line.split(' ').collect();
            if let ["root", id] = words.as_slice() {
                root = Some(id.parse().map_err(|_| bad("bad root"))?);
                continue;
            }
            if words.len() < 5 {
                return Err(bad("too few words"));
            }
            let id: usize = words[0].parse().map_err(|_| bad("bad id"))?;
            let wins = match words[1] {
                "W" => true,
                "L" => false,
                _ => return Err(bad("claim is not W or L")),
            };
            let mover = match words[2] {
                "w" => 1,
                "b" => 2,
                _ => return Err(bad("side is not w or b")),
            };
            let groups = parse_sum(words[3]).map_err(|e| bad(&e))?;
            let refs = words[5..]
                .iter()
                .map(|w| w.parse().map_err(|_| bad("bad reference")))
                .collect::<Result<_, _>>()?;
            let record = Record {
                wins,
                mover,
                groups,
                kind: words[4].to_string(),
                refs,
            };
            if records.insert(id, record).is_some() {
                return Err(bad("id used twice"));
            }
        }
        let root = root.ok_or("no root line")?;
        let checker = Checker {
            records,
            state: HashMap::new(),
        };
        Ok((checker, root))
    }

    fn get(&self, id: usize) -> Result<&Record, String> {
        self.records.get(&id).ok_or(format!("record {id} missing"))
    }

    /// Requires record `id` to claim `wins` for `mover` on the sum `sum` (normal form).
    fn expect(&self, id: usize, wins: bool, mover: u8, sum: &[String]) -> Result<(), String> {
        let r = self.get(id)?;
        if r.wins != wins || r.mover != mover || normal(&r.groups) != sum {
            return Err(format!("record {id} is not the claim needed"));
        }
        Ok(())
    }

    /// Checks record `id` and every record it rests on.
    fn check(&mut self, id: usize) -> Result<(), String> {
        match self.state.get(&id) {
            Some(2) => return Ok(()),
            Some(_) => return Err(format!("record {id} rests on itself")),
            None => {}
        }
        self.state.insert(id, 1);
        let r = self.get(id)?;
        let (wins, mover, kind, refs) = (r.wins, r.mover, r.kind.clone(), r.refs.clone());
        let groups = r.groups.clone();
        let sum = normal(&groups);
        let other = 3 - mover;
        let fail = |why: &str| Err(format!("record {id} ({kind}): {why}"));
        match (kind.as_str(), refs.as_slice()) {
            ("end", []) => {
                if wins || !children(&groups, mover).is_empty() {
                    return fail("not a position without moves lost");
                }
            }
            ("move", &[c]) => {
                let child = self.get(c)?;
                let target = normal(&child.groups);
                if !wins || !children(&groups, mover).contains(&target) {
                    return fail("no such move");
                }
                self.expect(c, false, other, &target)?;
            }
            ("all", cs) => {
                if wins {
                    return fail("'all' claims a loss");
                }
                let mut covered = HashSet::new();
                for &c in cs {
                    let child = self.get(c)?;
                    if !child.wins || child.mover != other {
                        return fail("a child is not a win for the opponent");
                    }
                    covered.insert(normal(&child.groups));
                }
                for child in children(&groups, mover) {
                    if !covered.contains(&child) {
                        return fail("a move is not answered");
                    }
                }
            }
            ("cancel", &[c]) => {
                let rest = normal(&self.get(c)?.groups);
                let extra = difference(&sum, &rest).ok_or("cancel: not a part of the sum")?;
                let ok = extra.len() == 2 && {
                    let a = self.group_of(&groups, &extra[0]);
                    a.is_some_and(|a| normal(&[swap_colours(&a)]) == vec![extra[1].clone()])
                };
                if !ok {
                    return fail("the groups left out are not a group and its negative");
                }
                self.expect(c, wins, mover, &rest)?;
            }
            ("drop", &[c, p1, p2]) => {
                let rest = normal(&self.get(c)?.groups);
                let extra = difference(&sum, &rest).ok_or("drop: not a part of the sum")?;
                if extra.len() != 1 {
                    return fail("drops more than one group");
                }
                self.expect(p1, false, 1, &extra)?;
                self.expect(p2, false, 2, &extra)?;
                self.expect(c, wins, mover, &rest)?;
            }
            ("positive" | "negative", ids) => {
                let owner = if kind == "positive" { 1 } else { 2 };
                if wins != (mover == owner) {
                    return fail("the claim is not the owner's");
                }
                if ids.len() != 2 * sum.len() {
                    return fail("not two claims per group");
                }
                let mut proved = Vec::new();
                for pair in ids.chunks(2) {
                    let g = normal(&self.get(pair[0])?.groups);
                    if g.len() != 1 {
                        return fail("a claim is not about one group");
                    }
                    self.expect(pair[0], true, owner, &g)?;
                    self.expect(pair[1], false, 3 - owner, &g)?;
                    proved.push(g[0].clone());
                }
                proved.sort();
                if proved != sum {
                    return fail("the claims are not about the sum's groups");
                }
            }
            _ => return fail("unknown justification"),
        }
        for c in refs {
            self.check(c)?;
        }
        self.state.insert(id, 2);
        Ok(())
    }

    /// The group of `groups` whose normal form is `form`.
    fn group_of(&self, groups: &[Grid], form: &str) -> Option<Grid> {
        groups
            .iter()
            .flat_map(components)
            .find(|g| orient(g) == form)
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

/// Checks a certificate of the start of a `rows` x `cols` board: the root claims the
/// start with White to move, and every record it rests on holds. Returns the root's claim.
fn check_certificate(text: &str, rows: usize, cols: usize) -> Result<bool, String> {
    let (mut checker, root) = Checker::read(text)?;
    let start: Grid = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| if (r + c) % 2 == 0 { 1 } else { 2 })
                .collect()
        })
        .collect();
    let r = checker.get(root)?;
    if r.mover != 1 || normal(&r.groups) != normal(&[start]) {
        return Err("the root is not the start with White to move".into());
    }
    let wins = r.wins;
    // Deep chains of records: checked on a thread with a large stack.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, || checker.check(root))
            .unwrap()
            .join()
            .unwrap()
    })?;
    Ok(wins)
}

fn certificate_of(rows: usize, cols: usize) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cert.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "--game",
            &format!("clobber rows={rows} cols={cols}"),
            "solve",
        ])
        .arg("--certificate")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    (
        std::fs::read_to_string(&path).unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// Every board of J.P. Grossman's table (TCS 313 (2004), App. A) up to 20 stones, and the
/// MCGS table's 2x9 to 2x12 (ualberta-mueller-group/MCGS, docs/MCGS-results.html): the
/// certificate written, checked, and its value the published one. N: the first player
/// (White here) wins; P: the second.
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

/// The checker is not a rubber stamp: a certificate with one claim turned, one move
/// changed, one answer left out, a cycle, or a false cancellation is refused.
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
    // A winning move pointed at another record of the right kind but another sum.
    let moved = broken(&|l| {
        let words: Vec<&str> = l.split(' ').collect();
        (words.get(4) == Some(&"move")).then(|| {
            let mut w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
            // The root: the start, never a child of any record.
            w[5] = root_id.to_string();
            w.join(" ")
        })
    });
    assert!(!moved.is_empty());
    for t in &moved {
        assert!(check_certificate(t, 3, 4).is_err());
    }
    // A cycle: a record resting on itself.
    let cyclic = broken(&|l| {
        let words: Vec<&str> = l.split(' ').collect();
        (words.get(4) == Some(&"move"))
            .then(|| format!("{} move {}", words[..4].join(" "), words[0]))
    });
    assert!(cyclic.iter().all(|t| check_certificate(t, 3, 4).is_err()));
    // A 'cancel' of a group with itself (not its negative), hand-made: wwb is {0|*} (up),
    // and up plus up is positive, a win for White moving first, not the loss claimed.
    let fake = "0 L w 0 end\n1 L w wwb+wwb cancel 0\nroot 1\n";
    assert!(Checker::read(fake).unwrap().0.check(1).is_err());
    // The true cancellation of wwb with bbw (its negative) passes; so does wb with wb
    // (wb is *, its own negative: the same group turned).
    let true_one = "0 L w 0 end\n1 L w wwb+bbw cancel 0\nroot 1\n";
    assert!(Checker::read(true_one).unwrap().0.check(1).is_ok());
    let star = "0 L w 0 end\n1 L w wb+wb cancel 0\nroot 1\n";
    assert!(Checker::read(star).unwrap().0.check(1).is_ok());
}

/// The larger published boards' certificates (4x6: 1.2M records, 68 MB; 5x5: 0.9M; 3x8:
/// 0.6M): minutes, so kept out of the test command (docs/longer-checks.md).
#[test]
#[ignore = "minutes: run with --ignored (docs/longer-checks.md)"]
fn certificates_of_larger_published_boards_check() {
    for (rows, cols, first_wins) in [(3, 8, false), (5, 5, false), (4, 6, false)] {
        let (text, _) = certificate_of(rows, cols);
        let wins =
            check_certificate(&text, rows, cols).unwrap_or_else(|e| panic!("{rows}x{cols}: {e}"));
        assert_eq!(wins, first_wins, "{rows}x{cols}");
    }
}
