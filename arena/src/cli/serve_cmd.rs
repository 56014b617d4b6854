//! `arena serve`: the local web board.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};

use agon::games::GameSpec;
use arena::config::EngineSpec;
use arena::process::LineLimits;
use arena::referee::RefereeSettings;

use super::args::ServeArgs;
use super::common::{agon_words, build_engines, read_engine_config};

/// `arena serve`.
pub(crate) async fn serve(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let mut groups: Vec<Vec<String>> = match &args.config {
        // The page picks the game, so a config's "game" does not apply here.
        Some(path) => read_engine_config(path)?.1,
        None => Vec::new(),
    };
    // The same words as `match --engine` (one quoted string is split the same way).
    groups.extend(args.engine_groups.iter().cloned());
    if groups.is_empty() {
        let agon = args
            .agon
            .as_ref()
            .map_or_else(|| "agon".to_string(), |p| p.display().to_string());
        groups = vec![
            agon_words(&agon, "agon", &[]),
            agon_words(&agon, "agon-easy", &["option.Level=easy"]),
            agon_words(
                &agon,
                "agon-minimax-d3",
                &["option.Searcher=minimax", "option.Depth=3"],
            ),
            agon_words(&agon, "agon-random", &["option.Searcher=random"]),
        ];
    }
    let engines = build_engines(&groups, &EngineSpec::default())?;
    let mut names = std::collections::HashSet::new();
    for e in &engines {
        if e.name == "human" || !names.insert(e.name.clone()) {
            bail!(
                "engine name '{}' is used twice (or is 'human'); give each a name=",
                e.name
            );
        }
    }
    let mut waiting = Vec::new();
    for dir in &args.watch {
        if dir.exists() && !dir.is_dir() {
            bail!("--watch {}: not a folder", dir.display());
        }
        if !dir.exists() {
            waiting.push(dir.display().to_string());
        }
    }
    for j in &args.journal {
        if !j.is_file() {
            bail!("--journal {}: no such file", j.display());
        }
    }
    if let Some(site) = &args.site {
        if !site.join("index.html").is_file() {
            bail!(
                "--site {}: no index.html there (give the site folder arena class wrote: OUT/site)",
                site.display()
            );
        }
    }
    let spec = GameSpec::parse("tictactoe").expect("valid");
    let referee = RefereeSettings {
        spec,
        margin: Duration::from_millis(args.margin_ms),
        startup_timeout: Duration::from_millis(args.startup_ms),
        ping_timeout: Duration::from_millis(5_000),
        hard_cap: Duration::from_secs(120),
        grace: Duration::from_millis(300),
        max_plies: None,
        adjudication: Default::default(),
        query_result: false,
        ping_every_move: false,
        limits: LineLimits {
            max_line: 65_536,
            burst_lines: 20_000,
            lines_per_sec: 20_000,
        },
        stderr_cap: 0,
        log_dir: None,
        live_dir: None,
    };
    let config = arena::serve::ServeConfig {
        engines: engines.into_iter().map(Arc::new).collect(),
        watch: args.watch.clone(),
        journals: args.journal.clone(),
        site: args.site.clone(),
        allow_remote: args.allow_remote,
        referee,
    };
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let (ip, bind_port) = args.bind;
    let port = match (bind_port, args.port) {
        (Some(a), Some(b)) if a != b => bail!(
            "--bind names port {a} and --port {b}: give the port once (--port {b}, or --bind {})",
            std::net::SocketAddr::new(ip, b)
        ),
        (Some(p), _) | (None, Some(p)) => p,
        (None, None) => 8080,
    };
    let listener = tokio::net::TcpListener::bind((ip, port))
        .await
        .with_context(|| {
            format!(
                "cannot listen on {} (another program may hold the port: --port N for another, --port 0 for any free one)",
                std::net::SocketAddr::new(ip, port)
            )
        })?;
    let address = listener.local_addr()?;
    let host = if address.ip().is_unspecified() {
        "127.0.0.1".to_string()
    } else if address.is_ipv6() {
        format!("[{}]", address.ip())
    } else {
        address.ip().to_string()
    };
    arena::outln!("arena serve: http://{host}:{}/", address.port());
    arena::outln!("  engines: {}", names.join(", "));
    if let Some(site) = &args.site {
        arena::outln!(
            "  results site {}: http://{host}:{}/site/",
            site.display(),
            address.port()
        );
    }
    for dir in &waiting {
        arena::outln!("  watching {dir}: it does not exist yet; waiting for it to appear");
    }
    if args.allow_remote {
        arena::outln!("  answering any peer and any Host (--allow-remote)");
    } else {
        arena::outln!("  answering this machine only (--allow-remote to change)");
    }
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let router = arena::serve::router(config).context("cannot start the server")?;
    let limits = arena::serve::ServeLimits {
        header_read_timeout: Duration::from_millis(args.header_timeout_ms),
        max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
    };
    arena::serve::serve_with(listener, router, &limits).await?;
    Ok(ExitCode::SUCCESS)
}
