//! The web page in a real headless Chromium (Debian's `chromium`, driven by
//! playwright-core; `scripts/install-test-deps.sh` installs both), as a player uses it
//! (issue 23): a board and a how-to-move line on first load; only engines that play the
//! chosen game offered (a Clobber-only bot and a TEI engine are configured to show it);
//! legal destinations of a picked piece from the library (Clobber captures, Halma jump
//! chains, Tak drop squares with the stones left in hand); the last move and a Tak
//! spread's landing squares marked; click, drag and typed moves; Tak reserves, flat count,
//! stacks stone by stone, TPS and PTN copied; game over with the line, road or camp drawn
//! and the result in words, rematch with colours swapped, board flip, ticking clocks (a
//! game on a clock from the page counting down, the increment added, a person flagged); a
//! Tak 6x6 game against agon played to the end by clicks with the counts checked against
//! the library after every ply; live view; replay by game number, paginated and filtered,
//! with keyboard steps; the report; the live view with the engines' search in progress and
//! the clocks of a match on a clock counting down; a
//! 20-game match timed from each `bestmove` to the page showing it (server-sent events, the
//! match started after the page watches a folder that did not exist yet); a page of
//! another origin (a second loopback port) failing to start a game by `fetch` or form.
//! The checks are in `arena/web-tests/browser.mjs`; screenshots go to
//! `target/browser-artifacts/` (docs/web-board-compared.md lists them).

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

/// Every screenshot the browser test takes (docs/web-board-compared.md shows what each proves).
const SCREENSHOTS: &[&str] = &[
    "start.png",
    "board-tictactoe.png",
    "gameover-tictactoe.png",
    "flipped-tictactoe.png",
    "clobber-captures.png",
    "clobber-drag.png",
    "board-clobber-5x6.png",
    "gameover-clobber.png",
    "halma-jumps.png",
    "halma-last-chain.png",
    "gameover-halma.png",
    "tak-tall-stack.png",
    "tak-carry.png",
    "tak-spread-landing.png",
    "board-tak-5x5.png",
    "gameover-tak-road.png",
    "tak-6x6-final.png",
    "board-halma-16x16.png",
    "clocks.png",
    "clock-game.png",
    "clock-flagged.png",
    "board-mnk-5x5.png",
    "live.png",
    "replay-list.png",
    "replay.png",
    "report.png",
    "cross-origin-form.png",
];

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

    // Thirty quick tic-tac-toe games on a clock, to replay a page at a time.
    let many = dir.path().join("many.jsonl");
    let random = |name: &str| {
        format!(
            "cmd={} name={name} option.Searcher=random",
            agon().display()
        )
    };
    let out = run(
        {
            let mut c = Command::new(arena());
            c.current_dir(dir.path())
                .args([
                    "match",
                    "--no-progress",
                    "--game",
                    "tictactoe",
                    "--games",
                    "30",
                ])
                .args(["--each", "tc=10+0.1", "--report-every", "0", "--journal"])
                .arg(&many)
                .arg("--engine")
                .args(random("random-a").split(' '))
                .arg("--engine")
                .args(random("random-b").split(' '))
                .stdout(Stdio::null());
            c
        },
        Duration::from_secs(120),
    );
    assert!(
        out.status.success(),
        "the tic-tac-toe match failed: {}",
        common::text(&out)
    );

    // A match running while the page watches its folder.
    let watch = dir.path().join("match");
    std::fs::create_dir_all(&watch).unwrap();
    let agon = agon();
    let _match = Killed(
        Command::new(arena())
            .current_dir(dir.path())
            .args(["match", "--no-progress", "--game", "mnk m=7 n=7 k=5"])
            .args(["--games", "20", "--concurrency", "1", "--each", "tc=30+0.5"])
            .arg("--agon")
            .arg(&agon)
            .arg("--out")
            .arg(&watch)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start arena match"),
    );

    // The engines the page offers: agon in three settings, the Clobber-only example bot
    // (it names no game but Clobber) and agon over TEI (Tak only).
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/clobber_bot.py");
    let engines = [
        format!("cmd={} name=agon", agon.display()),
        format!("cmd={} name=agon-easy option.Level=easy", agon.display()),
        format!(
            "cmd={} name=agon-random option.Searcher=random",
            agon.display()
        ),
        format!("cmd={} name=clobber-bot", bot.display()),
        format!("cmd={} name=agon-tei proto=tei", agon.display()),
    ];
    let mut serve = Command::new(arena());
    serve.args(["serve", "--port", "0"]);
    for e in &engines {
        serve.arg("--engine").arg(e);
    }
    // A folder the page watches before it exists: the timed match starts there later.
    let timed = dir.path().join("timed");
    let mut server = Killed(
        serve
            .arg("--watch")
            .arg(&watch)
            .arg("--watch")
            .arg(&timed)
            .arg("--journal")
            .arg(&journal)
            .arg("--journal")
            .arg(&many)
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
        .arg(&journal)
        .arg(&many);
    let out = run(node, Duration::from_secs(300));
    let text = common::text(&out);
    println!("{text}");
    assert!(out.status.success(), "browser checks failed:\n{text}");
    assert!(text.contains("all browser checks passed"), "{text}");
    assert!(text.contains("bestmove to page:"), "{text}");
    for shot in SCREENSHOTS {
        let size = std::fs::metadata(artifacts.join(shot)).map_or(0, |m| m.len());
        assert!(size > 1000, "screenshot {shot} missing or empty");
    }
}
