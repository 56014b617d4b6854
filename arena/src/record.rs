//! What a finished game leaves behind: the typed [`Termination`], the [`GameRecord`]
//! written as one JSON line to the append-only [`crate::journal::Journal`] the moment the game ends,
//! a human-readable game file, and optionally the protocol transcript.
//!
//! Journal schema (version [`JOURNAL_VERSION`]): one JSON object per line, each a
//! complete [`GameRecord`]; fields are documented on the types below and in docs/arena.md.

use std::io;
use std::path::Path;

use agon::game::{Outcome, Side};
use agon::protocol::Score;
use serde::{Deserialize, Serialize};

use crate::client::{Direction, TranscriptLine};

/// Version of the journal's record format.
pub const JOURNAL_VERSION: u32 = 1;

/// A seat at the board: `p1` moves first from the standard start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// The first player.
    P1,
    /// The second player.
    P2,
}

impl Seat {
    /// The seat of a library side.
    pub fn of(side: Side) -> Seat {
        match side {
            Side::First => Seat::P1,
            Side::Second => Seat::P2,
        }
    }

    /// The library side of this seat.
    pub fn side(self) -> Side {
        match self {
            Seat::P1 => Side::First,
            Seat::P2 => Side::Second,
        }
    }

    /// `p1` or `p2`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::P1 => "p1",
            Seat::P2 => "p2",
        }
    }

    /// The index of this seat (0 for `p1`).
    pub fn index(self) -> usize {
        match self {
            Seat::P1 => 0,
            Seat::P2 => 1,
        }
    }

    /// The result code of a game this seat won: `1-0` or `0-1`.
    pub fn win_result(self) -> &'static str {
        match self {
            Seat::P1 => "1-0",
            Seat::P2 => "0-1",
        }
    }

    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::P1 => Seat::P2,
            Seat::P2 => Seat::P1,
        }
    }
}

/// How a game ended. Every variant but `Normal`, `Adjudication` and `Interrupted` names
/// the `side` at fault, which loses the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Termination {
    /// The game ended by its rules.
    Normal,
    /// A well-formed move that is not legal in the position.
    IllegalMove {
        /// The side at fault.
        side: Seat,
        /// The move as the engine wrote it.
        mv: String,
        /// Why the rules refuse it.
        reason: String,
    },
    /// A reply that is not a move in the game's notation (or not a reply at all).
    MalformedReply {
        /// The side at fault.
        side: Seat,
        /// The line as read (shortened).
        line: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The engine used more than its time plus the margin (or the hard cap of a depth-
    /// or nodes-limited search).
    TimeForfeit {
        /// The side at fault.
        side: Seat,
        /// Time used when the arena decided, in ms.
        elapsed_ms: u64,
        /// Time that was allowed, margin included, in ms.
        allowed_ms: u64,
        /// Which limit: `clock`, `movetime` or `hard-cap`.
        limit: String,
    },
    /// The engine exited, or closed its pipes, or could not be started.
    Crash {
        /// The side at fault.
        side: Seat,
        /// What the arena was doing (`startup`, `new game`, `search`...).
        phase: String,
        /// Exit status or OS error, when known.
        detail: String,
    },
    /// No `readyok` (or handshake `ok`) within the deadline.
    Stall {
        /// The side at fault.
        side: Seat,
        /// What the arena waited for.
        waiting_for: String,
        /// How long it waited, in ms.
        waited_ms: u64,
    },
    /// Replies out of order or an `error` reply instead of a move.
    ProtocolViolation {
        /// The side at fault.
        side: Seat,
        /// The offending line (shortened).
        line: String,
        /// What is wrong.
        reason: String,
    },
    /// The engine hit a limit of its sandbox (memory, CPU time, file size).
    ResourceLimit {
        /// The side at fault.
        side: Seat,
        /// `memory`, `cpu`, `file-size` or `processes` (journals of earlier arenas may
        /// also hold `filesystem`, judged then from the engine's own words).
        limit: String,
        /// What was seen.
        detail: String,
    },
    /// A line longer than the limit or more lines than the rate cap.
    OutputFlood {
        /// The side at fault.
        side: Seat,
        /// Which limit was exceeded.
        reason: String,
    },
    /// The arena ended the game by a rule of its own.
    Adjudication {
        /// The rule.
        rule: AdjudicationRule,
        /// Details.
        detail: String,
        /// The winner (a resignation); `None`: a draw.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winner: Option<Seat>,
    },
    /// The match was stopped (Ctrl-C) while the game was in progress; no result.
    Interrupted,
}

/// Which rule of the arena adjudicated a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdjudicationRule {
    /// `--max-plies`: a draw.
    MaxPlies,
    /// `--draw` (fastchess `-draw`): both engines' scores stayed near 0.
    Draw,
    /// `--resign` (fastchess `-resign`): an engine's score stayed lost.
    Resign,
}

impl AdjudicationRule {
    /// `max-plies`, `draw`, `resign`.
    pub fn name(self) -> &'static str {
        match self {
            AdjudicationRule::MaxPlies => "max-plies",
            AdjudicationRule::Draw => "draw",
            AdjudicationRule::Resign => "resign",
        }
    }
}

impl Termination {
    /// The snake_case name of the kind, as in the journal.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::IllegalMove { .. } => "illegal_move",
            Termination::MalformedReply { .. } => "malformed_reply",
            Termination::TimeForfeit { .. } => "time_forfeit",
            Termination::Crash { .. } => "crash",
            Termination::Stall { .. } => "stall",
            Termination::ProtocolViolation { .. } => "protocol_violation",
            Termination::OutputFlood { .. } => "output_flood",
            Termination::ResourceLimit { .. } => "resource_limit",
            Termination::Adjudication { .. } => "adjudication",
            Termination::Interrupted => "interrupted",
        }
    }

    /// The side at fault, if any.
    pub fn at_fault(&self) -> Option<Seat> {
        match self {
            Termination::IllegalMove { side, .. }
            | Termination::MalformedReply { side, .. }
            | Termination::TimeForfeit { side, .. }
            | Termination::Crash { side, .. }
            | Termination::Stall { side, .. }
            | Termination::ProtocolViolation { side, .. }
            | Termination::OutputFlood { side, .. }
            | Termination::ResourceLimit { side, .. } => Some(*side),
            _ => None,
        }
    }

    /// One line for people.
    pub fn describe(&self) -> String {
        match self {
            Termination::Normal => "normal end".into(),
            Termination::IllegalMove { side, mv, reason } => {
                format!("{} played illegal move '{mv}': {reason}", side.name())
            }
            Termination::MalformedReply { side, line, reason } => {
                format!("{} sent a malformed reply '{line}': {reason}", side.name())
            }
            Termination::TimeForfeit {
                side,
                elapsed_ms,
                allowed_ms,
                limit,
            } => format!(
                "{} lost on time: {elapsed_ms} ms used, {allowed_ms} ms allowed ({limit})",
                side.name()
            ),
            Termination::Crash {
                side,
                phase,
                detail,
            } => format!("{} crashed during {phase}: {detail}", side.name()),
            Termination::Stall {
                side,
                waiting_for,
                waited_ms,
            } => format!(
                "{} stalled: no {waiting_for} in {waited_ms} ms",
                side.name()
            ),
            Termination::ProtocolViolation { side, line, reason } => {
                format!("{} broke the protocol: {reason} ('{line}')", side.name())
            }
            Termination::OutputFlood { side, reason } => {
                format!("{} flooded its output: {reason}", side.name())
            }
            Termination::ResourceLimit {
                side,
                limit,
                detail,
            } => format!("{} exceeded its {limit} limit: {detail}", side.name()),
            Termination::Adjudication {
                rule,
                detail,
                winner,
            } => match winner {
                Some(w) => format!("adjudicated ({}): {} wins: {detail}", rule.name(), w.name()),
                None => format!("adjudicated ({}): draw: {detail}", rule.name()),
            },
            Termination::Interrupted => "interrupted".into(),
        }
    }
}

/// A score as the engine reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreRecord {
    /// Centi-units.
    Cp(i32),
    /// Win in this many plies.
    Win(u32),
    /// Loss in this many plies.
    Loss(u32),
}

impl From<Score> for ScoreRecord {
    fn from(score: Score) -> Self {
        match score {
            Score::Cp(v) => ScoreRecord::Cp(v),
            Score::Win(p) => ScoreRecord::Win(p),
            Score::Loss(p) => ScoreRecord::Loss(p),
        }
    }
}

impl std::fmt::Display for ScoreRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScoreRecord::Cp(v) => write!(f, "{:+.2}", f64::from(*v) / 100.0),
            ScoreRecord::Win(p) => write!(f, "+W{p}"),
            ScoreRecord::Loss(p) => write!(f, "-L{p}"),
        }
    }
}

/// One move of a game with what the engine reported about its search.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Ply number from the start of the game, 1-based (opening moves included).
    pub ply: u32,
    /// Who played it.
    pub side: Option<Seat>,
    /// The move in canonical notation.
    pub mv: String,
    /// True for opening moves given by the schedule (no search data).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
    /// Wall time from `go` written to `bestmove` read, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    /// CPU time the mover used from `go` to `bestmove`, in ms: its whole box's for a
    /// sandboxed engine (suspended while not on move), else its own process's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
    /// The mover's clock after the move (increment added), in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
    /// What is left of the mover's time bank after the move, in ms (`bank=`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
    /// The mover ran over its time and the arena played this move in its place, the
    /// game's first legal move (`timeout=move`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub default_move: bool,
    /// The arena's own latency before this move: from the previous `bestmove` read to
    /// this `go` written, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<f64>,
    /// Reported depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Reported selective depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    /// Reported score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreRecord>,
    /// Reported nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Reported nodes per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nps: Option<u64>,
    /// Reported search time, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine_time_ms: Option<u64>,
    /// Reported principal variation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<String>,
}

impl MoveRecord {
    /// A searched move: the engine's last `info` values and the wall time from `go` to
    /// `bestmove` (`used`); clock and latency are the referee's to fill in.
    pub fn searched(
        ply: u32,
        side: Seat,
        mv: String,
        used: std::time::Duration,
        info: agon::protocol::Info,
    ) -> MoveRecord {
        MoveRecord {
            ply,
            side: Some(side),
            mv,
            time_ms: Some(round_ms(used)),
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score.map(Into::into),
            nodes: info.nodes,
            nps: info.nps,
            engine_time_ms: info.time,
            pv: info.pv,
            ..MoveRecord::default()
        }
    }
}

/// A duration in ms, rounded to microseconds.
pub fn round_ms(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// One player of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The engine's name in this match.
    pub name: String,
    /// Its index in the match (0 = the first `--engine`, whose view the statistics take).
    pub engine: usize,
    /// Its time control as given.
    pub tc: String,
    /// What it called itself (`id name`), if it said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_name: Option<String>,
    /// Which version of it played: in `arena class`, the first 12 hex digits of its
    /// submission's SHA-256 (a reference player's: `ref-` and its binary's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The file, in the run's log folder, that holds the stderr of the process that
    /// played this game (a boxed engine's process plays one game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_log: Option<String>,
}

/// Where a game started.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// A position string, or `None` for the game's start.
    pub position: Option<String>,
    /// Moves played from there before the engines took over.
    pub moves: Vec<String>,
}

/// What the engines claimed about the result when asked with `query result`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The first player's answer (`p1win`, `p2win`, `draw`, `none`), `None` if it gave none.
    pub p1: Option<String>,
    /// The second player's answer.
    pub p2: Option<String>,
    /// Whether both answered and agree with the arena.
    pub agree: bool,
}

/// One finished game: the journal line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Record format version.
    pub version: u32,
    /// The run that played it (start time and seed).
    pub run: String,
    /// Index of the game in the schedule, from 0.
    pub game: u64,
    /// Index of its colour-swapped pair (games `2p` and `2p+1` share an opening).
    pub pair: u64,
    /// The game spec, canonical (`mnk m=3 n=3 k=3`).
    pub spec: String,
    /// The first player.
    pub p1: PlayerRecord,
    /// The second player.
    pub p2: PlayerRecord,
    /// The opening.
    pub opening: OpeningRecord,
    /// Every move, opening moves first (marked `book`).
    pub moves: Vec<MoveRecord>,
    /// The game's own result code when its rules ended it (Tak's PTN `R-0`, `0-F`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_detail: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` when interrupted.
    pub result: String,
    /// The winner's seat, if any.
    pub winner: Option<Seat>,
    /// How the game ended.
    pub termination: Termination,
    /// The termination in words.
    pub reason: String,
    /// The engines' own claims, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claims: Option<Claims>,
    /// The final position string.
    pub final_position: String,
    /// Wall-clock start, ms since the Unix epoch.
    pub started_unix_ms: u64,
    /// Wall-clock duration in ms.
    pub duration_ms: u64,
    /// The human-readable game file, relative to the output directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_file: Option<String>,
    /// The transcript file, relative to the output directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript_file: Option<String>,
    /// The PTN file of a Tak game, relative to the output directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ptn_file: Option<String>,
    /// The `.psq` file of a gomoku game (Piskvork's record), relative to the output
    /// directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub psq_file: Option<String>,
    /// Things worth knowing that did not end the game (ignored lines, engine warnings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Fingerprint of the match configuration (engines, game, openings, seed, games):
    /// a run of the same match skips the games already journaled with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

impl GameRecord {
    /// The outcome for scoring (`None` when interrupted).
    pub fn outcome(&self) -> Option<Outcome> {
        match self.result.as_str() {
            "1-0" => Some(Outcome::Win(Side::First)),
            "0-1" => Some(Outcome::Win(Side::Second)),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Points of match engine `engine` (0 or 1) in this game, `None` when not scored.
    pub fn points_of(&self, engine: usize) -> Option<f64> {
        let outcome = self.outcome()?;
        let seat = if self.p1.engine == engine {
            Seat::P1
        } else {
            Seat::P2
        };
        Some(match outcome {
            Outcome::Draw => 0.5,
            Outcome::Win(side) if side == seat.side() => 1.0,
            Outcome::Win(_) => 0.0,
        })
    }

    /// The player record of a seat.
    pub fn player(&self, seat: Seat) -> &PlayerRecord {
        match seat {
            Seat::P1 => &self.p1,
            Seat::P2 => &self.p2,
        }
    }
}

/// A game in progress, as the referee leaves it in `OUT/live/<run>-w<worker>.json`
/// (replaced atomically) after every move and, throttled, during a search, for
/// `arena serve` to show; written only while a server watches the folder (see
/// [`crate::live`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveGame {
    /// The run playing it.
    pub run: String,
    /// Index of the game in the schedule.
    pub game: u64,
    /// The game spec, canonical.
    pub spec: String,
    /// The first player's engine name.
    pub p1: String,
    /// The second player's engine name.
    pub p2: String,
    /// The start position (`None`: the game's start).
    pub position: Option<String>,
    /// Every move so far with its search data.
    pub moves: Vec<MoveRecord>,
    /// `*` while in progress, else the result.
    pub result: String,
    /// When this file was written, ms since the Unix epoch.
    pub updated_unix_ms: u64,
    /// When the arena read the last move's `bestmove`, ms since the Unix epoch (0 before
    /// the first move).
    #[serde(default)]
    pub moved_unix_ms: u64,
    /// The search in progress, if an engine is thinking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<LiveThinking>,
    /// Each side's time left on its clock (ms) after its last move (before it: the base);
    /// `null` for a side that plays without a clock.
    #[serde(default)]
    pub clocks_ms: [Option<u64>; 2],
    /// The seat to move, while the game goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<Seat>,
    /// When the side to move began its turn (its clock started), ms since the Unix epoch.
    #[serde(default)]
    pub turn_unix_ms: u64,
}

/// The search in progress in a live game: the engine's latest `info` values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveThinking {
    /// The seat searching.
    pub seat: Option<Seat>,
    /// Milliseconds since `go`.
    pub elapsed_ms: u64,
    /// Depth.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Score (mover's view).
    pub score: Option<String>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Principal variation.
    pub pv: Vec<String>,
    /// `info` lines so far in this search.
    pub lines: u64,
}

impl LiveThinking {
    /// The search of `seat` after `lines` info lines, `elapsed_ms` after `go`, with the
    /// latest `info` values: the one shape the live files and the page's games share.
    pub fn from_info(seat: Seat, elapsed_ms: u64, info: &agon::protocol::Info, lines: u64) -> Self {
        LiveThinking {
            seat: Some(seat),
            elapsed_ms,
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score.map(|s| ScoreRecord::from(s).to_string()),
            nodes: info.nodes,
            nps: info.nps,
            pv: info.pv.clone(),
            lines,
        }
    }
}

impl LiveGame {
    /// Writes the file atomically (a temporary file renamed over it); errors are the
    /// caller's to ignore: a live view is never worth stopping a game for.
    ///
    /// # Errors
    /// Any I/O failure.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_string(self).map_err(io::Error::other)?)?;
        std::fs::rename(&tmp, path)
    }
}

/// The transcript as text: a legend, then one line per protocol line,
/// `seconds who arrow text`, with protocol.md's arrows (`>` to the engine, `<` from it).
pub fn transcript_text(lines: &[TranscriptLine], dropped: u64) -> String {
    let mut out = String::from(
        "# seconds, engine, then '>' sent to the engine, '<' its reply, '#' a note of the arena (as in protocol.md)\n",
    );
    for l in lines {
        let arrow = match l.direction {
            Direction::ToEngine => ">",
            Direction::FromEngine => "<",
            Direction::Note => "#",
        };
        out.push_str(&format!(
            "{:>12.6} {} {arrow} {}\n",
            l.at.as_secs_f64(),
            l.who,
            crate::safe_text::display(&l.text)
        ));
    }
    if dropped > 0 {
        out.push_str(&format!("# {dropped} more lines not kept\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            version: JOURNAL_VERSION,
            run: "r".into(),
            game: 3,
            pair: 1,
            spec: "mnk m=3 n=3 k=3".into(),
            p1: PlayerRecord {
                name: "a".into(),
                engine: 1,
                tc: "tc=1+0.01".into(),
                id_name: None,
                version: None,
                stderr_log: None,
            },
            p2: PlayerRecord {
                name: "b".into(),
                engine: 0,
                tc: "depth=3".into(),
                id_name: Some("Agon".into()),
                version: None,
                stderr_log: None,
            },
            opening: OpeningRecord {
                position: None,
                moves: vec!["b2".into()],
            },
            moves: vec![
                MoveRecord {
                    ply: 1,
                    side: Some(Seat::P1),
                    mv: "b2".into(),
                    book: true,
                    ..MoveRecord::default()
                },
                MoveRecord {
                    ply: 2,
                    side: Some(Seat::P2),
                    mv: "a1".into(),
                    time_ms: Some(1.5),
                    score: Some(ScoreRecord::Cp(-12)),
                    depth: Some(3),
                    pv: vec!["a1".into(), "c3".into()],
                    ..MoveRecord::default()
                },
            ],
            result: "0-1".into(),
            winner: Some(Seat::P2),
            termination: Termination::IllegalMove {
                side: Seat::P1,
                mv: "b2".into(),
                reason: "the square is occupied".into(),
            },
            reason: "p1 played illegal move".into(),
            claims: None,
            final_position: "3/1x1/o2 x".into(),
            started_unix_ms: 1,
            duration_ms: 2,
            game_file: Some("games/g.txt".into()),
            transcript_file: None,
            ptn_file: None,
            psq_file: None,
            notes: vec![],
            fingerprint: None,
            result_detail: None,
        }
    }

    #[test]
    fn termination_json_shape() {
        let t = Termination::TimeForfeit {
            side: Seat::P2,
            elapsed_ms: 120,
            allowed_ms: 100,
            limit: "clock".into(),
        };
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"time_forfeit","side":"p2","elapsed_ms":120,"allowed_ms":100,"limit":"clock"}"#
        );
        assert_eq!(
            serde_json::to_string(&Termination::Normal).unwrap(),
            r#"{"kind":"normal"}"#
        );
        assert_eq!(t.at_fault(), Some(Seat::P2));
    }

    #[test]
    fn journal_round_trip_and_repair() {
        use crate::journal::Journal;
        use std::fs::OpenOptions;
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut j = Journal::open(&path).unwrap();
        j.append(&sample()).unwrap();
        j.append(&sample()).unwrap();
        drop(j);
        // A torn last line, as a kill in the middle of a write would leave.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"version\":1,\"ru").unwrap();
        drop(f);
        let mut j = Journal::open(&path).unwrap();
        j.append(&sample()).unwrap();
        let records = crate::journal::read(&path).unwrap().games;
        assert_eq!(records.len(), 3);
        assert_eq!(records[0], sample());
        assert_eq!(records[0].points_of(0), Some(1.0));
        assert_eq!(records[0].points_of(1), Some(0.0));
    }
}
