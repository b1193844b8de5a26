//! The opening lead made face down (duplicate Laws 41A, 41C and 54; rubber bridge by agreement
//! under Appendix 3 of the Laws of Rubber Bridge, which the Club Laws leave as it is). North
//! declares four spades, so East makes the opening lead and West is his partner.

mod play_common;

use laws::irregularities::play::Situation;
use laws::play::{Play, PlayError, PlayEvent};
use laws::{CitesLaw, Code, Law, Seat};
use play_common::{DEAL, Refused, card, recorded, start};

const CODES: [Code; 3] = [Code::Duplicate, Code::Rubber, Code::Club];

/// The rule each code gives face-down leads: duplicate Law 41 (section as given), rubber
/// Appendix 3 (cited beside Law 41).
fn face_down_law(code: Code, section: &'static str) -> Law {
    match code {
        Code::Duplicate => Law::duplicate(41, section),
        _ => Law::rubber(41, " and Appendix 3"),
    }
}

fn face_down(play: &Play, seat: Seat, c: &str) -> (Play, Vec<PlayEvent>) {
    let recorded = play.lead_face_down(seat, card(c)).unwrap_or_else(|e| panic!("{seat} {c}: {e}"));
    (recorded.play, recorded.events)
}

fn returned(events: &[PlayEvent]) -> Vec<(Seat, String, Law)> {
    events
        .iter()
        .filter_map(|e| match e {
            PlayEvent::CardReturned { seat, card, law } => Some((*seat, card.to_string(), *law)),
            _ => None,
        })
        .collect()
}

/// Duplicate Law 41A: "the defender on presumed declarer's left makes the opening lead face
/// down"; 41C: "Following this Clarification Period, the opening lead is faced, the play period
/// begins irrevocably, and dummy's hand is spread." Rubber Appendix 3: "When the face-down lead
/// will be legal, dummy delays spreading his hand. ... Then, the lead is faced ..., dummy is
/// faced and play proceeds normally." The card lies face down, still East's; his next card
/// faces it, digitally or at a recording table.
#[test]
fn law_41a_a_face_down_lead_in_turn_lies_until_it_is_faced() {
    for code in CODES {
        let play = start(DEAL, "4S", Seat::North, code);
        let (lying, events) = face_down(&play, Seat::East, "CA");
        assert!(events.is_empty(), "{code:?}");
        assert_eq!(lying.face_down_lead(), Some((Seat::East, card("CA"))));
        assert!(!lying.dummy_visible(), "{code:?}: dummy waits");
        assert!(lying.tricks().is_empty(), "{code:?}: not yet played");
        assert!(lying.hand(Seat::East).contains(card("CA")));
        assert!(!lying.visible_to(Seat::West)[Seat::East.index()].contains(card("CA")), "{code:?}: hidden");
        assert_eq!(lying.next_to_play(), Some(Seat::East));
        assert_eq!(lying.legal_cards().iter().map(|c| c.to_string()).collect::<Vec<_>>(), vec!["CA"]);
        for faced in [lying.card(card("CA")).unwrap_or_else(|e| panic!("{e}")), recorded(&lying, Seat::East, "CA").play]
        {
            assert!(faced.dummy_visible(), "{code:?}");
            assert_eq!(faced.face_down_lead(), None);
            assert_eq!(faced.tricks()[0].card(Seat::East), Some(card("CA")));
            assert_eq!(faced.next_to_play(), Some(Seat::South));
        }
    }
}

/// Duplicate Law 41A: "The face-down lead may be withdrawn only upon instruction of the Director
/// after an irregularity"; rubber Appendix 3: "the lead is faced (opening leader may not
/// withdraw it)". East may neither face another card nor lead face down again.
#[test]
fn law_41a_the_face_down_lead_may_not_be_changed() {
    for code in CODES {
        let (lying, _) = face_down(&start(DEAL, "4S", Seat::North, code), Seat::East, "CA");
        let err = lying.card(card("CK")).refused();
        assert!(matches!(err, PlayError::CannotRecord { .. }), "{code:?}: {err}");
        assert_eq!(err.law(), face_down_law(code, "A"));
        assert_eq!(lying.record(Seat::East, card("D2")).refused().law(), face_down_law(code, "A"));
        assert_eq!(lying.lead_face_down(Seat::East, card("CK")).refused().law(), face_down_law(code, "A"));
    }
}

/// Rubber Appendix 3: "If an opening lead is determined to be out of turn (before being faced),
/// the leader returns the card to his hand without penalty." Duplicate Law 41A: "the withdrawn
/// card must be returned to the defender's hand." West leads face down out of turn: the card
/// goes back, no penalty card, no choice for declarer, and East still leads.
#[test]
fn law_41a_a_face_down_lead_out_of_turn_goes_back_without_penalty() {
    for code in CODES {
        let play = start(DEAL, "4S", Seat::North, code);
        let (after, events) = face_down(&play, Seat::West, "HA");
        assert_eq!(returned(&events), vec![(Seat::West, "HA".to_owned(), face_down_law(code, "A"))]);
        assert_eq!(after.penalty_cards().count(), 0, "{code:?}");
        assert_eq!(after.decision(), None, "{code:?}");
        assert!(after.hand(Seat::West).contains(card("HA")));
        assert_eq!(after.face_down_lead(), None);
        assert_eq!(after.next_to_play(), Some(Seat::East));
        // East's face-down lead in turn lies; West's face-down lead then is still out of turn.
        let (lying, _) = face_down(&after, Seat::East, "CA");
        let (still, events) = face_down(&lying, Seat::West, "HK");
        assert_eq!(returned(&events).len(), 1, "{code:?}");
        assert_eq!(still.face_down_lead(), Some((Seat::East, card("CA"))));
    }
}

/// Duplicate Law 54E: "If a player of the declaring side attempts to make an opening lead Law 24
/// applies", and Law 24 rules only cards whose faces could be seen; rubber Appendix 3 returns
/// any face-down lead out of turn. South, dummy, leads face down: the card goes back.
#[test]
fn law_54e_a_face_down_lead_by_the_declaring_side_goes_back() {
    for code in CODES {
        let (after, events) = face_down(&start(DEAL, "4S", Seat::North, code), Seat::South, "DA");
        let law = if code == Code::Duplicate { Law::duplicate(54, "E") } else { face_down_law(code, "A") };
        assert_eq!(returned(&events), vec![(Seat::South, "DA".to_owned(), law)], "{code:?}");
        assert_eq!(after.penalty_cards().count(), 0);
        assert_eq!(after.next_to_play(), Some(Seat::East));
    }
}

/// Duplicate Law 54: "When an opening lead out of turn is faced and offender's partner leads face
/// down, the Director requires the face down lead to be retracted." West faces the heart ace out
/// of turn; East's face-down lead goes back, before or after West's lead, and declarer's Law 54
/// decision is as it would be without it. Rubber: a face-down card is not played until faced
/// (Appendix 3), so it goes back too.
#[test]
fn law_54_a_face_down_lead_by_the_offenders_partner_is_retracted() {
    for code in CODES {
        let law = if code == Code::Duplicate { Law::duplicate(54, "") } else { face_down_law(code, "") };
        let play = start(DEAL, "4S", Seat::North, code);
        let faced = recorded(&play, Seat::West, "HA").play;
        assert!(matches!(faced.decision().map(|d| d.situation), Some(Situation::OpeningLeadOutOfTurn { .. })));
        let (after, events) = face_down(&faced, Seat::East, "CA");
        assert_eq!(returned(&events), vec![(Seat::East, "CA".to_owned(), law)], "{code:?}");
        assert_eq!(after.decision(), faced.decision());
        assert_eq!(after.penalty_cards().count(), 0);
        assert_eq!(after.face_down_lead(), None);

        let (lying, _) = face_down(&play, Seat::East, "CA");
        let out_of_turn = recorded(&lying, Seat::West, "HA");
        assert_eq!(returned(&out_of_turn.events), vec![(Seat::East, "CA".to_owned(), law)], "{code:?}");
        assert_eq!(out_of_turn.play.face_down_lead(), None);
        assert_eq!(out_of_turn.play.decision(), faced.decision(), "{code:?}: Law 54 as before");
        assert_eq!(out_of_turn.play.penalty_cards().count(), 0);
    }
}

/// Duplicate Law 41C: once the opening lead is faced "the play period begins irrevocably"; a
/// face-down lead after it is no opening lead.
#[test]
fn law_41c_no_face_down_lead_once_the_opening_lead_is_faced() {
    for code in CODES {
        let play = start(DEAL, "4S", Seat::North, code).card(card("CA")).unwrap_or_else(|e| panic!("{e}"));
        let err = play.lead_face_down(Seat::South, card("C8")).refused();
        assert_eq!(err.law(), face_down_law(code, "C"), "{code:?}");
    }
}

/// Duplicate Law 41A: "The face-down lead may be withdrawn only upon instruction of the Director
/// after an irregularity (see Laws 47E and 54); the withdrawn card must be returned to the
/// defender's hand." Law 47E2(a): "A player may retract the card he has played because of a
/// mistaken explanation of an opponent's call". Rubber Law 47D lets even a played card be
/// retracted on that ground. South (declarer's side) misexplained a call: East's face-down lead
/// goes back and he leads again; an explanation from his own partner is no ground.
#[test]
fn law_41a_a_face_down_lead_is_withdrawn_after_a_mistaken_explanation() {
    use laws::irregularities::play::Retraction;
    for code in CODES {
        let (lying, _) = face_down(&start(DEAL, "4S", Seat::North, code), Seat::East, "CA");
        let done = lying
            .retract(Seat::East, Retraction::MistakenExplanation { by: Seat::South })
            .unwrap_or_else(|e| panic!("{e}"));
        let law = Retraction::MistakenExplanation { by: Seat::South }.law(code);
        assert_eq!(returned(&done.events), vec![(Seat::East, "CA".to_owned(), law)], "{code:?}");
        assert_eq!(done.play.face_down_lead(), None);
        assert_eq!(done.play.penalty_cards().count(), 0);
        assert!(done.play.card(card("CK")).is_ok(), "{code:?}: he leads again");
        let err = lying.retract(Seat::East, Retraction::MistakenExplanation { by: Seat::West }).refused();
        assert!(matches!(err, PlayError::RetractionRefused { .. }), "{code:?}: {err}");
    }
}
