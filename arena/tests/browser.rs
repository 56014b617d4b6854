//! The web page in a real headless Chromium (Debian's `chromium`, driven by
//! playwright-core; `scripts/install-test-deps.sh` installs both): play tic-tac-toe,
//! Clobber and Tak against agon by clicks, see the engine's reply and search info, have
//! an illegal click refused with the rules' reason, watch two engines on Halma 16x16 and
//! 5x5 k=4, follow a running match live (with the engines' search in progress), time a
//! 20-game match from each `bestmove` to the page showing it (server-sent events, the
//! match started after the page watches a folder that did not exist yet), see a page of
//! another origin (a second loopback port) fail to start a game by `fetch` or form, and
//! replay a journaled game and open its report.
//! The checks are in `arena/web-tests/browser.mjs`; screenshots of every board go to
//! `target/browser-artifacts/`.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{agon, arena, clobber_pair, run};

struct Killed(Child);

impl Drop for Killed {
    /// SIGTERM first, so that a match records its game in progress and stops its engines.
    fn drop(&mut self) {
        // SAFETY: kill(2) on the pid of a child this process has not yet waited for.
        unsafe {
            libc::kill(self.0.id() as i32, libc::SIGTERM);
        }
        for _ in 0..50 {
            if matches!(self.0.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn web_tests() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web-tests")
}

#[test]
fn the_page_plays_watches_replays_and_reports_in_chromium() {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        Path::new(&chromium).exists() && web_tests().join("node_modules/playwright-core").exists(),
        "the browser test needs Debian's chromium and playwright-core: run scripts/install-test-deps.sh"
    );
    let dir = tempfile::tempdir().unwrap();
    // A journal to replay and report: the three-configuration Clobber comparison.
    let journal = dir.path().join("clobber.jsonl");
    let mm = "name=minimax option.Searcher=minimax option.Depth=4 depth=4";
    let ab =
        "name=ab-noorder option.Searcher=alphabeta option.Ordering=false option.Depth=4 depth=4";
    let abo =
        "name=ab-ordered option.Searcher=alphabeta option.Ordering=true option.Depth=4 depth=4";
    clobber_pair(dir.path(), &journal, mm, ab);
    clobber_pair(dir.path(), &journal, abo, mm);

    // A match running while the page watches its folder.
    let watch = dir.path().join("match");
    std::fs::create_dir_all(&watch).unwrap();
    let agon = agon();
    let _match = Killed(
        Command::new(arena())
            .current_dir(dir.path())
            .args(["match", "--no-progress", "--game", "mnk m=7 n=7 k=5"])
            .args(["--games", "20", "--concurrency", "1", "--each", "st=0.25"])
            .arg("--agon")
            .arg(&agon)
            .arg("--out")
            .arg(&watch)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start arena match"),
    );

    // A folder the page watches before it exists: the timed match starts there later.
    let timed = dir.path().join("timed");
    let mut server = Killed(
        Command::new(arena())
            .args(["serve", "--port", "0", "--agon"])
            .arg(&agon)
            .arg("--watch")
            .arg(&watch)
            .arg("--watch")
            .arg(&timed)
            .arg("--journal")
            .arg(&journal)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start arena serve"),
    );
    let mut line = String::new();
    BufReader::new(server.0.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("arena serve: ")
        .unwrap_or_else(|| panic!("no address in '{line}'"))
        .to_string();

    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/browser-artifacts");
    let mut node = Command::new("node");
    node.current_dir(web_tests())
        .env("CHROMIUM", &chromium)
        .env("ARENA", arena())
        .env("SCRIPTED", common::scripted())
        .env("TIMED_OUT", &timed)
        .arg("browser.mjs")
        .arg(&url)
        .arg(&artifacts)
        .arg(&journal);
    let out = run(node, Duration::from_secs(300));
    let text = common::text(&out);
    println!("{text}");
    assert!(out.status.success(), "browser checks failed:\n{text}");
    assert!(text.contains("all browser checks passed"), "{text}");
    assert!(text.contains("bestmove to page:"), "{text}");
    for shot in [
        "board-tictactoe.png",
        "board-clobber-5x6.png",
        "board-tak-5x5.png",
        "board-halma-16x16.png",
        "board-mnk-5x5.png",
        "replay.png",
        "report.png",
        "live.png",
        "cross-origin-form.png",
    ] {
        let size = std::fs::metadata(artifacts.join(shot)).map_or(0, |m| m.len());
        assert!(size > 1000, "screenshot {shot} missing or empty");
    }
}
