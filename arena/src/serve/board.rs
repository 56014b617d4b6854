//! What the board page needs beyond the position, all of it from the game itself
//! ([`agon::view::GameView`], through the registry's [`agon::games::board_info`]): the
//! legal moves taken apart into squares (so the page shows where a picked piece may go
//! without knowing any rule), the squares of the last move, the game's counts and record
//! formats, and the result in words with the squares that decided it. This file only
//! routes and turns the library's answer into JSON; it names no game.
//!
//! Routes: `GET /api/board?spec=&position=&moves=` (any position), `GET
//! /api/play/{id}/board?ply=` (a game of the page, after `ply` moves or all), `GET
//! /api/replay/board?path=&game=&ply=` (a journaled game) and `GET /api/engines` (the
//! games of each engine, [`super::engines`]).

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use agon::game::Outcome;
use agon::games::GameSpec;
use agon::view::MovePicture;

use super::view::{board_view, replay, BoardView};
use super::{configured_records, error, find_session, Found, Shared};
use crate::record::Seat;
use crate::safe_text::display;

/// The routes of this module (merged into the server's router, behind its guard).
pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/board", get(api_board))
        .route("/api/play/{id}/board", get(api_play_board))
        .route("/api/replay/board", get(api_replay_board))
        .route("/api/engines", get(super::engines::api_engines))
}

/// One legal move, taken apart for the page ([`MovePicture`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// Its canonical notation: what the page sends to play it.
    pub mv: String,
    /// The square a piece or stack leaves (none for placements).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Where it ends: the placed or destination square, or the squares a spread drops
    /// on, in order.
    pub to: Vec<String>,
    /// A placement of a piece of a kind (Tak `F`, `S`, `C`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// A spread: pieces dropped on each square of `to`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drops: Vec<u32>,
    /// A jump chain: the squares landed on between `from` and `to`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hops: Vec<String>,
}

impl From<MovePicture> for LegalMove {
    fn from(p: MovePicture) -> LegalMove {
        LegalMove {
            mv: p.mv,
            from: p.from,
            to: p.to,
            kind: p.kind,
            drops: p.drops,
            hops: p.hops,
        }
    }
}

/// A number per side that the game counts.
#[derive(Clone, Debug, Serialize)]
pub struct Count {
    /// What is counted (`stones left`).
    pub label: &'static str,
    /// The first side's number, then the second's.
    pub values: [u32; 2],
}

/// The game in one of its own record formats.
#[derive(Clone, Debug, Serialize)]
pub struct Export {
    /// `TPS`, `PTN`.
    pub format: &'static str,
    /// The text.
    pub text: String,
}

/// How a finished game ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultInfo {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub score: &'static str,
    /// The game's own result code (Tak `R-0`, `F-0`...).
    pub code: Option<String>,
    /// `p1`, `p2`, or none for a draw.
    pub winner: Option<&'static str>,
    /// The result in words: `White wins by road`.
    pub words: String,
    /// The squares that decided it: the line, the road, the filled camp.
    pub line: Vec<String>,
    /// Whether `line` is a line or path to draw through (a camp is only marked).
    pub path: bool,
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
    /// What the game counts per side (Tak: reserves and flats).
    pub counts: Vec<Count>,
    /// The standing in words (Tak: the flat count with komi).
    pub standing: Option<String>,
    /// The game in its own record formats (Tak: TPS and PTN).
    pub exports: Vec<Export>,
    /// Set when the rules ended the game.
    pub result: Option<ResultInfo>,
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
    let players = players.map(|[a, b]| [display(a).into_owned(), display(b).into_owned()]);
    let info = agon::games::board_info(spec, start, moves, players.as_ref())?;
    let view = board_view(replay(spec, start, moves)?.as_ref());
    let result = info
        .outcome
        .zip(info.ending)
        .map(|(outcome, ending)| ResultInfo {
            score: outcome.score_str(),
            code: info.result_code.clone(),
            winner: match outcome {
                Outcome::Win(side) => Some(Seat::of(side).name()),
                Outcome::Draw => None,
            },
            words: ending.words,
            line: ending.squares,
            path: ending.path,
        });
    Ok(BoardInfo {
        view,
        sides: info.sides,
        ply: moves.len(),
        how_to_move: info.how_to_move,
        moves: info.moves.into_iter().map(LegalMove::from).collect(),
        last: info.last.map(LegalMove::from),
        counts: info
            .counts
            .into_iter()
            .map(|c| Count {
                label: c.label,
                values: c.values,
            })
            .collect(),
        standing: info.standing,
        exports: info
            .exports
            .into_iter()
            .map(|e| Export {
                format: e.format,
                text: e.text,
            })
            .collect(),
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
        assert_eq!(i.counts[0].label, "stones left");
        assert_eq!(i.counts[0].values, [17, 18]);
        assert_eq!(i.counts[1].values, [1, 1]);
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
        let ptn = i.exports.iter().find(|e| e.format == "PTN").unwrap();
        assert!(ptn.text.contains("R-0"), "{}", ptn.text);
    }
}
