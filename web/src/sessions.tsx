// Duplicate sessions at the desk (docs/screens.md): the sessions the club has run, a new one with its
// boards and contestants, and for the chosen session its standings, its board results by board,
// the corrections and adjusted scores that changed them, live as results arrive; the desk enters a
// traveller's result, corrects one (Law 79C), sends tables to boards (the movement), publishes the
// official score and exports the session as PBN or USEBIO (session-forms.tsx); a director with the
// arbiter's role also rules on a result, releases a board and rates a fouled board
// (session-director.tsx).

import { ContestantKind, SessionStatus } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/session_pb.js";
import type { BoardResult, Session as ScoredSession, Standing } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/session_pb.js";
import type { ScoreVersion } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/history_pb.js";
import { ScoreVersionCause } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/history_pb.js";
import { useCallback, useEffect, useState } from "preact/hooks";

import { allPages, explain, scoring } from "./api.js";
import { type Act, Notices, useAct } from "./notices.js";
import { lawText, scoreVersionText, when } from "./appeals.js";
import { useLive, useReadOrder } from "./live.js";
import { boardLabel, CorrectResultForm, ExportButtons, METHOD_NAME, NewSessionForm, RecordResultForm, resultLine, RulingOnResultForm, sideScore } from "./session-forms.js";
import { FouledBoardForm, Movement } from "./session-director.js";
import { ScreenHeading } from "./table.js";

import "./appeals.css";
import "./sessions.css";

/** An action of the sessions screen, which says what it did. */
export type SessionAct = Act;

const KIND_NAME: Record<number, string> = {
  [ContestantKind.PAIRS]: "pairs",
  [ContestantKind.TEAMS]: "teams",
  [ContestantKind.INDIVIDUALS]: "individuals",
};

/** The versions a desk looks for after the fact: whatever changed a score other than a result entered. */
const CHANGES = new Set([ScoreVersionCause.CORRECTION, ScoreVersionCause.ADJUSTMENT, ScoreVersionCause.APPEAL_DECISION, ScoreVersionCause.FOULED_BOARD, ScoreVersionCause.PUBLISHED]);

/** Who recorded a score version: a staff account by its name, a service as itself. */
const recorder = (subject: string) =>
  subject.startsWith("service:") ? `the ${subject.slice("service:".length)} service` : subject.replace(/^staff:/, "");

/**
 * The sessions screen. `canRule`: the director's (arbiter role) ruling form. `canDirect`: releasing
 * a board and a fouled board (the arbiter's and the administrator's).
 */
export function Sessions({ canRule = false, canDirect = false }: { canRule?: boolean; canDirect?: boolean }) {
  const [list, setList] = useState<ScoredSession[]>();
  const [chosen, setChosen] = useState<string>();
  const { error, setError, notice, setNotice, act } = useAct();
  const read = useCallback(async () => {
    try {
      setList(await allPages(async (pageToken) => {
        const answer = await scoring().listSessions({ page: { pageSize: 100, pageToken } });
        return { items: answer.sessions, next: answer.page?.nextPageToken ?? "" };
      }));
    } catch (e) {
      setError(explain(e));
    }
  }, []);
  useEffect(() => void read(), [read]);

  const shown = chosen ?? list?.[0]?.sessionId;
  return (
    <div class="sessions">
      <h1>Duplicate sessions</h1>
      <Notices error={error} notice={notice} />
      <div class="sessions-grid">
        <section class="card session-list" aria-labelledby="sessions-title">
          <h2 id="sessions-title">Sessions</h2>
          {list?.length === 0 && <p>No session yet: create one below.</p>}
          <ul>
            {list?.map((s) => (
              <li key={s.sessionId}>
                <button
                  type="button"
                  class="appeal-item"
                  data-session={s.sessionId}
                  aria-current={s.sessionId === shown ? "true" : undefined}
                  onClick={() => {
                    setChosen(s.sessionId);
                    setNotice(undefined);
                  }}
                >
                  {s.name}
                  <small>
                    {s.boards.length} boards, {s.contestants.length} {KIND_NAME[s.contestantKind] ?? "contestants"}; {METHOD_NAME[s.scoringMethod] ?? ""}
                    {s.status === SessionStatus.PUBLISHED ? "; published" : ""}
                  </small>
                </button>
              </li>
            ))}
          </ul>
          <NewSessionForm
            act={act}
            onCreated={(id) => {
              setChosen(id);
              void read();
            }}
          />
        </section>
        {shown && <SessionView key={shown} sessionId={shown} canRule={canRule} canDirect={canDirect} act={act} onChange={() => void read()} />}
      </div>
    </div>
  );
}

/** Everything the desk reads of one session. */
interface SessionState {
  session: ScoredSession;
  standings: Standing[];
  results: BoardResult[];
  changes: ScoreVersion[];
}

function SessionView({
  sessionId,
  canRule,
  canDirect,
  act,
  onChange,
}: {
  sessionId: string;
  canRule: boolean;
  canDirect: boolean;
  act: SessionAct;
  onChange: () => void;
}) {
  const [state, setState] = useState<SessionState>();
  const [error, setError] = useState<string>();
  const order = useReadOrder();
  const read = useCallback(async () => {
    const mine = order.begin();
    try {
      const [got, standings, results, versions] = await Promise.all([
        scoring().getSession({ sessionId }),
        scoring().getStandings({ sessionId }),
        allPages(async (pageToken) => {
          const answer = await scoring().listBoardResults({ sessionId, page: { pageSize: 200, pageToken } });
          return { items: answer.results, next: answer.page?.nextPageToken ?? "" };
        }),
        allPages(async (pageToken) => {
          const answer = await scoring().listScoreVersions({ owner: { case: "sessionId", value: sessionId }, page: { pageSize: 200, pageToken } });
          return { items: answer.versions, next: answer.page?.nextPageToken ?? "" };
        }),
      ]);
      if (!got.session) throw new Error(`the server answered without session ${sessionId}`);
      if (!order.latest(mine)) return;
      setState({ session: got.session, standings: standings.standings, results, changes: versions.filter((v) => CHANGES.has(v.cause)) });
      setError(undefined);
    } catch (e) {
      setError(explain(e));
    }
  }, [sessionId]);
  useEffect(() => void read(), [read]);
  const live = useLive(`session:${sessionId}`, (after, signal) => scoring().watchSession({ sessionId, afterSequence: after }, { signal }), () => void read());
  const done: SessionAct = async (action) => {
    const ok = await act(action);
    if (ok) {
      await read();
      onChange();
    }
    return ok;
  };

  if (!state) return <ScreenHeading title={<h2>Session</h2>} live={live} error={error} />;
  const { session, standings, results, changes } = state;
  const open = session.status !== SessionStatus.PUBLISHED;
  const name = (id: string) => session.contestants.find((c) => c.contestantId === id)?.name || id;
  return (
    <section class="session" aria-labelledby="session-title" data-session-view={session.sessionId}>
      <ScreenHeading title={<h2 id="session-title">{session.name}</h2>} live={live} error={error} />
      <p class="summary" data-testid="session-status">
        {METHOD_NAME[session.scoringMethod]}, {session.boards.length} boards.{" "}
        {open
          ? "Open: results may be entered."
          : `Official score published ${when(session.scoresPublishedAt)}; corrections until ${when(session.correctionPeriodEndsAt)} (Law 79C).`}
      </p>

      <section class="card" aria-labelledby="standings-title">
        <h3 id="standings-title">Standings</h3>
        {standings.length === 0 ? (
          <p>No result counts yet.</p>
        ) : (
          <div class="scroll" tabIndex={0} role="group" aria-labelledby="standings-title">
          <table class="standings" data-testid="standings">
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Contestant</th>
                <th scope="col">Score</th>
                <th scope="col">Boards</th>
              </tr>
            </thead>
            <tbody>
              {standings.map((s) => (
                <tr key={s.contestantId} data-contestant={s.contestantId}>
                  <td>
                    {s.rank}
                    {s.tied ? "=" : ""}
                  </td>
                  <th scope="row">{name(s.contestantId)}</th>
                  <td class="score">{sideScore(session.scoringMethod, s.score, true)}</td>
                  <td>{s.boardsPlayed}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        )}
      </section>

      <section class="card" aria-labelledby="results-title">
        <h3 id="results-title">Board results</h3>
        {results.length === 0 && <p>No board has a result yet.</p>}
        {session.boards
          .filter((b) => results.some((r) => r.key?.boardNumber === b.number))
          .map((board) => (
            <div class="scroll" tabIndex={0} role="group" aria-label={`Board ${board.number}'s results`} key={board.number}>
            <table class="board-results" data-board={board.number}>
              <caption>{boardLabel(board)}</caption>
              <thead>
                <tr>
                  <th scope="col">North–South</th>
                  <th scope="col">East–West</th>
                  <th scope="col">Result</th>
                  <th scope="col">NS points</th>
                  <th scope="col">NS</th>
                  <th scope="col">EW</th>
                </tr>
              </thead>
              <tbody>
                {results
                  .filter((r) => r.key?.boardNumber === board.number)
                  .map((r) => (
                    <tr key={r.resultId} data-ns={r.key?.northSouthContestantId} data-ew={r.key?.eastWestContestantId}>
                      <th scope="row">{name(r.key?.northSouthContestantId ?? "")}</th>
                      <td>{name(r.key?.eastWestContestantId ?? "")}</td>
                      <td class="result">{resultLine(r)}</td>
                      <td class="score">{r.northSouth?.points ? (Number(r.northSouth.points.hundredths) / 100).toString() : ""}</td>
                      <td class="score">{sideScore(session.scoringMethod, r.northSouth, false)}</td>
                      <td class="score">{sideScore(session.scoringMethod, r.eastWest, false)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
            </div>
          ))}
      </section>

      <Movement session={session} canAssign={open} canRelease={canDirect && open} act={done} />

      {changes.length > 0 && (
        <section class="card" aria-labelledby="changes-title">
          <h3 id="changes-title">Corrections and adjusted scores</h3>
          <ol class="score-changes">
            {changes.map((v) => {
              const key = v.target?.target.case === "boardResult" ? v.target.target.value : undefined;
              return (
                <li key={String(v.version)} data-version={String(v.version)}>
                  {key ? `Board ${key.boardNumber}, ${name(key.northSouthContestantId)} against ${name(key.eastWestContestantId)}: ` : ""}
                  {scoreVersionText(v)}
                  {v.law ? ` (${lawText(v.law)})` : ""}
                  <small>
                    {" "}
                    {v.reason ? `${v.reason}. ` : ""}By {recorder(v.recordedBy)}, {when(v.recordedAt)}.
                  </small>
                </li>
              );
            })}
          </ol>
        </section>
      )}

      {open && <RecordResultForm session={session} act={done} />}
      {results.length > 0 && <CorrectResultForm session={session} results={results} act={done} />}
      {canRule && results.length > 0 && <RulingOnResultForm session={session} results={results} act={done} />}
      {canDirect && open && <FouledBoardForm session={session} results={results} act={done} />}
      <section class="card" aria-labelledby="publish-title">
        <h3 id="publish-title">Official score and exports</h3>
        {open && (
          <button
            type="button"
            onClick={() =>
              void done(async () => {
                await scoring().publishOfficialScores({ sessionId });
                return `The official score of ${session.name} is published: the correction period (Law 79C) and the appeal period (Law 92B) start now.`;
              })
            }
          >
            Publish the official score
          </button>
        )}
        <ExportButtons session={session} act={act} />
      </section>
    </section>
  );
}
