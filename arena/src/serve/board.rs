//! What the board page needs beyond the position, every bit computed by the agon
//! library: the legal moves taken apart into squares (so the page can show where a picked
//! piece may go without knowing any rule), the squares of the last move (a Tak spread's
//! landing squares too), Tak's reserves, flat count with komi, TPS and PTN, the result in
//! words with the winning line, road or camp; and which games each configured engine
//! plays, from its own answer to `games` (or its `Game` option, or TEI meaning Tak).
//!
//! Routes: `GET /api/board?spec=&position=&moves=` (any position), `GET
//! /api/play/{id}/board?ply=` (a game of the page, after `ply` moves or all), `GET /api/replay/board?path=&game=&ply=`
//! (a journaled game) and `GET /api/engines` (the games of each engine).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use agon::game::{Game, Outcome, Side};
use agon::games::clobber::Clobber;
use agon::games::halma::{camp_squares, Halma};
use agon::games::mnk::Mnk;
use agon::games::tak::{square_name as tak_square, EndKind, Tak, CAP, FLAT, WALL};
use agon::games::{erase, GameSpec};
use agon::protocol::OptionType;

use super::view::{board_view, BoardView};
use super::{configured_records, error, find_session, Found, Shared};
use crate::record::Seat;
use crate::referee::{EngineConfig, EngineSlot, RefereeSettings};

/// The routes of this module (merged into the server's router, behind its guard).
pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/board", get(api_board))
        .route("/api/play/{id}/board", get(api_play_board))
        .route("/api/replay/board", get(api_replay_board))
        .route("/api/engines", get(api_engines))
}

/// One legal move, taken apart for the page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// Its canonical notation: what the page sends to play it.
    pub mv: String,
    /// The square a piece or stack leaves (none for placements).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Where it ends: the placed or destination square, or the squares a Tak spread
    /// drops on, in order.
    pub to: Vec<String>,
    /// Tak placements: `F`, `S` or `C`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// Tak spreads: pieces dropped on each square of `to`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drops: Vec<u32>,
    /// Halma jump chains: the squares landed on between `from` and `to`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hops: Vec<String>,
}

/// Tak's side information, as PTN Ninja and PlayTak show it.
#[derive(Clone, Debug, Serialize)]
pub struct TakInfo {
    /// Board width.
    pub size: usize,
    /// Stones (flats or walls) left to place, White then Black.
    pub stones: [u8; 2],
    /// Capstones left.
    pub caps: [u8; 2],
    /// Stones and capstones each side starts with.
    pub start: (u8, u8),
    /// Flats on top of a stack (the flat count), White then Black.
    pub flats: [u32; 2],
    /// Twice Black's komi.
    pub half_komi: i32,
    /// Black's komi in words (`2`, `2.5`).
    pub komi: String,
    /// The flat count from White's side with komi: `White 7 - Black 6 - komi 2 = -1`.
    pub flat_score: String,
    /// The position in TPS.
    pub tps: String,
    /// The game in PTN.
    pub ptn: String,
}

/// How a finished game ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultInfo {
    /// `1-0`, `0-1`, `1/2-1/2` (Tak: its PTN code too, in `code`).
    pub score: &'static str,
    /// The game's own result code (Tak `R-0`, `F-0`...).
    pub code: Option<String>,
    /// `p1`, `p2`, or none for a draw.
    pub winner: Option<&'static str>,
    /// The result in words: `White wins by road`.
    pub words: String,
    /// The squares that decided it: the line, the road, the filled camp.
    pub line: Vec<String>,
}

/// A position with everything the page draws around it.
#[derive(Clone, Debug, Serialize)]
pub struct BoardInfo {
    /// The position.
    pub view: BoardView,
    /// The sides' names for sentences (`White`, `X`).
    pub sides: [String; 2],
    /// Plies played from the start position given.
    pub ply: usize,
    /// One line: how to enter a move in this game.
    pub how_to_move: &'static str,
    /// Every legal move, taken apart.
    pub moves: Vec<LegalMove>,
    /// The last move, taken apart (for marking it).
    pub last: Option<LegalMove>,
    /// Tak only.
    pub tak: Option<TakInfo>,
    /// Set when the rules ended the game.
    pub result: Option<ResultInfo>,
}

/// One line per game, shown over the board.
fn how_to_move(game: &str) -> &'static str {
    match game {
        "mnk" => "Click an empty square to place your stone; k in a row (across, down or diagonal) wins.",
        "clobber" => "Drag (or click) one of your stones onto an orthogonally adjacent enemy stone to capture it; who cannot capture loses.",
        "halma" => "Drag (or click) a piece to a marked square: a step to any neighbour, or a chain of jumps over pieces; fill the far camp to win.",
        "tak" => "Click an empty square to place (flat, wall or capstone below); click your stack to pick it up, then click marked squares to drop one stone each (the number is what you still carry). A road edge to edge wins.",
        _ => "Type a move in the game's notation.",
    }
}

/// A position replayed with the library's concrete type.
struct Replayed<G: Game> {
    before: G,
    last: Option<G::Move>,
    now: G,
    played: Vec<String>,
}

fn replay_as<G: Game>(
    spec: &GameSpec,
    position: Option<&str>,
    moves: &[String],
) -> Result<Replayed<G>, String> {
    let settings = spec.settings::<G>();
    let mut now = match position {
        None => G::start(&settings),
        Some(text) => G::parse_position(&settings, text).map_err(|e| e.to_string())?,
    };
    let mut before = now.clone();
    let mut last = None;
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = now
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        played.push(now.format_move(mv));
        before = now.clone();
        now.make_move(mv);
        last = Some(mv);
    }
    Ok(Replayed {
        before,
        last,
        now,
        played,
    })
}

fn legal<G: Game>(pos: &G) -> Vec<G::Move> {
    if pos.outcome().is_some() {
        return Vec::new();
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
}

/// A move of a game whose notation is the square (m,n,k) or `from-to` (Clobber, Halma).
fn simple_move(text: String) -> LegalMove {
    match text.split_once('-') {
        Some((from, to)) => LegalMove {
            from: Some(from.to_string()),
            to: vec![to.to_string()],
            mv: text,
            ..LegalMove::default()
        },
        None => LegalMove {
            to: vec![text.clone()],
            mv: text,
            ..LegalMove::default()
        },
    }
}

/// The square `steps` away from `sq` towards `dir` (0 `+`, 1 `>`, 2 `-`, 3 `<`).
fn tak_step(n: usize, sq: usize, dir: usize, steps: usize) -> usize {
    let (row, col) = (sq / n, sq % n);
    match dir {
        0 => (row + steps) * n + col,
        1 => row * n + col + steps,
        2 => (row - steps) * n + col,
        _ => row * n + col - steps,
    }
}

fn tak_move(pos: &Tak, mv: agon::games::tak::TakMove) -> LegalMove {
    let n = pos.size();
    let text = pos.format_move(mv);
    let sq = mv.square();
    if mv.is_place() {
        return LegalMove {
            mv: text,
            to: vec![tak_square(n, sq)],
            kind: Some(match mv.kind() {
                WALL => "S",
                CAP => "C",
                _ => "F",
            }),
            ..LegalMove::default()
        };
    }
    let drops = mv.drops();
    LegalMove {
        mv: text,
        from: Some(tak_square(n, sq)),
        to: (1..=drops.len())
            .map(|i| tak_square(n, tak_step(n, sq, mv.dir(), i)))
            .collect(),
        kind: None,
        drops,
        hops: Vec::new(),
    }
}

/// The name of the square on file `file` and rank `rank`, both from 0 (`a1`).
fn square(file: usize, rank: usize) -> String {
    format!("{}{}", char::from(b'a' + file as u8), rank + 1)
}

/// A side's name for sentences: `X`, `O`, `White`, `Black`.
fn pretty(name: &str) -> String {
    match name {
        "x" | "o" => name.to_ascii_uppercase(),
        "w" | "white" => "White".into(),
        "b" | "black" => "Black".into(),
        other => {
            let mut chars = other.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_uppercase().collect::<String>() + chars.as_str()
            })
        }
    }
}

/// A Halma move taken apart, with the squares a jump chain lands on between its start
/// and end: found by a search over jumps (over a neighbouring piece to the empty square
/// beyond), and kept only when the library accepts the whole path as the move
/// (`a1-c3-e5`, every hop checked), so the drawing never shows a path the rules refuse.
fn halma_move(pos: &Halma, mv: agon::games::halma::HalmaMove) -> LegalMove {
    let mut out = simple_move(pos.format_move(mv));
    let n = pos.settings_of().size;
    let (from, to) = (usize::from(mv.from), usize::from(mv.to));
    let (fr, fc) = ((from / n) as i64, (from % n) as i64);
    let (tr, tc) = ((to / n) as i64, (to % n) as i64);
    if (fr - tr).abs() <= 1 && (fc - tc).abs() <= 1 {
        return out;
    }
    let empty = |sq: usize| sq == from || pos.piece(sq).is_none();
    let mut parent: HashMap<usize, usize> = HashMap::from([(from, from)]);
    let mut queue = VecDeque::from([from]);
    while let Some(sq) = queue.pop_front() {
        if sq == to {
            break;
        }
        let (r, c) = ((sq / n) as i64, (sq % n) as i64);
        for (dr, dc) in [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ] {
            let (mr, mc, lr, lc) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
            if lr < 0 || lc < 0 || lr >= n as i64 || lc >= n as i64 {
                continue;
            }
            let (mid, land) = ((mr * n as i64 + mc) as usize, (lr * n as i64 + lc) as usize);
            if !empty(mid) && empty(land) && !parent.contains_key(&land) {
                parent.insert(land, sq);
                queue.push_back(land);
            }
        }
    }
    if !parent.contains_key(&to) {
        return out;
    }
    let mut path = vec![to];
    while *path.last().expect("not empty") != from {
        path.push(parent[path.last().expect("not empty")]);
    }
    path.reverse();
    let names: Vec<String> = path.iter().map(|&sq| square(sq % n, sq / n)).collect();
    if pos.parse_move(&names.join("-")).is_ok() {
        out.hops = names[1..names.len() - 1].to_vec();
    }
    out
}

fn side_seat(side: Side) -> &'static str {
    Seat::of(side).name()
}

fn komi_words(half_komi: i32) -> String {
    if half_komi % 2 == 0 {
        format!("{}", half_komi / 2)
    } else {
        format!("{:.1}", f64::from(half_komi) / 2.0)
    }
}

fn tak_flats(pos: &Tak) -> [u32; 2] {
    let n = pos.size();
    let mut flats = [0; 2];
    for sq in 0..n * n {
        if let Some((side, FLAT)) = pos.top(sq) {
            flats[side.index()] += 1;
        }
    }
    flats
}

/// The squares of `side`'s road: a shortest chain of its flats and capstones joining
/// two opposite edges (empty when there is none).
fn tak_road(pos: &Tak, side: Side) -> Vec<usize> {
    let n = pos.size();
    let on_road = |sq: usize| matches!(pos.top(sq), Some((s, kind)) if s == side && kind != WALL);
    let mut best: Vec<usize> = Vec::new();
    // West to east, then south to north.
    for vertical in [false, true] {
        let start: Vec<usize> = (0..n)
            .map(|i| if vertical { i } else { i * n })
            .filter(|&sq| on_road(sq))
            .collect();
        let is_goal = |sq: usize| {
            if vertical {
                sq / n == n - 1
            } else {
                sq % n == n - 1
            }
        };
        let mut parent: HashMap<usize, usize> = HashMap::new();
        let mut queue: VecDeque<usize> = VecDeque::new();
        for &sq in &start {
            parent.insert(sq, sq);
            queue.push_back(sq);
        }
        while let Some(sq) = queue.pop_front() {
            if is_goal(sq) {
                let mut path = vec![sq];
                let mut at = sq;
                while parent[&at] != at {
                    at = parent[&at];
                    path.push(at);
                }
                if best.is_empty() || path.len() < best.len() {
                    best = path;
                }
                break;
            }
            let (row, col) = (sq / n, sq % n);
            let mut next = Vec::with_capacity(4);
            if row + 1 < n {
                next.push(sq + n);
            }
            if row > 0 {
                next.push(sq - n);
            }
            if col + 1 < n {
                next.push(sq + 1);
            }
            if col > 0 {
                next.push(sq - 1);
            }
            for t in next {
                if on_road(t) && !parent.contains_key(&t) {
                    parent.insert(t, sq);
                    queue.push_back(t);
                }
            }
        }
    }
    best
}

/// The line-of-four variant: the four squares of `side`'s line.
fn tak_line(pos: &Tak, side: Side) -> Vec<usize> {
    let n = pos.size();
    let flat = |sq: usize| pos.top(sq) == Some((side, FLAT));
    let mut lines: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        lines.push((0..n).map(|j| i * n + j).collect());
        lines.push((0..n).map(|j| j * n + i).collect());
    }
    lines.push((0..n).map(|j| j * n + j).collect());
    lines.push((0..n).map(|j| j * n + n - 1 - j).collect());
    lines
        .into_iter()
        .find(|l| l.iter().all(|&sq| flat(sq)))
        .unwrap_or_default()
}

/// PTN of a game (https://ustak.org/portable-tak-notation/): tag pairs, then numbered
/// moves, then the result.
fn tak_ptn(
    pos: &Tak,
    start: Option<&str>,
    played: &[String],
    players: Option<&[String; 2]>,
) -> String {
    let settings = pos.settings_of();
    let mut out = String::new();
    out.push_str("[Site \"Agon arena\"]\n");
    if let Some([p1, p2]) = players {
        out.push_str(&format!("[Player1 \"{p1}\"]\n[Player2 \"{p2}\"]\n"));
    }
    out.push_str(&format!("[Size \"{}\"]\n", settings.size));
    out.push_str(&format!("[Komi \"{}\"]\n", komi_words(settings.half_komi)));
    if let Some(tps) = start {
        out.push_str(&format!("[TPS \"{tps}\"]\n"));
    }
    let result = pos.result_detail();
    if let Some(code) = &result {
        out.push_str(&format!("[Result \"{code}\"]\n"));
    }
    out.push('\n');
    // The start's move number and side to move, from its TPS (`... 2 7`).
    let (mut number, mut black) = (1u32, false);
    if let Some(tps) = start {
        let fields: Vec<&str> = tps.split_whitespace().collect();
        black = fields.get(1) == Some(&"2");
        number = fields.get(2).and_then(|f| f.parse().ok()).unwrap_or(1);
    }
    let mut line = String::new();
    for mv in played {
        if !black {
            line = format!("{number}. {mv}");
        } else {
            if line.is_empty() {
                line = format!("{number}. --");
            }
            line.push(' ');
            line.push_str(mv);
            out.push_str(&line);
            out.push('\n');
            line.clear();
            number += 1;
        }
        black = !black;
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(code) = result {
        out.push_str(&code);
        out.push('\n');
    }
    out
}

fn tak_info(
    r: &Replayed<Tak>,
    start: Option<&str>,
    players: Option<&[String; 2]>,
) -> (TakInfo, Option<ResultInfo>) {
    let pos = &r.now;
    let settings = *pos.settings_of();
    let n = pos.size();
    let (w, b) = (pos.reserves(Side::First), pos.reserves(Side::Second));
    let flats = tak_flats(pos);
    let diff = 2 * (i64::from(flats[0]) - i64::from(flats[1])) - i64::from(settings.half_komi);
    let komi = komi_words(settings.half_komi);
    let lead = if diff == 0 {
        "even".to_string()
    } else {
        let who = if diff > 0 { "White" } else { "Black" };
        format!("{who} ahead by {}", komi_words(diff.unsigned_abs() as i32))
    };
    let flat_score = format!(
        "White {} - Black {} - komi {komi}: {lead} (from White's side)",
        flats[0], flats[1]
    );
    let info = TakInfo {
        size: n,
        stones: [w.0, b.0],
        caps: [w.1, b.1],
        start: (settings.stones(), settings.caps()),
        flats,
        half_komi: settings.half_komi,
        komi: komi.clone(),
        flat_score,
        tps: pos.format_position(),
        ptn: tak_ptn(pos, start, &r.played, players),
    };
    let result = pos.finish().map(|(outcome, kind)| {
        let (words, line) = match (outcome, kind) {
            (Outcome::Win(side), EndKind::Road) => {
                let squares = if settings.line {
                    tak_line(pos, side)
                } else {
                    tak_road(pos, side)
                };
                let how = if settings.line {
                    "a line of four"
                } else {
                    "road"
                };
                (
                    format!("{} wins by {how}", pretty(Tak::side_name(side))),
                    squares,
                )
            }
            (Outcome::Win(side), EndKind::Flats) => (
                format!(
                    "{} wins on flats ({} to {}, komi {komi})",
                    pretty(Tak::side_name(side)),
                    flats[0],
                    flats[1]
                ),
                Vec::new(),
            ),
            (Outcome::Draw, EndKind::Flats) => (
                format!("Draw on flats ({} to {}, komi {komi})", flats[0], flats[1]),
                Vec::new(),
            ),
            (_, EndKind::Repetition) => (
                "Draw by repetition (the same position a third time)".to_string(),
                Vec::new(),
            ),
            (Outcome::Draw, EndKind::Road) => ("Draw".to_string(), Vec::new()),
        };
        ResultInfo {
            score: outcome.score_str(),
            code: pos.result_detail(),
            winner: winner(outcome),
            words,
            line: line.into_iter().map(|sq| tak_square(n, sq)).collect(),
        }
    });
    (info, result)
}

fn winner(outcome: Outcome) -> Option<&'static str> {
    match outcome {
        Outcome::Win(side) => Some(side_seat(side)),
        Outcome::Draw => None,
    }
}

/// m,n,k: the winner's k (or more) in a row.
fn mnk_result(pos: &Mnk) -> Option<ResultInfo> {
    let outcome = pos.outcome()?;
    let s = *pos.settings_of();
    let name = |c: usize| square(c % s.m, c / s.m);
    let (words, line) = match outcome {
        Outcome::Draw => ("Draw: the board is full".to_string(), Vec::new()),
        Outcome::Win(side) => {
            let mine = |col: i64, row: i64| {
                col >= 0
                    && row >= 0
                    && (col as usize) < s.m
                    && (row as usize) < s.n
                    && pos.stone(row as usize * s.m + col as usize) == Some(side)
            };
            let mut line = Vec::new();
            'search: for row in 0..s.n as i64 {
                for col in 0..s.m as i64 {
                    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                        if (0..s.k as i64).all(|i| mine(col + i * dc, row + i * dr)) {
                            line = (0..s.k as i64)
                                .map(|i| {
                                    name(((row + i * dr) as usize) * s.m + (col + i * dc) as usize)
                                })
                                .collect();
                            break 'search;
                        }
                    }
                }
            }
            (
                format!(
                    "{} wins with {} in a row",
                    pretty(Mnk::side_name(side)),
                    s.k
                ),
                line,
            )
        }
    };
    Some(ResultInfo {
        score: outcome.score_str(),
        code: None,
        winner: winner(outcome),
        words,
        line,
    })
}

fn clobber_result(pos: &Clobber) -> Option<ResultInfo> {
    let outcome = pos.outcome()?;
    let words = match outcome {
        Outcome::Win(side) => format!(
            "{} wins: {} has no capture left",
            pretty(Clobber::side_name(side)),
            pretty(Clobber::side_name(side.other()))
        ),
        Outcome::Draw => "Draw".to_string(),
    };
    Some(ResultInfo {
        score: outcome.score_str(),
        code: None,
        winner: winner(outcome),
        words,
        line: Vec::new(),
    })
}

fn halma_result(pos: &Halma) -> Option<ResultInfo> {
    let outcome = pos.outcome()?;
    let s = *pos.settings_of();
    let (words, line) = match outcome {
        Outcome::Win(side) => {
            let camp: Vec<String> = camp_squares(s.size, side.other())
                .into_iter()
                .map(|(file, rank)| square(file, rank))
                .collect();
            (
                format!(
                    "{} wins by filling {}'s camp",
                    pretty(Halma::side_name(side)),
                    pretty(Halma::side_name(side.other()))
                ),
                camp,
            )
        }
        Outcome::Draw if pos.ply() >= s.limit => (
            format!("Draw: the limit of {} plies was reached", s.limit),
            Vec::new(),
        ),
        Outcome::Draw => (
            "Draw (the same position a third time, or no legal move)".to_string(),
            Vec::new(),
        ),
    };
    Some(ResultInfo {
        score: outcome.score_str(),
        code: None,
        winner: winner(outcome),
        words,
        line,
    })
}

fn info_of<G: Game>(
    r: &Replayed<G>,
    take_apart: impl Fn(&G, G::Move) -> LegalMove,
) -> (BoardView, Vec<LegalMove>, Option<LegalMove>) {
    let view = board_view(erase(r.now.clone()).as_ref());
    let moves = legal(&r.now)
        .into_iter()
        .map(|m| take_apart(&r.now, m))
        .collect();
    let last = r.last.map(|m| take_apart(&r.before, m));
    (view, moves, last)
}

/// Everything the page shows of `spec` from `start` (or the game's start) after `moves`.
///
/// # Errors
/// A message naming the bad position or move.
pub fn board_info(
    spec: &GameSpec,
    start: Option<&str>,
    moves: &[String],
    players: Option<&[String; 2]>,
) -> Result<BoardInfo, String> {
    let simple = |text: String| simple_move(text);
    let (view, legal_moves, last, tak, result) = match spec.name {
        "tak" => {
            let r = replay_as::<Tak>(spec, start, moves)?;
            let (view, m, last) = info_of(&r, tak_move);
            let (tak, result) = tak_info(&r, start, players);
            (view, m, last, Some(tak), result)
        }
        "mnk" => {
            let r = replay_as::<Mnk>(spec, start, moves)?;
            let (view, m, last) = info_of(&r, |p: &Mnk, mv| simple(p.format_move(mv)));
            (view, m, last, None, mnk_result(&r.now))
        }
        "clobber" => {
            let r = replay_as::<Clobber>(spec, start, moves)?;
            let (view, m, last) = info_of(&r, |p: &Clobber, mv| simple(p.format_move(mv)));
            (view, m, last, None, clobber_result(&r.now))
        }
        "halma" => {
            let r = replay_as::<Halma>(spec, start, moves)?;
            let (view, m, last) = info_of(&r, halma_move);
            (view, m, last, None, halma_result(&r.now))
        }
        other => return Err(format!("the board page does not know the game '{other}'")),
    };
    Ok(BoardInfo {
        how_to_move: how_to_move(view.game),
        sides: [pretty(view.sides[0]), pretty(view.sides[1])],
        view,
        ply: moves.len(),
        moves: legal_moves,
        last,
        tak,
        result,
    })
}

#[derive(Debug, Deserialize)]
struct BoardQuery {
    spec: String,
    #[serde(default)]
    position: Option<String>,
    /// Moves separated by spaces.
    #[serde(default)]
    moves: Option<String>,
}

async fn api_board(Query(q): Query<BoardQuery>) -> Response {
    let spec = match GameSpec::parse(&q.spec) {
        Ok(s) => s,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("game '{}': {e}", q.spec)),
    };
    let moves: Vec<String> = q
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let start = q.position.filter(|p| !p.trim().is_empty());
    match board_info(&spec, start.as_deref(), &moves, None) {
        Ok(info) => Json(info).into_response(),
        Err(e) => error(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}

#[derive(Debug, Deserialize)]
struct PlyQuery {
    /// The position after this many moves of the game (default: all of them), so that a
    /// page showing an earlier state gets the facts of what it shows.
    ply: Option<usize>,
}

async fn api_play_board(
    State(state): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(q): Query<PlyQuery>,
) -> Response {
    let (s, start) = match find_session(&state, &id) {
        Ok(Found::Live(session)) => (session.state(), session.start_position()),
        Ok(Found::Ended(last)) => (last.state.clone(), last.start.clone()),
        Err(r) => return r.into_response(),
    };
    let spec = match GameSpec::parse(&s.view.spec) {
        Ok(spec) => spec,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let ply = q.ply.unwrap_or(s.moves.len());
    if ply > s.moves.len() {
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "game {id} has {} moves; there is no ply {ply}",
                s.moves.len()
            ),
        );
    }
    let moves: Vec<String> = s.moves[..ply].iter().map(|m| m.mv.clone()).collect();
    match board_info(&spec, start.as_deref(), &moves, Some(&s.players)) {
        Ok(info) => Json(json!({ "version": s.version, "info": info })).into_response(),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

#[derive(Debug, Deserialize)]
struct ReplayQuery {
    path: String,
    game: usize,
    ply: Option<usize>,
}

async fn api_replay_board(State(state): State<Shared>, Query(q): Query<ReplayQuery>) -> Response {
    let records = match configured_records(&state.config, &q.path) {
        Ok(r) => r,
        Err(r) => return *r,
    };
    let Some(record) = records.get(q.game) else {
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "the journal has {} games; there is no game {}",
                records.len(),
                q.game
            ),
        );
    };
    let ply = q.ply.unwrap_or(record.moves.len()).min(record.moves.len());
    let spec = match GameSpec::parse(&record.spec) {
        Ok(s) => s,
        Err(e) => return error(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
    };
    let moves: Vec<String> = record.moves[..ply].iter().map(|m| m.mv.clone()).collect();
    let players = [record.p1.name.clone(), record.p2.name.clone()];
    match board_info(
        &spec,
        record.opening.position.as_deref(),
        &moves,
        Some(&players),
    ) {
        Ok(info) => Json(info).into_response(),
        Err(e) => error(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}

/// What an engine said it plays: canonical game names, or `None` when it did not say.
#[derive(Clone, Debug, Serialize)]
struct EngineGames {
    name: String,
    games: Option<Vec<String>>,
    /// How we know.
    source: String,
}

/// Answers of engines already asked, by their configuration (the same command line and
/// options answer the same).
fn cache() -> &'static tokio::sync::Mutex<HashMap<String, EngineGames>> {
    static CACHE: OnceLock<tokio::sync::Mutex<HashMap<String, EngineGames>>> = OnceLock::new();
    CACHE.get_or_init(|| tokio::sync::Mutex::new(HashMap::new()))
}

/// Starts the engine, reads its handshake, asks `games`, and stops it.
async fn probe(config: Arc<EngineConfig>, referee: RefereeSettings) -> EngineGames {
    let name = config.name.clone();
    if let Some(games) = crate::dialect::games(config.dialect) {
        return EngineGames {
            name,
            games: Some(games.iter().map(|g| g.to_string()).collect()),
            source: format!("speaks {}, which plays only these", config.dialect),
        };
    }
    let mut slot = EngineSlot::new(config, 0, 0);
    let answer = match slot.ensure_started(&referee, Seat::P1, None).await {
        Err(t) => EngineGames {
            name,
            games: Some(Vec::new()),
            source: format!("did not start: {}", t.describe()),
        },
        Ok(()) => {
            let running = slot.running();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
            let listed = running
                .client
                .list_games(deadline)
                .await
                .unwrap_or_default();
            let default_game = running.id.declarations.iter().find_map(|d| {
                if !d.name.eq_ignore_ascii_case("game") {
                    return None;
                }
                match &d.kind {
                    OptionType::String { default } | OptionType::Combo { default, .. } => {
                        GameSpec::parse(default).ok().map(|s| s.name.to_string())
                    }
                    _ => None,
                }
            });
            if !listed.is_empty() {
                EngineGames {
                    name,
                    games: Some(listed),
                    source: "its answer to 'games'".into(),
                }
            } else if let Some(game) = default_game {
                EngineGames {
                    name,
                    source: format!("no answer to 'games'; its Game option defaults to {game}"),
                    games: Some(vec![game]),
                }
            } else {
                EngineGames {
                    name,
                    games: None,
                    source: "it names no game (no 'games' answer, no Game option)".into(),
                }
            }
        }
    };
    slot.stop(referee.grace).await;
    answer
}

/// The games `config` plays (`None`: it did not say) and how we know, as
/// `GET /api/engines` says: asked once, then remembered.
pub(super) async fn engine_games(
    config: &Arc<EngineConfig>,
    referee: &RefereeSettings,
) -> (Option<Vec<String>>, String) {
    let key = format!("{config:?}");
    if let Some(g) = cache().lock().await.get(&key) {
        return (g.games.clone(), g.source.clone());
    }
    let mut referee = referee.clone();
    referee.log_dir = None;
    referee.live_dir = None;
    let answer = probe(Arc::clone(config), referee).await;
    let out = (answer.games.clone(), answer.source.clone());
    cache().lock().await.insert(key, answer);
    out
}

async fn api_engines(State(state): State<Shared>) -> Json<serde_json::Value> {
    let mut referee = state.config.referee.clone();
    referee.log_dir = None;
    referee.live_dir = None;
    let mut out = Vec::new();
    let mut missing = Vec::new();
    {
        let known = cache().lock().await;
        for e in &state.config.engines {
            match known.get(&format!("{e:?}")) {
                Some(g) => out.push(g.clone()),
                None => missing.push(Arc::clone(e)),
            }
        }
    }
    if !missing.is_empty() {
        let probes = missing
            .iter()
            .map(|e| tokio::spawn(probe(Arc::clone(e), referee.clone())));
        let mut known = cache().lock().await;
        for (e, task) in missing.iter().zip(probes.collect::<Vec<_>>()) {
            let answer = task.await.unwrap_or_else(|_| EngineGames {
                name: e.name.clone(),
                games: None,
                source: "the probe failed".into(),
            });
            known.insert(format!("{e:?}"), answer);
        }
        out = state
            .config
            .engines
            .iter()
            .filter_map(|e| known.get(&format!("{e:?}")).cloned())
            .collect();
    }
    Json(json!({ "engines": out }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(spec: &str, start: Option<&str>, moves: &[&str]) -> BoardInfo {
        let spec = GameSpec::parse(spec).unwrap();
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        board_info(&spec, start, &moves, None).unwrap()
    }

    #[test]
    fn a_tak_spread_lands_on_each_square_it_drops_on() {
        let i = info(
            "tak size=5",
            Some("x5/x5/x,12,2,x2/x,121,1,x2/x5 1 8"),
            &["3b2+111"],
        );
        let last = i.last.unwrap();
        assert_eq!(last.from.as_deref(), Some("b2"));
        assert_eq!(last.to, ["b3", "b4", "b5"]);
        assert_eq!(last.drops, [1, 1, 1]);
        // 21 stones each at 5x5; the position holds 4 White and 3 Black stones.
        let tak = i.tak.unwrap();
        assert_eq!(tak.stones, [17, 18]);
        assert_eq!(tak.caps, [1, 1]);
    }

    #[test]
    fn a_halma_piece_lists_every_jump_destination() {
        // White a1 can jump over b2 to c3, then over d4 to e5.
        let i = info("halma size=8", Some("8/8/8/8/3b4/8/1w6/w7 w 0"), &[]);
        let from_a1: Vec<&str> = i
            .moves
            .iter()
            .filter(|m| m.from.as_deref() == Some("a1"))
            .map(|m| m.to[0].as_str())
            .collect();
        assert!(from_a1.contains(&"c3"), "{from_a1:?}");
        assert!(from_a1.contains(&"e5"), "{from_a1:?}");
        assert!(from_a1.contains(&"a2"), "{from_a1:?}");
        let chain = i.moves.iter().find(|m| m.mv == "a1-e5").unwrap();
        assert_eq!(chain.hops, ["c3"]);
        let i = info("halma size=8", Some("8/8/8/8/3b4/8/1w6/w7 w 0"), &["a1-e5"]);
        assert_eq!(i.last.unwrap().hops, ["c3"]);
    }

    #[test]
    fn an_mnk_win_names_its_line() {
        let i = info("tictactoe", None, &["a1", "b1", "a2", "b2", "a3"]);
        let r = i.result.unwrap();
        assert_eq!(r.winner, Some("p1"));
        assert_eq!(r.line, ["a1", "a2", "a3"]);
        assert!(i.moves.is_empty());
    }

    #[test]
    fn a_tak_road_is_drawn_edge_to_edge() {
        // White's flats on a1..d1 and e1 completes the road.
        let i = info(
            "tak size=5",
            Some("x5/x5/2,2,2,x2/x5/1,1,1,1,x 1 6"),
            &["e1"],
        );
        let r = i.result.unwrap();
        assert_eq!(r.words, "White wins by road");
        assert_eq!(r.line, ["e1", "d1", "c1", "b1", "a1"]);
        assert!(i.tak.unwrap().ptn.contains("R-0"));
    }
}
