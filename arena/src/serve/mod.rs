//! `arena serve`: a local web page to play any configured engine, watch two engines,
//! follow a running `arena match` or `tournament` live, replay journaled games with
//! their search statistics, and open the `arena report` of a journal.
//!
//! Safety: the server binds to 127.0.0.1 by default, answers only peers on the loopback
//! interface and requests whose `Host` is a loopback name (which defeats DNS rebinding)
//! unless `--allow-remote` is given, and never starts a program the page names: the page
//! picks engines by name from the configured list.

pub mod board;
pub mod session;
pub mod view;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::{ConnectInfo, Path as UrlPath, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use agon::games::GameSpec;

use crate::record::{GameRecord, LiveGame};
use crate::referee::{EngineConfig, RefereeSettings};
use session::{MoveRefusal, Player, Session};
use view::{board_view, replay};

/// Games in progress at once; more are refused until one ends.
pub const MAX_SESSIONS: usize = 8;
/// The time per engine move a game may ask for, in ms.
const MOVETIME_MS: (u64, u64) = (10, 60_000);
/// A session nobody has looked at for this long is stopped.
const IDLE_LIMIT: Duration = Duration::from_secs(600);
/// Live files older than this are from a match that was killed.
const LIVE_STALE: Duration = Duration::from_secs(300);

/// What the server offers.
pub struct ServeConfig {
    /// The engines the page may start, by name.
    pub engines: Vec<Arc<EngineConfig>>,
    /// Output folders of matches and tournaments to follow (their `*.jsonl` journals and
    /// `live/` files).
    pub watch: Vec<PathBuf>,
    /// More journals to replay and report.
    pub journals: Vec<PathBuf>,
    /// Answer peers beyond the loopback interface (and any `Host`).
    pub allow_remote: bool,
    /// Timeouts, margins and output limits for engines (the game is set per session).
    pub referee: RefereeSettings,
}

struct AppState {
    config: ServeConfig,
    sessions: Mutex<HashMap<u64, Arc<Session>>>,
    next_id: AtomicU64,
}

type Shared = Arc<AppState>;

/// The router with its state; serve it with [`serve`].
pub fn router(config: ServeConfig) -> Router {
    let state = Arc::new(AppState {
        config,
        sessions: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
    });
    let reaper = Arc::clone(&state);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(30)).await;
            reap(&reaper);
        }
    });
    Router::new()
        .route("/", get(|| async { Html(INDEX_HTML) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", APP_JS) }),
        )
        .route("/style.css", get(|| async { asset("text/css", STYLE_CSS) }))
        .route("/api/config", get(api_config))
        .route("/api/play", post(api_new_game))
        .route("/api/play/{id}", get(api_game_state))
        .route("/api/play/{id}/move", post(api_move))
        .route("/api/play/{id}/stop", post(api_stop))
        .route("/api/journals", get(api_journals))
        .route("/api/journal", get(api_journal))
        .route("/api/replay", get(api_replay))
        .route("/api/live", get(api_live))
        .route("/report", get(api_report))
        .merge(board::routes())
        .layer(middleware::from_fn_with_state(Arc::clone(&state), guard))
        .with_state(state)
}

/// Serves `router` on `listener` until the process ends.
///
/// # Errors
/// The server's I/O error.
pub async fn serve(listener: tokio::net::TcpListener, router: Router) -> std::io::Result<()> {
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
}

const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    ApiError(status, message.into()).into_response()
}

/// An API refusal: the status and a message naming what was wrong, sent as
/// `{"error": message}`.
#[derive(Debug)]
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

/// Whether a peer may use the server: loopback addresses only (IPv4 `127.0.0.0/8`,
/// IPv6 `::1`, and IPv4-mapped loopback), unless remote peers are allowed.
pub fn peer_allowed(peer: IpAddr, allow_remote: bool) -> bool {
    allow_remote
        || match peer {
            IpAddr::V4(v4) => v4.is_loopback(),
            IpAddr::V6(v6) => {
                v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v| v.is_loopback())
            }
        }
}

/// Whether a `Host` header names this machine's loopback (`localhost`, `127.0.0.1`,
/// `[::1]`, with any port): a page from another site that rebinds its name to 127.0.0.1
/// still sends its own name and is refused.
pub fn host_allowed(host: Option<&str>) -> bool {
    let Some(host) = host else {
        return false;
    };
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(n, _)| n)
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<IpAddr>()
            .is_ok_and(|ip| peer_allowed(ip, false))
}

async fn guard(
    State(state): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if !state.config.allow_remote {
        if !peer_allowed(peer.ip(), false) {
            log::warn!("refused a connection from {peer}");
            return (
                StatusCode::FORBIDDEN,
                format!("arena serve answers only this machine (loopback); {} is not (start it with --allow-remote to change that)\n", peer.ip()),
            )
                .into_response();
        }
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok());
        if !host_allowed(host) {
            return (
                StatusCode::FORBIDDEN,
                format!(
                    "arena serve answers only requests for localhost; Host '{}' is not\n",
                    host.unwrap_or("")
                ),
            )
                .into_response();
        }
    }
    next.run(request).await
}

fn reap(state: &AppState) {
    let mut sessions = state.sessions.lock().unwrap_or_else(|e| e.into_inner());
    sessions.retain(|_, s| {
        let idle = s.idle() > IDLE_LIMIT;
        if idle {
            s.stop("nobody watched it for 10 minutes");
        }
        !idle
    });
}

async fn api_config(State(state): State<Shared>) -> Json<serde_json::Value> {
    let games: Vec<serde_json::Value> = agon::games::describe_all()
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "params": g.params.iter().map(|p| json!({
                    "key": p.name, "min": p.min, "max": p.max, "default": p.default, "doc": p.doc,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Json(json!({
        "engines": state.config.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "games": games,
        "watch": state.config.watch.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "max_sessions": MAX_SESSIONS,
    }))
}

/// `POST /api/play`: a new game.
#[derive(Debug, Deserialize)]
struct NewGame {
    /// Game spec (`tictactoe`, `clobber rows=5 cols=6`).
    game: String,
    /// Optional start position string.
    #[serde(default)]
    position: Option<String>,
    /// `human` or a configured engine's name.
    p1: String,
    /// `human` or a configured engine's name.
    p2: String,
    /// Time per engine move.
    #[serde(default = "default_movetime")]
    movetime_ms: u64,
}

fn default_movetime() -> u64 {
    500
}

async fn api_new_game(State(state): State<Shared>, body: String) -> Response {
    let request: NewGame = match serde_json::from_str(&body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad request: {e}")),
    };
    let spec = match GameSpec::parse(&request.game) {
        Ok(s) => s,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("game '{}': {e}", request.game),
            )
        }
    };
    let mut players = Vec::new();
    for who in [&request.p1, &request.p2] {
        if who == "human" {
            players.push(Player::Human);
            continue;
        }
        match state.config.engines.iter().find(|e| &e.name == who) {
            Some(e) => {
                if e.dialect == agon::protocol::Dialect::Tei && spec.name != "tak" {
                    return error(
                        StatusCode::BAD_REQUEST,
                        format!("engine '{who}' speaks TEI, which plays Tak only"),
                    );
                }
                players.push(Player::Engine(Arc::clone(e)));
            }
            None => {
                log::warn!("refused to start '{who}': not a configured engine");
                return error(
                    StatusCode::FORBIDDEN,
                    format!(
                        "'{who}' is not a configured engine; this server starts only {} (configure more with --engine or --config)",
                        state
                            .config
                            .engines
                            .iter()
                            .map(|e| format!("'{}'", e.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
    }
    if !(MOVETIME_MS.0..=MOVETIME_MS.1).contains(&request.movetime_ms) {
        return error(
            StatusCode::BAD_REQUEST,
            format!(
                "movetime_ms {} is out of range ({}..={})",
                request.movetime_ms, MOVETIME_MS.0, MOVETIME_MS.1
            ),
        );
    }
    let position = request.position.filter(|p| !p.trim().is_empty());
    let id = state.next_id.fetch_add(1, Ordering::SeqCst);
    let players: [Player; 2] = [players[0].clone(), players[1].clone()];
    let session = match Session::new(id, spec.clone(), position, players, request.movetime_ms) {
        Ok(s) => s,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("position: {e}")),
    };
    {
        // Counted and inserted under one lock, so concurrent requests cannot overshoot.
        let mut sessions = state.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if sessions.values().filter(|s| !s.is_over()).count() >= MAX_SESSIONS {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("{MAX_SESSIONS} games are in progress; stop one first"),
            );
        }
        sessions.insert(id, Arc::clone(&session));
    }
    let mut settings = state.config.referee.clone();
    settings.spec = spec;
    tokio::spawn(Arc::clone(&session).drive(settings));
    Json(session.state()).into_response()
}

fn find_session(state: &AppState, id: u64) -> Result<Arc<Session>, ApiError> {
    state
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)
        .cloned()
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no game {id}")))
}

async fn api_game_state(State(state): State<Shared>, UrlPath(id): UrlPath<u64>) -> Response {
    match find_session(&state, id) {
        Ok(s) => Json(s.state()).into_response(),
        Err(r) => r.into_response(),
    }
}

#[derive(Debug, Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

async fn api_move(
    State(state): State<Shared>,
    UrlPath(id): UrlPath<u64>,
    body: String,
) -> Response {
    let session = match find_session(&state, id) {
        Ok(s) => s,
        Err(r) => return r.into_response(),
    };
    let request: MoveRequest = match serde_json::from_str(&body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad request: {e}")),
    };
    match session.human_move(&request.mv) {
        Ok(canonical) => {
            Json(json!({ "played": canonical, "state": session.state() })).into_response()
        }
        Err(refusal) => {
            let status = match refusal {
                MoveRefusal::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
                _ => StatusCode::CONFLICT,
            };
            error(status, refusal.to_string())
        }
    }
}

async fn api_stop(State(state): State<Shared>, UrlPath(id): UrlPath<u64>) -> Response {
    match find_session(&state, id) {
        Ok(s) => {
            s.stop("stopped from the page");
            Json(s.state()).into_response()
        }
        Err(r) => r.into_response(),
    }
}

/// Every journal the server may read: `*.jsonl` in the watched folders, then the
/// journals given, without duplicates.
fn journal_paths(config: &ServeConfig) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in &config.watch {
        out.extend(files_in(dir, "jsonl"));
    }
    for j in &config.journals {
        if !out.contains(j) {
            out.push(j.clone());
        }
    }
    out
}

/// The files of `dir` ending in `.extension`, sorted (none if it cannot be read).
fn files_in(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == extension))
        .collect();
    found.sort();
    found
}

/// The records of a journal that may be being written: complete lines that parse; the
/// number of lines that did not.
fn read_records(path: &Path) -> std::io::Result<(Vec<GameRecord>, usize)> {
    let text = std::fs::read_to_string(path)?;
    let mut records = Vec::new();
    let mut bad = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str(line) {
            Ok(r) => records.push(r),
            Err(_) => bad += 1,
        }
    }
    Ok((records, bad))
}

#[derive(Debug, Deserialize)]
struct JournalQuery {
    path: String,
    game: Option<usize>,
    ply: Option<usize>,
}

/// The journal named by the query, if it is one the server offers.
fn allowed_journal(config: &ServeConfig, path: &str) -> Result<PathBuf, ApiError> {
    journal_paths(config)
        .into_iter()
        .find(|p| p.to_string_lossy() == path)
        .ok_or_else(|| {
            ApiError(
                StatusCode::NOT_FOUND,
                format!("'{path}' is not a journal this server offers"),
            )
        })
}

async fn api_journals(State(state): State<Shared>) -> Json<serde_json::Value> {
    let list: Vec<serde_json::Value> = journal_paths(&state.config)
        .iter()
        .map(|p| {
            let (games, bad) = read_records(p).map_or((0, 0), |(r, b)| (r.len(), b));
            json!({ "path": p.display().to_string(), "games": games, "unreadable_lines": bad })
        })
        .collect();
    Json(json!({ "journals": list }))
}

/// Standings of a journal's engines: games, W/D/L, score, Elo against the field with its
/// 95% error.
fn standings(records: &[GameRecord]) -> Vec<serde_json::Value> {
    // The same ratings as `arena tournament` and `arena report` (one statistics path).
    let (_, standings) = crate::report::standings(records);
    standings
        .ranking
        .iter()
        .map(|s| {
            json!({
                "engine": s.name,
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "score": if s.games == 0 { 0.0 } else { s.points / s.games as f64 },
                "elo": s.elo,
                "error": s.error.is_finite().then_some(s.error),
            })
        })
        .collect()
}

async fn api_journal(State(state): State<Shared>, Query(q): Query<JournalQuery>) -> Response {
    let path = match allowed_journal(&state.config, &q.path) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    let (records, bad) = match read_records(&path) {
        Ok(x) => x,
        Err(e) => {
            return error(
                StatusCode::NOT_FOUND,
                format!("cannot read {}: {e}", path.display()),
            )
        }
    };
    let games: Vec<serde_json::Value> = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "index": i, "game": r.game, "spec": r.spec, "p1": r.p1.name, "p2": r.p2.name,
                "result": r.result, "reason": r.reason, "plies": r.moves.len(),
            })
        })
        .collect();
    Json(json!({ "path": path.display().to_string(), "games": games, "unreadable_lines": bad, "standings": standings(&records) }))
        .into_response()
}

async fn api_replay(State(state): State<Shared>, Query(q): Query<JournalQuery>) -> Response {
    let path = match allowed_journal(&state.config, &q.path) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    let records = match read_records(&path) {
        Ok((r, _)) => r,
        Err(e) => {
            return error(
                StatusCode::NOT_FOUND,
                format!("cannot read {}: {e}", path.display()),
            )
        }
    };
    let index = q.game.unwrap_or(0);
    let Some(record) = records.get(index) else {
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "the journal has {} games; there is no game {index}",
                records.len()
            ),
        );
    };
    let ply = q.ply.unwrap_or(record.moves.len());
    if ply > record.moves.len() {
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "game {index} has {} plies; there is no ply {ply}",
                record.moves.len()
            ),
        );
    }
    let spec = match GameSpec::parse(&record.spec) {
        Ok(s) => s,
        Err(e) => {
            return error(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("game spec '{}': {e}", record.spec),
            )
        }
    };
    let moves: Vec<String> = record.moves[..ply].iter().map(|m| m.mv.clone()).collect();
    match replay(&spec, record.opening.position.as_deref(), &moves) {
        Ok(game) => Json(json!({
            "record": record,
            "ply": ply,
            "view": board_view(game.as_ref()),
        }))
        .into_response(),
        Err(e) => error(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the journal's game does not replay: {e}"),
        ),
    }
}

/// A game in progress in a watched folder.
#[derive(Serialize)]
struct LiveView {
    dir: String,
    file: String,
    live: LiveGame,
    view: Option<view::BoardView>,
    error: Option<String>,
}

async fn api_live(State(state): State<Shared>) -> Json<serde_json::Value> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let mut games = Vec::new();
    let mut folders = Vec::new();
    for dir in &state.config.watch {
        let mut records = Vec::new();
        for j in files_in(dir, "jsonl") {
            if let Ok((r, _)) = read_records(&j) {
                records.extend(r);
            }
        }
        folders.push(json!({
            "dir": dir.display().to_string(),
            "games": records.len(),
            "standings": standings(&records),
        }));
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
    Json(json!({ "folders": folders, "games": games }))
}

async fn api_report(State(state): State<Shared>, Query(q): Query<JournalQuery>) -> Response {
    let path = match allowed_journal(&state.config, &q.path) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    match read_records(&path) {
        Ok((records, _)) => Html(crate::report::render(
            &format!("Arena report: {}", path.display()),
            &records,
        ))
        .into_response(),
        Err(e) => error(
            StatusCode::NOT_FOUND,
            format!("cannot read {}: {e}", path.display()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_peers_by_default() {
        for ok in ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"] {
            assert!(peer_allowed(ok.parse().unwrap(), false), "{ok}");
        }
        for bad in [
            "192.0.2.2",
            "10.0.0.1",
            "0.0.0.0",
            "fd00::2",
            "::ffff:192.0.2.2",
        ] {
            assert!(!peer_allowed(bad.parse().unwrap(), false), "{bad}");
            assert!(peer_allowed(bad.parse().unwrap(), true), "{bad}");
        }
    }

    #[test]
    fn only_loopback_host_names() {
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:80",
            "LOCALHOST",
        ] {
            assert!(host_allowed(Some(ok)), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "192.0.2.2:8080",
            "",
        ] {
            assert!(!host_allowed(Some(bad)), "{bad}");
        }
        assert!(!host_allowed(None));
    }
}
