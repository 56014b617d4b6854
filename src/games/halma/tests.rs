//! Halma unit tests: the win rules, the camp rule, the move limit and repetition.

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

#[test]
fn every_heuristic_is_antisymmetric_at_the_start() {
    // The start is symmetric: every heuristic scores it 0 for either side to move.
    let s = GameSpec::parse("halma size=10")
        .unwrap()
        .settings::<Halma>();
    let p = Halma::start(&s);
    for &(name, h) in Halma::heuristics() {
        assert_eq!(p.evaluate(h), 0, "{name}");
    }
}
