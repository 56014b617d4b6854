//! `arena class` end to end (issue 52): the README's "Running a class tournament" typed
//! in a fresh clone on the sample class of `examples/class/`, judged against what each
//! submission is known to do (`examples/class-roster.md`: the strength order, the four
//! faults, the copy); every student's private folder searched for anything of another
//! student; the site in Chromium; two submissions changed and the command run again,
//! playing only their games; and the site served by `arena serve --site` against hostile
//! paths.

mod common;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;

/// Types the README's block `class` ([`run_doc_block`]).
fn type_readme_block(dir: &Path, marker: &str) -> String {
    run_doc_block(dir, "README.md", "class", marker)
}

/// Every bot file of the class (a `.py` entry, or a folder's `.py` files).
fn bot_files(class: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(class).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            for f in std::fs::read_dir(&p).unwrap().flatten() {
                if f.path().extension().is_some_and(|x| x == "py") {
                    files.push(f.path());
                }
            }
        } else if p.extension().is_some_and(|x| x == "py") {
            files.push(p);
        }
    }
    files.sort();
    files
}

/// The student a bot file belongs to (`ada.py`, `chloe/bot.py`).
fn student_of(file: &Path, class: &Path) -> String {
    let rel = file.strip_prefix(class).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".py").to_string()
}

/// Marks every bot so that what it writes and what it is can be traced: it writes
/// `SECRET-<its own path>` to stderr when it starts (from its own path at run time, so
/// the copy and its original stay byte for byte the same), and carries a comment
/// `CODE-MARK-<student>-<n>` that it never prints: code that must never be copied into
/// any page.
fn mark_bots(class: &Path) {
    let copy_pair = ["ben.py", "ivan.py"];
    for (n, file) in bot_files(class).iter().enumerate() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).unwrap();
        let (shebang, rest) = text.split_once('\n').unwrap();
        // The copy and its original carry the same comment (they must stay the same).
        let code_mark = if copy_pair.contains(&name.as_str()) {
            "CODE-MARK-ben-ivan".to_string()
        } else {
            format!("CODE-MARK-{}-{n}", student_of(file, class))
        };
        let marked = format!(
            "{shebang}\nimport os as _o, sys as _s\n_s.stderr.write('SECRET-' + _o.path.abspath(__file__).replace('/', '_') + '\\n')\n_s.stderr.flush()\n# {code_mark}\n{rest}"
        );
        std::fs::write(file, marked).unwrap();
    }
}

/// Every file under `dir`, with its text.
fn texts_under(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            assert!(
                !meta.file_type().is_symlink(),
                "a link in the output: {}",
                p.display()
            );
            if meta.is_dir() {
                todo.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.push((p, String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }
    out
}

fn csv_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            // Cells here hold no commas except inside quotes: split on commas outside quotes.
            let mut cells = Vec::new();
            let (mut cell, mut quoted) = (String::new(), false);
            for c in l.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ',' if !quoted => cells.push(std::mem::take(&mut cell)),
                    c => cell.push(c),
                }
            }
            cells.push(cell);
            header.iter().cloned().zip(cells).collect()
        })
        .collect()
}

#[test]
fn a_class_tournament_as_the_readme_says() {
    let dir = fresh_clone();
    let class = dir.path().join("examples/class");
    mark_bots(&class);
    let marker = marker("class-readme");
    let out = type_readme_block(dir.path(), &marker);
    let results = dir.path().join("class-out");
    assert!(
        out.contains("17 entrants (12 students, 5 reference players), round robin, 272 games scheduled: 0 already played, 272 to play"),
        "{out}"
    );
    assert!(
        out.contains("the same content, byte for byte: ben, ivan"),
        "{out}"
    );

    // The standings against the roster: the strength order of the well-behaved bots, the
    // copy, the four faults by their verdicts.
    let rows = csv_rows(&results.join("class.csv"));
    assert_eq!(rows.len(), 17, "{rows:?}");
    let place = |name: &str| -> usize {
        let row = rows
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name}"));
        row["rank"]
            .parse()
            .unwrap_or_else(|_| panic!("{name} has no place: {row:?}"))
    };
    let order = ["ada", "chloe", "ben", "jo", "lea", "dan", "eve"];
    for pair in order.windows(2) {
        assert!(
            place(pair[0]) < place(pair[1]),
            "the roster says {} > {}: places {} and {}",
            pair[0],
            pair[1],
            place(pair[0]),
            place(pair[1])
        );
    }
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap().clone();
    assert_eq!(row("ivan")["same_content_as"], "ben");
    assert_eq!(row("ben")["same_content_as"], "ivan");
    for (name, verdict) in [
        ("finn", "runtime error (crashed)"),
        ("gus", "time limit exceeded"),
        ("hana", "illegal move"),
        ("kim", "output format error"),
    ] {
        let r = row(name);
        assert!(
            r["faults"].starts_with(&format!("{verdict}=")),
            "{name}: {r:?}"
        );
        // Below every well-behaved bot but eve's coin flips, and losing all but the
        // games its fault did not reach.
        assert!(place(name) > place("lea"), "{name} at {}", place(name));
    }
    for name in ["ada", "chloe", "ben", "jo", "lea", "dan", "eve"] {
        assert_eq!(
            row(name)["faults"],
            "",
            "{name} played cleanly: {:?}",
            row(name)
        );
    }
    // The grade book follows examples/marks.txt.
    let book = csv_rows(&results.join("gradebook.csv"));
    assert_eq!(
        book.len(),
        12,
        "one row per student, none for the references"
    );
    for r in &book {
        let rule = &r["rule"];
        assert!(rule.starts_with("line "), "{r:?}");
        let mark = &r["mark"];
        let rank: usize = r["rank"].parse().unwrap();
        if rank <= 3 {
            assert!(
                r["beat_levels"].contains("default") || mark != "10",
                "{r:?}"
            );
        }
        assert!(
            ["10", "8", "7", "5", "0", "2"].contains(&mark.as_str()),
            "{r:?}"
        );
    }

    // Private folders: each holds its student's own stderr and nothing of any other.
    let mut secrets: BTreeMap<String, String> = BTreeMap::new();
    for file in bot_files(&class) {
        let abs = std::fs::canonicalize(&file).unwrap_or(file.clone());
        for path in [&file, &abs] {
            secrets.insert(
                format!("SECRET-{}", path.display().to_string().replace('/', "_")),
                student_of(&file, &class),
            );
        }
    }
    let private = results.join("private");
    let mut folders = 0;
    for e in std::fs::read_dir(&private).unwrap().flatten() {
        folders += 1;
        let student = e.file_name().to_string_lossy().into_owned();
        let mut own = 0;
        for (path, text) in texts_under(&e.path()) {
            for (secret, owner) in &secrets {
                if text.contains(secret.as_str()) {
                    assert_eq!(*owner, student, "{} holds {owner}'s stderr", path.display());
                    own += 1;
                }
            }
            assert!(!text.contains("CODE-MARK-"), "code in {}", path.display());
        }
        assert!(own > 0, "{student}'s folder shows its own stderr");
    }
    assert_eq!(folders, 12, "a private folder per student");
    for (path, text) in texts_under(&results.join("site")) {
        assert!(!text.contains("CODE-MARK-"), "code in {}", path.display());
    }

    // The site in Chromium.
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let web_tests = repo().join("arena/web-tests");
    assert!(
        Path::new(&chromium).exists() && web_tests.join("node_modules/playwright-core").exists(),
        "the browser checks need Debian's chromium and playwright-core: run scripts/install-test-deps.sh"
    );
    let artifacts = repo().join("target/browser-artifacts");
    let mut node = Command::new("node");
    node.current_dir(&web_tests)
        .env("CHROMIUM", &chromium)
        .arg("class.mjs")
        .arg(results.join("site"))
        .arg("finn")
        .arg(&artifacts);
    let browser = run(node, Duration::from_secs(120));
    let shown = text(&browser);
    assert!(
        browser.status.success() && shown.contains("all class site checks passed"),
        "{shown}"
    );

    // Two students hand in new versions: only their games are played again.
    let standings = std::fs::read_to_string(results.join("standings.txt")).unwrap();
    for name in ["jo.py", "lea.py"] {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(class.join(name))
            .unwrap();
        writeln!(f, "# version 2: comments fixed").unwrap();
    }
    let again = type_readme_block(dir.path(), &marker);
    // jo's 32 games and lea's 32, the two between them counted once.
    assert!(
        again.contains("272 games scheduled: 210 already played, 62 to play"),
        "{again}"
    );
    assert!(
        again.contains("62 played now, 210 from earlier runs"),
        "{again}"
    );
    // The bots play the same moves as before, so the standings are the same.
    assert_eq!(
        std::fs::read_to_string(results.join("standings.txt")).unwrap(),
        standings
    );
    // Both versions of jo's code are kept, the first as it was.
    let kept: Vec<String> = std::fs::read_dir(results.join("submissions"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("jo@"))
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    let versions: Vec<String> = kept
        .iter()
        .map(|k| {
            std::fs::read_to_string(results.join("submissions").join(k).join("jo.py")).unwrap()
        })
        .collect();
    assert!(
        versions
            .iter()
            .filter(|v| v.contains("# version 2"))
            .count()
            == 1,
        "one copy is the new version, one the old"
    );
    let jo = std::fs::read_to_string(results.join("site/students/jo.html")).unwrap();
    assert!(
        jo.contains("Earlier versions") && jo.contains("(32 games)"),
        "jo's page names the version that played before"
    );
    assert_no_survivors(&marker);
}

/// One request to the server, written by hand so that nothing normalizes the path.
fn raw_get(port: u16, path: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    let _ = s.read_to_string(&mut reply);
    let (status, body) = http_status_and_body(&reply);
    (
        status,
        format!(
            "{}\n{body}",
            reply.lines().take(12).collect::<Vec<_>>().join("\n")
        ),
    )
}

#[test]
fn the_site_is_served_and_nothing_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("out/site");
    std::fs::create_dir_all(site.join("games")).unwrap();
    std::fs::write(site.join("index.html"), "<h1>standings</h1>").unwrap();
    std::fs::write(site.join("games/g1.html"), "<h1>a game</h1>").unwrap();
    std::fs::write(dir.path().join("out/class.jsonl"), "SECRET journal").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "SECRET file").unwrap();
    // What a hostile process could leave in the output: links out of the site.
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), site.join("games/g2.html")).unwrap();
    std::os::unix::fs::symlink("/etc", site.join("etc")).unwrap();
    let site_arg = site.display().to_string();
    let served = start_serve(&["--site", &site_arg]);
    let port = served.port;
    let (status, body) = raw_get(port, "/site/");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("standings"), "{body}");
    assert!(
        body.to_lowercase()
            .contains("content-security-policy: default-src 'none'"),
        "{body}"
    );
    // Without its slash the folder is sent to it, so that relative links land.
    let (status, body) = raw_get(port, "/site");
    assert!(
        status == 308 && body.to_lowercase().contains("location: /site/"),
        "{body}"
    );
    let (status, body) = raw_get(port, "/site/games/g1.html");
    assert_eq!(status, 200, "{body}");
    for path in [
        "/site/../secret.txt",
        "/site/%2e%2e/secret.txt",
        "/site/%2e%2e%2fclass.jsonl",
        "/site/games/..%2f..%2fclass.jsonl",
        "/site/games/g2.html",
        "/site/etc/passwd",
        "/site//etc/passwd",
        "/site/%2fetc%2fpasswd",
        "/site/games/%00",
        "/site/.%2e/class.jsonl",
    ] {
        let (status, body) = raw_get(port, path);
        assert!(status == 404 || status == 400, "{path}: {status}\n{body}");
        assert!(
            !body.contains("SECRET") && !body.contains("root:"),
            "{path}: {body}"
        );
    }
}

/// `--settle-top`: two bots of the same strength (the copy and its original: they split
/// every pair) stay undecided, so the settling plays its whole budget between them, two
/// colour-swapped pairs at a time; a rerun reuses those games too.
#[test]
fn settling_the_top_plays_more_games_between_undecided_neighbours() {
    let dir = tempfile::tempdir().unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    for name in ["ben.py", "ivan.py", "eve.py"] {
        std::fs::copy(repo().join("examples/class").join(name), class.join(name)).unwrap();
    }
    let marker = marker("class-settle");
    let class_run = || {
        let mut c = Command::new(arena());
        c.current_dir(dir.path())
            .env("ARENA_TEST_MARKER", &marker)
            .args(["class", "--bots", "class", "--out", "out", "--no-progress"])
            .args(["--game", "mnk m=5 n=5 k=4", "--references", "none"])
            .args(["--settle-top", "1", "--settle-games", "8"])
            .arg("--agon")
            .arg(agon());
        let out = run(c, Duration::from_secs(300));
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let first = class_run();
    assert!(
        first.contains("6 games scheduled: 0 already played, 6 to play"),
        "{first}"
    );
    assert!(
        first.contains("Settling places 1 to 2: 8 more games"),
        "{first}"
    );
    assert!(first.contains("14 games counted: 14 played now"), "{first}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/class.json")).unwrap())
            .unwrap();
    let names: Vec<&str> = json["standings"]["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let (b, i) = (
        names.iter().position(|n| *n == "ben").unwrap(),
        names.iter().position(|n| *n == "ivan").unwrap(),
    );
    let cell = &json["standings"]["cross"][b][i];
    let games: u64 = (0..3).map(|k| cell[k].as_u64().unwrap()).sum();
    assert_eq!(
        games, 10,
        "2 scheduled and 8 settling games between ben and ivan: {cell}"
    );
    let again = class_run();
    assert!(
        again.contains("14 games counted: 0 played now, 14 from earlier runs"),
        "{again}"
    );
    assert_no_survivors(&marker);
}

/// A student's name and stderr are the student's to choose: on the pages they are text,
/// never markup (a name that is a tag, stderr that closes the `<pre>` and opens a script).
#[test]
fn hostile_names_and_stderr_are_shown_as_text() {
    let dir = tempfile::tempdir().unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    let eve = std::fs::read_to_string(repo().join("examples/class/eve.py")).unwrap();
    let (shebang, rest) = eve.split_once('\n').unwrap();
    let hostile = format!(
        "{shebang}\nimport sys as _s\n_s.stderr.write('</pre></details><script>alert(2)</script>\\n')\n_s.stderr.flush()\n{rest}"
    );
    let name = "<img src=x onerror=alert(1)>";
    std::fs::write(class.join(format!("{name}.py")), hostile).unwrap();
    std::fs::copy(repo().join("examples/class/dan.py"), class.join("dan.py")).unwrap();
    let marker = marker("class-hostile");
    let mut c = Command::new(arena());
    c.current_dir(dir.path())
        .env("ARENA_TEST_MARKER", &marker)
        .args(["class", "--bots", "class", "--out", "out", "--no-progress"])
        .args(["--game", "mnk m=5 n=5 k=4", "--references", "none"])
        .arg("--agon")
        .arg(agon());
    let out = run(c, Duration::from_secs(300));
    assert!(out.status.success(), "{}", text(&out));
    let pages = texts_under(&dir.path().join("out/site"));
    assert!(pages.len() >= 4, "{pages:?}");
    let mut escaped = false;
    for (path, page) in &pages {
        assert!(
            !page.contains("<img src=x"),
            "markup from a name in {}",
            path.display()
        );
        assert!(
            !page.contains("<script>alert"),
            "markup from stderr in {}",
            path.display()
        );
        escaped |= page.contains("&lt;img src=x onerror=alert(1)&gt;");
    }
    assert!(escaped, "the name is shown, as text");
    let student_pages: Vec<_> = pages
        .iter()
        .filter(|(p, _)| p.parent().is_some_and(|d| d.ends_with("students")))
        .collect();
    assert!(
        student_pages
            .iter()
            .any(|(_, t)| t.contains("&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;alert(2)")),
        "the stderr is shown, as text"
    );
    assert_no_survivors(&marker);
}
