//! Tests of the Clobber rules and notation. Reference facts come from OpenSpiel
//! (`open_spiel/games/clobber/clobber_test.cc` and the `clobber.txt` playthrough, quoted
//! in `research/rules.md` section 2) and from hand counts explained in the comments.
//! A deliberately naive square-by-square move generator written in OpenSpiel's order
//! and notation serves as an independent oracle for the bitboard one.

use std::collections::HashSet;

use super::*;
use crate::games::GameSpec;
use crate::perft::perft;
use crate::zobrist::splitmix64;

fn settings(rows: usize, cols: usize) -> ClobberSettings {
    ClobberSettings::new(rows, cols).unwrap()
}

fn start(rows: usize, cols: usize) -> Clobber {
    Clobber::start(&settings(rows, cols))
}

fn pos(rows: usize, cols: usize, text: &str) -> Clobber {
    Clobber::parse_position(&settings(rows, cols), text).unwrap()
}

fn moves_of(pos: &Clobber) -> Vec<ClobberMove> {
    let mut out = Vec::new();
    pos.generate_moves(&mut out);
    out
}

/// OpenSpiel's move list, in its order (squares from the top-left, row by row;
/// directions up, right, down, left) and its notation (`a5b5`), from a plain grid walk.
fn naive_moves(pos: &Clobber) -> Vec<String> {
    let (rows, cols) = (pos.settings.rows(), pos.settings.cols());
    let me = pos.side_to_move();
    let name = |r: usize, c: usize| format!("{}{}", (b'a' + c as u8) as char, r + 1);
    let mut out = Vec::new();
    for r in (0..rows).rev() {
        for c in 0..cols {
            if pos.stone(r * cols + c) != Some(me) {
                continue;
            }
            for (dr, dc) in [(1isize, 0isize), (0, 1), (-1, 0), (0, -1)] {
                let (r2, c2) = (r as isize + dr, c as isize + dc);
                if r2 < 0 || c2 < 0 || r2 >= rows as isize || c2 >= cols as isize {
                    continue;
                }
                let (r2, c2) = (r2 as usize, c2 as usize);
                if pos.stone(r2 * cols + c2) == Some(me.other()) {
                    out.push(format!("{}{}", name(r, c), name(r2, c2)));
                }
            }
        }
    }
    out
}

/// Our moves in OpenSpiel's notation (`a5-b5` without the dash), as a set.
fn our_move_set(pos: &Clobber) -> HashSet<String> {
    moves_of(pos)
        .into_iter()
        .map(|m| pos.format_move(m).replace('-', ""))
        .collect()
}

#[test]
fn open_spiel_terminal_positions() {
    // clobber_test.cc: returns [-1, 1] means Black (player 1) won, [1, -1] White.
    let cases: [(usize, usize, &str, &str, Side); 5] = [
        (2, 2, "0xxxx", "bb/bb w", Side::Second),
        (2, 2, "1oooo", "ww/ww b", Side::First),
        (2, 2, "1x.x.", "b1/b1 b", Side::First),
        (2, 2, "0o..x", "w1/1b w", Side::Second),
        (4, 4, "0o..xo.......x..o", "w2b/w3/4/b2w w", Side::Second),
    ];
    for (rows, cols, open_spiel, ours, winner) in cases {
        let a = pos(rows, cols, open_spiel);
        let b = pos(rows, cols, ours);
        assert_eq!(a, b, "{open_spiel} vs {ours}");
        assert_eq!(a.outcome(), Some(Outcome::Win(winner)), "{ours}");
        assert!(moves_of(&a).is_empty());
        assert_eq!(a.format_position(), ours);
    }
    let open_spiel = "0ox..ox..oxoxox..ox..oxoxoxoxox";
    let ours = "wb2wb/2wbwb/wb2wb/2wbwb/wbwbwb w";
    let a = pos(5, 6, open_spiel);
    assert_eq!(a, pos(5, 6, ours));
    assert_eq!(a.outcome(), None);
}

#[test]
fn open_spiel_start_moves() {
    // Playthrough clobber.txt: 49 legal actions at the 5x6 start, `a5b5 a5a4 c5d5 ...`.
    // By hand: every one of the 5*5 horizontal and 4*6 vertical neighbour pairs holds
    // one white and one black stone, and each pair is one capture for White: 25+24 = 49.
    let g = start(5, 6);
    assert_eq!(g.format_position(), "wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb w");
    assert_eq!(g.render()[0], "5  W B W B W B");
    let naive = naive_moves(&g);
    assert_eq!(naive.len(), 49);
    assert_eq!(naive[..3], ["a5b5", "a5a4", "c5d5"]);
    let ours = our_move_set(&g);
    assert_eq!(ours.len(), 49);
    assert_eq!(ours, naive.into_iter().collect::<HashSet<_>>());
    // 6 high by 5 wide: a1 is still White, so the top-left a6 is Black.
    let g = start(6, 5);
    assert_eq!(g.format_position(), "bwbwb/wbwbw/bwbwb/wbwbw/bwbwb/wbwbw w");
}

#[test]
fn perft_of_hand_countable_positions() {
    // 1x2 `wb`: White's only move a1-b1 leaves one white stone; Black cannot move.
    let mut g = pos(1, 2, "wb w");
    assert_eq!([perft(&mut g, 1), perft(&mut g, 2)], [1, 0]);
    // 1x3 `wbw`: a1-b1 or c1-b1, each leaves two white stones: 2, then 0.
    let mut g = pos(1, 3, "wbw w");
    assert_eq!([perft(&mut g, 1), perft(&mut g, 2)], [2, 0]);
    // 1x4 start `wbwb`: White a1-b1 (then Black's only move d1-c1, then White's b1-c1,
    // then nothing), c1-b1 (`ww.b`, over), c1-d1 (`wb.w`: Black b1-a1, then over).
    // Counts 3, 2, 1, 0.
    let mut g = start(1, 4);
    let counts: Vec<u64> = (1..=4).map(|d| perft(&mut g, d)).collect();
    assert_eq!(counts, [3, 2, 1, 0]);
    // 2x2 start (a2 b, b2 w / a1 w, b1 b): White has 4 captures (4 neighbour pairs).
    // After any, the black stone left has exactly one white neighbour (the other white
    // stone), so Black has 1 reply; then the last white stone takes the last black one
    // (1), and Black is out of stones (0). Counts 4, 4, 4, 0.
    let mut g = start(2, 2);
    let counts: Vec<u64> = (1..=4).map(|d| perft(&mut g, d)).collect();
    assert_eq!(counts, [4, 4, 4, 0]);
    assert_eq!(g, start(2, 2));
    // 1x1: a single white stone, White to move has no move: Black has won.
    assert_eq!(start(1, 1).outcome(), Some(Outcome::Win(Side::Second)));
}

/// Plays random games on `rows` x `cols`, checking every invariant at every ply.
fn random_playouts(rows: usize, cols: usize, games: usize, mut seed: u64) {
    for _ in 0..games {
        let mut g = start(rows, cols);
        let mut history = Vec::new();
        loop {
            assert_eq!(g.hash(), g.hash_from_scratch());
            let moves = moves_of(&g);
            let set = our_move_set(&g);
            assert_eq!(
                set.len(),
                moves.len(),
                "duplicate moves in {}",
                g.format_position()
            );
            let naive: HashSet<String> = naive_moves(&g).into_iter().collect();
            assert_eq!(set, naive, "{}", g.format_position());
            let text = g.format_position();
            assert_eq!(Clobber::parse_position(&g.settings, &text).unwrap(), g);
            for &mv in &moves {
                let name = g.format_move(mv);
                assert_eq!(g.parse_move(&name), Ok(mv));
                assert_eq!(g.parse_move(&name.replace('-', "").to_uppercase()), Ok(mv));
                for h in super::eval::HEURISTICS {
                    assert!(g.evaluate(h.1).abs() < 100_000);
                }
            }
            if moves.is_empty() {
                assert_eq!(g.outcome(), Some(Outcome::Win(g.side_to_move().other())));
                break;
            }
            assert_eq!(g.outcome(), None);
            let (next, r) = splitmix64(seed);
            seed = next;
            let mv = moves[(r % moves.len() as u64) as usize];
            let before = g.clone();
            g.make_move(mv);
            g.unmake_move(mv, ());
            assert_eq!(g, before);
            g.make_move(mv);
            history.push((mv, before));
        }
        while let Some((mv, before)) = history.pop() {
            g.unmake_move(mv, ());
            assert_eq!(g, before);
        }
        assert_eq!(g, start(rows, cols));
    }
}

#[test]
fn random_playouts_keep_invariants() {
    random_playouts(5, 6, 20, 1);
    random_playouts(6, 5, 10, 2);
    random_playouts(8, 8, 5, 3);
    random_playouts(10, 10, 3, 4);
    random_playouts(16, 16, 1, 5);
    random_playouts(9, 26, 1, 6);
    random_playouts(1, 7, 5, 7);
    random_playouts(7, 1, 5, 8);
}

#[test]
fn transposed_move_orders_hash_alike() {
    let play = |moves: &[&str]| {
        let mut g = start(5, 6);
        for text in moves {
            let mv = g.parse_move(text).unwrap();
            g.make_move(mv);
        }
        g
    };
    let a = play(&["a1-b1", "f5-e5", "c1-d1", "a4-a5"]);
    let b = play(&["c1-d1", "a4-a5", "a1-b1", "f5-e5"]);
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.hash(), a.hash_from_scratch());
    assert_ne!(a.hash(), start(5, 6).hash());
    // The side to move is in the hash.
    let white = pos(1, 2, "wb w");
    let black = pos(1, 2, "wb b");
    assert_ne!(white.hash(), black.hash());
}

#[test]
fn move_notation() {
    let g = start(10, 10);
    assert_eq!(square_name(10, 90), "a10");
    let mv = g.parse_move("b10-a10").unwrap();
    assert_eq!(g.format_move(mv), "b10-a10");
    assert_eq!(g.parse_move("B10A10"), Ok(mv));
    assert_eq!(g.parse_move(" b10a10 "), Ok(mv));
    assert_eq!(pos(2, 2, "b./b. b"), pos(2, 2, "b1/b1 b"));
    assert_eq!(
        g.parse_move("b10-b9").map(|m| g.format_move(m)),
        Ok("b10-b9".into())
    );
}

fn error_of(g: &Clobber, text: &str) -> MoveError {
    g.parse_move(text).unwrap_err()
}

#[test]
fn move_errors_say_why() {
    let g = start(5, 6);
    for text in [
        "", "a1", "a1-", "-b1", "a1--b1", "a1-b1c", "11-b1", "a-b", "é1-b1", "a1 b1",
    ] {
        assert!(
            matches!(error_of(&g, text), MoveError::Syntax { .. }),
            "{text:?} should be a syntax error"
        );
    }
    let illegal = |text: &str, part: &str| match error_of(&g, text) {
        MoveError::Illegal { reason, .. } => assert!(reason.contains(part), "{text}: {reason}"),
        other => panic!("{text}: {other:?}"),
    };
    illegal("g1-f1", "g1 is off the board");
    illegal("a6-a5", "a6 is off the board");
    illegal("a0-a1", "a0 is off the board");
    illegal("a1-c1", "not adjacent");
    illegal("a1-b2", "not adjacent");
    illegal("a1-a1", "not adjacent");
    illegal("b1-a1", "no stone of yours on b1: it holds a black stone");
    let mut h = g.clone();
    h.make_move(h.parse_move("a1-b1").unwrap());
    illegal_in(
        &h,
        "a1-a2",
        "no stone of yours on a1: it is empty (black is to move)",
    );
    let h = pos(1, 3, "bbw b");
    illegal_in(
        &h,
        "a1-b1",
        "b1 is not an opponent stone: it holds one of black's own",
    );
    let g = pos(1, 3, "w.b w");
    illegal_in(
        &g,
        "a1-b1",
        "the game is over: white has no move, black won",
    );
    let g = pos(2, 2, "w./wb w");
    illegal_in(&g, "a2-b2", "b2 is not an opponent stone: it is empty");
    // Messages name the text as given.
    assert_eq!(
        error_of(&start(5, 6), "zz").to_string(),
        "'zz' is not a move: expected two squares, the stone's and the captured one's, like a1-b1 (or a1b1)"
    );
}

fn illegal_in(g: &Clobber, text: &str, part: &str) {
    match g.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => {
            assert!(reason.contains(part), "{text}: {reason}")
        }
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn position_strings() {
    let g = pos(5, 6, "6/2w3/6/.b..b./6 b");
    assert_eq!(g.format_position(), "6/2w3/6/1b2b1/6 b");
    assert_eq!(g.side_to_move(), Side::Second);
    assert_eq!(g.stone(3 * 6 + 2), Some(Side::First));
    assert_eq!(g.stone_count(Side::Second), 2);
    assert_eq!(g.hash(), g.hash_from_scratch());
    let wide = pos(1, 12, "10wb w");
    assert_eq!(wide.format_position(), "10wb w");
    assert_eq!(pos(2, 2, "WB/BW W"), pos(2, 2, "wb/bw white"));

    let reason = |rows, cols, text: &str| {
        Clobber::parse_position(&settings(rows, cols), text)
            .unwrap_err()
            .reason
    };
    assert_eq!(
        reason(5, 6, "6/6/6/6 w"),
        "the board has 4 rows, this game has rows=5"
    );
    assert_eq!(
        reason(2, 2, "wb/bwb w"),
        "row 1 has 3 squares, this game has cols=2"
    );
    assert_eq!(
        reason(2, 2, "wb/3 w"),
        "row 1 has 3 squares, this game has cols=2"
    );
    assert_eq!(
        reason(2, 2, "wb/b w"),
        "row 1 has 1 squares, this game has cols=2"
    );
    assert_eq!(
        reason(2, 2, "wx/bw w"),
        "unexpected 'x' in row 2 (use w, b, . or a number of empty squares)"
    );
    assert_eq!(
        reason(2, 2, "wb/bw"),
        "missing the side to move (w or b) after the board"
    );
    assert_eq!(reason(2, 2, "wb/bw x"), "side to move 'x' is not w or b");
    assert_eq!(reason(2, 2, ""), "the position is empty");
    assert_eq!(
        reason(2, 2, "wb/bw w 3"),
        "expected 2 fields (board and side to move), found 3"
    );
    assert_eq!(reason(2, 2, "w0b/bw w"), "row 2: a run of 0 empty squares");
    assert!(reason(2, 2, "99999999999999999999999/bw w").contains("too long"));
    assert_eq!(reason(2, 2, "0ox. w"), "row 2: a run of 0 empty squares");
    assert!(reason(2, 2, "0oxo").contains("needs 4 squares"));
}

#[test]
fn board_files() {
    // The students' board.txt: 6 rows of 5, `B`/`W`/`_`, cells separated by spaces.
    let text = "B W B W B\nW B W B W\nB W B W B\nW B W B W\nB W B W B\nW B W B W\n";
    let g = parse_board_file(text, None).unwrap();
    assert_eq!((g.settings.rows(), g.settings.cols()), (6, 5));
    assert_eq!(g, start(6, 5));
    let g = parse_board_file("# a comment\n\nBW_\r\nw.b\r\nblack\n", None).unwrap();
    assert_eq!(g.format_position(), "bw1/w1b b");
    let g = parse_board_file("B W _\n_ _ W\nB\n", None).unwrap();
    assert_eq!(g.format_position(), "bw1/2w b");
    // One column: a lone `b` is a row; `black` names the side.
    let g = parse_board_file("w\nb\n", None).unwrap();
    assert_eq!(g.format_position(), "w/b w");
    let g = parse_board_file("w\nb\nblack", None).unwrap();
    assert_eq!(g.format_position(), "w/b b");
    // One-line position strings and OpenSpiel strings.
    let g = parse_board_file("wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb w\n", None).unwrap();
    assert_eq!(g, start(5, 6));
    let g = parse_board_file("wb w", Some(&settings(1, 2))).unwrap();
    assert_eq!(g, start(1, 2));
    let g = parse_board_file("0ox", Some(&settings(1, 2))).unwrap();
    assert_eq!(g, start(1, 2));

    let reason = |text: &str, expected: Option<(usize, usize)>| {
        let s = expected.map(|(r, c)| settings(r, c));
        parse_board_file(text, s.as_ref()).unwrap_err().reason
    };
    assert_eq!(reason("\n# nothing\n", None), "the file holds no board");
    assert_eq!(
        reason("0ox", None),
        "an OpenSpiel board string does not give the board size: give rows and cols"
    );
    assert_eq!(
        reason("BWB\nWB\n", None),
        "grid row 2 from the top has 2 squares but the first has 3"
    );
    assert_eq!(
        reason("BWB\nWQB\n", None),
        "line 2: unexpected 'Q' (grid cells are W, B, _ or .)"
    );
    assert_eq!(
        reason("BW\nWB\n", Some((5, 6))),
        "the board is 2x2 (rows x cols) but the game is rows=5 cols=6"
    );
    assert!(reason(&"W".repeat(27), None).contains("at most 26 columns"));
    assert!(reason(&"WB\n".repeat(129), None).contains("at most 256"));
    assert_eq!(reason("wb/bw x", None), "side to move 'x' is not w or b");
    assert_eq!(
        reason("wb/b w", None),
        "row 2 from the top has 1 squares but the first has 2"
    );
}

#[test]
fn render_has_coordinates() {
    let g = pos(10, 2, "2/2/2/2/2/2/2/2/wb/bw b");
    let lines = g.render();
    assert_eq!(lines[0], "10  . .");
    assert_eq!(lines[8], " 2  W B");
    assert_eq!(lines[9], " 1  B W");
    assert_eq!(lines[10], "    a b");
}

#[test]
fn settings_and_registry() {
    assert!(ClobberSettings::new(0, 5).is_err());
    assert!(ClobberSettings::new(1, 27)
        .unwrap_err()
        .contains("26 columns"));
    assert!(ClobberSettings::new(17, 16)
        .unwrap_err()
        .contains("272 squares"));
    assert!(ClobberSettings::new(16, 16).is_ok());
    assert!(ClobberSettings::new(256, 1).is_ok());
    let spec = GameSpec::parse("clobber").unwrap();
    assert_eq!(spec.values, vec![5, 6]);
    assert_eq!(spec.to_string(), "clobber rows=5 cols=6");
    let spec = GameSpec::parse("clobber rows=10 cols=10").unwrap();
    assert_eq!(spec.settings::<Clobber>(), settings(10, 10));
    assert!(GameSpec::parse("clobber rows=20 cols=20").is_err());
    let g = crate::games::new_game(&spec, None).unwrap();
    assert_eq!(g.legal_moves().len(), 2 * 10 * 9);
    assert_eq!(Clobber::side_name(Side::First), "white");
    assert_eq!(Clobber::heuristics()[0].0, "strong");
}

#[test]
fn no_input_text_panics() {
    // Random strings over the characters the parsers care about, plus some others.
    let alphabet: Vec<char> = "wbWBox._-/ 0123456789aAzZ\n#éQ".chars().collect();
    let mut seed = 42;
    let g = start(5, 6);
    let s = settings(5, 6);
    for _ in 0..20_000 {
        let (next, r) = splitmix64(seed);
        seed = next;
        let len = (r % 24) as usize;
        let text: String = (0..len)
            .map(|i| alphabet[((r >> (i % 8 * 8)) as usize + i * 7) % alphabet.len()])
            .collect();
        let _ = g.parse_move(&text);
        let _ = Clobber::parse_position(&s, &text);
        let _ = parse_board_file(&text, None);
        let _ = parse_board_file(&text, Some(&s));
    }
}
