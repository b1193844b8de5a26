// The arbiter's screen (the director's, at duplicate): the calls for him as they arrive, oldest first,
// and each table in play as he may see it, all four hands included. At a table he explains and applies
// what the Laws give after an irregularity: each open rectification decision with its options, the
// Law that gives each and whose choice it is, and he chooses for the player when asked to (or where
// the Laws give the choice to him, as the Alternative Club Laws do); he decides a disputed claim;
// he records an irregularity the calls and cards cannot show (irregularity.tsx); he settles the call
// with a note of what he ruled; and he records the ruling, which the players may
// appeal to the committee. Live: the room's stream brings tables that start or stop playing, each
// table's stream its changes.

import { RulingKind } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/ruling_pb.js";
import { Side } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import { type Contract, Doubling } from "@bridgeclub/client/gen/bridgeclub/common/v1/contract_pb.js";
import { Chooser, type LawCitation, LawCode } from "@bridgeclub/client/gen/bridgeclub/common/v1/law_pb.js";
import { TableKind } from "@bridgeclub/client/gen/bridgeclub/common/v1/table_pb.js";
import { DealPhase, type TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import { type ArbiterCall, ClaimStatus, type RectificationDecision, type RectificationOption } from "@bridgeclub/client/gen/bridgeclub/game/v1/irregularity_pb.js";
import type { Table } from "@bridgeclub/client/gen/bridgeclub/membership/v1/table_pb.js";
import { useCallback, useEffect, useState } from "preact/hooks";

import { appeals, explain, game, idempotencyKey, membership } from "./api.js";
import { type Call, DENOMINATIONS, SEAT_NAME, type Seat } from "./cards.js";
import { ArbiterCallList, useArbiterCalls } from "./calls.js";
import { IrregularityForm } from "./irregularity.js";
import { useLive } from "./live.js";
import { ScreenHeading, type TableAct, TableScreen } from "./table.js";

const CHOOSER: Record<number, string> = {
  [Chooser.OFFENDER]: "the offender's choice",
  [Chooser.OFFENDERS_LHO]: "the offender's left-hand opponent's choice",
  [Chooser.DECLARER]: "declarer's choice",
  [Chooser.NON_OFFENDING_SIDE]: "the non-offending side's choice",
  [Chooser.OFFICIAL]: "the arbiter's decision",
};

export function lawText(law: LawCitation | undefined): string {
  if (!law) return "";
  return law.text || `Law ${law.number}${law.section}`;
}

export function Arbiter() {
  const [tables, setTables] = useState<Table[]>([]);
  const [error, setError] = useState<string>();
  const [generation, setGeneration] = useState(0);
  const { calls, error: callsError, read: readCalls, noteView } = useArbiterCalls(generation);
  const read = useCallback(async () => {
    setGeneration((n) => n + 1);
    try {
      setTables((await membership().listTables({})).tables);
      setError(undefined);
    } catch (e) {
      setError(explain(e));
    }
  }, []);
  useEffect(() => void read(), [read]);
  const live = useLive("room", (after, signal) => membership().watchRoom({ afterSequence: after }, { signal }), () => void read());
  const names = new Map(tables.map((t) => [t.tableId, t.name]));
  const inPlay = tables.filter((t) => t.currentRubber);

  return (
    <div class="arbiter">
      <ScreenHeading title={<h1>Arbiter</h1>} live={live} error={error ?? callsError} />
      <ArbiterCallList calls={calls} names={names} anchor={(tableId) => `arbiter-${tableId}`} />
      <h2>Tables in play</h2>
      {inPlay.length === 0 && <p>No rubber is being played.</p>}
      {inPlay.map((table) => (
        <section class="card official-table" id={`arbiter-${table.tableId}`} key={table.tableId} data-table={table.tableId}>
          <TableScreen
            tableId={table.tableId}
            title={table.name}
            withScorepad={false}
            nested
            onView={noteView}
            official={(view, act) => <Official view={view} act={act} onChange={() => void readCalls()} />}
          />
        </section>
      ))}
    </div>
  );
}

/** What the arbiter does at one table: decisions, a disputed claim, the open calls, a ruling. */
function Official({ view, act, onChange }: { view: TableView; act: TableAct; onChange: () => void }) {
  // Every command here also changes the list of calls above.
  const run: TableAct = async (action) => {
    await act(action);
    onChange();
  };
  const disputed = view.claim?.status === ClaimStatus.DISPUTED ? view.claim : undefined;
  return (
    <div class="official" data-testid="official">
      {view.pendingDecisions.map((decision) => (
        <Decision key={decision.decisionId} view={view} decision={decision} act={run} />
      ))}
      {disputed && <ClaimRuling view={view} claimId={disputed.claimId} tricksLeft={disputed.tricksRemaining} act={run} />}
      {view.openArbiterCalls.map((call) => (
        <Resolve key={call.arbiterCallId} call={call} act={run} />
      ))}
      {view.dealId && view.phase !== DealPhase.NO_DEAL && <IrregularityForm view={view} act={run} />}
      {view.dealId && view.phase !== DealPhase.NO_DEAL && <RulingForm view={view} />}
    </div>
  );
}

function Decision({ view, decision, act }: { view: TableView; decision: RectificationDecision; act: TableAct }) {
  const choose = (option: RectificationOption, call: Call | undefined) =>
    act(async (v) => {
      // The arbiter chooses on the player's behalf (or as the official): no chooser seat.
      const answer = await game().chooseRectification({
        tableId: v.tableId,
        expectedVersion: v.version,
        idempotencyKey: idempotencyKey(),
        decisionId: decision.decisionId,
        optionId: option.optionId,
        call,
      });
      return answer.view;
    });
  return (
    <section class="decision card" aria-labelledby={`decision-${decision.decisionId}`} data-decision={decision.decisionId}>
      <h3 id={`decision-${decision.decisionId}`}>Rectification to choose</h3>
      <ul class="options">
        {decision.options.map((option) => (
          <li key={option.optionId} data-option={option.kind}>
            <p>
              <strong>{option.description}</strong>
            </p>
            <p class="summary">
              {lawText(option.law)}; {CHOOSER[option.chooser] ?? "a choice"}
              {option.chooserSeats.length > 0 && ` (${option.chooserSeats.map((s) => SEAT_NAME[s]).join(" or ")})`}
              {option.callRequirement && `; with ${option.callRequirement}`}
            </p>
            <ChooseButton view={view} option={option} onChoose={choose} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ChooseButton({
  view,
  option,
  onChoose,
}: {
  view: TableView;
  option: RectificationOption;
  onChoose: (option: RectificationOption, call: Call | undefined) => void;
}) {
  const [text, setText] = useState("");
  const forWhom = option.chooserSeats.length > 0 ? ` for ${option.chooserSeats.map((s) => SEAT_NAME[s]).join(" or ")}` : "";
  const call = option.callRequirement ? parseCall(text) : undefined;
  return (
    <form
      class="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        onChoose(option, call);
      }}
    >
      {option.callRequirement && (
        <label>
          The call ({option.callRequirement}): 1C to 7NT, P, X or XX
          <input name="option-call" value={text} onInput={(e) => setText(e.currentTarget.value)} autocapitalize="characters" spellcheck={false} />
        </label>
      )}
      <button type="submit" disabled={view.version === 0n || (option.callRequirement !== "" && !call)} aria-label={`Choose${forWhom}: ${option.description}`}>
        Choose{forWhom}
      </button>
    </form>
  );
}

/** A call as an official types it: "1S", "3NT", "P", "X", "XX". */
export function parseCall(text: string): Call | undefined {
  const t = text.trim().toUpperCase();
  if (t === "P" || t === "PASS") return { kind: { case: "pass", value: {} } } as Call;
  if (t === "X") return { kind: { case: "double", value: {} } } as Call;
  if (t === "XX") return { kind: { case: "redouble", value: {} } } as Call;
  const bid = /^([1-7])(C|D|H|S|NT|N)$/.exec(t);
  if (!bid) return undefined;
  const denomination = DENOMINATIONS["CDHSN".indexOf(bid[2][0])];
  return { kind: { case: "bid", value: { level: Number(bid[1]), denomination } } } as Call;
}

/** A contract as an official types it: "4S", "3NT", "2HX", "1CXX". */
export function parseContract(text: string): Contract | undefined {
  const found = /^([1-7])(C|D|H|S|NT|N)(XX|X)?$/.exec(text.trim().toUpperCase());
  if (!found) return undefined;
  const denomination = DENOMINATIONS["CDHSN".indexOf(found[2][0])];
  const doubling = found[3] === "XX" ? Doubling.REDOUBLED : found[3] === "X" ? Doubling.DOUBLED : Doubling.UNDOUBLED;
  return { bid: { level: Number(found[1]), denomination }, doubling } as Contract;
}

function contractText(contract: Contract): string {
  const bid = contract.bid;
  if (!bid) return "";
  const doubling = contract.doubling === Doubling.REDOUBLED ? "XX" : contract.doubling === Doubling.DOUBLED ? "X" : "";
  return `${bid.level}${"CDHSN"[DENOMINATIONS.indexOf(bid.denomination)]}${bid.denomination === DENOMINATIONS[4] ? "T" : ""}${doubling}`;
}

/** A disputed claim decided (Club Laws 69 and 70): the tricks awarded to the claimer's side. */
function ClaimRuling({ view, claimId, tricksLeft, act }: { view: TableView; claimId: string; tricksLeft: number; act: TableAct }) {
  const [tricks, setTricks] = useState("");
  const [reasons, setReasons] = useState("");
  return (
    <form
      class="card"
      aria-labelledby={`claim-ruling-${claimId}`}
      onSubmit={(e) => {
        e.preventDefault();
        act(async (v) => {
          const answer = await game().adjudicateClaim({
            tableId: v.tableId,
            expectedVersion: v.version,
            idempotencyKey: idempotencyKey(),
            claimId,
            tricks: Number(tricks),
            reasons: reasons.trim(),
            law: { number: 70 },
          });
          return answer.view;
        });
      }}
    >
      <h3 id={`claim-ruling-${claimId}`}>Disputed claim by {SEAT_NAME[view.claim?.claimer ?? 0]}</h3>
      <label>
        Tricks the claimer's side is awarded, of the {tricksLeft} left
        <input name="awarded-tricks" type="number" min={0} max={tricksLeft} value={tricks} onInput={(e) => setTricks(e.currentTarget.value)} required />
      </label>
      <label>
        Reasons
        <input name="claim-reasons" value={reasons} onInput={(e) => setReasons(e.currentTarget.value)} required />
      </label>
      <button type="submit">Decide the claim (Law 70)</button>
    </form>
  );
}

function Resolve({ call, act }: { call: ArbiterCall; act: TableAct }) {
  const [note, setNote] = useState("");
  return (
    <form
      class="card"
      data-resolve={call.arbiterCallId}
      aria-labelledby={`resolve-${call.arbiterCallId}`}
      onSubmit={(e) => {
        e.preventDefault();
        act(async (v) => {
          const answer = await game().resolveArbiterCall({
            tableId: v.tableId,
            expectedVersion: v.version,
            idempotencyKey: idempotencyKey(),
            arbiterCallId: call.arbiterCallId,
            resolution: note.trim(),
          });
          return answer.view;
        });
      }}
    >
      <h3 id={`resolve-${call.arbiterCallId}`}>
        Call {call.calledBySeat ? `by ${SEAT_NAME[call.calledBySeat]}` : "from the table"}
        {call.reason ? `: ${call.reason}` : ""}
      </h3>
      <label>
        What you explained or ruled
        <input name="resolution" value={note} onInput={(e) => setNote(e.currentTarget.value)} required />
      </label>
      <button type="submit">Settle the call</button>
    </form>
  );
}

/**
 * A ruling recorded for the appeals service on the table's deal (the one under way or last played):
 * the irregularity, the Law applied, the facts found, the kind of ruling, the offending side, and
 * the decision (the table result stands, or an assigned score, which scoring puts on the pad), with
 * the players told of their right to appeal. A ruling is what the players may take to the committee.
 */
function RulingForm({ view }: { view: TableView }) {
  const [irregularity, setIrregularity] = useState("");
  const [law, setLaw] = useState("");
  const [code, setCode] = useState<LawCode>(LawCode.RUBBER);
  const [facts, setFacts] = useState("");
  const [side, setSide] = useState<Side>(Side.UNSPECIFIED);
  const [kind, setKind] = useState<RulingKind>(RulingKind.LAW);
  const [assign, setAssign] = useState(false);
  const played = view.contract;
  const [contract, setContract] = useState(played?.contract ? contractText(played.contract) : "");
  const [declarer, setDeclarer] = useState<Seat>(played?.declarer || 1);
  const [tricks, setTricks] = useState("");
  const [said, setSaid] = useState<string>();
  const [error, setError] = useState<string>();
  const source = view.setup?.source;
  if (source?.case !== "rubber") return null;
  const parsed = /^(\d+)\s*([A-Z]\d*(?:\([a-z]\))?)?$/i.exec(law.trim());
  const parsedContract = parseContract(contract);
  // The Arbiter's new result (Club Law 12: an assigned score): the contract, its declarer and the
  // tricks his side is credited with.
  const assigned =
    assign && parsedContract && tricks !== ""
      ? { outcome: { case: "played" as const, value: { contract: { contract: parsedContract, declarer }, tricks: Number(tricks) } }, honors: [] }
      : undefined;
  const submit = async () => {
    setError(undefined);
    setSaid(undefined);
    try {
      const answer = await appeals().recordRuling({
        idempotencyKey: idempotencyKey(),
        deal: {
          dealId: view.dealId,
          tableId: view.tableId,
          kind: view.setup?.kind ?? TableKind.RUBBER,
          scoreTarget: { target: { case: "scorepadDeal", value: { scorepadId: source.value.scorepadId, dealId: view.dealId } } },
          players: view.setup?.players ?? [],
        },
        irregularity: irregularity.trim(),
        laws: parsed ? [{ code, number: Number(parsed[1]), section: (parsed[2] ?? "").toUpperCase() }] : [],
        facts: facts.trim(),
        kind,
        offendingSide: side,
        decision: assigned ? { decision: { case: "adjustedScore", value: { kind: { case: "assigned", value: { result: assigned } } } } } : { decision: { case: "resultStands", value: {} } },
        rightToAppealAdvised: true,
      });
      setSaid(`Ruling recorded${answer.ruling ? ` (${answer.ruling.rulingId})` : ""}: the players may appeal it to the committee.`);
      setIrregularity("");
      setLaw("");
      setFacts("");
    } catch (e) {
      setError(explain(e));
    }
  };
  return (
    <details class="card ruling-form">
      <summary>Record a ruling</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {said && (
          <p role="status" class="notice">
            {said}
          </p>
        )}
        <label>
          The irregularity
          <input name="ruling-irregularity" value={irregularity} onInput={(e) => setIrregularity(e.currentTarget.value)} required />
        </label>
        <label>
          The Law applied (number and section, such as 54A)
          <input name="ruling-law" value={law} onInput={(e) => setLaw(e.currentTarget.value)} required pattern="\d+\s*[A-Za-z]?\d*(\([a-z]\))?" />
        </label>
        <label>
          Of the
          <select name="ruling-code" value={code} onChange={(e) => setCode(Number(e.currentTarget.value) as LawCode)}>
            <option value={LawCode.RUBBER}>Laws of Rubber Bridge</option>
            <option value={LawCode.CLUB}>Alternative Club Laws</option>
            <option value={LawCode.CHICAGO}>Chicago (Appendix 4)</option>
          </select>
        </label>
        <label>
          The facts found
          <input name="ruling-facts" value={facts} onInput={(e) => setFacts(e.currentTarget.value)} />
        </label>
        <label>
          The offending side
          <select name="ruling-side" value={side} onChange={(e) => setSide(Number(e.currentTarget.value) as Side)}>
            <option value={Side.UNSPECIFIED}>None</option>
            <option value={Side.NORTH_SOUTH}>North-South</option>
            <option value={Side.EAST_WEST}>East-West</option>
          </select>
        </label>
        <label>
          What kind of ruling
          <select name="ruling-kind" value={kind} onChange={(e) => setKind(Number(e.currentTarget.value) as RulingKind)}>
            <option value={RulingKind.LAW}>On the Law, the facts agreed</option>
            <option value={RulingKind.FACT}>On disputed facts</option>
            <option value={RulingKind.JUDGEMENT}>A judgement (an adjusted score, unauthorised information, a claim)</option>
          </select>
        </label>
        <fieldset>
          <legend>The decision</legend>
          <label class="check">
            <input type="radio" name="ruling-decision" checked={!assign} onChange={() => setAssign(false)} />
            The table result stands
          </label>
          <label class="check">
            <input type="radio" name="ruling-decision" checked={assign} onChange={() => setAssign(true)} />
            An assigned score
          </label>
          {assign && (
            <>
              <label>
                Contract (such as 4S, 3NTX)
                <input name="assigned-contract" value={contract} onInput={(e) => setContract(e.currentTarget.value)} required autocapitalize="characters" spellcheck={false} />
              </label>
              <label>
                Declarer
                <select name="assigned-declarer" value={declarer} onChange={(e) => setDeclarer(Number(e.currentTarget.value) as Seat)}>
                  {[1, 2, 3, 4].map((seat) => (
                    <option value={seat} key={seat}>
                      {SEAT_NAME[seat]}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Tricks won by declarer's side
                <input name="assigned-tricks" type="number" min={0} max={13} value={tricks} onInput={(e) => setTricks(e.currentTarget.value)} required />
              </label>
            </>
          )}
        </fieldset>
        <p class="summary">The players are told they may appeal to the committee.</p>
        <button type="submit" disabled={assign && !assigned}>
          Record the ruling
        </button>
      </form>
    </details>
  );
}
