//! Random and mutated lines fed to the protocol parser and to a live engine session:
//! nothing panics, and every line is either accepted or answered with exactly one error.

use std::sync::{Arc, Mutex};

use agon::engine::Engine;
use agon::protocol::{Command, Reply};
use proptest::prelude::*;

const SEEDS: &[&str] = &[
    "ugi",
    "isready",
    "uginewgame",
    "position startpos moves b2 a1 c3",
    "position fen 3/1x1/3 o moves a1",
    "position fen wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb w moves a1-b1",
    "go depth 2",
    "go p1time 100 p2time 100 p1inc 0 p2inc 0",
    "go nodes 500 movetime 50",
    "go infinite",
    "stop",
    "setoption name Game value mnk m=4 n=4 k=3",
    "setoption name Game value clobber rows=3 cols=3",
    "setoption name Searcher value alphabeta",
    "setoption name Heuristic value lines",
    "setoption name Hash value 2",
    "query gameover",
    "query result",
    "perft 2 divide",
    "moves",
    "show",
    "eval",
    "games",
];

fn mutate(base: &str, ops: &[(u8, usize, char)]) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for &(op, at, c) in ops {
        let i = if chars.is_empty() {
            0
        } else {
            at % (chars.len() + 1)
        };
        match op % 4 {
            0 => chars.insert(i, c),
            1 if i < chars.len() => {
                chars.remove(i);
            }
            2 if i < chars.len() => chars[i] = c,
            _ => chars.truncate(i),
        }
    }
    chars.into_iter().collect()
}

fn session() -> (Engine, Arc<Mutex<Vec<Reply>>>) {
    let replies = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&replies);
    (
        Engine::new(Arc::new(move |r| sink.lock().unwrap().push(r))),
        replies,
    )
}

fn feed(engine: &mut Engine, replies: &Arc<Mutex<Vec<Reply>>>, line: &str) {
    replies.lock().unwrap().clear();
    let parsed = line.parse::<Command>();
    engine.handle_line(line);
    // Any search the line started is stopped at once; it still answers with bestmove.
    engine.stop_search();
    let got = replies.lock().unwrap().clone();
    let errors = got
        .iter()
        .filter(|r| matches!(r, Reply::Error { .. }))
        .count();
    assert!(errors <= 1, "{line:?} gave {errors} errors: {got:?}");
    match parsed {
        Err(agon::protocol::ParseError::Empty) => assert!(got.is_empty(), "{line:?}: {got:?}"),
        Err(e) => {
            assert_eq!(errors, 1, "{line:?} did not parse ({e}) but got {got:?}");
            assert!(!e.to_string().is_empty());
        }
        Ok(_) => {}
    }
    for reply in &got {
        // Everything the engine says can be read back by a controller.
        let text = reply.to_string();
        assert!(!text.contains('\n'), "{text:?}");
        assert!(text.parse::<Reply>().is_ok(), "unreadable reply {text:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let line = String::from_utf8_lossy(&bytes).replace(['\n', '\r'], " ");
        let _ = line.parse::<Command>();
        let _ = line.parse::<Reply>();
        let (mut engine, replies) = session();
        feed(&mut engine, &replies, &line);
    }

    #[test]
    fn mutated_lines_are_accepted_or_refused_with_one_error(
        picks in proptest::collection::vec((0usize..SEEDS.len(), proptest::collection::vec((any::<u8>(), any::<usize>(), proptest::char::range(' ', '~')), 0..4)), 1..8)
    ) {
        let (mut engine, replies) = session();
        for (seed, ops) in picks {
            let line = mutate(SEEDS[seed], &ops);
            feed(&mut engine, &replies, &line);
        }
    }
}
