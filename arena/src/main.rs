//! The `arena` binary: parses the command line and dispatches to one subcommand's
//! handler in [`cli`]. See docs/arena.md for every flag and the journal
//! format.

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use cli::args::{Cli, Command};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // fastchess and cutechess-cli spellings become the arena's own (cli/fastchess.rs).
    let words: Option<Vec<String>> = std::env::args_os()
        .skip(1)
        .map(|w| w.into_string().ok())
        .collect();
    let argv: Vec<std::ffi::OsString> = match words {
        Some(words) => match cli::fastchess::translate(&words) {
            Ok(t) => {
                for note in &t.notes {
                    eprintln!("arena: {note}");
                }
                t.args.into_iter().map(Into::into).collect()
            }
            Err(e) => {
                eprintln!("arena: {e}");
                return ExitCode::from(2);
            }
        },
        None => std::env::args_os().skip(1).collect(),
    };
    let matches = Cli::command().get_matches_from(std::iter::once("arena".into()).chain(argv));
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let groups = match &mut cli.command {
        Command::Match(args) => Some(&mut args.engine_groups),
        Command::Tournament(t) => Some(&mut t.common.engine_groups),
        Command::Serve(args) => Some(&mut args.engine_groups),
        Command::Merge(_)
        | Command::Report(_)
        | Command::Check(_)
        | Command::Grade(_)
        | Command::Class(_) => None,
    };
    if let (Some(groups), Some((_, sub))) = (groups, matches.subcommand()) {
        if let Ok(Some(found)) = sub.try_get_occurrences::<String>("engine") {
            *groups = found.map(|g| g.cloned().collect()).collect();
        }
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("arena: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Match(args) => cli::match_cmd::run(args).await,
            Command::Tournament(args) => cli::tournament_cmd::tournament(args).await,
            Command::Merge(args) => cli::merge_cmd::merge(args),
            Command::Report(args) => cli::report_cmd::report(&args),
            Command::Check(args) => cli::check_cmd::check(&args).await,
            Command::Grade(args) => cli::grade_cmd::grade(&args).await,
            Command::Class(args) => cli::class_cmd::class(&args).await,
            Command::Serve(args) => cli::serve_cmd::serve(&args).await,
        }
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arena: {e:#}");
            ExitCode::from(2)
        }
    }
}
