//! The Live tab: the watched folders' standings and games in progress, once or as
//! server-sent events; while a page watches, the folders are marked as watched so that
//! the matches there publish (see [`crate::live`]).

use std::path::PathBuf;
use std::time::SystemTime;

use axum::extract::State;
use axum::response::sse::Event;
use axum::response::Response;
use axum::Json;
use serde::Serialize;
use serde_json::json;
use tokio::sync::mpsc;

use agon::games::GameSpec;

use super::view::{self, board_view, replay};
use super::{
    figures, files_in, sse, standings, stream_permit, ServeConfig, Shared, LIVE_POLL, LIVE_STALE,
};
use crate::record::LiveGame;

/// A game in progress in a watched folder.
#[derive(Serialize)]
struct LiveView {
    dir: String,
    file: String,
    live: LiveGame,
    view: Option<view::BoardView>,
    error: Option<String>,
}

/// Tells the matches writing to the watched folders that a page watches (see
/// [`crate::live`]); a folder that does not exist yet is skipped.
fn mark_watched(config: &ServeConfig) {
    for dir in &config.watch {
        if let Err(e) = crate::live::mark_watched(dir) {
            log::warn!("cannot mark {} as watched: {e}", dir.display());
        }
    }
}

/// Names, sizes and times of the watched folders' journals (`jsonl`) or live files
/// (`json`), to tell when a new snapshot is worth sending.
type Signature = Vec<(PathBuf, u64, Option<SystemTime>)>;

fn signature(config: &ServeConfig, live: bool) -> Signature {
    let mut out = Vec::new();
    for dir in &config.watch {
        let files = if live {
            files_in(&dir.join("live"), "json")
        } else {
            files_in(dir, "jsonl")
        };
        for file in files {
            let meta = std::fs::metadata(&file).ok();
            out.push((
                file,
                meta.as_ref().map_or(0, |m| m.len()),
                meta.and_then(|m| m.modified().ok()),
            ));
        }
    }
    out
}

/// The watched folders: whether they exist yet, games finished, standings.
fn live_folders(config: &ServeConfig) -> serde_json::Value {
    let mut folders = Vec::new();
    for dir in &config.watch {
        let mut records = Vec::new();
        for j in files_in(dir, "jsonl") {
            if let Ok((r, _)) = crate::journal::read_lenient(&j) {
                records.extend(r);
            }
        }
        folders.push(json!({
            "dir": dir.display().to_string(),
            "exists": dir.is_dir(),
            "games": records.len(),
            "standings": standings(&records),
            "figures": figures(&records),
        }));
    }
    serde_json::Value::Array(folders)
}

/// The games in progress in the watched folders, with their boards.
fn live_games(config: &ServeConfig) -> Vec<LiveView> {
    let now = crate::live::unix_ms();
    let mut games = Vec::new();
    for dir in &config.watch {
        let files = files_in(&dir.join("live"), "json");
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let Ok(live) = serde_json::from_str::<LiveGame>(&text) else {
                continue;
            };
            if live.result != "*"
                || now.saturating_sub(live.updated_unix_ms) > LIVE_STALE.as_millis() as u64
            {
                continue;
            }
            let (view, error) = match GameSpec::parse(&live.spec) {
                Ok(spec) => {
                    let moves: Vec<String> = live.moves.iter().map(|m| m.mv.clone()).collect();
                    match replay(&spec, live.position.as_deref(), &moves) {
                        Ok(g) => (Some(board_view(g.as_ref())), None),
                        Err(e) => (None, Some(e)),
                    }
                }
                Err(e) => (None, Some(e.to_string())),
            };
            games.push(LiveView {
                dir: dir.display().to_string(),
                file: file.display().to_string(),
                live,
                view,
                error,
            });
        }
    }
    games
}

fn live_snapshot(folders: &serde_json::Value, games: &[LiveView]) -> serde_json::Value {
    json!({ "folders": folders, "games": games, "sent_unix_ms": crate::live::unix_ms() })
}

/// `GET /api/live`: the live snapshot once (and the folders marked as watched, so that
/// the matches publish for the next few seconds).
pub(super) async fn api_live(State(state): State<Shared>) -> Json<serde_json::Value> {
    mark_watched(&state.config);
    Json(live_snapshot(
        &live_folders(&state.config),
        &live_games(&state.config),
    ))
}

/// `GET /api/live/events`: a `live` event with the snapshot at once and whenever a
/// watched folder's journals or live files change (looked at every [`LIVE_POLL`]); while
/// the stream is open the folders are marked as watched.
pub(super) async fn api_live_events(State(state): State<Shared>) -> Response {
    let permit = match stream_permit(&state) {
        Ok(p) => p,
        Err(r) => return *r,
    };
    let (tx, rx) = mpsc::channel(4);
    tokio::spawn(async move {
        let _permit = permit;
        let mut sent = None;
        let mut folders: Option<(Signature, serde_json::Value)> = None;
        let mut marked: Option<tokio::time::Instant> = None;
        loop {
            if marked.is_none_or(|t| t.elapsed() >= crate::live::HEARTBEAT) {
                mark_watched(&state.config);
                marked = Some(tokio::time::Instant::now());
            }
            // The journals are read again only when they change.
            let journals = signature(&state.config, false);
            if folders.as_ref().is_none_or(|(s, _)| *s != journals) {
                folders = Some((journals.clone(), live_folders(&state.config)));
            }
            // Stale games drop out of the view even when nothing else changes.
            let epoch = crate::live::unix_ms() / 5_000;
            let now = (journals, signature(&state.config, true), epoch);
            if sent.as_ref() != Some(&now) {
                let folders = folders
                    .as_ref()
                    .map_or(&serde_json::Value::Null, |(_, f)| f);
                let snapshot = live_snapshot(folders, &live_games(&state.config));
                let Ok(event) = Event::default().event("live").json_data(&snapshot) else {
                    return;
                };
                if tx.send(event).await.is_err() {
                    return;
                }
                sent = Some(now);
            }
            tokio::select! {
                () = tokio::time::sleep(LIVE_POLL) => {}
                () = tx.closed() => return,
            }
        }
    });
    sse(rx)
}
