//! Auction irregularities (Laws 24-39 of both codes, with Law 23 "comparable call" and Law 26
//! "lead restrictions" of the 2017 duplicate Laws): what a player really did, what the Laws
//! call it, the options they give and to whom, and what each option does.
//!
//! These are the values the game service shows the players and the arbiter or director, and
//! stores. A [`PendingIrregularity`](crate::auction::PendingIrregularity) lists [`AuctionOption`]s; whoever the Law names
//! ([`Chooser`]) picks one and the service sends back an [`AuctionChoice`] naming its
//! [`OptionKind`] and, where the option needs one, the call it carries.
//! [`crate::auction::Auction::rectify`] checks the choice against the options offered and the
//! [`CallRequirement`] of the option, then applies the option's [`Effect`]s, exactly the ones
//! listed.

use std::fmt;

use crate::cards::{Card, SuitSet};
use crate::contract::{Bid, Call, Denomination};
use crate::irregularities::Chooser;
use crate::law::Law;
use crate::seat::{Seat, Side};

/// A call as a player really made it at the table (recorded play).
///
/// Unlike [`Call`] it can name a level above seven (Law 38). Who made it, and whether it was
/// his turn, in rotation, sufficient, admissible or after the close, is judged by
/// [`crate::auction::Auction::record`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordedCall {
    /// Pass.
    Pass,
    /// Double.
    Double,
    /// Redouble.
    Redouble,
    /// A bid of the level the player named, in a denomination. Levels 1-7 are bids (Law 18A);
    /// a level above seven is the irregularity of Law 38; level 0 names no bid at all and is
    /// refused by the auction.
    Bid {
        /// The level named.
        level: u8,
        /// The denomination named.
        denomination: Denomination,
    },
}

impl RecordedCall {
    /// The call as the Laws know calls (Definitions, Law 18A): `None` for a bid outside 1-7.
    pub const fn legal(self) -> Option<Call> {
        match self {
            RecordedCall::Pass => Some(Call::Pass),
            RecordedCall::Double => Some(Call::Double),
            RecordedCall::Redouble => Some(Call::Redouble),
            RecordedCall::Bid { level, denomination } => match Bid::new(level, denomination) {
                Some(bid) => Some(Call::Bid(bid)),
                None => None,
            },
        }
    }

    /// The denomination named, if the call is a bid (Law 18).
    pub const fn denomination(self) -> Option<Denomination> {
        match self {
            RecordedCall::Bid { denomination, .. } => Some(denomination),
            _ => None,
        }
    }

    /// Whether the call is a pass.
    pub const fn is_pass(self) -> bool {
        matches!(self, RecordedCall::Pass)
    }

    /// Whether the call is a double or a redouble (Law 19).
    pub const fn is_double_or_redouble(self) -> bool {
        matches!(self, RecordedCall::Double | RecordedCall::Redouble)
    }
}

impl From<Call> for RecordedCall {
    fn from(call: Call) -> RecordedCall {
        match call {
            Call::Pass => RecordedCall::Pass,
            Call::Double => RecordedCall::Double,
            Call::Redouble => RecordedCall::Redouble,
            Call::Bid(bid) => RecordedCall::Bid { level: bid.level(), denomination: bid.denomination() },
        }
    }
}

impl From<Bid> for RecordedCall {
    fn from(bid: Bid) -> RecordedCall {
        RecordedCall::from(Call::Bid(bid))
    }
}

impl fmt::Display for RecordedCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordedCall::Pass => f.write_str("Pass"),
            RecordedCall::Double => f.write_str("X"),
            RecordedCall::Redouble => f.write_str("XX"),
            RecordedCall::Bid { level, denomination } => write!(f, "{level}{denomination}"),
        }
    }
}

/// Whose turn it was when a call out of rotation was made, seen from the offender (Laws 30-32
/// rectify differently at the offender's right-hand opponent's, partner's or left-hand
/// opponent's turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnOf {
    /// The offender's right-hand opponent was to call (Law 30A, 31B rubber / 31A duplicate, 32B
    /// rubber / 32A duplicate).
    RightHandOpponent,
    /// The offender's partner was to call (Law 30B, 31A rubber / 31B duplicate, 32A rubber /
    /// 32B duplicate).
    Partner,
    /// The offender's left-hand opponent was to call and the offender had not called before
    /// (rubber Law 31A "before any player has called when offender's LHO was the dealer";
    /// duplicate Laws 30B1 and 31B).
    LeftHandOpponent,
}

impl TurnOf {
    /// The relation of `turn` to `offender`; `None` if they are the same seat.
    pub const fn of(offender: Seat, turn: Seat) -> Option<TurnOf> {
        match (turn.index() + 4 - offender.index()) % 4 {
            1 => Some(TurnOf::LeftHandOpponent),
            2 => Some(TurnOf::Partner),
            3 => Some(TurnOf::RightHandOpponent),
            _ => None,
        }
    }
}

impl fmt::Display for TurnOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TurnOf::RightHandOpponent => "at his right-hand opponent's turn",
            TurnOf::Partner => "at his partner's turn",
            TurnOf::LeftHandOpponent => "at his left-hand opponent's turn",
        })
    }
}

/// Why a double or redouble is not permitted by Law 19 (Law 19A1/B1 of duplicate; Law 19 of
/// rubber bridge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DoubleFault {
    /// Nobody has bid: there is no bid to double.
    NoBid,
    /// The last bid was made by the doubler's own side, not by an opponent.
    OwnSideBid,
    /// The last bid has already been doubled or redoubled: a call other than pass intervened.
    AlreadyDoubled,
    /// The last bid has not been doubled: there is no double to redouble.
    NoDouble,
    /// The double was made by the redoubler's own side, not by an opponent.
    OwnSideDouble,
    /// The double has already been redoubled.
    AlreadyRedoubled,
}

impl fmt::Display for DoubleFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DoubleFault::NoBid => "there is no bid to double",
            DoubleFault::OwnSideBid => "the last bid was made by his own side",
            DoubleFault::AlreadyDoubled => "the last bid has already been doubled",
            DoubleFault::NoDouble => "there is no double to redouble",
            DoubleFault::OwnSideDouble => "the double was made by his own side",
            DoubleFault::AlreadyRedoubled => "the double has already been redoubled",
        })
    }
}

/// What the player who called after the close of the auction turned out to be (Law 39: the
/// rectification differs for a defender and for the declaring side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AfterCloseRole {
    /// The future declarer or dummy.
    DeclaringSide,
    /// A future defender.
    Defender,
    /// The deal was passed out: there is no declarer and no defender.
    PassedOut,
}

/// The kind of an auction irregularity, with the facts that decide its rectification.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IrregularityKind {
    /// Law 24: one or more cards of the offender's hand were faced or held so that his partner
    /// could see them; `led` if a card was led prematurely.
    CardsExposed {
        /// The cards exposed.
        cards: Vec<Card>,
        /// Whether a card was led prematurely (Law 24B).
        led: bool,
    },
    /// Law 25: the offender substituted another call for his call (at the same turn, or under
    /// duplicate Law 25A before his partner called).
    ChangeOfCall {
        /// The call he had made first.
        first: RecordedCall,
    },
    /// Law 27: a bid in rotation that does not supersede the last bid (Law 18D).
    InsufficientBid {
        /// The bid it failed to supersede.
        over: Bid,
    },
    /// Laws 29-32: a call when it was another player's turn (an insufficient bid out of
    /// rotation is one of these: rubber Law 27E, duplicate Law 27A2).
    CallOutOfRotation {
        /// The player whose turn it was.
        turn_of: Seat,
        /// That player's relation to the offender.
        position: TurnOf,
    },
    /// Law 36: a double or redouble not permitted by Law 19.
    InadmissibleDouble {
        /// Why Law 19 forbids it.
        fault: DoubleFault,
        /// Whether it was also made out of rotation (duplicate Law 36B4).
        out_of_rotation: bool,
    },
    /// Law 37: a bid, double or redouble by a player required to pass.
    CallWhenRequiredToPass {
        /// The Law that required him to pass.
        required_by: Law,
    },
    /// Law 38: a bid of more than seven.
    BidAboveSeven,
    /// Law 39: a call after the auction closed.
    CallAfterClose {
        /// Whether the caller is a defender, on the declaring side, or the deal was passed out.
        role: AfterCloseRole,
    },
    /// Duplicate Law 23: the director rules whether the offender's call, replacing a call
    /// that was cancelled, is comparable to it (Laws 30B1(b), 31A2, 31B, 32A2, 32B, 25B1).
    ComparableCallQuestion {
        /// The call that was withdrawn or cancelled.
        withdrawn: RecordedCall,
        /// The offender's call in its place.
        replacement: Call,
    },
    /// Law 21B (rubber and Club Law 21): the offender (here the player acting, not the side at
    /// fault) changes a call he made because of misinformation from an opponent,
    /// `misinformed_by`, whose side is the offending side for Law 16C and Law 21B3.
    CallChangedAfterMisinformation {
        /// The call he had made and now changes.
        first: RecordedCall,
        /// The opponent who gave the misinformation.
        misinformed_by: Seat,
    },
}

/// An irregularity as it happened: who, what, and the Law that governs it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Irregularity {
    /// The offender.
    pub offender: Seat,
    /// The offending call, if the irregularity is a call.
    pub call: Option<RecordedCall>,
    /// What kind of irregularity, with its facts.
    pub kind: IrregularityKind,
    /// The Law that rectifies it.
    pub law: Law,
}

impl fmt::Display for Irregularity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = self.offender;
        match (&self.kind, self.call) {
            (IrregularityKind::CardsExposed { cards, led }, _) => {
                let names: Vec<String> = cards.iter().map(ToString::to_string).collect();
                let verb = if *led { "led" } else { "exposed" };
                write!(f, "{who} {verb} {} during the auction", names.join(" "))?;
            }
            (IrregularityKind::ChangeOfCall { first }, Some(call)) => {
                write!(f, "{who} changed his call {first} to {call}")?;
            }
            (IrregularityKind::InsufficientBid { over }, Some(call)) => {
                write!(f, "{who} made an insufficient bid of {call} over {over}")?;
            }
            (IrregularityKind::CallOutOfRotation { turn_of, position }, Some(call)) => {
                write!(f, "{who} called {call} out of rotation, {position} ({turn_of} was to call)")?;
            }
            (IrregularityKind::InadmissibleDouble { fault, .. }, Some(call)) => {
                write!(f, "{who} called {call}, which Law 19 does not permit: {fault}")?;
            }
            (IrregularityKind::CallWhenRequiredToPass { required_by }, Some(call)) => {
                write!(f, "{who} called {call} although required to pass ({required_by})")?;
            }
            (IrregularityKind::BidAboveSeven, Some(call)) => write!(f, "{who} bid {call}, above seven")?,
            (IrregularityKind::CallAfterClose { .. }, Some(call)) => {
                write!(f, "{who} called {call} after the auction closed")?;
            }
            (IrregularityKind::CallChangedAfterMisinformation { first, misinformed_by }, Some(call)) => {
                write!(f, "{who} changed his call {first} to {call} after misinformation from {misinformed_by}")?;
            }
            (IrregularityKind::ComparableCallQuestion { withdrawn, replacement }, _) => {
                write!(f, "{who} called {replacement} in place of his cancelled {withdrawn}: is it comparable?")?;
            }
            (_, None) => write!(f, "{who} committed an irregularity")?,
        }
        write!(f, " ({})", self.law)
    }
}

/// How long a player must pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassDuration {
    /// "when next it is his turn to call" (Laws 24B, 25B, 30A, 31B2, 32B2 ...).
    NextTurn,
    /// "whenever it is his turn to call" / "during the remainder of the auction" (Laws 27C,
    /// 30B, 31A, 32A, 36, 37, 38 ...).
    RestOfAuction,
}

/// A restriction on a player's later calls, imposed by a rectification.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Restriction {
    /// The player must pass.
    MustPass {
        /// The barred player.
        seat: Seat,
        /// For how long.
        duration: PassDuration,
        /// The Law that imposed it.
        law: Law,
    },
    /// Rubber Law 30B: at his next turn the offender's partner may make a sufficient bid or
    /// pass, but may not double or redouble.
    NoDoubleOrRedoubleNextTurn {
        /// The restricted player.
        seat: Seat,
        /// The Law that imposed it.
        law: Law,
    },
    /// Rubber Law 32A: the offender may not thereafter double or redouble the bid he doubled
    /// out of turn.
    MayNotDoubleOrRedoubleBid {
        /// The restricted player.
        seat: Seat,
        /// The bid.
        bid: Bid,
        /// The position of that bid in [`crate::auction::Auction::calls`].
        entry: usize,
        /// The Law that imposed it.
        law: Law,
    },
    /// The offender must repeat his call out of rotation at his turn (rubber Laws 31B1, 32B1;
    /// duplicate Laws 31A1, 32A1).
    MustRepeat {
        /// The player who must repeat.
        seat: Seat,
        /// The call he must repeat.
        call: RecordedCall,
        /// The Law that imposed it.
        law: Law,
    },
}

impl Restriction {
    /// The restricted player.
    pub const fn seat(&self) -> Seat {
        match self {
            Restriction::MustPass { seat, .. }
            | Restriction::NoDoubleOrRedoubleNextTurn { seat, .. }
            | Restriction::MayNotDoubleOrRedoubleBid { seat, .. }
            | Restriction::MustRepeat { seat, .. } => *seat,
        }
    }

    /// The Law that imposed it.
    pub const fn law(&self) -> Law {
        match self {
            Restriction::MustPass { law, .. }
            | Restriction::NoDoubleOrRedoubleNextTurn { law, .. }
            | Restriction::MayNotDoubleOrRedoubleBid { law, .. }
            | Restriction::MustRepeat { law, .. } => *law,
        }
    }
}

impl fmt::Display for Restriction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Restriction::MustPass { seat, duration: PassDuration::NextTurn, law } => {
                write!(f, "{seat} must pass when next it is his turn to call ({law})")
            }
            Restriction::MustPass { seat, duration: PassDuration::RestOfAuction, law } => {
                write!(f, "{seat} must pass whenever it is his turn to call ({law})")
            }
            Restriction::NoDoubleOrRedoubleNextTurn { seat, law } => {
                write!(
                    f,
                    "at his next turn {seat} may make a sufficient bid or pass, but may not double or redouble ({law})"
                )
            }
            Restriction::MayNotDoubleOrRedoubleBid { seat, bid, law, .. } => {
                write!(f, "{seat} may not double or redouble {bid} ({law})")
            }
            Restriction::MustRepeat { seat, call, law } => write!(f, "{seat} must repeat {call} at his turn ({law})"),
        }
    }
}

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

/// A stable name for a rectification option: what the client sends back in an
/// [`AuctionChoice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptionKind {
    /// Apply the rectification the Law prescribes (where the Law leaves no choice, the
    /// non-offending side in rubber bridge, or the official, confirms it).
    Enforce,
    /// Rubber Law 15A: both members of the non-offending side waive the penalty.
    Waive,
    /// The offender's left-hand opponent accepts the irregular call by calling over it (Laws
    /// 27A, 29A; duplicate Law 25B1). The choice carries his call.
    AcceptByCalling,
    /// Law 28B: the player whose turn it was calls, cancelling an opponent's call out of
    /// rotation without rectification. The choice carries his call.
    CallInTurn,
    /// Law 27: the left-hand opponent does not accept the insufficient bid.
    RejectInsufficientBid,
    /// Rubber Law 27A / duplicate Law 27B1(a): replaced by the lowest sufficient bid in the same
    /// denomination.
    LowestSufficientBid,
    /// Rubber Law 27B: replaced by a call with the same or a more precise meaning.
    SameOrMorePreciseMeaning,
    /// Duplicate Law 27B1(b): replaced by a comparable call (Law 23A).
    ComparableCall,
    /// Rubber Law 27C / duplicate Law 27B2: replaced by any other sufficient bid or a pass.
    OtherSufficientBidOrPass,
    /// Rubber Law 27D / duplicate Law 27B3: the offender attempts a double or redouble.
    DoubleOrRedouble,
    /// Duplicate Law 27B4: the offender replaces it with another insufficient bid.
    AnotherInsufficientBid,
    /// Law 29B: the call out of rotation is cancelled.
    CancelCall,
    /// Duplicate Law 30C: the pass out of rotation was artificial (or passed an artificial
    /// call) and is cancelled under Law 31, not Law 30.
    CancelAsArtificialPass,
    /// Law 25A: the first call was unintended; the intended call replaces it.
    UnintendedCall,
    /// Rubber Law 25B(1): the offender lets his first call stand.
    FirstCallStands,
    /// Rubber Law 25B(2): the offender makes any other legal call. The choice carries it.
    OtherLegalCall,
    /// Duplicate Law 25B2: the substitution is cancelled and the original call stands.
    SubstitutionCancelled,
    /// Duplicate Law 25A6 (or Law 21B2, rubber Law 21): the left-hand opponent keeps the call
    /// he made over the first call.
    KeepCall,
    /// Duplicate Law 25A6: the left-hand opponent withdraws the call he made over the first
    /// call; Law 21B2 (rubber Law 21): he changes it, without penalty, and calls again in turn.
    WithdrawCall,
    /// Duplicate Law 23A: the director rules the call comparable.
    Comparable,
    /// Duplicate Law 23A: the director rules the call not comparable.
    NotComparable,
    /// Law 21B1(a) (rubber and Club Law 21): the call could well have been influenced by the
    /// opponent's misinformation (the Director presumes a mistaken explanation rather than a
    /// mistaken call absent evidence, Law 21B1(b)), so the change stands without penalty.
    ChangeAfterMisinformation,
    /// Law 21A: the player acted on his own misunderstanding (the explanation was right, or
    /// the call did not rest on it): no redress, the change is cancelled and his call stands.
    NoMisinformation,
}

impl OptionKind {
    /// Every option kind.
    pub const ALL: [OptionKind; 23] = [
        OptionKind::Enforce,
        OptionKind::Waive,
        OptionKind::AcceptByCalling,
        OptionKind::CallInTurn,
        OptionKind::RejectInsufficientBid,
        OptionKind::LowestSufficientBid,
        OptionKind::SameOrMorePreciseMeaning,
        OptionKind::ComparableCall,
        OptionKind::OtherSufficientBidOrPass,
        OptionKind::DoubleOrRedouble,
        OptionKind::AnotherInsufficientBid,
        OptionKind::CancelCall,
        OptionKind::CancelAsArtificialPass,
        OptionKind::UnintendedCall,
        OptionKind::FirstCallStands,
        OptionKind::OtherLegalCall,
        OptionKind::SubstitutionCancelled,
        OptionKind::KeepCall,
        OptionKind::WithdrawCall,
        OptionKind::Comparable,
        OptionKind::NotComparable,
        OptionKind::ChangeAfterMisinformation,
        OptionKind::NoMisinformation,
    ];

    /// The option's stable machine-readable name, which the contract promises clients may switch
    /// on (`accept_by_calling`). Written out, so that renaming a variant cannot change it.
    pub const fn name(self) -> &'static str {
        match self {
            OptionKind::Enforce => "enforce",
            OptionKind::Waive => "waive",
            OptionKind::AcceptByCalling => "accept_by_calling",
            OptionKind::CallInTurn => "call_in_turn",
            OptionKind::RejectInsufficientBid => "reject_insufficient_bid",
            OptionKind::LowestSufficientBid => "lowest_sufficient_bid",
            OptionKind::SameOrMorePreciseMeaning => "same_or_more_precise_meaning",
            OptionKind::ComparableCall => "comparable_call",
            OptionKind::OtherSufficientBidOrPass => "other_sufficient_bid_or_pass",
            OptionKind::DoubleOrRedouble => "double_or_redouble",
            OptionKind::AnotherInsufficientBid => "another_insufficient_bid",
            OptionKind::CancelCall => "cancel_call",
            OptionKind::CancelAsArtificialPass => "cancel_as_artificial_pass",
            OptionKind::UnintendedCall => "unintended_call",
            OptionKind::FirstCallStands => "first_call_stands",
            OptionKind::OtherLegalCall => "other_legal_call",
            OptionKind::SubstitutionCancelled => "substitution_cancelled",
            OptionKind::KeepCall => "keep_call",
            OptionKind::WithdrawCall => "withdraw_call",
            OptionKind::Comparable => "comparable",
            OptionKind::NotComparable => "not_comparable",
            OptionKind::ChangeAfterMisinformation => "change_after_misinformation",
            OptionKind::NoMisinformation => "no_misinformation",
        }
    }
}

impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OptionKind::Enforce => "apply the rectification",
            OptionKind::Waive => "waive the penalty",
            OptionKind::AcceptByCalling => "accept the call by calling over it",
            OptionKind::CallInTurn => "call in turn, cancelling the call out of rotation",
            OptionKind::RejectInsufficientBid => "do not accept the insufficient bid",
            OptionKind::LowestSufficientBid => "replace it by the lowest sufficient bid in the same denomination",
            OptionKind::SameOrMorePreciseMeaning => "replace it by a call with the same or a more precise meaning",
            OptionKind::ComparableCall => "replace it by a comparable call",
            OptionKind::OtherSufficientBidOrPass => "replace it by another sufficient bid or a pass",
            OptionKind::DoubleOrRedouble => "attempt to replace it by a double or redouble",
            OptionKind::AnotherInsufficientBid => "replace it by another insufficient bid",
            OptionKind::CancelCall => "cancel the call out of rotation",
            OptionKind::CancelAsArtificialPass => "cancel the artificial pass out of rotation",
            OptionKind::UnintendedCall => "the first call was unintended: the intended call replaces it",
            OptionKind::FirstCallStands => "let the first call stand",
            OptionKind::OtherLegalCall => "make any other legal call",
            OptionKind::SubstitutionCancelled => "cancel the substitution: the original call stands",
            OptionKind::KeepCall => "keep the call made over the replaced call",
            OptionKind::WithdrawCall => "withdraw the call made over the replaced call",
            OptionKind::Comparable => "the call is comparable",
            OptionKind::NotComparable => "the call is not comparable",
            OptionKind::ChangeAfterMisinformation => {
                "the call was made because of the misinformation: the change stands without penalty"
            }
            OptionKind::NoMisinformation => "no misinformation: the change is cancelled and the call stands",
        })
    }
}

/// Which call, if any, an [`AuctionChoice`] for an option must carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallRequirement {
    /// No call.
    None,
    /// Any call the player makes; it is judged like any other call (it may itself be
    /// irregular). Used where calling is the option (Laws 27A, 28B, 29A).
    AnyCall,
    /// Exactly this call.
    Exactly(Call),
    /// Any legal call at this point of the auction.
    AnyLegal,
    /// Any legal call other than this one (rubber Law 25B: "any other legal call").
    AnyLegalExcept(Call),
    /// A sufficient bid or a pass (Law 27).
    SufficientBidOrPass,
    /// A double or a redouble (rubber Law 27D, duplicate Law 27B3).
    DoubleOrRedouble,
    /// A bid that is insufficient (duplicate Law 27B4).
    InsufficientBid,
    /// Duplicate Law 27B1(a) after an artificial insufficient bid: a sufficient bid that
    /// specifies the same suits as the withdrawn call (an artificial replacement is recorded
    /// with [`crate::auction::Auction::rectify_artificial`]). Whether it is the lowest such bid
    /// in the partnership's methods is the director's ruling.
    SufficientBidSpecifying(SuitSet),
}

impl fmt::Display for CallRequirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallRequirement::None => f.write_str("no call"),
            CallRequirement::AnyCall => f.write_str("any call"),
            CallRequirement::Exactly(call) => write!(f, "exactly {call}"),
            CallRequirement::AnyLegal => f.write_str("any legal call"),
            CallRequirement::AnyLegalExcept(call) => write!(f, "any legal call other than {call}"),
            CallRequirement::SufficientBidOrPass => f.write_str("a sufficient bid or a pass"),
            CallRequirement::DoubleOrRedouble => f.write_str("a double or a redouble"),
            CallRequirement::InsufficientBid => f.write_str("an insufficient bid"),
            CallRequirement::SufficientBidSpecifying(suits) => write!(f, "a sufficient bid specifying {suits}"),
        }
    }
}

/// One rectification option the Laws give after an irregularity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AuctionOption {
    /// Its stable name.
    pub kind: OptionKind,
    /// Who chooses it.
    pub chooser: Chooser,
    /// The seat of the chooser, where the chooser is a player the Law names (the offender, his
    /// left-hand opponent, the player in turn); `None` for the official or "the
    /// non-offending side".
    pub chooser_seat: Option<Seat>,
    /// The Law that gives it.
    pub law: Law,
    /// The call the choice must carry.
    pub call: CallRequirement,
    /// What it does, in order.
    pub effects: Vec<Effect>,
}

impl fmt::Display for AuctionOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.chooser_seat {
            Some(seat) => write!(f, "{seat} ({}) may {}", self.chooser, self.kind)?,
            None => write!(f, "{} may {}", self.chooser, self.kind)?,
        }
        if self.call != CallRequirement::None {
            write!(f, " [{}]", self.call)?;
        }
        write!(f, " ({})", self.law)?;
        for (i, effect) in self.effects.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            effect.fmt(f)?;
        }
        Ok(())
    }
}

/// The choice a player or official makes among the options of a pending irregularity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AuctionChoice {
    /// The option chosen.
    pub option: OptionKind,
    /// The call it carries, where the option's [`CallRequirement`] needs one.
    pub call: Option<Call>,
}

impl AuctionChoice {
    /// A choice that carries no call.
    pub const fn new(option: OptionKind) -> AuctionChoice {
        AuctionChoice { option, call: None }
    }

    /// A choice that carries a call.
    pub const fn with_call(option: OptionKind, call: Call) -> AuctionChoice {
        AuctionChoice { option, call: Some(call) }
    }
}

/// A possible score adjustment the official (or the players, in rubber bridge without an
/// arbiter) may make at the end of play, recorded during the auction so that it is not
/// forgotten (Laws 16, 23, 27, 72C; Club Laws 16, 23, 27).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReservedAdjustment {
    /// The side whose infraction may lead to the adjustment.
    pub offending_side: Side,
    /// The Law under which it may be made.
    pub law: Law,
}

/// What a call specifies, the one notion behind rubber Law 26 ("the changed call was in a
/// suit ... did not repeat that suit"; "When the irregular call artificially relates to a
/// denomination other than the one actually named, 'such suit' is the suit or suits to which
/// the call relates"), duplicate Law 26B ("any suit which has not been specified in the legal
/// auction by the offender") and duplicate Law 27B1(a) ("specifies the same denomination(s)").
///
/// A natural bid specifies the denomination it names (Law 18A); an artificial call specifies
/// the suit or suits it relates to, whatever it names; a natural pass, double or redouble
/// specifies no denomination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Specifies {
    /// One or more suits.
    Suits(SuitSet),
    /// Notrump (a natural notrump bid).
    NoTrump,
    /// No denomination: a natural pass, double or redouble, or an artificial call that relates
    /// to no suit.
    Nothing,
}

impl Specifies {
    /// What `call` specifies; `relates_to` is `Some` for an artificial call, with the suits it
    /// relates to.
    pub(crate) fn of(call: RecordedCall, relates_to: Option<SuitSet>) -> Specifies {
        match (relates_to, call) {
            (Some(suits), _) if suits.is_empty() => Specifies::Nothing,
            (Some(suits), _) => Specifies::Suits(suits),
            (None, RecordedCall::Bid { denomination, .. }) => match denomination.trump() {
                Some(suit) => Specifies::Suits(SuitSet::single(suit)),
                None => Specifies::NoTrump,
            },
            (None, _) => Specifies::Nothing,
        }
    }

    /// The suits specified (none for notrump or no denomination).
    pub(crate) fn suits(self) -> SuitSet {
        match self {
            Specifies::Suits(suits) => suits,
            Specifies::NoTrump | Specifies::Nothing => SuitSet::EMPTY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OptionKind;

    /// The names are part of the contract (`RectificationOption.kind`): unique, snake case, and
    /// fixed. A renamed variant must keep its name; this list changes only when a kind is added.
    #[test]
    fn option_names_are_unique_stable_snake_case() {
        let names: Vec<&str> = OptionKind::ALL.iter().map(|k| k.name()).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
        assert_eq!(OptionKind::AcceptByCalling.name(), "accept_by_calling");
        assert_eq!(OptionKind::RejectInsufficientBid.name(), "reject_insufficient_bid");
        assert_eq!(OptionKind::ChangeAfterMisinformation.name(), "change_after_misinformation");
    }
}
