//! What a pending decision is about ([`Situation`]): an irregularity of the play, or a point
//! where an earlier irregularity gives declarer a choice. Apart from the options because a
//! situation is what happened, the options what may be done.

use std::fmt;

use crate::cards::Card;
use crate::law::Law;
use crate::penalty::LeadPenalty;
use crate::play::ClaimDuty;
use crate::seat::{Seat, Side};

use super::{Designation, Seats};

/// What a pending decision is about: an irregularity, or a point where an earlier
/// irregularity gives declarer a choice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Situation {
    /// A defender faced the opening lead out of turn (Law 54).
    OpeningLeadOutOfTurn {
        /// The defender who led.
        offender: Seat,
        /// The card he faced.
        card: Card,
    },
    /// Declarer led out of turn from his hand or dummy's (Law 55).
    DeclarerLeadOutOfTurn {
        /// The hand the card came from.
        from: Seat,
        /// The card.
        card: Card,
        /// The hand whose turn it was to lead.
        proper_leader: Seat,
    },
    /// A defender led out of turn after the opening lead (Law 56).
    DefenderLeadOutOfTurn {
        /// The defender who led.
        offender: Seat,
        /// The card.
        card: Card,
        /// The hand whose turn it was to lead.
        proper_leader: Seat,
    },
    /// A defender led to the next trick, or played out of turn, before his partner had played
    /// to the current trick (Law 57A).
    PrematurePlay {
        /// The defender.
        offender: Seat,
        /// The card he led or played.
        card: Card,
        /// Whether it was a lead to the next trick (rather than a play to the current one).
        to_next_trick: bool,
    },
    /// The offender's partner has the lead for the first time and an auction irregularity left
    /// declarer a lead penalty (Law 26).
    AuctionLeadPenalty {
        /// The player whose lead declarer may restrict.
        leader: Seat,
        /// What declarer may do.
        penalty: LeadPenalty,
        /// The Law that imposed it.
        law: Law,
    },
    /// A defender has the lead while his partner has a major penalty card (Law 50D2, Law 51B).
    PenaltyCardLead {
        /// The defender on lead.
        leader: Seat,
    },
    /// A defender must play one of two or more penalty cards and declarer designates which
    /// (Law 50D1(a), Law 51A).
    DesignatePenaltyCard {
        /// The defender.
        owner: Seat,
    },
    /// A defender led or played another card when he had to play a penalty card, and attention
    /// was drawn to it (Law 52).
    PenaltyCardNotPlayed {
        /// The defender.
        offender: Seat,
        /// The card he led or played instead.
        card: Card,
        /// The trick (0-12).
        trick: u8,
    },
    /// A revoke is being corrected (Law 62C1): the non-offenders may withdraw the cards they
    /// played after it.
    RevokeCorrection {
        /// The revoking player.
        offender: Seat,
        /// The trick (0-12).
        trick: u8,
        /// The non-offenders who played a card to the revoke trick after the revoke.
        later: Seats,
        /// Both sides revoked on the trick and both revokes are being corrected (duplicate Law
        /// 62C3): "Every card withdrawn by the defending side becomes a penalty card".
        both_sides: bool,
    },
    /// A non-offender withdrew his card after a revoke; the offending side's next player may
    /// withdraw his too (Law 62C2).
    OffendingSideMayWithdraw {
        /// The player.
        seat: Seat,
        /// The card he played.
        card: Card,
    },
    /// A defender revoked on the twelfth trick before his partner played; declarer may require
    /// the partner to play either card he could legally have played (rubber Law 62).
    TwelfthTrickRevoke {
        /// The revoking defender.
        offender: Seat,
        /// His partner.
        partner: Seat,
    },
    /// A played card was changed or withdrawn ([`Retraction`](super::Retraction)); the opponents of its player
    /// who played to the trick after it may withdraw their cards and substitute others
    /// (duplicate Law 45C4(b), 45D1 and 47D; rubber Law 45D, 46 and 47C). When one does, the
    /// other side's players who played after him get the same right, and so on.
    ChangeOfPlay {
        /// The player whose card was changed or withdrawn (or, later, the opponent who withdrew
        /// his card after it).
        changed: Seat,
        /// The trick (0-12).
        trick: u8,
        /// The players who may withdraw their card.
        later: Seats,
        /// The side whose irregularity started it (for Law 16C2 / rubber Law 47 footnote).
        offending: Side,
        /// The Law that gives the right.
        law: Law,
    },
    /// Declarer designated dummy's card incompletely or invalidly and the Law does not deem a
    /// card: declarer completes the designation, or after "play anything" either defender
    /// designates the card (Law 46).
    IncompleteDesignation {
        /// What declarer said.
        designation: Designation,
    },
    /// After his disputed claim declarer played a card against his obligations (rubber Law 69,
    /// 69A-D); the card waits, unplayed, for the defenders' decision.
    ClaimLineBreach {
        /// The hand the card is from (declarer's or dummy's).
        seat: Seat,
        /// The card.
        card: Card,
        /// The obligation it breaks.
        duty: ClaimDuty,
        /// The Law that imposes it (Law 69 for the statement itself, 69A for a finesse, 69B for
        /// the trumps the defenders required, 69D for the order of a suit).
        law: Law,
    },
    /// Declarer's claim is disputed while a defender holds a trump his statement did not
    /// mention: the defenders may require him to draw it or not to draw it (rubber Law 69B).
    ClaimTrumps {
        /// Declarer.
        declarer: Seat,
    },
    /// After a defender's disputed claim, his partner is to play: declarer may prohibit a play
    /// the faced hand could suggest (rubber Law 70B).
    ClaimSuggestedPlay {
        /// The claimer's partner.
        partner: Seat,
    },
    /// The play is over after an established revoke, and the automatic transfer of Law 64 may
    /// not restore equity: more tricks may be transferred to the side damaged (rubber Law 64's
    /// last paragraph, Club Law 64, duplicate Law 64C1).
    RevokeEquity {
        /// The tricks the automatic adjustment transferred.
        transferred: u8,
    },
}

impl fmt::Display for Situation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Situation::OpeningLeadOutOfTurn { offender, card } => {
                write!(f, "{offender} faced the opening lead {card} out of turn")
            }
            Situation::RevokeEquity { transferred } => write!(
                f,
                "the play ended after an established revoke; {transferred} trick(s) were transferred, \
                 and more may be needed to restore equity"
            ),
            Situation::DeclarerLeadOutOfTurn { from, card, proper_leader } => {
                write!(f, "declarer led the {card} from {from}'s hand out of turn; the lead was {proper_leader}'s")
            }
            Situation::DefenderLeadOutOfTurn { offender, card, proper_leader } => {
                write!(f, "{offender} led the {card} out of turn; the lead was {proper_leader}'s")
            }
            Situation::PrematurePlay { offender, card, to_next_trick: true } => {
                write!(f, "{offender} led the {card} to the next trick before his partner played")
            }
            Situation::PrematurePlay { offender, card, to_next_trick: false } => {
                write!(f, "{offender} played the {card} before his partner played")
            }
            Situation::AuctionLeadPenalty { leader, .. } => {
                write!(f, "{leader} has the lead for the first time under a lead penalty from the auction")
            }
            Situation::PenaltyCardLead { leader } => {
                write!(f, "{leader} has the lead while his partner has a major penalty card")
            }
            Situation::DesignatePenaltyCard { owner } => {
                write!(f, "{owner} must play one of two or more penalty cards")
            }
            Situation::PenaltyCardNotPlayed { offender, card, .. } => {
                write!(f, "{offender} played the {card} instead of a penalty card")
            }
            Situation::RevokeCorrection { offender, trick, .. } => {
                write!(f, "{offender}'s revoke on trick {} is corrected", trick + 1)
            }
            Situation::OffendingSideMayWithdraw { seat, card } => {
                write!(f, "{seat} may withdraw the {card} after an opponent withdrew his card")
            }
            Situation::TwelfthTrickRevoke { offender, .. } => {
                write!(f, "{offender} revoked on the twelfth trick before his partner played")
            }
            Situation::ChangeOfPlay { changed, trick, .. } => {
                write!(
                    f,
                    "{changed}'s card on trick {} was changed or withdrawn; the cards played after it may be withdrawn",
                    trick + 1
                )
            }
            // A card called that dummy does not hold is in a hand some players may not see:
            // the text does not name it.
            Situation::IncompleteDesignation { designation: Designation::Card(_) } => {
                f.write_str("declarer called for a card dummy does not hold")
            }
            Situation::IncompleteDesignation { designation } => {
                write!(f, "declarer's call of {designation} from dummy does not designate one card")
            }
            Situation::ClaimLineBreach { seat, card, duty, .. } => {
                write!(f, "after his disputed claim declarer played the {card} from {seat}'s hand, but {duty}")
            }
            Situation::ClaimTrumps { declarer } => {
                write!(f, "{declarer}'s claim is disputed while a defender holds a trump his statement did not mention")
            }
            Situation::ClaimSuggestedPlay { partner } => {
                write!(f, "{partner} is to play while his partner's disputed claim lies face up")
            }
        }
    }
}
