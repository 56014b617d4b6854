//! The schedule of a match: which engine plays first in which game, from which
//! opening. Everything is derived lazily from the game index and the seed, so the same
//! seed gives the same games in the same order whatever the concurrency.
//!
//! Games `2p` and `2p+1` form pair `p`: the same opening, colours swapped
//! (engine 0 is `p1` in the even game).

use std::path::Path;

use serde::{Deserialize, Serialize};

use agon::games::{new_game, GameSpec};

/// SplitMix64: a tiny, fixed, documented generator, so a seed means the same schedule
/// in every build (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer below `bound` (> 0), without modulo bias.
    pub fn below(&mut self, bound: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let r = self.next_u64();
            if r < zone {
                return r % bound;
            }
        }
    }
}

/// A start for a pair of games: a position (or the game's start) and moves from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// A position string, or `None` for the game's start.
    pub position: Option<String>,
    /// Moves played from there before the engines take over (canonical notation).
    pub moves: Vec<String>,
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the start position.
    Start,
    /// `plies` random legal moves from the start, drawn from the seed and the pair index.
    Random {
        /// Number of random plies.
        plies: u32,
    },
    /// A list read from a file, used in order (or shuffled by the seed), cycling.
    List(Vec<Opening>),
}

/// An opening list could not be read.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        error: std::io::Error,
    },
    /// A line is not a valid opening for the game.
    #[error("{path}:{line}: {reason}")]
    Bad {
        /// The file.
        path: String,
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file has no openings.
    #[error("{path}: no openings in the file")]
    Empty {
        /// The file.
        path: String,
    },
    /// The option is not `start`, `random:PLIES` or `file:PATH`.
    #[error(
        "bad --openings '{0}': use start, random:PLIES, file:PATH, epd:PATH, pgn:PATH or gomocup:PATH"
    )]
    Syntax(String),
}

impl Openings {
    /// Parses `start`, `random:PLIES` or `file:PATH` (checking every opening against the game).
    ///
    /// # Errors
    /// [`OpeningError`] naming the file and line of a bad opening.
    pub fn parse(text: &str, spec: &GameSpec) -> Result<Openings, OpeningError> {
        if text == "start" || text == "none" {
            return Ok(Openings::Start);
        }
        if let Some(plies) = text.strip_prefix("random:") {
            let plies = plies
                .parse()
                .map_err(|_| OpeningError::Syntax(text.to_string()))?;
            return Ok(Openings::Random { plies });
        }
        if let Some(path) = text.strip_prefix("file:") {
            return Openings::read_file(Path::new(path), spec);
        }
        if let Some(path) = text.strip_prefix("epd:") {
            return Openings::read_epd(Path::new(path), spec);
        }
        if let Some(path) = text.strip_prefix("pgn:") {
            return Openings::read_pgn(Path::new(path), spec);
        }
        if let Some(path) = text.strip_prefix("gomocup:") {
            return Openings::read_offsets(Path::new(path), spec);
        }
        Err(OpeningError::Syntax(text.to_string()))
    }

    /// A list cut to its first `plies` moves each (fastchess `plies=`) and starting at
    /// opening `start` (1-based, fastchess `start=`); other kinds are returned as they are.
    ///
    /// # Errors
    /// `start` beyond the list.
    pub fn trimmed(self, plies: Option<u32>, start: Option<u64>) -> Result<Openings, String> {
        let Openings::List(mut list) = self else {
            return Ok(self);
        };
        if let Some(p) = plies {
            for o in &mut list {
                o.moves.truncate(p as usize);
            }
        }
        if let Some(s) = start {
            if s == 0 || s as usize > list.len() {
                return Err(format!(
                    "--opening-start {s}: the list has openings 1 to {}",
                    list.len()
                ));
            }
            list.rotate_left(s as usize - 1);
        }
        Ok(Openings::List(list))
    }

    fn read_text(path: &Path) -> Result<(String, String), OpeningError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| OpeningError::Io {
            path: name.clone(),
            error,
        })?;
        Ok((name, text))
    }

    /// Reads gomoku openings as Gomocup's tools write them, one opening per line, its
    /// stones in the order they are played; `#` starts a comment. A line is either
    /// Piskvork's `openings.txt` form (c-gomoku-cli's `type=offset`): `dx,dy` from the
    /// centre square (`width / 2`, `height / 2`), `x` to the right and `y` down, as in
    /// Piskvork's `playOpening`; or c-gomoku-cli's `type=pos` form, which Rapfi's
    /// `opengen` writes: squares run together, `h10k12`, a letter for the column `x` from
    /// `a` and a number for the row `y` + 1, `y` counted down from the top as in the
    /// protocol.
    ///
    /// # Errors
    /// [`OpeningError`] for unreadable files, games that are not m,n,k, odd or unreadable
    /// numbers, stones off the board or on a taken square.
    pub fn read_offsets(path: &Path, spec: &GameSpec) -> Result<Openings, OpeningError> {
        let (name, text) = Self::read_text(path)?;
        let bad = |line: usize, reason: String| OpeningError::Bad {
            path: name.clone(),
            line,
            reason,
        };
        let settings = spec.settings_of::<agon::games::mnk::Mnk>();
        let mut list = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some(settings) = settings else {
                return Err(bad(
                    i + 1,
                    format!("Gomocup openings are for gomoku and m,n,k games, not '{spec}'"),
                ));
            };
            let moves = if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
                squares_run_together(line, &settings)
            } else {
                offsets_from_centre(line, &settings)
            }
            .map_err(|reason| bad(i + 1, reason))?;
            let opening = validate_opening(
                &Opening {
                    position: None,
                    moves,
                },
                spec,
            )
            .map_err(|reason| bad(i + 1, reason))?;
            list.push(opening);
        }
        if list.is_empty() {
            return Err(OpeningError::Empty { path: name });
        }
        Ok(Openings::List(list))
    }

    /// Reads an EPD-style file: one position per line, anything after a `;` (EPD
    /// operations such as `id "..."`) ignored.
    ///
    /// # Errors
    /// [`OpeningError`] for unreadable files and invalid positions.
    pub fn read_epd(path: &Path, spec: &GameSpec) -> Result<Openings, OpeningError> {
        let (name, text) = Self::read_text(path)?;
        let mut list = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split(';').next().unwrap_or("").trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = Opening {
                position: Some(line.to_string()),
                moves: Vec::new(),
            };
            list.push(
                validate_opening(&opening, spec).map_err(|reason| OpeningError::Bad {
                    path: name.clone(),
                    line: i + 1,
                    reason,
                })?,
            );
        }
        if list.is_empty() {
            return Err(OpeningError::Empty { path: name });
        }
        Ok(Openings::List(list))
    }

    /// Reads the games of a PGN file as openings: each game's `FEN` tag (if any) and its
    /// moves, without comments, variations, move numbers, annotations or the result. The
    /// arena's own PGN files read back this way.
    ///
    /// # Errors
    /// [`OpeningError`] for unreadable files and games the rules refuse.
    pub fn read_pgn(path: &Path, spec: &GameSpec) -> Result<Openings, OpeningError> {
        let (name, text) = Self::read_text(path)?;
        let mut list = Vec::new();
        let mut current: Option<(usize, Opening)> = None;
        let mut in_moves = false;
        let mut depth_comment = false;
        let mut depth_variation = 0usize;
        let finish = |current: &mut Option<(usize, Opening)>,
                      list: &mut Vec<Opening>|
         -> Result<(), OpeningError> {
            if let Some((line, o)) = current.take() {
                list.push(
                    validate_opening(&o, spec).map_err(|reason| OpeningError::Bad {
                        path: name.clone(),
                        line,
                        reason,
                    })?,
                );
            }
            Ok(())
        };
        for (i, raw) in text.lines().enumerate() {
            if raw.starts_with('%') {
                continue;
            }
            let line = raw.trim();
            if !depth_comment && line.starts_with('[') {
                if in_moves {
                    finish(&mut current, &mut list)?;
                    in_moves = false;
                }
                let game = current.get_or_insert_with(|| (i + 1, Opening::default()));
                if let Some(rest) = line.strip_prefix("[FEN \"") {
                    game.1.position = Some(rest.trim_end_matches("\"]").to_string());
                }
                continue;
            }
            let mut token = String::new();
            let mut tokens = Vec::new();
            for c in line.chars().chain(std::iter::once(' ')) {
                match c {
                    _ if depth_comment => depth_comment = c != '}',
                    '{' => depth_comment = true,
                    ';' if depth_variation == 0 => break,
                    '(' => depth_variation += 1,
                    ')' => depth_variation = depth_variation.saturating_sub(1),
                    _ if depth_variation > 0 => {}
                    c if c.is_whitespace() => tokens.push(std::mem::take(&mut token)),
                    c => token.push(c),
                }
            }
            tokens.push(token);
            for t in tokens {
                // A move number (`12.`, `12...`) and the move glued to it (`1.b2`); a
                // Tak move may itself start with a digit (`3a1>12`).
                let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let t = if digits > 0 && t[digits..].starts_with('.') {
                    t[digits..].trim_start_matches('.')
                } else {
                    t.as_str()
                };
                if t.is_empty() || t.starts_with('$') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&t)
                {
                    continue;
                }
                in_moves = true;
                current
                    .get_or_insert_with(|| (i + 1, Opening::default()))
                    .1
                    .moves
                    .push(t.to_string());
            }
        }
        finish(&mut current, &mut list)?;
        if list.is_empty() {
            return Err(OpeningError::Empty { path: name });
        }
        Ok(Openings::List(list))
    }

    /// Reads an opening file: one opening per line; `#` starts a comment. A line is
    /// `fen <position> [moves <m>...]`, or `moves <m>...`, or a bare move list, or a
    /// bare position string.
    ///
    /// # Errors
    /// [`OpeningError`] for unreadable files and invalid lines.
    pub fn read_file(path: &Path, spec: &GameSpec) -> Result<Openings, OpeningError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| OpeningError::Io {
            path: name.clone(),
            error,
        })?;
        let mut list = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let opening = parse_opening_line(line, spec).map_err(|reason| OpeningError::Bad {
                path: name.clone(),
                line: i + 1,
                reason,
            })?;
            list.push(opening);
        }
        if list.is_empty() {
            return Err(OpeningError::Empty { path: name });
        }
        Ok(Openings::List(list))
    }
}

/// Piskvork's `dx,dy, dx,dy, ...` from the centre square (`width / 2`, `height / 2`,
/// `y` down) as moves in Agon's notation.
fn offsets_from_centre(
    line: &str,
    settings: &agon::games::mnk::MnkSettings,
) -> Result<Vec<String>, String> {
    let numbers = line
        .split([',', ' ', '\t'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse::<i64>()
                .map_err(|_| format!("'{w}' is not a whole number"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if numbers.len() % 2 == 1 {
        return Err(format!(
            "{} numbers: a stone is two, dx,dy from the centre",
            numbers.len()
        ));
    }
    let (cx, cy) = ((settings.m / 2) as i64, (settings.n / 2) as i64);
    numbers
        .chunks_exact(2)
        .map(|pair| {
            let (x, y) = (cx + pair[0], cy + pair[1]);
            u32::try_from(x)
                .ok()
                .zip(u32::try_from(y).ok())
                .and_then(|(x, y)| {
                    crate::dialect::gomocup::move_of(
                        settings,
                        agon::protocol::gomocup::Point { x, y },
                    )
                })
                .ok_or_else(|| {
                    format!(
                        "{},{} from the centre is off the {}x{} board",
                        pair[0], pair[1], settings.m, settings.n
                    )
                })
        })
        .collect()
}

/// c-gomoku-cli's and Rapfi's `h10k12l9`: a column letter from `a` and a row number from
/// 1 at the top, per stone, as moves in Agon's notation.
fn squares_run_together(
    line: &str,
    settings: &agon::games::mnk::MnkSettings,
) -> Result<Vec<String>, String> {
    let mut moves = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let letter = rest.as_bytes()[0].to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(format!("'{rest}': expected a column letter"));
        }
        let digits = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
        let number: u32 = rest[1..1 + digits]
            .parse()
            .map_err(|_| format!("'{rest}': expected a row number after the letter"))?;
        let point = agon::protocol::gomocup::Point {
            x: u32::from(letter - b'a'),
            y: number.wrapping_sub(1),
        };
        let mv = crate::dialect::gomocup::move_of(settings, point).ok_or_else(|| {
            format!(
                "{} is off the {}x{} board",
                &rest[..1 + digits],
                settings.m,
                settings.n
            )
        })?;
        moves.push(mv);
        rest = rest[1 + digits..].trim_start();
    }
    Ok(moves)
}

/// Checks an opening against the rules and returns it with canonical moves.
///
/// # Errors
/// Why the position or a move is refused, or that the game is already over.
pub fn validate_opening(opening: &Opening, spec: &GameSpec) -> Result<Opening, String> {
    let mut game = new_game(spec, opening.position.as_deref()).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    for m in &opening.moves {
        moves.push(game.play(m).map_err(|e| e.to_string())?);
    }
    if game.outcome().is_some() {
        return Err("the game is already over after this opening".into());
    }
    Ok(Opening {
        position: opening.position.clone(),
        moves,
    })
}

fn parse_opening_line(line: &str, spec: &GameSpec) -> Result<Opening, String> {
    let split_moves = |s: &str| -> (String, Vec<String>) {
        match s.split_once(" moves") {
            Some((before, after)) => (
                before.trim().to_string(),
                after.split_whitespace().map(String::from).collect(),
            ),
            None => (s.trim().to_string(), Vec::new()),
        }
    };
    let candidate = if let Some(rest) = line.strip_prefix("fen ") {
        let (position, moves) = split_moves(rest);
        Opening {
            position: Some(position),
            moves,
        }
    } else if let Some(rest) = line.strip_prefix("moves") {
        Opening {
            position: None,
            moves: rest.split_whitespace().map(String::from).collect(),
        }
    } else {
        let as_moves = Opening {
            position: None,
            moves: line.split_whitespace().map(String::from).collect(),
        };
        if let Ok(ok) = validate_opening(&as_moves, spec) {
            return Ok(ok);
        }
        Opening {
            position: Some(line.to_string()),
            moves: Vec::new(),
        }
    };
    validate_opening(&candidate, spec)
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Index in the schedule, from 0.
    pub index: u64,
    /// Its pair.
    pub pair: u64,
    /// Which match engine (0 or 1) plays `p1`.
    pub p1_engine: usize,
    /// The opening.
    pub opening: Opening,
}

/// The deterministic schedule of a match.
#[derive(Clone, Debug)]
pub struct Schedule {
    spec: GameSpec,
    openings: Openings,
    seed: u64,
    order: Vec<usize>,
    /// Number of games.
    pub games: u64,
}

impl Schedule {
    /// A schedule of `games` games; `shuffle` shuffles a file's openings with the seed.
    pub fn new(spec: GameSpec, openings: Openings, games: u64, seed: u64, shuffle: bool) -> Self {
        let mut order = match &openings {
            Openings::List(list) => (0..list.len()).collect(),
            _ => Vec::new(),
        };
        if shuffle {
            let mut rng = SplitMix64::new(seed ^ 0x5EED_0F0F_5EED_0F0F);
            for i in (1..order.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                order.swap(i, j);
            }
        }
        Schedule {
            spec,
            openings,
            seed,
            order,
            games,
        }
    }

    /// The game at `index`.
    pub fn game(&self, index: u64) -> ScheduledGame {
        let pair = index / 2;
        ScheduledGame {
            index,
            pair,
            p1_engine: (index % 2) as usize,
            opening: self.opening(pair),
        }
    }

    /// The opening of pair `pair`.
    pub fn opening(&self, pair: u64) -> Opening {
        match &self.openings {
            Openings::Start => Opening::default(),
            Openings::List(list) => list[self.order[(pair % list.len() as u64) as usize]].clone(),
            Openings::Random { plies } => random_opening(&self.spec, *plies, self.seed, pair),
        }
    }
}

/// `plies` random legal moves from the start, from a generator seeded by `seed` and
/// `pair`; retried (up to 1000 times) when the game ends inside the opening, then shortened.
pub fn random_opening(spec: &GameSpec, plies: u32, seed: u64, pair: u64) -> Opening {
    let mut rng = SplitMix64::new(seed ^ pair.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut want = plies;
    loop {
        for _ in 0..1000 {
            let mut game = new_game(spec, None).expect("the start position exists");
            let mut moves = Vec::new();
            while (moves.len() as u32) < want && game.outcome().is_none() {
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let pick = &legal[rng.below(legal.len() as u64) as usize];
                moves.push(game.play(pick).expect("legal move"));
            }
            if moves.len() as u32 == want && game.outcome().is_none() {
                return Opening {
                    position: None,
                    moves,
                };
            }
        }
        if want == 0 {
            return Opening::default();
        }
        want -= 1;
    }
}

/// A slice of the schedule: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, 1..=count.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// The whole schedule.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with 1 <= K <= N.
    ///
    /// # Errors
    /// A message saying what is wrong.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}': use K/N with 1 <= K <= N, e.g. 2/3");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether pair `pair` belongs to this shard.
    pub fn has_pair(self, pair: u64) -> bool {
        pair % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ttt() -> GameSpec {
        GameSpec::parse("tictactoe").unwrap()
    }

    #[test]
    fn splitmix_reference_values() {
        // First outputs of SplitMix64 seeded with 0 (the reference C implementation).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn pairs_share_openings_and_swap_colours() {
        let s = Schedule::new(ttt(), Openings::Random { plies: 2 }, 6, 42, false);
        for pair in 0..3 {
            let a = s.game(2 * pair);
            let b = s.game(2 * pair + 1);
            assert_eq!(a.opening, b.opening);
            assert_eq!(a.opening.moves.len(), 2);
            assert_eq!((a.p1_engine, b.p1_engine), (0, 1));
            assert_eq!((a.pair, b.pair), (pair, pair));
        }
        assert_ne!(s.game(0).opening, s.game(2).opening);
    }

    #[test]
    fn seed_makes_it_reproducible() {
        let a = Schedule::new(ttt(), Openings::Random { plies: 3 }, 10, 7, false);
        let b = Schedule::new(ttt(), Openings::Random { plies: 3 }, 10, 7, false);
        let c = Schedule::new(ttt(), Openings::Random { plies: 3 }, 10, 8, false);
        let of = |s: &Schedule| (0..10).map(|i| s.game(i)).collect::<Vec<_>>();
        assert_eq!(of(&a), of(&b));
        assert_ne!(of(&a), of(&c));
    }

    #[test]
    fn random_openings_never_end_the_game() {
        // 3x3 with k=3 after 6 random plies is often over; the generator must retry.
        for pair in 0..50 {
            let o = random_opening(&ttt(), 6, 1, pair);
            assert!(validate_opening(&o, &ttt()).is_ok());
        }
    }

    #[test]
    fn opening_file_formats() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("o.txt");
        std::fs::write(
            &path,
            "# comment\nb2 a1\nmoves c3\nfen 3/1x1/3 o moves a1\n3/1x1/3 o\n\n",
        )
        .unwrap();
        let Openings::List(list) = Openings::read_file(&path, &ttt()).unwrap() else {
            panic!("a list");
        };
        assert_eq!(list.len(), 4);
        assert_eq!(list[0].moves, vec!["b2", "a1"]);
        assert_eq!(list[1].moves, vec!["c3"]);
        assert_eq!(list[2].position.as_deref(), Some("3/1x1/3 o"));
        assert_eq!(list[2].moves, vec!["a1"]);
        assert_eq!(list[3].position.as_deref(), Some("3/1x1/3 o"));
        std::fs::write(&path, "b2 b2\n").unwrap();
        let err = Openings::read_file(&path, &ttt()).unwrap_err().to_string();
        assert!(err.contains(":1:"), "{err}");
    }

    #[test]
    fn epd_and_pgn_books() {
        let dir = tempfile::tempdir().unwrap();
        let epd = dir.path().join("b.epd");
        std::fs::write(&epd, "3/1x1/3 o; id \"centre\"\n\n3/3/3 x\n").unwrap();
        let Openings::List(list) =
            Openings::parse(&format!("epd:{}", epd.display()), &ttt()).unwrap()
        else {
            panic!("a list");
        };
        assert_eq!(list[0].position.as_deref(), Some("3/1x1/3 o"));
        assert_eq!(list.len(), 2);
        // Two games as the arena writes them: comments, numbers, results, an escape line.
        let pgn = dir.path().join("b.pgn");
        std::fs::write(
            &pgn,
            "[Event \"x\"]\n[Result \"1-0\"]\n\n1. b2 {book} a1 {+0.10/3 0.010s, pv=\"a1 c3\"}\n2. c3 (2. a3 c1) $1 1-0\n% board\n\n\
             [Event \"y\"]\n[SetUp \"1\"]\n[FEN \"3/1x1/3 o\"]\n\n1... a1 ; a line comment c1\n*\n",
        )
        .unwrap();
        let Openings::List(list) =
            Openings::parse(&format!("pgn:{}", pgn.display()), &ttt()).unwrap()
        else {
            panic!("a list");
        };
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].moves, vec!["b2", "a1", "c3"]);
        assert_eq!(list[1].position.as_deref(), Some("3/1x1/3 o"));
        assert_eq!(list[1].moves, vec!["a1"]);
        let Openings::List(cut) = Openings::List(list).trimmed(Some(2), Some(2)).unwrap() else {
            panic!("a list");
        };
        assert_eq!(cut[0].moves, vec!["a1"]);
        assert_eq!(cut[1].moves, vec!["b2", "a1"]);
    }

    #[test]
    fn gomocup_offset_openings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("openings.txt");
        let gomoku = GameSpec::parse("gomoku").unwrap();
        // Piskvork's openings.txt's first line; the centre of 15x15 is 7,7 = h8, and y
        // counts down from the top row (15), so 8,10 is i5.
        std::fs::write(
            &path,
            "0,0, 1,0, 1,3\n\n# c-gomoku-cli style:\n-1,3 -1,5 3,5\n",
        )
        .unwrap();
        let Openings::List(list) =
            Openings::parse(&format!("gomocup:{}", path.display()), &gomoku).unwrap()
        else {
            panic!("a list");
        };
        assert_eq!(list[0].moves, vec!["h8", "i8", "i5"]);
        assert_eq!(list[1].moves, vec!["g5", "g3", "k3"]);
        // On 20x20 the centre is 10,10 (k11).
        let big = GameSpec::parse("mnk m=20 n=20 k=5").unwrap();
        std::fs::write(&path, "8,-3, 6,-4\n").unwrap();
        let Openings::List(list) = Openings::read_offsets(&path, &big).unwrap() else {
            panic!("a list");
        };
        assert_eq!(list[0].moves, vec!["s13", "q14"]);
        // Rapfi's opengen and c-gomoku-cli's pos form: h10 is x 7, y 9 from the top, so
        // h6 on 15x15; a1 the top left, a15.
        std::fs::write(&path, "h10k12\n\na1 o15\n").unwrap();
        let Openings::List(list) = Openings::read_offsets(&path, &gomoku).unwrap() else {
            panic!("a list");
        };
        assert_eq!(list[0].moves, vec!["h6", "k4"]);
        assert_eq!(list[1].moves, vec!["a15", "o1"]);
        for (text, why) in [
            ("8,-3, 6,-4\n", "off the 15x15 board"),
            ("0,0, 1\n", "3 numbers"),
            ("0,0, 0,0\n", "occupied"),
            ("0,0, a,1\n", "'a' is not a whole number"),
            ("h10p1\n", "p1 is off the 15x15 board"),
            ("h10h10\n", "occupied"),
            ("h0\n", "h0 is off"),
            ("h10-\n", "expected a column letter"),
            ("hh\n", "expected a row number"),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = Openings::read_offsets(&path, &gomoku)
                .unwrap_err()
                .to_string();
            assert!(err.contains(":1:") && err.contains(why), "{text}: {err}");
        }
        let clobber = GameSpec::parse("clobber").unwrap();
        let err = Openings::read_offsets(&path, &clobber)
            .unwrap_err()
            .to_string();
        assert!(err.contains("gomoku and m,n,k"), "{err}");
    }

    #[test]
    fn shuffled_list_is_a_permutation() {
        let list: Vec<Opening> = ["a1", "b1", "c1", "a2", "b2"]
            .iter()
            .map(|m| Opening {
                position: None,
                moves: vec![m.to_string()],
            })
            .collect();
        let s = Schedule::new(ttt(), Openings::List(list.clone()), 10, 3, true);
        let mut seen: Vec<String> = (0..5).map(|p| s.opening(p).moves[0].clone()).collect();
        seen.sort();
        let mut all: Vec<String> = list.iter().map(|o| o.moves[0].clone()).collect();
        all.sort();
        assert_eq!(seen, all);
        assert_eq!(s.opening(5), s.opening(0));
    }
}
