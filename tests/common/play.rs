//! Plays moves on a bare position of any variant, checking what every move must keep true.

use menagerie::games::{self, GameVisitor};
use menagerie::{Game, Position, Rules, default_variants};
use std::sync::Arc;

/// Plays MMN `moves` from `fen`; returns the FEN after each move. Checks the incremental key
/// and material after each move and that unmaking everything restores the start exactly.
struct Play {
    fen: &'static str,
    moves: &'static [&'static str],
}

impl GameVisitor for Play {
    type Output = Result<Vec<String>, String>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Self::Output {
        let mut pos = Position::from_fen(game, self.fen).map_err(|e| e.to_string())?;
        let start = (pos.fen(), pos.key());
        let mut out = Vec::new();
        for text in self.moves {
            let m = menagerie::notation::parse_move(&mut pos, text).map_err(|e| e.to_string())?;
            pos.make_move(m);
            assert_eq!(pos.key(), pos.compute_key(), "key after {text}");
            assert_eq!(pos.psq_incremental(), pos.psq_from_scratch(), "material after {text}");
            out.push(pos.fen());
        }
        for _ in self.moves {
            pos.unmake_move();
        }
        assert_eq!((pos.fen(), pos.key()), start, "unmake did not restore the start");
        Ok(out)
    }
}

/// [`Play`] in the named variant of the built-in `engine.ini`; panics on an illegal move.
pub fn play(variant: &str, fen: &'static str, moves: &'static [&'static str]) -> Vec<String> {
    let set = default_variants();
    games::dispatch(set.get(variant).unwrap(), Play { fen, moves }).unwrap()
}
