//! Perft against independent reference counts: data files in `tests/data/*.perft`, each
//! with its source in its header. Blocks: `game <spec>`, `position <string>|startpos`,
//! then `perft <depth> <count>` lines. Counts above `NODE_LIMIT` run only with
//! `cargo test -- --ignored` (see `deep_perft`).

use agon::games::{new_game, GameSpec};
use agon::perft;

const NODE_LIMIT: u64 = 3_000_000;

struct Case {
    game: String,
    position: Option<String>,
    depth: u32,
    count: u64,
    line: usize,
}

fn load(path: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    let (mut game, mut position) = (None::<String>, None::<String>);
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "game" => game = Some(rest.to_string()),
            "position" => position = (rest != "startpos").then(|| rest.to_string()),
            "perft" => {
                let mut parts = rest.split_whitespace();
                let depth = parts
                    .next()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("{path}:{}: bad depth", i + 1));
                let count = parts
                    .next()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("{path}:{}: bad count", i + 1));
                cases.push(Case {
                    game: game
                        .clone()
                        .unwrap_or_else(|| panic!("{path}:{}: perft before game", i + 1)),
                    position: position.clone(),
                    depth,
                    count,
                    line: i + 1,
                });
            }
            other => panic!("{path}:{}: unknown key {other}", i + 1),
        }
    }
    assert!(!cases.is_empty(), "{path} has no cases");
    cases
}

/// Counts with the erased interface? No: with the generic perft through the engine's game.
fn count(case: &Case) -> u64 {
    let spec = GameSpec::parse(&case.game).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
    struct Perft<'a>(&'a Case);
    impl agon::games::GameVisitor for Perft<'_> {
        type Output = u64;
        fn visit<G: agon::game::Game>(self) -> u64 {
            let spec = GameSpec::parse(&self.0.game).unwrap();
            let settings = spec.settings::<G>();
            let mut pos = match &self.0.position {
                None => G::start(&settings),
                Some(text) => G::parse_position(&settings, text)
                    .unwrap_or_else(|e| panic!("line {}: {e}", self.0.line)),
            };
            perft::perft(&mut pos, self.0.depth)
        }
    }
    // The erased interface must accept the same position.
    new_game(&spec, case.position.as_deref()).unwrap();
    agon::games::dispatch(spec.name, Perft(case)).unwrap()
}

fn run(path: &str, deep: bool) {
    let mut ran = 0;
    for case in load(path) {
        if (case.count > NODE_LIMIT) != deep {
            continue;
        }
        assert_eq!(
            count(&case),
            case.count,
            "{path}:{} {} {:?} depth {}",
            case.line,
            case.game,
            case.position,
            case.depth
        );
        ran += 1;
    }
    if !deep {
        assert!(ran > 0, "{path}: no shallow case ran");
    }
}

#[test]
fn mnk_perft() {
    run("tests/data/mnk.perft", false);
}

#[test]
#[ignore = "deep counts; run with cargo test --release -- --ignored"]
fn deep_perft() {
    for file in ["tests/data/mnk.perft", "tests/data/clobber.perft"] {
        run(file, true);
    }
}

#[test]
fn tic_tac_toe_has_255168_games() {
    // Published: 255,168 complete games (research/rules.md section 3). Every game ends by
    // ply 9, so the number of games is the sum over depths of games ending exactly there.
    fn games(pos: &mut agon::games::mnk::Mnk) -> u64 {
        use agon::game::Game;
        if pos.outcome().is_some() {
            return 1;
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                pos.make_move(mv);
                let n = games(pos);
                pos.unmake_move(mv, ());
                n
            })
            .sum()
    }
    use agon::game::Game;
    let mut pos = agon::games::mnk::Mnk::start(&agon::games::mnk::MnkSettings { m: 3, n: 3, k: 3 });
    assert_eq!(games(&mut pos), 255_168);
}

#[test]
fn clobber_perft() {
    run("tests/data/clobber.perft", false);
}

/// Legal move lists of the reference positions, compared as sets.
fn check_moves(path: &str) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut game, mut position) = (None::<String>, None::<String>);
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "game" => game = Some(rest.to_string()),
            "position" => position = (rest != "startpos").then(|| rest.to_string()),
            "moves" => {
                let spec = GameSpec::parse(game.as_deref().expect("game first")).unwrap();
                let pos = new_game(&spec, position.as_deref())
                    .unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1));
                let mut ours = pos.legal_moves();
                ours.sort();
                let mut theirs: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
                theirs.sort();
                assert_eq!(ours, theirs, "{path}:{}", i + 1);
                checked += 1;
            }
            other => panic!("{path}:{}: unknown key {other}", i + 1),
        }
    }
    assert!(checked > 0);
}

#[test]
fn legal_moves_match_the_reference_lists() {
    check_moves("tests/data/mnk_moves.txt");
    check_moves("tests/data/clobber_moves.txt");
}
