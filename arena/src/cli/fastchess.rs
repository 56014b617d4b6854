//! fastchess and cutechess-cli spellings, accepted as written: `arena match` and `arena
//! tournament` take `-engine cmd=x name=y`, `-each`, `-rounds`, `-games`, `-repeat`,
//! `-concurrency`, `-openings file=... format=epd|pgn order=random|sequential plies=N
//! start=N`, `-pgnout file=...`, `-sprt ...`, `-draw ...`, `-resign ...`, `-recover`,
//! `-ratinginterval`, `-srand`, `-maxmoves`, `-event`, `-site`, `-tournament`, and map them
//! to the arena's own options before the command line is parsed. What the arena does not
//! offer is refused with what to use instead. This module is the only place that knows
//! these spellings (fastchess's `app/src/cli/cli.cpp`, cutechess-cli's `help.txt`).

/// The command line after translation, and notes for the user (stderr).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Translated {
    /// The words for clap.
    pub(crate) args: Vec<String>,
    /// What was mapped in a way worth saying.
    pub(crate) notes: Vec<String>,
}

/// Options that take no value.
const FLAGS: [&str; 4] = ["-recover", "-repeat", "-noswap", "-use-affinity"];

/// Whether `word` is a single-dash option of fastchess or cutechess-cli (and not a
/// value such as a negative number).
fn is_single_dash(word: &str) -> bool {
    word.len() > 2
        && word.starts_with('-')
        && !word.starts_with("--")
        && word[1..].starts_with(|c: char| c.is_ascii_alphabetic())
}

/// Engine keys of fastchess or cutechess-cli that the arena does not take, with what to
/// use instead.
fn foreign_engine_key(key: &str) -> Option<&'static str> {
    Some(match key {
        "timemargin" => "the arena's margin is one for all engines: --margin-ms MS",
        "restart" => "the arena keeps an engine running between games and restarts it only after a fault; leave restart= out",
        "ponder" => "the arena does not ponder; leave ponder out",
        "conf" => "give the engine's keys here, or all engines in a JSON file with arena tournament --config FILE",
        "tscale" => "give a longer --startup-ms or --ping-ms instead of tscale=",
        "initstr" => "give settings as option.NAME=VALUE",
        "stderr" => "each engine's stderr is kept in OUT/<run>/logs/",
        "whitepov" | "trust" => "the arena reads scores from the mover's view and never trusts an engine's claims",
        "book" | "bookdepth" => "use --openings (or -openings file=... format=epd|pgn)",
        _ => return None,
    })
}

/// Why an option is refused, with what to use instead (`None`: the option is mapped).
fn unsupported(option: &str, subcommand: &str) -> Option<String> {
    let why = match option {
        "-noswap" | "-reverse" => "the arena plays every opening as a colour-swapped pair (games 2p and 2p+1); there is no way to switch this off",
        "-epdout" => "every game's final position is in the journal (final_position) and at the end of its game file",
        "-variant" => "name the game with --game SPEC (e.g. --game tictactoe, --game \"clobber rows=5 cols=6\")",
        "-log" | "-debug" => "use --transcripts for every game's protocol transcript; engines' stderr is in OUT/<run>/logs/",
        "-config" => "use arena tournament --config FILE (engines as JSON); a run resumes from its journal by itself",
        "-output" | "-resultformat" => "the arena prints its own summary; the journal (OUT/journal.jsonl) is the machine-readable record",
        "-scoreinterval" | "-outcomeinterval" => "use --report-every N (or -ratinginterval N)",
        "-autosaveinterval" => "the journal saves every game the moment it ends",
        "-wait" | "-force-concurrency" | "-testEnv" | "-quick" | "-strict"
        | "-check-mate-pvs" | "-crc32" | "-report" | "-bookmode" | "-engines" => {
            "the arena has no such option (see arena match --help)"
        }
        "-show-latency" => "the summary always shows the arena's latency and the journal has latency_ms per move",
        "-seeds" => "use arena tournament --format gauntlet: the first engine plays each other one",
        "-tb" | "-tbpieces" | "-tbignore50" | "-tbadjudicate" => "tablebases are for chess; use --draw, --resign or --max-plies",
        "-tournament" if subcommand == "match" => "a match has two engines; use arena tournament --format round-robin|gauntlet",
        _ => return None,
    };
    Some(format!("{option} is not supported: {why}"))
}

fn number(option: &str, value: Option<&String>) -> Result<u64, String> {
    value
        .and_then(|v| v.parse::<u64>().ok())
        .ok_or_else(|| format!("{option} takes a whole number (got {value:?})"))
}

/// Checks the keys of `--engine`/`--each` words (either spelling) for fastchess or
/// cutechess keys the arena does not take.
fn check_engine_words(option: &str, words: &[String]) -> Result<(), String> {
    for word in words {
        for item in word.split_whitespace() {
            let key = item.split_once('=').map_or(item, |(k, _)| k);
            if let Some(instead) = foreign_engine_key(key) {
                return Err(format!("{option} {key}= is not supported: {instead}"));
            }
        }
    }
    Ok(())
}

/// Translates the words after `arena` (the first is the subcommand). Only `match` and
/// `tournament` take these spellings; anything else passes unchanged.
///
/// # Errors
/// A message naming the option that is not supported and what to use instead, or a bad
/// value.
pub(crate) fn translate(words: &[String]) -> Result<Translated, String> {
    let subcommand = words.first().map(String::as_str).unwrap_or("");
    if subcommand != "match" && subcommand != "tournament" {
        return Ok(Translated {
            args: words.to_vec(),
            notes: Vec::new(),
        });
    }
    let mut out = Translated {
        args: vec![subcommand.to_string()],
        notes: Vec::new(),
    };
    let (mut rounds, mut games, mut repeat): (Option<u64>, Option<u64>, bool) = (None, None, false);
    let mut i = 1;
    while i < words.len() {
        let word = &words[i];
        // A native option: copy it and its values, checking engine keys.
        if !is_single_dash(word) {
            if word == "--engine" || word == "--each" {
                let end = words[i + 1..]
                    .iter()
                    .position(|w| w.starts_with('-'))
                    .map_or(words.len(), |p| i + 1 + p);
                check_engine_words(word, &words[i + 1..end])?;
            }
            out.args.push(word.clone());
            i += 1;
            continue;
        }
        let option = word.as_str();
        // The values of a single-dash option: the words up to the next option.
        // cutechess's `-repeat [N]` may carry a count.
        let counted_repeat =
            option == "-repeat" && words.get(i + 1).is_some_and(|w| w.parse::<u64>().is_ok());
        let takes_values = !FLAGS.contains(&option) || counted_repeat;
        let end = if counted_repeat {
            i + 2
        } else if takes_values {
            words[i + 1..]
                .iter()
                .position(|w| is_single_dash(w) || w.starts_with("--"))
                .map_or(words.len(), |p| i + 1 + p)
        } else {
            i + 1
        };
        let values: Vec<String> = words[i + 1..end].to_vec();
        i = end;
        if let Some(message) = unsupported(option, subcommand) {
            return Err(message);
        }
        let mut push = |native: &str, values: &[String]| {
            out.args.push(native.to_string());
            out.args.extend(values.iter().cloned());
        };
        match option {
            "-engine" | "-each" => {
                check_engine_words(option, &values)?;
                push(&format!("-{option}"), &values);
            }
            "-concurrency" => {
                let n = number(option, values.first())?;
                push("--concurrency", &[n.to_string()]);
            }
            "-rounds" => rounds = Some(number(option, values.first())?),
            "-games" => games = Some(number(option, values.first())?),
            "-repeat" => match values.first().map(|v| v.parse::<u64>()) {
                None | Some(Ok(2)) => repeat = true,
                Some(_) => {
                    return Err(format!(
                        "-repeat {}: the arena plays each opening exactly twice, colours swapped (-repeat or -repeat 2)",
                        values[0]
                    ))
                }
            },
            "-recover" => out.notes.push(
                "-recover: the arena always restarts an engine after a fault and goes on".into(),
            ),
            "-use-affinity" => out.args.push("--affinity".to_string()),
            "-ratinginterval" => {
                let n = number(option, values.first())?;
                push("--report-every", &[n.to_string()]);
            }
            "-srand" => {
                let n = number(option, values.first())?;
                push("--seed", &[n.to_string()]);
            }
            "-maxmoves" => {
                let n = number(option, values.first())?;
                push("--max-plies", &[(2 * n).to_string()]);
            }
            "-sprt" => push("--sprt", &values),
            "-draw" => push("--draw", &values),
            "-resign" => push("--resign", &values),
            "-event" | "-site" => push(&format!("-{option}"), &[values.join(" ")]),
            "-startup-ms" | "-ping-ms" => push(&format!("-{option}"), &values),
            "-ucinewgame-ms" => push("--ping-ms", &values),
            "-tournament" => {
                let format = match values.first().map(String::as_str) {
                    Some("roundrobin" | "round-robin") => "round-robin",
                    Some("gauntlet") => "gauntlet",
                    other => {
                        return Err(format!(
                            "-tournament {other:?}: the arena plays roundrobin or gauntlet (knockout and pyramid are not supported)"
                        ))
                    }
                };
                push("--format", &[format.to_string()]);
            }
            "-pgnout" => {
                let mut file = None;
                for v in &values {
                    match v.split_once('=') {
                        Some(("file", f)) => file = Some(f.to_string()),
                        None if file.is_none() => file = Some(v.clone()),
                        _ => {}
                    }
                }
                let Some(file) = file else {
                    return Err("-pgnout needs file=PATH".into());
                };
                if values.len() > 1 {
                    out.notes.push(format!(
                        "-pgnout: the arena's PGN always has its comments ({{score/depth time, tl=, n=, sd=, nps=, pv=}}); ignored: {}",
                        values.iter().filter(|v| !v.starts_with("file=") && **v != file).cloned().collect::<Vec<_>>().join(" ")
                    ));
                }
                push("--pgnout", &[file]);
            }
            "-openings" => {
                let (mut file, mut format, mut order, mut plies, mut start) =
                    (None, "epd".to_string(), None, None, None);
                for v in &values {
                    let Some((key, value)) = v.split_once('=') else {
                        return Err(format!("-openings: '{v}' is not KEY=VALUE (file=, format=, order=, plies=, start=)"));
                    };
                    match key {
                        "file" => file = Some(value.to_string()),
                        "format" => format = value.to_string(),
                        "order" => order = Some(value.to_string()),
                        "plies" => plies = Some(number("-openings plies=", Some(&value.to_string()))?),
                        "start" => start = Some(number("-openings start=", Some(&value.to_string()))?),
                        "policy" => return Err("-openings policy= is not supported: the arena plays each opening as one colour-swapped pair".into()),
                        _ => return Err(format!("-openings: unknown key '{key}' (file=, format=epd|pgn, order=random|sequential, plies=N, start=N)")),
                    }
                }
                let Some(file) = file else {
                    return Err("-openings needs file=PATH".into());
                };
                let kind = match format.as_str() {
                    "epd" => "epd",
                    "pgn" => "pgn",
                    other => {
                        return Err(format!(
                            "-openings format={other}: use epd (one position per line) or pgn (games whose moves are the openings)"
                        ))
                    }
                };
                push("--openings", &[format!("{kind}:{file}")]);
                match order.as_deref() {
                    None | Some("sequential") => {}
                    Some("random") => push("--shuffle-openings", &[]),
                    Some(other) => {
                        return Err(format!("-openings order={other}: use random or sequential"))
                    }
                }
                if let Some(p) = plies {
                    push("--opening-plies", &[p.to_string()]);
                }
                if let Some(s) = start {
                    push("--opening-start", &[s.to_string()]);
                }
            }
            "-version" | "-v" => push("--version", &[]),
            "-help" => push("--help", &[]),
            _ => {
                return Err(format!(
                    "{option} is not an option of the arena, fastchess or cutechess-cli that the arena knows (see arena {subcommand} --help)"
                ))
            }
        }
    }
    if rounds.is_some() || games.is_some() || repeat {
        // fastchess and cutechess: rounds x games per encounter; -repeat plays each
        // opening twice, colours swapped.
        let per_round = if repeat {
            games.unwrap_or(2).max(2)
        } else {
            games.unwrap_or(1)
        };
        let total = rounds.unwrap_or(1) * per_round;
        if per_round == 1 && total > 1 {
            out.notes.push(
                "-games 1: the arena plays each opening as a colour-swapped pair of games, as -repeat does".into(),
            );
        }
        out.args.push("--games".into());
        out.args.push(total.to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(line: &str) -> Result<Vec<String>, String> {
        let words: Vec<String> = line.split(' ').map(String::from).collect();
        translate(&words).map(|t| t.args)
    }

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(String::from).collect()
    }

    #[test]
    fn fastchess_words_map_to_the_arena_options() {
        // -use-affinity takes no value: the engine after it is still read.
        assert_eq!(
            t("match -use-affinity -engine cmd=a -engine cmd=b").unwrap(),
            words("match --affinity --engine cmd=a --engine cmd=b")
        );
        assert_eq!(
            t("match -engine cmd=a name=x -engine cmd=b name=y -each tc=40/2+0.1 -rounds 5 -repeat -concurrency 2").unwrap(),
            words("match --engine cmd=a name=x --engine cmd=b name=y --each tc=40/2+0.1 --concurrency 2 --games 10")
        );
        assert_eq!(
            t("tournament -openings file=b.epd format=epd order=random plies=4 start=3 -pgnout file=o.pgn min -srand 9 -recover").unwrap(),
            words("tournament --openings epd:b.epd --shuffle-openings --opening-plies 4 --opening-start 3 --pgnout o.pgn --seed 9")
        );
        assert_eq!(
            t("match -sprt elo0=0 elo1=5 -draw movenumber=20 movecount=4 score=8 -resign movecount=3 score=600 twosided=true -ratinginterval 10 -maxmoves 60").unwrap(),
            words("match --sprt elo0=0 elo1=5 --draw movenumber=20 movecount=4 score=8 --resign movecount=3 score=600 twosided=true --report-every 10 --max-plies 120")
        );
        // cutechess: -pgnout FILE, -games 2 -rounds N; native words pass unchanged.
        assert_eq!(
            t("match --game tictactoe -pgnout out.pgn -games 2 -rounds 3").unwrap(),
            words("match --game tictactoe --pgnout out.pgn --games 6")
        );
        assert_eq!(
            t("report j.jsonl -o r.html").unwrap(),
            words("report j.jsonl -o r.html")
        );
        // cutechess's -repeat 2 is -repeat.
        assert_eq!(
            t("match -repeat 2 -rounds 4").unwrap(),
            words("match --games 8")
        );
        assert!(t("match -repeat 3").unwrap_err().contains("exactly twice"));
    }

    #[test]
    fn unsupported_spellings_say_what_to_use() {
        for (line, expected) in [
            ("match -noswap", "colour-swapped pair"),
            ("match -variant gomoku", "--game SPEC"),
            ("match -tournament gauntlet", "arena tournament --format"),
            ("match -engine cmd=a timemargin=50", "--margin-ms"),
            (
                "match --engine cmd=a restart=on",
                "restarts it only after a fault",
            ),
            ("match -openings file=x format=polyglot", "use epd"),
            ("match -openings file=x policy=round", "colour-swapped pair"),
            ("tournament -tournament knockout", "knockout and pyramid"),
            ("match -concurrency many", "whole number"),
            ("match -frobnicate 3", "is not an option"),
        ] {
            let e = t(line).unwrap_err();
            assert!(e.contains(expected), "{line}: {e}");
        }
    }

    #[test]
    fn negative_numbers_are_values() {
        assert_eq!(
            t("match -draw movecount=2 score=-5").unwrap(),
            words("match --draw movecount=2 score=-5")
        );
    }
}
