//! The committed draw seeds through the journal: a server draw reveals the seed committed before it
//! and commits the next in the same entry, the room commits its opening-draw seed, a replayed
//! journal keeps the seeds, and a table from before commitments were kept says so.

use api::membership::v1 as pb;
use laws::draw::DrawSeed;
use prost::Message;

use super::*;
use crate::draws::SEEDS_AHEAD;
use crate::journal::{Entry, Form, Options, Purpose};

/// Journals `plan` as the next entry and applies it, as the engine does.
fn run(state: &ClubState, plan: Plan, at: i64) -> (ClubState, Entry, crate::state::Changes) {
    let entry = Entry {
        at,
        actor: "desk".into(),
        command: plan.command,
        events: plan.events,
        opening_seeds: plan.opening_seeds,
    };
    let (next, changes) = state.apply(state.seq + 1, &entry).unwrap();
    (next, entry, changes)
}

/// Five players in the room and a table of the five: the journal so far.
fn club() -> Vec<Entry> {
    let mut state = ClubState::new();
    let mut journal = Vec::new();
    for n in 1..=5 {
        let plan = arrive(&state, &format!("p{n}"), n, n as i64).unwrap().unwrap();
        let (next, entry, _) = run(&state, plan, n as i64);
        state = next;
        journal.push(entry);
    }
    let spec = TableSpec { name: String::new(), form: Form::Rubber, options: Options::default() };
    let plan = open_table(&state, spec, &[1, 2, 3, 4, 5], &[], &[], false, 10).unwrap();
    journal.push(run(&state, plan, 10).1);
    journal
}

fn replay(journal: &[Entry]) -> ClubState {
    journal.iter().fold(ClubState::new(), |state, entry| state.apply(state.seq + 1, entry).unwrap().0)
}

fn commitments(seeds: &[[u8; 32]]) -> Vec<Vec<u8>> {
    seeds.iter().map(|s| DrawSeed(*s).commitment().to_vec()).collect()
}

#[test]
fn a_server_draw_reveals_the_seed_committed_before_and_commits_the_next_in_the_same_entry() {
    let journal = club();
    let state = replay(&journal);
    let committed = state.committed_seeds(1).to_vec();
    assert_eq!(committed.len(), SEEDS_AHEAD, "committed when the table opened");
    let table = state.table(1).unwrap().clone();
    assert_eq!(table.next_draw_seed_commitments, commitments(&committed), "the table shows the commitments");
    for seed in &committed {
        let shown = table.encode_to_vec();
        assert!(!shown.windows(32).any(|w| w == seed), "a seed is never shown before its draw");
    }

    let plan = draw_cards(&state, 1, Purpose::Partnerships, &[1, 2, 3, 4], 20).unwrap();
    let Command::Draw { draw, next_seeds: Some(next_seeds), .. } = &plan.command else {
        panic!("the draw commits the next seeds: {:?}", plan.command)
    };
    assert_eq!(draw.seed.as_deref(), Some(hex::encode(committed[0]).as_str()));
    assert!(draw.committed_before);
    let rest: Vec<String> = committed[1..].iter().map(hex::encode).collect();
    assert_eq!(next_seeds[..SEEDS_AHEAD - 1], rest[..], "the others keep their order");
    assert!(!committed.iter().any(|s| hex::encode(s) == next_seeds[SEEDS_AHEAD - 1]), "a new one at the back");

    let (after, _, changes) = run(&state, plan, 20);
    assert_eq!(after.committed_seeds(1)[..SEEDS_AHEAD - 1], committed[1..]);
    let shown = &changes.draws[0];
    assert!(shown.seed_committed_before_draw);
    assert_eq!(shown.seed_commitment, table.next_draw_seed_commitments[0], "the commitment published before");
    let published = changes.table_events.iter().find_map(|e| match &e.event {
        Some(pb::table_event::Event::DrawSeedsCommitted(c)) => Some(c.next_draw_seed_commitments.clone()),
        _ => None,
    });
    assert_eq!(published, Some(commitments(after.committed_seeds(1))), "watchers see the new commitments");
}

#[test]
fn the_room_commits_its_opening_draw_seed_with_its_first_entry_and_keeps_it_until_used() {
    let mut state = ClubState::new();
    for n in 1..=5 {
        let plan = arrive(&state, &format!("p{n}"), n, n as i64).unwrap().unwrap();
        assert_eq!(plan.opening_seeds.is_some(), n == 1, "committed by the room's first entry only");
        let (next, _, changes) = run(&state, plan, n as i64);
        let published = changes.room_events.iter().any(|e| {
            matches!(&e.event, Some(pb::room_event::Event::OpeningDrawSeedCommitted(c))
                if c.next_opening_draw_seed_commitment == next.opening_commitment())
        });
        assert_eq!(published, n == 1, "watchers of the room see it committed");
        state = next;
    }
    let committed = state.opening_seeds().to_vec();
    assert_eq!(committed.len(), crate::draws::OPENING_SEEDS_AHEAD);
    // Five who entered one after another rank by entry: no draw, so the seed stays for the next.
    let spec = TableSpec { name: String::new(), form: Form::Rubber, options: Options::default() };
    let plan = open_table(&state, spec, &[1, 2, 3, 4, 5], &[], &[], false, 10).unwrap();
    let Command::OpenTable { draw: None, next_seeds, .. } = &plan.command else { panic!("{:?}", plan.command) };
    assert_eq!(next_seeds.as_ref().map(Vec::len), Some(SEEDS_AHEAD), "the new table commits its own");
    assert!(plan.opening_seeds.is_none());
    assert_eq!(run(&state, plan, 10).0.opening_seeds(), committed.as_slice());
}

#[test]
fn a_journal_replayed_keeps_the_committed_seeds() {
    let journal = club();
    assert_eq!(replay(&journal).committed_seeds(1), replay(&journal).committed_seeds(1));
    let stored: Vec<String> = journal.iter().map(|e| serde_json::to_string(e).unwrap()).collect();
    let read: Vec<Entry> = stored.iter().map(|s| serde_json::from_str(s).unwrap()).collect();
    assert_eq!(read, journal);
}

#[test]
fn a_table_opened_before_commitments_were_kept_commits_at_its_first_draw_and_says_so() {
    // The journal as it was written before tables kept commitments: no next_seeds.
    let journal: Vec<Entry> = club()
        .iter()
        .map(|e| {
            let mut json = serde_json::to_value(e).unwrap();
            if let Some(entry) = json.as_object_mut() {
                entry.remove("opening_seeds");
            }
            if let Some(command) = json.get_mut("command").and_then(|c| c.as_object_mut()) {
                command.remove("next_seeds");
            }
            serde_json::from_value(json).unwrap()
        })
        .collect();
    let state = replay(&journal);
    assert!(state.committed_seeds(1).is_empty());
    assert!(state.opening_seeds().is_empty());
    assert!(state.table(1).unwrap().next_draw_seed_commitments.is_empty());

    let plan = draw_cards(&state, 1, Purpose::Partnerships, &[1, 2, 3, 4], 20).unwrap();
    let Command::Draw { draw, .. } = &plan.command else { panic!("{:?}", plan.command) };
    assert!(!draw.committed_before, "its seed was committed at the draw, and the draw says so");
    let (state, _, changes) = run(&state, plan, 20);
    assert!(!changes.draws[0].seed_committed_before_draw);
    assert_eq!(state.committed_seeds(1).len(), SEEDS_AHEAD, "the next draws' seeds are committed");
    assert_eq!(state.opening_seeds().len(), crate::draws::OPENING_SEEDS_AHEAD, "and the room's");

    // From then on every server draw uses a seed committed before.
    let rubber = start_rubber(&state, 1, &RubberStart::default(), 30).unwrap();
    let (state, _, _) = run(&state, rubber, 30);
    let Some(rubber_id) = state.current_rubber(1).map(|r| r.rubber_id.clone()) else { panic!("no rubber") };
    let (state, _, _) = run(&state, end_rubber(&state, 1, &rubber_id, true, 40).unwrap(), 40);
    let committed = state.committed_seeds(1).to_vec();
    let asked = RubberStart { server_draw: true, ..RubberStart::default() };
    let plan = start_rubber(&state, 1, &asked, 50).unwrap();
    let Command::StartRubber { draws, .. } = &plan.command else { panic!("{:?}", plan.command) };
    assert!(!draws.is_empty(), "going out and partnerships drawn by the server");
    for (draw, seed) in draws.iter().zip(&committed) {
        assert!(draw.committed_before);
        assert_eq!(draw.seed.as_deref(), Some(hex::encode(seed).as_str()), "in the order committed");
    }
}
