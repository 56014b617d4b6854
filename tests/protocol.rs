//! The real `agon` binary driven through the protocol: a full game, `stop` and `isready`
//! during a search, every error case, end of input, and every example in protocol.md.

mod common;

use std::time::{Duration, Instant};

use common::EngineProcess;

const SEC: Duration = Duration::from_secs(1);

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("a line");
    last.strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("not a bestmove: {last}"))
        .to_string()
}

#[test]
fn handshake_lists_id_options_and_ends_with_ugiok() {
    let mut e = EngineProcess::start();
    e.send("ugi");
    let lines = e.until("ugiok", 5 * SEC);
    assert!(lines[0].starts_with("id name Agon"));
    assert_eq!(lines[1], "id author The Agon developers");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Game type string default tictactoe")));
    assert!(lines
        .iter()
        .any(|l| l
            == "option name Searcher type combo default pvs var pvs var alphabeta var minimax var random var mcts"));
    e.send("uci");
    assert_eq!(e.until("uciok", 5 * SEC).last().unwrap(), "uciok");
}

#[test]
fn full_tic_tac_toe_game_between_two_searchers_is_a_draw() {
    // The engine plays both sides, re-stating the whole game each move as a GUI would;
    // x uses pvs with a clock, o uses alpha-beta at depth 9: perfect play draws.
    let mut e = EngineProcess::start();
    e.ask("uginewgame");
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..9 {
        let searcher = if ply % 2 == 0 { "pvs" } else { "alphabeta" };
        assert!(e
            .ask(&format!("setoption name Searcher value {searcher}"))
            .is_empty());
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        assert!(e.ask(&position).is_empty());
        assert_eq!(e.ask("query gameover"), vec!["response false"]);
        let turn = if ply % 2 == 0 { "true" } else { "false" };
        assert_eq!(e.ask("query p1turn"), vec![format!("response {turn}")]);
        e.send("go p1time 5000 p2time 5000 p1inc 100 p2inc 100 depth 9");
        let lines = e.until("bestmove", 10 * SEC);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
        moves.push(bestmove(&lines));
    }
    e.ask(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(e.ask("query gameover"), vec!["response true"]);
    assert_eq!(e.ask("query result"), vec!["response draw"]);
    e.send("go depth 3");
    let lines = e.until("bestmove", 5 * SEC);
    assert_eq!(lines.last().unwrap(), "bestmove none");
}

#[test]
fn stop_during_go_infinite_gives_exactly_one_bestmove_quickly() {
    let mut e = EngineProcess::start();
    e.ask("setoption name Game value mnk m=9 n=9 k=5");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // isready is answered while the search runs.
    e.send("isready");
    let lines = e.until("readyok", 2 * SEC);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    let sent = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove", 2 * SEC);
    let latency = sent.elapsed();
    assert!(
        latency < Duration::from_millis(200),
        "stop took {latency:?}"
    );
    assert_ne!(bestmove(&lines), "none");
    // No second bestmove follows.
    e.send("isready");
    assert_eq!(e.line(2 * SEC), "readyok");
    // A stop while idle is ignored.
    e.send("stop");
    e.send("isready");
    assert_eq!(e.line(2 * SEC), "readyok");
}

#[test]
fn go_movetime_answers_in_time() {
    let mut e = EngineProcess::start();
    e.ask("setoption name Game value mnk m=15 n=15 k=5");
    let sent = Instant::now();
    e.send("go movetime 300");
    let lines = e.until("bestmove", 3 * SEC);
    let took = sent.elapsed();
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_millis(600),
        "{took:?}"
    );
    assert_ne!(bestmove(&lines), "none");
}

#[test]
fn errors_name_what_was_wrong_and_the_engine_stays_alive() {
    let mut e = EngineProcess::start();
    let cases: &[(&str, &str)] = &[
        ("foo bar", "error unknown-command"),
        ("go depth x", "error syntax"),
        ("go movetime", "error syntax"),
        ("position nowhere", "error syntax"),
        ("setoption name Nope value 1", "error unknown-option"),
        ("setoption name Hash value lots", "error bad-value"),
        ("setoption name Hash value 0", "error bad-value"),
        (
            "setoption name Searcher value montecarlo",
            "error bad-value",
        ),
        ("setoption name Game value chess", "error unknown-game"),
        ("setoption name Game value mnk k=9", "error bad-value"),
        ("setoption name Game value mnk q=1", "error bad-value"),
        ("setoption name Heuristic value psychic", "error bad-value"),
        ("position fen 3/3/3 q", "error bad-position"),
        ("position fen 4/3/3 x", "error bad-position"),
        ("position fen xx1/3/3 x", "error bad-position"),
        ("position startpos moves b2 b2", "error illegal-move"),
        ("position startpos moves b2 z9", "error illegal-move"),
        ("position startpos moves b2 2b", "error illegal-move"),
        ("query nothing", "error syntax"),
        ("ponderhit", "error unsupported"),
    ];
    for (line, expected) in cases {
        let replies = e.ask(line);
        assert_eq!(replies.len(), 1, "{line}: {replies:?}");
        assert!(replies[0].starts_with(expected), "{line}: {replies:?}");
        assert!(
            replies[0].len() > expected.len() + 5,
            "{line}: the error must say why: {replies:?}"
        );
    }
    // After a bad move list the engine has no position and refuses to guess one.
    e.ask("position startpos moves a1 a1");
    assert_eq!(e.ask("go depth 2").len(), 1);
    e.ask("position startpos moves a1 a1");
    let replies = e.ask("go depth 2");
    assert!(replies[0].starts_with("error no-position"), "{replies:?}");
    assert!(e.ask("moves")[0].starts_with("error no-position"));
    // A good position brings it back.
    assert!(e.ask("position startpos moves a1").is_empty());
    assert_eq!(e.ask("moves"), vec!["moves b1 c1 a2 b2 c2 a3 b3 c3"]);
}

#[test]
fn commands_during_a_search_are_refused_as_busy() {
    let mut e = EngineProcess::start();
    e.ask("setoption name Game value mnk m=9 n=9 k=5");
    e.send("go infinite");
    for line in [
        "go depth 1",
        "position startpos",
        "setoption name Hash value 1",
        "perft 1",
    ] {
        e.send(line);
        let reply = e.until("error", 2 * SEC).pop().unwrap();
        assert!(reply.starts_with("error busy"), "{line}: {reply}");
    }
    e.send("stop");
    e.until("bestmove", 2 * SEC);
}

#[test]
fn end_of_input_ends_the_engine_cleanly_even_mid_search() {
    let mut e = EngineProcess::start();
    e.ask("setoption name Game value mnk m=9 n=9 k=5");
    e.send("go infinite");
    e.close_stdin();
    let status = e.wait_exit(3 * SEC).expect("agon exits at end of input");
    assert!(status.success());
    let mut e = EngineProcess::start();
    e.send("quit");
    assert!(e.wait_exit(3 * SEC).expect("quit exits").success());
}

#[test]
fn crlf_tabs_blank_lines_and_overlong_lines_are_handled() {
    let mut e = EngineProcess::start();
    e.send_raw(b"\r\n\n  \tisready \r\n");
    assert_eq!(e.line(2 * SEC), "readyok");
    e.send_raw(b"position\tstartpos   moves b2\r\n");
    e.send("query position");
    assert_eq!(e.line(2 * SEC), "response 3/1x1/3 o");
    let long = "x".repeat(100_000);
    e.send(&long);
    let reply = e.line(2 * SEC);
    assert!(reply.starts_with("error syntax line too long"), "{reply}");
    e.send("isready");
    assert_eq!(e.line(2 * SEC), "readyok");
}

#[test]
fn perft_divide_and_board_and_games() {
    let mut e = EngineProcess::start();
    let lines = e.ask("perft 2 divide");
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0], "divide a1 8");
    assert!(
        lines[9].starts_with("perft depth 2 nodes 72 time "),
        "{}",
        lines[9]
    );
    let lines = e.ask("show");
    assert_eq!(lines.last().unwrap(), "showok");
    assert!(lines.iter().any(|l| l.contains("a b c")), "{lines:?}");
    let lines = e.ask("games");
    assert!(lines.iter().any(|l| l.starts_with("game mnk heuristics ")));
    assert_eq!(lines.last().unwrap(), "gamesok");
    assert_eq!(e.ask("query game"), vec!["response mnk m=3 n=3 k=3"]);
}

#[test]
fn position_file_sets_the_start_position() {
    let dir = std::env::temp_dir().join(format!("agon-posfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("board.txt");
    std::fs::write(&path, "# a 4x4 k=3 middle game\nx3/1o2/4/4 x\n").unwrap();
    let mut e = EngineProcess::start_with(&[
        "--game",
        "mnk m=4 n=4 k=3",
        "--position-file",
        path.to_str().unwrap(),
    ]);
    assert_eq!(e.ask("query position"), vec!["response x3/1o2/4/4 x"]);
    e.ask("position startpos moves a1");
    assert_eq!(e.ask("query position"), vec!["response x3/1o2/4/x3 o"]);
    std::fs::write(&path, "x3/1o2/4 x\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "--game",
            "mnk m=4 n=4 k=3",
            "--position-file",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3 rows"), "{err}");
}
#[test]
fn every_example_in_protocol_md_holds() {
    use agon::protocol::examples::{parse_examples, Matcher};
    let text = std::fs::read_to_string("protocol.md").expect("protocol.md");
    let exchanges = parse_examples(&text);
    assert!(
        exchanges.len() >= 20,
        "protocol.md should have many examples"
    );
    for exchange in &exchanges {
        let mut e = EngineProcess::start();
        for step in &exchange.steps {
            if let Some(line) = &step.send {
                e.send(line);
            }
            let mut matcher = Matcher::new(&step.expect);
            while !matcher.is_done() {
                let line = e.try_line(10 * SEC).unwrap_or_else(|| {
                    panic!(
                        "protocol.md:{}: still missing {:?}",
                        step.line,
                        matcher.missing()
                    )
                });
                if let Err(why) = matcher.feed(&line) {
                    panic!("protocol.md:{}: {why}", step.line);
                }
            }
        }
        if exchange
            .steps
            .iter()
            .any(|s| s.send.as_deref() == Some("quit"))
        {
            continue;
        }
        // Nothing unexpected is left over: the next line after a ping is the pong.
        e.send("isready");
        loop {
            let line = e.line(10 * SEC);
            if line == "readyok" {
                break;
            }
            assert!(
                agon::protocol::examples::is_progress(&line),
                "protocol.md:{}: extra line {line:?}",
                exchange.line
            );
        }
    }
}

#[test]
fn clock_searches_budget_their_time() {
    // Gomoku cannot be solved, so the engine spends what its time management allows: a
    // share of the clock, never more than 60% of it, and more with a larger clock.
    let mut e = EngineProcess::start();
    e.ask("setoption name Game value gomoku");
    let mut took = Vec::new();
    for (time, inc) in [(400u64, 0u64), (4000, 0), (400, 200)] {
        e.ask("position startpos moves h8");
        let sent = Instant::now();
        e.send(&format!(
            "go p1time 100000 p2time {time} p1inc 0 p2inc {inc}"
        ));
        let lines = e.until("bestmove", 10 * SEC);
        let t = sent.elapsed();
        assert_ne!(bestmove(&lines), "none");
        assert!(
            t < Duration::from_millis(time * 6 / 10 + 100),
            "{time}+{inc}: took {t:?}"
        );
        took.push(t);
    }
    assert!(
        took[1] > took[0],
        "a 4 s clock should buy more time than 0.4 s: {took:?}"
    );
    assert!(
        took[2] > took[0],
        "an increment should buy more time: {took:?}"
    );
}

#[test]
fn fixed_depth_searchers_use_the_depth_option_under_a_clock() {
    let mut e = EngineProcess::start();
    e.ask("setoption name Searcher value minimax");
    for depth in [2, 3] {
        e.ask(&format!("setoption name Depth value {depth}"));
        e.send("go p1time 10000 p2time 10000");
        let lines = e.until("bestmove", 5 * SEC);
        assert!(
            lines[0].starts_with(&format!("info depth {depth} ")),
            "{lines:?}"
        );
    }
}

/// The most a long command may take to answer `stop`, `isready`, `quit` or the end of
/// input (issue 19). Measured: 0.1 to 8 ms; before, `perft 50` answered none of them.
const PROMPT: Duration = Duration::from_millis(100);

/// Runs `trial` (which returns how long the engine took to answer) up to three times and
/// passes when one answer came within [`PROMPT`]: on a loaded machine (these tests run
/// beside each other and beside other builds) one answer can wait for a core for longer
/// than that, but an engine that does not answer at all fails every trial.
fn prompt_in_one_of_three(what: &str, mut trial: impl FnMut() -> Duration) {
    let mut took = Vec::new();
    for _ in 0..3 {
        let t = trial();
        took.push(t);
        if t < PROMPT {
            return;
        }
    }
    panic!("{what}: no answer within {PROMPT:?} in three trials: {took:?}");
}

/// An engine counting `perft 50` on gomoku (about 10^100 leaves: it never ends alone).
fn endless_perft() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.ask("setoption name Game value gomoku");
    e.send("perft 50");
    // Let the count get going.
    std::thread::sleep(Duration::from_millis(200));
    e
}

#[test]
fn perft_50_answers_isready_stop_quit_and_end_of_input_at_once() {
    // isready: readyok at once, while the count goes on; other commands are refused.
    prompt_in_one_of_three("isready", || {
        let mut e = endless_perft();
        let sent = Instant::now();
        e.send("isready");
        let line = e.line(5 * SEC);
        let took = sent.elapsed();
        assert_eq!(line, "readyok");
        e.send("position startpos");
        assert!(e.line(5 * SEC).starts_with("error busy"));
        took
    });

    // stop: the count ends with what it counted, marked as stopped; then it is idle.
    prompt_in_one_of_three("stop", || {
        let mut e = endless_perft();
        let sent = Instant::now();
        e.send("stop");
        let line = e.line(5 * SEC);
        let took = sent.elapsed();
        assert!(line.starts_with("perft depth 50 stopped nodes "), "{line}");
        let reply: agon::protocol::Reply = line.parse().unwrap();
        match reply {
            agon::protocol::Reply::Perft { stopped, nodes, .. } => {
                assert!(stopped && nodes > 0)
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(e.ask("query game"), vec!["response mnk m=15 n=15 k=5"]);
        took
    });

    // quit: the process is gone at once.
    prompt_in_one_of_three("quit", || {
        let mut e = endless_perft();
        let sent = Instant::now();
        e.send("quit");
        let status = e.wait_exit(5 * SEC).expect("agon exits on quit");
        let took = sent.elapsed();
        assert!(status.success());
        took
    });

    // End of input: the same.
    prompt_in_one_of_three("end of input", || {
        let mut e = endless_perft();
        let sent = Instant::now();
        e.close_stdin();
        let status = e.wait_exit(5 * SEC).expect("agon exits at end of input");
        let took = sent.elapsed();
        assert!(status.success());
        took
    });
}

#[test]
fn perft_divide_lines_come_as_each_move_is_counted_and_stop_keeps_them() {
    // 7x7 k=4, depth 6: about 48 * 47 * 46 * 45 * 44 = 205 million leaves below each of
    // the 49 root moves, a fraction of a second each. A stop after the first line ends
    // the count with the root moves already sent, and their sum as the total.
    let mut e = EngineProcess::start();
    e.ask("setoption name Game value mnk m=7 n=7 k=4");
    e.send("perft 6 divide");
    let first = e.line(60 * SEC);
    assert!(first.starts_with("divide a1 "), "{first}");
    e.send("stop");
    let lines = e.until("perft ", 5 * SEC);
    let last = lines.last().unwrap();
    assert!(last.starts_with("perft depth 6 stopped nodes "), "{last}");
    // The total is the sum of the root moves counted before the stop.
    let counted: u64 = std::iter::once(&first)
        .chain(&lines[..lines.len() - 1])
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert!(
        last.contains(&format!(" nodes {counted} ")),
        "{counted}: {last}"
    );
}

#[test]
fn a_large_hash_is_ready_at_once() {
    // 4 GiB of table: `readyok` took 2.2 s (up to 14 s on a loaded machine) when every
    // entry was written before it; `uginewgame` cleared it entry by entry as long.
    for command in ["setoption name Hash value 4096", "uginewgame"] {
        prompt_in_one_of_three(command, || {
            let mut e = EngineProcess::start();
            e.ask("setoption name Game value gomoku");
            if command == "uginewgame" {
                e.ask("setoption name Hash value 4096");
            }
            let sent = Instant::now();
            e.send(command);
            e.send("isready");
            assert_eq!(e.line(30 * SEC), "readyok");
            let took = sent.elapsed();
            // And the table works.
            e.send("go depth 2");
            assert_ne!(bestmove(&e.until("bestmove", 10 * SEC)), "none");
            took
        });
    }
}

/// The command-line `agon perft` and `agon solve` end at once on Ctrl-C (SIGINT) and
/// SIGTERM.
#[test]
fn command_line_perft_and_solve_end_at_once_on_a_signal() {
    use std::os::unix::process::CommandExt;
    for (args, signal) in [
        (&["--game", "gomoku", "perft", "50"][..], libc::SIGINT),
        (&["--game", "gomoku", "perft", "50"][..], libc::SIGTERM),
        (&["--game", "mnk m=8 n=8 k=5", "solve"][..], libc::SIGINT),
        (&["--game", "mnk m=8 n=8 k=5", "solve"][..], libc::SIGTERM),
    ] {
        prompt_in_one_of_three(&format!("{args:?} signal {signal}"), || {
            let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_agon"));
            command
                .args(args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            // SAFETY: only async-signal-safe calls between fork and exec. The default
            // dispositions, whatever this test inherited (a shell's `&` ignores SIGINT).
            unsafe {
                command.pre_exec(|| {
                    libc::signal(libc::SIGINT, libc::SIG_DFL);
                    libc::signal(libc::SIGTERM, libc::SIG_DFL);
                    Ok(())
                });
            }
            let mut child = command.spawn().unwrap();
            std::thread::sleep(Duration::from_millis(300));
            assert!(child.try_wait().unwrap().is_none(), "{args:?} ended alone");
            let sent = Instant::now();
            // SAFETY: kill(2) on our own child's pid.
            assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
            let status = loop {
                if let Some(status) = child.try_wait().unwrap() {
                    break status;
                }
                assert!(sent.elapsed() < 5 * SEC, "{args:?} ignored signal {signal}");
                std::thread::sleep(Duration::from_millis(2));
            };
            let took = sent.elapsed();
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(status.signal(), Some(signal), "{args:?}");
            took
        });
    }
}

/// Every searcher's `info` has `seldepth >= depth`, also when every line ends the game
/// before the nominal depth (two empty squares, depth 3: before the fix, minimax reported
/// `depth 3 seldepth 1`, and a report showed the mean seldepth below the mean depth).
#[test]
fn seldepth_is_never_below_depth() {
    let mut e = EngineProcess::start();
    e.ask("position startpos moves a1 b1 c1 a2 b2 c2 b3");
    for searcher in ["minimax", "alphabeta", "pvs", "mcts"] {
        e.ask(&format!("setoption name Searcher value {searcher}"));
        e.ask("setoption name Depth value 3");
        e.send("go depth 3");
        let lines = e.until("bestmove", 5 * SEC);
        let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" seldepth ")).collect();
        assert!(!infos.is_empty(), "{searcher}: {lines:?}");
        for line in infos {
            let word = |key: &str| -> u32 {
                let words: Vec<&str> = line.split_whitespace().collect();
                let at = words.iter().position(|w| *w == key).unwrap();
                words[at + 1].parse().unwrap()
            };
            assert!(word("seldepth") >= word("depth"), "{searcher}: {line}");
        }
    }
}

/// Tak's heuristics as `games` lists them, default first, and the network evaluation
/// where it was trained (5x5 and 6x6: its own value) and where it was not (7x7: the
/// fitted evaluation's, which there is `roads`).
#[test]
fn tak_lists_its_heuristics_and_the_network_is_used_where_trained() {
    let mut e = EngineProcess::start();
    let lines = e.ask("games");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("game tak heuristics net,fitted,roads,simple ")),
        "{lines:?}"
    );
    let mut eval = |spec: &str, heuristic: &str| {
        e.send(&format!("setoption name Game value {spec}"));
        e.send(&format!("setoption name Heuristic value {heuristic}"));
        e.send("position startpos moves a1 f6 c3 d4 c4 d3 Cc2 d5");
        let lines = e.ask("eval");
        let line = lines.last().cloned().unwrap_or_default();
        let want = format!(" heuristic {heuristic}");
        assert!(
            line.starts_with("eval cp ") && line.ends_with(&want),
            "{line}"
        );
        line.split_whitespace()
            .nth(2)
            .unwrap()
            .parse::<i32>()
            .unwrap()
    };
    for spec in ["tak size=6 halfkomi=4", "tak size=7 halfkomi=4"] {
        let (fitted, net, roads) = (eval(spec, "fitted"), eval(spec, "net"), eval(spec, "roads"));
        if spec.contains("size=6") {
            assert_ne!(net, fitted, "{spec}: the network adds nothing");
            assert_ne!(fitted, roads, "{spec}");
        } else {
            assert_eq!(net, fitted, "{spec}: no network trained for 7x7");
            assert_eq!(fitted, roads, "{spec}: no fitted weights for 7x7");
        }
    }
}
