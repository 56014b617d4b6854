//! Tak notation: PTN moves, TPS positions, result codes and the text board.
//!
//! PTN (https://ustak.org/portable-tak-notation/, research/rules.md 1.3): a placement is
//! `[F|S|C]square` (`a1`, `Sa1`, `Cc3`); a spread is `[count]square direction [drops][*]`
//! with directions `+` (up a rank), `-`, `>` (up a file), `<`. Output is the shortest form
//! (Tiltak's): the count only when above 1, the drops only when the pieces cover more than
//! one square, no `*`. Input takes every valid form, and annotations (`'`, `''`, `"`,
//! `!`, `?` and their pairs) after the move.
//!
//! TPS (https://ustak.org/tak-positional-system-tps/, rules.md 1.2): rows from the top
//! separated by `/`, squares by `,`; `x` an empty square, `xK` K of them; a stack is its
//! colours bottom first (`1` White, `2` Black) with `S` or `C` when the top is a wall or
//! capstone; then the side to move (`1`, `2`) and the move number. Output compresses empty
//! squares; input takes both forms.

use super::{EndKind, Tak, TakMove, TakSettings, CAP, DIR_CHARS, FLAT, WALL};
use crate::game::{Game, MoveError, Outcome, PositionError, Side};

/// A hand-made 6x6 middle-game position (both sides have walls, a capstone and stacks),
/// used by `agon bench` and the perft tests.
pub const MIDGAME_6: &str =
    "2,x,1,1,2,x/x,1,2,21C,x,2/x,2,1S,12,1,x/1,x,2,2S,221,x/x,12C,1,x,2,1/2,1,x,1,x,2 1 16";

/// The name of a square: file letter then rank, `a1` lower left.
pub fn square_name(n: usize, sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % n) as u8) as char, sq / n + 1)
}

/// The shortest PTN of `mv` on a board `n` wide.
pub(super) fn format_move(n: usize, mv: TakMove) -> String {
    let square = square_name(n, mv.square());
    if mv.is_place() {
        let prefix = match mv.kind() {
            WALL => "S",
            CAP => "C",
            _ => "",
        };
        return format!("{prefix}{square}");
    }
    let mut out = String::new();
    let count = mv.count();
    if count > 1 {
        out.push_str(&count.to_string());
    }
    out.push_str(&square);
    out.push(DIR_CHARS[mv.dir()]);
    let drops = mv.drops();
    if drops.len() > 1 {
        for d in drops {
            out.push_str(&d.to_string());
        }
    }
    out
}

/// A move read from PTN, before checking it against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PtnMove {
    Place {
        file: usize,
        rank: usize,
        kind: u8,
    },
    Spread {
        file: usize,
        rank: usize,
        dir: usize,
        pattern: u8,
    },
}

/// Reads PTN move text (no position needed).
pub(super) fn read_ptn(text: &str) -> Result<PtnMove, MoveError> {
    let syntax = |reason: &str| MoveError::syntax(text, reason);
    let mut s = text.trim();
    // Annotations: Tak ', Tinue '' or ", and the !/? marks, in any combination at the end.
    s = s.trim_end_matches(['\'', '"', '!', '?']);
    let flatten_mark = s.ends_with('*');
    s = s.trim_end_matches('*');
    let b = s.as_bytes();
    if b.is_empty() {
        return Err(syntax(
            "empty move; expected PTN such as a1, Sa1, Cc3, c3> or 3c3>12",
        ));
    }
    let mut i = 0;
    let mut count = None;
    if b[0].is_ascii_digit() {
        count = Some(u32::from(b[0] - b'0'));
        i = 1;
    }
    let mut kind = None;
    if b.len() > i + 1 && b"FSCfsc".contains(&b[i]) && b[i + 1].is_ascii_alphabetic() {
        kind = Some(match b[i].to_ascii_uppercase() {
            b'S' => WALL,
            b'C' => CAP,
            _ => FLAT,
        });
        i += 1;
    }
    let file = match b.get(i) {
        Some(c) if (b'a'..=b'h').contains(&c.to_ascii_lowercase()) => {
            usize::from(c.to_ascii_lowercase() - b'a')
        }
        _ => {
            return Err(syntax(
                "expected a square: a file letter a-h then a rank 1-8",
            ))
        }
    };
    let rank = match b.get(i + 1) {
        Some(c) if (b'1'..=b'8').contains(c) => usize::from(c - b'1'),
        _ => {
            return Err(syntax(
                "expected a square: a file letter a-h then a rank 1-8",
            ))
        }
    };
    i += 2;
    if i == b.len() {
        if count.is_some() {
            return Err(syntax("a piece count needs a direction (+, -, < or >)"));
        }
        if flatten_mark {
            return Err(syntax(
                "'*' marks a capstone flattening a wall; a placement flattens nothing",
            ));
        }
        return Ok(PtnMove::Place {
            file,
            rank,
            kind: kind.unwrap_or(FLAT),
        });
    }
    if kind.is_some() {
        return Err(syntax(
            "a piece letter (F, S, C) belongs to placements, not to stack moves",
        ));
    }
    let dir = match DIR_CHARS.iter().position(|&c| c as u8 == b[i]) {
        Some(d) => d,
        None => {
            return Err(syntax(
                "after the square expected a direction: + (up), - (down), > (right), < (left)",
            ))
        }
    };
    i += 1;
    let count = count.unwrap_or(1);
    if count == 0 {
        return Err(syntax("a stack move carries at least one piece"));
    }
    let digits = &b[i..];
    if digits.iter().any(|c| !(b'1'..=b'8').contains(c)) {
        return Err(syntax(
            "drops are digits 1-8, one per square, after the direction",
        ));
    }
    let drops: Vec<u32> = if digits.is_empty() {
        vec![count]
    } else {
        digits.iter().map(|c| u32::from(c - b'0')).collect()
    };
    let total: u32 = drops.iter().sum();
    if total != count {
        return Err(syntax(&format!(
            "the drops add up to {total} but {count} piece(s) are carried"
        )));
    }
    if count > 8 {
        return Err(syntax("no board allows carrying more than 8 pieces"));
    }
    let mut pattern = 0u8;
    let mut at = 0;
    for d in drops {
        at += d;
        pattern |= 1 << (at - 1);
    }
    Ok(PtnMove::Spread {
        file,
        rank,
        dir,
        pattern,
    })
}

pub(super) fn parse_move(pos: &Tak, text: &str) -> Result<TakMove, MoveError> {
    let n = pos.size();
    let (file, rank, mv) = match read_ptn(text)? {
        PtnMove::Place { file, rank, kind } => (file, rank, TakMove::place(rank * n + file, kind)),
        PtnMove::Spread {
            file,
            rank,
            dir,
            pattern,
        } => (file, rank, TakMove::spread(rank * n + file, dir, pattern)),
    };
    if file >= n || rank >= n {
        return Err(MoveError::illegal(
            text,
            format!(
                "{}{} is off the {n}x{n} board (a1-{}{n})",
                (b'a' + file as u8) as char,
                rank + 1,
                (b'a' + n as u8 - 1) as char
            ),
        ));
    }
    if let Some(reason) = pos.illegal_reason(mv) {
        return Err(MoveError::illegal(text, reason));
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if moves.contains(&mv) {
        Ok(mv)
    } else {
        Err(MoveError::illegal(
            text,
            "not a legal move in this position",
        ))
    }
}

/// The PTN result code of an ending: `R-0`, `0-R` (road), `F-0`, `0-F` (flats), `1/2-1/2`.
pub fn result_code(outcome: Outcome, kind: EndKind) -> &'static str {
    match (outcome, kind) {
        (Outcome::Win(Side::First), EndKind::Road) => "R-0",
        (Outcome::Win(Side::Second), EndKind::Road) => "0-R",
        (Outcome::Win(Side::First), _) => "F-0",
        (Outcome::Win(Side::Second), _) => "0-F",
        (Outcome::Draw, _) => "1/2-1/2",
    }
}

/// Reads a TPS string for `settings` (whose size must match the TPS's); `startpos` is the
/// standard start.
pub(super) fn parse_position(settings: TakSettings, text: &str) -> Result<Tak, PositionError> {
    let trimmed = text.trim();
    if trimmed == "startpos" {
        return Ok(Tak::start(&settings));
    }
    let err = |reason: String| PositionError::new(text, reason);
    let fields: Vec<&str> = trimmed.split_whitespace().collect();
    if fields.len() != 3 {
        return Err(err(format!(
            "TPS has three fields, the board, the side to move and the move number (like x5/x5/x5/x5/x5 1 1); found {}",
            fields.len()
        )));
    }
    let n = settings.size;
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != n {
        return Err(err(format!(
            "the board has {} rows but the game is {n}x{n}",
            rows.len()
        )));
    }
    let mut pos = Tak::empty(settings);
    for (r, row) in rows.iter().enumerate() {
        let rank = n - r;
        let mut col = 0;
        for cell in row.split(',') {
            let cell = cell.trim();
            let bytes = cell.as_bytes();
            if bytes.first() == Some(&b'x') {
                let k = if bytes.len() == 1 {
                    1
                } else {
                    cell[1..]
                        .parse::<usize>()
                        .ok()
                        .filter(|&k| k >= 1)
                        .ok_or_else(|| {
                            err(format!(
                                "rank {rank}: '{cell}' is not x or x followed by a count"
                            ))
                        })?
                };
                col += k;
                if col > n {
                    return Err(err(format!("rank {rank} has more than {n} squares")));
                }
                continue;
            }
            if col >= n {
                return Err(err(format!("rank {rank} has more than {n} squares")));
            }
            let (body, kind) = match bytes.last() {
                Some(b'S') => (&bytes[..bytes.len() - 1], WALL),
                Some(b'C') => (&bytes[..bytes.len() - 1], CAP),
                _ => (bytes, FLAT),
            };
            if body.is_empty() || body.iter().any(|c| *c != b'1' && *c != b'2') {
                return Err(err(format!(
                    "rank {rank}: '{cell}' is no square (x, xK, or a stack of 1s and 2s with S or C on top)"
                )));
            }
            if body.len() > 128 {
                return Err(err(format!(
                    "rank {rank}: a stack of {} pieces",
                    body.len()
                )));
            }
            let mut colours = 0u128;
            for (level, c) in body.iter().enumerate() {
                if *c == b'2' {
                    colours |= 1 << level;
                }
            }
            pos.put_stack((rank - 1) * n + col, colours, body.len() as u8, kind);
            col += 1;
        }
        if col != n {
            return Err(err(format!("rank {rank} has {col} squares, not {n}")));
        }
    }
    pos.to_move = match fields[1] {
        "1" => Side::First,
        "2" => Side::Second,
        other => return Err(err(format!("side to move '{other}' is neither 1 nor 2"))),
    };
    let movenum: u32 = fields[2]
        .parse()
        .ok()
        .filter(|&m| (1..=100_000).contains(&m))
        .ok_or_else(|| {
            err(format!(
                "move number '{}' is not a number from 1",
                fields[2]
            ))
        })?;
    pos.ply = 2 * (movenum - 1) + pos.to_move.index() as u32;
    pos.finish_setup().map_err(err)?;
    Ok(pos)
}

/// The TPS of a position, empty squares compressed.
pub(super) fn format_tps(pos: &Tak) -> String {
    let n = pos.size();
    let mut rows = Vec::with_capacity(n);
    for rank in (0..n).rev() {
        let mut cells: Vec<String> = Vec::with_capacity(n);
        let mut empties = 0;
        for file in 0..n {
            let sq = rank * n + file;
            if pos.height(sq) == 0 {
                empties += 1;
                continue;
            }
            if empties > 0 {
                cells.push(empty_run(empties));
                empties = 0;
            }
            cells.push(stack_text(pos, sq));
        }
        if empties > 0 {
            cells.push(empty_run(empties));
        }
        rows.push(cells.join(","));
    }
    format!(
        "{} {} {}",
        rows.join("/"),
        pos.side_to_move().index() + 1,
        pos.ply() / 2 + 1
    )
}

fn empty_run(k: usize) -> String {
    if k == 1 {
        "x".to_string()
    } else {
        format!("x{k}")
    }
}

/// A stack as TPS writes it: colours bottom first, then `S` or `C` for the top's kind.
pub fn stack_text(pos: &Tak, sq: usize) -> String {
    let mut s: String = (0..pos.height(sq))
        .map(|l| {
            if pos.colour_at(sq, l) == Side::First {
                '1'
            } else {
                '2'
            }
        })
        .collect();
    match pos.top(sq) {
        Some((_, WALL)) => s.push('S'),
        Some((_, CAP)) => s.push('C'),
        _ => {}
    }
    s
}

/// A position file: a TPS line, or a PTN file's `[TPS "..."]` tag; the board size is the
/// TPS's.
pub(super) fn read_position_file(
    settings: TakSettings,
    text: &str,
) -> Result<(TakSettings, String), PositionError> {
    let mut tps = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(tag) = line.strip_prefix("[TPS") {
            tps = Some(
                tag.trim()
                    .trim_end_matches(']')
                    .trim()
                    .trim_matches('"')
                    .to_string(),
            );
            break;
        }
        if line.starts_with('[') {
            continue;
        }
        tps = Some(line.to_string());
        break;
    }
    let tps = tps.ok_or_else(|| PositionError::new(text, "no TPS line or [TPS] tag found"))?;
    let rows = tps
        .split_whitespace()
        .next()
        .unwrap_or("")
        .split('/')
        .count();
    if !(3..=8).contains(&rows) {
        return Err(PositionError::new(
            &tps,
            format!("the board has {rows} rows; Tak is played on 3x3 to 8x8"),
        ));
    }
    let mut sized = settings;
    sized.size = rows;
    if sized.line && rows != 4 {
        return Err(PositionError::new(
            &tps,
            format!("the line variant is played on 4x4, this board is {rows}x{rows}"),
        ));
    }
    Ok((sized, tps))
}

/// The text board: every square's stack as TPS writes it (colours bottom first, `S`/`C`
/// for the top's kind), `.` for an empty square, then both players' reserves.
pub(super) fn render(pos: &Tak) -> Vec<String> {
    let n = pos.size();
    let texts: Vec<String> = (0..n * n)
        .map(|sq| {
            let t = stack_text(pos, sq);
            if t.is_empty() {
                ".".to_string()
            } else if t.len() > 10 {
                format!("..{}", &t[t.len() - 8..])
            } else {
                t
            }
        })
        .collect();
    let width = texts.iter().map(String::len).max().unwrap_or(1);
    let mut lines = Vec::with_capacity(n + 2);
    for rank in (0..n).rev() {
        let mut line = format!("{} ", rank + 1);
        for file in 0..n {
            line.push_str(&format!(" {:>width$}", texts[rank * n + file]));
        }
        lines.push(line);
    }
    let mut footer = "  ".to_string();
    for file in 0..n {
        footer.push_str(&format!(" {:>width$}", (b'a' + file as u8) as char));
    }
    lines.push(footer);
    let reserve = |side: Side| {
        let (stones, caps) = pos.reserves(side);
        format!("{} {stones} stones {caps} caps", Tak::side_name(side))
    };
    lines.push(format!(
        "reserves: {}, {}; 1 = white, 2 = black, S wall, C capstone",
        reserve(Side::First),
        reserve(Side::Second)
    ));
    lines
}
