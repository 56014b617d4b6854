//! The report's charts: inline SVG, no scripts.

use std::fmt::Write as _;

use crate::record::GameRecord;
use crate::sprt::Sprt;
use crate::stats::EloEstimate;
use crate::summary::Summary;

use super::*;

/// Distinct line colours (Okabe–Ito palette, readable by colour-blind people).
const COLOURS: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];
/// Dash patterns, so that lines that coincide still show as different.
const DASHES: [&str; 4] = ["", "8 4", "2 3", "10 3 2 3"];
/// Point markers.
const MARKERS: [&str; 4] = ["circle", "square", "triangle", "diamond"];

const W: f64 = 680.0;
const H: f64 = 300.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 45.0;

/// "Nice" tick values covering `lo..=hi`: steps of 1, 2 or 5 times a power of ten.
pub(super) fn ticks(lo: f64, hi: f64, want: usize) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / want.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| span / s <= want as f64)
        .unwrap_or(10.0 * power);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

/// A tick label: whole numbers as they are, thousands as `k`, millions as `M`.
pub(super) fn tick_label(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e4 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

pub(super) fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

pub(super) fn marker(kind: &str, x: f64, y: f64, colour: &str) -> String {
    match kind {
        "square" => format!("<rect x=\"{:.1}\" y=\"{:.1}\" width=\"6\" height=\"6\" fill=\"{colour}\"/>", x - 3.0, y - 3.0),
        "triangle" => format!("<polygon points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{colour}\"/>", x, y - 4.0, x - 4.0, y + 3.0, x + 4.0, y + 3.0),
        "diamond" => format!("<polygon points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{colour}\"/>", x, y - 4.0, x + 4.0, y, x, y + 4.0, x - 4.0, y),
        _ => format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3\" fill=\"{colour}\"/>"),
    }
}

/// One line of a chart: a name and (mean, spread) per x from 1.
pub(super) type Line<'a> = (&'a str, Vec<Option<(f64, f64)>>);

/// A line chart: x = move number, one line per configuration with its spread band,
/// labelled axes with ticks, optionally a log-scaled y axis.
pub(super) fn line_chart(
    id: &str,
    title: &str,
    y_label: &str,
    x_label: &str,
    lines: &[Line<'_>],
    log: bool,
) -> String {
    let f = |v: f64| if log { v.max(1.0).log10() } else { v };
    let values: Vec<f64> = lines
        .iter()
        .flat_map(|(_, v)| {
            v.iter().flatten().flat_map(|&(m, s)| {
                [
                    f(m),
                    f((m - s).max(if log { 1.0 } else { f64::MIN })),
                    f(m + s),
                ]
            })
        })
        .collect();
    if values.is_empty() {
        return format!(
            "<figure id=\"{id}\"><figcaption>{}</figcaption><p>No data in the journal.</p></figure>",
            escape(title)
        );
    }
    let mut svg = format!(
        "<figure id=\"{id}\"><figcaption>{}</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{}\">",
        escape(title),
        escape(title)
    );
    let max_x = lines.iter().map(|(_, v)| v.len()).max().unwrap_or(1).max(2) as f64;
    let (mut lo, mut hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if log {
        lo = lo.floor();
        hi = hi.ceil();
    } else if lo > 0.0 {
        lo = 0.0;
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let sx = |x: f64| LEFT + (x - 1.0) / (max_x - 1.0) * pw;
    let sy = |y: f64| TOP + (hi - y) / (hi - lo) * ph;
    let _ = write!(svg, "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#999\"/>");
    // y ticks: powers of ten on a log axis, nice steps otherwise.
    let y_ticks: Vec<f64> = if log {
        (lo as i64..=hi as i64).map(|e| e as f64).collect()
    } else {
        ticks(lo, hi, 5)
    };
    for y in y_ticks {
        let label = if log {
            tick_label(10f64.powf(y))
        } else {
            tick_label(y)
        };
        let _ = write!(
            svg,
            "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#e4e4e4\"/><line x1=\"{2:.1}\" x2=\"{LEFT}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#333\"/><text class=\"ytick\" x=\"{3:.1}\" y=\"{4:.1}\" font-size=\"11\" text-anchor=\"end\">{label}</text>",
            LEFT + pw,
            sy(y),
            LEFT - 4.0,
            LEFT - 6.0,
            sy(y) + 4.0
        );
    }
    // x counts moves or games: whole numbers only.
    for x in ticks(1.0, max_x, 8)
        .into_iter()
        .filter(|x| *x >= 1.0 && x.fract() == 0.0)
    {
        let _ = write!(
            svg,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#333\"/><text class=\"xtick\" x=\"{0:.1}\" y=\"{3:.1}\" font-size=\"11\" text-anchor=\"middle\">{4}</text>",
            sx(x),
            TOP + ph,
            TOP + ph + 4.0,
            TOP + ph + 16.0,
            tick_label(x)
        );
    }
    let _ = write!(
        svg,
        "<text class=\"xlabel\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">{}</text><text class=\"ylabel\" transform=\"translate(16,{:.1}) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">{}{}</text>",
        LEFT + pw / 2.0,
        H - 8.0,
        escape(x_label),
        TOP + ph / 2.0,
        escape(y_label),
        if log { " (log scale)" } else { "" }
    );
    for (i, (name, points)) in lines.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let dash = DASHES[i % DASHES.len()];
        let mark = MARKERS[i % MARKERS.len()];
        // The spread band: mean ± one standard deviation across games.
        let upper: Vec<String> = points
            .iter()
            .enumerate()
            .filter_map(|(x, p)| {
                p.map(|(m, s)| format!("{:.1},{:.1}", sx(x as f64 + 1.0), sy(f(m + s))))
            })
            .collect();
        let lower: Vec<String> = points
            .iter()
            .enumerate()
            .rev()
            .filter_map(|(x, p)| {
                p.map(|(m, s)| {
                    let low = if log { (m - s).max(1.0) } else { m - s };
                    format!("{:.1},{:.1}", sx(x as f64 + 1.0), sy(f(low)))
                })
            })
            .collect();
        if upper.len() > 1 {
            let _ = write!(
                svg,
                "<polygon class=\"band\" points=\"{} {}\" fill=\"{colour}\" fill-opacity=\"0.12\" stroke=\"none\"/>",
                upper.join(" "),
                lower.join(" ")
            );
        }
        let path: Vec<(f64, f64)> = points
            .iter()
            .enumerate()
            .filter_map(|(x, p)| p.map(|(m, _)| (sx(x as f64 + 1.0), sy(f(m)))))
            .collect();
        let _ = write!(
            svg,
            "<polyline class=\"series\" data-series=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"{dash}\" points=\"{}\"/>",
            escape(name),
            path.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" ")
        );
        let every = (path.len() / 12).max(1);
        for (x, y) in path.iter().skip(i % every).step_by(every) {
            svg.push_str(&marker(mark, *x, *y, colour));
        }
        let ly = TOP + 14.0 + 18.0 * i as f64;
        let _ = write!(
            svg,
            "<line x1=\"{0:.1}\" x2=\"{1:.1}\" y1=\"{2:.1}\" y2=\"{2:.1}\" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"{dash}\"/>{3}<text x=\"{4:.1}\" y=\"{5:.1}\" font-size=\"12\" fill=\"{colour}\">{6}</text>",
            LEFT + pw + 8.0,
            LEFT + pw + 30.0,
            ly - 4.0,
            marker(mark, LEFT + pw + 19.0, ly - 4.0, colour),
            LEFT + pw + 34.0,
            ly,
            escape(name)
        );
    }
    svg.push_str("</svg></figure>");
    svg
}

/// An interval as text; an unbounded side says so instead of `± inf`.
pub(super) fn interval_text(e: &EloEstimate) -> String {
    let fmt = |v: f64| trim_zero(format!("{v:+.1}"));
    match (e.elo.is_finite(), e.lower.is_finite(), e.upper.is_finite()) {
        (true, true, true) => format!("{} ± {:.1}", fmt(e.elo), e.error),
        (_, true, false) => format!(
            "{} (at least {} at 95%; no upper bound yet)",
            if e.elo.is_finite() {
                fmt(e.elo)
            } else {
                "all games won:".into()
            },
            fmt(e.lower)
        ),
        (_, false, true) => format!(
            "{} (at most {} at 95%; no lower bound yet)",
            if e.elo.is_finite() {
                fmt(e.elo)
            } else {
                "all games lost:".into()
            },
            fmt(e.upper)
        ),
        _ => "no bound yet".into(),
    }
}

pub(super) fn trim_zero(s: String) -> String {
    if s == "-0.0" || s == "+0.0" {
        "0.0".into()
    } else {
        s
    }
}

/// Horizontal interval bars: (name, estimate, lower, upper); an infinite end is drawn to
/// the edge with an arrow and the word "unbounded".
pub(super) fn interval_chart(id: &str, title: &str, bars: &[(String, f64, f64, f64)]) -> String {
    let finite = |v: f64| v.is_finite().then_some(v.abs());
    let span = bars
        .iter()
        .flat_map(|b| [finite(b.1), finite(b.2), finite(b.3)])
        .flatten()
        .fold(10.0f64, f64::max)
        * 1.1;
    let h = 50.0 + 26.0 * bars.len() as f64;
    let left = LEFT + 110.0;
    let width = W - left - 40.0;
    let cx = left + width / 2.0;
    let sx = |e: f64| cx + (e.clamp(-span, span) / span) * width / 2.0;
    let mut svg = format!(
        "<figure id=\"{id}\"><figcaption>{}</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{h}\">",
        escape(title)
    );
    for t in ticks(-span, span, 6) {
        let _ = write!(
            svg,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"10\" y2=\"{1:.1}\" stroke=\"{2}\"/><text class=\"xtick\" x=\"{0:.1}\" y=\"{3:.1}\" font-size=\"11\" text-anchor=\"middle\">{4}</text>",
            sx(t),
            h - 32.0,
            if t == 0.0 { "#666" } else { "#e4e4e4" },
            h - 20.0,
            tick_label(t)
        );
    }
    let _ = write!(svg, "<text class=\"xlabel\" x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">Elo</text>", h - 4.0);
    for (i, (name, elo, lo, hi)) in bars.iter().enumerate() {
        let y = 24.0 + 26.0 * i as f64;
        let colour = COLOURS[i % COLOURS.len()];
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{}</text><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"3\"/>",
            left - 8.0,
            y + 4.0,
            escape(name),
            sx(*lo),
            sx(*hi)
        );
        if !lo.is_finite() && !hi.is_finite() && lo == hi {
            // Every game one way: no finite bound at all.
            let _ = write!(
                svg,
                "<text class=\"unbounded\" x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">every game {}: no finite estimate</text>",
                y + 4.0,
                if *lo > 0.0 { "won" } else { "lost" }
            );
            continue;
        }
        // An open end (the interval reaches a 0% or 100% score) is drawn to the edge
        // with an arrow.
        for (end, dir) in [(*lo, -1.0), (*hi, 1.0)] {
            if end.is_infinite() && end.signum() == dir {
                let x = sx(end);
                let _ = write!(
                    svg,
                    "<polygon class=\"unbounded\" points=\"{:.1},{y} {:.1},{:.1} {:.1},{:.1}\" fill=\"{colour}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">unbounded</text>",
                    x + dir * 6.0,
                    x,
                    y - 5.0,
                    x,
                    y + 5.0,
                    x - dir * 20.0,
                    y - 7.0
                );
            }
        }
        if elo.is_finite() {
            let _ = write!(
                svg,
                "<circle cx=\"{:.1}\" cy=\"{y}\" r=\"4\" fill=\"{colour}\"/>",
                sx(*elo)
            );
        }
    }
    svg.push_str("</svg></figure>");
    svg
}

/// Time used against the clock left, one point per searched move on a clock (at most
/// 1500 per configuration, evenly sampled): how each engine spends its time.
pub(super) fn time_against_clock(records: &[GameRecord], names: &[String]) -> String {
    let mut points: Vec<Vec<(f64, f64)>> = vec![Vec::new(); names.len()];
    for r in records {
        for m in r.moves.iter().filter(|m| !m.book) {
            let (Some(seat), Some(clock), Some(used)) = (m.side, m.clock_ms, m.time_ms) else {
                continue;
            };
            if let Some(i) = names.iter().position(|n| *n == r.player(seat).name) {
                points[i].push((clock as f64, used));
            }
        }
    }
    if points.iter().all(Vec::is_empty) {
        return "<figure id=\"chart-time-clock\"><figcaption>Time used against clock left</figcaption><p>No engine played on a clock.</p></figure>".into();
    }
    let max_x = points.iter().flatten().map(|p| p.0).fold(1.0, f64::max);
    let max_y = points.iter().flatten().map(|p| p.1).fold(1.0, f64::max);
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let sx = |x: f64| LEFT + x / max_x * pw;
    let sy = |y: f64| TOP + ph - y / max_y * ph;
    let mut svg = format!(
        "<figure id=\"chart-time-clock\"><figcaption>Time used against clock left (one point per move)</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\"><rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#999\"/>"
    );
    for t in ticks(0.0, max_y, 5) {
        let _ = write!(svg, "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#e4e4e4\"/><text class=\"ytick\" x=\"{2:.1}\" y=\"{3:.1}\" font-size=\"11\" text-anchor=\"end\">{4}</text>", LEFT + pw, sy(t), LEFT - 6.0, sy(t) + 4.0, tick_label(t));
    }
    for t in ticks(0.0, max_x, 8) {
        let _ = write!(svg, "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#333\"/><text class=\"xtick\" x=\"{0:.1}\" y=\"{3:.1}\" font-size=\"11\" text-anchor=\"middle\">{4}</text>", sx(t), TOP + ph, TOP + ph + 4.0, TOP + ph + 16.0, tick_label(t));
    }
    for (i, (name, pts)) in names.iter().zip(&points).enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mark = MARKERS[i % MARKERS.len()];
        let every = (pts.len() / 1500).max(1);
        let _ = write!(svg, "<g class=\"points\" data-series=\"{}\">", escape(name));
        for (x, y) in pts.iter().step_by(every) {
            svg.push_str(&marker(mark, sx(*x), sy(*y), colour));
        }
        svg.push_str("</g>");
        let ly = TOP + 14.0 + 18.0 * i as f64;
        let _ = write!(
            svg,
            "{}<text x=\"{:.1}\" y=\"{ly:.1}\" font-size=\"12\" fill=\"{colour}\">{}</text>",
            marker(mark, LEFT + pw + 19.0, ly - 4.0, colour),
            LEFT + pw + 34.0,
            escape(name)
        );
    }
    let _ = write!(
        svg,
        "<text class=\"xlabel\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">clock left after the move (ms)</text><text class=\"ylabel\" transform=\"translate(16,{:.1}) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">time used (ms)</text></svg></figure>",
        LEFT + pw / 2.0,
        H - 8.0,
        TOP + ph / 2.0
    );
    svg
}

/// A bar chart of game lengths (plies), in buckets.
pub(super) fn length_chart(records: &[GameRecord]) -> String {
    let lengths: Vec<usize> = records.iter().map(|r| r.moves.len()).collect();
    let Some(&max) = lengths.iter().max() else {
        return String::new();
    };
    let bucket = ticks(0.0, max as f64 + 1.0, 15)
        .get(1)
        .copied()
        .unwrap_or(1.0)
        .max(1.0) as usize;
    let mut counts = vec![0u64; max / bucket + 1];
    for l in &lengths {
        counts[l / bucket] += 1;
    }
    let lines: Vec<Line<'_>> = Vec::new();
    let _ = lines;
    let top = *counts.iter().max().unwrap_or(&1) as f64;
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let bw = pw / counts.len() as f64;
    let mut svg = format!(
        "<figure id=\"lengths\"><figcaption>Game lengths ({} games, mean {:.1} plies)</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\">",
        lengths.len(),
        lengths.iter().sum::<usize>() as f64 / lengths.len() as f64
    );
    let _ = write!(svg, "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#999\"/>");
    for t in ticks(0.0, top, 5) {
        let y = TOP + ph - t / top * ph;
        let _ = write!(svg, "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#e4e4e4\"/><text class=\"ytick\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>", LEFT + pw, LEFT - 6.0, y + 4.0, tick_label(t));
    }
    for (i, c) in counts.iter().enumerate() {
        let hgt = *c as f64 / top * ph;
        let x = LEFT + i as f64 * bw;
        let _ = write!(svg, "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{hgt:.1}\" fill=\"{}\"><title>{}-{} plies: {c} games</title></rect>", x + 1.0, TOP + ph - hgt, (bw - 2.0).max(1.0), COLOURS[0], i * bucket, (i + 1) * bucket - 1);
        if counts.len() <= 16 || i % (counts.len() / 8).max(1) == 0 {
            let _ = write!(svg, "<text class=\"xtick\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{}</text>", x + bw / 2.0, TOP + ph + 16.0, i * bucket);
        }
    }
    let _ = write!(
        svg,
        "<text class=\"xlabel\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"middle\">plies (bucket start, {bucket} per bar)</text><text class=\"ylabel\" transform=\"translate(16,{:.1}) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">games</text></svg></figure>",
        LEFT + pw / 2.0,
        H - 8.0,
        TOP + ph / 2.0
    );
    svg
}

/// The SPRT's LLR after each game of the two engines, with its bounds.
pub(super) fn sprt_chart(
    sprt: &Sprt,
    names: &[String],
    records: &[GameRecord],
    source: &str,
) -> String {
    let mut summary = Summary::new([names[0].clone(), names[1].clone()]);
    let mut llr = Vec::new();
    for r in records {
        summary.add(r);
        llr.push(Some((sprt.llr_pentanomial(&summary.pentanomial), 0.0)));
    }
    let (lower, upper) = sprt.bounds();
    let last = llr.last().copied().flatten().map_or(0.0, |p| p.0);
    let verdict = match sprt.decide(last) {
        Some(crate::sprt::Decision::AcceptH1) => "H1 accepted",
        Some(crate::sprt::Decision::AcceptH0) => "H0 accepted",
        None => "no decision yet",
    };
    let title = format!(
        "SPRT [{}, {}] ({} Elo, alpha {}, beta {}; {source}), pentanomial LLR over the games: {last:.3} in ({lower:.3}, {upper:.3}), {verdict}",
        sprt.elo0,
        sprt.elo1,
        match sprt.model {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        },
        sprt.alpha,
        sprt.beta
    );
    let bound = |v: f64| vec![Some((v, 0.0)); llr.len().max(2)];
    let lines: Vec<Line<'_>> = vec![
        ("LLR", llr.clone()),
        ("upper bound (H1)", bound(upper)),
        ("lower bound (H0)", bound(lower)),
    ];
    line_chart(
        "sprt",
        &title,
        "log-likelihood ratio",
        "games",
        &lines,
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_ticks() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(
            ticks(1.0, 38.0, 8),
            vec![5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0]
        );
        assert_eq!(tick_label(25_000.0), "25k");
        assert_eq!(tick_label(3_000_000.0), "3M");
        assert_eq!(tick_label(-0.0), "0");
    }

    #[test]
    fn time_against_clock_has_a_point_per_move_on_a_clock() {
        let record: GameRecord = serde_json::from_value(serde_json::json!({
            "version": 1, "run": "r", "game": 0, "pair": 0, "spec": "tictactoe",
            "p1": {"name": "a", "engine": 0, "tc": "tc=1+0"},
            "p2": {"name": "b", "engine": 1, "tc": "depth=2"},
            "opening": {"position": null, "moves": []},
            "moves": [
                {"ply": 1, "side": "p1", "mv": "b2", "time_ms": 100.0, "clock_ms": 900},
                {"ply": 2, "side": "p2", "mv": "a1", "time_ms": 5.0},
                {"ply": 3, "side": "p1", "mv": "c3", "time_ms": 300.0, "clock_ms": 600}
            ],
            "result": "*", "winner": null, "termination": {"kind": "interrupted"},
            "reason": "", "final_position": "", "started_unix_ms": 0, "duration_ms": 0
        }))
        .unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let svg = time_against_clock(&[record], &names);
        let a = svg.split("data-series=\"a\">").nth(1).unwrap();
        assert_eq!(a[..a.find("</g>").unwrap()].matches("<circle").count(), 2);
        let b = svg.split("data-series=\"b\">").nth(1).unwrap();
        assert_eq!(b[..b.find("</g>").unwrap()].matches("<rect").count(), 0);
        assert!(svg.contains("clock left after the move (ms)") && svg.contains("time used (ms)"));
    }

    #[test]
    fn one_sided_intervals_are_drawn_to_their_bound() {
        let inf = f64::INFINITY;
        let svg = interval_chart(
            "x",
            "t",
            &[
                ("open".into(), 250.0, 80.0, inf),
                ("closed".into(), 10.0, -20.0, 40.0),
                ("sweep".into(), inf, inf, inf),
            ],
        );
        assert_eq!(
            svg.matches("<polygon class=\"unbounded\"").count(),
            1,
            "{svg}"
        );
        assert!(svg.contains("every game won: no finite estimate"));
        assert!(!svg.contains("inf") && !svg.contains("NaN"), "{svg}");
    }

    #[test]
    fn one_sided_intervals_say_so() {
        let all = Trinomial {
            wins: 6,
            losses: 0,
            draws: 0,
        }
        .elo()
        .unwrap();
        let text = interval_text(&all);
        assert!(!text.contains("inf"), "{text}");
        let some = Trinomial {
            wins: 9,
            losses: 0,
            draws: 1,
        }
        .elo()
        .unwrap();
        let text = interval_text(&some);
        assert!(text.contains("no upper bound"), "{text}");
    }
}
