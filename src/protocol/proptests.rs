//! Property tests: the serializer and the parsers agree (`x.to_string().parse() == Ok(x)`
//! for generated well-formed values), and no input makes a parser panic or give an
//! error that does not say what was wrong.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

use super::{
    Command, Dialect, ErrorCode, Go, Info, OptionDecl, OptionType, ParseError, PositionSpec,
    QueryKind, Reply, Score, MAX_LINE,
};

/// Words that have a meaning somewhere on a line (with the `info` keys, taken from the
/// parser's own list); generated tokens avoid them all.
const KEYWORDS: &[&str] = &[
    "moves",
    "none",
    "0000",
    "null",
    "value",
    "name",
    "type",
    "default",
    "min",
    "max",
    "var",
    "<empty>",
    "startpos",
    "fen",
    "tps",
    "divide",
    "ponder",
    "cp",
    "heuristic",
];

fn is_keyword(token: &str) -> bool {
    KEYWORDS
        .iter()
        .chain(super::parse::INFO_KEYS)
        .any(|k| k.eq_ignore_ascii_case(token))
}

/// A move token of any of our games (`b2`, `a1-b1`, `3c3>12`...).
fn move_token() -> impl Strategy<Value = String> {
    "[a-z0-9>+<-]{1,6}".prop_filter("keyword", |t| !is_keyword(t))
}

/// A word of a name, a position string or an option value.
fn word() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_=.,/()-]{1,8}".prop_filter("keyword", |t| !is_keyword(t))
}

/// Words joined by single spaces.
fn phrase() -> impl Strategy<Value = String> {
    vec(word(), 1..4).prop_map(|w| w.join(" "))
}

/// Free text: printable, non-ASCII and inner runs of blanks allowed, no blank at either end.
fn free_text() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just(String::new()),
        6 => "[!-~é…→]([ -~é…→\t]{0,30}[!-~é…→])?",
    ]
}

/// An option value: a phrase or the empty string (written `<empty>`). Its first word may
/// be a keyword of the `option` line (`default default`).
fn option_value() -> impl Strategy<Value = String> {
    let keyword_first = (
        select(vec!["default", "min", "max", "var", "type", "name"]),
        option::of(phrase()),
    )
        .prop_map(|(first, rest)| match rest {
            Some(rest) => format!("{first} {rest}"),
            None => first.to_string(),
        });
    prop_oneof![1 => Just(String::new()), 4 => phrase(), 1 => keyword_first]
}

fn dialect() -> impl Strategy<Value = Dialect> {
    select(Dialect::ALL.to_vec())
}

fn score() -> impl Strategy<Value = Score> {
    prop_oneof![
        any::<i32>().prop_map(Score::Cp),
        any::<u32>().prop_map(Score::Win),
        any::<u32>().prop_map(Score::Loss),
    ]
}

fn go() -> impl Strategy<Value = Go> {
    (
        (
            option::of(any::<u64>()),
            option::of(any::<u64>()),
            option::of(any::<u64>()),
            option::of(any::<u64>()),
        ),
        (
            option::of(any::<u32>()),
            option::of(any::<u64>()),
            option::of(any::<u32>()),
            option::of(any::<u64>()),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((p1time, p2time, p1inc, p2inc), (movestogo, movetime, depth, nodes, infinite))| Go {
                p1time,
                p2time,
                p1inc,
                p2inc,
                movestogo,
                movetime,
                depth,
                nodes,
                infinite,
            },
        )
}

fn position_spec() -> impl Strategy<Value = PositionSpec> {
    prop_oneof![
        Just(PositionSpec::StartPos),
        vec(word(), 1..4).prop_map(|w| PositionSpec::Fen(w.join(" "))),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        dialect().prop_map(Command::Hello),
        Just(Command::IsReady),
        (phrase(), option::of(free_text()))
            .prop_map(|(name, value)| Command::SetOption { name, value }),
        (dialect(), option::of(any::<u32>()))
            .prop_map(|(dialect, size)| Command::NewGame { dialect, size }),
        (position_spec(), vec(move_token(), 0..6))
            .prop_map(|(position, moves)| Command::Position { position, moves }),
        go().prop_map(Command::Go),
        Just(Command::Stop),
        Just(Command::Quit),
        any::<bool>().prop_map(Command::Debug),
        Just(Command::PonderHit),
        select(QueryKind::ALL.to_vec()).prop_map(Command::Query),
        (any::<u32>(), any::<bool>()).prop_map(|(depth, divide)| Command::Perft { depth, divide }),
        Just(Command::Moves),
        Just(Command::Show),
        Just(Command::Games),
        Just(Command::Eval),
        (
            option::of(select(crate::protocol::SolveMethod::ALL.to_vec())),
            any::<bool>(),
            option::of(any::<u64>())
        )
            .prop_map(|(method, distance, movetime)| Command::Solve {
                method,
                distance,
                movetime
            }),
    ]
}

fn option_type() -> impl Strategy<Value = OptionType> {
    prop_oneof![
        any::<bool>().prop_map(|default| OptionType::Check { default }),
        (any::<i64>(), any::<i64>(), any::<i64>())
            .prop_map(|(default, min, max)| OptionType::Spin { default, min, max }),
        (option_value(), vec(option_value(), 0..4))
            .prop_map(|(default, vars)| OptionType::Combo { default, vars }),
        option_value().prop_map(|default| OptionType::String { default }),
        Just(OptionType::Button),
    ]
}

fn info() -> impl Strategy<Value = Info> {
    (
        (
            option::of(any::<u32>()),
            option::of(any::<u32>()),
            option::of(score()),
            option::of(any::<u64>()),
            option::of(any::<u64>()),
        ),
        (
            option::of(any::<u64>()),
            option::of(any::<u32>()),
            vec(move_token(), 0..5),
            option::of(free_text()),
        ),
    )
        .prop_map(
            |((depth, seldepth, score, nodes, nps), (time, hashfull, pv, string))| Info {
                depth,
                seldepth,
                score,
                nodes,
                nps,
                time,
                hashfull,
                pv,
                string,
                mate_scores: false,
            },
        )
}

fn board_text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[ -~]{0,12}[!-~]"]
}

fn reply() -> impl Strategy<Value = Reply> {
    prop_oneof![
        (word(), free_text()).prop_map(|(field, value)| Reply::Id { field, value }),
        (phrase(), option_type()).prop_map(|(name, kind)| Reply::Option(OptionDecl { name, kind })),
        dialect().prop_map(Reply::HelloOk),
        Just(Reply::ReadyOk),
        info().prop_map(Reply::Info),
        option::of(move_token()).prop_map(Reply::BestMove),
        free_text().prop_map(Reply::Response),
        (select(ErrorCode::ALL.to_vec()), free_text())
            .prop_map(|(code, message)| Reply::Error { code, message }),
        (move_token(), any::<u64>()).prop_map(|(mv, nodes)| Reply::Divide { mv, nodes }),
        (
            any::<u32>(),
            any::<u64>(),
            any::<u64>(),
            any::<u64>(),
            any::<bool>()
        )
            .prop_map(|(depth, nodes, time_ms, nps, stopped)| Reply::Perft {
                depth,
                nodes,
                time_ms,
                nps,
                stopped,
            }),
        vec(move_token(), 0..8).prop_map(Reply::Moves),
        board_text().prop_map(Reply::Board),
        Just(Reply::ShowOk),
        free_text().prop_map(Reply::Game),
        Just(Reply::GamesOk),
        (any::<i32>(), prop_oneof![Just(String::new()), word()])
            .prop_map(|(cp, heuristic)| Reply::Eval { cp, heuristic }),
        (
            select(vec!["win", "loss", "draw", "unknown"]),
            option::of(any::<u32>()),
            option::of(move_token()),
            select(vec!["search", "regions"]),
            any::<u64>(),
            any::<u64>()
        )
            .prop_map(
                |(result, plies, mv, method, nodes, time_ms)| Reply::Solution {
                    result: result.to_string(),
                    plies,
                    mv,
                    method: method.to_string(),
                    nodes,
                    time_ms,
                }
            ),
    ]
}

/// Random edits of a valid line: byte-level and token-level.
fn mutate(line: String) -> impl Strategy<Value = String> {
    let edits = vec(
        (
            0..4u8,
            any::<prop::sample::Index>(),
            select(vec![
                ' ', '\t', '\r', '\n', '0', '9', '-', 'a', 'z', 'x', '/', '\'', '…', 'é', '\0',
            ]),
        ),
        1..4,
    );
    (Just(line), edits).prop_map(|(line, edits)| {
        let mut chars: Vec<char> = line.chars().collect();
        for (op, index, c) in edits {
            if chars.is_empty() {
                chars.push(c);
                continue;
            }
            let i = index.index(chars.len());
            match op {
                0 => {
                    chars.remove(i);
                }
                1 => chars.insert(i, c),
                2 => chars[i] = c,
                _ => chars.truncate(i),
            }
        }
        chars.into_iter().collect()
    })
}

/// Token-level edits: drop, duplicate or swap tokens.
fn shuffle_tokens(line: String) -> impl Strategy<Value = String> {
    let edits = vec(
        (
            0..3u8,
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
        ),
        1..3,
    );
    (Just(line), edits).prop_map(|(line, edits)| {
        let mut tokens: Vec<&str> = line.split(' ').collect();
        for (op, a, b) in edits {
            if tokens.is_empty() {
                break;
            }
            let (a, b) = (a.index(tokens.len()), b.index(tokens.len()));
            match op {
                0 => {
                    tokens.remove(a);
                }
                1 => tokens.insert(b, tokens[a]),
                _ => tokens.swap(a, b),
            }
        }
        tokens.join(" ")
    })
}

/// A line built from the words our parsers know, in random order.
fn keyword_soup() -> impl Strategy<Value = String> {
    let words = vec![
        "go",
        "position",
        "setoption",
        "name",
        "value",
        "startpos",
        "fen",
        "moves",
        "perft",
        "divide",
        "query",
        "debug",
        "on",
        "wtime",
        "p1time",
        "depth",
        "nodes",
        "infinite",
        "movetime",
        "info",
        "score",
        "cp",
        "mate",
        "win",
        "loss",
        "pv",
        "string",
        "wdl",
        "option",
        "type",
        "spin",
        "combo",
        "var",
        "min",
        "max",
        "default",
        "bestmove",
        "error",
        "syntax",
        "eval",
        "board",
        "id",
        "-1",
        "0",
        "7",
        "1.5",
        "a1",
        "",
    ];
    vec(select(words), 0..10).prop_map(|w| w.join(" "))
}

/// The framed body of a line, as the parsers see it.
fn framed(line: &str) -> &str {
    let body = line.strip_suffix('\n').unwrap_or(line);
    let body = body.strip_suffix('\r').unwrap_or(body);
    body.trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

/// An error must say what was wrong: the unknown word, a missing argument, or a quoted
/// piece of the line.
fn check_error(line: &str, err: &ParseError) {
    let text = err.to_string();
    assert!(!text.is_empty(), "{line:?}: empty message");
    match err {
        ParseError::Empty => assert!(framed(line).is_empty(), "{line:?}: not empty"),
        ParseError::TooLong { len } => assert!(*len > MAX_LINE),
        ParseError::UnknownCommand { word } => {
            assert!(!word.is_empty(), "{line:?}");
            assert!(
                framed(line).starts_with(word.as_str()),
                "{line:?}: {word:?}"
            );
            assert!(text.contains(word.as_str()));
            assert_eq!(err.code(), ErrorCode::UnknownCommand);
        }
        ParseError::Syntax { command, message } => {
            assert!(!message.is_empty(), "{line:?}: empty message");
            assert!(framed(line).starts_with(command.as_str()), "{line:?}");
            assert!(text.starts_with(&format!("{command}: ")));
            assert_eq!(err.code(), ErrorCode::Syntax);
            let quoted = match (message.find('\''), message.rfind('\'')) {
                (Some(a), Some(b)) if b > a => Some(&message[a + 1..b]),
                _ => None,
            };
            assert!(
                message.contains("missing") || quoted.is_some_and(|q| line.contains(q)),
                "{line:?}: {message:?} names nothing from the line"
            );
        }
    }
}

/// Parsing any line is total, and serializing what was parsed is a fixpoint.
fn check_line(line: &str) {
    match line.parse::<Command>() {
        Ok(cmd) => {
            let text = cmd.to_string();
            assert!(!text.contains(['\n', '\r']), "{text:?}");
            let again: Command = text
                .parse()
                .unwrap_or_else(|e| panic!("{line:?} -> {text:?}: {e}"));
            assert_eq!(again.to_string(), text, "{line:?}");
        }
        Err(err) => check_error(line, &err),
    }
    match line.parse::<Reply>() {
        Ok(reply) => {
            let text = reply.to_string();
            assert!(!text.contains(['\n', '\r']), "{text:?}");
            let again: Reply = text
                .parse()
                .unwrap_or_else(|e| panic!("{line:?} -> {text:?}: {e}"));
            assert_eq!(again.to_string(), text, "{line:?}");
        }
        Err(err) => {
            assert!(!err.to_string().is_empty());
        }
    }
}

proptest! {
    #[test]
    fn command_round_trip(cmd in command()) {
        let text = cmd.to_string();
        prop_assert!(!text.contains(['\n', '\r']));
        prop_assert_eq!(text.parse::<Command>(), Ok(cmd));
    }

    #[test]
    fn reply_round_trip(reply in reply()) {
        let text = reply.to_string();
        prop_assert!(!text.contains(['\n', '\r']));
        prop_assert_eq!(text.parse::<Reply>(), Ok(reply));
    }

    #[test]
    fn command_round_trip_with_sloppy_framing(
        cmd in command(),
        lead in "[ \t]{0,3}",
        tail in "[ \t]{0,3}(\r\n|\n|\r)?",
    ) {
        let text = format!("{lead}{cmd}{tail}");
        prop_assert_eq!(text.parse::<Command>(), Ok(cmd));
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(line in any::<String>()) {
        check_line(&line);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..200)) {
        check_line(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_commands_never_panic(line in command().prop_flat_map(|c| mutate(c.to_string()))) {
        check_line(&line);
    }

    #[test]
    fn shuffled_commands_never_panic(
        line in command().prop_flat_map(|c| shuffle_tokens(c.to_string()))
    ) {
        check_line(&line);
    }

    #[test]
    fn mutated_replies_never_panic(line in reply().prop_flat_map(|r| mutate(r.to_string()))) {
        check_line(&line);
    }

    #[test]
    fn shuffled_replies_never_panic(
        line in reply().prop_flat_map(|r| shuffle_tokens(r.to_string()))
    ) {
        check_line(&line);
    }

    #[test]
    fn keyword_soup_never_panics(line in keyword_soup()) {
        check_line(&line);
    }
}

#[test]
fn long_lines_are_refused_not_parsed() {
    let line = "a ".repeat(MAX_LINE);
    assert_eq!(
        line.parse::<Command>(),
        Err(ParseError::TooLong { len: 2 * MAX_LINE })
    );
    check_line(&line);
}
