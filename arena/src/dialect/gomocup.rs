//! The arena as a Gomocup manager: [`Link`] turns the referee's commands (Agon's protocol:
//! `position`, `go`, `quit`, ...) into the Piskvork protocol a gomoku brain speaks
//! (`START`, `INFO`, `BEGIN`, `TURN`, `BOARD`, `END`; protocol.md section 11 and
//! <https://plastovicka.github.io/protocl2en.htm>), and the brain's lines back into
//! replies the referee reads (`x,y` is a `bestmove`, `MESSAGE` an `info string`, `ERROR`
//! an error). The referee, its clocks, rules, records and sandbox stay as for any engine.
//!
//! What the brain's board holds is tracked: a move asked right after the brain's own last
//! move and one opponent move is a `TURN`; the first move of a game from the empty board
//! is `BEGIN`; anything else (an opening position, a resumed game) is `RESTART` and the
//! whole `BOARD`. Before every move the brain is told its limits: `INFO timeout_turn` (the
//! move time, or the time left on its clock), `INFO time_left` (its clock, or 2147483647
//! without one), Yixin-Board's `INFO max_depth` and `INFO max_node` for depth and node
//! limits. Lines end in CR LF, as Piskvork writes them.

use agon::game::{Game, Side};
use agon::games::mnk::{Mnk, MnkMove, MnkSettings};
use agon::games::GameSpec;
use agon::protocol::gomocup::{parse_reply, Point, Reply as BrainReply};
use agon::protocol::{Command, ErrorCode, Info, PositionSpec, Reply};

/// `time_left` for "no match limit".
const UNLIMITED: u64 = 2_147_483_647;

/// Whether a Gomocup brain can play `spec`: gomoku, five in a row (freestyle), on a board
/// of 5 to 26 a side.
///
/// # Errors
/// The end of a sentence whose subject is the dialect.
pub fn plays(spec: &GameSpec) -> Result<(), String> {
    let Some(s) = spec.settings_of::<Mnk>() else {
        return Err(format!(
            "plays gomoku (mnk with k=5) only; the game is '{spec}'"
        ));
    };
    if s.k != 5 || s.m < 5 || s.n < 5 {
        return Err(format!(
            "plays five in a row on boards of 5 to 26 a side; the game is '{spec}'"
        ));
    }
    Ok(())
}

/// A position as the referee names it: the start and the moves since.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Named {
    start: PositionSpec,
    moves: Vec<String>,
}

/// What the referee's reply reading gets from one brain line.
#[derive(Debug, PartialEq, Eq)]
pub enum Heard {
    /// A reply in Agon's terms.
    Reply(Reply),
    /// An `OK` the link was waiting for (to `START`, `RESTART`).
    Acknowledged,
    /// A line that is nothing in the protocol.
    Junk,
}

/// One brain's side of the conversation.
#[derive(Debug, Default)]
pub struct Link {
    settings: Option<MnkSettings>,
    /// What the brain's board holds (`None`: empty since `START`/`RESTART`).
    told: Option<Named>,
    /// The last `position` the referee sent.
    target: Option<Named>,
    /// The position the brain was asked to move in.
    asked: Option<Named>,
    /// `OK`s still to come (to `START`, `RECTSTART`, `RESTART`).
    awaiting_ok: u32,
    /// The `INFO` lines the brain was last told, by key: a value is sent again only
    /// when it changes (a clock's `time_left` before every move).
    told_info: Vec<(&'static str, u64)>,
    /// When the brain's last move arrived (see [`Link::hold_after_move`]).
    answered_at: Option<std::time::Instant>,
}

/// How long after a brain's move the link waits before writing to it again. Rapfi 0.43
/// prints its move before its search thread has finished, and drops the first word of a
/// line that comes in between (`INFO timeout_turn 100` then reads as the command
/// `timeout_turn`): measured against it at 0.1 s a move, 19 of 100 games ended that way
/// when the opponent answered within a millisecond. Nothing is charged to either clock
/// during the wait: the brain's clock starts when its command is written.
pub const HOLD_AFTER_MOVE: std::time::Duration = std::time::Duration::from_millis(10);

impl Link {
    /// A link with no game yet.
    pub fn new() -> Link {
        Link::default()
    }

    /// Whether an `OK` is still to come.
    pub fn awaiting_ok(&self) -> bool {
        self.awaiting_ok > 0
    }

    /// How long to wait before the next write: what is left of [`HOLD_AFTER_MOVE`] since
    /// the brain's last move.
    pub fn hold_after_move(&self) -> std::time::Duration {
        self.answered_at.map_or(std::time::Duration::ZERO, |t| {
            HOLD_AFTER_MOVE.saturating_sub(t.elapsed())
        })
    }

    /// The Gomocup lines for one referee command (none for those the protocol has no
    /// word for: `isready`, `setoption`, `games`).
    ///
    /// # Errors
    /// A command the protocol cannot carry (`query`), or a position or move that is not
    /// the game's: the text says which.
    pub fn lines(&mut self, command: &Command) -> Result<Vec<String>, String> {
        match command {
            Command::Hello(_) => Ok(vec!["ABOUT".into()]),
            Command::SetOption { name, value } if name.eq_ignore_ascii_case("game") => {
                let text = value.clone().unwrap_or_default();
                let spec = GameSpec::parse(&text).map_err(|e| e.to_string())?;
                let settings = spec
                    .settings_of::<Mnk>()
                    .ok_or_else(|| format!("a Gomocup brain plays gomoku, not '{spec}'"))?;
                self.settings = Some(settings);
                Ok(Vec::new())
            }
            // `option.timeout_turn=500` and the like: the user's INFO lines.
            Command::SetOption { name, value } => Ok(vec![format!(
                "INFO {} {}",
                name.to_ascii_lowercase(),
                value.clone().unwrap_or_default()
            )]),
            Command::NewGame { .. } => {
                let s = self.settings()?;
                self.told_info.clear();
                self.told = None;
                self.target = None;
                self.asked = None;
                self.awaiting_ok += 1;
                let start = if s.m == s.n {
                    format!("START {}", s.m)
                } else {
                    format!("RECTSTART {},{}", s.m, s.n)
                };
                // Gomocup's rule 1 is exactly five (`mnk ... exact=1`), 0 freestyle.
                let rule = u8::from(s.exact);
                Ok(vec![
                    start,
                    format!("INFO rule {rule}"),
                    "INFO game_type 1".into(),
                ])
            }
            Command::Position { position, moves } => {
                self.target = Some(Named {
                    start: position.clone(),
                    moves: moves.clone(),
                });
                Ok(Vec::new())
            }
            Command::Go(go) => self.go(go),
            Command::Stop => Ok(vec!["YXSTOP".into()]),
            Command::Quit => Ok(vec!["END".into()]),
            Command::IsReady | Command::Games | Command::Debug(_) => Ok(Vec::new()),
            Command::Query(_) => Err("the Gomocup protocol has no query".into()),
            other => Err(format!("'{other}' has no word in the Gomocup protocol")),
        }
    }

    fn settings(&self) -> Result<MnkSettings, String> {
        self.settings
            .ok_or_else(|| "no game yet: the link was not told the board".to_string())
    }

    /// The brain's limits, then `BEGIN`, `TURN` or `RESTART` + `BOARD`.
    fn go(&mut self, go: &agon::protocol::Go) -> Result<Vec<String>, String> {
        let settings = self.settings()?;
        let target = self
            .target
            .clone()
            .ok_or("go before position: no position to move in")?;
        let pos = play(&settings, &target)?;
        let mover = pos.side_to_move();
        let clock = match mover {
            Side::First => go.p1time,
            Side::Second => go.p2time,
        };
        let mut lines = Vec::new();
        // The game's clock is the mover's time at its first move of the game (nothing
        // has been taken off or added yet); 0 is Gomocup's "no match limit".
        let told_match = self
            .told_info
            .iter()
            .find(|&&(k, _)| k == "timeout_match")
            .map(|&(_, v)| v);
        let game_ms = match clock {
            Some(left) => told_match.filter(|&v| v != 0).unwrap_or(left),
            None => 0,
        };
        let infos = [
            ("timeout_match", Some(game_ms)),
            ("timeout_turn", go.movetime.or(clock)),
            ("time_left", Some(clock.unwrap_or(UNLIMITED))),
            ("max_depth", go.depth.map(u64::from)),
            ("max_node", go.nodes),
        ];
        for (key, value) in infos {
            let Some(value) = value else { continue };
            let same = self.told_info.iter().any(|&(k, v)| k == key && v == value);
            // `time_left` of a running clock goes before every move, as the protocol asks.
            if !same || (key == "time_left" && clock.is_some()) {
                self.told_info.retain(|&(k, _)| k != key);
                self.told_info.push((key, value));
                lines.push(format!("INFO {key} {value}"));
            }
        }
        let fresh = self.told.is_none();
        let turn_after = |told: &Named| {
            told.start == target.start
                && target.moves.len() == told.moves.len() + 1
                && target.moves.starts_with(&told.moves)
        };
        match &self.told {
            None if target.start == PositionSpec::StartPos && target.moves.is_empty() => {
                lines.push("BEGIN".into());
            }
            Some(told) if turn_after(told) => {
                let last = target.moves.last().expect("one more move");
                lines.push(format!("TURN {}", point_of(&settings, last)?));
            }
            _ => {
                if !fresh {
                    self.awaiting_ok += 1;
                    lines.push("RESTART".into());
                }
                lines.push("BOARD".into());
                for (p, own) in stones(&settings, &target)? {
                    lines.push(format!("{p},{}", if own { 1 } else { 2 }));
                }
                lines.push("DONE".into());
            }
        }
        self.asked = Some(target);
        // Until the brain answers, its board holds the position asked.
        self.told = self.asked.clone();
        Ok(lines)
    }

    /// What one line from the brain means to the referee.
    pub fn hear(&mut self, line: &str) -> Heard {
        let Some(reply) = parse_reply(line) else {
            return Heard::Junk;
        };
        match reply {
            BrainReply::Ok if self.awaiting_ok > 0 => {
                self.awaiting_ok -= 1;
                Heard::Acknowledged
            }
            BrainReply::Ok => Heard::Junk,
            BrainReply::Move(p) | BrainReply::Suggest(p) => {
                self.answered_at = Some(std::time::Instant::now());
                let mv = self.notation(p);
                if let (Some(told), Some(mv)) = (&mut self.told, &mv) {
                    told.moves.push(mv.clone());
                }
                // A square off the board is passed on as written: the referee names it
                // an illegal move.
                Heard::Reply(Reply::BestMove(Some(mv.unwrap_or_else(|| p.to_string()))))
            }
            BrainReply::Moves(_) | BrainReply::Swap => Heard::Junk,
            BrainReply::Error(message) | BrainReply::Unknown(message) => {
                Heard::Reply(Reply::Error {
                    code: if line
                        .trim_start()
                        .to_ascii_uppercase()
                        .starts_with("UNKNOWN")
                    {
                        ErrorCode::UnknownCommand
                    } else {
                        ErrorCode::BadValue
                    },
                    message: format!(
                        "{}: {message}",
                        line.split_whitespace().next().unwrap_or("")
                    ),
                })
            }
            BrainReply::Message(text) | BrainReply::Debug(text) => {
                Heard::Reply(Reply::Info(Info {
                    string: Some(text),
                    ..Info::default()
                }))
            }
            BrainReply::About(text) => Heard::Reply(Reply::Id {
                field: "name".into(),
                value: about_name(&text).unwrap_or(text),
            }),
        }
    }

    /// The move in Agon's notation for the brain's `x,y` (`None` off the board).
    fn notation(&self, p: Point) -> Option<String> {
        move_of(&self.settings?, p)
    }
}

/// Gomocup's `x,y` (`y` from the top) in Agon's notation on the board of `settings`
/// (`7,7` is `h8` on 15x15); `None` off the board.
pub fn move_of(settings: &MnkSettings, p: Point) -> Option<String> {
    let (m, n) = (settings.m as u32, settings.n as u32);
    if p.x >= m || p.y >= n {
        return None;
    }
    let cell = (n - 1 - p.y) * m + p.x;
    Some(Mnk::start(settings).format_move(MnkMove(cell as u16)))
}

/// The position the referee named, played out with the library's rules.
fn play(settings: &MnkSettings, named: &Named) -> Result<Mnk, String> {
    let mut pos = match &named.start {
        PositionSpec::StartPos => Mnk::start(settings),
        PositionSpec::Fen(text) => {
            Mnk::parse_position(settings, text).map_err(|e| e.to_string())?
        }
    };
    for text in &named.moves {
        let mv = pos.parse_move(text).map_err(|e| e.to_string())?;
        pos.make_move(mv);
    }
    Ok(pos)
}

/// Every stone of the position `named`, in the order played, with whether it belongs to
/// the side to move (the brain asked). The protocol lets a manager send a gomoku `BOARD`
/// in any order, but brains read it as a game: Rapfi 0.43 takes the first line for
/// Black and passes for every turn the order skips, so a board in square order left it
/// playing the wrong colour on a board with passes. Stones of a set-up position come
/// first, the first player's and the second's in turn (by square within each side),
/// then the moves from it.
fn stones(settings: &MnkSettings, named: &Named) -> Result<Vec<(Point, bool)>, String> {
    let pos = play(settings, named)?;
    let mover = pos.side_to_move();
    let point = |cell: usize| Point {
        x: (cell % settings.m) as u32,
        y: (settings.n - 1 - cell / settings.m) as u32,
    };
    let start = play(
        settings,
        &Named {
            start: named.start.clone(),
            moves: Vec::new(),
        },
    )?;
    let of = |side: Side| {
        (0..settings.m * settings.n)
            .filter(|&c| start.stone(c) == Some(side))
            .collect::<Vec<_>>()
    };
    let (first, second) = (of(Side::First), of(Side::Second));
    let mut out = Vec::new();
    for i in 0..first.len().max(second.len()) {
        for (list, side) in [(&first, Side::First), (&second, Side::Second)] {
            if let Some(&cell) = list.get(i) {
                out.push((point(cell), side == mover));
            }
        }
    }
    let mut replay = start;
    for text in &named.moves {
        let mv = replay.parse_move(text).map_err(|e| e.to_string())?;
        out.push((point(mv.0 as usize), replay.side_to_move() == mover));
        replay.make_move(mv);
    }
    Ok(out)
}

/// `h8` on the board of `settings` as Gomocup's `x,y` (`y` from the top).
///
/// # Errors
/// A text that is no square of the board.
pub fn point_of(settings: &MnkSettings, mv: &str) -> Result<Point, String> {
    let cell = Mnk::start(settings)
        .parse_move(mv)
        .map_err(|e| e.to_string())?
        .0 as usize;
    let (col, row) = (cell % settings.m, cell / settings.m);
    Ok(Point {
        x: col as u32,
        y: (settings.n - 1 - row) as u32,
    })
}

/// The `name="..."` of an `ABOUT` answer.
fn about_name(text: &str) -> Option<String> {
    let at = text.find("name=\"")? + "name=\"".len();
    let end = text[at..].find('"')?;
    Some(text[at..at + end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(spec: &str) -> Link {
        let mut l = Link::new();
        l.lines(&Command::SetOption {
            name: "Game".into(),
            value: Some(spec.into()),
        })
        .unwrap();
        l
    }

    fn position(moves: &[&str]) -> Command {
        Command::Position {
            position: PositionSpec::StartPos,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    fn go_movetime(ms: u64) -> Command {
        Command::Go(agon::protocol::Go {
            movetime: Some(ms),
            ..Default::default()
        })
    }

    #[test]
    fn a_game_is_start_begin_and_turns() {
        let mut l = link("gomoku");
        let new_game = Command::NewGame {
            dialect: agon::protocol::Dialect::Ugi,
            size: None,
        };
        assert_eq!(
            l.lines(&new_game).unwrap(),
            ["START 15", "INFO rule 0", "INFO game_type 1"]
        );
        assert_eq!(l.hear("OK"), Heard::Acknowledged);
        l.lines(&position(&[])).unwrap();
        assert_eq!(
            l.lines(&go_movetime(500)).unwrap(),
            [
                "INFO timeout_match 0",
                "INFO timeout_turn 500",
                "INFO time_left 2147483647",
                "BEGIN"
            ]
        );
        // 7,7 is h8 on 15x15 (row 15 - 7).
        assert_eq!(
            l.hear("7,7\r"),
            Heard::Reply(Reply::BestMove(Some("h8".into())))
        );
        l.lines(&position(&["h8", "a1"])).unwrap();
        // The same limits are not told again.
        let lines = l.lines(&go_movetime(500)).unwrap();
        assert_eq!(lines, ["TURN 0,14"]);
        // A clock alone: the mover's time left is the match, the turn limit and the
        // time left.
        l.hear("8,8");
        l.lines(&position(&["h8", "a1", "i7", "o15"])).unwrap();
        let go = Command::Go(agon::protocol::Go {
            p1time: Some(9000),
            p2time: Some(7000),
            ..Default::default()
        });
        assert_eq!(
            l.lines(&go).unwrap(),
            [
                "INFO timeout_match 9000",
                "INFO timeout_turn 9000",
                "INFO time_left 9000",
                "TURN 14,0"
            ]
        );
    }

    #[test]
    fn the_gomocup_clock_is_turn_match_and_time_left() {
        // tc=120,st=5: Gomocup's fastgame league.
        let mut l = link("gomoku");
        let new_game = Command::NewGame {
            dialect: agon::protocol::Dialect::Ugi,
            size: None,
        };
        l.lines(&new_game).unwrap();
        l.hear("OK");
        let go = |left: u64| {
            Command::Go(agon::protocol::Go {
                p1time: Some(left),
                p2time: Some(left),
                p1inc: Some(0),
                p2inc: Some(0),
                movetime: Some(5000),
                ..Default::default()
            })
        };
        l.lines(&position(&[])).unwrap();
        assert_eq!(
            l.lines(&go(120_000)).unwrap(),
            [
                "INFO timeout_match 120000",
                "INFO timeout_turn 5000",
                "INFO time_left 120000",
                "BEGIN"
            ]
        );
        l.hear("7,7");
        l.lines(&position(&["h8", "h9"])).unwrap();
        // Only the time left changes; the match limit stays what it was at the start.
        assert_eq!(
            l.lines(&go(115_300)).unwrap(),
            ["INFO time_left 115300", "TURN 7,6"]
        );
        // A new game tells the limits again.
        l.lines(&new_game).unwrap();
        l.hear("OK");
        l.lines(&position(&["h8"])).unwrap();
        assert_eq!(
            l.lines(&go(120_000)).unwrap()[..3],
            [
                "INFO timeout_match 120000",
                "INFO timeout_turn 5000",
                "INFO time_left 120000"
            ]
        );
    }

    #[test]
    fn exactly_five_is_rule_1() {
        let mut l = link("gomoku exact=1");
        let new_game = Command::NewGame {
            dialect: agon::protocol::Dialect::Ugi,
            size: None,
        };
        assert_eq!(
            l.lines(&new_game).unwrap(),
            ["START 15", "INFO rule 1", "INFO game_type 1"]
        );
        assert!(plays(&GameSpec::parse("gomoku exact=1").unwrap()).is_ok());
    }

    #[test]
    fn an_opening_is_a_whole_board() {
        let mut l = link("mnk m=7 n=5 k=5");
        let new_game = Command::NewGame {
            dialect: agon::protocol::Dialect::Ugi,
            size: None,
        };
        assert_eq!(l.lines(&new_game).unwrap()[0], "RECTSTART 7,5");
        l.lines(&position(&["a1", "g5", "d3"])).unwrap();
        let lines = l.lines(&go_movetime(100)).unwrap();
        // o to move: its stone g5 is 1, x's are 2; y counts from the top; the stones
        // in the order played.
        assert_eq!(&lines[3..], ["BOARD", "0,4,2", "6,0,1", "3,2,2", "DONE"]);
        // After the brain's move, a position that is not one move on is a new BOARD,
        // after RESTART (whose OK is awaited).
        l.hear("1,1");
        l.lines(&position(&["a1"])).unwrap();
        let lines = l.lines(&go_movetime(100)).unwrap();
        // The limits did not change: no INFO again.
        assert_eq!(&lines[..2], ["RESTART", "BOARD"]);
        assert!(l.awaiting_ok());
    }

    #[test]
    fn a_set_up_position_is_sent_as_a_game_in_turn() {
        let mut l = link("mnk m=7 n=5 k=5");
        let new_game = Command::NewGame {
            dialect: agon::protocol::Dialect::Ugi,
            size: None,
        };
        l.lines(&new_game).unwrap();
        l.hear("OK");
        // x on a1 b1 g1, o on c1 e1, then o plays d3: x to move.
        l.lines(&Command::Position {
            position: PositionSpec::Fen("7/7/7/7/xxo1o1x o".into()),
            moves: vec!["d3".into()],
        })
        .unwrap();
        let lines = l.lines(&go_movetime(100)).unwrap();
        let board = lines.iter().position(|l| l == "BOARD").unwrap();
        assert_eq!(
            &lines[board..],
            ["BOARD", "0,4,1", "2,4,2", "1,4,1", "4,4,2", "6,4,1", "3,2,2", "DONE"]
        );
    }

    #[test]
    fn brain_lines_become_replies() {
        let mut l = link("gomoku");
        assert_eq!(
            l.hear(r#"name="Rapfi", version="1.0", author="dhbloo""#),
            Heard::Reply(Reply::Id {
                field: "name".into(),
                value: "Rapfi".into()
            })
        );
        assert!(matches!(
            l.hear("ERROR unsupported size"),
            Heard::Reply(Reply::Error { message, .. }) if message == "ERROR: unsupported size"
        ));
        assert!(matches!(
            l.hear("MESSAGE depth 8"),
            Heard::Reply(Reply::Info(Info { string: Some(s), .. })) if s == "depth 8"
        ));
        // Off the board: passed on as written, for the referee to refuse.
        assert_eq!(
            l.hear("15,3"),
            Heard::Reply(Reply::BestMove(Some("15,3".into())))
        );
        assert_eq!(l.hear("OK"), Heard::Junk);
        assert_eq!(l.hear("thinking hard"), Heard::Junk);
        assert!(l
            .lines(&Command::Query(agon::protocol::QueryKind::Result))
            .is_err());
        assert!(plays(&GameSpec::parse("tictactoe").unwrap()).is_err());
        assert!(plays(&GameSpec::parse("gomoku").unwrap()).is_ok());
    }
}
