//! Queries on the legal auction (whose turn, the last bid, what Law 19 forbids, the
//! restrictions in force) and the one statement of the in-turn rules: how the Laws judge a call
//! by the player in turn, shared by digital play (which refuses an irregularity) and recorded
//! play (which opens it), and the checks on the call a rectification choice carries. Apart
//! because digital play, recorded play and the rectifications all ask these questions.

use crate::cards::SuitSet;
use crate::contract::{Bid, Call};
use crate::irregularities::auction::{
    AuctionOption, CallRequirement, DoubleFault, OptionKind, RecordedCall, Restriction, Specifies,
};
use crate::law::{Code, Law};
use crate::seat::Seat;

use super::rectify::Stage;
use super::{Auction, AuctionError, Family, PendingIrregularity};

/// The judgement of a call by the player in turn.
pub(super) enum InTurn {
    /// Legal: it is simply made.
    Legal,
    /// Not a call the Laws rectify but one the player may not make at all (he must repeat his
    /// call, rubber Laws 31B1/32B1; he may not double, rubber Laws 30B/32A): refused in both
    /// modes.
    Refused(AuctionError),
    /// Law 27: an insufficient bid.
    Insufficient {
        /// The bid.
        bid: Bid,
        /// The bid it fails to supersede.
        over: Bid,
    },
    /// Laws 19 and 36: a double or redouble Law 19 does not permit.
    Inadmissible(DoubleFault),
    /// Law 37: a bid, double or redouble by a player required to pass.
    RequiredToPass(Law),
}

impl Auction {
    pub(super) fn family(&self) -> Family {
        match self.code {
            Code::Duplicate => Family::Duplicate,
            Code::Club => Family::Club,
            Code::Rubber | Code::Chicago | Code::ClubProcedure => Family::Rubber,
        }
    }

    pub(super) fn is_duplicate(&self) -> bool {
        self.family() == Family::Duplicate
    }

    /// Law `number` with the rubber section or the duplicate section, by code.
    pub(super) fn cite(&self, number: u8, rubber: &'static str, duplicate: &'static str) -> Law {
        if self.is_duplicate() { Law::duplicate(number, duplicate) } else { Law::rubber(number, rubber) }
    }

    /// `rubber` under the rubber-bridge codes, `duplicate` under the duplicate Laws (for rules
    /// the two codes number differently).
    pub(super) fn by_code(&self, rubber: Law, duplicate: Law) -> Law {
        if self.is_duplicate() { duplicate } else { rubber }
    }

    /// The Law that stops all calls while an irregularity is settled.
    pub(super) fn cite_procedure(&self) -> Law {
        match self.family() {
            Family::Rubber => Law::rubber(13, ""),
            Family::Club => Law::club(13, ""),
            Family::Duplicate => Law::duplicate(9, "B2"),
        }
    }

    pub(super) fn pending_error(&self, pending: &PendingIrregularity) -> AuctionError {
        AuctionError::RectificationPending {
            irregularity: Box::new(pending.irregularity.clone()),
            law: self.cite_procedure(),
        }
    }

    /// The calls that stand, with their positions.
    pub(super) fn standing(&self) -> impl DoubleEndedIterator<Item = (usize, Seat, Call)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.status.stands())
            .filter_map(|(i, e)| e.call.legal().map(|call| (i, e.seat, call)))
    }

    pub(super) fn last_standing(&self) -> Option<(usize, Seat, Call)> {
        self.standing().next_back()
    }

    /// Whose turn it is in the legal auction.
    pub(super) fn turn(&self) -> Seat {
        self.last_standing().map_or(self.dealer, |(_, seat, _)| seat.next())
    }

    pub(super) fn last_bid_entry(&self) -> Option<(usize, Seat, Bid)> {
        self.standing().rev().find_map(|(i, seat, call)| match call {
            Call::Bid(bid) => Some((i, seat, bid)),
            _ => None,
        })
    }

    pub(super) fn any_bid(&self) -> bool {
        self.last_bid_entry().is_some()
    }

    /// Why Law 19 forbids `seat` to double or redouble now, if it does.
    pub(super) fn double_fault(&self, seat: Seat, call: RecordedCall) -> Option<DoubleFault> {
        let Some((bid_entry, bidder, _)) = self.last_bid_entry() else {
            return match call {
                RecordedCall::Double => Some(DoubleFault::NoBid),
                RecordedCall::Redouble => Some(DoubleFault::NoDouble),
                _ => None,
            };
        };
        let mut doubled_by = None;
        let mut redoubled = false;
        for (_, s, c) in self.standing().filter(|(i, ..)| *i > bid_entry) {
            match c {
                Call::Double => doubled_by = Some(s),
                Call::Redouble => redoubled = true,
                _ => {}
            }
        }
        match call {
            RecordedCall::Double if !seat.is_opponent(bidder) => Some(DoubleFault::OwnSideBid),
            RecordedCall::Double if doubled_by.is_some() => Some(DoubleFault::AlreadyDoubled),
            RecordedCall::Redouble => match doubled_by {
                None => Some(DoubleFault::NoDouble),
                Some(doubler) if !seat.is_opponent(doubler) => Some(DoubleFault::OwnSideDouble),
                Some(_) if redoubled => Some(DoubleFault::AlreadyRedoubled),
                Some(_) => None,
            },
            _ => None,
        }
    }

    /// The Law requiring `seat` to pass at his next call, if any.
    pub(super) fn must_pass_now(&self, seat: Seat) -> Option<Law> {
        self.restrictions.iter().find_map(|r| match r {
            Restriction::MustPass { seat: s, law, .. } if *s == seat => Some(*law),
            _ => None,
        })
    }

    /// The Law requiring `seat` to pass for the rest of the auction, if any.
    pub(super) fn barred_throughout(&self, seat: Seat) -> Option<Law> {
        self.restrictions.iter().find_map(|r| match r {
            Restriction::MustPass {
                seat: s,
                duration: crate::irregularities::auction::PassDuration::RestOfAuction,
                law,
            } if *s == seat => Some(*law),
            _ => None,
        })
    }

    /// The call `seat` must repeat, if any.
    pub(super) fn must_repeat(&self, seat: Seat) -> Option<(RecordedCall, Law)> {
        self.restrictions.iter().find_map(|r| match r {
            Restriction::MustRepeat { seat: s, call, law } if *s == seat => Some((*call, *law)),
            _ => None,
        })
    }

    /// The Law forbidding `seat` to double or redouble now (rubber Laws 30B, 32A), if any.
    pub(super) fn double_forbidden(&self, seat: Seat) -> Option<Law> {
        let last_bid = self.last_bid_entry().map(|(i, ..)| i);
        self.restrictions.iter().find_map(|r| match r {
            Restriction::NoDoubleOrRedoubleNextTurn { seat: s, law } if *s == seat => Some(*law),
            Restriction::MayNotDoubleOrRedoubleBid { seat: s, entry, law, .. }
                if *s == seat && Some(*entry) == last_bid =>
            {
                Some(*law)
            }
            _ => None,
        })
    }

    /// How the Laws judge `call` by `seat`, the player in turn, with nothing pending: the one
    /// statement of the in-turn rules, shared by digital play (which refuses irregularities)
    /// and recorded play (which opens them).
    pub(super) fn judge_in_turn(&self, seat: Seat, call: RecordedCall) -> InTurn {
        if let Some((required, law)) = self.must_repeat(seat)
            && required != call
        {
            return InTurn::Refused(AuctionError::MustRepeat { seat, call: required, law });
        }
        if call.is_double_or_redouble()
            && let Some(fault) = self.double_fault(seat, call)
        {
            // A double Law 19 forbids is Law 36's even from a player required to pass (duplicate
            // Law 37A says so; in rubber bridge Law 35B would otherwise let it stand).
            return InTurn::Inadmissible(fault);
        }
        if let Some(required_by) = self.must_pass_now(seat)
            && !call.is_pass()
        {
            return InTurn::RequiredToPass(required_by);
        }
        if call.is_double_or_redouble()
            && let Some(law) = self.double_forbidden(seat)
        {
            return InTurn::Refused(AuctionError::MayNotDoubleOrRedouble { seat, law });
        }
        if let (Some(Call::Bid(bid)), Some((_, _, over))) = (call.legal(), self.last_bid_entry())
            && !bid.is_sufficient_over(over)
        {
            return InTurn::Insufficient { bid, over };
        }
        InTurn::Legal
    }

    /// Whether `call` by `seat`, the player in turn, is legal now (digital play): an
    /// irregularity is refused with the error naming its Law.
    pub(super) fn check_in_turn(&self, seat: Seat, call: Call) -> Result<(), AuctionError> {
        match self.judge_in_turn(seat, call.into()) {
            InTurn::Legal => Ok(()),
            InTurn::Refused(err) => Err(err),
            InTurn::Insufficient { bid, over } => {
                Err(AuctionError::InsufficientBid { bid, over, law: self.cite(27, "", "") })
            }
            InTurn::Inadmissible(fault) => {
                Err(AuctionError::InadmissibleDouble { seat, call, fault, law: self.cite(19, "", "") })
            }
            InTurn::RequiredToPass(law) => Err(AuctionError::RequiredToPass { seat, law }),
        }
    }

    /// Checks the call a choice carries against the option's requirement.
    pub(super) fn check_requirement(&self, option: &AuctionOption, call: Option<Call>) -> Result<(), AuctionError> {
        let wrong = || AuctionError::WrongCallForOption { requirement: option.call, law: option.law };
        let call = match (option.call, call) {
            (CallRequirement::None, None) => return Ok(()),
            (CallRequirement::None, Some(_)) | (_, None) => return Err(wrong()),
            (_, Some(call)) => call,
        };
        let not_allowed = || AuctionError::ReplacementNotAllowed { call, requirement: option.call, law: option.law };
        let seat = option.chooser_seat.unwrap_or(self.turn());
        let allowed = match option.call {
            CallRequirement::None => false,
            CallRequirement::AnyCall => true,
            CallRequirement::Exactly(required) => call == required,
            CallRequirement::AnyLegal => self.legal_replacement(seat, call),
            CallRequirement::AnyLegalExcept(other) => call != other && self.legal_replacement(seat, call),
            CallRequirement::SufficientBidOrPass => match call {
                Call::Pass => true,
                Call::Bid(bid) => self.last_bid().is_none_or(|(_, over)| bid.is_sufficient_over(over)),
                Call::Double | Call::Redouble => false,
            },
            CallRequirement::DoubleOrRedouble => matches!(call, Call::Double | Call::Redouble),
            CallRequirement::InsufficientBid => match call {
                Call::Bid(bid) => self.last_bid().is_some_and(|(_, over)| !bid.is_sufficient_over(over)),
                _ => false,
            },
            CallRequirement::SufficientBidSpecifying(suits) => match call {
                Call::Bid(bid) => {
                    self.last_bid().is_none_or(|(_, over)| bid.is_sufficient_over(over))
                        && Specifies::of(call.into(), self.choice_relation(call.into())) == Specifies::Suits(suits)
                }
                _ => false,
            },
        };
        if allowed { Ok(()) } else { Err(not_allowed()) }
    }

    /// The suits an artificial call carried by a rectification choice relates to
    /// ([`Auction::rectify_artificial`]); `None` for a natural call.
    pub(super) fn choice_relation(&self, call: RecordedCall) -> Option<SuitSet> {
        self.announcing.filter(|a| a.call == call).map(|a| a.relates_to)
    }

    /// The suits `seat`'s latest recorded `call` relates to, if it was artificial.
    pub(super) fn entry_relation(&self, seat: Seat, call: RecordedCall) -> Option<SuitSet> {
        self.entries.iter().rev().find(|e| e.seat == seat && e.call == call).and_then(|e| e.relates_to)
    }

    /// Rubber Law 27A ("if the insufficient bid and sufficient bid are both not artificial")
    /// and duplicate Law 27B1(a) ("the lowest sufficient bid which specifies the same
    /// denomination(s) as that specified by the withdrawn call"): the replacement chosen under
    /// [`OptionKind::LowestSufficientBid`] must specify what the insufficient bid specified,
    /// and under the rubber Laws neither may be artificial.
    pub(super) fn check_same_denominations(
        &self,
        option: &AuctionOption,
        stage: &Stage,
        call: Option<Call>,
    ) -> Result<(), AuctionError> {
        let (OptionKind::LowestSufficientBid, Stage::Replacement { entry, fixed, .. }, Some(call)) =
            (option.kind, stage, call)
        else {
            return Ok(());
        };
        let withdrawn = self.entries[*entry];
        // A premature replacement that stands (duplicate Law 27C) carries its own relation.
        let relation = match fixed {
            Some(f) => self.entries[*f].relates_to,
            None => self.choice_relation(call.into()),
        };
        let same = Specifies::of(withdrawn.call, withdrawn.relates_to) == Specifies::of(call.into(), relation);
        let natural = !self.is_duplicate() && relation.is_none() && withdrawn.relates_to.is_none();
        if same && (self.is_duplicate() || natural) {
            Ok(())
        } else {
            Err(AuctionError::ReplacementNotAllowed { call, requirement: option.call, law: option.law })
        }
    }

    /// Whether `call` is a legal call for `seat` at the point of the legal auction where he is
    /// replacing a withdrawn call (Law 19 and sufficiency; a rectification's restrictions on
    /// him are applied when the call is made).
    pub(super) fn legal_replacement(&self, seat: Seat, call: Call) -> bool {
        match call {
            Call::Pass => true,
            Call::Double | Call::Redouble => self.double_fault(seat, call.into()).is_none(),
            Call::Bid(bid) => self.last_bid().is_none_or(|(_, over)| bid.is_sufficient_over(over)),
        }
    }
}
