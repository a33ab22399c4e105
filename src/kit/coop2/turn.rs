//! A Cooperative Chess 2 action applied: a card drawn, played to the line, a quiet move, a
//! capture the line allows (a king's ends the game), the turn's end.

use super::*;

impl Coop2 {
    /// A card drawn: to the line (the solitaire's draw, a king with `kings=line`) or to the
    /// drawing seat's hand; dealing and refilling end with full hands or an empty pile.
    fn draw(&mut self, card: char) -> Result<Event, String> {
        take_card(&mut self.deck, card).ok_or("not in the draw pile")?;
        let king = card.eq_ignore_ascii_case(&'K');
        match self.phase {
            Phase::DrawLine => {
                self.line.push(card);
                self.phase = Phase::Quiet;
            }
            Phase::Deal(s) | Phase::Refill(s) => {
                if king && self.rules.kings_to_line {
                    self.line.push(card);
                } else {
                    self.hands[s].push(card);
                }
                let full = self.hands[s].len() >= 2 || self.deck.is_empty();
                if full {
                    match self.phase {
                        Phase::Deal(0) => self.phase = Phase::Deal(1),
                        Phase::Deal(_) => {
                            self.phase = Phase::Play;
                        }
                        _ => self.next_turn(),
                    }
                }
            }
            _ => {}
        }
        let to_line = king && self.rules.kings_to_line || self.phase == Phase::Quiet;
        Ok(Event::Drawn(card, to_line))
    }

    /// The capture of a king by step `m` (legal: checked by `Table::act`) with line card `x`: the capturer takes the
    /// king's square (rules §4) and the game ends at once, so its own king may be left
    /// attacked.
    fn take_king(mut self, c: Color, m: Step, x: usize, pr: Option<Promo>, card: char) -> Result<Coop2, String> {
        self.check_promo(c, m, pr, Some(x))?;
        let next = &mut self;
        let (from, ksq) = (m.from, m.to);
        next.pos.take_off(ksq);
        let mut capturer = next.pos.take_off(from);
        match pr {
            // A pawn taking the king on the last rank promotes as any capture does.
            Some(pr) => {
                let kind = m.promo.ok_or("a promotion names its piece")?;
                next.apply_promo(c, kind, pr, Some(x));
                let k = next
                    .pos
                    .variant()
                    .pieces
                    .iter()
                    .position(|p| p.letter.eq_ignore_ascii_case(&kind))
                    .ok_or("no such piece")?;
                capturer = Piece::new(k, c);
            }
            None => {
                next.line.remove(x - 1);
                next.discard.push(card);
            }
        }
        next.pos.put_piece(capturer, ksq);
        next.finish(true);
        Ok(self)
    }
}

impl Coop2 {
    /// Applies `action` (see [`TableGame::apply`]); returns its event.
    pub(super) fn play(&mut self, action: &Action) -> Result<Event, String> {
        let c = self.turn();
        match (action, self.phase) {
            (Action::Draw(card), Phase::Deal(_) | Phase::Refill(_) | Phase::DrawLine) => self.draw(*card),
            (Action::Play(card), Phase::Play) => {
                let seat = self.seat_of(c);
                take_card(&mut self.hands[seat], *card).ok_or("not in hand")?;
                self.line.push(*card);
                self.phase = Phase::Quiet;
                Ok(Event::Played(*card))
            }
            (Action::Pass, Phase::Quiet) => {
                self.phase = Phase::Capture;
                Ok(Event::NoQuiet)
            }
            (Action::Quiet(m, pr), Phase::Quiet) => {
                // Checked first, so that nothing changes on error.
                self.check_promo(c, *m, *pr, None)?;
                self.play_move(*m)?;
                if let (Some(pr), Some(kind)) = (pr, m.promo) {
                    self.apply_promo(c, kind, *pr, None);
                }
                self.phase = Phase::Capture;
                Ok(Event::Moved(action.clone()))
            }
            (Action::Capture(m, x, pr), Phase::Capture) => {
                let card = self.line.get(x - 1).copied().ok_or("no such line card")?;
                if card.eq_ignore_ascii_case(&'K') {
                    let mut next = self.clone();
                    next.captures += 1;
                    *self = next.take_king(c, *m, *x, *pr, card)?;
                    return Ok(Event::Took(action.clone(), card, true));
                }
                self.check_promo(c, *m, *pr, Some(*x))?;
                self.play_move(*m)?;
                self.captures += 1;
                match (pr, m.promo) {
                    (Some(pr), Some(kind)) => self.apply_promo(c, kind, *pr, Some(*x)),
                    _ => {
                        self.line.remove(x - 1);
                        self.discard.push(card);
                    }
                }
                Ok(Event::Took(action.clone(), card, false))
            }
            (Action::End, Phase::Capture) => {
                self.after_turn();
                Ok(Event::TurnEnd)
            }
            _ => Err("illegal action".into()),
        }
    }
}
