//! The `mcts` searcher: hand-worked tactics (take a win, block a loss), proven results,
//! legal moves in every game, reproducibility from the seed, and its protocol options.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use agon::game::Game;
use agon::games::clobber::Clobber;
use agon::games::halma::Halma;
use agon::games::mnk::{Mnk, MnkSettings};
use agon::games::tak::Tak;
use agon::games::GameSpec;
use agon::search::{new_searcher, Control, Limits, Score, SearchOptions, SearcherKind};

fn mcts<G: Game>(pos: &G, iterations: u64, seed: u64, playout: u32) -> (String, i32, bool) {
    let mut searcher = new_searcher::<G>(
        SearcherKind::Mcts,
        &SearchOptions {
            heuristic: G::heuristics()[0].1,
            ordering: true,
            hash_mb: 1,
            default_depth: 4,
            move_overhead: Duration::ZERO,
            seed,
            playout,
            threads: 1,
        },
    );
    let stop = AtomicBool::new(false);
    let mut p = pos.clone();
    let r = searcher.search(
        &mut p,
        &Limits {
            nodes: Some(iterations),
            ..Limits::default()
        },
        &Control::new(&stop),
        &mut |_| {},
    );
    assert_eq!(
        p.format_position(),
        pos.format_position(),
        "position restored"
    );
    let best = r.best.expect("a move");
    (pos.format_move(best), r.score, r.solved)
}

fn tictactoe(position: &str) -> Mnk {
    Mnk::parse_position(&MnkSettings::new(3, 3, 3), position).unwrap()
}

#[test]
fn takes_a_win_and_proves_it() {
    // X completes the top row at c3.
    for playout in [0, 8] {
        let (mv, score, solved) = mcts(&tictactoe("xx1/oo1/3 x"), 2000, 1, playout);
        assert_eq!(mv, "c3");
        assert!(solved, "a win in one is proved");
        assert!(
            matches!(Score::from_internal(score), Score::Win(_)),
            "{score}"
        );
    }
}

#[test]
fn blocks_the_only_threat() {
    // O threatens a3-b3-c3 at c3; X (b2, a1) has no win of its own: c3 is the only move
    // that does not lose at once.
    for seed in 1..=5 {
        let (mv, _, _) = mcts(&tictactoe("oo1/1x1/x2 x"), 5000, seed, 8);
        assert_eq!(mv, "c3", "seed {seed}");
    }
}

#[test]
fn a_lost_position_is_proved_lost() {
    // X (b2 c2 b1) to move; O (a3 b3 a2) threatens c3 and a1: every X move loses.
    let (_, score, solved) = mcts(&tictactoe("oo1/oxx/1x1 x"), 20_000, 3, 8);
    assert!(solved);
    assert!(
        matches!(Score::from_internal(score), Score::Loss(_)),
        "{score}"
    );
}

#[test]
fn the_seed_reproduces_the_search() {
    let pos = Clobber::start(
        &GameSpec::parse("clobber rows=5 cols=6")
            .unwrap()
            .settings::<Clobber>(),
    );
    let a = mcts(&pos, 3000, 42, 8);
    let b = mcts(&pos, 3000, 42, 8);
    assert_eq!(a, b);
}

/// Random positions of every game: the move is legal.
#[test]
fn moves_are_legal_in_every_game() {
    fn check<G: Game>(spec: &str, plies: usize) {
        let settings = GameSpec::parse(spec).unwrap().settings::<G>();
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        for game in 0..6 {
            let mut pos = G::start(&settings);
            let mut moves = Vec::new();
            for _ in 0..(plies * game / 5) {
                moves.clear();
                pos.generate_moves(&mut moves);
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = moves[(rng >> 33) as usize % moves.len()];
                pos.make_move(mv);
            }
            if pos.outcome().is_some() {
                continue;
            }
            let (mv, _, _) = mcts(&pos, 500, game as u64, 8);
            moves.clear();
            pos.generate_moves(&mut moves);
            assert!(
                moves.iter().any(|&m| pos.format_move(m) == mv),
                "{spec} {}: {mv} is not legal",
                pos.format_position()
            );
        }
    }
    check::<Mnk>("mnk m=7 n=7 k=5", 20);
    check::<Clobber>("clobber rows=5 cols=6", 12);
    check::<Halma>("halma size=8", 40);
    check::<Tak>("tak size=5", 20);
}

#[test]
fn protocol_selects_mcts_and_checks_playout() {
    let mut engine = common::EngineProcess::start();
    engine.send("setoption name Searcher value mcts");
    engine.send("setoption name Playout value 0");
    engine.send("position fen xx1/oo1/3 x");
    engine.send("go nodes 1000");
    let lines = engine.until("bestmove", Duration::from_secs(10));
    assert_eq!(lines.last().unwrap(), "bestmove c3", "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info ") && l.contains("score win")),
        "{lines:?}"
    );
    engine.send("setoption name Playout value 1001");
    engine.send("isready");
    let lines = engine.until("readyok", Duration::from_secs(5));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error") && l.contains("Playout")),
        "{lines:?}"
    );
}

#[test]
fn protocol_threads_option() {
    let mut engine = common::EngineProcess::start();
    engine.send("setoption name Game value clobber rows=4 cols=5");
    engine.send("setoption name Threads value 2");
    engine.send("position startpos");
    engine.send("go movetime 200");
    let lines = engine.until("bestmove", Duration::from_secs(10));
    let best = lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    engine.send("moves");
    let moves = engine.until("moves", Duration::from_secs(5));
    assert!(
        moves.last().unwrap().split_whitespace().any(|m| m == best),
        "{best} {moves:?}"
    );
    engine.send("setoption name Threads value 65");
    engine.send("isready");
    let lines = engine.until("readyok", Duration::from_secs(5));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error") && l.contains("Threads")),
        "{lines:?}"
    );
}
