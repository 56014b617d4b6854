//! Standard output for people, safe when the reader goes away: `arena match | head -2`
//! must not panic. A write that fails because the pipe is closed ends the arena at once
//! with status 141 (128 + SIGPIPE, what a shell shows for a program killed by it); the
//! games already finished are in the journal, and engines die with the arena.

use std::io::Write as _;

/// Writes formatted text to stdout and flushes it (see the module docs for a closed pipe).
pub fn write(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
    }
}

/// `println!` that survives a closed pipe ([`write`]).
#[macro_export]
macro_rules! outln {
    () => { $crate::terminal::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::terminal::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` that survives a closed pipe ([`write`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::terminal::write(format_args!($($arg)*)) };
}
