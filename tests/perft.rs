//! Perft against independent reference counts: data files in `tests/data/*.perft`, each
//! with its source in its header. Blocks: `game <spec>`, `position <string>|startpos`,
//! then `perft <depth> <count>` lines. Counts above `NODE_LIMIT` run only with
//! `cargo test -- --ignored` (see `deep_perft`).

use agon::games::{new_game, GameSpec};
use agon::perft;

const NODE_LIMIT: u64 = 3_000_000;

/// One data line of a reference file, with the game and position of its block.
struct Entry {
    game: String,
    position: Option<String>,
    key: String,
    rest: String,
    line: usize,
}

/// Reads a reference file: blocks of `game <spec>`, `position <string>|startpos`, then data
/// lines (`perft <depth> <count>` or `moves <m>...`); `#` lines are comments.
fn read_entries(path: &str) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut entries = Vec::new();
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
            _ => entries.push(Entry {
                game: game
                    .clone()
                    .unwrap_or_else(|| panic!("{path}:{}: {key} before game", i + 1)),
                position: position.clone(),
                key: key.to_string(),
                rest: rest.to_string(),
                line: i + 1,
            }),
        }
    }
    assert!(!entries.is_empty(), "{path} has no data");
    entries
}

/// Counts `depth` plies from the entry's position with the generic perft.
fn count(entry: &Entry, depth: u32) -> u64 {
    struct Perft<'a>(&'a Entry, &'a GameSpec, u32);
    impl agon::games::GameVisitor for Perft<'_> {
        type Output = u64;
        fn visit<G: agon::game::Game>(self) -> u64 {
            let settings = self.1.settings::<G>();
            let mut pos = match &self.0.position {
                None => G::start(&settings),
                Some(text) => G::parse_position(&settings, text)
                    .unwrap_or_else(|e| panic!("line {}: {e}", self.0.line)),
            };
            perft::perft(&mut pos, self.2)
        }
    }
    let spec = GameSpec::parse(&entry.game).unwrap_or_else(|e| panic!("line {}: {e}", entry.line));
    // The erased interface the arena uses must accept the same position.
    new_game(&spec, entry.position.as_deref()).unwrap();
    agon::games::dispatch(spec.name, Perft(entry, &spec, depth)).unwrap()
}

fn run(path: &str, deep: bool) {
    let mut ran = 0;
    for entry in read_entries(path) {
        assert_eq!(entry.key, "perft", "{path}:{}: unknown key", entry.line);
        let mut parts = entry.rest.split_whitespace().map(|t| t.parse::<u64>().ok());
        let (Some(Some(depth)), Some(Some(expected))) = (parts.next(), parts.next()) else {
            panic!("{path}:{}: expected 'perft <depth> <count>'", entry.line);
        };
        if (expected > NODE_LIMIT) != deep {
            continue;
        }
        assert_eq!(
            count(&entry, depth as u32),
            expected,
            "{path}:{} {} {:?} depth {depth}",
            entry.line,
            entry.game,
            entry.position
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
    let mut pos = agon::games::mnk::Mnk::start(&agon::games::mnk::MnkSettings::new(3, 3, 3));
    assert_eq!(games(&mut pos), 255_168);
}

#[test]
fn clobber_perft() {
    run("tests/data/clobber.perft", false);
}

/// Legal move lists of the reference positions, compared as sets.
fn check_moves(path: &str) {
    for entry in read_entries(path) {
        assert_eq!(entry.key, "moves", "{path}:{}: unknown key", entry.line);
        let spec = GameSpec::parse(&entry.game).unwrap();
        let pos = new_game(&spec, entry.position.as_deref())
            .unwrap_or_else(|e| panic!("{path}:{}: {e}", entry.line));
        let mut ours = pos.legal_moves();
        ours.sort();
        let mut theirs: Vec<String> = entry.rest.split_whitespace().map(str::to_string).collect();
        theirs.sort();
        assert_eq!(ours, theirs, "{path}:{}", entry.line);
    }
}

#[test]
fn legal_moves_match_the_reference_lists() {
    check_moves("tests/data/mnk_moves.txt");
    check_moves("tests/data/clobber_moves.txt");
}
