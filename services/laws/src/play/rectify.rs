//! Pending decisions: their options, Laws and effects, and applying the option chosen.

use crate::cards::{Card, CardSet, Suit};
use crate::irregularities::Chooser;
use crate::irregularities::play::{
    Decision, Effect, LeadChoice, Offer, PlayOption, PlayRequirement, Seats, Situation, Suits, TwelfthTrickCard,
};
use crate::law::{Code, Law};
use crate::penalty::{LeadPenalty, PenaltyCardKind};
use crate::seat::Seat;

use super::record::Events;
use super::{DesignationOutcome, LeadRestriction, Play, PlayError, PlayRestriction, RevokeStatus};

impl Play {
    /// The decision for `situation`: who chooses, and each option with its Law and effects.
    pub(crate) fn decision_for(&self, situation: &Situation) -> Decision {
        let declarer = Seats::single(self.declarer());
        let defenders: Seats = self.contract.declaring_side().opponents().seats().into_iter().collect();
        let offer = |option, law, effects| Offer { option, law, effects };
        match *situation {
            // Never pending: asked for once the play is over (Law 64; `Play::equity_decision`).
            Situation::RevokeEquity { .. } => self.equity_decision().unwrap_or_else(|| Decision {
                situation: situation.clone(),
                chooser: Chooser::Official,
                seats: Seats::EMPTY,
                law: self.cite(64, "", "C1"),
                offers: Vec::new(),
            }),
            Situation::ClaimLineBreach { .. }
            | Situation::ClaimTrumps { .. }
            | Situation::ClaimSuggestedPlay { .. } => self.claim_decision(situation),
            Situation::OpeningLeadOutOfTurn { offender, card } if self.declarer_saw_dummy => Decision {
                // Rubber Law 54B, duplicate Law 54C: he could have seen dummy's cards, so he
                // must accept the lead; nothing else is offered.
                situation: situation.clone(),
                chooser: Chooser::Declarer,
                seats: declarer,
                law: self.cite(54, "B", "C"),
                offers: vec![offer(
                    PlayOption::AcceptLead,
                    self.cite(54, "B", "C"),
                    vec![Effect::LeadStands { seat: offender, card }],
                )],
            },
            Situation::OpeningLeadOutOfTurn { offender, card } => {
                let stands = Effect::LeadStands { seat: offender, card };
                let mut offers = vec![
                    offer(PlayOption::AcceptLead, self.cite(54, "A", "B"), vec![stands]),
                    offer(
                        PlayOption::AcceptLeadAndBecomeDummy,
                        self.cite(54, "C", "A"),
                        vec![stands, Effect::DeclarerBecomesDummy { declarer: self.dummy() }],
                    ),
                ];
                offers.extend(self.rejections(offender, card, self.cite(54, "D", "D")));
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Declarer,
                    seats: declarer,
                    law: self.cite(54, "", ""),
                    offers,
                }
            }
            Situation::DeclarerLeadOutOfTurn { from, card, proper_leader } => {
                let mut retract = vec![Effect::CardReturned { seat: from, card }];
                let retract_law = if self.is_defender(proper_leader) {
                    self.cite(55, "B1", "B1")
                } else {
                    retract.push(Effect::MustLeadFrom { seat: proper_leader });
                    self.cite(55, "B2", "B2")
                };
                // Rubber Law 55's last paragraph (duplicate 55C): a line of play that could have
                // been based on what the retracted card told declarer is redressed (Law 16).
                retract.push(Effect::InformationUnauthorized { side: self.contract.declaring_side() });
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::NonOffendingSide,
                    seats: defenders,
                    law: self.cite(55, "", ""),
                    offers: vec![
                        offer(
                            PlayOption::AcceptLead,
                            self.cite(55, "A", "A"),
                            vec![Effect::LeadStands { seat: from, card }],
                        ),
                        offer(PlayOption::RetractLead, retract_law, retract),
                    ],
                }
            }
            Situation::DefenderLeadOutOfTurn { offender, card, .. } => {
                let mut offers = vec![offer(
                    PlayOption::AcceptLead,
                    self.cite(56, "A", "A"),
                    vec![Effect::LeadStands { seat: offender, card }],
                )];
                offers.extend(self.rejections(offender, card, self.cite(56, "B", "B")));
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Declarer,
                    seats: declarer,
                    law: self.cite(56, "", ""),
                    offers,
                }
            }
            Situation::PrematurePlay { offender, .. } => {
                let partner = offender.partner();
                let led = self.current_trick().and_then(|t| t.suit_led());
                let mut requirements = vec![
                    (PlayRequirement::Highest, self.cite(57, "A", "A1")),
                    (PlayRequirement::Lowest, self.cite(57, "B", "A2")),
                ];
                let others = Suit::ALL.into_iter().rev().filter(|s| Some(*s) != led);
                if self.code == Code::Duplicate {
                    requirements.extend(others.clone().map(|s| (PlayRequirement::Suit(s), Law::duplicate(57, "A3"))));
                }
                requirements.extend(others.map(|s| (PlayRequirement::NotSuit(s), self.cite(57, "C", "A4"))));
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Declarer,
                    seats: declarer,
                    law: self.cite(57, "", "A"),
                    offers: requirements
                        .into_iter()
                        .map(|(requirement, law)| {
                            offer(
                                PlayOption::PartnerPlays(requirement),
                                law,
                                vec![Effect::PlayRequired { player: partner, requirement }],
                            )
                        })
                        .collect(),
                }
            }
            Situation::AuctionLeadPenalty { leader, ref penalty, law } => {
                let choices: Vec<LeadChoice> = match penalty {
                    LeadPenalty::RequireOrForbid(suits) => {
                        let suits: Suits = suits.iter().copied().collect();
                        suits.iter().map(LeadChoice::Require).chain([LeadChoice::Forbid(suits)]).collect()
                    }
                    LeadPenalty::ForbidAnyOneSuit => {
                        Suit::ALL.into_iter().rev().map(|s| LeadChoice::Forbid(Suits::single(s))).collect()
                    }
                    // Duplicate Law 26B: only the suits the offender did not specify in the legal auction.
                    LeadPenalty::ForbidOneOf(suits) => {
                        let mut suits = suits.clone();
                        suits.sort_unstable_by(|a, b| b.cmp(a));
                        suits.into_iter().map(|s| LeadChoice::Forbid(Suits::single(s))).collect()
                    }
                };
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Declarer,
                    seats: declarer,
                    law,
                    offers: choices
                        .into_iter()
                        .chain([LeadChoice::NoRestriction])
                        .map(|choice| offer(PlayOption::Lead(choice), law, lead_effects(leader, None, choice)))
                        .collect(),
                }
            }
            Situation::PenaltyCardLead { leader } => {
                let owner = leader.partner();
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Declarer,
                    seats: declarer,
                    law: self.cite(50, "", "D2"),
                    offers: self
                        .penalty_lead_choices(self.majors(owner))
                        .into_iter()
                        .map(|(choice, law)| {
                            offer(PlayOption::Lead(choice), law, lead_effects(leader, Some(owner), choice))
                        })
                        .collect(),
                }
            }
            Situation::DesignatePenaltyCard { owner } => {
                let playable = self.majors(owner).intersection(self.obligations(owner, None).before_penalty_cards);
                let law = self.cite(50, "", "D1");
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Declarer,
                    seats: declarer,
                    law: self.cite(50, "", "D1"),
                    offers: playable
                        .iter()
                        .map(|card| {
                            offer(
                                PlayOption::DesignatePenaltyCard(card),
                                law,
                                vec![Effect::PlayRequired { player: owner, requirement: PlayRequirement::Card(card) }],
                            )
                        })
                        .collect(),
                }
            }
            Situation::PenaltyCardNotPlayed { offender, card, trick } => {
                let law = self.cite(52, "B", "B2");
                let mut offers = vec![offer(
                    PlayOption::AcceptPlay,
                    self.cite(52, "A", "B1"),
                    vec![Effect::PlayStands { seat: offender, card }],
                )];
                // Rubber Law 69: no substitution (it makes his card a penalty card) for a
                // defender whose hand is faced for inspection.
                let substitutes = if self.faced_for_inspection(offender) {
                    CardSet::EMPTY
                } else {
                    self.substitutable_penalty_cards(offender, trick)
                };
                offers.extend(substitutes.iter().map(|penalty| {
                    offer(
                        PlayOption::SubstitutePenaltyCard(penalty),
                        law,
                        vec![
                            Effect::CardPlayed { seat: offender, card: penalty },
                            Effect::PenaltyCard { owner: offender, card, kind: PenaltyCardKind::Major },
                        ],
                    )
                }));
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Declarer,
                    seats: declarer,
                    law: self.cite(52, "", ""),
                    offers,
                }
            }
            Situation::RevokeCorrection { offender, trick, later, both_sides } => {
                let t = self.tricks[trick as usize];
                let law = if both_sides { Law::duplicate(62, "C3") } else { self.cite(62, "", "C1") };
                // Under Law 62C3 the other side's offender substitutes a legal card too.
                let offenders: Vec<Seat> = std::iter::once(offender)
                    .chain(self.revokes.iter().filter_map(|r| {
                        (both_sides
                            && r.trick == trick
                            && r.status == RevokeStatus::Corrected
                            && r.offender.side() != offender.side())
                        .then_some(r.offender)
                    }))
                    .collect();
                let withdrawn = |seat: Seat, card: Card| {
                    if both_sides && self.is_defender(seat) && !self.hand_faced(seat) {
                        Effect::PenaltyCard { owner: seat, card, kind: PenaltyCardKind::Major }
                    } else {
                        Effect::CardReturned { seat, card }
                    }
                };
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::NonOffendingSide,
                    seats: if self.is_defender(offender) { declarer } else { defenders },
                    law: self.cite(62, "", ""),
                    offers: later
                        .subsets()
                        .map(|seats| {
                            let mut effects: Vec<Effect> = seats
                                .iter()
                                .filter_map(|seat| t.card(seat).map(|card| withdrawn(seat, card)))
                                .collect();
                            effects.extend(offenders.iter().map(|seat| Effect::SubstituteLegalCard { seat: *seat }));
                            offer(PlayOption::WithdrawAfterRevoke(seats), law, effects)
                        })
                        .collect(),
                }
            }
            Situation::OffendingSideMayWithdraw { seat, card } => {
                let law = self.cite(62, "", "C2");
                let withdrawn = if self.is_defender(seat) && !self.hand_faced(seat) {
                    Effect::PenaltyCard { owner: seat, card, kind: PenaltyCardKind::Major }
                } else {
                    Effect::CardReturned { seat, card }
                };
                Decision {
                    situation: situation.clone(),
                    chooser: Chooser::Offender,
                    seats: Seats::single(if seat == self.dummy() { self.declarer() } else { seat }),
                    law,
                    offers: vec![
                        offer(PlayOption::WithdrawCard, law, vec![withdrawn]),
                        offer(PlayOption::KeepCard, law, vec![Effect::PlayStands { seat, card }]),
                    ],
                }
            }
            Situation::TwelfthTrickRevoke { partner, .. } => {
                let law = Law::rubber(62, "");
                let cards = self.twelfth_trick_cards(partner);
                let played = self.tricks[11].card(partner);
                let higher = cards.iter().max_by_key(|c| c.suit.index());
                let mut offers: Vec<Offer> = cards
                    .iter()
                    .map(|card| {
                        // Named without showing the partner's hand to the table.
                        let which = match played {
                            Some(p) if p == card => TwelfthTrickCard::AlreadyPlayed,
                            Some(_) => TwelfthTrickCard::Other,
                            None if Some(card) == higher => TwelfthTrickCard::HigherSuit,
                            None => TwelfthTrickCard::LowerSuit,
                        };
                        let requirement = PlayRequirement::OneOfTwo { card, which };
                        offer(
                            PlayOption::PartnerPlays(requirement),
                            law,
                            vec![Effect::PlayRequired { player: partner, requirement }],
                        )
                    })
                    .collect();
                offers.push(offer(PlayOption::Waive, law, Vec::new()));
                Decision { situation: situation.clone(), chooser: Chooser::Declarer, seats: declarer, law, offers }
            }
            Situation::ChangeOfPlay { trick, later, offending, law, .. } => {
                let t = self.tricks[trick as usize];
                let declaring = self.contract.declaring_side();
                let choosing = later.iter().next().map_or(declaring, Seat::side);
                Decision {
                    situation: situation.clone(),
                    // The side whose irregularity started it chooses as "the offender" (as
                    // in Law 62C2); the other side as the non-offending side.
                    chooser: if choosing == offending { Chooser::Offender } else { Chooser::NonOffendingSide },
                    seats: if choosing == declaring { declarer } else { later },
                    law,
                    offers: later
                        .subsets()
                        .map(|seats| {
                            let mut effects: Vec<Effect> = Vec::new();
                            for seat in seats.iter() {
                                if let Some(card) = t.card(seat) {
                                    effects.push(Effect::CardReturned { seat, card });
                                    effects.push(Effect::SubstituteCard { seat });
                                }
                            }
                            if !seats.is_empty() {
                                effects.push(Effect::InformationUnauthorized { side: offending });
                            }
                            offer(PlayOption::WithdrawAfterChange(seats), law, effects)
                        })
                        .collect(),
                }
            }
            Situation::IncompleteDesignation { designation } => {
                let dummy = self.dummy();
                let ruling = self.designation_ruling(designation);
                let (cards, chooser, seats) = match ruling.outcome {
                    DesignationOutcome::Deemed(card) => (CardSet::EMPTY.with(card), Chooser::Declarer, declarer),
                    DesignationOutcome::DeclarerDesignates(cards) => (cards, Chooser::Declarer, declarer),
                    DesignationOutcome::DefenderDesignates(cards) => (cards, Chooser::NonOffendingSide, defenders),
                };
                Decision {
                    situation: situation.clone(),
                    chooser,
                    seats,
                    law: ruling.law,
                    offers: cards
                        .iter()
                        .map(|card| {
                            offer(
                                PlayOption::DesignateFromDummy(card),
                                ruling.law,
                                vec![Effect::CardPlayed { seat: dummy, card }],
                            )
                        })
                        .collect(),
                }
            }
        }
    }

    /// Declarer's options when he refuses a defender's lead out of turn (Law 54D, 56B): the
    /// card becomes a major penalty card, and when the proper leader is the offender's partner
    /// declarer states his lead choice under Law 50D2 / 51B at once.
    ///
    /// For a defender whose hand is faced for inspection after declarer's disputed claim, the
    /// lead is only retracted: declarer "may not impose a penalty" (rubber Law 69), so the card
    /// goes back to the face-up hand and no lead restriction is offered.
    fn rejections(&self, offender: Seat, card: Card, law: Law) -> Vec<Offer> {
        if self.faced_for_inspection(offender) {
            let effects = vec![Effect::CardReturned { seat: offender, card }];
            return vec![Offer { option: PlayOption::RetractLead, law: Self::inspection_law(), effects }];
        }
        let penalty = Effect::PenaltyCard { owner: offender, card, kind: PenaltyCardKind::Major };
        let proper = self.current_trick().map(|t| t.leader()).unwrap_or(self.contract.opening_leader());
        if proper != offender.partner() {
            return vec![Offer { option: PlayOption::RejectLead { lead: None }, law, effects: vec![penalty] }];
        }
        self.penalty_lead_choices(self.majors(offender).with(card))
            .into_iter()
            .map(|(choice, _)| {
                let mut effects = vec![penalty];
                effects.extend(lead_effects(proper, Some(offender), choice));
                Offer { option: PlayOption::RejectLead { lead: Some(choice) }, law, effects }
            })
            .collect()
    }

    /// Declarer's choices, with their Laws, when a defender has the lead while his partner has
    /// the major penalty cards `majors` (Law 50D2; Law 51B for two or more; rubber Law 50-51).
    fn penalty_lead_choices(&self, majors: CardSet) -> Vec<(LeadChoice, Law)> {
        let suits: Suits = majors.iter().map(|c| c.suit).collect();
        let duplicate = self.code == Code::Duplicate;
        let mut choices = Vec::new();
        if suits.len() == 1 {
            let several = majors.len() > 1;
            for suit in suits.iter() {
                let (require, forbid) = match (duplicate, several) {
                    (true, false) => (Law::duplicate(50, "D2(a)"), Law::duplicate(50, "D2(a)")),
                    (true, true) => (Law::duplicate(51, "B1(a)"), Law::duplicate(51, "B1(b)")),
                    (false, false) => (Law::rubber(50, ""), Law::rubber(50, "")),
                    (false, true) => (Law::rubber(51, ""), Law::rubber(51, "")),
                };
                choices.push((LeadChoice::Require(suit), require));
                choices.push((LeadChoice::Forbid(Suits::single(suit)), forbid));
            }
            choices.push((LeadChoice::NoRestriction, self.cite(50, "", "D2(b)")));
        } else if suits.len() > 1 {
            for suit in suits.iter() {
                choices.push((LeadChoice::Require(suit), self.cite(51, "", "B2(a)")));
            }
            if duplicate {
                choices.extend(suits.non_empty_subsets().map(|s| (LeadChoice::Forbid(s), Law::duplicate(51, "B2(b)"))));
            } else {
                // Rubber Law 51: declarer "may prohibit ... leading every such suit".
                choices.push((LeadChoice::Forbid(suits), Law::rubber(51, "")));
            }
            choices.push((
                LeadChoice::NoRestriction,
                if duplicate { Law::duplicate(51, "B2(c)") } else { Law::rubber(50, "") },
            ));
        }
        choices
    }

    /// The penalty cards `offender` could legally have played instead of his card on `trick`
    /// (Law 52B2 duplicate, 52B rubber).
    fn substitutable_penalty_cards(&self, offender: Seat, trick: u8) -> CardSet {
        let mut before = self.clone();
        before.reopen(trick as usize);
        if let Some(card) = before.tricks[trick as usize].take(offender) {
            before.hands[offender.index()].insert(card);
        }
        let penalty: CardSet = before.penalty_cards().filter(|pc| pc.owner == offender).map(|pc| pc.card).collect();
        before.obligations(offender, None).before_penalty_cards.intersection(penalty)
    }

    /// The cards the offender's partner could legally play to the twelfth trick (rubber Law 62).
    fn twelfth_trick_cards(&self, partner: Seat) -> CardSet {
        let holding = self.twelfth_trick_holding(partner);
        match self.tricks[11].suit_led() {
            Some(led) if holding.has_suit(led) => holding.suit(led),
            _ => holding,
        }
    }

    /// Applies `choice` to `leader`'s lead; with an `owner`, picks up his penalty cards in the
    /// suits required or forbidden (Law 50D2(a), 51B).
    fn impose_lead_choice(&mut self, leader: Seat, choice: LeadChoice, law: Law, owner: Option<Seat>) {
        let mut restriction = self.lead_restriction.filter(|r| r.player == leader).unwrap_or(LeadRestriction {
            player: leader,
            required: None,
            forbidden: None,
        });
        match choice {
            LeadChoice::Require(suit) => {
                restriction.required = Some((suit, law));
                if let Some(owner) = owner {
                    self.pick_up(owner, Suits::single(suit));
                }
            }
            LeadChoice::Forbid(suits) => {
                let before = restriction.forbidden.map_or(Suits::EMPTY, |(s, _)| s);
                let all = suits.iter().fold(before, Suits::with);
                restriction.forbidden = Some((all, law));
                if let Some(owner) = owner {
                    self.pick_up(owner, suits);
                }
            }
            LeadChoice::NoRestriction => return,
        }
        self.lead_restriction = Some(restriction);
    }

    /// Applies the option chosen for the pending decision, which must be one of its offers,
    /// and returns the next state; the engine then enforces its effects.
    pub fn rectify(&self, option: PlayOption) -> Result<Play, PlayError> {
        if let PlayOption::RestoreEquity { .. } = option {
            return self.restore_equity(option);
        }
        let Some(situation) = self.pending.clone() else {
            return Err(PlayError::NoDecisionPending { law: self.pending_law() });
        };
        let decision = self.decision_for(&situation);
        let Some(offer) = decision.offers.iter().find(|o| o.option == option) else {
            return Err(PlayError::OptionNotOffered { option, law: decision.law });
        };
        let law = offer.law;
        let mut next = self.successor();
        // What the option makes unauthorized is reserved for redress at the end of play (Law 16),
        // under the Law that says so: for a lead declarer retracts, rubber Law 55's last
        // paragraph and duplicate 55C; otherwise the option's own Law (Laws 47, 62C).
        for effect in &offer.effects {
            if let Effect::InformationUnauthorized { side } = effect {
                let ui_law = match situation {
                    Situation::DeclarerLeadOutOfTurn { .. } => self.cite(55, "", "C"),
                    _ => law,
                };
                next.reserve(*side, ui_law);
            }
        }
        next.pending = None;
        next.declarer_saw_dummy = false;
        if next.rectify_claim(&situation, option) {
            next.settle();
            return Ok(next);
        }
        let events = &mut Events::discard();
        match (situation, option) {
            (Situation::OpeningLeadOutOfTurn { offender, card }, PlayOption::AcceptLead)
            | (Situation::DefenderLeadOutOfTurn { offender, card, .. }, PlayOption::AcceptLead)
            | (Situation::DeclarerLeadOutOfTurn { from: offender, card, .. }, PlayOption::AcceptLead) => {
                next.accept_lead(offender, card, events);
            }
            (Situation::OpeningLeadOutOfTurn { offender, card }, PlayOption::AcceptLeadAndBecomeDummy) => {
                next.contract.declarer = next.dummy();
                next.accept_lead(offender, card, events);
            }
            (
                Situation::OpeningLeadOutOfTurn { offender, card }
                | Situation::DefenderLeadOutOfTurn { offender, card, .. },
                PlayOption::RejectLead { lead },
            ) => {
                next.make_penalty_card(offender, card, true, law, events);
                if let Some(choice) = lead {
                    let majors = next.majors(offender);
                    let lead_law = next
                        .penalty_lead_choices(majors)
                        .into_iter()
                        .find(|(c, _)| *c == choice)
                        .map_or(law, |(_, l)| l);
                    next.impose_lead_choice(offender.partner(), choice, lead_law, Some(offender));
                    next.lead_options_settled = Some(next.completed);
                }
            }
            (Situation::DefenderLeadOutOfTurn { .. }, PlayOption::RetractLead) => {
                // Rubber Law 69: the card never left the hand faced for inspection, and the proper
                // leader leads.
            }
            (Situation::DeclarerLeadOutOfTurn { proper_leader, .. }, PlayOption::RetractLead) => {
                if !next.is_defender(proper_leader) {
                    next.must_lead_from = Some(proper_leader);
                }
            }
            (Situation::PrematurePlay { offender, .. }, PlayOption::PartnerPlays(requirement)) => {
                next.play_restriction = Some(PlayRestriction { player: offender.partner(), requirement, law });
            }
            (Situation::AuctionLeadPenalty { leader, .. }, PlayOption::Lead(choice)) => {
                next.impose_lead_choice(leader, choice, law, None);
            }
            (Situation::PenaltyCardLead { leader }, PlayOption::Lead(choice)) => {
                next.impose_lead_choice(leader, choice, law, Some(leader.partner()));
                next.lead_options_settled = Some(next.completed);
            }
            (Situation::DesignatePenaltyCard { .. }, PlayOption::DesignatePenaltyCard(card)) => {
                next.designated = Some(card);
            }
            (Situation::PenaltyCardNotPlayed { offender, card, trick }, PlayOption::AcceptPlay) => {
                next.set_revoke_status(offender, trick, card, RevokeStatus::Accepted);
            }
            (Situation::PenaltyCardNotPlayed { offender, card, trick }, PlayOption::SubstitutePenaltyCard(penalty)) => {
                next.set_revoke_status(offender, trick, card, RevokeStatus::Corrected);
                next.reopen(trick as usize);
                if let Some(card) = next.tricks[trick as usize].take(offender) {
                    next.hands[offender.index()].insert(card);
                }
                next.make_penalty_card(offender, card, true, law, events);
                next.put_card(offender, penalty, events);
            }
            (Situation::RevokeCorrection { trick, both_sides: true, .. }, PlayOption::WithdrawAfterRevoke(seats)) => {
                // Duplicate Law 62C3: "Every card withdrawn by the defending side becomes a
                // penalty card"; nobody of the other side is left to withdraw after him.
                let t = trick as usize;
                for seat in seats.iter() {
                    if let Some(card) = next.tricks[t].take(seat) {
                        next.hands[seat.index()].insert(card);
                        if next.is_defender(seat) && !next.hand_faced(seat) {
                            next.make_penalty_card(seat, card, true, law, events);
                        }
                    }
                }
                next.after_revoke_withdrawals();
            }
            (Situation::RevokeCorrection { offender, trick, .. }, PlayOption::WithdrawAfterRevoke(seats)) => {
                let t = trick as usize;
                let first = seats.iter().filter_map(|s| next.tricks[t].position(s)).min();
                let partner = offender.partner();
                let partner_after = match (next.tricks[t].position(partner), first) {
                    (Some(p), Some(first)) => p > first,
                    _ => false,
                };
                for seat in seats.iter() {
                    if let Some(card) = next.tricks[t].take(seat) {
                        next.hands[seat.index()].insert(card);
                    }
                }
                match next.tricks[t].card(partner) {
                    Some(card) if partner_after => {
                        next.pending = Some(Situation::OffendingSideMayWithdraw { seat: partner, card });
                    }
                    _ => next.after_revoke_withdrawals(),
                }
            }
            (Situation::OffendingSideMayWithdraw { seat, .. }, PlayOption::WithdrawCard) => {
                let t = next.cur();
                if let Some(card) = next.tricks[t].take(seat) {
                    next.hands[seat.index()].insert(card);
                    if next.is_defender(seat) && !next.hand_faced(seat) {
                        next.make_penalty_card(seat, card, true, law, events);
                    }
                }
                next.after_revoke_withdrawals();
            }
            (Situation::OffendingSideMayWithdraw { .. }, PlayOption::KeepCard) => next.after_revoke_withdrawals(),
            (Situation::TwelfthTrickRevoke { partner, .. }, PlayOption::PartnerPlays(requirement)) => {
                let t = next.cur();
                if let PlayRequirement::OneOfTwo { card, .. } = requirement
                    && let Some(played) = next.tricks[t].card(partner).filter(|p| *p != card)
                {
                    next.tricks[t].take(partner);
                    next.hands[partner.index()].insert(played);
                }
                if next.tricks[t].card(partner).is_none() {
                    next.play_restriction = Some(PlayRestriction { player: partner, requirement, law });
                }
            }
            (Situation::TwelfthTrickRevoke { .. }, PlayOption::Waive) => {}
            (Situation::ChangeOfPlay { trick, offending, law, .. }, PlayOption::WithdrawAfterChange(seats)) => {
                let t = trick as usize;
                // The first card withdrawn: the other side's players who played after it may
                // now change theirs (duplicate Law 47D, rubber Law 47C; duplicate Law 45D1:
                // "if declarer's RHO changes his play, declarer may withdraw a card he had
                // subsequently played to that trick"). Not after a surplus card: rubber Law
                // 12B2 gives the right to the non-offending side alone.
                let first = next.tricks[t]
                    .in_order()
                    .map(|(s, _)| s)
                    .find(|s| seats.contains(*s))
                    .filter(|_| law != next.surplus_law());
                let answer: Seats = first.map_or(Seats::EMPTY, |first| {
                    next.tricks[t].played_after(first).filter(|s| s.side() != first.side()).collect()
                });
                for seat in seats.iter() {
                    next.withdraw_card(seat, t);
                }
                if let Some(first) = first
                    && !answer.is_empty()
                {
                    next.pending = Some(Situation::ChangeOfPlay {
                        changed: first,
                        trick,
                        later: answer,
                        offending,
                        law: next.cite(47, "C", "D"),
                    });
                }
            }
            (Situation::IncompleteDesignation { .. }, PlayOption::DesignateFromDummy(card)) => {
                let dummy = next.dummy();
                next.play_with_check(dummy, card, events);
            }
            (_, option) => return Err(PlayError::OptionNotOffered { option, law: decision.law }),
        }
        next.settle();
        Ok(next)
    }

    fn set_revoke_status(&mut self, offender: Seat, trick: u8, card: Card, status: RevokeStatus) {
        if let Some(revoke) = self.revokes.iter_mut().find(|r| {
            r.offender == offender && r.trick == trick && r.card == card && r.status == RevokeStatus::Unestablished
        }) {
            revoke.status = status;
        }
    }
}

/// The effects of a lead choice for `leader`, picking up `owner`'s penalty cards when the
/// choice comes from them.
fn lead_effects(leader: Seat, owner: Option<Seat>, choice: LeadChoice) -> Vec<Effect> {
    let mut effects = Vec::with_capacity(2);
    match choice {
        LeadChoice::Require(suit) => {
            if let Some(owner) = owner {
                effects.push(Effect::PenaltyCardsPickedUp { owner, suits: Suits::single(suit) });
            }
            effects.push(Effect::LeadRequired { player: leader, suit });
        }
        LeadChoice::Forbid(suits) => {
            if let Some(owner) = owner {
                effects.push(Effect::PenaltyCardsPickedUp { owner, suits });
            }
            effects.push(Effect::LeadForbidden { player: leader, suits });
        }
        LeadChoice::NoRestriction => effects.push(Effect::LeadFree { player: leader }),
    }
    effects
}
