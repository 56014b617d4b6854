//! The live view between processes: `arena serve --watch OUT` and the `arena match` or
//! `tournament` writing to `OUT` are different processes, so they meet in `OUT/live/`.
//!
//! - While a page watches, the server keeps the flag file `OUT/live/.watched` fresh: it
//!   sets its modification time at least every [`HEARTBEAT`].
//! - The referee looks at the flag at most every [`CHECK_EVERY`] (one `stat`; between
//!   looks, one clock read per move). While the flag is fresher than [`FRESH`], it
//!   publishes each game in progress in `OUT/live/<run>-w<worker>.json` (replaced
//!   atomically) after every move and, at most every [`INFO_EVERY`], during a search with
//!   the engine's latest `info`. When the game ends, or the flag goes stale, it removes
//!   its file; unwatched, it writes nothing: a match nobody watches pays one clock read
//!   per move.
//!
//! Several servers may watch one folder: each refreshes the same flag, none removes it,
//! and a server that dies leaves a flag that goes stale by itself.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use agon::protocol::Info;

use crate::record::{LiveGame, LiveThinking, MoveRecord, Seat};

/// The flag's name in the live folder.
pub const FLAG: &str = ".watched";
/// How often a watching server refreshes the flag.
pub const HEARTBEAT: Duration = Duration::from_millis(500);
/// A flag older than this is stale: nobody watches.
pub const FRESH: Duration = Duration::from_secs(3);
/// How often at most the referee looks at the flag.
pub const CHECK_EVERY: Duration = Duration::from_millis(200);
/// How often at most a search in progress is published.
pub const INFO_EVERY: Duration = Duration::from_millis(100);

/// Milliseconds since the Unix epoch now.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Whether the flag of `live_dir` says a server watches it now.
pub fn is_watched(live_dir: &Path) -> bool {
    std::fs::metadata(live_dir.join(FLAG))
        .and_then(|m| m.modified())
        .is_ok_and(|t| t.elapsed().map_or(true, |age| age < FRESH))
}

/// Marks `out/live` as watched now (the server side). Creates `out/live` when `out`
/// exists; does nothing while `out` does not exist yet.
///
/// # Errors
/// The I/O error of creating or touching the flag.
pub fn mark_watched(out: &Path) -> std::io::Result<()> {
    if !out.is_dir() {
        return Ok(());
    }
    let dir = out.join("live");
    std::fs::create_dir_all(&dir)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(FLAG))?;
    file.set_modified(SystemTime::now())
}

/// A referee's live file for one game: written only while the folder is watched.
#[derive(Debug)]
pub struct Publisher {
    path: PathBuf,
    live_dir: PathBuf,
    game: LiveGame,
    next_check: Option<Instant>,
    watched: bool,
    written: bool,
    last_info: Option<Instant>,
    lines: u64,
}

impl Publisher {
    /// The publisher of `game` in `live_dir`, as file `name`; nothing is written yet.
    pub fn new(live_dir: &Path, name: &str, game: LiveGame) -> Publisher {
        Publisher {
            path: live_dir.join(name),
            live_dir: live_dir.to_path_buf(),
            game,
            next_check: None,
            watched: false,
            written: false,
            last_info: None,
            lines: 0,
        }
    }

    /// Whether a server watches, looking at the flag at most every [`CHECK_EVERY`]; when
    /// the watcher has gone, the file is removed.
    pub fn watched(&mut self) -> bool {
        let now = Instant::now();
        if self.next_check.is_none_or(|t| now >= t) {
            self.next_check = Some(now + CHECK_EVERY);
            self.watched = is_watched(&self.live_dir);
            if !self.watched && self.written {
                let _ = std::fs::remove_file(&self.path);
                self.written = false;
            }
        }
        self.watched
    }

    /// Publishes the moves so far, if watched; `result` is `*` while the game goes on,
    /// else the file is removed (the view shows games in progress only, and the worker's
    /// next game starts afresh). `moved` is when the last move's `bestmove` was read;
    /// `clocks` each side's time left (ms) on its clock, if it has one; `to_move` the seat
    /// whose turn (and clock) begins now.
    pub fn publish(
        &mut self,
        moves: &[MoveRecord],
        result: &str,
        moved: Option<Instant>,
        clocks: [Option<u64>; 2],
        to_move: Option<Seat>,
    ) {
        self.lines = 0;
        if result != "*" {
            if self.written {
                let _ = std::fs::remove_file(&self.path);
                self.written = false;
            }
            return;
        }
        if !self.watched() {
            return;
        }
        let now = unix_ms();
        self.game.moves.clear();
        self.game.moves.extend_from_slice(moves);
        self.game.result = result.to_string();
        self.game.thinking = None;
        self.game.clocks_ms = clocks;
        self.game.to_move = to_move;
        self.game.turn_unix_ms = now;
        if let Some(at) = moved {
            self.game.moved_unix_ms = now.saturating_sub(at.elapsed().as_millis() as u64);
        }
        self.write(now);
    }

    /// Publishes the search in progress of `seat` (begun at `started`), if watched and
    /// the last one is at least [`INFO_EVERY`] old.
    pub fn thinking(&mut self, seat: Seat, started: Instant, info: &Info) {
        self.lines += 1;
        if !self.watched() || self.last_info.is_some_and(|t| t.elapsed() < INFO_EVERY) {
            return;
        }
        self.last_info = Some(Instant::now());
        self.game.thinking = Some(LiveThinking::from_info(
            seat,
            started.elapsed().as_millis() as u64,
            info,
            self.lines,
        ));
        self.write(unix_ms());
    }

    fn write(&mut self, now: u64) {
        self.game.updated_unix_ms = now;
        match self.game.write(&self.path) {
            Ok(()) => self.written = true,
            Err(e) => log::warn!("cannot write the live file {}: {e}", self.path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> LiveGame {
        LiveGame {
            run: "r".into(),
            game: 0,
            spec: "tictactoe".into(),
            p1: "a".into(),
            p2: "b".into(),
            position: None,
            moves: Vec::new(),
            result: "*".into(),
            updated_unix_ms: 0,
            moved_unix_ms: 0,
            thinking: None,
            clocks_ms: [None, None],
            to_move: None,
            turn_unix_ms: 0,
        }
    }

    #[test]
    fn nothing_is_written_unless_a_fresh_flag_says_so() {
        let out = tempfile::tempdir().unwrap();
        let live = out.path().join("live");
        std::fs::create_dir_all(&live).unwrap();
        let mut p = Publisher::new(&live, "r-w0.json", game());
        p.publish(&[], "*", None, [None, None], None);
        assert!(!live.join("r-w0.json").exists());
        // A stale flag (a server that died) is nobody.
        mark_watched(out.path()).unwrap();
        let old = SystemTime::now() - FRESH - Duration::from_secs(1);
        std::fs::File::options()
            .write(true)
            .open(live.join(FLAG))
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(!is_watched(&live));
        // A fresh one is seen at the next look, and the file follows the moves.
        mark_watched(out.path()).unwrap();
        assert!(is_watched(&live));
        p.next_check = None;
        let mv = MoveRecord {
            ply: 1,
            mv: "b2".into(),
            ..MoveRecord::default()
        };
        p.publish(
            std::slice::from_ref(&mv),
            "*",
            Some(Instant::now()),
            [Some(900), Some(1000)],
            Some(Seat::P2),
        );
        let text = std::fs::read_to_string(live.join("r-w0.json")).unwrap();
        let back: LiveGame = serde_json::from_str(&text).unwrap();
        assert_eq!(back.moves, vec![mv.clone()]);
        assert!(back.moved_unix_ms > 0);
        assert_eq!(back.clocks_ms, [Some(900), Some(1000)]);
        assert_eq!(back.to_move, Some(Seat::P2));
        assert!(back.turn_unix_ms >= back.moved_unix_ms);
        // The game ends: its file goes.
        p.publish(std::slice::from_ref(&mv), "1-0", None, [None, None], None);
        assert!(!live.join("r-w0.json").exists());
        p.publish(std::slice::from_ref(&mv), "*", None, [None, None], None);
        assert!(live.join("r-w0.json").exists());
        // The watcher leaves: the file goes at the next look.
        std::fs::remove_file(live.join(FLAG)).unwrap();
        p.next_check = None;
        p.publish(&[], "*", None, [None, None], None);
        assert!(!live.join("r-w0.json").exists());
    }

    #[test]
    fn a_folder_that_does_not_exist_is_not_created() {
        let out = tempfile::tempdir().unwrap();
        let missing = out.path().join("later");
        mark_watched(&missing).unwrap();
        assert!(!missing.exists());
    }
}
