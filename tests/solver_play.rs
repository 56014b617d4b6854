//! The game's own solver inside play (issue 21): positions that the solvers prove won in
//! a few milliseconds, where the engine at `go movetime 100` must play a move that keeps
//! the win; and the program that found them.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use agon::game::Game;
use agon::games::clobber::solve::Solver as RegionSolver;
use agon::games::clobber::Clobber;
use agon::games::mnk::solve::{Solver as ThreatSolver, Value};
use agon::games::mnk::Mnk;
use agon::games::GameSpec;
use agon::search::pvs::Pvs;
use agon::search::{Control, Limits, Score, Searcher};
use agon::zobrist::splitmix64;

/// The plain search (no solver inside) to a proof: `Some(true)` when the side to move
/// wins, `Some(false)` when it loses, `None` for a draw or when `limit` passed first.
fn plain_search_proves<G: Game>(pos: &G, limit: Duration) -> Option<bool> {
    let mut searcher = Pvs::<G>::new(G::heuristics()[0].1, 64, Duration::ZERO).with_prover(None);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        movetime: Some(limit),
        ..Limits::default()
    };
    let r = searcher.search(&mut pos.clone(), &limits, &Control::new(&stop), &mut |_| {});
    match Score::from_internal(r.score) {
        Score::Win(_) if r.solved => Some(true),
        Score::Loss(_) if r.solved => Some(false),
        _ => None,
    }
}

/// The engine as main played: the plain search at 100 ms a move.
fn plain_move<G: Game>(pos: &G) -> G::Move {
    let mut searcher = Pvs::<G>::new(G::heuristics()[0].1, 16, Duration::ZERO).with_prover(None);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    searcher
        .search(&mut pos.clone(), &limits, &Control::new(&stop), &mut |_| {})
        .best
        .expect("a move")
}

/// A self-play game's positions: `opening` random plies from the start, then the plain
/// search at depth `depth` for both sides (a random move instead one time in `noise`).
fn self_play<G: Game>(start: &G, seed: u64, opening: u32, depth: u32, noise: u64) -> Vec<G> {
    let mut state = seed;
    let mut pos = start.clone();
    let mut out = Vec::new();
    let mut searcher = Pvs::<G>::new(G::heuristics()[0].1, 16, Duration::ZERO).with_prover(None);
    let stop = AtomicBool::new(false);
    let mut moves = Vec::new();
    for ply in 0.. {
        if pos.outcome().is_some() {
            break;
        }
        out.push(pos.clone());
        moves.clear();
        pos.generate_moves(&mut moves);
        let (next, r) = splitmix64(state);
        state = next;
        let mv = if ply < opening || r % noise == 0 {
            moves[(r >> 8) as usize % moves.len()]
        } else {
            searcher
                .search(
                    &mut pos,
                    &Limits::depth(depth),
                    &Control::new(&stop),
                    &mut |_| {},
                )
                .best
                .expect("a move")
        };
        pos.make_move(mv);
    }
    out
}

/// Finds the positions of `tests/data/solver-wins.txt` (prints them): from self-play
/// games, the positions the game's solver proves won for the side to move within 5 ms
/// (a fresh solver each time) and the plain search proves won within 3 s, where the plain
/// engine at 100 ms a move (main's) plays a move after which the solver proves the
/// opponent wins. Run with `--ignored --nocapture`; it takes minutes.
#[test]
#[ignore]
fn find_positions_the_solvers_prove_won() {
    let games: u64 = std::env::var("AGON_MINE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let stop = AtomicBool::new(false);
    let fast = Duration::from_millis(5);
    // Clobber 5x6.
    let spec = GameSpec::parse("clobber rows=5 cols=6").unwrap();
    collect_proved_wins(
        "clobber rows=5 cols=6",
        &Clobber::start(&spec.settings::<Clobber>()),
        games,
        |pos: &Clobber| {
            let mut solver = RegionSolver::new();
            solver.set_limits(Some(Instant::now() + fast), None);
            solver.solve(pos, &stop).is_ok_and(|s| s.side_to_move_wins)
        },
        |after: &Clobber| RegionSolver::new().side_to_move_wins(after, &stop).ok(),
    );
    // 7x7 four in a row.
    let spec = GameSpec::parse("mnk m=7 n=7 k=4").unwrap();
    collect_proved_wins(
        "mnk m=7 n=7 k=4",
        &Mnk::start(&spec.settings::<Mnk>()),
        games,
        |pos: &Mnk| {
            let mut solver = ThreatSolver::new(pos).unwrap();
            solver.set_limits(Some(Instant::now() + fast), None);
            solver
                .solve(pos, &stop)
                .is_ok_and(|s| s.value == Value::Win)
        },
        |after: &Mnk| {
            let mut check = ThreatSolver::new(after).unwrap();
            check
                .side_to_move_loses(after, &stop)
                .ok()
                .map(|loses| !loses)
        },
    );
}

/// Prints, as lines of `tests/data/solver-wins.txt`, the positions of `games` noisy
/// self-play games from `start` that `proves_won` shows won for the side to move within
/// its time and a plain 3 s search also proves won: every one where main's engine
/// (`plain_move`) throws the win away (`opponent_wins` of the position after its move),
/// and at most two per game in a quarter of the games where it keeps it.
fn collect_proved_wins<G: Game>(
    spec: &str,
    start: &G,
    games: u64,
    proves_won: impl Fn(&G) -> bool,
    opponent_wins: impl Fn(&G) -> Option<bool>,
) {
    let mut found = 0;
    for seed in 0..games {
        let mut kept = 0;
        for pos in self_play(start, seed, 2, 3, 4) {
            let began = Instant::now();
            if !proves_won(&pos) {
                continue;
            }
            let took = began.elapsed();
            let mut after = pos.clone();
            after.make_move(plain_move(&pos));
            if after.outcome().is_some() {
                continue;
            }
            let Some(main_loses_it) = opponent_wins(&after) else {
                continue;
            };
            if !main_loses_it && (seed % 4 != 0 || kept >= 2) {
                continue; // main's engine kept the win: keep a few of these only
            }
            kept += u32::from(!main_loses_it);
            if plain_search_proves(&pos, Duration::from_secs(3)) != Some(true) {
                continue;
            }
            found += 1;
            println!(
                "{spec}|{}|seed {seed}, solver {:.1} ms, main {}",
                pos.format_position(),
                took.as_secs_f64() * 1000.0,
                if main_loses_it {
                    "loses it"
                } else {
                    "keeps it"
                }
            );
        }
    }
    println!("# {spec}: {found} positions from {games} games");
}

/// The positions of `tests/data/solver-wins.txt`: game spec and position.
fn solver_wins() -> Vec<(String, String)> {
    include_str!("data/solver-wins.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut fields = l.split('|');
            let spec = fields.next().unwrap().to_string();
            let position = fields.next().expect("spec|position|note").to_string();
            (spec, position)
        })
        .collect()
}

/// Whether the side to move in `pos` (not finished) is proved lost: by the game's solver
/// (a fresh one), and not contradicted by the plain search where it finishes in time.
fn proved_lost<G: Game>(pos: &G, solver_says_lost: impl Fn(&G) -> bool) -> bool {
    if !solver_says_lost(pos) {
        return false;
    }
    plain_search_proves(pos, Duration::from_secs(1)) != Some(true)
}

/// Issue 21: every position the solvers prove won within a few milliseconds (found by
/// `find_positions_the_solvers_prove_won`, most of them positions where main's engine
/// played a losing move at 100 ms) is kept by the engine at `go movetime 100`: the
/// position after its move is proved lost for the opponent, and the engine reports the
/// win as a win score.
#[test]
fn the_engine_keeps_every_win_its_solvers_prove() {
    let stop = AtomicBool::new(false);
    let positions = solver_wins();
    assert!(positions.len() >= 20, "{} positions", positions.len());
    let mut engines: std::collections::HashMap<String, common::EngineProcess> =
        std::collections::HashMap::new();
    for (spec, position) in &positions {
        let e = engines.entry(spec.clone()).or_insert_with(|| {
            let mut e = common::EngineProcess::start();
            assert!(e
                .ask(&format!("setoption name Game value {spec}"))
                .is_empty());
            e
        });
        // A fresh start for each: nothing proved for an earlier position helps.
        e.ask("uginewgame");
        assert!(e.ask(&format!("position fen {position}")).is_empty());
        e.send("go movetime 100");
        let lines = e.until("bestmove", Duration::from_secs(5));
        let mv = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        let last_info = lines.iter().rev().find(|l| l.starts_with("info depth"));
        assert!(
            last_info.is_some_and(|l| l.contains(" score win ")),
            "{spec} {position}: no win reported: {lines:?}"
        );
        let game = GameSpec::parse(spec).unwrap();
        let kept = match game.name {
            "clobber" => {
                let pos = Clobber::parse_position(&game.settings::<Clobber>(), position).unwrap();
                assert!(RegionSolver::new().side_to_move_wins(&pos, &stop).unwrap());
                let mut after = pos.clone();
                after.make_move(agon::game::find_move_by_text(&pos, mv).unwrap());
                proved_lost(&after, |p: &Clobber| {
                    !RegionSolver::new().side_to_move_wins(p, &stop).unwrap()
                })
            }
            "mnk" => {
                let pos = Mnk::parse_position(&game.settings::<Mnk>(), position).unwrap();
                let mut after = pos.clone();
                after.make_move(agon::game::find_move_by_text(&pos, mv).unwrap());
                after.outcome() == Some(agon::game::Outcome::Win(pos.side_to_move()))
                    || proved_lost(&after, |p: &Mnk| {
                        ThreatSolver::new(p)
                            .unwrap()
                            .side_to_move_loses(p, &stop)
                            .unwrap()
                    })
            }
            other => panic!("no solver for {other}"),
        };
        assert!(kept, "{spec} {position}: {mv} throws the win away");
    }
}

/// A prover that proves nothing but says some root moves lose (as the Clobber solver
/// does when its time runs out part way through the root's moves).
struct Refuting {
    moves: Vec<<Mnk as Game>::Move>,
}

impl agon::prover::Prover<Mnk> for Refuting {
    fn prove_root(
        &mut self,
        _: &Mnk,
        _: Option<<Mnk as Game>::Move>,
        _: &agon::prover::ProofLimits<'_>,
    ) -> Option<agon::prover::Proof<<Mnk as Game>::Move>> {
        None
    }
    fn refuted(&self) -> Vec<<Mnk as Game>::Move> {
        self.moves.clone()
    }
    fn prove_node(
        &mut self,
        _: &Mnk,
        _: &agon::prover::ProofLimits<'_>,
    ) -> Option<agon::prover::Proof<<Mnk as Game>::Move>> {
        None
    }
    fn root_share(&self, _: &Mnk) -> f64 {
        0.1
    }
    fn in_search(&self, _: &Mnk) -> Option<u64> {
        None
    }
    fn max_plies(&self, _: &Mnk) -> u32 {
        9
    }
    fn nodes(&self) -> u64 {
        0
    }
    fn clear(&mut self) {}
}

/// Root moves the prover calls losing are never played, even the search's favourite;
/// when it refutes all but one, that one is played.
#[test]
fn root_moves_the_prover_refuted_are_not_played() {
    let spec = GameSpec::parse("tictactoe").unwrap();
    let start = Mnk::start(&spec.settings::<Mnk>());
    let favourite = plain_move(&start);
    let mut all = Vec::new();
    start.generate_moves(&mut all);
    let cases = [
        vec![favourite],
        all.iter()
            .copied()
            .filter(|&m| m != all[3])
            .collect::<Vec<_>>(),
    ];
    for refuted in cases {
        let mut searcher = Pvs::<Mnk>::new(Mnk::heuristics()[0].1, 16, Duration::ZERO).with_prover(
            Some(Box::new(Refuting {
                moves: refuted.clone(),
            })),
        );
        let stop = AtomicBool::new(false);
        let limits = Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        let best = searcher
            .search(
                &mut start.clone(),
                &limits,
                &Control::new(&stop),
                &mut |_| {},
            )
            .best
            .expect("a move");
        assert!(
            !refuted.contains(&best),
            "played {best:?}, refuted {refuted:?}"
        );
    }
}

/// The Clobber 5x6 book's lines that name a winning move: (the two opening moves, the
/// winning move), read from the file here, apart from the engine's reader.
fn book_wins() -> Vec<([String; 2], String)> {
    let text = std::fs::read_to_string("src/games/clobber/book-5x6.txt").unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && l.contains("| win "))
        .map(|l| {
            let (moves, result) = l.split_once(" | win ").unwrap();
            let moves: Vec<String> = moves.split(' ').map(str::to_string).collect();
            (
                [moves[0].clone(), moves[1].clone()],
                result.trim().to_string(),
            )
        })
        .collect()
}

/// A 5x6 move with the rows reversed (`a1-a2` -> `a5-a4`): the board's colour-keeping
/// mirror, worked out here by hand.
fn mirrored(mv: &str) -> String {
    mv.split('-')
        .map(|sq| {
            let row: u32 = sq[1..].parse().unwrap();
            format!("{}{}", &sq[..1], 6 - row)
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// At `go movetime 100` every position of the book that it proves won, and its mirror
/// image, is answered at once with the book's move (mirrored) and a win score.
#[test]
fn the_engine_plays_the_clobber_book_move() {
    let wins = book_wins();
    assert!(wins.len() >= 20, "{} won positions in the book", wins.len());
    let mut e = common::EngineProcess::start();
    assert!(e
        .ask("setoption name Game value clobber rows=5 cols=6")
        .is_empty());
    for (moves, best) in &wins {
        for mirror in [false, true] {
            let turn = |m: &str| if mirror { mirrored(m) } else { m.to_string() };
            let position = format!(
                "position startpos moves {} {}",
                turn(&moves[0]),
                turn(&moves[1])
            );
            assert!(e.ask(&position).is_empty(), "{position}");
            e.send("go movetime 100");
            let lines = e.until("bestmove", Duration::from_secs(5));
            // An opening on the middle row is its own mirror image: the book's move and
            // its mirror image both win there.
            let symmetric = moves.iter().all(|m| mirrored(m) == *m);
            let played = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
            assert!(
                played == turn(best) || (symmetric && played == best),
                "{position}: {lines:?}"
            );
            assert!(
                lines.iter().any(|l| l.contains(" score win 27 ")),
                "{position}: {lines:?}"
            );
        }
    }
    // A position the book holds as not proved in time (the solver took more than 15 s)
    // is left to the solver and the search: no proof within the move.
    let text = std::fs::read_to_string("src/games/clobber/book-5x6.txt").unwrap();
    let unknown = text.lines().find(|l| l.ends_with("| unknown")).unwrap();
    let moves = unknown.split(" | ").next().unwrap();
    assert!(e
        .ask(&format!("position startpos moves {moves}"))
        .is_empty());
    e.send("go movetime 100");
    let lines = e.until("bestmove", Duration::from_secs(5));
    assert!(
        lines
            .iter()
            .all(|l| !l.contains(" score win ") && !l.contains(" score loss ")),
        "{moves}: {lines:?}"
    );
}

/// The book's moves win: for two of its positions, chosen because they prove fast, and
/// their mirror images, a fresh region solver proves the position after the book's move
/// lost for Black.
#[test]
fn clobber_book_moves_keep_the_win() {
    let stop = AtomicBool::new(false);
    let spec = GameSpec::parse("clobber rows=5 cols=6").unwrap();
    let start = Clobber::start(&spec.settings::<Clobber>());
    let wins = book_wins();
    for opening in [["e3-d3", "d1-c1"], ["c3-c2", "f3-f4"]] {
        let (_, best) = wins
            .iter()
            .find(|(m, _)| m[0] == opening[0] && m[1] == opening[1])
            .unwrap_or_else(|| panic!("{opening:?} is not a won position of the book"));
        for mirror in [false, true] {
            let turn = |m: &str| if mirror { mirrored(m) } else { m.to_string() };
            let mut pos = start.clone();
            for mv in [opening[0], opening[1], best.as_str()] {
                let mv = agon::game::find_move_by_text(&pos, &turn(mv)).unwrap();
                pos.make_move(mv);
            }
            assert!(
                !RegionSolver::new().side_to_move_wins(&pos, &stop).unwrap(),
                "{opening:?} {best} (mirrored: {mirror}) leaves Black a win"
            );
        }
    }
}

/// `scripts/clobber-book.py`: it appends proved lines and goes on where it stopped,
/// proves an `unknown` line again in its place with `--retry-unknown`, and refuses a
/// book with a line it cannot read, naming the line.
#[test]
fn the_book_script_resumes_retries_and_refuses_bad_books() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("agon-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/clobber-book.py");
    let run = |extra: &[&str]| {
        let out = Command::new("python3")
            .args([script, "--agon", env!("CARGO_BIN_EXE_agon"), "--jobs", "1"])
            .args(["--out", book.to_str().unwrap()])
            .args(extra)
            .output()
            .expect("python3");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), err)
    };
    let entries = || -> Vec<String> {
        std::fs::read_to_string(&book)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let well_formed = |line: &str| {
        let (moves, result) = line.split_once(" | ").unwrap();
        moves.split(' ').count() == 2
            && (result == "loss"
                || result == "unknown"
                || result.strip_prefix("win ").is_some_and(|m| m.len() == 5))
    };
    let (code, err) = run(&["--limit", "2", "--movetime", "200"]);
    assert_eq!(code, Some(0), "{err}");
    let first = entries();
    assert_eq!(first.len(), 2, "{first:?}");
    assert!(first.iter().all(|l| well_formed(l)), "{first:?}");
    let (code, err) = run(&["--limit", "1", "--movetime", "200"]);
    assert_eq!(code, Some(0), "{err}");
    let second = entries();
    assert_eq!(second.len(), 3, "{second:?}");
    assert_eq!(second[..2], first[..], "earlier lines kept");
    let opening = |l: &String| l.split(" | ").next().unwrap().to_string();
    assert!(!first.iter().any(|l| opening(l) == opening(&second[2])));

    // A book where every position but one is done: the retry proves that one (it takes
    // about a second) and writes its result in place of its line.
    let mut text = String::from("# header\n");
    let all = Command::new("python3")
        .args(["-c", "import os, sys, importlib.util as u; sys.path.insert(0, os.path.dirname(sys.argv[1])); s = u.spec_from_file_location('b', sys.argv[1]); m = u.module_from_spec(s); s.loader.exec_module(m); print('\\n'.join(m.openings(sys.argv[2])))"])
        .args([script, env!("CARGO_BIN_EXE_agon")])
        .output()
        .unwrap();
    let all = String::from_utf8(all.stdout).unwrap();
    assert_eq!(
        all.lines().count(),
        1064,
        "two-ply openings up to the mirror"
    );
    for line in all.lines() {
        let result = if line == "e3-d3 d1-c1" {
            "unknown"
        } else {
            "loss"
        };
        text.push_str(&format!("{line} | {result}\n"));
    }
    std::fs::write(&book, &text).unwrap();
    let at = entries()
        .iter()
        .position(|l| l == "e3-d3 d1-c1 | unknown")
        .unwrap();
    let (code, err) = run(&["--retry-unknown", "--movetime", "20000"]);
    assert_eq!(code, Some(0), "{err}");
    let after = entries();
    assert_eq!(after.len(), 1064);
    assert!(after[at].starts_with("e3-d3 d1-c1 | win "), "{}", after[at]);
    assert!(well_formed(&after[at]));

    std::fs::write(&book, "# header\na1-a2 b1-b2 loss\n").unwrap();
    let (code, err) = run(&["--limit", "1"]);
    assert_eq!(code, Some(1));
    assert!(err.contains(":2: not a book line"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tic-tac-toe's value for the side to move (1 won, 0 drawn, -1 lost), by a plain
/// negamax over the whole tree, remembered by hash.
fn brute_value(pos: &mut Mnk, memo: &mut std::collections::HashMap<u64, i8>) -> i8 {
    if let Some(outcome) = pos.outcome() {
        return match outcome {
            agon::game::Outcome::Draw => 0,
            agon::game::Outcome::Win(side) if side == pos.side_to_move() => 1,
            agon::game::Outcome::Win(_) => -1,
        };
    }
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut best = -1;
    for mv in moves {
        pos.make_move(mv);
        best = best.max(-brute_value(pos, memo));
        pos.unmake_move(mv, ());
    }
    memo.insert(pos.hash(), best);
    best
}

/// A prover that knows tic-tac-toe by brute force and ranks defences.
struct Brute {
    memo: std::collections::HashMap<u64, i8>,
}

impl Brute {
    fn proof(&mut self, pos: &Mnk) -> agon::prover::Proof<<Mnk as Game>::Move> {
        use agon::prover::Proof;
        let mut work = pos.clone();
        match brute_value(&mut work, &mut self.memo) {
            1 => {
                let mut moves = Vec::new();
                work.generate_moves(&mut moves);
                let mv = moves.into_iter().find(|&mv| {
                    work.make_move(mv);
                    let lost = brute_value(&mut work, &mut self.memo) == -1;
                    work.unmake_move(mv, ());
                    lost
                });
                Proof::Win { mv, plies: None }
            }
            0 => Proof::Draw,
            _ => Proof::Loss { plies: None },
        }
    }
}

impl agon::prover::Prover<Mnk> for Brute {
    fn prove_root(
        &mut self,
        pos: &Mnk,
        _: Option<<Mnk as Game>::Move>,
        _: &agon::prover::ProofLimits<'_>,
    ) -> Option<agon::prover::Proof<<Mnk as Game>::Move>> {
        Some(self.proof(pos))
    }
    fn prove_node(
        &mut self,
        pos: &Mnk,
        _: &agon::prover::ProofLimits<'_>,
    ) -> Option<agon::prover::Proof<<Mnk as Game>::Move>> {
        Some(self.proof(pos))
    }
    fn ranks_defences(&self, _: &Mnk) -> bool {
        true
    }
    fn root_share(&self, _: &Mnk) -> f64 {
        0.5
    }
    fn in_search(&self, _: &Mnk) -> Option<u64> {
        None
    }
    fn max_plies(&self, pos: &Mnk) -> u32 {
        pos.empty_squares() as u32
    }
    fn nodes(&self) -> u64 {
        0
    }
    fn clear(&mut self) {}
}

/// For each move of `pos`, how many of the opponent's replies win (counted by brute
/// force, apart from the engine).
fn winning_replies(
    pos: &Mnk,
    memo: &mut std::collections::HashMap<u64, i8>,
) -> Vec<(usize, <Mnk as Game>::Move)> {
    let mut work = pos.clone();
    let mut moves = Vec::new();
    work.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            work.make_move(mv);
            let mut replies = Vec::new();
            if work.outcome().is_none() {
                work.generate_moves(&mut replies);
            }
            let count = replies
                .into_iter()
                .filter(|&reply| {
                    work.make_move(reply);
                    let lost = brute_value(&mut work, memo) == -1;
                    work.unmake_move(reply, ());
                    lost
                })
                .count();
            work.unmake_move(mv, ());
            (count, mv)
        })
        .collect()
}

/// At a root the prover proves lost, the engine plays a defence that leaves the opponent
/// the fewest winning replies: in every tic-tac-toe position lost for the side to move
/// (reached from the start), against a brute-force count. In some of them the plain
/// search would have played a defence that leaves more.
#[test]
fn a_lost_root_is_defended_with_the_fewest_winning_replies() {
    let spec = GameSpec::parse("tictactoe").unwrap();
    let start = Mnk::start(&spec.settings::<Mnk>());
    let mut memo = std::collections::HashMap::new();
    // Every position reached from the start, by hash.
    let mut seen = std::collections::HashSet::new();
    let mut frontier = vec![start];
    let mut lost = Vec::new();
    while let Some(mut pos) = frontier.pop() {
        if !seen.insert(pos.hash()) || pos.outcome().is_some() {
            continue;
        }
        if brute_value(&mut pos, &mut memo) == -1 {
            lost.push(pos.clone());
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            let mut next = pos.clone();
            next.make_move(mv);
            frontier.push(next);
        }
    }
    assert!(lost.len() > 50, "{} lost positions", lost.len());
    let stop = AtomicBool::new(false);
    let limits = Limits {
        movetime: Some(Duration::from_millis(1000)),
        ..Limits::default()
    };
    let mut plain_worse = 0;
    for pos in &lost {
        let counts = winning_replies(pos, &mut memo);
        let fewest = counts.iter().map(|&(c, _)| c).min().unwrap();
        let count_of = |mv| counts.iter().find(|&&(_, m)| m == mv).unwrap().0;
        let mut searcher = Pvs::<Mnk>::new(Mnk::heuristics()[0].1, 16, Duration::ZERO).with_prover(
            Some(Box::new(Brute {
                memo: std::collections::HashMap::new(),
            })),
        );
        let result = searcher.search(&mut pos.clone(), &limits, &Control::new(&stop), &mut |_| {});
        let best = result.best.expect("a move");
        assert_eq!(
            count_of(best),
            fewest,
            "{}: played {best:?}, counts {counts:?}",
            pos.format_position()
        );
        assert!(
            result.score < 0,
            "{}: a lost root scored {}",
            pos.format_position(),
            result.score
        );
        plain_worse += usize::from(count_of(plain_move(pos)) > fewest);
    }
    assert!(
        plain_worse > 0,
        "the plain search already defends best in every position"
    );
}

/// The same in Clobber, against the region solver's own counts: a 5x6 position from a
/// game agon lost to OpenSpiel's MCTS (stop 34, seed 342, game 13, ply 8: Black to move,
/// 23 stones, proved lost). The engine then played c2-d2, which leaves White 5 winning
/// replies; one defence leaves 1.
#[test]
fn a_lost_clobber_root_is_defended_with_the_fewest_winning_replies() {
    let spec = GameSpec::parse("clobber rows=5 cols=6").unwrap();
    let position = "w1wbwb/bbbww1/w2w1b/bwbw1w/w1wbbb b";
    let pos = Clobber::parse_position(&spec.settings::<Clobber>(), position).unwrap();
    let stop = AtomicBool::new(false);
    let mut solver = RegionSolver::new();
    assert!(
        !solver.side_to_move_wins(&pos, &stop).unwrap(),
        "{position} is lost for Black"
    );
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut counts: Vec<(usize, String)> = Vec::new();
    for &mv in &moves {
        let mut after = pos.clone();
        after.make_move(mv);
        let mut replies = Vec::new();
        after.generate_moves(&mut replies);
        let mut count = 0;
        for &reply in &replies {
            let mut next = after.clone();
            next.make_move(reply);
            count += usize::from(!solver.side_to_move_wins(&next, &stop).unwrap());
        }
        counts.push((count, pos.format_move(mv)));
    }
    let fewest = counts.iter().map(|(c, _)| *c).min().unwrap();
    let count_of = |mv: &str| counts.iter().find(|(_, m)| m == mv).unwrap().0;
    assert_eq!(fewest, 1, "{counts:?}");
    assert_eq!(count_of("c2-d2"), 5, "{counts:?}");

    let mut e = common::EngineProcess::start();
    assert!(e
        .ask(&format!("setoption name Game value {spec}"))
        .is_empty());
    assert!(e.ask(&format!("position fen {position}")).is_empty());
    e.send("go movetime 1000");
    let lines = e.until("bestmove", Duration::from_secs(5));
    let mv = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    let last_info = lines.iter().rev().find(|l| l.starts_with("info depth"));
    assert!(
        last_info.is_some_and(|l| l.contains(" score loss ")),
        "no loss reported: {lines:?}"
    );
    assert_eq!(count_of(mv), fewest, "played {mv}: {counts:?}");
}
