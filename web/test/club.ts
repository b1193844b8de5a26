// A real bridge-club for the browser tests: the debug build `cargo test` leaves (or BRIDGE_CLUB_BIN),
// started on a free port in a temporary directory of its own with the embedded default (SQLite,
// in-process live state), serving the screens built into web/dist, and removed afterwards. Its first
// start prints the administrator's password, which the desk's page signs in with.

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** web/, from web/test-dist/test where this runs. */
export const web = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const root = resolve(web, "..");
export const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");

export function clubBinary(): string {
  const bin = resolve(root, process.env.BRIDGE_CLUB_BIN ?? join(target, "debug", "bridge-club"));
  if (!existsSync(bin)) {
    throw new Error(`no bridge-club at ${bin}: build it (cargo build --bin bridge-club) or set BRIDGE_CLUB_BIN`);
  }
  return bin;
}

const FIRST_ADMINISTRATOR = /created the administrator account "([^"]+)" with the password\s+(\S+)\s+\(shown this once\)/;

export class Club {
  private constructor(
    readonly baseUrl: string,
    readonly administrator: { name: string; password: string },
    private child: ChildProcess,
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    /** What the server printed so far. */
    public log: () => string,
  ) {}

  /** Starts a club, with `settings` (BRIDGE_* variables) added to its environment. */
  static async start(settings: NodeJS.ProcessEnv = {}): Promise<Club> {
    const screens = join(web, "dist");
    if (!existsSync(join(screens, "index.html"))) throw new Error(`no screens in ${screens}: npm run build first`);
    const dir = mkdtempSync(join(tmpdir(), "bridge-club-web-"));
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (key.startsWith("BRIDGE_") || key.startsWith("OTEL_") || key === "DATABASE_URL" || key === "REDIS_URL") continue;
      env[key] = value;
    }
    // Heartbeats every second, so that a screen whose stream opens again shows it is live at once.
    Object.assign(env, {
      BRIDGE_LISTEN: "127.0.0.1:0",
      BRIDGE_CLUB__SCREENS_DIR: screens,
      BRIDGE_STREAMS__HEARTBEAT_INTERVAL_MS: "1000",
      RUST_LOG: "warn",
      ...settings,
    });
    const { child, started, output } = await launch(dir, env, true);
    // The server names itself by its URL (http://, or https:// with TLS); older builds by address.
    const baseUrl = /^https?:\/\//.test(started.address) ? started.address : `http://${started.address}`;
    return new Club(baseUrl, { name: started.name, password: started.password }, child, dir, env, output);
  }

  /**
   * Stops the server and starts it again on the same address and directory, as after a crash or a
   * deployment: every open stream breaks, and the screens must open theirs again. `whileDown` runs
   * once it has stopped.
   */
  async restart(whileDown: () => Promise<void>): Promise<void> {
    await this.terminate();
    await whileDown();
    const address = new URL(this.baseUrl).host;
    const { child, output } = await launch(this.dir, { ...this.env, BRIDGE_LISTEN: address }, false);
    this.child = child;
    const before = this.log();
    this.log = () => before + output();
  }

  private async terminate(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((done) => this.child.once("exit", () => done()));
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    await this.terminate();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Starts bridge-club in `dir`; on a first start, also reads the administrator it made. */
async function launch(dir: string, env: NodeJS.ProcessEnv, first: boolean) {
  const child = spawn(clubBinary(), [], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  process.on("exit", () => child.kill("SIGKILL"));
  let text = "";
  const started = await new Promise<{ address: string; name: string; password: string }>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`bridge-club did not start within 60 s\n${text}`)), 60_000);
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      const serving = /serving every service on (\S+)/.exec(text);
      const admin = first ? FIRST_ADMINISTRATOR.exec(text) : ["", "", ""];
      if (serving && admin) {
        clearTimeout(timer);
        done({ address: serving[1], name: admin[1], password: admin[2] });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`bridge-club exited (${code})\n${text}`));
    });
  });
  child.removeAllListeners("exit");
  return { child, started, output: () => text };
}
