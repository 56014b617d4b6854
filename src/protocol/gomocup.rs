//! The words of the Gomocup protocol (Petr Laštovička's Piskvork "new protocol", the
//! `pbrain-` protocol of Gomocup, its GUIs and managers): the manager's commands and the
//! brain's replies as types, with their nom parsers and their wire form. Both sides use
//! them: agon's brain (`crate::gomocup`) and the arena's dialect.
//!
//! Specification: <https://plastovicka.github.io/protocl2en.htm> (source/doc/protocl2en.htm
//! of plastovicka/Piskvork), with the Yixin-Board extensions `YXSTOP` and `YXHASHCLEAR`.
//! Coordinates are `x,y`, numbered from 0: `x` the column from the left, `y` the row from
//! the top. Command words are case-insensitive; lines may end in CR LF, LF or CR.

use std::fmt;

use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map_res, opt, rest};
use nom::sequence::{preceded, separated_pair};
use nom::{IResult, Parser};

/// A square: `x` the column from the left, `y` the row from the top, both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    /// Column, 0 at the left.
    pub x: u32,
    /// Row, 0 at the top.
    pub y: u32,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A line from the manager to the brain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START <size>`: a new empty square board.
    Start(u32),
    /// `RECTSTART <width>,<height>`: a new empty rectangular board.
    RectStart {
        /// Columns (`x`).
        width: u32,
        /// Rows (`y`).
        height: u32,
    },
    /// `RESTART`: a new empty board of the same size.
    Restart,
    /// `BEGIN`: the brain opens on the empty board.
    Begin,
    /// `TURN x,y`: the opponent's move; the brain answers with its own.
    Turn(Point),
    /// `BOARD`: a whole position follows, one [`Command::Stone`] a line, then `DONE`.
    Board,
    /// `x,y,field` inside `BOARD`: 1 the brain's stone, 2 the opponent's, 3 a stone of a
    /// winning line in a continuous game.
    Stone(Point, u8),
    /// `x,y` inside `SWAP2BOARD`.
    Square(Point),
    /// `DONE`: the end of `BOARD` or `SWAP2BOARD`.
    Done,
    /// `INFO <key> <value>`: a limit or a setting; never answered.
    Info {
        /// The key, in lower case.
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `END`: the brain ends at once, answering nothing.
    End,
    /// `ABOUT`: the brain names itself.
    About,
    /// `TAKEBACK x,y`: the stone on x,y is taken back.
    Takeback(Point),
    /// `PLAY x,y`: the manager's answer to `SUGGEST`.
    Play(Point),
    /// `SWAP2BOARD`: the opening of the swap2 rule; squares follow, then `DONE`.
    Swap2Board,
    /// `YXSTOP` or `STOP` (Yixin-Board): answer the move being thought about now.
    Stop,
    /// `YXHASHCLEAR` (Yixin-Board): forget what earlier searches learnt.
    HashClear,
}

/// A line from the brain to the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`, after `START`, `RECTSTART`, `RESTART` and `TAKEBACK`.
    Ok,
    /// `x,y`: the brain's move.
    Move(Point),
    /// `x,y x,y ...`: several stones at once (`SWAP2BOARD`: the first three, or the 4th and
    /// 5th).
    Moves(Vec<Point>),
    /// `SWAP`: in `SWAP2BOARD`, the brain takes the other colour.
    Swap,
    /// `SUGGEST x,y`: a move the manager may replace with `PLAY`.
    Suggest(Point),
    /// `ERROR <message>`: a known command the brain cannot carry out.
    Error(String),
    /// `UNKNOWN <message>`: a command the brain does not know.
    Unknown(String),
    /// `MESSAGE <text>`: for the user.
    Message(String),
    /// `DEBUG <text>`: for the brain's author.
    Debug(String),
    /// `key="value", ...`: the answer to `ABOUT` (kept as written).
    About(String),
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start(size) => write!(f, "START {size}"),
            Command::RectStart { width, height } => write!(f, "RECTSTART {width},{height}"),
            Command::Restart => f.write_str("RESTART"),
            Command::Begin => f.write_str("BEGIN"),
            Command::Turn(p) => write!(f, "TURN {p}"),
            Command::Board => f.write_str("BOARD"),
            Command::Stone(p, field) => write!(f, "{p},{field}"),
            Command::Square(p) => write!(f, "{p}"),
            Command::Done => f.write_str("DONE"),
            Command::Info { key, value } => write!(f, "INFO {key} {value}"),
            Command::End => f.write_str("END"),
            Command::About => f.write_str("ABOUT"),
            Command::Takeback(p) => write!(f, "TAKEBACK {p}"),
            Command::Play(p) => write!(f, "PLAY {p}"),
            Command::Swap2Board => f.write_str("SWAP2BOARD"),
            Command::Stop => f.write_str("YXSTOP"),
            Command::HashClear => f.write_str("YXHASHCLEAR"),
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Ok => f.write_str("OK"),
            Reply::Move(p) => write!(f, "{p}"),
            Reply::Moves(ps) => {
                let words: Vec<String> = ps.iter().map(Point::to_string).collect();
                f.write_str(&words.join(" "))
            }
            Reply::Swap => f.write_str("SWAP"),
            Reply::Suggest(p) => write!(f, "SUGGEST {p}"),
            Reply::Error(m) => write!(f, "ERROR {}", one_line(m)),
            Reply::Unknown(m) => write!(f, "UNKNOWN {}", one_line(m)),
            Reply::Message(m) => write!(f, "MESSAGE {}", one_line(m)),
            Reply::Debug(m) => write!(f, "DEBUG {}", one_line(m)),
            Reply::About(text) => f.write_str(&one_line(text)),
        }
    }
}

/// `text` on one line: the protocol has no way to continue a line.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// Why a manager's line is no command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// An empty line (the protocol ignores them).
    Empty,
    /// The first word is no command of the protocol.
    Unknown(String),
    /// A known command with a bad argument: what was wrong, in words.
    Bad(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty line"),
            ParseError::Unknown(word) => write!(f, "'{word}' is no command of this protocol"),
            ParseError::Bad(why) => f.write_str(why),
        }
    }
}

/// A decimal number that fits a `u32`.
fn number(input: &str) -> IResult<&str, u32> {
    map_res(digit1, str::parse::<u32>).parse(input)
}

/// `x,y`, spaces allowed around the comma.
fn point(input: &str) -> IResult<&str, Point> {
    let (input, (x, y)) =
        separated_pair(number, (space0, tag(","), space0), number).parse(input)?;
    Ok((input, Point { x, y }))
}

/// `x,y,field`.
fn stone(input: &str) -> IResult<&str, (Point, u32)> {
    let (input, p) = point(input)?;
    let (input, field) = preceded((space0, tag(","), space0), number).parse(input)?;
    Ok((input, (p, field)))
}

/// The whole of `args` as one value, or `what` in an error naming the command.
fn whole<'a, T>(
    command: &str,
    what: &str,
    args: &'a str,
    parser: impl Parser<&'a str, Output = T, Error = nom::error::Error<&'a str>>,
) -> Result<T, ParseError> {
    all_consuming(parser)
        .parse(args.trim())
        .map(|(_, value)| value)
        .map_err(|_| ParseError::Bad(format!("{command} '{}': expected {what}", args.trim())))
}

/// Reads one line from the manager.
///
/// # Errors
/// [`ParseError::Empty`] for a blank line, [`ParseError::Unknown`] for an unknown first
/// word, [`ParseError::Bad`] naming the command and what it expected for a bad argument.
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if line.is_empty() {
        return Err(ParseError::Empty);
    }
    if line.starts_with(|c: char| c.is_ascii_digit()) {
        if let Ok((p, field)) = whole("a stone", "x,y,field", line, stone) {
            return match u8::try_from(field) {
                Ok(f @ 1..=3) => Ok(Command::Stone(p, f)),
                _ => Err(ParseError::Bad(format!(
                    "'{line}': the field is 1 (own stone), 2 (opponent's) or 3 (winning line)"
                ))),
            };
        }
        return whole("a square", "x,y or x,y,field", line, point).map(Command::Square);
    }
    let word_end = line.find(char::is_whitespace).unwrap_or(line.len());
    let (word, args) = line.split_at(word_end);
    let upper = word.to_ascii_uppercase();
    let no_args = |command: Command| {
        if args.trim().is_empty() {
            Ok(command)
        } else {
            Err(ParseError::Bad(format!(
                "{upper} takes no argument, got '{}'",
                args.trim()
            )))
        }
    };
    match upper.as_str() {
        "START" => whole("START", "a board size", args, number).map(Command::Start),
        "RECTSTART" => {
            whole("RECTSTART", "width,height", args, point).map(|p| Command::RectStart {
                width: p.x,
                height: p.y,
            })
        }
        "RESTART" => no_args(Command::Restart),
        "BEGIN" => no_args(Command::Begin),
        "TURN" => whole("TURN", "x,y", args, point).map(Command::Turn),
        "BOARD" => no_args(Command::Board),
        "DONE" => no_args(Command::Done),
        "END" => no_args(Command::End),
        "ABOUT" => no_args(Command::About),
        "TAKEBACK" => whole("TAKEBACK", "x,y", args, point).map(Command::Takeback),
        "PLAY" => whole("PLAY", "x,y", args, point).map(Command::Play),
        "SWAP2BOARD" => no_args(Command::Swap2Board),
        "YXSTOP" | "STOP" => no_args(Command::Stop),
        "YXHASHCLEAR" => no_args(Command::HashClear),
        "INFO" => {
            let info = |input| -> IResult<&str, (&str, &str)> {
                (
                    preceded(space0, take_while1(|c: char| !c.is_whitespace())),
                    preceded(opt(space1), rest),
                )
                    .parse(input)
            };
            let (key, value) = whole("INFO", "a key and a value", args, info)?;
            Ok(Command::Info {
                key: key.to_ascii_lowercase(),
                value: value.trim().to_string(),
            })
        }
        _ => Err(ParseError::Unknown(word.to_string())),
    }
}

/// Reads one line from a brain. Lenient, as managers are: a line that is no known reply is
/// `None` (GomocupJudge skips such lines; the arena names them).
pub fn parse_reply(line: &str) -> Option<Reply> {
    let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if line.is_empty() {
        return None;
    }
    if line.starts_with(|c: char| c.is_ascii_digit()) {
        let points: Option<Vec<Point>> = line
            .split_whitespace()
            .map(|w| all_consuming(point).parse(w).ok().map(|(_, p)| p))
            .collect();
        let points = points?;
        return match points.as_slice() {
            [one] => Some(Reply::Move(*one)),
            _ => Some(Reply::Moves(points)),
        };
    }
    let word_end = line.find(char::is_whitespace).unwrap_or(line.len());
    let (word, args) = line.split_at(word_end);
    let args = args.trim().to_string();
    match word.to_ascii_uppercase().as_str() {
        "OK" => Some(Reply::Ok),
        "SWAP" => Some(Reply::Swap),
        "ERROR" => Some(Reply::Error(args)),
        "UNKNOWN" => Some(Reply::Unknown(args)),
        "MESSAGE" => Some(Reply::Message(args)),
        "DEBUG" => Some(Reply::Debug(args)),
        "SUGGEST" => all_consuming(point)
            .parse(args.as_str())
            .ok()
            .map(|(_, p)| Reply::Suggest(p)),
        _ if line.contains('=') => Some(Reply::About(line.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u32, y: u32) -> Point {
        Point { x, y }
    }

    #[test]
    fn the_specifications_examples_parse() {
        // Every command example of protocl2en.htm.
        assert_eq!(parse_command("START 20"), Ok(Command::Start(20)));
        assert_eq!(parse_command("TURN 10,10\r"), Ok(Command::Turn(p(10, 10))));
        assert_eq!(parse_command("BEGIN"), Ok(Command::Begin));
        assert_eq!(parse_command("BOARD"), Ok(Command::Board));
        assert_eq!(parse_command("10,11,2"), Ok(Command::Stone(p(10, 11), 2)));
        assert_eq!(parse_command("DONE"), Ok(Command::Done));
        assert_eq!(
            parse_command("INFO timeout_match 300000"),
            Ok(Command::Info {
                key: "timeout_match".into(),
                value: "300000".into()
            })
        );
        assert_eq!(
            parse_command("INFO folder C:\\My Files\\"),
            Ok(Command::Info {
                key: "folder".into(),
                value: "C:\\My Files\\".into()
            })
        );
        assert_eq!(parse_command("END"), Ok(Command::End));
        assert_eq!(parse_command("ABOUT"), Ok(Command::About));
        assert_eq!(
            parse_command("RECTSTART 30,20"),
            Ok(Command::RectStart {
                width: 30,
                height: 20
            })
        );
        assert_eq!(parse_command("RESTART"), Ok(Command::Restart));
        assert_eq!(
            parse_command("TAKEBACK 9,10"),
            Ok(Command::Takeback(p(9, 10)))
        );
        assert_eq!(parse_command("PLAY 12,10"), Ok(Command::Play(p(12, 10))));
        assert_eq!(parse_command("SWAP2BOARD"), Ok(Command::Swap2Board));
        assert_eq!(parse_command("7,7"), Ok(Command::Square(p(7, 7))));
        // Case-insensitive words, spaces around commas.
        assert_eq!(parse_command("turn 3 , 4"), Ok(Command::Turn(p(3, 4))));
        assert_eq!(parse_command("yxstop"), Ok(Command::Stop));
    }

    #[test]
    fn bad_lines_say_what_was_wrong() {
        assert_eq!(parse_command("  \r"), Err(ParseError::Empty));
        assert_eq!(
            parse_command("FLY 1,2"),
            Err(ParseError::Unknown("FLY".into()))
        );
        for (line, says) in [
            ("TURN 10", "TURN '10': expected x,y"),
            ("TURN -1,3", "TURN '-1,3': expected x,y"),
            ("TURN 1,2,3", "TURN '1,2,3': expected x,y"),
            ("TURN 99999999999,1", "TURN '99999999999,1': expected x,y"),
            ("START twenty", "START 'twenty': expected a board size"),
            ("BEGIN now", "BEGIN takes no argument, got 'now'"),
            ("10,10,7", "the field is 1 (own stone), 2 (opponent's) or 3"),
            ("10,x", "a square '10,x': expected x,y or x,y,field"),
        ] {
            match parse_command(line) {
                Err(ParseError::Bad(why)) => assert!(why.contains(says), "{line}: {why}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn replies_read_back_as_written() {
        for reply in [
            Reply::Ok,
            Reply::Move(p(11, 10)),
            Reply::Moves(vec![p(7, 7), p(8, 7), p(9, 9)]),
            Reply::Swap,
            Reply::Suggest(p(10, 10)),
            Reply::Error("unsupported size".into()),
            Reply::Unknown("what".into()),
            Reply::Message("I will be the winner".into()),
            Reply::Debug("alfa=10025".into()),
            Reply::About(r#"name="SomeBrain", version="1.0", author="Nymand""#.into()),
        ] {
            assert_eq!(parse_reply(&reply.to_string()), Some(reply.clone()));
        }
        assert_eq!(parse_reply("11,10\r"), Some(Reply::Move(p(11, 10))));
        assert_eq!(parse_reply("thinking..."), None);
        assert_eq!(parse_reply("11,"), None);
        // A reply cannot break the line it is on.
        assert_eq!(
            Reply::Message("two\nlines".into()).to_string(),
            "MESSAGE two lines"
        );
    }
}
