//! Halma unit tests: the win rules, the camp rule, the move limit, repetition, the
//! board edge at p16 and the heuristics.

use super::*;
use crate::games::GameSpec;

fn pos(spec: &str, fen: &str) -> Halma {
    let s = GameSpec::parse(spec).unwrap().settings::<Halma>();
    Halma::parse_position(&s, fen).unwrap_or_else(|e| panic!("{e}"))
}

fn play(p: &mut Halma, text: &str) -> HalmaMove {
    let mv = p.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    p.make_move(mv);
    mv
}

#[test]
fn camps_have_the_documented_sizes() {
    for (size, camp) in [(8, 10), (10, 15), (16, 19)] {
        let s = GameSpec::parse(&format!("halma size={size}")).unwrap();
        let p = Halma::start(&s.settings::<Halma>());
        assert_eq!(count(&p.pieces[0]), camp);
        assert_eq!(count(&p.pieces[1]), camp);
        assert_eq!(p.geo.camp_size, camp);
    }
    assert!(GameSpec::parse("halma size=12").is_err());
}

#[test]
fn parlett_rule_counts_an_opposing_piece_left_at_home() {
    // Black left a piece on h8; White fills the rest of the camp with h4-h5.
    let fen = "4wwwb/5www/6ww/8/7w/8/b7/8 w 0";
    let mut p = pos("halma size=8", fen);
    play(&mut p, "h4-h5");
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::First)));
    let mut strict = pos("halma size=8 strict=1", fen);
    play(&mut strict, "h4-h5");
    assert_eq!(strict.outcome(), None);
}

#[test]
fn a_piece_in_the_opposing_camp_stays_there() {
    let p = pos("halma size=8", "4wwwb/5www/6ww/8/7w/8/b7/8 w 0");
    let err = p.parse_move("g6-f5").unwrap_err().to_string();
    assert!(err.contains("may not leave"), "{err}");
    assert!(p.parse_move("g6-h5").is_ok());
}

#[test]
fn third_repetition_is_a_draw_and_unmake_reopens() {
    let s = GameSpec::parse("halma size=8").unwrap().settings::<Halma>();
    let mut p = Halma::start(&s);
    let mut last = None;
    for round in 0..2 {
        for text in ["a4-a5", "h5-h4", "a5-a4", "h4-h5"] {
            assert_eq!(p.outcome(), None, "round {round} before {text}");
            last = Some(play(&mut p, text));
        }
    }
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    p.unmake_move(last.unwrap(), ());
    assert_eq!(p.outcome(), None);
    assert_eq!(p.hash(), p.hash_from_scratch());
}

#[test]
fn the_move_limit_draws() {
    let mut p = pos(
        "halma size=8 limit=20",
        "4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4 w 19",
    );
    play(&mut p, "a4-a5");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(
        p.format_position(),
        "4bbbb/5bbb/6bb/w6b/8/ww6/www5/wwww4 b 20"
    );
}

/// The bonus of the side to move in heuristic `h` (only `distance`, the fitted one, has one).
fn tempo(h: HalmaHeuristic) -> i32 {
    if h == HalmaHeuristic::Distance {
        super::eval::DISTANCE_TEMPO
    } else {
        0
    }
}

#[test]
fn every_heuristic_is_antisymmetric_at_the_start() {
    // The start is symmetric: every heuristic scores it 0 for either side to move, but
    // for the tempo of the side to move.
    let s = GameSpec::parse("halma size=10")
        .unwrap()
        .settings::<Halma>();
    let p = Halma::start(&s);
    for &(name, h) in Halma::heuristics() {
        assert_eq!(p.evaluate(h), tempo(h), "{name}");
    }
}

/// An empty board of `size` with the given pieces, `side` to move.
fn build(size: usize, white: &[(usize, usize)], black: &[(usize, usize)], side: Side) -> Halma {
    let s = GameSpec::parse(&format!("halma size={size}"))
        .unwrap()
        .settings::<Halma>();
    let mut p = Halma::empty(s);
    for &(r, c) in white {
        p.put(r * size + c, Side::First);
    }
    for &(r, c) in black {
        p.put(r * size + c, Side::Second);
    }
    p.to_move = side;
    p.hash = p.hash_from_scratch();
    p
}

/// The position turned half a turn with the colours and the side to move swapped: the same
/// game seen from the other side, so every heuristic must score it as `p`.
fn mirrored(p: &Halma) -> Halma {
    let n = p.settings.size;
    let mut m = Halma::empty(p.settings);
    for sq in 0..n * n {
        if let Some(side) = p.piece(sq) {
            m.put(n * n - 1 - sq, side.other());
        }
    }
    m.to_move = p.to_move.other();
    m.hash = m.hash_from_scratch();
    m
}

fn heuristic(name: &str) -> HalmaHeuristic {
    Halma::heuristics()
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no heuristic {name}"))
        .1
}

#[test]
fn the_heuristic_table_has_every_name_default_first() {
    let names: Vec<&str> = Halma::heuristics().iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        ["distance", "progress", "fill", "center", "adaptive", "diagonal", "careful", "rows"]
    );
}

#[test]
fn every_heuristic_scores_every_start_zero() {
    for size in [8, 10, 16] {
        let s = GameSpec::parse(&format!("halma size={size}"))
            .unwrap()
            .settings::<Halma>();
        let mut p = Halma::start(&s);
        for &(name, h) in Halma::heuristics() {
            assert_eq!(p.evaluate(h), tempo(h), "{name} size={size}");
        }
        p.to_move = Side::Second;
        for &(name, h) in Halma::heuristics() {
            assert_eq!(p.evaluate(h), tempo(h), "{name} size={size}, black to move");
        }
    }
}

#[test]
fn diagonal_rewards_a_chain_on_the_long_diagonal() {
    // Same progress (18 each); White's c3 and d4 form a chain on the a1-h8 diagonal,
    // Black's c8 and h3 are far from it.
    let p = build(8, &[(2, 2), (3, 3)], &[(7, 2), (2, 7)], Side::First);
    assert_eq!(p.evaluate(heuristic("progress")), 0);
    assert_eq!(p.evaluate(heuristic("diagonal")), 12);
    // A lone piece next to the diagonal is no chain.
    let lone = build(8, &[(2, 2), (3, 5)], &[(7, 2), (2, 5)], Side::First);
    assert_eq!(lone.evaluate(heuristic("progress")), 0);
    assert_eq!(lone.evaluate(heuristic("diagonal")), 0);
    let m = mirrored(&p);
    assert_eq!(m.evaluate(heuristic("diagonal")), 12);
    let mut q = p.clone();
    q.to_move = Side::Second;
    assert_eq!(q.evaluate(heuristic("diagonal")), -12);
}

#[test]
fn careful_counts_forward_jumps_for_and_against() {
    // White's c3 can jump d4 to e5 (forward: 3), d4 can jump c3 to b2 (backward: 0);
    // Black's pieces have no neighbours. Progress is equal.
    let p = build(8, &[(2, 2), (3, 3)], &[(7, 2), (2, 7)], Side::First);
    assert_eq!(p.evaluate(heuristic("progress")), 0);
    assert_eq!(p.evaluate(heuristic("careful")), 6);
    // Sideways jumps count 1: d4 over e3 to f2 and e3 over d4 to c5 keep their distance.
    let side = build(8, &[(3, 3), (2, 4)], &[(7, 1), (1, 7)], Side::First);
    assert_eq!(side.evaluate(heuristic("progress")), 0);
    assert_eq!(side.evaluate(heuristic("careful")), 4);
    // Denial: give Black the chance instead (the mirror), and White to move sees -6.
    let m = mirrored(&p);
    let mut m_white = m.clone();
    m_white.to_move = Side::First;
    assert_eq!(m_white.evaluate(heuristic("careful")), -6);
}

#[test]
fn rows_fills_every_second_row_first() {
    // Both sides have one piece in the target camp at distance 3 from the far corner:
    // White's e8 on the corner row, Black's c2 on the second row from its far corner.
    let p = build(8, &[(7, 4)], &[(1, 2)], Side::First);
    assert_eq!(p.evaluate(heuristic("fill")), 0);
    assert_eq!(p.evaluate(heuristic("rows")), 30);
    assert_eq!(mirrored(&p).evaluate(heuristic("rows")), 30);
}

#[test]
fn heuristics_are_bounded_and_colour_symmetric_on_random_playouts() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut moves = Vec::new();
    for size in [8, 10, 16] {
        let s = GameSpec::parse(&format!("halma size={size}"))
            .unwrap()
            .settings::<Halma>();
        for _game in 0..6 {
            let mut p = Halma::start(&s);
            for _ply in 0..300 {
                for &(name, h) in Halma::heuristics() {
                    let v = p.evaluate(h);
                    assert!(v.abs() < 100_000, "{name}: {v}");
                    assert_eq!(
                        mirrored(&p).evaluate(h),
                        v,
                        "{name} mirrored: {} / {}",
                        p.format_position(),
                        mirrored(&p).format_position()
                    );
                }
                moves.clear();
                p.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // Mostly forward moves, so playouts reach the middle game and the camps.
                moves.sort_by_key(|&mv| -p.move_order_hint(mv));
                let k = (next() % 4) as usize;
                let pick = if k < 3 {
                    (next() as usize) % moves.len().min(4)
                } else {
                    (next() as usize) % moves.len()
                };
                p.make_move(moves[pick]);
            }
        }
    }
}

#[test]
fn pieces_can_reach_the_last_square_of_the_16x16_board() {
    // p16 is square 255; it must not be mistaken for "no square" in the step and jump
    // tables: o15-p16 (a step) and n14-p16 (a jump over o15) are moves.
    let p = build(16, &[(14, 14), (13, 13), (0, 0)], &[(0, 5)], Side::First);
    let mut v = Vec::new();
    p.generate_moves(&mut v);
    let names: Vec<String> = v.iter().map(|&m| p.format_move(m)).collect();
    assert!(names.contains(&"o15-p16".to_string()), "{names:?}");
    assert!(names.contains(&"n14-p16".to_string()), "{names:?}");
    assert!(p.parse_move("n14-p16").is_ok());
}
