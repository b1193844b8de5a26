//! Conversions between the contract's messages and the [`laws`] crate's checked types.
//!
//! A message from the wire becomes a laws value only through `TryFrom`, which checks what the Laws
//! require of it (a bid's level is 1 to 7, Law 18; a deal is one pack in four hands of thirteen,
//! Law 1 and Law 8) and, when it refuses, says which field was wrong in a [`ConversionError`], which
//! becomes INVALID_ARGUMENT. The other way, `From` is infallible.
//!
//! Enums travel as `i32` fields; [`ProtoEnum`] reads and writes them:
//!
//! ```
//! use api::common::v1 as pb;
//! use api::convert::ProtoEnum;
//! use laws::{Card, Rank, Seat, Suit};
//!
//! let seat = Seat::from_proto("seat", pb::Seat::West as i32).unwrap();
//! assert_eq!(seat, Seat::West);
//!
//! let card = pb::Card { suit: pb::Suit::Hearts as i32, rank: 0 };
//! let err = Card::try_from(card).unwrap_err().within("play.card");
//! assert_eq!(err.field(), "play.card.rank");
//! assert_eq!(err.to_string(), "play.card.rank: not given; a rank is required");
//!
//! assert_eq!(pb::Card::from(Card::new(Suit::Spades, Rank::Ace)).rank, pb::Rank::Ace as i32);
//! ```
//!
//! Field paths are relative to the message converted; a caller that converts a field of a request
//! prefixes the field's own name with [`ConversionError::within`], so that the error names the
//! request field (`setup.players[2].seat`).

use std::fmt;

use laws::cards::DealError;
use laws::irregularities::Chooser;
use laws::score::ScoreError;
use laws::{Bid, Call, Card, CardSet, CitesLaw, Code, Contract, Deal, DeclaredContract, Denomination, Doubling, Law};
use laws::{Rank, Seat, Side, Suit, Vulnerability};

use crate::common::v1 as pb;

pub mod score;

/// A message field that does not hold a valid value: which field, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{problem}", FieldPrefix(.field))]
pub struct ConversionError {
    field: String,
    problem: Problem,
}

/// What is wrong with a field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A message field or a oneof that must be set is not.
    #[error("missing; a value is required")]
    Missing,
    /// An enum field holds the zero value, which no message may use to mean a real value.
    #[error("not given; {expected} is required")]
    Unspecified {
        /// What the field must hold, for the message ("a seat").
        expected: &'static str,
    },
    /// An enum field holds a number the contract does not define (a newer client, or garbage).
    #[error("unknown value {0}")]
    UnknownValue(i32),
    /// A bid's level is outside one to seven (Law 18: a bid names a level from one to seven).
    #[error("bid level {0} is not 1 to 7 (Law 18)")]
    BidLevel(u32),
    /// The cards do not form a deal, or a hand holds a card twice (Law 1, Law 8).
    #[error("{0}")]
    Deal(DealError),
    /// A result the score cannot take: more than thirteen tricks (Law 8), honors that do not
    /// exist at the contract's denomination (Law 81).
    #[error("{0}")]
    Score(ScoreError),
    /// A value the message cannot hold, for the reason given (which names its Law, if any).
    #[error("{0}")]
    Invalid(&'static str),
}

impl ConversionError {
    /// An error for `field` (a path relative to the message being converted; empty for the
    /// message as a whole).
    pub fn new(field: impl Into<String>, problem: Problem) -> ConversionError {
        ConversionError { field: field.into(), problem }
    }

    /// The field at fault, as a path such as `call.bid.level` or `deal.north.cards[3]`; empty when
    /// the message as a whole is at fault.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What is wrong with it.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The same error seen from the message that holds this one in its field `parent`: the path
    /// gains `parent` in front (`rank` within `card` is `card.rank`).
    #[must_use]
    pub fn within(mut self, parent: &str) -> ConversionError {
        self.field = match (parent.is_empty(), self.field.is_empty()) {
            (true, _) => self.field,
            (false, true) => parent.to_owned(),
            (false, false) => format!("{parent}.{}", self.field),
        };
        self
    }

    /// The Law the value breaks, when the problem is a Law's and not the message's shape.
    pub fn law(&self) -> Option<Law> {
        match &self.problem {
            Problem::BidLevel(_) => Some(Law::rubber(18, "")),
            Problem::Deal(error) => Some(error.law()),
            Problem::Score(error) => Some(error.law()),
            Problem::Missing | Problem::Unspecified { .. } | Problem::UnknownValue(_) | Problem::Invalid(_) => None,
        }
    }
}

/// Displays a field path followed by ": ", or nothing for the message as a whole.
struct FieldPrefix<'a>(&'a str);

impl fmt::Display for FieldPrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() { Ok(()) } else { write!(f, "{}: ", self.0) }
    }
}

impl From<ConversionError> for tonic::Status {
    /// Malformed input is INVALID_ARGUMENT (docs/status-codes.md); the message and a `BadRequest`
    /// name the field (docs/errors.md).
    fn from(error: ConversionError) -> tonic::Status {
        crate::codec::invalid_argument(error.field(), error.problem())
    }
}

/// The value of a message field that must be set: prost gives message fields as `Option`.
pub fn required<T>(field: &str, value: Option<T>) -> Result<T, ConversionError> {
    value.ok_or_else(|| ConversionError::new(field, Problem::Missing))
}

/// A laws type that travels as a proto enum, an `i32` field on the wire.
pub trait ProtoEnum: Sized {
    /// Reads the enum field `field` holding `raw`: the zero value (`*_UNSPECIFIED`) and numbers the
    /// contract does not define are refused.
    fn from_proto(field: &str, raw: i32) -> Result<Self, ConversionError>;

    /// The value to put in an enum field.
    fn to_proto(self) -> i32;
}

/// Pairs a laws enum with its proto enum one to one: `From` the laws value, `TryFrom` the proto
/// value, and [`ProtoEnum`] for `i32` fields.
macro_rules! enum_conversions {
    ($laws:ty, $proto:ty, $expected:literal, { $($laws_variant:path => $proto_variant:ident),+ $(,)? }) => {
        impl From<$laws> for $proto {
            fn from(value: $laws) -> $proto {
                match value {
                    $($laws_variant => <$proto>::$proto_variant,)+
                }
            }
        }

        impl TryFrom<$proto> for $laws {
            type Error = ConversionError;

            fn try_from(value: $proto) -> Result<$laws, ConversionError> {
                <$laws as ProtoEnum>::from_proto("", value as i32)
            }
        }

        impl ProtoEnum for $laws {
            fn from_proto(field: &str, raw: i32) -> Result<$laws, ConversionError> {
                match <$proto>::try_from(raw) {
                    $(Ok(<$proto>::$proto_variant) => Ok($laws_variant),)+
                    Ok(<$proto>::Unspecified) => {
                        Err(ConversionError::new(field, Problem::Unspecified { expected: $expected }))
                    }
                    Err(_) => Err(ConversionError::new(field, Problem::UnknownValue(raw))),
                }
            }

            fn to_proto(self) -> i32 {
                <$proto>::from(self) as i32
            }
        }
    };
}

enum_conversions!(Seat, pb::Seat, "a seat", {
    Seat::North => North,
    Seat::East => East,
    Seat::South => South,
    Seat::West => West,
});

enum_conversions!(Side, pb::Side, "a side", {
    Side::NorthSouth => NorthSouth,
    Side::EastWest => EastWest,
});

enum_conversions!(Suit, pb::Suit, "a suit", {
    Suit::Clubs => Clubs,
    Suit::Diamonds => Diamonds,
    Suit::Hearts => Hearts,
    Suit::Spades => Spades,
});

enum_conversions!(Rank, pb::Rank, "a rank", {
    Rank::Two => Two,
    Rank::Three => Three,
    Rank::Four => Four,
    Rank::Five => Five,
    Rank::Six => Six,
    Rank::Seven => Seven,
    Rank::Eight => Eight,
    Rank::Nine => Nine,
    Rank::Ten => Ten,
    Rank::Jack => Jack,
    Rank::Queen => Queen,
    Rank::King => King,
    Rank::Ace => Ace,
});

enum_conversions!(Denomination, pb::Denomination, "a denomination", {
    Denomination::Clubs => Clubs,
    Denomination::Diamonds => Diamonds,
    Denomination::Hearts => Hearts,
    Denomination::Spades => Spades,
    Denomination::NoTrump => NoTrump,
});

enum_conversions!(Doubling, pb::Doubling, "undoubled, doubled or redoubled", {
    Doubling::Undoubled => Undoubled,
    Doubling::Doubled => Doubled,
    Doubling::Redoubled => Redoubled,
});

enum_conversions!(Vulnerability, pb::Vulnerability, "a vulnerability", {
    Vulnerability::None => None,
    Vulnerability::NorthSouth => NorthSouth,
    Vulnerability::EastWest => EastWest,
    Vulnerability::Both => Both,
});

enum_conversions!(Code, pb::LawCode, "a code of Laws", {
    Code::Rubber => Rubber,
    Code::Club => Club,
    Code::ClubProcedure => ClubProcedure,
    Code::Chicago => Chicago,
    Code::Duplicate => Duplicate,
});

enum_conversions!(Chooser, pb::Chooser, "a chooser", {
    Chooser::Offender => Offender,
    Chooser::OffendersLho => OffendersLho,
    Chooser::Declarer => Declarer,
    Chooser::NonOffendingSide => NonOffendingSide,
    Chooser::Official => Official,
});

impl TryFrom<pb::Card> for Card {
    type Error = ConversionError;

    /// One of the 52 cards of the pack (Law 1): a suit and a rank.
    fn try_from(card: pb::Card) -> Result<Card, ConversionError> {
        Ok(Card::new(Suit::from_proto("suit", card.suit)?, Rank::from_proto("rank", card.rank)?))
    }
}

impl From<Card> for pb::Card {
    fn from(card: Card) -> pb::Card {
        pb::Card { suit: card.suit.to_proto(), rank: card.rank.to_proto() }
    }
}

impl TryFrom<pb::Hand> for CardSet {
    type Error = ConversionError;

    /// The cards of a hand, each at most once (Law 1: the pack holds 52 different cards). The
    /// number of cards is not checked here: a hand in a message may be partial (the cards still
    /// held); [`Deal`]'s conversion checks thirteen.
    fn try_from(hand: pb::Hand) -> Result<CardSet, ConversionError> {
        let mut cards = CardSet::EMPTY;
        for (index, card) in hand.cards.into_iter().enumerate() {
            let field = || format!("cards[{index}]");
            let card = Card::try_from(card).map_err(|e| e.within(&field()))?;
            if !cards.insert(card) {
                return Err(ConversionError::new(field(), Problem::Deal(DealError::Duplicate(card))));
            }
        }
        Ok(cards)
    }
}

impl From<CardSet> for pb::Hand {
    /// Spades first, high to low within each suit, as PBN writes a hand.
    fn from(cards: CardSet) -> pb::Hand {
        let mut cards: Vec<pb::Card> = cards.iter().map(pb::Card::from).collect();
        cards.reverse();
        pb::Hand { cards }
    }
}

impl From<(Seat, CardSet)> for pb::SeatHand {
    /// The cards of one seat that a view or event shows.
    fn from((seat, cards): (Seat, CardSet)) -> pb::SeatHand {
        pb::SeatHand { seat: seat.to_proto(), hand: Some(cards.into()) }
    }
}

/// The field names of a [`pb::Deal`]'s hands, by seat index (North, East, South, West).
const HAND_FIELDS: [&str; 4] = ["north", "east", "south", "west"];

impl TryFrom<pb::Deal> for Deal {
    type Error = ConversionError;

    /// A deal: the whole pack in four hands of thirteen (Law 1, Law 8). A card held twice is
    /// reported at its second appearance, a hand of the wrong size by its seat.
    fn try_from(deal: pb::Deal) -> Result<Deal, ConversionError> {
        let mut hands = [CardSet::EMPTY; 4];
        let mut seen = CardSet::EMPTY;
        for (seat, hand) in Seat::ALL.into_iter().zip([deal.north, deal.east, deal.south, deal.west]) {
            let field = HAND_FIELDS[seat.index()];
            let hand = required(field, hand)?;
            for (index, card) in hand.cards.iter().enumerate() {
                let card = Card::try_from(*card).map_err(|e| e.within(&format!("{field}.cards[{index}]")))?;
                if !seen.insert(card) {
                    return Err(ConversionError::new(
                        format!("{field}.cards[{index}]"),
                        Problem::Deal(DealError::Duplicate(card)),
                    ));
                }
                hands[seat.index()].insert(card);
            }
            let count = hands[seat.index()].len();
            if count != 13 {
                return Err(ConversionError::new(field, Problem::Deal(DealError::WrongCount { seat, count })));
            }
        }
        Deal::new(hands).map_err(|error| ConversionError::new("", Problem::Deal(error)))
    }
}

impl From<Deal> for pb::Deal {
    fn from(deal: Deal) -> pb::Deal {
        let [north, east, south, west] = deal.hands().map(|cards| Some(pb::Hand::from(cards)));
        pb::Deal { north, east, south, west }
    }
}

/// A deal from the value of a PBN `[Deal]` tag held in the string field `field` (Law 1, Law 8).
pub fn deal_from_pbn(field: &str, pbn: &str) -> Result<Deal, ConversionError> {
    Deal::from_pbn(pbn).map_err(|error| ConversionError::new(field, Problem::Deal(error)))
}

impl TryFrom<pb::Bid> for Bid {
    type Error = ConversionError;

    /// A level from one to seven and a denomination (Law 18).
    fn try_from(bid: pb::Bid) -> Result<Bid, ConversionError> {
        let denomination = Denomination::from_proto("denomination", bid.denomination)?;
        u8::try_from(bid.level)
            .ok()
            .and_then(|level| Bid::new(level, denomination))
            .ok_or_else(|| ConversionError::new("level", Problem::BidLevel(bid.level)))
    }
}

impl From<Bid> for pb::Bid {
    fn from(bid: Bid) -> pb::Bid {
        pb::Bid { level: u32::from(bid.level()), denomination: bid.denomination().to_proto() }
    }
}

impl TryFrom<pb::Call> for Call {
    type Error = ConversionError;

    /// A pass, a bid, a double or a redouble (Definitions). Whether the call is legal where it is
    /// made is the auction's question, not this conversion's.
    fn try_from(call: pb::Call) -> Result<Call, ConversionError> {
        use pb::call::Kind;
        match call.kind {
            Some(Kind::Pass(_)) => Ok(Call::Pass),
            Some(Kind::Bid(bid)) => Bid::try_from(bid).map(Call::Bid).map_err(|e| e.within("bid")),
            Some(Kind::Double(_)) => Ok(Call::Double),
            Some(Kind::Redouble(_)) => Ok(Call::Redouble),
            None => Err(ConversionError::new("kind", Problem::Missing)),
        }
    }
}

impl From<Call> for pb::Call {
    fn from(call: Call) -> pb::Call {
        use pb::call::Kind;
        let kind = match call {
            Call::Pass => Kind::Pass(pb::Pass {}),
            Call::Bid(bid) => Kind::Bid(bid.into()),
            Call::Double => Kind::Double(pb::Double {}),
            Call::Redouble => Kind::Redouble(pb::Redouble {}),
        };
        pb::Call { kind: Some(kind) }
    }
}

impl TryFrom<pb::Contract> for Contract {
    type Error = ConversionError;

    /// A final bid and its doubling (Definitions).
    fn try_from(contract: pb::Contract) -> Result<Contract, ConversionError> {
        let bid = Bid::try_from(required("bid", contract.bid)?).map_err(|e| e.within("bid"))?;
        Ok(Contract::new(bid, Doubling::from_proto("doubling", contract.doubling)?))
    }
}

impl From<Contract> for pb::Contract {
    fn from(contract: Contract) -> pb::Contract {
        pb::Contract { bid: Some(contract.bid.into()), doubling: contract.doubling.to_proto() }
    }
}

impl TryFrom<pb::DeclaredContract> for DeclaredContract {
    type Error = ConversionError;

    /// A contract and its declarer (Law 22B).
    fn try_from(declared: pb::DeclaredContract) -> Result<DeclaredContract, ConversionError> {
        let contract =
            Contract::try_from(required("contract", declared.contract)?).map_err(|e| e.within("contract"))?;
        Ok(DeclaredContract { contract, declarer: Seat::from_proto("declarer", declared.declarer)? })
    }
}

impl From<DeclaredContract> for pb::DeclaredContract {
    fn from(declared: DeclaredContract) -> pb::DeclaredContract {
        pb::DeclaredContract { contract: Some(declared.contract.into()), declarer: declared.declarer.to_proto() }
    }
}

impl From<Law> for pb::LawCitation {
    /// The citation with the text a reader sees ("Law 27B of the Laws of Rubber Bridge"). There is
    /// no conversion back: citations are made by the laws crate, never read from clients into it.
    fn from(law: Law) -> pb::LawCitation {
        pb::LawCitation {
            code: law.code.to_proto(),
            number: u32::from(law.number),
            section: law.section.to_owned(),
            text: law.to_string(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A test that unwraps fails loudly, which is what a test should do.
mod tests {
    use super::*;
    use laws::DealSeed;
    use proptest::prelude::*;

    /// A laws enum and a proto enum correspond one to one and by name: every laws value maps to the
    /// proto value of the same name (`Seat::North` to `SEAT_NORTH`, `Denomination::NoTrump` to
    /// `DENOMINATION_NO_TRUMP`) and back; the zero value and numbers the proto enum does not define
    /// are refused with the field's name.
    fn check_enum_is_one_to_one<T: ProtoEnum + Copy + PartialEq + fmt::Debug>(
        all: &[T],
        prefix: &str,
        proto_name: impl Fn(i32) -> Option<&'static str>,
    ) {
        for value in all {
            assert_eq!(T::from_proto("f", value.to_proto()).as_ref(), Ok(value));
            let expected = format!("{prefix}{}", upper_snake(&format!("{value:?}")));
            assert_eq!(proto_name(value.to_proto()), Some(expected.as_str()), "{value:?}");
        }
        let mut accepted = 0;
        for raw in -1..=40 {
            match T::from_proto("f", raw) {
                Ok(_) => accepted += 1,
                Err(error) => {
                    assert_eq!(error.field(), "f");
                    match error.problem() {
                        Problem::Unspecified { .. } => assert_eq!(raw, 0),
                        Problem::UnknownValue(value) => {
                            assert_eq!(*value, raw);
                            assert_eq!(proto_name(raw), None, "{raw} is defined but refused");
                        }
                        other => panic!("unexpected problem {other:?}"),
                    }
                }
            }
        }
        assert_eq!(accepted, all.len(), "every defined proto value maps to exactly one laws value");
    }

    /// `NoTrump` as `NO_TRUMP`.
    fn upper_snake(name: &str) -> String {
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_uppercase());
        }
        out
    }

    #[test]
    fn seats_sides_suits_ranks_map_one_to_one() {
        check_enum_is_one_to_one(&Seat::ALL, "SEAT_", |n| pb::Seat::try_from(n).ok().map(|e| e.as_str_name()));
        check_enum_is_one_to_one(&Side::ALL, "SIDE_", |n| pb::Side::try_from(n).ok().map(|e| e.as_str_name()));
        check_enum_is_one_to_one(&Suit::ALL, "SUIT_", |n| pb::Suit::try_from(n).ok().map(|e| e.as_str_name()));
        check_enum_is_one_to_one(&Rank::ALL, "RANK_", |n| pb::Rank::try_from(n).ok().map(|e| e.as_str_name()));
        // Ranks are numbered by pip value (two is 2, ace is 14), as the laws crate numbers them.
        for rank in Rank::ALL {
            assert_eq!(rank.to_proto(), rank as i32);
        }
        assert_eq!(Rank::from_proto("rank", 1).map_err(|e| e.problem().clone()), Err(Problem::UnknownValue(1)));
    }

    #[test]
    fn denominations_doublings_vulnerabilities_codes_choosers_map_one_to_one() {
        check_enum_is_one_to_one(&Denomination::ALL, "DENOMINATION_", |n| {
            pb::Denomination::try_from(n).ok().map(|e| e.as_str_name())
        });
        check_enum_is_one_to_one(&[Doubling::Undoubled, Doubling::Doubled, Doubling::Redoubled], "DOUBLING_", |n| {
            pb::Doubling::try_from(n).ok().map(|e| e.as_str_name())
        });
        check_enum_is_one_to_one(
            &[Vulnerability::None, Vulnerability::NorthSouth, Vulnerability::EastWest, Vulnerability::Both],
            "VULNERABILITY_",
            |n| pb::Vulnerability::try_from(n).ok().map(|e| e.as_str_name()),
        );
        check_enum_is_one_to_one(
            &[Code::Rubber, Code::Club, Code::ClubProcedure, Code::Chicago, Code::Duplicate],
            "LAW_CODE_",
            |n| pb::LawCode::try_from(n).ok().map(|e| e.as_str_name()),
        );
        check_enum_is_one_to_one(
            &[
                Chooser::Offender,
                Chooser::OffendersLho,
                Chooser::Declarer,
                Chooser::NonOffendingSide,
                Chooser::Official,
            ],
            "CHOOSER_",
            |n| pb::Chooser::try_from(n).ok().map(|e| e.as_str_name()),
        );
    }

    #[test]
    fn typed_proto_enums_convert_too() {
        assert_eq!(Seat::try_from(pb::Seat::South), Ok(Seat::South));
        let error = Seat::try_from(pb::Seat::Unspecified).unwrap_err();
        assert_eq!(error.to_string(), "not given; a seat is required");
        assert_eq!(error.within("declarer").to_string(), "declarer: not given; a seat is required");
    }

    #[test]
    fn law_1_every_card_of_the_pack_round_trips() {
        for card in Card::pack() {
            assert_eq!(Card::try_from(pb::Card::from(card)), Ok(card));
        }
    }

    #[test]
    fn law_18_every_bid_round_trips_and_a_level_outside_one_to_seven_is_refused() {
        for bid in Bid::all() {
            assert_eq!(Bid::try_from(pb::Bid::from(bid)), Ok(bid));
        }
        for level in [0, 8, 256 + 1, u32::MAX] {
            let error = Bid::try_from(pb::Bid { level, denomination: pb::Denomination::Hearts as i32 }).unwrap_err();
            assert_eq!(error.field(), "level");
            assert_eq!(error.problem(), &Problem::BidLevel(level));
            assert_eq!(error.law(), Some(Law::rubber(18, "")));
            assert_eq!(error.to_string(), format!("level: bid level {level} is not 1 to 7 (Law 18)"));
        }
    }

    #[test]
    fn every_call_round_trips_and_errors_name_the_nested_field() {
        let calls = [Call::Pass, Call::Double, Call::Redouble].into_iter().chain(Bid::all().map(Call::Bid));
        for call in calls {
            assert_eq!(Call::try_from(pb::Call::from(call)), Ok(call));
        }
        assert_eq!(Call::try_from(pb::Call { kind: None }).unwrap_err().field(), "kind");
        let eight_clubs = pb::Call {
            kind: Some(pb::call::Kind::Bid(pb::Bid { level: 8, denomination: pb::Denomination::Clubs as i32 })),
        };
        assert_eq!(
            Call::try_from(eight_clubs).unwrap_err().within("call").to_string(),
            "call.bid.level: bid level 8 is not 1 to 7 (Law 18)"
        );
    }

    #[test]
    fn every_contract_and_declared_contract_round_trips() {
        for bid in Bid::all() {
            for doubling in [Doubling::Undoubled, Doubling::Doubled, Doubling::Redoubled] {
                let contract = Contract::new(bid, doubling);
                assert_eq!(Contract::try_from(pb::Contract::from(contract)), Ok(contract));
                for declarer in Seat::ALL {
                    let declared = DeclaredContract { contract, declarer };
                    assert_eq!(DeclaredContract::try_from(pb::DeclaredContract::from(declared)), Ok(declared));
                }
            }
        }
    }

    #[test]
    fn a_contract_without_its_parts_names_the_missing_field() {
        let no_bid = pb::Contract { bid: None, doubling: pb::Doubling::Doubled as i32 };
        assert_eq!(Contract::try_from(no_bid).unwrap_err().field(), "bid");
        let no_doubling = pb::Contract { bid: Some(pb::Bid::from(Bid::all().next().unwrap())), doubling: 0 };
        assert_eq!(
            Contract::try_from(no_doubling).unwrap_err().to_string(),
            "doubling: not given; undoubled, doubled or redoubled is required"
        );
        let no_declarer =
            pb::DeclaredContract { contract: Some(pb::Contract::from("4S".parse::<Contract>().unwrap())), declarer: 9 };
        assert_eq!(DeclaredContract::try_from(no_declarer).unwrap_err().to_string(), "declarer: unknown value 9");
        let no_contract = pb::DeclaredContract { contract: None, declarer: pb::Seat::North as i32 };
        assert_eq!(DeclaredContract::try_from(no_contract).unwrap_err().field(), "contract");
    }

    #[test]
    fn law_citations_carry_code_number_section_and_the_readers_text() {
        let citation = pb::LawCitation::from(Law::rubber(27, "B"));
        assert_eq!(citation.code, pb::LawCode::Rubber as i32);
        assert_eq!(citation.number, 27);
        assert_eq!(citation.section, "B");
        assert_eq!(citation.text, "Law 27B of the Laws of Rubber Bridge");
        let rule = pb::LawCitation::from(Law::club_procedure('E'));
        assert_eq!((rule.code, rule.number, rule.section.as_str()), (pb::LawCode::ClubProcedure as i32, 5, ""));
        assert_eq!(rule.text, "rule E of the Rules for Club Procedure");
        let chicago = pb::LawCitation::from(Law::chicago('F', "2"));
        assert_eq!(Code::from_proto("code", chicago.code), Ok(Code::Chicago));
        assert_eq!(chicago.text, "rule F2 of Chicago (Rubber Bridge Appendix 4)");
    }

    fn proto_deal(pbn: &str) -> pb::Deal {
        pb::Deal::from(pbn.parse::<Deal>().unwrap())
    }

    const PBN: &str = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";

    #[test]
    fn hands_are_sent_spades_first_high_to_low_as_pbn_writes_them() {
        let deal = proto_deal(PBN);
        let north = deal.north.unwrap();
        let first: Vec<Card> = north.cards.iter().take(3).map(|c| Card::try_from(*c).unwrap()).collect();
        assert_eq!(first, ["SA".parse().unwrap(), "SK".parse().unwrap(), "SQ".parse().unwrap()]);
        assert_eq!(Card::try_from(*north.cards.last().unwrap()), Ok("C2".parse().unwrap()));
    }

    #[test]
    fn law_8_a_hand_of_twelve_is_refused_naming_its_seat() {
        let mut deal = proto_deal(PBN);
        if let Some(east) = deal.east.as_mut() {
            east.cards.pop();
        }
        let error = Deal::try_from(deal).unwrap_err().within("setup.deal");
        assert_eq!(error.field(), "setup.deal.east");
        assert_eq!(error.law(), Some(Law::rubber(8, "")));
        assert_eq!(error.to_string(), "setup.deal.east: East holds 12 cards; each hand must hold 13 (Law 8)");
    }

    #[test]
    fn law_1_a_card_dealt_twice_is_refused_where_it_appears_again() {
        let mut deal = proto_deal(PBN);
        // Give South North's ace of spades in place of one of South's cards.
        let ace = deal.north.as_ref().unwrap().cards[0];
        deal.south.as_mut().unwrap().cards[4] = ace;
        let error = Deal::try_from(deal).unwrap_err();
        assert_eq!(error.field(), "south.cards[4]");
        assert_eq!(error.law(), Some(Law::rubber(1, "")));
        assert_eq!(
            error.to_string(),
            "south.cards[4]: SA appears more than once; a pack has 52 different cards (Law 1)"
        );

        let twice_in_one_hand = pb::Hand { cards: vec![ace, ace] };
        assert_eq!(CardSet::try_from(twice_in_one_hand).unwrap_err().field(), "cards[1]");
    }

    #[test]
    fn a_deal_missing_a_hand_or_with_a_bad_card_names_the_field() {
        let mut deal = proto_deal(PBN);
        deal.west = None;
        assert_eq!(Deal::try_from(deal).unwrap_err().field(), "west");
        let mut deal = proto_deal(PBN);
        deal.north.as_mut().unwrap().cards[2].suit = 7;
        assert_eq!(Deal::try_from(deal).unwrap_err().to_string(), "north.cards[2].suit: unknown value 7");
    }

    #[test]
    fn pbn_deals_convert_with_the_field_named() {
        assert_eq!(deal_from_pbn("deal_pbn", PBN), Ok(PBN.parse().unwrap()));
        let error = deal_from_pbn("deal_pbn", "N:AKQJ").unwrap_err();
        assert_eq!(error.field(), "deal_pbn");
        assert!(matches!(error.problem(), Problem::Deal(DealError::Syntax(_))));
    }

    #[test]
    fn conversion_errors_become_invalid_argument_naming_the_field() {
        let status = tonic::Status::from(ConversionError::new("seat", Problem::UnknownValue(12)));
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert_eq!(status.message(), "seat: unknown value 12");
    }

    proptest! {
        #[test]
        fn every_seeded_deal_round_trips_through_hands_and_seat_hands(seed in any::<[u8; 32]>()) {
            let deal = Deal::from_seed(&DealSeed(seed));
            prop_assert_eq!(Deal::try_from(pb::Deal::from(deal)), Ok(deal));
            for seat in Seat::ALL {
                let shown = pb::SeatHand::from((seat, deal.hand(seat)));
                prop_assert_eq!(Seat::from_proto("seat", shown.seat), Ok(seat));
                prop_assert_eq!(CardSet::try_from(shown.hand.unwrap()), Ok(deal.hand(seat)));
            }
        }

        #[test]
        fn a_partial_hand_round_trips(bits in any::<u64>()) {
            let cards = CardSet::from_bits(bits);
            prop_assert_eq!(CardSet::try_from(pb::Hand::from(cards)), Ok(cards));
        }

        #[test]
        fn a_wire_card_is_accepted_exactly_when_suit_and_rank_are_defined(suit in -2i32..8, rank in -2i32..17) {
            let converted = Card::try_from(pb::Card { suit, rank });
            let valid = (1..=4).contains(&suit) && (2..=14).contains(&rank);
            prop_assert_eq!(converted.is_ok(), valid);
            if let Err(error) = converted {
                let expected_field = if (1..=4).contains(&suit) { "rank" } else { "suit" };
                prop_assert_eq!(error.field(), expected_field);
            }
        }

        #[test]
        fn a_wire_bid_is_accepted_exactly_when_level_is_one_to_seven(level in 0u32..20, denomination in 1i32..=5) {
            let converted = Bid::try_from(pb::Bid { level, denomination });
            prop_assert_eq!(converted.is_ok(), (1..=7).contains(&level));
            if let Ok(bid) = converted {
                prop_assert_eq!(u32::from(bid.level()), level);
                prop_assert_eq!(bid.denomination().to_proto(), denomination);
            }
        }
    }
}
