//! Game records for other tools: one PGN file per run (every game, appended as it ends)
//! and, for Tak, one PTN file per run.
//!
//! PGN follows the standard's export format ("Portable Game Notation Specification and
//! Implementation Guide", S. J. Edwards, 1994): the seven-tag roster `Event Site Date
//! Round White Black Result` first, then `Variant` (the game's name), `GameSpec`,
//! `TimeControl` (section 9.6.1; `N/move` for a fixed time per move as cutechess writes
//! it, `-` for depth or nodes), `Termination` (section 9.8.1), `SetUp`/`FEN` (9.7) when
//! the game did not start from the game's own start position; moves in the game's own
//! notation (the library's canonical form), each with a fastchess-style comment
//! `{score/depth time}` (`{book}` for opening moves), the reason of an unusual ending as
//! the last comment, the result, and a blank line. `White` is the first player. Every
//! text the arena did not write goes through [`crate::safe_text`], so no engine output
//! can close a comment or forge a tag or a result.

use std::io::Write as _;
use std::path::Path;

use agon::games::tak::{PtnGame, PtnMove, Tak};
use agon::games::GameSpec;

use crate::record::{GameRecord, Seat, Termination};
use crate::safe_text::{display, pgn_comment, pgn_tag};

/// What the PGN tags need beyond the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnSettings {
    /// `Event` (fastchess `-event`).
    pub event: String,
    /// `Site` (fastchess `-site`).
    pub site: String,
}

impl Default for PgnSettings {
    fn default() -> Self {
        PgnSettings {
            event: "Agon arena".into(),
            site: "?".into(),
        }
    }
}

/// Where a run's records go besides the journal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordFiles {
    /// The run's PGN file (`None`: `<run dir>/games.pgn`).
    pub pgn: Option<std::path::PathBuf>,
    /// The PGN tags.
    pub tags: PgnSettings,
}

/// `YYYY.MM.DD` of a time in ms since the Unix epoch (UTC).
pub fn pgn_date(unix_ms: u64) -> String {
    let (y, m, d) = civil_from_days((unix_ms / 86_400_000) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Year, month, day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`,
/// http://howardhinnant.github.io/date_algorithms.html).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The PGN `Termination` value (standard section 9.8.1) of a termination.
pub fn termination_tag(t: &Termination) -> &'static str {
    match t {
        Termination::Normal => "normal",
        Termination::TimeForfeit { .. } => "time forfeit",
        Termination::Crash { .. } | Termination::Stall { .. } => "abandoned",
        Termination::IllegalMove { .. }
        | Termination::MalformedReply { .. }
        | Termination::ProtocolViolation { .. }
        | Termination::OutputFlood { .. }
        | Termination::ResourceLimit { .. } => "rules infraction",
        Termination::Adjudication { .. } => "adjudication",
        Termination::Interrupted => "unterminated",
    }
}

/// The PGN `TimeControl` value of an arena time control (`tc=40/60+0.6`, `st=0.1`...).
pub fn time_control_tag(tc: &str) -> String {
    let parsed = crate::clock::TimeControl::parse(tc).ok();
    match parsed {
        Some(t) => t.pgn(),
        None => "?".into(),
    }
}

/// The comment of one searched move, fastchess style: `score/depth time`, then
/// `tl=` (clock left), `n=` (nodes), `sd=` (selective depth), `nps=`, `pv="..."`.
fn move_comment(m: &crate::record::MoveRecord) -> String {
    let mut head = match (m.score, m.depth) {
        (Some(s), Some(d)) => format!("{s}/{d}"),
        (Some(s), None) => s.to_string(),
        (None, Some(d)) => format!("0.00/{d}"),
        (None, None) => String::new(),
    };
    if let Some(t) = m.time_ms {
        if !head.is_empty() {
            head.push(' ');
        }
        head.push_str(&format!("{:.3}s", t / 1000.0));
    }
    let mut parts = vec![head];
    if let Some(c) = m.clock_ms {
        parts.push(format!("tl={:.3}s", c as f64 / 1000.0));
    }
    if let Some(n) = m.nodes {
        parts.push(format!("n={n}"));
    }
    if let Some(sd) = m.seldepth {
        parts.push(format!("sd={sd}"));
    }
    if let Some(nps) = m.nps {
        parts.push(format!("nps={nps}"));
    }
    if !m.pv.is_empty() {
        parts.push(format!("pv=\"{}\"", m.pv.join(" ")));
    }
    parts.retain(|p| !p.is_empty());
    display(&parts.join(", ")).into_owned()
}

/// Appends `token` to the movetext, breaking lines before 80 characters (never inside a
/// token, so no comment is split and no line starts inside one).
fn push_token(lines: &mut Vec<String>, token: &str) {
    match lines.last_mut() {
        Some(line) if !line.is_empty() && line.len() + 1 + token.len() <= 79 => {
            line.push(' ');
            line.push_str(token);
        }
        Some(line) if line.is_empty() => line.push_str(token),
        _ => lines.push(token.to_string()),
    }
}

/// One game as PGN, ending with a blank line.
pub fn pgn_game(record: &GameRecord, settings: &PgnSettings) -> String {
    let mut out = String::new();
    let mut tag = |key: &str, value: &str| {
        out.push_str(&format!("[{key} \"{}\"]\n", pgn_tag(value)));
    };
    tag("Event", &settings.event);
    tag("Site", &settings.site);
    tag("Date", &pgn_date(record.started_unix_ms));
    tag("Round", &(record.game + 1).to_string());
    tag("White", &record.p1.name);
    tag("Black", &record.p2.name);
    tag("Result", &record.result);
    let variant =
        GameSpec::parse(&record.spec).map_or_else(|_| record.spec.clone(), |s| s.name.to_string());
    tag("Variant", &variant);
    tag("GameSpec", &record.spec);
    if record.p1.tc == record.p2.tc {
        tag("TimeControl", &time_control_tag(&record.p1.tc));
    } else {
        tag("WhiteTimeControl", &time_control_tag(&record.p1.tc));
        tag("BlackTimeControl", &time_control_tag(&record.p2.tc));
    }
    tag("Termination", termination_tag(&record.termination));
    if let Some(position) = &record.opening.position {
        tag("SetUp", "1");
        tag("FEN", position);
    }
    if let Some(detail) = &record.result_detail {
        tag("ResultDetail", detail);
    }
    tag("PlyCount", &record.moves.len().to_string());
    out.push('\n');
    let mut lines = vec![String::new()];
    let mut number = 1u32;
    for (i, m) in record.moves.iter().enumerate() {
        match m.side {
            Some(Seat::P1) | None => push_token(&mut lines, &format!("{number}.")),
            Some(Seat::P2) if i == 0 => push_token(&mut lines, &format!("{number}...")),
            Some(Seat::P2) => {}
        }
        push_token(&mut lines, &display(&m.mv));
        let comment = if m.book {
            "book".to_string()
        } else {
            move_comment(m)
        };
        if !comment.is_empty() {
            push_token(&mut lines, &format!("{{{}}}", pgn_comment(&comment)));
        }
        if m.side == Some(Seat::P2) {
            number += 1;
        }
    }
    if !matches!(record.termination, Termination::Normal) {
        push_token(&mut lines, &format!("{{{}}}", pgn_comment(&record.reason)));
    }
    push_token(&mut lines, &record.result);
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// The human-readable file of one game: its PGN, then the final board as PGN escape
/// lines (`%` in the first column, standard section 6), which PGN readers skip.
pub fn game_text(record: &GameRecord, final_board: &[String], settings: &PgnSettings) -> String {
    let mut out = pgn_game(record, settings);
    out.push_str(&format!(
        "% final position: {}\n",
        display(&record.final_position)
    ));
    for row in final_board {
        out.push_str(&format!("% {}\n", display(row)));
    }
    out
}

/// A gomoku game as Piskvork's `.psq` record ([`agon::games::mnk::psq`]), which Gomocup
/// publishes its games in and gomoku GUIs open: five in a row on a board of 5 to 26 a
/// side, from the empty board (an opening's stones are its first moves, with 0 ms).
/// `None` for other games and for games from a set-up position.
pub fn psq_game(record: &GameRecord) -> Option<String> {
    use agon::games::mnk::psq::{PsqGame, END_FAULT, END_NORMAL, END_TIMEOUT};
    let spec = GameSpec::parse(&record.spec).ok()?;
    crate::dialect::gomocup::plays(&spec).ok()?;
    if record.opening.position.is_some() {
        // A .psq file starts from the empty board.
        return None;
    }
    let settings = spec.settings_of::<agon::games::mnk::Mnk>()?;
    let start = <agon::games::mnk::Mnk as agon::game::Game>::start(&settings);
    let moves = record
        .moves
        .iter()
        .map(|m| {
            let mv = agon::game::Game::parse_move(&start, &m.mv).ok()?;
            Some((mv, m.time_ms.map_or(0, |t| t.round() as u64)))
        })
        .collect::<Option<Vec<_>>>()?;
    let code = match record.termination {
        Termination::Normal | Termination::Adjudication { .. } | Termination::Interrupted => {
            END_NORMAL
        }
        Termination::TimeForfeit { .. } => END_TIMEOUT,
        _ => END_FAULT,
    };
    Some(
        PsqGame {
            width: settings.m,
            height: settings.n,
            moves,
            players: Some([record.p1.name.clone(), record.p2.name.clone()]),
            code,
        }
        .write(),
    )
}

/// A PTN game (Portable Tak Notation, https://ustak.org/portable-tak-notation/) of a Tak
/// game, for PTN viewers such as PTN Ninja: tags, then numbered move pairs, then the
/// result. `None` when the game is not Tak. Tag values and comments are quoted as in
/// PGN, which PTN follows.
pub fn ptn_game(record: &GameRecord, settings: &PgnSettings) -> Option<String> {
    let tak = GameSpec::parse(&record.spec).ok()?.settings_of::<Tak>()?;
    let shown = |text: &str| display(text).into_owned();
    let pair = |key: &str, value: String| (key.to_string(), value);
    let game = PtnGame {
        settings: tak,
        head: vec![
            pair("Site", shown(&settings.site)),
            pair("Event", shown(&settings.event)),
            pair("Date", pgn_date(record.started_unix_ms)),
            pair("Round", (record.game + 1).to_string()),
            pair("Player1", shown(&record.p1.name)),
            pair("Player2", shown(&record.p2.name)),
        ],
        tail: vec![
            pair(
                "Clock",
                shown(&format!("p1 {} p2 {}", record.p1.tc, record.p2.tc)),
            ),
            pair("Termination", termination_tag(&record.termination).into()),
        ],
        start: record.opening.position.as_deref().map(shown),
        moves: record
            .moves
            .iter()
            .map(|m| PtnMove {
                mv: shown(&m.mv),
                comment: if m.book {
                    Some("book".into())
                } else {
                    Some(move_comment(m)).filter(|c| !c.is_empty())
                },
            })
            .collect(),
        closing: (!matches!(record.termination, Termination::Normal))
            .then(|| shown(&record.reason)),
        result: record.result_detail.as_deref().map(shown).or_else(|| {
            ["1-0", "0-1", "1/2-1/2"]
                .contains(&record.result.as_str())
                .then(|| record.result.clone())
        }),
    };
    Some(game.write() + "\n")
}

/// Appends `text` to the file at `path` (created if needed) and syncs it.
///
/// # Errors
/// The I/O error.
pub fn append(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_data()
}
