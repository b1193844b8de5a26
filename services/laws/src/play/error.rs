//! Why a play, a rectification or a claim was refused; every refusal names its Law.

use crate::cards::{Card, Suit};
use crate::irregularities::play::{PlayOption, PlayRequirement, Situation};
use crate::law::{CitesLaw, Code, Law};
use crate::seat::{Seat, Side};

use super::ClaimDuty;

/// Why the play engine refused an action. Nothing changes when an action is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The play of a deal is governed by the Laws of Rubber Bridge (with Chicago and the
    /// Alternative Club Laws) or of Duplicate Bridge, not by the Rules for Club Procedure.
    #[error("the play is governed by the Laws of Rubber Bridge or of Duplicate Bridge, not the {} ({law})", code.title())]
    UnsupportedCode {
        /// The code asked for.
        code: Code,
        /// The Law that starts the play.
        law: Law,
    },
    /// A penalty card carried from the auction is not in its owner's hand (Law 24, Law 50).
    #[error("{owner} cannot have the {card} as a penalty card: it is not in his hand ({law})")]
    PenaltyCardNotHeld {
        /// The defender named as its owner.
        owner: Seat,
        /// The card.
        card: Card,
        /// The Law.
        law: Law,
    },
    /// The card is in another hand than the one due to play (Law 44; a lead out of turn is
    /// Law 53-56, a play out of turn Law 57).
    #[error("the {card} is in {holder}'s hand, but it is {turn}'s turn to play ({law})")]
    NotYourTurn {
        /// The card.
        card: Card,
        /// Whose hand it is in.
        holder: Seat,
        /// The hand due to play.
        turn: Seat,
        /// The Law.
        law: Law,
    },
    /// The card has already been played to a trick (Law 45; a played card stays played,
    /// Law 47).
    #[error("the {card} has already been played ({law})")]
    CardAlreadyPlayed {
        /// The card.
        card: Card,
        /// The Law.
        law: Law,
    },
    /// The hand does not hold the card (Law 45: a card is played from the player's hand).
    #[error("{seat} does not hold the {card} ({law})")]
    CardNotHeld {
        /// The hand.
        seat: Seat,
        /// The card.
        card: Card,
        /// The Law.
        law: Law,
    },
    /// The player can follow suit and must (Law 44C); playing another card would be a revoke
    /// (Law 61).
    #[error("{seat} must follow suit to {suit}: the {card} would be a revoke ({law})")]
    MustFollowSuit {
        /// The player.
        seat: Seat,
        /// The card refused.
        card: Card,
        /// The suit led.
        suit: Suit,
        /// The Law.
        law: Law,
    },
    /// Declarer required this player to lead a suit he holds (Law 26, 50D2, 51B, 59).
    #[error("{seat} must lead {suit}, not the {card} ({law})")]
    LeadRequired {
        /// The leader.
        seat: Seat,
        /// The card refused.
        card: Card,
        /// The suit required.
        suit: Suit,
        /// The Law that imposed the requirement.
        law: Law,
    },
    /// Declarer forbade this player to lead the suit while he retains the lead (Law 26, 50D2,
    /// 51B).
    #[error("{seat} may not lead {suit} while he retains the lead, so not the {card} ({law})")]
    LeadForbidden {
        /// The leader.
        seat: Seat,
        /// The card refused.
        card: Card,
        /// The suit forbidden.
        suit: Suit,
        /// The Law that imposed the prohibition.
        law: Law,
    },
    /// Declarer imposed a requirement on this player's play to the trick (Law 57A, rubber
    /// Law 62).
    #[error("{seat} must {requirement}, so not the {card} ({law})")]
    PlayRestricted {
        /// The player.
        seat: Seat,
        /// The card refused.
        card: Card,
        /// What he must do.
        requirement: PlayRequirement,
        /// The Law.
        law: Law,
    },
    /// A major penalty card must be played at the first legal opportunity (Law 50D1; Law 52
    /// otherwise).
    #[error("{seat} must play the penalty card {penalty}, not the {card} ({law})")]
    PenaltyCardMustBePlayed {
        /// The defender.
        seat: Seat,
        /// The card refused.
        card: Card,
        /// The penalty card to play.
        penalty: Card,
        /// The Law.
        law: Law,
    },
    /// With a minor penalty card, no other card of that suit below honour rank may be played
    /// before it (Law 50C).
    #[error("{seat} may not play the {card} before his minor penalty card {penalty} ({law})")]
    MinorPenaltyCardFirst {
        /// The defender.
        seat: Seat,
        /// The card refused.
        card: Card,
        /// The minor penalty card.
        penalty: Card,
        /// The Law.
        law: Law,
    },
    /// Nobody plays until the pending decision is made (Law 9B2 duplicate, Law 13 rubber).
    #[error("no card may be played until this is settled: {situation} ({law})")]
    DecisionPending {
        /// What is pending.
        situation: Box<Situation>,
        /// The Law.
        law: Law,
    },
    /// There is no decision to make.
    #[error("there is no rectification to choose now ({law})")]
    NoDecisionPending {
        /// The Law.
        law: Law,
    },
    /// The option is not among the offers of the pending decision.
    #[error("\"{option}\" is not one of the options offered ({law})")]
    OptionNotOffered {
        /// The option sent.
        option: PlayOption,
        /// The Law governing the decision.
        law: Law,
    },
    /// The play of the deal is over.
    #[error("the play of this deal is over ({law})")]
    PlayOver {
        /// The Law that ended it (44 after thirteen tricks; 69-71 after a claim).
        law: Law,
    },
    /// Play is suspended while a claim or concession is considered (Law 68D duplicate,
    /// Law 69-70 rubber).
    #[error("play is suspended while a claim is considered ({law})")]
    PlaySuspended {
        /// The Law.
        law: Law,
    },
    /// The action needs a claim and none is being considered.
    #[error("there is no claim or concession to answer ({law})")]
    NoClaim {
        /// The Law.
        law: Law,
    },
    /// A claim or adjudication names more tricks than remain to be played.
    #[error("{tricks} tricks named but only {remaining} remain ({law})")]
    TooManyTricks {
        /// Tricks named.
        tricks: u8,
        /// Tricks remaining.
        remaining: u8,
        /// The Law.
        law: Law,
    },
    /// The player may not answer the claim this way.
    #[error("{seat} may not {action} ({law})")]
    ClaimResponseRefused {
        /// The player.
        seat: Seat,
        /// What he tried, in words.
        action: &'static str,
        /// The Law.
        law: Law,
    },
    /// The disputed claim is not for an official to adjudicate under this code, or is not
    /// disputed.
    #[error("there is no disputed claim for the official to adjudicate ({law})")]
    NothingToAdjudicate {
        /// The Law.
        law: Law,
    },
    /// A claim revision gives back more tricks than the claim gave.
    #[error("{side} can be given back at most {most} tricks of this claim ({law})")]
    RevisionTooLarge {
        /// The side asking.
        side: Side,
        /// The most it may get back.
        most: u8,
        /// The Law.
        law: Law,
    },
    /// Attention was drawn to a revoke that did not happen.
    #[error("{seat} did not revoke on trick {trick} ({law})", trick = trick + 1)]
    NoRevoke {
        /// The player named.
        seat: Seat,
        /// The trick named (0-12).
        trick: u8,
        /// The Law defining a revoke.
        law: Law,
    },
    /// Attention had already been drawn to this revoke.
    #[error("attention has already been drawn to {seat}'s revoke on trick {trick} ({law})", trick = trick + 1)]
    RevokeAlreadyNoticed {
        /// The offender.
        seat: Seat,
        /// The trick (0-12).
        trick: u8,
        /// The Law.
        law: Law,
    },
    /// A played card may not be taken back on the ground given (Law 47; duplicate Law 47F2:
    /// "except as this Law specifies, a card once played may not be withdrawn").
    #[error("{seat} may not take back his card: {reason} ({law})")]
    RetractionRefused {
        /// The hand the card was played from.
        seat: Seat,
        /// Why not.
        reason: &'static str,
        /// The Law.
        law: Law,
    },
    /// A card of declarer's side against the obligations after his disputed claim (Law 69,
    /// 69A-D), or a card of the claimer's partner that declarer prohibited (Law 70B).
    #[error("{seat} may not play the {card} after the disputed claim: {duty} ({law})")]
    ClaimObligation {
        /// The hand the card is from.
        seat: Seat,
        /// The card.
        card: Card,
        /// The obligation it breaks.
        duty: ClaimDuty,
        /// The Law.
        law: Law,
    },
    /// The engine does not model this sequence at a physical table.
    #[error("{what} cannot be recorded here ({law})")]
    CannotRecord {
        /// What was attempted.
        what: &'static str,
        /// The Law that governs the normal sequence.
        law: Law,
    },
}

impl CitesLaw for PlayError {
    fn law(&self) -> Law {
        match self {
            PlayError::UnsupportedCode { law, .. }
            | PlayError::PenaltyCardNotHeld { law, .. }
            | PlayError::NotYourTurn { law, .. }
            | PlayError::CardAlreadyPlayed { law, .. }
            | PlayError::CardNotHeld { law, .. }
            | PlayError::MustFollowSuit { law, .. }
            | PlayError::LeadRequired { law, .. }
            | PlayError::LeadForbidden { law, .. }
            | PlayError::PlayRestricted { law, .. }
            | PlayError::PenaltyCardMustBePlayed { law, .. }
            | PlayError::MinorPenaltyCardFirst { law, .. }
            | PlayError::DecisionPending { law, .. }
            | PlayError::NoDecisionPending { law }
            | PlayError::OptionNotOffered { law, .. }
            | PlayError::PlayOver { law }
            | PlayError::PlaySuspended { law }
            | PlayError::NoClaim { law }
            | PlayError::TooManyTricks { law, .. }
            | PlayError::ClaimResponseRefused { law, .. }
            | PlayError::NothingToAdjudicate { law }
            | PlayError::RevisionTooLarge { law, .. }
            | PlayError::NoRevoke { law, .. }
            | PlayError::RevokeAlreadyNoticed { law, .. }
            | PlayError::RetractionRefused { law, .. }
            | PlayError::ClaimObligation { law, .. }
            | PlayError::CannotRecord { law, .. } => *law,
        }
    }
}
