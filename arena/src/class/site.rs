//! The results site of a class: static pages that work opened from disk (no network, no
//! server; each page carries its own style and, for a replay, its own script and data)
//! and served by `arena serve --site OUT/site`.
//!
//! - `site/index.html`: the standings with 95% intervals, the cross table, the students
//!   who did not play and why;
//! - `site/students/NAME.html`: one student's version, place, check report, verdicts,
//!   every game with its replay, and its stderr of each game (at most the class's cap);
//! - `site/games/ID.html`: one game's replay on the board (step, jump, slider, move list
//!   with times) with its verdict in words;
//! - `private/NAME/`: the student's own page and the replays of its games, nothing
//!   else: a teacher can hand that folder to that student alone. No other student's
//!   stderr, check report or code is in it (no page carries any code at all, and game
//!   pages carry no stderr).
//!
//! Everything a student wrote (names, stderr, replies) is escaped for HTML; the data of a
//! replay is JSON with `<` written as `\u003c`, so it cannot close its script element.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agon::games::{new_game, GameSpec};

use super::{seat_of, verdict, ClassResults, StudentLine};
use crate::grade::folder_name;
use crate::record::{GameRecord, Seat};
use crate::safe_text::html;

/// Multi-line text for a `<pre>`: each line escaped ([`html`] shows a newline as `\n`).
fn html_lines(text: &str) -> String {
    text.lines().map(html).collect::<Vec<_>>().join("\n")
}

/// The page id of a game: a hash of its key.
pub fn game_id(g: &GameRecord) -> String {
    crate::journal::fingerprint(g.fingerprint.as_deref().unwrap_or(&g.run))
        + &format!("-{}", g.game)
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:left}\
th{background:#f3f3f3}td{white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}\
.bad{color:#b00020}.good{color:#1b5e20}.muted{color:#777}pre{background:#f6f6f6;padding:.6em;overflow:auto;max-height:30em;white-space:pre-wrap}\
.bar{display:inline-block;height:.7em;background:#90caf9;vertical-align:middle}\
#board{border-collapse:collapse;margin:1em 0}#board th{background:none;border:0;color:#777;font-weight:normal;padding:0 .3em}#moves .book{color:#777;font-style:italic}#board td{width:2.6em;height:2.6em;border:1px solid #999;text-align:center;padding:0;background:#e8d7b0}\
.stone{display:inline-block;width:2.1em;height:2.1em;line-height:2.1em;border-radius:50%;font-weight:bold;font-size:.8em}\
.dark{background:#222;color:#eee}.light{background:#fafafa;color:#222;border:1px solid #555}\
#moves span{cursor:pointer;padding:0 .2em}#moves span.now{background:#ffe082}\
nav a{margin-right:1em}";

fn page(title: &str, body: &str, script: Option<&str>) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
<title>{}</title><style>{STYLE}</style></head><body>\n{body}\n{}</body></html>\n",
        html(title),
        script.map_or(String::new(), |s| format!("<script>{s}</script>\n"))
    )
}

/// What the site is told about the class, beyond the results.
#[derive(Clone, Debug)]
pub struct SiteInfo {
    /// The game.
    pub spec: GameSpec,
    /// The time control, as given.
    pub tc: String,
    /// The schedule, in words.
    pub format: String,
    /// The seed.
    pub seed: u64,
    /// The sandbox's limits, in words.
    pub sandbox: String,
    /// Bytes of stderr kept per game.
    pub stderr_cap: u64,
}

/// The result of `g` for the student at `seat`: `won`, `lost`, `draw`.
fn result_for(g: &GameRecord, seat: Seat) -> &'static str {
    match g.winner {
        Some(w) if w == seat => "won",
        Some(_) => "lost",
        None => "draw",
    }
}

/// How a game ended, in words: the verdict of a fault, else the rules' end.
pub fn ending(g: &GameRecord) -> String {
    match (g.termination.at_fault(), verdict(&g.termination)) {
        (Some(seat), Some(v)) => format!("{v} ({})", g.player(seat).name),
        _ => match g.termination.kind() {
            "adjudication" => format!("adjudicated: {}", g.reason),
            _ => match g.winner {
                Some(w) => format!("{} won by the rules", g.player(w).name),
                None => "draw by the rules".into(),
            },
        },
    }
}

/// A board's rows of `[stack, top]` cells.
type Frame = Vec<Vec<[String; 2]>>;

/// The square names of a game's board (rows from the top) and its positions, ply by ply.
fn frames(g: &GameRecord) -> Option<(Vec<Vec<String>>, Vec<Frame>)> {
    let spec = GameSpec::parse(&g.spec).ok()?;
    let mut game = new_game(&spec, g.opening.position.as_deref()).ok()?;
    let squares = game
        .cells()
        .into_iter()
        .map(|row| row.into_iter().map(|c| c.sq).collect())
        .collect();
    let shot = |game: &dyn agon::games::AnyGame| -> Frame {
        game.cells()
            .into_iter()
            .map(|row| row.into_iter().map(|c| [c.stack, c.top]).collect())
            .collect()
    };
    let mut out = vec![shot(game.as_ref())];
    for m in &g.moves {
        game.play(&m.mv).ok()?;
        out.push(shot(game.as_ref()));
    }
    Some((squares, out))
}

const REPLAY_JS: &str = r#"
const d = JSON.parse(document.getElementById('data').textContent);
let ply = d.frames.length - 1;
const dark = new Set(['x', 'b', '2']);
function draw() {
  const board = document.getElementById('board');
  board.replaceChildren();
  const digits = sq => sq.replace(/^[a-z]+/, '');
  const letters = sq => sq.replace(/[0-9]+$/, '');
  d.frames[ply].forEach((row, r) => {
    const tr = board.insertRow();
    const label = document.createElement('th');
    label.textContent = digits(d.squares[r][0]);
    tr.appendChild(label);
    row.forEach(([stack, top], c) => {
      const td = tr.insertCell();
      td.title = d.squares[r][c];
      if (stack) {
        const s = document.createElement('span');
        const last = stack[stack.length - 1];
        s.className = 'stone ' + (dark.has(last) ? 'dark' : 'light');
        s.textContent = top || (stack.length > 1 ? String(stack.length) : '');
        s.title = stack;
        td.appendChild(s);
      }
    });
  });
  const foot = board.insertRow();
  foot.appendChild(document.createElement('th'));
  for (const sq of d.squares[d.squares.length - 1]) {
    const th = document.createElement('th');
    th.textContent = letters(sq);
    foot.appendChild(th);
  }
  document.getElementById('ply').textContent = ply + ' / ' + (d.frames.length - 1);
  document.getElementById('slider').value = ply;
  document.querySelectorAll('#moves span').forEach((e, i) => e.classList.toggle('now', i + 1 === ply));
}
function go(p) { ply = Math.max(0, Math.min(d.frames.length - 1, p)); draw(); }
document.getElementById('first').onclick = () => go(0);
document.getElementById('prev').onclick = () => go(ply - 1);
document.getElementById('next').onclick = () => go(ply + 1);
document.getElementById('last').onclick = () => go(d.frames.length - 1);
const slider = document.getElementById('slider');
slider.max = d.frames.length - 1;
slider.oninput = () => go(Number(slider.value));
document.querySelectorAll('#moves span').forEach((e, i) => e.onclick = () => go(i + 1));
document.addEventListener('keydown', e => { if (e.key === 'ArrowLeft') go(ply - 1); if (e.key === 'ArrowRight') go(ply + 1); });
draw();
"#;

/// A game's replay page; `back` links to the page of the student it was reached from.
fn game_page(g: &GameRecord, back: &str) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "<nav><a href=\"{}\">index</a></nav><h1>{} vs {}</h1>",
        html(back),
        html(&g.p1.name),
        html(&g.p2.name)
    );
    let version = |p: &crate::record::PlayerRecord| p.version.clone().unwrap_or_default();
    let _ = write!(
        body,
        "<p>{} (first, version <code>{}</code>) against {} (second, version <code>{}</code>), {}. \
Result <b>{}</b>: {}.</p>",
        html(&g.p1.name),
        html(&version(&g.p1)),
        html(&g.p2.name),
        html(&version(&g.p2)),
        html(&g.spec),
        html(&g.result),
        html(&ending(g))
    );
    let Some((squares, frames)) = frames(g) else {
        body.push_str(
            "<p class=\"bad\">This game's moves do not replay under the rules of this arena.</p>",
        );
        return page("Game", &body, None);
    };
    body.push_str(
        "<div><button id=\"first\">|&lt;</button> <button id=\"prev\">&lt;</button> \
<button id=\"next\">&gt;</button> <button id=\"last\">&gt;|</button> \
<input id=\"slider\" type=\"range\" min=\"0\" value=\"0\"> ply <span id=\"ply\"></span></div>\
<table id=\"board\"></table><p id=\"moves\">",
    );
    for m in &g.moves {
        let mut title = String::new();
        if m.book {
            title.push_str("opening move (given)");
        } else if let Some(t) = m.time_ms {
            let _ = write!(title, "{t:.0} ms");
        }
        if let Some(b) = m.bank_ms {
            let _ = write!(title, ", bank left {b} ms");
        }
        if m.default_move {
            title.push_str(", over time: played by the arena");
        }
        let _ = write!(
            body,
            "<span{} title=\"{}\">{}.&nbsp;{}{}</span> ",
            if m.book { " class=\"book\"" } else { "" },
            html(&title),
            m.ply,
            html(&m.mv),
            if m.default_move { "*" } else { "" }
        );
    }
    body.push_str("</p>");
    if !g.notes.is_empty() {
        body.push_str("<h2>Notes</h2><ul>");
        for n in &g.notes {
            let _ = write!(body, "<li>{}</li>", html(n));
        }
        body.push_str("</ul>");
    }
    let data = serde_json::json!({ "squares": squares, "frames": frames });
    let json = serde_json::to_string(&data)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    let _ = write!(
        body,
        "<script type=\"application/json\" id=\"data\">{json}</script>"
    );
    page(
        &format!("{} vs {}", g.p1.name, g.p2.name),
        &body,
        Some(REPLAY_JS),
    )
}

/// A student's stderr of game `g` (its log, at most `cap` bytes), if kept.
fn stderr_of(out: &Path, g: &GameRecord, seat: Seat) -> Option<String> {
    let file = g.player(seat).stderr_log.as_ref()?;
    // The log's name is the arena's own; refuse anything else.
    if file.contains('/') || file.starts_with('.') {
        return None;
    }
    let path = out.join("runs").join(&g.run).join("logs").join(file);
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// A student's page. `games_href` is the folder of the replay pages, relative to it.
fn student_page(
    out: &Path,
    results: &ClassResults,
    info: &SiteInfo,
    line: &StudentLine,
    games_href: &str,
    index_href: Option<&str>,
) -> String {
    let mut body = String::new();
    if let Some(index) = index_href {
        let _ = write!(body, "<nav><a href=\"{}\">standings</a></nav>", html(index));
    }
    let _ = write!(body, "<h1>{}</h1>", html(&line.name));
    let _ = write!(
        body,
        "<p>Version <code>{}</code> ({}). {}</p>",
        html(&line.version),
        html(&line.status),
        match line.rank {
            Some(r) => format!(
                "Place <b>{r}</b> of {}, rating {:+.0} ± {:.0}, {} points in {} games ({}/{}/{} won/drawn/lost).",
                results.standings.ranking.len(),
                line.elo,
                line.error,
                line.points,
                line.games,
                line.wins,
                line.draws,
                line.losses
            ),
            None => "Did not play.".into(),
        }
    );
    let _ = write!(
        body,
        "<p>Game {}, time control {}, {}.</p>",
        html(&info.spec.to_string()),
        html(&info.tc),
        html(&info.sandbox)
    );
    if !line.beat_levels.is_empty() {
        let _ = write!(
            body,
            "<p>Scored more than half the points against the reference players: {}.</p>",
            html(&line.beat_levels.join(", "))
        );
    }
    let _ = write!(body, "<p>Check: <b>{}</b></p>", html(&line.diagnosis));
    if !line.faults.is_empty() {
        body.push_str("<p class=\"bad\">Games lost by its own fault: ");
        let parts: Vec<String> = line
            .faults
            .iter()
            .map(|(k, v)| format!("{} × {}", v, html(k)))
            .collect();
        body.push_str(&parts.join(", "));
        body.push_str("</p>");
    }
    if !line.same_content_as.is_empty() {
        let _ = write!(
            body,
            "<p class=\"bad\">The same content, byte for byte, as: {}.</p>",
            html(&line.same_content_as.join(", "))
        );
    }
    if !line.earlier_versions.is_empty() {
        body.push_str("<p class=\"muted\">Earlier versions (their games are kept, not counted): ");
        let parts: Vec<String> = line
            .earlier_versions
            .iter()
            .map(|(v, n)| format!("<code>{}</code> ({n} games)", html(v)))
            .collect();
        body.push_str(&parts.join(", "));
        body.push_str("</p>");
    }
    let me = results.entrants.iter().position(|e| e.name == line.name);
    if let Some(me) = me {
        body.push_str("<h2>Games</h2><table><tr><th>#</th><th>opponent</th><th>moved</th><th>result</th><th>how it ended</th><th>moves</th><th>replay</th></tr>");
        let mine: Vec<&GameRecord> = results
            .games
            .iter()
            .filter(|g| g.p1.engine == me || g.p2.engine == me)
            .collect();
        for (n, g) in mine.iter().enumerate() {
            let seat = seat_of(g, me);
            let opponent = g.player(seat.other());
            let result = result_for(g, seat);
            let _ = write!(
                body,
                "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td class=\"n\">{}</td><td><a href=\"{}/{}.html\">replay</a></td></tr>",
                n + 1,
                html(&opponent.name),
                if seat == Seat::P1 { "first" } else { "second" },
                match result {
                    "won" => "good",
                    "lost" => "bad",
                    _ => "",
                },
                result,
                html(&ending(g)),
                g.moves.iter().filter(|m| !m.book).count(),
                games_href,
                game_id(g)
            );
        }
        body.push_str("</table>");
        if results.entrants[me].bot.is_some() {
            let _ = write!(
                body,
                "<h2>Standard error output</h2><p class=\"muted\">What the bot wrote to stderr in each game (at most {} bytes a game); only this student's.</p>",
                info.stderr_cap
            );
            for (n, g) in mine.iter().enumerate() {
                let seat = seat_of(g, me);
                match stderr_of(out, g, seat) {
                    Some(text) if !text.is_empty() => {
                        let _ = write!(
                            body,
                            "<details><summary>game {} against {}</summary><pre>{}</pre></details>",
                            n + 1,
                            html(&g.player(seat.other()).name),
                            html_lines(&text)
                        );
                    }
                    _ => {}
                }
            }
        }
    }
    if let Some(check) = results.checks.get(&line.name) {
        let _ = write!(
            body,
            "<h2>Conformance check</h2><pre>{}</pre>",
            html_lines(&check.text)
        );
    }
    page(&line.name, &body, None)
}

fn index_page(results: &ClassResults, info: &SiteInfo) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>Class tournament: {}</h1><p>{}, time control {}, seed {}, {} games counted. {}.</p>",
        html(&info.spec.to_string()),
        html(&info.format),
        html(&info.tc),
        info.seed,
        results.games.len(),
        html(&info.sandbox)
    );
    body.push_str("<h2>Standings</h2><table><tr><th>place</th><th>name</th><th>version</th><th>rating ± 95%</th><th></th><th>games</th><th>points</th><th>score</th><th>W/D/L</th><th>lost by own fault</th><th>sure above next</th></tr>");
    let ranked: Vec<&StudentLine> = results.lines.iter().filter(|l| l.rank.is_some()).collect();
    let (lo, hi) = ranked.iter().fold((f64::MAX, f64::MIN), |(lo, hi), l| {
        (lo.min(l.elo - l.error), hi.max(l.elo + l.error))
    });
    let scale = |x: f64| {
        if hi > lo {
            12.0 * (x - lo) / (hi - lo)
        } else {
            0.0
        }
    };
    for l in &ranked {
        let standing = results.standings.ranking.iter().find(|s| s.name == l.name);
        let name = if l.kind == "reference" {
            format!("<i>{}</i>", html(&l.name))
        } else {
            format!(
                "<a href=\"students/{}.html\">{}</a>",
                folder_name(&l.name),
                html(&l.name)
            )
        };
        let faults: Vec<String> = l
            .faults
            .iter()
            .map(|(k, v)| format!("{v} {}", html(k)))
            .collect();
        let _ = write!(
            body,
            "<tr><td class=\"n\">{}</td><td>{}</td><td><code>{}</code></td><td class=\"n\">{:+.0} ± {:.0}</td>\
<td><span class=\"bar\" style=\"margin-left:{:.2}em;width:{:.2}em\"></span></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}/{}/{}</td><td class=\"bad\">{}</td><td class=\"n\">{}</td></tr>",
            l.rank.unwrap_or(0),
            name,
            html(&l.version),
            l.elo,
            l.error,
            scale(l.elo - l.error),
            (scale(l.elo + l.error) - scale(l.elo - l.error)).max(0.1),
            l.games,
            l.points,
            if l.games > 0 {
                format!("{:.0}%", 100.0 * l.points / l.games as f64)
            } else {
                "-".into()
            },
            l.wins,
            l.draws,
            l.losses,
            faults.join(", "),
            standing
                .and_then(|s| s.los_next)
                .map_or("-".into(), |x| format!("{:.0}%", 100.0 * x))
        );
    }
    body.push_str("</table>");
    let others: Vec<&StudentLine> = results.lines.iter().filter(|l| l.rank.is_none()).collect();
    if !others.is_empty() {
        body.push_str(
            "<h2>Did not play</h2><table><tr><th>name</th><th>status</th><th>why</th></tr>",
        );
        for l in others {
            let name = if l.status == "withdrawn" {
                format!(
                    "<a href=\"students/{}.html\">{}</a>",
                    folder_name(&l.name),
                    html(&l.name)
                )
            } else {
                html(&l.name)
            };
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                name,
                html(&l.status),
                html(&l.diagnosis)
            );
        }
        body.push_str("</table>");
    }
    // The cross table, by place.
    let s = &results.standings;
    let order: Vec<usize> = s
        .ranking
        .iter()
        .filter_map(|r| s.engines.iter().position(|n| *n == r.name))
        .filter(|&i| ranked.iter().any(|l| l.name == s.engines[i]))
        .collect();
    body.push_str("<h2>Cross table</h2><p class=\"muted\">The row's points against the column, of the games they played.</p><table><tr><th></th>");
    for (k, _) in order.iter().enumerate() {
        let _ = write!(body, "<th>{}</th>", k + 1);
    }
    body.push_str("</tr>");
    for (k, &i) in order.iter().enumerate() {
        let _ = write!(body, "<tr><th>{} {}</th>", k + 1, html(&s.engines[i]));
        for &j in &order {
            let [w, d, l] = s.cross[i][j];
            let text = if i == j {
                "".into()
            } else if w + d + l == 0 {
                ".".into()
            } else {
                format!("{}/{}", w as f64 + d as f64 / 2.0, w + d + l)
            };
            let _ = write!(body, "<td class=\"n\">{text}</td>");
        }
        body.push_str("</tr>");
    }
    body.push_str("</table>");
    page("Class tournament", &body, None)
}

/// Writes `site/` and `private/` under `out` (each replaced as a whole).
///
/// # Errors
/// A page that cannot be written.
pub fn write_site(out: &Path, results: &ClassResults, info: &SiteInfo) -> std::io::Result<()> {
    let site = out.join("site");
    let private = out.join("private");
    for dir in [&site, &private] {
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
    }
    std::fs::create_dir_all(site.join("students"))?;
    std::fs::create_dir_all(site.join("games"))?;
    let write = |path: PathBuf, text: String| crate::atomic_file::write(&path, text);
    write(site.join("index.html"), index_page(results, info))?;
    let mut pages: BTreeMap<String, String> = BTreeMap::new();
    for g in &results.games {
        pages.insert(game_id(g), game_page(g, "../index.html"));
    }
    for (id, text) in &pages {
        write(site.join("games").join(format!("{id}.html")), text.clone())?;
    }
    for line in results.lines.iter().filter(|l| l.status != "skipped") {
        let folder = folder_name(&line.name);
        write(
            site.join("students").join(format!("{folder}.html")),
            student_page(out, results, info, line, "../games", Some("../index.html")),
        )?;
        if line.kind != "student" {
            continue;
        }
        let mine = private.join(&folder);
        std::fs::create_dir_all(mine.join("games"))?;
        write(
            mine.join("index.html"),
            student_page(out, results, info, line, "games", None),
        )?;
        let me = results.entrants.iter().position(|e| e.name == line.name);
        for g in results
            .games
            .iter()
            .filter(|g| me.is_some_and(|me| g.p1.engine == me || g.p2.engine == me))
        {
            let id = game_id(g);
            if let Some(text) = pages.get(&id) {
                write(mine.join("games").join(format!("{id}.html")), text.clone())?;
            }
        }
    }
    Ok(())
}
