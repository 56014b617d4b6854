//! A deliberately misbehaving engine for the arena's tests.
//!
//! It speaks the protocol well enough to play any game of the `agon` library (tic-tac-toe
//! unless `setoption name Game` says otherwise): it tracks the position from `position`
//! lines and plays the first legal move at once. The first argument picks a misbehaviour:
//!
//! | mode | what it does |
//! |---|---|
//! | `normal` | plays properly and instantly |
//! | `crash-at-start` | exits with code 3 before reading anything |
//! | `slow-start MS` | sleeps MS (default 3000) before reading anything, then plays properly |
//! | `crash-mid-game N` | aborts (SIGABRT) on the `go` after it has answered N (default 2) |
//! | `hang-on-go` | never answers `go` (and stops reading) |
//! | `no-readyok` | never answers `isready` |
//! | `illegal-move` | plays an occupied square / a move that is not legal |
//! | `malformed-move` | answers `bestmove !!` |
//! | `garbage-lines` | prints junk lines (including invalid UTF-8) before every reply, then plays properly |
//! | `huge-line` | prints a 10 MB line on `go` |
//! | `info-flood` | prints `info` lines without end on `go` |
//! | `exit-after-bestmove` | exits right after its first `bestmove` |
//! | `leave-child` | starts `sleep 1000` in the background, then plays normally |
//! | `use-exact-time` | sleeps exactly its remaining clock (or `movetime`) before each move |
//! | `overrun-time MS` | sleeps its remaining clock (or `movetime`) plus MS (default 500) |
//! | `wrong-claim` | plays normally but answers `query result` with the opposite result |
//! | `double-bestmove` | answers every `go` with two `bestmove` lines (written together) |
//! | `hostile` | plays properly, but puts ESC, BEL, CR and PGN-breaking text (`"} 1-0 {x [Result "1-0"]`) in its `id name`, `id author`, option names, `info string` and `pv` |
//! | `tei-strict` | a TEI engine as strict as Tiltak: advertises only `HalfKomi` (combo 0, 4), plays Tak of the size `teinewgame` gives (4, 5 or 6) and exits with code 1 on any line Tiltak would not accept |
//!
//! Every line received is appended to the file named by `SCRIPTED_ENGINE_LOG`, if set.

use std::io::{BufRead, Write};
use std::time::Duration;

use agon::games::{new_game, AnyGame, GameSpec};

/// What Tiltak's TEI loop accepts (MortenLohne/tiltak src/tei.rs): anything else is an error.
fn tei_strict_check(line: &str) -> Result<(), &'static str> {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.as_slice() {
        ["tei"] | ["isready"] | ["stop"] | ["quit"] => Ok(()),
        ["teinewgame", size] if ["4", "5", "6"].contains(size) => Ok(()),
        ["setoption", "name", "HalfKomi", "value", v] if ["0", "4"].contains(v) => Ok(()),
        ["position", "startpos", ..] | ["position", "tps", ..] => Ok(()),
        ["go", rest @ ..] => {
            let keys = ["wtime", "btime", "winc", "binc", "movetime", "nodes"];
            if rest.len() % 2 == 0 && rest.chunks(2).all(|kv| keys.contains(&kv[0])) {
                Ok(())
            } else {
                Err("a go key Tiltak does not know")
            }
        }
        _ => Err("a line Tiltak does not accept"),
    }
}

/// What `hostile` puts in every text field: terminal controls (clear screen, bell,
/// carriage return), a forged verdict, and text that would close a PGN comment and add a
/// result and a tag.
const HOSTILE: &str = "\u{1b}[2J\u{7}\rPASS \"} 1-0 {x [Result \"1-0\"] \u{1b}]0;title\u{7}\u{9b}";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().cloned().unwrap_or_else(|| "normal".into());
    let number: Option<u64> = args.get(1).and_then(|a| a.parse().ok());
    if mode == "crash-at-start" {
        std::process::exit(3);
    }
    if mode == "slow-start" {
        std::thread::sleep(Duration::from_millis(number.unwrap_or(3000)));
    }
    if mode == "leave-child" {
        // The child keeps the engine's process group, stdout and stderr.
        let _ = std::process::Command::new("sleep").arg("1000").spawn();
    }
    let log_path = std::env::var_os("SCRIPTED_ENGINE_LOG");
    let mut log = log_path.and_then(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .ok()
    });
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut spec = GameSpec::parse("tictactoe").expect("tictactoe");
    let mut game: Option<Box<dyn AnyGame>> = None;
    let mut moves_played: Vec<String> = Vec::new();
    let mut answered = 0u64;
    let mut half_komi = String::from("0");
    let stdin = std::io::stdin();
    let mut line = String::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let text = line.trim();
        if let Some(f) = log.as_mut() {
            let _ = writeln!(f, "{text}");
        }
        if mode == "garbage-lines" {
            let _ = out.write_all(b"hello from the garbage engine\n\xff\xfe not utf8\n   \n");
            let _ = writeln!(out, "bestmovez a1");
            let _ = out.flush();
        }
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else { continue };
        if mode == "tei-strict" {
            if let Err(why) = tei_strict_check(text) {
                eprintln!("tei-strict: {why}: {text}");
                std::process::exit(1);
            }
            match word {
                "tei" => {
                    say(&mut out, "id name StrictTei");
                    say(
                        &mut out,
                        "option name HalfKomi type combo default 0 var 0 var 4",
                    );
                    say(&mut out, "teiok");
                    continue;
                }
                "setoption" => {
                    half_komi = text.rsplit(' ').next().unwrap_or("0").to_string();
                    continue;
                }
                "teinewgame" => {
                    let size = words.next().unwrap_or("5");
                    spec = GameSpec::parse(&format!("tak size={size} halfkomi={half_komi}"))
                        .expect("checked size");
                    continue;
                }
                _ => {}
            }
        }
        if mode == "hostile" {
            match word {
                "ugi" | "uci" | "tei" => {
                    say(&mut out, &format!("id name Scripted{HOSTILE}"));
                    say(&mut out, &format!("id author {HOSTILE}"));
                    say(&mut out, "option name Game type string default tictactoe");
                    say(
                        &mut out,
                        &format!("option name X{HOSTILE} type check default false"),
                    );
                    say(&mut out, &format!("{word}ok"));
                    continue;
                }
                "go" => say(&mut out, &format!("info string {HOSTILE}")),
                _ => {}
            }
        }
        match word {
            "ugi" | "uci" | "tei" => {
                say(&mut out, "id name Scripted");
                say(&mut out, "id author arena tests");
                say(&mut out, "option name Game type string default tictactoe");
                say(&mut out, &format!("{word}ok"));
            }
            "isready" if mode != "no-readyok" => say(&mut out, "readyok"),
            "setoption" => {
                // setoption name Game value <spec>
                let rest: Vec<&str> = words.collect();
                if rest.len() >= 3 && rest[1].eq_ignore_ascii_case("game") && rest[2] == "value" {
                    if let Ok(s) = GameSpec::parse(&rest[3..].join(" ")) {
                        spec = s;
                    }
                }
            }
            "position" => {
                let rest: Vec<&str> = words.collect();
                let (pos_text, move_list) = match rest.iter().position(|w| *w == "moves") {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (&rest[..], &[][..]),
                };
                let start = if matches!(pos_text.first(), Some(&"fen") | Some(&"tps")) {
                    Some(pos_text[1..].join(" "))
                } else {
                    None
                };
                let mut g = match new_game(&spec, start.as_deref()) {
                    Ok(g) => g,
                    Err(_) => {
                        game = None;
                        continue;
                    }
                };
                moves_played.clear();
                let mut ok = true;
                for m in move_list {
                    match g.play(m) {
                        Ok(c) => moves_played.push(c),
                        Err(_) => ok = false,
                    }
                }
                game = ok.then_some(g);
            }
            "go" => {
                let go: Vec<&str> = words.collect();
                answered += 1;
                let Some(g) = game.as_ref() else {
                    say(&mut out, "error no-position no position set");
                    continue;
                };
                match mode.as_str() {
                    "hang-on-go" => loop {
                        std::thread::sleep(Duration::from_secs(1000));
                    },
                    "crash-mid-game" if answered > number.unwrap_or(2) => std::process::abort(),
                    "huge-line" => {
                        let chunk = vec![b'x'; 1 << 20];
                        let _ = out.write_all(b"info string ");
                        for _ in 0..10 {
                            let _ = out.write_all(&chunk);
                        }
                        let _ = out.write_all(b"\n");
                        let _ = out.flush();
                    }
                    "info-flood" => loop {
                        if out.write_all(b"info depth 1 nodes 1 score cp 0\n").is_err() {
                            return;
                        }
                    },
                    "use-exact-time" => std::thread::sleep(own_time(g.as_ref(), &go)),
                    "overrun-time" => std::thread::sleep(
                        own_time(g.as_ref(), &go) + Duration::from_millis(number.unwrap_or(500)),
                    ),
                    _ => {}
                }
                let legal = g.legal_moves();
                let best = match mode.as_str() {
                    "malformed-move" => "!!".to_string(),
                    "illegal-move" => moves_played
                        .last()
                        .cloned()
                        .unwrap_or_else(|| legal.first().cloned().unwrap_or_default()),
                    _ => legal.first().cloned().unwrap_or_else(|| "none".into()),
                };
                if mode == "hostile" {
                    say(
                        &mut out,
                        &format!("info depth 1 seldepth 1 score cp 0 nodes 1 nps 1000 time 0 pv {best} {HOSTILE}"),
                    );
                } else {
                    say(
                        &mut out,
                        "info depth 1 seldepth 1 score cp 0 nodes 1 nps 1000 time 0",
                    );
                }
                if mode == "double-bestmove" {
                    // Both lines in one write, so they arrive together.
                    let _ = out.write_all(format!("bestmove {best}\nbestmove {best}\n").as_bytes());
                    let _ = out.flush();
                } else {
                    say(&mut out, &format!("bestmove {best}"));
                }
                if mode == "exit-after-bestmove" {
                    std::process::exit(0);
                }
            }
            "query" => {
                let kind = words.next().unwrap_or("");
                let answer = match (kind, game.as_ref()) {
                    ("result", Some(g)) => {
                        let word = g.outcome().map(|o| o.protocol_name()).unwrap_or("none");
                        if mode == "wrong-claim" {
                            match word {
                                "p1win" => "p2win",
                                "p2win" => "p1win",
                                other => other,
                            }
                        } else {
                            word
                        }
                        .to_string()
                    }
                    ("gameover", Some(g)) => g.outcome().is_some().to_string(),
                    ("position", Some(g)) => g.position(),
                    _ => {
                        say(&mut out, "error no-position no position set");
                        continue;
                    }
                };
                say(&mut out, &format!("response {answer}"));
            }
            "quit" => return,
            _ => {}
        }
    }
}

/// The mover's remaining clock from a `go` line, or its `movetime`.
fn own_time(game: &dyn AnyGame, go: &[&str]) -> Duration {
    let key = match game.side_to_move() {
        agon::game::Side::First => "p1time",
        agon::game::Side::Second => "p2time",
    };
    let value = |k: &str| {
        go.iter()
            .position(|w| *w == k)
            .and_then(|i| go.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    Duration::from_millis(value(key).or_else(|| value("movetime")).unwrap_or(0))
}

fn say(out: &mut impl Write, line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
