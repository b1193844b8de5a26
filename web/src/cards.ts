// Cards, seats and calls as the screens show them.

import { type Card, Rank, Seat, Suit } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import { type Call, Denomination } from "@bridgeclub/client/gen/bridgeclub/common/v1/contract_pb.js";

export { Denomination, Rank, Seat, Suit };
export type { Call, Card };

/** Suits as a hand is read: spades first. */
export const SUITS_HIGH_FIRST = [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS];

export const SUIT_SYMBOL: Record<number, string> = {
  [Suit.SPADES]: "♠",
  [Suit.HEARTS]: "♥",
  [Suit.DIAMONDS]: "♦",
  [Suit.CLUBS]: "♣",
};
export const SUIT_NAME: Record<number, string> = {
  [Suit.SPADES]: "spades",
  [Suit.HEARTS]: "hearts",
  [Suit.DIAMONDS]: "diamonds",
  [Suit.CLUBS]: "clubs",
};
const SUIT_LETTER: Record<number, string> = { [Suit.SPADES]: "S", [Suit.HEARTS]: "H", [Suit.DIAMONDS]: "D", [Suit.CLUBS]: "C" };
const RANK_NAMES = ["", "", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];

export function rankText(rank: Rank): string {
  return rank <= 9 ? String(rank) : "TJQKA"[rank - 10];
}

/** The card's code, as the tests and PBN name it: suit letter then rank ("SA", "HT"). */
export function cardCode(card: Card): string {
  return SUIT_LETTER[card.suit] + rankText(card.rank);
}

/** For screen readers: "queen of hearts". */
export function cardName(card: Card): string {
  return `${RANK_NAMES[card.rank]} of ${SUIT_NAME[card.suit]}`;
}

export function isRed(suit: Suit): boolean {
  return suit === Suit.HEARTS || suit === Suit.DIAMONDS;
}

export const SEAT_NAME: Record<number, string> = {
  [Seat.NORTH]: "North",
  [Seat.EAST]: "East",
  [Seat.SOUTH]: "South",
  [Seat.WEST]: "West",
};

/** The seat `steps` places clockwise from `seat` (1: left-hand opponent, 2: partner). */
export function clockwise(seat: Seat, steps: number): Seat {
  return (((seat - 1 + steps) % 4) + 1) as Seat;
}

export function partnerOf(seat: Seat): Seat {
  return clockwise(seat, 2);
}

export const DENOMINATIONS = [Denomination.CLUBS, Denomination.DIAMONDS, Denomination.HEARTS, Denomination.SPADES, Denomination.NO_TRUMP];
export const DENOMINATION_SYMBOL: Record<number, string> = {
  [Denomination.CLUBS]: "♣",
  [Denomination.DIAMONDS]: "♦",
  [Denomination.HEARTS]: "♥",
  [Denomination.SPADES]: "♠",
  [Denomination.NO_TRUMP]: "NT",
};
const DENOMINATION_NAME: Record<number, string> = {
  [Denomination.CLUBS]: "clubs",
  [Denomination.DIAMONDS]: "diamonds",
  [Denomination.HEARTS]: "hearts",
  [Denomination.SPADES]: "spades",
  [Denomination.NO_TRUMP]: "no trump",
};

export function callText(call: Call | undefined): string {
  switch (call?.kind.case) {
    case "bid":
      return `${call.kind.value.level}${DENOMINATION_SYMBOL[call.kind.value.denomination]}`;
    case "pass":
      return "Pass";
    case "double":
      return "Dbl";
    case "redouble":
      return "Rdbl";
    default:
      return "?";
  }
}

export function callName(call: Call | undefined): string {
  switch (call?.kind.case) {
    case "bid":
      return `${call.kind.value.level} ${DENOMINATION_NAME[call.kind.value.denomination]}`;
    case "pass":
      return "pass";
    case "double":
      return "double";
    case "redouble":
      return "redouble";
    default:
      return "unknown call";
  }
}

export function isRedDenomination(denomination: Denomination): boolean {
  return denomination === Denomination.HEARTS || denomination === Denomination.DIAMONDS;
}
