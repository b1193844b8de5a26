//! The standings kept a row per contestant, on SQLite: a change rewrites only the rows of the
//! contestants it moves, and a session stored the old way (standings in its row) reads and
//! scores as before, then moves to the rows.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use platform::live::MemoryStore;
use sea_orm::Statement;
use sea_orm::sea_query::Expr;

use super::*;

struct Club {
    dir: std::path::PathBuf,
    sessions: Sessions,
}

impl Club {
    async fn new() -> Club {
        let dir = std::env::temp_dir().join(format!("scoring-standings-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("club.db").display());
        let db = platform::db::connect_and_migrate(&url).await.unwrap();
        let settings = SessionSettings { datum: ButlerDatum::default(), correction_period: Duration::from_secs(1800) };
        Club { dir, sessions: Sessions::new(db, Feed::new(Arc::new(MemoryStore::new())), settings) }
    }

    fn db(&self) -> &Db {
        &self.sessions.db
    }

    /// The service started again on the same database (what this process knew is gone), as after
    /// an upgrade from a version that stored sessions differently.
    fn restart(&mut self) {
        let s = &self.sessions;
        self.sessions = Sessions::new(s.db.clone(), s.feed.clone(), s.settings);
    }

    async fn execute(&self, sql: &str) {
        self.db().execute_raw(Statement::from_string(self.db().get_database_backend(), sql.to_owned())).await.unwrap();
    }

    async fn session(&self, pairs: u32, boards: u32) -> spb::Session {
        let request = spb::CreateSessionRequest {
            name: "Rows".into(),
            contestant_kind: spb::ContestantKind::Pairs as i32,
            scoring_method: spb::ScoringMethod::Matchpoints as i32,
            boards: (1..=boards).map(|number| spb::Board { number, ..Default::default() }).collect(),
            contestants: (1..=pairs)
                .map(|n| spb::Contestant { name: format!("pair {n}"), ..Default::default() })
                .collect(),
        };
        self.sessions.create(request).await.unwrap()
    }

    /// Another process of the service on the same database and live store.
    fn second_process(&self) -> Sessions {
        let s = &self.sessions;
        Sessions::new(s.db.clone(), s.feed.clone(), s.settings)
    }

    async fn record(&self, session: &spb::Session, board: u32, ns: u32, tricks: u32) {
        self.record_in(&self.sessions, session, board, ns, tricks).await;
    }

    async fn record_in(&self, sessions: &Sessions, session: &spb::Session, board: u32, ns: u32, tricks: u32) {
        let contract: laws::Contract = "4S".parse().unwrap();
        let result = pb::DealResult {
            outcome: Some(pb::deal_result::Outcome::Played(pb::PlayedContract {
                contract: Some(pb::DeclaredContract {
                    contract: Some(contract.into()),
                    declarer: pb::Seat::North as i32,
                }),
                tricks,
            })),
            honors: Vec::new(),
        };
        let request = spb::RecordBoardResultRequest {
            key: Some(pb::BoardResultKey {
                session_id: session.session_id.clone(),
                board_number: board,
                north_south_contestant_id: ns.to_string(),
                east_west_contestant_id: (ns + 1).to_string(),
            }),
            deal_id: format!("{board}-{ns}"),
            result: Some(result),
            source: spb::ResultSource::Desk as i32,
            hands: None,
        };
        sessions.record(&request, "desk").await.unwrap();
    }

    /// The session scored whole from its stored results, as the laws crate scores it.
    async fn whole(&self, session: &spb::Session) -> domain::Scored {
        let row = Sessions::row(self.db(), &session.session_id).await.unwrap();
        let rows: Vec<Row> = Sessions::results(self.db(), &session.session_id)
            .await
            .unwrap()
            .iter()
            .map(|m| domain_row(m).unwrap())
            .collect();
        domain::score(&session_proto(&row).unwrap(), &rows, ButlerDatum::default()).unwrap()
    }

    async fn standings(&self, session: &spb::Session) -> Vec<spb::Standing> {
        self.sessions.standings(&session.session_id).await.unwrap().standings
    }

    async fn kept_rows(&self, session: &spb::Session) -> usize {
        session_standing::Entity::find()
            .filter(session_standing::Column::SessionId.eq(session.session_id.as_str()))
            .all(self.db())
            .await
            .unwrap()
            .len()
    }
}

impl Drop for Club {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A result on board 1 rewrites the rows of the pairs on board 1 and no other: a trigger logs
/// every row written.
#[tokio::test]
async fn a_write_rewrites_only_the_rows_of_its_boards_contestants() {
    let club = Club::new().await;
    let session = club.session(12, 3).await;
    for (board, ns) in [(1, 1), (1, 3), (2, 5), (2, 7), (3, 9)] {
        club.record(&session, board, ns, 10).await;
    }
    club.execute("CREATE TABLE written (pair INTEGER)").await;
    for event in ["INSERT", "UPDATE"] {
        club.execute(&format!(
            "CREATE TRIGGER log_{event} AFTER {event} ON scoring_session_standings \
             BEGIN INSERT INTO written VALUES (NEW.pair); END"
        ))
        .await;
    }
    club.record(&session, 1, 11, 9).await;
    let rows = club
        .db()
        .query_all_raw(Statement::from_string(club.db().get_database_backend(), "SELECT pair FROM written"))
        .await
        .unwrap();
    let mut written: Vec<i32> = rows.iter().map(|r| r.try_get_by_index(0).unwrap()).collect();
    written.sort_unstable();
    // Board 1 is now played three times: every pair on it moves (the top is now 4).
    assert_eq!(written, vec![1, 2, 3, 4, 11, 12]);
    let whole = club.whole(&session).await;
    assert_eq!(club.standings(&session).await, whole.standings);
}

/// A session whose standings (with its tallies, or from before tallies were kept) are stored in
/// its row reads them as stored; its next change scores as the whole session does and moves them
/// to a row per contestant.
#[tokio::test]
async fn a_session_stored_the_old_way_reads_and_scores_the_same() {
    for tallied in [true, false] {
        let mut club = Club::new().await;
        let session = club.session(8, 2).await;
        for (board, ns, tricks) in [(1, 1, 10), (1, 3, 11), (1, 5, 9), (2, 1, 10), (2, 7, 8)] {
            club.record(&session, board, ns, tricks).await;
        }
        let whole = club.whole(&session).await;
        let tallies = whole.tallies.as_ref().unwrap();
        let old = StoredStandings {
            standings: whole.standings.clone(),
            tallies: if tallied {
                tallies.tallies().map(|(pair, t)| standings::store_tally(pair, t)).collect()
            } else {
                Vec::new()
            },
            tallied,
            in_rows: false,
        };
        let update = session::Entity::update_many()
            .col_expr(session::Column::Standings, Expr::value(old.encode_to_vec()))
            .filter(session::Column::SessionId.eq(session.session_id.as_str()));
        update.exec(club.db()).await.unwrap();
        club.execute("DELETE FROM scoring_session_standings").await;
        club.restart();

        assert_eq!(club.standings(&session).await, whole.standings, "tallied: {tallied}");
        club.record(&session, 2, 3, 11).await;
        let whole = club.whole(&session).await;
        assert_eq!(club.standings(&session).await, whole.standings, "tallied: {tallied}");
        let stored = Sessions::results(club.db(), &session.session_id).await.unwrap();
        for (model, (ns, ew)) in stored.iter().zip(&whole.values) {
            assert_eq!((&model.ns_values, &model.ew_values), (&ns.encode_to_vec(), &ew.encode_to_vec()));
        }
        assert_eq!(club.kept_rows(&session).await, 8, "tallied: {tallied}");
        let row = Sessions::row(club.db(), &session.session_id).await.unwrap();
        let now: StoredStandings = decode(&row.standings, "standings").unwrap();
        assert!(now.in_rows && now.standings.is_empty() && now.tallies.is_empty());
    }
}

/// Two processes of the service change one session in turn, on the same boards: what one holds
/// of the session at a version is never taken for the session once the other has moved it. After
/// every change both read the standings the session scored whole gives, and the stored scores
/// are the whole session's.
#[tokio::test]
async fn two_processes_changing_one_session_each_see_what_the_other_wrote() {
    let club = Club::new().await;
    let other = club.second_process();
    let session = club.session(12, 2).await;
    let changes = [(1, 1, 10), (1, 3, 9), (2, 1, 11), (1, 5, 8), (2, 3, 10), (1, 7, 10), (2, 5, 7), (1, 9, 12)];
    for (i, (board, ns, tricks)) in changes.into_iter().enumerate() {
        // Each process reads before the other writes, so it holds the version the other moves.
        let writer = if i % 2 == 0 { &club.sessions } else { &other };
        club.record_in(writer, &session, board, ns, tricks).await;
        let whole = club.whole(&session).await;
        for (name, process) in [("first", &club.sessions), ("second", &other)] {
            let read = process.standings(&session.session_id).await.unwrap().standings;
            assert_eq!(read, whole.standings, "after change {i}, read by the {name} process");
        }
    }
    let whole = club.whole(&session).await;
    let stored = Sessions::results(club.db(), &session.session_id).await.unwrap();
    for (model, (ns, ew)) in stored.iter().zip(&whole.values) {
        assert_eq!((&model.ns_values, &model.ew_values), (&ns.encode_to_vec(), &ew.encode_to_vec()));
    }
}
