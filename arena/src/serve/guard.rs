//! Who may use the server and how: loopback peers and `Host` names (unless
//! `--allow-remote`), one `Host` header at most (always), and for requests that change
//! state JSON bodies, this server's own origin and its secret token.

use std::net::{IpAddr, SocketAddr};

use axum::extract::rejection::StringRejection;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{error, limit_error, Shared, MAX_BODY, TOKEN_HEADER};

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

/// Why a request from a browser page of another origin is refused, if it is one: its
/// `Sec-Fetch-Site` is not `same-origin` (`none`, a typed address, is allowed only for
/// reads), or its `Origin` is not `http://` + its own `Host`.
pub fn foreign_origin(headers: &HeaderMap, changes_state: bool) -> Option<String> {
    let text = |name: &str| headers.get(name).map(|v| v.to_str().unwrap_or("?"));
    if let Some(site) = text("sec-fetch-site") {
        let allowed = site == "same-origin" || (!changes_state && site == "none");
        if !allowed {
            return Some(format!(
                "a request from another site (Sec-Fetch-Site: {site}); only this server's own page may do that"
            ));
        }
    }
    if let Some(origin) = text("origin") {
        let host = text("host").unwrap_or("");
        if !origin.eq_ignore_ascii_case(&format!("http://{host}")) {
            return Some(format!(
                "a request from another origin ({origin}, not http://{host}); only this server's own page may do that"
            ));
        }
    }
    None
}

/// Whether a `Content-Type` is JSON (`application/json`, any parameters).
pub fn is_json(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|ct| {
        ct.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .eq_ignore_ascii_case("application/json")
    })
}

/// Compares in time independent of where the texts differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Why a request's `Host` headers are refused, if they are: more than one (RFC 9112
/// 3.2 asks for 400; servers and proxies may read different ones of them, so which one
/// counts is never guessed), with `--allow-remote` too.
pub fn host_headers_refused(headers: &HeaderMap) -> Option<String> {
    let count = headers.get_all(header::HOST).iter().count();
    (count > 1).then(|| {
        format!("refused: the request has {count} Host headers; a request must have at most one\n")
    })
}

/// Runs before every route: refuses what the rules in this module's doc forbid.
pub(super) async fn guard(
    State(state): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if !state.config.allow_remote && !peer_allowed(peer.ip(), false) {
        log::warn!("refused a connection from {peer}");
        return (
            StatusCode::FORBIDDEN,
            format!("arena serve answers only this machine (loopback); {} is not (start it with --allow-remote to change that)\n", peer.ip()),
        )
            .into_response();
    }
    if let Some(why) = host_headers_refused(request.headers()) {
        log::warn!(
            "refused {} {} from {peer}: more than one Host header",
            request.method(),
            request.uri().path()
        );
        return (StatusCode::BAD_REQUEST, why).into_response();
    }
    if !state.config.allow_remote {
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
    let changes_state = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let path = request.uri().path();
    // The page itself may be opened from a link anywhere; the API and reports only from
    // the page (and from clients that are not browsers, which send no Sec-Fetch-Site).
    if changes_state || path.starts_with("/api/") || path == "/report" {
        if let Some(why) = foreign_origin(request.headers(), changes_state) {
            log::warn!("refused {} {path}: {why}", request.method());
            return error(StatusCode::FORBIDDEN, format!("refused {why}"));
        }
    }
    if changes_state {
        let headers = request.headers();
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("?"));
        if !is_json(content_type) {
            return error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "refused: a request that changes state must have Content-Type: application/json, not '{}'",
                    content_type.unwrap_or("none")
                ),
            );
        }
        let token = headers.get(TOKEN_HEADER).map(|v| v.as_bytes());
        if !token.is_some_and(|t| same_secret(t, state.token.as_bytes())) {
            return error(
                StatusCode::FORBIDDEN,
                format!(
                    "refused: a request that changes state must carry this server's token in the {} header ({}; the page has it, other clients get it from GET /api/token)",
                    TOKEN_HEADER,
                    if token.is_some() { "this one is wrong" } else { "there is none" }
                ),
            );
        }
        let length = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if length.is_some_and(|n| n > MAX_BODY as u64) {
            return body_too_large();
        }
    }
    next.run(request).await
}

fn body_too_large() -> Response {
    limit_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        "max_body_bytes",
        MAX_BODY,
        format!("the request body is over {MAX_BODY} bytes"),
    )
}

/// The body as text, or the refusal to send.
pub(super) fn body_text(body: Result<String, StringRejection>) -> Result<String, Box<Response>> {
    body.map_err(|e| {
        Box::new(if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            body_too_large()
        } else {
            error(e.status(), format!("bad request body: {}", e.body_text()))
        })
    })
}
