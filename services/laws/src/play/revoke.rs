//! Revokes (Laws 61-64; rubber Law 43C and duplicate Law 43B2(b) for dummy; Club Law 64).
//!
//! A revoke is a failure to follow suit, or to lead or play, when able, a card or suit the Laws
//! or an opponent's choice in rectification require (Law 61A). At a real table it is a fact
//! that stands until attention is drawn to it: before it is established the offender must
//! correct it (Law 62); once established (Law 63) the trick stands, and at the end of play
//! tricks are transferred (Law 64). [`revoke_transfer`] computes that transfer from the facts,
//! exactly as each code words it.

use std::fmt;

use crate::cards::{Card, CardSet, Suit};
use crate::irregularities::play::{PlayRequirement, Seats, Situation, Suits};
use crate::law::{Code, Law};
use crate::penalty::{PenaltyCard, PenaltyCardKind};
use crate::seat::{Seat, Side};

use super::record::{DrawnBy, Events};
use super::{Play, PlayError};

/// What a revoking player failed to do (Law 61A).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Failure {
    /// He did not follow suit although he could (Law 44C).
    FollowSuit {
        /// The suit led.
        suit: Suit,
        /// The Law.
        law: Law,
    },
    /// He did not lead the suit declarer required although he could (Law 26, 50D2, 51B).
    LeadRequired {
        /// The suit required.
        suit: Suit,
        /// The Law that imposed the requirement.
        law: Law,
    },
    /// He led a suit declarer forbade although he held another (Law 26, 50D2, 51B).
    LeadForbidden {
        /// The suit he led.
        suit: Suit,
        /// The Law that imposed the prohibition.
        law: Law,
    },
    /// He did not comply with declarer's requirement on his play although he could (Law 57A).
    PlayRequirement {
        /// The requirement.
        requirement: PlayRequirement,
        /// The suit concerned.
        suit: Suit,
        /// The Law.
        law: Law,
    },
    /// He did not play a penalty card when the Law required it (Law 50C-D; Law 52 applies).
    PenaltyCard {
        /// The penalty card.
        card: Card,
        /// Whether it was a minor penalty card (Law 50C).
        minor: bool,
        /// The Law.
        law: Law,
    },
}

impl Failure {
    /// The suit the failure concerns: the suit he failed to play, or the forbidden suit he
    /// led. Two revokes "in the same suit by the same player" (Law 64B2 duplicate, 64D2
    /// rubber) are compared by this suit.
    pub const fn suit(&self) -> Suit {
        match self {
            Failure::FollowSuit { suit, .. }
            | Failure::LeadRequired { suit, .. }
            | Failure::LeadForbidden { suit, .. }
            | Failure::PlayRequirement { suit, .. } => *suit,
            Failure::PenaltyCard { card, .. } => card.suit,
        }
    }

    /// The Law that created the obligation.
    pub const fn law(&self) -> Law {
        match self {
            Failure::FollowSuit { law, .. }
            | Failure::LeadRequired { law, .. }
            | Failure::LeadForbidden { law, .. }
            | Failure::PlayRequirement { law, .. }
            | Failure::PenaltyCard { law, .. } => *law,
        }
    }

    /// Whether it was a failure to play a penalty card (Law 52; no automatic transfer, Law
    /// 64B3 duplicate, 64D3 rubber).
    pub const fn is_penalty_card(&self) -> bool {
        matches!(self, Failure::PenaltyCard { .. })
    }

    /// The refusal digital play gives for `card`.
    pub(crate) fn refusal(&self, seat: Seat, card: Card) -> PlayError {
        match *self {
            Failure::FollowSuit { suit, law } => PlayError::MustFollowSuit { seat, card, suit, law },
            Failure::LeadRequired { suit, law } => PlayError::LeadRequired { seat, card, suit, law },
            Failure::LeadForbidden { suit, law } => PlayError::LeadForbidden { seat, card, suit, law },
            Failure::PlayRequirement { requirement, law, .. } => {
                PlayError::PlayRestricted { seat, card, requirement, law }
            }
            Failure::PenaltyCard { card: penalty, minor: false, law } => {
                PlayError::PenaltyCardMustBePlayed { seat, card, penalty, law }
            }
            Failure::PenaltyCard { card: penalty, minor: true, law } => {
                PlayError::MinorPenaltyCardFirst { seat, card, penalty, law }
            }
        }
    }
}

/// Where a revoke stands (Laws 62-63).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RevokeStatus {
    /// Committed; neither the offender nor his partner has played to a later trick (Law 63A).
    Unestablished,
    /// Established (Law 63): the trick stands as played.
    Established,
    /// Corrected (Law 62; Law 52B for a penalty card; a twelfth-trick revoke, Law 62D).
    Corrected,
    /// A card played instead of a penalty card that declarer accepted (Law 52B1).
    Accepted,
}

/// When attention was first drawn to a revoke, which decides whether Law 64 still transfers
/// tricks (Law 64B4-5 duplicate, 64D4 rubber).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Attention {
    /// During the play.
    DuringPlay,
    /// After the play, in time.
    AfterPlay,
    /// After all four players abandoned their hands and let the cards be mixed (too late in
    /// rubber bridge, Law 64D4; in duplicate only the next two matter).
    AfterCardsMixed,
    /// After a member of the non-offending side called on the next deal (duplicate Law 64B4).
    AfterNextDealCall,
    /// After the round ended (duplicate Law 64B5).
    AfterRoundEnded,
}

/// A revoke committed in this play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Revoke {
    /// The hand that revoked (dummy's seat for a card played from dummy).
    pub offender: Seat,
    /// The trick (0-12).
    pub trick: u8,
    /// The card played.
    pub card: Card,
    /// What he failed to do.
    pub failure: Failure,
    /// Where it stands.
    pub status: RevokeStatus,
    /// When attention was first drawn to it, if it has been.
    pub attention: Option<Attention>,
    /// Whether the card came from a hand lying face up (dummy's, a claimer's; rubber Law 64D3,
    /// duplicate Law 62B2).
    pub from_faced_hand: bool,
    /// Whether dummy, having forfeited his rights, was first to ask declarer about it (rubber
    /// Law 43C, duplicate Law 43B2(b)).
    pub asked_by_dummy_out_of_rights: bool,
}

impl Revoke {
    /// The facts [`revoke_transfer`] needs.
    pub fn facts(&self) -> RevokeFacts {
        RevokeFacts {
            offender: self.offender,
            trick: self.trick,
            suit: self.failure.suit(),
            failed_penalty_card: self.failure.is_penalty_card(),
            from_faced_hand: self.from_faced_hand,
            established: self.status == RevokeStatus::Established,
            attention: self.attention,
            asked_by_dummy_out_of_rights: self.asked_by_dummy_out_of_rights,
        }
    }
}

/// What Law 64 needs to know about one revoke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RevokeFacts {
    /// The hand that revoked.
    pub offender: Seat,
    /// The trick (0-12).
    pub trick: u8,
    /// The suit concerned (see [`Failure::suit`]).
    pub suit: Suit,
    /// A failure to play a penalty card (duplicate Law 64B3, rubber 64D3).
    pub failed_penalty_card: bool,
    /// A card from a hand faced on the table (rubber Law 64D3; dummy's hand always is).
    pub from_faced_hand: bool,
    /// Established (Law 63); otherwise it was corrected.
    pub established: bool,
    /// When attention was first drawn to it; `None` if nobody did (then no transfer).
    pub attention: Option<Attention>,
    /// Dummy, having forfeited his rights, was first to ask declarer about it (rubber Law 43C:
    /// one trick; duplicate Law 43B2(b): Law 64 as if established).
    pub asked_by_dummy_out_of_rights: bool,
}

/// Why an established revoke transfers no trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exemption {
    /// The offending side won neither the revoke trick nor any later trick (duplicate 64B1,
    /// rubber 64D1).
    NoTrickWon,
    /// A later revoke in the same suit by the same player (duplicate 64B2, after the first was
    /// established; rubber 64D2).
    SubsequentRevokeSameSuit,
    /// A failure to play a penalty card or a card of dummy's (duplicate 64B3), or any card
    /// faced on the table or belonging to a faced hand (rubber 64D3).
    FacedCard,
    /// Attention first drawn after the cards were mixed (rubber 64D4).
    AfterCardsMixed,
    /// Attention first drawn after a non-offender called on the next deal (duplicate 64B4).
    AfterNextDealCall,
    /// Attention first drawn after the round ended (duplicate 64B5).
    AfterRoundEnded,
    /// A revoke on the twelfth trick (duplicate 64B6, rubber 64D5): corrected instead.
    TwelfthTrick,
    /// Both sides made established revokes on the board (duplicate 64B7).
    BothSidesRevoked,
}

impl Exemption {
    /// The Law that gives the exemption in `code`.
    pub const fn law(self, code: Code) -> Law {
        match code {
            Code::Duplicate => Law::duplicate(
                64,
                match self {
                    Exemption::NoTrickWon => "B1",
                    Exemption::SubsequentRevokeSameSuit => "B2",
                    Exemption::FacedCard => "B3",
                    Exemption::AfterNextDealCall | Exemption::AfterCardsMixed => "B4",
                    Exemption::AfterRoundEnded => "B5",
                    Exemption::TwelfthTrick => "B6",
                    Exemption::BothSidesRevoked => "B7",
                },
            ),
            _ => Law::rubber(
                64,
                match self {
                    Exemption::NoTrickWon => "D1",
                    Exemption::SubsequentRevokeSameSuit => "D2",
                    Exemption::FacedCard => "D3",
                    Exemption::AfterCardsMixed | Exemption::AfterNextDealCall | Exemption::AfterRoundEnded => "D4",
                    Exemption::TwelfthTrick => "D5",
                    Exemption::BothSidesRevoked => "D",
                },
            ),
        }
    }
}

impl fmt::Display for Exemption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Exemption::NoTrickWon => "the offending side won neither the revoke trick nor any later trick",
            Exemption::SubsequentRevokeSameSuit => "a later revoke in the same suit by the same player",
            Exemption::FacedCard => "a failure to play a card faced on the table",
            Exemption::AfterCardsMixed => "attention was drawn after the cards were mixed",
            Exemption::AfterNextDealCall => "attention was drawn after a non-offender called on the next deal",
            Exemption::AfterRoundEnded => "attention was drawn after the round ended",
            Exemption::TwelfthTrick => "a revoke on the twelfth trick",
            Exemption::BothSidesRevoked => "both sides made established revokes",
        })
    }
}

/// The ruling on one revoke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RevokeRuling {
    /// Index of the revoke in the facts given.
    pub revoke: usize,
    /// Tricks transferred to the non-offending side (0, 1 or 2).
    pub tricks: u8,
    /// The Law applied (64A1, 64A2, 64A-C, 43C, or the exemption's).
    pub law: Law,
    /// Why no trick is transferred, if none is.
    pub exemption: Option<Exemption>,
}

/// The automatic trick adjustment of Law 64 after the play, for all revokes of a deal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct RevokeTransfer {
    /// One ruling per revoke the Law acts on (established and pointed out in time, or
    /// corrected after dummy asked out of his rights).
    pub rulings: Vec<RevokeRuling>,
    /// Tricks transferred to each side, by [`Side::index`].
    pub to: [u8; 2],
    /// When any established revoke occurred, the Law under which equity may still require more
    /// (duplicate Law 64C: the Director assigns an adjusted score; rubber Law 64: the offenders
    /// should transfer more tricks; Club Law 64: the Arbiter adjusts). The transfer is a floor,
    /// not a cap.
    pub equity: Option<Law>,
    /// Of `to`, the tricks entered to restore equity ([`Play::equity_restored`]).
    pub restored: [u8; 2],
}

/// The tricks won, with the ones credited by a claim, in the order the Law scans them.
struct Tricks<'a> {
    winners: &'a [Seat],
    claimed: [u8; 2],
    taken: [bool; 13],
    claimed_taken: [u8; 2],
}

impl Tricks<'_> {
    fn won_by(&self, trick: usize, side: Side) -> bool {
        self.winners.get(trick).is_some_and(|w| w.side() == side)
    }

    fn won_after(&self, trick: usize, side: Side) -> bool {
        (trick + 1..self.winners.len()).any(|k| self.won_by(k, side)) || self.claimed[side.index()] > 0
    }

    fn take(&mut self, trick: usize) -> u8 {
        if trick < self.winners.len() && !self.taken[trick] {
            self.taken[trick] = true;
            1
        } else {
            0
        }
    }

    /// Takes the first trick after `trick` won by `side` not already transferred, playing
    /// order first, then the tricks a claim credited.
    fn take_after(&mut self, trick: usize, side: Side) -> u8 {
        if let Some(k) = (trick + 1..self.winners.len()).find(|k| self.won_by(*k, side) && !self.taken[*k]) {
            self.taken[k] = true;
            return 1;
        }
        if self.claimed_taken[side.index()] < self.claimed[side.index()] {
            self.claimed_taken[side.index()] += 1;
            return 1;
        }
        0
    }
}

/// The automatic trick adjustment of Law 64 for the revokes of one deal, as worded in `code`.
///
/// - `declarer`: the declarer (a trick won in dummy is not won by declarer: duplicate Law 64
///   footnote 19, rubber footnote 26).
/// - `winners`: the winner of each trick played, in order.
/// - `claimed`: the tricks a claim or concession credited to each side after the last trick
///   played (they count as won, Law 69A).
/// - `revokes`: every revoke of the deal in the order committed, established or corrected.
///
/// Duplicate (2017): if the offending player won the revoke trick, that trick and one later
/// trick won by the offending side (64A1); otherwise one trick if the offending side won the
/// revoke trick or any later one (64A2); none in the cases of 64B.
/// Rubber (2014): the revoke trick and one later trick if the offending player won it (64A),
/// the revoke trick if his partner won it (64B), the first later trick won by the offending
/// side if the non-offenders won it (64C); none in the cases of 64D. Dummy, out of his rights,
/// first asking about declarer's revoke costs one trick unless 64D applies (Law 43C).
///
/// A trick already transferred for one revoke is not transferred again for another.
pub fn revoke_transfer(
    code: Code,
    declarer: Seat,
    winners: &[Seat],
    claimed: [u8; 2],
    revokes: &[RevokeFacts],
) -> RevokeTransfer {
    let duplicate = code == Code::Duplicate;
    let dummy = declarer.partner();
    // A deal has thirteen tricks; anything past them is not a trick of this deal.
    let winners = &winners[..winners.len().min(13)];
    let mut tricks = Tricks { winners, claimed, taken: [false; 13], claimed_taken: [0; 2] };
    let mut transfer = RevokeTransfer::default();
    let both_sides = Side::ALL.iter().all(|side| revokes.iter().any(|r| r.established && r.offender.side() == *side));
    for (i, revoke) in revokes.iter().enumerate() {
        let Some(attention) = revoke.attention else {
            continue;
        };
        // Duplicate Law 43B2(b): "as if the revoke had been established"; rubber Law 43C gives
        // its own one-trick penalty "unless Law 64D applies".
        let counts = revoke.established || revoke.asked_by_dummy_out_of_rights;
        if !counts {
            continue;
        }
        if revoke.established {
            transfer.equity = Some(match code {
                Code::Duplicate => Law::duplicate(64, "C1"),
                Code::Club => Law::club(64, ""),
                _ => Law::rubber(64, ""),
            });
        }
        let trick = revoke.trick as usize;
        let offending = revoke.offender.side();
        let won_any = tricks.won_by(trick, offending) || tricks.won_after(trick, offending);
        let earlier_same_suit = revokes[..i].iter().any(|earlier| {
            earlier.offender == revoke.offender
                && earlier.suit == revoke.suit
                && earlier.trick < revoke.trick
                && (earlier.established || !duplicate)
        });
        let faced = if duplicate {
            revoke.failed_penalty_card || revoke.offender == dummy
        } else {
            revoke.failed_penalty_card || revoke.from_faced_hand || revoke.offender == dummy
        };
        let late = match (duplicate, attention) {
            (_, Attention::DuringPlay | Attention::AfterPlay) => None,
            (true, Attention::AfterCardsMixed) => None,
            (true, Attention::AfterNextDealCall) => Some(Exemption::AfterNextDealCall),
            (true, Attention::AfterRoundEnded) => Some(Exemption::AfterRoundEnded),
            (false, _) => Some(Exemption::AfterCardsMixed),
        };
        // The exemptions in the order each Law lists them.
        let exemption = if duplicate {
            [
                (!won_any).then_some(Exemption::NoTrickWon),
                earlier_same_suit.then_some(Exemption::SubsequentRevokeSameSuit),
                faced.then_some(Exemption::FacedCard),
                late,
                (trick == 11).then_some(Exemption::TwelfthTrick),
                both_sides.then_some(Exemption::BothSidesRevoked),
            ]
        } else {
            [
                (!won_any).then_some(Exemption::NoTrickWon),
                earlier_same_suit.then_some(Exemption::SubsequentRevokeSameSuit),
                faced.then_some(Exemption::FacedCard),
                late,
                (trick == 11).then_some(Exemption::TwelfthTrick),
                None,
            ]
        }
        .into_iter()
        .flatten()
        .next();
        if let Some(exemption) = exemption {
            transfer.rulings.push(RevokeRuling {
                revoke: i,
                tricks: 0,
                law: exemption.law(code),
                exemption: Some(exemption),
            });
            continue;
        }
        let winner = winners.get(trick).copied();
        let (moved, law) = if !duplicate && revoke.asked_by_dummy_out_of_rights {
            let moved = if tricks.won_by(trick, offending) { tricks.take(trick) } else { 0 };
            let moved = if moved == 0 { tricks.take_after(trick, offending) } else { moved };
            (moved, Law::rubber(43, "C"))
        } else if winner == Some(revoke.offender) {
            let moved = tricks.take(trick) + tricks.take_after(trick, offending);
            (moved, if duplicate { Law::duplicate(64, "A1") } else { Law::rubber(64, "A") })
        } else if duplicate {
            let moved = if tricks.won_by(trick, offending) { tricks.take(trick) } else { 0 };
            let moved = if moved == 0 { tricks.take_after(trick, offending) } else { moved };
            (moved, Law::duplicate(64, "A2"))
        } else if tricks.won_by(trick, offending) {
            (tricks.take(trick), Law::rubber(64, "B"))
        } else {
            (tricks.take_after(trick, offending), Law::rubber(64, "C"))
        };
        transfer.to[offending.opponents().index()] += moved;
        transfer.rulings.push(RevokeRuling { revoke: i, tricks: moved, law, exemption: None });
    }
    transfer
}

impl Play {
    /// The automatic trick adjustment of Law 64 for this play's revokes (see
    /// [`revoke_transfer`]), counting the revokes attention was drawn to during or after the
    /// play. A revoke first pointed out later is ruled by calling [`revoke_transfer`] with
    /// [`Revoke::facts`] and the right [`Attention`].
    pub fn revoke_transfer(&self) -> RevokeTransfer {
        let mut transfer = self.automatic_revoke_transfer();
        self.add_equity_transfer(&mut transfer);
        transfer
    }

    /// Law 64's automatic adjustment alone, without the tricks entered to restore equity.
    pub(crate) fn automatic_revoke_transfer(&self) -> RevokeTransfer {
        let winners: Vec<Seat> = self.tricks[..self.completed as usize].iter().filter_map(|t| t.winner()).collect();
        let claimed = self.result().map_or([0; 2], |r| r.by_claim);
        let facts: Vec<RevokeFacts> = self
            .revokes
            .iter()
            .filter(|r| matches!(r.status, RevokeStatus::Established | RevokeStatus::Corrected))
            .map(Revoke::facts)
            .collect();
        revoke_transfer(self.code, self.declarer(), &winners, claimed, &facts)
    }

    /// Records that attention was drawn to `offender`'s revoke on `trick` (0-12), during or
    /// after the play (before the cards are mixed), and applies Law 62:
    /// - an unestablished revoke must be corrected: the card is withdrawn (a major penalty
    ///   card if it came from a defender's unfaced hand, Law 62B1), the non-offenders may
    ///   withdraw the cards they played after it (Law 62C1, a pending decision), and the
    ///   offender then substitutes a legal card; a failure to play a penalty card is Law 52
    ///   instead (declarer accepts the card, or requires the penalty card);
    /// - an established revoke stands (Law 63B) and is counted by [`Play::revoke_transfer`],
    ///   except on the twelfth trick, where it is corrected even though established (Law 62D
    ///   duplicate, Law 62 rubber).
    ///
    /// `by` says whether dummy, having forfeited his rights, was first to ask declarer (rubber
    /// Law 43C, duplicate 43B2(b)). Refused if there was no such revoke (Law 61A).
    pub fn draw_attention_to_revoke(&self, offender: Seat, trick: u8, by: DrawnBy) -> Result<Play, PlayError> {
        if let Some(situation) = &self.pending {
            return Err(PlayError::DecisionPending { situation: Box::new(situation.clone()), law: self.pending_law() });
        }
        let Some(index) = self.revokes.iter().position(|r| {
            r.offender == offender
                && r.trick == trick
                && matches!(r.status, RevokeStatus::Unestablished | RevokeStatus::Established)
        }) else {
            return Err(PlayError::NoRevoke { seat: offender, trick, law: self.cite(61, "", "A") });
        };
        if self.revokes[index].attention.is_some() {
            return Err(PlayError::RevokeAlreadyNoticed { seat: offender, trick, law: self.cite(61, "", "A") });
        }
        if by == DrawnBy::DummyOutOfRights && offender != self.declarer() {
            return Err(PlayError::CannotRecord {
                what: "dummy asking about a play other than from declarer's hand",
                law: self.cite(61, "", "B2"),
            });
        }
        let over = self.is_complete();
        let mut next = self.successor();
        let revoke = &mut next.revokes[index];
        revoke.attention = Some(if over { Attention::AfterPlay } else { Attention::DuringPlay });
        revoke.asked_by_dummy_out_of_rights = by == DrawnBy::DummyOutOfRights;
        let revoke = *revoke;
        let twelfth = revoke.trick == 11;
        let claimed = self.completed < 13 && over;
        match revoke.status {
            RevokeStatus::Established if !twelfth || claimed => return Ok(next),
            _ if self.is_suspended() || claimed => {
                return Err(PlayError::PlaySuspended { law: self.suspended_law() });
            }
            _ => {}
        }
        if let Some(other) = next.other_sides_revoke(index) {
            next.correct_both_revokes(index, other);
            return Ok(next);
        }
        if revoke.failure.is_penalty_card() && revoke.status == RevokeStatus::Unestablished {
            if next.declarer_played_since(&revoke) {
                // Law 52B1(b) duplicate, 52A rubber: declarer must accept.
                next.revokes[index].status = RevokeStatus::Accepted;
            } else {
                next.pending =
                    Some(Situation::PenaltyCardNotPlayed { offender, card: revoke.card, trick: revoke.trick });
            }
            return Ok(next);
        }
        next.correct_revoke(index);
        Ok(next)
    }

    /// Duplicate Law 62C3: "If both sides revoke on the same trick and only one side has
    /// played to the subsequent trick, then both revokes must be corrected". The other side's
    /// revoke on revoke `index`'s trick, not yet noticed, when only one side has played to the
    /// next trick.
    fn other_sides_revoke(&self, index: usize) -> Option<usize> {
        if self.code != Code::Duplicate {
            return None;
        }
        let revoke = self.revokes[index];
        let t = revoke.trick as usize;
        let following = self.tricks.get(t + 1).filter(|_| t < self.cur())?;
        let mut sides = following.in_order().map(|(s, _)| s.side());
        let first = sides.next()?;
        if sides.any(|side| side != first) {
            return None;
        }
        self.revokes.iter().position(|r| {
            r.trick == revoke.trick
                && r.offender.side() != revoke.offender.side()
                && r.attention.is_none()
                && matches!(r.status, RevokeStatus::Unestablished | RevokeStatus::Established)
        })
    }

    /// Corrects both sides' revokes on one trick (duplicate Law 62C3): the trick is reopened
    /// (the card led to the next trick goes back), each revoke card is withdrawn, a defender's
    /// from his unfaced hand becoming a major penalty card, and the one player who played
    /// after the other side's revoke may withdraw his card (Law 62C1), a penalty card if he is
    /// a defender.
    fn correct_both_revokes(&mut self, first: usize, second: usize) {
        let t = self.revokes[first].trick as usize;
        self.reopen(t);
        // The order of play before anything is withdrawn.
        let order: Vec<Seat> = self.tricks[t].in_order().map(|(s, _)| s).collect();
        let position = |seat: Seat| order.iter().position(|s| *s == seat);
        let offenders = [self.revokes[first].offender, self.revokes[second].offender];
        // A player may withdraw if the other side's revoke came before his card (Law 62C1).
        let withdrawal = order.iter().copied().filter(|s| !offenders.contains(s)).find_map(|seat| {
            let mine = position(seat)?;
            let offender = offenders.into_iter().find(|o| o.side() != seat.side())?;
            (position(offender)? < mine).then_some((offender, seat))
        });
        let law = Law::duplicate(62, "C3");
        for index in [first, second] {
            let revoke = self.revokes[index];
            if let Some(card) = self.tricks[t].take(revoke.offender) {
                self.hands[revoke.offender.index()].insert(card);
                if self.is_defender(revoke.offender) && !revoke.from_faced_hand {
                    let penalty = PenaltyCard { card, owner: revoke.offender, kind: PenaltyCardKind::Major, law };
                    self.add_penalty_card(penalty, &mut Events::discard());
                }
            }
            self.revokes[index].status = RevokeStatus::Corrected;
            self.revokes[index].attention.get_or_insert(Attention::DuringPlay);
        }
        match withdrawal {
            Some((offender, seat)) => {
                self.pending = Some(Situation::RevokeCorrection {
                    offender,
                    trick: t as u8,
                    later: Seats::single(seat),
                    both_sides: true,
                });
            }
            None => self.after_revoke_withdrawals(),
        }
    }

    /// Whether declarer played from his hand or dummy after the revoke card (Law 52B1(b)).
    fn declarer_played_since(&self, revoke: &Revoke) -> bool {
        let t = revoke.trick as usize;
        let declaring = self.contract.declaring_side();
        self.tricks[t].played_after(revoke.offender).any(|s| s.side() == declaring)
            || self.tricks.get(t + 1).is_some_and(|next| next.in_order().any(|(s, _)| s.side() == declaring))
    }

    /// Corrects revoke `index` (Law 62B): reopens its trick, withdraws the card, and raises the
    /// non-offenders' option to withdraw the cards they played after it (Law 62C1).
    fn correct_revoke(&mut self, index: usize) {
        let revoke = self.revokes[index];
        let t = revoke.trick as usize;
        let offender = revoke.offender;
        self.reopen(t);
        let trick = self.tricks[t];
        let led = trick.leader() == offender;
        let later: Vec<Seat> = trick.played_after(offender).collect();
        self.queued = self.twelfth_trick_option(&revoke, led);
        if let Some(card) = self.tricks[t].take(offender) {
            self.hands[offender.index()].insert(card);
            if self.is_defender(offender) && !revoke.from_faced_hand {
                let law = self.cite(62, "", "B1");
                self.add_penalty_card(
                    PenaltyCard { card, owner: offender, kind: PenaltyCardKind::Major, law },
                    &mut Events::discard(),
                );
            }
        }
        self.revokes[index].status = RevokeStatus::Corrected;
        if led {
            // The cards that followed a lead now withdrawn followed nothing: they go back.
            for seat in later {
                if let Some(card) = self.tricks[t].take(seat) {
                    self.hands[seat.index()].insert(card);
                }
            }
            self.after_revoke_withdrawals();
            return;
        }
        let non_offenders: Seats = later.iter().copied().filter(|s| s.side() != offender.side()).collect();
        if non_offenders.is_empty() {
            self.after_revoke_withdrawals();
        } else {
            self.pending =
                Some(Situation::RevokeCorrection { offender, trick: t as u8, later: non_offenders, both_sides: false });
        }
    }

    /// Rubber Law 62: a defender revoked on the twelfth trick before his partner played to it,
    /// and the partner holds cards of more than one suit; declarer may require the partner to
    /// play either card he could legally play. Not offered when the revoke card was the lead
    /// (the suit led is then not yet known).
    fn twelfth_trick_option(&self, revoke: &Revoke, led: bool) -> Option<Situation> {
        let t = revoke.trick as usize;
        let offender = revoke.offender;
        if self.code == Code::Duplicate || t != 11 || led || !self.is_defender(offender) {
            return None;
        }
        if self.faced_for_inspection(offender) {
            // Rubber Law 69: the option is a penalty, and his hand is faced for inspection.
            return None;
        }
        let trick = self.tricks[t];
        let partner = offender.partner();
        let partner_after = match (trick.position(partner), trick.position(offender)) {
            (Some(p), Some(o)) => p > o,
            (None, _) => true,
            (Some(_), None) => false,
        };
        let holding = self.twelfth_trick_holding(partner);
        let suits: Suits = holding.iter().map(|c| c.suit).collect();
        // "Either of the two cards he could legally have played": a real choice only when he
        // cannot follow suit.
        let choice = trick.suit_led().is_some_and(|led| !holding.has_suit(led));
        (partner_after && suits.len() > 1 && choice).then_some(Situation::TwelfthTrickRevoke { offender, partner })
    }

    /// The cards `seat` held for the twelfth trick: those in his hand and the one he may
    /// already have played to it.
    pub(crate) fn twelfth_trick_holding(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat.index()];
        self.tricks[11].card(seat).map_or(hand, |card| hand.with(card))
    }

    /// The last stage of a correction: raises the queued rubber twelfth-trick option, if any,
    /// and then the offender substitutes a legal card (Law 62B).
    pub(crate) fn after_revoke_withdrawals(&mut self) {
        self.pending = self.queued.take();
        self.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(offender: Seat, trick: u8) -> RevokeFacts {
        RevokeFacts {
            offender,
            trick,
            suit: Suit::Hearts,
            failed_penalty_card: false,
            from_faced_hand: false,
            established: true,
            attention: Some(Attention::AfterPlay),
            asked_by_dummy_out_of_rights: false,
        }
    }

    #[test]
    fn a_trick_is_not_transferred_twice() {
        // South declares; West revokes twice in different suits, winning trick 3 and 5; the
        // defenders win nothing else.
        let mut winners = vec![Seat::South; 13];
        winners[3] = Seat::West;
        winners[5] = Seat::West;
        let first = facts(Seat::West, 3);
        let second = RevokeFacts { suit: Suit::Clubs, ..facts(Seat::West, 5) };
        let t = revoke_transfer(Code::Duplicate, Seat::South, &winners, [0, 0], &[first, second]);
        // First: trick 3 and the later trick 5. Second: trick 5 is gone, nothing later.
        assert_eq!(t.rulings[0].tricks, 2);
        assert_eq!(t.rulings[1].tricks, 0);
        assert_eq!(t.to, [2, 0]);
    }
}
