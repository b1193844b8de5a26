//! Obligations an auction irregularity leaves for the play: lead penalties (Law 26) and
//! penalty cards (Law 24, Law 50). They are produced by [`crate::auction`] (and its
//! irregularities) and enforced by [`crate::play`], so both sides share these types.

use crate::cards::{Card, Suit};
use crate::law::Law;
use crate::seat::Seat;

/// A lead penalty pending against a player who may become a defender (Law 26; applies only
/// if the offender's partner becomes a defender).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LeadPenalty {
    /// Law 26A: declarer may require or forbid the lead of the named suit(s) the first time
    /// the player has the lead (the opening lead included); a prohibition lasts as long as the
    /// player retains the lead. Declarer chooses when that lead comes (footnote 7).
    RequireOrForbid(Vec<Suit>),
    /// Law 26B: declarer may forbid the lead of any one suit of his choice the first time the
    /// player has the lead; the prohibition lasts as long as the player retains the lead.
    ForbidAnyOneSuit,
    /// Law 26B of the 2017 duplicate Laws: at the player's first turn to lead (which may be the
    /// opening lead) declarer may forbid the lead of any one of these suits: those the offender
    /// did not specify in the legal auction. The prohibition lasts as long as the player
    /// retains the lead. Never empty (if the offender specified every suit there is nothing to
    /// forbid and no restriction is carried).
    ForbidOneOf(Vec<Suit>),
}

/// A lead penalty and the player it binds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PendingLeadPenalty {
    /// The offender's partner: the player whose lead is restricted.
    pub player: Seat,
    /// What declarer may require or forbid.
    pub penalty: LeadPenalty,
    /// The Law that imposed it (26A or 26B, reached from 27, 30-32, 36-39, 25B).
    pub law: Law,
}

/// Whether a penalty card is major or minor (Law 50 of both codes): a single card below
/// honor rank exposed inadvertently is minor; an honor, a card exposed deliberately, or any
/// card when more than one is exposed, is major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PenaltyCardKind {
    /// A major penalty card: an honor, or a card exposed deliberately (Law 50; duplicate 50B).
    Major,
    /// A minor penalty card: a single card below honor rank exposed inadvertently (Law 50;
    /// duplicate 50C).
    Minor,
}

/// A defender's card that must stay face up and be played at the first legal opportunity
/// (Law 50, Law 52), with the lead obligations Law 50D/51 give declarer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PenaltyCard {
    /// The card.
    pub card: Card,
    /// The defender who owns it.
    pub owner: Seat,
    /// Major or minor (Law 50B/C).
    pub kind: PenaltyCardKind,
    /// The Law that made it a penalty card (24 during the auction; 49-50, 57 during the play).
    pub law: Law,
}
