//! The `agon` engine binary. With no subcommand it speaks the protocol (protocol.md) on
//! stdin/stdout; `agon bench` and `agon perft` are quick tools. Logs go to stderr only.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use clap::{Parser, Subcommand};

use agon::bench::run_bench;
use agon::engine::{Engine, Flow};
use agon::games::GameSpec;
use agon::protocol::{ErrorCode, Reply, MAX_LINE};

/// Agon: an engine for m,n,k games, Clobber and Halma, speaking a UCI-shaped protocol.
#[derive(Parser, Debug)]
#[command(name = "agon", version, about)]
struct Cli {
    /// Game to start with, as a spec: `tictactoe`, `mnk m=5 n=5 k=4`, `clobber rows=5 cols=6`.
    #[arg(long, global = true)]
    game: Option<String>,
    /// Start position as a position string of the game.
    #[arg(long, global = true, conflicts_with = "position_file")]
    position: Option<String>,
    /// Read the start position from a file (the game's position string; Clobber also
    /// reads a grid of W/B/. rows).
    #[arg(long, global = true)]
    position_file: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Search a fixed set of positions of every game; print nodes and nodes per second.
    Bench {
        /// Only the games named (default: all).
        #[arg(long = "only")]
        only: Vec<String>,
        /// Searcher to bench (pvs, alphabeta, minimax).
        #[arg(long, default_value = "pvs")]
        searcher: String,
        /// Turn move ordering off (alphabeta only).
        #[arg(long)]
        no_ordering: bool,
    },
    /// Play the engine on this terminal: `agon play tictactoe`, `agon play clobber rows=5 cols=6`.
    /// Levels: easy = depth 1, medium = depth 2, hard = depth 4 (default), expert = depth 6.
    Play {
        /// The game and its parameters, e.g. `mnk m=5 n=5 k=4`.
        #[arg(required = true, num_args = 1..)]
        spec: Vec<String>,
        /// Who moves first: human, engine or random (drawn from the seed before each game).
        #[arg(long, default_value = "random")]
        first: String,
        /// Seed for the first-move draws (default: from the clock; printed at the start).
        #[arg(long)]
        seed: Option<u64>,
        /// Difficulty: easy, medium, hard or expert.
        #[arg(long, conflicts_with_all = ["depth", "movetime"])]
        level: Option<String>,
        /// Custom strength: search depth in plies per move (1..=64).
        #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Custom strength: milliseconds per move (1..=600000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=600_000))]
        movetime: Option<u64>,
        /// Learn from finished games in this file (off by default).
        #[arg(long)]
        learn: Option<std::path::PathBuf>,
    },
    /// Prove the value of the position (`--game`, `--position`): win, loss or draw for the
    /// side to move, with the distance in plies when the method gives it.
    Solve {
        /// auto (regions for Clobber and threats for m,n,k up to 128 squares, else search),
        /// search, regions or threats.
        #[arg(long, default_value = "auto")]
        method: String,
        /// With regions (Clobber), also prove the distance in plies: a second search,
        /// much slower than the proof (3x8: about 10 times).
        #[arg(long)]
        distance: bool,
        /// Give up after this many seconds (default: never).
        #[arg(long)]
        time: Option<f64>,
        /// Memory for the proof's tables, in MiB: a proof that needs more ends as
        /// `unknown` (a proved result without its distance when only that was left).
        #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
        hash: u64,
        /// Clobber: solver threads. More than one splits the proof two plies deep, as do
        /// --journal and positions of 29 stones or more (the memory is shared out).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Clobber: append every proved position two plies deep to this file, and resume
        /// from it when it exists (a stopped run goes on where it was). Not with
        /// --distance (a split proof gives no distance).
        #[arg(long, conflicts_with = "distance")]
        journal: Option<std::path::PathBuf>,
        /// Clobber: write the proof as a certificate to this file, for a checker that
        /// shares no code with the solver (one thread; boards of 29 stones or more are
        /// proved in pieces two plies deep).
        #[arg(long, conflicts_with_all = ["journal", "distance"])]
        certificate: Option<std::path::PathBuf>,
    },
    /// Play the default engine against itself at a fixed number of nodes a move and
    /// write the games (for fitting the evaluation): one line per game, see `selfplay.rs`.
    Selfplay {
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        /// Seed of the opening draws.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plies drawn at random at the start of each game.
        #[arg(long, default_value_t = 4)]
        random_plies: u32,
        /// The random plies are drawn among this many moves, best by the ordering hint.
        #[arg(long, default_value_t = 8)]
        random_top: usize,
        /// Record a game still going after this many plies as a draw.
        #[arg(long, default_value_t = 400)]
        max_plies: u32,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Output file.
        #[arg(long)]
        out: std::path::PathBuf,
        /// A line for the file's header (say which engine played).
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Speak the Gomocup (Piskvork) protocol on stdin/stdout, as `pbrain-agon` does: for
    /// gomoku GUIs and managers (protocol.md section 11).
    Gomocup,
    /// Count leaf nodes of the legal move tree.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Print the count below every legal move.
        #[arg(long)]
        divide: bool,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // A copy named pbrain-... is a Gomocup brain, as managers expect.
    if std::env::args()
        .next()
        .is_some_and(|a| agon::gomocup::named_as_brain(&a))
    {
        agon::gomocup::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("agon: {message}");
            ExitCode::from(2)
        }
    }
}

/// Reads the start position text: the `--position` string or the file's contents.
fn start_position(cli: &Cli) -> Result<Option<String>, String> {
    if let Some(text) = &cli.position {
        return Ok(Some(text.clone()));
    }
    match &cli.position_file {
        None => Ok(None),
        Some(path) => std::fs::read_to_string(path)
            .map(Some)
            .map_err(|e| format!("cannot read position file {}: {e}", path.display())),
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let raw_position = start_position(&cli)?;
    if let Some(Cmd::Play { spec, .. }) = &cli.command {
        // `play` names its game itself; `--game` may only repeat it.
        let words = spec.join(" ");
        if let Some(game) = &cli.game {
            let (a, b) = (GameSpec::parse(game), GameSpec::parse(&words));
            if let (Ok(a), Ok(b)) = (&a, &b) {
                if a != b {
                    return Err(format!(
                        "--game '{game}' and play's game '{words}' differ: give the game once, after play"
                    ));
                }
            }
        }
    }
    let spec_text = match &cli.command {
        Some(Cmd::Play { spec, .. }) => spec.join(" "),
        _ => cli.game.clone().unwrap_or_else(|| "tictactoe".to_string()),
    };
    // A position file may carry its own board size (Clobber grids); the game resolves it.
    let (spec_text, position) = match &raw_position {
        Some(text) => {
            let (spec, pos) =
                agon::games::read_position_file(&spec_text, text).map_err(|e| e.to_string())?;
            (spec.to_string(), Some(pos))
        }
        None => (spec_text, None),
    };
    match cli.command {
        None => serve(&spec_text, position.as_deref()),
        Some(Cmd::Bench {
            only,
            searcher,
            no_ordering,
        }) => {
            let kind = agon::search::SearcherKind::from_name(&searcher).ok_or_else(|| {
                format!("unknown searcher '{searcher}' (pvs, alphabeta, minimax)")
            })?;
            let report = run_bench(&only, kind, !no_ordering).map_err(|e| e.to_string())?;
            print!("{report}");
            Ok(())
        }
        Some(Cmd::Play {
            spec: _,
            first,
            seed,
            level,
            depth,
            movetime,
            learn,
        }) => {
            let spec = GameSpec::parse(&spec_text).map_err(|e| e.to_string())?;
            play(spec, position, &first, seed, level, depth, movetime, learn)
        }
        Some(Cmd::Solve {
            method,
            distance,
            time,
            hash,
            threads,
            journal,
            certificate,
        }) => {
            let method = agon::solve::Method::from_name(&method).ok_or_else(|| {
                let names = agon::solve::Method::names();
                format!("unknown method '{method}' ({names})")
            })?;
            let limit = match time {
                Some(t) if t.is_finite() && t > 0.0 => Some(std::time::Duration::from_secs_f64(t)),
                Some(t) => return Err(format!("--time {t}: give a positive number of seconds")),
                None => None,
            };
            let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let position = position.as_deref();
            let request = agon::solve::Request {
                method,
                distance,
                limit,
                memory_mib: hash as usize,
                split: Some(agon::solve::SplitSettings {
                    threads: threads as usize,
                    journal: journal.as_deref(),
                    progress: &|line| eprintln!("{line}"),
                }),
                certificate: certificate.as_deref(),
            };
            let report = agon::solve::solve_request(&spec_text, position, request, stop)?;
            print!("{report}");
            Ok(())
        }
        Some(Cmd::Selfplay {
            games,
            nodes,
            seed,
            random_plies,
            random_top,
            max_plies,
            threads,
            out,
            note,
        }) => {
            let options = agon::selfplay::SelfPlayOptions {
                games,
                nodes,
                seed,
                random_plies,
                random_top,
                max_plies,
                threads,
                note,
            };
            let progress = |done: usize| {
                if done.is_multiple_of(100) || done == games {
                    eprintln!("{done}/{games} games");
                }
            };
            let text = agon::selfplay::selfplay(&spec_text, &options, &progress)?;
            std::fs::write(&out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))
        }
        Some(Cmd::Gomocup) => {
            agon::gomocup::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            Ok(())
        }
        Some(Cmd::Perft { depth, divide }) => {
            // Lines are printed as they come (each `divide` line when its move is
            // counted); Ctrl-C or SIGTERM end the process at once, as by default.
            let mut engine = Engine::new(Arc::new(|r: Reply| println!("{r}")));
            engine
                .set_game(&spec_text, position.as_deref())
                .map_err(|r| r.to_string())?;
            let command = if divide {
                format!("perft {depth} divide")
            } else {
                format!("perft {depth}")
            };
            engine.handle_line(&command);
            engine.wait();
            Ok(())
        }
    }
}

/// `agon play`: checks the parameters, then runs the session on stdin/stdout.
#[allow(clippy::too_many_arguments)]
fn play(
    spec: GameSpec,
    position: Option<String>,
    first: &str,
    seed: Option<u64>,
    level: Option<String>,
    depth: Option<u32>,
    movetime: Option<u64>,
    learn: Option<std::path::PathBuf>,
) -> Result<(), String> {
    use agon::engine::Level;
    use agon::play::{First, PlayConfig};
    let first = match first.to_ascii_lowercase().as_str() {
        "human" => First::Human,
        "engine" => First::Engine,
        "random" => First::Random,
        other => {
            return Err(format!(
                "--first: '{other}' is not one of human, engine, random"
            ))
        }
    };
    let (limits, strength) = match (level, depth, movetime) {
        (_, Some(d), _) => (
            agon::search::Limits::depth(d),
            format!("custom (depth {d})"),
        ),
        (_, _, Some(ms)) => (
            agon::search::Limits {
                movetime: Some(std::time::Duration::from_millis(ms)),
                ..Default::default()
            },
            format!("custom ({ms} ms per move)"),
        ),
        (level, None, None) => {
            let name = level.unwrap_or_else(|| "hard".to_string());
            let level = Level::from_name(&name).ok_or_else(|| {
                format!("--level: '{name}' is not one of easy, medium, hard, expert")
            })?;
            (
                agon::search::Limits::depth(level.depth()),
                format!("{} (depth {})", level.name(), level.depth()),
            )
        }
    };
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let config = PlayConfig {
        spec,
        first,
        seed,
        limits,
        strength,
        learn,
        position,
    };
    let stdin = std::io::stdin();
    agon::play::run(&config, stdin.lock(), std::io::stdout()).map_err(|e| e.to_string())?;
    Ok(())
}

/// Reads one line of at most `MAX_LINE` bytes; a longer line is consumed to its end and
/// reported as too long. `None` at end of input.
fn read_bounded_line(reader: &mut impl BufRead) -> std::io::Result<Option<Result<String, usize>>> {
    let mut buf = Vec::new();
    let mut total = 0usize;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if total == 0 {
                return Ok(None);
            }
            break;
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        total += chunk.len();
        if buf.len() < MAX_LINE {
            let room = MAX_LINE - buf.len();
            buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        let consumed = done.unwrap_or(available.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if total > MAX_LINE {
        return Ok(Some(Err(total)));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&buf).into_owned())))
}

/// Speaks the protocol on stdin/stdout until `quit` or end of input.
fn serve(spec: &str, position: Option<&str>) -> Result<(), String> {
    let stdout = Arc::new(Mutex::new(std::io::stdout()));
    let out = Arc::clone(&stdout);
    let sink = Arc::new(move |reply: Reply| {
        let text = reply.to_string();
        let mut out = match out.lock() {
            Ok(o) => o,
            Err(p) => p.into_inner(),
        };
        // A closed stdout means the controller is gone; nothing useful is left to do.
        if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
            std::process::exit(0);
        }
    });
    let mut engine = Engine::new(sink.clone());
    if spec != "tictactoe" || position.is_some() {
        engine.set_game(spec, position).map_err(|r| r.to_string())?;
    }
    // Input is read on its own thread so that a blocked read never delays search output.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(std::io::stdin().take(u64::MAX));
        while let Ok(Some(line)) = read_bounded_line(&mut reader) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    for line in rx {
        match line {
            Ok(text) => {
                log::debug!("< {text}");
                if engine.handle_line(&text) == Flow::Quit {
                    return Ok(());
                }
            }
            Err(len) => sink(Reply::Error {
                code: ErrorCode::Syntax,
                message: format!("line too long ({len} bytes, the limit is {MAX_LINE})"),
            }),
        }
    }
    // End of input: like `quit`.
    engine.stop_search();
    Ok(())
}
