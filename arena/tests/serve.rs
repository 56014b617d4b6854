//! `arena serve`'s safety, end to end over real sockets: the page can only start the
//! configured engines (a command it names is never run), and only this machine is
//! answered by default (peers on other interfaces and foreign `Host` names get 403).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{agon, arena};

/// A running `arena serve`, killed on drop.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `arena serve --port 0` with `args`; reads the address it prints.
fn serve(args: &[&str]) -> Server {
    let mut child = Command::new(arena())
        .arg("serve")
        .args(["--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start arena serve");
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().expect("stdout"))
        .read_line(&mut line)
        .expect("read the address");
    let port = line
        .trim()
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in '{line}'"));
    Server { child, port }
}

/// One HTTP/1.1 request; returns the status code and the body.
fn request(addr: SocketAddr, host: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read the answer");
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in '{text}'"));
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
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
    let script_text = script.display().to_string();
    for who in [script_text.as_str(), "agon", "sh -c 'touch x'"] {
        let body = serde_json::json!({ "game": "tictactoe", "p1": "human", "p2": who }).to_string();
        let (status, answer) = request(addr, "localhost", "POST", "/api/play", &body);
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
        let (status, answer) = request(addr, "localhost", "POST", "/api/play", body);
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(answer.contains(reason), "{body}: {answer}");
    }
    // The configured engine does start and play.
    let body = r#"{"game": "tictactoe", "p1": "configured", "p2": "human", "movetime_ms": 50}"#;
    let (status, answer) = request(addr, "localhost", "POST", "/api/play", body);
    assert_eq!(status, 200, "{answer}");
    let id = serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
        .as_u64()
        .unwrap();
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
