//! Rubber and Chicago scorepads, re-derived from their score versions.
//!
//! A pad is never edited in place. Each version stores one [`Operation`] (a result recorded, a
//! Law 78 correction, an arbiter's assigned score, an appeal decision, the end of the rubber, the
//! agreement of the net score), and the pad is what the laws crate makes of replaying them in
//! order: [`Rubber::record`], [`Rubber::correct`], [`Rubber::overrule`], [`Rubber::abandon`] and
//! their Chicago counterparts. Replaying also traces which version added and which struck each
//! entry, so that every entry can be traced to the deal or ruling that produced it. Nothing here
//! decides a bridge question; it translates and keeps the trail.

use std::collections::BTreeMap;

use api::common::v1 as pb;
use api::convert::ProtoEnum;
use api::convert::score::rubber_result;
use api::scoring::v1 as spb;
use laws::score::chicago::{Chicago, ChicagoOptions};
use laws::score::pad::{Entry, EntryKind, Line, Settlement};
use laws::score::rubber::{Corrected, DealResult, Rubber, RubberOptions, RubberStatus, dealer_of};
use laws::{Deal, Seat, Side, Vulnerability};
use platform::ServiceError;

/// What one version does to a pad, as a replay applies it.
#[derive(Debug, Clone, PartialEq)]
pub enum Operation {
    /// The next deal's result (Laws 72-81; Appendix 4).
    Record {
        /// The deal.
        deal_id: String,
        /// The result.
        result: pb::DealResult,
        /// The hands, when the recorder knew them (honors on appeal follow them).
        hands: Option<Deal>,
        /// The game service or the desk.
        source: spb::ResultSource,
    },
    /// A correction of the score (Law 78: the rubber is replayed from the deal), or of a Chicago
    /// diagram (Appendix 4 E: the pad is rescored with the proper first dealer).
    Correct {
        /// The deal.
        deal_id: String,
        /// The corrected result; `None` for a diagram correction that leaves it as it was.
        result: Option<pb::DealResult>,
        /// The first dealer the diagram should have shown.
        first_dealer: Option<Seat>,
    },
    /// An arbiter's assigned score becomes the deal's result and the rubber is replayed from it
    /// (Alternative Club Laws); `None` restores the table result.
    Rule {
        /// The deal.
        deal_id: String,
        /// The assigned result, or `None` for the table result.
        result: Option<pb::DealResult>,
    },
    /// The Club Appeals Committee's decision: only that deal's scoring changes, with premiums A
    /// and B; `None` restores the table result.
    Appeal {
        /// The deal.
        deal_id: String,
        /// The result decided, or `None` for the table result.
        result: Option<pb::DealResult>,
    },
    /// The rubber ends unfinished (Law 80) or the Chicago series short (Appendix 4 B).
    End,
    /// The players agreed the net score (closing the Law 78 window).
    AgreeNet,
}

impl Operation {
    /// The name stored with the version.
    pub fn name(&self) -> &'static str {
        match self {
            Operation::Record { .. } => "record",
            Operation::Correct { .. } => "correct",
            Operation::Rule { result: Some(_), .. } => "rule",
            Operation::Rule { result: None, .. } => "rule_restore",
            Operation::Appeal { result: Some(_), .. } => "appeal",
            Operation::Appeal { result: None, .. } => "appeal_restore",
            Operation::End => "end",
            Operation::AgreeNet => "agree_net",
        }
    }

    /// The result the operation names, if any (what a score version stores to replay it).
    pub fn result(&self) -> Option<&pb::DealResult> {
        match self {
            Operation::Record { result, .. } => Some(result),
            Operation::Correct { result, .. } | Operation::Rule { result, .. } | Operation::Appeal { result, .. } => {
                result.as_ref()
            }
            Operation::End | Operation::AgreeNet => None,
        }
    }

    /// The deal the operation concerns.
    pub fn deal_id(&self) -> Option<&str> {
        match self {
            Operation::Record { deal_id, .. }
            | Operation::Correct { deal_id, .. }
            | Operation::Rule { deal_id, .. }
            | Operation::Appeal { deal_id, .. } => Some(deal_id),
            Operation::End | Operation::AgreeNet => None,
        }
    }
}

/// What a pad is, fixed at creation.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The pad's id (empty for a calculator's pad, which is not stored).
    pub scorepad_id: String,
    /// Rubber or Chicago.
    pub kind: pb::TableKind,
    /// The membership service's table.
    pub table_id: String,
    /// The membership service's rubber line-up.
    pub rubber_id: String,
    /// The four players.
    pub players: Vec<pb::SeatedPlayer>,
    /// The first dealer (required for Chicago, whose vulnerability follows the dealer).
    pub first_dealer: Option<Seat>,
    /// The club options.
    pub options: spb::ScorepadOptions,
    /// When the pad was created.
    pub created_at: Option<prost_types::Timestamp>,
}

impl Header {
    /// The player id sitting at `seat`, if known.
    pub fn player_ids(&self) -> impl Iterator<Item = &str> {
        self.players.iter().map(|p| p.player_id.as_str())
    }
}

/// The laws crate's pad.
#[derive(Debug, Clone, PartialEq)]
enum Form {
    Rubber(Rubber),
    Chicago(Chicago),
}

/// One result a deal has had: the table's, a correction, a ruling's, an appeal's.
#[derive(Debug, Clone, PartialEq)]
struct Record {
    result: pb::DealResult,
    source: spb::ResultSource,
    version: u64,
    recorded_at: Option<prost_types::Timestamp>,
    struck: bool,
}

/// A deal of the pad and the results it has had.
#[derive(Debug, Clone, PartialEq)]
struct Slot {
    deal_id: String,
    number: u32,
    dealer: Option<Seat>,
    vulnerability: Vulnerability,
    hands: Option<Deal>,
    records: Vec<Record>,
    /// The side that won a game on this deal, as recorded (an appeal does not change it).
    game_winner: Option<Side>,
}

impl Slot {
    /// The result the table agreed, as last corrected under Law 78: what restoring the table
    /// result after a ruling or appeal puts back.
    fn table_record(&self) -> Option<&Record> {
        self.records.iter().rev().find(|r| {
            matches!(r.source, spb::ResultSource::Game | spb::ResultSource::Desk | spb::ResultSource::Correction)
        })
    }

    fn push(&mut self, record: Record) {
        for old in &mut self.records {
            old.struck = true;
        }
        self.records.push(record);
    }
}

/// Which version added an entry and which struck it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Trace {
    added_in: u64,
    struck_in: Option<u64>,
}

/// A scorepad as its versions make it. See the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct Pad {
    header: Header,
    form: Form,
    slots: Vec<Slot>,
    traces: Vec<Trace>,
    flags: BTreeMap<usize, String>,
    net_agreed_at: Option<prost_types::Timestamp>,
    versions: Vec<spb::ScoreVersion>,
}

/// A laws refusal as the service reports it (FAILED_PRECONDITION naming the Law).
fn rule<E: laws::CitesLaw + std::fmt::Display>(error: E) -> ServiceError {
    ServiceError::rule(error)
}

impl Pad {
    /// An empty pad (Law 73: no games, neither side vulnerable).
    pub fn new(header: Header) -> Result<Pad, ServiceError> {
        let round_to_hundreds = header.options.round_to_hundreds;
        let form = match header.kind {
            pb::TableKind::Rubber => Form::Rubber(Rubber::new(RubberOptions { round_to_hundreds })),
            pb::TableKind::Chicago => {
                let first_dealer = header.first_dealer.ok_or_else(|| {
                    ServiceError::invalid(
                        "first_dealer",
                        "required for Chicago, whose vulnerability follows the dealer (rule C of Chicago, Appendix 4)",
                    )
                })?;
                let options = ChicagoOptions {
                    swap_second_and_third: header.options.chicago_swap_vulnerability,
                    round_to_hundreds,
                };
                Form::Chicago(Chicago::new(first_dealer, options))
            }
            _ => return Err(ServiceError::invalid("kind", "a scorepad is for rubber or Chicago")),
        };
        if header.kind == pb::TableKind::Rubber && header.options.chicago_swap_vulnerability {
            return Err(ServiceError::invalid(
                "options.chicago_swap_vulnerability",
                "only a Chicago pad switches the vulnerability of deals 2 and 3 (rule C of Chicago, Appendix 4)",
            ));
        }
        Ok(Pad {
            header,
            form,
            slots: Vec::new(),
            traces: Vec::new(),
            flags: BTreeMap::new(),
            net_agreed_at: None,
            versions: Vec::new(),
        })
    }

    /// The pad's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The pad's version: the number of versions applied.
    pub fn version(&self) -> u64 {
        self.versions.len() as u64
    }

    /// The versions applied, oldest first.
    pub fn versions(&self) -> &[spb::ScoreVersion] {
        &self.versions
    }

    /// When the net score was agreed.
    pub fn net_agreed(&self) -> bool {
        self.net_agreed_at.is_some()
    }

    /// Whether no more deals are recorded: the rubber is won (Law 74) or was ended (Law 80), or
    /// the Chicago series has its four deals or was ended short (Appendix 4 B).
    pub fn is_over(&self) -> bool {
        match &self.form {
            Form::Rubber(r) => r.is_over(),
            Form::Chicago(c) => c.is_complete() || c.is_closed(),
        }
    }

    /// The index of `deal_id` among the pad's deals.
    pub fn deal_index(&self, deal_id: &str) -> Option<usize> {
        self.slots.iter().position(|s| s.deal_id == deal_id)
    }

    /// How many deals are recorded (passed-out ones included).
    pub fn deals_recorded(&self) -> usize {
        self.slots.len()
    }

    /// The result in force for `deal_id`, and the version that first recorded the deal.
    pub fn first_record(&self, deal_id: &str) -> Option<(&pb::DealResult, u64)> {
        let slot = self.slots.get(self.deal_index(deal_id)?)?;
        slot.records.first().map(|r| (&r.result, r.version))
    }

    /// The number, dealer and vulnerability of the next deal, while the pad goes on (Law 9,
    /// Law 73; Appendix 4 B, C).
    pub fn next_deal(&self) -> Option<spb::NextDeal> {
        if self.is_over() {
            return None;
        }
        let (number, dealer, vulnerability) = match &self.form {
            Form::Rubber(r) => {
                let index = self.slots.len();
                (index as u32 + 1, self.header.first_dealer.map(|d| dealer_of(d, index)), r.vulnerability())
            }
            Form::Chicago(c) => (u32::from(c.next_number()?), Some(c.next_dealer()), c.next_vulnerability()?),
        };
        Some(spb::NextDeal {
            deal_number: number,
            dealer: dealer.map_or(0, ProtoEnum::to_proto),
            vulnerability: vulnerability.to_proto(),
        })
    }

    /// Applies one version's operation (see the module docs). Refusals are the laws crate's,
    /// naming the Law; the pad is unchanged when one is returned. `version` is the version as
    /// stored; the pad keeps it as the contract shows it, with the result then in force for its
    /// deal, and a note when the correction was flagged for the arbiter instead of applied.
    pub fn apply(&mut self, operation: &Operation, mut version: spb::ScoreVersion) -> Result<(), ServiceError> {
        let number = self.version() + 1;
        if version.version != number {
            return Err(ServiceError::internal(format!("version {} applied as version {number}", version.version)));
        }
        let mut next = self.clone();
        let mut flagged: Option<String> = None;
        let live_before: Vec<bool> = next.entries().iter().map(Entry::is_live).collect();
        let recorded_at = version.recorded_at;
        match operation {
            Operation::Record { deal_id, result, hands, source } => {
                let laws_result = rubber_result(result).map_err(|e| e.within("result"))?;
                if next.deal_index(deal_id).is_some() {
                    return Err(ServiceError::internal(format!("deal {deal_id} recorded twice")));
                }
                next.form = match &next.form {
                    Form::Rubber(r) => Form::Rubber(r.record(laws_result).map_err(rule)?),
                    Form::Chicago(c) => Form::Chicago(c.record(laws_result).map_err(rule)?),
                };
                next.slots.push(Slot {
                    deal_id: deal_id.clone(),
                    number: 0,
                    dealer: None,
                    vulnerability: Vulnerability::None,
                    hands: *hands,
                    records: vec![Record {
                        result: result.clone(),
                        source: *source,
                        version: number,
                        recorded_at,
                        struck: false,
                    }],
                    game_winner: None,
                });
                next.refresh_slots(next.slots.len() - 1);
            }
            Operation::Correct { deal_id, result, first_dealer } => {
                let index = next.index(deal_id)?;
                if let Some(first_dealer) = first_dealer {
                    let Form::Chicago(c) = &next.form else {
                        return Err(ServiceError::invalid(
                            "kind",
                            "only a Chicago pad has a vulnerability diagram (rule E of Chicago, Appendix 4)",
                        ));
                    };
                    next.form = Form::Chicago(c.with_first_dealer(*first_dealer).0);
                    next.header.first_dealer = Some(*first_dealer);
                    next.refresh_slots(0);
                }
                if let Some(result) = result {
                    if next.replay_from(index, result)? {
                        next.slots[index].push(Record {
                            result: result.clone(),
                            source: spb::ResultSource::Correction,
                            version: number,
                            recorded_at,
                            struck: false,
                        });
                    } else {
                        flagged = next.flags.get(&index).cloned();
                    }
                }
            }
            Operation::Rule { deal_id, result } => {
                let index = next.index(deal_id)?;
                let (result, source) = next.ruled_result(index, result.as_ref(), spb::ResultSource::Ruling)?;
                if next.replay_from(index, &result)? {
                    next.slots[index].push(Record { result, source, version: number, recorded_at, struck: false });
                } else {
                    flagged = next.flags.get(&index).cloned();
                }
            }
            Operation::Appeal { deal_id, result } => {
                let index = next.index(deal_id)?;
                let (result, source) = next.ruled_result(index, result.as_ref(), spb::ResultSource::Appeal)?;
                let laws_result = rubber_result(&result).map_err(|e| e.within("result"))?;
                let hands = next.slots[index].hands;
                next.form = match &next.form {
                    Form::Rubber(r) => Form::Rubber(r.overrule(index, laws_result, hands.as_ref()).map_err(rule)?.0),
                    Form::Chicago(c) => Form::Chicago(c.overrule(index, laws_result, hands.as_ref()).map_err(rule)?.0),
                };
                next.flags.remove(&index);
                // Only that deal's scoring changes: games, vulnerability and later deals stand
                // as recorded, so the slots are not refreshed.
                next.slots[index].push(Record { result, source, version: number, recorded_at, struck: false });
            }
            Operation::End => {
                next.form = match &next.form {
                    Form::Rubber(r) => Form::Rubber(r.abandon().map_err(rule)?),
                    Form::Chicago(c) => Form::Chicago(c.end_short().map_err(rule)?),
                };
            }
            Operation::AgreeNet => {
                if !next.is_over() {
                    return Err(ServiceError::FailedPrecondition(
                        "the rubber goes on: a net score is agreed only once it is finished (Law 74) or ended (Law 80)"
                            .to_owned(),
                    ));
                }
                next.net_agreed_at = recorded_at;
            }
        }
        let entries = next.entries().len();
        for (i, trace) in next.traces.iter_mut().enumerate() {
            let struck_now = live_before.get(i).copied().unwrap_or(false) && !next_entry_live(&next.form, i);
            if struck_now {
                trace.struck_in = Some(number);
            }
        }
        next.traces.extend((next.traces.len()..entries).map(|_| Trace { added_in: number, struck_in: None }));
        if let Some(index) = operation.deal_id().and_then(|d| next.deal_index(d)) {
            if let Some(flag) = flagged {
                version.reason = format!("{} (not applied; flagged for the arbiter: {flag})", version.reason)
                    .trim_start()
                    .to_owned();
            }
            version.result = next.slots[index].records.last().map(|r| r.result.clone());
        }
        next.versions.push(version);
        *self = next;
        Ok(())
    }

    /// The result in force for `deal_id`.
    pub fn current_result(&self, deal_id: &str) -> Option<&pb::DealResult> {
        let slot = self.slots.get(self.deal_index(deal_id)?)?;
        slot.records.last().map(|r| &r.result)
    }

    fn index(&self, deal_id: &str) -> Result<usize, ServiceError> {
        self.deal_index(deal_id).ok_or_else(|| ServiceError::not_found(format!("deal {deal_id} on this scorepad")))
    }

    /// The result a ruling or appeal puts in force: the one given, or the table result restored.
    fn ruled_result(
        &self,
        index: usize,
        given: Option<&pb::DealResult>,
        source: spb::ResultSource,
    ) -> Result<(pb::DealResult, spb::ResultSource), ServiceError> {
        match given {
            Some(result) => Ok((result.clone(), source)),
            None => {
                let slot = &self.slots[index];
                let table = slot.table_record().ok_or_else(|| {
                    ServiceError::FailedPrecondition(format!("deal {} has no table result to restore", slot.deal_id))
                })?;
                Ok((table.result.clone(), table.source))
            }
        }
    }

    /// Replays the pad from the deal at `index` with `result` (Law 78). Returns whether it was
    /// replayed; when the replay would move the end of the rubber the Laws give no answer, so the
    /// pad is left as it was and the question flagged for the arbiter.
    fn replay_from(&mut self, index: usize, result: &pb::DealResult) -> Result<bool, ServiceError> {
        let laws_result: DealResult = rubber_result(result).map_err(|e| e.within("result"))?;
        match &self.form {
            Form::Rubber(r) => match r.correct(index, laws_result).map_err(rule)? {
                Corrected::Replayed { rubber, .. } => self.form = Form::Rubber(rubber),
                Corrected::ArbiterNeeded(conflict) => {
                    self.flags.insert(index, conflict.to_string());
                    return Ok(false);
                }
            },
            Form::Chicago(c) => self.form = Form::Chicago(c.correct(index, laws_result).map_err(rule)?.0),
        }
        self.flags.remove(&index);
        self.refresh_slots(index);
        Ok(true)
    }

    /// Takes each deal's number, dealer, vulnerability and game from the laws pad, from the deal
    /// at `from` on (a replay moves them; Law 73, Appendix 4 B and C).
    fn refresh_slots(&mut self, from: usize) {
        match &self.form {
            Form::Rubber(r) => {
                let deals = r.deals();
                for index in from..self.slots.len() {
                    let Some(deal) = deals.get(index) else { continue };
                    let games_after = deals
                        .get(index + 1)
                        .map_or([r.games_won(Side::NorthSouth), r.games_won(Side::EastWest)], |next| next.games_before);
                    let slot = &mut self.slots[index];
                    slot.number = index as u32 + 1;
                    slot.dealer = self.header.first_dealer.map(|d| dealer_of(d, index));
                    slot.vulnerability = deal.vulnerability;
                    slot.game_winner =
                        Side::ALL.into_iter().find(|s| games_after[s.index()] > deal.games_before[s.index()]);
                }
            }
            Form::Chicago(c) => {
                let mut counted = 0u32;
                for (index, deal) in c.deals().iter().enumerate() {
                    if index >= from
                        && let Some(slot) = self.slots.get_mut(index)
                    {
                        // A passed-out deal keeps the number of the deal redealt (Appendix 4 B).
                        slot.number = deal.number.map_or(counted + 1, u32::from);
                        slot.dealer = Some(deal.dealer);
                        slot.vulnerability = deal.vulnerability;
                        slot.game_winner = match deal.result.played() {
                            Some(played) if deal.completed_game => Some(played.declarer()),
                            _ => None,
                        };
                    }
                    if deal.number.is_some() {
                        counted += 1;
                    }
                }
            }
        }
    }

    fn entries(&self) -> &[Entry] {
        match &self.form {
            Form::Rubber(r) => r.entries(),
            Form::Chicago(c) => c.entries(),
        }
    }

    fn settlement(&self) -> Settlement {
        match &self.form {
            Form::Rubber(r) => r.settlement(),
            Form::Chicago(c) => c.settlement(),
        }
    }

    fn status(&self) -> spb::ScorepadStatus {
        match &self.form {
            Form::Rubber(r) => match r.status() {
                RubberStatus::InProgress => spb::ScorepadStatus::InProgress,
                RubberStatus::Won { .. } => spb::ScorepadStatus::Finished,
                RubberStatus::Unfinished => spb::ScorepadStatus::EndedUnfinished,
            },
            Form::Chicago(c) if c.is_complete() => spb::ScorepadStatus::Finished,
            Form::Chicago(c) if c.is_closed() => spb::ScorepadStatus::EndedUnfinished,
            Form::Chicago(_) => spb::ScorepadStatus::InProgress,
        }
    }

    /// The status as stored for listing.
    pub fn status_number(&self) -> i32 {
        self.status() as i32
    }

    /// The entries `version` added and the ids of those it struck.
    pub fn changes_in(&self, version: u64) -> (Vec<spb::ScoreEntry>, Vec<String>) {
        let entries = self.score_entries();
        let added =
            self.traces.iter().zip(&entries).filter(|(t, _)| t.added_in == version).map(|(_, e)| e.clone()).collect();
        let struck = self
            .traces
            .iter()
            .zip(&entries)
            .filter(|(t, _)| t.struck_in == Some(version))
            .map(|(_, e)| e.entry_id.clone())
            .collect();
        (added, struck)
    }

    fn score_entries(&self) -> Vec<spb::ScoreEntry> {
        self.entries()
            .iter()
            .zip(&self.traces)
            .enumerate()
            .map(|(i, (entry, trace))| {
                let slot = entry.deal.filter(|_| entry.kind.belongs_to_deal()).and_then(|d| self.slots.get(d));
                spb::ScoreEntry {
                    entry_id: entry_id(i),
                    deal_id: slot.map(|s| s.deal_id.clone()).unwrap_or_default(),
                    deal_number: slot.map_or(0, |s| s.number),
                    side: entry.side.to_proto(),
                    line: match entry.line {
                        Line::Above => spb::ScoreLine::Above,
                        Line::Below => spb::ScoreLine::Below,
                    } as i32,
                    points: entry.points,
                    item: score_item(entry.kind) as i32,
                    game_number: if entry.line == Line::Below { u32::from(entry.game) + 1 } else { 0 },
                    struck: !entry.is_live(),
                    struck_in_version: trace.struck_in.unwrap_or(0),
                    law: Some(entry.kind.law().into()),
                }
            })
            .collect()
    }

    /// The pad as the contract shows it.
    pub fn to_proto(&self) -> spb::Scorepad {
        let settlement = self.settlement();
        let over = self.is_over();
        let side = |side: Side| {
            let (games_won, vulnerable, partscore) = match &self.form {
                Form::Rubber(r) => {
                    (u32::from(r.games_won(side)), r.vulnerability().is_vulnerable(side), r.below_the_line(side))
                }
                Form::Chicago(c) => (
                    self.slots.iter().filter(|s| s.game_winner == Some(side)).count() as u32,
                    c.next_vulnerability().is_some_and(|v| v.is_vulnerable(side)),
                    c.below_the_line(side),
                ),
            };
            spb::SideScore {
                side: side.to_proto(),
                games_won,
                vulnerable: vulnerable && !over,
                partscore,
                total: settlement.total(side),
            }
        };
        let mut deals: Vec<spb::RecordedDeal> = Vec::new();
        for slot in &self.slots {
            for record in &slot.records {
                deals.push(spb::RecordedDeal {
                    deal_id: slot.deal_id.clone(),
                    deal_number: slot.number,
                    dealer: slot.dealer.map_or(0, ProtoEnum::to_proto),
                    vulnerability: slot.vulnerability.to_proto(),
                    result: Some(record.result.clone()),
                    source: record.source as i32,
                    struck: record.struck,
                    version: record.version,
                    recorded_at: record.recorded_at,
                });
            }
        }
        let games = self
            .slots
            .iter()
            .filter_map(|s| s.game_winner.map(|w| (s, w)))
            .enumerate()
            .map(|(i, (slot, winner))| spb::GameRecord {
                number: i as u32 + 1,
                winner: winner.to_proto(),
                completed_by_deal_id: slot.deal_id.clone(),
            })
            .collect();
        let net = over.then(|| spb::NetScore {
            winner: settlement.winner.map_or(0, ProtoEnum::to_proto),
            margin: settlement.margin,
            rounded_margin: settlement.rounded_margin.unwrap_or(settlement.margin),
        });
        spb::Scorepad {
            scorepad_id: self.header.scorepad_id.clone(),
            kind: self.header.kind as i32,
            table_id: self.header.table_id.clone(),
            rubber_id: self.header.rubber_id.clone(),
            players: self.header.players.clone(),
            first_dealer: self.header.first_dealer.map_or(0, ProtoEnum::to_proto),
            options: Some(self.header.options),
            status: self.status() as i32,
            deals,
            entries: self.score_entries(),
            north_south: Some(side(Side::NorthSouth)),
            east_west: Some(side(Side::EastWest)),
            games,
            net,
            next_deal: self.next_deal(),
            review_flags: self
                .flags
                .iter()
                .map(|(index, flag)| {
                    let deal = &self.slots[*index];
                    format!("deal {} ({}): {flag}", deal.number, deal.deal_id)
                })
                .collect(),
            version: self.version(),
            created_at: self.header.created_at,
            net_agreed_at: self.net_agreed_at,
        }
    }
}

fn next_entry_live(form: &Form, index: usize) -> bool {
    let entries = match form {
        Form::Rubber(r) => r.entries(),
        Form::Chicago(c) => c.entries(),
    };
    entries.get(index).is_some_and(Entry::is_live)
}

/// An entry's id within its pad: its position in the order entries were written.
pub fn entry_id(index: usize) -> String {
    format!("e{}", index + 1)
}

/// What an entry's points are for, as the contract names it.
pub fn score_item(kind: EntryKind) -> spb::ScoreItem {
    match kind {
        EntryKind::TrickPoints => spb::ScoreItem::TrickPoints,
        EntryKind::Overtricks => spb::ScoreItem::Overtricks,
        EntryKind::Insult => spb::ScoreItem::MadeDoubled,
        EntryKind::Slam => spb::ScoreItem::Slam,
        EntryKind::Undertricks => spb::ScoreItem::Undertricks,
        EntryKind::Honors => spb::ScoreItem::Honors,
        EntryKind::RubberBonus => spb::ScoreItem::RubberBonus,
        EntryKind::UnfinishedGame => spb::ScoreItem::UnfinishedGame,
        EntryKind::UnfinishedPartscore => spb::ScoreItem::UnfinishedPartscore,
        EntryKind::GamePremium => spb::ScoreItem::ChicagoGame,
        EntryKind::FourthDealPartscore => spb::ScoreItem::ChicagoFourthDealPartscore,
        EntryKind::AppealPremiumFulfilled => spb::ScoreItem::AppealPremiumMade,
        EntryKind::AppealPremiumDefeated => spb::ScoreItem::AppealPremiumDefeated,
    }
}
