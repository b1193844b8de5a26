//! Who sits on an appeals committee (the Club Appeals Committee, Laws of Rubber Bridge Part VIII,
//! and the same text in the Alternative Club Laws): the club's roster with its terms and chair,
//! the conflicts the club declares, and a game's own committee
//! (docs/laws-readings.md, "Appeals committee readings").

use laws::appeals::{AppealForm, AppealRefusal, Conflict, check_impartial};
use laws::committee::{
    AppealConcerns, CommitteeRefusal, Declared, DeclaredFor, RosterEntry, Term, check_confirmation, check_designation,
    check_game_panel, check_on_roster, check_one_chair, declared_conflicts, game_bench, is_agreed,
};
use laws::{CitesLaw, Law};

const DAY: i64 = 86_400;

fn term(from: i64, until: Option<i64>) -> Term {
    Term::new(from, until).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn club_appeals_committee_the_club_establishes_its_committee_and_members_sit_within_their_terms() {
    // "Whenever possible, a club should establish an Appeals Committee to review decisions of the
    // Arbiter": the club's roster is its committee, each member for his term.
    let roster = [
        RosterEntry { member: "ann", chair: true, term: term(0, None) },
        RosterEntry { member: "bob", chair: false, term: term(0, Some(10 * DAY)) },
        RosterEntry { member: "bob", chair: false, term: term(20 * DAY, None) },
    ];
    assert_eq!(check_on_roster(&["ann", "bob"], &roster, 5 * DAY), Ok(()));
    assert_eq!(check_on_roster(&["bob"], &roster, 25 * DAY), Ok(()), "a second term");
    let between = check_on_roster(&["ann", "bob"], &roster, 15 * DAY).unwrap_err();
    assert_eq!(between, CommitteeRefusal::OutOfTerm { member: "bob".into() });
    assert_eq!(between.law(), Law::club_appeals());
    let stranger = check_on_roster(&["ann", "cy"], &roster, DAY).unwrap_err();
    assert_eq!(
        stranger.to_string(),
        "cy is not on the club's appeals committee roster (the Club Appeals Committee (Alternative Club Laws): the \
         club establishes its Appeals Committee)"
    );
    // A term that ends as it begins covers nothing.
    assert_eq!(Term::new(DAY, Some(DAY)), Err(CommitteeRefusal::EmptyTerm));
}

#[test]
fn club_appeals_committee_has_one_chair_at_a_time() {
    let chairs = [("ann", term(0, Some(10 * DAY)))];
    assert_eq!(check_one_chair(&chairs, term(10 * DAY, None)), Ok(()), "after ann's term");
    assert_eq!(
        check_one_chair(&chairs, term(5 * DAY, Some(15 * DAY))),
        Err(CommitteeRefusal::TwoChairs { chair: "ann".into() })
    );
}

#[test]
fn club_appeals_committee_a_member_the_club_declares_conflicted_does_not_sit() {
    // "a club should establish an Appeals Committee to review decisions of the Arbiter": the club
    // that appoints the committee says who on it may not judge whom.
    let declared = [
        ("ann", Declared::Player("nora")),
        ("bob", Declared::Partnership("sam", "nora")),
        ("cy", Declared::Table("table-9")),
        ("dan", Declared::Appeal("appeal-7")),
        ("eve", Declared::Partnership("sam", "wendy")),
    ];
    let concerns =
        AppealConcerns { parties: &["nora", "eddie", "sam", "walt"], table: Some("table-1"), appeal: "appeal-1" };
    let bearing = declared_conflicts(&declared, &concerns);
    assert_eq!(
        bearing,
        vec![("ann", Conflict::Declared(DeclaredFor::Player)), ("bob", Conflict::Declared(DeclaredFor::Partnership))]
    );
    let refused = check_impartial(AppealForm::Rubber, &["bob", "cy", "dan"], &bearing).unwrap_err();
    assert_eq!(refused.law(), Law::club_appeals());
    assert_eq!(
        refused.to_string(),
        "bob may not sit on this appeal's committee: he is declared conflicted by the club for a partnership party \
         to the appeal (the Club Appeals Committee (Alternative Club Laws))"
    );
    // The table and the appeal declared.
    let at_nine = AppealConcerns { parties: &["x"], table: Some("table-9"), appeal: "appeal-7" };
    let bearing = declared_conflicts(&declared, &at_nine);
    assert!(matches!(
        check_impartial(AppealForm::Chicago, &["cy"], &bearing),
        Err(AppealRefusal::Conflicted { conflict: Conflict::Declared(DeclaredFor::Table), .. })
    ));
    assert!(matches!(
        check_impartial(AppealForm::Chicago, &["dan"], &bearing),
        Err(AppealRefusal::Conflicted { conflict: Conflict::Declared(DeclaredFor::Appeal), .. })
    ));
    assert_eq!(check_impartial(AppealForm::Chicago, &["ann", "bob", "eve"], &bearing), Ok(()));
}

const PLAYERS: [&str; 4] = ["nora", "eddie", "sam", "wendy"];

#[test]
fn club_appeals_committee_any_game_may_designate_a_committee_agreed_in_advance() {
    // "any game may designate a committee to which appeals may be taken. If such a procedure has
    // been agreed to or published in advance, any player may appeal any decision by the Arbiter."
    assert_eq!(check_designation(&PLAYERS, "nora", &["ann", "bob"], false), Ok(()));
    // In advance: before the game's first deal.
    assert_eq!(check_designation(&PLAYERS, "nora", &["ann"], true), Err(CommitteeRefusal::GameStarted));
    assert_eq!(check_confirmation(&PLAYERS, "sam", true), Err(CommitteeRefusal::GameStarted));
    // The game's own players designate it, and none of them sits on it.
    assert_eq!(
        check_designation(&PLAYERS, "kibitzer", &["ann"], false),
        Err(CommitteeRefusal::NotAPlayerOfTheGame { player: "kibitzer".into() })
    );
    let player = check_designation(&PLAYERS, "nora", &["ann", "sam"], false).unwrap_err();
    assert_eq!(player, CommitteeRefusal::PlayerOfTheGame { member: "sam".into() });
    assert_eq!(player.law(), Law::club_appeals());
    assert_eq!(check_designation(&PLAYERS, "nora", &[], false), Err(CommitteeRefusal::NoMembers));
    assert_eq!(
        check_designation(&PLAYERS, "nora", &["ann", "ann"], false),
        Err(CommitteeRefusal::NamedTwice { member: "ann".into() })
    );
    assert_eq!(
        check_confirmation(&PLAYERS, "ann", false),
        Err(CommitteeRefusal::NotAPlayerOfTheGame { player: "ann".into() })
    );
    // Agreed: each of the four confirms.
    assert!(!is_agreed(&PLAYERS, &["nora", "eddie", "sam"]));
    assert!(is_agreed(&PLAYERS, &["wendy", "sam", "eddie", "nora"]));
}

#[test]
fn club_appeals_committee_the_games_committee_hears_its_appeals_whole() {
    // "any game may designate a committee to which appeals may be taken": taken to it, not to the
    // club's committee, and heard by the members the players agreed.
    let designated = ["ann", "bob"];
    assert_eq!(check_game_panel(&designated, &["bob", "ann"], "ann"), Ok(()));
    let club = check_game_panel(&designated, &["ann", "chair"], "ann").unwrap_err();
    assert_eq!(club, CommitteeRefusal::NotOfTheGamesCommittee { member: "chair".into() });
    assert!(club.to_string().contains("any game may designate a committee to which appeals may be taken"));
    assert_eq!(
        check_game_panel(&designated, &["ann"], "ann"),
        Err(CommitteeRefusal::GamesCommitteeIncomplete { member: "bob".into() })
    );
}

#[test]
fn club_appeals_committee_a_procedure_agreed_to_or_published_in_advance() {
    // "If such a procedure has been agreed to or published in advance, any player may appeal any
    // decision by the Arbiter": a game's agreed committee is a procedure agreed in advance, and it
    // hears the appeal whatever the club published; without one the club's arrangements decide.
    assert_eq!(game_bench(true), Some(laws::appeal_procedure::Bench::Committee));
    assert_eq!(game_bench(false), None);
}
