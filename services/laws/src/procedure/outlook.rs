//! What a table needs next for its next rubber, as it stands now ([`Outlook`]): asked without
//! changing the room, so that a desk can be told the draw the rules call for before anyone draws
//! (rules B and E, Law 3).

use super::{DrawNeeded, LineUp, Phase, Room, Table, TableId, lineup};
use crate::draw::PlayerId;

/// Where a table stands on the way to its next rubber.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outlook {
    /// A rubber is being played by these four (Law 1).
    Playing {
        /// The four.
        playing: [PlayerId; 4],
    },
    /// Fewer than four members can play (rule A: a table plays with four to six members, and
    /// rule B counts only members present when the draw starts).
    ShortOfPlayers {
        /// Members present to play.
        present: usize,
    },
    /// The draw the rules call for next (rule E, or Law 3 for the partnerships), with the
    /// members who may play the rubber (rule B: those present when its draw starts, or now if it
    /// has not started).
    Draw {
        /// The draw.
        needed: DrawNeeded,
        /// Who may play the rubber.
        eligible: Vec<PlayerId>,
        /// The line-up, when it is settled and only the partnerships remain to be drawn.
        line_up: Option<LineUp>,
        /// Whether the rubber's draw has started (rule B: a card has been duly drawn).
        started: bool,
    },
    /// The line-up is settled and the partnerships need no draw: a pivot table's rotation gives
    /// them (Appendix 4 B).
    Ready {
        /// Who plays and who sits out.
        line_up: LineUp,
        /// Whether the rubber's draw has started (rule B).
        started: bool,
    },
}

impl Room {
    /// What `table` needs next for its next rubber (see [`Outlook`]); `None` if there is no such
    /// table. A table between rubbers is asked as if its draw started now (rule B: the members
    /// present now would be the ones who may play), without starting it.
    pub fn outlook(&self, table: TableId) -> Option<Outlook> {
        let t = self.tables.get(&table)?;
        let (lining_up, started) = match &t.phase {
            Phase::Playing { playing, .. } => return Some(Outlook::Playing { playing: *playing }),
            Phase::LiningUp { .. } => (std::borrow::Cow::Borrowed(t), true),
            Phase::BetweenRubbers => {
                let eligible: Vec<PlayerId> = t.present_members().collect();
                if eligible.len() < 4 {
                    return Some(Outlook::ShortOfPlayers { present: eligible.len() });
                }
                let probe = Table { phase: Phase::LiningUp { eligible, draws: Vec::new() }, ..t.clone() };
                (std::borrow::Cow::Owned(probe), false)
            }
        };
        let eligible = lining_up.eligible().to_vec();
        Some(match lineup::resolve(self, &lining_up)? {
            Err(needed) => Outlook::Draw { needed, eligible, line_up: None, started },
            Ok(line_up) => match lining_up.usable_pivot(&line_up.playing) {
                Some(_) => Outlook::Ready { line_up, started },
                None => Outlook::Draw {
                    needed: DrawNeeded {
                        table: Some(table),
                        purpose: super::DrawPurpose::Partnerships,
                        players: line_up.playing.to_vec(),
                    },
                    eligible,
                    line_up: Some(line_up),
                    started,
                },
            },
        })
    }
}
