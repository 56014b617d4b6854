//! `agon play` driven through the real binary's stdin and stdout: the human side is a
//! script that reads the prompts and the `moves` list, as a person would.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const PROMPT_MOVE: &str = "Your move (";
const PROMPT_AGAIN: &str = "Play again? (y/n)> ";

/// A running `agon play` with a reader thread collecting its output.
struct Driver {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Vec<u8>>,
    text: String,
    seen: usize,
}

impl Driver {
    fn start(args: &[&str]) -> Driver {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Driver {
            child,
            stdin,
            rx,
            text: String::new(),
            seen: 0,
        }
    }

    /// Waits for the next of `patterns` after what was already seen; returns its index
    /// and the text before it.
    fn wait_for(&mut self, patterns: &[&str]) -> (usize, String) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let rest = &self.text[self.seen..];
            let found = patterns
                .iter()
                .enumerate()
                .filter_map(|(i, p)| rest.find(p).map(|at| (at, i)))
                .min();
            if let Some((at, i)) = found {
                let before = rest[..at].to_string();
                let end = rest[at..].find("> ").map_or(patterns[i].len(), |e| e + 2);
                self.seen += at + end;
                return (i, before);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(bytes) => self.text.push_str(&String::from_utf8_lossy(&bytes)),
                Err(_) => panic!("no {patterns:?} in output:\n{}", self.text),
            }
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends `moves` and takes the first legal move listed.
    fn first_legal_move(&mut self) -> String {
        self.send("moves");
        let (_, before) = self.wait_for(&[PROMPT_MOVE]);
        let list = before
            .lines()
            .find_map(|l| l.strip_prefix("Legal moves: "))
            .unwrap_or_else(|| panic!("no move list in {before:?}"));
        list.split_whitespace().next().unwrap().to_string()
    }

    /// Plays a game to its end with the first legal move every time; returns the
    /// output of the game up to the rematch prompt.
    fn play_to_end(&mut self) -> String {
        let start = self.seen;
        loop {
            let (i, _) = self.wait_for(&[PROMPT_MOVE, PROMPT_AGAIN]);
            if i == 1 {
                return self.text[start..self.seen].to_string();
            }
            let mv = self.first_legal_move();
            self.send(&mv);
        }
    }

    /// Closes stdin and returns the whole output and the exit status.
    fn finish(mut self) -> (String, bool) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        while let Ok(bytes) = self.rx.recv_timeout(Duration::from_secs(10)) {
            self.text.push_str(&String::from_utf8_lossy(&bytes));
        }
        (self.text, status.success())
    }
}

/// Runs `agon play args` with all of `input` piped at once.
fn run_piped(args: &[&str], input: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A refused command line ends the program before it reads its input: a broken pipe
    // then is expected, not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn full_game(spec: &[&str], first: &str) {
    let mut args = spec.to_vec();
    args.extend(["--level", "easy", "--seed", "3", "--first", first]);
    let mut d = Driver::start(&args);
    let game = d.play_to_end();
    assert!(game.contains("Result: "), "{game}");
    assert!(game.contains("Session: "), "{game}");
    d.send("n");
    let (out, ok) = d.finish();
    assert!(ok, "{out}");
    assert!(out.contains("Session summary: 1 finished game:"), "{out}");
    // A board is drawn after every move: one per move plus the start position.
    let moves = out.matches("Engine plays").count();
    assert!(moves >= 1, "{out}");
}

#[test]
fn full_game_tictactoe() {
    full_game(&["tictactoe"], "human");
    full_game(&["tictactoe"], "engine");
}

#[test]
fn full_game_mnk() {
    full_game(&["mnk", "m=4", "n=4", "k=3"], "human");
}

#[test]
fn full_game_clobber() {
    full_game(&["clobber", "rows=3", "cols=4"], "engine");
    full_game(&["clobber", "rows=3", "cols=4"], "human");
}

#[test]
fn board_has_coordinates_and_is_redrawn_after_moves() {
    let (out, _, ok) = run_piped(&["tictactoe", "--first", "human", "--seed", "1"], "b2\n");
    assert!(ok);
    assert!(out.contains("     a b c"), "{out}");
    assert!(out.contains("  2  . X ."), "{out}");
    // Start, after b2, after the engine's reply.
    assert_eq!(out.matches("     a b c").count(), 3, "{out}");
    assert!(out.contains("Session summary: 0 finished games"), "{out}");
}

#[test]
fn invalid_inputs_say_why_and_ask_again() {
    let input = "zz9\nb2\nb2\nfrobnicate\nd1\nhelp\nquit\n";
    let (out, _, ok) = run_piped(&["tictactoe", "--first", "human", "--seed", "1"], input);
    assert!(ok, "{out}");
    assert!(out.contains("'zz9' is not a move"), "{out}");
    assert!(out.contains("'b2' is illegal here"), "{out}");
    assert!(out.contains("'frobnicate' is not a move"), "{out}");
    assert!(out.contains("'d1'"), "{out}");
    assert!(out.contains("Commands:"), "{out}");
    // Every refusal is followed by a new prompt.
    assert!(out.matches("Your move (x)> ").count() >= 7, "{out}");

    let (out, _, ok) = run_piped(
        &[
            "clobber", "rows=3", "cols=4", "--first", "human", "--seed", "1",
        ],
        "a1a3\na1\nquit\n",
    );
    assert!(ok, "{out}");
    assert!(out.contains("'a1a3'"), "{out}");
    assert!(out.contains("'a1'"), "{out}");
    assert_eq!(
        out.matches("Type `moves` for the legal moves").count(),
        2,
        "{out}"
    );
}

#[test]
fn undo_takes_back_the_move_and_the_reply() {
    let (out, _, ok) = run_piped(
        &["tictactoe", "--first", "human", "--seed", "1"],
        "undo\nb2\nundo\nmoves\nhint\nquit\n",
    );
    assert!(ok, "{out}");
    assert!(out.contains("Nothing to undo"), "{out}");
    let took = out.lines().find(|l| l.contains("Took back")).unwrap();
    assert!(took.contains("Took back b2 and "), "{took}");
    // After the undo the board is empty again and all nine moves are legal.
    assert!(
        out.contains("Legal moves: a1 b1 c1 a2 b2 c2 a3 b3 c3"),
        "{out}"
    );
    assert!(out.contains("Hint: "), "{out}");
}

#[test]
fn tally_across_two_games() {
    let mut d = Driver::start(&["tictactoe", "--level", "easy", "--seed", "5"]);
    let first = d.play_to_end();
    d.send("maybe");
    d.wait_for(&[PROMPT_AGAIN]);
    d.send("y");
    let second = d.play_to_end();
    d.send("n");
    let (out, ok) = d.finish();
    assert!(ok);
    assert!(out.contains("Please answer y or n (not 'maybe')"), "{out}");
    assert!(second.contains("Game 2:"), "{second}");
    let mut tally = [0u32; 3];
    for game in [&first, &second] {
        let result = game.lines().find(|l| l.starts_with("Result: ")).unwrap();
        let i = if result.contains("you won") {
            0
        } else if result.contains("the engine won") {
            1
        } else {
            2
        };
        tally[i] += 1;
    }
    let expected = format!(
        "Session: you {}, engine {}, draws {}",
        tally[0], tally[1], tally[2]
    );
    assert!(second.contains(&expected), "{expected} in {second}");
    assert!(
        out.contains(&format!(
            "Session summary: 2 finished games: you won {}, the engine won {}, {} drawn.",
            tally[0], tally[1], tally[2]
        )),
        "{out}"
    );
}

#[test]
fn end_of_input_quits_with_the_summary() {
    let (out, _, ok) = run_piped(&["mnk", "m=5", "n=5", "k=4", "--seed", "2"], "");
    assert!(ok);
    assert!(out.contains("Session summary: 0 finished games"), "{out}");
}

#[test]
fn bad_command_line_parameters() {
    let cases: &[(&[&str], &str)] = &[
        (&["chess"], "unknown game 'chess'"),
        (&["mnk", "m=five"], "'five' is not an integer"),
        (&["mnk", "m=-3"], "-3 is outside"),
        (&["clobber", "rows=0"], "0 is outside"),
        (&["mnk", "m=3", "n=3", "k=7"], "can never be reached"),
        (
            &["tictactoe", "--level", "godlike"],
            "'godlike' is not one of easy",
        ),
        (
            &["tictactoe", "--first", "nobody"],
            "'nobody' is not one of human",
        ),
        (&["tictactoe", "--depth", "0"], "--depth"),
        (&["tictactoe", "--depth", "abc"], "--depth"),
        (&["tictactoe", "--movetime=-5"], "--movetime"),
        (
            &["tictactoe", "--level", "easy", "--depth", "3"],
            "cannot be used with",
        ),
        (&[], "required"),
    ];
    for (args, message) in cases {
        let (out, err, ok) = run_piped(args, "");
        assert!(!ok, "{args:?} succeeded: {out}");
        assert!(err.contains(message), "{args:?}: {err:?} lacks {message:?}");
        assert!(!out.contains("Your move"), "{args:?} started a game");
    }
}

#[test]
fn levels_and_custom_strength_are_announced() {
    for (args, banner) in [
        (&["--level", "easy"][..], "engine strength easy (depth 1)"),
        (
            &["--level", "EXPERT"][..],
            "engine strength expert (depth 6)",
        ),
        (&[][..], "engine strength hard (depth 4)"),
        (&["--depth", "3"][..], "engine strength custom (depth 3)"),
        (
            &["--movetime", "20"][..],
            "engine strength custom (20 ms per move)",
        ),
    ] {
        let mut all = vec!["tictactoe", "--first", "engine", "--seed", "1"];
        all.extend(args);
        let (out, _, ok) = run_piped(&all, "quit\n");
        assert!(ok, "{out}");
        assert!(out.contains(banner), "{args:?}: {out}");
        assert!(out.contains("Engine plays"), "{out}");
    }
}

/// A finished game with `--learn` writes the store; the next session reads it back.
#[test]
fn play_learns_into_the_store() {
    let dir = std::env::temp_dir().join(format!("agon-play-learn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("store.txt");
    let path_text = path.to_str().unwrap();
    for round in 0..2 {
        let mut d = Driver::start(&[
            "tictactoe",
            "--level",
            "easy",
            "--seed",
            "9",
            "--learn",
            path_text,
        ]);
        let game = d.play_to_end();
        assert!(game.contains("Learned from this game"), "{game}");
        d.send("n");
        let (out, ok) = d.finish();
        assert!(ok, "round {round}: {out}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("agon-learn 1\n"), "{text}");
    }
    let store = agon::learn::LearnStore::open(&path).unwrap();
    let games: u32 = store
        .entries()
        .values()
        .map(|c| c.wins + c.draws + c.losses)
        .max()
        .unwrap();
    assert!(games >= 1);
}

#[test]
fn full_game_halma() {
    // 8x8 Halma with a 40-ply limit: the scripted human plays the first legal move, so the
    // game ends by a win or by the move limit, a full game either way.
    full_game(&["halma", "size=8", "limit=40"], "human");
}

/// `--position` and `--position-file` start every game of `agon play` from the given
/// position, read as the game named after `play` (not as tic-tac-toe). Each position has
/// one winning move that anyone can check by hand; the engine, moving first, plays it.
#[test]
fn play_starts_from_a_given_position_in_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("clobber.txt");
    // A 1x2 Clobber grid: White captures b1 and Black, with no piece left, cannot move.
    std::fs::write(&grid, "WB\n").unwrap();
    let grid = grid.to_str().unwrap();
    let cases: [(&[&str], &str, &str); 4] = [
        // x on a3 b3, o on a2 b2: x completes the top row at c3.
        (
            &["tictactoe", "--position", "xx1/oo1/3 x"],
            "Engine plays c3",
            "x wins",
        ),
        (
            &["clobber", "--position-file", grid],
            "Engine plays a1-b1",
            "white wins",
        ),
        // White flats a1 b1 c1 d1: any stone on e1 finishes the road along row 1.
        (
            &[
                "tak",
                "size=5",
                "--position",
                "x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 5",
            ],
            "e1",
            "white wins",
        ),
        // Halma has no one-move win here: the engine moves from the given position.
        (
            &[
                "halma",
                "size=8",
                "--position",
                "4bbbb/5b1b/5w1b/8/3w4/8/1w6/w7 w 0",
            ],
            "Engine plays",
            "",
        ),
    ];
    for (args, engine_move, result) in cases {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--first", "engine", "--depth", "2"]);
        let (out, err, ok) = run_piped(&all, "quit\n");
        assert!(ok, "agon play {all:?} failed: {err}\n{out}");
        let moved = out
            .lines()
            .find(|l| l.starts_with("Engine plays"))
            .unwrap_or_else(|| panic!("no engine move for {all:?}:\n{out}"));
        assert!(
            moved.contains(engine_move.trim_start_matches("Engine plays ")),
            "{all:?}: {moved}"
        );
        if !result.is_empty() {
            assert!(
                out.contains(&format!("Result: {result}")),
                "{all:?}:\n{out}"
            );
        }
    }
    // The Halma board shown is the given one, not the start: a white piece on d4.
    let (out, _, _) = run_piped(
        &[
            "halma",
            "size=8",
            "--position",
            "4bbbb/5b1b/5w1b/8/3w4/8/1w6/w7 w 0",
            "--first",
            "human",
        ],
        "quit\n",
    );
    let row4 = out
        .lines()
        .find(|l| l.trim_start().starts_with("4 "))
        .unwrap_or_else(|| panic!("no row 4 in:\n{out}"));
    // Row 4 of this position: a4 is a camp square ('+'), White on d4.
    assert_eq!(
        row4.split_whitespace().collect::<Vec<_>>()[1..5],
        ["+", ".", ".", "W"],
        "{out}"
    );
    // A position that is not one of the game's is refused, naming the text.
    let (_, err, ok) = run_piped(&["tak", "size=5", "--position", "xo1/3/3 x"], "quit\n");
    assert!(!ok);
    assert!(err.contains("bad position 'xo1/3/3 x'"), "{err}");
    // `--game` before `play` may only repeat play's own game.
    let (_, err, ok) = run_piped(&["tictactoe", "--game", "gomoku"], "quit\n");
    assert!(!ok);
    assert!(err.contains("differ"), "{err}");
}
