//! The protocols the arena speaks to engines, an engine's `proto=`: Agon's own `ugi`
//! (UGI-compatible), `uci` (the same commands under UCI's handshake), `tei`, the Tak
//! Engine Interface of Tiltak and Taktician, and `gomocup`, the Piskvork protocol of
//! gomoku brains ([`gomocup`]). What differs between them lives here and nowhere else:
//! the names a user writes, the games a dialect plays, how a command is written on the
//! wire, what a new game says, and the options a game needs at startup.

pub mod gomocup;

use std::fmt;

use agon::games::mnk::Mnk;
use agon::games::tak::Tak;
use agon::games::GameSpec;
use agon::protocol::{Command, OptionDecl, OptionType};

/// An engine's protocol (`proto=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Agon's own protocol under the `ugi` handshake (the default).
    Ugi,
    /// The same commands under UCI's `uci` handshake.
    Uci,
    /// TEI, the Tak engines' dialect of UCI.
    Tei,
    /// The Gomocup (Piskvork) protocol of gomoku brains: a different language, spoken
    /// through [`gomocup::Link`].
    Gomocup,
}

impl Dialect {
    /// Every dialect, in the order messages list them.
    pub const ALL: [Dialect; 4] = [Dialect::Ugi, Dialect::Uci, Dialect::Tei, Dialect::Gomocup];

    /// The name a user writes after `proto=`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Ugi => "ugi",
            Dialect::Uci => "uci",
            Dialect::Tei => "tei",
            Dialect::Gomocup => "gomocup",
        }
    }

    /// The handshake of Agon's line protocol this dialect uses (`None`: Gomocup has none).
    pub fn wire(self) -> Option<agon::protocol::Dialect> {
        match self {
            Dialect::Ugi => Some(agon::protocol::Dialect::Ugi),
            Dialect::Uci => Some(agon::protocol::Dialect::Uci),
            Dialect::Tei => Some(agon::protocol::Dialect::Tei),
            Dialect::Gomocup => None,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The dialect named `name` (`ugi`, `uci` or `tei`).
///
/// # Errors
/// An unknown name, with the known ones.
pub fn parse(name: &str) -> Result<Dialect, String> {
    Dialect::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .ok_or_else(|| format!("proto '{name}': use {}", names()))
}

/// The dialects' names, for messages: `ugi, uci, tei or gomocup`.
pub fn names() -> String {
    let all: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => all.join(""),
    }
}

/// The games an engine of `dialect` can play, when the dialect itself decides it
/// (`None`: any game, as the engine says).
pub fn games(dialect: Dialect) -> Option<&'static [&'static str]> {
    match dialect {
        Dialect::Tei => Some(&["tak"]),
        Dialect::Gomocup => Some(&["mnk"]),
        Dialect::Ugi | Dialect::Uci => None,
    }
}

/// Whether an engine of `dialect` can play `spec`.
///
/// # Errors
/// The end of a sentence whose subject is the dialect: `plays Tak only; the game is
/// 'tictactoe'`.
pub fn plays(dialect: Dialect, spec: &GameSpec) -> Result<(), String> {
    match games(dialect) {
        Some(_) if dialect == Dialect::Gomocup => gomocup::plays(spec),
        Some(list) if !list.contains(&spec.name) => Err(format!(
            "plays {} only; the game is '{spec}'",
            list.iter().map(|g| title(g)).collect::<Vec<_>>().join(", ")
        )),
        _ => Ok(()),
    }
}

fn title(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The command that starts a game of `spec`: TEI's `teinewgame <size>` carries the
/// board size; the others' `uginewgame` and `ucinewgame` carry nothing (Gomocup's link
/// writes `START` from the game it was given).
pub fn new_game(dialect: Dialect, spec: &GameSpec) -> Command {
    Command::NewGame {
        dialect: dialect.wire().unwrap_or(agon::protocol::Dialect::Ugi),
        size: match dialect {
            Dialect::Tei => spec.settings_of::<Tak>().map(|t| t.size as u32),
            Dialect::Ugi | Dialect::Uci | Dialect::Gomocup => None,
        },
    }
}

/// The options an engine of `dialect` is set at startup for `spec`, from the option
/// `declarations` its handshake advertised: `Game` for an engine of
/// Agon's dialects that has it; TEI's `HalfKomi` for the game's komi.
///
/// # Errors
/// A komi the TEI engine cannot take (the match cannot be played with it).
pub fn game_options(
    dialect: Dialect,
    spec: &GameSpec,
    declarations: &[OptionDecl],
) -> Result<Vec<Command>, String> {
    match dialect {
        Dialect::Tei => Ok(komi_option(spec, declarations)?.into_iter().collect()),
        // The link learns the board from this; nothing is written.
        Dialect::Gomocup => {
            spec.settings_of::<Mnk>()
                .ok_or_else(|| format!("a Gomocup brain plays gomoku, not '{spec}'"))?;
            Ok(vec![Command::SetOption {
                name: "Game".into(),
                value: Some(spec.to_string()),
            }])
        }
        Dialect::Ugi | Dialect::Uci => Ok(declarations
            .iter()
            .any(|d| d.name.eq_ignore_ascii_case("game"))
            .then(|| Command::SetOption {
                name: "Game".into(),
                value: Some(spec.to_string()),
            })
            .into_iter()
            .collect()),
    }
}

/// The `setoption name HalfKomi value K` a TEI engine needs for the match's komi: sent
/// when the engine advertised `HalfKomi`; an error when the komi is not 0 and the engine
/// cannot take it (no such option, or not among the values of its combo).
fn komi_option(spec: &GameSpec, declarations: &[OptionDecl]) -> Result<Option<Command>, String> {
    let half_komi = spec.settings_of::<Tak>().map_or(0, |t| t.half_komi);
    let Some(decl) = declarations
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case("halfkomi"))
    else {
        return if half_komi == 0 {
            Ok(None)
        } else {
            Err(format!(
                "the game has halfkomi={half_komi} but the engine advertises no HalfKomi option"
            ))
        };
    };
    let accepted = match &decl.kind {
        OptionType::Combo { vars, .. } => vars.iter().any(|v| v.trim() == half_komi.to_string()),
        OptionType::Spin { min, max, .. } => (*min..=*max).contains(&i64::from(half_komi)),
        _ => true,
    };
    if !accepted {
        return Err(format!(
            "the game has halfkomi={half_komi}, which the engine's HalfKomi option does not offer ({})",
            agon::protocol::Reply::Option(decl.clone())
        ));
    }
    Ok(Some(Command::SetOption {
        name: decl.name.clone(),
        value: Some(half_komi.to_string()),
    }))
}

/// A command as the dialect writes it. TEI engines (Tiltak, Taktician) know only UCI's
/// clock names and `position tps`: `go wtime btime winc binc` and `position tps <tps>`.
/// Every other command, and every command of the other dialects, is written as Agon's
/// protocol writes it. (A Gomocup brain is written to by its [`gomocup::Link`] instead.)
pub fn line(dialect: Dialect, command: &Command) -> String {
    if dialect != Dialect::Tei {
        return command.to_string();
    }
    match command {
        Command::Go(go) => {
            let mut line = String::from("go");
            let numbers = [
                ("wtime", go.p1time),
                ("btime", go.p2time),
                ("winc", go.p1inc),
                ("binc", go.p2inc),
                ("movestogo", go.movestogo.map(u64::from)),
                ("movetime", go.movetime),
                ("depth", go.depth.map(u64::from)),
                ("nodes", go.nodes),
            ];
            for (key, value) in numbers {
                if let Some(value) = value {
                    line.push_str(&format!(" {key} {value}"));
                }
            }
            if go.infinite {
                line.push_str(" infinite");
            }
            line
        }
        Command::Position {
            position: agon::protocol::PositionSpec::Fen(tps),
            moves,
        } => {
            let mut line = format!(
                "position tps {}",
                tps.split_whitespace().collect::<Vec<_>>().join(" ")
            );
            if !moves.is_empty() {
                line.push_str(" moves");
                for m in moves {
                    line.push(' ');
                    line.push_str(m);
                }
            }
            line
        }
        other => other.to_string(),
    }
}

/// The `go` line with a clock of `ms` for both players in this dialect (for the
/// conformance checks' own messages).
pub fn clock_go(dialect: Dialect, ms: u64) -> String {
    match dialect {
        Dialect::Ugi => format!("go p1time {ms} p2time {ms} p1inc 0 p2inc 0"),
        Dialect::Uci | Dialect::Tei => format!("go wtime {ms} btime {ms} winc 0 binc 0"),
        Dialect::Gomocup => format!("INFO time_left {ms}"),
    }
}
