//! The journal: what a run leaves on disk, one JSON line per game ([`GameRecord`]),
//! appended and synced the moment the game ends. A tournament's journal starts with a
//! header line (`{"tournament": {...}}`, [`HeaderLine`]) naming the tournament by the
//! fingerprint of its settings and the shard the file holds; a match's records carry
//! the fingerprint themselves.
//!
//! This module is the journal's one writer and reader: it appends ([`Journal`]), reads
//! back (cutting off a last line that a killed run left incomplete), finds the games a
//! resumed run keeps, merges a tournament's shards, and fingerprints a run's settings.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use crate::record::GameRecord;
use crate::referee::EngineConfig;
use crate::schedule::Shard;

/// The append-only journal: one complete JSON object per line, each written with a
/// single `write` and flushed to disk (`fsync`) before the call returns.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Opens (creating) `path` for appending. A last line left incomplete by a killed
    /// earlier run is cut off first, so every line stays a complete record.
    ///
    /// # Errors
    /// The I/O error when the file cannot be opened or repaired.
    pub fn open(path: &Path) -> io::Result<Journal> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)?;
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)?;
        let journal = Journal {
            file,
            path: path.to_path_buf(),
        };
        journal.repair()?;
        Ok(journal)
    }

    fn repair(&self) -> io::Result<()> {
        let bytes = std::fs::read(&self.path)?;
        if bytes.is_empty() || bytes.last() == Some(&b'\n') {
            return Ok(());
        }
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        self.file.set_len(keep as u64)?;
        self.file.sync_all()
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one record and syncs it to disk.
    ///
    /// # Errors
    /// Serialization or I/O errors.
    pub fn append(&mut self, record: &GameRecord) -> io::Result<()> {
        let mut line = serde_json::to_string(record).map_err(io::Error::other)?;
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.sync_data()
    }
}

/// The complete lines of a journal file, and the length in bytes of an incomplete last
/// line (left by a run killed mid-write) that is not part of them; it is reported on
/// stderr, and opening the [`Journal`] cuts it off.
///
/// # Errors
/// The I/O error reading the file.
pub fn complete_lines(path: &Path) -> io::Result<(String, usize)> {
    let (text, truncated) = split_complete(&std::fs::read(path)?);
    if truncated > 0 {
        eprintln!(
            "arena: {}: ignoring an incomplete last line ({truncated} bytes, left by a killed run)",
            path.display()
        );
    }
    Ok((text, truncated))
}

/// The complete lines of `bytes` and the length of an incomplete last line.
fn split_complete(bytes: &[u8]) -> (String, usize) {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    (
        String::from_utf8_lossy(&bytes[..complete]).into_owned(),
        bytes.len() - complete,
    )
}

/// The journal's first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// A hash of everything that decides the games.
    pub fingerprint: String,
    /// The shard this journal holds.
    pub shard: Shard,
    /// The engines' names, in order.
    pub engines: Vec<String>,
    /// Games in the whole tournament.
    pub games: u64,
    /// What the fingerprint was computed from, for people.
    pub description: String,
    /// The `--sprt` of the run, as given, for `arena report`'s trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
}

/// A tournament journal's first line, `{"tournament": {...}}`: the one shape every
/// reader and the writer use.
#[derive(Serialize, Deserialize)]
pub struct HeaderLine {
    /// The header.
    pub tournament: Header,
}

/// The fingerprint of a description: FNV-1a, 64 bits (Fowler, Noll, Vo), a fixed hash,
/// the same in every build.
pub fn fingerprint(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The description the fingerprint is taken of.
pub fn describe(
    engines: &[Arc<EngineConfig>],
    schedule: &str,
    game: &str,
    openings: &str,
    shuffle: bool,
    seed: u64,
) -> String {
    let mut d =
        format!("game={game}; {schedule}; openings={openings}; shuffle={shuffle}; seed={seed}");
    for e in engines {
        let _ = write!(
            d,
            "; engine {:?} cmd={:?} args={:?} dir={:?} env={:?} dialect={:?} options={:?} tc={}",
            e.name,
            e.spawn.program,
            e.spawn.args,
            e.spawn.dir,
            e.spawn.env,
            e.dialect,
            e.options,
            e.tc
        );
    }
    d
}

/// What differs between two descriptions (`key=value` items separated by `; `), in
/// words: `rounds=2 in the journal, rounds=3 now`.
fn differences(journal: &str, now: &str) -> String {
    let before: Vec<&str> = journal.split("; ").collect();
    let after: Vec<&str> = now.split("; ").collect();
    let mut out = Vec::new();
    for (i, item) in after.iter().enumerate() {
        if before.get(i) != Some(item) {
            let old = before.get(i).copied().unwrap_or("(nothing)");
            out.push(format!("{old} in the journal, {item} now"));
        }
    }
    if after.len() < before.len() {
        out.push(format!(
            "{} more setting(s) in the journal",
            before.len() - after.len()
        ));
    }
    if out.is_empty() {
        "its settings differ".into()
    } else {
        out.join("; ")
    }
}

/// One line of a journal.
enum Line {
    Header(Header),
    Game(Box<GameRecord>),
}

/// The complete lines of the journal at `path`, parsed, with their line numbers (from 1),
/// and the bytes of an incomplete last line that were left out.
///
/// # Errors
/// An unreadable file, or a line that is neither a header nor a game record.
fn parse(path: &Path) -> anyhow::Result<(Vec<(usize, Line)>, usize)> {
    let (text, truncated) =
        complete_lines(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = Vec::new();
    for (number, line) in numbered(&text) {
        let line = parse_line(line).with_context(|| {
            format!(
                "{}:{number}: neither a game record nor a tournament header",
                path.display()
            )
        })?;
        lines.push((number, line));
    }
    Ok((lines, truncated))
}

/// The non-empty lines of `text` with their numbers (from 1).
fn numbered(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
}

fn parse_line(line: &str) -> serde_json::Result<Line> {
    if let Ok(h) = serde_json::from_str::<HeaderLine>(line) {
        return Ok(Line::Header(h.tournament));
    }
    serde_json::from_str(line).map(|g| Line::Game(Box::new(g)))
}

/// The games of a journal that may be being written (what the web page shows while a
/// run goes on): every complete line that is a game record, in file order, and the
/// number of complete lines that are neither a game nor a header. Reports nothing.
///
/// # Errors
/// The I/O error reading the file.
pub fn read_lenient(path: &Path) -> io::Result<(Vec<GameRecord>, usize)> {
    let (text, _) = split_complete(&std::fs::read(path)?);
    let mut games = Vec::new();
    let mut bad = 0;
    for (_, line) in numbered(&text) {
        match parse_line(line) {
            Ok(Line::Game(g)) => games.push(*g),
            Ok(Line::Header(_)) => {}
            Err(_) => bad += 1,
        }
    }
    Ok((games, bad))
}

/// A journal as read back.
#[derive(Debug, Default)]
pub struct Contents {
    /// The first header line, `None` for a match's journal (or an empty file).
    pub header: Option<Header>,
    /// The games, in file order.
    pub games: Vec<GameRecord>,
    /// Bytes of an incomplete last line (a run killed mid-write), ignored.
    pub truncated: usize,
}

/// Reads a journal of any kind: every game in it, finished or not, in file order.
///
/// # Errors
/// An unreadable file, or a line that is neither a game record nor a header (named by
/// its file and line number).
pub fn read(path: &Path) -> anyhow::Result<Contents> {
    let (lines, truncated) = parse(path)?;
    let mut contents = Contents {
        truncated,
        ..Contents::default()
    };
    for (_, line) in lines {
        match line {
            Line::Header(h) => {
                contents.header.get_or_insert(h);
            }
            Line::Game(g) => contents.games.push(*g),
        }
    }
    Ok(contents)
}

/// Reads a tournament's journal: its header, which must be the first line, and its
/// finished games. An empty file (or one holding only an incomplete header line) has
/// no header.
///
/// # Errors
/// As [`read`], and a journal whose first line is not a header.
pub fn read_tournament(path: &Path) -> anyhow::Result<Contents> {
    let (lines, truncated) = parse(path)?;
    let mut contents = Contents {
        truncated,
        ..Contents::default()
    };
    for (number, line) in lines {
        match (line, &contents.header) {
            (Line::Header(h), None) => contents.header = Some(h),
            (Line::Game(_), None) => bail!(
                "{}:{number}: not a tournament journal (no header line)",
                path.display()
            ),
            (Line::Header(_), Some(_)) => {
                bail!("{}:{number}: a second tournament header", path.display())
            }
            (Line::Game(g), Some(_)) => {
                if g.outcome().is_some() {
                    contents.games.push(*g);
                }
            }
        }
    }
    Ok(contents)
}

/// The finished games of the journal at `path` recorded with `fingerprint`, each game
/// once (none if the file does not exist): what a resumed match keeps.
///
/// # Errors
/// As [`read`].
pub fn finished(path: &Path, fingerprint: &str) -> anyhow::Result<Vec<GameRecord>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut games: Vec<GameRecord> = Vec::new();
    for record in read(path)?.games {
        if record.fingerprint.as_deref() == Some(fingerprint)
            && record.outcome().is_some()
            && !games.iter().any(|g| g.game == record.game)
        {
            games.push(record);
        }
    }
    Ok(games)
}

/// Everything read from one or more journal files.
#[derive(Debug, Default)]
pub struct Journals {
    /// The games, in file order, each once: a game of a tournament is counted once even
    /// when two shards' files both hold it, and a game that was interrupted and played
    /// again when its run resumed counts as its finished replay.
    pub records: Vec<GameRecord>,
    /// Tournament headers found.
    pub headers: Vec<Header>,
}

/// Reads journals of any kind (what `arena report` and the web page show).
///
/// # Errors
/// An unreadable file, or a line that is neither a game record nor a header.
pub fn read_many(paths: &[&Path]) -> anyhow::Result<Journals> {
    let mut out = Journals::default();
    let mut seen: std::collections::HashMap<(String, u64), usize> = Default::default();
    for path in paths {
        let (lines, _) = parse(path)?;
        let mut fingerprint: Option<String> = None;
        for (_, line) in lines {
            let record = match line {
                Line::Header(h) => {
                    fingerprint = Some(h.fingerprint.clone());
                    out.headers.push(h);
                    continue;
                }
                Line::Game(g) => *g,
            };
            let key = match (&fingerprint, &record.fingerprint) {
                (Some(f), _) | (None, Some(f)) => Some((f.clone(), record.game)),
                (None, None) => None,
            };
            match key {
                Some(key) => match seen.get(&key) {
                    // The same game again: a finished replay replaces an unfinished game.
                    Some(&at) => {
                        if out.records[at].outcome().is_none() && record.outcome().is_some() {
                            out.records[at] = record;
                        }
                    }
                    None => {
                        seen.insert(key, out.records.len());
                        out.records.push(record);
                    }
                },
                None => out.records.push(record),
            }
        }
    }
    Ok(out)
}

/// Opens a tournament's journal at `path` for `header`: checks that a journal being
/// resumed holds the same tournament and shard, writes the header line of a new one, and
/// returns the games already played.
///
/// # Errors
/// A journal of another tournament or shard, or I/O errors.
pub fn open_tournament(path: &Path, header: &Header) -> anyhow::Result<(Journal, Vec<GameRecord>)> {
    let mut done = Vec::new();
    let mut fresh = true;
    if path.exists() {
        let contents = read_tournament(path)?;
        if let Some(h) = contents.header {
            if h.fingerprint != header.fingerprint {
                bail!(
                    "{} holds another tournament: {}. Run the same command as before to resume it, or give another --out (or --journal) for this one",
                    path.display(),
                    differences(&h.description, &header.description)
                );
            }
            if h.shard != header.shard {
                bail!(
                    "{} holds shard {} of this tournament, not {}",
                    path.display(),
                    h.shard,
                    header.shard
                );
            }
            fresh = false;
            done = contents.games;
        }
    }
    if fresh {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let mut line = serde_json::to_string(&HeaderLine {
            tournament: header.clone(),
        })?;
        line.push('\n');
        let mut file = std::fs::File::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        file.write_all(line.as_bytes())?;
        file.sync_all()?;
    }
    let journal = Journal::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    Ok((journal, done))
}

/// What `arena merge` reads: the shards' journals of one tournament.
///
/// # Errors
/// Journals of different tournaments, the same shard or game twice, unreadable files.
pub fn merge(
    paths: &[PathBuf],
) -> anyhow::Result<(Header, Vec<GameRecord>, BTreeMap<String, usize>)> {
    let mut header: Option<Header> = None;
    let mut games: BTreeMap<u64, GameRecord> = BTreeMap::new();
    let mut seen_shards: BTreeMap<String, usize> = BTreeMap::new();
    for path in paths {
        let contents = read_tournament(path)?;
        let Some(h) = contents.header else {
            bail!("{}: empty journal", path.display());
        };
        if let Some(first) = &header {
            if first.fingerprint != h.fingerprint {
                bail!(
                    "{} is from another tournament (fingerprint {} vs {})",
                    path.display(),
                    h.fingerprint,
                    first.fingerprint
                );
            }
        }
        if let Some(first) = &header {
            if first.shard.count != h.shard.count {
                bail!(
                    "{} holds shard {} but another journal holds shard {}: merge the shards of one split (same N)",
                    path.display(),
                    h.shard,
                    first.shard
                );
            }
        }
        let shard = h.shard.to_string();
        if seen_shards.contains_key(&shard) {
            bail!("{}: shard {shard} given twice", path.display());
        }
        seen_shards.insert(shard, contents.games.len());
        for g in contents.games {
            if games.contains_key(&g.game) {
                bail!(
                    "{}: game {} is also in another journal",
                    path.display(),
                    g.game
                );
            }
            games.insert(g.game, g);
        }
        header.get_or_insert(h);
    }
    let Some(header) = header else {
        bail!("arena merge needs at least one journal");
    };
    Ok((header, games.into_values().collect(), seen_shards))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64, result: &str, fingerprint: &str) -> GameRecord {
        let kind = if result == "*" {
            "interrupted"
        } else {
            "normal"
        };
        serde_json::from_value(serde_json::json!({
            "version": 1, "run": "r", "game": index, "pair": index / 2, "spec": "tictactoe",
            "p1": {"name": "x", "engine": 0, "tc": "d1"},
            "p2": {"name": "y", "engine": 1, "tc": "d1"},
            "opening": {"position": null, "moves": []}, "moves": [],
            "result": result, "winner": null, "termination": {"kind": kind},
            "reason": "", "final_position": "", "started_unix_ms": 0, "duration_ms": 0,
            "fingerprint": fingerprint
        }))
        .unwrap()
    }

    fn header(fingerprint: &str) -> Header {
        Header {
            fingerprint: fingerprint.into(),
            shard: Shard::ALL,
            engines: vec!["x".into(), "y".into()],
            games: 4,
            description: "seed=1".into(),
            sprt: None,
        }
    }

    fn write(path: &Path, records: &[GameRecord]) {
        let mut journal = Journal::open(path).unwrap();
        records.iter().for_each(|r| journal.append(r).unwrap());
    }

    #[test]
    fn a_resumed_match_keeps_each_finished_game_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        write(
            &path,
            &[
                game(0, "1-0", "a"),
                game(1, "*", "a"),
                game(0, "1-0", "b"),
                game(1, "0-1", "a"),
                game(1, "0-1", "a"),
            ],
        );
        let kept: Vec<(u64, String)> = finished(&path, "a")
            .unwrap()
            .iter()
            .map(|g| (g.game, g.result.clone()))
            .collect();
        assert_eq!(kept, [(0, "1-0".to_string()), (1, "0-1".to_string())]);
        assert!(finished(&dir.path().join("none.jsonl"), "a")
            .unwrap()
            .is_empty());
    }

    #[test]
    fn the_report_counts_an_interrupted_game_as_its_replay() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        write(
            &path,
            &[game(0, "1-0", "a"), game(1, "*", "a"), game(1, "0-1", "a")],
        );
        let read = read_many(&[&path]).unwrap();
        let results: Vec<&str> = read.records.iter().map(|g| g.result.as_str()).collect();
        assert_eq!(results, ["1-0", "0-1"]);
        // Everything, as written, for a reader that wants it.
        assert_eq!(read_lenient(&path).unwrap().0.len(), 3);
    }

    #[test]
    fn a_tournament_journal_starts_with_its_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let (mut journal, done) = open_tournament(&path, &header("f")).unwrap();
        assert!(done.is_empty());
        journal.append(&game(0, "1-0", "")).unwrap();
        journal.append(&game(1, "*", "")).unwrap();
        drop(journal);
        let (_, done) = open_tournament(&path, &header("f")).unwrap();
        assert_eq!(done.len(), 1, "the interrupted game is played again");
        let other = open_tournament(&path, &header("g"))
            .unwrap_err()
            .to_string();
        assert!(other.contains("holds another tournament"), "{other}");

        let headless = dir.path().join("m.jsonl");
        write(&headless, &[game(0, "1-0", "a")]);
        let e = format!("{:#}", read_tournament(&headless).unwrap_err());
        assert!(e.contains("m.jsonl:1: not a tournament journal"), "{e}");
        // Any reader names a line that is neither kind.
        std::fs::write(&headless, "{\"version\":1}\n").unwrap();
        let e = format!("{:#}", read(&headless).unwrap_err());
        assert!(
            e.contains("m.jsonl:1: neither a game record nor a tournament header"),
            "{e}"
        );
        assert_eq!(read_lenient(&headless).unwrap(), (Vec::new(), 1));
    }

    #[test]
    fn the_fingerprint_is_fnv1a() {
        // Published FNV-1a 64 test vectors (Fowler, Noll, Vo).
        assert_eq!(fingerprint(""), "cbf29ce484222325");
        assert_eq!(fingerprint("a"), "af63dc4c8601ec8c");
    }
}
