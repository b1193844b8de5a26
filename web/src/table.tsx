// A table as its viewer may see it: for a player his own hand, dummy once the opening lead is faced,
// the auction, the trick under way and the tricks won, the bidding box and his playable cards; for
// the desk the public part only. It renders exactly the hands the server's view holds and asks for
// no one else's view.

import { DealPhase, PlayMode, type TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import { ClaimKind, ClaimReply, ClaimStatus } from "@bridgeclub/client/gen/bridgeclub/game/v1/irregularity_pb.js";
import type { Honors } from "@bridgeclub/client/gen/bridgeclub/common/v1/result_pb.js";
import { TableKind } from "@bridgeclub/client/gen/bridgeclub/common/v1/table_pb.js";
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

import { explain, game, idempotencyKey } from "./api.js";
import {
  type Call,
  type Card,
  DENOMINATION_SYMBOL,
  isRedDenomination,
  partnerOf,
  SEAT_NAME,
  type Seat,
} from "./cards.js";
import { AuctionGrid, BiddingBox } from "./bidding.js";
import { type DeskDeal, DeskNextDeal } from "./deskdeal.js";
import { Draws } from "./draws.js";
import { CardFace, Hand } from "./hand.js";
import { type LiveState, useLive } from "./live.js";
import { around, cardAllowed, cardsLeft, currentTrick, seatToPlay } from "./rules.js";
import { Recorder } from "./recorder.js";
import { Scorepad } from "./scorepad.js";

const SEAT_LETTER: Record<number, string> = { 1: "N", 2: "E", 3: "S", 4: "W" };
const ALL_SEATS = [1, 2, 3, 4] as Seat[];

/** A player records his own calls and cards, and declarer dummy's cards too (Law 45B). */
function recordedBy(view: TableView, seat: Seat): Seat[] {
  const declarer = view.contract?.declarer;
  return declarer === seat && view.phase === DealPhase.PLAY ? [seat, partnerOf(seat)] : [seat];
}

const PHASE: Record<number, string> = {
  [DealPhase.NO_DEAL]: "No deal yet",
  [DealPhase.AUCTION]: "Auction",
  [DealPhase.PLAY]: "Play",
  [DealPhase.CLAIM]: "Claim pending",
  [DealPhase.RESULT_ENTRY]: "Result to enter",
  [DealPhase.FINISHED]: "Deal finished",
  [DealPhase.ABANDONED]: "Deal abandoned",
};

/**
 * Keeps the viewer's view of a table fresh: read once, then again after every event the table's
 * stream brings (a snapshot is the view itself). Reads never overlap; events during a read cause one
 * more read after it.
 */
export function useTableView(tableId: string): { view?: TableView; live: LiveState; reload: () => void; setView: (v: TableView) => void } {
  const [view, setView] = useState<TableView>();
  const reading = useRef<Promise<void> | undefined>(undefined);
  const again = useRef(false);
  const reload = useCallback(() => {
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = (async () => {
      do {
        again.current = false;
        try {
          const answer = await game().getTableState({ tableId });
          if (answer.view) setView(answer.view);
        } catch (error) {
          console.warn("table view", explain(error));
        }
      } while (again.current);
      reading.current = undefined;
    })();
  }, [tableId]);
  const live = useLive(
    tableId,
    (after, signal) => game().watchTable({ tableId, afterSequence: after }, { signal }),
    (response) => {
      const event = response.event?.event;
      if (event?.case === "snapshot") setView(event.value);
      else reload();
    },
  );
  return { view, live, reload, setView };
}

/**
 * Runs one command on the table as last seen (its version): one at a time, the answer's view shown
 * at once, a refusal shown in the server's words and the table read again.
 */
export type TableAct = (action: (view: TableView) => Promise<TableView | undefined>) => Promise<void>;

export function TableScreen({
  tableId,
  title,
  withScorepad = true,
  nested = false,
  recordsAnySeat = false,
  official,
  deskDeal,
  onView,
}: {
  tableId: string;
  title: string;
  withScorepad?: boolean;
  /** The desk's view: at a recorded table it enters every seat's calls and cards. */
  recordsAnySeat?: boolean;
  /** The official's part (the arbiter's screen), shown below the table, acting through its commands. */
  official?: (view: TableView, act: TableAct) => ComponentChildren;
  /** Shown inside another screen (the desk's table card): its heading is not the page's. */
  nested?: boolean;
  /** The desk's rubber: it deals the next deal here while none is under way. */
  deskDeal?: DeskDeal;
  /** Told of every view the table's stream brings (the page's list of arbiter calls follows it). */
  onView?: (view: TableView) => void;
}) {
  const Title = nested ? "h4" : "h1";
  const { view, live, setView, reload } = useTableView(tableId);
  useEffect(() => {
    if (view) onView?.(view);
  }, [view, onView]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const act: TableAct = async (action) => {
    if (!view || busy) return;
    setBusy(true);
    setError(undefined);
    try {
      const next = await action(view);
      if (next) setView(next);
    } catch (e) {
      setError(explain(e));
      reload();
    } finally {
      setBusy(false);
    }
  };
  const call = (seat: Seat, call: Call) =>
    act(async (v) => (await game().makeCall({ tableId, expectedVersion: v.version, idempotencyKey: idempotencyKey(), seat, call })).view);
  const play = (seat: Seat, card: Card) =>
    act(async (v) => (await game().playCard({ tableId, expectedVersion: v.version, idempotencyKey: idempotencyKey(), seat, card })).view);
  const enterResult = (tricks: number, honors: Honors[]) =>
    act(async (v) => {
      const contract = v.contract;
      if (!contract) return undefined;
      const result = { outcome: { case: "played" as const, value: { contract, tricks } }, honors };
      return (await game().enterResult({ tableId, expectedVersion: v.version, idempotencyKey: idempotencyKey(), result })).view;
    });
  const callArbiter = () =>
    act(async (v) => {
      await game().callArbiter({
        tableId,
        expectedVersion: v.version,
        idempotencyKey: idempotencyKey(),
        seat: v.viewer?.seat,
        reason: "called from the table's screen",
      });
      return undefined;
    });
  const claim = (claimer: Seat, tricks: number, statement: string) =>
    act(async (v) => (await game().claim({ tableId, expectedVersion: v.version, idempotencyKey: idempotencyKey(), claimer, tricks, statement })).view);
  const answerClaim = (seat: Seat, claimId: string, reply: ClaimReply) =>
    act(async (v) => (await game().respondToClaim({ tableId, expectedVersion: v.version, idempotencyKey: idempotencyKey(), claimId, seat, reply })).view);
  const nextDeal = (scorepadId: string, dealNumber: number) =>
    act(async (v) => {
      const source = v.setup?.source;
      if (source?.case !== "rubber") return undefined;
      // The next deal is played as the last was: with the server's cards or physical ones, under the
      // Club Laws or not.
      const setup = {
        source: { case: "rubber" as const, value: { rubberId: source.value.rubberId, scorepadId, dealNumber, clubLaws: source.value.clubLaws } },
        kind: TableKind.RUBBER,
        mode: v.setup?.mode ?? PlayMode.DIGITAL,
      };
      return (await game().startDeal({ tableId, expectedVersion: v.version, idempotencyKey: idempotencyKey(), setup })).view;
    });

  const me = view?.viewer?.seat || undefined;
  const scorepadId = view?.setup?.source.case === "rubber" ? view.setup.source.value.scorepadId : undefined;
  return (
    <section
      class="table-screen"
      aria-labelledby={`table-title-${tableId}`}
      data-viewer={me ? SEAT_LETTER[me] : "spectator"}
      data-version={view ? String(view.version) : ""}
      data-phase={view ? PHASE[view.phase] : ""}
    >
      <ScreenHeading title={<Title id={`table-title-${tableId}`}>{title}</Title>} live={live} error={error} />
      {!view ? (
        <p>Reading the table…</p>
      ) : (
        <>
          <Status view={view} />
          <Compass view={view} onPlay={play} busy={busy} />
          {/* The auction above the box: a player reads it before he calls. */}
          <Auction view={view} />
          {view.setup?.mode === PlayMode.RECORDED ? (
            (recordsAnySeat || me) && (
              <Recorder
                view={view}
                seats={recordsAnySeat ? ALL_SEATS : recordedBy(view, me!)}
                busy={busy}
                onCall={call}
                onPlay={play}
                onResult={enterResult}
              />
            )
          ) : (
            view.phase === DealPhase.AUCTION && me && <BiddingBox view={view} seat={me} onCall={call} busy={busy} />
          )}
          {deskDeal && <DeskNextDeal view={view} deal={deskDeal} act={act} />}
          <TricksPlayed view={view} />
          {me && <Claims view={view} seat={me} busy={busy} onClaim={claim} onAnswer={answerClaim} />}
          {view.openArbiterCalls.length > 0 && (
            <p class="notice" role="status" data-testid="arbiter-called">
              {view.openArbiterCalls
                .map((c) => `The arbiter is called${c.calledBySeat ? ` by ${SEAT_NAME[c.calledBySeat]}` : ""}${c.reason ? `: ${c.reason}` : ""}.`)
                .join(" ")}
            </p>
          )}
          {official?.(view, act)}
          {me && view.phase !== DealPhase.NO_DEAL && view.openArbiterCalls.length === 0 && (
            <div class="actions">
              <button type="button" class="quiet" onClick={callArbiter} disabled={busy}>
                Call the arbiter
              </button>
            </div>
          )}
        </>
      )}
      {!nested && <Draws tableId={tableId} />}
      {scorepadId && withScorepad && (
        <Scorepad
          scorepadId={scorepadId}
          nextDeal={
            me && view && (view.phase === DealPhase.FINISHED || view.phase === DealPhase.NO_DEAL)
              ? (number) => nextDeal(scorepadId, number)
              : undefined
          }
        />
      )}
    </section>
  );
}

/** A screen's heading with its live badge, then the last error, said aloud (role=alert). */
export function ScreenHeading({ title, live, error }: { title: ComponentChildren; live: LiveState; error?: string }) {
  return (
    <>
      <div class="heading-row">
        {title}
        <LiveBadge live={live} />
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </>
  );
}

export function LiveBadge({ live }: { live: LiveState }) {
  const text = { connecting: "connecting", live: "live", reconnecting: "reconnecting…", stopped: "stopped" }[live];
  return (
    <span class={`live ${live}`} role="status" aria-live="polite">
      {text}
    </span>
  );
}

function Status({ view }: { view: TableView }) {
  const contract = view.contract?.contract;
  const bid = contract?.bid;
  const doubling = contract?.doubling === 2 ? "X" : contract?.doubling === 3 ? "XX" : "";
  const next = view.nextToAct ? SEAT_NAME[view.nextToAct] : undefined;
  const you = view.viewer?.seat;
  const outcome = view.outcome?.result?.outcome;
  return (
    <div class="status" aria-live="polite">
      <span>{PHASE[view.phase] ?? "—"}</span>
      {bid && view.contract && (
        <span data-testid="contract">
          Contract {bid.level}
          <span class={isRedDenomination(bid.denomination) ? "red" : ""}>{DENOMINATION_SYMBOL[bid.denomination]}</span>
          {doubling} by {SEAT_NAME[view.contract.declarer]}
        </span>
      )}
      {view.tricksWon && view.phase !== DealPhase.AUCTION && view.phase !== DealPhase.NO_DEAL && (
        <span>
          Tricks: NS {view.tricksWon.northSouth}, EW {view.tricksWon.eastWest}
        </span>
      )}
      {next && view.phase !== DealPhase.FINISHED && (
        <span data-testid="next-to-act">{next === (you ? SEAT_NAME[you] : "") ? "Your turn" : `${next} to act`}</span>
      )}
      {view.phase === DealPhase.FINISHED && (
        <span data-testid="result">
          {outcome?.case === "played" ? `Declarer took ${outcome.value.tricks} tricks` : outcome?.case === "passedOut" ? "Passed out" : "Finished"}
        </span>
      )}
    </div>
  );
}

function Compass({ view, onPlay, busy }: { view: TableView; onPlay: (seat: Seat, card: Card) => void; busy: boolean }) {
  const seats = around(view);
  const players = new Map(view.setup?.players.map((p) => [p.seat, p.playerId]));
  const declarer = view.contract?.declarer;
  const dummy = declarer ? partnerOf(declarer) : undefined;
  const toPlay = seatToPlay(view);
  const trick = currentTrick(view) ?? view.tricks[view.tricks.length - 1];
  const position = (where: "top" | "left" | "right" | "bottom") => {
    const seat = seats[where];
    const held = view.hands.find((h) => h.seat === seat)?.hand?.cards;
    const name = players.get(seat);
    const role = seat === view.viewer?.seat ? "you" : seat === dummy ? "dummy" : seat === declarer ? "declarer" : "";
    const label = `${SEAT_NAME[seat]}${name ? `, ${name}` : ""}${role ? ` (${role})` : ""}`;
    return (
      <div class={`seat ${where} ${view.nextToAct === seat ? "to-act" : ""}`}>
        <h2 class="seat-name">{label}</h2>
        {held && held.length === 0 ? null : held ? (
          <Hand
            cards={held}
            seatCode={SEAT_LETTER[seat]}
            label={`${SEAT_NAME[seat]}'s hand`}
            playable={toPlay === seat ? (card) => !busy && cardAllowed(view, seat, card) : undefined}
            onPlay={(card) => onPlay(seat, card)}
          />
        ) : (
          view.phase !== DealPhase.NO_DEAL && <p class="hidden-hand">{cardsLeft(view, seat)} cards</p>
        )}
      </div>
    );
  };
  return (
    <div class="compass">
      {position("top")}
      {position("left")}
      {trick && (
        <section class="trick" aria-label={`Trick ${trick.number}`}>
          {(["top", "left", "right", "bottom"] as const).map((where) => {
            const played = trick.cards.find((c) => c.seat === seats[where]);
            return (
              <div class={`played ${where}`} key={where}>
                {played?.card && <CardFace card={played.card} />}
              </div>
            );
          })}
        </section>
      )}
      {position("right")}
      {position("bottom")}
    </div>
  );
}

/** The auction of the deal under way or last played. */
function Auction({ view }: { view: TableView }) {
  if (view.phase === DealPhase.NO_DEAL) return null;
  return <AuctionGrid dealer={view.setup?.dealer} auction={view.auction} />;
}

/**
 * Claims and concessions (Laws 68 to 71): in the play a player (not dummy) may claim some of the
 * tricks left, stating his line; while one is pending, the claimer's opponents accept or dispute
 * it, each for himself. A dispute goes to the Laws' procedure, which the arbiter's screens will
 * carry.
 */
function Claims({
  view,
  seat,
  busy,
  onClaim,
  onAnswer,
}: {
  view: TableView;
  seat: Seat;
  busy: boolean;
  onClaim: (seat: Seat, tricks: number, statement: string) => void;
  onAnswer: (seat: Seat, claimId: string, reply: ClaimReply) => void;
}) {
  const left = 13 - view.tricks.filter((t) => t.cards.length === 4).length;
  const [tricks, setTricks] = useState("");
  const [statement, setStatement] = useState("");
  const dummy = view.contract ? partnerOf(view.contract.declarer) : undefined;
  const pending = view.claim && view.claim.status === ClaimStatus.PENDING ? view.claim : undefined;
  if (pending) {
    const opponent = seat !== pending.claimer && seat !== partnerOf(pending.claimer);
    const answered = pending.answers.some((a) => a.seat === seat);
    const concession = pending.kind === ClaimKind.CONCESSION;
    return (
      <section class="claim card" aria-labelledby="claim-title" data-testid="claim">
        <h2 id="claim-title">{concession ? "Concession" : "Claim"}</h2>
        <p>
          {concession
            ? `${SEAT_NAME[pending.claimer]} concedes ${pending.tricksRemaining - pending.tricks} of the ${pending.tricksRemaining} tricks left`
            : `${SEAT_NAME[pending.claimer]} claims ${pending.tricks} of the ${pending.tricksRemaining} tricks left`}
          {pending.statement ? `: “${pending.statement}”` : "."}
        </p>
        {opponent && !answered && (
          <div class="actions">
            <button type="button" disabled={busy} onClick={() => onAnswer(seat, pending.claimId, ClaimReply.ACCEPT)}>
              {concession ? "Accept the concession" : "Accept the claim"}
            </button>{" "}
            <button type="button" class="quiet" disabled={busy} onClick={() => onAnswer(seat, pending.claimId, ClaimReply.DISPUTE)}>
              Dispute it
            </button>
          </div>
        )}
        {opponent && answered && <p>You have answered.</p>}
      </section>
    );
  }
  if (view.phase !== DealPhase.PLAY || seat === dummy) return null;
  return (
    <details class="claim card">
      <summary>Claim or concede tricks</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onClaim(seat, tricks === "" ? left : Number(tricks), statement.trim());
          setTricks("");
          setStatement("");
        }}
      >
        <label>
          Tricks your side will take, of the {left} left (fewer than all concedes the rest; none concedes them all)
          <input name="claim-tricks" type="number" min={0} max={left} value={tricks} placeholder={String(left)} onInput={(e) => setTricks(e.currentTarget.value)} />
        </label>
        <label>
          How you will play them
          <input name="claim-statement" value={statement} onInput={(e) => setStatement(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Claim
        </button>
      </form>
    </details>
  );
}

/** The tricks played so far, each with its leader, its four cards in order and its winner. */
function TricksPlayed({ view }: { view: TableView }) {
  const done = view.tricks.filter((t) => t.cards.length === 4);
  if (done.length === 0) return null;
  return (
    <details class="tricks-played">
      <summary>
        Tricks played ({done.length})
      </summary>
      <ol>
        {done.map((trick) => (
          <li key={trick.number}>
            <span class="who">{SEAT_LETTER[trick.leader]}:</span>
            {trick.cards.map((c) => c.card && <CardFace card={c.card} key={c.seat} />)}
            <span class="who">won by {SEAT_NAME[trick.winner]}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
