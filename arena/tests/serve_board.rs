//! The board facts `arena serve` gives its page (issue 23), over a real socket: which
//! games each configured engine plays, by asking the engines themselves; and a Tak game's
//! reserves, flats, last move and refusals, against numbers worked out by hand from the
//! rules (not from the program).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{agon, arena, http_status_and_body};
use serde_json::Value;

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

fn serve(engines: &[String]) -> Server {
    let mut command = Command::new(arena());
    command.args(["serve", "--port", "0"]);
    for e in engines {
        command.arg("--engine").arg(e);
    }
    let mut child = command
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

/// `GET path`: the status and the body as JSON.
fn get(port: u16, path: &str) -> (u16, Value) {
    let addr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port);
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read the answer");
    let (status, body) = http_status_and_body(&text);
    let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: '{body}'"));
    (status, json)
}

#[test]
fn engines_are_offered_for_the_games_they_say_they_play() {
    let agon = agon();
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/clobber_bot.py");
    let server = serve(&[
        format!("cmd={} name=agon", agon.display()),
        format!("cmd={} name=clobber-bot", bot.display()),
        format!("cmd={} name=agon-tei proto=tei", agon.display()),
    ]);
    let (status, body) = get(server.port, "/api/engines");
    assert_eq!(status, 200, "{body}");
    let games = |name: &str| -> Vec<String> {
        let e = body["engines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing: {body}"));
        serde_json::from_value(e["games"].clone()).unwrap()
    };
    // agon answers `games` with all four; the example bot names only Clobber (its Game
    // option's default); TEI is Tak's protocol.
    assert_eq!(games("agon"), ["mnk", "clobber", "halma", "tak"]);
    assert_eq!(games("clobber-bot"), ["clobber"]);
    assert_eq!(games("agon-tei"), ["tak"]);
}

#[test]
fn tak_reserves_flats_and_moves_come_from_the_rules() {
    let server = serve(&[format!("cmd={} name=agon", agon().display())]);
    // 6x6: 30 stones and 1 capstone each. White places Black's flat on a1 (from Black's
    // reserve), Black White's on f6, White its capstone on c3, Black a wall on d4.
    let (status, body) = get(
        server.port,
        "/api/board?spec=tak%20size=6%20halfkomi=4&moves=a1%20f6%20Cc3%20Sd4",
    );
    assert_eq!(status, 200, "{body}");
    let tak = &body["tak"];
    assert_eq!(tak["stones"], serde_json::json!([29, 28]), "{tak}");
    assert_eq!(tak["caps"], serde_json::json!([0, 1]), "{tak}");
    // Flats on top: f6 is White's, a1 Black's; the capstone and the wall are no flats.
    assert_eq!(tak["flats"], serde_json::json!([1, 1]), "{tak}");
    assert_eq!(tak["komi"], "2");
    assert_eq!(
        tak["flat_score"],
        "White 1 - Black 1 - komi 2: Black ahead by 2 (from White's side)"
    );
    assert_eq!(body["last"]["to"], serde_json::json!(["d4"]));
    assert_eq!(body["last"]["kind"], "S");
    // White's capstone on c3 may now move one square in any of four directions.
    let from_c3: Vec<&str> = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == "c3")
        .map(|m| m["mv"].as_str().unwrap())
        .collect();
    assert_eq!(from_c3.len(), 4, "{from_c3:?}");
    assert!(tak["ptn"]
        .as_str()
        .unwrap()
        .contains("1. a1 f6\n2. Cc3 Sd4\n"));

    // A move the rules refuse is named with the library's reason.
    let (status, body) = get(server.port, "/api/board?spec=tak%20size=6&moves=Ca1");
    assert_eq!(status, 422, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Ca1"), "{body}");
    // A game the page does not have.
    let (status, _) = get(server.port, "/api/board?spec=chess");
    assert_eq!(status, 400);
}
