//! Learning from finished games: a persistent store of position values.
//!
//! After a finished game every position reached in it is credited with the result *for
//! the side that moved into it*: the engine's own moves and, mirrored, the opponent's, so
//! a line the opponent won with becomes a line the engine likes when it plays that side.
//! At the root the engine adds a bounded bonus ([`LEARN_BONUS`] at most) to the search
//! score of each move whose score is not a proven result; proven wins and losses are
//! never changed, so learning cannot make the engine pick a move its search proves
//! losing while a non-losing move exists.
//!
//! # File format (version 1)
//!
//! A UTF-8 text file. The first line is the magic and version, `agon-learn 1`. Every
//! further line is one position, five fields separated by tabs:
//!
//! ```text
//! agon-learn 1
//! mnk m=3 n=3 k=3<TAB>1f0c2d3e4a5b6c7d<TAB>2<TAB>0<TAB>1
//! ```
//!
//! (`<TAB>` is one tab character): the canonical game spec, the position hash in 16 hexadecimal digits, and the games
//! won, drawn and lost by the side that moved into the position. Lines are sorted, so
//! the same content is always the same bytes.
//!
//! # Concurrency
//!
//! [`LearnStore::record`] takes an exclusive lock on `PATH.lock` (an OS file lock,
//! released when the process dies; it waits at most [`LOCK_WAIT`] for another holder),
//! re-reads the file, adds the game's counts, writes a new temporary file in the same
//! directory and renames it over `PATH`. Two processes recording at once both land.
//! A file that does not start with the magic, or has a malformed line, is an error and
//! is never written over.
//!
//! # Files that are not plain files
//!
//! The store may live in a directory other users can write to (`/tmp`), so nothing in it
//! is trusted:
//!
//! - `PATH` must be a regular file (or not exist yet). A directory, a FIFO, a device or a
//!   socket is refused with an error naming the path and what it is, without being
//!   opened for more than a look (a FIFO is opened non-blocking, so it cannot hang the
//!   engine), and so is a **symbolic link**: the store is the file itself, never what a
//!   link points to. The link is not followed, not written through and not replaced.
//!   Should one be planted after the store was opened, the next update refuses it when
//!   it re-reads the file; planted between that re-read and the rename, it is replaced
//!   by the rename as any name is, and its target is still never written.
//! - `PATH.lock` is opened the same way (no link followed, regular files only), so a link
//!   planted there cannot make the engine create or open another file.
//! - The temporary file gets an unpredictable name in `PATH`'s own directory and is
//!   created exclusively (`O_CREAT | O_EXCL` by the `tempfile` crate: a name that exists,
//!   link or not, is never opened), with the store's permissions (0644 less the umask for
//!   a new store), then renamed over `PATH`.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use thiserror::Error;

use std::sync::atomic::AtomicBool;

use crate::game::{Game, Outcome, Side};
use crate::games::GameSpec;
use crate::search::{terminal_score, Control, Limits, Searcher, WIN_THRESHOLD};

/// The first line of a store file.
pub const MAGIC: &str = "agon-learn";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The largest bonus (in centi-units) learning adds to or takes from a root move's score.
pub const LEARN_BONUS: i32 = 300;
/// How long [`LearnStore::record`] waits for another process's lock before giving up.
pub const LOCK_WAIT: Duration = Duration::from_secs(2);

/// Games won, drawn and lost by the side that moved into a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Counts {
    /// The value in (-1, 1): wins minus losses over games plus one.
    pub fn value(&self) -> f64 {
        let games = f64::from(self.wins) + f64::from(self.draws) + f64::from(self.losses);
        (f64::from(self.wins) - f64::from(self.losses)) / (games + 1.0)
    }

    /// The root bonus: the value scaled to ±[`LEARN_BONUS`].
    pub fn bonus(&self) -> i32 {
        (self.value() * f64::from(LEARN_BONUS)).round() as i32
    }
}

/// A store that cannot be read or written.
#[derive(Debug, Error)]
pub enum LearnError {
    /// The file could not be read, locked or written.
    #[error("learn file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system error.
        source: std::io::Error,
    },
    /// The path names something other than a regular file.
    #[error(
        "learn file {path}: is a {kind}, not a regular file (refused: the store must be a \
         plain file, and links are never followed)"
    )]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is: `symbolic link`, `directory`, `FIFO (named pipe)`, ...
        kind: &'static str,
    },
    /// Another process held the lock file longer than [`LOCK_WAIT`].
    #[error("learn file {path}: locked by another process for over {} s; the game is not recorded", LOCK_WAIT.as_secs())]
    Locked {
        /// The lock file.
        path: PathBuf,
    },
    /// The file is not a store of this version, or a line is malformed.
    #[error("learn file {path}: line {line}: {reason} (the file is left untouched)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The key of one position: canonical game spec and position hash.
pub type Key = (String, u64);

/// The position values of one file, as last read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnStore {
    path: PathBuf,
    entries: BTreeMap<Key, Counts>,
}

fn io_error(path: &Path, source: std::io::Error) -> LearnError {
    LearnError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Parses the text of a store file.
fn parse(path: &Path, text: &str) -> Result<BTreeMap<Key, Counts>, LearnError> {
    let corrupt = |line: usize, reason: String| LearnError::Corrupt {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let expected = format!("{MAGIC} {VERSION}");
    if header != expected {
        let reason = match header.strip_prefix(MAGIC) {
            Some(rest) => format!(
                "version '{}' is not supported (this build reads '{expected}')",
                rest.trim()
            ),
            None => format!("not an agon learn file (the first line must be '{expected}')"),
        };
        return Err(corrupt(1, reason));
    }
    let mut entries = BTreeMap::new();
    for (i, line) in lines.enumerate() {
        let number = i + 2;
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != 5 {
            return Err(corrupt(
                number,
                format!("{} tab-separated fields, expected 5", fields.len()),
            ));
        }
        let hash = u64::from_str_radix(fields[1], 16)
            .map_err(|_| corrupt(number, format!("'{}' is not a hex hash", fields[1])))?;
        let count = |text: &str| {
            text.parse::<u32>()
                .map_err(|_| corrupt(number, format!("'{text}' is not a count")))
        };
        let counts = Counts {
            wins: count(fields[2])?,
            draws: count(fields[3])?,
            losses: count(fields[4])?,
        };
        entries.insert((fields[0].to_string(), hash), counts);
    }
    Ok(entries)
}

fn format(entries: &BTreeMap<Key, Counts>) -> String {
    let mut text = format!("{MAGIC} {VERSION}\n");
    for ((spec, hash), c) in entries {
        text.push_str(&format!(
            "{spec}\t{hash:016x}\t{}\t{}\t{}\n",
            c.wins, c.draws, c.losses
        ));
    }
    text
}

/// What a file type is, in words, when it is not a regular file.
fn odd_kind(kind: fs::FileType) -> Option<&'static str> {
    if kind.is_file() {
        None
    } else if kind.is_symlink() {
        Some("symbolic link")
    } else if kind.is_dir() {
        Some("directory")
    } else if kind.is_fifo() {
        Some("FIFO (named pipe)")
    } else if kind.is_char_device() {
        Some("character device")
    } else if kind.is_block_device() {
        Some("block device")
    } else if kind.is_socket() {
        Some("socket")
    } else {
        Some("special file")
    }
}

/// Opens the regular file `path` without following a link there, `None` when it does not
/// exist (and `create` is false). Anything but a regular file is refused: looked at
/// first without opening it, and checked again on the opened file, so a file swapped in
/// between is caught too. The open never blocks (`O_NONBLOCK`: a FIFO swapped in answers
/// at once) and follows no link (`O_NOFOLLOW`).
fn open_regular(path: &Path, create: bool) -> Result<Option<File>, LearnError> {
    let not_a_file = |kind| LearnError::NotAFile {
        path: path.to_path_buf(),
        kind,
    };
    match fs::symlink_metadata(path) {
        Ok(meta) => {
            if let Some(kind) = odd_kind(meta.file_type()) {
                return Err(not_a_file(kind));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !create => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(path, e)),
    }
    let mut options = OpenOptions::new();
    if create {
        options.write(true).create(true).truncate(false).mode(0o644);
    } else {
        options.read(true);
    }
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !create => return Ok(None),
        // O_NOFOLLOW on a link: ELOOP.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(not_a_file("symbolic link")),
        Err(e) => {
            return Err(
                match fs::symlink_metadata(path)
                    .ok()
                    .and_then(|m| odd_kind(m.file_type()))
                {
                    Some(kind) => not_a_file(kind),
                    None => io_error(path, e),
                },
            )
        }
    };
    let meta = file.metadata().map_err(|e| io_error(path, e))?;
    if let Some(kind) = odd_kind(meta.file_type()) {
        return Err(not_a_file(kind));
    }
    Ok(Some(file))
}

fn read_entries(path: &Path) -> Result<BTreeMap<Key, Counts>, LearnError> {
    let Some(mut file) = open_regular(path, false)? else {
        return Ok(BTreeMap::new());
    };
    let mut text = String::new();
    match file.read_to_string(&mut text) {
        Ok(_) => parse(path, &text),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Err(LearnError::Corrupt {
            path: path.to_path_buf(),
            line: 1,
            reason: "not UTF-8 text".into(),
        }),
        Err(e) => Err(io_error(path, e)),
    }
}

/// Takes the exclusive lock on `lock`, waiting at most [`LOCK_WAIT`] for another holder.
fn lock_within(lock: &File, path: &Path) -> Result<(), LearnError> {
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match lock.try_lock() {
            Ok(()) => return Ok(()),
            Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(LearnError::Locked {
                    path: path.to_path_buf(),
                })
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_error(path, e)),
        }
    }
}

impl LearnStore {
    /// Opens the store at `path`; a missing file is an empty store.
    ///
    /// # Errors
    /// [`LearnError::Corrupt`] for a foreign or malformed file, [`LearnError::Io`] when
    /// it cannot be read.
    pub fn open(path: impl Into<PathBuf>) -> Result<LearnStore, LearnError> {
        let path = path.into();
        let entries = read_entries(&path)?;
        Ok(LearnStore { path, entries })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of positions held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The counts of a position, for the side that moved into it.
    pub fn get(&self, spec: &str, hash: u64) -> Option<Counts> {
        self.entries.get(&(spec.to_string(), hash)).copied()
    }

    /// All entries, sorted.
    pub fn entries(&self) -> &BTreeMap<Key, Counts> {
        &self.entries
    }

    /// Records a finished game of `spec`: `positions` are the hashes of the positions
    /// after each move with the side that made that move. Locks, re-reads and merges,
    /// writes atomically, and keeps the merged content.
    ///
    /// # Errors
    /// [`LearnError`] when the file is corrupt (it is then left as it was) or cannot be
    /// locked or written.
    pub fn record(
        &mut self,
        spec: &str,
        positions: &[(u64, Side)],
        outcome: Outcome,
    ) -> Result<(), LearnError> {
        let lock_path = sibling(&self.path, ".lock");
        let lock = open_regular(&lock_path, true)?.expect("created when missing");
        lock_within(&lock, &lock_path)?;
        let result = self.merge_locked(spec, positions, outcome);
        // Dropping the file releases the lock, even on error.
        drop(lock);
        result
    }

    fn merge_locked(
        &mut self,
        spec: &str,
        positions: &[(u64, Side)],
        outcome: Outcome,
    ) -> Result<(), LearnError> {
        let mut entries = read_entries(&self.path)?;
        for &(hash, mover) in positions {
            let c = entries.entry((spec.to_string(), hash)).or_default();
            match outcome {
                Outcome::Draw => c.draws += 1,
                Outcome::Win(side) if side == mover => c.wins += 1,
                Outcome::Win(_) => c.losses += 1,
            }
        }
        // The store's own permissions for the new file (a new store: 0644 less the umask).
        let mode = match fs::symlink_metadata(&self.path) {
            Ok(meta) if meta.is_file() => meta.permissions().mode() & 0o777,
            _ => 0o644,
        };
        let dir = match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = self.path.file_name().unwrap_or_default().to_string_lossy();
        let prefix = format!(".{name}.");
        let write = || -> std::io::Result<()> {
            // Created with O_CREAT | O_EXCL under a random name: never an existing file or
            // link. Removed again if anything below fails.
            let mut file = tempfile::Builder::new()
                .prefix(&prefix)
                .suffix(".tmp")
                .permissions(fs::Permissions::from_mode(mode))
                .tempfile_in(dir)?;
            file.write_all(format(&entries).as_bytes())?;
            file.as_file().sync_all()?;
            file.persist(&self.path).map_err(|e| e.error)?;
            Ok(())
        };
        write().map_err(|e| io_error(&self.path, e))?;
        self.entries = entries;
        Ok(())
    }
}

/// `path` with `suffix` appended to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

// ---- The learning policy: how a search's choice at the root is adjusted by the store,
// and how a finished game is recorded (used by the engine and by `agon play`). ----

/// The score of playing `mv` from `pos`, searched to the child limits, from the mover's view.
fn score_move<G: Game>(
    pos: &mut G,
    mv: G::Move,
    searcher: &mut dyn Searcher<G>,
    limits: &Limits,
    control: &Control<'_>,
) -> i32 {
    let mover = pos.side_to_move();
    let undo = pos.make_move(mv);
    let score = match pos.outcome() {
        Some(outcome) => terminal_score(outcome, mover, 1),
        None => {
            let child = searcher.search(pos, limits, control, &mut |_| {});
            let s = -child.score;
            // One ply further from the root.
            if s >= WIN_THRESHOLD {
                s - 1
            } else if s <= -WIN_THRESHOLD {
                s + 1
            } else {
                s
            }
        }
    };
    pos.unmake_move(mv, undo);
    score
}

/// The engine's move in `pos` within `limits`: the search's best move, or, when a learning
/// store knows a position after some root move, the best by search score plus learned
/// bonus. The bonus only applies to moves whose score is not a proven win or loss, so a
/// proven-losing move is never preferred over a non-losing one. `None` when there is no
/// legal move.
pub fn choose_move<G: Game>(
    pos: &mut G,
    searcher: &mut dyn Searcher<G>,
    limits: &Limits,
    learn: Option<&LearnStore>,
) -> Option<G::Move> {
    let stop = AtomicBool::new(false);
    let control = Control::new(&stop);
    let learning = learn.filter(|store| knows_children(pos, store));
    let main_limits = match learning {
        Some(_) => limits_for_learning(limits),
        None => limits.clone(),
    };
    let result = searcher.search(pos, &main_limits, &control, &mut |_| {});
    let best = result.best?;
    Some(match learning {
        Some(store) => learned_move(pos, searcher, limits, store, best, &control),
        None => best,
    })
}

/// Whether `store` knows a position after some legal move of `pos`.
pub fn knows_children<G: Game>(pos: &mut G, store: &LearnStore) -> bool {
    let spec = GameSpec::of::<G>(pos.settings_of()).to_string();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves.iter().any(|&mv| {
        let undo = pos.make_move(mv);
        let known = store.get(&spec, pos.hash()).is_some();
        pos.unmake_move(mv, undo);
        known
    })
}

/// The limits of the main search when [`learned_move`] follows it: half the time
/// (movetime or clock), so that both together stay within the original limits.
pub fn limits_for_learning(limits: &Limits) -> Limits {
    let mut half = limits.clone();
    half.movetime = limits.movetime.map(|t| t / 2);
    if let Some(clock) = &mut half.clock {
        clock.time /= 2;
        clock.increment /= 2;
    }
    half
}

/// The root move after learning: `best` (the search's choice) unless the store knows a
/// position after some root move; then every root move is searched one ply shallower
/// (or with its share of the time) and the highest search score plus learned bonus wins,
/// `best` on ties. The bonus never applies to proven wins or losses.
pub fn learned_move<G: Game>(
    pos: &mut G,
    searcher: &mut dyn Searcher<G>,
    limits: &Limits,
    store: &LearnStore,
    best: G::Move,
    control: &Control<'_>,
) -> G::Move {
    let spec = GameSpec::of::<G>(pos.settings_of()).to_string();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let known: Vec<Option<i32>> = moves
        .iter()
        .map(|&mv| {
            let undo = pos.make_move(mv);
            let counts = store.get(&spec, pos.hash());
            pos.unmake_move(mv, undo);
            counts.map(|c| c.bonus())
        })
        .collect();
    if known.iter().all(Option::is_none) {
        return best;
    }
    // The children share half of the move's time: half the movetime, or half of a
    // clock budget of time/25 + increment (the budget of search::time).
    let time = limits.movetime.map(|t| t / 2).or_else(|| {
        limits
            .clock
            .map(|c| (c.time / c.moves_to_go.unwrap_or(25).max(1) + c.increment) / 2)
    });
    let child_limits = Limits {
        depth: limits.depth.map(|d| d.saturating_sub(1).max(1)),
        nodes: limits.nodes,
        movetime: time.map(|t| (t / moves.len() as u32).max(Duration::from_millis(1))),
        clock: None,
        infinite: false,
    };
    // Without a depth or time (a clock or node limit only), a shallow fixed depth.
    let child_limits = if child_limits.depth.is_none() && child_limits.movetime.is_none() {
        Limits {
            depth: Some(3),
            ..child_limits
        }
    } else {
        child_limits
    };
    // The search's own choice first, so it wins ties.
    let mut order: Vec<usize> = (0..moves.len()).collect();
    if let Some(i) = moves.iter().position(|&m| m == best) {
        order.swap(0, i);
    }
    let mut chosen: Option<(i32, G::Move)> = None;
    for i in order {
        let mv = moves[i];
        if control.stopped() {
            // Stopped before every move was searched: keep the search's choice.
            return best;
        }
        let score = score_move(pos, mv, searcher, &child_limits, control);
        let adjusted = if score.abs() < WIN_THRESHOLD {
            score + known[i].unwrap_or(0)
        } else {
            score
        };
        if chosen.is_none_or(|(s, _)| adjusted > s) {
            chosen = Some((adjusted, mv));
        }
    }
    chosen.map_or(best, |(_, mv)| mv)
}

/// Records a finished game played from `start` with `moves` into `store`.
///
/// # Errors
/// [`LearnError`] from [`LearnStore::record`].
pub fn record_game<G: Game>(
    store: &mut LearnStore,
    start: &G,
    moves: &[G::Move],
    outcome: Outcome,
) -> Result<(), LearnError> {
    let mut replay = start.clone();
    let mut positions = Vec::with_capacity(moves.len());
    for &mv in moves {
        let mover = replay.side_to_move();
        replay.make_move(mv);
        positions.push((replay.hash(), mover));
    }
    let spec = GameSpec::of::<G>(start.settings_of()).to_string();
    store.record(&spec, &positions, outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("agon-learn-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir.join("store.txt")
    }

    #[test]
    fn record_and_reload() {
        let path = temp("reload");
        let mut store = LearnStore::open(&path).unwrap();
        assert!(store.is_empty());
        store
            .record(
                "mnk m=3 n=3 k=3",
                &[(1, Side::First), (2, Side::Second)],
                Outcome::Win(Side::First),
            )
            .unwrap();
        let again = LearnStore::open(&path).unwrap();
        assert_eq!(again, store);
        let c = again.get("mnk m=3 n=3 k=3", 1).unwrap();
        assert_eq!((c.wins, c.draws, c.losses), (1, 0, 0));
        let c = again.get("mnk m=3 n=3 k=3", 2).unwrap();
        assert_eq!((c.wins, c.draws, c.losses), (0, 0, 1));
        assert!(c.bonus() < 0 && c.bonus() >= -LEARN_BONUS);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("agon-learn 1\n"), "{text}");
    }

    #[test]
    fn corrupt_and_foreign_files_are_refused_and_kept() {
        for (i, bad) in [
            "hello world\n",
            "agon-learn 9\n",
            "agon-learn 1\nmnk\tzz\t1\t0\t0\n",
            "agon-learn 1\nmnk\t01\t1\t0\n",
        ]
        .iter()
        .enumerate()
        {
            let path = temp(&format!("corrupt{i}"));
            fs::write(&path, bad).unwrap();
            let err = LearnStore::open(&path).unwrap_err();
            assert!(matches!(err, LearnError::Corrupt { .. }), "{err}");
            // Recording through a store opened before the file went bad also refuses.
            let mut store = LearnStore {
                path: path.clone(),
                entries: BTreeMap::new(),
            };
            assert!(store
                .record("mnk", &[(1, Side::First)], Outcome::Draw)
                .is_err());
            assert_eq!(fs::read_to_string(&path).unwrap(), *bad);
        }
    }
}
