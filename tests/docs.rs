//! The README and the book (`docs/`) hold together: the README starts with the two
//! commands CI runs, every page of the book is in its contents and in the README's map,
//! the pages' "Previous"/"Next" links walk the contents in order, and every relative link
//! of the README, protocol.md and the book lands on a file and, with `#anchor`, on one of
//! its headings.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The Markdown pages of the book, as `docs/NAME.md`, sorted.
fn book_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| Path::new("docs").join(p.file_name().unwrap()))
        .collect();
    pages.sort();
    pages
}

/// Text outside fenced code blocks, so that a `#` comment in a shell block is no heading
/// and a `](x)` in an example is no link.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            code = !code;
            continue;
        }
        if !code {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The targets of the inline links `[text](target)` in `text`, in order.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped except `-` and `_`,
/// spaces become `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

#[test]
fn the_slug_is_githubs() {
    assert_eq!(
        slug(" SPRT: does a change gain?"),
        "sprt-does-a-change-gain"
    );
    assert_eq!(slug("Tak engines (TEI)"), "tak-engines-tei");
    assert_eq!(
        slug("The web board: `arena serve`"),
        "the-web-board-arena-serve"
    );
}

#[test]
fn the_readme_starts_with_the_two_commands_ci_runs() {
    let readme = read(Path::new("README.md"));
    let first = prose(&readme)
        .lines()
        .find(|l| l.starts_with("## "))
        .map(String::from);
    assert_eq!(first.as_deref(), Some("## The two commands"));
    let block = &readme[readme.find("```sh\n").unwrap()..];
    let block = &block[..3 + block[3..].find("```").unwrap()];
    let commands: Vec<&str> = block
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(
        commands,
        [
            "cargo build --release --workspace && ./target/release/arena match",
            "scripts/install-test-deps.sh && cargo test --workspace --release",
        ]
    );
    let ci = read(Path::new(".ci/run"));
    assert_eq!(
        ci.lines().last(),
        Some(commands[1]),
        ".ci/run ends with the README's test command"
    );
}

#[test]
fn every_page_is_in_the_contents_and_the_readme_map() {
    let contents = read(Path::new("docs/README.md"));
    let readme = read(Path::new("README.md"));
    let in_contents: BTreeSet<String> = links(&contents)
        .into_iter()
        .map(|l| l.split('#').next().unwrap().to_string())
        .collect();
    let in_readme: BTreeSet<String> = links(&readme).into_iter().collect();
    let mut missing = Vec::new();
    for page in book_pages() {
        let name = page.file_name().unwrap().to_str().unwrap().to_string();
        if name == "README.md" {
            assert!(
                in_readme.contains("docs/README.md"),
                "README links the contents"
            );
            continue;
        }
        if !in_contents.contains(&name) {
            missing.push(format!("docs/README.md does not list {name}"));
        }
        if !in_readme.contains(&format!("docs/{name}")) {
            missing.push(format!("README.md's map does not link docs/{name}"));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn previous_and_next_walk_the_contents_in_order() {
    let contents = read(Path::new("docs/README.md"));
    // The contents' order: each page where it is first linked.
    let mut order: Vec<String> = Vec::new();
    for link in links(&contents) {
        let file = link.split('#').next().unwrap().to_string();
        if !file.starts_with("..") && !order.contains(&file) {
            order.push(file);
        }
    }
    assert_eq!(order.len(), book_pages().len() - 1, "pages: {order:?}");
    let nav = |name: &str, word: &str| -> Option<String> {
        let text = read(&Path::new("docs").join(name));
        let line = text
            .lines()
            .rev()
            .find(|l| l.contains("[Contents](README.md)"))?;
        let at = line.find(&format!("{word}: ["))?;
        links(&line[at..]).into_iter().next()
    };
    for (i, page) in order.iter().enumerate() {
        let previous = if i == 0 {
            None
        } else {
            Some(order[i - 1].clone())
        };
        assert_eq!(nav(page, "Previous"), previous, "{page}: Previous");
        assert_eq!(nav(page, "Next"), order.get(i + 1).cloned(), "{page}: Next");
    }
}

#[test]
fn every_relative_link_lands() {
    let mut pages = vec![PathBuf::from("README.md"), PathBuf::from("protocol.md")];
    pages.extend(book_pages());
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = read(page);
        for link in links(&prose(&text)) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match link.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let on_disk = root().join(&target);
            if !on_disk.exists() {
                broken.push(format!("{}: {link}: no such file", page.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                if !anchors(&read(&target)).contains(anchor) {
                    broken.push(format!("{}: {link}: no such heading", page.display()));
                }
            }
        }
    }
    assert!(checked > 40, "only {checked} links found");
    assert!(broken.is_empty(), "{broken:#?}");
}

/// The security model names, for each guarantee, the test that attacks it: every such
/// name (a backticked `words_joined_by_underscores` of four words or more) is a test
/// function of the workspace, so a renamed or deleted test cannot leave a claim unbacked.
#[test]
fn every_test_the_security_model_names_exists() {
    let page = read(Path::new("docs/security.md"));
    let named: BTreeSet<&str> = page
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            w.split('_').count() >= 4
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .collect();
    assert!(named.len() >= 15, "tests named: {named:?}");
    let mut sources = String::new();
    for dir in ["arena/tests", "tests"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                sources.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let missing: Vec<&&str> = named
        .iter()
        .filter(|name| {
            let decl = format!("fn {name}()");
            !sources.match_indices(&decl).any(|(at, _)| {
                sources.as_bytes()[at.saturating_sub(120)..at]
                    .windows(7)
                    .any(|w| w == b"#[test]")
            })
        })
        .collect();
    assert!(missing.is_empty(), "not a test: {missing:?}");
}
