//! Penalty cards and lead restrictions (Laws 24, 26, 48-52, 59) in both codes.

mod play_common;

use laws::irregularities::Chooser;
use laws::irregularities::play::{LeadChoice, PlayOption, Situation, Suits};
use laws::penalty::{LeadPenalty, PenaltyCard, PenaltyCardKind, PendingLeadPenalty};
use laws::play::{DrawnBy, Exposure, Play, PlayError, PlayEvent, RevokeStatus};
use laws::{CitesLaw, Code, Contract, DeclaredContract, Law, Seat, Suit};
use play_common::{DEAL, Refused, card, cards, deal, recorded, start};

fn options(play: &Play) -> Vec<PlayOption> {
    play.decision().map(|d| d.offers.iter().map(|o| o.option).collect()).unwrap_or_default()
}

fn kinds(play: &Play) -> Vec<(String, PenaltyCardKind)> {
    play.penalty_cards().map(|pc| (pc.card.to_string(), pc.kind)).collect()
}

/// 4S by North, duplicate; the opening lead (East's club ace) is faced and dummy is down.
fn after_lead(code: Code) -> Play {
    cards(&start(DEAL, "4S", Seat::North, code), &["CA"])
}

#[test]
fn law_50b_a_single_low_card_dropped_is_minor_an_honour_or_a_deliberate_card_is_major() {
    let play = after_lead(Code::Duplicate);
    let dropped = play.expose(Seat::West, &[card("C7")], Exposure::Inadvertent).unwrap_or_else(|e| panic!("{e}")).play;
    assert_eq!(kinds(&dropped), vec![("C7".into(), PenaltyCardKind::Minor)]);
    assert_eq!(dropped.penalty_cards().next().map(|pc| pc.law), Some(Law::duplicate(49, "")));
    let honour = play.expose(Seat::West, &[card("HJ")], Exposure::Inadvertent).unwrap_or_else(|e| panic!("{e}")).play;
    assert_eq!(kinds(&honour), vec![("HJ".into(), PenaltyCardKind::Major)]);
    let shown = play.expose(Seat::West, &[card("C7")], Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}")).play;
    assert_eq!(kinds(&shown), vec![("C7".into(), PenaltyCardKind::Major)]);
    // Two or more penalty cards of one defender are all major.
    let two = dropped.expose(Seat::West, &[card("C6")], Exposure::Inadvertent).unwrap_or_else(|e| panic!("{e}")).play;
    assert_eq!(kinds(&two), vec![("C7".into(), PenaltyCardKind::Major), ("C6".into(), PenaltyCardKind::Major)]);
}

#[test]
fn law_48_declarer_and_dummy_never_have_penalty_cards() {
    let play = after_lead(Code::Rubber);
    let after = play.expose(Seat::North, &[card("SA")], Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(after.play.penalty_cards().count(), 0);
    assert_eq!(after.play, play);
}

#[test]
fn law_24_before_the_opening_lead_is_faced_a_defenders_exposed_card_is_a_penalty_card() {
    let play = start(DEAL, "4S", Seat::North, Code::Duplicate);
    let after = play.expose(Seat::West, &[card("HA")], Exposure::Inadvertent).unwrap_or_else(|e| panic!("{e}")).play;
    assert_eq!(after.penalty_cards().next().map(|pc| pc.law), Some(Law::duplicate(24, "E")));
    // East has the opening lead while his partner has a major penalty card (Law 50D2).
    assert_eq!(after.decision().map(|d| d.situation), Some(Situation::PenaltyCardLead { leader: Seat::East }));
}

#[test]
fn law_50c_with_a_minor_penalty_card_no_lower_card_of_the_suit_first_but_an_honour_may_be_played() {
    // West drops the diamond eight (minor). North later leads a diamond.
    let play = after_lead(Code::Duplicate);
    let play = play.expose(Seat::West, &[card("D8")], Exposure::Inadvertent).unwrap_or_else(|e| panic!("{e}")).play;
    // The minor penalty card puts no lead restriction on partner: no decision when East leads.
    assert!(play.decision().is_none());
    let play = cards(&play, &["CT", "C5", "C2"]);
    assert_eq!(play.next_to_play(), Some(Seat::East));
    assert!(play.decision().is_none(), "Law 50C: offender's partner is not subject to lead restriction");
    let play = cards(&play, &["D2", "DA"]);
    assert_eq!(play.next_to_play(), Some(Seat::West));
    let legal: Vec<String> = play.legal_cards().iter().map(|c| c.to_string()).collect();
    assert_eq!(legal, vec!["D8", "DT"], "the penalty card or an honour of the suit");
    let err = play.card(card("D9")).refused();
    assert_eq!(
        err.to_string(),
        "West may not play the D9 before his minor penalty card D8 (Law 50C of the Laws of Duplicate Bridge)"
    );
    // He plays the ten (an honour): the eight stays a penalty card.
    let play = cards(&play, &["DT"]);
    assert_eq!(kinds(&play), vec![("D8".into(), PenaltyCardKind::Minor)]);
}

#[test]
fn law_50d1_a_major_penalty_card_yields_to_following_suit_and_is_played_at_the_first_legal_opportunity() {
    // West's heart ace is a major penalty card. Clubs are led: he must follow with a club.
    let play = after_lead(Code::Duplicate);
    let play = play.expose(Seat::West, &[card("HA")], Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}")).play;
    let play = cards(&play, &["CT"]);
    assert_eq!(play.legal_cards(), play.hand(Seat::West).suit(Suit::Clubs), "Law 50D1(b): following suit first");
    let play = cards(&play, &["C5", "C2"]);
    // East leads a heart (declarer leaves him free, Law 50D2(b)): West must play the ace now.
    let play = play.rectify(PlayOption::Lead(LeadChoice::NoRestriction)).unwrap_or_else(|e| panic!("{e}"));
    let play = cards(&play, &["H5", "H2"]);
    assert_eq!(play.legal_cards().iter().collect::<Vec<_>>(), vec![card("HA")]);
}

#[test]
fn law_50d2_partner_of_a_penalty_card_holder_on_lead_declarer_chooses_and_again_while_he_keeps_the_lead() {
    let play = after_lead(Code::Duplicate);
    let play = play.expose(Seat::West, &[card("HA")], Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}")).play;
    let play = cards(&play, &["CT", "C5", "C2"]);
    let decision = play.decision().unwrap_or_else(|| panic!("East is on lead"));
    assert_eq!(decision.situation, Situation::PenaltyCardLead { leader: Seat::East });
    assert_eq!(decision.chooser, Chooser::Declarer);
    let offered: Vec<(PlayOption, Law)> = decision.offers.iter().map(|o| (o.option, o.law)).collect();
    assert_eq!(
        offered,
        vec![
            (PlayOption::Lead(LeadChoice::Require(Suit::Hearts)), Law::duplicate(50, "D2(a)")),
            (PlayOption::Lead(LeadChoice::Forbid(Suits::single(Suit::Hearts))), Law::duplicate(50, "D2(a)")),
            (PlayOption::Lead(LeadChoice::NoRestriction), Law::duplicate(50, "D2(b)")),
        ]
    );
    // The defender may not lead until declarer has chosen.
    assert!(matches!(play.card(card("CK")), Err(PlayError::DecisionPending { .. })));
    // Declarer leaves the card; East wins the trick and keeps the lead: the options come again
    // (Law 50D2 footnote 14).
    let play = play.rectify(PlayOption::Lead(LeadChoice::NoRestriction)).unwrap_or_else(|e| panic!("{e}"));
    let play = cards(&play, &["CK", "C9", "C6", "C3"]);
    assert_eq!(play.next_to_play(), Some(Seat::East));
    assert_eq!(play.decision().map(|d| d.situation), Some(Situation::PenaltyCardLead { leader: Seat::East }));
}

#[test]
fn law_50d2_a_defender_who_leads_before_declarer_has_chosen_makes_a_penalty_card() {
    // Duplicate Law 50D2: "he may not lead until declarer has stated which of the options below
    // is selected (if the defender leads prematurely, he is subject to rectification under Law
    // 49)". Rubber Law 50: "The defender may not lead until declarer has indicated his choice",
    // and Law 49 makes a card faced before he is entitled to play it a penalty card.
    for (code, law) in [(Code::Duplicate, Law::duplicate(50, "D2")), (Code::Rubber, Law::rubber(50, ""))] {
        let play = after_lead(code);
        let play = play.expose(Seat::West, &[card("HA")], Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}")).play;
        let play = cards(&play, &["CT", "C5", "C2"]);
        let pending = play.decision().map(|d| d.situation);
        assert_eq!(pending, Some(Situation::PenaltyCardLead { leader: Seat::East }));
        // East leads the club king at the table before declarer has spoken.
        let led = play.record(Seat::East, card("CK")).unwrap_or_else(|e| panic!("{e}"));
        let east: Vec<_> = led.play.penalty_cards().filter(|pc| pc.owner == Seat::East).copied().collect();
        assert_eq!(east.len(), 1, "{code:?}");
        assert_eq!((east[0].card, east[0].kind, east[0].law), (card("CK"), PenaltyCardKind::Major, law));
        assert_eq!(led.play.tricks(), play.tricks(), "the premature lead is no lead");
        // Declarer still states his option, and it binds: he requires a heart.
        assert_eq!(led.play.decision().map(|d| d.situation), pending);
        let play =
            led.play.rectify(PlayOption::Lead(LeadChoice::Require(Suit::Hearts))).unwrap_or_else(|e| panic!("{e}"));
        // The lead restriction takes precedence over East's penalty card (Law 50D1(b)).
        assert!(matches!(play.card(card("CK")).refused(), PlayError::LeadRequired { .. }));
        let play = cards(&play, &["H7", "H2"]);
        // West's heart ace was picked up under Law 50D2(a); East's club king stays a penalty card.
        assert!(play.penalty_cards().all(|pc| pc.owner == Seat::East && pc.card == card("CK")));
        assert_eq!(play.penalty_cards().count(), 1);
    }
}

#[test]
fn law_51a_declarer_designates_which_of_two_playable_penalty_cards_is_played() {
    // West has the heart ace and the club seven as penalty cards; a spade is led and West
    // must follow; then a diamond... West is never void here, so make him lead.
    let play = after_lead(Code::Duplicate);
    let play = play
        .expose(Seat::West, &[card("HA"), card("HK")], Exposure::Inadvertent)
        .unwrap_or_else(|e| panic!("{e}"))
        .play;
    assert_eq!(kinds(&play), vec![("HA".into(), PenaltyCardKind::Major), ("HK".into(), PenaltyCardKind::Major)]);
    // East leads a heart: West has two penalty cards he could legally play (Law 51A).
    let play = cards(&play, &["CT", "C5", "C2"]);
    let play = play.rectify(PlayOption::Lead(LeadChoice::NoRestriction)).unwrap_or_else(|e| panic!("{e}"));
    let play = cards(&play, &["H5", "H2"]);
    let decision = play.decision().unwrap_or_else(|| panic!("designation"));
    assert_eq!(decision.situation, Situation::DesignatePenaltyCard { owner: Seat::West });
    assert_eq!(
        options(&play),
        vec![PlayOption::DesignatePenaltyCard(card("HK")), PlayOption::DesignatePenaltyCard(card("HA"))]
    );
    let play = play.rectify(PlayOption::DesignatePenaltyCard(card("HK"))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.legal_cards().iter().collect::<Vec<_>>(), vec![card("HK")]);
    let err = play.card(card("HA")).refused();
    assert!(matches!(err, PlayError::PenaltyCardMustBePlayed { penalty, .. } if penalty == card("HK")));
}

#[test]
fn law_51b_penalty_cards_in_two_suits_duplicate_and_rubber_offer_different_prohibitions() {
    // Following suit comes before a penalty card: West follows to the club lead with a club.
    let play = after_lead(Code::Duplicate);
    let play = play
        .expose(Seat::West, &[card("HA"), card("C7")], Exposure::Inadvertent)
        .unwrap_or_else(|e| panic!("{e}"))
        .play;
    let play = cards(&play, &["CT"]);
    assert_eq!(
        play.legal_cards().iter().collect::<Vec<_>>(),
        vec![card("C7")],
        "the club penalty card is the one to play"
    );
    // Duplicate: forbid hearts only (Law 51B2(b)): the heart ace is picked up, nothing else.
    let play = after_lead(Code::Duplicate);
    let play = play
        .expose(Seat::West, &[card("HA"), card("DT")], Exposure::Inadvertent)
        .unwrap_or_else(|e| panic!("{e}"))
        .play;
    let play = cards(&play, &["CT", "C5", "C2"]);
    let decision = play.decision().unwrap_or_else(|| panic!("pending"));
    assert_eq!(decision.offers.len(), 2 + 3 + 1, "require either suit, forbid one or both, or neither");
    let forbid_hearts = PlayOption::Lead(LeadChoice::Forbid(Suits::single(Suit::Hearts)));
    assert_eq!(
        decision.offers.iter().find(|o| o.option == forbid_hearts).map(|o| o.law),
        Some(Law::duplicate(51, "B2(b)"))
    );
    let play = play.rectify(forbid_hearts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(kinds(&play), vec![("DT".into(), PenaltyCardKind::Major)]);
    assert!(!play.legal_cards().has_suit(Suit::Hearts));
    // Rubber: declarer may only forbid every such suit, or require one.
    let rubber = after_lead(Code::Rubber);
    let rubber = rubber
        .expose(Seat::West, &[card("HA"), card("DT")], Exposure::Inadvertent)
        .unwrap_or_else(|e| panic!("{e}"))
        .play;
    let rubber = cards(&rubber, &["CT", "C5", "C2"]);
    let both = Suits::single(Suit::Hearts).with(Suit::Diamonds);
    assert_eq!(
        options(&rubber),
        vec![
            PlayOption::Lead(LeadChoice::Require(Suit::Hearts)),
            PlayOption::Lead(LeadChoice::Require(Suit::Diamonds)),
            PlayOption::Lead(LeadChoice::Forbid(both)),
            PlayOption::Lead(LeadChoice::NoRestriction),
        ]
    );
}

#[test]
fn law_52_a_card_played_instead_of_a_penalty_card_declarer_accepts_or_requires_the_penalty_card() {
    let play = after_lead(Code::Duplicate);
    let play = play.expose(Seat::West, &[card("HA")], Exposure::Deliberate).unwrap_or_else(|e| panic!("{e}")).play;
    let play = cards(&play, &["CT", "C5", "C2"]);
    let play = play.rectify(PlayOption::Lead(LeadChoice::NoRestriction)).unwrap_or_else(|e| panic!("{e}"));
    // East leads a heart, dummy follows, West plays the king instead of the penalty ace.
    let play = cards(&play, &["H5", "H2"]);
    let play = recorded(&play, Seat::West, "HK").play;
    assert_eq!(play.revokes().len(), 1);
    let noticed = play.draw_attention_to_revoke(Seat::West, 1, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    let decision = noticed.decision().unwrap_or_else(|| panic!("Law 52"));
    assert_eq!(decision.law, Law::duplicate(52, ""));
    assert_eq!(options(&noticed), vec![PlayOption::AcceptPlay, PlayOption::SubstitutePenaltyCard(card("HA"))]);
    // Substitution: the ace is played and the king becomes a major penalty card (Law 52B2).
    let substituted = noticed.rectify(PlayOption::SubstitutePenaltyCard(card("HA"))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(substituted.tricks()[1].card(Seat::West), Some(card("HA")));
    assert_eq!(kinds(&substituted), vec![("HK".into(), PenaltyCardKind::Major)]);
    assert_eq!(substituted.revokes()[0].status, RevokeStatus::Corrected);
    // Acceptance: the king stands and the ace stays a penalty card (Law 52B1(c)).
    let accepted = noticed.rectify(PlayOption::AcceptPlay).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(accepted.tricks()[1].card(Seat::West), Some(card("HK")));
    assert_eq!(kinds(&accepted), vec![("HA".into(), PenaltyCardKind::Major)]);
    // Declarer has since played from his hand: he must accept (Law 52B1(b)).
    let later = cards(&play, &["H8"]);
    let must = later.draw_attention_to_revoke(Seat::West, 1, DrawnBy::Player).unwrap_or_else(|e| panic!("{e}"));
    assert!(must.decision().is_none());
    assert_eq!(must.revokes()[0].status, RevokeStatus::Accepted);
}

fn with_obligations(
    carried: Vec<PendingLeadPenalty>,
    penalty_cards: Vec<PenaltyCard>,
    code: Code,
) -> Result<Play, PlayError> {
    let contract: Contract = "4S".parse().unwrap_or_else(|e| panic!("{e}"));
    Play::new(deal(DEAL), DeclaredContract { contract, declarer: Seat::North }, code, carried, penalty_cards)
}

#[test]
fn law_26_lead_penalties_from_the_auction_apply_at_the_first_lead_of_the_offenders_partner() {
    // East is the opening leader; his partner West changed a heart bid (rubber Law 26A).
    let penalty = PendingLeadPenalty {
        player: Seat::East,
        penalty: LeadPenalty::RequireOrForbid(vec![Suit::Hearts]),
        law: Law::rubber(26, "A"),
    };
    let play = with_obligations(vec![penalty], vec![], Code::Rubber).unwrap_or_else(|e| panic!("{e}"));
    let decision = play.decision().unwrap_or_else(|| panic!("at the opening lead"));
    assert_eq!(decision.law, Law::rubber(26, "A"));
    assert_eq!(
        options(&play),
        vec![
            PlayOption::Lead(LeadChoice::Require(Suit::Hearts)),
            PlayOption::Lead(LeadChoice::Forbid(Suits::single(Suit::Hearts))),
            PlayOption::Lead(LeadChoice::NoRestriction),
        ]
    );
    let play = play.rectify(PlayOption::Lead(LeadChoice::Require(Suit::Hearts))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.legal_cards(), play.hand(Seat::East).suit(Suit::Hearts));
    let err = play.card(card("CA")).refused();
    assert_eq!(err.law(), Law::rubber(26, "A"));
    // Once he has led, the penalty is spent.
    let play = cards(&play, &["H5", "H2", "HA", "H8", "HK", "H9", "H6", "H3"]);
    assert_eq!(play.next_to_play(), Some(Seat::West));
    assert!(play.lead_penalties().is_empty());
    // Law 26B in duplicate: declarer forbids any one suit.
    let any_one =
        PendingLeadPenalty { player: Seat::East, penalty: LeadPenalty::ForbidAnyOneSuit, law: Law::duplicate(26, "B") };
    let play = with_obligations(vec![any_one], vec![], Code::Duplicate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(options(&play).len(), 5);
    let play = play
        .rectify(PlayOption::Lead(LeadChoice::Forbid(Suits::single(Suit::Clubs))))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!play.legal_cards().has_suit(Suit::Clubs));
    // Law 26B (2017): only the suits the offender did not specify in the legal auction, as the
    // duplicate auction hands them over.
    let unspecified = PendingLeadPenalty {
        player: Seat::East,
        penalty: LeadPenalty::ForbidOneOf(vec![Suit::Clubs, Suit::Hearts]),
        law: Law::duplicate(26, "B"),
    };
    let play = with_obligations(vec![unspecified], vec![], Code::Duplicate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        options(&play),
        vec![
            PlayOption::Lead(LeadChoice::Forbid(Suits::single(Suit::Hearts))),
            PlayOption::Lead(LeadChoice::Forbid(Suits::single(Suit::Clubs))),
            PlayOption::Lead(LeadChoice::NoRestriction),
        ]
    );
}

/// Rubber Law 27D: an attempted double in place of an insufficient bid "is cancelled; he must pass
/// at that turn, and the offence is subject to the penalty provided in 27C"; footnote 9: "any call
/// he has previously attempted to substitute is canceled, but the lead penalties of Law 26 will
/// apply if he becomes a defender". The insufficient 1H changed to a pass gives Law 26A, the
/// cancelled double Law 26B: declarer exercises both, one after the other, at the first lead.
#[test]
fn law_27d_declarer_exercises_26a_and_then_26b_at_the_offenders_partners_first_lead() {
    let changed_heart = PendingLeadPenalty {
        player: Seat::East,
        penalty: LeadPenalty::RequireOrForbid(vec![Suit::Hearts]),
        law: Law::rubber(26, "A"),
    };
    let changed_double =
        PendingLeadPenalty { player: Seat::East, penalty: LeadPenalty::ForbidAnyOneSuit, law: Law::rubber(26, "B") };
    let play =
        with_obligations(vec![changed_heart, changed_double], vec![], Code::Rubber).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.decision().map(|d| d.law), Some(Law::rubber(26, "A")));
    let play = play
        .rectify(PlayOption::Lead(LeadChoice::Forbid(Suits::single(Suit::Hearts))))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.decision().map(|d| d.law), Some(Law::rubber(26, "B")), "then the cancelled double's penalty");
    let play = play
        .rectify(PlayOption::Lead(LeadChoice::Forbid(Suits::single(Suit::Clubs))))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(play.decision().is_none());
    let legal = play.legal_cards();
    assert!(!legal.has_suit(Suit::Hearts) && !legal.has_suit(Suit::Clubs), "both prohibitions hold");
    assert!(!legal.is_empty());
}

#[test]
fn law_26_and_24_obligations_bind_only_a_player_who_becomes_a_defender() {
    let declarers =
        PendingLeadPenalty { player: Seat::South, penalty: LeadPenalty::ForbidAnyOneSuit, law: Law::rubber(26, "B") };
    let play = with_obligations(vec![declarers], vec![], Code::Rubber).unwrap_or_else(|e| panic!("{e}"));
    assert!(play.lead_penalties().is_empty());
    assert!(play.decision().is_none());
    let dummys = PenaltyCard {
        card: card("DA"),
        owner: Seat::South,
        kind: PenaltyCardKind::Major,
        law: Law::duplicate(24, "E"),
    };
    let play = with_obligations(vec![], vec![dummys], Code::Duplicate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.penalty_cards().count(), 0, "Law 24D: the declaring side picks its cards up");
    let wests =
        PenaltyCard { card: card("HA"), owner: Seat::West, kind: PenaltyCardKind::Major, law: Law::duplicate(24, "E") };
    let play = with_obligations(vec![], vec![wests], Code::Duplicate).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.decision().map(|d| d.situation), Some(Situation::PenaltyCardLead { leader: Seat::East }));
    let not_held =
        PenaltyCard { card: card("SA"), owner: Seat::West, kind: PenaltyCardKind::Major, law: Law::duplicate(24, "E") };
    let err = with_obligations(vec![], vec![not_held], Code::Duplicate).refused();
    assert_eq!(
        err.to_string(),
        "West cannot have the SA as a penalty card: it is not in his hand (Law 24E of the Laws of Duplicate Bridge)"
    );
}

#[test]
fn law_59_a_player_unable_to_comply_plays_any_otherwise_legal_card() {
    // East, void in spades, is required to lead a spade.
    let pbn = "N:AKQJT.32.765.432 .T98765.432.AKQJ 98765.4.AKQJ.T98 432.AKQJ.T98.765";
    let penalty = PendingLeadPenalty {
        player: Seat::East,
        penalty: LeadPenalty::RequireOrForbid(vec![Suit::Spades]),
        law: Law::rubber(26, "A"),
    };
    let contract: Contract = "4H".parse().unwrap_or_else(|e| panic!("{e}"));
    let play =
        Play::new(deal(pbn), DeclaredContract { contract, declarer: Seat::North }, Code::Rubber, vec![penalty], vec![])
            .unwrap_or_else(|e| panic!("{e}"));
    let play = play.rectify(PlayOption::Lead(LeadChoice::Require(Suit::Spades))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(play.legal_cards(), play.hand(Seat::East));
}

/// 4S by North: East led the club ace, dummy the ten, West the five, North the two.
fn first_trick(code: Code) -> Play {
    cards(&start(DEAL, "4S", Seat::North, code), &["CA", "CT", "C5", "C2"])
}

#[test]
fn duplicate_law_45e_a_fifth_card_is_a_defenders_penalty_card_and_goes_back_to_declarer() {
    // Law 45E1: "A fifth card contributed to a trick by a defender becomes a penalty card,
    // subject to Law 50"; 45E2: "When declarer contributes a fifth card to a trick from his own
    // hand or dummy, it is returned to the hand without further rectification".
    let play = first_trick(Code::Duplicate);
    let after = play.record_extra_card(Seat::West, card("C7"), 0).unwrap_or_else(|e| panic!("{e}"));
    let pc: Vec<_> = after.play.penalty_cards().map(|pc| (pc.card, pc.kind, pc.law)).collect();
    assert_eq!(pc, vec![(card("C7"), PenaltyCardKind::Major, Law::duplicate(45, "E1"))]);
    assert_eq!(after.play.tricks(), play.tricks(), "the trick is as it was");
    let after = play.record_extra_card(Seat::South, card("C9"), 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(after.play.penalty_cards().count(), 0);
    assert!(
        after
            .events
            .iter()
            .any(|e| matches!(e, PlayEvent::CardReturned { law, .. } if *law == Law::duplicate(45, "E2")))
    );
    assert!(after.play.hand(Seat::South).contains(card("C9")));
    // Law 67A: only "before a player on each side has played to the following trick".
    let one_side = cards(&play, &["CK"]);
    assert!(one_side.record_extra_card(Seat::West, card("C7"), 0).is_ok());
    let both_sides = cards(&play, &["CK", "C9"]);
    let err = both_sides.record_extra_card(Seat::West, card("C7"), 0).refused();
    assert!(matches!(err, PlayError::CannotRecord { .. }), "{err}");
    // A player who has not played to the trick contributes no extra card; a card not held is refused.
    let err = cards(&play, &["CK"]).record_extra_card(Seat::South, card("C9"), 1).refused();
    assert!(matches!(err, PlayError::CannotRecord { .. }), "{err}");
    let err = play.record_extra_card(Seat::West, card("SA"), 0).refused();
    assert!(matches!(err, PlayError::CardNotHeld { .. }), "{err}");
}

#[test]
fn rubber_law_67a2_a_second_card_to_a_trick_is_withdrawn_and_a_defenders_becomes_a_penalty_card() {
    // Rubber Law 67A: "if the offender has played more than one card to the defective trick, he
    // withdraws all but one card, leaving a card he can legally play"; 67A3: "any cards they
    // withdraw may become penalty cards (Law 50)". Law 50: a low card exposed inadvertently, "as
    // in playing two cards to a trick", is a minor penalty card; an honour is major.
    let play = first_trick(Code::Rubber);
    let low = play.record_extra_card(Seat::West, card("C7"), 0).unwrap_or_else(|e| panic!("{e}"));
    let pc: Vec<_> = low.play.penalty_cards().map(|pc| (pc.card, pc.kind, pc.law)).collect();
    assert_eq!(pc, vec![(card("C7"), PenaltyCardKind::Minor, Law::rubber(67, "A2"))]);
    let honour = play.record_extra_card(Seat::West, card("HA"), 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(honour.play.penalty_cards().map(|pc| pc.kind).collect::<Vec<_>>(), vec![PenaltyCardKind::Major]);
    // "until the responsible player has played to a subsequent trick": after East and dummy
    // have played to the next trick still in time; once West has, too late (Law 67B).
    let next = cards(&play, &["CK", "C9"]);
    assert!(next.record_extra_card(Seat::West, card("C7"), 0).is_ok());
    let later = cards(&play, &["CK", "C9", "C6"]);
    let err = later.record_extra_card(Seat::West, card("C7"), 0).refused();
    assert!(matches!(err, PlayError::CannotRecord { law, .. } if law == Law::rubber(67, "B")), "{err}");
    // His second card to the trick in progress is in time.
    assert!(later.record_extra_card(Seat::West, card("C7"), 1).is_ok());
}
