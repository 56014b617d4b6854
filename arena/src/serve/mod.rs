//! `arena serve`: a local web page to play any configured engine, watch two engines,
//! follow a running `arena match` or `tournament` live, replay journaled games with
//! their search statistics, and open the `arena report` of a journal.
//!
//! Safety: the server binds to 127.0.0.1 by default, answers only peers on the loopback
//! interface and requests whose `Host` is a loopback name (which defeats DNS rebinding)
//! unless `--allow-remote` is given, and never starts a program the page names: the page
//! picks engines by name from the configured list. A request with more than one `Host`
//! header is refused (400). Connections are limited (see [`ServeLimits`]): a client has
//! [`HEADER_READ_TIMEOUT`] to send a request's headers, and at most [`MAX_CONNECTIONS`]
//! connections are held at once (more wait to be accepted).

pub mod board;
mod engines;
mod guard;
mod listen;
mod live_view;
pub mod session;
pub mod site;
pub mod view;

use guard::{body_text, guard};
pub use guard::{foreign_origin, host_allowed, host_headers_refused, is_json, peer_allowed};
pub use listen::{serve_with, ServeLimits, HEADER_READ_TIMEOUT, MAX_CONNECTIONS};
use live_view::{api_live, api_live_events};

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::rejection::StringRejection;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::middleware;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use agon::games::GameSpec;

use crate::clock::TimeControl;
use crate::journal::read_lenient;
use crate::record::GameRecord;
use crate::referee::{EngineConfig, RefereeSettings};
use session::{MoveRefusal, Player, Session};
use view::{board_view, replay};

/// Sessions (games of the page, with or without engines) at once; more are refused
/// until one ends. A session ends when it is over, stopped, or abandoned.
pub const MAX_SESSIONS: usize = 64;
/// Sessions with an engine at once (each runs one or two engine processes).
pub const MAX_ENGINE_SESSIONS: usize = 8;
/// Event streams open at once (pages watching a game or the live folders).
pub const MAX_STREAMS: usize = 64;
/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Ended games whose final state is kept (for a page that asks after the end).
pub const KEPT_FINAL_STATES: usize = 16;
/// The header that carries the server's secret token on state-changing requests.
pub const TOKEN_HEADER: &str = "x-agon-token";
/// A session with no event stream open that nobody asked about for this long is stopped.
const IDLE_LIMIT: Duration = Duration::from_secs(300);
/// Live files older than this are from a match that was killed.
const LIVE_STALE: Duration = Duration::from_secs(300);
/// How often a live event stream looks at the watched folders.
const LIVE_POLL: Duration = Duration::from_millis(25);
/// The shortest gap between two events that carry only new search info.
const INFO_EVENT_GAP: Duration = Duration::from_millis(50);

/// What the server offers.
pub struct ServeConfig {
    /// The engines the page may start, by name.
    pub engines: Vec<Arc<EngineConfig>>,
    /// Output folders of matches and tournaments to follow (their `*.jsonl` journals and
    /// `live/` files); a folder may not exist yet.
    pub watch: Vec<PathBuf>,
    /// More journals to replay and report.
    pub journals: Vec<PathBuf>,
    /// A class's results site to serve under `/site/` (`arena class`'s `OUT/site`).
    pub site: Option<PathBuf>,
    /// Answer peers beyond the loopback interface (and any `Host`).
    pub allow_remote: bool,
    /// Timeouts, margins and output limits for engines (the game is set per session).
    pub referee: RefereeSettings,
}

struct AppState {
    config: ServeConfig,
    /// The secret that state-changing requests carry in [`TOKEN_HEADER`].
    token: String,
    /// Games in progress, by id.
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// The final state (JSON) of the last [`KEPT_FINAL_STATES`] games that ended.
    finished: Mutex<VecDeque<(String, Arc<Ended>)>>,
    next_serial: AtomicU64,
    streams: Arc<AtomicUsize>,
}

type Shared = Arc<AppState>;

/// `bytes` random bytes from the kernel, in lower-case hex.
///
/// # Errors
/// The I/O error of reading `/dev/urandom`.
pub fn random_hex(bytes: usize) -> std::io::Result<String> {
    let mut buf = vec![0u8; bytes];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut buf)?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// The router with its state; serve it with [`serve`].
///
/// # Errors
/// The I/O error of drawing the server's secret token.
pub fn router(config: ServeConfig) -> std::io::Result<Router> {
    let state = Arc::new(AppState {
        config,
        token: random_hex(16)?,
        sessions: Mutex::new(HashMap::new()),
        finished: Mutex::new(VecDeque::new()),
        next_serial: AtomicU64::new(1),
        streams: Arc::new(AtomicUsize::new(0)),
    });
    let reaper = Arc::downgrade(&state);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(30)).await;
            let Some(state) = reaper.upgrade() else {
                return;
            };
            reap(&state);
        }
    });
    Ok(Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript", APP_JS) }),
        )
        .route("/style.css", get(|| async { asset("text/css", STYLE_CSS) }))
        .route(
            "/favicon.ico",
            get(|| async { asset("image/svg+xml", FAVICON_SVG) }),
        )
        .route("/api/token", get(api_token))
        .route("/api/config", get(api_config))
        .route("/api/play", post(api_new_game))
        .route("/api/play/{id}", get(api_game_state))
        .route("/api/play/{id}/events", get(api_game_events))
        .route("/api/play/{id}/move", post(api_move))
        .route("/api/play/{id}/stop", post(api_stop))
        .route("/api/journals", get(api_journals))
        .route("/api/journal", get(api_journal))
        .route("/api/replay", get(api_replay))
        .route("/api/live", get(api_live))
        .route("/api/live/events", get(api_live_events))
        .route("/report", get(api_report))
        .merge(board::routes())
        .merge(site::routes())
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(Arc::clone(&state), guard))
        .with_state(state))
}

/// Serves `router` on `listener` until the process ends, with the default
/// [`ServeLimits`] (see [`serve_with`]).
///
/// # Errors
/// The server's I/O error.
pub async fn serve(listener: tokio::net::TcpListener, router: Router) -> std::io::Result<()> {
    serve_with(listener, router, &ServeLimits::default()).await
}

const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");
/// The page's icon (browsers ask for `/favicon.ico` whatever the page links).
const FAVICON_SVG: &str = include_str!("../../web/favicon.svg");

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// The page, with the server's token in `<meta name="agon-token">` (never cached).
async fn index(State(state): State<Shared>) -> Response {
    let meta = format!("<meta name=\"agon-token\" content=\"{}\">\n", state.token);
    let page = match INDEX_HTML.find("<head>") {
        Some(at) => {
            let at = at + "<head>".len();
            format!("{}\n{meta}{}", &INDEX_HTML[..at], &INDEX_HTML[at..])
        }
        None => format!("{meta}{INDEX_HTML}"),
    };
    ([(header::CACHE_CONTROL, "no-store")], Html(page)).into_response()
}

/// `GET /api/token`: the token, for clients other than the page (curl, scripts); a
/// browser gets it only from a page of this server (the guard refuses other sites, and
/// no CORS header lets another origin read it).
async fn api_token(State(state): State<Shared>) -> Response {
    (
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({ "token": state.token, "header": TOKEN_HEADER })),
    )
        .into_response()
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    ApiError(status, message.into()).into_response()
}

/// A refusal by a limit: `{"error": message, "limit": name, "max": max}`.
fn limit_error(status: StatusCode, name: &str, max: usize, message: String) -> Response {
    (
        status,
        Json(json!({ "error": message, "limit": name, "max": max })),
    )
        .into_response()
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

/// Stops sessions that nobody has watched for [`IDLE_LIMIT`].
fn reap(state: &AppState) {
    let abandoned: Vec<Arc<Session>> = state
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .filter(|s| s.abandoned(IDLE_LIMIT))
        .cloned()
        .collect();
    for s in abandoned {
        s.stop(&format!(
            "nobody watched it for {} minutes",
            IDLE_LIMIT.as_secs() / 60
        ));
        retire(state, &s);
    }
}

/// Takes an ended session out of the server: its memory goes with the last reference
/// (its driver's, until the engines are stopped); only its final state is kept, among
/// the last [`KEPT_FINAL_STATES`].
fn retire(state: &AppState, session: &Arc<Session>) {
    let removed = state
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&session.id)
        .is_some();
    if !removed {
        return;
    }
    let state_now = session.state();
    let last = Arc::new(Ended {
        json: serde_json::to_string(&state_now).unwrap_or_default().into(),
        start: session.start_position(),
        state: state_now,
    });
    let mut finished = state.finished.lock().unwrap_or_else(|e| e.into_inner());
    finished.push_back((session.id.clone(), last));
    while finished.len() > KEPT_FINAL_STATES {
        finished.pop_front();
    }
}

/// What the server keeps of an ended session (the last [`KEPT_FINAL_STATES`] of them):
/// its final state, as sent and as data for the board's facts.
struct Ended {
    /// The final state as JSON, sent as it is.
    json: Arc<str>,
    /// The final state.
    state: session::SessionState,
    /// The start position, if the game did not start at the game's start.
    start: Option<String>,
}

/// The final state of an ended session, if still kept.
fn final_state(state: &AppState, id: &str) -> Option<Arc<Ended>> {
    state
        .finished
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(i, _)| i == id)
        .map(|(_, s)| Arc::clone(s))
}

async fn api_config(State(state): State<Shared>) -> Json<serde_json::Value> {
    let games: Vec<serde_json::Value> = agon::games::describe_all()
        .iter()
        .map(|g| {
            // The game's own presets; a game without any is offered with its defaults.
            let presets: Vec<serde_json::Value> = if g.presets.is_empty() {
                vec![json!({ "label": g.name, "params": {} })]
            } else {
                g.presets
                    .iter()
                    .map(|(label, params)| {
                        let params: serde_json::Map<String, serde_json::Value> =
                            params.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
                        json!({ "label": label, "params": params })
                    })
                    .collect()
            };
            json!({
                "name": g.name,
                "params": g.params.iter().map(|p| json!({
                    "key": p.name, "min": p.min, "max": p.max, "default": p.default, "doc": p.doc,
                })).collect::<Vec<_>>(),
                "presets": presets,
                "style": {
                    "checkered": g.style.checkered,
                    "pieces": g.style.pieces.name(),
                    "kinds": g.style.kinds.iter().map(|(code, name)| json!({ "code": code, "name": name })).collect::<Vec<_>>(),
                },
            })
        })
        .collect();
    let sessions = state
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .len();
    Json(json!({
        "engines": state.config.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "games": games,
        "watch": state.config.watch.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "sessions": sessions,
        "max_sessions": MAX_SESSIONS,
        "max_engine_sessions": MAX_ENGINE_SESSIONS,
        "max_streams": MAX_STREAMS,
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
    /// The time control, as `arena match` takes it: `tc=60+1`, `tc=40/60+0.5`, `st=0.5`
    /// (or without `tc=`: `60+1`); `none` or absent: `movetime_ms`.
    #[serde(default)]
    tc: Option<String>,
    /// Time per engine move without a clock (default [`crate::clock::DEFAULT_MOVETIME_MS`]).
    #[serde(default)]
    movetime_ms: Option<u64>,
}

async fn api_new_game(
    State(state): State<Shared>,
    body: Result<String, StringRejection>,
) -> Response {
    let body = match body_text(body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
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
    let tc = match TimeControl::for_page(request.tc.as_deref(), request.movetime_ms) {
        Ok(tc) => tc,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let mut players = Vec::new();
    for who in [&request.p1, &request.p2] {
        if who == "human" {
            players.push(Player::Human);
            continue;
        }
        match state.config.engines.iter().find(|e| &e.name == who) {
            Some(e) => {
                // The games it plays, as the page is told (asked once, then remembered).
                let (games, source) = engines::engine_games(e, &state.config.referee).await;
                if let Some(games) = games.filter(|g| !g.iter().any(|n| n == spec.name)) {
                    let plays = if games.is_empty() {
                        "no game".to_string()
                    } else {
                        games.join(", ")
                    };
                    return error(
                        StatusCode::BAD_REQUEST,
                        format!(
                            "engine '{who}' does not play {} (game '{}'): it plays {plays} ({source})",
                            spec.name, request.game
                        ),
                    );
                }
                // A dialect bound to one game says more (Gomocup: five in a row only).
                if let Err(why) = crate::dialect::plays(e.dialect, &spec) {
                    return error(
                        StatusCode::BAD_REQUEST,
                        format!("engine '{who}' speaks {} and {why}", e.dialect),
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
    let position = request.position.filter(|p| !p.trim().is_empty());
    let id = match random_hex(16) {
        Ok(id) => id,
        Err(e) => {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot draw a session id: {e}"),
            )
        }
    };
    let serial = state.next_serial.fetch_add(1, Ordering::SeqCst);
    let players: [Player; 2] = [players[0].clone(), players[1].clone()];
    let session = match Session::new(id.clone(), serial, spec.clone(), position, players, tc) {
        Ok(s) => s,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("position: {e}")),
    };
    {
        // Counted and inserted under one lock, so concurrent requests cannot overshoot.
        let mut sessions = state.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if sessions.len() >= MAX_SESSIONS {
            return limit_error(
                StatusCode::TOO_MANY_REQUESTS,
                "max_sessions",
                MAX_SESSIONS,
                format!("{MAX_SESSIONS} games are in progress (the limit); stop one first"),
            );
        }
        if session.has_engine()
            && sessions.values().filter(|s| s.has_engine()).count() >= MAX_ENGINE_SESSIONS
        {
            return limit_error(
                StatusCode::TOO_MANY_REQUESTS,
                "max_engine_sessions",
                MAX_ENGINE_SESSIONS,
                format!(
                    "{MAX_ENGINE_SESSIONS} games with an engine are in progress (the limit); stop one first"
                ),
            );
        }
        sessions.insert(id, Arc::clone(&session));
    }
    let mut settings = state.config.referee.clone();
    settings.spec = spec;
    let driver = Arc::clone(&session);
    let owner = Arc::clone(&state);
    tokio::spawn(async move {
        Arc::clone(&driver).drive(settings).await;
        // Over or stopped: the server keeps only its final state.
        retire(&owner, &driver);
    });
    Json(session.state()).into_response()
}

/// The session `id` in progress; an ended one's final state; or the refusal.
enum Found {
    Live(Arc<Session>),
    Ended(Arc<Ended>),
}

fn find_session(state: &AppState, id: &str) -> Result<Found, ApiError> {
    if let Some(s) = state
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(id)
        .cloned()
    {
        return Ok(Found::Live(s));
    }
    match final_state(state, id) {
        Some(last) => Ok(Found::Ended(last)),
        None => Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("no game {}", crate::safe_text::display(&shorten_id(id))),
        )),
    }
}

/// An id as shown in messages: at most 40 characters.
fn shorten_id(id: &str) -> String {
    id.chars().take(40).collect()
}

fn json_text(text: &str) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        text.to_string(),
    )
        .into_response()
}

async fn api_game_state(State(state): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    match find_session(&state, &id) {
        Ok(Found::Live(s)) => Json(s.state()).into_response(),
        Ok(Found::Ended(last)) => json_text(&last.json),
        Err(r) => r.into_response(),
    }
}

/// A stream of server-sent events from a channel (dropped when the page goes).
struct Events(mpsc::Receiver<Event>);

impl futures_core::Stream for Events {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|e| e.map(Ok))
    }
}

/// A place among the [`MAX_STREAMS`] event streams, given back when dropped.
struct StreamPermit(Arc<AtomicUsize>);

impl Drop for StreamPermit {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn stream_permit(state: &AppState) -> Result<StreamPermit, Box<Response>> {
    let taken = state
        .streams
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < MAX_STREAMS).then_some(n + 1)
        });
    match taken {
        Ok(_) => Ok(StreamPermit(Arc::clone(&state.streams))),
        Err(_) => Err(Box::new(limit_error(
            StatusCode::TOO_MANY_REQUESTS,
            "max_streams",
            MAX_STREAMS,
            format!("{MAX_STREAMS} event streams are open (the limit); close a page first"),
        ))),
    }
}

fn sse(rx: mpsc::Receiver<Event>) -> Response {
    Sse::new(Events(rx))
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// `GET /api/play/{id}/events`: the game's state as a `state` event at once and after
/// every change (search info at most every [`INFO_EVENT_GAP`]); the stream ends after
/// the state that says the game is over.
async fn api_game_events(State(state): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    let session = match find_session(&state, &id) {
        Ok(Found::Live(s)) => s,
        Ok(Found::Ended(last)) => {
            let (tx, rx) = mpsc::channel(1);
            let _ = tx.try_send(Event::default().event("state").data(&*last.json));
            return sse(rx);
        }
        Err(r) => return r.into_response(),
    };
    let permit = match stream_permit(&state) {
        Ok(p) => p,
        Err(r) => return *r,
    };
    let (tx, rx) = mpsc::channel(4);
    tokio::spawn(async move {
        let _permit = permit;
        let _watching = session.watch();
        let mut changes = session.subscribe();
        let mut sent_version = None;
        let mut sent_at = tokio::time::Instant::now();
        loop {
            changes.borrow_and_update();
            let version = session.version();
            if sent_version == Some(version) {
                // Only the search moved on: no more than one such event per gap.
                tokio::time::sleep_until(sent_at + INFO_EVENT_GAP).await;
            }
            let now = session.state();
            let over = now.over.is_some();
            sent_version = Some(now.version);
            sent_at = tokio::time::Instant::now();
            let Ok(event) = Event::default().event("state").json_data(&now) else {
                return;
            };
            if tx.send(event).await.is_err() || over {
                return;
            }
            tokio::select! {
                changed = changes.changed() => if changed.is_err() { return },
                () = tx.closed() => return,
            }
        }
    });
    sse(rx)
}

#[derive(Debug, Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

async fn api_move(
    State(state): State<Shared>,
    UrlPath(id): UrlPath<String>,
    body: Result<String, StringRejection>,
) -> Response {
    let body = match body_text(body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let session = match find_session(&state, &id) {
        Ok(Found::Live(s)) => s,
        Ok(Found::Ended(_)) => return error(StatusCode::CONFLICT, MoveRefusal::Over.to_string()),
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

async fn api_stop(State(state): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    match find_session(&state, &id) {
        Ok(Found::Live(s)) => {
            s.stop("stopped from the page");
            retire(&state, &s);
            Json(s.state()).into_response()
        }
        Ok(Found::Ended(last)) => json_text(&last.json),
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

#[derive(Debug, Deserialize)]
struct JournalQuery {
    path: String,
    game: Option<usize>,
    ply: Option<usize>,
}

/// The journal named by the query, if it is one the server offers.
/// The games of the configured journal `path`, or the answer that refuses it (not
/// configured: 403/404 from [`allowed_journal`]; unreadable: 404 naming the error).
fn configured_records(config: &ServeConfig, path: &str) -> Result<Vec<GameRecord>, Box<Response>> {
    let path = allowed_journal(config, path).map_err(|e| Box::new(e.into_response()))?;
    read_lenient(&path).map(|(r, _)| r).map_err(|e| {
        Box::new(error(
            StatusCode::NOT_FOUND,
            format!("cannot read {}: {e}", path.display()),
        ))
    })
}

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
            let (games, bad) = read_lenient(p).map_or((0, 0), |(r, b)| (r.len(), b));
            json!({ "path": p.display().to_string(), "games": games, "unreadable_lines": bad })
        })
        .collect();
    Json(json!({ "journals": list }))
}

/// Standings of a journal's engines: games, W/D/L, score, Elo against the field with its
/// 95% error.
/// The figures the terminal and `arena report` print for the same games: the match's
/// summary text (two engines) and every engine's search figures.
fn figures(records: &[GameRecord]) -> serde_json::Value {
    json!({
        "summary": crate::report::match_summary(records).map(|s| s.render()),
        "engines": crate::report::figures(records),
    })
}

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
    let (records, bad) = match read_lenient(&path) {
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
    Json(json!({ "path": path.display().to_string(), "games": games, "unreadable_lines": bad, "standings": standings(&records), "figures": figures(&records) }))
        .into_response()
}

async fn api_replay(State(state): State<Shared>, Query(q): Query<JournalQuery>) -> Response {
    let records = match configured_records(&state.config, &q.path) {
        Ok(r) => r,
        Err(r) => return *r,
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

async fn api_report(State(state): State<Shared>, Query(q): Query<JournalQuery>) -> Response {
    let path = match allowed_journal(&state.config, &q.path) {
        Ok(p) => p,
        Err(r) => return r.into_response(),
    };
    match read_lenient(&path) {
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

    #[test]
    fn more_than_one_host_header_is_refused() {
        let mut headers = axum::http::HeaderMap::new();
        assert_eq!(host_headers_refused(&headers), None);
        headers.append(header::HOST, "localhost".parse().unwrap());
        assert_eq!(host_headers_refused(&headers), None);
        headers.append(header::HOST, "localhost".parse().unwrap());
        let why = host_headers_refused(&headers).expect("two Host headers");
        assert!(why.contains("2 Host headers"), "{why}");
    }
}
