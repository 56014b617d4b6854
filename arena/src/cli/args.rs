//! The command line's types: one clap `Args` struct per subcommand.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The game of the built-in default match.
pub(crate) const DEFAULT_GAME: &str = "mnk m=5 n=5 k=4";
/// The time control when none is given.
pub(crate) const DEFAULT_TC: &str = "tc=1+0.02";

/// Agon arena: referee matches between engine processes.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Play a match between two engines (default: agon's PVS against agon's depth-3
    /// minimax baseline on 5x5 four-in-a-row, 100 games).
    Match(MatchArgs),
    /// Play a round robin or gauntlet between any number of engines, with a cross table
    /// and jointly fitted ratings; resumes from its journal; --shard K/N plays a slice.
    Tournament(TournamentArgs),
    /// Join the journals of a tournament's shards into one set of standings.
    Merge(MergeArgs),
    /// Write a self-contained HTML report (SVG charts of nodes, depth, time and score per
    /// move for each engine configuration, standings with error bars) from a journal.
    Report(ReportArgs),
    /// Check that one engine speaks the protocol: handshake, isready, options, unknown
    /// commands, stop, legal moves, one bestmove per go, time limits, quit. Prints a report
    /// with a hint per failure; exit status 0 when every required check passes, 1 if not.
    Check(CheckArgs),
    /// Grade a folder of bots (one per student: a .py file, an executable, or a folder with
    /// bot.py or run) against reference players of graded strength, in a sandbox; writes a
    /// report per student, grades.json and grades.csv.
    Grade(GradeArgs),
    /// A class tournament: every student's bot against every other and the reference
    /// players, each in its own box; standings with intervals, a results site with every
    /// game's replay, private folders per student, a grade book; a rerun plays only the
    /// games of changed submissions.
    Class(ClassArgs),
    /// Serve a local web page: play any configured engine or watch two play (with their
    /// live search info), follow running matches and tournaments (--watch OUT), replay
    /// journaled games with per-move statistics, and open reports.
    Serve(ServeArgs),
}

/// `--bind`: an IP address, or an IP address with a port.
pub(crate) fn parse_bind(text: &str) -> Result<(std::net::IpAddr, Option<u16>), String> {
    if let Ok(ip) = text.parse::<std::net::IpAddr>() {
        return Ok((ip, None));
    }
    if let Ok(socket) = text.parse::<std::net::SocketAddr>() {
        return Ok((socket.ip(), Some(socket.port())));
    }
    let hint = if text.starts_with("localhost") {
        " (write 127.0.0.1 for localhost)"
    } else if text.starts_with(':') || text.parse::<u16>().is_ok() {
        " (a port alone goes in --port)"
    } else {
        ""
    };
    Err(format!(
        "expected an IP address such as 127.0.0.1 or ::1, optionally with a port \
         (127.0.0.1:8080, [::1]:8080), or give the port with --port{hint}"
    ))
}

#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// Port (default 8080; 0: any free port; the address is printed).
    #[arg(long)]
    pub(crate) port: Option<u16>,
    /// Address to bind: an IP address (127.0.0.1, ::1, 0.0.0.0), optionally with a port
    /// (127.0.0.1:8080, [::1]:8080).
    #[arg(long, default_value = "127.0.0.1", value_parser = parse_bind)]
    pub(crate) bind: (std::net::IpAddr, Option<u16>),
    /// Answer peers other than this machine and any Host header (off: loopback only).
    #[arg(long)]
    pub(crate) allow_remote: bool,
    /// An engine the page may start, as key=value words like match --engine, e.g.
    /// --engine cmd=./mybot name=mine (one quoted string works too); repeat for more.
    /// Without --engine or --config: agon, agon-easy, agon-minimax-d3 and agon-random.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(crate) engine: Vec<String>,
    /// The `--engine` words grouped by occurrence (filled from the matches, not by clap).
    #[arg(skip)]
    pub(crate) engine_groups: Vec<Vec<String>>,
    /// Engines from a JSON file in the format of `tournament --config`.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// The agon binary of the default engines.
    #[arg(long, value_name = "PATH")]
    pub(crate) agon: Option<PathBuf>,
    /// An output folder of `arena match` or `tournament` to follow live (repeatable); it
    /// may not exist yet (the page shows it once it does).
    #[arg(long, value_name = "DIR")]
    pub(crate) watch: Vec<PathBuf>,
    /// A journal to replay and report (repeatable).
    #[arg(long, value_name = "FILE")]
    pub(crate) journal: Vec<PathBuf>,
    /// A class's results site (`arena class`'s OUT/site) to serve at /site/.
    #[arg(long, value_name = "DIR")]
    pub(crate) site: Option<PathBuf>,
    /// Time an engine may overrun its move time before it loses (ms).
    #[arg(long, default_value_t = 1000)]
    pub(crate) margin_ms: u64,
    /// Deadline for an engine's handshake and first readyok (ms).
    #[arg(long, default_value_t = 10_000)]
    pub(crate) startup_ms: u64,
    /// Time a client has to send a request's headers (ms), on a new connection or a
    /// kept-alive one; a client still sending them (or idle) then is disconnected. Only
    /// the headers are timed: event streams and slow answers are not cut.
    #[arg(long, default_value_t = 10_000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) header_timeout_ms: u64,
    /// Connections held at once; more are not accepted until one closes (they wait in
    /// the kernel's queue and are then served, not refused).
    #[arg(long, default_value_t = 256, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub(crate) max_connections: u64,
}

/// How student bots are started and boxed (`grade` and `class`).
#[derive(Args, Debug)]
pub(crate) struct StudentBoxArgs {
    /// The interpreter of Python bots.
    #[arg(long, default_value = "python3")]
    pub(crate) python: String,
    /// The agon binary of the reference players (default: next to the arena).
    #[arg(long)]
    pub(crate) agon: Option<PathBuf>,
    /// How bots are isolated: strict (namespaces, a UID per bot, cgroup limits; needs
    /// root), userns (namespaces without root, per-process limits), limits (per-process
    /// limits and Landlock only). See docs/security.md.
    #[arg(long, default_value = "strict")]
    pub(crate) sandbox: String,
    /// Memory limit per bot and game, MiB.
    #[arg(long, default_value_t = 1024)]
    pub(crate) mem: u64,
    /// CPU time limit per bot and game, seconds.
    #[arg(long, default_value_t = 60)]
    pub(crate) cpu: u64,
    /// Processes and threads per bot.
    #[arg(long, default_value_t = 32)]
    pub(crate) nproc: u64,
    /// Largest file a bot may write, MiB.
    #[arg(long, default_value_t = 16)]
    pub(crate) fsize: u64,
    /// Deadline for a bot's handshake when it starts (ms), in its check and its games.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) startup_ms: u64,
    /// The bots' protocol: ugi (Agon's own, the default), uci, or gomocup (gomoku brains
    /// of the Piskvork protocol; the game must be gomoku).
    #[arg(long, default_value = "ugi")]
    pub(crate) proto: String,
}

#[derive(Args, Debug)]
pub(crate) struct GradeArgs {
    /// The game.
    #[arg(long, default_value = "tictactoe")]
    pub(crate) game: String,
    /// The folder of bots.
    #[arg(long)]
    pub(crate) bots: PathBuf,
    /// Seed of the openings and of the random player.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Games per level at first, and in each further batch while the 95% confidence
    /// interval of the score still holds one half (colour-swapped pairs).
    #[arg(long, default_value_t = 8)]
    pub(crate) games_per_level: u64,
    /// Most games per level: a verdict still open then is marked uncertain.
    #[arg(long, default_value_t = 32)]
    pub(crate) max_games_per_level: u64,
    /// The bots' time control.
    #[arg(long, default_value = "st=0.1")]
    pub(crate) tc: String,
    /// Output folder.
    #[arg(long, default_value = "grade-out")]
    pub(crate) out: PathBuf,
    /// Students graded at once (default: the number of cores, at most 4).
    #[arg(long)]
    pub(crate) concurrency: Option<usize>,
    #[command(flatten)]
    pub(crate) students: StudentBoxArgs,
}

#[derive(Args, Debug)]
pub(crate) struct ClassArgs {
    /// The submissions folder: one entry per student (NAME.py, an executable file, or a
    /// folder with bot.py or an executable run), as in grade.
    #[arg(long)]
    pub(crate) bots: PathBuf,
    /// The game.
    #[arg(long, default_value = "tictactoe")]
    pub(crate) game: String,
    /// Output folder: journals, results, site/, private/.
    #[arg(long, default_value = "class-out")]
    pub(crate) out: PathBuf,
    /// The reference players that take part, weakest first (grade's levels), or none.
    #[arg(long, default_value = "random,greedy,depth2,depth3,default")]
    pub(crate) references: String,
    /// Games per pairing (colour-swapped pairs: an even number).
    #[arg(long, default_value_t = 2)]
    pub(crate) games: u64,
    /// Who meets whom: round-robin, or rounds:R (R rounds of a Berger table: R opponents
    /// each). Default: round-robin up to 60 entrants, rounds:30 above.
    #[arg(long)]
    pub(crate) schedule: Option<String>,
    /// The bots' time control: st=SECONDS a move, tc=BASE+INC, with bank=SECONDS (a time
    /// bank for the game beside st=) and timeout=loss|move (a move over time loses the
    /// game, or the arena plays the first legal move for the bot).
    #[arg(long, default_value = "st=0.1")]
    pub(crate) tc: String,
    /// Openings: random:N (N random plies, seeded), start, or a file as in match.
    #[arg(long, default_value = "random:2")]
    pub(crate) openings: String,
    /// Seed of the openings and the reference players.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// After the schedule, settle the order of the first K places: neighbours whose order
    /// is not sure play more pairs.
    #[arg(long)]
    pub(crate) settle_top: Option<usize>,
    /// Most games the settling may add.
    #[arg(long, default_value_t = 200)]
    pub(crate) settle_games: u64,
    /// A rule file that maps places, levels beaten or ratings to marks: writes
    /// gradebook.csv (see docs/class.md).
    #[arg(long)]
    pub(crate) marks: Option<PathBuf>,
    /// Play only shard K/N of the schedule (a cluster's job array); the command without
    /// --shard afterwards finds every shard's games and writes the results.
    #[arg(long)]
    pub(crate) shard: Option<String>,
    /// Games at once (default: the number of cores).
    #[arg(long)]
    pub(crate) concurrency: Option<usize>,
    /// Bytes of each bot's stderr kept per game (CodeCup keeps about 10,000 characters).
    #[arg(long, default_value_t = 10_000)]
    pub(crate) stderr_cap: u64,
    /// No progress bar.
    #[arg(long)]
    pub(crate) no_progress: bool,
    #[command(flatten)]
    pub(crate) students: StudentBoxArgs,
}

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// The game to check the engine on (default tictactoe).
    #[arg(long)]
    pub(crate) game: Option<String>,
    /// The engine's protocol: ugi, uci, tei or gomocup.
    #[arg(long, default_value = "ugi")]
    pub(crate) proto: String,
    /// Also write the report as JSON to this file.
    #[arg(long)]
    pub(crate) json: Option<PathBuf>,
    /// Deadline for replies that should come at once (readyok and the like), ms.
    #[arg(long, default_value_t = 2000)]
    pub(crate) deadline_ms: u64,
    /// Deadline for the handshake of the freshly started engine (ms), as in match and
    /// grade.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) startup_ms: u64,
    /// movetime of the timed searches, ms.
    #[arg(long, default_value_t = 300)]
    pub(crate) movetime: u64,
    /// Time a search may overrun its limit, ms.
    #[arg(long, default_value_t = 200)]
    pub(crate) margin_ms: u64,
    /// Seed of the positions the engine is asked to move in.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Interpreter for a command ending in `.py`.
    #[arg(long, default_value = "python3")]
    pub(crate) python: String,
    /// How to isolate the engine: off (default: your own bot), strict, userns or limits
    /// (see docs/security.md).
    #[arg(long, default_value = "off")]
    pub(crate) sandbox: String,
    /// The engine command and its arguments, after `--`.
    #[arg(last = true, required = true)]
    pub(crate) command: Vec<String>,
}

#[derive(Args, Debug)]
pub(crate) struct ReportArgs {
    /// The journals to read: a match's, a tournament's, the shards of one (read
    /// together), or several matches appended to one file; a folder (a match's or a
    /// tournament's --out, such as arena-out) stands for the journals in it.
    #[arg(required = true)]
    pub(crate) journals: Vec<PathBuf>,
    /// Where to write the page.
    #[arg(short, long, default_value = "report.html")]
    pub(crate) output: PathBuf,
    /// The SPRT whose LLR the page traces over the games (two engines), e.g.
    /// --sprt elo0=0 elo1=5 (default: the tournament's, else [0, 5] normalized).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(crate) sprt: Vec<String>,
}

#[derive(Args, Debug)]
pub(crate) struct TournamentArgs {
    #[command(flatten)]
    pub(crate) common: MatchArgs,
    /// Engines from a JSON file: {"engines": [{"name": "d1", "cmd": "agon",
    /// "args": ["..."], "dir": "...", "proto": "ugi", "tc": "1+0.01", "depth": 3,
    /// "options": {"Depth": 3}, "env": {"K": "V"}}, ...], "game": "..."}; the keys are
    /// those of --engine. Engines given with --engine come after the file's.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// round-robin (everyone against everyone) or gauntlet (the first engine against each other).
    #[arg(long, default_value = "round-robin")]
    pub(crate) format: String,
    /// Play only slice K of N of the schedule (pairs p with p % N == K-1); merge the
    /// shards' journals with `arena merge`.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<String>,
    /// Where the standings go as JSON (default OUT/standings.json, per shard
    /// OUT/standings-K-of-N.json).
    #[arg(long, value_name = "FILE")]
    pub(crate) standings: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// The shards' journals.
    #[arg(required = true)]
    pub(crate) journals: Vec<PathBuf>,
    /// Write the merged standings as JSON here.
    #[arg(long, value_name = "FILE")]
    pub(crate) standings: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct MatchArgs {
    /// An engine, as key=value words (give it twice; once: it plays the baseline;
    /// never: the default pair). Keys: cmd=PATH args="ARGS" name=NAME dir=DIR
    /// proto=ugi|uci|tei option.NAME=VALUE env.NAME=VALUE tc=BASE+INC st=SECONDS
    /// depth=N nodes=N. A cmd with a '/' or ending in .py is a file relative to the current
    /// folder (or dir=); any other bare name is looked for next to the arena binary, then on
    /// PATH.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(crate) engine: Vec<String>,
    /// The `--engine` words grouped by occurrence (filled from the matches, not by clap).
    #[arg(skip)]
    pub(crate) engine_groups: Vec<Vec<String>>,
    /// Settings for both engines (each --engine overrides them), e.g. --each tc=5+0.05.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(crate) each: Vec<String>,
    /// The agon binary used for the built-in engines.
    #[arg(long, value_name = "PATH")]
    pub(crate) agon: Option<PathBuf>,
    /// The game and its parameters, e.g. "tictactoe", "mnk m=5 n=5 k=4", "clobber rows=5 cols=6".
    #[arg(long, default_value = DEFAULT_GAME)]
    pub(crate) game: String,
    /// Games per pairing, played as colour-swapped pairs from the same opening (match
    /// default 100; tournament default 2, and it must be even there).
    #[arg(long)]
    pub(crate) games: Option<u64>,
    /// Rounds: in each, every pairing plays one colour-swapped pair of games from the
    /// round's opening; --rounds R is --games 2R.
    #[arg(long)]
    pub(crate) rounds: Option<u64>,
    /// Openings: start, random:PLIES (random legal plies from the seed), file:PATH (one
    /// per line: a move list, "fen POSITION [moves ...]" or a position string), epd:PATH
    /// (one position per line, EPD operations after ';' ignored), pgn:PATH (the moves
    /// of each game, e.g. an earlier run's PGN) or gomocup:PATH (gomoku: Piskvork's and
    /// c-gomoku-cli's dx,dy-from-the-centre lines).
    #[arg(long, default_value = "random:2")]
    pub(crate) openings: String,
    /// Use only the first N plies of each opening of a file.
    #[arg(long, value_name = "N")]
    pub(crate) opening_plies: Option<u32>,
    /// Start at the N-th opening of a file (from 1).
    #[arg(long, value_name = "N")]
    pub(crate) opening_start: Option<u64>,
    /// Shuffle the openings of a file with the seed (default: file order).
    #[arg(long)]
    pub(crate) shuffle_openings: bool,
    /// Seed of the schedule (random openings, shuffling); printed so a run can be repeated.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Games played at once (each with its own two engine processes).
    #[arg(long)]
    pub(crate) concurrency: Option<usize>,
    /// Time an engine may overrun its clock or movetime before it loses on time (ms).
    #[arg(long, default_value_t = 100)]
    pub(crate) margin_ms: u64,
    /// Deadline for a new engine's handshake and first readyok (ms).
    #[arg(long, default_value_t = 10_000)]
    pub(crate) startup_ms: u64,
    /// Deadline for readyok (new game, pings) and query answers (ms).
    #[arg(long, default_value_t = 5_000)]
    pub(crate) ping_ms: u64,
    /// Wall-clock cap of a search limited only by depth or nodes (ms).
    #[arg(long, default_value_t = 60_000)]
    pub(crate) hard_cap_ms: u64,
    /// Time an engine gets to exit after quit before its process group is killed (ms).
    #[arg(long, default_value_t = 300)]
    pub(crate) grace_ms: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long)]
    pub(crate) max_plies: Option<u32>,
    /// Adjudicate a draw from the engines' scores, fastchess style: --draw movenumber=N
    /// movecount=M score=CP (both engines within CP of 0 for M moves each, from move N).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(crate) draw: Vec<String>,
    /// Adjudicate a loss from the engines' scores, fastchess style: --resign movecount=M
    /// score=CP [twosided=true] (a side at -CP or worse for M moves loses).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(crate) resign: Vec<String>,
    /// The run's PGN file (default OUT/<run>/games.pgn; appended to).
    #[arg(long, value_name = "FILE")]
    pub(crate) pgnout: Option<PathBuf>,
    /// The PGN Event tag.
    #[arg(long)]
    pub(crate) event: Option<String>,
    /// The PGN Site tag.
    #[arg(long)]
    pub(crate) site: Option<String>,
    /// Ask both engines `query result` after each game and record their claims.
    #[arg(long)]
    pub(crate) query_result: bool,
    /// Ping (isready) the engine before every move.
    #[arg(long)]
    pub(crate) ping_every_move: bool,
    /// Longest engine output line accepted (bytes).
    #[arg(long, default_value_t = 65_536)]
    pub(crate) max_line_bytes: usize,
    /// Engine output lines per second allowed (sustained; the same number may come at once).
    #[arg(long, default_value_t = 20_000)]
    pub(crate) max_lines_per_sec: u32,
    /// Bytes of each engine process's stderr kept in its log.
    #[arg(long, default_value_t = 1 << 20)]
    pub(crate) stderr_cap: u64,
    /// Output directory: the journal, and per run a folder with game files and engine logs.
    #[arg(long, default_value = "arena-out")]
    pub(crate) out: PathBuf,
    /// The journal (default OUT/journal.jsonl); appended to, one JSON line per game.
    #[arg(long)]
    pub(crate) journal: Option<PathBuf>,
    /// Write a timestamped protocol transcript of every game.
    #[arg(long)]
    pub(crate) transcripts: bool,
    /// Pin engines to cores of their own (fastchess's -use-affinity): in a match each
    /// engine of each worker gets one core; in a tournament each worker's engines share
    /// its two cores. Needs two cores per game played at once.
    #[arg(long)]
    pub(crate) affinity: bool,
    /// Print the summary every N games (0: only at the end).
    #[arg(long, default_value_t = 25)]
    pub(crate) report_every: u64,
    /// No progress bar.
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// Stop early by a sequential test between two engines, fastchess style:
    /// --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub(crate) sprt: Vec<String>,
}
