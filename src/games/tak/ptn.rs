//! The one PTN writer (Portable Tak Notation, <https://ustak.org/portable-tak-notation/>):
//! a game as tag pairs, then numbered move pairs with their comments, then the result,
//! as PTN Ninja and PlayTak read it. The arena's `games.ptn` and the web board's PTN
//! both come from here.
//!
//! Escaping happens here, once: a tag value has `\` and `"` escaped as in PGN, which
//! PTN follows; a comment has `}` written as `\x7d`. Callers pass plain text (the arena
//! first makes control characters visible).

use std::fmt::Write as _;

use super::TakSettings;

/// One move of a PTN game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtnMove {
    /// The move in PTN (`a1`, `3c3>12`, ...).
    pub mv: String,
    /// Its comment, written `{...}` after it.
    pub comment: Option<String>,
}

/// A Tak game to write as PTN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtnGame {
    /// The game's settings: the `Size`, `Komi` and (line variant) `Variant` tags.
    pub settings: TakSettings,
    /// Tags before `Size` (`Site`, `Event`, `Player1`, ...), in order.
    pub head: Vec<(String, String)>,
    /// Tags after `Result` (`Clock`, `Termination`, ...), in order.
    pub tail: Vec<(String, String)>,
    /// The start position in TPS, when not the empty board: the `TPS` tag, and the move
    /// number and side to move of the first move.
    pub start: Option<String>,
    /// The moves.
    pub moves: Vec<PtnMove>,
    /// A comment after the moves (how the game ended when that is not the rules' end).
    pub closing: Option<String>,
    /// The result code (`R-0`, `0-F`, `1/2-1/2`, ...): the `Result` tag and the last line.
    pub result: Option<String>,
}

/// The komi of `half_komi` half points as PTN writes it: `2`, `2.5`, `-0.5`.
pub fn komi_text(half_komi: i32) -> String {
    if half_komi % 2 == 0 {
        format!("{}", half_komi / 2)
    } else {
        format!("{:.1}", f64::from(half_komi) / 2.0)
    }
}

/// A tag value with `\` and `"` escaped.
fn tag_value(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment's text with its closing brace escaped.
fn comment_text(text: &str) -> String {
    text.replace('}', "\\x7d")
}

impl PtnGame {
    /// The game in PTN, ending with a newline.
    pub fn write(&self) -> String {
        let mut out = String::new();
        let mut tag = |key: &str, value: &str| {
            let _ = writeln!(out, "[{key} \"{}\"]", tag_value(value));
        };
        for (key, value) in &self.head {
            tag(key, value);
        }
        tag("Size", &self.settings.size.to_string());
        tag("Komi", &komi_text(self.settings.half_komi));
        if self.settings.line {
            tag(
                "Variant",
                "line-of-four (Agon: four flats in a row, column or diagonal)",
            );
        }
        if let Some(result) = &self.result {
            tag("Result", result);
        }
        for (key, value) in &self.tail {
            tag(key, value);
        }
        // The start's move number and side to move: TPS fields 2 and 3 (`... 2 7`).
        let (mut number, mut second) = (1u64, false);
        if let Some(tps) = &self.start {
            tag("TPS", tps);
            let fields: Vec<&str> = tps.split_whitespace().collect();
            second = fields.get(1) == Some(&"2");
            number = fields.get(2).and_then(|n| n.parse().ok()).unwrap_or(1);
        }
        out.push('\n');
        let mut row = String::new();
        if second {
            row = format!("{number}. --");
        }
        for m in &self.moves {
            let comment = m
                .comment
                .as_deref()
                .map(|c| format!(" {{{}}}", comment_text(c)))
                .unwrap_or_default();
            if second {
                let _ = write!(row, " {}{comment}", m.mv);
                out.push_str(&row);
                out.push('\n');
                row.clear();
                number += 1;
            } else {
                row = format!("{number}. {}{comment}", m.mv);
            }
            second = !second;
        }
        if !row.is_empty() {
            out.push_str(&row);
            out.push('\n');
        }
        if let Some(closing) = &self.closing {
            let _ = writeln!(out, "{{{}}}", comment_text(closing));
        }
        if let Some(result) = &self.result {
            out.push_str(result);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> PtnGame {
        PtnGame {
            settings: TakSettings {
                size: 5,
                half_komi: 3,
                line: false,
            },
            head: vec![("Player1".into(), "a \"quoted\" \\ name".into())],
            tail: vec![],
            start: None,
            moves: ["a1", "e5", "b1"]
                .iter()
                .map(|m| PtnMove {
                    mv: m.to_string(),
                    comment: None,
                })
                .collect(),
            closing: None,
            result: Some("R-0".into()),
        }
    }

    #[test]
    fn tags_moves_and_result() {
        let text = game().write();
        assert_eq!(
            text,
            "[Player1 \"a \\\"quoted\\\" \\\\ name\"]\n[Size \"5\"]\n[Komi \"1.5\"]\n[Result \"R-0\"]\n\n1. a1 e5\n2. b1\nR-0\n"
        );
    }

    #[test]
    fn a_start_with_black_to_move_numbers_from_its_tps() {
        let mut g = game();
        g.start = Some("x5/x5/x5/x5/1,x4 2 7".into());
        g.moves[0].comment = Some("a } brace".into());
        g.result = None;
        let text = g.write();
        assert!(text.contains("[TPS \"x5/x5/x5/x5/1,x4 2 7\"]\n"), "{text}");
        assert!(
            text.ends_with("\n7. -- a1 {a \\x7d brace}\n8. e5 b1\n"),
            "{text}"
        );
    }

    #[test]
    fn komi_in_half_points() {
        assert_eq!(komi_text(0), "0");
        assert_eq!(komi_text(4), "2");
        assert_eq!(komi_text(5), "2.5");
        assert_eq!(komi_text(-1), "-0.5");
    }
}
