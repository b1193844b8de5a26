//! The decisions irregularities bring: each engine's pending rectification turned into a
//! record with its options and the seats entitled to each, kept in step with the engines
//! after every action, and a choice of an option applied. Apart from the recording of facts
//! because a decision can arise from a call or card no fact named.

use crate::auction::PendingIrregularity;
use crate::cards::SuitSet;
use crate::contract::Call;
use crate::irregularities::Chooser;
use crate::irregularities::auction::{
    AuctionChoice, CallRequirement, IrregularityKind as AuctionIrregularity, OptionKind,
};
use crate::irregularities::play::{Decision, LeadChoice, PlayOption, Situation};
use crate::law::Law;
use crate::play::TrumpIntent;
use crate::seat::Seat;

use super::recording::auction_fact_kind;
use super::records::{Choice, PendingSource};
use super::{
    Action, Actor, DealInProgress, DecisionRecord, Effects, Fact, FactKind, RectificationOption, Settlement, TableError,
};

impl DealInProgress {
    /// A choice of an option of the open decision, by a player the Laws entitle (or the table
    /// device recording his choice) or by the official.
    pub(super) fn choose(
        &mut self,
        decision: u32,
        option: usize,
        call: Option<Call>,
        relates_to: Option<SuitSet>,
        by: Actor,
    ) -> Result<(), TableError> {
        let index = self.decisions.iter().position(|d| d.id == decision).ok_or(TableError::NoSuchDecision(decision))?;
        let record = &self.decisions[index];
        if record.settled.is_some() {
            return Err(TableError::DecisionSettled(decision));
        }
        let chosen = record.options.get(option).ok_or(TableError::NoSuchOption { decision, option })?.clone();
        if let Actor::Seat(seat) = by
            && !chosen.chooser_seats.contains(&seat)
        {
            return Err(TableError::NotEntitled {
                seat,
                option: chosen.name,
                chooser: chosen.chooser,
                law: chosen.law,
            });
        }
        match chosen.choice {
            Choice::Auction(kind) => {
                let choice = AuctionChoice { option: kind, call };
                self.auction = match relates_to {
                    Some(suits) => self.auction.rectify_artificial(choice, suits)?,
                    None => self.auction.rectify(choice)?,
                };
                self.play = None;
                self.after_auction()?;
            }
            Choice::Play(option) => {
                let play = self.play_for("a rectification choice")?;
                let next = play.rectify(option)?;
                self.play = Some(next);
            }
        }
        self.decisions[index].settled = Some(Settlement { option: Some(option), by: Some(by), step: self.step });
        Ok(())
    }

    /// The decision the engines are waiting for.
    fn pending_source(&self) -> Option<PendingSource> {
        match &self.play {
            Some(play) => play.decision().map(PendingSource::Play),
            None => self.auction.pending().cloned().map(PendingSource::Auction),
        }
    }

    /// Keeps the decision records in step with the engines: a decision that disappeared
    /// without a choice was settled by the call or play that condoned it (Laws 27A, 28B, 29A,
    /// 53A: by calling or playing over it); a new one is recorded with its options and linked
    /// to the irregularity that brought it.
    pub(super) fn track_decisions(&mut self, action: &Action, effects: &Effects) {
        let now = self.pending_source();
        let open = self.decisions.iter().position(|d| d.settled.is_none());
        if let Some(i) = open {
            if Some(&self.decisions[i].source) == now.as_ref() {
                return;
            }
            let (option, by) = match action {
                Action::Call { seat, .. } | Action::Play { seat, .. } => {
                    let option = self.decisions[i].options.iter().position(|o| {
                        o.chooser_seats.contains(seat)
                            && matches!(
                                o.choice,
                                Choice::Auction(OptionKind::AcceptByCalling | OptionKind::CallInTurn)
                                    | Choice::Play(PlayOption::AcceptLead)
                            )
                    });
                    (option, Some(Actor::Seat(*seat)))
                }
                // Rubber Law 54B, duplicate Law 54A: declarer who began to spread his hand is
                // deemed to have accepted the lead, in the way the play took it.
                Action::Irregularity { fact, .. } if fact.kind == FactKind::DeclarerBeganToSpread => {
                    let taken = match self.play.as_ref().map(|p| p.declarer()) {
                        Some(declarer) if declarer == fact.offender => PlayOption::AcceptLead,
                        _ => PlayOption::AcceptLeadAndBecomeDummy,
                    };
                    let option = self.decisions[i].options.iter().position(|o| o.choice == Choice::Play(taken));
                    (option, Some(Actor::Seat(fact.offender)))
                }
                _ => (None, None),
            };
            self.decisions[i].settled = Some(Settlement { option, by, step: self.step });
        }
        let Some(source) = now else { return };
        let irregularity = match (effects.chose, effects.record) {
            // The obligations of a claim played on (rubber Laws 69 and 70B) come from the claim,
            // not from an irregularity recorded before it.
            _ if claim_play(&source) => None,
            (Some(chosen), _) => self.decisions.iter().find(|d| d.id == chosen).and_then(|d| d.irregularity),
            (None, Some(record)) => Some(record),
            (None, None) => match fresh_fact(&source) {
                Some((fact, law)) => Some(self.add_record(fact, None, law)),
                None => self.irregularities.last().map(|r| r.id),
            },
        };
        let id = self.decisions.len() as u32 + 1;
        let (situation, law, options) = match &source {
            PendingSource::Auction(pending) => {
                (pending.irregularity().to_string(), pending.irregularity().law, auction_options(pending))
            }
            PendingSource::Play(decision) => (decision.situation.to_string(), decision.law, play_options(decision)),
        };
        if let Some(record) = irregularity.and_then(|r| self.irregularities.iter_mut().find(|i| i.id == r)) {
            record.decisions.push(id);
        }
        self.decisions.push(DecisionRecord {
            id,
            irregularity,
            situation,
            law,
            options,
            step: self.step,
            settled: None,
            source,
        });
    }
}

/// Whether a decision is one of a disputed claim played on (rubber Laws 69, 69B and 70B).
fn claim_play(source: &PendingSource) -> bool {
    matches!(
        source,
        PendingSource::Play(Decision {
            situation: Situation::ClaimLineBreach { .. }
                | Situation::ClaimTrumps { .. }
                | Situation::ClaimSuggestedPlay { .. },
            ..
        })
    )
}

/// The irregularity a decision raised by a call or card records, when the decision is about
/// that call or card (and not a later choice an earlier irregularity gives declarer).
fn fresh_fact(source: &PendingSource) -> Option<(Fact, Law)> {
    let fact = |kind, offender, call, card, trick: Option<u8>, description: String| Fact {
        kind,
        offender,
        call,
        card,
        trick,
        deliberate: false,
        designation: None,
        also_visible: Vec::new(),
        misinformed: None,
        relates_to: None,
        description,
    };
    match source {
        PendingSource::Auction(pending) => {
            let irregularity = pending.irregularity();
            let call = irregularity.call.and_then(|c| c.legal());
            let card = match &irregularity.kind {
                AuctionIrregularity::CardsExposed { cards, .. } => cards.first().copied(),
                _ => None,
            };
            Some((
                fact(
                    auction_fact_kind(&irregularity.kind),
                    irregularity.offender,
                    call,
                    card,
                    None,
                    irregularity.to_string(),
                ),
                irregularity.law,
            ))
        }
        PendingSource::Play(decision) => {
            let description = decision.situation.to_string();
            let made = match decision.situation {
                Situation::OpeningLeadOutOfTurn { offender, card } => {
                    fact(FactKind::OpeningLeadOutOfTurn, offender, None, Some(card), None, description)
                }
                Situation::DeclarerLeadOutOfTurn { from, card, .. } => {
                    fact(FactKind::LeadOutOfTurn, from, None, Some(card), None, description)
                }
                Situation::DefenderLeadOutOfTurn { offender, card, .. } => {
                    fact(FactKind::LeadOutOfTurn, offender, None, Some(card), None, description)
                }
                Situation::PrematurePlay { offender, card, .. } => {
                    fact(FactKind::PrematurePlay, offender, None, Some(card), None, description)
                }
                _ => return None,
            };
            Some((made, decision.law))
        }
    }
}

/// The options of an auction irregularity, with the seats entitled to each.
fn auction_options(pending: &PendingIrregularity) -> Vec<RectificationOption> {
    let offender = pending.irregularity().offender;
    pending
        .options()
        .iter()
        .map(|option| {
            let chooser_seats = match (option.chooser_seat, option.chooser) {
                (Some(seat), _) => vec![seat],
                (None, Chooser::Offender) => vec![offender],
                (None, Chooser::OffendersLho) => vec![offender.lho()],
                // Either member of the non-offending side (rubber Law 10C-style acceptance).
                (None, Chooser::NonOffendingSide) => vec![offender.rho(), offender.lho()],
                (None, Chooser::Declarer | Chooser::Official) => Vec::new(),
            };
            RectificationOption {
                name: option.kind.name().to_owned(),
                description: option.to_string(),
                law: option.law,
                chooser: option.chooser,
                chooser_seats,
                call: option.call,
                official_cards: Vec::new(),
                choice: Choice::Auction(option.kind),
            }
        })
        .collect()
}

/// The options of a play decision.
fn play_options(decision: &Decision) -> Vec<RectificationOption> {
    let seats: Vec<Seat> = decision.seats.iter().collect();
    decision
        .offers
        .iter()
        .map(|offer| {
            let effects: Vec<String> = offer.effects.iter().map(ToString::to_string).collect();
            let mut description = format!("{} ({})", offer.option, offer.law);
            if !effects.is_empty() {
                description.push_str(": ");
                description.push_str(&effects.join("; "));
            }
            RectificationOption {
                name: play_option_name(&offer.option).to_owned(),
                description,
                law: offer.law,
                chooser: decision.chooser,
                chooser_seats: seats.clone(),
                call: CallRequirement::None,
                official_cards: offer.option.concealed_card().into_iter().collect(),
                choice: Choice::Play(offer.option),
            }
        })
        .collect()
}

fn play_option_name(option: &PlayOption) -> &'static str {
    match option {
        PlayOption::AcceptLead => "accept_lead",
        PlayOption::AcceptLeadAndBecomeDummy => "accept_lead_and_become_dummy",
        PlayOption::RejectLead { .. } => "reject_lead",
        PlayOption::RetractLead => "retract_lead",
        PlayOption::Lead(LeadChoice::Require(_)) => "require_lead",
        PlayOption::Lead(LeadChoice::Forbid(_)) => "forbid_lead",
        PlayOption::Lead(LeadChoice::NoRestriction) => "no_lead_restriction",
        PlayOption::PartnerPlays(_) => "partner_plays",
        PlayOption::AcceptPlay => "accept_play",
        PlayOption::SubstitutePenaltyCard(_) => "substitute_penalty_card",
        PlayOption::DesignatePenaltyCard(_) => "designate_penalty_card",
        PlayOption::WithdrawAfterRevoke(_) => "withdraw_after_revoke",
        PlayOption::WithdrawCard => "withdraw_card",
        PlayOption::KeepCard => "keep_card",
        PlayOption::Waive => "waive",
        PlayOption::WithdrawAfterChange(_) => "withdraw_after_change",
        PlayOption::DesignateFromDummy(_) => "designate_from_dummy",
        PlayOption::AcceptClaimPlay => "accept_claim_play",
        PlayOption::WithdrawClaimPlay => "withdraw_claim_play",
        PlayOption::RequireTrumps(TrumpIntent::Draw) => "require_draw_trumps",
        PlayOption::RequireTrumps(TrumpIntent::Leave) => "require_leave_trumps",
        PlayOption::RequireTrumps(TrumpIntent::Unstated) => "no_trump_requirement",
        PlayOption::ProhibitPlay(_) => "prohibit_play",
        PlayOption::RestoreEquity { .. } => "restore_equity",
    }
}
