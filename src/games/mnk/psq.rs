//! Piskvork's game record, the `.psq` file Gomocup publishes its games in and gomoku
//! GUIs open (Piskvork's `savePsq` and `openPsq` in `source/game.cpp`,
//! <https://github.com/plastovicka/Piskvork>):
//!
//! ```text
//! Piskvorky 15x15, 0:0, 0
//! 8,8,0
//! 9,8,312
//! ...
//! first player's name
//! second player's name
//! 0
//! ```
//!
//! The head is the board's size, the two players' levels (0: no computer level, so the
//! file opens as a game to replay, starting no brain) and which of Piskvork's two players
//! moved first (0 here: the names come first mover first). Then one line per stone in
//! the order played: `x,y,ms`, `x` the column from 1 at the left, `y` the row from 1 at
//! the top, `ms` the time the move took (0 for an opening's stones). Then, as Piskvork
//! writes tournament games, the two names, and last its end code: 0 the game ended by the
//! rules, 15 a timeout, -2 any other fault of a brain.

use super::{MnkMove, MnkSettings};

/// Piskvork's end code of a game the rules ended.
pub const END_NORMAL: i32 = 0;
/// Piskvork's end code of a game lost on time.
pub const END_TIMEOUT: i32 = 15;
/// Piskvork's end code of a game ended by any other fault of a brain.
pub const END_FAULT: i32 = -2;

/// A game as a `.psq` file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqGame {
    /// Board width (columns).
    pub width: usize,
    /// Board height (rows).
    pub height: usize,
    /// The stones in the order played, each with the milliseconds its move took.
    pub moves: Vec<(MnkMove, u64)>,
    /// The players, the first mover first, when known.
    pub players: Option<[String; 2]>,
    /// The end code ([`END_NORMAL`], [`END_TIMEOUT`], [`END_FAULT`]).
    pub code: i32,
}

impl PsqGame {
    /// The file's text (LF line ends; Piskvork reads either).
    pub fn write(&self) -> String {
        let mut out = format!("Piskvorky {}x{}, 0:0, 0\n", self.width, self.height);
        for &(mv, ms) in &self.moves {
            let cell = mv.0 as usize;
            let (col, row) = (cell % self.width, cell / self.width);
            out.push_str(&format!("{},{},{ms}\n", col + 1, self.height - row));
        }
        if let Some(players) = &self.players {
            for name in players {
                // One line each: a line break in a name would end it early.
                let name: String = name
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                out.push_str(&format!("{name}\n"));
            }
        }
        out.push_str(&format!("{}\n", self.code));
        out
    }

    /// Reads a `.psq` file's text.
    ///
    /// # Errors
    /// What is wrong and on which line: a head that is not `Piskvorky WxH, L1:L2, F`, a
    /// board of sides outside 1 to 26, a stone off the board or on a taken square, or a
    /// tail that is not the end code, alone or after the two names.
    pub fn parse(text: &str) -> Result<PsqGame, String> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let (_, head) = lines.next().ok_or("an empty file: no 'Piskvorky WxH' head")?;
        let (width, height) = parse_head(head.trim())
            .ok_or_else(|| format!("line 1: '{head}' is no 'Piskvorky WxH, L1:L2, F' head"))?;
        if !(1..=super::MAX_SIZE).contains(&width) || !(1..=super::MAX_SIZE).contains(&height) {
            return Err(format!(
                "line 1: a {width}x{height} board; sides are 1 to {}",
                super::MAX_SIZE
            ));
        }
        let mut taken = vec![false; width * height];
        let mut moves = Vec::new();
        let mut tail = Vec::new();
        for (i, line) in lines {
            let line = line.trim();
            let numbers: Option<Vec<i64>> = line
                .split(',')
                .map(|w| w.trim().parse::<i64>().ok())
                .collect();
            match numbers.as_deref() {
                Some(&[x, y, ms]) if tail.is_empty() => {
                    let inside = (1..=width as i64).contains(&x) && (1..=height as i64).contains(&y);
                    if !inside {
                        return Err(format!(
                            "line {}: {x},{y} is off the {width}x{height} board (x 1 to {width}, y 1 to {height})",
                            i + 1
                        ));
                    }
                    let cell = (height - y as usize) * width + (x as usize - 1);
                    if std::mem::replace(&mut taken[cell], true) {
                        return Err(format!("line {}: {x},{y} is already taken", i + 1));
                    }
                    moves.push((MnkMove(cell as u16), ms.max(0) as u64));
                }
                _ => tail.push((i + 1, line.to_string())),
            }
        }
        let code_of = |(n, text): &(usize, String)| {
            text.parse::<i32>()
                .map_err(|_| format!("line {n}: '{text}' is no end code (0, 15, -2)"))
        };
        let (players, code) = match tail.as_slice() {
            [code] => (None, code_of(code)?),
            [first, second, code] => (
                Some([first.1.clone(), second.1.clone()]),
                code_of(code)?,
            ),
            [] => return Err("no end code after the moves".into()),
            [(n, _), ..] => {
                return Err(format!(
                    "line {n}: after the moves come the two names and the end code, or the end code alone"
                ))
            }
        };
        Ok(PsqGame {
            width,
            height,
            moves,
            players,
            code,
        })
    }

    /// The board's settings for five in a row (a `.psq` file does not say the rule).
    pub fn settings(&self) -> MnkSettings {
        MnkSettings::new(self.width, self.height, 5)
    }
}

/// `Piskvorky WxH, L1:L2, F` -> `(W, H)`.
fn parse_head(head: &str) -> Option<(usize, usize)> {
    let rest = head.strip_prefix("Piskvorky ")?;
    let mut parts = rest.split(',').map(str::trim);
    let (w, h) = parts.next()?.split_once('x')?;
    let (l1, l2) = parts.next()?.split_once(':')?;
    let first: i64 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || l1.parse::<i64>().is_err() || l2.parse::<i64>().is_err() {
        return None;
    }
    if !(first == 0 || first == 1) {
        return None;
    }
    Some((w.parse().ok()?, h.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::mnk::Mnk;

    #[test]
    fn a_game_in_piskvork_coordinates() {
        // h8 is the centre of 15x15: Piskvork's 8,8 (from 1, y down from the top row,
        // which is row 15). a1 is the bottom left: 1,15. o15 the top right: 15,1.
        let s = MnkSettings::new(15, 15, 5);
        let start = Mnk::start(&s);
        let mv = |t: &str| start.parse_move(t).unwrap();
        let game = PsqGame {
            width: 15,
            height: 15,
            moves: vec![(mv("h8"), 0), (mv("a1"), 312), (mv("o15"), 5000)],
            players: Some(["agon".into(), "bad\nname".into()]),
            code: END_TIMEOUT,
        };
        let text = game.write();
        assert_eq!(
            text,
            "Piskvorky 15x15, 0:0, 0\n8,8,0\n1,15,312\n15,1,5000\nagon\nbad name\n15\n"
        );
        let back = PsqGame::parse(&text).unwrap();
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.players.unwrap()[1], "bad name");
        assert_eq!(back.code, END_TIMEOUT);
        // Without names (Piskvork's own saves outside tournaments), CR LF line ends.
        let bare = PsqGame::parse("Piskvorky 20x20, 11:11, 1\r\n10,10,0\r\n0\r\n").unwrap();
        assert_eq!((bare.width, bare.height, bare.players), (20, 20, None));
        let s20 = MnkSettings::new(20, 20, 5);
        assert_eq!(Mnk::start(&s20).format_move(bare.moves[0].0), "j11");
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        for (text, why) in [
            ("", "empty file"),
            ("Gomoku 15x15\n0\n", "line 1"),
            ("Piskvorky 40x40, 0:0, 0\n0\n", "sides are 1 to 26"),
            ("Piskvorky 15x15, 0:0, 0\n16,1,0\n0\n", "line 2: 16,1 is off"),
            ("Piskvorky 15x15, 0:0, 0\n1,1,0\n1,1,5\n0\n", "line 3: 1,1 is already taken"),
            ("Piskvorky 15x15, 0:0, 0\n1,1,0\n", "no end code"),
            ("Piskvorky 15x15, 0:0, 0\n1,1,0\nx\n", "'x' is no end code"),
            ("Piskvorky 15x15, 0:0, 0\n1,1,0\na\nb\n", "line 3: after the moves"),
        ] {
            let err = PsqGame::parse(text).unwrap_err();
            assert!(err.contains(why), "{text:?}: {err}");
        }
    }
}
