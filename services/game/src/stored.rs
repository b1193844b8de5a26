//! What the game service stores, as protobuf messages of its own (encoded into the journal,
//! Redis and the live channel). They wrap the contract's messages: a command is stored as the
//! request that made it (with what the server added: a digital deal's seed, the board's cards,
//! who acted and when), so replaying the journal replays exactly what was accepted.

use api::common::v1 as pb;
use api::game::v1 as game;

/// One accepted command.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StoredAction {
    /// The deal it belongs to.
    #[prost(string, tag = "1")]
    pub deal_id: String,
    /// The principal who sent it.
    #[prost(string, tag = "2")]
    pub actor: String,
    /// When it was accepted.
    #[prost(message, optional, tag = "3")]
    pub at: Option<prost_types::Timestamp>,
    /// The command.
    #[prost(oneof = "stored_action::Command", tags = "10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23")]
    pub command: Option<stored_action::Command>,
    /// The version of the Laws' rules that accepted it ([`laws::RULES_VERSION`]); 0 for an
    /// action accepted before the rules were numbered. The journal's `rules_version` column is the
    /// record; this copy travels with the action into Redis.
    #[prost(uint32, tag = "4")]
    pub rules_version: u32,
}

/// The commands.
pub mod stored_action {
    use super::{StoredChoice, StoredStart, game};

    /// One command: the request as accepted.
    #[derive(Clone, PartialEq, prost::Oneof)]
    pub enum Command {
        /// StartDeal.
        #[prost(message, tag = "10")]
        Start(StoredStart),
        /// MakeCall.
        #[prost(message, tag = "11")]
        Call(game::MakeCallRequest),
        /// PlayCard.
        #[prost(message, tag = "12")]
        Play(game::PlayCardRequest),
        /// RecordIrregularity.
        #[prost(message, tag = "13")]
        Irregularity(game::RecordIrregularityRequest),
        /// ChooseRectification.
        #[prost(message, tag = "14")]
        Choose(StoredChoice),
        /// Claim.
        #[prost(message, tag = "15")]
        Claim(game::ClaimRequest),
        /// Concede.
        #[prost(message, tag = "16")]
        Concede(game::ConcedeRequest),
        /// RespondToClaim.
        #[prost(message, tag = "17")]
        Respond(game::RespondToClaimRequest),
        /// CallArbiter.
        #[prost(message, tag = "18")]
        CallArbiter(game::CallArbiterRequest),
        /// ResolveArbiterCall.
        #[prost(message, tag = "19")]
        Resolve(game::ResolveArbiterCallRequest),
        /// AdjudicateClaim.
        #[prost(message, tag = "20")]
        Adjudicate(game::AdjudicateClaimRequest),
        /// EnterResult.
        #[prost(message, tag = "21")]
        EnterResult(game::EnterResultRequest),
        /// AbandonDeal.
        #[prost(message, tag = "22")]
        Abandon(game::AbandonDealRequest),
        /// FaceHand.
        #[prost(message, tag = "23")]
        FaceHand(game::FaceHandRequest),
    }
}

/// A deal's start: the setup as resolved (dealer and vulnerability filled in from a board) and
/// the cards.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StoredStart {
    /// The setup.
    #[prost(message, optional, tag = "1")]
    pub setup: Option<game::DealSetup>,
    /// The 32-byte seed of a server deal.
    #[prost(bytes = "vec", tag = "2")]
    pub seed: Vec<u8>,
    /// The hands of physical cards, when entered (or a board's, fixed by another table).
    #[prost(message, optional, tag = "3")]
    pub deal: Option<pb::Deal>,
}

/// A rectification choice and whether the official made it.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StoredChoice {
    /// The request.
    #[prost(message, optional, tag = "1")]
    pub request: Option<game::ChooseRectificationRequest>,
    /// Made by the arbiter or director himself (not recording a player's choice).
    #[prost(bool, tag = "2")]
    pub official: bool,
}

/// One journaled event: the event with everything in it, and what deciding who may see it
/// needs. It is filtered for each watcher when it is sent.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StoredEvent {
    /// The event, unfiltered.
    #[prost(message, optional, tag = "1")]
    pub event: Option<game::TableEvent>,
    /// The deal's players, by seat.
    #[prost(message, repeated, tag = "2")]
    pub players: Vec<pb::SeatedPlayer>,
    /// The code of Laws (`LawCode`), which decides who sees a finished deal's hands.
    #[prost(int32, tag = "3")]
    pub code: i32,
    /// The session and board of a duplicate deal, named to a watcher from whom its events are
    /// withheld.
    #[prost(message, optional, tag = "4")]
    pub board: Option<game::BoardWithheld>,
}

/// The events of one command, as published on the table's channel.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EventBatch {
    /// The events, in sequence.
    #[prost(message, repeated, tag = "1")]
    pub events: Vec<StoredEvent>,
}

/// A table's live state, as kept in Redis: the current (or last) deal's commands, which replay to
/// the deal in progress, with the table's version and last event sequence.
#[derive(Clone, PartialEq, prost::Message)]
pub struct LiveTable {
    /// The table's version (also the live store's version of this value).
    #[prost(uint64, tag = "1")]
    pub version: u64,
    /// The last event sequence number.
    #[prost(uint64, tag = "2")]
    pub last_sequence: u64,
    /// The deal.
    #[prost(string, tag = "3")]
    pub deal_id: String,
    /// The deal's commands, from its start.
    #[prost(message, repeated, tag = "4")]
    pub actions: Vec<StoredAction>,
}
