//! Private nom 8 parsers behind `FromStr for Command` (strict) and `FromStr for Reply`
//! (lenient).
//!
//! A line is first framed ([`frame`]: length limit, trailing `\r`, surrounding
//! whitespace), then its first token picks the command. Everything after a known keyword
//! runs under [`cut`], so a nom `Err::Error` at the top means "unknown command" and an
//! `Err::Failure` means "known command, bad argument" (the split of
//! dannyhammer/uci-parser:src/parser.rs `parse_uci_command`). Failures carry a message that
//! names the argument; [`finish`] turns them into [`ParseError`]s.

use nom::bytes::complete::{take_till1, take_while1};
use nom::combinator::{cut, rest, verify};
use nom::error::{ErrorKind, ParseError as NomParseError};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use super::{
    Command, Dialect, ErrorCode, Go, Info, OptionDecl, OptionType, ParseError, PositionSpec,
    QueryKind, Reply, Score, MAX_LINE,
};

/// The error of the private parsers: where it happened and, for failures we raise
/// ourselves, what was wrong.
#[derive(Debug)]
struct Fail<'a> {
    input: &'a str,
    message: Option<String>,
}

impl<'a> NomParseError<&'a str> for Fail<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        Fail {
            input,
            message: None,
        }
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

impl Fail<'_> {
    /// The message, or one made up from where parsing stopped.
    fn describe(self) -> String {
        if let Some(message) = self.message {
            return message;
        }
        match self.input.split(is_blank).find(|t| !t.is_empty()) {
            Some(extra) => format!("unexpected argument '{extra}'"),
            None => "missing argument".to_string(),
        }
    }
}

type Res<'a, T> = IResult<&'a str, T, Fail<'a>>;

/// A failure (not recoverable: the command is known) with a message.
fn failure<'a, T>(input: &'a str, message: impl Into<String>) -> Res<'a, T> {
    Err(nom::Err::Failure(Fail {
        input,
        message: Some(message.into()),
    }))
}

/// The token separators: space and tab, and line breaks, which can only appear inside a
/// line handed over whole (`Display` writes them as spaces).
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// A run of blanks.
fn blanks(input: &str) -> Res<'_, &str> {
    take_while1(is_blank).parse(input)
}

/// A token: a run of characters that are not blanks.
fn token(input: &str) -> Res<'_, &str> {
    take_till1(is_blank).parse(input)
}

/// The next argument: a run of blanks, then a token.
fn arg(input: &str) -> Res<'_, &str> {
    preceded(blanks, token).parse(input)
}

/// The next argument when it is exactly `expected`.
fn word<'a>(expected: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Fail<'a>> {
    verify(arg, move |t: &str| t == expected)
}

/// The free text after the separating blanks: the rest of the line as written.
fn text(input: &str) -> Res<'_, &str> {
    Ok(("", input.trim_start_matches(is_blank)))
}

/// The end of the line; fails naming the first extra argument.
fn end(input: &str) -> Res<'_, ()> {
    match input.split(is_blank).find(|t| !t.is_empty()) {
        None => Ok((input, ())),
        Some(extra) => failure(input, format!("unexpected argument '{extra}'")),
    }
}

/// A strict argument list: all of `parser`, then the end of the line, all under `cut`.
fn args<'a, T>(
    parser: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
) -> impl Parser<&'a str, Output = T, Error = Fail<'a>> {
    cut(terminated(parser, end))
}

/// A lenient argument list: `parser` under `cut`; whatever follows is ignored.
fn lenient<'a, T>(
    parser: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
) -> impl Parser<&'a str, Output = T, Error = Fail<'a>> {
    cut(terminated(parser, rest))
}

/// A parser that takes nothing and returns `value`.
fn bare<'a, T: Clone>(value: T) -> impl Fn(&'a str) -> Res<'a, T> {
    move |input| Ok((input, value.clone()))
}

/// Why `text` is not a number for `what`.
fn bad_number(text: &str, what: &str) -> String {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if text.starts_with('-') && !text.bytes().skip(1).all(|b| b == b'0') {
            format!("'{text}' is negative; {what} must be 0 or more")
        } else {
            format!("'{text}' is too large for {what}")
        }
    } else {
        format!("'{text}' is not a number for {what}")
    }
}

/// The next argument as a number; fails naming `what` when it is missing or no number.
fn number<'a, T: std::str::FromStr>(input: &'a str, what: &str) -> Res<'a, T> {
    match arg(input) {
        Err(_) => failure(input, format!("missing number for {what}")),
        Ok((rest, text)) => match text.parse() {
            Ok(n) => Ok((rest, n)),
            Err(_) => failure(input, bad_number(text, what)),
        },
    }
}

/// Frames one line: length limit, line terminator, surrounding whitespace.
fn frame(line: &str) -> Result<&str, ParseError> {
    let body = line.strip_suffix('\n').unwrap_or(line);
    let body = body.strip_suffix('\r').unwrap_or(body);
    if body.len() > MAX_LINE {
        return Err(ParseError::TooLong { len: body.len() });
    }
    let trimmed = body.trim_matches(is_blank);
    if trimmed.is_empty() {
        Err(ParseError::Empty)
    } else {
        Ok(trimmed)
    }
}

/// Turns a parse result into the public error: `Error` means the keyword is unknown,
/// `Failure` a bad argument.
fn finish<T>(keyword: &str, result: Res<'_, T>) -> Result<T, ParseError> {
    match result {
        Ok((_, value)) => Ok(value),
        Err(nom::Err::Error(_)) => Err(ParseError::UnknownCommand {
            word: keyword.to_string(),
        }),
        Err(nom::Err::Failure(fail)) => Err(ParseError::Syntax {
            command: keyword.to_string(),
            message: fail.describe(),
        }),
        Err(nom::Err::Incomplete(_)) => Err(ParseError::Syntax {
            command: keyword.to_string(),
            message: "incomplete line".to_string(),
        }),
    }
}

/// The first token of a framed (non-empty) line and the rest.
fn keyword(line: &str) -> (&str, &str) {
    let end = line.find(is_blank).unwrap_or(line.len());
    (&line[..end], &line[end..])
}

// ---------------------------------------------------------------------------------------
// Commands (strict)
// ---------------------------------------------------------------------------------------

/// Parses one controller line.
pub(super) fn command(line: &str) -> Result<Command, ParseError> {
    let line = frame(line)?;
    let (keyword, _) = keyword(line);
    finish(keyword, command_line(line))
}

fn command_line(input: &str) -> Res<'_, Command> {
    let (rest, keyword) = token(input)?;
    match keyword {
        "ugi" => args(bare(Command::Hello(Dialect::Ugi))).parse(rest),
        "uci" => args(bare(Command::Hello(Dialect::Uci))).parse(rest),
        "tei" => args(bare(Command::Hello(Dialect::Tei))).parse(rest),
        "isready" => args(bare(Command::IsReady)).parse(rest),
        "setoption" => args(setoption).parse(rest),
        "uginewgame" => args(new_game(Dialect::Ugi)).parse(rest),
        "ucinewgame" => args(new_game(Dialect::Uci)).parse(rest),
        "teinewgame" => args(new_game(Dialect::Tei)).parse(rest),
        "position" => args(position).parse(rest),
        "go" => args(go).parse(rest),
        "stop" => args(bare(Command::Stop)).parse(rest),
        "quit" => args(bare(Command::Quit)).parse(rest),
        "debug" => args(debug).parse(rest),
        "ponderhit" => args(bare(Command::PonderHit)).parse(rest),
        "query" => args(query).parse(rest),
        "perft" => args(perft).parse(rest),
        "moves" => args(bare(Command::Moves)).parse(rest),
        "show" => args(bare(Command::Show)).parse(rest),
        "games" => args(bare(Command::Games)).parse(rest),
        "eval" => args(bare(Command::Eval)).parse(rest),
        "solve" => args(solve).parse(rest),
        _ => Err(nom::Err::Error(Fail::from_error_kind(
            input,
            ErrorKind::Tag,
        ))),
    }
}

/// `setoption name <words> [value <text>]`.
fn setoption(input: &str) -> Res<'_, Command> {
    let rest = match arg(input) {
        Ok((rest, "name")) => rest,
        Ok((_, other)) => return failure(input, format!("expected name, found '{other}'")),
        Err(_) => return failure(input, "missing name"),
    };
    let (rest, words) = many0(verify(arg, |t: &str| t != "value")).parse(rest)?;
    if words.is_empty() {
        return failure(rest, "missing name");
    }
    let (rest, value) = match word("value").parse(rest) {
        Ok((after, _)) => {
            let (after, value) = text(after)?;
            (after, Some(value.to_string()))
        }
        Err(_) => (rest, None),
    };
    Ok((
        rest,
        Command::SetOption {
            name: words.join(" "),
            value,
        },
    ))
}

/// `uginewgame | ucinewgame | teinewgame [<size>]`.
fn new_game<'a>(dialect: Dialect) -> impl Fn(&'a str) -> Res<'a, Command> {
    move |input| {
        let (rest, size) = if input.is_empty() {
            (input, None)
        } else {
            let (rest, size) = number(input, "size")?;
            (rest, Some(size))
        };
        Ok((rest, Command::NewGame { dialect, size }))
    }
}

/// `position startpos|fen <words>|tps <words> [moves <m>...]`.
fn position(input: &str) -> Res<'_, Command> {
    let (rest, kind) = match arg(input) {
        Ok(found) => found,
        Err(_) => return failure(input, "missing startpos, fen or tps"),
    };
    let (rest, position) = match kind {
        "startpos" => (rest, PositionSpec::StartPos),
        "fen" | "tps" => {
            let (rest, words) = many0(verify(arg, |t: &str| t != "moves")).parse(rest)?;
            if words.is_empty() {
                return failure(rest, format!("missing position string after {kind}"));
            }
            (rest, PositionSpec::Fen(words.join(" ")))
        }
        other => {
            return failure(
                input,
                format!("expected startpos, fen or tps, found '{other}'"),
            )
        }
    };
    let (rest, moves) = match arg(rest) {
        Err(_) => (rest, Vec::new()),
        Ok((after, "moves")) => {
            let (after, moves) = many0(arg).parse(after)?;
            if moves.contains(&"moves") {
                return failure(after, "'moves' given twice");
            }
            (after, moves)
        }
        Ok((_, other)) => {
            return failure(
                rest,
                format!("expected moves after {kind}, found '{other}'"),
            )
        }
    };
    Ok((
        rest,
        Command::Position {
            position,
            moves: moves.into_iter().map(str::to_string).collect(),
        },
    ))
}

/// The keys `go` accepts, with the field each one sets.
const GO_KEYS: &[(&str, &str)] = &[
    ("p1time", "p1time"),
    ("p2time", "p2time"),
    ("p1inc", "p1inc"),
    ("p2inc", "p2inc"),
    ("wtime", "p1time"),
    ("btime", "p2time"),
    ("winc", "p1inc"),
    ("binc", "p2inc"),
    ("movestogo", "movestogo"),
    ("movetime", "movetime"),
    ("depth", "depth"),
    ("nodes", "nodes"),
    ("infinite", "infinite"),
];

/// `go [<key> <n>]... [infinite]` in any order, each at most once; or `go perft <n> [divide]`.
fn go(input: &str) -> Res<'_, Command> {
    let mut go = Go::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut input = input;
    while let Ok((rest, key)) = arg(input) {
        if key == "perft" {
            if !seen.is_empty() {
                return failure(input, "'perft' cannot be combined with other keys");
            }
            let (rest, (depth, divide)) = perft_args(rest)?;
            return Ok((rest, Command::Perft { depth, divide }));
        }
        let Some(&(_, field)) = GO_KEYS.iter().find(|(name, _)| *name == key) else {
            let keys: Vec<&str> = GO_KEYS.iter().map(|k| k.0).collect();
            return failure(
                input,
                format!("unknown key '{key}' (keys: {}, perft)", keys.join(", ")),
            );
        };
        if seen.contains(&field) {
            let message = if key == field {
                format!("repeated key '{key}'")
            } else {
                format!("repeated key '{key}' (an alias of {field})")
            };
            return failure(input, message);
        }
        seen.push(field);
        input = match field {
            "infinite" => {
                go.infinite = true;
                rest
            }
            "movestogo" => {
                let (rest, n) = number(rest, key)?;
                go.movestogo = Some(n);
                rest
            }
            "depth" => {
                let (rest, n) = number(rest, key)?;
                go.depth = Some(n);
                rest
            }
            _ => {
                let (rest, n) = number::<u64>(rest, key)?;
                let slot = match field {
                    "p1time" => &mut go.p1time,
                    "p2time" => &mut go.p2time,
                    "p1inc" => &mut go.p1inc,
                    "p2inc" => &mut go.p2inc,
                    "movetime" => &mut go.movetime,
                    _ => &mut go.nodes,
                };
                *slot = Some(n);
                rest
            }
        };
    }
    Ok((input, Command::Go(go)))
}

/// `<depth> [divide]`.
fn perft_args(input: &str) -> Res<'_, (u32, bool)> {
    let (rest, depth) = number(input, "depth")?;
    match word("divide").parse(rest) {
        Ok((rest, _)) => Ok((rest, (depth, true))),
        Err(_) => Ok((rest, (depth, false))),
    }
}

/// `perft <depth> [divide]`.
fn perft(input: &str) -> Res<'_, Command> {
    let (rest, (depth, divide)) = perft_args(input)?;
    Ok((rest, Command::Perft { depth, divide }))
}

/// `solve [method <m>] [distance] [movetime <ms>]`, the keys in any order.
fn solve(input: &str) -> Res<'_, Command> {
    let (mut method, mut distance, mut movetime) = (None, false, None);
    let mut input = input;
    while let Ok((rest, key)) = arg(input) {
        match key {
            "movetime" if movetime.is_none() => {
                let (rest, ms) = number::<u64>(rest, "movetime")?;
                movetime = Some(ms);
                input = rest;
            }
            "method" if method.is_none() => {
                let names = crate::protocol::SolveMethod::names();
                let Ok((rest, name)) = arg(rest) else {
                    return failure(rest, format!("missing method ({names})"));
                };
                let Some(m) = crate::protocol::SolveMethod::from_name(name) else {
                    return failure(rest, format!("unknown method '{name}' ({names})"));
                };
                method = Some(m);
                input = rest;
            }
            "distance" if !distance => {
                distance = true;
                input = rest;
            }
            "movetime" | "method" | "distance" => {
                return failure(input, format!("repeated key '{key}'"))
            }
            _ => break,
        }
    }
    Ok((
        input,
        Command::Solve {
            method,
            distance,
            movetime,
        },
    ))
}

/// `debug on|off`.
fn debug(input: &str) -> Res<'_, Command> {
    match arg(input) {
        Ok((rest, "on")) => Ok((rest, Command::Debug(true))),
        Ok((rest, "off")) => Ok((rest, Command::Debug(false))),
        Ok((_, other)) => failure(input, format!("expected on or off, found '{other}'")),
        Err(_) => failure(input, "missing on or off"),
    }
}

/// `query gameover|p1turn|result|position|game`.
fn query(input: &str) -> Res<'_, Command> {
    let kinds = QueryKind::ALL.map(QueryKind::name).join(", ");
    match arg(input) {
        Ok((rest, word)) => match QueryKind::from_name(word) {
            Some(kind) => Ok((rest, Command::Query(kind))),
            None => failure(input, format!("unknown kind '{word}' (kinds: {kinds})")),
        },
        Err(_) => failure(input, format!("missing kind (kinds: {kinds})")),
    }
}

// ---------------------------------------------------------------------------------------
// Replies (lenient)
// ---------------------------------------------------------------------------------------

/// Parses one engine line.
pub(super) fn reply(line: &str) -> Result<Reply, ParseError> {
    let line = frame(line)?;
    let (keyword, _) = keyword(line);
    finish(keyword, reply_line(line))
}

fn reply_line(input: &str) -> Res<'_, Reply> {
    let (rest, keyword) = token(input)?;
    match keyword {
        "id" => lenient(id).parse(rest),
        "option" => lenient(option).map(Reply::Option).parse(rest),
        "ugiok" => lenient(bare(Reply::HelloOk(Dialect::Ugi))).parse(rest),
        "uciok" => lenient(bare(Reply::HelloOk(Dialect::Uci))).parse(rest),
        "teiok" => lenient(bare(Reply::HelloOk(Dialect::Tei))).parse(rest),
        "readyok" => lenient(bare(Reply::ReadyOk)).parse(rest),
        "info" => lenient(info).map(Reply::Info).parse(rest),
        "bestmove" => lenient(bestmove).map(Reply::BestMove).parse(rest),
        "response" => lenient(text)
            .map(|t| Reply::Response(t.to_string()))
            .parse(rest),
        "error" => lenient(error).parse(rest),
        "divide" => lenient(divide).parse(rest),
        "perft" => lenient(perft_reply).parse(rest),
        "solution" => lenient(solution).parse(rest),
        "moves" => lenient(many0(arg))
            .map(|moves| Reply::Moves(moves.into_iter().map(str::to_string).collect()))
            .parse(rest),
        // The board text keeps its leading spaces: only the one separator is dropped.
        "board" => Ok(("", Reply::Board(rest.get(1..).unwrap_or("").to_string()))),
        "showok" => lenient(bare(Reply::ShowOk)).parse(rest),
        "game" => lenient(text)
            .map(|t| Reply::Game(t.to_string()))
            .parse(rest),
        "gamesok" => lenient(bare(Reply::GamesOk)).parse(rest),
        "eval" => lenient(eval).parse(rest),
        _ => Err(nom::Err::Error(Fail::from_error_kind(
            input,
            ErrorKind::Tag,
        ))),
    }
}

/// `id <field> <text>`.
fn id(input: &str) -> Res<'_, Reply> {
    let Ok((rest, field)) = arg(input) else {
        return failure(input, "missing field (name or author)");
    };
    let (rest, value) = text(rest)?;
    Ok((
        rest,
        Reply::Id {
            field: field.to_string(),
            value: value.to_string(),
        },
    ))
}

/// The words that start a section of an `option` line after `type`.
const OPTION_KEYS: [&str; 4] = ["default", "min", "max", "var"];

/// An option text value: `<empty>` is the empty string.
fn option_text(words: &[&str]) -> String {
    match words {
        ["<empty>"] => String::new(),
        _ => words.join(" "),
    }
}

/// `name <words> type <type> [default <words>] [min <n>] [max <n>] [var <words>]...`.
fn option(input: &str) -> Res<'_, OptionDecl> {
    let rest = match arg(input) {
        Ok((rest, "name")) => rest,
        Ok((_, other)) => return failure(input, format!("expected name, found '{other}'")),
        Err(_) => return failure(input, "missing name"),
    };
    let (rest, name) = many0(verify(arg, |t: &str| t != "type")).parse(rest)?;
    if name.is_empty() {
        return failure(rest, "missing name");
    }
    let Ok((rest, _)) = word("type").parse(rest) else {
        return failure(rest, "missing type");
    };
    let Ok((mut rest, kind)) = arg(rest) else {
        return failure(rest, "missing type");
    };
    let mut default: Option<Vec<&str>> = None;
    let (mut min, mut max): (Option<Vec<&str>>, Option<Vec<&str>>) = (None, None);
    let mut vars: Vec<Vec<&str>> = Vec::new();
    while let Ok((after, key)) = arg(rest) {
        // The first word after a key is always a value (`default default`); the value
        // then runs to the next key.
        let (after, words) = match arg(after) {
            Ok((after, first)) => {
                let (after, mut more) =
                    many0(verify(arg, |t: &str| !OPTION_KEYS.contains(&t))).parse(after)?;
                more.insert(0, first);
                (after, more)
            }
            Err(_) => (after, Vec::new()),
        };
        match key {
            "default" => default = Some(words),
            "min" => min = Some(words),
            "max" => max = Some(words),
            "var" => vars.push(words),
            _ => {} // junk before the first section: skipped
        }
        rest = after;
    }
    let spin_value = |words: Option<Vec<&str>>, what: &str, fallback: i64| match words {
        None => Ok(fallback),
        Some(words) => {
            let text = words.join(" ");
            text.parse::<i64>().map_err(|_| bad_number(&text, what))
        }
    };
    let kind = match kind.to_ascii_lowercase().as_str() {
        "check" => OptionType::Check {
            default: default.is_some_and(|w| w.join(" ").eq_ignore_ascii_case("true")),
        },
        "spin" => {
            let values = (
                spin_value(default, "default", 0),
                spin_value(min, "min", i64::MIN),
                spin_value(max, "max", i64::MAX),
            );
            match values {
                (Ok(default), Ok(min), Ok(max)) => OptionType::Spin { default, min, max },
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return failure(input, e),
            }
        }
        "combo" => OptionType::Combo {
            default: option_text(&default.unwrap_or_default()),
            vars: vars.iter().map(|v| option_text(v)).collect(),
        },
        "string" => OptionType::String {
            default: option_text(&default.unwrap_or_default()),
        },
        "button" => OptionType::Button,
        other => {
            return failure(
                input,
                format!("unknown type '{other}' (types: check, spin, combo, string, button)"),
            )
        }
    };
    Ok((
        rest,
        OptionDecl {
            name: name.join(" "),
            kind,
        },
    ))
}

/// Keys an `info` line may contain. A token after `pv` that is one of them ends the pv;
/// an unknown key skips its value only when that value is not one of them.
pub(super) const INFO_KEYS: &[&str] = &[
    "depth",
    "seldepth",
    "score",
    "nodes",
    "nps",
    "time",
    "hashfull",
    "pv",
    "string",
    "multipv",
    "currmove",
    "currmovenumber",
    "tbhits",
    "sbhits",
    "cpuload",
    "wdl",
    "refutation",
    "currline",
    "lowerbound",
    "upperbound",
    "ebf",
    "movesleft",
    "visits",
];

/// Whether a token could be a number (it is then taken as the value of a numeric key).
fn looks_numeric(token: &str) -> bool {
    token
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.'))
}

/// The next argument if it looks like a number, parsed when it fits `T`; the token is
/// consumed either way (so `time 0.054` is skipped as a whole).
fn lenient_number<T: std::str::FromStr>(input: &str) -> (&str, Option<T>) {
    match arg(input) {
        Ok((rest, token)) if looks_numeric(token) => (rest, token.parse().ok()),
        _ => (input, None),
    }
}

/// Converts UCI `score mate <moves>` to plies: mate in n moves is a win in 2n-1 plies,
/// being mated in n moves a loss in 2n plies.
fn mate_to_score(moves: i64) -> Score {
    let plies = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    if moves > 0 {
        Score::Win(plies((moves as u64).saturating_mul(2) - 1))
    } else {
        Score::Loss(plies(moves.unsigned_abs().saturating_mul(2)))
    }
}

/// `score cp <n> | win <n> | loss <n> | mate <n> | <n>`.
fn score(input: &str) -> (&str, Option<Score>) {
    match arg(input) {
        Ok((rest, "cp")) => {
            let (rest, n) = lenient_number::<i32>(rest);
            (rest, n.map(Score::Cp))
        }
        Ok((rest, "win")) => {
            let (rest, n) = lenient_number::<u32>(rest);
            (rest, n.map(Score::Win))
        }
        Ok((rest, "loss")) => {
            let (rest, n) = lenient_number::<u32>(rest);
            (rest, n.map(Score::Loss))
        }
        Ok((rest, "mate")) => {
            let (rest, n) = lenient_number::<i64>(rest);
            (rest, n.map(mate_to_score))
        }
        // `score -368` without a unit (seen in the wild): centi-units.
        Ok((_, token)) if looks_numeric(token) => {
            let (rest, n) = lenient_number::<i32>(input);
            (rest, n.map(Score::Cp))
        }
        _ => (input, None),
    }
}

/// The arguments up to the next `info` key (or the end).
fn until_info_key(input: &str) -> Res<'_, Vec<&str>> {
    many0(verify(arg, |t: &str| !INFO_KEYS.contains(&t))).parse(input)
}

/// `info` fields in any order; unknown keys and malformed values are skipped.
fn info(input: &str) -> Res<'_, Info> {
    let mut info = Info::default();
    let mut input = input;
    while let Ok((rest, key)) = arg(input) {
        input = match key {
            "depth" => {
                let (rest, n) = lenient_number(rest);
                info.depth = n.or(info.depth);
                rest
            }
            "seldepth" => {
                let (rest, n) = lenient_number(rest);
                info.seldepth = n.or(info.seldepth);
                rest
            }
            "nodes" => {
                let (rest, n) = lenient_number(rest);
                info.nodes = n.or(info.nodes);
                rest
            }
            "nps" => {
                let (rest, n) = lenient_number(rest);
                info.nps = n.or(info.nps);
                rest
            }
            "time" => {
                let (rest, n) = lenient_number(rest);
                info.time = n.or(info.time);
                rest
            }
            "hashfull" => {
                let (rest, n) = lenient_number(rest);
                info.hashfull = n.or(info.hashfull);
                rest
            }
            "score" => {
                let (rest, s) = score(rest);
                info.score = s.or(info.score);
                rest
            }
            "pv" => {
                let (rest, moves) = until_info_key(rest)?;
                info.pv = moves.into_iter().map(str::to_string).collect();
                rest
            }
            "string" => {
                let (rest, text) = text(rest)?;
                info.string = Some(text.to_string());
                rest
            }
            "wdl" => {
                let mut rest = rest;
                for _ in 0..3 {
                    rest = lenient_number::<u64>(rest).0;
                }
                rest
            }
            "refutation" | "currline" => until_info_key(rest)?.0,
            "lowerbound" | "upperbound" => rest,
            // multipv, currmove, tbhits... and unknown keys: one value, unless the next
            // token is itself a key.
            _ => match arg(rest) {
                Ok((after, value)) if !INFO_KEYS.contains(&value) => after,
                _ => rest,
            },
        };
    }
    Ok((input, info))
}

/// `bestmove <move> [ponder <move>]`; `none`, `(none)`, `0000`, `null` mean no move.
fn bestmove(input: &str) -> Res<'_, Option<String>> {
    match arg(input) {
        Err(_) => failure(input, "missing move"),
        Ok((rest, mv)) => {
            let none = matches!(mv, "none" | "(none)" | "0000") || mv.eq_ignore_ascii_case("null");
            Ok((rest, (!none).then(|| mv.to_string())))
        }
    }
}

/// `error <code> <message>`.
fn error(input: &str) -> Res<'_, Reply> {
    let Ok((rest, code)) = arg(input) else {
        return failure(input, "missing code");
    };
    let code = match code.parse::<ErrorCode>() {
        Ok(code) => code,
        Err(ParseError::Syntax { message, .. }) => return failure(input, message),
        Err(other) => return failure(input, other.to_string()),
    };
    let (rest, message) = text(rest)?;
    Ok((
        rest,
        Reply::Error {
            code,
            message: message.to_string(),
        },
    ))
}

/// `divide <move> <count>`.
fn divide(input: &str) -> Res<'_, Reply> {
    let Ok((rest, mv)) = arg(input) else {
        return failure(input, "missing move");
    };
    let (rest, nodes) = number(rest, "count")?;
    Ok((
        rest,
        Reply::Divide {
            mv: mv.to_string(),
            nodes,
        },
    ))
}

/// `perft depth <d> [stopped] nodes <n> time <ms> nps <n>`, keys in any order; `time`
/// and `nps` default to 0, `stopped` is a flag without a value, unknown keys skip one
/// value.
fn perft_reply(input: &str) -> Res<'_, Reply> {
    let (mut depth, mut nodes, mut time_ms, mut nps) = (None, None, 0, 0);
    let mut stopped = false;
    let mut input = input;
    while let Ok((rest, key)) = arg(input) {
        input = match key {
            "stopped" => {
                stopped = true;
                rest
            }
            "depth" => {
                let (rest, n) = number(rest, key)?;
                depth = Some(n);
                rest
            }
            "nodes" => {
                let (rest, n) = number(rest, key)?;
                nodes = Some(n);
                rest
            }
            "time" => {
                let (rest, n) = number(rest, key)?;
                time_ms = n;
                rest
            }
            "nps" => {
                let (rest, n) = number(rest, key)?;
                nps = n;
                rest
            }
            _ => arg(rest).map_or(rest, |(after, _)| after),
        };
    }
    let Some(depth) = depth else {
        return failure(input, "missing depth");
    };
    let Some(nodes) = nodes else {
        return failure(input, "missing nodes");
    };
    Ok((
        input,
        Reply::Perft {
            depth,
            nodes,
            time_ms,
            nps,
            stopped,
        },
    ))
}

/// `solution <result> [plies <n>] [move <m>] method <m> nodes <n> time <ms>`, keys after
/// the result in any order, unknown keys with one value skipped.
fn solution(input: &str) -> Res<'_, Reply> {
    let (mut input, result) = arg(input)?;
    let (mut plies, mut mv, mut method, mut nodes, mut time_ms) = (None, None, None, 0, 0);
    while let Ok((rest, key)) = arg(input) {
        input = match key {
            "plies" => {
                let (rest, n) = number(rest, key)?;
                plies = Some(n);
                rest
            }
            "move" => {
                let (rest, m) = arg(rest)?;
                mv = Some(m.to_string());
                rest
            }
            "method" => {
                let (rest, m) = arg(rest)?;
                method = Some(m.to_string());
                rest
            }
            "nodes" => {
                let (rest, n) = number(rest, key)?;
                nodes = n;
                rest
            }
            "time" => {
                let (rest, n) = number(rest, key)?;
                time_ms = n;
                rest
            }
            _ => arg(rest).map_or(rest, |(after, _)| after),
        };
    }
    let Some(method) = method else {
        return failure(input, "missing method");
    };
    Ok((
        input,
        Reply::Solution {
            result: result.to_string(),
            plies,
            mv,
            method,
            nodes,
            time_ms,
        },
    ))
}

/// `eval cp <n> [heuristic <name>]`, keys in any order.
fn eval(input: &str) -> Res<'_, Reply> {
    let (mut cp, mut heuristic) = (None, String::new());
    let mut input = input;
    while let Ok((rest, key)) = arg(input) {
        input = match key {
            "cp" => {
                let (rest, n) = number(rest, "cp")?;
                cp = Some(n);
                rest
            }
            "heuristic" => match arg(rest) {
                Ok((after, name)) => {
                    heuristic = name.to_string();
                    after
                }
                Err(_) => rest,
            },
            _ => arg(rest).map_or(rest, |(after, _)| after),
        };
    }
    let Some(cp) = cp else {
        return failure(input, "missing cp");
    };
    Ok((input, Reply::Eval { cp, heuristic }))
}

#[cfg(test)]
mod tests;
