//! `arena check --proto gomocup`: the conformance walk of a Gomocup brain, as Piskvork's
//! protocol asks (protocl2en.htm) and Gomocup managers rely on: `START` answered `OK`,
//! `INFO` never answered, a legal move for `BEGIN`, `TURN` and `BOARD` within the turn
//! limit, `UNKNOWN` for an unknown command, `TAKEBACK`, `RESTART` and `SWAP2BOARD`
//! (optional in the protocol, so recommendations), and an exit after `END`. Moves are checked with the
//! library's rules; lines end in CR LF as the manager writes them.

use std::time::Duration;

use agon::games::mnk::{Mnk, MnkSettings};
use agon::games::{new_game, AnyGame};
use agon::protocol::gomocup::{parse_reply, Point, Reply};
use tokio::time::Instant;

use super::{positions, skip_rest, CheckConfig, Checks, Session, Wait};
use crate::dialect::gomocup::{move_of, point_of};

/// The checks of the walk, in order, with whether each is required.
const CHECKS: &[(&str, bool)] = &[
    ("about", false),
    ("start-board", true),
    ("info-silent", true),
    ("info-unknown-key", false),
    ("begin", true),
    ("legal-moves", true),
    ("turn-time", true),
    ("board", true),
    ("takeback", false),
    ("swap2", false),
    ("unknown-command", true),
    ("end", true),
];

/// Every check the walk decides.
pub(super) fn planned() -> Vec<(&'static str, bool)> {
    CHECKS.to_vec()
}

/// Opponent moves sent with `TURN` after the brain's `BEGIN`.
const TURNS: usize = 5;

fn is_answer(line: &str) -> bool {
    !matches!(
        parse_reply(line),
        Some(Reply::Message(_) | Reply::Debug(_)) | None
    )
}

/// The walk; returns the brain's `name` from `ABOUT`.
pub(super) async fn walk(
    config: &CheckConfig,
    s: &mut Session,
    checks: &mut Checks,
) -> Option<String> {
    let d = config.deadline;
    let Some(settings) = config.spec.settings_of::<Mnk>() else {
        skip_rest(checks, "the game is not gomoku");
        return None;
    };
    // ABOUT: a recommendation (old brains answer UNKNOWN).
    s.send("ABOUT").await;
    let mut name = None;
    match s.expect(is_answer, config.startup).await {
        Ok((line, _)) => match parse_reply(&line) {
            Some(Reply::About(text)) => {
                name = text
                    .split("name=\"")
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .map(str::to_string);
                checks.pass(
                    "about",
                    false,
                    format!("'{}'", crate::client::shorten(&text, 80)),
                );
            }
            _ => checks.fail(
                "about",
                false,
                format!("'{line}' to ABOUT"),
                "answer ABOUT with one line: name=\"...\", version=\"...\", author=\"...\"",
            ),
        },
        Err(Wait::Closed(_)) => return stopped(s, checks).await,
        Err(w) => checks.fail(
            "about",
            false,
            w.describe("ABOUT", config.startup),
            "answer ABOUT with one line: name=\"...\", version=\"...\", author=\"...\"",
        ),
    }
    let start = if settings.m == settings.n {
        format!("START {}", settings.m)
    } else {
        format!("RECTSTART {},{}", settings.m, settings.n)
    };
    s.send(&start).await;
    match s.expect(is_answer, d).await {
        Ok((line, _)) if line.eq_ignore_ascii_case("OK") => {
            checks.pass("start-board", true, format!("OK to '{start}'"));
        }
        Ok((line, _)) => {
            checks.fail(
                "start-board",
                true,
                format!("'{line}' to '{start}'"),
                "answer OK to START when you can play the board",
            );
            skip_rest(checks, "the brain refused the board");
            return name;
        }
        Err(Wait::Closed(_)) => return stopped(s, checks).await,
        Err(w) => {
            checks.fail(
                "start-board",
                true,
                w.describe(&start, d),
                format!("answer OK to START; {}", super::FLUSH_HINT),
            );
            skip_rest(checks, "no OK to START");
            return name;
        }
    }
    let turn = config.movetime;
    let infos = [
        format!("INFO timeout_turn {turn}"),
        "INFO timeout_match 0".to_string(),
        "INFO time_left 2147483647".to_string(),
        "INFO max_memory 0".to_string(),
        "INFO game_type 1".to_string(),
        format!("INFO rule {}", u8::from(settings.exact)),
    ];
    for info in &infos {
        s.send(info).await;
    }
    let knows_about = name.is_some();
    let said = answers_to_info(s, knows_about, d).await;
    if said.is_empty() {
        checks.pass(
            "info-silent",
            true,
            format!("no answer to {} INFO lines", infos.len()),
        );
    } else {
        checks.fail(
            "info-silent",
            true,
            format!("answered INFO with {}", super::summary(&said)),
            "never answer INFO (a problem with a value is told at the next command that is not INFO)",
        );
    }
    // The protocol: "Ignore it, it is probably not important."
    s.send("INFO agon_check_unknown_key 1").await;
    let said = answers_to_info(s, knows_about, d).await;
    if said.is_empty() {
        checks.pass(
            "info-unknown-key",
            false,
            "an INFO key it does not know is ignored",
        );
    } else {
        checks.fail(
            "info-unknown-key",
            false,
            format!(
                "answered an unknown INFO key with {}",
                super::summary(&said)
            ),
            "ignore INFO keys you do not know, as the protocol asks",
        );
    }
    let limit = Duration::from_millis(turn) + config.margin;
    let mut game = match new_game(&config.spec, None) {
        Ok(g) => g,
        Err(e) => {
            skip_rest(checks, &e.to_string());
            return name;
        }
    };
    // BEGIN, then TURNs with seeded opponent moves.
    let mut bad = Vec::new();
    let mut slow = Vec::new();
    let mut rng = config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut asked = 0;
    let mut command = "BEGIN".to_string();
    for n in 0..=TURNS {
        s.send(&command).await;
        let sent = Instant::now();
        asked += 1;
        let line = match s.expect(is_answer, limit + d).await {
            Ok((line, _)) => line,
            Err(Wait::Closed(_)) => return stopped(s, checks).await,
            Err(w) => {
                bad.push(w.describe(&command, limit + d));
                break;
            }
        };
        if sent.elapsed() > limit {
            slow.push(format!(
                "{} ms after '{command}'",
                sent.elapsed().as_millis()
            ));
        }
        if let Err(why) = play_answer(&settings, game.as_mut(), &line) {
            bad.push(format!("'{line}' after '{command}': {why}"));
            break;
        }
        if n == 0 {
            checks.pass("begin", true, format!("'{line}' to BEGIN"));
        }
        if game.outcome().is_some() {
            break;
        }
        // The opponent: a seeded random legal move.
        let legal = game.legal_moves();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = &legal[(rng % legal.len() as u64) as usize];
        let p = point_of(&settings, mv).expect("a legal move is a square");
        game.play(mv).expect("a legal move");
        if game.outcome().is_some() {
            break;
        }
        command = format!("TURN {p}");
        // As the arena's link does in a game (dialect::gomocup::HOLD_AFTER_MOVE): Rapfi
        // drops the first word of a line that comes while its search winds down.
        tokio::time::sleep(crate::dialect::gomocup::HOLD_AFTER_MOVE).await;
    }
    if !checks.results.iter().any(|c| c.id == "begin") {
        checks.fail(
            "begin",
            true,
            bad.first().cloned().unwrap_or_default(),
            "answer BEGIN with your first move as x,y (0-based) on its own line, and flush",
        );
    }
    if bad.is_empty() {
        checks.pass(
            "legal-moves",
            true,
            format!("a legal x,y to each of {asked} BEGIN/TURN commands"),
        );
    } else {
        checks.fail(
            "legal-moves",
            true,
            bad.join("; "),
            "keep your own board from START, BEGIN, TURN and your own moves; answer an empty square as x,y with x the column and y the row, both from 0",
        );
    }
    if slow.is_empty() {
        checks.pass(
            "turn-time",
            true,
            format!(
                "every move within timeout_turn {turn} ms + {} ms",
                config.margin.as_millis()
            ),
        );
    } else {
        checks.fail(
            "turn-time",
            true,
            slow.join(", "),
            "read INFO timeout_turn and answer before it runs out",
        );
    }
    if !s.alive {
        return stopped(s, checks).await;
    }
    // TAKEBACK of the opponent's last stone (a recommendation).
    board_check(config, s, checks, &settings).await;
    if !s.alive {
        return stopped(s, checks).await;
    }
    swap2_check(config, s, checks, &settings).await;
    if !s.alive {
        return stopped(s, checks).await;
    }
    s.send("AGONCHECKUNKNOWN 1,2").await;
    match s.expect(is_answer, d).await {
        Ok((line, _)) if line.to_ascii_uppercase().starts_with("UNKNOWN")
            || line.to_ascii_uppercase().starts_with("ERROR") =>
        {
            checks.pass("unknown-command", true, format!("'{line}' to an unknown command"));
        }
        Ok((line, _)) => checks.fail(
            "unknown-command",
            true,
            format!("'{line}' to an unknown command"),
            "answer UNKNOWN <message> to a command you do not know, and go on",
        ),
        Err(Wait::Closed(_)) => return stopped(s, checks).await,
        Err(w) => checks.fail(
            "unknown-command",
            true,
            w.describe("an unknown command", d),
            "answer UNKNOWN <message> to a command you do not know (the protocol asks for it), and go on",
        ),
    }
    s.send("END").await;
    match s.process.wait_exit(Duration::from_millis(1000)).await {
        Some(status) => checks.pass("end", true, format!("exited after END ({status})")),
        None => checks.fail(
            "end",
            true,
            "still running 1 s after END",
            "exit as soon as you read END (managers kill a brain after about a second)",
        ),
    }
    name
}

/// `SWAP2BOARD` (a recommendation: Gomocup plays swap2 openings in some leagues): with no
/// stones the brain proposes three, on distinct empty squares; with the three stones of
/// the centre's cross the brain answers `SWAP`, one stone or two, on empty squares.
async fn swap2_check(
    config: &CheckConfig,
    s: &mut Session,
    checks: &mut Checks,
    settings: &MnkSettings,
) {
    let d = config.deadline;
    let (cx, cy) = (settings.m as u32 / 2, settings.n as u32 / 2);
    let opening = [
        Point { x: cx, y: cy },
        Point { x: cx + 1, y: cy },
        Point { x: cx, y: cy + 1 },
    ];
    let mut said = Vec::new();
    for stones in [&[][..], &opening[..]] {
        s.send("SWAP2BOARD").await;
        for p in stones {
            s.send(&p.to_string()).await;
        }
        s.send("DONE").await;
        let line = match s.expect(is_answer, d).await {
            Ok((line, _)) => line,
            Err(Wait::Closed(_)) => return,
            Err(w) => {
                answers_within(s, Duration::from_millis(200)).await;
                let what = format!("SWAP2BOARD with {} stones", stones.len());
                return checks.fail(
                    "swap2",
                    false,
                    w.describe(&what, d),
                    "answer SWAP2BOARD ... DONE within the turn limit (three stones to open; SWAP, one or two stones after three)",
                );
            }
        };
        let taken = |p: &Point| stones.contains(p);
        let on_board = |p: &Point| p.x < settings.m as u32 && p.y < settings.n as u32;
        let fine = |points: &[Point]| {
            points.iter().all(|p| on_board(p) && !taken(p))
                && (1..points.len()).all(|i| !points[..i].contains(&points[i]))
        };
        let ok = match (stones.len(), parse_reply(&line)) {
            (0, Some(Reply::Moves(points))) => points.len() == 3 && fine(&points),
            (_, Some(Reply::Swap)) if !stones.is_empty() => true,
            (_, Some(Reply::Move(p))) if !stones.is_empty() => fine(&[p]),
            (_, Some(Reply::Moves(points))) if !stones.is_empty() => {
                points.len() == 2 && fine(&points)
            }
            _ => false,
        };
        if !ok {
            // A brain without swap2 may answer each line: let those go before going on.
            answers_within(s, Duration::from_millis(200)).await;
            return checks.fail(
                "swap2",
                false,
                format!("'{line}' to SWAP2BOARD with {} stones", stones.len()),
                "to SWAP2BOARD answer three empty squares 'x,y x,y x,y' to open, and SWAP, 'x,y' or 'x,y x,y' after three stones",
            );
        }
        said.push(format!("'{line}'"));
    }
    checks.pass(
        "swap2",
        false,
        format!("SWAP2BOARD answered {}", said.join(" then ")),
    );
}

/// `RESTART`, a position from a seeded game as `BOARD`, and `TAKEBACK`.
async fn board_check(
    config: &CheckConfig,
    s: &mut Session,
    checks: &mut Checks,
    settings: &MnkSettings,
) {
    let d = config.deadline;
    let limit = Duration::from_millis(config.movetime) + config.margin;
    let moves = positions(&config.spec, config.seed, 4)
        .into_iter()
        .rfind(|m| !m.is_empty())
        .unwrap_or_default();
    s.send("RESTART").await;
    let restarted =
        matches!(s.expect(is_answer, d).await, Ok((l, _)) if l.eq_ignore_ascii_case("OK"));
    if !restarted {
        // Without RESTART a manager starts the brain again; the board check needs it.
        checks.skip(
            "board",
            true,
            "RESTART was not answered OK; a manager would start the brain again",
        );
        checks.skip("takeback", false, "after RESTART");
        return;
    }
    let mut game = match new_game(&config.spec, None) {
        Ok(g) => g,
        Err(_) => return,
    };
    for m in &moves {
        let _ = game.play(m);
    }
    // The brain is the side to move: its stones are 1.
    let brain_moves_first = moves.len() % 2 == 0;
    s.send("BOARD").await;
    for (i, m) in moves.iter().enumerate() {
        let own = (i % 2 == 0) == brain_moves_first;
        let p = point_of(settings, m).expect("a played move");
        s.send(&format!("{p},{}", if own { 1 } else { 2 })).await;
    }
    s.send("DONE").await;
    match s.expect(is_answer, limit + d).await {
        Ok((line, _)) => match play_answer(settings, game.as_mut(), &line) {
            Ok(()) => checks.pass(
                "board",
                true,
                format!("'{line}' to a BOARD of {} stones", moves.len()),
            ),
            Err(why) => checks.fail(
                "board",
                true,
                format!("'{line}' to a BOARD of {} stones: {why}", moves.len()),
                "BOARD gives the whole position: 1 your stones, 2 the opponent's; answer your move",
            ),
        },
        Err(Wait::Closed(_)) => return,
        Err(w) => {
            checks.fail(
                "board",
                true,
                w.describe("BOARD ... DONE", limit + d),
                "after DONE, answer your move as for TURN",
            );
            return;
        }
    }
    let last = moves.last().and_then(|m| point_of(settings, m).ok());
    if let Some(p) = last {
        s.send(&format!("TAKEBACK {p}")).await;
        match s.expect(is_answer, d).await {
            Ok((line, _)) if line.eq_ignore_ascii_case("OK") => {
                checks.pass("takeback", false, format!("OK to 'TAKEBACK {p}'"));
            }
            Ok((line, _)) => checks.fail(
                "takeback",
                false,
                format!("'{line}' to 'TAKEBACK {p}'"),
                "remove the stone and answer OK (or UNKNOWN if you do not take moves back)",
            ),
            Err(Wait::Closed(_)) => {}
            Err(w) => checks.fail(
                "takeback",
                false,
                w.describe("TAKEBACK", d),
                "answer TAKEBACK with OK (or UNKNOWN)",
            ),
        }
    }
}

/// The lines within `wait` that are neither `MESSAGE` nor `DEBUG`.
/// What the brain said to the `INFO` lines just sent. A brain that answers `ABOUT` is
/// sent one more as a barrier: every answer before its `name="..."` line is an answer to
/// the INFO lines, however late it comes (Rapfi answers an unknown key's value as a
/// command, and on a loaded machine that came after a fixed wait, and then read as its
/// answer to BEGIN). Other brains get 200 ms.
async fn answers_to_info(s: &mut Session, knows_about: bool, within: Duration) -> Vec<String> {
    if !knows_about {
        return answers_within(s, Duration::from_millis(200)).await;
    }
    s.send("ABOUT").await;
    let about = |l: &str| matches!(parse_reply(l), Some(Reply::About(_)));
    let seen = match s.expect(about, within).await {
        Ok((_, seen)) => seen,
        Err(Wait::Timeout(seen) | Wait::Closed(seen)) => seen,
        Err(Wait::Flood(_)) => Vec::new(),
    };
    seen.into_iter()
        .filter(|l| !matches!(parse_reply(l), Some(Reply::Message(_) | Reply::Debug(_))))
        .collect()
}

async fn answers_within(s: &mut Session, wait: Duration) -> Vec<String> {
    s.collect(wait)
        .await
        .into_iter()
        .filter(|l| {
            !l.is_empty() && !matches!(parse_reply(l), Some(Reply::Message(_) | Reply::Debug(_)))
        })
        .collect()
}

/// Plays the brain's `x,y` answer in `game`, or says why it is no legal move.
fn play_answer(settings: &MnkSettings, game: &mut dyn AnyGame, line: &str) -> Result<(), String> {
    let p = match parse_reply(line) {
        Some(Reply::Move(p)) => p,
        Some(Reply::Error(m)) => return Err(format!("an error instead of a move: {m}")),
        _ => return Err("not a move: expected x,y".into()),
    };
    let mv = move_of(settings, p)
        .ok_or_else(|| format!("{p} is off the {}x{} board", settings.m, settings.n))?;
    game.play(&mv)
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", Point { x: p.x, y: p.y }))
}

/// The brain stopped: the crash check, the rest missed.
async fn stopped(s: &mut Session, checks: &mut Checks) -> Option<String> {
    s.stopped(checks).await;
    None
}
