//! Search tests: the three searchers agree at fixed depth; tic-tac-toe is solved right
//! against an independent solver written here; shortest wins are chosen.

mod common;

use std::sync::atomic::AtomicBool;

use agon::game::{Game, Outcome, Side};
use agon::games::clobber::Clobber;
use agon::games::halma::Halma;
use agon::games::mnk::{Mnk, MnkSettings};
use agon::games::GameSpec;
use agon::search::pvs::Pvs;
use agon::search::{
    new_searcher, Control, Limits, Score, SearchOptions, Searcher, SearcherKind, WIN,
};
use agon::zobrist::splitmix64;

fn options<G: Game>(ordering: bool) -> SearchOptions<G::Heuristic> {
    SearchOptions {
        heuristic: G::heuristics()[0].1,
        ordering,
        hash_mb: 4,
        default_depth: 3,
        move_overhead: std::time::Duration::ZERO,
        seed: 0,
        playout: agon::search::DEFAULT_PLAYOUT,
        threads: 1,
    }
}

fn search<G: Game>(
    kind: SearcherKind,
    ordering: bool,
    pos: &G,
    limits: &Limits,
) -> agon::search::SearchResult<G::Move> {
    let mut searcher = new_searcher::<G>(kind, &options::<G>(ordering));
    let stop = AtomicBool::new(false);
    let mut pos = pos.clone();
    let before = pos.hash();
    let result = searcher.search(&mut pos, limits, &Control::new(&stop), &mut |_| {});
    assert_eq!(pos.hash(), before, "search must restore the position");
    result
}

/// Random positions reached by `plies` random moves from the start (skipping finished ones).
fn random_positions<G: Game>(start: &G, count: usize, max_plies: u64, seed: u64) -> Vec<G> {
    let mut state = seed;
    let mut out = Vec::new();
    while out.len() < count {
        let (s, r) = splitmix64(state);
        state = s;
        let pos = common::random_walk(start, r % (max_plies + 1), &mut state);
        if pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

/// `pvs` without the game's proofs without search (`Game::forced`), which would let it
/// see further than the plain searchers at the same depth.
fn pvs_plain<G: Game>(pos: &G, limits: &Limits) -> agon::search::SearchResult<G::Move> {
    let o = options::<G>(true);
    let mut searcher = Pvs::<G>::new(o.heuristic, o.hash_mb, o.move_overhead).without_forced();
    let stop = AtomicBool::new(false);
    searcher.search(&mut pos.clone(), limits, &Control::new(&stop), &mut |_| {})
}

fn searchers_agree<G: Game>(positions: &[G], depths: &[u32]) {
    for pos in positions {
        for &depth in depths {
            let limits = Limits::depth(depth);
            let reference = search(SearcherKind::Minimax, false, pos, &limits).score;
            for (kind, ordering) in [
                (SearcherKind::AlphaBeta, false),
                (SearcherKind::AlphaBeta, true),
            ] {
                let got = search(kind, ordering, pos, &limits).score;
                assert_eq!(
                    got,
                    reference,
                    "{} (ordering {ordering}) disagrees with minimax at depth {depth} on {}",
                    kind.name(),
                    pos.format_position()
                );
            }
            assert_eq!(
                pvs_plain(pos, &limits).score,
                reference,
                "pvs without forced results disagrees with minimax at depth {depth} on {}",
                pos.format_position()
            );
            forced_results_are_sound(pos, depth, reference);
        }
    }
}

/// The default `pvs`, which takes the game's proofs without search: every win or loss it
/// reports is one minimax confirms at that distance, and every win or loss minimax finds
/// at this depth it finds too, at the same distance.
fn forced_results_are_sound<G: Game>(pos: &G, depth: u32, reference: i32) {
    let reference = Score::from_internal(reference);
    let got =
        Score::from_internal(search(SearcherKind::Pvs, true, pos, &Limits::depth(depth)).score);
    let here = pos.format_position();
    match got {
        Score::Win(plies) | Score::Loss(plies) => {
            let confirm = Score::from_internal(
                search(SearcherKind::Minimax, false, pos, &Limits::depth(plies)).score,
            );
            assert_eq!(
                got, confirm,
                "pvs at depth {depth} on {here}: minimax at depth {plies} says otherwise"
            );
        }
        Score::Cp(_) => assert!(
            !matches!(reference, Score::Win(_) | Score::Loss(_)),
            "pvs at depth {depth} on {here} says {got:?}, minimax proves {reference:?}"
        ),
    }
    if matches!(reference, Score::Win(_) | Score::Loss(_)) {
        assert_eq!(got, reference, "pvs at depth {depth} on {here}");
    }
}

#[test]
fn searchers_agree_on_mnk() {
    for (m, n, k, plies, depths) in [
        (3, 3, 3, 6, &[1, 2, 3, 4, 9][..]),
        (4, 4, 3, 8, &[1, 2, 3, 4][..]),
        (5, 5, 4, 10, &[1, 2, 3][..]),
        (4, 3, 3, 6, &[2, 3, 5][..]),
    ] {
        let start = Mnk::start(&MnkSettings::new(m, n, k));
        let positions = random_positions(&start, 25, plies, 0xA60 + m as u64);
        searchers_agree(&positions, depths);
    }
}

#[test]
fn searchers_agree_on_clobber() {
    for (rows, cols, plies, depths) in [
        (5, 6, 12, &[1, 2, 3, 4][..]),
        (6, 5, 6, &[1, 2, 3][..]),
        (4, 4, 4, &[1, 2, 3, 5][..]),
        (8, 8, 20, &[1, 2, 3][..]),
    ] {
        let spec = GameSpec::parse(&format!("clobber rows={rows} cols={cols}")).unwrap();
        let start = Clobber::start(&spec.settings::<Clobber>());
        let positions = random_positions(&start, 12, plies, 0xC10 + rows as u64);
        searchers_agree(&positions, depths);
    }
}

// ---- An independent tic-tac-toe solver (plain arrays, no engine code) ----

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn winner(b: &[u8; 9]) -> u8 {
    for l in LINES {
        if b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]] {
            return b[l[0]];
        }
    }
    0
}

/// Value for the side to move (`to_move` is 1 or 2): 1 win, 0 draw, -1 loss.
fn solve(b: &mut [u8; 9], to_move: u8, memo: &mut std::collections::HashMap<[u8; 9], i32>) -> i32 {
    if let Some(&v) = memo.get(b) {
        return v;
    }
    let w = winner(b);
    let v = if w != 0 {
        if w == to_move {
            1
        } else {
            -1
        }
    } else if b.iter().all(|&c| c != 0) {
        0
    } else {
        let mut best = -2;
        for i in 0..9 {
            if b[i] == 0 {
                b[i] = to_move;
                best = best.max(-solve(b, 3 - to_move, memo));
                b[i] = 0;
            }
        }
        best
    };
    memo.insert(*b, v);
    v
}

fn to_array(pos: &Mnk) -> [u8; 9] {
    let mut b = [0u8; 9];
    for (i, cell) in b.iter_mut().enumerate() {
        *cell = match pos.stone(i) {
            Some(Side::First) => 1,
            Some(Side::Second) => 2,
            None => 0,
        };
    }
    b
}

fn reachable(pos: &mut Mnk, seen: &mut std::collections::HashSet<String>, out: &mut Vec<Mnk>) {
    if !seen.insert(pos.format_position()) {
        return;
    }
    out.push(pos.clone());
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for mv in moves {
        pos.make_move(mv);
        reachable(pos, seen, out);
        pos.unmake_move(mv, ());
    }
}

#[test]
fn tic_tac_toe_has_5478_reachable_positions() {
    // Published count (including the empty board): see research/rules.md section 3.
    let mut seen = std::collections::HashSet::new();
    let mut all = Vec::new();
    reachable(
        &mut Mnk::start(&MnkSettings::new(3, 3, 3)),
        &mut seen,
        &mut all,
    );
    assert_eq!(all.len(), 5478);
    // The hash does not tell mirror images apart: 765 "essentially different positions"
    // once rotations and reflections are taken into account (Wikipedia, "Tic-tac-toe",
    // Combinatorics).
    let classes: std::collections::HashSet<u64> = all.iter().map(|p| p.hash()).collect();
    assert_eq!(classes.len(), 765);
}

#[test]
fn tic_tac_toe_empty_board_is_a_proven_draw() {
    let start = Mnk::start(&MnkSettings::new(3, 3, 3));
    for kind in [
        SearcherKind::Minimax,
        SearcherKind::AlphaBeta,
        SearcherKind::Pvs,
    ] {
        let r = search(kind, true, &start, &Limits::depth(9));
        assert_eq!(r.score, 0, "{}", kind.name());
    }
    // Unlimited pvs stops by itself once the tree has no horizon left.
    let r = search(SearcherKind::Pvs, true, &start, &Limits::default());
    assert_eq!(r.score, 0);
    assert!(r.depth <= 9, "solved by depth 9, went to {}", r.depth);
}

#[test]
fn pvs_never_loses_tic_tac_toe_from_any_reachable_position() {
    let mut seen = std::collections::HashSet::new();
    let mut all = Vec::new();
    reachable(
        &mut Mnk::start(&MnkSettings::new(3, 3, 3)),
        &mut seen,
        &mut all,
    );
    let mut memo = std::collections::HashMap::new();
    let mut checked = 0;
    for pos in all.iter().filter(|p| p.outcome().is_none()) {
        let to_move = if pos.side_to_move() == Side::First {
            1
        } else {
            2
        };
        let value = solve(&mut to_array(pos), to_move, &mut memo);
        let r = search(SearcherKind::Pvs, true, pos, &Limits::default());
        let mv = r.best.expect("a move");
        let mut child = pos.clone();
        child.make_move(mv);
        let child_value = -solve(&mut to_array(&child), 3 - to_move, &mut memo);
        assert_eq!(
            child_value,
            value,
            "{} played {} and dropped from {value}",
            pos.format_position(),
            pos.format_move(mv)
        );
        // The reported score agrees with the independent value.
        let expected = match Score::from_internal(r.score) {
            Score::Win(_) => 1,
            Score::Loss(_) => -1,
            Score::Cp(0) => 0,
            Score::Cp(other) => panic!("unsolved score {other} on {}", pos.format_position()),
        };
        assert_eq!(expected, value, "{}", pos.format_position());
        checked += 1;
    }
    assert_eq!(
        checked, 4520,
        "non-terminal reachable positions (5478 minus 958 terminal)"
    );
}

#[test]
fn four_by_four_k4_is_a_proven_draw() {
    let start = Mnk::start(&MnkSettings::new(4, 4, 4));
    let mut searcher = new_searcher::<Mnk>(
        SearcherKind::Pvs,
        &SearchOptions {
            hash_mb: 64,
            ..options::<Mnk>(true)
        },
    );
    let stop = AtomicBool::new(false);
    let mut pos = start.clone();
    let r = searcher.search(
        &mut pos,
        &Limits::default(),
        &Control::new(&stop),
        &mut |_| {},
    );
    assert_eq!(r.score, 0);
    assert!(r.depth <= 16);
}

#[test]
fn searchers_agree_on_halma() {
    let spec = GameSpec::parse("halma size=8").unwrap();
    let start = Halma::start(&spec.settings::<Halma>());
    searchers_agree(&random_positions(&start, 4, 40, 7), &[1, 2, 3]);
}

#[test]
fn shortest_win_is_chosen() {
    let s = MnkSettings::new(3, 3, 3);
    // x: a1 b1 a2; o: b3 c3 c2. x to move wins at once on c1 (row) or a3 (column); b2 would
    // also win, later (it makes two threats), and must not be preferred.
    let pos = Mnk::parse_position(&s, "1oo/x1o/xx1 x").unwrap();
    let r = search(SearcherKind::Pvs, true, &pos, &Limits::default());
    assert_eq!(r.score, WIN - 1);
    let mv = pos.format_move(r.best.unwrap());
    assert!(mv == "c1" || mv == "a3", "played {mv}");
    let mut after = pos.clone();
    after.make_move(r.best.unwrap());
    assert_eq!(after.outcome(), Some(Outcome::Win(Side::First)));
}

/// Lazy SMP (`Threads` 2): the same proved values as one thread, legal moves, and all
/// threads' nodes counted.
#[test]
fn lazy_smp_proves_what_one_thread_proves() {
    let stop = AtomicBool::new(false);
    let run = |pos: &Mnk, threads: usize| {
        let mut searcher = new_searcher::<Mnk>(
            SearcherKind::Pvs,
            &SearchOptions {
                threads,
                hash_mb: 16,
                ..options::<Mnk>(true)
            },
        );
        let mut p = pos.clone();
        let r = searcher.search(
            &mut p,
            &Limits::default(),
            &Control::new(&stop),
            &mut |_| {},
        );
        assert_eq!(p, *pos, "position restored");
        r
    };
    // The empty 4x4 four-in-a-row board is a draw.
    let empty = Mnk::start(&MnkSettings::new(4, 4, 4));
    for threads in [1, 2, 3] {
        let r = run(&empty, threads);
        assert!(r.solved, "threads {threads}");
        assert_eq!(
            Score::from_internal(r.score),
            Score::Cp(0),
            "threads {threads}"
        );
    }
    // X completes the top row at once: a win in one ply, found by every thread count.
    let settings = MnkSettings::new(3, 3, 3);
    let pos = Mnk::parse_position(&settings, "xx1/oo1/3 x").unwrap();
    let r = run(&pos, 2);
    assert_eq!(pos.format_move(r.best.unwrap()), "c3");
    assert_eq!(Score::from_internal(r.score), Score::Win(1));
}

/// Hand-worked positions where forced results decide every reply: `pvs` at depth 1
/// reports the proven value (minimax needs the full distance, and agrees); where two
/// threats share their square, nothing is proved.
#[test]
fn forced_results_at_the_root() {
    let five = MnkSettings::new(5, 5, 4);
    let pvs_at_1 = |text: &str| {
        let pos = Mnk::parse_position(&five, text).unwrap();
        let got =
            Score::from_internal(search(SearcherKind::Pvs, true, &pos, &Limits::depth(1)).score);
        let plain = search(SearcherKind::Minimax, false, &pos, &Limits::depth(1)).score;
        forced_results_are_sound(&pos, 1, plain);
        got
    };
    // An open three of x: o loses in two plies (minimax needs depth 2 to see it).
    assert_eq!(pvs_at_1("5/5/5/oo3/1xxx1 o"), Score::Loss(2));
    // x to move with a three: wins next ply.
    assert_eq!(
        pvs_at_1("5/5/5/oo3/1xxx1 x".replace("oo3", "ooo2").as_str()),
        Score::Win(1)
    );
    // Row and column threats on the same square a1: o blocks both, nothing is proved.
    assert!(matches!(pvs_at_1("o1o2/x4/x1o1o/x4/1xxxo o"), Score::Cp(_)));
}
