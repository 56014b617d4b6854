//! The one place where text the arena did not write (engine names, `id name`, `info
//! string`, principal variations, rejected lines, file names of student bots) becomes
//! text for people: terminal lines, `check.txt`, game files (PGN, PTN), transcripts, the
//! HTML report and CSV. JSON keeps the exact text; everything else goes through here.
//!
//! - [`display`]: control characters (C0, DEL, C1) and the Unicode bidirectional
//!   overrides are shown escaped (`\x1b`, `\r`, `\u{202e}`), so no engine output can move
//!   the cursor, clear a screen, ring a bell or reorder what a reader sees.
//! - [`pgn_tag`]: a PGN/PTN tag value: [`display`], then `\` and `"` escaped as the PGN
//!   standard (section 8.1.1) defines, so a value cannot end its tag or add another.
//! - [`pgn_comment`]: a PGN/PTN `{...}` comment's text: [`display`], and `}` (which ends a
//!   comment; PGN has no escape for it, section 8.2.5) shown as `\x7d`, so a comment
//!   cannot close early and forge moves or a result.
//! - [`csv_cell`]: a quoted CSV cell (RFC 4180) whose text cannot start a spreadsheet
//!   formula: a leading `=`, `+`, `-`, `@`, tab or CR gets a `'` in front (OWASP's
//!   "CSV injection" advice).
//! - [`html`]: [`display`], then HTML-escaped.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is shown escaped: C0 controls, DEL, C1 controls, and the bidirectional
/// marks, embeddings, overrides and isolates (Unicode UAX #9).
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every control character shown escaped: `\t`, `\n`, `\r` by name, other
/// ASCII controls as `\xNN`, the rest as `\u{N}`. Text without any is returned as is.
pub fn display(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if is_unsafe(c) && (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A PGN (or PTN) tag value, without the surrounding quotes.
pub fn pgn_tag(text: &str) -> String {
    display(text).replace('\\', "\\\\").replace('"', "\\\"")
}

/// The text of a PGN (or PTN) `{...}` comment, without the braces.
pub fn pgn_comment(text: &str) -> String {
    display(text).replace('}', "\\x7d")
}

/// One CSV cell, quoted, that a spreadsheet shows as text.
pub fn csv_cell(text: &str) -> String {
    let shown = display(text);
    let guard = if shown.starts_with(['=', '+', '-', '@']) || text.starts_with(['\t', '\r']) {
        "'"
    } else {
        ""
    };
    format!("\"{guard}{}\"", shown.replace('"', "\"\""))
}

/// Text for an HTML page (element content or a quoted attribute).
pub fn html(text: &str) -> String {
    let shown = display(text);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "bot\u{1b}[2J\u{7}\rPASS \"} 1-0 {x [Result \"1-0\"]\u{202e}\u{9b}";

    fn no_control(s: &str) {
        assert!(!s.chars().any(is_unsafe), "{s:?}");
    }

    #[test]
    fn controls_are_shown_escaped() {
        assert_eq!(display("plain text"), "plain text");
        assert!(matches!(display("plain"), Cow::Borrowed(_)));
        assert_eq!(
            display("a\u{1b}[2Jb\u{7}\r\n\t"),
            "a\\x1b[2Jb\\x07\\r\\n\\t"
        );
        assert_eq!(display("\u{7f}\u{9b}\u{202e}"), "\\x7f\\u{9b}\\u{202e}");
        assert_eq!(display("é ü ✓"), "é ü ✓");
        for f in [
            display(HOSTILE).into_owned(),
            pgn_tag(HOSTILE),
            pgn_comment(HOSTILE),
        ] {
            no_control(&f);
        }
    }

    #[test]
    fn pgn_values_cannot_end_their_tag_or_comment() {
        let tag = pgn_tag(HOSTILE);
        // Every quote is escaped, and so is every backslash before it (PGN 8.1.1).
        let mut chars = tag.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => assert!(matches!(chars.next(), Some('\\' | '"')), "{tag}"),
                '"' => panic!("an unescaped quote in {tag}"),
                _ => {}
            }
        }
        assert_eq!(pgn_tag(r#"a"b\c"#), r#"a\"b\\c"#);
        let comment = pgn_comment(HOSTILE);
        assert!(!comment.contains('}'), "{comment}");
        assert_eq!(pgn_comment("x} 1-0 {y"), "x\\x7d 1-0 {y");
    }

    #[test]
    fn csv_cells_never_start_a_formula() {
        assert_eq!(csv_cell("ann"), "\"ann\"");
        assert_eq!(
            csv_cell("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
        );
        for start in ["+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
            let cell = csv_cell(start);
            assert!(cell.starts_with("\"'"), "{start:?} -> {cell}");
            no_control(&cell);
        }
    }

    #[test]
    fn html_is_escaped_after_controls() {
        assert_eq!(
            html("<b a='1'>&\u{1b}"),
            "&lt;b a=&#39;1&#39;&gt;&amp;\\x1b"
        );
    }
}
