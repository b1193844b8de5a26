//! What a chooser may send back ([`PlayOption`]): accepting or refusing a lead, a lead
//! restriction ([`LeadChoice`]), a requirement on a defender's play ([`PlayRequirement`]), and
//! the other choices the play's Laws give. Apart from their effects because an option is what a
//! client sends back: plain data.

use std::fmt;

use crate::cards::{Card, Suit};
use crate::play::TrumpIntent;
use crate::seat::Side;

use super::{Seats, Suits};

/// What declarer does about a lead when he has the choice (Law 26, Law 50D2, Law 51B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeadChoice {
    /// Require the lead of a suit (Law 26A rubber, Law 50D2(a), Law 51B1(a) and B2(a)); a player
    /// unable to comply leads any card (Law 59).
    Require(Suit),
    /// Forbid the lead of these suits for as long as the player retains the lead (Law 26,
    /// Law 50D2(a), Law 51B1(b) and B2(b)).
    Forbid(Suits),
    /// Neither require nor forbid: the player leads any card and the penalty cards stay on the
    /// table (Law 50D2(b), Law 51B2(c)), or declarer waives a Law 26 lead penalty.
    NoRestriction,
}

impl fmt::Display for LeadChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeadChoice::Require(suit) => write!(f, "require the lead of {suit}"),
            LeadChoice::Forbid(suits) => {
                write!(f, "forbid the lead of {suits} while the proper leader retains the lead")
            }
            LeadChoice::NoRestriction => f.write_str("neither require nor forbid a lead"),
        }
    }
}

/// What declarer may require of a defender's play to the current trick (Law 57A, and the
/// rubber Law 62 penalty on the twelfth trick).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayRequirement {
    /// Play his highest card of the suit led (Law 57A1 duplicate, 57A rubber).
    Highest,
    /// Play his lowest card of the suit led (Law 57A2 duplicate, 57B rubber).
    Lowest,
    /// Play a card of this other suit (Law 57A3 duplicate; not in rubber bridge).
    Suit(Suit),
    /// Play no card of this other suit (Law 57A4 duplicate, 57C rubber).
    NotSuit(Suit),
    /// Play this card: a penalty card declarer designated (Law 50D1(a), Law 51A), which lies
    /// face up.
    Card(Card),
    /// Play `card`, one of the two cards he could legally have played to the twelfth trick
    /// (rubber Law 62, after his partner's revoke on that trick). The card is in a hand nobody
    /// else sees, so it is described by `which` and shown only to the official
    /// ([`PlayOption::concealed_card`]).
    OneOfTwo {
        /// The card.
        card: Card,
        /// How the option names it without showing it.
        which: TwelfthTrickCard,
    },
}

/// Which of his two cards declarer requires of the revoker's partner on the twelfth trick
/// (rubber Law 62: "either of the two cards he could legally have played"), named so that the
/// option tells nobody what the cards are. The partner holds cards of two suits and none of
/// the suit led, or the Law gives no choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TwelfthTrickCard {
    /// The card he already played to the trick (it lies face up).
    AlreadyPlayed,
    /// The card he still holds besides the one he played.
    Other,
    /// His card of the higher-ranking of his two suits (Law 2: spades, hearts, diamonds, clubs).
    HigherSuit,
    /// His card of the lower-ranking of his two suits.
    LowerSuit,
}

impl fmt::Display for TwelfthTrickCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TwelfthTrickCard::AlreadyPlayed => "the card he already played to the trick",
            TwelfthTrickCard::Other => "his other card",
            TwelfthTrickCard::HigherSuit => "his card of the higher-ranking of his two suits",
            TwelfthTrickCard::LowerSuit => "his card of the lower-ranking of his two suits",
        })
    }
}

impl fmt::Display for PlayRequirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayRequirement::Highest => f.write_str("play his highest card of the suit led"),
            PlayRequirement::Lowest => f.write_str("play his lowest card of the suit led"),
            PlayRequirement::Suit(suit) => write!(f, "play a card of {suit}"),
            PlayRequirement::NotSuit(suit) => write!(f, "play no card of {suit}"),
            PlayRequirement::Card(card) => write!(f, "play the {card}"),
            PlayRequirement::OneOfTwo { which, .. } => write!(f, "play {which}"),
        }
    }
}

/// An option the Laws give after an irregularity, or at a point where an earlier irregularity
/// lets declarer choose. Plain data: the service lists the offers of a [`Decision`](super::Decision) and a
/// client sends one of these back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayOption {
    /// Accept the lead out of turn as a correct lead (Law 53; Law 54B duplicate / 54A rubber,
    /// Law 55A, Law 56A).
    AcceptLead,
    /// Accept the opening lead out of turn by spreading declarer's hand: he becomes dummy and
    /// his partner declarer (Law 54A duplicate, 54C rubber).
    AcceptLeadAndBecomeDummy,
    /// Refuse a defender's lead out of turn: the card becomes a major penalty card (Law 54D,
    /// Law 56B). When the proper leader is the offender's partner, declarer states at once his
    /// choice under Law 50D2/51B for that lead (`lead`); otherwise `lead` is `None`.
    RejectLead {
        /// Declarer's lead choice for the proper leader, when the Law gives him one.
        lead: Option<LeadChoice>,
    },
    /// Require the offender to retract his lead out of turn, with no penalty: declarer's lead
    /// (Law 55B), or a lead by a defender whose hand is faced for inspection after declarer's
    /// disputed claim (rubber Law 69: declarer "may not impose a penalty").
    RetractLead,
    /// Declarer's choice about a lead (Law 26, Law 50D2, Law 51B).
    Lead(LeadChoice),
    /// Declarer's requirement on the offender's partner (Law 57A; rubber Law 62 on trick 12).
    PartnerPlays(PlayRequirement),
    /// Accept a card played instead of a penalty card (Law 52B1 duplicate, 52A rubber).
    AcceptPlay,
    /// Require the penalty card to be played instead of the card illegally played (Law 52B2
    /// duplicate, 52B rubber).
    SubstitutePenaltyCard(Card),
    /// Designate which of two or more penalty cards the defender plays (Law 50D1(a), Law 51A).
    DesignatePenaltyCard(Card),
    /// After a revoke is corrected, the non-offenders named withdraw the cards they played
    /// after the revoke; an empty set keeps every card (Law 62C1).
    WithdrawAfterRevoke(Seats),
    /// After a non-offender withdrew his card, the offending side's next player withdraws his
    /// card too (Law 62C2).
    WithdrawCard,
    /// Keep the card played (Law 62C2: the offending side's right is optional).
    KeepCard,
    /// Do not exercise an optional right (rubber Law 62 on the twelfth trick: declarer "may").
    Waive,
    /// After a card was changed or withdrawn, the players named withdraw the cards they played
    /// to the trick after it, to substitute others without further rectification; an empty set
    /// keeps every card (duplicate Law 45C4(b), 45D1 and 47D; rubber Law 45D, 46 and 47C).
    WithdrawAfterChange(Seats),
    /// This card of dummy's is played: declarer completes an incomplete or invalid designation,
    /// or a defender designates dummy's card after "play anything" (Law 46).
    DesignateFromDummy(Card),
    /// Accept declarer's card that breaks his obligations after his disputed claim (rubber Law
    /// 69: "either defender may accept the play").
    AcceptClaimPlay,
    /// Require declarer to withdraw it and substitute a card that conforms (rubber Law 69).
    WithdrawClaimPlay,
    /// Require declarer to draw, or not to draw, the outstanding trumps (rubber Law 69B).
    RequireTrumps(TrumpIntent),
    /// Prohibit the claimer's partner a play the faced hand could suggest, for this turn (rubber
    /// Law 70B).
    ProhibitPlay(PlayRequirement),
    /// After an established revoke, transfer `tricks` more tricks to `to`, the side damaged, to
    /// restore equity; none when the automatic adjustment did (rubber Law 64, Club Law 64,
    /// duplicate Law 64C1).
    RestoreEquity {
        /// The side the tricks go to.
        to: Side,
        /// How many, beyond the automatic adjustment.
        tricks: u8,
    },
}

impl PlayOption {
    /// The card this option names that lies in a hand not every player may see, if any: only
    /// the official may be shown it. The option's description never names it (rubber Law 62's
    /// twelfth-trick options name the card as [`TwelfthTrickCard`] does). Every other card an
    /// option names has been played, exposed as a penalty card (Law 50A) or lies in dummy's
    /// faced hand (Law 41D), so every player sees it anyway.
    pub const fn concealed_card(&self) -> Option<Card> {
        match self {
            PlayOption::PartnerPlays(PlayRequirement::OneOfTwo { which: TwelfthTrickCard::AlreadyPlayed, .. }) => None,
            PlayOption::PartnerPlays(PlayRequirement::OneOfTwo { card, .. }) => Some(*card),
            _ => None,
        }
    }
}

impl fmt::Display for PlayOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayOption::AcceptLead => f.write_str("accept the lead out of turn"),
            PlayOption::RestoreEquity { tricks: 0, .. } => {
                f.write_str("transfer no more tricks: the automatic adjustment restores equity")
            }
            PlayOption::RestoreEquity { to, tricks } => {
                write!(f, "transfer {tricks} more trick(s) to {to} to restore equity")
            }
            PlayOption::AcceptLeadAndBecomeDummy => {
                f.write_str("accept the lead out of turn by spreading declarer's hand as dummy")
            }
            PlayOption::RejectLead { lead: None } => {
                f.write_str("refuse the lead: the card becomes a major penalty card")
            }
            PlayOption::RejectLead { lead: Some(choice) } => {
                write!(f, "refuse the lead: the card becomes a major penalty card, and {choice}")
            }
            PlayOption::RetractLead => f.write_str("require the lead out of turn to be retracted, without penalty"),
            PlayOption::Lead(choice) => choice.fmt(f),
            PlayOption::PartnerPlays(requirement) => write!(f, "require the offender's partner to {requirement}"),
            PlayOption::AcceptPlay => f.write_str("accept the card played instead of the penalty card"),
            PlayOption::SubstitutePenaltyCard(card) => {
                write!(f, "require the penalty card {card} to be played instead")
            }
            PlayOption::DesignatePenaltyCard(card) => write!(f, "designate the penalty card {card} to be played"),
            PlayOption::WithdrawAfterRevoke(seats) if seats.is_empty() => {
                f.write_str("keep every card played after the revoke")
            }
            PlayOption::WithdrawAfterRevoke(seats) => {
                write!(f, "{seats} withdraw the card played after the revoke")
            }
            PlayOption::WithdrawCard => f.write_str("withdraw the card played"),
            PlayOption::KeepCard => f.write_str("keep the card played"),
            PlayOption::Waive => f.write_str("make no requirement"),
            PlayOption::WithdrawAfterChange(seats) if seats.is_empty() => {
                f.write_str("keep every card played after the change")
            }
            PlayOption::WithdrawAfterChange(seats) => write!(f, "{seats} withdraw the card played after the change"),
            PlayOption::DesignateFromDummy(card) => write!(f, "designate dummy's {card}"),
            PlayOption::AcceptClaimPlay => f.write_str("accept declarer's play"),
            PlayOption::WithdrawClaimPlay => {
                f.write_str("require declarer to withdraw the card and play one that conforms to his obligations")
            }
            PlayOption::RequireTrumps(TrumpIntent::Draw) => {
                f.write_str("require declarer to draw the outstanding trumps")
            }
            PlayOption::RequireTrumps(TrumpIntent::Leave) => {
                f.write_str("require declarer not to draw the outstanding trumps")
            }
            PlayOption::RequireTrumps(TrumpIntent::Unstated) => f.write_str("make no requirement about the trumps"),
            PlayOption::ProhibitPlay(PlayRequirement::Highest) => {
                f.write_str("prohibit any card but his highest of the suit led")
            }
            PlayOption::ProhibitPlay(PlayRequirement::Lowest) => {
                f.write_str("prohibit any card but his lowest of the suit led")
            }
            PlayOption::ProhibitPlay(PlayRequirement::NotSuit(suit)) => write!(f, "prohibit a card of {suit}"),
            PlayOption::ProhibitPlay(requirement) => write!(f, "require him to {requirement}"),
        }
    }
}
