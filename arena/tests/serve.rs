//! `arena serve`'s safety, end to end over real sockets: the page can only start the
//! configured engines (a command it names is never run), and only this machine is
//! answered by default (peers on other interfaces and foreign `Host` names get 403);
//! requests that change state need JSON, this server's origin and its secret token;
//! ended sessions are freed at once and every limit is named; the live view costs a
//! match nothing until a page watches.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{agon, arena, http_status_and_body, scripted, scripted_engine};

/// The server under test (see [`common::start_serve`]).
type Server = common::Served;

fn serve(args: &[&str]) -> Server {
    common::start_serve(args)
}

impl Server {
    fn addr(&self) -> SocketAddr {
        local(self.port)
    }

    /// The secret token, as a client that is not a browser gets it.
    fn token(&self) -> String {
        let (status, body) = request(self.addr(), "localhost", "GET", "/api/token", "");
        assert_eq!(status, 200, "{body}");
        let token = serde_json::from_str::<serde_json::Value>(&body).unwrap()["token"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()),
            "{token}"
        );
        token
    }

    /// A state-changing request as the page sends it (JSON, the token).
    fn post(&self, token: &str, path: &str, body: &str) -> (u16, String) {
        request_with(
            self.addr(),
            "POST",
            path,
            &[
                ("Content-Type", "application/json"),
                ("X-Agon-Token", token),
            ],
            body,
        )
    }

    fn get_json(&self, path: &str) -> serde_json::Value {
        let (status, body) = request(self.addr(), "localhost", "GET", path, "");
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
    }

    /// Sessions in progress, as the server counts them.
    fn sessions(&self) -> u64 {
        self.get_json("/api/config")["sessions"].as_u64().unwrap()
    }

    /// The server's resident memory (kB), from /proc.
    fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}

/// One HTTP/1.1 request as a JSON client with no token; returns the status and body.
fn request(addr: SocketAddr, host: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    request_with(
        addr,
        method,
        path,
        &[("Host", host), ("Content-Type", "application/json")],
        body,
    )
}

/// One HTTP/1.1 request with exactly `headers` (`Host: localhost:<port>` unless given,
/// as a browser sends it); returns the status code and the body.
fn request_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: localhost:{}\r\n", addr.port()));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    write!(
        s,
        "{head}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read the answer");
    let (status, body) = http_status_and_body(&text);
    (status, body.to_string())
}

fn local(port: u16) -> SocketAddr {
    SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port)
}

#[test]
fn the_page_cannot_start_a_command_that_is_not_configured() {
    let dir = tempfile::tempdir().unwrap();
    // A program that would leave a mark if anything ran it.
    let marker = dir.path().join("ran");
    let script = dir.path().join("mark.sh");
    std::fs::write(&script, format!("#!/bin/sh\ntouch {}\n", marker.display())).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let agon = agon();
    let server = serve(&[
        "--engine",
        &format!("cmd={} name=configured", agon.display()),
    ]);
    let addr = local(server.port);
    let token = server.token();
    let script_text = script.display().to_string();
    for who in [script_text.as_str(), "agon", "sh -c 'touch x'"] {
        let body = serde_json::json!({ "game": "tictactoe", "p1": "human", "p2": who }).to_string();
        let (status, answer) = server.post(&token, "/api/play", &body);
        assert_eq!(status, 403, "{who}: {answer}");
        assert!(
            answer.contains("not a configured engine") && answer.contains("'configured'"),
            "{answer}"
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    assert!(!marker.exists(), "the page's command was run");
    // Bad requests are refused with the reason, not adjusted.
    for (body, reason) in [
        (
            r#"{"game": "tictactoe", "p1": "human", "p2": "human", "movetime_ms": 0}"#,
            "movetime_ms 0 is out of range",
        ),
        (
            r#"{"game": "chess", "p1": "human", "p2": "human"}"#,
            "game 'chess'",
        ),
        (
            r#"{"game": "tictactoe", "p1": "human", "p2": "human", "position": "xxx/3/3 o"}"#,
            "position:",
        ),
        (r#"{"game": "tictactoe"}"#, "bad request"),
    ] {
        let (status, answer) = server.post(&token, "/api/play", body);
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(answer.contains(reason), "{body}: {answer}");
    }
    // The configured engine does start and play.
    let body = r#"{"game": "tictactoe", "p1": "configured", "p2": "human", "movetime_ms": 50}"#;
    let (status, answer) = server.post(&token, "/api/play", body);
    assert_eq!(status, 200, "{answer}");
    let id = serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut moves = 0;
    for _ in 0..100 {
        let (_, state) = request(addr, "localhost", "GET", &format!("/api/play/{id}"), "");
        let state: serde_json::Value = serde_json::from_str(&state).unwrap();
        moves = state["moves"].as_array().unwrap().len();
        if moves == 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(moves, 1, "the configured engine made the first move");
}

/// A non-loopback IPv4 address of this machine, from getifaddrs(3).
fn outside_address() -> Option<Ipv4Addr> {
    let mut found = None;
    // SAFETY: getifaddrs fills a list that freeifaddrs releases; entries are read only
    // while the list is alive, and ifa_addr is checked for null and for AF_INET before
    // being read as a sockaddr_in.
    unsafe {
        let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
        if libc::getifaddrs(&mut list) != 0 {
            return None;
        }
        let mut cur = list;
        while !cur.is_null() {
            let addr = (*cur).ifa_addr;
            if !addr.is_null() && i32::from((*addr).sa_family) == libc::AF_INET {
                let v4 = &*(addr as *const libc::sockaddr_in);
                let ip = Ipv4Addr::from(u32::from_be(v4.sin_addr.s_addr));
                if !ip.is_loopback() && found.is_none() {
                    found = Some(ip);
                }
            }
            cur = (*cur).ifa_next;
        }
        libc::freeifaddrs(list);
    }
    found
}

#[test]
fn only_this_machine_is_answered_by_default() {
    // Bound to every interface, the server still answers only loopback peers.
    let server = serve(&["--bind", "0.0.0.0"]);
    let (status, body) = request(local(server.port), "localhost", "GET", "/api/config", "");
    assert_eq!(status, 200, "{body}");
    let ip = outside_address()
        .expect("this test needs a non-loopback IPv4 address on this machine to connect from");
    let (status, body) = request(
        SocketAddr::new(IpAddr::V4(ip), server.port),
        &format!("{ip}:{}", server.port),
        "GET",
        "/api/config",
        "",
    );
    assert_eq!(status, 403, "{body}");
    assert!(
        body.contains("only this machine") && body.contains(&ip.to_string()),
        "{body}"
    );
    // A page of another site whose name resolves to 127.0.0.1 (DNS rebinding) is refused.
    let (status, body) = request(local(server.port), "evil.example", "GET", "/api/config", "");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("evil.example"), "{body}");
    drop(server);

    // With --allow-remote the outside peer is answered.
    let server = serve(&["--bind", "0.0.0.0", "--allow-remote"]);
    let (status, body) = request(
        SocketAddr::new(IpAddr::V4(ip), server.port),
        &format!("{ip}:{}", server.port),
        "GET",
        "/api/config",
        "",
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn binds_to_loopback_by_default() {
    let mut child = Command::new(arena())
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("arena serve: http://127.0.0.1:"), "{line}");
}

/// Starts nothing: a configured engine that leaves a mark if anything runs it.
fn marking_engine(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let marker = dir.join("ran");
    let script = dir.join("engine.sh");
    std::fs::write(&script, format!("#!/bin/sh\ntouch {}\n", marker.display())).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    (marker, format!("cmd={} name=marked", script.display()))
}

#[test]
fn changing_state_needs_json_this_origin_and_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let (marker, engine) = marking_engine(dir.path());
    let server = serve(&["--engine", &engine]);
    let token = server.token();
    let own = format!("http://localhost:{}", server.port);
    let game = r#"{"game": "tictactoe", "p1": "marked", "p2": "human"}"#;
    let form = "game=tictactoe&p1=marked&p2=human";
    let wrong = "0".repeat(32);
    let json = ("Content-Type", "application/json");
    // What is sent, its headers and body, the status and a word of the reason expected.
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str, u16, &'a str);
    let refusals: Vec<Case> = vec![
        ("no token", vec![json], game, 403, "there is none"),
        (
            "a wrong token",
            vec![json, ("X-Agon-Token", &wrong)],
            game,
            403,
            "this one is wrong",
        ),
        (
            "another origin (a page on another loopback port)",
            vec![
                json,
                ("X-Agon-Token", &token),
                ("Origin", "http://127.0.0.1:1"),
            ],
            game,
            403,
            "another origin",
        ),
        (
            "an opaque origin",
            vec![json, ("X-Agon-Token", &token), ("Origin", "null")],
            game,
            403,
            "another origin",
        ),
        (
            "Sec-Fetch-Site: same-site",
            vec![
                json,
                ("X-Agon-Token", &token),
                ("Sec-Fetch-Site", "same-site"),
            ],
            game,
            403,
            "another site",
        ),
        (
            "Sec-Fetch-Site: cross-site",
            vec![
                json,
                ("X-Agon-Token", &token),
                ("Sec-Fetch-Site", "cross-site"),
                ("Origin", &own),
            ],
            game,
            403,
            "another site",
        ),
        (
            "text/plain (a simple cross-origin fetch)",
            vec![("Content-Type", "text/plain"), ("X-Agon-Token", &token)],
            game,
            415,
            "text/plain",
        ),
        (
            "a form",
            vec![
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("X-Agon-Token", &token),
            ],
            form,
            415,
            "application/json",
        ),
        (
            "a multipart form",
            vec![
                ("Content-Type", "multipart/form-data; boundary=x"),
                ("X-Agon-Token", &token),
            ],
            game,
            415,
            "application/json",
        ),
        (
            "no Content-Type",
            vec![("X-Agon-Token", &token)],
            game,
            415,
            "none",
        ),
    ];
    for (what, headers, body, status, reason) in &refusals {
        for path in ["/api/play", "/api/play/0123/stop"] {
            let (got, answer) = request_with(server.addr(), "POST", path, headers, body);
            assert_eq!(got, *status, "{what} on {path}: {answer}");
            let error = serde_json::from_str::<serde_json::Value>(&answer)
                .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {answer}"))["error"]
                .as_str()
                .unwrap()
                .to_string();
            assert!(error.contains(reason), "{what}: {error}");
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.sessions(), 0, "a refused request started a game");
    assert!(!marker.exists(), "a refused request ran the engine");
    // A browser page of another origin cannot read the token either.
    let (status, answer) = request_with(
        server.addr(),
        "GET",
        "/api/token",
        &[("Sec-Fetch-Site", "cross-site")],
        "",
    );
    assert_eq!(status, 403, "{answer}");
    assert!(!answer.contains(&token));
    // The page carries it; the same request from this origin, as the page sends it, is
    // accepted; ids are 128 random bits.
    let (status, page) = request(server.addr(), "localhost", "GET", "/", "");
    assert_eq!(status, 200);
    assert!(
        page.contains(&format!("<meta name=\"agon-token\" content=\"{token}\">")),
        "{page}"
    );
    let (status, answer) = request_with(
        server.addr(),
        "POST",
        "/api/play",
        &[
            json,
            ("X-Agon-Token", &token),
            ("Origin", &own),
            ("Sec-Fetch-Site", "same-origin"),
        ],
        r#"{"game": "tictactoe", "p1": "human", "p2": "human"}"#,
    );
    assert_eq!(status, 200, "{answer}");
    let first = serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, answer) = server.post(
        &token,
        "/api/play",
        r#"{"game": "tictactoe", "p1": "human", "p2": "human"}"#,
    );
    let second = serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    for id in [&first, &second] {
        assert!(
            id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
            "{id}"
        );
    }
    assert_ne!(first, second);
    assert_eq!(server.sessions(), 2);
}

#[test]
fn ended_games_are_freed_at_once_and_every_limit_is_named() {
    let server = serve(&["--agon", agon().to_str().unwrap()]);
    let token = server.token();
    let human = r#"{"game": "tictactoe", "p1": "human", "p2": "human"}"#;
    let mut ids = Vec::new();
    for _ in 0..64 {
        let (status, answer) = server.post(&token, "/api/play", human);
        assert_eq!(status, 200, "{answer}");
        ids.push(
            serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    let (status, answer) = server.post(&token, "/api/play", human);
    assert_eq!(status, 429, "{answer}");
    let refusal: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(refusal["limit"], "max_sessions", "{answer}");
    assert_eq!(refusal["max"], 64, "{answer}");
    // A stopped game leaves the server at once; its final state is still answered.
    let (status, answer) = server.post(&token, &format!("/api/play/{}/stop", ids[0]), "{}");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(server.sessions(), 63);
    let last = server.get_json(&format!("/api/play/{}", ids[0]));
    assert_eq!(last["over"][0], "*", "{last}");
    // A game played to its end leaves too.
    for mv in ["a1", "b1", "a2", "b2", "a3"] {
        let (status, answer) = server.post(
            &token,
            &format!("/api/play/{}/move", ids[1]),
            &format!(r#"{{"move": "{mv}"}}"#),
        );
        assert_eq!(status, 200, "{mv}: {answer}");
    }
    for _ in 0..50 {
        if server.sessions() == 62 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(server.sessions(), 62, "the finished game is still held");
    let (status, answer) = server.post(
        &token,
        &format!("/api/play/{}/move", ids[1]),
        r#"{"move": "c3"}"#,
    );
    assert_eq!(status, 409, "{answer}");
    for id in &ids[2..] {
        let (status, _) = server.post(&token, &format!("/api/play/{id}/stop"), "{}");
        assert_eq!(status, 200);
    }
    assert_eq!(server.sessions(), 0);
    // Games with engines have their own limit.
    let engine = r#"{"game": "tictactoe", "p1": "human", "p2": "agon-random", "movetime_ms": 50}"#;
    let mut engine_ids = Vec::new();
    for _ in 0..8 {
        let (status, answer) = server.post(&token, "/api/play", engine);
        assert_eq!(status, 200, "{answer}");
        engine_ids.push(
            serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    let (status, answer) = server.post(&token, "/api/play", engine);
    assert_eq!(status, 429, "{answer}");
    assert!(
        answer.contains("\"limit\":\"max_engine_sessions\""),
        "{answer}"
    );
    let (status, _) = server.post(&token, "/api/play", human);
    assert_eq!(status, 200, "a game without engines is still allowed");
    for id in &engine_ids {
        server.post(&token, &format!("/api/play/{id}/stop"), "{}");
    }
    // A body over the limit, and an unknown game.
    let big = format!(
        r#"{{"game": "tictactoe", "p1": "human", "p2": "human", "position": "{}"}}"#,
        "x".repeat(70_000)
    );
    let (status, answer) = server.post(&token, "/api/play", &big);
    assert_eq!(status, 413, "{answer}");
    assert!(answer.contains("\"limit\":\"max_body_bytes\""), "{answer}");
    let (status, answer) = server.post(&token, "/api/play/nonsense/stop", "{}");
    assert_eq!(status, 404, "{answer}");
}

/// 10,000 games created and stopped: the server's memory stays flat (issue 19 measured
/// 8 MB growing to 1 GB when stopped games were kept for 10 minutes).
#[test]
fn ten_thousand_create_stop_cycles_keep_the_memory_flat() {
    let server = serve(&[]);
    let token = server.token();
    let human = r#"{"game": "tictactoe", "p1": "human", "p2": "human"}"#;
    let cycle = || {
        let (status, answer) = server.post(&token, "/api/play", human);
        assert_eq!(status, 200, "{answer}");
        let id = serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let (status, answer) = server.post(&token, &format!("/api/play/{id}/stop"), "{}");
        assert_eq!(status, 200, "{answer}");
    };
    // Warm up the allocator and the runtime first.
    for _ in 0..500 {
        cycle();
    }
    let before = server.rss_kb();
    let started = std::time::Instant::now();
    for _ in 0..10_000 {
        cycle();
    }
    let after = server.rss_kb();
    println!(
        "10000 create/stop cycles in {:.1} s: server RSS {before} kB before, {after} kB after ({:+} kB)",
        started.elapsed().as_secs_f64(),
        after as i64 - before as i64
    );
    assert_eq!(server.sessions(), 0);
    assert!(
        after < before + 8 * 1024,
        "the server grew from {before} kB to {after} kB over 10,000 cycles"
    );
}

#[test]
fn engine_words_as_in_match_and_a_watched_folder_that_comes_later() {
    let dir = tempfile::tempdir().unwrap();
    let later = dir.path().join("later");
    let agon = agon();
    let agon = agon.to_str().unwrap();
    let server = serve(&[
        "--engine",
        &format!("cmd={agon}"),
        "name=words",
        "option.Level=easy",
        "--engine",
        &format!("cmd={agon} name=quoted"),
        "--watch",
        later.to_str().unwrap(),
    ]);
    assert!(
        server
            .banner
            .iter()
            .any(|l| l.contains("does not exist yet") && l.contains("later")),
        "{:?}",
        server.banner
    );
    let config = server.get_json("/api/config");
    assert_eq!(
        config["engines"],
        serde_json::json!(["words", "quoted"]),
        "{config}"
    );
    let live = server.get_json("/api/live");
    assert_eq!(live["folders"][0]["exists"], false, "{live}");
    assert!(!later.exists(), "the server created the watched folder");
    std::fs::create_dir(&later).unwrap();
    let live = server.get_json("/api/live");
    assert_eq!(live["folders"][0]["exists"], true, "{live}");
}

/// Reads server-sent events from `path` until `done` says so of one event's data (or
/// `limit` passes); returns the data of every event read.
fn events_until(
    addr: SocketAddr,
    path: &str,
    limit: Duration,
    mut done: impl FnMut(&serde_json::Value) -> bool,
) -> Vec<serde_json::Value> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    write!(
        s,
        // HTTP/1.0: the stream comes unchunked, one line per field.
        "GET {path} HTTP/1.0\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(s);
    let start = std::time::Instant::now();
    let mut seen = Vec::new();
    let mut line = String::new();
    while start.elapsed() < limit {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(_) => continue,
        }
        if let Some(data) = line.trim_end().strip_prefix("data: ") {
            let Ok(value) = serde_json::from_str::<serde_json::Value>(data) else {
                continue;
            };
            let stop = done(&value);
            seen.push(value);
            if stop {
                break;
            }
        }
    }
    seen
}

/// The live files (and their temporaries) in `out/live`.
fn live_files(out: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(out.join("live"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains(".json"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_match_nobody_watches_writes_no_live_file_and_a_page_that_comes_gets_its_moves() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // Engines that use exactly their 20 ms a move: about 5 games a second.
    let mut run = Command::new(arena());
    run.current_dir(dir.path())
        .args(["match", "--no-progress", "--game", "tictactoe"])
        .args(["--games", "2000", "--concurrency", "1"])
        .args(scripted_engine("use-exact-time", "a", "st=0.02"))
        .args(scripted_engine("use-exact-time", "b", "st=0.02"))
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    /// SIGTERM, so that the match stops its engines.
    struct Stop(Child);
    impl Drop for Stop {
        fn drop(&mut self) {
            // SAFETY: kill(2) on the pid of a child not yet waited for.
            unsafe {
                libc::kill(self.0.id() as i32, libc::SIGTERM);
            }
            let _ = self.0.wait();
        }
    }
    let mut matched = Stop(run.spawn().expect("start arena match"));
    // Nobody watches: games are played, no live file appears.
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(2) {
        let files = live_files(&out);
        assert!(
            files.is_empty(),
            "live files written while nobody watches: {files:?}"
        );
        std::thread::sleep(Duration::from_millis(3));
    }
    let journal = out.join("journal.jsonl");
    let played = std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count());
    assert!(played >= 2, "the match played {played} games in 2 s");
    // A page comes: moves arrive by server-sent events.
    let server = serve(&["--watch", out.to_str().unwrap()]);
    let mut plies: std::collections::HashMap<(String, u64), usize> = Default::default();
    let mut grew = 0;
    let events = events_until(
        server.addr(),
        "/api/live/events",
        Duration::from_secs(15),
        |snapshot| {
            for g in snapshot["games"].as_array().into_iter().flatten() {
                let key = (
                    g["live"]["run"].as_str().unwrap_or("").to_string(),
                    g["live"]["game"].as_u64().unwrap_or(0),
                );
                let n = g["live"]["moves"].as_array().map_or(0, Vec::len);
                if plies.get(&key).is_some_and(|&before| n > before) {
                    grew += 1;
                }
                plies.insert(key, n);
            }
            grew >= 5
        },
    );
    assert!(
        grew >= 5,
        "the page saw {grew} new moves in {} events",
        events.len()
    );
    // While watched, every game in progress has its file (between two games there is
    // none for a moment, so look for up to a second).
    let start = std::time::Instant::now();
    while live_files(&out).is_empty() && start.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        !live_files(&out).is_empty(),
        "no live file for a second while a page watches"
    );
    // The page goes: the match stops publishing once the flag is stale.
    drop(server);
    std::thread::sleep(Duration::from_millis(3_600));
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        let files = live_files(&out);
        assert!(
            files.is_empty(),
            "live files written after the page left: {files:?}"
        );
        std::thread::sleep(Duration::from_millis(3));
    }
    assert!(
        matches!(matched.0.try_wait(), Ok(None)),
        "the match ended too early for this test"
    );
}

/// The id of a game just started (the answer to `POST /api/play`).
fn started_id(answer: &str) -> String {
    serde_json::from_str::<serde_json::Value>(answer).unwrap()["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no id in {answer}"))
        .to_string()
}

/// The running side's time left at the moment a state was made, as the page counts it.
fn running_left(state: &serde_json::Value) -> Option<u64> {
    let clock = &state["clock"];
    let seat = clock["running"].as_str()?;
    let i = usize::from(seat == "p2");
    let left = clock["left_ms"][i].as_u64()?;
    let ran = clock["now_unix_ms"].as_u64()? - clock["since_unix_ms"].as_u64()?;
    Some(left.saturating_sub(ran))
}

#[test]
fn the_play_api_refuses_an_engine_for_another_game_and_a_bad_time_control() {
    let agon = agon();
    let bot = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/clobber_bot.py");
    let server = serve(&[
        "--engine",
        &format!("cmd={} name=agon", agon.display()),
        "--engine",
        &format!("cmd={} name=clobber-bot", bot.display()),
        "--engine",
        &format!("cmd={} name=agon-tei proto=tei", agon.display()),
    ]);
    let token = server.token();
    // An engine that does not play the game: named with the game and what it plays.
    for (who, plays) in [("clobber-bot", "clobber"), ("agon-tei", "tak")] {
        let body = serde_json::json!({ "game": "tictactoe", "p1": "human", "p2": who });
        let (status, answer) = server.post(&token, "/api/play", &body.to_string());
        assert_eq!(status, 400, "{who}: {answer}");
        let message = serde_json::from_str::<serde_json::Value>(&answer).unwrap()["error"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            message.contains(&format!("'{who}'"))
                && message.contains("tictactoe")
                && message.contains(plays),
            "{message}"
        );
    }
    // A time control that does not read: the reason and the text.
    for (tc, reason) in [
        ("tc=x+1", "'x' is not a number of seconds"),
        ("60+", "'' is not a number of seconds"),
        ("0+0", "base and increment are both zero"),
        ("st=0", "zero time per move"),
        ("speed=3", "unknown limit 'speed'"),
        ("0+1", "a clock needs a base time above zero"),
        ("st=100", "out of range"),
    ] {
        let body =
            serde_json::json!({ "game": "tictactoe", "p1": "human", "p2": "agon", "tc": tc });
        let (status, answer) = server.post(&token, "/api/play", &body.to_string());
        assert_eq!(status, 400, "{tc}: {answer}");
        assert!(
            answer.contains("time control") && answer.contains(reason),
            "{tc}: {answer}"
        );
    }
    let both =
        r#"{"game": "tictactoe", "p1": "human", "p2": "agon", "tc": "1+0", "movetime_ms": 100}"#;
    let (status, answer) = server.post(&token, "/api/play", both);
    assert_eq!(status, 400, "{answer}");
    assert!(answer.contains("give one time control"), "{answer}");
    // Nothing was started.
    assert_eq!(server.sessions(), 0);
    // The engine does start for its own game, and the old per-move field still works.
    let body = r#"{"game": "clobber rows=5 cols=6", "p1": "human", "p2": "clobber-bot", "movetime_ms": 100}"#;
    let (status, answer) = server.post(&token, "/api/play", body);
    assert_eq!(status, 200, "{answer}");
    let state: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(state["movetime_ms"], 100, "{state}");
    assert!(state["clock"].is_null(), "{state}");
}

#[test]
fn a_person_who_does_not_move_loses_on_time() {
    let server = serve(&[]);
    let token = server.token();
    let body = r#"{"game": "tictactoe", "p1": "human", "p2": "human", "tc": "1+0"}"#;
    let start = std::time::Instant::now();
    let (status, answer) = server.post(&token, "/api/play", body);
    assert_eq!(status, 200, "{answer}");
    let id = started_id(&answer);
    let first: serde_json::Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(first["tc"], "tc=1+0", "{first}");
    assert_eq!(first["clock"]["left_ms"], serde_json::json!([1000, 1000]));
    // Nobody asks or moves: the server's own timer flags the first player.
    std::thread::sleep(Duration::from_millis(1_300));
    let state = server.get_json(&format!("/api/play/{id}"));
    let elapsed = start.elapsed();
    assert_eq!(state["over"][0], "0-1", "{state}");
    let why = state["over"][1].as_str().unwrap();
    assert!(why.starts_with("X (human) lost on time"), "{why}");
    assert_eq!(state["clock"]["left_ms"][0], 0, "{state}");
    assert!(state["clock"]["running"].is_null(), "{state}");
    assert!(elapsed < Duration::from_millis(2_500), "{elapsed:?}");
    // A move now is refused.
    let (status, answer) =
        server.post(&token, &format!("/api/play/{id}/move"), r#"{"move": "b2"}"#);
    assert_eq!(status, 409, "{answer}");
}

#[test]
fn an_engine_on_a_clock_gets_its_time_and_the_increment() {
    // An engine that sleeps exactly the time its `go` gives it.
    let server = serve(&[
        "--engine",
        &format!(
            "cmd={} args=use-exact-time name=exact",
            scripted().display()
        ),
    ]);
    let token = server.token();
    let body = r#"{"game": "tictactoe", "p1": "exact", "p2": "human", "tc": "tc=1+0.2"}"#;
    let (status, answer) = server.post(&token, "/api/play", body);
    assert_eq!(status, 200, "{answer}");
    let id = started_id(&answer);
    let state = |server: &Server| server.get_json(&format!("/api/play/{id}"));
    // While the engine thinks its clock runs down.
    let mut seen = Vec::new();
    for _ in 0..40 {
        let s = state(&server);
        if !s["moves"].as_array().unwrap().is_empty() {
            break;
        }
        if s["clock"]["running"] == "p1" {
            seen.push(running_left(&s).unwrap());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        seen.len() >= 3 && seen.windows(2).all(|w| w[1] < w[0]) && seen[0] <= 1000,
        "the engine's time left while it thinks: {seen:?}"
    );
    // It used its whole second (its go said p1time 1000): 0 left, plus the increment.
    let mut s = state(&server);
    for _ in 0..50 {
        if !s["moves"].as_array().unwrap().is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        s = state(&server);
    }
    let after_engine = s["clock"]["left_ms"][0].as_u64().unwrap();
    assert!((200..=300).contains(&after_engine), "{s}");
    assert_eq!(s["moves"][0]["clock_ms"], after_engine, "{s}");
    assert_eq!(s["clock"]["running"], "p2", "{s}");
    // The person answers at once: one second less a little, plus the increment.
    let board = server.get_json(&format!("/api/play/{id}/board"));
    let mv = board["info"]["moves"][0]["mv"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, answer) = server.post(
        &token,
        &format!("/api/play/{id}/move"),
        &serde_json::json!({ "move": mv }).to_string(),
    );
    assert_eq!(status, 200, "{answer}");
    let s: serde_json::Value = serde_json::from_str(&answer).unwrap();
    let person = s["state"]["clock"]["left_ms"][1].as_u64().unwrap();
    assert!((1_000..=1_200).contains(&person), "{s}");
    // The engine thinks its 0.2 s and gets 0.2 s back.
    let mut s = state(&server);
    for _ in 0..60 {
        if s["moves"].as_array().unwrap().len() >= 3 || !s["over"].is_null() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
        s = state(&server);
    }
    assert_eq!(s["moves"].as_array().unwrap().len(), 3, "{s}");
    let again = s["clock"]["left_ms"][0].as_u64().unwrap();
    assert!((200..=300).contains(&again), "{s}");
    assert!(s["over"].is_null(), "{s}");
    server.post(&token, &format!("/api/play/{id}/stop"), "{}");
}

/// A Gomocup brain (`proto=gomocup`) plays on the page as any engine: it opens, answers
/// a person's move, and the page refuses a game it cannot play with the reason.
#[test]
fn a_gomocup_brain_plays_on_the_page() {
    let brain = agon().with_file_name("pbrain-agon");
    let server = serve(&[
        "--engine",
        &format!("cmd={} name=brain proto=gomocup", brain.display()),
    ]);
    let token = server.token();
    let body = r#"{"game": "gomoku", "p1": "brain", "p2": "human", "movetime_ms": 100}"#;
    let (status, answer) = server.post(&token, "/api/play", body);
    assert_eq!(status, 200, "{answer}");
    let id = started_id(&answer);
    let moves = |server: &Server| -> Vec<String> {
        server.get_json(&format!("/api/play/{id}"))["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap_or_default().to_string())
            .collect()
    };
    let wait_for = |server: &Server, n: usize| {
        for _ in 0..100 {
            if moves(server).len() >= n {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{:?}", server.get_json(&format!("/api/play/{id}")));
    };
    wait_for(&server, 1);
    let first = moves(&server)[0].clone();
    let mine = if first == "a1" { "o15" } else { "a1" };
    let (status, answer) = server.post(
        &token,
        &format!("/api/play/{id}/move"),
        &format!(r#"{{"move": "{mine}"}}"#),
    );
    assert_eq!(status, 200, "{answer}");
    wait_for(&server, 3);
    let state = server.get_json(&format!("/api/play/{id}"));
    assert!(state["over"].is_null(), "{state}");
    // Tic-tac-toe is no game for a gomoku brain: refused before anything starts.
    let body = r#"{"game": "tictactoe", "p1": "brain", "p2": "human"}"#;
    let (status, answer) = server.post(&token, "/api/play", body);
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer.contains("speaks gomocup and plays five in a row"),
        "{answer}"
    );
}
