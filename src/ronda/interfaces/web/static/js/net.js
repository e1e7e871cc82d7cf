// The websocket client of docs/web-protocol.md: hello with the seat's token and
// the last version held, then messages in; reconnects by itself with a growing
// pause, asking only for what it missed.

export class TableConnection {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers; // { message(msg), status(connected: bool) }
    this.version = 0; // from the first event: the play-by-play starts with the game's start
    this.retry = 0;
    this.closed = false;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 0;
      socket.send(JSON.stringify({ type: "hello", token: this.token, since: this.version }));
      this.handlers.status(true);
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof msg.version === "number") this.version = msg.version;
      this.handlers.message(msg);
    });
    socket.addEventListener("close", () => {
      this.handlers.status(false);
      if (this.closed) return;
      const pause = Math.min(500 * 2 ** this.retry, 8000);
      this.retry += 1;
      setTimeout(() => this.connect(), pause);
    });
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  act(action) {
    return this.send({ type: "act", action });
  }

  close() {
    this.closed = true;
    if (this.socket) this.socket.close();
  }
}

/** JSON over HTTP; a refusal becomes an Error carrying the server's message. */
export async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = data?.error?.message || `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return data;
}

/** Seat tokens are kept per table in this browser, so a reload takes the seat back. */
export const tokens = {
  get(tableId) {
    try {
      return JSON.parse(localStorage.getItem(`ronda.seat.${tableId}`));
    } catch {
      return null;
    }
  },
  set(tableId, seat, token) {
    localStorage.setItem(`ronda.seat.${tableId}`, JSON.stringify({ seat, token }));
  },
};
