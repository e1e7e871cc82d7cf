// The websocket client of docs/web-protocol.md, and the HTTP calls.
//
// A connection says hello with the seat's token (null: a spectator) and the
// last event version it holds; the server answers with a catchup of what was
// missed (or the whole state). When the socket drops, it reconnects by itself
// with a growing pause and asks again from the version it holds, so nothing
// is narrated twice and nothing is lost.
//
// Every decision is sent with the version it was made at (the last one held):
// that is its id. Sent again (the page retries a refused move by itself), a
// decision the server took already gets its outcome (a catchup), never a
// second application; events already held are dropped by their version, so
// an answer that crosses an update narrates nothing twice.
//
// A network can die without a word: the socket stays open and what is sent
// is held or lost (a phone between cells, a laptop's wifi gone; Chromium's
// offline mode too). So every hello, decision and ping must be followed by
// something from the server within ANSWER_WITHIN, or the connection is taken
// as lost at once (not when its close comes: a dead network holds even that)
// and the page says it is reconnecting; the browser's `offline` event does the
// same without waiting, and `online` (or the page shown again) tries at once.
// A decision sent and not answered when the line died is sent again, with its
// version, after the next hello: taken once whichever copy arrives first.

// Pings while nothing else is sent: a line dead in silence is noticed within
// PING_EVERY + ANSWER_WITHIN (25 s), far inside a turn's clock (120 s by
// default) and the grace before a seat counts as gone (60 s); idle proxies
// keep sockets open that long.
const PING_EVERY = 15_000;
// The server answers a ping at once and a decision within its store's timeout
// (3 s); 10 s leaves room for a slow mobile line without leaving a person
// long before a page that waits on a dead one.
const ANSWER_WITHIN = 10_000;

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token the seat's token, or null to watch
   * @param {{message: Function, status: Function}} handlers
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    // Version 0 on the first hello: the whole play-by-play of the game so far comes as a catchup.
    this.version = 0;
    this.retry = 0;
    this.closed = false;
    this.socket = null; // the live connection; null while waiting to reconnect
    this.timer = null;
    this.ping = null;
    this.deadline = null; // the wait for anything at all from the server, after something it must answer
    this.unanswered = null; // {action, version}: the decision sent last, until the table moves past its version
    // Back on the network, or the page shown again: reconnect now, or check that the open socket still answers.
    this.onWake = (event) => {
      if (this.closed || (event.type === "visibilitychange" && document.visibilityState !== "visible")) return;
      if (!this.socket) {
        clearTimeout(this.timer);
        if (event.type === "online") this.retry = 0;
        this.connect();
      } else if (this.socket.readyState === WebSocket.OPEN) {
        this.check({ type: "ping" });
      }
    };
    this.onOffline = () => {
      if (!this.closed && this.socket) this.giveUp();
    };
    document.addEventListener("visibilitychange", this.onWake);
    window.addEventListener("online", this.onWake);
    window.addEventListener("offline", this.onOffline);
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    this.expectAnswer(); // a connection that neither opens nor says welcome in time is given up, as a silent one is
    socket.addEventListener("open", () => {
      if (this.socket !== socket) return;
      this.retry = 0;
      socket.send(JSON.stringify({ type: "hello", token: this.token, since: this.version }));
      if (this.unanswered) socket.send(JSON.stringify({ type: "act", ...this.unanswered }));
      clearInterval(this.ping);
      this.ping = setInterval(() => this.check({ type: "ping" }), PING_EVERY);
      this.handlers.status(true);
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return; // given up as lost: what it held back comes too late, and again by the next
      clearTimeout(this.deadline);
      this.deadline = null;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return; // the server only sends JSON; anything else is ignored rather than trusted
      }
      if (!msg || typeof msg !== "object" || msg.type === "pong") return;
      if ((msg.type === "update" || msg.type === "catchup") && Array.isArray(msg.events)) {
        const held = this.version;
        msg.events = msg.events.filter((e) => !(typeof e?.version === "number" && e.version <= held));
      }
      if (typeof msg.version === "number") this.version = msg.version;
      // The table moved past the decision's version (taken, or another's came first), or it was refused: answered.
      if (this.unanswered && (msg.type === "error" || this.version > this.unanswered.version)) this.unanswered = null;
      this.handlers.message(msg);
    });
    socket.addEventListener("close", (event) => this.lost(socket, event.code));
  }

  /** Wait for anything from the server; nothing within ANSWER_WITHIN: the connection is lost. */
  expectAnswer() {
    if (this.deadline === null) this.deadline = setTimeout(() => this.giveUp(), ANSWER_WITHIN);
  }

  /** Send a message the server always answers, and wait for that. */
  check(message) {
    const sent = this.send(message);
    if (sent) this.expectAnswer();
    return sent;
  }

  /** The connection is dead though its socket has not closed: take it as lost now, and close it. */
  giveUp() {
    const socket = this.socket;
    this.lost(socket);
    socket?.close();
  }

  /** `socket` is gone: say so (nothing may be played) and, unless told not to, reconnect after a growing pause. */
  lost(socket, code = 1006) {
    if (!socket || this.socket !== socket) return;
    this.socket = null;
    clearInterval(this.ping);
    clearTimeout(this.deadline);
    this.deadline = null;
    this.handlers.status(false);
    if (this.closed || code === 4404) return;
    const pause = Math.min(400 * 2 ** this.retry, 8000);
    this.retry += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), pause);
  }

  /** Send one message; false when the socket is not open (the caller may tell the reader). */
  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** A decision, made at the version held now (its id: a resend of it is recognised, never applied twice). */
  act(action) {
    const decision = { action, version: this.version };
    const sent = this.check({ type: "act", ...decision });
    if (sent) this.unanswered = decision;
    return sent;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    clearTimeout(this.deadline);
    document.removeEventListener("visibilitychange", this.onWake);
    window.removeEventListener("online", this.onWake);
    window.removeEventListener("offline", this.onOffline);
    if (this.socket) this.socket.close();
  }
}

/**
 * An HTTP refusal: `status`, the server's `code` and its plain-words `message`; `detail` is the whole error,
 * with a refused name's `reason` and parameters (`name`, `held`, `length`, `max`: docs/web-protocol.md).
 */
export class ApiError extends Error {
  constructor(status, code, message, detail = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

/**
 * JSON over HTTP: GET without a body, POST with one; `token` (a seat's) opens what only players may see. `within`:
 * milliseconds for the whole answer, body included, after which the request is given up as lost (`timeout`): a
 * line that dies without a word, or a proxy that holds a request, never answers, and a caller that waits on it
 * waits for ever.
 */
export async function api(path, body, token = null, { within = null } = {}) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const options = body === undefined ? { headers } : {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const controller = within === null ? null : new AbortController();
  const timer = controller ? setTimeout(() => controller.abort(), within) : null;
  let response;
  let data;
  try {
    try {
      response = await fetch(path, controller ? { ...options, signal: controller.signal } : options);
    } catch {
      throw new ApiError(0, controller?.signal.aborted ? "timeout" : "offline", "");
    }
    data = await response.json().catch(() => ({}));
    if (controller?.signal.aborted) throw new ApiError(0, "timeout", "");
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    const error = data?.error && typeof data.error === "object" ? data.error : {};
    throw new ApiError(response.status, error.code || "http", error.message || `${response.status}`, error);
  }
  return data;
}

/** Seat tokens, kept per table in this browser, so a reload or a later visit takes the seat back. */
export const tokens = {
  key: (tableId) => `ronda.seat.${tableId}`,
  get(tableId) {
    try {
      const held = JSON.parse(localStorage.getItem(this.key(tableId)));
      return held && typeof held.token === "string" ? held : null;
    } catch {
      return null;
    }
  },
  set(tableId, seat, token) {
    localStorage.setItem(this.key(tableId), JSON.stringify({ seat, token, at: Date.now() }));
  },
  /** The tables this browser holds a seat at, the most recently taken first. */
  list() {
    const held = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith("ronda.seat.")) continue;
      const tableId = key.slice("ronda.seat.".length);
      const seat = this.get(tableId);
      if (seat) held.push({ tableId, at: seat.at || 0 });
    }
    return held.sort((a, b) => b.at - a.at);
  },
  forget(tableId) {
    localStorage.removeItem(this.key(tableId));
  },
};
