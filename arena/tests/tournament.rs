//! End-to-end tests of `arena tournament` and `arena merge` with the real `agon` engine at
//! fixed depths (deterministic, so equal schedules give equal games): known strength
//! order, resume after SIGKILL, shards merged, JSON config, SPRT stopping.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::{agon, arena, run, text};
use serde_json::Value;

/// Clobber 4x5: depths 1 < 2 < 3 < 4 in strength; checked before relying on it with 10
/// rounds, seeds 1 and 2, on clobber 4x5, clobber 5x6 and mnk 5x5 k=4 (order held each time).
const GAME: &str = "clobber rows=4 cols=5";

fn tournament(dir: &Path, marker: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(arena());
    c.current_dir(dir)
        .arg("tournament")
        .arg("--no-progress")
        .args(["--game", GAME, "--concurrency", "2", "--seed", "7"])
        .env("ARENA_TEST_MARKER", marker);
    for d in 1..=4 {
        c.arg("--engine")
            .arg(format!("cmd={} name=d{d} depth={d}", agon().display()));
    }
    c.args(extra);
    c
}

fn standings(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("standings file"))
        .expect("standings JSON")
}

fn ranking(s: &Value) -> Vec<String> {
    s["standings"]["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect()
}

/// Game indices in a tournament journal (after its header line).
fn journal_games(path: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert!(header["tournament"]["fingerprint"].is_string());
    lines
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

#[test]
fn ranks_depths_in_strength_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        tournament(dir.path(), &common::marker("rank"), &["--rounds", "10"]),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", text(&out));
    let s = standings(&dir.path().join("arena-out/standings.json"));
    assert_eq!(ranking(&s), ["d4", "d3", "d2", "d1"], "{}", text(&out));
    // 6 pairings x 10 rounds x 2 games; each engine meets 3 others 20 times.
    assert_eq!(s["standings"]["games"], 120);
    for r in s["standings"]["ranking"].as_array().unwrap() {
        assert_eq!(r["games"], 60);
    }
    let elo: Vec<f64> = s["standings"]["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["elo"].as_f64().unwrap())
        .collect();
    assert!(elo.iter().sum::<f64>().abs() < 1e-6, "ratings centred on 0");
    assert!(text(&out).contains("Cross table"));
}

#[test]
fn resume_after_sigkill_equals_an_uninterrupted_run() {
    let whole = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = run(
        tournament(whole.path(), &common::marker("whole"), &["--rounds", "8"]),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", text(&out));
    let full_time = started.elapsed().as_millis() as u64;
    let expected = standings(&whole.path().join("arena-out/standings.json"));

    let dir = tempfile::tempdir().unwrap();
    let mut seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    let mut kills = 0;
    for _ in 0..3 {
        // A random moment within the uninterrupted run's duration.
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let wait = 20 + (seed >> 33) % full_time.max(40);
        let mut child = tournament(dir.path(), &common::marker("killed"), &["--rounds", "8"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        child.wait().unwrap();
        eprintln!("killed after {wait} ms");
    }
    let journal = dir.path().join("arena-out/tournament.jsonl");
    // A kill in the middle of a write leaves half a line: simulate one for certain.
    if journal.exists() {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&journal)
            .unwrap();
        std::io::Write::write_all(&mut f, b"{\"version\":1,\"run\":\"half").unwrap();
    }
    let out = run(
        tournament(dir.path(), &common::marker("resume"), &["--rounds", "8"]),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", text(&out));
    let log = text(&out);
    if kills > 0 {
        assert!(log.contains("incomplete last line"), "{log}");
    }
    let mut games = journal_games(&journal);
    assert_eq!(games.len(), 96, "no game lost or played twice");
    games.sort_unstable();
    games.dedup();
    assert_eq!(games.len(), 96);
    let got = standings(&dir.path().join("arena-out/standings.json"));
    assert_eq!(got, expected);
}

#[test]
fn three_shards_merged_equal_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        tournament(
            dir.path(),
            &common::marker("single"),
            &["--rounds", "5", "--standings", "single.json"],
        ),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", text(&out));
    // The three shards run at once, as a job array would.
    let children: Vec<_> = (1..=3)
        .map(|k| {
            tournament(
                dir.path(),
                &common::marker("shard"),
                &["--rounds", "5", "--shard", &format!("{k}/3")],
            )
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let shard = |k: u32| {
        dir.path()
            .join(format!("arena-out/tournament-{k}-of-3.jsonl"))
    };
    let mut all: Vec<u64> = (1..=3).flat_map(|k| journal_games(&shard(k))).collect();
    all.sort_unstable();
    assert_eq!(all, (0..60).collect::<Vec<u64>>());
    let mut merge = Command::new(arena());
    merge
        .current_dir(dir.path())
        .arg("merge")
        .args([shard(1), shard(2), shard(3)])
        .args(["--standings", "merged.json"]);
    let out = run(merge, Duration::from_secs(30));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        standings(&dir.path().join("merged.json")),
        standings(&dir.path().join("single.json"))
    );
    // The same shard twice, or a journal of another tournament, is refused.
    let mut twice = Command::new(arena());
    twice.arg("merge").args([shard(1), shard(1)]);
    let out = run(twice, Duration::from_secs(30));
    assert!(!out.status.success());
    assert!(text(&out).contains("given twice"), "{}", text(&out));
    let mut whole = Command::new(arena());
    whole
        .arg("merge")
        .arg(shard(1))
        .arg(dir.path().join("arena-out/tournament.jsonl"));
    let out = run(whole, Duration::from_secs(30));
    assert!(!out.status.success());
    assert!(text(&out).contains("same N"), "{}", text(&out));
    let out = run(
        tournament(
            dir.path(),
            &common::marker("other"),
            &["--rounds", "1", "--out", "other", "--shard", "2/3"],
        ),
        Duration::from_secs(60),
    );
    assert!(out.status.success(), "{}", text(&out));
    let mut other = Command::new(arena());
    other
        .arg("merge")
        .arg(shard(1))
        .arg(dir.path().join("other/tournament-2-of-3.jsonl"));
    let out = run(other, Duration::from_secs(30));
    assert!(!out.status.success());
    assert!(text(&out).contains("another tournament"), "{}", text(&out));
}

#[test]
fn resuming_with_another_config_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        tournament(dir.path(), &common::marker("cfg1"), &["--rounds", "1"]),
        Duration::from_secs(60),
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = run(
        tournament(dir.path(), &common::marker("cfg2"), &["--rounds", "2"]),
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("holds another tournament: rounds=1 in the journal, rounds=2 now"),
        "{}",
        text(&out)
    );
}

#[test]
fn gauntlet_from_a_json_config() {
    let dir = tempfile::tempdir().unwrap();
    let engines: Vec<Value> = [3, 1, 2]
        .iter()
        .map(|d| {
            serde_json::json!({"name": format!("d{d}"), "cmd": agon().display().to_string(),
                "depth": d, "options": {"Searcher": "pvs"}})
        })
        .collect();
    std::fs::write(
        dir.path().join("t.json"),
        serde_json::json!({"game": GAME, "engines": engines}).to_string(),
    )
    .unwrap();
    let mut c = Command::new(arena());
    c.current_dir(dir.path()).args([
        "tournament",
        "--no-progress",
        "--config",
        "t.json",
        "--format",
        "gauntlet",
        "--rounds",
        "3",
    ]);
    let out = run(c, Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    let s = standings(&dir.path().join("arena-out/standings.json"));
    // Gauntlet: d3 meets d1 and d2 (2 pairings x 3 rounds x 2 games); d1 never meets d2.
    assert_eq!(s["standings"]["games"], 12);
    assert_eq!(s["standings"]["cross"][1][2], serde_json::json!([0, 0, 0]));
    assert_eq!(
        s["standings"]["engines"],
        serde_json::json!(["d3", "d1", "d2"])
    );
    let mut bad = Command::new(arena());
    std::fs::write(dir.path().join("bad.json"), "{\"engines\": 3}").unwrap();
    bad.current_dir(dir.path())
        .args(["tournament", "--config", "bad.json"]);
    let out = run(bad, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("needs \"engines\""), "{}", text(&out));
}

#[test]
fn sprt_stops_when_it_decides() {
    // Depth 4 against depth 1 at Clobber 4x5 scores about 95% (see the ranking test's
    // cross table): H1 (elo >= 50) is accepted long before 200 pairs.
    let dir = tempfile::tempdir().unwrap();
    let mut c = Command::new(arena());
    c.current_dir(dir.path()).args([
        "tournament",
        "--no-progress",
        "--game",
        GAME,
        "--rounds",
        "200",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0",
        "elo1=50",
    ]);
    for d in [4, 1] {
        c.arg("--engine")
            .arg(format!("cmd={} name=d{d} depth={d}", agon().display()));
    }
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("H1 accepted"), "{}", text(&out));
    let games = journal_games(&dir.path().join("arena-out/tournament.jsonl"));
    assert!(games.len() < 100, "{} games", games.len());
}

#[test]
fn match_sprt_stops_when_it_decides() {
    // The same clear gap in `arena match`: 400 games scheduled, far fewer played.
    let dir = tempfile::tempdir().unwrap();
    let mut c = common::arena_match(dir.path(), &common::marker("match-sprt"));
    c.args([
        "--game",
        GAME,
        "--games",
        "400",
        "--concurrency",
        "2",
        "--report-every",
        "0",
        "--sprt",
        "elo0=0",
        "elo1=50",
    ]);
    for d in [4, 1] {
        c.arg("--engine")
            .arg(format!("cmd={} name=d{d} depth={d}", agon().display()));
    }
    let out = run(c, Duration::from_secs(120));
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("H1 accepted"), "{}", text(&out));
    let games = common::journal(&dir.path().join("arena-out/journal.jsonl")).len();
    assert!(games < 200, "{games} games");
}

#[test]
fn match_resumes_after_sigkill() {
    let cmd = |dir: &Path, marker: &str| {
        let mut c = common::arena_match(dir, marker);
        c.args([
            "--game",
            GAME,
            "--games",
            "60",
            "--seed",
            "5",
            "--concurrency",
            "2",
            "--report-every",
            "0",
        ]);
        for d in [2, 3] {
            c.arg("--engine")
                .arg(format!("cmd={} name=d{d} depth={d}", agon().display()));
        }
        c
    };
    let results = |dir: &Path| -> Vec<(u64, String)> {
        let mut r: Vec<(u64, String)> = common::journal(&dir.join("arena-out/journal.jsonl"))
            .iter()
            .map(|g| {
                (
                    g["game"].as_u64().unwrap(),
                    g["result"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        r.sort();
        r
    };
    let whole = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = run(
        cmd(whole.path(), &common::marker("m-whole")),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", text(&out));
    let full_time = started.elapsed().as_millis() as u64;

    let dir = tempfile::tempdir().unwrap();
    let mut seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    for _ in 0..2 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let wait = 20 + (seed >> 33) % full_time.max(40);
        let mut child = cmd(dir.path(), &common::marker("m-killed"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        let _ = child.kill(); // SIGKILL
        child.wait().unwrap();
    }
    let journal = dir.path().join("arena-out/journal.jsonl");
    if journal.exists() {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&journal)
            .unwrap();
        std::io::Write::write_all(&mut f, b"{\"version\":1,\"ru").unwrap();
    }
    let out = run(
        cmd(dir.path(), &common::marker("m-resume")),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", text(&out));
    if journal.exists() {
        assert!(
            text(&out).contains("incomplete last line"),
            "{}",
            text(&out)
        );
    }
    // Every game once, each with the result of the uninterrupted run.
    let got = results(dir.path());
    assert_eq!(got.len(), 60);
    assert_eq!(got, results(whole.path()));
}

/// The lock of the output folder (issue 19): two arenas started together on one folder,
/// one plays, the other stops at once naming it, and the journal holds each game once.
#[test]
fn two_arenas_on_one_folder_the_second_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let children: Vec<_> = (0..2)
        .map(|_| {
            let child = tournament(dir.path(), &common::marker("lock"), &["--rounds", "3"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let pid = child.id();
            let waiter = std::thread::spawn(move || {
                let out = child.wait_with_output().unwrap();
                (out, started.elapsed())
            });
            (pid, waiter)
        })
        .collect();
    let results: Vec<(u32, std::process::Output, Duration)> = children
        .into_iter()
        .map(|(pid, w)| {
            let (out, took) = w.join().unwrap();
            (pid, out, took)
        })
        .collect();
    let (won, lost): (Vec<_>, Vec<_>) = results.iter().partition(|r| r.1.status.success());
    assert_eq!(
        (won.len(), lost.len()),
        (1, 1),
        "exactly one plays:\n{}\n{}",
        text(&results[0].1),
        text(&results[1].1)
    );
    let (winner, (_, refused, refused_after)) = (won[0], lost[0]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    eprintln!("refused after {refused_after:?}: {stderr}");
    assert_eq!(refused.status.code(), Some(2), "{}", text(refused));
    let lock = dir.path().join("arena-out/.arena.lock");
    assert!(
        stderr.contains(&format!(
            "arena-out is in use by another arena: pid {} on ",
            winner.0
        )) && stderr.contains("tournament --no-progress --game 'clobber rows=4 cols=5'")
            && stderr.contains(&lock.file_name().unwrap().to_string_lossy().to_string()),
        "{stderr}"
    );
    assert!(
        *refused_after < winner.2,
        "the refused one stopped at once ({refused_after:?}), before the other finished ({:?})",
        winner.2
    );
    assert!(
        String::from_utf8_lossy(&refused.stdout).is_empty(),
        "the refused one printed nothing else: {}",
        text(refused)
    );
    // The journal is exact: one header, 4 engines x 6 pairings x 3 rounds x 2 = 36 games,
    // each once, in whole lines.
    let journal = dir.path().join("arena-out/tournament.jsonl");
    let text_of = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(text_of.matches("\"tournament\"").count(), 1, "one header");
    let mut games = journal_games(&journal);
    assert_eq!(games.len(), 36, "{text_of}");
    games.sort_unstable();
    assert_eq!(games, (0..36).collect::<Vec<u64>>());

    // Shards in one folder: different shards run side by side, the same shard twice is
    // refused (each shard has its own journal and lock file).
    let shard = |k: &str| {
        tournament(
            dir.path(),
            &common::marker("lock-shard"),
            &["--rounds", "4", "--out", "sharded", "--shard", k],
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
    };
    let first = shard("1/2");
    // Its lock file holds its pid once it has the lock; its journal's header follows.
    let lock = dir.path().join("sharded/.arena-shard-1-of-2.lock");
    let journal = dir.path().join("sharded/tournament-1-of-2.jsonl");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !std::fs::read_to_string(&lock)
        .unwrap_or_default()
        .contains(&format!("\"pid\":{}", first.id()))
        || !std::fs::read_to_string(&journal)
            .unwrap_or_default()
            .contains('\n')
    {
        assert!(Instant::now() < deadline, "shard 1/2 never took its lock");
        std::thread::sleep(Duration::from_millis(10));
    }
    let again = shard("1/2").wait_with_output().unwrap();
    let other = shard("2/2");
    let mut merge = Command::new(arena());
    merge
        .current_dir(dir.path())
        .args(["merge", "sharded/tournament-1-of-2.jsonl"]);
    // Merging (reading) while a shard runs is allowed: partial standings.
    let partial = run(merge, Duration::from_secs(30));
    let first = first.wait_with_output().unwrap();
    let other = other.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", text(&first));
    assert!(other.status.success(), "{}", text(&other));
    assert!(partial.status.success(), "{}", text(&partial));
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stderr.contains("sharded is in use by another arena: pid ")
            && stderr.contains("--shard 1/2")
            && stderr.contains(".arena-shard-1-of-2.lock"),
        "{stderr}"
    );
    for k in 1..=2 {
        let games = journal_games(
            &dir.path()
                .join(format!("sharded/tournament-{k}-of-2.jsonl")),
        );
        assert_eq!(games.len(), 24, "shard {k}/2: 48 games, half each");
    }
}
