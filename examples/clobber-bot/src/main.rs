//! A minimal Clobber bot for the Agon protocol, with its own rules and no dependencies.
//!
//! Clobber: White (`w`) and Black (`b`) stones fill the board alternately, `a1` White;
//! a move takes one of your stones onto an orthogonally adjacent opponent stone, which is
//! removed; a player with no move loses. The bot plays the move that leaves the opponent
//! the fewest replies (one ply of lookahead). Board size from `setoption name Game value
//! clobber rows=R cols=C` (default 5 x 6). Run it with
//! `arena check --game "clobber rows=5 cols=6" -- target/release/clobber-bot`.

use std::io::{self, BufRead, Write};

#[derive(Clone)]
struct Board {
    rows: usize,
    cols: usize,
    /// 0 empty, 1 White, 2 Black; index `row * cols + col`, row 0 at the bottom.
    cells: Vec<u8>,
    to_move: u8,
}

impl Board {
    fn start(rows: usize, cols: usize) -> Board {
        let cells = (0..rows * cols)
            .map(|i| {
                if (i / cols + i % cols).is_multiple_of(2) {
                    1
                } else {
                    2
                }
            })
            .collect();
        Board {
            rows,
            cols,
            cells,
            to_move: 1,
        }
    }

    fn name(&self, sq: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (sq % self.cols) as u8) as char,
            sq / self.cols + 1
        )
    }

    fn square(&self, text: &str) -> Option<usize> {
        let col = (text.as_bytes().first()?.to_ascii_lowercase()).checked_sub(b'a')? as usize;
        let row: usize = text.get(1..)?.parse().ok()?;
        (col < self.cols && row >= 1 && row <= self.rows).then(|| (row - 1) * self.cols + col)
    }

    fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let them = 3 - self.to_move;
        for from in 0..self.cells.len() {
            if self.cells[from] != self.to_move {
                continue;
            }
            let (r, c) = (from / self.cols, from % self.cols);
            let mut near = Vec::new();
            if r + 1 < self.rows {
                near.push(from + self.cols);
            }
            if c + 1 < self.cols {
                near.push(from + 1);
            }
            if r > 0 {
                near.push(from - self.cols);
            }
            if c > 0 {
                near.push(from - 1);
            }
            out.extend(
                near.into_iter()
                    .filter(|&to| self.cells[to] == them)
                    .map(|to| (from, to)),
            );
        }
        out
    }

    fn play(&mut self, (from, to): (usize, usize)) {
        self.cells[to] = self.cells[from];
        self.cells[from] = 0;
        self.to_move = 3 - self.to_move;
    }

    /// Plays a move given as `a1-b1` or `a1b1` if it is legal.
    fn play_text(&mut self, text: &str) -> bool {
        let t = text.replace('-', "");
        let split = t
            .char_indices()
            .skip(1)
            .find(|(_, ch)| ch.is_ascii_alphabetic())
            .map(|(i, _)| i);
        let Some(i) = split else { return false };
        match (self.square(&t[..i]), self.square(&t[i..])) {
            (Some(from), Some(to)) if self.moves().contains(&(from, to)) => {
                self.play((from, to));
                true
            }
            _ => false,
        }
    }
}

fn best(board: &Board) -> Option<(usize, usize)> {
    board.moves().into_iter().min_by_key(|&mv| {
        let mut next = board.clone();
        next.play(mv);
        next.moves().len()
    })
}

fn main() {
    let (mut rows, mut cols) = (5, 6);
    let mut board = Board::start(rows, cols);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut say = |line: &str| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush(); // the controller reads a pipe: flush every line
    };
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some(hello @ ("ugi" | "uci")) => {
                say("id name ClobberBot");
                say("id author an Agon student");
                say("option name Game type string default clobber rows=5 cols=6");
                say(&format!("{hello}ok"));
            }
            Some("isready") => say("readyok"),
            Some("setoption") => {
                for w in &words {
                    if let Some(v) = w.strip_prefix("rows=") {
                        rows = v.parse().unwrap_or(rows);
                    }
                    if let Some(v) = w.strip_prefix("cols=") {
                        cols = v.parse().unwrap_or(cols);
                    }
                }
                board = Board::start(rows, cols);
            }
            Some("position") => {
                board = Board::start(rows, cols);
                let list = words
                    .iter()
                    .position(|w| *w == "moves")
                    .map_or(&[][..], |i| &words[i + 1..]);
                for mv in list {
                    if !board.play_text(mv) {
                        say(&format!("error illegal-move {mv}"));
                        break;
                    }
                }
            }
            Some("go") => match best(&board) {
                Some((from, to)) => {
                    say(&format!("bestmove {}-{}", board.name(from), board.name(to)))
                }
                None => say("bestmove none"),
            },
            Some("quit") => break,
            _ => {} // anything else is ignored
        }
    }
}
