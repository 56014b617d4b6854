//! The bot over its pipes: handshake, a board size from `setoption`, forced moves and
//! `bestmove none` when no move is left (hand-worked on a 1x3 board: W B W).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn plays_forced_moves_and_knows_when_it_has_none() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_clobber-bot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the bot");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |line: &str, until: &str| -> Vec<String> {
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            assert!(output.read_line(&mut l).unwrap() > 0, "the bot exited");
            let l = l.trim().to_string();
            let done = l.starts_with(until);
            lines.push(l);
            if done {
                return lines;
            }
        }
    };
    assert_eq!(ask("ugi", "ugiok").last().unwrap(), "ugiok");
    // setoption has no reply: the isready after it is the sync point.
    let _ = ask(
        "setoption name Game value clobber rows=1 cols=3\nisready",
        "readyok",
    );
    // a1 White, b1 Black, c1 White: White must take b1, from a1 or from c1.
    let reply = ask("position startpos\ngo", "bestmove");
    let best = reply.last().unwrap();
    assert!(
        best == "bestmove a1-b1" || best == "bestmove c1-b1",
        "{best}"
    );
    // After a1-b1 Black has no stone left to move.
    assert_eq!(
        ask("position startpos moves a1-b1\ngo", "bestmove")
            .last()
            .unwrap(),
        "bestmove none"
    );
    assert_eq!(ask("isready", "readyok").last().unwrap(), "readyok");
    writeln!(input, "quit").unwrap();
    drop(input);
    assert!(child.wait().unwrap().success());
}
