//! The board facts `arena serve` gives its page (issue 23), over a real socket: which
//! games each configured engine plays, by asking the engines themselves; and a Tak game's
//! reserves, flats, last move and refusals, against numbers worked out by hand from the
//! rules (not from the program).

mod common;

use std::path::Path;

use common::{agon, get_json as get, start_serve, Served};

fn serve(engines: &[String]) -> Served {
    let mut args = Vec::new();
    for e in engines {
        args.push("--engine");
        args.push(e.as_str());
    }
    start_serve(&args)
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
    // The game's own counts, by label.
    let count = |label: &str| {
        body["counts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["label"] == label)
            .unwrap_or_else(|| panic!("no count '{label}': {body}"))["values"]
            .clone()
    };
    assert_eq!(count("stones left"), serde_json::json!([29, 28]));
    assert_eq!(count("capstones left"), serde_json::json!([0, 1]));
    // Flats on top: f6 is White's, a1 Black's; the capstone and the wall are no flats.
    assert_eq!(count("flats on top"), serde_json::json!([1, 1]));
    assert_eq!(
        body["standing"],
        "White 1 - Black 1 - komi 2: Black ahead by 2 (from White's side)"
    );
    let export = |format: &str| {
        body["exports"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["format"] == format)
            .unwrap_or_else(|| panic!("no {format}: {body}"))["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
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
    let ptn = export("PTN");
    assert!(ptn.contains("[Komi \"2\"]"), "{ptn}");
    assert!(ptn.contains("1. a1 f6\n2. Cc3 Sd4\n"), "{ptn}");
    assert_eq!(export("TPS"), body["view"]["position"].as_str().unwrap());

    // A move the rules refuse is named with the library's reason.
    let (status, body) = get(server.port, "/api/board?spec=tak%20size=6&moves=Ca1");
    assert_eq!(status, 422, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Ca1"), "{body}");
    // A game the page does not have.
    let (status, _) = get(server.port, "/api/board?spec=chess");
    assert_eq!(status, 400);
}
