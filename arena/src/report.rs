//! `arena report`: a self-contained HTML page (inline SVG, no scripts, no network) from a
//! journal: per engine configuration the nodes, depth, time and score of each of its
//! moves averaged across its games, one line per configuration, and the standings with
//! 95% error bars from [`crate::stats`].
//!
//! Configurations are told apart by the engine name each game recorded, so several
//! matches appended to one journal (minimax vs alpha-beta, alpha-beta vs alpha-beta with
//! ordering...) compare on one chart.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::record::{GameRecord, ScoreRecord, Seat};
use crate::stats::Trinomial;

/// Scores of a win or loss in N plies are drawn at this many centi-units.
const MATE_CP: f64 = 1000.0;

/// A running mean per move number (the configuration's 1st, 2nd... searched move in a game).
#[derive(Clone, Debug, Default)]
struct Series {
    sums: Vec<(f64, u64)>,
}

impl Series {
    fn add(&mut self, index: usize, value: f64) {
        if self.sums.len() <= index {
            self.sums.resize(index + 1, (0.0, 0));
        }
        self.sums[index].0 += value;
        self.sums[index].1 += 1;
    }

    fn means(&self) -> Vec<Option<f64>> {
        self.sums
            .iter()
            .map(|&(s, n)| (n > 0).then(|| s / n as f64))
            .collect()
    }

    fn overall(&self) -> Option<f64> {
        let (s, n) = self
            .sums
            .iter()
            .fold((0.0, 0), |(s, n), &(a, b)| (s + a, n + b));
        (n > 0).then(|| s / n as f64)
    }
}

/// What the report knows about one engine configuration.
#[derive(Clone, Debug, Default)]
pub struct ConfigStats {
    /// The engine name from the journal.
    pub name: String,
    /// Games, wins, draws and losses against any opponent.
    pub results: Trinomial,
    /// Searched (non-book) moves.
    pub moves: u64,
    nodes: Series,
    depth: Series,
    time: Series,
    score: Series,
}

impl ConfigStats {
    /// Mean reported nodes per searched move, if any were reported.
    pub fn mean_nodes(&self) -> Option<f64> {
        self.nodes.overall()
    }

    /// Mean reported depth per searched move.
    pub fn mean_depth(&self) -> Option<f64> {
        self.depth.overall()
    }

    /// Mean wall time per searched move, in ms.
    pub fn mean_time_ms(&self) -> Option<f64> {
        self.time.overall()
    }
}

/// Gathers every configuration of the records, in order of first appearance.
pub fn gather(records: &[GameRecord]) -> Vec<ConfigStats> {
    let mut order: Vec<String> = Vec::new();
    let mut by_name: BTreeMap<String, ConfigStats> = BTreeMap::new();
    for record in records {
        let outcome = record.outcome();
        for seat in [Seat::P1, Seat::P2] {
            let name = record.player(seat).name.clone();
            let stats = by_name.entry(name.clone()).or_insert_with(|| {
                order.push(name.clone());
                ConfigStats {
                    name,
                    ..ConfigStats::default()
                }
            });
            if outcome.is_some() {
                match record.winner {
                    Some(w) if w == seat => stats.results.wins += 1,
                    Some(_) => stats.results.losses += 1,
                    None => stats.results.draws += 1,
                }
            }
            let searched = record
                .moves
                .iter()
                .filter(|m| m.side == Some(seat) && !m.book);
            for (i, m) in searched.enumerate() {
                stats.moves += 1;
                if let Some(n) = m.nodes {
                    stats.nodes.add(i, n as f64);
                }
                if let Some(d) = m.depth {
                    stats.depth.add(i, f64::from(d));
                }
                if let Some(t) = m.time_ms {
                    stats.time.add(i, t);
                }
                if let Some(s) = m.score {
                    let cp = match s {
                        ScoreRecord::Cp(v) => f64::from(v).clamp(-MATE_CP, MATE_CP),
                        ScoreRecord::Win(_) => MATE_CP,
                        ScoreRecord::Loss(_) => -MATE_CP,
                    };
                    stats.score.add(i, cp);
                }
            }
        }
    }
    order
        .into_iter()
        .filter_map(|n| by_name.remove(&n))
        .collect()
}

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Distinct line colours (Okabe–Ito palette, readable by colour-blind people).
const COLOURS: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000",
];

const W: f64 = 640.0;
const H: f64 = 300.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 160.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 40.0;

/// A line chart, one line per configuration, x = move number, optionally log-scaled y.
fn line_chart(title: &str, y_label: &str, lines: &[(&str, Vec<Option<f64>>)], log: bool) -> String {
    let f = |v: f64| if log { v.max(1.0).log10() } else { v };
    let points: Vec<f64> = lines
        .iter()
        .flat_map(|(_, v)| v.iter().flatten().map(|&x| f(x)))
        .collect();
    let mut svg = format!(
        "<figure><figcaption>{}</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\">",
        escape(title)
    );
    if points.is_empty() {
        svg.push_str("<text x=\"20\" y=\"40\">no data in the journal</text></svg></figure>");
        return svg;
    }
    let max_x = lines.iter().map(|(_, v)| v.len()).max().unwrap_or(1).max(2) as f64;
    let (mut lo, mut hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if !log {
        lo = lo.min(0.0);
    } else {
        lo = lo.floor();
        hi = hi.ceil();
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let sx = |x: f64| LEFT + (x - 1.0) / (max_x - 1.0) * pw;
    let sy = |y: f64| TOP + (hi - y) / (hi - lo) * ph;
    let _ = write!(
        svg,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#999\"/>"
    );
    for i in 0..=4 {
        let y = lo + (hi - lo) * f64::from(i) / 4.0;
        let label = if log {
            format!("{:.0}", 10f64.powf(y))
        } else {
            format!("{y:.1}")
        };
        let _ = write!(
            svg,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#eee\"/><text x=\"{2}\" y=\"{3:.1}\" font-size=\"11\" text-anchor=\"end\">{label}</text>",
            LEFT + pw,
            sy(y),
            LEFT - 4.0,
            sy(y) + 4.0
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">move number</text><text x=\"{LEFT}\" y=\"{:.1}\" font-size=\"12\">{}{}</text>",
        LEFT + pw / 2.0,
        H - 8.0,
        TOP - 10.0,
        escape(y_label),
        if log { " (log scale)" } else { "" }
    );
    for (i, (name, values)) in lines.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = values
            .iter()
            .enumerate()
            .filter_map(|(x, v)| v.map(|v| format!("{:.1},{:.1}", sx(x as f64 + 1.0), sy(f(v)))))
            .collect();
        let _ = write!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" fill=\"{colour}\">{}</text>",
            path.join(" "),
            LEFT + pw + 8.0,
            TOP + 14.0 + 16.0 * i as f64,
            escape(name)
        );
    }
    svg.push_str("</svg></figure>");
    svg
}

/// Standings as horizontal bars: Elo against the field with its 95% interval.
fn standings(configs: &[ConfigStats]) -> String {
    let mut html = String::from(
        "<table><tr><th>engine</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>Elo vs field (95%)</th><th>moves</th><th>nodes/move</th><th>depth/move</th><th>ms/move</th></tr>",
    );
    let opt = |v: Option<f64>, digits: usize| {
        v.map_or_else(|| "–".to_string(), |v| format!("{v:.digits$}"))
    };
    let mut bars = Vec::new();
    for c in configs {
        let r = c.results;
        let elo = r.elo();
        let elo_text = match elo {
            Some(e) if e.elo.is_finite() => format!("{:+.1} ± {:.1}", e.elo, e.error),
            Some(e) => format!("{} (unbounded)", if e.elo > 0.0 { "+∞" } else { "−∞" }),
            None => "–".into(),
        };
        if let Some(e) = elo.filter(|e| e.lower.is_finite() && e.upper.is_finite()) {
            bars.push((c.name.as_str(), e.elo, e.lower, e.upper));
        }
        let _ = write!(
            html,
            "<tr class=\"config\" data-config=\"{}\" data-mean-nodes=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}%</td><td>{elo_text}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&c.name),
            opt(c.mean_nodes(), 1),
            escape(&c.name),
            r.games(),
            r.wins,
            r.draws,
            r.losses,
            if r.games() == 0 { 0.0 } else { 100.0 * r.points() / r.games() as f64 },
            c.moves,
            opt(c.mean_nodes(), 1),
            opt(c.mean_depth(), 2),
            opt(c.mean_time_ms(), 2),
        );
    }
    html.push_str("</table>");
    if !bars.is_empty() {
        let span = bars
            .iter()
            .map(|b| b.2.abs().max(b.3.abs()))
            .fold(1.0f64, f64::max);
        let h = 30.0 + 24.0 * bars.len() as f64;
        let cx = LEFT + 100.0 + (W - LEFT - 100.0 - 40.0) / 2.0;
        let half = (W - LEFT - 100.0 - 40.0) / 2.0;
        let sx = |e: f64| cx + e / span * half;
        let _ = write!(
            html,
            "<figure><figcaption>Elo against the field, 95% interval</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{h}\"><line x1=\"{cx}\" x2=\"{cx}\" y1=\"10\" y2=\"{}\" stroke=\"#999\"/><text x=\"{cx}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">0</text>",
            h - 20.0,
            h - 6.0
        );
        for (i, (name, elo, lo, hi)) in bars.iter().enumerate() {
            let y = 24.0 + 24.0 * i as f64;
            let colour = COLOURS[i % COLOURS.len()];
            let _ = write!(
                html,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"3\"/><circle cx=\"{:.1}\" cy=\"{y}\" r=\"4\" fill=\"{colour}\"/>",
                LEFT + 90.0,
                y + 4.0,
                escape(name),
                sx(*lo),
                sx(*hi),
                sx(*elo)
            );
        }
        html.push_str("</svg></figure>");
    }
    html
}

/// The whole report page for the records of one journal.
pub fn render(title: &str, records: &[GameRecord]) -> String {
    let configs = gather(records);
    let lines = |pick: fn(&ConfigStats) -> &Series| -> Vec<(&str, Vec<Option<f64>>)> {
        configs
            .iter()
            .map(|c| (c.name.as_str(), pick(c).means()))
            .collect()
    };
    let mut specs: Vec<&str> = records.iter().map(|r| r.spec.as_str()).collect();
    specs.sort_unstable();
    specs.dedup();
    let mut html = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title><style>body{{font-family:sans-serif;margin:2em;max-width:60em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}td:first-child{{text-align:left}}figure{{margin:1em 0}}figcaption{{font-weight:bold}}</style></head><body><h1>{0}</h1><p>{1} games; game specs: {2}. Each line is the mean over the games of a configuration's n-th searched move.</p><h2>Standings</h2>",
        escape(title),
        records.len(),
        escape(&specs.join(", "))
    );
    html.push_str(&standings(&configs));
    html.push_str("<h2>Search per move</h2>");
    html.push_str(&line_chart(
        "Nodes per move",
        "nodes",
        &lines(|c| &c.nodes),
        true,
    ));
    html.push_str(&line_chart(
        "Depth per move",
        "depth",
        &lines(|c| &c.depth),
        false,
    ));
    html.push_str(&line_chart(
        "Time per move",
        "ms",
        &lines(|c| &c.time),
        false,
    ));
    html.push_str(&line_chart(
        "Score over the game (mover's view, centi-units; wins/losses at ±1000)",
        "score",
        &lines(|c| &c.score),
        false,
    ));
    html.push_str("</body></html>\n");
    html
}
