//! What an action amounted to, as events for the table's stream: found by comparing the state
//! before and after, so that every change the engines make (a card withdrawn by a revoke
//! correction, a call cancelled by a rectification) is reported, whichever Law made it.

use crate::auction::CallStatus;
use crate::cards::Card;
use crate::play::{ClaimRecord, Play};
use crate::seat::Seat;

use super::DealInProgress;

/// Something that happened at the table. Each names what changed; the state after the action
/// holds the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    /// The deal started.
    DealStarted,
    /// A call was recorded, or its status changed to one that stands (accepted, condoned).
    CallMade {
        /// Its position in [`crate::auction::Auction::calls`].
        index: usize,
    },
    /// A call was cancelled by a rectification.
    CallCancelled {
        /// Its position.
        index: usize,
    },
    /// The auction closed with nothing to rectify (Law 22).
    AuctionClosed,
    /// A card was played to a trick.
    CardPlayed {
        /// The trick, 0-12.
        trick: u8,
        /// The hand it came from.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A card was taken back from a trick into its hand (Laws 47, 52, 53, 62).
    CardWithdrawn {
        /// The trick, 0-12.
        trick: u8,
        /// The hand it returned to.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The opening lead was faced and dummy spread (Law 41).
    DummyFaced,
    /// An opening lead was made face down and lies on the table, its card unknown to all but
    /// the leader (duplicate Law 41A; rubber Appendix 3).
    FaceDownLead {
        /// The leader.
        seat: Seat,
    },
    /// A face-down opening lead went back to the hand before it was faced (duplicate Laws 41A
    /// and 54; rubber Appendix 3).
    FaceDownLeadReturned {
        /// The player it went back to.
        seat: Seat,
    },
    /// A trick was completed (Law 44).
    TrickCompleted {
        /// The trick, 0-12.
        trick: u8,
    },
    /// Restrictions or penalty cards changed.
    ObligationsChanged,
    /// An irregularity was recorded.
    IrregularityRecorded {
        /// Its id.
        id: u32,
    },
    /// The official was called.
    OfficialCalled {
        /// The call's id.
        id: u32,
    },
    /// An official call was resolved.
    OfficialCallResolved {
        /// The call's id.
        id: u32,
    },
    /// A decision was raised.
    RectificationOffered {
        /// Its id.
        id: u32,
    },
    /// A decision was settled.
    RectificationChosen {
        /// Its id.
        id: u32,
    },
    /// A claim or concession was made.
    ClaimMade {
        /// Its id.
        id: u32,
    },
    /// A player answered a claim.
    ClaimAnswered {
        /// Its id.
        id: u32,
    },
    /// The official decided a disputed claim.
    ClaimAdjudicated {
        /// Its id.
        id: u32,
    },
    /// A defender faced his hand for inspection after declarer's disputed claim (rubber Law
    /// 69): it lies face up, for everyone.
    HandFaced {
        /// The defender.
        seat: Seat,
    },
    /// The deal ended with a result (or passed out).
    DealFinished,
    /// The deal was abandoned.
    DealAbandoned,
}

/// Every (trick, seat, card) in the tricks, in trick order and, within a trick, in the order
/// played.
fn played(play: Option<&Play>) -> Vec<(u8, Seat, Card)> {
    let Some(play) = play else { return Vec::new() };
    play.tricks()
        .iter()
        .enumerate()
        .flat_map(|(t, trick)| trick.in_order().map(move |(seat, card)| (t as u8, seat, card)))
        .collect()
}

/// Whether a claim changed only by a defender's facing his hand, which is told as
/// [`Event::HandFaced`] and answers nothing.
fn only_faced_for_inspection(before: &ClaimRecord, after: &ClaimRecord) -> bool {
    let mut was = before.clone();
    was.faced_for_inspection = after.faced_for_inspection;
    was == *after
}

/// The events that lead from `before` to `after`.
pub(super) fn between(before: &DealInProgress, after: &DealInProgress) -> Vec<Event> {
    let mut events = Vec::new();

    // The auction.
    let old = before.auction.calls();
    for (index, entry) in after.auction.calls().iter().enumerate() {
        let cancelled = matches!(entry.status, CallStatus::Cancelled { .. });
        match old.get(index) {
            None => {
                events.push(Event::CallMade { index });
                if cancelled {
                    events.push(Event::CallCancelled { index });
                }
            }
            Some(was) if was.status != entry.status => {
                events.push(if cancelled { Event::CallCancelled { index } } else { Event::CallMade { index } });
            }
            Some(_) => {}
        }
    }
    if before.auction.outcome().is_none() && after.auction.outcome().is_some() {
        events.push(Event::AuctionClosed);
    }

    // Irregularities come before what they brought.
    for record in after.irregularities.iter().skip(before.irregularities.len()) {
        events.push(Event::IrregularityRecorded { id: record.id });
    }

    // The cards: withdrawals first, then plays in order, dummy spread after the opening lead,
    // and each trick's completion after its last card.
    let was = played(before.play.as_ref());
    let now = played(after.play.as_ref());
    let lying = |table: &DealInProgress| table.play.as_ref().and_then(Play::face_down_lead);
    match (lying(before), lying(after)) {
        (None, Some((seat, _))) => events.push(Event::FaceDownLead { seat }),
        // Faced: the card played says so.
        (Some((seat, card)), None) if !now.contains(&(0, seat, card)) => {
            events.push(Event::FaceDownLeadReturned { seat });
        }
        _ => {}
    }
    for &(trick, seat, card) in &was {
        if !now.contains(&(trick, seat, card)) {
            events.push(Event::CardWithdrawn { trick, seat, card });
        }
    }
    let dummy_was = before.play.as_ref().is_some_and(Play::dummy_visible);
    let dummy_now = after.play.as_ref().is_some_and(Play::dummy_visible);
    let mut dummy_told = false;
    let completed = |play: Option<&Play>, trick: u8| {
        play.and_then(|p| p.tricks().get(trick as usize)).and_then(|t| t.winner().map(|w| (w, t.cards())))
    };
    let mut told_complete = Vec::new();
    let new: Vec<&(u8, Seat, Card)> = now.iter().filter(|played| !was.contains(played)).collect();
    for (i, &&(trick, seat, card)) in new.iter().enumerate() {
        events.push(Event::CardPlayed { trick, seat, card });
        if !dummy_was && dummy_now && !dummy_told {
            events.push(Event::DummyFaced);
            dummy_told = true;
        }
        let last_of_trick = new.get(i + 1).is_none_or(|next| next.0 != trick);
        if last_of_trick
            && let Some(done) = completed(after.play.as_ref(), trick)
            && completed(before.play.as_ref(), trick) != Some(done)
        {
            events.push(Event::TrickCompleted { trick });
            told_complete.push(trick);
        }
    }
    if !dummy_was && dummy_now && !dummy_told {
        events.push(Event::DummyFaced);
    }
    if let Some(play) = after.play.as_ref() {
        for trick in 0..play.completed_tricks() {
            if !told_complete.contains(&trick)
                && let Some(done) = completed(Some(play), trick)
                && completed(before.play.as_ref(), trick) != Some(done)
            {
                events.push(Event::TrickCompleted { trick });
            }
        }
    }

    if before.obligations() != after.obligations() || before.penalty_cards() != after.penalty_cards() {
        events.push(Event::ObligationsChanged);
    }

    // Decisions: those settled, then those raised.
    for decision in &after.decisions {
        let was_settled = before.decisions.iter().find(|d| d.id == decision.id).is_some_and(|d| d.settled.is_some());
        let existed = before.decisions.iter().any(|d| d.id == decision.id);
        if existed && !was_settled && decision.settled.is_some() {
            events.push(Event::RectificationChosen { id: decision.id });
        }
    }
    for decision in after.decisions.iter().skip(before.decisions.len()) {
        events.push(Event::RectificationOffered { id: decision.id });
        if decision.settled.is_some() {
            events.push(Event::RectificationChosen { id: decision.id });
        }
    }

    // Calls for the official.
    for call in &after.official_calls {
        match before.official_calls.iter().find(|c| c.id == call.id) {
            None => {
                events.push(Event::OfficialCalled { id: call.id });
                if call.resolved.is_some() {
                    events.push(Event::OfficialCallResolved { id: call.id });
                }
            }
            Some(was) if was.resolved.is_none() && call.resolved.is_some() => {
                events.push(Event::OfficialCallResolved { id: call.id });
            }
            Some(_) => {}
        }
    }

    // Hands faced for inspection (rubber Law 69), before the claim that tells of it.
    let inspected =
        |table: &DealInProgress, seat: Seat| table.play.as_ref().is_some_and(|p| p.faced_for_inspection(seat));
    for seat in Seat::ALL {
        if !inspected(before, seat) && inspected(after, seat) {
            events.push(Event::HandFaced { seat });
        }
    }

    // Claims.
    let old_claims = before.claims();
    for (info, record) in after.claims() {
        match old_claims.iter().find(|(i, _)| i.id == info.id) {
            None => events.push(Event::ClaimMade { id: info.id }),
            Some((was_info, was_record)) => {
                if was_info.adjudication.is_none() && info.adjudication.is_some() {
                    events.push(Event::ClaimAdjudicated { id: info.id });
                } else if *was_record != record && !only_faced_for_inspection(was_record, record) {
                    events.push(Event::ClaimAnswered { id: info.id });
                }
            }
        }
    }

    // The end.
    if before.outcome.is_none()
        && let Some(outcome) = &after.outcome
    {
        events.push(if outcome.ending == super::Ending::Abandoned {
            Event::DealAbandoned
        } else {
            Event::DealFinished
        });
    }
    events
}
