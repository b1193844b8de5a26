//! What an option does ([`Effect`]): calls cancelled or made, restrictions, lead penalties
//! (with the rule that fixes them, [`LeadPenaltyRule`]) and rectifications that wait on a later
//! call ([`Contingency`]). The auction applies exactly the effects an option lists. Apart from
//! the options so that an effect can be read, and applied, on its own.

use std::fmt;

use crate::cards::Card;
use crate::contract::Call;
use crate::law::Law;
use crate::seat::{Seat, Side};

use super::{RecordedCall, Restriction};

/// The final call Law 26 of rubber bridge compares the withdrawn call with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FinalCall {
    /// A call already known.
    Known(RecordedCall),
    /// The call carried by the choice (the offender's replacement).
    Replacement,
    /// The offender's next call in the auction (rubber Law 31: his call at his proper turn).
    NextCall,
    /// There is none (a call after the close, rubber Law 39).
    None,
}

/// Which lead penalty a rectification carries to the play if the offender's partner becomes
/// a defender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeadPenaltyRule {
    /// Rubber Law 26, which turns on the withdrawn ("changed") call and the offender's final
    /// call at that turn: a suit not repeated gives 26A (require or forbid that suit); a
    /// notrump bid not repeated, or a pass, double or redouble, gives 26B (forbid any one suit).
    /// For an artificial call (recorded with [`crate::auction::Auction::record_artificial`])
    /// "such suit" is the suit or suits it relates to, and "repeat" compares those suits.
    Rubber26 {
        /// The call withdrawn or cancelled.
        changed: RecordedCall,
        /// The call it is compared with.
        against: FinalCall,
    },
    /// Rubber Law 26B outright (Laws 32, 36: the withdrawn call was a double or redouble).
    Rubber26B,
    /// Duplicate Law 26B: declarer may forbid any one suit the offender has not specified in
    /// the legal auction (an artificial call specifies the suits it relates to, not the one it
    /// names: [`crate::auction::CallEntry::suits_specified`]).
    Duplicate26B,
}

impl fmt::Display for LeadPenaltyRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeadPenaltyRule::Rubber26 { changed, against } => {
                write!(f, "the lead penalties of Law 26 for the withdrawn {changed}")?;
                match against {
                    FinalCall::Known(call) => write!(f, ", judged against the final call {call}"),
                    FinalCall::Replacement => f.write_str(", judged against the replacement"),
                    FinalCall::NextCall => f.write_str(", judged against the offender's call at his proper turn"),
                    FinalCall::None => Ok(()),
                }
            }
            LeadPenaltyRule::Rubber26B => f.write_str("declarer may forbid the lead of any one suit at his first lead"),
            LeadPenaltyRule::Duplicate26B => f.write_str(
                "declarer may forbid the lead of any one suit the offender has not specified in the legal auction, at \
                 his first turn to lead",
            ),
        }
    }
}

/// A rectification that depends on what happens next in the auction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Contingency {
    /// Decided by the next call of the player whose turn it was, the offender's right-hand
    /// opponent: if he passes the offender must repeat his call; otherwise the `law_if_not_pass`
    /// section applies (rubber Laws 31B and 32B; duplicate Laws 31A and 32A).
    OnRhoCall {
        /// The offender.
        offender: Seat,
        /// The cancelled call out of rotation.
        call: RecordedCall,
        /// The Law applied if the right-hand opponent passes (repeat).
        law_if_pass: Law,
        /// The Law applied if he makes any other call.
        law_if_not_pass: Law,
    },
    /// Rubber Law 26 judged against the offender's call at his proper turn (rubber Law 31A).
    LeadPenaltyOnNextCall {
        /// The offender.
        offender: Seat,
        /// The cancelled call.
        changed: RecordedCall,
        /// The Law that invoked Law 26.
        law: Law,
    },
    /// Rubber Law 31B2: if the offender's next call repeats the denomination of his bid out of
    /// rotation his partner must pass at his next turn; otherwise his partner must pass
    /// whenever it is his turn and Law 26 applies.
    PartnerPassesUnlessDenominationRepeated {
        /// The offender.
        offender: Seat,
        /// The cancelled bid out of rotation.
        changed: RecordedCall,
        /// Law 31B2.
        law: Law,
    },
    /// Duplicate: the director rules whether the offender's next call is comparable (Law 23A);
    /// if not, his partner must pass at his next turn and Law 26B may apply (Laws 30B1(b),
    /// 31A2, 31B, 32A2, 32B).
    ComparableRulingOnNextCall {
        /// The offender.
        offender: Seat,
        /// The cancelled call.
        withdrawn: RecordedCall,
        /// The Law that calls for the ruling.
        law: Law,
    },
    /// Duplicate Law 25B1: after the left-hand opponent accepted a changed call, the director
    /// rules whether it is comparable to the call it replaced (Law 26).
    ComparableRulingNow {
        /// The offender.
        offender: Seat,
        /// The withdrawn call.
        withdrawn: RecordedCall,
        /// The call that stands.
        replacement: Call,
        /// Law 25B1.
        law: Law,
    },
}

impl fmt::Display for Contingency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contingency::OnRhoCall { offender, call, law_if_pass, law_if_not_pass } => write!(
                f,
                "if {} passes, {offender} must repeat {call} ({law_if_pass}); if he makes any other call, {offender} \
                 may make any legal call and {law_if_not_pass} applies",
                offender.rho()
            ),
            Contingency::LeadPenaltyOnNextCall { offender, changed, law } => write!(
                f,
                "Law 26 applies to {}'s lead if he becomes a defender, judged on {offender}'s withdrawn {changed} and \
                 his call at his proper turn ({law})",
                offender.partner()
            ),
            Contingency::PartnerPassesUnlessDenominationRepeated { offender, changed, law } => write!(
                f,
                "if {offender}'s call repeats the denomination of {changed}, {} must pass when next it is his turn; \
                 otherwise he must pass whenever it is his turn and Law 26 applies ({law})",
                offender.partner()
            ),
            Contingency::ComparableRulingOnNextCall { offender, withdrawn, law } => write!(
                f,
                "{offender} may make any legal call at his turn; the director rules whether it is comparable to \
                 {withdrawn} (Law 23A): if not, {} must pass when next it is his turn and Law 26B may apply ({law})",
                offender.partner()
            ),
            Contingency::ComparableRulingNow { offender, withdrawn, replacement, law } => write!(
                f,
                "the director rules whether {offender}'s {replacement} is comparable to his withdrawn {withdrawn}: \
                 if not, Law 26B may apply ({law})"
            ),
        }
    }
}

/// One effect of a rectification option. [`crate::auction::Auction::rectify`] applies exactly
/// the effects listed in the option chosen, in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The call at this position of [`crate::auction::Auction::calls`] stands as though legal
    /// (accepted, condoned).
    CallStands {
        /// Its position.
        entry: usize,
        /// Who made it.
        seat: Seat,
        /// The call.
        call: RecordedCall,
    },
    /// The call at this position is cancelled (withdrawn).
    CallCancelled {
        /// Its position.
        entry: usize,
        /// Who made it.
        seat: Seat,
        /// The call.
        call: RecordedCall,
        /// The Law that cancels it.
        law: Law,
    },
    /// The call at this position and every call after it are cancelled (rubber Law 35A/C/D,
    /// duplicate Laws 36A, 38B, 39A).
    CallsFromCancelled {
        /// The first cancelled position.
        entry: usize,
        /// Who made the first cancelled call.
        seat: Seat,
        /// The first cancelled call.
        call: RecordedCall,
        /// The Law that cancels them.
        law: Law,
    },
    /// The call carried by the choice is recorded and cancelled at once: an attempted double
    /// or redouble in place of an insufficient bid (rubber Law 27D, duplicate Law 27B3), or the
    /// left-hand opponent's call that condones an inadmissible call the Law then cancels with
    /// every later call (rubber Law 35A, C, D; duplicate Laws 36A, 38B, 39A).
    ChoiceCallCancelled {
        /// The player who made it.
        seat: Seat,
        /// The Law that cancels it.
        law: Law,
    },
    /// The player makes a call: the one carried by the choice, or the one named. It is judged
    /// like any other call (it may itself be irregular).
    CallMade {
        /// Who calls.
        seat: Seat,
        /// The call, or `None` for the call carried by the choice.
        call: Option<RecordedCall>,
    },
    /// A pass is made for the player in place of his cancelled call (Laws 27D, 37, 38).
    PassSubstituted {
        /// The player.
        seat: Seat,
    },
    /// The auction reverts to the player whose turn it was.
    AuctionRevertsTo {
        /// That player.
        seat: Seat,
    },
    /// A restriction on later calls.
    Restriction(Restriction),
    /// A lead penalty carried to the play if the offender's partner becomes a defender (Law 26).
    LeadPenalty {
        /// The offender (the restriction binds his partner).
        offender: Seat,
        /// Which penalty.
        rule: LeadPenaltyRule,
        /// The Law that invokes it.
        law: Law,
    },
    /// Every card exposed becomes a penalty card if the offender becomes a defender; returned
    /// to his hand if he becomes declarer or dummy (Law 24, duplicate Law 24D-E).
    PenaltyCardsIfDefender {
        /// The offender.
        offender: Seat,
        /// The cards.
        cards: Vec<Card>,
        /// Whether one was led prematurely (such a card is a major penalty card, Law 50).
        led: bool,
    },
    /// A rectification decided by what happens next.
    Contingent(Contingency),
    /// The offender must replace his insufficient bid: a further choice follows (Law 27).
    OffenderMustReplace {
        /// The offender.
        offender: Seat,
    },
    /// The offender's left-hand opponent decides whether to accept a second insufficient bid
    /// (duplicate Law 27B4).
    LhoMayAcceptSecondInsufficientBid {
        /// The left-hand opponent.
        lho: Seat,
    },
    /// The offender's left-hand opponent may withdraw the call he made over the replaced call
    /// (duplicate Law 25A6), or change it without penalty after a change of call because of
    /// misinformation (Law 21B2; rubber Law 21).
    LhoMayWithdrawCall {
        /// The left-hand opponent.
        lho: Seat,
        /// The position of his call.
        entry: usize,
        /// The Law that gives him the choice: duplicate Law 25A6, or Law 21.
        law: Law,
    },
    /// Information from the withdrawn call is unauthorized for the offending side (rubber Law
    /// 16B1, duplicate Law 16C): the official may adjust if they use it.
    UnauthorizedInformation {
        /// The offending side.
        side: Side,
        /// The Law.
        law: Law,
    },
    /// The official (or, in rubber bridge without an arbiter, the players under Proprieties 1)
    /// may adjust the score at the end of play if the non-offending side was damaged (Laws 23,
    /// 27B, 27D, 72C, Club Laws 23 and 27).
    ScoreMayBeAdjusted {
        /// The offending side.
        side: Side,
        /// The Law.
        law: Law,
    },
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::CallStands { seat, call, .. } => write!(f, "{seat}'s {call} stands"),
            Effect::CallCancelled { seat, call, law, .. } => write!(f, "{seat}'s {call} is cancelled ({law})"),
            Effect::CallsFromCancelled { seat, call, law, .. } => {
                write!(f, "{seat}'s {call} and every later call are cancelled ({law})")
            }
            Effect::ChoiceCallCancelled { seat, law } => write!(f, "{seat}'s call is cancelled ({law})"),
            Effect::CallMade { seat, call: None } => write!(f, "{seat} makes his call"),
            Effect::CallMade { seat, call: Some(call) } => write!(f, "{seat}'s {call} is taken as his call"),
            Effect::PassSubstituted { seat } => write!(f, "a pass is substituted for {seat}"),
            Effect::AuctionRevertsTo { seat } => write!(f, "the auction reverts to {seat}"),
            Effect::Restriction(r) => r.fmt(f),
            Effect::LeadPenalty { offender, rule, law } => {
                write!(f, "if {} becomes a defender, {rule} ({law})", offender.partner())
            }
            Effect::PenaltyCardsIfDefender { offender, cards, .. } => {
                let names: Vec<String> = cards.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "{} stay face up until the auction closes and become penalty cards if {offender} becomes a \
                     defender (Law 24, Law 50)",
                    names.join(" ")
                )
            }
            Effect::Contingent(c) => c.fmt(f),
            Effect::OffenderMustReplace { offender } => {
                write!(f, "{offender} must replace the insufficient bid (Law 27)")
            }
            Effect::LhoMayAcceptSecondInsufficientBid { lho } => {
                write!(f, "{lho} may accept the second insufficient bid by calling (Law 27B4)")
            }
            Effect::LhoMayWithdrawCall { lho, entry, law } => {
                write!(f, "{lho} may withdraw his call #{entry} ({law})")
            }
            Effect::UnauthorizedInformation { side, law } => {
                write!(f, "information from the withdrawn call is unauthorized for {side} ({law})")
            }
            Effect::ScoreMayBeAdjusted { side, law } => {
                write!(f, "the score may be adjusted at the end of play if {side} gained from the infraction ({law})")
            }
        }
    }
}
