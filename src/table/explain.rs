//! Why an action is refused, in one line, for any table game: from the legal actions and what
//! the acting seat sees (never the true state, so a reason cannot leak a hidden piece).

/// The reason `text` (parsed, but not legal) is refused, given the legal actions, the kind of
/// action asked and the actor's observation (its first word, if a FEN placement, is the board).
pub fn refusal(text: &str, legal: &[String], asked: &str, observation: &str) -> String {
    let verb = |a: &str| {
        if is_move(a) {
            ""
        } else {
            a.split(' ').next().unwrap_or("")
        }
        .to_string()
    };
    let same: Vec<&String> = legal.iter().filter(|a| verb(a) == verb(text)).collect();
    if legal.is_empty() {
        return "nothing may be done now".into();
    }
    if same.is_empty() {
        return format!("the question now is '{asked}': {}", sample(legal.iter()));
    }
    if is_move(text) {
        let placement = observation.split_whitespace().next().unwrap_or("");
        if let Some(board) = Board::parse(placement) {
            return board.why_not(text, &same);
        }
    }
    format!("not allowed now; allowed: {}", sample(same.into_iter()))
}

/// Up to eight actions, then how many more.
fn sample<'a>(actions: impl ExactSizeIterator<Item = &'a String>) -> String {
    let n = actions.len();
    let shown: Vec<&str> = actions.take(8).map(String::as_str).collect();
    if n > shown.len() {
        format!("{} (and {} more)", shown.join(", "), n - shown.len())
    } else {
        shown.join(", ")
    }
}

/// A move in coordinates: two squares, then maybe a promotion letter (`e2e4`, `e7e8q`, `a10b10`).
fn is_move(text: &str) -> bool {
    squares(text).is_some_and(|(_, _, rest)| rest.len() <= 1 && rest.chars().all(|c| c.is_ascii_alphabetic()))
}

/// The two squares a move's text starts with, and the rest.
fn squares(text: &str) -> Option<(&str, &str, &str)> {
    let square_end = |s: &str| {
        let b = s.as_bytes();
        if b.is_empty() || !b[0].is_ascii_lowercase() {
            return None;
        }
        let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        (digits > 0).then_some(1 + digits)
    };
    let a = square_end(text)?;
    let b = square_end(&text[a..])?;
    Some((&text[..a], &text[a..a + b], &text[a + b..]))
}

/// A board read from a FEN placement: square name -> letter.
struct Board {
    cells: Vec<(String, char)>,
}

impl Board {
    fn parse(placement: &str) -> Option<Board> {
        if !placement.contains('/') {
            return None;
        }
        let rows: Vec<&str> = placement.split('/').collect();
        let mut cells = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let rank = rows.len() - i;
            let (mut file, mut run) = (0usize, 0usize);
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as usize;
                    continue;
                }
                file += run;
                run = 0;
                if file >= 26 {
                    return None;
                }
                cells.push((format!("{}{rank}", (b'a' + file as u8) as char), c));
                file += 1;
            }
        }
        Some(Board { cells })
    }

    fn at(&self, square: &str) -> Option<char> {
        self.cells.iter().find(|(s, _)| s == square).map(|&(_, c)| c)
    }

    /// Why the move `text` is not among the legal moves `legal`.
    fn why_not(&self, text: &str, legal: &[&String]) -> String {
        let Some((from, to, _)) = squares(text) else {
            return "not a move".into();
        };
        let Some(piece) = self.at(from).filter(|c| c.is_ascii_alphabetic()) else {
            return format!("{from} is empty");
        };
        let name = piece_name(piece);
        let dests: Vec<&str> = legal
            .iter()
            .filter_map(|m| squares(m))
            .filter(|(f, _, _)| *f == from)
            .map(|(_, t, _)| t)
            .fold(Vec::new(), |mut v, t| {
                if !v.contains(&t) {
                    v.push(t);
                }
                v
            });
        if dests.contains(&to) {
            let ways: Vec<&str> = legal
                .iter()
                .filter(|m| m.starts_with(&format!("{from}{to}")))
                .map(|m| m.as_str())
                .collect();
            return format!("{from}{to} is played as {}", ways.join(" or "));
        }
        if !dests.is_empty() {
            return format!("the {name} on {from} may go to {} only", dests.join(", "));
        }
        // Whose pieces move: the side of the pieces on the legal moves' first squares.
        let mine = legal
            .iter()
            .filter_map(|m| squares(m))
            .filter_map(|(f, _, _)| self.at(f))
            .find(|c| c.is_ascii_alphabetic())
            .map(|c| c.is_ascii_uppercase());
        match mine {
            Some(white) if white != piece.is_ascii_uppercase() => {
                format!(
                    "{from} holds a {} {name}: not yours to move",
                    if white { "black" } else { "white" }
                )
            }
            _ => format!("the {name} on {from} has no legal move now"),
        }
    }
}

/// A piece letter's name (the chess names; other letters by their letter).
fn piece_name(c: char) -> String {
    match c.to_ascii_lowercase() {
        'k' => "king".into(),
        'q' => "queen".into(),
        'r' => "rook".into(),
        'b' => "bishop".into(),
        'n' => "knight".into(),
        'p' => "pawn".into(),
        'c' => "cloaked piece".into(),
        _ => format!("piece {c}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn moves_are_explained_from_the_board_seen() {
        let legal = v(&["e2e3", "e2e4", "g1f3", "g1h3"]);
        assert_eq!(
            refusal("e2e5", &legal, "move", START),
            "the pawn on e2 may go to e3, e4 only"
        );
        assert_eq!(refusal("e4e5", &legal, "move", START), "e4 is empty");
        assert_eq!(
            refusal("e7e5", &legal, "move", START),
            "e7 holds a black pawn: not yours to move"
        );
        assert_eq!(
            refusal("f1c4", &legal, "move", START),
            "the bishop on f1 has no legal move now"
        );
        let promo = v(&["a7a8q", "a7a8n"]);
        assert_eq!(
            refusal("a7a8k", &promo, "move", "8/P7/8/8/8/8/8/k6K w - - 0 1"),
            "a7a8 is played as a7a8q or a7a8n"
        );
    }

    #[test]
    fn other_actions_name_the_question_or_the_allowed_ones() {
        let cards = v(&["card B", "card C", "card K"]);
        assert_eq!(
            refusal("e2e4", &cards, "predict", START),
            "the question now is 'predict': card B, card C, card K"
        );
        let removes = v(&["remove a2", "remove b2"]);
        assert_eq!(
            refusal("remove e1", &removes, "remove", START),
            "not allowed now; allowed: remove a2, remove b2"
        );
        let many: Vec<String> = (1..=10).map(|i| format!("mark a{i}")).collect();
        assert_eq!(
            refusal("mark z1", &many, "mark", START),
            "not allowed now; allowed: mark a1, mark a2, mark a3, mark a4, mark a5, mark a6, mark a7, mark a8 (and 2 more)"
        );
        assert_eq!(refusal("pass", &[], "move", START), "nothing may be done now");
    }

    #[test]
    fn squares_read_large_boards() {
        assert_eq!(squares("a10b10q"), Some(("a10", "b10", "q")));
        assert!(is_move("e7e8q") && is_move("a10b10") && !is_move("mark e4") && !is_move("e2"));
        let b = Board::parse("10/9p").unwrap();
        assert_eq!(b.at("j1"), Some('p'));
        assert_eq!(b.at("a2"), None);
    }
}
