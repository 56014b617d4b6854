//! The command line, apart from the arena's library (as fastchess keeps `app/src/cli`
//! apart from its tournament code): the arguments of every subcommand in [`args`], and
//! one file per subcommand that turns them into the library's configuration and runs it.

pub(crate) mod args;
pub(crate) mod check_cmd;
pub(crate) mod class_cmd;
pub(crate) mod common;
pub(crate) mod fastchess;
pub(crate) mod grade_cmd;
pub(crate) mod match_cmd;
pub(crate) mod merge_cmd;
pub(crate) mod report_cmd;
pub(crate) mod serve_cmd;
pub(crate) mod tournament_cmd;
