// A hand as a player holds it: by suit, spades first, highest card first. Every card shown carries
// data-card (its code) so that the tests can check that no screen shows a card its viewer may not
// see; a playable card is a button, one that may not be played now is a disabled button.

import type { Card } from "./cards.js";
import { cardCode, cardName, isRed, rankText, SUIT_NAME, SUIT_SYMBOL, SUITS_HIGH_FIRST } from "./cards.js";

export function Hand({
  cards,
  label,
  seatCode,
  playable,
  onPlay,
}: {
  cards: Card[];
  label: string;
  /** The seat's letter, for data-hand. */
  seatCode: string;
  /** Which cards may be played now; absent: the hand is only shown. */
  playable?: (card: Card) => boolean;
  onPlay?: (card: Card) => void;
}) {
  return (
    <section class="hand" aria-label={label} data-hand={seatCode}>
      {SUITS_HIGH_FIRST.map((suit) => {
        const held = cards.filter((c) => c.suit === suit).sort((a, b) => b.rank - a.rank);
        return (
          <div class={`suit ${isRed(suit) ? "red" : "black"}`} key={suit}>
            <span class="suit-symbol" aria-label={SUIT_NAME[suit]} role="img">
              {SUIT_SYMBOL[suit]}
            </span>
            {held.length === 0 && <span class="void">—</span>}
            {held.map((card) =>
              playable ? (
                <button
                  type="button"
                  class="card-face"
                  key={cardCode(card)}
                  data-card={cardCode(card)}
                  aria-label={`${rankText(card.rank)}, play the ${cardName(card)}`}
                  disabled={!playable(card)}
                  onClick={() => onPlay?.(card)}
                >
                  {rankText(card.rank)}
                </button>
              ) : (
                <span class="card-face" key={cardCode(card)} data-card={cardCode(card)} aria-label={cardName(card)} role="img">
                  {rankText(card.rank)}
                </span>
              ),
            )}
          </div>
        );
      })}
    </section>
  );
}

/** A card shown alone (in a trick): suit and rank. */
export function CardFace({ card }: { card: Card }) {
  return (
    <span class={`card-face single ${isRed(card.suit) ? "red" : "black"}`} data-card={cardCode(card)} aria-label={cardName(card)} role="img">
      {SUIT_SYMBOL[card.suit]}
      {rankText(card.rank)}
    </span>
  );
}
