//! The grade book: marks from a rule file that the teacher writes down.
//!
//! One rule a line, `CONDITION -> MARK`; the first rule whose condition holds gives a
//! student the mark (any text without a comma: `10`, `A-`, `pass`). `#` starts a comment.
//! Conditions, joined with `and`:
//!
//! | Condition | Holds when |
//! |---|---|
//! | `rank <= N`, `rank >= N` | the student's place in the standings (1 = first) |
//! | `beats LEVEL` | it scored more than half the points against reference `LEVEL` (`depth2` or `ref-depth2`) |
//! | `elo >= X`, `elo <= X` | its rating; `X` a number, or a reference's name: that player's rating |
//! | `score >= X`, `score <= X` | its points per game, 0 to 1 |
//! | `faults <= N`, `faults >= N` | games it lost by its own fault |
//! | `withdrawn` | it did not play (it could not start) |
//! | `always` | always (the last line, as a default) |
//!
//! ```text
//! # marks.txt
//! rank <= 3 and beats default -> 10
//! beats depth3                -> 8
//! elo >= ref-depth2           -> 6
//! beats random                -> 4
//! always                      -> 2
//! ```

use super::StudentLine;

/// A comparison's direction.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmp {
    AtMost,
    AtLeast,
}

impl Cmp {
    fn holds(self, value: f64, bound: f64) -> bool {
        match self {
            Cmp::AtMost => value <= bound,
            Cmp::AtLeast => value >= bound,
        }
    }
}

/// A bound: a number, or a reference player's rating.
#[derive(Clone, Debug, PartialEq)]
enum Bound {
    Number(f64),
    RatingOf(String),
}

/// One condition of a rule.
#[derive(Clone, Debug, PartialEq)]
enum Condition {
    Rank(Cmp, f64),
    Beats(String),
    Elo(Cmp, Bound),
    Score(Cmp, f64),
    Faults(Cmp, f64),
    Withdrawn,
    Always,
}

/// One rule: its line, its conditions and its mark.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The rule as written.
    pub text: String,
    conditions: Vec<Condition>,
    /// The mark it gives.
    pub mark: String,
}

/// A rule file, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Marks {
    /// The rules, in order.
    pub rules: Vec<Rule>,
}

fn level_name(name: &str) -> String {
    name.strip_prefix(super::REFERENCE_PREFIX)
        .unwrap_or(name)
        .to_string()
}

fn parse_condition(text: &str, levels: &[&str]) -> Result<Condition, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |w: &str| -> Result<f64, String> {
        w.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("'{w}' is not a number"))
    };
    let cmp = |w: &str| -> Result<Cmp, String> {
        match w {
            "<=" => Ok(Cmp::AtMost),
            ">=" => Ok(Cmp::AtLeast),
            _ => Err(format!("'{w}': compare with <= or >=")),
        }
    };
    let level = |w: &str| -> Result<String, String> {
        let name = level_name(w);
        if levels.contains(&name.as_str()) {
            Ok(name)
        } else {
            Err(format!(
                "'{w}' is not a reference player of this class (they are: {})",
                levels.join(", ")
            ))
        }
    };
    match words.as_slice() {
        ["always"] | ["otherwise"] => Ok(Condition::Always),
        ["withdrawn"] => Ok(Condition::Withdrawn),
        ["beats", who] => Ok(Condition::Beats(level(who)?)),
        ["rank", c, n] => Ok(Condition::Rank(cmp(c)?, number(n)?)),
        ["score", c, n] => Ok(Condition::Score(cmp(c)?, number(n)?)),
        ["faults", c, n] => Ok(Condition::Faults(cmp(c)?, number(n)?)),
        ["elo", c, x] => {
            let bound = match number(x) {
                Ok(v) => Bound::Number(v),
                Err(_) => Bound::RatingOf(level(x)?),
            };
            Ok(Condition::Elo(cmp(c)?, bound))
        }
        _ => Err(format!(
            "'{text}' is not a condition (rank <= N, beats LEVEL, elo >= X, score >= X, faults <= N, withdrawn, always)"
        )),
    }
}

impl Marks {
    /// Reads a rule file's text; `levels` are the class's reference levels.
    ///
    /// # Errors
    /// The first line that is not a rule, named by its number, and what is wrong.
    pub fn parse(text: &str, levels: &[&str]) -> Result<Marks, String> {
        let mut rules = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |why: String| format!("line {}: {why}", i + 1);
            let (conditions, mark) = line
                .split_once("->")
                .ok_or_else(|| at(format!("'{line}' has no '-> MARK'")))?;
            let mark = mark.trim();
            if mark.is_empty() || mark.contains(',') || mark.contains('"') {
                return Err(at(format!(
                    "the mark '{mark}' must be a word or number, without commas or quotes"
                )));
            }
            let conditions = conditions
                .split(" and ")
                .map(|c| parse_condition(c.trim(), levels))
                .collect::<Result<Vec<_>, _>>()
                .map_err(at)?;
            rules.push(Rule {
                line: i + 1,
                text: line.to_string(),
                conditions,
                mark: mark.to_string(),
            });
        }
        if rules.is_empty() {
            return Err("no rules: write one a line, CONDITION -> MARK (see docs/class.md)".into());
        }
        Ok(Marks { rules })
    }

    /// The rule that gives `student` its mark, if any holds; `all` are every line of the
    /// class (for reference players' ratings).
    pub fn rule_for<'a>(&'a self, student: &StudentLine, all: &[StudentLine]) -> Option<&'a Rule> {
        let played = student.rank.is_some();
        let rating = |level: &str| {
            all.iter()
                .find(|l| l.kind == "reference" && level_name(&l.name) == level)
                .map(|l| l.elo)
        };
        let holds = |c: &Condition| match c {
            Condition::Always => true,
            Condition::Withdrawn => !played,
            Condition::Rank(cmp, n) => student.rank.is_some_and(|r| cmp.holds(r as f64, *n)),
            Condition::Beats(level) => played && student.beat_levels.iter().any(|l| l == level),
            Condition::Elo(cmp, bound) => {
                let b = match bound {
                    Bound::Number(v) => Some(*v),
                    Bound::RatingOf(level) => rating(level),
                };
                played && b.is_some_and(|b| cmp.holds(student.elo, b))
            }
            Condition::Score(cmp, x) => {
                played && student.games > 0 && cmp.holds(student.points / student.games as f64, *x)
            }
            Condition::Faults(cmp, n) => cmp.holds(student.faults.values().sum::<u64>() as f64, *n),
        };
        self.rules.iter().find(|r| r.conditions.iter().all(holds))
    }

    /// The grade book as CSV: every student (reference players left out), by rank then
    /// name, with the mark and the rule that gave it.
    pub fn gradebook(&self, lines: &[StudentLine]) -> String {
        use crate::safe_text::csv_cell;
        let mut out = String::from(
            "name,version,status,rank,elo,elo_error,points,games,beat_levels,mark,rule\n",
        );
        for l in lines.iter().filter(|l| l.kind == "student") {
            let rule = self.rule_for(l, lines);
            let rating = l.rating_cells();
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{}\n",
                csv_cell(&l.name),
                l.version,
                l.status,
                l.rank.map_or(String::new(), |r| r.to_string()),
                rating.0,
                rating.1,
                l.points,
                l.games,
                l.beat_levels.join(" "),
                rule.map_or("", |r| r.mark.as_str()),
                csv_cell(&rule.map_or("no rule matched".to_string(), |r| {
                    format!("line {}: {}", r.line, r.text)
                })),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEVELS: &[&str] = &["random", "greedy", "depth2", "depth3", "default"];

    fn student(name: &str, rank: Option<usize>, elo: f64, beat: &[&str]) -> StudentLine {
        StudentLine {
            name: name.into(),
            kind: "student",
            rank,
            elo,
            games: 10,
            points: 5.0,
            beat_levels: beat.iter().map(|s| s.to_string()).collect(),
            status: if rank.is_some() {
                "played"
            } else {
                "withdrawn"
            }
            .into(),
            ..StudentLine::default()
        }
    }

    #[test]
    fn the_first_rule_that_holds_gives_the_mark() {
        let marks = Marks::parse(
            "# a class\nrank <= 1 and beats default -> 10\nbeats depth3 -> 8 # solid\nelo >= ref-depth2 -> 6\nwithdrawn -> 0\nalways -> 3\n",
            LEVELS,
        )
        .unwrap();
        let depth2 = StudentLine {
            name: "ref-depth2".into(),
            kind: "reference",
            elo: 50.0,
            rank: Some(4),
            ..StudentLine::default()
        };
        let all = vec![
            student("top", Some(1), 300.0, &["random", "depth3", "default"]),
            student("good", Some(2), 200.0, &["random", "depth3"]),
            student("mid", Some(3), 60.0, &["random"]),
            depth2,
            student("low", Some(5), -100.0, &[]),
            student("gone", None, 0.0, &[]),
        ];
        let mark = |i: usize| marks.rule_for(&all[i], &all).map(|r| r.mark.clone());
        assert_eq!(mark(0).as_deref(), Some("10"));
        assert_eq!(mark(1).as_deref(), Some("8"));
        assert_eq!(mark(2).as_deref(), Some("6"));
        assert_eq!(mark(4).as_deref(), Some("3"));
        assert_eq!(mark(5).as_deref(), Some("0"));
        let book = marks.gradebook(&all);
        assert!(book.contains("\"top\",,played,1,300.0"), "{book}");
        assert!(!book.lines().any(|l| l.starts_with("\"ref-")), "{book}");
        assert!(book.contains("line 3: beats depth3 -> 8"), "{book}");
    }

    #[test]
    fn bad_rules_are_named_by_line() {
        for (text, want) in [
            ("rank <= 3\n", "line 1: 'rank <= 3' has no '-> MARK'"),
            (
                "\nbeats depth9 -> 5\n",
                "line 2: 'depth9' is not a reference player",
            ),
            ("rank < 3 -> 5\n", "line 1: '<': compare with <= or >="),
            (
                "speed >= 3 -> 5\n",
                "line 1: 'speed >= 3' is not a condition",
            ),
            ("always -> a,b\n", "line 1: the mark 'a,b'"),
            ("# nothing\n", "no rules"),
        ] {
            let err = Marks::parse(text, LEVELS).unwrap_err();
            assert!(err.starts_with(want), "{text:?}: {err}");
        }
    }
}
