//! Which games each configured engine plays, as `GET /api/engines` says and the page's
//! game list uses: asked once (the engine is started, asked `games`, and stopped; a
//! dialect that decides its games answers without a process), then remembered.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use serde_json::json;

use agon::games::GameSpec;
use agon::protocol::OptionType;

use super::Shared;
use crate::record::Seat;
use crate::referee::{EngineConfig, EngineSlot, RefereeSettings};

/// What an engine said it plays: canonical game names, or `None` when it did not say.
#[derive(Clone, Debug, Serialize)]
struct EngineGames {
    name: String,
    games: Option<Vec<String>>,
    /// How we know.
    source: String,
}

/// Answers of engines already asked, by their configuration (the same command line and
/// options answer the same).
fn cache() -> &'static tokio::sync::Mutex<HashMap<String, EngineGames>> {
    static CACHE: OnceLock<tokio::sync::Mutex<HashMap<String, EngineGames>>> = OnceLock::new();
    CACHE.get_or_init(|| tokio::sync::Mutex::new(HashMap::new()))
}

/// Starts the engine, reads its handshake, asks `games`, and stops it.
async fn probe(config: Arc<EngineConfig>, referee: RefereeSettings) -> EngineGames {
    let name = config.name.clone();
    if let Some(games) = crate::dialect::games(config.dialect) {
        return EngineGames {
            name,
            games: Some(games.iter().map(|g| g.to_string()).collect()),
            source: format!(
                "speaks {}, which plays {} only",
                config.dialect.name().to_uppercase(),
                games.join(", ")
            ),
        };
    }
    let mut slot = EngineSlot::new(config, 0, 0);
    let answer = match slot.ensure_started(&referee, Seat::P1, None).await {
        Err(t) => EngineGames {
            name,
            games: Some(Vec::new()),
            source: format!("did not start: {}", t.describe()),
        },
        Ok(()) => {
            let running = slot.running();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
            let listed = running
                .client
                .list_games(deadline)
                .await
                .unwrap_or_default();
            let default_game = running.id.declarations.iter().find_map(|d| {
                if !d.name.eq_ignore_ascii_case("game") {
                    return None;
                }
                match &d.kind {
                    OptionType::String { default } | OptionType::Combo { default, .. } => {
                        GameSpec::parse(default).ok().map(|s| s.name.to_string())
                    }
                    _ => None,
                }
            });
            if !listed.is_empty() {
                EngineGames {
                    name,
                    games: Some(listed),
                    source: "its answer to 'games'".into(),
                }
            } else if let Some(game) = default_game {
                EngineGames {
                    name,
                    source: format!("no answer to 'games'; its Game option defaults to {game}"),
                    games: Some(vec![game]),
                }
            } else {
                EngineGames {
                    name,
                    games: None,
                    source: "it names no game (no 'games' answer, no Game option)".into(),
                }
            }
        }
    };
    slot.stop(referee.grace).await;
    answer
}

/// The games `config` plays (`None`: it did not say) and how we know, as
/// `GET /api/engines` says: asked once, then remembered.
pub(super) async fn engine_games(
    config: &Arc<EngineConfig>,
    referee: &RefereeSettings,
) -> (Option<Vec<String>>, String) {
    let key = format!("{config:?}");
    if let Some(g) = cache().lock().await.get(&key) {
        return (g.games.clone(), g.source.clone());
    }
    let mut referee = referee.clone();
    referee.log_dir = None;
    referee.live_dir = None;
    let answer = probe(Arc::clone(config), referee).await;
    let out = (answer.games.clone(), answer.source.clone());
    cache().lock().await.insert(key, answer);
    out
}

pub(super) async fn api_engines(State(state): State<Shared>) -> Json<serde_json::Value> {
    let mut referee = state.config.referee.clone();
    referee.log_dir = None;
    referee.live_dir = None;
    let mut out = Vec::new();
    let mut missing = Vec::new();
    {
        let known = cache().lock().await;
        for e in &state.config.engines {
            match known.get(&format!("{e:?}")) {
                Some(g) => out.push(g.clone()),
                None => missing.push(Arc::clone(e)),
            }
        }
    }
    if !missing.is_empty() {
        let probes = missing
            .iter()
            .map(|e| tokio::spawn(probe(Arc::clone(e), referee.clone())));
        let mut known = cache().lock().await;
        for (e, task) in missing.iter().zip(probes.collect::<Vec<_>>()) {
            let answer = task.await.unwrap_or_else(|_| EngineGames {
                name: e.name.clone(),
                games: None,
                source: "the probe failed".into(),
            });
            known.insert(format!("{e:?}"), answer);
        }
        out = state
            .config
            .engines
            .iter()
            .filter_map(|e| known.get(&format!("{e:?}")).cloned())
            .collect();
    }
    Json(json!({ "engines": out }))
}
