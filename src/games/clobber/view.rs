//! How Clobber presents itself: the default board and from-to moves, and the result in
//! words.

use crate::game::{Game, Outcome};
use crate::view::{title, Ending, GameView, Pieces, Preset, Style};

use super::Clobber;

impl GameView for Clobber {
    const STYLE: Style = Style {
        checkered: true,
        pieces: Pieces::Discs,
        kinds: &[],
    };

    const PRESETS: &'static [Preset] = &[("clobber 5x6", &[("rows", 5), ("cols", 6)])];

    const HOW_TO_MOVE: &'static str = "Drag (or click) one of your stones onto an orthogonally adjacent enemy stone to capture it; who cannot capture loses.";

    fn ending(&self) -> Option<Ending> {
        let words = match self.outcome()? {
            Outcome::Win(side) => format!(
                "{} wins: {} has no capture left",
                title(Clobber::side_name(side)),
                title(Clobber::side_name(side.other()))
            ),
            Outcome::Draw => "Draw".to_string(),
        };
        Some(Ending {
            words,
            squares: Vec::new(),
            path: false,
        })
    }
}
