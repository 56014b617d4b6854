//! Clobber notation: squares, moves, position strings, board files and the text board.
//! The formats are described in the module doc of `clobber`.

use super::{Clobber, ClobberMove, ClobberSettings};
use crate::game::{Game, MoveError, PositionError, Side};

/// The name of `square` (`row * cols + col`, row 0 at the bottom) on a board `cols` wide:
/// column letter then row number, `a1`, `f5`, `b10`.
pub fn square_name(cols: usize, square: usize) -> String {
    let (row, col) = (square / cols, square % cols);
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Reads a square name at the start of `bytes`: `(column, row number, bytes used)`.
/// The column is 0 for `a`; the row number is as written (1 at the bottom) and saturates
/// instead of overflowing.
fn take_square(bytes: &[u8]) -> Option<(usize, usize, usize)> {
    let letter = *bytes.first()?;
    if !letter.is_ascii_alphabetic() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let row = bytes[1..=digits].iter().fold(0usize, |acc, d| {
        acc.saturating_mul(10).saturating_add((d - b'0') as usize)
    });
    Some((
        (letter.to_ascii_lowercase() - b'a') as usize,
        row,
        1 + digits,
    ))
}

pub(super) fn parse_move(pos: &Clobber, text: &str) -> Result<ClobberMove, MoveError> {
    let syntax = || {
        MoveError::syntax(
            text,
            "expected two squares, the stone's and the captured one's, like a1-b1 (or a1b1)",
        )
    };
    let bytes = text.trim().as_bytes();
    let (c1, r1, used) = take_square(bytes).ok_or_else(syntax)?;
    let mut rest = &bytes[used..];
    if let Some(after_dash) = rest.strip_prefix(b"-") {
        rest = after_dash;
    }
    let (c2, r2, used) = take_square(rest).ok_or_else(syntax)?;
    if used != rest.len() {
        return Err(syntax());
    }
    let (rows, cols) = (pos.settings.rows(), pos.settings.cols());
    let name = |c: usize, r: usize| format!("{}{}", (b'a' + c as u8) as char, r);
    for (c, r) in [(c1, r1), (c2, r2)] {
        if c >= cols || r == 0 || r > rows {
            return Err(MoveError::illegal(
                text,
                format!(
                    "{} is off the board ({rows} rows, 1-{rows}; {cols} columns, a-{})",
                    name(c, r),
                    (b'a' + cols as u8 - 1) as char
                ),
            ));
        }
    }
    let (from_name, to_name) = (name(c1, r1), name(c2, r2));
    if !pos.has_moves() {
        let loser = pos.to_move;
        return Err(MoveError::illegal(
            text,
            format!(
                "the game is over: {} has no move, {} won",
                Clobber::side_name(loser),
                Clobber::side_name(loser.other())
            ),
        ));
    }
    if c1.abs_diff(c2) + r1.abs_diff(r2) != 1 {
        return Err(MoveError::illegal(
            text,
            format!(
                "{from_name} and {to_name} are not adjacent (a stone moves one square up, down, left or right)"
            ),
        ));
    }
    let from = (r1 - 1) * cols + c1;
    let to = (r2 - 1) * cols + c2;
    let me = pos.to_move;
    let mover = Clobber::side_name(me);
    match pos.stone(from) {
        Some(side) if side == me => {}
        Some(side) => {
            return Err(MoveError::illegal(
                text,
                format!(
                    "no stone of yours on {from_name}: it holds a {} stone and {mover} is to move",
                    Clobber::side_name(side)
                ),
            ))
        }
        None => {
            return Err(MoveError::illegal(
                text,
                format!("no stone of yours on {from_name}: it is empty ({mover} is to move)"),
            ))
        }
    }
    match pos.stone(to) {
        Some(side) if side != me => {}
        Some(_) => {
            return Err(MoveError::illegal(
                text,
                format!("{to_name} is not an opponent stone: it holds one of {mover}'s own"),
            ))
        }
        None => {
            return Err(MoveError::illegal(
                text,
                format!(
                "{to_name} is not an opponent stone: it is empty (stones only move by capturing)"
            ),
            ))
        }
    }
    Ok(ClobberMove {
        from: from as u8,
        to: to as u8,
    })
}

fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'w',
        Side::Second => 'b',
    }
}

pub(super) fn format_position(pos: &Clobber) -> String {
    let (rows, cols) = (pos.settings.rows(), pos.settings.cols());
    let mut out = String::new();
    for row in (0..rows).rev() {
        let mut empties = 0;
        for col in 0..cols {
            match pos.stone(row * cols + col) {
                None => empties += 1,
                Some(side) => {
                    if empties > 0 {
                        out.push_str(&empties.to_string());
                        empties = 0;
                    }
                    out.push(side_letter(side));
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
    out.push(side_letter(pos.to_move));
    out
}

/// One row of cells, left to right; `None` is an empty square.
type Row = Vec<Option<Side>>;

/// Reads the board field of a position string into rows (top row first), any size.
/// `label(i)` names the i-th row from the top in messages.
fn parse_board_field(board: &str, label: &dyn Fn(usize) -> String) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, row_text) in board.split('/').enumerate() {
        let mut row = Row::new();
        let mut chars = row_text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                'w' | 'W' => row.push(Some(Side::First)),
                'b' | 'B' => row.push(Some(Side::Second)),
                '.' => row.push(None),
                '0'..='9' => {
                    let mut run = c as usize - '0' as usize;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                        run = run.saturating_mul(10).saturating_add(d as usize);
                        chars.next();
                    }
                    if run == 0 {
                        return Err(format!("{}: a run of 0 empty squares", label(i)));
                    }
                    if run > super::MAX_SQUARES {
                        return Err(format!(
                            "{}: a run of {run} empty squares is too long",
                            label(i)
                        ));
                    }
                    row.extend(std::iter::repeat_n(None, run));
                }
                other => {
                    return Err(format!(
                        "unexpected '{other}' in {} (use w, b, . or a number of empty squares)",
                        label(i)
                    ))
                }
            }
            if row.len() > super::MAX_SQUARES {
                return Err(format!("{} is too long", label(i)));
            }
        }
        rows.push(row);
        if rows.len() > super::MAX_SQUARES {
            return Err(format!("more than {} rows", super::MAX_SQUARES));
        }
    }
    Ok(rows)
}

/// Reads a side to move: `w`, `b`, `white` or `black`, in any case.
fn parse_side(text: &str) -> Option<Side> {
    match text.to_ascii_lowercase().as_str() {
        "w" | "white" => Some(Side::First),
        "b" | "black" => Some(Side::Second),
        _ => None,
    }
}

/// Builds a position from rows (top first) that already match `settings`.
fn build(settings: &ClobberSettings, rows: &[Row], side: Side) -> Clobber {
    let mut pos = Clobber::empty(*settings);
    let (height, cols) = (settings.rows(), settings.cols());
    for (i, row) in rows.iter().enumerate() {
        for (col, &cell) in row.iter().enumerate() {
            if cell.is_some() {
                pos.put((height - 1 - i) * cols + col, cell);
            }
        }
    }
    pos.set_to_move(side);
    pos
}

/// Checks that `rows` (top first) are `settings.rows()` rows of `settings.cols()` cells.
fn check_size(settings: &ClobberSettings, rows: &[Row], what: &str) -> Result<(), String> {
    let (height, cols) = (settings.rows(), settings.cols());
    if rows.len() != height {
        return Err(format!(
            "the board has {} rows, this game has rows={height}",
            rows.len()
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        if row.len() != cols {
            return Err(format!(
                "{what} {} has {} squares, this game has cols={cols}",
                height - i,
                row.len()
            ));
        }
    }
    Ok(())
}

/// Reads OpenSpiel's custom board string: `0`/`1` (White/Black to move), then one of
/// `o` (white), `x` (black), `.` per square, row-major from the top-left.
fn parse_open_spiel(settings: &ClobberSettings, text: &str) -> Result<Clobber, String> {
    let mut chars = text.chars();
    let side = match chars.next() {
        Some('0') => Side::First,
        Some('1') => Side::Second,
        _ => return Err("an OpenSpiel board string starts with 0 or 1".to_string()),
    };
    let cells: Vec<char> = chars.collect();
    let need = settings.squares();
    if cells.len() != need {
        return Err(format!(
            "an OpenSpiel board string for {}x{} needs {need} squares after the side digit, found {}",
            settings.rows(),
            settings.cols(),
            cells.len()
        ));
    }
    let mut rows = Vec::new();
    for (i, chunk) in cells.chunks(settings.cols()).enumerate() {
        let mut row = Row::new();
        for &c in chunk {
            row.push(match c {
                'o' => Some(Side::First),
                'x' => Some(Side::Second),
                '.' => None,
                other => {
                    return Err(format!(
                    "unexpected '{other}' in row {} of an OpenSpiel board string (use o, x or .)",
                    settings.rows() - i
                ))
                }
            });
        }
        rows.push(row);
    }
    Ok(build(settings, &rows, side))
}

/// Whether `text` has OpenSpiel's form: `0` or `1`, then only `o`, `x` and `.`.
fn is_open_spiel(text: &str) -> bool {
    (text.starts_with('0') || text.starts_with('1'))
        && text[1..].chars().all(|c| matches!(c, 'o' | 'x' | '.'))
}

pub(super) fn parse_position(
    settings: &ClobberSettings,
    text: &str,
) -> Result<Clobber, PositionError> {
    let err = |reason: String| PositionError::new(text, reason);
    let trimmed = text.trim();
    if is_open_spiel(trimmed) {
        return parse_open_spiel(settings, trimmed).map_err(err);
    }
    let fields: Vec<&str> = trimmed.split_whitespace().collect();
    let (board, side_text) = match fields[..] {
        [board, side] => (board, side),
        [] => return Err(err("the position is empty".to_string())),
        [_] => {
            return Err(err(
                "missing the side to move (w or b) after the board".to_string()
            ))
        }
        _ => {
            return Err(err(format!(
                "expected 2 fields (board and side to move), found {}",
                fields.len()
            )))
        }
    };
    let height = settings.rows();
    let label = |i: usize| match height.checked_sub(i) {
        Some(row) if row > 0 => format!("row {row}"),
        _ => format!("row {} from the top", i + 1),
    };
    let rows = parse_board_field(board, &label).map_err(err)?;
    check_size(settings, &rows, "row").map_err(err)?;
    let side = parse_side(side_text)
        .ok_or_else(|| err(format!("side to move '{side_text}' is not w or b")))?;
    Ok(build(settings, &rows, side))
}

/// Reads a board file whose size is given by its contents.
///
/// Blank lines and lines starting with `#` are skipped. What remains is one of:
/// - one line in OpenSpiel's form (`0` or `1`, then `o`/`x`/`.` per square); it does not
///   give the board size, so `expected` must;
/// - one position string, `wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb w` (recognised by a `/`
///   or a digit, or by being exactly two fields of which the first is longer than one
///   character): rows from the top, separated by `/`;
/// - a grid, one line per row from the top: cells `W`, `B`, `_` or `.` in any case,
///   separated by spaces or not (`B W B W B` or `BWBWB`), every row the same length.
///   An optional last line names the side to move: `white` or `black`, or `w` or `b`
///   when the rows are more than one cell wide. Without it White is to move.
///
/// When `expected` is given, the board must have that size.
///
/// # Errors
/// A [`PositionError`] naming the line, row or field that is wrong, or the size mismatch.
pub fn parse_board_file(
    text: &str,
    expected: Option<&ClobberSettings>,
) -> Result<Clobber, PositionError> {
    let err = |reason: String| PositionError::new(text, reason);
    // (line number in the file, trimmed text)
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let pos = match lines[..] {
        [] => return Err(err("the file holds no board".to_string())),
        [(_, line)] if is_open_spiel(line) => {
            match expected {
                Some(settings) => parse_open_spiel(settings, line).map_err(err)?,
                None => return Err(err(
                    "an OpenSpiel board string does not give the board size: give rows and cols"
                        .to_string(),
                )),
            }
        }
        [(_, line)] if looks_like_position_string(line) => {
            let [board, side_text] = line.split_whitespace().collect::<Vec<_>>()[..] else {
                return Err(err(
                    "a position string is the board and the side to move, like wb/bw w".to_string(),
                ));
            };
            let label = |i: usize| format!("row {} from the top", i + 1);
            let rows = parse_board_field(board, &label).map_err(err)?;
            let settings = infer_settings(&rows, "row").map_err(err)?;
            let side = parse_side(side_text)
                .ok_or_else(|| err(format!("side to move '{side_text}' is not w or b")))?;
            build(&settings, &rows, side)
        }
        _ => parse_grid(&lines).map_err(err)?,
    };
    if let Some(settings) = expected {
        if pos.settings != *settings {
            return Err(err(format!(
                "the board is {}x{} (rows x cols) but the game is rows={} cols={}",
                pos.settings.rows(),
                pos.settings.cols(),
                settings.rows(),
                settings.cols()
            )));
        }
    }
    Ok(pos)
}

fn looks_like_position_string(line: &str) -> bool {
    let fields: Vec<&str> = line.split_whitespace().collect();
    line.contains('/')
        || line.contains(|c: char| c.is_ascii_digit())
        || (fields.len() == 2 && fields[0].len() > 1 && parse_side(fields[1]).is_some())
}

/// The settings of rows read without a known size: all rows as long as the first.
fn infer_settings(rows: &[Row], what: &str) -> Result<ClobberSettings, String> {
    let cols = rows.first().map_or(0, Vec::len);
    for (i, row) in rows.iter().enumerate() {
        if row.len() != cols {
            return Err(format!(
                "{what} {} from the top has {} squares but the first has {cols}",
                i + 1,
                row.len()
            ));
        }
    }
    ClobberSettings::new(rows.len(), cols)
}

/// Reads the grid form of a board file (lines already trimmed, comments dropped).
fn parse_grid(lines: &[(usize, &str)]) -> Result<Clobber, String> {
    let cells_of = |line: &str| line.chars().filter(|c| !c.is_whitespace()).count();
    let mut grid_lines = lines;
    let mut side = Side::First;
    if let [rest @ .., (_, last)] = lines {
        let wide = cells_of(lines[0].1) > 1;
        let lower = last.to_ascii_lowercase();
        let is_side_line = !rest.is_empty()
            && (matches!(lower.as_str(), "white" | "black")
                || (wide && matches!(lower.as_str(), "w" | "b")));
        if is_side_line {
            side = parse_side(last).unwrap_or(Side::First);
            grid_lines = rest;
        }
    }
    let mut rows = Vec::new();
    for &(number, line) in grid_lines {
        let mut row = Row::new();
        for c in line.chars().filter(|c| !c.is_whitespace()) {
            row.push(match c {
                'w' | 'W' => Some(Side::First),
                'b' | 'B' => Some(Side::Second),
                '_' | '.' => None,
                other => {
                    return Err(format!(
                        "line {number}: unexpected '{other}' (grid cells are W, B, _ or .)"
                    ))
                }
            });
            if row.len() > super::MAX_SQUARES {
                return Err(format!("line {number} is too long"));
            }
        }
        rows.push(row);
        if rows.len() > super::MAX_SQUARES {
            return Err(format!("more than {} rows", super::MAX_SQUARES));
        }
    }
    let settings = infer_settings(&rows, "grid row")?;
    Ok(build(&settings, &rows, side))
}

pub(super) fn render(pos: &Clobber) -> Vec<String> {
    let (rows, cols) = (pos.settings.rows(), pos.settings.cols());
    let width = rows.to_string().len();
    let mut lines = Vec::with_capacity(rows + 1);
    for row in (0..rows).rev() {
        let mut line = format!("{:>width$} ", row + 1);
        for col in 0..cols {
            line.push(' ');
            line.push(match pos.stone(row * cols + col) {
                Some(Side::First) => 'W',
                Some(Side::Second) => 'B',
                None => '.',
            });
        }
        lines.push(line);
    }
    let mut footer = " ".repeat(width + 1);
    for col in 0..cols {
        footer.push(' ');
        footer.push((b'a' + col as u8) as char);
    }
    lines.push(footer);
    lines
}
