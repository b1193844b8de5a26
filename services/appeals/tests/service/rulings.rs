//! Recording a ruling: once per idempotency key, with the players from the scorepad, refused with
//! the field that is wrong, and an adjusted score reaching the score once whether the scoring
//! service answers at once, later through the worker, or refuses it.

use api::appeals::v1 as pb;
use laws::Seat;
use sea_orm::EntityTrait;
use sea_orm::sea_query::Expr;

use super::common::*;
use super::{code, message};

#[tokio::test]
async fn a_ruling_is_recorded_once_per_key_with_the_players_from_the_scorepad() {
    let h = Harness::new().await;
    let first = h.appeals.record_ruling(&arbiter(), rubber_ruling("k1", "d1", result_stands())).await.unwrap();
    let ruling = first.ruling.clone().unwrap();
    let deal = ruling.deal.clone().unwrap();
    assert_eq!(deal.deal_id, "d1");
    assert_eq!(deal.table_id, "table-1");
    assert_eq!(deal.players.iter().map(|p| p.player_id.as_str()).collect::<Vec<_>>(), ["n", "e", "s", "w"]);
    assert_eq!(ruling.laws[0].text, "Club Law 69 (Alternative Club Laws)");
    assert_eq!(ruling.ruled_by, "arbiter");
    assert!(first.score_version.is_none(), "a ruling that adjusts nothing makes no score version");

    let again = h.appeals.record_ruling(&arbiter(), rubber_ruling("k1", "d1", result_stands())).await.unwrap();
    assert_eq!(again, first, "a retry returns the first answer");
    let listed = h.appeals.list_rulings(&arbiter(), pb::ListRulingsRequest::default()).await.unwrap();
    assert_eq!(listed.rulings.len(), 1, "and records nothing more");

    let reused = h.appeals.record_ruling(&arbiter(), rubber_ruling("k1", "d2", result_stands())).await;
    assert_eq!(code(&reused), tonic::Code::InvalidArgument);
    assert!(message(reused).starts_with("idempotency_key: \"k1\" was already used for a different request"));
}

#[tokio::test]
async fn a_ruling_names_what_is_wrong_with_it() {
    let h = Harness::new().await;
    let mut no_law = rubber_ruling("k", "d1", result_stands());
    no_law.laws.clear();
    assert_eq!(
        message(h.appeals.record_ruling(&arbiter(), no_law).await),
        "laws: cite at least one Law the ruling applies"
    );
    let mut bad_law = rubber_ruling("k", "d1", result_stands());
    bad_law.laws = vec![citation(api::common::v1::LawCode::Duplicate, 94, "")];
    assert_eq!(
        message(h.appeals.record_ruling(&arbiter(), bad_law).await),
        "laws[0].number: the Laws of Duplicate Bridge have no rule 94 (they number 1 to 93)"
    );
    let mut wrong_seat = rubber_ruling("k", "d1", result_stands());
    wrong_seat.deal.as_mut().unwrap().players =
        vec![api::common::v1::SeatedPlayer { seat: api::common::v1::Seat::North as i32, player_id: "e".into() }];
    assert_eq!(
        message(h.appeals.record_ruling(&arbiter(), wrong_seat).await),
        "deal.players[0]: e did not sit at that seat on scorepad pad-1"
    );
    let unplayed = h.appeals.record_ruling(&arbiter(), rubber_ruling("k", "d9", assigned("4S", Seat::North, 10))).await;
    assert_eq!(code(&unplayed), tonic::Code::FailedPrecondition);
    let mut duplicate_on_pad = rubber_ruling("k", "d1", result_stands());
    duplicate_on_pad.deal.as_mut().unwrap().kind = api::common::v1::TableKind::Duplicate as i32;
    assert_eq!(code(&h.appeals.record_ruling(&arbiter(), duplicate_on_pad).await), tonic::Code::InvalidArgument);
    assert!(h.scoring.applied().is_empty());
}

#[tokio::test]
async fn an_adjusted_score_reaches_the_score_once_even_when_scoring_is_down_at_first() {
    let h = Harness::new().await;
    h.scoring.set_mode(Mode::Down);
    let request = rubber_ruling("adj", "d2", assigned("4S", Seat::North, 10));
    let down = h.appeals.record_ruling(&arbiter(), request.clone()).await;
    assert_eq!(code(&down), tonic::Code::Unavailable);
    let listed = h.appeals.list_rulings(&arbiter(), pb::ListRulingsRequest::default()).await.unwrap();
    assert!(listed.rulings.is_empty(), "a ruling whose adjusted score is not applied is not on record");

    h.scoring.set_mode(Mode::Apply);
    let recorded = h.appeals.record_ruling(&arbiter(), request.clone()).await.unwrap();
    let version = recorded.score_version.clone().unwrap();
    assert_eq!(version.ruling_id, recorded.ruling.as_ref().unwrap().ruling_id);
    assert_eq!(h.scoring.applied().len(), 1);
    let calls = h.scoring.calls();
    assert_eq!(h.appeals.record_ruling(&arbiter(), request).await.unwrap(), recorded);
    assert_eq!(h.scoring.calls(), calls, "a retry after success does not call scoring again");
}

#[tokio::test]
async fn the_worker_delivers_what_a_request_could_not() {
    let h = Harness::new().await;
    h.scoring.set_mode(Mode::Down);
    let request = rubber_ruling("adj", "d2", assigned("4S", Seat::North, 9));
    assert_eq!(code(&h.appeals.record_ruling(&arbiter(), request.clone()).await), tonic::Code::Unavailable);
    h.scoring.set_mode(Mode::Apply);
    // The failed attempt set a later time for the next; make it due now.
    appeals::entity::outbox::Entity::update_many()
        .col_expr(appeals::entity::outbox::Column::NextAttemptAt, Expr::value(chrono::Utc::now()))
        .exec(&h.db)
        .await
        .unwrap();
    assert_eq!(h.appeals.deliver_due().await.unwrap(), 1);
    assert_eq!(h.appeals.deliver_due().await.unwrap(), 0, "delivered once");
    let calls = h.scoring.calls();
    let answer = h.appeals.record_ruling(&arbiter(), request).await.unwrap();
    assert!(answer.score_version.is_some());
    assert_eq!(h.scoring.calls(), calls, "the retry finds the answer the worker stored");
    assert_eq!(h.scoring.applied().len(), 1);
}

#[tokio::test]
async fn a_refused_adjustment_leaves_no_ruling() {
    let h = Harness::new().await;
    h.scoring.set_mode(Mode::Refuse);
    let refused = h.appeals.record_ruling(&arbiter(), rubber_ruling("adj", "d2", assigned("4S", Seat::North, 9))).await;
    assert_eq!(code(&refused), tonic::Code::FailedPrecondition);
    assert!(
        message(refused).starts_with("the scoring service refused the ruling's adjusted score: a scorepad accepts")
    );
    let listed = h.appeals.list_rulings(&arbiter(), pb::ListRulingsRequest::default()).await.unwrap();
    assert!(listed.rulings.is_empty());
    let pending = appeals::entity::ruling::Entity::find().all(&h.db).await.unwrap();
    assert!(pending.is_empty(), "the pending ruling is dropped");
}
