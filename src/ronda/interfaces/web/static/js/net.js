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

const PING_EVERY = 25_000;

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
    this.timer = null;
    this.ping = null;
    this.onVisible = () => {
      if (document.visibilityState === "visible" && !this.closed && this.socket?.readyState === WebSocket.CLOSED) {
        clearTimeout(this.timer);
        this.connect();
      }
    };
    document.addEventListener("visibilitychange", this.onVisible);
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 0;
      socket.send(JSON.stringify({ type: "hello", token: this.token, since: this.version }));
      clearInterval(this.ping);
      this.ping = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
      this.handlers.status(true);
    });
    socket.addEventListener("message", (event) => {
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
      this.handlers.message(msg);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.ping);
      if (this.socket !== socket) return;
      this.handlers.status(false);
      if (this.closed || event.code === 4404) return;
      const pause = Math.min(400 * 2 ** this.retry, 8000);
      this.retry += 1;
      this.timer = setTimeout(() => this.connect(), pause);
    });
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
    return this.send({ type: "act", action, version: this.version });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    document.removeEventListener("visibilitychange", this.onVisible);
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

/** JSON over HTTP: GET without a body, POST with one; `token` (a seat's) opens what only players may see. */
export async function api(path, body, token = null) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const options = body === undefined ? { headers } : {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "offline", "");
  }
  const data = await response.json().catch(() => ({}));
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
