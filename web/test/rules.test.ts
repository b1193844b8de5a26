// What the screens offer, without a browser: the calls the bidding box enables (Laws 18 and 19:
// a sufficient bid; a double of an opponent's bid; a redouble of an opponent's double) and the
// cards a player may play (Law 44: following suit), from a view as the server sends it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { create } from "@bufbuild/protobuf";
import { CardSchema as CardSchemaLike, Seat, Suit } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import { type Call, CallSchema, Denomination } from "@bridgeclub/client/gen/bridgeclub/common/v1/contract_pb.js";
import { CallStatus, DealPhase, TableViewSchema, ViewerKind } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";

import { callAllowed, cardAllowed, seatToPlay } from "../src/rules.js";

const bid = (level: number, denomination: Denomination): Call =>
  create(CallSchema, { kind: { case: "bid", value: { level, denomination } } });
const pass = create(CallSchema, { kind: { case: "pass", value: {} } });
const double = create(CallSchema, { kind: { case: "double", value: {} } });
const redouble = create(CallSchema, { kind: { case: "redouble", value: {} } });
const NT = Denomination.NO_TRUMP;

/** An auction dealt by North, `calls` made in rotation (a [call, status] pair for a cancelled one). */
function auction(viewer: Seat, calls: (Call | [Call, CallStatus])[]) {
  const seats = [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST];
  const entries = calls.map((c, index) => {
    const [call, status] = Array.isArray(c) ? c : [c, CallStatus.LEGAL];
    return { index, seat: seats[index % 4], call, status };
  });
  const standing = entries.filter((e) => e.status !== CallStatus.CANCELLED).length;
  return create(TableViewSchema, {
    phase: DealPhase.AUCTION,
    viewer: { kind: ViewerKind.PLAYER, seat: viewer },
    auction: entries,
    nextToAct: seats[standing % 4],
  });
}

describe("the bidding box", () => {
  test("opens with every bid and a pass, nothing to double", () => {
    const view = auction(Seat.NORTH, []);
    assert.ok(callAllowed(view, Seat.NORTH, bid(1, Denomination.CLUBS)));
    assert.ok(callAllowed(view, Seat.NORTH, bid(7, NT)));
    assert.ok(callAllowed(view, Seat.NORTH, pass));
    assert.ok(!callAllowed(view, Seat.NORTH, double));
    assert.ok(!callAllowed(view, Seat.NORTH, redouble));
    // Not his turn: nothing.
    assert.ok(!callAllowed(view, Seat.EAST, pass));
  });

  test("offers only sufficient bids, and a double of an opponent's bid", () => {
    const view = auction(Seat.EAST, [bid(1, NT)]);
    assert.ok(!callAllowed(view, Seat.EAST, bid(1, Denomination.SPADES)), "1S is insufficient over 1NT");
    assert.ok(!callAllowed(view, Seat.EAST, bid(1, NT)));
    assert.ok(callAllowed(view, Seat.EAST, bid(2, Denomination.CLUBS)));
    assert.ok(callAllowed(view, Seat.EAST, double));
    assert.ok(!callAllowed(view, Seat.EAST, redouble));
    // South may not double his partner's bid.
    const partner = auction(Seat.SOUTH, [bid(1, NT), pass]);
    assert.ok(!callAllowed(partner, Seat.SOUTH, double));
    // After two passes West may double North's bid (the last call other than a pass).
    assert.ok(callAllowed(auction(Seat.WEST, [bid(1, NT), pass, pass]), Seat.WEST, double));
  });

  test("offers a redouble of an opponent's double only", () => {
    assert.ok(callAllowed(auction(Seat.SOUTH, [bid(1, NT), double]), Seat.SOUTH, redouble));
    assert.ok(!callAllowed(auction(Seat.WEST, [bid(1, NT), double, pass]), Seat.WEST, redouble), "East's partner");
    assert.ok(callAllowed(auction(Seat.NORTH, [bid(1, NT), double, pass, pass]), Seat.NORTH, redouble));
    assert.ok(!callAllowed(auction(Seat.SOUTH, [bid(1, NT), double]), Seat.SOUTH, double));
  });

  test("ignores cancelled calls", () => {
    // East's 2C was cancelled (not accepted, Law 29B): South calls over North's 1NT still.
    const view = auction(Seat.EAST, [bid(1, NT), [bid(2, Denomination.CLUBS), CallStatus.CANCELLED]]);
    assert.equal(view.nextToAct, Seat.EAST);
    assert.ok(callAllowed(view, Seat.EAST, bid(2, Denomination.CLUBS)));
    assert.ok(callAllowed(view, Seat.EAST, double));
  });
});

/** North declares, South is dummy; East led a spade; `viewer` looks, `next` is to play. */
function play(viewer: Seat, next: Seat, hands: Partial<Record<Seat, [Suit, number][]>>) {
  return create(TableViewSchema, {
    phase: DealPhase.PLAY,
    viewer: { kind: ViewerKind.PLAYER, seat: viewer },
    contract: { contract: { bid: { level: 1, denomination: NT } }, declarer: Seat.NORTH },
    hands: Object.entries(hands).map(([seat, cards]) => ({
      seat: Number(seat),
      hand: { cards: cards!.map(([suit, rank]) => ({ suit, rank })) },
    })),
    tricks: [{ number: 1, leader: Seat.EAST, cards: [{ seat: Seat.EAST, card: { suit: Suit.SPADES, rank: 14 } }] }],
    nextToAct: next,
  });
}

describe("the cards offered", () => {
  const spade = { suit: Suit.SPADES, rank: 2 };
  const heart = { suit: Suit.HEARTS, rank: 13 };

  test("follow suit when the hand can", () => {
    const dummy = play(Seat.NORTH, Seat.SOUTH, { [Seat.NORTH]: [[Suit.CLUBS, 5]], [Seat.SOUTH]: [[Suit.SPADES, 2], [Suit.HEARTS, 13]] });
    assert.equal(seatToPlay(dummy), Seat.SOUTH, "declarer plays dummy's cards");
    assert.ok(cardAllowed(dummy, Seat.SOUTH, create(CardSchemaLike, spade)));
    assert.ok(!cardAllowed(dummy, Seat.SOUTH, create(CardSchemaLike, heart)), "a heart while holding a spade");
    const void_ = play(Seat.NORTH, Seat.SOUTH, { [Seat.SOUTH]: [[Suit.HEARTS, 13]] });
    assert.ok(cardAllowed(void_, Seat.SOUTH, create(CardSchemaLike, heart)), "void in spades: anything");
  });

  test("nobody plays out of turn, and dummy plays nothing himself", () => {
    const view = play(Seat.SOUTH, Seat.SOUTH, { [Seat.SOUTH]: [[Suit.SPADES, 2]] });
    assert.equal(seatToPlay(view), undefined, "dummy does not play his own cards");
    const west = play(Seat.WEST, Seat.SOUTH, { [Seat.WEST]: [[Suit.SPADES, 3]] });
    assert.equal(seatToPlay(west), undefined);
    assert.ok(!cardAllowed(west, Seat.WEST, create(CardSchemaLike, { suit: Suit.SPADES, rank: 3 })));
  });
});
