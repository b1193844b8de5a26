//! What choosing an option does ([`Effect`]), as data, so the service can show exactly what
//! will happen before anyone chooses. Apart from the options so that an effect can be shown,
//! and enforced, on its own.

use std::fmt;

use crate::cards::{Card, Suit};
use crate::penalty::PenaltyCardKind;
use crate::seat::{Seat, Side};

use super::{PlayRequirement, Suits};

/// One effect of choosing an option, as data (so the service can show exactly what will
/// happen, and log what did).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The card stands as a correct lead (Law 53A).
    LeadStands {
        /// The hand the card was led from.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// Declarer spreads his hand as dummy; his partner becomes declarer (Law 54).
    DeclarerBecomesDummy {
        /// The new declarer.
        declarer: Seat,
    },
    /// The card goes back to its hand with no further rectification.
    CardReturned {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The card becomes a penalty card (Law 50).
    PenaltyCard {
        /// The defender who owns it.
        owner: Seat,
        /// The card.
        card: Card,
        /// Major or minor (Law 50B).
        kind: PenaltyCardKind,
    },
    /// The owner's penalty cards in these suits are picked up and are no longer penalty cards
    /// (Law 50D2(a), Law 51B).
    PenaltyCardsPickedUp {
        /// The defender who owned them.
        owner: Seat,
        /// The suits picked up.
        suits: Suits,
    },
    /// The player must lead this suit if he can (Law 59 otherwise).
    LeadRequired {
        /// The leader.
        player: Seat,
        /// The suit.
        suit: Suit,
    },
    /// The player may not lead these suits while he retains the lead.
    LeadForbidden {
        /// The leader.
        player: Seat,
        /// The suits.
        suits: Suits,
    },
    /// The player may lead any card.
    LeadFree {
        /// The leader.
        player: Seat,
    },
    /// Declarer must lead, from this hand (Law 55B).
    MustLeadFrom {
        /// The hand (declarer's or dummy's).
        seat: Seat,
    },
    /// The player must comply with this requirement at his turn to the current trick (Law 57,
    /// Law 59 if he cannot).
    PlayRequired {
        /// The player.
        player: Seat,
        /// What he must do.
        requirement: PlayRequirement,
    },
    /// The card played stands (Law 52B1).
    PlayStands {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The card is played to the current trick in place of the one withdrawn (Law 52B2,
    /// Law 50D1(a)).
    CardPlayed {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The offender must substitute a legal card for the revoke card (Law 62B).
    SubstituteLegalCard {
        /// The offender.
        seat: Seat,
    },
    /// The player substitutes another card for the one he withdrew, without further
    /// rectification (duplicate Law 47D, rubber Law 47C).
    SubstituteCard {
        /// The player.
        seat: Seat,
    },
    /// The offending side may not use what the withdrawn cards showed (rubber Law 47 footnote;
    /// duplicate Law 16C2; Club Law 47: the Arbiter may adjust the score if it gave substantial
    /// information).
    InformationUnauthorized {
        /// The side for which the information is unauthorised.
        side: Side,
    },
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::LeadStands { seat, card } => write!(f, "{seat}'s {card} stands as the lead"),
            Effect::DeclarerBecomesDummy { declarer } => write!(f, "{declarer} becomes declarer"),
            Effect::CardReturned { seat, card } => write!(f, "the {card} returns to {seat}'s hand"),
            Effect::PenaltyCard { owner, card, kind } => {
                let kind = match kind {
                    PenaltyCardKind::Major => "major",
                    PenaltyCardKind::Minor => "minor",
                };
                write!(f, "{owner}'s {card} becomes a {kind} penalty card")
            }
            Effect::PenaltyCardsPickedUp { owner, suits } => write!(f, "{owner} picks up his penalty cards in {suits}"),
            Effect::LeadRequired { player, suit } => write!(f, "{player} must lead {suit} if he can"),
            Effect::LeadForbidden { player, suits } => {
                write!(f, "{player} may not lead {suits} while he retains the lead")
            }
            Effect::LeadFree { player } => write!(f, "{player} may lead any card"),
            Effect::MustLeadFrom { seat } => write!(f, "declarer must lead from {seat}'s hand"),
            Effect::PlayRequired { player, requirement } => write!(f, "{player} must {requirement}"),
            Effect::PlayStands { seat, card } => write!(f, "{seat}'s {card} stands"),
            Effect::CardPlayed { seat, card } => write!(f, "{seat}'s {card} is played"),
            Effect::SubstituteLegalCard { seat } => write!(f, "{seat} substitutes a legal card"),
            Effect::SubstituteCard { seat } => write!(f, "{seat} plays another card"),
            Effect::InformationUnauthorized { side } => {
                write!(f, "{side} may not use what the withdrawn cards showed")
            }
        }
    }
}
