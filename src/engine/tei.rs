//! The engine's side of TEI, the dialect Tak engines and tools speak (Tiltak, racetrack,
//! PTN Ninja): the `tei` handshake switches to Tak and writes scores as `mate <moves>`,
//! `teinewgame <size>` starts Tak of that size, and the `HalfKomi` option gives Black's
//! komi. The only place in the engine that knows which game TEI plays.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::game::Game;
use crate::games::tak::{Tak, TakSettings};
use crate::games::GameSpec;
use crate::protocol::{Dialect, ErrorCode, Reply};

use super::{error, Engine, EngineError, Sink};

/// `sink`, writing `info` scores as `mate <moves>` while `tei` is set (by the handshake).
pub(super) fn mate_scores_when(tei: &Arc<AtomicBool>, sink: Sink) -> Sink {
    let tei = Arc::clone(tei);
    Arc::new(move |reply| match reply {
        Reply::Info(mut info) if tei.load(Ordering::Relaxed) => {
            info.mate_scores = true;
            sink(Reply::Info(info))
        }
        other => sink(other),
    })
}

impl Engine {
    /// After `ugi`, `uci` or `tei`: TEI's mate scores on or off, and `tei` switches a
    /// session that is not playing Tak to 5x5 Tak.
    pub(super) fn handshake(&mut self, dialect: Dialect) -> Result<(), EngineError> {
        self.tei.store(dialect == Dialect::Tei, Ordering::Relaxed);
        if dialect == Dialect::Tei && self.session.spec().name != Tak::NAME {
            self.set_tak(5)?;
        }
        Ok(())
    }

    /// Switches to Tak of `size` with the `HalfKomi` option (`teinewgame <size>`, `tei`).
    pub(super) fn set_tak(&mut self, size: u32) -> Result<(), EngineError> {
        if !(3..=8).contains(&size) {
            return Err(error(
                ErrorCode::BadValue,
                format!("teinewgame {size}: Tak is played on sizes 3 to 8"),
            ));
        }
        let settings = TakSettings {
            size: size as usize,
            half_komi: self.half_komi,
            line: false,
        };
        self.set_game(&GameSpec::of::<Tak>(&settings).to_string(), None)
    }

    /// The `HalfKomi` option: a Tak game in progress takes the new komi (its size and
    /// variant stay); later `teinewgame`s use it.
    pub(super) fn set_half_komi(&mut self, half_komi: i32) -> Result<(), EngineError> {
        self.half_komi = half_komi;
        let spec = self.session.spec();
        if spec.name != Tak::NAME {
            return Ok(());
        }
        let settings = TakSettings {
            half_komi,
            ..spec.settings::<Tak>()
        };
        self.set_game(&GameSpec::of::<Tak>(&settings).to_string(), None)
    }
}
