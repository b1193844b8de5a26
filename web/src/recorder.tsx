// The recorder of a deal played with physical cards (a recorded table): the desk, or the table's
// tablet signed in as desk, enters each call and card as it happens, for whichever seat made it. What
// happened is a fact: a call out of rotation, an insufficient bid, a lead by the wrong defender are
// recorded as made, and the server applies the Laws to them (rectification options, an arbiter call
// under the Alternative Club Laws). The seat to act is chosen by default; choosing another records an
// action out of turn.
//
// The card picker shows the whole deck, not anybody's hand: the server does not know the hands of a
// deal recorded without them, and the picker gives away nothing by listing the 52 cards. Its buttons
// carry data-pick, not data-card, so that the browser tests' check of who is shown which card counts
// only cards shown as held or played.

import { Side } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import { type Honors, HonorsKind } from "@bridgeclub/client/gen/bridgeclub/common/v1/result_pb.js";
import { DealPhase, type TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import { useEffect, useState } from "preact/hooks";

import { BiddingBox } from "./bidding.js";
import { type Call, type Card, cardCode, cardName, isRed, Rank, rankText, SEAT_NAME, type Seat, SUIT_NAME, SUIT_SYMBOL, SUITS_HIGH_FIRST } from "./cards.js";

const RANKS_HIGH_FIRST = [Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO];

export function Recorder({
  view,
  seats,
  busy,
  onCall,
  onPlay,
  onResult,
}: {
  view: TableView;
  /** The seats this viewer records for: all four for the desk. */
  seats: Seat[];
  busy: boolean;
  onCall: (seat: Seat, call: Call) => void;
  onPlay: (seat: Seat, card: Card) => void;
  /** The result of a deal whose play is not recorded: tricks won by declarer, and honors held. */
  onResult: (tricks: number, honors: Honors[]) => void;
}) {
  const [chosen, setChosen] = useState<Seat>();
  // After every change at the table, the seat to act again.
  useEffect(() => setChosen(undefined), [view.version]);
  const inTurn = seats.includes(view.nextToAct) ? view.nextToAct : undefined;
  const seat = chosen ?? inTurn ?? seats[0];
  if (view.phase === DealPhase.RESULT_ENTRY) return <ResultEntry view={view} busy={busy} onResult={onResult} />;
  if (view.phase !== DealPhase.AUCTION && view.phase !== DealPhase.PLAY) return null;
  return (
    <section class="recorder card" aria-labelledby={`recorder-${view.tableId}`} data-testid="recorder">
      <h2 id={`recorder-${view.tableId}`}>Record (physical cards)</h2>
      <label>
        Who {view.phase === DealPhase.AUCTION ? "called" : "played"}
        <select name="recorder-seat" value={seat} onChange={(e) => setChosen(Number(e.currentTarget.value) as Seat)}>
          {seats.map((s) => (
            <option value={s} key={s}>
              {SEAT_NAME[s]}
              {s === view.nextToAct ? " (in turn)" : ""}
            </option>
          ))}
        </select>
      </label>
      {view.phase === DealPhase.AUCTION ? (
        <BiddingBox view={view} seat={seat} onCall={onCall} busy={busy} anyCall />
      ) : (
        <CardPicker view={view} seat={seat} busy={busy} onPlay={onPlay} />
      )}
    </section>
  );
}

/** The deck by suit; a card already played, or shown in another seat's hand, cannot be picked. */
function CardPicker({ view, seat, busy, onPlay }: { view: TableView; seat: Seat; busy: boolean; onPlay: (seat: Seat, card: Card) => void }) {
  const gone = new Set(view.tricks.flatMap((t) => t.cards.flatMap((c) => (c.card ? [cardCode(c.card)] : []))));
  const own = view.hands.find((h) => h.seat === seat)?.hand?.cards;
  const elsewhere = new Set(view.hands.filter((h) => h.seat !== seat).flatMap((h) => h.hand?.cards.map(cardCode) ?? []));
  const pickable = (card: Card) => {
    const code = cardCode(card);
    if (gone.has(code) || elsewhere.has(code)) return false;
    return own ? own.some((c) => cardCode(c) === code) : true;
  };
  return (
    <div class="picker" role="group" aria-label={`${SEAT_NAME[seat]}'s card`}>
      {SUITS_HIGH_FIRST.map((suit) => (
        <div class={`suit ${isRed(suit) ? "red" : "black"}`} key={suit}>
          <span class="suit-symbol" aria-label={SUIT_NAME[suit]} role="img">
            {SUIT_SYMBOL[suit]}
          </span>
          {RANKS_HIGH_FIRST.map((rank) => {
            const card = { suit, rank } as Card;
            return (
              <button
                type="button"
                class="card-face"
                key={rank}
                data-pick={cardCode(card)}
                aria-label={`${rankText(rank)}, record ${SEAT_NAME[seat]}'s ${cardName(card)}`}
                disabled={busy || !pickable(card)}
                onClick={() => onPlay(seat, card)}
              >
                {rankText(rank)}
              </button>
            );
          })}
        </div>
      ))}
    </div>
  );
}

const HONORS: { value: string; label: string; honors?: { side: Side; kind: HonorsKind } }[] = [
  { value: "", label: "None" },
  { value: "ns4", label: "North-South: four trump honors", honors: { side: Side.NORTH_SOUTH, kind: HonorsKind.FOUR_TRUMP_HONORS } },
  { value: "ns5", label: "North-South: five trump honors", honors: { side: Side.NORTH_SOUTH, kind: HonorsKind.FIVE_TRUMP_HONORS } },
  { value: "nsA", label: "North-South: four aces at no trump", honors: { side: Side.NORTH_SOUTH, kind: HonorsKind.FOUR_ACES_AT_NO_TRUMP } },
  { value: "ew4", label: "East-West: four trump honors", honors: { side: Side.EAST_WEST, kind: HonorsKind.FOUR_TRUMP_HONORS } },
  { value: "ew5", label: "East-West: five trump honors", honors: { side: Side.EAST_WEST, kind: HonorsKind.FIVE_TRUMP_HONORS } },
  { value: "ewA", label: "East-West: four aces at no trump", honors: { side: Side.EAST_WEST, kind: HonorsKind.FOUR_ACES_AT_NO_TRUMP } },
];

/**
 * A deal recorded without its hands: the auction is recorded, the play is not (the server cannot
 * check cards it does not know), and the table enters the tricks declarer won and any honors held
 * (Law 81), which the server checks against the contract the auction made.
 */
function ResultEntry({ view, busy, onResult }: { view: TableView; busy: boolean; onResult: (tricks: number, honors: Honors[]) => void }) {
  const [tricks, setTricks] = useState("");
  const [honors, setHonors] = useState("");
  const declarer = view.contract?.declarer;
  return (
    <form
      class="recorder card"
      aria-labelledby={`result-${view.tableId}`}
      data-testid="result-entry"
      onSubmit={(e) => {
        e.preventDefault();
        const held = HONORS.find((h) => h.value === honors)?.honors;
        onResult(Number(tricks), held ? [held as Honors] : []);
      }}
    >
      <h2 id={`result-${view.tableId}`}>Enter the result</h2>
      <label>
        Tricks won by {declarer ? SEAT_NAME[declarer] : "declarer"}'s side
        <input name="result-tricks" type="number" min={0} max={13} value={tricks} onInput={(e) => setTricks(e.currentTarget.value)} required />
      </label>
      <label>
        Honors
        <select name="result-honors" value={honors} onChange={(e) => setHonors(e.currentTarget.value)}>
          {HONORS.map((h) => (
            <option value={h.value} key={h.value}>
              {h.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy || tricks === ""}>
        Enter the result
      </button>
    </form>
  );
}
