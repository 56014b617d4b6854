//! Learning from finished games: the effect on play, the guarantee that learning never
//! prefers a proven loss, concurrent writers and corrupt files.

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use agon::game::{Game, Outcome, Side};
use agon::games::mnk::{Mnk, MnkSettings};
use agon::games::GameSpec;
use agon::learn::choose_move;
use agon::learn::{LearnError, LearnStore};
use agon::search::{new_searcher, Limits, SearchOptions, Searcher, SearcherKind};

fn searcher() -> Box<dyn Searcher<Mnk>> {
    let options = SearchOptions {
        heuristic: Mnk::heuristics()[0].1,
        ordering: true,
        hash_mb: 4,
        default_depth: 4,
        move_overhead: Duration::ZERO,
        seed: 0,
        playout: agon::search::DEFAULT_PLAYOUT,
        threads: 1,
    };
    new_searcher::<Mnk>(SearcherKind::Pvs, &options)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agon-learn-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One game: the learning engine (shallow, learning) against a fixed opponent (deeper,
/// no learning, deterministic: the same position always gets the same reply, so it
/// replays one scripted line as long as the engine does). Returns the moves and result.
fn one_game(
    settings: &MnkSettings,
    engine_side: Side,
    engine_depth: u32,
    opponent_depth: u32,
    store: &mut LearnStore,
    learn: bool,
) -> (Vec<String>, Outcome) {
    let mut pos = Mnk::start(settings);
    let (mut engine, mut opponent) = (searcher(), searcher());
    let mut line = Vec::new();
    let mut positions = Vec::new();
    let outcome = loop {
        if let Some(o) = pos.outcome() {
            break o;
        }
        let mover = pos.side_to_move();
        let mv = if mover == engine_side {
            let learned = if learn { Some(&*store) } else { None };
            choose_move(
                &mut pos,
                engine.as_mut(),
                &Limits::depth(engine_depth),
                learned,
            )
        } else {
            choose_move(
                &mut pos,
                opponent.as_mut(),
                &Limits::depth(opponent_depth),
                None,
            )
        }
        .unwrap();
        line.push(pos.format_move(mv));
        pos.make_move(mv);
        positions.push((pos.hash(), mover));
    };
    if learn {
        let spec = GameSpec::of::<Mnk>(settings).to_string();
        store.record(&spec, &positions, outcome).unwrap();
    }
    (line, outcome)
}

/// 5x5 four-in-a-row is far beyond a depth-2 search. Without learning the depth-2
/// engine loses the same scripted line to the depth-4 opponent game after game; with
/// learning it leaves that line after the first loss and stops losing within a few games.
#[test]
fn learning_stops_losing_to_a_scripted_line() {
    let dir = temp_dir("line");
    let path = dir.join("store.txt");
    let settings = MnkSettings::new(5, 5, 4);
    let mut unused = LearnStore::open(dir.join("unused.txt")).unwrap();
    let (losing_line, first) = one_game(&settings, Side::Second, 2, 4, &mut unused, false);
    assert_eq!(
        first,
        Outcome::Win(Side::First),
        "the opponent must win the line"
    );
    for _ in 0..2 {
        let (line, outcome) = one_game(&settings, Side::Second, 2, 4, &mut unused, false);
        assert_eq!(
            (&line, outcome),
            (&losing_line, first),
            "no learning: same loss"
        );
    }
    assert!(unused.is_empty());

    let mut store = LearnStore::open(&path).unwrap();
    let (line, outcome) = one_game(&settings, Side::Second, 2, 4, &mut store, true);
    assert_eq!(
        (&line, outcome),
        (&losing_line, first),
        "nothing learned yet"
    );
    const BOUND: usize = 5;
    let mut results = Vec::new();
    for _ in 0..BOUND {
        let (line, outcome) = one_game(&settings, Side::Second, 2, 4, &mut store, true);
        assert_ne!(line, losing_line, "learning must leave the losing line");
        results.push(outcome);
    }
    assert!(
        results.iter().any(|&o| o != Outcome::Win(Side::First)),
        "still losing after {BOUND} games: {results:?}"
    );
    assert_ne!(*results.last().unwrap(), Outcome::Win(Side::First));
    // The file reloads with the same content, byte for byte when written again.
    let reloaded = LearnStore::open(&path).unwrap();
    assert_eq!(reloaded, store);
    assert!(!reloaded.is_empty());
}

/// Tic-tac-toe, o to move after x a1 b1, o b2: only c1 does not lose (x completes the
/// row otherwise; the search proves it at depth 2). A store that loves every other
/// reply and hates c1 must not move the engine off c1.
#[test]
fn learning_never_prefers_a_proven_loss() {
    let settings = MnkSettings::new(3, 3, 3);
    let spec = GameSpec::of::<Mnk>(&settings).to_string();
    let dir = temp_dir("proven");
    let mut store = LearnStore::open(dir.join("store.txt")).unwrap();
    let mut pos = Mnk::parse_position(&settings, "3/1o1/xx1 o").unwrap();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for &mv in &moves {
        let mut child = pos.clone();
        child.make_move(mv);
        let outcome = if pos.format_move(mv) == "c1" {
            Outcome::Win(Side::First)
        } else {
            Outcome::Win(Side::Second)
        };
        let positions = vec![(child.hash(), Side::Second); 1];
        for _ in 0..20 {
            store.record(&spec, &positions, outcome).unwrap();
        }
    }
    for depth in [2, 3, 4, 9] {
        let mut s = searcher();
        let mv = choose_move(&mut pos, s.as_mut(), &Limits::depth(depth), Some(&store)).unwrap();
        assert_eq!(pos.format_move(mv), "c1", "depth {depth}");
    }

    // The same store does change a choice among moves that are not proven: from the
    // empty board, favour a corner the search does not pick.
    let mut start = Mnk::start(&settings);
    let mut s = searcher();
    let plain = choose_move(&mut start, s.as_mut(), &Limits::depth(2), None).unwrap();
    // The store is keyed by position, and the m,n,k hash does not tell symmetric positions
    // apart: the target must lead to a position no symmetry maps to the plain choice's.
    let root = start.clone();
    let after = |mv| {
        let mut child = root.clone();
        child.make_move(mv);
        child
    };
    let plain_hash = after(plain).hash();
    let target = ["a1", "b1", "b2"]
        .into_iter()
        .find(|t| after(agon::game::find_move_by_text(&start, t).unwrap()).hash() != plain_hash)
        .unwrap();
    let mv = agon::game::find_move_by_text(&start, target).unwrap();
    let child = after(mv);
    let positions = vec![(child.hash(), Side::First)];
    for _ in 0..20 {
        store
            .record(&spec, &positions, Outcome::Win(Side::First))
            .unwrap();
    }
    let mut s = searcher();
    let learned = choose_move(&mut start, s.as_mut(), &Limits::depth(2), Some(&store)).unwrap();
    // The learned move is the target or one of its mirror images.
    assert_eq!(
        after(learned).hash(),
        child.hash(),
        "learned {} for target {target}",
        start.format_move(learned)
    );
}

const WORKER_ENV: &str = "AGON_LEARN_WORKER";
const WORKER_GAMES: u64 = 40;

/// Not a test on its own: the body of one writer process of `concurrent_writers`.
#[test]
fn learn_worker_process() {
    let Ok(spec) = std::env::var(WORKER_ENV) else {
        return;
    };
    let (path, id) = spec.split_once('|').unwrap();
    let id: u64 = id.parse().unwrap();
    let mut store = LearnStore::open(path).unwrap();
    for g in 0..WORKER_GAMES {
        // One position of its own per game and one shared by both writers.
        let positions = [(id * 1000 + g, Side::First), (7, Side::First)];
        store
            .record("mnk m=3 n=3 k=3", &positions, Outcome::Win(Side::First))
            .unwrap();
    }
}

/// Two processes record into one store at once: no update is lost.
#[test]
fn concurrent_writers() {
    let dir = temp_dir("concurrent");
    let path = dir.join("store.txt");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = [1u64, 2]
        .iter()
        .map(|id| {
            std::process::Command::new(&exe)
                .args(["--exact", "learn_worker_process", "--test-threads=1"])
                .env(WORKER_ENV, format!("{}|{id}", path.display()))
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let store = LearnStore::open(&path).unwrap();
    assert_eq!(store.len() as u64, 2 * WORKER_GAMES + 1);
    let shared = store.get("mnk m=3 n=3 k=3", 7).unwrap();
    assert_eq!(shared.wins as u64, 2 * WORKER_GAMES);
    for id in [1u64, 2] {
        for g in 0..WORKER_GAMES {
            assert_eq!(store.get("mnk m=3 n=3 k=3", id * 1000 + g).unwrap().wins, 1);
        }
    }
}

/// A corrupt store is refused with a message naming the file and line, and the
/// binary exits non-zero without touching the file.
#[test]
fn corrupt_store_is_refused_and_kept() {
    let dir = temp_dir("corrupt");
    let path = dir.join("store.txt");
    let bad = "agon-learn 1\nmnk m=3 n=3 k=3\tnothex\t1\t0\t0\n";
    std::fs::write(&path, bad).unwrap();
    match LearnStore::open(&path) {
        Err(LearnError::Corrupt { line, .. }) => assert_eq!(line, 2),
        other => panic!("expected a corrupt-file error, got {other:?}"),
    }
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(["play", "tictactoe", "--seed", "1", "--learn"])
        .arg(&path)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 2") && stderr.contains("not a hex hash"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);

    std::fs::write(&path, "some other program's data\n").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(["play", "tictactoe", "--learn"])
        .arg(&path)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("not an agon learn file"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "some other program's data\n"
    );
}

/// Runs the engine on `input` (protocol lines), waits until it has printed as many
/// `bestmove` lines as there are `go` commands, then closes its input; returns its output.
fn engine_session(input: &str) -> String {
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut out = String::new();
    let wanted = input.lines().filter(|l| l.starts_with("go")).count();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut seen = 0;
    while seen < wanted {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen += usize::from(line.starts_with("bestmove"));
        out.push_str(&line);
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    reader.read_to_string(&mut out).unwrap();
    child.wait().unwrap();
    out
}

/// Through the protocol: the engine learns when its own bestmove ends the game, once
/// even when the controller then sends the finished position, and from a finished
/// position it is given (the opponent's win).
#[test]
fn protocol_learn_file() {
    let dir = temp_dir("protocol");
    let path = dir.join("store.txt");
    let set = format!("setoption name LearnFile value {}\n", path.display());
    // x a1, o b1, x a2, o b2: x to move wins with a3 (its own bestmove ends the game).
    let out = engine_session(&format!(
        "{set}position startpos moves a1 b1 a2 b2\ngo depth 3\n"
    ));
    assert!(out.contains("bestmove a3"), "{out}");
    let store = LearnStore::open(&path).unwrap();
    assert_eq!(store.len(), 5, "{:?}", store.entries());
    let settings = MnkSettings::new(3, 3, 3);
    let spec = GameSpec::of::<Mnk>(&settings).to_string();
    let mut pos = Mnk::start(&settings);
    for text in ["a1", "b1", "a2", "b2", "a3"] {
        let mv = agon::game::find_move_by_text(&pos, text).unwrap();
        pos.make_move(mv);
    }
    assert_eq!(store.get(&spec, pos.hash()).unwrap().wins, 1);

    // The same game sent back as a finished position is not counted twice in one session.
    engine_session(&format!(
        "{set}position startpos moves a1 b1 a2 b2\ngo depth 3\nisready\n\
         position startpos moves a1 b1 a2 b2 a3\nisready\n"
    ));
    let again = LearnStore::open(&path).unwrap();
    assert_eq!(
        again.get(&spec, pos.hash()).unwrap().wins,
        2,
        "one more game, not two"
    );

    // A finished position where the engine lost (it played o).
    engine_session(&format!(
        "{set}position startpos moves b2 a1 c3 a2 a3 b1 c1\n"
    ));
    let lost = LearnStore::open(&path).unwrap();
    let mut pos = Mnk::start(&settings);
    for text in ["b2", "a1", "c3", "a2", "a3", "b1", "c1"] {
        let mv = agon::game::find_move_by_text(&pos, text).unwrap();
        pos.make_move(mv);
    }
    assert!(pos.outcome().is_some());
    assert_eq!(lost.get(&spec, pos.hash()).unwrap().wins, 1);
    // Seven new positions: the second game shares none with the first.
    assert_eq!(lost.len(), 5 + 7);
}

/// An empty, valid store: what a careless engine would happily read and write through
/// a link to it.
const EMPTY_STORE: &str = "agon-learn 1\n";

/// The files of `dir`, sorted.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// One game's worth of positions to record.
fn record_one(store: &mut LearnStore) -> Result<(), LearnError> {
    store.record(
        "mnk m=3 n=3 k=3",
        &[(1, Side::First), (2, Side::Second)],
        Outcome::Win(Side::First),
    )
}

fn assert_refused(
    result: Result<impl std::fmt::Debug, LearnError>,
    path: &std::path::Path,
    kind: &str,
) {
    match result {
        Err(err @ LearnError::NotAFile { .. }) => {
            let text = err.to_string();
            assert!(
                text.contains(&path.display().to_string()) && text.contains(kind),
                "{text}"
            );
        }
        other => panic!(
            "expected {kind} at {} to be refused, got {other:?}",
            path.display()
        ),
    }
}

/// A symbolic link as the store, planted before the store is opened or after, and links
/// planted at the lock file and at the temporary file's old predictable name: none of
/// them makes the engine write to (or create) the link's target, and none is replaced.
#[test]
fn planted_symlinks_never_cause_a_write_to_their_target() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("symlink");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, EMPTY_STORE).unwrap();
    let path = dir.join("store.txt");

    // A link as the store: refused when opened, through the API and the protocol.
    symlink(&victim, &path).unwrap();
    assert_refused(LearnStore::open(&path), &path, "symbolic link");
    let out = engine_session(&format!(
        "setoption name LearnFile value {}\nisready\n",
        path.display()
    ));
    assert!(
        out.starts_with("error bad-value option LearnFile: learn file ")
            && out.contains("is a symbolic link"),
        "{out}"
    );

    // A store opened while the path was free, then a link planted there: the update
    // refuses it; the victim keeps its bytes and the link stays a link.
    std::fs::remove_file(&path).unwrap();
    let mut store = LearnStore::open(&path).unwrap();
    symlink(&victim, &path).unwrap();
    assert_refused(record_one(&mut store), &path, "symbolic link");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), EMPTY_STORE);
    assert!(std::fs::symlink_metadata(&path).unwrap().is_symlink());

    // A link at the lock file, pointing where no file is: not followed, nothing created.
    std::fs::remove_file(&path).unwrap();
    let created = dir.join("created-by-the-lock.txt");
    let lock = dir.join("store.txt.lock");
    // (The refused update above had created the lock file itself: a regular file.)
    assert!(std::fs::symlink_metadata(&lock).unwrap().is_file());
    std::fs::remove_file(&lock).unwrap();
    symlink(&created, &lock).unwrap();
    assert_refused(record_one(&mut store), &lock, "symbolic link");
    assert!(!created.exists());
    std::fs::remove_file(&lock).unwrap();

    // Links at the temporary file's old predictable names (`PATH.tmp.PID`, for this
    // process and the next few) are ignored: the update lands in the store, the victim
    // keeps its bytes, and no temporary file is left behind.
    let pid = std::process::id();
    for p in pid..pid + 4 {
        symlink(&victim, dir.join(format!("store.txt.tmp.{p}"))).unwrap();
    }
    let before = listing(&dir);
    record_one(&mut store).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), EMPTY_STORE);
    let stored = LearnStore::open(&path).unwrap();
    assert_eq!(stored.len(), 2);
    let mut expected = before;
    expected.extend(["store.txt".to_string(), "store.txt.lock".to_string()]);
    expected.sort();
    assert_eq!(listing(&dir), expected);
    assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
}

/// A FIFO, a directory and a device as the store are refused at once, naming the path
/// and what it is, and left as they are. A FIFO used to hang the engine: opening it for
/// reading waits for a writer.
#[test]
fn fifo_directory_and_device_stores_are_refused_at_once() {
    let dir = temp_dir("special");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // On a thread, so that a hang fails the test instead of blocking it.
    let (tx, rx) = std::sync::mpsc::channel();
    let f = fifo.clone();
    std::thread::spawn(move || tx.send(LearnStore::open(&f).map(|s| s.len())));
    let opened = rx
        .recv_timeout(Duration::from_secs(2))
        .expect("opening a FIFO as the store must not hang");
    assert_refused(opened, &fifo, "FIFO");
    let out = engine_session(&format!(
        "setoption name LearnFile value {}\nisready\n",
        fifo.display()
    ));
    assert!(
        out.contains("is a FIFO") && out.ends_with("readyok\n"),
        "{out}"
    );

    let sub = dir.join("a-directory");
    std::fs::create_dir(&sub).unwrap();
    assert_refused(LearnStore::open(&sub), &sub, "directory");
    assert_refused(
        LearnStore::open("/dev/null"),
        std::path::Path::new("/dev/null"),
        "character device",
    );

    // A store that becomes a FIFO or a directory after it was opened: the update is
    // refused and the special file stays what it was.
    let path = dir.join("store.txt");
    let mut store = LearnStore::open(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert_refused(record_one(&mut store), &path, "directory");
    assert!(path.is_dir());
    std::fs::remove_dir(&path).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(record_one(&mut store)));
    let recorded = rx
        .recv_timeout(Duration::from_secs(2))
        .expect("recording into a FIFO must not hang");
    assert_refused(recorded, &path, "FIFO");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&path)
        .unwrap()
        .file_type()
        .is_fifo());
}
