//! Properties of recorded play with random irregularities: whatever happens at the table, the
//! engine keeps one pack in four hands and the tricks, every option it offers can be chosen,
//! every card it calls legal is accepted, no decision's text names a card of a hand the table
//! cannot see, and replaying the same actions gives the same state. The irregularities include
//! retractions of played cards (Law 47, with Laws 45C4(b), 45D and 46), incomplete
//! designations from dummy (Law 46), cards played together and designated late (Law 58), extra
//! cards contributed to a trick (duplicate Law 45E, rubber Law 67A2), opening leads retracted
//! before dummy was faced (duplicate Law 47E2(a)), surplus cards led or played (rubber Law
//! 12B2, duplicate Law 13C), tricks found defective late (Law 67B) and opening leads made face
//! down, in turn or not (duplicate Laws 41A and 54, rubber Appendix 3). Claims carry a stated
//! line the engine holds the play to after a dispute (rubber Laws 69 and 70B), or words alone,
//! and a defender may face his hand after declarer's disputed claim, after which none of his
//! irregularities makes a penalty card (rubber Law 69).

mod play_common;

use laws::irregularities::play::{Designation, Retraction, Suits};
use laws::penalty::{LeadPenalty, PenaltyCard, PenaltyCardKind, PendingLeadPenalty};
use laws::play::{Claim, ClaimResponse, DrawnBy, Exposure, Play, PlayError, Recorded, StatedLine, TrumpIntent};
use laws::{Card, CardSet, Code, Contract, Deal, DealSeed, DeclaredContract, Law, Rank, Seat, Suit};
use proptest::prelude::*;

/// The play after a recorded action, or `None` where the engine refuses it as the state stands (a
/// random action often does not fit: nothing to record it on, a decision pending, play over or
/// suspended); any other error is a bug, and `what` says which action met it.
fn unless_refused(recorded: Result<Recorded, PlayError>, what: impl FnOnce(PlayError) -> String) -> Option<Play> {
    match recorded {
        Ok(recorded) => Some(recorded.play),
        Err(
            PlayError::CannotRecord { .. }
            | PlayError::DecisionPending { .. }
            | PlayError::PlayOver { .. }
            | PlayError::PlaySuspended { .. },
        ) => None,
        Err(e) => panic!("{}", what(e)),
    }
}

/// One thing that can happen at the table.
#[derive(Debug, Clone)]
enum Action {
    /// The hand due plays a card the engine calls legal.
    Legal(prop::sample::Index),
    /// Any hand records any card it holds (often out of turn, often a revoke).
    Record(usize, prop::sample::Index),
    /// A defender exposes a card.
    Expose(usize, prop::sample::Index, bool),
    /// Attention is drawn to a revoke.
    Attention(prop::sample::Index),
    /// The pending decision is made.
    Choose(prop::sample::Index),
    /// A player claims some of the remaining tricks, with his statement in words alone or as a
    /// stated line the engine holds him to if play continues after a dispute (rubber Law 69,
    /// 70B): the line's kind, then a card picked for its stated order.
    Claim(usize, u8, u8, prop::sample::Index),
    /// A player answers the claim.
    Respond(usize, usize),
    /// The official adjudicates a disputed claim.
    Adjudicate(u8),
    /// A player faces his hand for inspection by his partner (rubber Law 69).
    FaceHand(usize),
    /// A player's card is taken back on one of Law 47's grounds (the kind, then a card picked
    /// from the hand for a change of designation or dummy's card named).
    Retract(usize, u8, prop::sample::Index),
    /// Declarer calls for dummy's card incompletely or invalidly (Law 46).
    Designate(u8, prop::sample::Index),
    /// A hand's card on the trick came out with another, which he designates (Law 58B) or
    /// keeps the first (`bool`).
    Simultaneous(usize, prop::sample::Index, bool),
    /// A hand adds a card to a trick he played to (Law 45E, 67A2), the trick counted back from
    /// the current one.
    Extra(usize, prop::sample::Index, u8),
    /// A hand's card on a trick, counted back from the current one, was a surplus card; or
    /// (`false`) a card of any face, from the other deck, just led or played (Law 12B2, 13C).
    Surplus(usize, prop::sample::Index, u8, bool),
    /// A trick, counted back from the current one, is found defective: a hand's card missing
    /// (`true`), or a card of his hand played to it too (Law 67).
    Defective(usize, prop::sample::Index, u8, bool),
    /// A hand leads face down: the hand due a card the engine calls legal, any other a card of
    /// his hand (duplicate Law 41A, rubber Appendix 3).
    FaceDown(usize, prop::sample::Index),
    /// A hand's card on a trick a later lead closed, counted back from the current one, was a
    /// surplus card, and he names a card of his hand for it (rubber Law 12B2, duplicate 13C).
    SurplusOlder(usize, prop::sample::Index, u8),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        6 => any::<prop::sample::Index>().prop_map(Action::Legal),
        3 => (0usize..4, any::<prop::sample::Index>()).prop_map(|(s, i)| Action::Record(s, i)),
        1 => (0usize..4, any::<prop::sample::Index>(), any::<bool>()).prop_map(|(s, i, d)| Action::Expose(s, i, d)),
        1 => any::<prop::sample::Index>().prop_map(Action::Attention),
        4 => any::<prop::sample::Index>().prop_map(Action::Choose),
        2 => (0usize..4, 0u8..14, 0u8..5, any::<prop::sample::Index>())
            .prop_map(|(s, t, l, i)| Action::Claim(s, t, l, i)),
        1 => (0usize..5, 0usize..4).prop_map(|(r, s)| Action::Respond(r, s)),
        1 => (0u8..14).prop_map(Action::Adjudicate),
        1 => (0usize..4).prop_map(Action::FaceHand),
        2 => (0usize..4, 0u8..5, any::<prop::sample::Index>()).prop_map(|(s, k, i)| Action::Retract(s, k, i)),
        2 => (0u8..7, any::<prop::sample::Index>()).prop_map(|(k, i)| Action::Designate(k, i)),
        1 => (0usize..4, any::<prop::sample::Index>(), any::<bool>()).prop_map(|(s, i, k)| Action::Simultaneous(s, i, k)),
        1 => (0usize..4, any::<prop::sample::Index>(), 0u8..2).prop_map(|(s, i, b)| Action::Extra(s, i, b)),
        1 => (0usize..4, any::<prop::sample::Index>(), 0u8..2, any::<bool>())
            .prop_map(|(s, i, b, p)| Action::Surplus(s, i, b, p)),
        1 => (0usize..4, any::<prop::sample::Index>(), 0u8..3, any::<bool>())
            .prop_map(|(s, i, b, m)| Action::Defective(s, i, b, m)),
        2 => (0usize..4, any::<prop::sample::Index>()).prop_map(|(s, i)| Action::FaceDown(s, i)),
        1 => (0usize..4, any::<prop::sample::Index>(), 0u8..3).prop_map(|(s, i, b)| Action::SurplusOlder(s, i, b)),
    ]
}

/// Applies one action; `None` when the engine (rightly) refused it.
fn apply(play: &Play, action: &Action) -> Option<Play> {
    if let Some(decision) = play.decision() {
        // Nothing but a decision moves the play on; any offer must be accepted.
        let Action::Choose(pick) = action else { return None };
        let offer = pick.get(&decision.offers);
        let next = play.rectify(offer.option).unwrap_or_else(|e| panic!("offered {offer} refused: {e}"));
        return Some(next);
    }
    match action {
        Action::Legal(pick) => {
            let legal: Vec<Card> = play.legal_cards().iter().collect();
            if legal.is_empty() {
                return None;
            }
            let card = *pick.get(&legal);
            Some(play.card(card).unwrap_or_else(|e| panic!("legal {card} refused: {e}")))
        }
        Action::Record(seat, pick) => {
            let seat = Seat::from_index(*seat);
            let hand: Vec<Card> = play.hand(seat).iter().collect();
            if hand.is_empty() {
                return None;
            }
            match play.record(seat, *pick.get(&hand)) {
                Ok(recorded) => Some(recorded.play),
                Err(
                    PlayError::CannotRecord { .. }
                    | PlayError::PlayOver { .. }
                    | PlayError::PlaySuspended { .. }
                    // Rubber Law 70B: a play declarer prohibited is not made.
                    | PlayError::ClaimObligation { .. },
                ) => None,
                Err(e) => panic!("recording {seat}: {e}"),
            }
        }
        Action::Expose(seat, pick, deliberate) => {
            let seat = Seat::from_index(*seat);
            let hand: Vec<Card> = play.hand(seat).iter().collect();
            if hand.is_empty() || play.is_complete() {
                return None;
            }
            let how = if *deliberate { Exposure::Deliberate } else { Exposure::Inadvertent };
            Some(play.expose(seat, &[*pick.get(&hand)], how).unwrap_or_else(|e| panic!("{e}")).play)
        }
        Action::Attention(pick) => {
            let open: Vec<_> = play.revokes().iter().filter(|r| r.attention.is_none()).collect();
            if open.is_empty() {
                return None;
            }
            let revoke = pick.get(&open);
            match play.draw_attention_to_revoke(revoke.offender, revoke.trick, DrawnBy::Player) {
                Ok(next) => Some(next),
                Err(PlayError::PlaySuspended { .. } | PlayError::RevokeAlreadyNoticed { .. }) => None,
                Err(e) => panic!("attention to {revoke:?}: {e}"),
            }
        }
        Action::Choose(_) => None,
        Action::Claim(seat, tricks, line, pick) => {
            let claim = Claim::new(Seat::from_index(*seat), *tricks, "as stated");
            let held: Vec<Card> =
                Seat::ALL.iter().fold(CardSet::EMPTY, |set, s| set.union(play.hand(*s))).iter().collect();
            let claim = match line {
                0 => claim,
                1 => claim.with_line(StatedLine::default()),
                2 => claim.with_line(StatedLine { trumps: TrumpIntent::Draw, ..StatedLine::default() }),
                3 => claim.with_line(StatedLine {
                    trumps: TrumpIntent::Leave,
                    suits: vec![Suit::ALL[pick.index(4)]],
                    ..StatedLine::default()
                }),
                _ => claim.with_line(StatedLine {
                    cards: if held.is_empty() { Vec::new() } else { vec![*pick.get(&held)] },
                    finesses: Suits::single(Suit::ALL[pick.index(4)]),
                    ..StatedLine::default()
                }),
            };
            match play.claim(claim) {
                Ok(next) => Some(next),
                Err(
                    PlayError::TooManyTricks { .. }
                    | PlayError::ClaimResponseRefused { .. }
                    | PlayError::CannotRecord { .. }
                    | PlayError::PlayOver { .. }
                    | PlayError::PlaySuspended { .. },
                ) => None,
                Err(e) => panic!("claim: {e}"),
            }
        }
        Action::Respond(kind, seat) => {
            let seat = Seat::from_index(*seat);
            let response = match kind {
                0 => ClaimResponse::Agree(seat),
                1 => ClaimResponse::Dispute(seat),
                2 => ClaimResponse::PartnerObjects(seat),
                3 => ClaimResponse::CardsMixed(seat),
                _ => ClaimResponse::PlayOn,
            };
            match play.respond_to_claim(response) {
                Ok(next) => Some(next),
                Err(PlayError::ClaimResponseRefused { .. } | PlayError::NoClaim { .. }) => None,
                Err(e) => panic!("{response:?}: {e}"),
            }
        }
        Action::Adjudicate(tricks) => match play.adjudicate(*tricks) {
            Ok(next) => Some(next),
            Err(PlayError::NothingToAdjudicate { .. } | PlayError::TooManyTricks { .. }) => None,
            Err(e) => panic!("adjudicate: {e}"),
        },
        Action::FaceHand(seat) => {
            let seat = Seat::from_index(*seat);
            match play.face_for_inspection(seat) {
                Ok(next) => Some(next),
                Err(
                    PlayError::ClaimResponseRefused { .. }
                    | PlayError::DecisionPending { .. }
                    | PlayError::PlayOver { .. }
                    | PlayError::PlaySuspended { .. },
                ) => None,
                Err(e) => panic!("{seat} faces his hand: {e}"),
            }
        }
        Action::Retract(seat, kind, pick) => {
            let seat = Seat::from_index(*seat);
            let from = |holder: Seat| {
                let hand: Vec<Card> = play.hand(holder).iter().collect();
                (!hand.is_empty()).then(|| *pick.get(&hand))
            };
            let (seat, retraction) = match kind {
                0 => (seat, Retraction::ChangeOfDesignation { card: from(seat)? }),
                1 => (play.dummy(), Retraction::UndesignatedDummyCard { named: from(play.dummy())? }),
                2 => (seat, Retraction::ToldItWasHisTurn { by: seat.lho() }),
                3 => (seat, Retraction::MistakenExplanation { by: seat.rho() }),
                _ => (seat, Retraction::OpeningLeadBeforeDummyFaced { by: seat.lho() }),
            };
            match play.retract(seat, retraction) {
                Ok(recorded) => Some(recorded.play),
                Err(
                    PlayError::RetractionRefused { .. }
                    | PlayError::CannotRecord { .. }
                    | PlayError::DecisionPending { .. }
                    | PlayError::PlayOver { .. }
                    | PlayError::PlaySuspended { .. },
                ) => None,
                Err(e) => panic!("{seat} {retraction}: {e}"),
            }
        }
        Action::Designate(kind, pick) => {
            let designation = match kind {
                0 => Designation::High,
                1 => Designation::Win,
                2 => Designation::Low,
                3 => Designation::Suit(*pick.get(&Suit::ALL)),
                4 => Designation::Rank(*pick.get(&Rank::ALL)),
                5 => Designation::Card(*pick.get(&Card::pack().collect::<Vec<_>>())),
                _ => Designation::Anything,
            };
            unless_refused(play.designate_from_dummy(designation), |e| format!("{designation}: {e}"))
        }
        Action::Simultaneous(seat, pick, keep_first) => {
            let seat = Seat::from_index(*seat);
            let hand: Vec<Card> = play.hand(seat).iter().collect();
            let trick = play.tricks().iter().rev().find(|t| t.card(seat).is_some())?;
            let on_trick = trick.card(seat)?;
            if hand.is_empty() {
                return None;
            }
            let other = *pick.get(&hand);
            let designated = if *keep_first { on_trick } else { other };
            match play.designate_simultaneous(seat, designated, &[other]) {
                Ok(recorded) => Some(recorded.play),
                Err(
                    PlayError::RetractionRefused { .. }
                    | PlayError::DecisionPending { .. }
                    | PlayError::PlayOver { .. }
                    | PlayError::PlaySuspended { .. },
                ) => None,
                Err(e) => panic!("{seat} designates {designated} of {on_trick} and {other}: {e}"),
            }
        }
        Action::Extra(seat, pick, back) => {
            let seat = Seat::from_index(*seat);
            let hand: Vec<Card> = play.hand(seat).iter().collect();
            if hand.is_empty() {
                return None;
            }
            let trick = (play.tricks().len() as u8).checked_sub(1 + back)?;
            unless_refused(play.record_extra_card(seat, *pick.get(&hand), trick), |e| {
                format!("{seat} adds a card to trick {trick}: {e}")
            })
        }
        Action::Surplus(seat, pick, back, on_trick) => {
            let seat = Seat::from_index(*seat);
            let trick = play.completed_tricks().checked_sub(*back)?;
            let card = match play.tricks().get(trick as usize).and_then(|t| t.card(seat)) {
                Some(card) if *on_trick => card,
                _ => *pick.get(&Card::pack().collect::<Vec<_>>()),
            };
            unless_refused(play.surplus_card(seat, card, trick), |e| {
                format!("{seat}'s surplus {card} on trick {trick}: {e}")
            })
        }
        Action::Defective(seat, pick, back, missing) => {
            let seat = Seat::from_index(*seat);
            let hand: Vec<Card> = play.hand(seat).iter().collect();
            let trick = play.completed_tricks().checked_sub(*back)?;
            let extra = if *missing || hand.is_empty() { None } else { Some(*pick.get(&hand)) };
            unless_refused(play.defective_trick(seat, trick, extra), |e| {
                format!("{seat}'s defective trick {trick} ({extra:?}): {e}")
            })
        }
        Action::FaceDown(seat, pick) => {
            let seat = Seat::from_index(*seat);
            let legal = play.legal_cards();
            let from = if play.next_to_play() == Some(seat) && !legal.is_empty() { legal } else { play.hand(seat) };
            let cards: Vec<Card> = from.iter().collect();
            if cards.is_empty() {
                return None;
            }
            let card = *pick.get(&cards);
            unless_refused(play.lead_face_down(seat, card), |e| format!("{seat} leads the {card} face down: {e}"))
        }
        Action::SurplusOlder(seat, pick, back) => {
            let seat = Seat::from_index(*seat);
            let trick = play.completed_tricks().checked_sub(1 + back)?;
            let card = play.tricks().get(trick as usize).and_then(|t| t.card(seat))?;
            let cards: Vec<Card> = play.hand(seat).with(card).iter().collect();
            let substitute = *pick.get(&cards);
            unless_refused(play.surplus_card_on_older_trick(seat, card, trick, substitute), |e| {
                format!("{seat}'s surplus {card} on trick {trick}, {substitute} for it: {e}")
            })
        }
    }
}

/// The cards a decision's texts name (as the engine writes cards: suit letter and rank).
fn cards_named(text: &str) -> impl Iterator<Item = Card> + '_ {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|token| token.parse::<Card>().ok().filter(|card| card.to_string() == token))
}

fn check_invariants(play: &Play) -> Result<(), TestCaseError> {
    let mut seen = CardSet::EMPTY;
    for seat in Seat::ALL {
        let hand = play.hand(seat);
        prop_assert!(hand.difference(play.deal().hand(seat)).is_empty(), "{seat} holds only his own cards");
        prop_assert!(seen.intersection(hand).is_empty());
        seen = seen.union(hand);
    }
    for trick in play.tricks() {
        for (seat, card) in trick.in_order() {
            prop_assert!(play.deal().hand(seat).contains(card), "a card is played from its own hand");
            prop_assert!(!seen.contains(card), "{card} both held and played");
            seen.insert(card);
        }
    }
    prop_assert_eq!(seen, CardSet::PACK, "one pack, held or played");
    if let Some(result) = play.result() {
        prop_assert_eq!(result.tricks(laws::Side::NorthSouth) + result.tricks(laws::Side::EastWest), 13);
        let transfer = play.revoke_transfer();
        let declarer = play.declarer_tricks().unwrap_or_else(|| panic!("over"));
        prop_assert!(declarer <= 13);
        prop_assert!(transfer.to.iter().all(|t| *t <= 2 * 13));
    }
    for pc in play.penalty_cards() {
        prop_assert!(play.is_defender(pc.owner), "only defenders have penalty cards (Law 48)");
    }
    if let Some(decision) = play.decision() {
        prop_assert!(!decision.offers.is_empty(), "a decision always has an option: {}", decision.situation);
        // Every player reads the decision: it may name played and face-up cards only; a card of
        // a hidden hand is carried for the official alone (PlayOption::concealed_card).
        let held = Seat::ALL.iter().fold(CardSet::EMPTY, |set, seat| set.union(play.hand(*seat)));
        let hidden = held.difference(play.face_up_cards());
        let mut texts = vec![decision.situation.to_string()];
        for offer in &decision.offers {
            texts.push(offer.option.to_string());
            texts.extend(offer.effects.iter().map(ToString::to_string));
            if let Some(card) = offer.option.concealed_card() {
                prop_assert!(held.contains(card), "a concealed card is still held");
            }
        }
        for text in &texts {
            for card in cards_named(text) {
                prop_assert!(!hidden.contains(card), "\"{}\" shows the {} of a hidden hand", text, card);
            }
        }
    }
    if play.decision().is_none() && !play.is_complete() && !play.is_suspended() {
        let seat = play.next_to_play().unwrap_or_else(|| panic!("someone is due"));
        let legal = play.legal_cards();
        prop_assert!(!legal.is_empty(), "a player always has a legal card (Law 59)");
        prop_assert!(legal.difference(play.hand(seat)).is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn recorded_play_with_irregularities_keeps_the_pack_and_replays_identically(
        seed in prop::array::uniform32(any::<u8>()),
        denomination in prop::sample::select(vec!["C", "D", "H", "S", "NT"]),
        declarer in 0usize..4,
        duplicate in any::<bool>(),
        actions in prop::collection::vec(action(), 1..250),
        carried in prop::option::of((0usize..4, any::<bool>(), 0usize..4)),
        exposed in prop::option::of((0usize..4, any::<prop::sample::Index>(), any::<bool>())),
    ) {
        let deal = Deal::from_seed(&DealSeed(seed));
        let contract: Contract = format!("4{denomination}").parse().unwrap_or_else(|e| panic!("{e}"));
        let code = if duplicate { Code::Duplicate } else { Code::Rubber };
        let contract = DeclaredContract { contract, declarer: Seat::from_index(declarer) };
        // Obligations an auction irregularity may leave (Law 26, Law 24), for any seat: they bind
        // only a defender.
        let carried: Vec<PendingLeadPenalty> = carried
            .map(|(seat, any_suit, suit)| PendingLeadPenalty {
                player: Seat::from_index(seat),
                penalty: if any_suit { LeadPenalty::ForbidAnyOneSuit } else { LeadPenalty::RequireOrForbid(vec![Suit::ALL[suit]]) },
                law: Law::rubber(26, ""),
            })
            .into_iter()
            .collect();
        let exposed: Vec<PenaltyCard> = exposed
            .map(|(seat, pick, major)| {
                let owner = Seat::from_index(seat);
                let hand: Vec<Card> = deal.hand(owner).iter().collect();
                let kind = if major { PenaltyCardKind::Major } else { PenaltyCardKind::Minor };
                PenaltyCard { card: *pick.get(&hand), owner, kind, law: Law::rubber(24, "") }
            })
            .into_iter()
            .collect();
        let start = Play::new(deal, contract, code, carried, exposed).unwrap_or_else(|e| panic!("{e}"));
        let mut play = start.clone();
        let mut accepted = Vec::new();
        for action in &actions {
            if let Some(next) = apply(&play, action) {
                // Rubber Law 69: a defender whose hand is faced for inspection gets no new
                // penalty card, whatever he does.
                for seat in Seat::ALL.into_iter().filter(|s| play.faced_for_inspection(*s)) {
                    let of = |p: &Play| -> CardSet { p.penalty_cards().filter(|pc| pc.owner == seat).map(|pc| pc.card).collect() };
                    prop_assert!(of(&next).difference(of(&play)).is_empty(), "{} got a penalty card after {:?}", seat, action);
                }
                play = next;
                accepted.push(action.clone());
                check_invariants(&play)?;
            }
        }
        let replayed = accepted.iter().fold(start, |p, a| apply(&p, a).unwrap_or_else(|| panic!("replay of {a:?}")));
        prop_assert_eq!(replayed, play);
    }
}
