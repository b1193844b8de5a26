//! The deal and its rotation: who shuffles, cuts and deals (Laws 4-9), which deck (Law 7),
//! redeals (Law 10), the turn to deal after a passed-out deal (Law 22A), deals out of turn
//! (Law 9; Chicago, Appendix 4 G), the Chicago rubber's count of deals and its vulnerability
//! (Appendix 4 B, C), and duplicate boards (Law 2 of the Laws of Duplicate Bridge).
//!
//! ```
//! use laws::deal::{Board, DealEnding, DealerRotation, GameForm};
//! use laws::draw::Deck;
//! use laws::{Seat, Vulnerability};
//!
//! // Duplicate Law 2: board 20 is board 4 of the second group of sixteen.
//! let board = Board::new(20).unwrap();
//! assert_eq!((board.dealer(), board.vulnerability()), (Seat::West, Vulnerability::Both));
//!
//! // Chicago (Appendix 4 B): a passed-out deal is dealt again by the same dealer and does not
//! // count; a played deal passes the deal to the left.
//! let chicago = DealerRotation::new(GameForm::Chicago, Seat::North, Deck::First);
//! let after_pass = chicago.finish(Seat::North, DealEnding::PassedOut).unwrap();
//! assert_eq!((after_pass.dealer(), after_pass.deals_counted()), (Seat::North, 0));
//! let after_play = after_pass.finish(Seat::North, DealEnding::Played).unwrap();
//! assert_eq!((after_play.dealer(), after_play.deals_counted()), (Seat::East, 1));
//!
//! // Rubber bridge (Law 22A): after a passed-out deal the turn to deal passes on.
//! let rubber = DealerRotation::new(GameForm::Rubber, Seat::North, Deck::First);
//! assert_eq!(rubber.finish(Seat::North, DealEnding::PassedOut).unwrap().dealer(), Seat::East);
//! ```

use std::fmt;
use std::num::NonZeroU32;

use crate::contract::Vulnerability;
use crate::draw::Deck;
use crate::law::{CitesLaw, Law};
use crate::seat::Seat;

/// The form of the game at a table: rubber bridge (the Laws of Rubber Bridge) or Chicago
/// (four-deal bridge, Appendix 4), which changes the rotation after a passed-out deal, the
/// effect of a deal out of turn, and vulnerability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize)]
pub enum GameForm {
    /// Rubber bridge: a rubber ends when a side has won two games (Law 74).
    #[default]
    Rubber,
    /// Chicago: a rubber is four deals bid and played (Appendix 4 B).
    Chicago,
}

impl fmt::Display for GameForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameForm::Rubber => "rubber bridge",
            GameForm::Chicago => "Chicago",
        })
    }
}

/// How far a deal has gone when an irregularity is discovered: Law 10's deadlines are "before
/// the last card has been dealt", "before the first call has been made" and "before play has
/// been completed". Ordered from the earliest stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DealStage {
    /// The cards are being dealt: the last card has not been dealt yet.
    Dealing,
    /// The deal is complete and no call has been made.
    BeforeFirstCall,
    /// The first call has been made; the auction is not over.
    Auction,
    /// The auction is closed and play is in progress.
    Play,
    /// Play has been completed.
    PlayCompleted,
}

/// How a deal ended, for the rotation of the turn to deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealEnding {
    /// Bid and played (or claimed): the deal counts.
    Played,
    /// Passed out: no player bid (Law 22A).
    PassedOut,
    /// Cancelled by a redeal (Law 10).
    Redealt,
}

/// Which player shuffles the deck for the first deal of a rubber: the player on the dealer's
/// left (Law 4).
pub const fn first_shuffler(dealer: Seat) -> Seat {
    dealer.lho()
}

/// Which player shuffles the other deck for the next deal while `dealer` deals: the dealer's
/// partner, who places it on his right (Law 4).
pub const fn next_deck_preparer(dealer: Seat) -> Seat {
    dealer.partner()
}

/// Which player cuts: the dealer's right-hand opponent, and no one else (Law 5; also for a
/// new cut, Law 6).
pub const fn cutter(dealer: Seat) -> Seat {
    dealer.rho()
}

/// A cut of the deck: the number of cards lifted off the top (Law 5: "each portion must
/// contain at least four cards").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cut(u8);

impl Cut {
    /// The fewest cards a portion of the cut may hold (Law 5).
    pub const MIN_PORTION: u8 = 4;

    /// A cut lifting `top` cards off a deck of 52; each portion must hold at least four
    /// (Law 5).
    pub const fn new(top: u8) -> Result<Cut, DealRuleError> {
        if top >= Self::MIN_PORTION && top <= 52 - Self::MIN_PORTION {
            Ok(Cut(top))
        } else {
            Err(DealRuleError::ShortCut { top })
        }
    }

    /// The number of cards lifted off.
    pub const fn top(self) -> u8 {
        self.0
    }
}

/// Why a new shuffle is required before the deal (Law 6), which decides who shuffles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NewShuffle {
    /// A player demands one before the dealer has picked up the deck: the player designated
    /// to prepare the deck shuffles again (Law 6, first case).
    DemandedBeforePickUp,
    /// A player demands one after the dealer has picked up the deck but before the first card
    /// is dealt: only the dealer shuffles (Law 6A).
    DemandedAfterPickUp,
    /// A card was turned face up in shuffling: whoever was shuffling shuffles again (Law 6B).
    CardFaceUpInShuffling,
    /// A card was turned face up in cutting: only the dealer shuffles (Law 6C).
    CardFaceUpInCutting,
    /// There is a redeal (Law 6D, Law 10): the deck is shuffled and cut anew; the dealer of the
    /// redeal is entitled to the final shuffle (Law 4).
    Redeal,
}

impl NewShuffle {
    /// Who shuffles: `dealer` deals this deal, `preparer` was designated to prepare the deck
    /// (Law 4), `was_shuffling` was shuffling when a card turned face up. Every new shuffle is
    /// followed by a new cut by the dealer's right-hand opponent (Law 6, Law 5).
    pub const fn shuffler(self, dealer: Seat, preparer: Seat, was_shuffling: Seat) -> Seat {
        match self {
            NewShuffle::DemandedBeforePickUp => preparer,
            NewShuffle::CardFaceUpInShuffling => was_shuffling,
            NewShuffle::DemandedAfterPickUp | NewShuffle::CardFaceUpInCutting | NewShuffle::Redeal => dealer,
        }
    }

    /// The section of Law 6 that applies.
    pub const fn law(self) -> Law {
        match self {
            NewShuffle::DemandedBeforePickUp => Law::rubber(6, ""),
            NewShuffle::DemandedAfterPickUp => Law::rubber(6, "A"),
            NewShuffle::CardFaceUpInShuffling => Law::rubber(6, "B"),
            NewShuffle::CardFaceUpInCutting => Law::rubber(6, "C"),
            NewShuffle::Redeal => Law::rubber(6, "D"),
        }
    }
}

/// The turn to deal, the deck, and (in Chicago) the count of deals at one table during a
/// rubber: the state the game service keeps between deals.
///
/// Rubber bridge: the deal passes clockwise (Law 9), also after a passed-out deal (Law 22A);
/// after a redeal the same dealer deals again with the same deck (Law 10, Law 7); after a deal
/// out of turn that stood, rotation continues from the player who actually dealt (Law 9).
///
/// Chicago: a passed-out deal is dealt again by the same dealer and does not count (Appendix
/// 4 B); a deal out of turn does not affect the rotation (Appendix 4 G); the rubber is four
/// counted deals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DealerRotation {
    form: GameForm,
    dealer: Seat,
    deck: Deck,
    preparer: Seat,
    counted: u8,
    prepared_deck_after_pass_out: bool,
}

impl DealerRotation {
    /// The rotation at the start of a rubber: the first dealer and the deck he chose (Law 3).
    /// The deck for the first deal is shuffled by the player on the dealer's left (Law 4).
    pub const fn new(form: GameForm, first_dealer: Seat, deck: Deck) -> DealerRotation {
        DealerRotation {
            form,
            dealer: first_dealer,
            deck,
            preparer: first_shuffler(first_dealer),
            counted: 0,
            prepared_deck_after_pass_out: false,
        }
    }

    /// Turns on the custom of Appendix 4 H1 (Chicago): "if a deal is passed out, the deck that
    /// has been shuffled for the next deal should be used by the same dealer". Without it the
    /// same dealer deals again with the deck just passed out, shuffled and cut anew.
    #[must_use]
    pub const fn with_prepared_deck_after_pass_out(mut self, on: bool) -> DealerRotation {
        self.prepared_deck_after_pass_out = on;
        self
    }

    /// The form of the game.
    pub const fn form(&self) -> GameForm {
        self.form
    }

    /// The player whose turn it is to deal.
    pub const fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The deck to deal with (Law 7: the two decks alternately, unless there is a redeal).
    pub const fn deck(&self) -> Deck {
        self.deck
    }

    /// The player who prepared (shuffled) the deck for this deal (Law 4): the dealer's left for
    /// the first deal of a rubber, then the previous dealer's partner; the dealer himself when
    /// the deck is to be shuffled anew for a redeal.
    pub const fn preparer(&self) -> Seat {
        self.preparer
    }

    /// Chicago: how many deals of the rubber have been bid and played (Appendix 4 B). Always
    /// 0 in rubber bridge.
    pub const fn deals_counted(&self) -> u8 {
        self.counted
    }

    /// Chicago: whether the four deals of the rubber have been played (Appendix 4 B). Never
    /// in rubber bridge, whose end the score decides (Law 74).
    pub const fn is_rubber_complete(&self) -> bool {
        matches!(self.form, GameForm::Chicago) && self.counted >= ChicagoDeal::DEALS
    }

    /// Chicago: the number (1-4) of the deal about to be dealt; `None` in rubber bridge or once
    /// the four deals have been played.
    pub const fn chicago_deal(&self) -> Option<ChicagoDeal> {
        match self.form {
            GameForm::Chicago if self.counted < ChicagoDeal::DEALS => Some(ChicagoDeal(self.counted + 1)),
            _ => None,
        }
    }

    /// The rotation after a deal dealt by `actual_dealer` ended as `ending`. `actual_dealer`
    /// differs from [`DealerRotation::dealer`] when the deal was dealt out of turn and stood
    /// (no redeal; see [`DealOutOfTurn`]).
    ///
    /// Fails in Chicago once the rubber's four deals have been played: a fifth deal is void
    /// (Appendix 4 B).
    pub fn finish(&self, actual_dealer: Seat, ending: DealEnding) -> Result<DealerRotation, DealRuleError> {
        if self.is_rubber_complete() {
            return Err(DealRuleError::ChicagoRubberComplete);
        }
        let mut next = *self;
        match (self.form, ending) {
            // Law 10 and Law 9: the same dealer, or the correct dealer after a deal out of
            // turn; Law 7: the same deck, shuffled anew (Law 6D) by the dealer.
            (_, DealEnding::Redealt) => next.preparer = self.dealer,
            // Law 9 and Law 22A: the turn passes in rotation from whoever actually dealt.
            (GameForm::Rubber, DealEnding::Played | DealEnding::PassedOut) => {
                next.dealer = actual_dealer.lho();
                next.deck = self.deck.other();
                next.preparer = next_deck_preparer(actual_dealer);
            }
            // Appendix 4 G: the rotation is not affected by a deal out of turn.
            (GameForm::Chicago, DealEnding::Played) => {
                next.dealer = self.dealer.lho();
                next.deck = self.deck.other();
                next.preparer = next_deck_preparer(actual_dealer);
                next.counted += 1;
            }
            // Appendix 4 B: the same player deals again and the deal does not count; H1: with
            // the deck already shuffled for the next deal.
            (GameForm::Chicago, DealEnding::PassedOut) => {
                if self.prepared_deck_after_pass_out {
                    next.deck = self.deck.other();
                    next.preparer = next_deck_preparer(actual_dealer);
                } else {
                    next.preparer = self.dealer;
                }
            }
        }
        Ok(next)
    }

    /// Chicago: the vulnerability of the deal about to be dealt (Appendix 4 C), determined by
    /// the position of the player who should deal it (Appendix 4 G), with the agreed switch of
    /// deals 2 and 3 if `switched`. `None` in rubber bridge, where vulnerability is earned
    /// (Law 73), or once the rubber is complete.
    pub fn chicago_vulnerability(&self, switched: bool) -> Option<Vulnerability> {
        self.chicago_deal().map(|deal| deal.vulnerability(self.dealer, switched))
    }
}

/// The number of a deal in a Chicago rubber: 1 to 4 (Appendix 4 B: "a series of four deals
/// that have been bid and played").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChicagoDeal(u8);

impl ChicagoDeal {
    /// The number of deals in a Chicago rubber (Appendix 4 B).
    pub const DEALS: u8 = 4;

    /// Deal `number` (1-4) of a Chicago rubber; a fifth or later deal is an error naming
    /// Appendix 4 B (see [`ChicagoDeal::extra_deal`] for whether it stands).
    pub const fn new(number: u8) -> Result<ChicagoDeal, DealRuleError> {
        if number >= 1 && number <= Self::DEALS {
            Ok(ChicagoDeal(number))
        } else {
            Err(DealRuleError::NotAChicagoDeal { number })
        }
    }

    /// The number, 1-4.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The vulnerability of this deal (Appendix 4 C): first deal neither side; second and
    /// third the dealer's side only (or, if `switched` by mutual agreement, the other side
    /// only); fourth both sides. `dealer` is the player who should have dealt (Appendix 4 G:
    /// vulnerability follows his position, whoever actually dealt).
    pub const fn vulnerability(self, dealer: Seat, switched: bool) -> Vulnerability {
        let dealer_ns = matches!(dealer.side(), crate::seat::Side::NorthSouth);
        match self.0 {
            1 => Vulnerability::None,
            2 | 3 => {
                let ns = dealer_ns != switched;
                Vulnerability::from_sides(ns, !ns)
            }
            _ => Vulnerability::Both,
        }
    }

    /// Whether a deal played beyond the fourth counts (Appendix 4 B): a fifth deal is void if
    /// attention is drawn to it before a new cut for partners or the end of the game
    /// (`noticed_in_time`), otherwise its score stands; a sixth or later deal is always void.
    /// `number` is the deal's count among the deals bid and played (5, 6, ...).
    pub const fn extra_deal(number: u8, noticed_in_time: bool) -> ExtraDeal {
        match number {
            0..=4 => ExtraDeal::Counts,
            5 if !noticed_in_time => ExtraDeal::ScoreStands,
            _ => ExtraDeal::Void,
        }
    }
}

impl fmt::Display for ChicagoDeal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "deal {}", self.0)
    }
}

/// What becomes of a Chicago deal by its count (Appendix 4 B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtraDeal {
    /// One of the four deals of the rubber.
    Counts,
    /// A fifth deal not noticed in time: its score stands as recorded.
    ScoreStands,
    /// Void: a fifth deal noticed in time, or any sixth or later deal; no score for it.
    Void,
}

/// A duplicate board (Law 2 of the Laws of Duplicate Bridge): numbered from 1, with its dealer
/// and vulnerability fixed by the number in a cycle of sixteen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board(NonZeroU32);

impl Board {
    /// Vulnerability of boards 1-16 in order (Law 2, duplicate); "the same sequence is repeated
    /// for Boards 17-32 and for each subsequent group of 16 boards".
    const VULNERABILITY: [Vulnerability; 16] = {
        use Vulnerability::{Both as B, EastWest as E, None as O, NorthSouth as N};
        [O, N, E, B, N, E, B, O, E, B, O, N, B, O, N, E]
    };

    /// Board `number`; boards are numbered from 1 (Law 2, duplicate).
    pub const fn new(number: u32) -> Result<Board, DealRuleError> {
        match NonZeroU32::new(number) {
            Some(n) => Ok(Board(n)),
            None => Err(DealRuleError::NoBoardZero),
        }
    }

    /// The board number.
    pub const fn number(self) -> u32 {
        self.0.get()
    }

    /// The dealer (Law 2, duplicate): North on boards 1, 5, 9, 13, East on 2, 6, 10, 14, South
    /// on 3, 7, 11, 15, West on 4, 8, 12, 16, and so on for every group of sixteen.
    pub const fn dealer(self) -> Seat {
        Seat::from_index(((self.0.get() - 1) % 4) as usize)
    }

    /// The vulnerability (Law 2, duplicate): neither side on 1, 8, 11, 14; North-South on 2, 5,
    /// 12, 15; East-West on 3, 6, 9, 16; both on 4, 7, 10, 13; and so on for every group of
    /// sixteen.
    pub const fn vulnerability(self) -> Vulnerability {
        Self::VULNERABILITY[((self.0.get() - 1) % 16) as usize]
    }

    /// The conditions that apply to this board in play (Law 2, duplicate): those Law 2 gives,
    /// unless the board in use is marked otherwise, in which case "the conditions marked on it
    /// apply for that session".
    pub fn conditions(self, marked: Option<BoardMarking>) -> BoardConditions {
        let by_law = BoardMarking { dealer: self.dealer(), vulnerability: self.vulnerability() };
        match marked {
            Some(marking) => BoardConditions { marking, conforms: marking == by_law },
            None => BoardConditions { marking: by_law, conforms: true },
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board {}", self.0)
    }
}

/// The dealer and vulnerability a board shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardMarking {
    /// The dealer marked.
    pub dealer: Seat,
    /// The vulnerability marked.
    pub vulnerability: Vulnerability,
}

/// The dealer and vulnerability that apply to a board for the session, and whether the board
/// conforms to Law 2 (a board that does not "should not be used", but if used, its marking
/// applies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardConditions {
    /// The conditions that apply.
    pub marking: BoardMarking,
    /// Whether they are the ones Law 2 gives for the board number.
    pub conforms: bool,
}

/// A reason Law 10 requires a redeal, if discovered in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RedealCondition {
    /// A card was turned face up in dealing, or is face up in the deck or elsewhere (Law 10A1).
    CardFaceUp,
    /// The cards have not been dealt correctly (Law 10A2; Law 8).
    DealtIncorrectly,
    /// A player is dealing out of turn (Law 10A3; Law 9).
    DealtOutOfTurn,
    /// A player is dealing with a deck that was not shuffled (Law 10A3).
    DeckNotShuffled,
    /// A player is dealing with a deck that was not cut (Law 10A3).
    DeckNotCut,
    /// A player has picked up another player's hand and has seen a card in it (Law 10B).
    SawCardOfAnotherHand,
    /// The deck did not conform to Law 1, including a missing card not found after due search
    /// (Law 10C1).
    DeckNotConforming,
    /// One player has picked up too many cards, another too few (Law 10C2).
    TooManyAndTooFew,
    /// Two or more players on opposing sides have let cards from their hands be mixed
    /// together (Law 10C3).
    OpponentsCardsMixed,
}

impl RedealCondition {
    /// The section of Law 10 that names the condition.
    pub const fn law(self) -> Law {
        match self {
            RedealCondition::CardFaceUp => Law::rubber(10, "A1"),
            RedealCondition::DealtIncorrectly => Law::rubber(10, "A2"),
            RedealCondition::DealtOutOfTurn | RedealCondition::DeckNotShuffled | RedealCondition::DeckNotCut => {
                Law::rubber(10, "A3")
            }
            RedealCondition::SawCardOfAnotherHand => Law::rubber(10, "B"),
            RedealCondition::DeckNotConforming => Law::rubber(10, "C1"),
            RedealCondition::TooManyAndTooFew => Law::rubber(10, "C2"),
            RedealCondition::OpponentsCardsMixed => Law::rubber(10, "C3"),
        }
    }

    /// The last stage at which discovering the condition still requires a redeal (Law 10):
    /// A before the last card is dealt, B before the first call, C before play is completed.
    pub const fn last_stage(self) -> DealStage {
        match self {
            RedealCondition::CardFaceUp
            | RedealCondition::DealtIncorrectly
            | RedealCondition::DealtOutOfTurn
            | RedealCondition::DeckNotShuffled
            | RedealCondition::DeckNotCut => DealStage::Dealing,
            RedealCondition::SawCardOfAnotherHand => DealStage::BeforeFirstCall,
            RedealCondition::DeckNotConforming
            | RedealCondition::TooManyAndTooFew
            | RedealCondition::OpponentsCardsMixed => DealStage::Play,
        }
    }

    /// Whether a redeal is required (Law 10), and if so who deals it, given when the condition
    /// was discovered and who dealt (`actual_dealer`) and should have dealt (`correct_dealer`).
    ///
    /// A redeal is dealt by the correct dealer: the same dealer, unless he was dealing out of
    /// turn (Law 10, Law 9: "the deal reverts back to the correct player"). Discovered too
    /// late, the deal stands; the citation then says which Law governs what follows.
    pub const fn ruling(self, discovered: DealStage, actual_dealer: Seat, correct_dealer: Seat) -> RedealRuling {
        if (discovered as u8) <= (self.last_stage() as u8) {
            return RedealRuling::Redeal { dealer: correct_dealer, law: self.law() };
        }
        let law = match self {
            // Law 9: the deal stands as though in turn (Appendix 4 G in Chicago).
            RedealCondition::DealtOutOfTurn if actual_dealer as u8 != correct_dealer as u8 => Law::rubber(9, ""),
            // Law 11 / Law 12: a redeal is not required by Law 10C and the deal stands; a
            // deck found incorrect after play stands as scored (Law 79).
            RedealCondition::TooManyAndTooFew => Law::rubber(11, ""),
            RedealCondition::DeckNotConforming => Law::rubber(79, ""),
            _ => self.law(),
        };
        RedealRuling::DealStands { law }
    }

    /// The ruling on one player's claim of a redeal: as [`RedealCondition::ruling`], except
    /// that "a player who [looks at the face of a card before the deal is completed] forfeits
    /// those rights to ... redeal" (Law 8). His claim is then refused; another player's claim
    /// of the same redeal is not.
    pub const fn ruling_on_claim(
        self,
        discovered: DealStage,
        actual_dealer: Seat,
        correct_dealer: Seat,
        claimant_looked_during_deal: bool,
    ) -> RedealRuling {
        match self.ruling(discovered, actual_dealer, correct_dealer) {
            RedealRuling::Redeal { .. } if claimant_looked_during_deal => RedealRuling::ClaimForfeited,
            ruling => ruling,
        }
    }
}

/// Whether a deck must be replaced or restored (Law 7): a deck with a card so damaged or
/// marked that it can be identified from its back must be replaced, and a deck that belonged
/// to a side must be restored on demand, if attention is drawn "before the last card of the
/// current deal has been dealt" (`stage` is [`DealStage::Dealing`]) by a player who has not
/// forfeited the right by looking at a card during the deal (Law 8).
pub const fn deck_change_due(stage: DealStage, claimant_looked_during_deal: bool) -> bool {
    matches!(stage, DealStage::Dealing) && !claimant_looked_during_deal
}

/// Law 10's answer for one condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RedealRuling {
    /// There must be a redeal, dealt by `dealer` with the same deck (unless replaced under
    /// Law 7), shuffled and cut anew (Law 10, Law 6D).
    Redeal {
        /// Who deals the redeal.
        dealer: Seat,
        /// The section of Law 10 that requires it.
        law: Law,
    },
    /// Discovered too late: the deal stands.
    DealStands {
        /// The Law under which it stands or that governs what follows.
        law: Law,
    },
    /// The claimant looked at a card before the deal was completed and so forfeited his right
    /// to a redeal (Law 8); the other players keep theirs.
    ClaimForfeited,
}

impl RedealRuling {
    /// The Law the ruling applies.
    pub const fn law(self) -> Law {
        match self {
            RedealRuling::Redeal { law, .. } | RedealRuling::DealStands { law } => law,
            RedealRuling::ClaimForfeited => Law::rubber(8, ""),
        }
    }
}

/// A deal by the wrong player (Law 9; Law 10A3; in Chicago Appendix 4 G).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DealOutOfTurn {
    actual: Seat,
    correct: Seat,
}

impl DealOutOfTurn {
    /// A deal by `actual_dealer` when it was `correct_dealer`'s turn; they must differ.
    pub const fn new(actual_dealer: Seat, correct_dealer: Seat) -> Result<DealOutOfTurn, DealRuleError> {
        if actual_dealer as u8 == correct_dealer as u8 {
            Err(DealRuleError::DealWasInTurn { dealer: actual_dealer })
        } else {
            Ok(DealOutOfTurn { actual: actual_dealer, correct: correct_dealer })
        }
    }

    /// Who dealt.
    pub const fn actual_dealer(self) -> Seat {
        self.actual
    }

    /// Whose turn it was.
    pub const fn correct_dealer(self) -> Seat {
        self.correct
    }

    /// What follows when attention is drawn to the deal out of turn at stage `noticed`.
    ///
    /// Noticed before the last card is dealt: a redeal by the correct dealer (Law 10A3, Law 9;
    /// Chicago follows the rubber Laws here, Appendix 4 A, since G applies only "when there is
    /// no right to a redeal"). Later, in rubber bridge the deal stands as though in turn: the
    /// actual dealer is the dealer and rotation continues from him (Law 9). In Chicago the
    /// deal stands but rotation, vulnerability and scoring follow the player who should have
    /// dealt, who may claim the first call (Appendix 4 G).
    pub const fn ruling(self, form: GameForm, noticed: DealStage) -> OutOfTurnRuling {
        if matches!(noticed, DealStage::Dealing) {
            return OutOfTurnRuling::Redeal { dealer: self.correct };
        }
        match form {
            GameForm::Rubber => OutOfTurnRuling::RubberStands { dealer: self.actual, next_dealer: self.actual.lho() },
            GameForm::Chicago => OutOfTurnRuling::ChicagoStands(ChicagoOutOfTurn { deal: self }),
        }
    }
}

/// What follows a deal out of turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutOfTurnRuling {
    /// Redeal by the correct dealer (Law 10A3, Law 9).
    Redeal {
        /// The correct dealer.
        dealer: Seat,
    },
    /// Rubber bridge, noticed after the last card was dealt: "the deal stands as though it had
    /// been in turn"; the player who dealt is the dealer and makes the first call; the player
    /// who missed his turn has no redress; rotation continues from the actual dealer (Law 9).
    RubberStands {
        /// The dealer: the player who dealt.
        dealer: Seat,
        /// The next dealer: the actual dealer's left-hand opponent.
        next_dealer: Seat,
    },
    /// Chicago, no right to a redeal (Appendix 4 G).
    ChicagoStands(ChicagoOutOfTurn),
}

impl CitesLaw for OutOfTurnRuling {
    fn law(&self) -> Law {
        match self {
            OutOfTurnRuling::Redeal { .. } => Law::rubber(10, "A3"),
            OutOfTurnRuling::RubberStands { .. } => Law::rubber(9, ""),
            OutOfTurnRuling::ChicagoStands(_) => Law::chicago('G', ""),
        }
    }
}

/// A Chicago deal out of turn that stands (Appendix 4 G).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChicagoOutOfTurn {
    deal: DealOutOfTurn,
}

impl ChicagoOutOfTurn {
    /// Who makes the first call: the player who should have dealt "retains his right to call
    /// first, but such right is lost if it is not claimed before the actual dealer calls"; if
    /// the actual dealer calls first, the others call in rotation after him.
    pub const fn first_caller(self, claimed_before_actual_dealer_called: bool) -> Seat {
        if claimed_before_actual_dealer_called { self.deal.correct } else { self.deal.actual }
    }

    /// The seat whose position determines vulnerability and scoring values: the player who
    /// should have dealt, "regardless of which players actually dealt or called first".
    pub const fn vulnerability_dealer(self) -> Seat {
        self.deal.correct
    }

    /// The next dealer: "the player who would have dealt next if the deal had been in turn".
    pub const fn next_dealer(self) -> Seat {
        self.deal.correct.lho()
    }

    /// The player who actually dealt.
    pub const fn actual_dealer(self) -> Seat {
        self.deal.actual
    }
}

/// A deal-procedure input that the Laws do not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealRuleError {
    /// A cut must leave at least four cards in each portion (Law 5).
    #[error("a cut of {top} cards leaves a portion of fewer than four cards (Law 5)")]
    ShortCut {
        /// The number of cards lifted off.
        top: u8,
    },
    /// Duplicate boards are numbered from 1 (Law 2 of the Laws of Duplicate Bridge).
    #[error("there is no board 0; boards are numbered from 1 (Law 2 of the Laws of Duplicate Bridge)")]
    NoBoardZero,
    /// A Chicago rubber has four deals (Appendix 4 B).
    #[error("a Chicago rubber has deals 1 to 4, not deal {number} (rule B of Chicago)")]
    NotAChicagoDeal {
        /// The number given.
        number: u8,
    },
    /// The four deals of a Chicago rubber have been played; a fifth is void (Appendix 4 B).
    #[error("the four deals of this Chicago rubber have been played; a fifth deal is void (rule B of Chicago)")]
    ChicagoRubberComplete,
    /// A deal out of turn names the same dealer twice (Law 9).
    #[error("{dealer} dealt in turn; this is not a deal out of turn (Law 9)")]
    DealWasInTurn {
        /// The dealer.
        dealer: Seat,
    },
}

impl CitesLaw for DealRuleError {
    fn law(&self) -> Law {
        match self {
            DealRuleError::ShortCut { .. } => Law::rubber(5, ""),
            DealRuleError::NoBoardZero => Law::duplicate(2, ""),
            DealRuleError::NotAChicagoDeal { .. } | DealRuleError::ChicagoRubberComplete => Law::chicago('B', ""),
            DealRuleError::DealWasInTurn { .. } => Law::rubber(9, ""),
        }
    }
}
