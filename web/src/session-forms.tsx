// The forms of the sessions screen (sessions.tsx) and the words it shows a result in: a new session,
// a traveller's result entered at the desk, a correction (Law 79C), a director's ruling on a result
// (an assigned score, Law 12C1), and the PBN and USEBIO exports as files to download.

import { LawCode } from "@bridgeclub/client/gen/bridgeclub/common/v1/law_pb.js";
import { TableKind } from "@bridgeclub/client/gen/bridgeclub/common/v1/table_pb.js";
import { Side } from "@bridgeclub/client/gen/bridgeclub/common/v1/cards_pb.js";
import type { DealResult } from "@bridgeclub/client/gen/bridgeclub/common/v1/result_pb.js";
import { RulingKind } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/ruling_pb.js";
import { ResultSource } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/scorepad_pb.js";
import { ContestantKind, ResultKind, ScoringMethod, SessionStatus } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/session_pb.js";
import type { Board, BoardResult, ScoreValues, Session as ScoredSession } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/session_pb.js";
import { useState } from "preact/hooks";

import { appeals, idempotencyKey, scoring } from "./api.js";
import { adjustmentText, resultText } from "./appeals.js";
import { parseContract } from "./arbiter.js";
import { SEAT_NAME, Seat } from "./cards.js";
import { VULNERABLE } from "./dealrecord.js";
import type { SessionAct } from "./sessions.js";

export const METHOD_NAME: Record<number, string> = {
  [ScoringMethod.MATCHPOINTS]: "Matchpoints",
  [ScoringMethod.CROSS_IMPS]: "Cross-IMPs",
  [ScoringMethod.BUTLER_IMPS]: "Butler IMPs",
  [ScoringMethod.TEAM_IMPS]: "Team IMPs",
  [ScoringMethod.TOTAL_POINTS]: "Total points",
};

export function boardLabel(board: Board): string {
  return `Board ${board.number}: ${SEAT_NAME[board.dealer] ?? "?"} deals, ${VULNERABLE[board.vulnerability] ?? "vulnerability not given"}`;
}

const ADJUSTED: Record<number, string> = {
  [ResultKind.ASSIGNED]: "Assigned",
  [ResultKind.WEIGHTED]: "Weighted",
  [ResultKind.ARTIFICIAL]: "Artificial",
  [ResultKind.SPLIT]: "Split",
};

/** A board result in words: the table's result, or the adjusted score in force and what the table did. */
export function resultLine(r: BoardResult): string {
  if (r.kind === ResultKind.NOT_PLAYED) return "not played";
  if (r.kind === ResultKind.TABLE || !r.adjustment) return resultText(r.tableResult);
  const table = r.tableResult ? ` (at the table: ${resultText(r.tableResult)})` : "";
  return `${ADJUSTED[r.kind] ?? "Adjusted"}: ${adjustmentText(r.adjustment).replace(/^\w+ score: /, "")}${table}`;
}

const hundredths = (value: bigint | undefined) => Number(value ?? 0n) / 100;
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** A side's score the way the session is scored; `standing` adds the percentage to matchpoints. */
export function sideScore(method: ScoringMethod, values: ScoreValues | undefined, standing: boolean): string {
  if (!values) return "";
  switch (method) {
    case ScoringMethod.MATCHPOINTS: {
      const mp = `${hundredths(values.matchpoints?.hundredths)} mp`;
      const pct = values.percentage ? `${(values.percentage.basisPoints / 100).toFixed(2)}%` : "";
      return standing && pct ? `${pct} (${mp})` : mp;
    }
    case ScoringMethod.CROSS_IMPS:
    case ScoringMethod.BUTLER_IMPS:
    case ScoringMethod.TEAM_IMPS:
      return `${signed(hundredths(values.imps?.hundredths))} IMPs`;
    default:
      return `${signed(hundredths(values.points?.hundredths))}`;
  }
}

/** A contract, declarer and tricks as the desk types them, or passed out. */
interface ResultInput {
  passedOut: boolean;
  contract: string;
  declarer: Seat;
  tricks: string;
}

const EMPTY_RESULT: ResultInput = { passedOut: false, contract: "", declarer: Seat.NORTH, tricks: "" };

/** The result typed, or undefined until it is complete and well formed. */
function toResult(input: ResultInput): DealResult | undefined {
  if (input.passedOut) return { outcome: { case: "passedOut", value: {} }, honors: [] } as unknown as DealResult;
  const contract = parseContract(input.contract);
  if (!contract || input.tricks === "") return undefined;
  return { outcome: { case: "played", value: { contract: { contract, declarer: input.declarer }, tricks: Number(input.tricks) } }, honors: [] } as unknown as DealResult;
}

function ResultFields({ name, value, onChange }: { name: string; value: ResultInput; onChange: (value: ResultInput) => void }) {
  return (
    <fieldset>
      <legend>The result</legend>
      <label class="check">
        <input type="checkbox" name={`${name}-passed-out`} checked={value.passedOut} onChange={() => onChange({ ...value, passedOut: !value.passedOut })} />
        Passed out
      </label>
      {!value.passedOut && (
        <>
          <label>
            Contract (such as 4S, 3NT, 2HX)
            <input name={`${name}-contract`} value={value.contract} onInput={(e) => onChange({ ...value, contract: e.currentTarget.value })} pattern="[1-7]([CcDdHhSs]|[Nn][Tt]?)([Xx]{1,2})?" required />
          </label>
          <label>
            Declarer
            <select name={`${name}-declarer`} value={value.declarer} onChange={(e) => onChange({ ...value, declarer: Number(e.currentTarget.value) as Seat })}>
              {[Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST].map((s) => (
                <option key={s} value={s}>
                  {SEAT_NAME[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Tricks taken by declarer's side
            <input name={`${name}-tricks`} type="number" min={0} max={13} value={value.tricks} onInput={(e) => onChange({ ...value, tricks: e.currentTarget.value })} required />
          </label>
        </>
      )}
    </fieldset>
  );
}

/** One contestant per line: "Name: player, player" (a team's captain first). */
export function parseContestants(text: string) {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [name, ids = ""] = line.includes(":") ? line.split(/:(.*)/s) : ["", line];
      const playerIds = ids
        .split(/[,\s]+/)
        .map((id) => id.trim())
        .filter(Boolean);
      return { contestantId: "", name: name.trim() || playerIds.join(" & "), playerIds, captainPlayerId: "" };
    });
}

export function NewSessionForm({ act, onCreated }: { act: SessionAct; onCreated: (sessionId: string) => void }) {
  const [name, setName] = useState("");
  const [kind, setKind] = useState(ContestantKind.PAIRS);
  const [method, setMethod] = useState(ScoringMethod.MATCHPOINTS);
  const [boards, setBoards] = useState("");
  const [contestants, setContestants] = useState("");
  const methods = kind === ContestantKind.TEAMS ? [ScoringMethod.TEAM_IMPS] : [ScoringMethod.MATCHPOINTS, ScoringMethod.CROSS_IMPS, ScoringMethod.BUTLER_IMPS, ScoringMethod.TOTAL_POINTS];
  const chosenMethod = methods.includes(method) ? method : methods[0];
  return (
    <details class="new-session">
      <summary>New session</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const listed = parseContestants(contestants).map((c) => (kind === ContestantKind.TEAMS ? { ...c, captainPlayerId: c.playerIds[0] ?? "" } : c));
          void act(async () => {
            const answer = await scoring().createSession({
              name: name.trim(),
              contestantKind: kind,
              scoringMethod: chosenMethod,
              // Dealer and vulnerability follow the board number (Law 2): the server fills them in.
              boards: Array.from({ length: Number(boards) }, (_, i) => ({ number: i + 1 })),
              contestants: listed,
            });
            const session = answer.session;
            if (!session) return undefined;
            setName("");
            setBoards("");
            setContestants("");
            onCreated(session.sessionId);
            return `Session ${session.name} is open: ${session.boards.length} boards, ${session.contestants.length} contestants.`;
          });
        }}
      >
        <label>
          Session name
          <input name="session-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required />
        </label>
        <label>
          Contestants
          <select name="session-kind" value={kind} onChange={(e) => setKind(Number(e.currentTarget.value) as ContestantKind)}>
            <option value={ContestantKind.PAIRS}>Pairs</option>
            <option value={ContestantKind.TEAMS}>Teams</option>
          </select>
        </label>
        <label>
          Scoring
          <select name="session-method" value={chosenMethod} onChange={(e) => setMethod(Number(e.currentTarget.value) as ScoringMethod)}>
            {methods.map((m) => (
              <option key={m} value={m}>
                {METHOD_NAME[m]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Number of boards
          <input name="session-boards" type="number" min={1} max={99} value={boards} onInput={(e) => setBoards(e.currentTarget.value)} required />
        </label>
        <label>
          Contestants, one a line: "Name: player id, player id"{kind === ContestantKind.TEAMS ? " (the captain first)" : ""}
          <textarea name="session-contestants" rows={4} value={contestants} onInput={(e) => setContestants(e.currentTarget.value)} required />
        </label>
        <button type="submit">Create the session</button>
      </form>
    </details>
  );
}

/** One of the session's contestants, chosen by name. */
export function ContestantSelect({ session, label, name, value, onChange }: { session: ScoredSession; label: string; name: string; value: string; onChange: (id: string) => void }) {
  return (
    <label>
      {label}
      <select name={name} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {session.contestants.map((c) => (
          <option key={c.contestantId} value={c.contestantId}>
            {c.name || c.contestantId}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The pair of contestants and the board a result (or a table of the movement) is for, chosen from the session's; `name` prefixes the fields' names. */
export function useBoardKey(session: ScoredSession, name: string) {
  const [board, setBoard] = useState(session.boards[0]?.number ?? 1);
  const [ns, setNs] = useState(session.contestants[0]?.contestantId ?? "");
  const [ew, setEw] = useState(session.contestants[1]?.contestantId ?? "");
  const fields = (
    <>
      <label>
        Board
        <select name={`${name}-board`} value={board} onChange={(e) => setBoard(Number(e.currentTarget.value))}>
          {session.boards.map((b) => (
            <option key={b.number} value={b.number}>
              {boardLabel(b)}
            </option>
          ))}
        </select>
      </label>
      <ContestantSelect session={session} label="North–South" name={`${name}-ns`} value={ns} onChange={setNs} />
      <ContestantSelect session={session} label="East–West" name={`${name}-ew`} value={ew} onChange={setEw} />
    </>
  );
  const key = { sessionId: session.sessionId, boardNumber: board, northSouthContestantId: ns, eastWestContestantId: ew };
  return { fields, key };
}

/** A traveller's result entered at the desk. */
export function RecordResultForm({ session, act }: { session: ScoredSession; act: SessionAct }) {
  const { fields, key } = useBoardKey(session, "result");
  const [input, setInput] = useState(EMPTY_RESULT);
  // The deal id is the idempotency key: one per result typed, so that sending it twice records it once.
  const [dealId, setDealId] = useState(() => `desk-${idempotencyKey()}`);
  const result = toResult(input);
  return (
    <section class="card" aria-labelledby="record-title">
      <h3 id="record-title">Enter a result</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!result) return;
          void act(async () => {
            await scoring().recordBoardResult({ key, dealId, result, source: ResultSource.DESK });
            setInput(EMPTY_RESULT);
            setDealId(`desk-${idempotencyKey()}`);
            return `Board ${key.boardNumber}: ${resultText(result)}, entered.`;
          });
        }}
      >
        {fields}
        <ResultFields name="record" value={input} onChange={setInput} />
        <button type="submit" disabled={!result}>
          Enter the result
        </button>
      </form>
    </section>
  );
}

const resultKeyText = (session: ScoredSession, r: BoardResult) => {
  const name = (id: string | undefined) => session.contestants.find((c) => c.contestantId === id)?.name || id || "?";
  return `Board ${r.key?.boardNumber}: ${name(r.key?.northSouthContestantId)} against ${name(r.key?.eastWestContestantId)}, ${resultLine(r)}`;
};

/** Which recorded result a form acts on. */
function ResultSelect({ session, results, name, value, onChange }: { session: ScoredSession; results: BoardResult[]; name: string; value: string; onChange: (id: string) => void }) {
  return (
    <label>
      The result
      <select name={name} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {results.map((r) => (
          <option key={r.resultId} value={r.resultId}>
            {resultKeyText(session, r)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A correction of a result (Law 79C): after publication, only with the organiser's approval. */
export function CorrectResultForm({ session, results, act }: { session: ScoredSession; results: BoardResult[]; act: SessionAct }) {
  const [chosen, setChosen] = useState(results[0]?.resultId ?? "");
  const [input, setInput] = useState(EMPTY_RESULT);
  const [reason, setReason] = useState("");
  const [approved, setApproved] = useState(false);
  const target = results.find((r) => r.resultId === chosen) ?? results[0];
  const result = toResult(input);
  const published = session.status === SessionStatus.PUBLISHED;
  return (
    <details class="card">
      <summary>Correct a result (Law 79C)</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!result || !target) return;
          void act(async () => {
            await scoring().correctBoardResult({ key: target.key, expectedVersion: session.version, correctedResult: result, reason: reason.trim(), approvedAfterCorrectionPeriod: approved });
            setInput(EMPTY_RESULT);
            setReason("");
            return `Board ${target.key?.boardNumber} corrected to ${resultText(result)}.`;
          });
        }}
      >
        <ResultSelect session={session} results={results} name="correct-result" value={target?.resultId ?? ""} onChange={setChosen} />
        <ResultFields name="correct" value={input} onChange={setInput} />
        <label>
          Why
          <input name="correct-reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required />
        </label>
        {published && (
          <label class="check">
            <input type="checkbox" name="correct-approved" checked={approved} onChange={() => setApproved(!approved)} />
            After the correction period: the organiser approves, the director being satisfied beyond reasonable doubt
          </label>
        )}
        <button type="submit" disabled={!result}>
          Correct the result
        </button>
      </form>
    </details>
  );
}

/**
 * A director's ruling on a result, recorded with the appeals service, which applies an assigned
 * score to the session (Law 12C1) and lets the players appeal it. The players are the contestants'
 * own: North and South the North–South pair's, in the order it lists them, East and West likewise.
 */
export function RulingOnResultForm({ session, results, act }: { session: ScoredSession; results: BoardResult[]; act: SessionAct }) {
  const [chosen, setChosen] = useState(results[0]?.resultId ?? "");
  const [irregularity, setIrregularity] = useState("");
  const [law, setLaw] = useState("12C1");
  const [facts, setFacts] = useState("");
  const [side, setSide] = useState<Side>(Side.UNSPECIFIED);
  const [input, setInput] = useState(EMPTY_RESULT);
  const target = results.find((r) => r.resultId === chosen) ?? results[0];
  const assigned = toResult(input);
  const parsed = /^(\d+)\s*([A-Z]\d*(?:\([a-z]\))?)?$/i.exec(law.trim());
  const players = () => {
    const of = (id: string | undefined) => session.contestants.find((c) => c.contestantId === id)?.playerIds ?? [];
    const [north, south] = of(target?.key?.northSouthContestantId);
    const [east, west] = of(target?.key?.eastWestContestantId);
    return [
      { seat: Seat.NORTH, playerId: north },
      { seat: Seat.EAST, playerId: east },
      { seat: Seat.SOUTH, playerId: south },
      { seat: Seat.WEST, playerId: west },
    ].filter((p) => p.playerId);
  };
  const table = session.movement.find((m) => m.boardNumber === target?.key?.boardNumber && m.northSouthContestantId === target?.key?.northSouthContestantId)?.tableId ?? "";
  return (
    <details class="card">
      <summary>Rule on a result</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!assigned || !target || !parsed) return;
          void act(async () => {
            await appeals().recordRuling({
              idempotencyKey: idempotencyKey(),
              deal: { dealId: target.dealId, tableId: table, kind: TableKind.DUPLICATE, scoreTarget: { target: { case: "boardResult", value: target.key! } }, players: players() },
              irregularity: irregularity.trim(),
              laws: [{ code: LawCode.DUPLICATE, number: Number(parsed[1]), section: (parsed[2] ?? "").toUpperCase() }],
              facts: facts.trim(),
              kind: RulingKind.JUDGEMENT,
              offendingSide: side,
              decision: { decision: { case: "adjustedScore", value: { kind: { case: "assigned", value: { result: assigned } } } } },
              rightToAppealAdvised: true,
            });
            setIrregularity("");
            setFacts("");
            setInput(EMPTY_RESULT);
            return `Ruling recorded on board ${target.key?.boardNumber}: ${resultText(assigned)} assigned; the players may appeal it.`;
          });
        }}
      >
        <ResultSelect session={session} results={results} name="ruling-result" value={target?.resultId ?? ""} onChange={setChosen} />
        <label>
          The irregularity
          <input name="session-ruling-irregularity" value={irregularity} onInput={(e) => setIrregularity(e.currentTarget.value)} required />
        </label>
        <label>
          The Law applied (number and section, such as 12C1)
          <input name="session-ruling-law" value={law} onInput={(e) => setLaw(e.currentTarget.value)} required pattern="\d+\s*[A-Za-z]?\d*(\([a-z]\))?" />
        </label>
        <label>
          The facts found
          <input name="session-ruling-facts" value={facts} onInput={(e) => setFacts(e.currentTarget.value)} />
        </label>
        <label>
          The offending side
          <select name="session-ruling-side" value={side} onChange={(e) => setSide(Number(e.currentTarget.value) as Side)}>
            <option value={Side.UNSPECIFIED}>Neither</option>
            <option value={Side.NORTH_SOUTH}>North–South</option>
            <option value={Side.EAST_WEST}>East–West</option>
          </select>
        </label>
        <p>The assigned score:</p>
        <ResultFields name="assigned" value={input} onChange={setInput} />
        <button type="submit" disabled={!assigned || !parsed}>
          Record the ruling
        </button>
      </form>
    </details>
  );
}

/** Saves `text` as a file the browser downloads. */
function download(fileName: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function ExportButtons({ session, act }: { session: ScoredSession; act: SessionAct }) {
  const file = session.name.replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "") || session.sessionId;
  return (
    <div class="exports">
      <button
        type="button"
        class="quiet"
        onClick={() =>
          void act(async () => {
            const answer = await scoring().exportSessionPbn({ sessionId: session.sessionId });
            download(`${file}.pbn`, answer.pbn, "application/x-pbn");
            return undefined;
          })
        }
      >
        Export PBN
      </button>
      <button
        type="button"
        class="quiet"
        onClick={() =>
          void act(async () => {
            const answer = await scoring().exportSessionUsebio({ sessionId: session.sessionId });
            download(`${file}.xml`, answer.xml, "application/xml");
            return undefined;
          })
        }
      >
        Export USEBIO
      </button>
    </div>
  );
}
