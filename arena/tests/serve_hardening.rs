//! `arena serve` against hostile clients, over real loopback sockets: a request with two
//! `Host` headers is refused (400) before any route runs, a client that sends its headers
//! slowly (or not at all) is disconnected after `--header-timeout-ms` while a long event
//! stream is not, and no more than `--max-connections` connections are held at once
//! (more wait to be accepted, and are served once a slot frees).

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{arena, http_status_and_body};

/// The server under test (see [`common::start_serve`]).
type Server = common::Served;

fn serve(args: &[&str]) -> Server {
    common::start_serve(args)
}

impl Server {
    fn addr(&self) -> SocketAddr {
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), self.port)
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect_timeout(&self.addr(), Duration::from_secs(5)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s
    }

    /// One raw request (`head` ends with the headers' blank line); the status and body
    /// of the answer, read to the end (the request should say `Connection: close`).
    fn raw(&self, head: &str, body: &str) -> (u16, String) {
        let mut s = self.connect();
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body.as_bytes()).unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).expect("read the answer");
        let (status, body) = http_status_and_body(&text);
        (status, body.to_string())
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.raw(
            &format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
            "",
        )
    }

    fn get_json(&self, path: &str) -> serde_json::Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
    }

    fn sessions(&self) -> u64 {
        self.get_json("/api/config")["sessions"].as_u64().unwrap()
    }

    fn token(&self) -> String {
        self.get_json("/api/token")["token"]
            .as_str()
            .unwrap()
            .to_string()
    }
}

/// How a connection stands after waiting for the server.
#[derive(Debug, PartialEq)]
enum Seen {
    /// The server closed it (end of stream or reset).
    Closed,
    /// Still open after the wait.
    Open,
}

/// Reads what `s` has (appending to `buf`) for at most `wait`.
fn read_for(s: &mut TcpStream, buf: &mut Vec<u8>, wait: Duration) -> Seen {
    let until = Instant::now() + wait;
    let mut chunk = [0u8; 4096];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Seen::Open;
        }
        s.set_read_timeout(Some(
            left.min(Duration::from_millis(50))
                .max(Duration::from_millis(1)),
        ))
        .unwrap();
        match s.read(&mut chunk) {
            Ok(0) => return Seen::Closed,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return Seen::Closed,
        }
    }
}

fn count(haystack: &[u8], needle: &str) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle.as_bytes())
        .count()
}

#[test]
fn a_request_with_two_host_headers_is_refused_before_any_route_runs() {
    let server = serve(&[]);
    let token = server.token();
    let play = r#"{"game":"tictactoe","p1":"human","p2":"human"}"#;
    let post = |hosts: &str| {
        server.raw(
            &format!(
                "POST /api/play HTTP/1.1\r\n{hosts}Content-Type: application/json\r\nX-Agon-Token: {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                play.len()
            ),
            play,
        )
    };
    // Two Host headers, the allowed one first (the one that used to count), then the
    // other way round, then twice the same: each refused, and no game is started.
    for hosts in [
        "Host: localhost\r\nHost: evil.example\r\n",
        "Host: evil.example\r\nHost: localhost\r\n",
        "Host: localhost\r\nHost: localhost\r\n",
    ] {
        let (status, body) = post(hosts);
        assert_eq!(status, 400, "{hosts:?}: {body}");
        assert!(
            body.contains("2 Host headers") && body.contains("at most one"),
            "{hosts:?}: {body}"
        );
        assert_eq!(server.sessions(), 0, "{hosts:?}: the route ran");
    }
    // Reads too: neither the page nor the token is given.
    for path in ["/", "/api/token", "/api/config"] {
        let (status, body) = server.raw(
            &format!(
                "GET {path} HTTP/1.1\r\nHost: localhost\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            ),
            "",
        );
        assert_eq!(status, 400, "{path}: {body}");
        assert!(!body.contains(&token), "{path}: the token was given");
        assert!(body.contains("Host headers"), "{path}: {body}");
    }
    // The same request with one Host header is served (the refusal was the Host's).
    let (status, body) = post("Host: localhost\r\n");
    assert_eq!(status, 200, "{body}");
    assert_eq!(server.sessions(), 1);
    // With --allow-remote (any Host name) two are still refused.
    let open = serve(&["--allow-remote"]);
    let (status, body) = open.raw(
        "GET /api/config HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n",
        "",
    );
    assert_eq!(status, 400, "{body}");
}

#[test]
fn a_client_that_sends_its_headers_slowly_is_disconnected() {
    let timeout = Duration::from_millis(500);
    let margin = Duration::from_millis(2500);
    let server = serve(&["--header-timeout-ms", "500"]);
    // Half a header, then nothing.
    let mut stalled = server.connect();
    let start = Instant::now();
    stalled.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
    let mut got = Vec::new();
    let seen = read_for(&mut stalled, &mut got, timeout + margin);
    let took = start.elapsed();
    assert_eq!(
        seen,
        Seen::Closed,
        "a client that stopped in its headers was still connected after {took:?}"
    );
    assert!(
        took >= timeout - Duration::from_millis(100),
        "closed after {took:?}, before the timeout"
    );
    assert!(
        !got.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&got)
    );
    // A header trickled one byte every 100 ms: the timeout counts from the start of the
    // headers, not from the last byte.
    let mut trickle = server.connect();
    let start = Instant::now();
    trickle.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
    let mut closed = false;
    while start.elapsed() < timeout + margin {
        if trickle.write_all(b"a").is_err() {
            closed = true;
            break;
        }
        if read_for(&mut trickle, &mut got, Duration::from_millis(100)) == Seen::Closed {
            closed = true;
            break;
        }
    }
    let took = start.elapsed();
    assert!(
        closed,
        "a client trickling its headers was still connected after {took:?}"
    );
    // A client that sends its headers in pieces within the timeout is served; so is a
    // kept-alive connection's next request, and an idle kept-alive one is closed.
    let mut slow = server.connect();
    slow.write_all(b"GET /api/config HTTP/1.1\r\nHo").unwrap();
    std::thread::sleep(Duration::from_millis(150));
    slow.write_all(b"st: localhost\r\n\r\n").unwrap();
    let mut answer = Vec::new();
    read_for(
        &mut slow,
        &mut answer,
        Duration::from_secs(3).min(timeout * 2),
    );
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    let idle_from = Instant::now();
    let seen = read_for(&mut slow, &mut answer, timeout + margin);
    assert_eq!(
        seen,
        Seen::Closed,
        "an idle kept-alive connection was still open after {:?}",
        idle_from.elapsed()
    );
    // The server itself goes on.
    assert_eq!(server.get("/api/config").0, 200);
}

#[test]
fn an_event_stream_outlives_the_header_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let watched = dir.path().join("out");
    std::fs::create_dir(&watched).unwrap();
    let watched_text = watched.display().to_string();
    let server = serve(&["--header-timeout-ms", "300", "--watch", &watched_text]);
    let mut s = server.connect();
    // HTTP/1.1 and kept alive, as a browser's EventSource asks.
    s.write_all(
        b"GET /api/live/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n",
    )
    .unwrap();
    let mut got = Vec::new();
    let start = Instant::now();
    while count(&got, "event: live") == 0 && start.elapsed() < Duration::from_secs(5) {
        assert_eq!(
            read_for(&mut s, &mut got, Duration::from_millis(100)),
            Seen::Open,
            "{}",
            String::from_utf8_lossy(&got)
        );
    }
    assert!(
        got.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&got)
    );
    let first = count(&got, "event: live");
    assert!(
        first >= 1,
        "no first event: {}",
        String::from_utf8_lossy(&got)
    );
    // Five header timeouts later the stream is still open...
    assert_eq!(
        read_for(&mut s, &mut got, Duration::from_millis(1500)),
        Seen::Open,
        "the event stream was closed: {}",
        String::from_utf8_lossy(&got)
    );
    // ...and still delivers: a new journal in the watched folder is a new event.
    let before = count(&got, "event: live");
    std::fs::write(watched.join("new.jsonl"), "").unwrap();
    let start = Instant::now();
    while count(&got, "event: live") == before && start.elapsed() < Duration::from_secs(5) {
        assert_eq!(
            read_for(&mut s, &mut got, Duration::from_millis(100)),
            Seen::Open,
            "the event stream was closed: {}",
            String::from_utf8_lossy(&got)
        );
    }
    assert!(
        count(&got, "event: live") > before,
        "no event after the change: {}",
        String::from_utf8_lossy(&got)
    );
}

#[test]
fn no_more_than_max_connections_are_held_and_a_new_client_is_served_once_they_go() {
    const CAP: usize = 4;
    let server = serve(&[
        "--max-connections",
        &CAP.to_string(),
        // Long enough that no held connection is timed out during the test.
        "--header-timeout-ms",
        "30000",
    ]);
    // CAP + 5 clients each ask once and keep the connection (kept alive, then idle).
    let ask = b"GET /api/config HTTP/1.1\r\nHost: localhost\r\n\r\n";
    let mut held: Vec<(TcpStream, Vec<u8>)> = (0..CAP + 5)
        .map(|_| {
            let mut s = server.connect();
            s.write_all(ask).unwrap();
            (s, Vec::new())
        })
        .collect();
    let served = |held: &[(TcpStream, Vec<u8>)]| {
        held.iter()
            .filter(|(_, got)| got.starts_with(b"HTTP/1.1 200"))
            .count()
    };
    // Poll them all: CAP are answered; then for another second none of the rest is.
    let start = Instant::now();
    let mut full_since: Option<Instant> = None;
    while start.elapsed() < Duration::from_secs(6)
        && full_since.is_none_or(|t| t.elapsed() < Duration::from_secs(1))
    {
        for (s, got) in &mut held {
            let seen = read_for(s, got, Duration::from_millis(10));
            assert_eq!(seen, Seen::Open, "{}", String::from_utf8_lossy(got));
        }
        let n = served(&held);
        assert!(
            n <= CAP,
            "{n} connections were served at once with --max-connections {CAP}"
        );
        if n == CAP && full_since.is_none() {
            full_since = Some(Instant::now());
        }
    }
    assert_eq!(
        served(&held),
        CAP,
        "the first {CAP} clients were not served"
    );
    // A new client waits while the slots are held...
    let mut fresh = server.connect();
    fresh
        .write_all(b"GET /api/config HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = Vec::new();
    assert_eq!(
        read_for(&mut fresh, &mut answer, Duration::from_millis(700)),
        Seen::Open
    );
    assert!(
        answer.is_empty(),
        "a client over the cap was served: {}",
        String::from_utf8_lossy(&answer)
    );
    // ...and is served once the others go (the ones that waited are accepted, find
    // their client gone, and free their slot).
    drop(held);
    let start = Instant::now();
    while !answer.starts_with(b"HTTP/1.1 200") && start.elapsed() < Duration::from_secs(5) {
        if read_for(&mut fresh, &mut answer, Duration::from_millis(100)) == Seen::Closed {
            break;
        }
    }
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "the waiting client was not served once the slots freed: {}",
        String::from_utf8_lossy(&answer)
    );
    // Slots are given back: many more clients than the cap, one after the other.
    for i in 0..3 * CAP {
        let (status, body) = server.get("/api/config");
        assert_eq!(status, 200, "request {i}: {body}");
    }
}

#[test]
fn the_limits_are_options_with_help() {
    let out = Command::new(arena())
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{help}");
    for flag in ["--header-timeout-ms", "--max-connections"] {
        assert!(
            help.contains(flag),
            "{flag} is not in serve --help:\n{help}"
        );
    }
    for bad in [
        ["--max-connections", "0"],
        ["--header-timeout-ms", "0"],
        ["--max-connections", "x"],
    ] {
        let out = Command::new(arena())
            .arg("serve")
            .args(["--port", "0"])
            .args(bad)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad:?} was accepted");
    }
}
