//! Random-playout invariants, for every game and several board sizes (proptest picks
//! the seeds): at every ply the incremental hash equals the from-scratch hash, make then
//! unmake restores the position and its hash, every legal move's notation parses back to
//! the same move, moves are unique, and the position string round-trips.

use agon::game::Game;
use agon::games::clobber::Clobber;
use agon::games::halma::Halma;
use agon::games::mnk::{Mnk, MnkSettings};
use agon::games::tak::Tak;
use agon::games::GameSpec;
use agon::zobrist::splitmix64;
use proptest::prelude::*;

/// Plays one random game from `start`, checking every invariant at every ply.
fn playout_prop<G: Game>(start: &G, seed: u64) {
    playout_prop_with(start, seed, false);
}

/// As [`playout_prop`]; with `history_draws` a draw by repetition, which the position
/// string cannot carry (Halma), may read back as a game still on.
fn playout_prop_with<G: Game>(start: &G, seed: u64, history_draws: bool) {
    let mut pos = start.clone();
    let mut state = seed;
    let mut moves = Vec::new();
    let settings = start.settings_of().clone();
    for _ply in 0..10_000 {
        assert_eq!(
            pos.hash(),
            pos.hash_from_scratch(),
            "hash drifted at {}",
            pos.format_position()
        );
        let text = pos.format_position();
        let reparsed =
            G::parse_position(&settings, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(reparsed.format_position(), text);
        assert_eq!(reparsed.hash(), pos.hash(), "hash of reparsed {text}");
        if !(history_draws && pos.outcome() == Some(agon::game::Outcome::Draw)) {
            assert_eq!(reparsed.outcome(), pos.outcome());
        }
        assert_eq!(reparsed.side_to_move(), pos.side_to_move());

        moves.clear();
        pos.generate_moves(&mut moves);
        let mut unique = moves.clone();
        unique.sort_by_key(|m| format!("{m:?}"));
        unique.dedup();
        assert_eq!(unique.len(), moves.len(), "duplicate moves at {text}");
        if moves.is_empty() {
            assert!(
                pos.outcome().is_some(),
                "no moves but the game goes on at {text}"
            );
            return;
        }
        assert!(
            pos.outcome().is_none(),
            "moves listed in a finished game at {text}"
        );
        for &mv in &moves {
            let notation = pos.format_move(mv);
            assert_eq!(pos.parse_move(&notation), Ok(mv), "{notation} at {text}");
            let hash = pos.hash();
            let undo = pos.make_move(mv);
            assert_eq!(
                pos.hash(),
                pos.hash_from_scratch(),
                "after {notation} at {text}"
            );
            pos.unmake_move(mv, undo);
            assert_eq!(pos.hash(), hash);
            assert_eq!(pos.format_position(), text, "unmake of {notation}");
        }
        let (next, r) = splitmix64(state);
        state = next;
        let mv = moves[(r % moves.len() as u64) as usize];
        pos.play(mv).expect("a generated move is legal");
    }
    panic!("game did not end in 10,000 plies");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn mnk_playouts(seed in any::<u64>(), size in 0usize..6) {
        let (m, n, k) = [(3, 3, 3), (4, 4, 4), (5, 5, 4), (5, 5, 5), (7, 4, 3), (1, 1, 1)][size];
        playout_prop(&Mnk::start(&MnkSettings::new(m, n, k)), seed);
    }

    #[test]
    fn clobber_playouts(seed in any::<u64>(), size in 0usize..7) {
        let (rows, cols) = [(5, 6), (6, 5), (8, 8), (10, 10), (1, 5), (3, 3), (2, 7)][size];
        let spec = GameSpec::parse(&format!("clobber rows={rows} cols={cols}")).unwrap();
        playout_prop(&Clobber::start(&spec.settings::<Clobber>()), seed);
    }

    #[test]
    fn halma_playouts(seed in any::<u64>(), size in 0usize..4) {
        // Random games rarely finish: short move limits end them.
        let spec = ["halma size=8 limit=120", "halma size=8 strict=1 limit=60", "halma size=10 limit=60", "halma size=16 limit=40"][size];
        let spec = GameSpec::parse(spec).unwrap();
        playout_prop_with(&Halma::start(&spec.settings::<Halma>()), seed, true);
    }

    #[test]
    fn tak_playouts(seed in any::<u64>(), size in 0usize..8) {
        // Repetition draws are history the TPS cannot carry.
        let spec = ["tak size=3", "tak size=4", "tak size=5", "tak size=6 halfkomi=4", "tak size=7", "tak size=8", "tak4line", "tak size=5 halfkomi=-3"][size];
        let spec = GameSpec::parse(spec).unwrap();
        playout_prop_with(&Tak::start(&spec.settings::<Tak>()), seed, true);
    }

    #[test]
    fn mnk_large_board_playouts(seed in any::<u64>()) {
        playout_prop(&Mnk::start(&MnkSettings::new(19, 19, 5)), seed);
    }
}
