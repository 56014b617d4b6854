//! What the book's engine page (docs/engine.md) and protocol.md say about the engine,
//! checked against what it does (issue 54): which commands a search refuses, the example
//! session, the engine page's m,n,k proofs and the memory they need through the
//! protocol, when `solve` names a move, and that every shell line of the README and the
//! book runs the binaries it just built.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::EngineProcess;

const SEC: Duration = Duration::from_secs(1);

fn doc(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

/// The words in backticks in `text`.
fn ticked(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// The part of `text` between `from` and the next `to`.
fn between<'a>(text: &'a str, from: &str, to: &str) -> &'a str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("no '{from}' in the document"))
        + from.len();
    let end = start + text[start..].find(to).unwrap();
    &text[start..end]
}

/// One line of every command of protocol.md section 3, by its first word.
const EVERY_COMMAND: [&str; 19] = [
    "ugi",
    "uci",
    "tei",
    "isready",
    "setoption name Depth value 2",
    "uginewgame",
    "position startpos",
    "go depth 1",
    "stop",
    "ponderhit",
    "debug off",
    "quit",
    "query gameover",
    "moves",
    "perft 1",
    "solve",
    "show",
    "games",
    "eval",
];

/// The commands that `error busy` answers during `go infinite`, by their first word.
fn refused_during_a_search() -> (BTreeSet<String>, BTreeSet<String>) {
    let mut e = EngineProcess::start();
    e.ask("position startpos");
    let mut refused = BTreeSet::new();
    let mut answered = BTreeSet::new();
    for line in EVERY_COMMAND {
        let word = line.split_whitespace().next().unwrap().to_string();
        if matches!(word.as_str(), "stop" | "quit") {
            // Both end the search (quit the engine): answered, by protocol.md's own
            // examples (`stop` during `go infinite` and `quit` during a search).
            answered.insert(word);
            continue;
        }
        e.send("go infinite");
        let lines: Vec<String> = e
            .ask(line)
            .into_iter()
            .filter(|l| !l.starts_with("info"))
            .collect();
        if lines.iter().any(|l| l.starts_with("error busy")) {
            refused.insert(word);
        } else {
            answered.insert(word);
        }
        e.send("stop");
        e.until("bestmove", 5 * SEC);
    }
    (refused, answered)
}

#[test]
fn the_busy_lists_of_readme_and_protocol_md_are_what_the_engine_refuses() {
    let (refused, answered) = refused_during_a_search();
    // Every command of protocol.md's section 3 is in the list above.
    let protocol = doc("protocol.md");
    let section = between(&protocol, "## 3. Commands", "## 4. Replies");
    let headed: BTreeSet<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .flat_map(|l| {
            ticked(l)
                .into_iter()
                .map(|c| c.split_whitespace().next().unwrap().to_string())
        })
        .filter(|w| !matches!(w.as_str(), "ucinewgame" | "teinewgame"))
        .collect();
    let tested: BTreeSet<String> = refused.union(&answered).cloned().collect();
    assert_eq!(headed, tested, "a command of section 3 is not tested here");

    // protocol.md's error table: "during a search ...: REFUSED (every command but ALLOWED)".
    let row = between(
        &protocol,
        "| `busy` | during a search, a `perft` or a `solve`: ",
        "|\n",
    );
    let (listed, but) = row.split_once("(every command but").unwrap();
    assert_eq!(ticked(listed), refused, "protocol.md's busy row: {row}");
    assert_eq!(ticked(but), answered, "protocol.md's busy row: {row}");

    // docs/engine.md after its session.
    let readme = doc("docs/engine.md");
    let sentence = between(
        &readme,
        "`go` answers at once and the search runs on:",
        "Typing",
    );
    let (allowed, rest) = sentence.split_once("every other command,").unwrap();
    let listed = between(rest, "", "gets `error busy`");
    assert_eq!(ticked(listed), refused, "README: {sentence}");
    let mut allowed = ticked(allowed.split_once("answers only").unwrap().1);
    allowed.insert("stop".into());
    allowed.insert("quit".into());
    assert_eq!(allowed, answered, "README: {sentence}");
}

#[test]
fn the_readme_session_plays_a_legal_move_and_says_its_output_is_illustrative() {
    let readme = doc("docs/engine.md");
    let intro = between(
        &readme,
        "A session, as a GUI or a script would drive it",
        "```",
    );
    assert!(intro.contains("illustrative"), "{intro}");
    let after = &readme[readme.find("A session, as a GUI").unwrap()..];
    let block = between(after, "```\n", "```");
    let mut e = EngineProcess::start();
    let mut bestmove = None;
    let mut sent = Vec::new();
    for line in block.lines() {
        let Some(command) = line.strip_prefix("> ") else {
            continue;
        };
        sent.push(command.to_string());
        if command.starts_with("go") {
            e.send(command);
            let lines = e.until("bestmove", 30 * SEC);
            assert!(lines.iter().all(|l| !l.starts_with("error")), "{lines:?}");
            bestmove = lines
                .last()
                .and_then(|l| l.strip_prefix("bestmove "))
                .map(String::from);
        } else {
            let lines = e.ask(command);
            assert!(
                lines.iter().all(|l| !l.starts_with("error")),
                "{command}: {lines:?}"
            );
        }
    }
    let mv = bestmove.expect("the session's go");
    // Legal by the engine's own move list at that position.
    let position = sent.iter().find(|c| c.starts_with("position")).unwrap();
    e.ask(position);
    let legal = e.ask("moves");
    let legal: Vec<&str> = legal.iter().flat_map(|l| l.split_whitespace()).collect();
    assert!(
        legal.contains(&mv.as_str()),
        "bestmove {mv} not in {legal:?}"
    );
}

/// docs/engine.md: the empty 7x7 five-in-a-row board is proved a draw (with the node
/// count it gives) by `agon solve`; through the protocol the Hash it names proves 7x5
/// four in a row but is too little for its distance, and the default is enough for both.
#[test]
fn the_engine_guides_mnk_proofs_and_the_hash_they_need() {
    let guide = doc("docs/engine.md");
    let claim = between(
        &guide,
        "The empty 7x7 five-in-a-row board is proved a",
        "; a win",
    );
    let nodes: String = between(claim, "(", " nodes)")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(["--game", "mnk m=7 n=7 k=5", "solve"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("result: draw"), "{text}");
    assert!(
        text.contains(&format!("nodes: {nodes}\n")),
        "docs/engine.md says {nodes} nodes: {text}"
    );

    let hash: String = between(
        &guide,
        "the `Hash` option's MiB:\n`setoption name Hash value ",
        " proves the 7x5",
    )
    .chars()
    .take_while(char::is_ascii_digit)
    .collect();
    let mut e = EngineProcess::start();
    e.ask("setoption name Game value mnk m=7 n=5 k=4");
    e.ask(&format!("setoption name Hash value {hash}"));
    e.ask("position startpos");
    e.send("solve");
    let lines = e.until("solution", 60 * SEC);
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("solution win ") && !last.contains(" plies "),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains(&format!(
            "memory limit of {hash} MiB reached (the Hash option) before the distance"
        ))),
        "{lines:?}"
    );
    e.ask("setoption name Hash value 16");
    e.send("solve");
    let lines = e.until("solution", 60 * SEC);
    assert!(
        lines.last().unwrap().starts_with("solution win plies "),
        "{lines:?}"
    );
}

/// protocol.md: `move` is absent after `unknown`, on a finished game, after a `threats`
/// draw and after a `regions` loss without `distance`, and present otherwise.
#[test]
fn solve_names_a_move_exactly_when_protocol_md_says() {
    let protocol = doc("protocol.md");
    let rule = between(
        &protocol,
        "`move` is a best move, a winning one after `win`;",
        "given).",
    );
    for case in [
        "the game is over",
        "the result is `unknown`",
        "after a `draw` by `threats`",
        "after a `loss` by\n`regions` without `distance`",
    ] {
        assert!(
            rule.contains(case),
            "protocol.md does not say '{case}': {rule}"
        );
    }
    let mut e = EngineProcess::start();
    let mut solve = |game: &str, position: &str, command: &str| -> String {
        e.ask(&format!("setoption name Game value {game}"));
        e.ask(position);
        e.send(command);
        e.until("solution", 30 * SEC).pop().unwrap()
    };
    let has_move = |line: &str| line.split_whitespace().any(|w| w == "move");
    // Absent.
    let over = solve(
        "tictactoe",
        "position startpos moves a1 a2 b1 b2 c1",
        "solve",
    );
    assert!(!has_move(&over), "{over}");
    let draw = solve("tictactoe", "position startpos", "solve");
    assert!(
        draw.starts_with("solution draw method threats") && !has_move(&draw),
        "{draw}"
    );
    let loss = solve("clobber rows=1 cols=5", "position fen wb1wb w", "solve");
    assert!(
        loss.starts_with("solution loss method regions") && !has_move(&loss),
        "{loss}"
    );
    let unknown = solve("mnk m=7 n=7 k=5", "position startpos", "solve movetime 1");
    assert!(
        unknown.starts_with("solution unknown") && !has_move(&unknown),
        "{unknown}"
    );
    // Present.
    let win = solve("tictactoe", "position fen xx1/oo1/3 x", "solve");
    assert!(has_move(&win), "{win}");
    let longest = solve(
        "clobber rows=1 cols=5",
        "position fen wb1wb w",
        "solve distance",
    );
    assert!(has_move(&longest), "{longest}");
    let searched = solve("tictactoe", "position startpos", "solve method search");
    assert!(has_move(&searched), "{searched}");
}

/// Every command line of a shell block in the README and the book (`docs/`) runs what
/// the build made (`./target/release/agon`, `./target/release/arena`), never a bare `agon`
/// or `arena` that a fresh clone does not have on its PATH.
#[test]
fn readme_shell_lines_run_the_built_binaries() {
    let mut pages = vec![PathBuf::from("README.md")];
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(Path::new("docs").join(path.file_name().unwrap()));
        }
    }
    assert!(pages.len() > 10, "the book's pages: {pages:?}");
    let mut bare = Vec::new();
    for page in &pages {
        let text = doc(page.to_str().unwrap());
        for block in text.split("```sh").skip(1) {
            let block = &block[..block.find("```").unwrap()];
            for line in block.lines().skip(1) {
                let line = line.trim_start();
                let first = line.split_whitespace().next().unwrap_or("");
                if matches!(first, "agon" | "arena") {
                    bare.push(format!("{}: {line}", page.display()));
                }
            }
        }
    }
    assert!(bare.is_empty(), "lines that run a bare binary: {bare:#?}");
}

/// protocol.md's options table (section 6) is the engine's option table: every option the
/// handshake declares has a row with the same type, range or values, and default, and no
/// row names an option the engine does not have. The errors of `setoption` come from the
/// same table: an unknown name lists every option, a bad combo value every value (the
/// Searcher error used to leave out `mcts`).
#[test]
fn protocol_md_options_table_is_the_engines() {
    let protocol = doc("protocol.md");
    let section = between(&protocol, "## 6. Options", "## 7. ");
    let mut rows = std::collections::BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let name = cells[0]
            .trim_start_matches("| ")
            .trim_matches('`')
            .to_string();
        rows.insert(
            name,
            (cells[1].to_string(), cells[2].trim_matches('`').to_string()),
        );
    }
    let mut e = EngineProcess::start();
    e.send("ugi");
    let lines = e.until("ugiok", 5 * SEC);
    let mut declared = Vec::new();
    for line in lines.iter().filter(|l| l.starts_with("option name ")) {
        let rest = &line["option name ".len()..];
        let (name, rest) = rest.split_once(" type ").unwrap();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let value = |key: &str| {
            let at = words.iter().position(|w| *w == key).unwrap();
            words[at + 1].to_string()
        };
        let (ty, default) = rows
            .get(name)
            .unwrap_or_else(|| panic!("protocol.md has no row for option {name}"));
        let expected_type = match words[0] {
            "spin" => format!("spin {}–{}", value("min"), value("max")),
            "combo" => {
                let vars: Vec<String> = words
                    .iter()
                    .enumerate()
                    .filter(|(i, w)| **w == "var" && *i + 1 < words.len())
                    .map(|(i, _)| format!("`{}`", words[i + 1]))
                    .collect();
                format!("combo {}", vars.join(", "))
            }
            other => other.to_string(),
        };
        assert_eq!(*ty, expected_type, "option {name}: {line}");
        assert_eq!(*default, value("default"), "option {name}: {line}");
        declared.push(name.to_string());
    }
    let documented: Vec<&String> = rows.keys().collect();
    let mut sorted = declared.clone();
    sorted.sort();
    assert_eq!(documented, sorted.iter().collect::<Vec<_>>());

    let unknown = e.ask("setoption name Colour value red");
    assert_eq!(
        unknown,
        vec![format!(
            "error unknown-option no option named 'Colour' (options: {})",
            declared.join(", ")
        )]
    );
    let bad = e.ask("setoption name Searcher value magic");
    assert_eq!(
        bad,
        vec!["error bad-value option Searcher: 'magic' is not one of pvs, alphabeta, minimax, random, mcts".to_string()]
    );
    // Combo values are matched without regard to case.
    assert!(e.ask("setoption name Searcher value MCTS").is_empty());
    assert!(e.ask("setoption name Level value Expert").is_empty());
}

/// README, "Solved boards": every row solved on one thread in under three seconds is solved
/// again here, with the value, the winning first move and the nodes the table says, and
/// every value of the table is the published one beside it.
#[test]
fn the_readme_table_of_solved_boards_is_what_agon_solve_says() {
    let readme = doc("README.md");
    let section = between(&readme, "## Solved boards", "\n## ");
    // The first table of the section (the 6x6 openings' table follows it).
    let table = between(section, "| Board |", "\n\n");
    let rows: Vec<Vec<String>> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Board"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect();
    assert!(rows.len() >= 10, "{rows:?}");
    let mut rerun = 0;
    for row in &rows {
        let [board, value, first, nodes, threads, time, _, published] = &row[..] else {
            panic!("a row of eight cells: {row:?}");
        };
        assert!(
            published.starts_with(value.as_str()),
            "{board}: {value} against the published {published}"
        );
        let secs: f64 = time
            .trim_end_matches(" s")
            .replace(',', "")
            .parse()
            .unwrap();
        if threads != "1" || secs >= 3.0 {
            continue;
        }
        let name = board.split(' ').next().unwrap();
        let spec = if let Some(size) = board.strip_prefix("Clobber ") {
            let (r, c) = size.split_once('x').unwrap();
            format!("clobber rows={r} cols={c}")
        } else {
            let mnk: Vec<&str> = name.split(',').collect();
            format!("mnk m={} n={} k={}", mnk[0], mnk[1], mnk[2])
        };
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
            .args(["--game", &spec, "solve"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or("none")
                .to_string()
        };
        let expected = matches!(
            (value.as_str(), field("result: ").split(' ').next()),
            ("N" | "first-player win", Some("win"))
                | ("P" | "second-player win", Some("loss"))
                | ("draw", Some("draw"))
        );
        assert!(expected, "{board}: README says {value}: {text}");
        if first != "none" {
            assert_eq!(&field("best move: "), first, "{board}: {text}");
        }
        assert_eq!(field("nodes: "), nodes.replace(',', ""), "{board}: {text}");
        rerun += 1;
    }
    assert!(rerun >= 8, "{rerun}");
}

/// README: the table of MCGS's 6x6 Clobber positions. `scripts/mcgs-6x6.py` solves two of
/// the quick ones again: it exits 0 (every value agrees with MCGS's, an independent
/// solver) and prints for each the README's value, winning move and node count.
#[test]
fn the_readme_rows_of_mcgs_6x6_positions_are_what_the_script_says() {
    let readme = doc("README.md");
    let table = between(&readme, "| MCGS game |", "\n\n");
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("python3")
        .arg(root.join("scripts/mcgs-6x6.py"))
        .args([
            "--only", "3:6", "6:4", "--time", "300", "--hash", "4096", "--agon",
        ])
        .arg(env!("CARGO_BIN_EXE_agon"))
        .arg("--dir")
        .arg(dir.path())
        .output()
        .expect("python3");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every column but the time.
    let columns = |line: &str| -> Vec<String> {
        let cells: Vec<String> = line.split('|').map(|c| c.trim().to_string()).collect();
        cells[1..cells.len() - 2].to_vec()
    };
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("| 3 ") || l.starts_with("| 6 "))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        // A game has rows after several plies: the game and its moves name one.
        let game = columns(row)[..2].to_vec();
        let readme_row = table
            .lines()
            .skip(2)
            .find(|l| columns(l)[..2] == game[..])
            .unwrap_or_else(|| panic!("no row for game {game:?} in the README"));
        assert_eq!(columns(row), columns(readme_row), "game {game:?}");
        assert!(
            row.contains("| win for the side to move |"),
            "MCGS: a win: {row}"
        );
    }
}

/// MCGS's name of a 6x6 Clobber move (`a5b5`) in agon's notation (`a2-b2`: agon counts rows
/// from the bottom, MCGS from the top).
fn agon_move_of_mcgs(mv: &str) -> String {
    let b = mv.as_bytes();
    format!(
        "{}{}-{}{}",
        char::from(b[0]),
        7 - (b[1] - b'0'),
        char::from(b[2]),
        7 - (b[3] - b'0')
    )
}

/// `scripts/mcgs-6x6.py --two-ply` proves the 6x6 Clobber positions after two plies, one
/// per class of positions equal up to the four symmetries that keep the start's colours.
/// Its list is checked against the engine's own moves: every position agon reaches in two
/// plies from the start is in the list up to symmetry, the list holds each class once,
/// and its count (the README's 811) is what agon's enumeration gives.
#[test]
fn the_two_ply_sweep_of_6x6_clobber_lists_each_position_once() {
    use agon::game::Game;
    use agon::games::clobber::{Clobber, ClobberSettings};

    // A position string's board as 36 cells, rows from the top.
    let cells = |text: &str| -> Vec<u8> {
        let board = text.split_whitespace().next().unwrap();
        let mut out = Vec::new();
        for c in board.bytes().filter(|&c| c != b'/') {
            match c {
                b'1'..=b'9' => out.extend(std::iter::repeat_n(b'.', usize::from(c - b'0'))),
                _ => out.push(c),
            }
        }
        assert_eq!(out.len(), 36, "{text}");
        out
    };
    // The least image under the identity, the half turn and the two diagonal reflections.
    let canonical = |board: &[u8]| -> Vec<u8> {
        type Map = fn(usize, usize) -> (usize, usize);
        let maps: [Map; 4] = [
            |r, c| (r, c),
            |r, c| (5 - r, 5 - c),
            |r, c| (c, r),
            |r, c| (5 - c, 5 - r),
        ];
        maps.iter()
            .map(|f| {
                let mut image = vec![0; 36];
                for r in 0..6 {
                    for c in 0..6 {
                        let (r1, c1) = f(r, c);
                        image[r1 * 6 + c1] = board[r * 6 + c];
                    }
                }
                image
            })
            .min()
            .unwrap()
    };
    // MCGS's start: Black on the top left corner and to move (agon's own start has White
    // to move).
    let settings = ClobberSettings::new(6, 6).unwrap();
    let start =
        Clobber::parse_position(&settings, "bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b").unwrap();
    let mut ours = BTreeSet::new();
    let mut reached = 0;
    let (mut firsts, mut replies) = (Vec::new(), Vec::new());
    start.generate_moves(&mut firsts);
    for &first in &firsts {
        let mut one = start.clone();
        one.make_move(first);
        replies.clear();
        one.generate_moves(&mut replies);
        for &reply in &replies {
            let mut two = one.clone();
            two.make_move(reply);
            ours.insert(canonical(&cells(&two.format_position())));
            reached += 1;
        }
    }
    assert_eq!(firsts.len(), 60);
    assert!(reached > 3000, "{reached}");

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("python3")
        .arg(root.join("scripts/mcgs-6x6.py"))
        .args(["--two-ply", "--list"])
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mut listed = BTreeSet::new();
    for line in text.lines() {
        let (moves, position) = line.split_once('\t').expect("moves, a tab, a position");
        assert!(
            position.ends_with(" b"),
            "Black to move after two plies: {line}"
        );
        // The script's position is the one agon reaches by the script's moves.
        let mut game = start.clone();
        for mv in moves.split_whitespace() {
            let parsed = game
                .parse_move(&agon_move_of_mcgs(mv))
                .expect("a legal move");
            game.make_move(parsed);
        }
        assert_eq!(cells(&game.format_position()), cells(position), "{line}");
        assert!(
            listed.insert(canonical(&cells(position))),
            "listed twice: {line}"
        );
    }
    let text = |b: &Vec<u8>| String::from_utf8_lossy(b).into_owned();
    let missing: Vec<String> = ours.difference(&listed).map(text).take(3).collect();
    let extra: Vec<String> = listed.difference(&ours).map(text).take(3).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "agon reaches {} classes, the script lists {}; not listed: {missing:?}; not \
         reached: {extra:?}",
        ours.len(),
        listed.len()
    );
    assert_eq!(listed.len(), 811);
    let readme = doc("README.md");
    assert!(readme.contains("811 positions"), "the README's count");
}

/// README, 6x6 after two plies: each row of the table of positions proved is the line of
/// `scripts/mcgs-6x6-journals/two-ply.tsv` that the script wrote for it, and the journal of
/// the proof beside it holds, for every move of White after Black's winning move, a reply
/// of Black proved to win: the proof's top two plies, checked with agon's own moves.
#[test]
fn the_readme_rows_of_two_ply_6x6_positions_are_the_journals() {
    use agon::game::Game;
    use agon::games::clobber::{Clobber, ClobberSettings};

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("scripts/mcgs-6x6-journals");
    let readme = doc("README.md");
    let table = between(&readme, "| Moves | Black to move | Winning move |", "\n\n");
    let tsv = std::fs::read_to_string(dir.join("two-ply.tsv")).unwrap();
    // The last line written for each position.
    let mut results = std::collections::BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), 6, "two-ply.tsv: {line}");
        results.insert(cells[0], cells);
    }
    let settings = ClobberSettings::new(6, 6).unwrap();
    let mut rows = 0;
    for row in table.lines().skip(2) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (moves, value, best, nodes) = (cells[1], cells[2], cells[3], cells[4]);
        let line = results
            .get(moves)
            .unwrap_or_else(|| panic!("no line for {moves} in two-ply.tsv"));
        assert_eq!(value, "wins", "{row}");
        assert_eq!(line[1], "win", "{row}");
        assert_eq!(line[2], best, "{row}");
        assert_eq!(line[3], nodes.replace(',', ""), "{row}");
        // The position after Black's winning move, White to move, and its journal.
        let mut game =
            Clobber::parse_position(&settings, "bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b")
                .unwrap();
        for mv in moves.split_whitespace().chain([best]) {
            let parsed = game
                .parse_move(&agon_move_of_mcgs(mv))
                .expect("a legal move");
            game.make_move(parsed);
        }
        let name = format!("{}-{best}.journal", moves.replace(' ', "-"));
        let journal = std::fs::read_to_string(dir.join("two-ply").join(&name)).unwrap();
        let header = journal.lines().next().unwrap();
        assert!(
            header.ends_with(&format!("position {}", game.format_position())),
            "{name}: {header}"
        );
        let refuted: BTreeSet<(&str, &str)> = journal
            .lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w.len() == 5 && w[2] == "loss").then(|| (w[0], w[1]))
            })
            .collect();
        let mut whites = Vec::new();
        game.generate_moves(&mut whites);
        assert!(!whites.is_empty());
        for &white in &whites {
            let mut after = game.clone();
            after.make_move(white);
            let mut blacks = Vec::new();
            after.generate_moves(&mut blacks);
            let white_name = game.format_move(white);
            let answered = blacks.iter().any(|&black| {
                refuted.contains(&(white_name.as_str(), after.format_move(black).as_str()))
            });
            assert!(
                answered,
                "{name}: no winning reply of Black to {white_name}"
            );
        }
        rows += 1;
    }
    assert!(rows > 0, "no rows in the README's table");
}
