//! The accept loop of `arena serve`: HTTP/1.1 connections with a deadline for reading
//! each request's headers and a cap on the connections held at once (see
//! [`ServeLimits`]).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt as _;

/// The default of [`ServeLimits::header_read_timeout`]: 10 s.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The default of [`ServeLimits::max_connections`].
pub const MAX_CONNECTIONS: usize = 256;

/// Limits on connections, against clients that hold them without asking anything.
#[derive(Clone, Debug)]
pub struct ServeLimits {
    /// The time a client has to send a request's line and headers, from when the server
    /// starts reading them (on a new connection, or after the previous answer on a
    /// kept-alive one) to the blank line that ends them; a client that has not sent
    /// them all by then (a slow "slowloris" client, or a kept-alive connection left idle)
    /// is disconnected. Only the headers are timed: a request body, the handler and a
    /// long answer (a server-sent event stream stays open as long as the page watches)
    /// are not. Default [`HEADER_READ_TIMEOUT`] (10 s); `--header-timeout-ms`.
    pub header_read_timeout: Duration,
    /// Connections held at once. When this many are open the server accepts no more
    /// until one closes: a new client waits in the kernel's queue of pending connections
    /// (it is not refused) and is served as soon as a slot frees. Default
    /// [`MAX_CONNECTIONS`] (256); `--max-connections`. At least 1.
    pub max_connections: usize,
}

impl Default for ServeLimits {
    fn default() -> Self {
        ServeLimits {
            header_read_timeout: HEADER_READ_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
        }
    }
}

/// Serves `router` on `listener` with `limits` until the process ends: each accepted
/// connection is served by its own task (HTTP/1.1, kept alive), its peer's address
/// given to the handlers as `ConnectInfo<SocketAddr>`; at most
/// [`ServeLimits::max_connections`] are open at once, more wait to be accepted.
///
/// # Errors
/// None so far: an error accepting a connection is logged (and, if it is not the
/// client's, such as too many open files, the loop waits 1 s before the next accept).
pub async fn serve_with(
    listener: TcpListener,
    router: Router,
    limits: &ServeLimits,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    loop {
        // A slot first: over the cap, connections stay in the kernel's queue.
        let slot = Arc::clone(&slots)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                accept_error(e).await;
                continue;
            }
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(request.map(Body::new))
        });
        let connection = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                log::debug!("connection from {peer}: {e}");
            }
            drop(slot);
        });
    }
}

/// What to do about a failed accept: nothing more if the client's connection failed;
/// else (too many open files, ...) log it and wait 1 s, as `axum::serve` does.
async fn accept_error(e: std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    log::error!("arena serve: accept error: {e}");
    tokio::time::sleep(Duration::from_secs(1)).await;
}
