//! The report's HTML page: standings, cross table, the match's numbers, the engines'
//! figures and the charts.

use std::fmt::Write as _;

use crate::journal::Journals;
use crate::record::GameRecord;
use crate::sprt::Sprt;
use crate::stats::Trinomial;

use super::svg::*;
use super::*;

/// The report page of `records` (from [`crate::journal::read_many`]); `sprt` is the test to trace
/// (`None`: the one in a tournament header, else `[0, 5]` normalized).
pub fn render_with(title: &str, journals: &Journals, sprt: Option<Sprt>) -> String {
    let records = &journals.records;
    let configs = gather(records);
    let (names, standings) = standings(records);
    let mut specs: Vec<&str> = records.iter().map(|r| r.spec.as_str()).collect();
    specs.sort_unstable();
    specs.dedup();
    let mut html = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title><style>body{{font-family:sans-serif;margin:2em;max-width:64em}}table{{border-collapse:collapse;margin:0.5em 0}}td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}td:first-child,th:first-child{{text-align:left}}figure{{margin:1.5em 0}}figcaption{{font-weight:bold}}</style></head><body><h1>{0}</h1><p>{1} games; game specs: {2}.</p>",
        escape(title),
        records.len(),
        escape(&specs.join(", "))
    );
    // Ratings: exactly what arena tournament prints.
    html.push_str("<h2>Standings</h2><p>Ratings fitted jointly (Bradley-Terry, draws as half points, centred on the field's mean, 95% error), as <code>arena tournament</code> prints them: a rating is not an Elo difference (with two engines the two ratings are plus and minus half the match's Elo difference below).</p><table id=\"standings\"><tr><th>rank</th><th>engine</th><th>rating</th><th>±</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>LOS next</th></tr>");
    for (rank, s) in standings.ranking.iter().enumerate() {
        let _ = write!(
            html,
            "<tr class=\"standing\" data-engine=\"{0}\" data-elo=\"{2:.1}\"><td>{1}</td><td>{0}</td><td>{3}</td><td>{4:.1}</td><td>{5}</td><td>{6}</td><td>{7}</td><td>{8}</td><td>{9}</td><td>{10}</td></tr>",
            escape(&s.name),
            rank + 1,
            s.elo,
            trim_zero(format!("{:+.1}", s.elo)),
            s.error,
            s.games,
            s.wins,
            s.draws,
            s.losses,
            if s.games > 0 { format!("{:.1}%", 100.0 * s.points / s.games as f64) } else { "–".into() },
            s.los_next.map_or("–".into(), |l| format!("{:.1}%", l * 100.0))
        );
    }
    html.push_str("</table>");
    if standings.ratings.prior {
        html.push_str("<p>Someone won or lost every game: one virtual draw per pairing was added so that the ratings are finite.</p>");
    }
    // The cross table in rank order.
    let order: Vec<usize> = standings
        .ranking
        .iter()
        .filter_map(|s| names.iter().position(|n| *n == s.name))
        .collect();
    html.push_str("<h2>Cross table</h2><p>Points of the row's engine against the column's, of the games they played, in rank order.</p><table id=\"cross-table\"><tr><th>engine</th>");
    for (rank, _) in order.iter().enumerate() {
        let _ = write!(html, "<th>#{}</th>", rank + 1);
    }
    html.push_str("</tr>");
    for (rank, &i) in order.iter().enumerate() {
        let _ = write!(html, "<tr><td>#{} {}</td>", rank + 1, escape(&names[i]));
        for &j in &order {
            let [w, d, l] = standings.cross[i][j];
            let games = w + d + l;
            let text = if i == j {
                "–".to_string()
            } else if games == 0 {
                ".".into()
            } else {
                format!("{}/{games}", trim(w as f64 + d as f64 / 2.0))
            };
            let _ = write!(html, "<td>{text}</td>");
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
    let bars: Vec<(String, f64, f64, f64)> = standings
        .ranking
        .iter()
        .map(|s| (s.name.clone(), s.elo, s.elo - s.error, s.elo + s.error))
        .collect();
    html.push_str(&interval_chart(
        "ratings",
        "Ratings with their 95% intervals (centred on the field)",
        &bars,
    ));
    // Two engines: the match's numbers.
    if let Some(summary) = match_summary(records) {
        let (_, remapped) = by_name(records);
        let _ = write!(
            html,
            "<h2>{} against {}</h2><pre id=\"match-summary\">{}</pre>",
            escape(&names[0]),
            escape(&names[1]),
            summary
                .render()
                .lines()
                .map(escape)
                .collect::<Vec<_>>()
                .join("\n")
        );
        let mut pair_bars = Vec::new();
        if let Some(e) = summary.trinomial.elo() {
            let _ = write!(
                html,
                "<p>Elo difference ({} minus {}), games: {}",
                escape(&names[0]),
                escape(&names[1]),
                escape(&interval_text(&e))
            );
            pair_bars.push(("games".to_string(), e.elo, e.lower, e.upper));
        }
        if let Some(e) = summary.pentanomial.elo() {
            let _ = write!(html, "; pairs: {}</p>", escape(&interval_text(&e)));
            pair_bars.push(("pairs".to_string(), e.elo, e.lower, e.upper));
        }
        html.push_str(&interval_chart(
            "elo-difference",
            &format!(
                "Elo difference {} minus {}, 95% interval",
                names[0], names[1]
            ),
            &pair_bars,
        ));
        let (sprt, source) = match (sprt, journals.headers.iter().find_map(|h| h.sprt.clone())) {
            (Some(s), _) => (s, "as given".to_string()),
            (None, Some(text)) => match Sprt::parse(std::slice::from_ref(&text)) {
                Ok(s) => (s, "from the tournament's header".to_string()),
                Err(_) => (default_sprt(), "the default".to_string()),
            },
            (None, None) => (
                default_sprt(),
                "the default; arena report --sprt to change".to_string(),
            ),
        };
        html.push_str(&sprt_chart(&sprt, &names, &remapped, &source));
    }
    // Per engine: the figures the terminal prints, computed by the same code.
    html.push_str("<h2>Engines</h2><p>Depth and seldepth are the means of what the engines reported (seldepth: the deepest ply reached); nodes/move the mean of the reported nodes; ms/move the arena's wall time from <code>go</code> to <code>bestmove</code>; nps the reported nodes of all moves over the arena's time for them, as the terminal's summary prints it.</p><table id=\"engines\"><tr><th>engine</th><th>games</th><th>as first player W/D/L</th><th>as second player W/D/L</th><th>moves</th><th>depth</th><th>seldepth</th><th>nodes/move</th><th>ms/move</th><th>nps</th></tr>");
    for c in &configs {
        let wdl = |t: &Trinomial| format!("{}/{}/{}", t.wins, t.draws, t.losses);
        let figures = c.figures();
        let _ = write!(
            html,
            "<tr class=\"config\" data-config=\"{0}\" data-mean-nodes=\"{1}\"><td>{0}</td><td>{2}</td><td>{3}</td><td>{4}</td><td>{5}</td>",
            escape(&c.name),
            figures.nodes_per_move.map_or("-".into(), |v| format!("{v:.1}")),
            c.results.games(),
            wdl(&c.as_p1),
            wdl(&c.as_p2),
            c.moves,
        );
        for cell in figures.cells() {
            let _ = write!(html, "<td>{cell}</td>");
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
    html.push_str("<h2>Search per move</h2><p>Each line is the mean over the games of a configuration's n-th searched move; the band is one standard deviation either side.</p>");
    let lines = |pick: fn(&ConfigStats) -> &Series| -> Vec<Line<'_>> {
        configs
            .iter()
            .map(|c| (c.name.as_str(), pick(c).points()))
            .collect()
    };
    let x = "the configuration's n-th searched move";
    html.push_str(&line_chart(
        "chart-nodes",
        "Nodes per move",
        "nodes",
        x,
        &lines(|c| &c.nodes),
        true,
    ));
    html.push_str(&line_chart(
        "chart-nps",
        "Nodes per second as each engine reported it for its move",
        "nps",
        x,
        &lines(|c| &c.nps),
        true,
    ));
    html.push_str(&line_chart(
        "chart-depth",
        "Depth per move",
        "depth (plies)",
        x,
        &lines(|c| &c.depth),
        false,
    ));
    html.push_str(&line_chart(
        "chart-seldepth",
        "Selective depth per move",
        "seldepth (plies)",
        x,
        &lines(|c| &c.seldepth),
        false,
    ));
    html.push_str(&line_chart(
        "chart-time",
        "Time used per move",
        "ms",
        x,
        &lines(|c| &c.time),
        false,
    ));
    html.push_str(&line_chart(
        "chart-clock",
        "Clock left after the move (engines on a clock)",
        "ms",
        x,
        &lines(|c| &c.clock),
        false,
    ));
    html.push_str(&line_chart(
        "chart-score",
        "Score over the game (mover's view; wins and losses at ±10.00)",
        "centi-units",
        x,
        &lines(|c| &c.score),
        false,
    ));
    let config_names: Vec<String> = configs.iter().map(|c| c.name.clone()).collect();
    html.push_str(&time_against_clock(records, &config_names));
    html.push_str(&length_chart(records));
    html.push_str("</body></html>\n");
    html
}

/// fastchess's usual test when none is given: `[0, 5]`, normalized, α = β = 0.05.
pub(super) fn default_sprt() -> Sprt {
    Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: Model::Normalized,
    }
}

/// The report page of some game records (one journal, as `arena serve` reads it).
pub fn render(title: &str, records: &[GameRecord]) -> String {
    render_with(
        title,
        &Journals {
            records: records.to_vec(),
            headers: Vec::new(),
        },
        None,
    )
}
