//! Reads of a session's results, standings and score versions, each filtered by what the
//! principal may see ([`super::access`]). Kept apart from the commands: nothing here writes.

use std::sync::Arc;

use super::*;

impl Sessions {
    /// The session's board results, by board number, those the principal may not see yet left out.
    pub async fn list_results(
        &self,
        request: &spb::ListBoardResultsRequest,
        principal: &Principal,
    ) -> Result<spb::ListBoardResultsResponse, ServiceError> {
        let page = Page::of(request.page.as_ref())?;
        let row = Self::row(&self.db, &request.session_id).await?;
        let definition = session_proto(&row)?;
        let visibility = visibility(&self.db, &row, &definition, principal).await?;
        let mut query =
            board_result::Entity::find().filter(board_result::Column::SessionId.eq(request.session_id.as_str()));
        if request.board_number != 0 {
            query =
                query.filter(board_result::Column::BoardNumber.eq(i32::try_from(request.board_number).unwrap_or(0)));
        }
        if !request.north_south_contestant_id.is_empty() {
            query = query.filter(board_result::Column::NsContestant.eq(request.north_south_contestant_id.as_str()));
        }
        if let Visibility::Boards(boards) = &visibility {
            query = query.filter(board_result::Column::BoardNumber.is_in(boards.iter().map(|b| *b as i32)));
        }
        let rows = query
            .order_by_asc(board_result::Column::BoardNumber)
            .order_by_asc(board_result::Column::RecordedAt)
            .order_by_asc(board_result::Column::ResultId)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        let fetched = rows.len();
        let results = rows.iter().take(page.size as usize).map(result_proto).collect::<Result<_, _>>()?;
        Ok(spb::ListBoardResultsResponse { results, page: Some(page.response_to(fetched)) })
    }

    /// Every result of the session (exports, benchmarks).
    pub async fn all_results(&self, session_id: &str) -> Result<Vec<spb::BoardResult>, ServiceError> {
        Self::results(&self.db, session_id).await?.iter().map(result_proto).collect()
    }

    /// The standings as they stand: ranked once a version, from the contestants' rows this
    /// process holds at the session's version ([`super::warm`]), read whole only when it holds
    /// none.
    pub async fn standings(&self, session_id: &str) -> Result<spb::GetStandingsResponse, ServiceError> {
        let state = self.runtime.current(session_id).await?;
        let frame: Frame = decode(&state.row.definition, "session definition")?;
        let respond = |row: &session::Model, standings: Vec<spb::Standing>| spb::GetStandingsResponse {
            standings,
            scoring_method: frame.scoring_method,
            version: u64::try_from(row.version).unwrap_or(0),
        };
        if let Some(ranked) = state.standings() {
            return Ok(respond(&state.row, ranked.as_ref().clone()));
        }
        if let Some(standings) = standings::in_row(&state.row)? {
            return Ok(respond(&state.row, standings));
        }
        if let Some(rows) = state.every_kept() {
            let ranked = self.ranked(&state.row, &rows)?;
            state.hold_standings(Arc::new(ranked.clone()));
            return Ok(respond(&state.row, ranked));
        }
        // The session's row and every contestant's row, read in one state of the session.
        let txn = Self::read_txn(&self.db).await?;
        let row = Self::row(&txn, session_id).await?;
        let rows = Self::every_kept(&txn, session_id).await?;
        txn.commit().await?;
        if let Some(standings) = standings::in_row(&row)? {
            return Ok(respond(&row, standings));
        }
        let ranked = self.ranked(&row, &rows)?;
        if row.version == state.row.version {
            state.hold_kept(&rows, true);
            state.hold_standings(Arc::new(ranked.clone()));
        }
        Ok(respond(&row, ranked))
    }

    /// A session as the exports need it: the session, its results and standings, if the
    /// principal may see them all (staff, or anyone once the scores are published).
    pub async fn for_export(
        &self,
        session_id: &str,
        principal: &Principal,
    ) -> Result<(spb::Session, Vec<spb::BoardResult>, Vec<spb::Standing>), ServiceError> {
        let txn = Self::read_txn(&self.db).await?;
        let row = Self::row(&txn, session_id).await?;
        if !is_staff(principal) && row.status != spb::SessionStatus::Published as i32 {
            return Err(ServiceError::PermissionDenied(
                "a player may export a session once its official score is published; until then boards may \
                 still be in play"
                    .to_owned(),
            ));
        }
        let standings = self.standings_now(&txn, &row).await?;
        let results = Self::results(&txn, session_id).await?.iter().map(result_proto).collect::<Result<_, _>>()?;
        txn.commit().await?;
        Ok((session_proto(&row)?, results, standings))
    }

    /// A session's score versions, oldest first, optionally only those of one board result;
    /// for a player, only those of boards he may see.
    pub async fn versions(
        &self,
        session_id: &str,
        key: Option<&pb::BoardResultKey>,
        page: Page,
        principal: &Principal,
    ) -> Result<spb::ListScoreVersionsResponse, ServiceError> {
        let row = Self::row(&self.db, session_id).await?;
        let definition = session_proto(&row)?;
        let visibility = visibility(&self.db, &row, &definition, principal).await?;
        let mut query = score_version::Entity::find().filter(score_version::Column::OwnerId.eq(session_id));
        if let Some(key) = key {
            query = query
                .filter(score_version::Column::BoardNumber.eq(i32::try_from(key.board_number).unwrap_or(0)))
                .filter(score_version::Column::NsContestant.eq(key.north_south_contestant_id.as_str()))
                .filter(score_version::Column::EwContestant.eq(key.east_west_contestant_id.as_str()));
        }
        if let Visibility::Boards(boards) = &visibility {
            query = query.filter(
                score_version::Column::BoardNumber
                    .is_null()
                    .or(score_version::Column::BoardNumber.is_in(boards.iter().map(|b| *b as i32))),
            );
        }
        let rows = query
            .order_by_asc(score_version::Column::Version)
            .offset(page.offset)
            .limit(page.fetch())
            .all(&self.db)
            .await?;
        let fetched = rows.len();
        let versions = rows.iter().take(page.size as usize).map(version_proto).collect::<Result<_, _>>()?;
        Ok(spb::ListScoreVersionsResponse { versions, page: Some(page.response_to(fetched)) })
    }
}
