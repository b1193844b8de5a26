//! Every procedure event survives the journal: stored, read back, the same event.

use laws::deal::GameForm;
use laws::procedure::DrawPurpose;

use super::*;

#[test]
fn every_procedure_event_survives_the_journal() {
    let at = Timestamp(42);
    let cards: Vec<DrawnCard> = [(1, "SA"), (2, "HK"), (3, "D2"), (4, "CT")]
        .iter()
        .map(|(p, c)| DrawnCard { player: PlayerId(*p), card: c.parse().unwrap() })
        .collect();
    let four: [DrawnCard; 4] = cards.clone().try_into().unwrap();
    let options = TableOptions { no_consecutive_partners: true, pivot: false, chicago_vulnerability_switched: true };
    let events = vec![
        ProcedureEvent::Entered { player: PlayerId(1), at },
        ProcedureEvent::LeftRoom { player: PlayerId(1), at },
        ProcedureEvent::TableFormed {
            table: TableId(3),
            form: GameForm::Chicago,
            options,
            applicants: players(&[1, 2, 3, 4, 5]),
            returning_fourths: players(&[5]),
            draw: cards.clone(),
            at,
        },
        ProcedureEvent::Applied { table: TableId(3), players: players(&[7, 8]), draw: cards[..2].to_vec(), at },
        ProcedureEvent::Withdrew { player: PlayerId(8), table: TableId(3), at },
        ProcedureEvent::MadeFourth { player: PlayerId(9), table: TableId(2), announced_return: true, at },
        ProcedureEvent::ReturnedHome { player: PlayerId(9), at },
        ProcedureEvent::LeftTable { player: PlayerId(9), table: TableId(2), at },
        ProcedureEvent::DrawStarted { table: TableId(3), at },
        ProcedureEvent::LineUpDrawn { table: TableId(3), purpose: DrawPurpose::LeaverEntry, draw: cards.clone(), at },
        ProcedureEvent::RubberStarted { table: TableId(3), partnerships: PartnershipSource::Drawn(four), at },
        ProcedureEvent::ApplicationsJoined { table: TableId(3), players: players(&[5, 6]), draw: vec![], at },
        ProcedureEvent::EntryCorrected { player: PlayerId(4), entered_at: Timestamp(5), at },
        ProcedureEvent::RubberStarted { table: TableId(3), partnerships: PartnershipSource::Pivot, at },
        ProcedureEvent::RubberStarted {
            table: TableId(3),
            partnerships: PartnershipSource::Agreed(
                laws::draw::Partnerships::new([PlayerId(1), PlayerId(3)], [PlayerId(2), PlayerId(4)]).unwrap(),
            ),
            at,
        },
        ProcedureEvent::RubberEnded { table: TableId(3), completed: false, at },
        ProcedureEvent::OptionsChanged { table: TableId(3), options, at },
        ProcedureEvent::TableClosed { table: TableId(3), at },
    ];
    for event in events {
        let stored = serde_json::to_string(&Event::from(&event)).unwrap();
        let read: Event = serde_json::from_str(&stored).unwrap();
        assert_eq!(read.to_laws(at).unwrap(), event, "{stored}");
    }
}
