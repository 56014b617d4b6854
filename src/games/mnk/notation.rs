//! m,n,k notation. A square is its column letter and row number (`b2`; `a1` is the
//! bottom-left). A position is its rows from the top down, separated by `/`, with `x`
//! and `o` for stones and a number for a run of empty squares, then the side to move:
//! `x1o/3/3 o`. On input `.` also stands for one empty square.

use super::{Mnk, MnkMove, MnkSettings};
use crate::game::{Game, MoveError, Outcome, PositionError, Side};

/// The name of square `cell` on a board `m` wide.
pub fn square_name(m: usize, cell: usize) -> String {
    let (row, col) = (cell / m, cell % m);
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Parses a square name on a board of the given size.
fn parse_square(settings: MnkSettings, text: &str) -> Result<usize, MoveError> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
        return Err(MoveError::syntax(
            text,
            "expected a column letter and a row number, like b2",
        ));
    }
    let col = (bytes[0] - b'a') as usize;
    let row: usize = text[1..]
        .parse()
        .map_err(|_| MoveError::syntax(text, "the row must be a number, like b2"))?;
    if col >= settings.m || row == 0 || row > settings.n {
        return Err(MoveError::illegal(
            text,
            format!(
                "no such square on a board {} wide and {} high",
                settings.m, settings.n
            ),
        ));
    }
    Ok((row - 1) * settings.m + col)
}

pub(super) fn parse_move(pos: &Mnk, text: &str) -> Result<MnkMove, MoveError> {
    let cell = parse_square(pos.settings, text)?;
    if let Some(outcome) = pos.outcome {
        let why = match outcome {
            Outcome::Draw => "the game is over (draw)".to_string(),
            Outcome::Win(side) => format!("the game is over ({} won)", Mnk::side_name(side)),
        };
        return Err(MoveError::illegal(text, why));
    }
    if pos.cells[cell] != 0 {
        return Err(MoveError::illegal(text, "the square is occupied"));
    }
    Ok(MnkMove(cell as u16))
}

pub(super) fn format_position(pos: &Mnk) -> String {
    let (m, n) = (pos.settings.m, pos.settings.n);
    let mut out = String::new();
    for row in (0..n).rev() {
        let mut empties = 0;
        for col in 0..m {
            match pos.stone(row * m + col) {
                None => empties += 1,
                Some(side) => {
                    if empties > 0 {
                        out.push_str(&empties.to_string());
                        empties = 0;
                    }
                    out.push_str(Mnk::side_name(side));
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
    out.push_str(Mnk::side_name(pos.to_move));
    out
}

pub(super) fn parse_position(settings: MnkSettings, text: &str) -> Result<Mnk, PositionError> {
    let err = |reason: String| PositionError::new(text, reason);
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 2 {
        return Err(err(format!(
            "expected 2 fields (board and side to move), found {}",
            fields.len()
        )));
    }
    let (m, n) = (settings.m, settings.n);
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != n {
        return Err(err(format!(
            "the board has {} rows, this game has n={n}",
            rows.len()
        )));
    }
    let mut pos = Mnk::empty(settings);
    for (i, row_text) in rows.iter().enumerate() {
        let row = n - 1 - i;
        let mut col = 0;
        let mut chars = row_text.chars().peekable();
        while let Some(c) = chars.next() {
            let stone = match c {
                'x' | 'X' => Some(Side::First),
                'o' | 'O' => Some(Side::Second),
                '.' => None,
                '1'..='9' => {
                    let mut run = c.to_digit(10).unwrap() as usize;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                        run = run * 10 + d as usize;
                        chars.next();
                        if run > m {
                            break;
                        }
                    }
                    col += run;
                    if col > m {
                        return Err(err(format!("row {} is longer than m={m}", row + 1)));
                    }
                    continue;
                }
                other => {
                    return Err(err(format!(
                        "unexpected '{other}' in row {} (use x, o, . or a number of empty squares)",
                        row + 1
                    )))
                }
            };
            if col >= m {
                return Err(err(format!("row {} is longer than m={m}", row + 1)));
            }
            if let Some(side) = stone {
                pos.cells[row * m + col] = Mnk::code(side);
                pos.filled += 1;
            }
            col += 1;
        }
        if col != m {
            return Err(err(format!(
                "row {} has {col} squares, this game has m={m}",
                row + 1
            )));
        }
    }
    pos.to_move = match fields[1] {
        "x" | "X" => Side::First,
        "o" | "O" => Side::Second,
        other => return Err(err(format!("side to move '{other}' is not x or o"))),
    };
    let count = |code: u8| pos.cells.iter().filter(|&&c| c == code).count();
    let (xs, os) = (count(1), count(2));
    let expected_to_move = if xs == os {
        Side::First
    } else if xs == os + 1 {
        Side::Second
    } else {
        return Err(err(format!(
            "{xs} x stones and {os} o stones cannot happen (x moves first, turns alternate)"
        )));
    };
    if pos.to_move != expected_to_move {
        return Err(err(format!(
            "with {xs} x and {os} o stones it is {}'s turn",
            Mnk::side_name(expected_to_move)
        )));
    }
    pos.recompute_windows();
    let lines = pos.lines_on_board();
    pos.outcome = match lines {
        [true, true] => return Err(err("both sides have a line".to_string())),
        [true, false] if pos.to_move == Side::First => {
            return Err(err("x has a line but o moved last".to_string()))
        }
        [false, true] if pos.to_move == Side::Second => {
            return Err(err("o has a line but x moved last".to_string()))
        }
        [true, false] => Some(Outcome::Win(Side::First)),
        [false, true] => Some(Outcome::Win(Side::Second)),
        [false, false] if pos.filled == pos.cells.len() => Some(Outcome::Draw),
        [false, false] => None,
    };
    pos.rehash();
    Ok(pos)
}

pub(super) fn render(pos: &Mnk) -> Vec<String> {
    let (m, n) = (pos.settings.m, pos.settings.n);
    let width = n.to_string().len();
    let mut lines = Vec::with_capacity(n + 1);
    for row in (0..n).rev() {
        let mut line = format!("{:>width$} ", row + 1);
        for col in 0..m {
            line.push(' ');
            line.push(match pos.stone(row * m + col) {
                Some(Side::First) => 'X',
                Some(Side::Second) => 'O',
                None => '.',
            });
        }
        lines.push(line);
    }
    let mut footer = " ".repeat(width + 1);
    for col in 0..m {
        footer.push(' ');
        footer.push((b'a' + col as u8) as char);
    }
    lines.push(footer);
    lines
}
