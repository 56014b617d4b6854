//! The example exchanges of `protocol.md`, as data a test can replay against an engine.
//!
//! `protocol.md` writes each example in a fenced block whose info string is `exchange`:
//!
//! ````text
//! ```exchange
//! > position startpos moves a1 b1 a2 b2
//! > go depth 3
//! < info depth 1 …
//! < bestmove a3
//! ```
//! ````
//!
//! - A line `> text` is sent to the engine (`text` exactly as written after `> `).
//! - A line `< text` is a reply the engine must send, in order. When it ends with ` …`
//!   (a space and U+2026) it is a prefix: the engine's line must start with the text before
//!   ` …`; `< …` alone stands for any line. Otherwise the engine's line must be exactly
//!   `text`.
//! - Each block starts from a fresh engine process.
//! - `info` lines are progress reports whose number depends on timing: an engine line that
//!   starts with `info` and does not match the next expected reply is skipped. Any other
//!   unexpected line is a failure. [`Matcher`] implements these rules.
//! - The replies listed under a `>` line are the replies to that line (and to the lines
//!   before it): a runner sends one line, reads until the step's expectations are met (with
//!   a deadline), then sends the next line. A step with no expected reply needs no wait.

use std::fmt;

/// One example exchange: a fenced `exchange` block of `protocol.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// 1-based line number of the opening fence in the markdown.
    pub line: usize,
    /// The lines to send, each with the replies expected after it.
    pub steps: Vec<Step>,
}

/// One line to send and the replies it must produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// 1-based line number of the `>` line (or of the first `<` line when `send` is `None`).
    pub line: usize,
    /// The line to send; `None` for replies expected before anything is sent.
    pub send: Option<String>,
    /// The replies expected, in order.
    pub expect: Vec<Expected>,
}

/// An expected engine line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The line must be exactly this.
    Exact(String),
    /// The line must start with this (written `< text …` in the markdown).
    Prefix(String),
}

impl Expected {
    /// The text to compare with (the whole line or the prefix).
    pub fn text(&self) -> &str {
        match self {
            Expected::Exact(text) | Expected::Prefix(text) => text,
        }
    }

    /// Whether an engine line (a trailing `\r` or `\n` is ignored) fulfils this expectation.
    pub fn matches(&self, line: &str) -> bool {
        let line = line.trim_end_matches(['\r', '\n']);
        match self {
            Expected::Exact(text) => line == text,
            Expected::Prefix(prefix) => line.starts_with(prefix.as_str()),
        }
    }
}

impl fmt::Display for Expected {
    /// The markdown form: `< text` or `< text …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Exact(text) => write!(f, "< {text}"),
            Expected::Prefix(text) => write!(f, "< {text} …"),
        }
    }
}

/// Whether an engine line is a progress report that may be skipped (`info ...`).
pub fn is_progress(line: &str) -> bool {
    line == "info" || line.starts_with("info ") || line.starts_with("info\t")
}

/// Checks engine lines against the expected replies of one step, one line at a time.
#[derive(Clone, Debug)]
pub struct Matcher<'a> {
    expected: &'a [Expected],
    next: usize,
}

impl<'a> Matcher<'a> {
    /// A matcher that waits for `expected`, in order.
    pub fn new(expected: &'a [Expected]) -> Self {
        Matcher { expected, next: 0 }
    }

    /// Takes one engine line. Returns whether every expected reply has now been seen.
    ///
    /// # Errors
    /// A message naming the expected and the received line when `line` matches neither
    /// the next expectation nor is an `info` line that may be skipped.
    pub fn feed(&mut self, line: &str) -> Result<bool, String> {
        match self.expected.get(self.next) {
            Some(expected) if expected.matches(line) => self.next += 1,
            _ if is_progress(line) => {}
            Some(expected) => return Err(format!("expected `{expected}`, got `< {line}`")),
            None => return Err(format!("expected nothing more, got `< {line}`")),
        }
        Ok(self.is_done())
    }

    /// Whether every expected reply has been seen.
    pub fn is_done(&self) -> bool {
        self.next == self.expected.len()
    }

    /// The expected replies not seen yet.
    pub fn missing(&self) -> &'a [Expected] {
        &self.expected[self.next..]
    }
}

/// Reads every fenced `exchange` block of a markdown text, in order.
///
/// # Panics
/// On a line inside an `exchange` block that is neither blank, `> ...` nor `< ...`, and on
/// a block that is never closed: the examples are part of the specification, so a
/// malformed one is a bug to fix, not to skip.
pub fn parse_examples(markdown: &str) -> Vec<Exchange> {
    parse_blocks(markdown, "exchange")
}

/// Reads every fenced block whose info string is `info` (`exchange` for the engine's own
/// protocol, `gomocup` for the brain's), in order, by the rules of [`parse_examples`].
///
/// # Panics
/// As [`parse_examples`].
pub fn parse_blocks(markdown: &str, info: &str) -> Vec<Exchange> {
    let fence = format!("```{info}");
    let mut exchanges = Vec::new();
    let mut current: Option<Exchange> = None;
    for (index, raw) in markdown.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim_end();
        let Some(exchange) = current.as_mut() else {
            if line.trim_start() == fence {
                current = Some(Exchange {
                    line: number,
                    steps: Vec::new(),
                });
            }
            continue;
        };
        if line.trim_start() == "```" {
            exchanges.extend(current.take());
        } else if let Some(send) = line.strip_prefix("> ") {
            exchange.steps.push(Step {
                line: number,
                send: Some(send.to_string()),
                expect: Vec::new(),
            });
        } else if let Some(reply) = line.strip_prefix("< ") {
            let expected = match reply.strip_suffix(" …").or((reply == "…").then_some("")) {
                Some(prefix) => Expected::Prefix(prefix.to_string()),
                None => Expected::Exact(reply.to_string()),
            };
            if exchange.steps.is_empty() {
                exchange.steps.push(Step {
                    line: number,
                    send: None,
                    expect: Vec::new(),
                });
            }
            exchange
                .steps
                .last_mut()
                .expect("a step exists")
                .expect
                .push(expected);
        } else if !line.is_empty() {
            panic!("line {number}: exchange lines start with '> ' or '< ', found {raw:?}");
        }
    }
    if let Some(open) = current {
        panic!("line {}: exchange block is never closed", open.line);
    }
    exchanges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Command, ErrorCode, ParseError, Reply};

    const PROTOCOL_MD: &str = include_str!("../../protocol.md");

    #[test]
    fn reads_blocks_steps_and_prefixes() {
        let markdown = "text\n```exchange\n> ugi\n< id name Agon …\n< ugiok\n\n> quit\n```\n\
                        ```text\n> not an example\n```\n```exchange\n< readyok\n```\n";
        let exchanges = parse_examples(markdown);
        assert_eq!(
            exchanges,
            vec![
                Exchange {
                    line: 2,
                    steps: vec![
                        Step {
                            line: 3,
                            send: Some("ugi".into()),
                            expect: vec![
                                Expected::Prefix("id name Agon".into()),
                                Expected::Exact("ugiok".into())
                            ],
                        },
                        Step {
                            line: 7,
                            send: Some("quit".into()),
                            expect: vec![],
                        },
                    ],
                },
                Exchange {
                    line: 12,
                    steps: vec![Step {
                        line: 13,
                        send: None,
                        expect: vec![Expected::Exact("readyok".into())],
                    }],
                },
            ]
        );
        assert_eq!(
            exchanges[0].steps[0].expect[0].to_string(),
            "< id name Agon …"
        );
    }

    #[test]
    #[should_panic(expected = "line 3")]
    fn refuses_stray_lines() {
        parse_examples("```exchange\n> isready\nreadyok\n```\n");
    }

    #[test]
    #[should_panic(expected = "never closed")]
    fn refuses_open_blocks() {
        parse_examples("```exchange\n> isready\n");
    }

    #[test]
    fn matcher_skips_info_lines_only() {
        let expected = [
            Expected::Prefix("info depth 2".into()),
            Expected::Exact("bestmove a3".into()),
        ];
        let mut matcher = Matcher::new(&expected);
        assert_eq!(matcher.feed("info depth 1 score win 1"), Ok(false));
        assert_eq!(matcher.feed("info string thinking"), Ok(false));
        assert_eq!(
            matcher.feed("info depth 2 score win 1 pv a3\r\n"),
            Ok(false)
        );
        assert_eq!(matcher.missing(), &expected[1..]);
        assert_eq!(matcher.feed("info depth 3"), Ok(false));
        assert_eq!(matcher.feed("bestmove a3"), Ok(true));
        assert!(matcher.is_done());
        assert_eq!(matcher.feed("info nodes 5"), Ok(true));
        assert!(matcher.feed("bestmove a3").is_err());

        let mut matcher = Matcher::new(&expected[1..]);
        assert_eq!(
            matcher.feed("bestmove b3"),
            Err("expected `< bestmove a3`, got `< bestmove b3`".into())
        );
        assert!(!Expected::Exact("readyok".into()).matches("readyok 1"));
        assert!(Expected::Prefix("readyok".into()).matches("readyok 1"));
    }

    /// The step's first expected reply, when it is an error answering the sent line itself.
    fn expected_parse_error(step: &Step) -> Option<ErrorCode> {
        let first = step.expect.first()?;
        let code = first.text().strip_prefix("error ")?.split(' ').next()?;
        match code.parse().ok()? {
            code @ (ErrorCode::Syntax | ErrorCode::UnknownCommand) => Some(code),
            _ => None,
        }
    }

    #[test]
    fn protocol_md_has_examples_of_every_command_and_error() {
        let exchanges = parse_examples(PROTOCOL_MD);
        assert!(exchanges.len() >= 15, "only {} exchanges", exchanges.len());
        let sent: Vec<&str> = exchanges
            .iter()
            .flat_map(|e| &e.steps)
            .filter_map(|s| s.send.as_deref())
            .collect();
        for word in [
            "ugi",
            "uci",
            "tei",
            "isready",
            "setoption",
            "uginewgame",
            "ucinewgame",
            "position",
            "go",
            "stop",
            "quit",
            "debug",
            "ponderhit",
            "query",
            "perft",
            "moves",
            "show",
            "eval",
        ] {
            assert!(
                sent.iter().any(|s| s.split(' ').next() == Some(word)),
                "no example sends {word}"
            );
        }
        let expected: Vec<&str> = exchanges
            .iter()
            .flat_map(|e| &e.steps)
            .flat_map(|s| &s.expect)
            .map(Expected::text)
            .collect();
        for code in ErrorCode::ALL {
            if code == ErrorCode::GameOver {
                continue; // documented without a runnable example
            }
            let word = format!("error {code}");
            assert!(
                expected.iter().any(|e| e.starts_with(&word)),
                "no example of {word}"
            );
        }
    }

    #[test]
    fn protocol_md_lines_parse() {
        for exchange in parse_examples(PROTOCOL_MD) {
            for step in &exchange.steps {
                if let Some(send) = &step.send {
                    let parsed = send.parse::<Command>();
                    match (expected_parse_error(step), parsed) {
                        (None, Ok(_)) => {}
                        (None, Err(e)) => panic!("line {}: {send:?}: {e}", step.line),
                        (Some(code), Err(e)) => assert_eq!(
                            e.code(),
                            code,
                            "line {}: {send:?} fails with {e}",
                            step.line
                        ),
                        (Some(code), Ok(cmd)) => panic!(
                            "line {}: {send:?} parses as {cmd:?}, the example expects {code}",
                            step.line
                        ),
                    }
                    // A search without `infinite` is answered by exactly one bestmove.
                    if let Ok(Command::Go(go)) = send.parse::<Command>() {
                        if !go.infinite {
                            assert!(
                                step.expect.iter().any(|e| e.text().starts_with("bestmove")
                                    || e.text().starts_with("error")),
                                "line {}: go without bestmove",
                                step.line
                            );
                        }
                    }
                }
                for expected in &step.expect {
                    match expected {
                        Expected::Exact(text) => {
                            let reply: Reply = text
                                .parse()
                                .unwrap_or_else(|e| panic!("line {}: {text:?}: {e}", step.line));
                            assert_eq!(&reply.to_string(), text, "line {}", step.line);
                        }
                        Expected::Prefix(text) => {
                            let parsed = text.parse::<Reply>();
                            assert!(
                                !matches!(parsed, Err(ParseError::UnknownCommand { .. })),
                                "line {}: {text:?} starts with no reply keyword",
                                step.line
                            );
                        }
                    }
                }
            }
        }
    }
}
