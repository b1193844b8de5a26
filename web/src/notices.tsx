// What a screen says after an action: the server's refusal in its own words (role=alert), or what
// was done (role=status), one at a time. `useAct` runs an action and keeps both.

import { useState } from "preact/hooks";

import { explain } from "./api.js";

/** Runs an action that may say what it did; true when it succeeded. */
export type Act = (action: () => Promise<string | undefined | void>) => Promise<boolean>;

/** The screen's error and notice, and `act`, which clears both, runs the action and sets one; `after` runs either way. */
export function useAct(after?: () => Promise<void>) {
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const act: Act = async (action) => {
    setError(undefined);
    setNotice(undefined);
    try {
      const said = await action();
      if (said) setNotice(said);
      return true;
    } catch (e) {
      setError(explain(e));
      return false;
    } finally {
      await after?.();
    }
  };
  return { error, setError, notice, setNotice, act };
}

export function Notices({ error, notice }: { error?: string; notice?: string }) {
  return (
    <>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {notice && (
        <p role="status" class="notice">
          {notice}
        </p>
      )}
    </>
  );
}
