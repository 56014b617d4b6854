//! Unit tests of the parsers: every command, every reply and every error path
//! (helpers in the style of dannyhammer/uci-parser:src/parser.rs `mod tests`).

use super::super::{
    Command, Dialect, ErrorCode, Go, Info, OptionDecl, OptionType, ParseError, PositionSpec,
    QueryKind, Reply, Score, MAX_LINE,
};

/// Parses a command that must be valid.
fn new_cmd(line: &str) -> Command {
    line.parse()
        .unwrap_or_else(|e| panic!("{line:?} should parse: {e}"))
}

/// Parses a command that must be refused.
fn new_err(line: &str) -> ParseError {
    match line.parse::<Command>() {
        Ok(cmd) => panic!("{line:?} should be refused, parsed as {cmd:?}"),
        Err(e) => e,
    }
}

/// Parses a reply that must be valid.
fn new_reply(line: &str) -> Reply {
    line.parse()
        .unwrap_or_else(|e| panic!("{line:?} should parse: {e}"))
}

/// Parses a reply that must be refused.
fn reply_err(line: &str) -> ParseError {
    match line.parse::<Reply>() {
        Ok(reply) => panic!("{line:?} should be refused, parsed as {reply:?}"),
        Err(e) => e,
    }
}

fn syntax(command: &str, message: &str) -> ParseError {
    ParseError::Syntax {
        command: command.to_string(),
        message: message.to_string(),
    }
}

fn go(go: Go) -> Command {
    Command::Go(go)
}

fn position(position: PositionSpec, moves: &[&str]) -> Command {
    Command::Position {
        position,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

fn fen(text: &str) -> PositionSpec {
    PositionSpec::Fen(text.to_string())
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

// --- framing -----------------------------------------------------------------------------

#[test]
fn empty_lines() {
    for line in ["", " ", "\t \t", "\r", "\n", "\r\n", "  \r\n"] {
        assert_eq!(new_err(line), ParseError::Empty, "{line:?}");
        assert_eq!(reply_err(line), ParseError::Empty, "{line:?}");
    }
}

#[test]
fn whitespace_and_line_endings() {
    assert_eq!(new_cmd("isready\r\n"), Command::IsReady);
    assert_eq!(new_cmd("isready\r"), Command::IsReady);
    assert_eq!(new_cmd("isready\n"), Command::IsReady);
    assert_eq!(new_cmd("  \tisready \t "), Command::IsReady);
    assert_eq!(
        new_cmd("position\t startpos  moves \ta1\t\tb2 "),
        position(PositionSpec::StartPos, &["a1", "b2"])
    );
    assert_eq!(new_reply("readyok\r\n"), Reply::ReadyOk);
}

#[test]
fn line_too_long() {
    let long = format!("go {}", "1".repeat(MAX_LINE));
    assert_eq!(new_err(&long), ParseError::TooLong { len: MAX_LINE + 3 });
    assert_eq!(reply_err(&long), ParseError::TooLong { len: MAX_LINE + 3 });
    assert!(new_err(&long).to_string().starts_with("line too long"));
    // Exactly MAX_LINE bytes is accepted (and the terminator does not count).
    let fits = format!("moves{}\r\n", " ".repeat(MAX_LINE - 5));
    assert_eq!(new_cmd(&fits), Command::Moves);
    assert_eq!(new_err(&long).code(), ErrorCode::Syntax);
}

#[test]
fn unknown_commands() {
    for (line, word) in [
        ("foo", "foo"),
        ("foo bar baz", "foo"),
        ("UCI", "UCI"),
        ("Go depth 3", "Go"),
        ("isready2", "isready2"),
        ("ugiok", "ugiok"),
        ("bestmove a1", "bestmove"),
    ] {
        let err = new_err(line);
        assert_eq!(
            err,
            ParseError::UnknownCommand {
                word: word.to_string()
            },
            "{line:?}"
        );
        assert_eq!(err.code(), ErrorCode::UnknownCommand);
        assert_eq!(err.to_string(), format!("unknown command '{word}'"));
    }
}

#[test]
fn error_reply_for_a_parse_error() {
    let err = new_err("go movetime abc");
    assert_eq!(
        err.to_reply().to_string(),
        "error syntax go: 'abc' is not a number for movetime"
    );
    assert_eq!(
        new_err("foo").to_reply().to_string(),
        "error unknown-command unknown command 'foo'"
    );
}

// --- commands ----------------------------------------------------------------------------

#[test]
fn hello() {
    assert_eq!(new_cmd("ugi"), Command::Hello(Dialect::Ugi));
    assert_eq!(new_cmd("uci"), Command::Hello(Dialect::Uci));
    assert_eq!(new_cmd("tei"), Command::Hello(Dialect::Tei));
    assert_eq!(new_err("ugi 1"), syntax("ugi", "unexpected argument '1'"));
}

#[test]
fn no_argument_commands() {
    for (line, cmd) in [
        ("isready", Command::IsReady),
        ("stop", Command::Stop),
        ("quit", Command::Quit),
        ("ponderhit", Command::PonderHit),
        ("moves", Command::Moves),
        ("show", Command::Show),
        ("games", Command::Games),
        ("eval", Command::Eval),
    ] {
        assert_eq!(new_cmd(line), cmd);
        assert_eq!(
            new_err(&format!("{line} now please")),
            syntax(line, "unexpected argument 'now'")
        );
    }
}

#[test]
fn setoption() {
    assert_eq!(
        new_cmd("setoption name Hash value 64"),
        Command::SetOption {
            name: "Hash".into(),
            value: Some("64".into())
        }
    );
    assert_eq!(
        new_cmd("setoption name Clear Hash"),
        Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    // Name words are re-joined with single spaces; the value is the rest as written.
    assert_eq!(
        new_cmd("setoption  name  Move\tOverhead  value  mnk  m=5   n=5 "),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("mnk  m=5   n=5".into())
        }
    );
    assert_eq!(
        new_cmd("setoption name Heuristic value"),
        Command::SetOption {
            name: "Heuristic".into(),
            value: Some(String::new())
        }
    );
    // The value may contain the word `value`.
    assert_eq!(
        new_cmd("setoption name A value b value c"),
        Command::SetOption {
            name: "A".into(),
            value: Some("b value c".into())
        }
    );
    // Case of the option name is kept: matching is the engine's business.
    assert_eq!(
        new_cmd("setoption name gAmE value gomoku"),
        Command::SetOption {
            name: "gAmE".into(),
            value: Some("gomoku".into())
        }
    );
}

#[test]
fn setoption_errors() {
    assert_eq!(new_err("setoption"), syntax("setoption", "missing name"));
    assert_eq!(
        new_err("setoption name"),
        syntax("setoption", "missing name")
    );
    assert_eq!(
        new_err("setoption name value 3"),
        syntax("setoption", "missing name")
    );
    assert_eq!(
        new_err("setoption Hash value 3"),
        syntax("setoption", "expected name, found 'Hash'")
    );
}

#[test]
fn new_game() {
    assert_eq!(
        new_cmd("uginewgame"),
        Command::NewGame {
            dialect: Dialect::Ugi,
            size: None
        }
    );
    assert_eq!(
        new_cmd("ucinewgame"),
        Command::NewGame {
            dialect: Dialect::Uci,
            size: None
        }
    );
    assert_eq!(
        new_cmd("teinewgame 6"),
        Command::NewGame {
            dialect: Dialect::Tei,
            size: Some(6)
        }
    );
    assert_eq!(
        new_cmd("teinewgame"),
        Command::NewGame {
            dialect: Dialect::Tei,
            size: None
        }
    );
    assert_eq!(
        new_err("teinewgame six"),
        syntax("teinewgame", "'six' is not a number for size")
    );
    assert_eq!(
        new_err("teinewgame 6 7"),
        syntax("teinewgame", "unexpected argument '7'")
    );
}

#[test]
fn position_startpos() {
    assert_eq!(
        new_cmd("position startpos"),
        position(PositionSpec::StartPos, &[])
    );
    assert_eq!(
        new_cmd("position startpos moves"),
        position(PositionSpec::StartPos, &[])
    );
    assert_eq!(
        new_cmd("position startpos moves "),
        position(PositionSpec::StartPos, &[])
    );
    assert_eq!(
        new_cmd("position startpos moves b2 a1 c3"),
        position(PositionSpec::StartPos, &["b2", "a1", "c3"])
    );
    assert_eq!(
        new_cmd("position startpos moves a1-b1 3c3>12 Sa1"),
        position(PositionSpec::StartPos, &["a1-b1", "3c3>12", "Sa1"])
    );
}

#[test]
fn position_fen_and_tps() {
    assert_eq!(
        new_cmd("position fen 3/1x1/3 o"),
        position(fen("3/1x1/3 o"), &[])
    );
    assert_eq!(
        new_cmd("position fen  3/1x1/3 \t o  moves a1 c3"),
        position(fen("3/1x1/3 o"), &["a1", "c3"])
    );
    assert_eq!(
        new_cmd("position tps x5/x5/x5/x5/x5 1 1 moves a1"),
        position(fen("x5/x5/x5/x5/x5 1 1"), &["a1"])
    );
    assert_eq!(
        new_cmd("position fen wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb w moves"),
        position(fen("wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb w"), &[])
    );
}

#[test]
fn position_errors() {
    assert_eq!(
        new_err("position"),
        syntax("position", "missing startpos, fen or tps")
    );
    assert_eq!(
        new_err("position foo"),
        syntax("position", "expected startpos, fen or tps, found 'foo'")
    );
    assert_eq!(
        new_err("position fen"),
        syntax("position", "missing position string after fen")
    );
    assert_eq!(
        new_err("position tps moves a1"),
        syntax("position", "missing position string after tps")
    );
    assert_eq!(
        new_err("position startpos a1 b2"),
        syntax("position", "expected moves after startpos, found 'a1'")
    );
    assert_eq!(
        new_err("position startpos moves a1 moves b2"),
        syntax("position", "'moves' given twice")
    );
    assert_eq!(
        new_err("position fen 3/3/3 x moves a1 moves"),
        syntax("position", "'moves' given twice")
    );
}

#[test]
fn go_keys() {
    assert_eq!(new_cmd("go"), go(Go::default()));
    assert_eq!(
        new_cmd("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5"),
        go(Go {
            p1time: Some(1000),
            p2time: Some(2000),
            p1inc: Some(10),
            p2inc: Some(20),
            movestogo: Some(5),
            ..Go::default()
        })
    );
    assert_eq!(
        new_cmd("go btime 2000 winc 10 wtime 1000 binc 20"),
        go(Go {
            p1time: Some(1000),
            p2time: Some(2000),
            p1inc: Some(10),
            p2inc: Some(20),
            ..Go::default()
        })
    );
    assert_eq!(
        new_cmd("go movetime 100"),
        go(Go {
            movetime: Some(100),
            ..Go::default()
        })
    );
    assert_eq!(
        new_cmd("go infinite depth 7 nodes 0"),
        go(Go {
            depth: Some(7),
            nodes: Some(0),
            infinite: true,
            ..Go::default()
        })
    );
    assert_eq!(
        new_cmd(&format!("go nodes {}", u64::MAX)),
        go(Go {
            nodes: Some(u64::MAX),
            ..Go::default()
        })
    );
}

#[test]
fn go_perft() {
    assert_eq!(
        new_cmd("go perft 3"),
        Command::Perft {
            depth: 3,
            divide: false
        }
    );
    assert_eq!(
        new_cmd("go perft 3 divide"),
        Command::Perft {
            depth: 3,
            divide: true
        }
    );
    assert_eq!(
        new_err("go depth 2 perft 3"),
        syntax("go", "'perft' cannot be combined with other keys")
    );
    assert_eq!(
        new_err("go perft 3 depth 2"),
        syntax("go", "unexpected argument 'depth'")
    );
    assert_eq!(
        new_err("go perft"),
        syntax("go", "missing number for depth")
    );
}

#[test]
fn go_errors() {
    assert_eq!(
        new_err("go movetime abc"),
        syntax("go", "'abc' is not a number for movetime")
    );
    assert_eq!(
        new_err("go movetime abc").to_string(),
        "go: 'abc' is not a number for movetime"
    );
    assert_eq!(
        new_err("go depth"),
        syntax("go", "missing number for depth")
    );
    assert_eq!(
        new_err("go wtime infinite"),
        syntax("go", "'infinite' is not a number for wtime")
    );
    assert_eq!(
        new_err("go depth -1"),
        syntax("go", "'-1' is negative; depth must be 0 or more")
    );
    assert_eq!(
        new_err("go movetime 1.5"),
        syntax("go", "'1.5' is not a number for movetime")
    );
    assert_eq!(
        new_err("go nodes 18446744073709551616"),
        syntax("go", "'18446744073709551616' is too large for nodes")
    );
    assert_eq!(
        new_err("go depth 4294967296"),
        syntax("go", "'4294967296' is too large for depth")
    );
    assert_eq!(
        new_err("go depth 1 depth 2"),
        syntax("go", "repeated key 'depth'")
    );
    assert_eq!(
        new_err("go infinite infinite"),
        syntax("go", "repeated key 'infinite'")
    );
    assert_eq!(
        new_err("go p1time 1 wtime 2"),
        syntax("go", "repeated key 'wtime' (an alias of p1time)")
    );
    assert_eq!(
        new_err("go binc 1 p2inc 2"),
        syntax("go", "repeated key 'p2inc'")
    );
    let err = new_err("go ponder wtime 5");
    assert_eq!(
        err,
        syntax(
            "go",
            "unknown key 'ponder' (keys: p1time, p2time, p1inc, p2inc, wtime, btime, winc, \
             binc, movestogo, movetime, depth, nodes, infinite, perft)"
        )
    );
    assert_eq!(err.code(), ErrorCode::Syntax);
    assert_eq!(
        new_err("go depth 3 mate 2").to_string(),
        new_err("go mate 2").to_string()
    );
}

#[test]
fn debug() {
    assert_eq!(new_cmd("debug on"), Command::Debug(true));
    assert_eq!(new_cmd("debug off"), Command::Debug(false));
    assert_eq!(new_err("debug"), syntax("debug", "missing on or off"));
    assert_eq!(
        new_err("debug maybe"),
        syntax("debug", "expected on or off, found 'maybe'")
    );
    assert_eq!(
        new_err("debug on off"),
        syntax("debug", "unexpected argument 'off'")
    );
}

#[test]
fn query() {
    for kind in QueryKind::ALL {
        assert_eq!(new_cmd(&format!("query {kind}")), Command::Query(kind));
    }
    assert_eq!(new_cmd("query p1turn"), Command::Query(QueryKind::P1Turn));
    assert_eq!(
        new_err("query"),
        syntax(
            "query",
            "missing kind (kinds: gameover, p1turn, result, position, game)"
        )
    );
    assert_eq!(
        new_err("query islegal a1"),
        syntax(
            "query",
            "unknown kind 'islegal' (kinds: gameover, p1turn, result, position, game)"
        )
    );
    assert_eq!(
        new_err("query result now"),
        syntax("query", "unexpected argument 'now'")
    );
}

#[test]
fn solve() {
    use crate::protocol::SolveMethod as Method;
    let solve = |method, movetime| Command::Solve {
        method,
        distance: false,
        movetime,
    };
    assert_eq!(new_cmd("solve"), solve(None, None));
    assert_eq!(
        new_cmd("solve distance movetime 9 method regions"),
        Command::Solve {
            method: Some(Method::Regions),
            distance: true,
            movetime: Some(9)
        }
    );
    assert_eq!(
        new_err("solve distance distance"),
        syntax("solve", "repeated key 'distance'")
    );
    assert_eq!(new_cmd("solve movetime 500"), solve(None, Some(500)));
    assert_eq!(
        new_cmd("solve method search"),
        solve(Some(Method::Search), None)
    );
    // Either order.
    assert_eq!(
        new_cmd("solve movetime 7 method threats"),
        solve(Some(Method::Threats), Some(7))
    );
    assert_eq!(
        new_cmd("solve method regions movetime 7"),
        solve(Some(Method::Regions), Some(7))
    );
    assert_eq!(
        new_err("solve method magic"),
        syntax(
            "solve",
            "unknown method 'magic' (auto, search, regions, threats)"
        )
    );
    assert_eq!(
        new_err("solve method"),
        syntax("solve", "missing method (auto, search, regions, threats)")
    );
    assert_eq!(
        new_err("solve method auto method search"),
        syntax("solve", "repeated key 'method'")
    );
    assert_eq!(
        new_err("solve movetime 1 movetime 2"),
        syntax("solve", "repeated key 'movetime'")
    );
    assert_eq!(
        new_err("solve movetime soon"),
        syntax("solve", "'soon' is not a number for movetime")
    );
    assert_eq!(
        new_err("solve quickly"),
        syntax("solve", "unexpected argument 'quickly'")
    );
}

#[test]
fn perft() {
    assert_eq!(
        new_cmd("perft 5"),
        Command::Perft {
            depth: 5,
            divide: false
        }
    );
    assert_eq!(
        new_cmd("perft 0 divide"),
        Command::Perft {
            depth: 0,
            divide: true
        }
    );
    assert_eq!(
        new_err("perft"),
        syntax("perft", "missing number for depth")
    );
    assert_eq!(
        new_err("perft deep"),
        syntax("perft", "'deep' is not a number for depth")
    );
    assert_eq!(
        new_err("perft 3 quickly"),
        syntax("perft", "unexpected argument 'quickly'")
    );
    assert_eq!(
        new_err("perft 3 divide divide"),
        syntax("perft", "unexpected argument 'divide'")
    );
}

#[test]
fn command_display() {
    for (cmd, text) in [
        (Command::Hello(Dialect::Tei), "tei"),
        (
            Command::SetOption {
                name: "Hash".into(),
                value: None,
            },
            "setoption name Hash",
        ),
        (
            Command::SetOption {
                name: "Heuristic".into(),
                value: Some(String::new()),
            },
            "setoption name Heuristic value",
        ),
        (
            Command::NewGame {
                dialect: Dialect::Uci,
                size: Some(5),
            },
            "ucinewgame 5",
        ),
        (
            position(fen("3/3/3 x"), &["a1", "b2"]),
            "position fen 3/3/3 x moves a1 b2",
        ),
        (position(PositionSpec::StartPos, &[]), "position startpos"),
        (
            go(Go {
                p1time: Some(1),
                p2time: Some(2),
                p1inc: Some(3),
                p2inc: Some(4),
                movestogo: Some(5),
                movetime: Some(6),
                depth: Some(7),
                nodes: Some(8),
                infinite: true,
            }),
            "go p1time 1 p2time 2 p1inc 3 p2inc 4 movestogo 5 movetime 6 depth 7 nodes 8 infinite",
        ),
        (Command::Debug(false), "debug off"),
        (Command::Query(QueryKind::GameOver), "query gameover"),
        (
            Command::Perft {
                depth: 2,
                divide: true,
            },
            "perft 2 divide",
        ),
        // Line breaks inside a value never break the framing.
        (
            Command::SetOption {
                name: "A\nB".into(),
                value: Some("x\r\ny".into()),
            },
            "setoption name A B value x  y",
        ),
    ] {
        assert_eq!(cmd.to_string(), text);
    }
}

#[test]
fn parts_display_as_whole_lines() {
    assert_eq!(Go::default().to_string(), "go");
    assert_eq!(
        Go {
            depth: Some(3),
            ..Go::default()
        }
        .to_string(),
        "go depth 3"
    );
    assert_eq!(Info::default().to_string(), "info");
    assert_eq!(
        OptionDecl {
            name: "Clear Hash".into(),
            kind: OptionType::Button
        }
        .to_string(),
        "option name Clear Hash type button"
    );
}

// --- replies -----------------------------------------------------------------------------

#[test]
fn id_and_handshake_replies() {
    assert_eq!(
        new_reply("id name Agon 0.1.0"),
        Reply::Id {
            field: "name".into(),
            value: "Agon 0.1.0".into()
        }
    );
    assert_eq!(
        new_reply("id author The Agon developers"),
        Reply::Id {
            field: "author".into(),
            value: "The Agon developers".into()
        }
    );
    assert_eq!(
        new_reply("id name"),
        Reply::Id {
            field: "name".into(),
            value: String::new()
        }
    );
    assert_eq!(
        reply_err("id"),
        syntax("id", "missing field (name or author)")
    );
    assert_eq!(new_reply("ugiok"), Reply::HelloOk(Dialect::Ugi));
    assert_eq!(new_reply("uciok"), Reply::HelloOk(Dialect::Uci));
    assert_eq!(new_reply("teiok"), Reply::HelloOk(Dialect::Tei));
    assert_eq!(new_reply("readyok"), Reply::ReadyOk);
    // Lenient: trailing junk is ignored.
    assert_eq!(new_reply("readyok 7"), Reply::ReadyOk);
    assert_eq!(new_reply("showok"), Reply::ShowOk);
    assert_eq!(new_reply("gamesok"), Reply::GamesOk);
}

fn option(name: &str, kind: OptionType) -> Reply {
    Reply::Option(OptionDecl {
        name: name.to_string(),
        kind,
    })
}

#[test]
fn option_lines() {
    let lines = [
        (
            "option name Game type string default tictactoe",
            option(
                "Game",
                OptionType::String {
                    default: "tictactoe".into(),
                },
            ),
        ),
        (
            "option name Searcher type combo default pvs var pvs var alphabeta var minimax",
            option(
                "Searcher",
                OptionType::Combo {
                    default: "pvs".into(),
                    vars: strings(&["pvs", "alphabeta", "minimax"]),
                },
            ),
        ),
        (
            "option name Heuristic type string default default",
            option(
                "Heuristic",
                OptionType::String {
                    default: "default".into(),
                },
            ),
        ),
        (
            "option name Mode type combo default var var var var default var min",
            option(
                "Mode",
                OptionType::Combo {
                    default: "var".into(),
                    vars: strings(&["var", "default", "min"]),
                },
            ),
        ),
        (
            "option name Ordering type check default true",
            option("Ordering", OptionType::Check { default: true }),
        ),
        (
            "option name Hash type spin default 16 min 1 max 4096",
            option(
                "Hash",
                OptionType::Spin {
                    default: 16,
                    min: 1,
                    max: 4096,
                },
            ),
        ),
        (
            "option name Clear Hash type button",
            option("Clear Hash", OptionType::Button),
        ),
        (
            "option name Debug Log File type string default <empty>",
            option(
                "Debug Log File",
                OptionType::String {
                    default: String::new(),
                },
            ),
        ),
        (
            "option name Contempt type spin default -20 min -100 max 100",
            option(
                "Contempt",
                OptionType::Spin {
                    default: -20,
                    min: -100,
                    max: 100,
                },
            ),
        ),
    ];
    for (line, reply) in lines {
        assert_eq!(new_reply(line), reply, "{line}");
        assert_eq!(reply.to_string(), line);
    }
}

#[test]
fn option_lines_lenient() {
    // Tiltak: `option name HalfKomi type combo default 0 var 0 var 4`.
    assert_eq!(
        new_reply("option name HalfKomi type combo default 0 var 0 var 4"),
        option(
            "HalfKomi",
            OptionType::Combo {
                default: "0".into(),
                vars: strings(&["0", "4"]),
            }
        )
    );
    // Spaces in names and string defaults; `type string default` with nothing after it.
    assert_eq!(
        new_reply("option  name  Syzygy  Path type STRING default"),
        option(
            "Syzygy Path",
            OptionType::String {
                default: String::new()
            }
        )
    );
    assert_eq!(
        new_reply("option name Book type string default my  book.bin"),
        option(
            "Book",
            OptionType::String {
                default: "my book.bin".into()
            }
        )
    );
    assert_eq!(
        new_reply("option name Ponder type check"),
        option("Ponder", OptionType::Check { default: false })
    );
    assert_eq!(
        new_reply("option name Threads type spin default 1"),
        option(
            "Threads",
            OptionType::Spin {
                default: 1,
                min: i64::MIN,
                max: i64::MAX
            }
        )
    );
}

#[test]
fn option_errors() {
    assert_eq!(reply_err("option"), syntax("option", "missing name"));
    assert_eq!(
        reply_err("option Hash type spin"),
        syntax("option", "expected name, found 'Hash'")
    );
    assert_eq!(
        reply_err("option name type spin"),
        syntax("option", "missing name")
    );
    assert_eq!(
        reply_err("option name Hash"),
        syntax("option", "missing type")
    );
    assert_eq!(
        reply_err("option name Hash type"),
        syntax("option", "missing type")
    );
    assert_eq!(
        reply_err("option name Hash type float default 1.5"),
        syntax(
            "option",
            "unknown type 'float' (types: check, spin, combo, string, button)"
        )
    );
    assert_eq!(
        reply_err("option name Hash type spin default big min 1 max 2"),
        syntax("option", "'big' is not a number for default")
    );
    assert_eq!(
        reply_err("option name Hash type spin default 1 min 1 max 99999999999999999999"),
        syntax("option", "'99999999999999999999' is too large for max")
    );
}

#[test]
fn info_lines() {
    assert_eq!(new_reply("info"), Reply::Info(Info::default()));
    assert_eq!(
        new_reply("info depth 5 seldepth 7 score cp -12 nodes 1234 nps 5678 time 90 hashfull 3 pv b2 a1 c3"),
        Reply::Info(Info {
            depth: Some(5),
            seldepth: Some(7),
            score: Some(Score::Cp(-12)),
            nodes: Some(1234),
            nps: Some(5678),
            time: Some(90),
            hashfull: Some(3),
            pv: strings(&["b2", "a1", "c3"]),
            string: None,
            mate_scores: false,
        })
    );
    assert_eq!(
        new_reply("info depth 9 score win 5 pv a3").to_string(),
        "info depth 9 score win 5 pv a3"
    );
    assert_eq!(
        new_reply("info score loss 4"),
        Reply::Info(Info {
            score: Some(Score::Loss(4)),
            ..Info::default()
        })
    );
    assert_eq!(
        new_reply("info string hello   world, depth 3"),
        Reply::Info(Info {
            string: Some("hello   world, depth 3".into()),
            ..Info::default()
        })
    );
    assert_eq!(
        new_reply("info string"),
        Reply::Info(Info {
            string: Some(String::new()),
            ..Info::default()
        })
    );
    assert_eq!(
        new_reply("info depth 1 pv a1 b1 string two moves"),
        Reply::Info(Info {
            depth: Some(1),
            pv: strings(&["a1", "b1"]),
            string: Some("two moves".into()),
            ..Info::default()
        })
    );
}

#[test]
fn info_lines_from_other_engines() {
    // Stockfish: multipv, wdl, tbhits, and keys in its own order.
    assert_eq!(
        new_reply(
            "info depth 20 seldepth 28 multipv 1 score cp 35 wdl 83 902 15 nodes 1234567 \
             nps 1000000 hashfull 345 tbhits 0 time 1234 pv e2e4 e7e5 g1f3"
        ),
        Reply::Info(Info {
            depth: Some(20),
            seldepth: Some(28),
            score: Some(Score::Cp(35)),
            nodes: Some(1234567),
            nps: Some(1000000),
            time: Some(1234),
            hashfull: Some(345),
            pv: strings(&["e2e4", "e7e5", "g1f3"]),
            string: None,
            mate_scores: false,
        })
    );
    // TEI output writes win/loss as mate in moves, and reads back to the same plies.
    for score in [Score::Win(1), Score::Win(5), Score::Loss(2), Score::Loss(4)] {
        let line = Reply::Info(Info {
            score: Some(score),
            mate_scores: true,
            ..Info::default()
        })
        .to_string();
        assert!(line.starts_with("info score mate "), "{line}");
        match new_reply(&line) {
            Reply::Info(info) => assert_eq!(info.score, Some(score), "{line}"),
            other => panic!("{other:?}"),
        }
    }
    // UCI mate scores are in moves: mate in 3 = win in 5 plies, mated in 2 = loss in 4.
    let score = |line: &str| match new_reply(line) {
        Reply::Info(info) => info.score,
        other => panic!("{other:?}"),
    };
    assert_eq!(score("info score mate 3"), Some(Score::Win(5)));
    assert_eq!(score("info score mate 1"), Some(Score::Win(1)));
    assert_eq!(score("info score mate -2"), Some(Score::Loss(4)));
    assert_eq!(score("info score mate 0"), Some(Score::Loss(0)));
    assert_eq!(
        score("info score mate 9223372036854775807"),
        Some(Score::Win(u32::MAX))
    );
    assert_eq!(
        score("info score cp 20 lowerbound nodes 5"),
        Some(Score::Cp(20))
    );
    assert_eq!(score("info score upperbound"), None);
    // `score -368` without `cp` (seen in the wild).
    assert_eq!(score("info score -368 depth 3"), Some(Score::Cp(-368)));
    // Tiltak-style TEI line with fractional wdl.
    assert_eq!(
        new_reply("info depth 3 seldepth 5 nodes 1000 score cp 12 wdl 0.45 0.1 0.45 time 100 nps 10000 pv a1 Sb2 3c3>12"),
        Reply::Info(Info {
            depth: Some(3),
            seldepth: Some(5),
            score: Some(Score::Cp(12)),
            nodes: Some(1000),
            nps: Some(10000),
            time: Some(100),
            pv: strings(&["a1", "Sb2", "3c3>12"]),
            ..Info::default()
        })
    );
    // Current move reports, unknown keys, seconds as a float (skipped).
    assert_eq!(
        new_reply("info currmove e2e4 currmovenumber 1 visits 99 tthits 5 time 0.054 nodes 7"),
        Reply::Info(Info {
            nodes: Some(7),
            ..Info::default()
        })
    );
    // An unknown key directly followed by a known key skips nothing else.
    assert_eq!(
        new_reply("info flag depth 4 bogus"),
        Reply::Info(Info {
            depth: Some(4),
            ..Info::default()
        })
    );
    // A missing value does not swallow the next key.
    assert_eq!(
        new_reply("info depth nodes 12"),
        Reply::Info(Info {
            nodes: Some(12),
            ..Info::default()
        })
    );
    // pv ends at the next key; refutation/currline are skipped.
    assert_eq!(
        new_reply("info pv a1 b2 nodes 3 refutation a1 b2 currline 1 a1 depth 2"),
        Reply::Info(Info {
            pv: strings(&["a1", "b2"]),
            nodes: Some(3),
            depth: Some(2),
            ..Info::default()
        })
    );
}

#[test]
fn bestmove() {
    assert_eq!(new_reply("bestmove b2"), Reply::BestMove(Some("b2".into())));
    assert_eq!(
        new_reply("bestmove a1-b1 ponder b2-b1"),
        Reply::BestMove(Some("a1-b1".into()))
    );
    for none in [
        "bestmove none",
        "bestmove (none)",
        "bestmove 0000",
        "bestmove NULL",
        "bestmove (none) ponder x",
    ] {
        assert_eq!(new_reply(none), Reply::BestMove(None), "{none}");
    }
    assert_eq!(reply_err("bestmove"), syntax("bestmove", "missing move"));
    assert_eq!(Reply::BestMove(None).to_string(), "bestmove none");
}

#[test]
fn response_and_error() {
    assert_eq!(
        new_reply("response 3/1x1/3 o"),
        Reply::Response("3/1x1/3 o".into())
    );
    assert_eq!(new_reply("response"), Reply::Response(String::new()));
    for code in ErrorCode::ALL {
        let line = format!("error {code} something was wrong: 'x'");
        assert_eq!(
            new_reply(&line),
            Reply::Error {
                code,
                message: "something was wrong: 'x'".into()
            }
        );
        assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
    }
    assert_eq!(
        new_reply("error busy"),
        Reply::Error {
            code: ErrorCode::Busy,
            message: String::new()
        }
    );
    assert_eq!(reply_err("error"), syntax("error", "missing code"));
    assert_eq!(
        reply_err("error oops it broke"),
        syntax(
            "error",
            "unknown code 'oops' (codes: unknown-command, syntax, unknown-option, bad-value, \
             unknown-game, bad-position, illegal-move, no-position, busy, game-over, unsupported)"
        )
    );
}

#[test]
fn perft_replies() {
    assert_eq!(
        new_reply("divide a1 8"),
        Reply::Divide {
            mv: "a1".into(),
            nodes: 8
        }
    );
    assert_eq!(reply_err("divide"), syntax("divide", "missing move"));
    assert_eq!(
        reply_err("divide a1"),
        syntax("divide", "missing number for count")
    );
    assert_eq!(
        reply_err("divide a1 many"),
        syntax("divide", "'many' is not a number for count")
    );
    let perft = Reply::Perft {
        depth: 2,
        nodes: 72,
        time_ms: 0,
        nps: 0,
        stopped: false,
    };
    assert_eq!(new_reply("perft depth 2 nodes 72 time 0 nps 0"), perft);
    assert_eq!(new_reply("perft nodes 72 depth 2"), perft);
    assert_eq!(new_reply("perft depth 2 nodes 72 extra 1"), perft);
    assert_eq!(perft.to_string(), "perft depth 2 nodes 72 time 0 nps 0");
    let stopped = Reply::Perft {
        depth: 50,
        nodes: 1234,
        time_ms: 7,
        nps: 176285,
        stopped: true,
    };
    assert_eq!(
        stopped.to_string(),
        "perft depth 50 stopped nodes 1234 time 7 nps 176285"
    );
    assert_eq!(
        new_reply("perft depth 50 nodes 1234 time 7 nps 176285 stopped"),
        stopped
    );
    assert_eq!(
        new_reply("perft depth 50 stopped nodes 1234 time 7 nps 176285"),
        stopped
    );
    assert_eq!(
        reply_err("perft nodes 72"),
        syntax("perft", "missing depth")
    );
    assert_eq!(reply_err("perft depth 2"), syntax("perft", "missing nodes"));
    assert_eq!(
        reply_err("perft depth 2 nodes x"),
        syntax("perft", "'x' is not a number for nodes")
    );
}

#[test]
fn moves_board_game_eval() {
    assert_eq!(
        new_reply("moves a1 b1 c1"),
        Reply::Moves(strings(&["a1", "b1", "c1"]))
    );
    assert_eq!(new_reply("moves"), Reply::Moves(Vec::new()));
    assert_eq!(Reply::Moves(Vec::new()).to_string(), "moves");
    // The board keeps its leading spaces.
    for line in ["board 3  . . .", "board    a b c", "board X . O"] {
        assert_eq!(new_reply(line).to_string(), line);
    }
    assert_eq!(new_reply("board    a b c"), Reply::Board("   a b c".into()));
    assert_eq!(new_reply("board"), Reply::Board(String::new()));
    assert_eq!(
        new_reply("game mnk heuristics threats,lines params m=1..26:3"),
        Reply::Game("mnk heuristics threats,lines params m=1..26:3".into())
    );
    assert_eq!(
        new_reply("eval cp -35 heuristic threats"),
        Reply::Eval {
            cp: -35,
            heuristic: "threats".into()
        }
    );
    assert_eq!(
        new_reply("eval heuristic lines cp 7"),
        Reply::Eval {
            cp: 7,
            heuristic: "lines".into()
        }
    );
    assert_eq!(
        new_reply("eval cp 7"),
        Reply::Eval {
            cp: 7,
            heuristic: String::new()
        }
    );
    assert_eq!(reply_err("eval heuristic x"), syntax("eval", "missing cp"));
    assert_eq!(
        reply_err("eval cp high"),
        syntax("eval", "'high' is not a number for cp")
    );
}

#[test]
fn unknown_replies() {
    for (line, word) in [
        ("Unknown command: foo", "Unknown"),
        ("hash=16384MB", "hash=16384MB"),
        ("isready", "isready"),
        ("0readyok", "0readyok"),
    ] {
        assert_eq!(
            reply_err(line),
            ParseError::UnknownCommand { word: word.into() }
        );
    }
}
