//! Halma notation. A square is its column letter and row number (`a1` is White's corner,
//! bottom left). A move is start and end square joined by `-` (`a1-c3`); on input the full
//! jump path (`a1-c3-e5`) is also accepted and every hop is checked. A position is its rows
//! from the top down separated by `/`, `w` and `b` for pieces, a number (or `.`) for empty
//! squares, then the side to move (`w` or `b`) and the plies played so far (optional on
//! input, 0 if left out): the 8x8 start is `4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4 w 0`.

use super::{has, Halma, HalmaMove, HalmaSettings, NONE};
use crate::game::{Game, MoveError, Outcome, PositionError, Side};

/// A 16x16 middle-game position (both sides half way across), used by `bench` and the
/// depth measurements.
pub(super) const MIDGAME_16: &str =
    "16/11b1b2/13b1b/15b/9bb1b3/16/11b4/10bbb3/12b3/4w3w2bb3/4w2w2wbbb2/1w5w1wwb4/4w2w1ww5/2w6ww5/w15/2ww12 w 60";

/// The name of square `sq` on an `n` x `n` board.
pub fn square_name(n: usize, sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % n) as u8) as char, sq / n + 1)
}

fn parse_square(n: usize, whole: &str, text: &str) -> Result<usize, MoveError> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
        return Err(MoveError::syntax(
            whole,
            format!("'{text}' is not a square (a column letter and a row number, like c3)"),
        ));
    }
    let col = (bytes[0] - b'a') as usize;
    let row: usize = text[1..].parse().map_err(|_| {
        MoveError::syntax(
            whole,
            format!("'{text}': the row must be a number, like c3"),
        )
    })?;
    if col >= n || row == 0 || row > n {
        return Err(MoveError::illegal(
            whole,
            format!("{text} is not on the {n}x{n} board"),
        ));
    }
    Ok((row - 1) * n + col)
}

pub(super) fn parse_move(pos: &Halma, text: &str) -> Result<HalmaMove, MoveError> {
    let n = pos.settings.size;
    let parts: Vec<&str> = text.trim().split('-').collect();
    if parts.len() < 2 {
        return Err(MoveError::syntax(
            text,
            "expected start and end square joined by '-', like a1-c3",
        ));
    }
    let squares = parts
        .iter()
        .map(|p| parse_square(n, text, p))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(outcome) = pos.outcome {
        let why = match outcome {
            Outcome::Draw => "the game is over (draw)".to_string(),
            Outcome::Win(side) => format!("the game is over ({} won)", Halma::side_name(side)),
        };
        return Err(MoveError::illegal(text, why));
    }
    let from = squares[0];
    let to = *squares.last().expect("two or more squares");
    match pos.piece(from) {
        Some(side) if side == pos.to_move => {}
        _ => {
            return Err(MoveError::illegal(
                text,
                format!("no {} piece on {}", Halma::side_name(pos.to_move), parts[0]),
            ))
        }
    }
    if squares.len() > 2 {
        // Check every hop of the path as a jump; the moving piece has left `from`.
        let geo = pos.geo;
        for (i, hop) in squares.windows(2).enumerate() {
            let (a, b) = (hop[0], hop[1]);
            let name = format!("{}-{}", parts[i], parts[i + 1]);
            let d = (0..8).find(|&d| geo.jump[a][d] != NONE && geo.jump[a][d] as usize == b);
            let Some(d) = d else {
                return Err(MoveError::illegal(
                    text,
                    format!("hop {name} is not a jump (two squares in a straight line)"),
                ));
            };
            let mid = geo.step[a][d] as usize;
            if pos.cells[mid] == 0 || mid == from {
                return Err(MoveError::illegal(
                    text,
                    format!(
                        "hop {name} jumps over the empty square {}",
                        square_name(n, mid)
                    ),
                ));
            }
            if pos.cells[b] != 0 && b != from {
                return Err(MoveError::illegal(
                    text,
                    format!("hop {name} lands on an occupied square"),
                ));
            }
        }
    }
    if from == to {
        return Err(MoveError::illegal(
            text,
            "a move that ends where it started is no move",
        ));
    }
    let dest = pos.destinations(from, pos.to_move);
    if !has(&dest, to) {
        let reason = if has(pos.target(pos.to_move), from) && !has(pos.target(pos.to_move), to) {
            "a piece in the opposing camp may not leave it".to_string()
        } else {
            format!(
                "the piece on {} cannot reach {}",
                parts[0],
                parts[parts.len() - 1]
            )
        };
        return Err(MoveError::illegal(text, reason));
    }
    Ok(HalmaMove {
        from: from as u8,
        to: to as u8,
    })
}

pub(super) fn format_position(pos: &Halma) -> String {
    let n = pos.settings.size;
    let mut out = String::new();
    for row in (0..n).rev() {
        let mut empties = 0;
        for col in 0..n {
            match pos.piece(row * n + col) {
                None => empties += 1,
                Some(side) => {
                    if empties > 0 {
                        out.push_str(&empties.to_string());
                        empties = 0;
                    }
                    out.push_str(Halma::side_name(side));
                }
            }
        }
        if empties > 0 {
            out.push_str(&empties.to_string());
        }
        if row > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push_str(Halma::side_name(pos.to_move));
    out.push(' ');
    out.push_str(&pos.ply.to_string());
    out
}

pub(super) fn parse_position(settings: HalmaSettings, text: &str) -> Result<Halma, PositionError> {
    let err = |reason: String| PositionError::new(text, reason);
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 2 && fields.len() != 3 {
        return Err(err(format!(
            "expected 2 or 3 fields (board, side to move, plies played), found {}",
            fields.len()
        )));
    }
    let n = settings.size;
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != n {
        return Err(err(format!(
            "the board has {} rows, this game has size={n}",
            rows.len()
        )));
    }
    let mut pos = Halma::empty(settings);
    for (i, row_text) in rows.iter().enumerate() {
        let row = n - 1 - i;
        let mut col = 0;
        let mut chars = row_text.chars().peekable();
        while let Some(c) = chars.next() {
            let piece = match c {
                'w' | 'W' => Some(Side::First),
                'b' | 'B' => Some(Side::Second),
                '.' => None,
                '1'..='9' => {
                    let mut run = c.to_digit(10).unwrap_or(0) as usize;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                        run = run * 10 + d as usize;
                        chars.next();
                        if run > n {
                            break;
                        }
                    }
                    col += run;
                    if col > n {
                        return Err(err(format!("row {} is longer than {n}", row + 1)));
                    }
                    continue;
                }
                other => {
                    return Err(err(format!(
                        "unexpected '{other}' in row {} (use w, b, . or a number of empty squares)",
                        row + 1
                    )))
                }
            };
            if col >= n {
                return Err(err(format!("row {} is longer than {n}", row + 1)));
            }
            if let Some(side) = piece {
                pos.put(row * n + col, side);
            }
            col += 1;
        }
        if col != n {
            return Err(err(format!(
                "row {} has {col} squares, the board has {n}",
                row + 1
            )));
        }
    }
    pos.to_move = match fields[1] {
        "w" | "W" => Side::First,
        "b" | "B" => Side::Second,
        other => return Err(err(format!("side to move '{other}' is not w or b"))),
    };
    if let Some(ply) = fields.get(2) {
        pos.ply = ply
            .parse()
            .map_err(|_| err(format!("plies played '{ply}' is not a number")))?;
    }
    let camp = pos.geo.camp_size;
    for side in Side::BOTH {
        let pieces = super::count(&pos.pieces[side.index()]);
        if pieces == 0 || pieces > camp {
            return Err(err(format!(
                "{} has {pieces} pieces (1 to {camp} on this board)",
                Halma::side_name(side)
            )));
        }
    }
    if pos.has_won(pos.to_move) && pos.has_won(pos.to_move.other()) {
        return Err(err("both sides hold the opposing camp".to_string()));
    }
    pos.hash = pos.hash_from_scratch();
    pos.push_history();
    pos.outcome = pos.compute_outcome(pos.to_move.other());
    Ok(pos)
}

pub(super) fn render(pos: &Halma) -> Vec<String> {
    let n = pos.settings.size;
    let width = n.to_string().len();
    let mut lines = Vec::with_capacity(n + 1);
    for row in (0..n).rev() {
        let mut line = format!("{:>width$} ", row + 1);
        for col in 0..n {
            let sq = row * n + col;
            line.push(' ');
            line.push(match pos.piece(sq) {
                Some(Side::First) => 'W',
                Some(Side::Second) => 'B',
                None if has(&pos.geo.camp[0], sq) || has(&pos.geo.camp[1], sq) => '+',
                None => '.',
            });
        }
        lines.push(line);
    }
    let mut footer = " ".repeat(width + 1);
    for col in 0..n {
        footer.push(' ');
        footer.push((b'a' + col as u8) as char);
    }
    lines.push(footer);
    lines
}
