//! The deal in progress into the contract's messages: the table as one viewer may see it, each
//! event with everything in it (filtered per watcher by [`filter_event`]), and the deal's full
//! record. Who may see which cards is the laws' decision ([`laws::table::Viewer`]); this module
//! only shapes messages.

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::game::v1 as game;
use laws::auction::CallStatus;
use laws::irregularities::auction::{CallRequirement, RecordedCall};
use laws::penalty::{PenaltyCard, PenaltyCardKind};
use laws::play::{ClaimRecord, ClaimStatus, Trick};
use laws::table::{
    ClaimInfo, DealInProgress, DealResult, DecisionRecord, Ending, Event, IrregularityRecord, Obligation,
    ObligationKind, OfficialCall, Outcome, Phase, Step, Viewer, sees_dealt_hand, sees_finished_deal,
};
use laws::{Code, Law, Seat, Side};
use platform::auth::{Principal, Role};

use crate::stored::{StoredAction, StoredEvent, stored_action::Command};
use crate::translate::{self, Record, record_id};

/// A deal and what its rendering needs besides the laws' state.
pub struct DealContext<'a> {
    /// The table.
    pub table_id: &'a str,
    /// The table's version.
    pub version: u64,
    /// The deal.
    pub deal_id: &'a str,
    /// The setup as resolved at the start.
    pub setup: &'a game::DealSetup,
    /// The state.
    pub state: &'a DealInProgress,
    /// The deal's commands, by step (the start is step 0).
    pub actions: &'a [std::sync::Arc<StoredAction>],
}

/// Who a principal is at a deal with these players (by seat): the arbiter sees as the official,
/// one of the four as that player, anyone else as a spectator.
pub fn viewer(principal: &Principal, players: &[String; 4]) -> Viewer {
    if principal.has(Role::Arbiter) {
        return Viewer::Official;
    }
    match seat_of(principal, players) {
        Some(seat) => Viewer::Player(seat),
        None => Viewer::Spectator,
    }
}

/// Whether `principal` is outside the table of a duplicate board (a deal under `code`): not one
/// of its four players, nor club staff (desk, director, committee, administration) nor another
/// service. Until the board is released, such a principal is shown nothing of its cards, calls
/// and plays, since the board is still to be played elsewhere (duplicate Law 6: every table
/// plays the same cards).
pub fn outside_board(principal: &Principal, players: &[String; 4], code: Code) -> bool {
    code == Code::Duplicate
        && seat_of(principal, players).is_none()
        && !principal.has_any(&[Role::Desk, Role::Arbiter, Role::Committee, Role::Admin, Role::Service])
}

/// The seat a principal with the player role holds at a deal with these players.
pub fn seat_of(principal: &Principal, players: &[String; 4]) -> Option<Seat> {
    if !principal.has(Role::Player) {
        return None;
    }
    Seat::ALL.into_iter().find(|seat| players[seat.index()] == principal.subject)
}

fn viewer_proto(viewer: Viewer) -> game::Viewer {
    match viewer {
        Viewer::Official => game::Viewer { kind: game::ViewerKind::Arbiter as i32, seat: 0 },
        Viewer::Player(seat) => game::Viewer { kind: game::ViewerKind::Player as i32, seat: seat.to_proto() },
        Viewer::Spectator => game::Viewer { kind: game::ViewerKind::Spectator as i32, seat: 0 },
    }
}

fn seat_proto(seat: Option<Seat>) -> i32 {
    seat.map_or(pb::Seat::Unspecified as i32, Seat::to_proto)
}

/// The contract's phase.
pub fn phase_proto(phase: Phase) -> game::DealPhase {
    match phase {
        Phase::Auction => game::DealPhase::Auction,
        Phase::Play => game::DealPhase::Play,
        Phase::Claim => game::DealPhase::Claim,
        Phase::ResultEntry => game::DealPhase::ResultEntry,
        Phase::Finished => game::DealPhase::Finished,
        Phase::Abandoned => game::DealPhase::Abandoned,
    }
}

fn recorded_call(call: RecordedCall) -> pb::Call {
    match call.legal() {
        Some(call) => call.into(),
        // A bid above seven (Law 38) is shown as made.
        None => match call {
            RecordedCall::Bid { level, denomination } => pb::Call {
                kind: Some(pb::call::Kind::Bid(pb::Bid {
                    level: u32::from(level),
                    denomination: denomination.to_proto(),
                })),
            },
            _ => pb::Call { kind: None },
        },
    }
}

fn call_status(status: CallStatus) -> game::CallStatus {
    match status {
        CallStatus::Made => game::CallStatus::Legal,
        // An inadmissible double nobody drew attention to stands as the players made it (Law 36).
        CallStatus::MadeOutOfRotation { .. }
        | CallStatus::DeemedPass { .. }
        | CallStatus::Substituted { .. }
        | CallStatus::Unnoticed { .. } => game::CallStatus::Accepted,
        CallStatus::Pending => game::CallStatus::Pending,
        CallStatus::Cancelled { .. } => game::CallStatus::Cancelled,
    }
}

fn trick_proto(number: usize, trick: &Trick) -> game::Trick {
    game::Trick {
        number: number as u32 + 1,
        leader: trick.leader().to_proto(),
        cards: trick
            .in_order()
            .map(|(seat, card)| game::PlayedCard { seat: seat.to_proto(), card: Some(card.into()) })
            .collect(),
        winner: seat_proto(trick.winner()),
    }
}

fn restriction_proto(obligation: &Obligation) -> game::Restriction {
    use game::RestrictionKind as K;
    let kind = match obligation.kind {
        ObligationKind::PassNextTurn => K::PassNextTurn,
        ObligationKind::PassRestOfAuction => K::PassRestOfAuction,
        ObligationKind::NoDoubleOrRedouble => K::NoDoubleOrRedouble,
        ObligationKind::MustRepeatCall => K::MustRepeatCall,
        ObligationKind::LeadRequireOrForbid => K::LeadRequireOrForbid,
        ObligationKind::LeadForbidAnyOneSuit => K::LeadForbidAnyOneSuit,
        ObligationKind::LeadRequired => K::LeadRequired,
        ObligationKind::LeadForbidden => K::LeadForbidden,
        ObligationKind::PlayHighest => K::PlayHighest,
        ObligationKind::PlayLowest => K::PlayLowest,
        ObligationKind::PlaySuitRequired => K::PlaySuitRequired,
        ObligationKind::PlaySuitForbidden => K::PlaySuitForbidden,
        ObligationKind::PlayCardRequired => K::PlayCardRequired,
        ObligationKind::ClaimLine => K::ClaimLine,
        ObligationKind::ClaimNoFinesse => K::ClaimNoFinesse,
        ObligationKind::ClaimTopDown => K::ClaimTopDown,
        ObligationKind::ClaimDrawTrumps => K::ClaimDrawTrumps,
        ObligationKind::ClaimLeaveTrumps => K::ClaimNotDrawTrumps,
    };
    game::Restriction {
        seat: obligation.seat.to_proto(),
        kind: kind as i32,
        suits: obligation.suits.iter().map(|s| s.to_proto()).collect(),
        law: Some(obligation.law.into()),
        description: obligation.description.clone(),
    }
}

fn penalty_card_proto(card: &PenaltyCard) -> game::PenaltyCard {
    game::PenaltyCard {
        card: Some(card.card.into()),
        owner: card.owner.to_proto(),
        kind: match card.kind {
            PenaltyCardKind::Major => game::PenaltyCardKind::Major,
            PenaltyCardKind::Minor => game::PenaltyCardKind::Minor,
        } as i32,
        law: Some(card.law.into()),
    }
}

/// The contract's result of the laws'.
pub fn result_proto(result: &DealResult, honors: &[laws::score::honors::HonorsClaim]) -> pb::DealResult {
    let outcome = match result {
        DealResult::PassedOut => pb::deal_result::Outcome::PassedOut(pb::PassedOut {}),
        DealResult::Played { contract, tricks } => pb::deal_result::Outcome::Played(pb::PlayedContract {
            contract: Some((*contract).into()),
            tricks: u32::from(*tricks),
        }),
    };
    pb::DealResult { outcome: Some(outcome), honors: honors.iter().map(translate::honors_proto).collect() }
}

fn ending_proto(ending: Ending) -> game::DealEnding {
    match ending {
        Ending::PlayedOut => game::DealEnding::PlayedOut,
        Ending::Claimed => game::DealEnding::Claimed,
        Ending::Conceded => game::DealEnding::Conceded,
        Ending::ClaimAdjudicated => game::DealEnding::ClaimAdjudicated,
        Ending::PassedOut => game::DealEnding::PassedOut,
        Ending::ResultEntered => game::DealEnding::ResultEntered,
        Ending::Abandoned => game::DealEnding::Abandoned,
    }
}

fn hands_proto(hands: Vec<(Seat, laws::CardSet)>) -> Vec<pb::SeatHand> {
    hands.into_iter().map(pb::SeatHand::from).collect()
}

impl DealContext<'_> {
    fn action(&self, step: Step) -> Option<&StoredAction> {
        self.actions.get(step as usize).map(|action| &**action)
    }

    fn at(&self, step: Step) -> Option<prost_types::Timestamp> {
        self.action(step).and_then(|a| a.at)
    }

    fn actor(&self, step: Step) -> String {
        self.action(step).map(|a| a.actor.clone()).unwrap_or_default()
    }

    fn id(&self, record: Record, number: u32) -> String {
        record_id(self.deal_id, record, number)
    }

    /// The code of Laws in force.
    pub fn code(&self) -> Code {
        self.state.code()
    }

    fn auction_entry(&self, index: usize) -> game::AuctionEntry {
        let entry = self.state.auction().calls()[index];
        let irregularity = self.state.irregularities().iter().find(|r| r.call_index == Some(index));
        game::AuctionEntry {
            index: index as u32,
            seat: entry.seat.to_proto(),
            call: Some(recorded_call(entry.call)),
            status: call_status(entry.status) as i32,
            irregularity_id: irregularity.map(|r| self.id(Record::Irregularity, r.id)).unwrap_or_default(),
            artificial: translate::artificial_proto(entry.relates_to),
        }
    }

    fn auction(&self) -> Vec<game::AuctionEntry> {
        (0..self.state.auction().calls().len()).map(|i| self.auction_entry(i)).collect()
    }

    fn tricks(&self) -> Vec<game::Trick> {
        self.state
            .play()
            .map(|p| p.tricks().iter().enumerate().map(|(i, t)| trick_proto(i, t)).collect())
            .unwrap_or_default()
    }

    fn tricks_won(&self) -> game::TrickCount {
        match self.state.play() {
            Some(play) => game::TrickCount {
                north_south: u32::from(play.tricks_won(Side::NorthSouth)),
                east_west: u32::from(play.tricks_won(Side::EastWest)),
            },
            None => game::TrickCount::default(),
        }
    }

    fn contract(&self) -> Option<pb::DeclaredContract> {
        self.state.contract().map(Into::into)
    }

    /// The irregularity record as the contract has it.
    pub fn irregularity(&self, record: &IrregularityRecord) -> game::IrregularityRecord {
        let fact = &record.fact;
        game::IrregularityRecord {
            irregularity_id: self.id(Record::Irregularity, record.id),
            fact: Some(game::IrregularityFact {
                kind: translate::fact_kind_proto(fact.kind) as i32,
                offender: fact.offender.to_proto(),
                call: fact.call.map(Into::into),
                card: fact.card.map(Into::into),
                trick_number: fact.trick.map_or(0, u32::from),
                description: fact.description.clone(),
                deliberate: fact.deliberate,
                designation: fact.designation.map(translate::designation_proto),
                also_visible: fact.also_visible.iter().map(|c| (*c).into()).collect(),
                artificial: translate::artificial_proto(fact.relates_to),
                misinformed: seat_proto(fact.misinformed),
            }),
            pointed_out_by: seat_proto(record.pointed_out_by),
            recorded_by: self.actor(record.step),
            recorded_at: self.at(record.step),
            law: Some(record.law.into()),
            decision_ids: record.decisions.iter().map(|d| self.id(Record::Decision, *d)).collect(),
        }
    }

    /// The arbiter call as the contract has it.
    pub fn arbiter_call(&self, call: &OfficialCall) -> game::ArbiterCall {
        let resolved = call.resolved.as_ref();
        game::ArbiterCall {
            arbiter_call_id: self.id(Record::ArbiterCall, call.id),
            table_id: self.table_id.to_owned(),
            deal_id: self.deal_id.to_owned(),
            called_by_seat: seat_proto(call.seat),
            called_by: self.actor(call.step),
            reason: call.reason.clone(),
            called_at: self.at(call.step),
            status: if resolved.is_some() { game::ArbiterCallStatus::Resolved } else { game::ArbiterCallStatus::Open }
                as i32,
            irregularity_ids: call.irregularities.iter().map(|i| self.id(Record::Irregularity, *i)).collect(),
            claim_id: call.claim.map(|c| self.id(Record::Claim, c)).unwrap_or_default(),
            resolved_at: resolved.and_then(|(step, _)| self.at(*step)),
            resolution: resolved.map(|(_, note)| note.clone()).unwrap_or_default(),
        }
    }

    /// Who `principal` is at this deal.
    pub fn viewer_of(&self, principal: &Principal) -> Viewer {
        viewer(principal, &translate::players(self.setup))
    }

    /// The decision as the contract has it for `viewer`: an option's cards of hands not every
    /// player may see (rubber Law 62's twelfth-trick options) only for the official. The
    /// descriptions never name them.
    pub fn decision(&self, decision: &DecisionRecord, viewer: Viewer) -> game::RectificationDecision {
        let settled = decision.settled.as_ref();
        game::RectificationDecision {
            decision_id: self.id(Record::Decision, decision.id),
            irregularity_id: decision.irregularity.map(|i| self.id(Record::Irregularity, i)).unwrap_or_default(),
            options: decision
                .options
                .iter()
                .enumerate()
                .map(|(i, option)| game::RectificationOption {
                    option_id: (i + 1).to_string(),
                    kind: option.name.clone(),
                    description: option.description.clone(),
                    law: Some(option.law.into()),
                    chooser: option.chooser.to_proto(),
                    chooser_seats: option.chooser_seats.iter().map(|s| s.to_proto()).collect(),
                    call_requirement: match option.call {
                        CallRequirement::None => String::new(),
                        requirement => requirement.to_string(),
                    },
                    official_cards: if viewer == Viewer::Official {
                        option.official_cards.iter().map(|c| (*c).into()).collect()
                    } else {
                        Vec::new()
                    },
                })
                .collect(),
            status: if settled.is_some() { game::DecisionStatus::Chosen } else { game::DecisionStatus::Open } as i32,
            chosen_option_id: settled.and_then(|s| s.option).map(|i| (i + 1).to_string()).unwrap_or_default(),
            chosen_by: settled.map(|s| self.actor(s.step)).unwrap_or_default(),
            chosen_at: settled.and_then(|s| self.at(s.step)),
        }
    }

    /// The claim as the contract has it.
    pub fn claim(&self, info: &ClaimInfo, record: &ClaimRecord) -> game::Claim {
        let mut answers: Vec<game::ClaimAnswer> = record
            .agreed
            .iter()
            .map(|seat| game::ClaimAnswer { seat: seat.to_proto(), reply: game::ClaimReply::Accept as i32 })
            .collect();
        answers.extend(
            record
                .disputed
                .iter()
                .map(|seat| game::ClaimAnswer { seat: seat.to_proto(), reply: game::ClaimReply::Dispute as i32 }),
        );
        let status = match record.status {
            ClaimStatus::Pending => game::ClaimStatus::Pending,
            ClaimStatus::Agreed => game::ClaimStatus::Accepted,
            ClaimStatus::Adjudicated => game::ClaimStatus::Adjudicated,
            // Disputed, and play continued (rubber Law 69) or the concession was withdrawn.
            ClaimStatus::Disputed | ClaimStatus::PlayContinued | ClaimStatus::Withdrawn => game::ClaimStatus::Disputed,
        };
        let adjudication = info.adjudication.as_ref().map(|(step, reasons)| {
            let cited = match self.action(*step).and_then(|a| a.command.as_ref()) {
                Some(Command::Adjudicate(request)) => request.law.clone(),
                _ => None,
            };
            game::ClaimAdjudication {
                tricks: u32::from(record.awarded.unwrap_or(0)),
                reasons: reasons.clone(),
                law: Some(cited.unwrap_or_else(|| self.adjudication_law(record).into())),
                decided_by: self.actor(*step),
                decided_at: self.at(*step),
            }
        });
        game::Claim {
            claim_id: self.id(Record::Claim, info.id),
            claimer: record.claim.claimer.to_proto(),
            kind: if info.concession { game::ClaimKind::Concession } else { game::ClaimKind::Claim } as i32,
            tricks: u32::from(record.claim.tricks),
            tricks_remaining: u32::from(record.remaining),
            statement: record.claim.statement.clone(),
            answers,
            status: status as i32,
            adjudication,
            made_at: self.at(info.step),
            line: record.claim.line.as_ref().map(translate::stated_line_proto),
            faced_for_inspection: record.faced_for_inspection.iter().map(|seat| seat.to_proto()).collect(),
        }
    }

    /// The Law an official applies to a disputed claim when his ruling cites none: duplicate
    /// Law 70A; Club Law 69 for declarer's claim, Club Law 70 for a defender's (the Laws
    /// crate's [`laws::play::adjudication_law`], which its own refusals cite too).
    fn adjudication_law(&self, record: &ClaimRecord) -> Law {
        let declarers_claim = self.state.contract().is_some_and(|c| c.declarer == record.claim.claimer);
        laws::play::adjudication_law(self.state.code(), declarers_claim)
    }

    /// The outcome as the contract has it.
    pub fn outcome(&self, outcome: &Outcome) -> game::DealOutcome {
        game::DealOutcome {
            result: outcome.result.as_ref().map(|r| result_proto(r, &outcome.honors)),
            ending: ending_proto(outcome.ending) as i32,
            tricks_transferred: u32::from(outcome.tricks_transferred),
            finished_at: self.at(outcome.step),
            equity_tricks: u32::from(self.equity().map_or(0, |(_, tricks)| tricks)),
            equity_to: self.equity().map_or(0, |(side, _)| side.to_proto()),
        }
    }

    /// The tricks transferred to restore equity after an established revoke (Law 64), if any.
    fn equity(&self) -> Option<(laws::Side, u8)> {
        self.state.play().and_then(laws::play::Play::equity_restored).filter(|(_, tricks)| *tricks > 0)
    }

    fn last_claim(&self) -> Option<game::Claim> {
        self.state.claims().last().map(|(info, record)| self.claim(info, record))
    }

    fn seed_commitment(&self) -> Vec<u8> {
        self.state.seed().map(|s| s.commitment().to_vec()).unwrap_or_default()
    }

    /// The seed, once the deal is over and `viewer` may see its cards.
    fn seed_for(&self, viewer: Viewer) -> Vec<u8> {
        match self.state.seed() {
            Some(seed) if self.state.is_over() && sees_finished_deal(viewer, self.code()) => seed.0.to_vec(),
            _ => Vec::new(),
        }
    }

    /// The table as `viewer` may see it.
    pub fn table_view(&self, viewer: Viewer) -> game::TableView {
        let state = self.state;
        game::TableView {
            table_id: self.table_id.to_owned(),
            version: self.version,
            deal_id: self.deal_id.to_owned(),
            setup: Some(self.setup.clone()),
            phase: phase_proto(state.phase()) as i32,
            viewer: Some(viewer_proto(viewer)),
            hands: hands_proto(state.visible_hands(viewer)),
            auction: self.auction(),
            contract: self.contract(),
            contract_scored: state.contract_scored().map(Into::into),
            face_down_lead: seat_proto(state.face_down_lead()),
            tricks: self.tricks(),
            tricks_won: Some(self.tricks_won()),
            next_to_act: seat_proto(state.next_to_act()),
            restrictions: state.obligations().iter().map(restriction_proto).collect(),
            penalty_cards: state.penalty_cards().iter().map(penalty_card_proto).collect(),
            claim: self.last_claim(),
            open_arbiter_calls: state.open_official_calls().map(|c| self.arbiter_call(c)).collect(),
            pending_decisions: state.open_decision().map(|d| self.decision(d, viewer)).into_iter().collect(),
            outcome: state.outcome().map(|o| self.outcome(o)),
            seed_commitment: self.seed_commitment(),
            seed: self.seed_for(viewer),
            started_at: self.at(0),
        }
    }

    /// Every rectification decision of the deal still open, or the one named, as `viewer` may
    /// see them.
    pub fn decisions(&self, only: Option<u32>, viewer: Viewer) -> Vec<game::RectificationDecision> {
        self.state
            .decisions()
            .iter()
            .filter(|d| match only {
                Some(id) => d.id == id,
                None => d.settled.is_none(),
            })
            .map(|d| self.decision(d, viewer))
            .collect()
    }

    /// One event with everything in it: every hand where an event shows hands (the filter
    /// removes what a watcher may not see) and the seed at the end.
    pub fn event(&self, event: &Event, sequence: u64) -> game::TableEvent {
        use game::table_event::Event as E;
        let state = self.state;
        let step = state.step();
        let all_hands = || -> Vec<pb::SeatHand> {
            state.deal().map(|deal| Seat::ALL.iter().map(|s| (*s, deal.hand(*s)).into()).collect()).unwrap_or_default()
        };
        let body = match *event {
            Event::DealStarted => E::DealStarted(game::DealStarted {
                setup: Some(self.setup.clone()),
                seed_commitment: self.seed_commitment(),
                hands: all_hands(),
            }),
            Event::CallMade { index } => E::CallMade(game::CallMade {
                entry: Some(self.auction_entry(index)),
                next_to_act: seat_proto(state.next_to_act()),
            }),
            Event::CallCancelled { index } => E::CallCancelled(game::CallCancelled {
                index: index as u32,
                next_to_act: seat_proto(state.next_to_act()),
            }),
            Event::AuctionClosed => E::AuctionClosed(game::AuctionClosed {
                contract: self.contract(),
                opening_leader: seat_proto(state.contract().map(|c| c.opening_leader())),
            }),
            Event::CardPlayed { trick, seat, card } => E::CardPlayed(game::CardPlayed {
                trick_number: u32::from(trick) + 1,
                played: Some(game::PlayedCard { seat: seat.to_proto(), card: Some(card.into()) }),
                next_to_act: seat_proto(state.next_to_act()),
            }),
            Event::CardWithdrawn { trick, seat, card } => E::CardWithdrawn(game::CardWithdrawn {
                trick_number: u32::from(trick) + 1,
                withdrawn: Some(game::PlayedCard { seat: seat.to_proto(), card: Some(card.into()) }),
            }),
            Event::FaceDownLead { seat } | Event::FaceDownLeadReturned { seat } => {
                E::FaceDownLead(game::FaceDownLead {
                    seat: seat.to_proto(),
                    returned: matches!(event, Event::FaceDownLeadReturned { .. }),
                    next_to_act: seat_proto(state.next_to_act()),
                })
            }
            Event::DummyFaced => {
                E::DummyFaced(game::DummyFaced { dummy: state.play().map(|p| (p.dummy(), p.hand(p.dummy())).into()) })
            }
            // Face up for everyone at the table (rubber Law 69), as dummy's hand is.
            Event::HandFaced { seat } => {
                E::HandFaced(game::HandFaced { hand: state.play().map(|p| (seat, p.hand(seat)).into()) })
            }
            Event::TrickCompleted { trick } => E::TrickCompleted(game::TrickCompleted {
                trick: state
                    .play()
                    .and_then(|p| p.tricks().get(trick as usize).map(|t| trick_proto(trick as usize, t))),
                tricks_won: Some(self.tricks_won()),
            }),
            Event::ObligationsChanged => E::ObligationsChanged(game::ObligationsChanged {
                restrictions: state.obligations().iter().map(restriction_proto).collect(),
                penalty_cards: state.penalty_cards().iter().map(penalty_card_proto).collect(),
            }),
            Event::IrregularityRecorded { id } => E::IrregularityRecorded(
                state.irregularities().iter().find(|r| r.id == id).map(|r| self.irregularity(r)).unwrap_or_default(),
            ),
            Event::OfficialCalled { id } => E::ArbiterCalled(self.official_call_by_id(id)),
            Event::OfficialCallResolved { id } => E::ArbiterCallResolved(self.official_call_by_id(id)),
            Event::RectificationOffered { id } => E::RectificationOffered(self.decision_by_id(id)),
            Event::RectificationChosen { id } => E::RectificationChosen(self.decision_by_id(id)),
            Event::ClaimMade { id } => E::ClaimMade(self.claim_by_id(id)),
            Event::ClaimAnswered { id } => E::ClaimAnswered(self.claim_by_id(id)),
            Event::ClaimAdjudicated { id } => E::ClaimAdjudicated(self.claim_by_id(id)),
            Event::DealFinished => E::DealFinished(game::DealFinished {
                outcome: state.outcome().map(|o| self.outcome(o)),
                seed: state.seed().map(|s| s.0.to_vec()).unwrap_or_default(),
                hands: all_hands(),
            }),
            Event::DealAbandoned => E::DealAbandoned(game::DealAbandoned {
                reason: state.outcome().map(|o| o.reason.clone()).unwrap_or_default(),
            }),
        };
        game::TableEvent {
            sequence,
            occurred_at: self.at(step),
            deal_id: self.deal_id.to_owned(),
            version: self.version,
            event: Some(body),
        }
    }

    fn official_call_by_id(&self, id: u32) -> game::ArbiterCall {
        self.state.official_calls().iter().find(|c| c.id == id).map(|c| self.arbiter_call(c)).unwrap_or_default()
    }

    /// A decision with everything in it, as journaled ([`filter_event`] removes what a watcher
    /// may not see).
    fn decision_by_id(&self, id: u32) -> game::RectificationDecision {
        self.state
            .decisions()
            .iter()
            .find(|d| d.id == id)
            .map(|d| self.decision(d, Viewer::Official))
            .unwrap_or_default()
    }

    fn claim_by_id(&self, id: u32) -> game::Claim {
        self.state
            .claims()
            .into_iter()
            .find(|(info, _)| info.id == id)
            .map(|(info, record)| self.claim(info, record))
            .unwrap_or_default()
    }

    /// The event as journaled: with the players and code the filter needs.
    pub fn stored_event(&self, event: &Event, sequence: u64) -> StoredEvent {
        StoredEvent {
            event: Some(self.event(event, sequence)),
            players: self.setup.players.clone(),
            code: self.code().to_proto(),
            board: match &self.setup.source {
                Some(game::deal_setup::Source::Board(board)) => Some(game::BoardWithheld {
                    session_id: board.session_id.clone(),
                    board_number: board.board_number,
                    deal_ended: false,
                }),
                _ => None,
            },
        }
    }

    /// The deal's full record as `viewer` may see it: everything for the official; the hands
    /// and seed of a live deal or a duplicate board never for anyone else.
    pub fn record(&self, viewer: Viewer) -> game::DealRecord {
        let state = self.state;
        let hands_visible = viewer == Viewer::Official || (state.is_over() && sees_finished_deal(viewer, self.code()));
        let deal = state.deal().filter(|_| hands_visible);
        game::DealRecord {
            deal_id: self.deal_id.to_owned(),
            table_id: self.table_id.to_owned(),
            setup: Some(self.setup.clone()),
            deal: deal.map(|d| (*d).into()),
            deal_pbn: deal.map(|d| d.to_pbn(Seat::North)).unwrap_or_default(),
            auction: self.auction(),
            contract: self.contract(),
            tricks: self.tricks(),
            irregularities: state.irregularities().iter().map(|r| self.irregularity(r)).collect(),
            reserved_adjustments: state
                .reserved_adjustments()
                .iter()
                .map(|r| game::ReservedAdjustment {
                    offending_side: r.offending_side.to_proto(),
                    law: Some(r.law.into()),
                })
                .collect(),
            decisions: state.decisions().iter().map(|d| self.decision(d, viewer)).collect(),
            arbiter_calls: state.official_calls().iter().map(|c| self.arbiter_call(c)).collect(),
            claims: state.claims().into_iter().map(|(info, record)| self.claim(info, record)).collect(),
            outcome: state.outcome().map(|o| self.outcome(o)),
            seed_commitment: self.seed_commitment(),
            seed: if hands_visible { state.seed().map(|s| s.0.to_vec()).unwrap_or_default() } else { Vec::new() },
            started_at: self.at(0),
        }
    }
}

/// A journaled event as `principal` may see it: a player only his own hand at the start, the
/// hands and seed at the end only where [`sees_finished_deal`] allows, and an option's cards of
/// hidden hands (rubber Law 62) only the official.
pub fn filter_event(stored: &StoredEvent, principal: &Principal) -> game::TableEvent {
    use game::table_event::Event as E;
    let mut event = stored.event.clone().unwrap_or_default();
    let players = {
        let mut out: [String; 4] = Default::default();
        for player in &stored.players {
            if let Ok(seat) = Seat::from_proto("seat", player.seat) {
                out[seat.index()] = player.player_id.clone();
            }
        }
        out
    };
    let viewer = viewer(principal, &players);
    let code = Code::from_proto("code", stored.code).unwrap_or(Code::Duplicate);
    if outside_board(principal, &players, code) {
        let mut withheld = stored.board.clone().unwrap_or_default();
        withheld.deal_ended = matches!(event.event, Some(E::DealFinished(_) | E::DealAbandoned(_)));
        event.event = Some(E::BoardWithheld(withheld));
        return event;
    }
    match &mut event.event {
        Some(E::DealStarted(started)) => {
            started.hands.retain(|hand| Seat::from_proto("seat", hand.seat).is_ok_and(|s| sees_dealt_hand(viewer, s)));
        }
        Some(E::DealFinished(finished)) if !sees_finished_deal(viewer, code) => {
            finished.hands.clear();
            finished.seed.clear();
        }
        Some(E::RectificationOffered(decision) | E::RectificationChosen(decision)) if viewer != Viewer::Official => {
            for option in &mut decision.options {
                option.official_cards.clear();
            }
        }
        _ => {}
    }
    event
}

/// The kind of an event, for the journal's readers.
pub fn event_kind(event: &Event) -> &'static str {
    match event {
        Event::DealStarted => "deal_started",
        Event::CallMade { .. } => "call_made",
        Event::CallCancelled { .. } => "call_cancelled",
        Event::AuctionClosed => "auction_closed",
        Event::CardPlayed { .. } => "card_played",
        Event::CardWithdrawn { .. } => "card_withdrawn",
        Event::DummyFaced => "dummy_faced",
        Event::HandFaced { .. } => "hand_faced",
        Event::FaceDownLead { .. } => "face_down_lead",
        Event::FaceDownLeadReturned { .. } => "face_down_lead_returned",
        Event::TrickCompleted { .. } => "trick_completed",
        Event::ObligationsChanged => "obligations_changed",
        Event::IrregularityRecorded { .. } => "irregularity_recorded",
        Event::OfficialCalled { .. } => "arbiter_called",
        Event::OfficialCallResolved { .. } => "arbiter_call_resolved",
        Event::RectificationOffered { .. } => "rectification_offered",
        Event::RectificationChosen { .. } => "rectification_chosen",
        Event::ClaimMade { .. } => "claim_made",
        Event::ClaimAnswered { .. } => "claim_answered",
        Event::ClaimAdjudicated { .. } => "claim_adjudicated",
        Event::DealFinished => "deal_finished",
        Event::DealAbandoned => "deal_abandoned",
    }
}

#[cfg(test)]
mod tests;
