//! agon as a Gomocup brain (`pbrain-agon`, protocol.md section 11), driven as Gomocup
//! managers and GUIs drive brains: the examples of protocol.md, hostile lines, a whole
//! GUI-like session between two brains refereed with the library's own rules, time
//! limits, swap2 and the ways to start the brain.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use agon::game::{Game, Outcome};
use agon::games::mnk::{Mnk, MnkMove, MnkSettings};

const SEC: Duration = Duration::from_secs(1);

/// A running brain: lines in, lines out (CR LF stripped), MESSAGE/DEBUG kept apart.
struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line sent (`> `) and received (`< `), in order.
    transcript: Vec<String>,
    /// The last MESSAGE line's text.
    last_message: Option<String>,
}

impl Brain {
    fn start() -> Brain {
        Brain::spawn(Command::new(env!("CARGO_BIN_EXE_pbrain-agon")))
    }

    fn spawn(mut command: Command) -> Brain {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the brain");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line.trim_end_matches('\r').to_string()).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            last_message: None,
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        // Managers end lines with CR LF.
        write!(self.stdin, "{line}\r\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line that is no MESSAGE or DEBUG.
    fn reply(&mut self, wait: Duration) -> String {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no reply in {wait:?}: {:#?}", self.transcript));
            self.transcript.push(format!("< {line}"));
            if let Some(text) = line.strip_prefix("MESSAGE ") {
                self.last_message = Some(text.to_string());
            } else if !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    /// Whether the brain sends nothing (but MESSAGE/DEBUG) within `wait`.
    fn silent(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.transcript.push(format!("< {line}"));
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return false;
            }
        }
        true
    }

    fn ends(mut self) {
        self.send("END");
        let deadline = Instant::now() + 5 * SEC;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "{status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("the brain did not end after END");
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn point(text: &str) -> (u32, u32) {
    let (x, y) = text
        .split_once(',')
        .unwrap_or_else(|| panic!("'{text}' is no x,y"));
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn every_gomocup_example_in_protocol_md_holds() {
    use agon::protocol::examples::{parse_blocks, Matcher};
    let text = std::fs::read_to_string("protocol.md").expect("protocol.md");
    let exchanges = parse_blocks(&text, "gomocup");
    assert!(exchanges.len() >= 2, "protocol.md's Gomocup examples");
    for exchange in &exchanges {
        let mut brain = Brain::start();
        for step in &exchange.steps {
            if let Some(line) = &step.send {
                brain.send(line);
            }
            let mut matcher = Matcher::new(&step.expect);
            while !matcher.is_done() {
                let line = brain.reply(10 * SEC);
                if let Err(why) = matcher.feed(&line) {
                    panic!("protocol.md:{}: {why}", step.line);
                }
            }
            if step.expect.is_empty() && step.send.as_deref() != Some("END") {
                // A line with no reply has none: an INFO, or a line of BOARD.
                assert!(
                    brain.silent(Duration::from_millis(50)),
                    "protocol.md:{}: {:#?}",
                    step.line,
                    brain.transcript
                );
            }
        }
    }
}

/// Each hostile line gets one clear ERROR or UNKNOWN, and the brain goes on playing.
#[test]
fn hostile_lines_get_a_clear_error_and_never_a_crash() {
    let mut brain = Brain::start();
    brain.send("START 15");
    assert_eq!(brain.reply(5 * SEC), "OK");
    let long = format!("TURN {}", "9".repeat(100_000));
    let cases: Vec<(String, &str)> = vec![
        (
            "TURN 4294967296,1".into(),
            "ERROR TURN '4294967296,1': expected x,y",
        ),
        ("TURN 1,".into(), "ERROR TURN '1,': expected x,y"),
        ("TURN".into(), "ERROR TURN '': expected x,y"),
        ("TURN a,b".into(), "ERROR TURN 'a,b': expected x,y"),
        (
            "TURN 20,20".into(),
            "ERROR TURN 20,20: 20,20 is outside the 15x15 board",
        ),
        (long, "ERROR TURN '9999"),
        ("\u{1b}[2J\u{7f}".into(), "UNKNOWN"),
        (
            "START 4".into(),
            "ERROR START 4: agon plays boards of 5 to 26",
        ),
        (
            "START 100000000000".into(),
            "ERROR START '100000000000': expected a board size",
        ),
        (
            "RECTSTART 5,1000".into(),
            "ERROR RECTSTART 5,1000: agon plays boards of 5 to 26",
        ),
        ("TAKEBACK 3,3".into(), "ERROR TAKEBACK 3,3: no stone there"),
        (
            "DONE".into(),
            "ERROR 'DONE' comes only between BOARD or SWAP2BOARD and DONE",
        ),
        ("7,7,1".into(), "ERROR '7,7,1' comes only between"),
        ("INFO".into(), "ERROR INFO '': expected a key and a value"),
        (
            "BEGIN please".into(),
            "ERROR BEGIN takes no argument, got 'please'",
        ),
        ("PLAY 99,1".into(), "ERROR PLAY 99,1: 99,1 is outside"),
    ];
    for (line, says) in &cases {
        brain.send(line);
        let reply = brain.reply(5 * SEC);
        assert!(reply.starts_with(says), "{line:.40}: {reply}");
    }
    // Boards that cannot be the brain's turn, or are over.
    for (stones, says) in [
        (
            &["1,1,1", "2,2,1"][..],
            "ERROR the board has 2 stones of the brain and 0",
        ),
        (&["1,1,2", "1,1,1"][..], "ERROR BOARD: 1,1 is given twice"),
        (&["1,1,3"][..], "ERROR BOARD: 1,1,3 marks a continuous game"),
        (
            &["1,1,9"][..],
            "ERROR BOARD: '1,1,9': the field is 1 (own stone), 2 (opponent's) or 3",
        ),
        (
            &["1,1,1", "TURN 3,3", "2,2,2"][..],
            "ERROR BOARD: expected x,y,field or DONE, got 'TURN 3,3'; the lines up to DONE are dropped",
        ),
        (&["1;1;1"][..], "ERROR BOARD: a square '1;1;1': expected x,y or x,y,field"),
        (
            &[
                "0,0,2", "1,0,2", "2,0,2", "3,0,2", "4,0,2", "0,5,1", "2,5,1", "4,5,1", "6,5,1",
            ][..],
            "ERROR the game is over: the opponent has five in a row",
        ),
    ] {
        brain.send("BOARD");
        for s in stones {
            brain.send(s);
        }
        brain.send("DONE");
        let reply = brain.reply(5 * SEC);
        assert!(reply.starts_with(says), "{stones:?}: {reply}");
        // One error for one board: nothing else comes.
        assert!(
            brain.silent(Duration::from_millis(100)),
            "{:#?}",
            brain.transcript
        );
    }
    brain.send("SWAP2BOARD");
    brain.send("7,7");
    brain.send("DONE");
    assert_eq!(
        brain.reply(5 * SEC),
        "ERROR SWAP2BOARD: 1 stones; the opening has 0, 3 or 5 before DONE"
    );
    // Still playing: a legal move on the board as it was (empty).
    brain.send("TURN 7,7");
    let (x, y) = point(&brain.reply(10 * SEC));
    assert!(x < 15 && y < 15 && (x, y) != (7, 7));
    brain.ends();
}

/// A GUI-like session: two brains play a whole game through the test acting as the
/// manager, with INFO limits, a TAKEBACK of both last moves and the moves played again,
/// a RESTART and END. Every move is checked with the library's rules, and the game ends
/// with five in a row or a full board. The transcript goes to the test's folder.
#[test]
fn two_brains_play_a_whole_game_through_the_manager() {
    let settings = MnkSettings::new(15, 15, 5);
    let mut black = Brain::start();
    let mut white = Brain::start();
    for brain in [&mut black, &mut white] {
        brain.send("START 15");
        assert_eq!(brain.reply(5 * SEC), "OK");
        for info in [
            "INFO timeout_match 60000",
            "INFO timeout_turn 100",
            "INFO max_memory 83886080",
            "INFO game_type 1",
            "INFO rule 0",
            "INFO folder /nowhere",
        ] {
            brain.send(info);
        }
    }
    // Board as the manager sees it; x,y with y from the top = agon row 14 - y.
    let mut pos = Mnk::start(&settings);
    let to_move = |x: u32, y: u32| MnkMove(((14 - y) * 15 + x) as u16);
    black.send("INFO time_left 60000");
    black.send("BEGIN");
    let mut last = black.reply(10 * SEC);
    let mut history: Vec<String> = Vec::new();
    let mut took_back = false;
    loop {
        let (x, y) = point(&last);
        let mv = to_move(x, y);
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        assert!(
            legal.contains(&mv),
            "illegal {last}: {:#?}",
            black.transcript
        );
        pos.make_move(mv);
        history.push(last.clone());
        if pos.outcome().is_some() {
            break;
        }
        // The side that just moved waits; the other answers.
        let mover = if history.len() % 2 == 1 {
            &mut white
        } else {
            &mut black
        };
        if history.len() == 6 && !took_back {
            // Take back the last two moves on both boards, then replay the game on.
            took_back = true;
            // White's board has all six stones; black has not been told the 6th yet.
            let (a, b) = (history[5].clone(), history[4].clone());
            for (brain, stones) in [(&mut white, vec![&a, &b]), (&mut black, vec![&b])] {
                for s in stones {
                    brain.send(&format!("TAKEBACK {s}"));
                    assert_eq!(brain.reply(5 * SEC), "OK");
                }
            }
            for t in [&a, &b] {
                let (x, y) = point(t);
                pos.unmake_move(to_move(x, y), ());
            }
            history.truncate(4);
            // Black is to move after 4 plies: as Piskvork after an undo, the manager
            // restarts it and sends the board.
            black.send("RESTART");
            assert_eq!(black.reply(5 * SEC), "OK");
            black.send("BOARD");
            for (i, m) in history.iter().enumerate() {
                black.send(&format!("{m},{}", if i % 2 == 0 { 1 } else { 2 }));
            }
            black.send("DONE");
            last = black.reply(10 * SEC);
            continue;
        }
        mover.send("INFO time_left 50000");
        mover.send(&format!("TURN {last}"));
        last = mover.reply(10 * SEC);
        assert!(history.len() < 225, "the game goes on past a full board");
    }
    match pos.outcome() {
        Some(Outcome::Win(_)) => {}
        Some(Outcome::Draw) => assert_eq!(history.len(), 225),
        None => unreachable!(),
    }
    assert!(took_back);
    for brain in [&mut black, &mut white] {
        brain.send("RESTART");
        assert_eq!(brain.reply(5 * SEC), "OK");
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let text = format!(
        "# black\n{}\n# white\n{}\n",
        black.transcript.join("\n"),
        white.transcript.join("\n")
    );
    std::fs::write(dir.join("gomocup-session.txt"), text).unwrap();
    black.ends();
    white.ends();
}

#[test]
fn a_turn_limit_bounds_every_move() {
    let mut brain = Brain::start();
    brain.send("START 15");
    assert_eq!(brain.reply(5 * SEC), "OK");
    // A turn of 1 s: the brain keeps 50 ms of it (a twentieth) for the pipes, so its move
    // comes within the turn, and it uses the turn (an empty board is never proved).
    brain.send("INFO timeout_turn 1000");
    let sent = Instant::now();
    brain.send("BEGIN");
    brain.reply(5 * SEC);
    let took = sent.elapsed();
    assert!(took < Duration::from_millis(1000), "took {took:?}");
    assert!(took > Duration::from_millis(500), "took {took:?}");
    // A match clock short of time: the move takes a share of it, not the turn limit.
    brain.send("INFO timeout_turn 5000");
    brain.send("INFO time_left 1000");
    let sent = Instant::now();
    brain.send("TURN 3,3");
    brain.reply(5 * SEC);
    let took = sent.elapsed();
    assert!(took < Duration::from_millis(700), "took {took:?}");
    // YXSTOP: the move now, whatever is left of the turn.
    brain.send("INFO time_left 2147483647");
    brain.send("INFO timeout_turn 60000");
    brain.send("TURN 12,12");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    brain.send("YXSTOP");
    brain.reply(5 * SEC);
    assert!(sent.elapsed() < SEC, "took {:?}", sent.elapsed());
    brain.ends();
}

#[test]
fn swap2_opens_with_three_stones_and_chooses_after_three_or_five() {
    let mut brain = Brain::start();
    brain.send("START 15");
    assert_eq!(brain.reply(5 * SEC), "OK");
    brain.send("INFO timeout_turn 200");
    brain.send("SWAP2BOARD");
    brain.send("DONE");
    let three: Vec<(u32, u32)> = brain.reply(5 * SEC).split(' ').map(point).collect();
    assert_eq!(three.len(), 3);
    assert!(three.iter().all(|&(x, y)| x < 15 && y < 15));
    assert!(three[0] != three[1] && three[1] != three[2] && three[0] != three[2]);
    for stones in [
        &["7,7", "8,7", "9,9"][..],
        &["7,7", "8,7", "9,9", "8,8", "8,6"][..],
    ] {
        brain.last_message = None;
        brain.send("SWAP2BOARD");
        for s in stones {
            brain.send(s);
        }
        brain.send("DONE");
        let answer = brain.reply(5 * SEC);
        // The rule: SWAP exactly when the search's score for the side to move (o, the
        // brain's side if it stays) is below 0.
        let message = brain.last_message.clone().expect("the search's report");
        let score: Vec<&str> = message
            .split_whitespace()
            .skip_while(|w| *w != "score")
            .skip(1)
            .take(2)
            .collect();
        let worse = match score.as_slice() {
            ["cp", v] => v.parse::<i32>().unwrap() < 0,
            ["loss", _] => true,
            _ => false,
        };
        assert_eq!(answer == "SWAP", worse, "{message} -> {answer}");
        if answer != "SWAP" {
            let (x, y) = point(&answer);
            assert!(x < 15 && y < 15, "{answer}");
            assert!(!stones.contains(&answer.as_str()), "{answer} is taken");
        }
    }
    brain.ends();
}

#[test]
fn the_brain_starts_as_agon_gomocup_and_as_any_pbrain_copy() {
    let mut by_word = Command::new(env!("CARGO_BIN_EXE_agon"));
    by_word.arg("gomocup");
    let dir = tempfile_dir();
    let copy = dir.join("pbrain-mine");
    std::fs::copy(env!("CARGO_BIN_EXE_agon"), &copy).unwrap();
    for command in [by_word, Command::new(&copy)] {
        let mut brain = Brain::spawn(command);
        brain.send("ABOUT");
        let about = brain.reply(5 * SEC);
        assert!(about.starts_with("name=\"agon\", version=\""), "{about}");
        brain.send("START 20");
        assert_eq!(brain.reply(5 * SEC), "OK");
        brain.ends();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gomocup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A script that pipes commands and closes the input still gets the move it asked for;
/// an explicit END ends at once.
#[test]
fn the_end_of_input_answers_the_move_being_thought_about() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-agon"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"START 15\r\nINFO timeout_turn 200\r\nBEGIN\r\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect();
    assert_eq!(answers.len(), 2, "{text}");
    assert_eq!(answers[0], "OK");
    let (x, y) = point(answers[1]);
    assert!(x < 15 && y < 15, "{text}");
}

/// Gomocup's rule 1: the brain's only way to five in a row makes six, which wins in
/// freestyle and not under exactly five; there the brain plays elsewhere, and the
/// opponent's own win (a four of its own) is blocked instead.
#[test]
fn rule_1_is_exactly_five() {
    // The brain (1): 5,7 6,7 7,7 8,7 and 10,7; 9,7 joins them into six. The opponent
    // (2): 4,7 blocks the other end, and 0,0 1,0 2,0 3,0 is a four that wins at 4,0.
    let board = [
        "5,7,1", "6,7,1", "7,7,1", "8,7,1", "10,7,1", "4,7,2", "0,0,2", "1,0,2", "2,0,2", "3,0,2",
    ];
    let answer = |rule: u32| {
        let mut brain = Brain::start();
        brain.send("START 15");
        assert_eq!(brain.reply(5 * SEC), "OK");
        brain.send("INFO timeout_turn 500");
        brain.send(&format!("INFO rule {rule}"));
        brain.send("BOARD");
        for line in board {
            brain.send(line);
        }
        brain.send("DONE");
        let reply = brain.reply(10 * SEC);
        brain.send("END");
        reply
    };
    assert_eq!(answer(0), "9,7", "freestyle: six in a row wins");
    assert_eq!(
        answer(1),
        "4,0",
        "exactly five: six does not win, so block the four"
    );
}
