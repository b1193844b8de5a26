// A mail server for the browser tests: it takes every mail over plain SMTP on a free loopback port
// and keeps it, so a test can read the sign-in code the desk had mailed to a member. It speaks only
// what a client sending one mail needs (EHLO, MAIL, RCPT, DATA, QUIT).

import { createServer, type Server, type Socket } from "node:net";

export class SmtpSink {
  private readonly mails: string[] = [];
  private readonly waiting: ((mail: string) => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpSink> {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("the mail server has no port");
    const sink = new SmtpSink(server, address.port);
    server.on("connection", (socket) => sink.serve(socket));
    return sink;
  }

  /** The next mail taken (its headers and text), or the first one not read yet. */
  next(): Promise<string> {
    const taken = this.mails.shift();
    if (taken !== undefined) return Promise.resolve(taken);
    return new Promise((done) => this.waiting.push(done));
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }

  private take(mail: string) {
    const waiter = this.waiting.shift();
    if (waiter) waiter(mail);
    else this.mails.push(mail);
  }

  private serve(socket: Socket) {
    socket.setEncoding("utf8");
    socket.on("error", () => socket.destroy());
    socket.write("220 sink ESMTP\r\n");
    let buffer = "";
    let inData = false;
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          this.take(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write("250 taken\r\n");
          continue;
        }
        const line = buffer.indexOf("\r\n");
        if (line < 0) return;
        const verb = buffer.slice(0, line).slice(0, 4).toUpperCase();
        buffer = buffer.slice(line + 2);
        if (verb === "EHLO") socket.write("250-sink\r\n250 8BITMIME\r\n");
        else if (verb === "DATA") {
          inData = true;
          socket.write("354 go on\r\n");
        } else if (verb === "QUIT") {
          socket.end("221 bye\r\n");
          return;
        } else socket.write("250 ok\r\n");
      }
    });
  }
}
