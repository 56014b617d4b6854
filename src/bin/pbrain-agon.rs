//! `pbrain-agon`: agon as a Gomocup brain, under the name Gomocup managers and GUIs
//! (Piskvork, Yixin-Board, c-gomoku-cli) look for. Speaks the Piskvork protocol on
//! stdin/stdout (protocol.md section 11); logs go to stderr only.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    agon::gomocup::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
}
