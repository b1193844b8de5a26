//! Every watch stream against a Redis of the test's own: Redis closing its pub/sub connections
//! (`CLIENT KILL TYPE pubsub`, what a failover or a proxy does) loses no event for the watchers
//! already open nor for those who start watching after; a Redis that is gone ends the streams
//! UNAVAILABLE, naming the sequence to resume after, and resuming there misses and repeats
//! nothing; a quiet stream carries heartbeats, through the gateway too.

use std::time::Duration;

use api::appeals::v1 as apb;
use api::common::v1 as pb;
use api::game::v1 as game;
use api::membership::v1 as mpb;
use api::scoring::v1 as spb;
use e2e::lineup::{Lineup, register};
use e2e::redis_server::RedisServer;
use e2e::{TestApp, as_configured};
use platform::auth::Role;
use tonic::Code;
use tonic::codec::Streaming;

/// How long a stream may stay silent before the test fails: a bound on a broken stream, never
/// something the test waits out.
const BOUND: Duration = Duration::from_secs(30);

/// A watch stream's response: an event, or a heartbeat.
trait Watched: Send + 'static {
    type Event: std::fmt::Debug;
    fn parts(self) -> (Option<Self::Event>, Option<pb::Heartbeat>);
    fn sequence(event: &Self::Event) -> u64;
}

macro_rules! watched {
    ($($response:ty => $event:ty),* $(,)?) => {$(
        impl Watched for $response {
            type Event = $event;
            fn parts(self) -> (Option<$event>, Option<pb::Heartbeat>) {
                (self.event, self.heartbeat)
            }
            fn sequence(event: &$event) -> u64 {
                event.sequence
            }
        }
    )*};
}

watched! {
    game::WatchTableResponse => game::TableEvent,
    mpb::WatchRoomResponse => mpb::RoomEvent,
    mpb::WatchTableResponse => mpb::TableEvent,
    spb::WatchScorepadResponse => spb::ScorepadEvent,
    spb::WatchSessionResponse => spb::SessionEvent,
    apb::WatchAppealsResponse => apb::AppealEvent,
}

/// The next response, or the status that ended the stream.
async fn next<R: Watched>(stream: &mut Streaming<R>) -> Result<R, tonic::Status> {
    match tokio::time::timeout(BOUND, stream.message()).await {
        Ok(Ok(Some(response))) => Ok(response),
        Ok(Ok(None)) => panic!("the stream ended without a status"),
        Ok(Err(status)) => Err(status),
        Err(_) => panic!("nothing on the stream for {BOUND:?}"),
    }
}

/// One open watch and the last sequence it was sent.
struct Watch<R: Watched> {
    stream: Streaming<R>,
    last: u64,
}

impl<R: Watched> Watch<R> {
    /// A watch whose first message is a snapshot.
    async fn from_snapshot(mut stream: Streaming<R>) -> Watch<R> {
        let (event, _) = next(&mut stream).await.unwrap_or_else(|s| panic!("{s:?}")).parts();
        let snapshot = event.unwrap_or_else(|| panic!("a snapshot first"));
        Watch { last: R::sequence(&snapshot), stream }
    }

    /// Events, skipping heartbeats, until one satisfies `wanted`; each must follow the one before
    /// without a gap or a repeat.
    async fn until(&mut self, what: &str, wanted: impl Fn(&R::Event) -> bool) -> Vec<R::Event> {
        let mut events = Vec::new();
        loop {
            let response = next(&mut self.stream).await.unwrap_or_else(|s| panic!("waiting for {what}: {s:?}"));
            let Some(event) = response.parts().0 else { continue };
            assert_eq!(R::sequence(&event), self.last + 1, "{what}: the event after {} in {event:?}", self.last);
            self.last = R::sequence(&event);
            let done = wanted(&event);
            events.push(event);
            if done {
                return events;
            }
        }
    }

    /// Reads up to the next heartbeat, which must name the last sequence sent.
    async fn heartbeat(&mut self) {
        loop {
            let (event, beat) = next(&mut self.stream).await.unwrap_or_else(|s| panic!("{s:?}")).parts();
            match (event, beat) {
                (Some(event), None) => self.last = R::sequence(&event),
                (None, Some(beat)) => {
                    assert_eq!(beat.last_sequence, self.last, "a heartbeat names the last sequence sent");
                    return;
                }
                other => panic!("an event or a heartbeat, not {other:?}"),
            }
        }
    }

    /// The status that ends the stream, heartbeats and events before it skipped.
    async fn end(&mut self) -> tonic::Status {
        loop {
            match next(&mut self.stream).await {
                Ok(response) => {
                    if let Some(event) = response.parts().0 {
                        self.last = R::sequence(&event);
                    }
                }
                Err(status) => return status,
            }
        }
    }
}

fn mentions(event: &impl std::fmt::Debug, text: &str) -> bool {
    format!("{event:?}").contains(text)
}

/// What the streams watch: a rubber table (its deal and its membership), another rubber's pad
/// (its results and rulings), the room, and a duplicate session.
struct Club {
    table: Lineup,
    pad: Lineup,
    session_id: String,
}

impl Club {
    async fn new(app: &TestApp) -> Club {
        let table = app.lineup(pb::TableKind::Rubber).await;
        let pad = app.lineup(pb::TableKind::Rubber).await;
        let request = spb::CreateSessionRequest {
            name: format!("pairs {}", uuid::Uuid::new_v4().simple()),
            contestant_kind: spb::ContestantKind::Pairs as i32,
            scoring_method: spb::ScoringMethod::Matchpoints as i32,
            boards: (1..=4)
                .map(|number| spb::Board { number, dealer: 0, vulnerability: 0, deal: None, released: false })
                .collect(),
            contestants: ["1", "2"]
                .map(|id| spb::Contestant { contestant_id: id.to_owned(), ..Default::default() })
                .to_vec(),
        };
        let created = app.scoring("front-desk", &[Role::Desk]).create_session(request).await.unwrap();
        Club { table, pad, session_id: created.into_inner().session.unwrap().session_id }
    }

    /// Round `n` of actions, one on every stream: at the game table the deal starts (round 1) or
    /// North calls (round 2); a new player arrives and applies to the table; the pad gets deal
    /// `n` and the arbiter rules on it; the session gets board `n`.
    async fn act(&self, app: &TestApp, n: u32) {
        let mut desk = app.game("front-desk", &[Role::Desk]);
        let view = desk
            .get_table_state(game::GetTableStateRequest { table_id: self.table.table_id.clone() })
            .await
            .unwrap()
            .into_inner()
            .view
            .unwrap();
        let key = uuid::Uuid::new_v4().to_string();
        if n == 1 {
            let setup = self.table.first_deal(game::PlayMode::Recorded, false);
            let request = game::StartDealRequest {
                table_id: self.table.table_id.clone(),
                expected_version: view.version,
                idempotency_key: key,
                setup: Some(setup),
                hands: None,
            };
            desk.start_deal(request).await.unwrap();
        } else {
            let request = game::MakeCallRequest {
                table_id: self.table.table_id.clone(),
                expected_version: view.version,
                idempotency_key: key,
                seat: pb::Seat::North as i32,
                call: Some("1S".parse::<laws::Call>().unwrap().into()),
                artificial: None,
            };
            desk.make_call(request).await.unwrap();
        }

        let mut members = app.membership("front-desk", &[Role::Desk]);
        let player = newcomer(&self.table, n);
        register(&mut members, &[&player]).await;
        members.arrive_in_room(mpb::ArriveInRoomRequest { player_id: player.clone() }).await.unwrap();
        let request = mpb::ApplyToTableRequest {
            table_id: self.table.table_id.clone(),
            player_id: player,
            together_with_player_ids: Vec::new(),
            ..Default::default()
        };
        members.apply_to_table(request).await.unwrap();

        let mut scores = app.scoring("front-desk", &[Role::Desk]);
        let request = spb::RecordDealResultRequest {
            scorepad_id: self.pad.scorepad_id.clone(),
            deal_id: format!("deal-{n}"),
            deal_number: n,
            result: Some(crate::scoring::played("2H", pb::Seat::North, 8)),
            source: spb::ResultSource::Desk as i32,
            hands: None,
        };
        scores.record_deal_result(request).await.unwrap();
        let request = apb::RecordRulingRequest {
            idempotency_key: format!("ruling-{n}-{}", self.pad.scorepad_id),
            deal: Some(apb::DealReference {
                kind: pb::TableKind::Rubber as i32,
                score_target: Some(pb::ScoreTarget {
                    target: Some(pb::score_target::Target::ScorepadDeal(pb::ScorepadDeal {
                        scorepad_id: self.pad.scorepad_id.clone(),
                        deal_id: format!("deal-{n}"),
                    })),
                }),
                ..Default::default()
            }),
            irregularity: "a claim disputed".into(),
            laws: vec![pb::LawCitation { code: pb::LawCode::Rubber as i32, number: 69, ..Default::default() }],
            facts: "declarer stated a line; the defenders objected".into(),
            kind: apb::RulingKind::Judgement as i32,
            decision: Some(apb::RulingDecision {
                decision: Some(apb::ruling_decision::Decision::ResultStands(apb::ResultStands {})),
            }),
            right_to_appeal_advised: true,
            ..Default::default()
        };
        app.appeals("the-arbiter", &[Role::Arbiter]).record_ruling(request).await.unwrap();
        let request = spb::RecordBoardResultRequest {
            key: Some(pb::BoardResultKey {
                session_id: self.session_id.clone(),
                board_number: n,
                north_south_contestant_id: "1".into(),
                east_west_contestant_id: "2".into(),
            }),
            deal_id: format!("{}-board-{n}", self.session_id),
            result: Some(crate::scoring::played("3NT", pb::Seat::North, 9)),
            source: spb::ResultSource::Desk as i32,
            hands: None,
        };
        scores.record_board_result(request).await.unwrap();
    }
}

/// The player who arrives in round `n`.
fn newcomer(table: &Lineup, n: u32) -> String {
    format!("newcomer-{n}-{}", table.table_id)
}

/// Where each watch stands: the last sequence it was sent (or told to resume after).
#[derive(Debug, Clone, Copy, Default)]
struct Positions {
    game: u64,
    room: u64,
    table: u64,
    pad: u64,
    session: u64,
    notices: u64,
}

/// One watch of every kind, as the desk, the arbiter and the committee watch.
struct Watchers {
    game: Watch<game::WatchTableResponse>,
    room: Watch<mpb::WatchRoomResponse>,
    table: Watch<mpb::WatchTableResponse>,
    pad: Watch<spb::WatchScorepadResponse>,
    session: Watch<spb::WatchSessionResponse>,
    notices: Watch<apb::WatchAppealsResponse>,
}

/// A watch that resumes after `after`, or one that starts with its snapshot.
async fn opened<R: Watched>(stream: Streaming<R>, after: Option<u64>) -> Watch<R> {
    match after {
        Some(last) => Watch { stream, last },
        None => Watch::from_snapshot(stream).await,
    }
}

impl Watchers {
    /// Opens every watch: with its snapshot, or resuming after `after`. Appeal notices have no
    /// snapshot; without `after` they start after the first `notices`.
    async fn open(app: &TestApp, club: &Club, after: Option<Positions>, notices: u64) -> Watchers {
        let at = |position: fn(&Positions) -> u64| after.as_ref().map(position);
        let table_id = club.table.table_id.clone();
        let request = game::WatchTableRequest { table_id: table_id.clone(), after_sequence: at(|p| p.game) };
        let game = app.game("the-arbiter", &[Role::Arbiter]).watch_table(request).await.unwrap().into_inner();
        let mut members = app.membership("front-desk", &[Role::Desk]);
        let request = mpb::WatchRoomRequest { after_sequence: at(|p| p.room) };
        let room = members.watch_room(request).await.unwrap().into_inner();
        let request = mpb::WatchTableRequest { table_id, after_sequence: at(|p| p.table) };
        let table = members.watch_table(request).await.unwrap().into_inner();
        let mut scores = app.scoring("front-desk", &[Role::Desk]);
        let request =
            spb::WatchScorepadRequest { scorepad_id: club.pad.scorepad_id.clone(), after_sequence: at(|p| p.pad) };
        let pad = scores.watch_scorepad(request).await.unwrap().into_inner();
        let request =
            spb::WatchSessionRequest { session_id: club.session_id.clone(), after_sequence: at(|p| p.session) };
        let session = scores.watch_session(request).await.unwrap().into_inner();
        let notices = at(|p| p.notices).unwrap_or(notices);
        let request = apb::WatchAppealsRequest { after_sequence: Some(notices) };
        let stream = app.appeals("the-committee", &[Role::Committee]).watch_appeals(request).await.unwrap();
        Watchers {
            game: opened(game, at(|p| p.game)).await,
            room: opened(room, at(|p| p.room)).await,
            table: opened(table, at(|p| p.table)).await,
            pad: opened(pad, at(|p| p.pad)).await,
            session: opened(session, at(|p| p.session)).await,
            notices: Watch { stream: stream.into_inner(), last: notices },
        }
    }

    /// Every watch receives round `n` of [`Club::act`], each event following the one before.
    async fn receive(&mut self, club: &Club, n: u32) {
        let started = |e: &game::TableEvent| matches!(e.event, Some(game::table_event::Event::DealStarted(_)));
        let called = |e: &game::TableEvent| matches!(e.event, Some(game::table_event::Event::CallMade(_)));
        if n == 1 {
            self.game.until("the deal's start", started).await;
        } else {
            self.game.until("North's call", called).await;
        }
        let player = newcomer(&club.table, n);
        self.room.until("the newcomer's arrival", |e| mentions(e, &player)).await;
        self.table.until("the newcomer's application", |e| mentions(e, &player)).await;
        let deal = format!("\"deal-{n}\"");
        self.pad.until("the pad's new deal", |e| mentions(e, &deal)).await;
        self.notices.until("the ruling on the new deal", |e| mentions(e, &deal)).await;
        let rescored = |e: &spb::SessionEvent| matches!(&e.event, Some(spb::session_event::Event::BoardRescored(b)) if b.board_number == n);
        self.session.until("the new board's result", rescored).await;
    }

    /// Every stream ends UNAVAILABLE, naming the last sequence it sent as where to resume.
    async fn end(&mut self) -> Positions {
        fn check<R: Watched>(status: tonic::Status, watch: &Watch<R>) -> u64 {
            assert_eq!(status.code(), Code::Unavailable, "{status:?}");
            let named = format!("after_sequence = {} ", watch.last);
            assert!(status.message().contains(&named), "{named:?} in {status:?}");
            watch.last
        }
        Positions {
            game: check(self.game.end().await, &self.game),
            room: check(self.room.end().await, &self.room),
            table: check(self.table.end().await, &self.table),
            pad: check(self.pad.end().await, &self.pad),
            session: check(self.session.end().await, &self.session),
            notices: check(self.notices.end().await, &self.notices),
        }
    }

    /// Every stream's next message is a heartbeat naming the last sequence it sent (events the
    /// last round left on the stream are read first).
    async fn heartbeats(&mut self) {
        self.game.heartbeat().await;
        self.room.heartbeat().await;
        self.table.heartbeat().await;
        self.pad.heartbeat().await;
        self.session.heartbeat().await;
        self.notices.heartbeat().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_watch_stream_survives_redis_closing_its_subscriptions() {
    let redis = RedisServer::start().await;
    let app = TestApp::spawn_on_redis(&redis.url(), as_configured).await;
    let club = Club::new(&app).await;
    let mut before = Watchers::open(&app, &club, None, 0).await;

    // One subscription per channel however many watch it: the game table, the room (both
    // membership streams), the pad, the session and the notices.
    let closed = redis.kill_pubsub_clients().await;
    assert!(closed >= 5, "every channel's subscription was closed: {closed}");
    // Watchers who start after the subscriptions closed, perhaps before the server noticed.
    let mut after = Watchers::open(&app, &club, None, 0).await;

    // Whatever happens next reaches both, whether published after they subscribed again or
    // read from the record for the moment in between.
    club.act(&app, 1).await;
    before.receive(&club, 1).await;
    after.receive(&club, 1).await;
    club.act(&app, 2).await;
    before.receive(&club, 2).await;
    after.receive(&club, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_whose_redis_is_gone_ends_unavailable_and_resumes_without_a_gap() {
    let mut redis = RedisServer::start().await;
    let app = TestApp::spawn_on_redis(&redis.url(), as_configured).await;
    let club = Club::new(&app).await;
    let mut watchers = Watchers::open(&app, &club, None, 0).await;
    club.act(&app, 1).await;
    watchers.receive(&club, 1).await;

    // The subscriptions close and cannot be made again: each stream ends, saying where to resume.
    redis.stop().await;
    let resume = watchers.end().await;
    // The club goes on meanwhile (Postgres is the record), and Redis comes back empty.
    club.act(&app, 2).await;
    redis.restart().await;

    // Resumed where each stream said, every watch gets what followed: no gap, no repeat.
    let mut resumed = Watchers::open(&app, &club, Some(resume), 0).await;
    resumed.receive(&club, 2).await;
}

/// Watch streams send a heartbeat after a tenth of a second of quiet.
fn quick_heartbeats(config: &mut platform::config::PlatformConfig, _: &mut club::Settings) {
    config.streams.heartbeat_interval_ms = 100;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quiet_stream_carries_heartbeats_naming_where_to_resume() {
    for app in [TestApp::spawn_with(quick_heartbeats).await, TestApp::spawn_split_with(quick_heartbeats).await] {
        let club = Club::new(&app).await;
        let mut watchers = Watchers::open(&app, &club, None, 0).await;
        watchers.heartbeats().await;
        // Other tests' streams may be open too; these are, at least.
        assert!(
            platform::watch::stream::open_streams() >= 1,
            "open watch streams are counted for the gauge rpc.server.open_streams"
        );
        club.act(&app, 1).await;
        watchers.receive(&club, 1).await;
        watchers.heartbeats().await;
    }
}
