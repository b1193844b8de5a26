//! Properties of the Rules for Club Procedure over random event sequences: whatever players
//! do, no table has more than six members (rule A), no one is a member of two tables except
//! while making a fourth with an announced return (rule F), an applicant waits at a table with
//! room only while he plays a rubber elsewhere (rules D and F), the rubber being played is four
//! members, and replaying the journal rebuilds the same room.

// Tests may unwrap: a panic here is a failed test, with the value in the message.
#![allow(clippy::unwrap_used)]

use laws::CitesLaw;
use laws::deal::GameForm;
use laws::draw::{Deck, DrawSeed, DrawnCard, PlayerId, Spread};
use laws::procedure::{
    DrawNeeded, DrawPurpose, PartnershipSource, ProcedureEvent, Room, TableId, TableOptions, TablePhase, Timestamp,
};
use proptest::prelude::*;

const PLAYERS: u64 = 14;
const TABLES: u64 = 3;

/// A player's action, with its players and tables picked from the room as it is when the
/// action comes (selectors are taken modulo the candidates), so that most actions are ones the
/// rules allow and the evenings get deep: rubbers, fills, breaks, waiting lists.
#[derive(Debug, Clone)]
enum Command {
    Enter(u64),
    LeaveRoom(usize),
    Form { table: u64, players: Vec<usize>, fourth: bool, pivot: bool, no_consecutive: bool },
    Apply { table: usize, players: Vec<usize> },
    Withdraw(usize),
    MakeFourth { player: usize, announced_return: bool },
    ReturnHome(usize),
    LeaveTable { table: usize, member: usize },
    StartDraw(usize),
    Draw { table: usize, seed: u8 },
    EndRubber { table: usize, completed: bool },
}

fn command() -> impl Strategy<Value = Command> {
    let pick = 0..64usize;
    prop_oneof![
        2 => (1..=PLAYERS).prop_map(Command::Enter),
        1 => pick.clone().prop_map(Command::LeaveRoom),
        2 => (1..=TABLES, proptest::collection::vec(0..64usize, 3..9), any::<bool>(), any::<bool>(), any::<bool>())
            .prop_map(|(table, players, fourth, pivot, no_consecutive)| Command::Form { table, players, fourth, pivot, no_consecutive }),
        4 => (pick.clone(), proptest::collection::vec(0..64usize, 1..4)).prop_map(|(table, players)| Command::Apply { table, players }),
        1 => pick.clone().prop_map(Command::Withdraw),
        3 => (pick.clone(), any::<bool>()).prop_map(|(player, announced_return)| Command::MakeFourth { player, announced_return }),
        2 => pick.clone().prop_map(Command::ReturnHome),
        3 => (pick.clone(), pick.clone()).prop_map(|(table, member)| Command::LeaveTable { table, member }),
        5 => pick.clone().prop_map(Command::StartDraw),
        8 => (pick.clone(), any::<u8>()).prop_map(|(table, seed)| Command::Draw { table, seed }),
        5 => (pick, any::<bool>()).prop_map(|(table, completed)| Command::EndRubber { table, completed }),
    ]
}

fn nth<T: Copy>(items: &[T], selector: usize) -> Option<T> {
    (!items.is_empty()).then(|| items[selector % items.len()])
}

fn present(room: &Room) -> Vec<PlayerId> {
    (1..=PLAYERS).map(PlayerId).filter(|p| room.is_present(*p)).collect()
}

fn table_ids(room: &Room) -> Vec<TableId> {
    room.tables().map(|t| t.id()).collect()
}

fn server_cards(needed: &Option<DrawNeeded>, seed: u8) -> Vec<DrawnCard> {
    match needed {
        Some(needed) => Spread::server_draw(Deck::First, &DrawSeed([seed; 32]), &needed.players)
            .map(|spread| spread.cards())
            .unwrap_or_default(),
        None => Vec::new(),
    }
}

/// The event the membership service would record for a command, performing any draw the
/// room asks for with a server draw; `None` if the room offers nothing to act on.
fn event(room: &Room, command: &Command, at: Timestamp) -> Option<ProcedureEvent> {
    let present = present(room);
    let tables = table_ids(room);
    Some(match command.clone() {
        Command::Enter(p) => ProcedureEvent::Entered { player: PlayerId(p), at },
        Command::LeaveRoom(p) => ProcedureEvent::LeftRoom { player: nth(&present, p)?, at },
        Command::Form { table, players, fourth, pivot, no_consecutive } => {
            let mut applicants: Vec<PlayerId> = Vec::new();
            for p in players.iter().filter_map(|i| nth(&present, *i)) {
                if !applicants.contains(&p) {
                    applicants.push(p);
                }
            }
            let needed = room.formation_draw(&applicants).ok().flatten();
            let fourth =
                if fourth { applicants.iter().copied().find(|p| !room.tables_of(*p).is_empty()) } else { None };
            ProcedureEvent::TableFormed {
                table: TableId(table),
                form: if pivot { GameForm::Chicago } else { GameForm::Rubber },
                options: TableOptions { pivot, no_consecutive_partners: no_consecutive, ..TableOptions::default() },
                returning_fourths: fourth.into_iter().collect(),
                draw: server_cards(&needed, players.len() as u8),
                applicants,
                at,
            }
        }
        Command::Apply { table, players } => {
            let table = nth(&tables, table)?;
            let candidates: Vec<PlayerId> = present
                .iter()
                .copied()
                .filter(|p| {
                    let t = room.table(table).unwrap();
                    !t.is_member(*p) && !t.applications().contains(p)
                })
                .collect();
            let mut applicants: Vec<PlayerId> = Vec::new();
            for p in players.iter().filter_map(|i| nth(&candidates, *i)) {
                if !applicants.contains(&p) {
                    applicants.push(p);
                }
            }
            let needed = room.application_draw(table, &applicants).ok().flatten();
            ProcedureEvent::Applied { table, draw: server_cards(&needed, 5), players: applicants, at }
        }
        Command::Withdraw(i) => {
            let waiting: Vec<(PlayerId, TableId)> =
                room.tables().flat_map(|t| t.applications().iter().map(move |p| (*p, t.id()))).collect();
            let (player, table) = nth(&waiting, i)?;
            ProcedureEvent::Withdrew { player, table, at }
        }
        Command::MakeFourth { player, announced_return } => {
            let short: Vec<TableId> = room.tables().filter(|t| t.members().len() == 3).map(|t| t.id()).collect();
            let table = nth(&short, player)?;
            let candidates: Vec<PlayerId> = present
                .iter()
                .copied()
                .filter(|p| !room.table(table).unwrap().is_member(*p) && room.tables_of(*p).len() == 1)
                .collect();
            ProcedureEvent::MadeFourth { player: nth(&candidates, player)?, table, announced_return, at }
        }
        Command::ReturnHome(i) => {
            let fourths: Vec<PlayerId> = room
                .tables()
                .flat_map(|t| t.members().iter().filter(|m| m.fourth_for().is_some()).map(|m| m.player()))
                .collect();
            ProcedureEvent::ReturnedHome { player: nth(&fourths, i)?, at }
        }
        Command::LeaveTable { table, member } => {
            let table = nth(&tables, table)?;
            let members: Vec<PlayerId> = room.table(table).unwrap().members().iter().map(|m| m.player()).collect();
            ProcedureEvent::LeftTable { player: nth(&members, member)?, table, at }
        }
        Command::StartDraw(t) => ProcedureEvent::DrawStarted { table: nth(&tables, t)?, at },
        Command::Draw { table, seed } => {
            let lining_up: Vec<TableId> =
                room.tables().filter(|t| t.phase() == TablePhase::LiningUp).map(|t| t.id()).collect();
            let table = nth(&lining_up, table)?;
            match room.next_draw(table) {
                Some(needed) if needed.purpose == DrawPurpose::Partnerships => {
                    let cards: [DrawnCard; 4] = server_cards(&Some(needed), seed).try_into().ok()?;
                    ProcedureEvent::RubberStarted { table, partnerships: PartnershipSource::Drawn(cards), at }
                }
                Some(needed) => {
                    let purpose = needed.purpose;
                    ProcedureEvent::LineUpDrawn { table, purpose, draw: server_cards(&Some(needed), seed), at }
                }
                None => ProcedureEvent::RubberStarted { table, partnerships: PartnershipSource::Pivot, at },
            }
        }
        Command::EndRubber { table, completed } => {
            let playing: Vec<TableId> =
                room.tables().filter(|t| t.phase() == TablePhase::Playing).map(|t| t.id()).collect();
            ProcedureEvent::RubberEnded { table: nth(&playing, table)?, completed, at }
        }
    })
}

fn check_invariants(room: &Room) -> Result<(), TestCaseError> {
    for table in room.tables() {
        let members: Vec<PlayerId> = table.members().iter().map(|m| m.player()).collect();
        prop_assert!(
            members.len() <= 6,
            "rule A: a complete table has six members; {} has {}",
            table.id(),
            members.len()
        );
        prop_assert!(!members.is_empty(), "a table with no member is dissolved");
        for (i, p) in members.iter().enumerate() {
            prop_assert!(!members[..i].contains(p));
            prop_assert!(room.is_present(*p), "{p} is a member of {} but not in the room", table.id());
        }
        if !table.is_complete() {
            for applicant in table.applications() {
                let playing_elsewhere = room.playing_at(*applicant).is_some_and(|t| t != table.id());
                prop_assert!(
                    playing_elsewhere,
                    "rule D: {applicant} waits at {}, which has room, without playing a rubber elsewhere (rule F)",
                    table.id()
                );
            }
        }
        for applicant in table.applications() {
            prop_assert!(!members.contains(applicant));
            prop_assert!(room.is_present(*applicant));
        }
        match table.phase() {
            TablePhase::Playing => {
                let playing = table.playing().unwrap();
                for (i, p) in playing.iter().enumerate() {
                    prop_assert!(members.contains(p), "{p} plays at {} without being a member", table.id());
                    prop_assert!(!playing[..i].contains(p));
                }
                prop_assert!(table.partnerships().unwrap().players().iter().all(|p| playing.contains(p)));
            }
            TablePhase::LiningUp => {
                let eligible = table.eligible();
                prop_assert!(eligible.len() >= 4, "Law 1: four players");
                prop_assert!(eligible.iter().all(|p| members.contains(p)), "rule B: only members drawn for");
                if let Some(line_up) = room.line_up(table.id()) {
                    prop_assert!(line_up.playing.iter().all(|p| eligible.contains(p)));
                    prop_assert_eq!(line_up.playing.len() + line_up.sitting_out.len(), eligible.len());
                }
            }
            TablePhase::BetweenRubbers => {}
        }
    }
    for p in (1..=PLAYERS).map(PlayerId) {
        let tables = room.tables_of(p);
        prop_assert!(tables.len() <= 2, "{p} is a member of {} tables", tables.len());
        if let [a, b] = tables[..] {
            let (ma, mb) = (room.table(a).unwrap().member(p).unwrap(), room.table(b).unwrap().member(p).unwrap());
            let fourth = (ma.away_at() == Some(b) && mb.fourth_for() == Some(a))
                || (mb.away_at() == Some(a) && ma.fourth_for() == Some(b));
            prop_assert!(fourth, "rule F: {p} is a member of {a} and {b} without an announced return");
        }
    }
    for restriction in room.restrictions() {
        prop_assert!(!restriction.protected().is_empty() && restriction.protected().len() <= 3);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_club_evenings_keep_the_rules_invariants(commands in proptest::collection::vec(command(), 1..120)) {
        let mut room = Room::new();
        let mut journal = Vec::new();
        let mut clock = 0;
        for p in 1..=PLAYERS {
            clock += 10;
            let entered = ProcedureEvent::Entered { player: PlayerId(p), at: Timestamp(clock) };
            room = room.apply(&entered).unwrap().0;
            journal.push(entered);
        }
        let mut accepted = 0;
        for command in &commands {
            clock += 10;
            let Some(event) = event(&room, command, Timestamp(clock)) else { continue };
            match room.apply(&event) {
                Ok((next, _)) => {
                    room = next;
                    journal.push(event);
                    accepted += 1;
                    check_invariants(&room)?;
                }
                Err(err) => {
                    // A refusal names the rule and says what was wrong.
                    let _ = err.law();
                    prop_assert!(!err.to_string().is_empty());
                }
            }
        }
        prop_assert_eq!(Room::replay(&journal).unwrap(), room);
        prop_assert!(accepted <= commands.len());
    }
}
