// The app shell: the top bar with the language switch, the routes (the lobby
// at "/", a table or its invite at "/t/{table_id}", "?replay" for a finished
// game, with "&analysis" to analyse it at once, "?watch" to watch without a
// seat, a player's page at "/p/{player}", the leaderboard at "/leaderboard"),
// the toasts, and the keyboard.

import { installSprite, cardSvg } from "./cards.js";
import { copyText, el, inertBehind, toast } from "./dom.js";
import { LANGUAGES, initialLanguage, language, refusal, setLanguage, t } from "./i18n.js";
import { showJoin, showLobby } from "./lobby.js";
import { showLeaderboard, showPlayer } from "./players.js";
import { TableConnection, api, tokens } from "./net.js";
import { showReplay } from "./replay.js";
import { TableScreen } from "./table.js";

const app = document.getElementById("app");
let meta = null;
let current = null; // {leave(), redraw(), key(event)} of the screen shown
let epoch = 0; // bumps on every route change, so a slow answer for an old screen is dropped

/** A refusal in the reader's language: the protocol's reason or code when we know it, else the server's words. */
export function explain(error) {
  return refusal(error);
}

const GLOBE = `<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.6"><circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c2.6 2.8 3.8 5.8 3.8 9s-1.2 6.2-3.8 9c-2.6-2.8-3.8-5.8-3.8-9S9.4 5.8 12 3z"/></svg>`;

let myPage = null; // the player id of this browser's kept name, for the "My games" link

/** Look up who this browser is (the player cookie) and redraw the top bar with a link to their page. */
async function whoAmI() {
  try {
    const me = await api("/api/me");
    if ((me.id ?? null) !== myPage) {
      myPage = me.id ?? null;
      header();
    }
  } catch {
    // No identity to link to (none, or a session that ended): the top bar stays as it is.
  }
}

function header() {
  const bar = document.getElementById("topbar");
  const select = el("select", { id: "language", "aria-label": "Language · Langue · اللغة" },
    Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, selected: code === language(), lang: code }, name)));
  select.addEventListener("change", () => {
    setLanguage(select.value);
    header();
    current?.redraw();
  });
  bar.replaceChildren(
    el("a", { href: "/", class: "brand", "data-link": "" },
      el("span", { class: "brand-card", "aria-hidden": "true", html: cardSvg("1o", { decorative: true }) }),
      el("span", { class: "brand-text" }, el("b", {}, t("title")), el("small", {}, t("tagline")))),
    el("div", { class: "topbar-end" },
      location.pathname !== "/" ? el("a", { href: "/", class: "btn ghost", "data-link": "" }, t("lobby")) : null,
      location.pathname !== "/leaderboard" ? el("a", { href: "/leaderboard", class: "btn ghost", "data-link": "" }, t("leaderboard")) : null,
      myPage ? el("a", { href: `/p/${encodeURIComponent(myPage)}`, class: "btn ghost", id: "my-page", "data-link": "" }, t("myPage")) : null,
      el("label", { class: "language" }, el("span", { class: "globe", "aria-hidden": "true", html: GLOBE }), select)));
}

function leave() {
  current?.leave();
  current = null;
}

// ------------------------------------------------------------------ screens

/** The screen now shown, `shown`; drawn again at once if the language changed while it was loading (`drawnIn`):
 * a change then found no screen to redraw, and the lobby stayed in English on a right-to-left page. */
function showing(shown, drawnIn) {
  current = shown;
  if (language() !== drawnIn) shown.redraw();
}

async function lobby() {
  const mine = epoch;
  const drawnIn = language();
  try {
    meta = meta || (await api("/api/meta"));
  } catch (error) {
    app.replaceChildren(el("div", { class: "panel empty" }, explain(error)));
    return;
  }
  if (mine !== epoch) return;
  const stop = await showLobby(app, { go: navigate, fail: (e) => toast(explain(e)), meta });
  if (mine !== epoch) return stop();
  // Drawn again in another language: a Play now wait goes on in the lobby drawn anew, never cancelled.
  showing({ leave: () => stop(), redraw: () => { stop(true); lobby(); }, key: () => false }, drawnIn);
}

async function table(tableId, params) {
  const mine = epoch;
  let summary;
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    toast(error.status === 404 ? t("e_no_table") : explain(error));
    return navigate("/", true);
  }
  if (mine !== epoch) return;
  const held = tokens.get(tableId);
  const free = summary.seats.some((s) => s.kind === "human" && !s.taken);
  if (params.has("replay")) return replay(tableId, params.get("game"), params.has("analysis"));
  if (!held && summary.status === "finished" && !params.has("watch")) return replay(tableId);
  if (!held && free && !params.has("watch")) {
    const draw = () => showJoin(app, summary, { go: navigate, fail: (e) => toast(explain(e)), joined: () => table(tableId, new URLSearchParams()) });
    draw();
    current = { leave() {}, redraw: draw, key: () => false };
    return;
  }
  play(tableId, held);
}

function play(tableId, held) {
  const root = el("div", { class: "table-screen" });
  app.replaceChildren(root);
  let connection = null;
  const screen = new TableScreen(root, {
    act: (action) => connection?.act(action) ?? false,
    send: (message) => {
      if (!connection?.send(message)) toast(t("e_offline"));
    },
    offline: () => toast(t("e_offline")),
    leave: () => navigate("/"),
    back: () => connection?.send({ type: "hello", token: connection.token, since: connection.version }),
    replayLink: () => `/t/${tableId}?replay&game=${screen.table?.game ?? 0}`,
    copyInvite: async (link, button, input) => {
      const done = await copyText(link, input);
      button.textContent = done ? t("copied") : t("copyByHand");
      setTimeout(() => { button.textContent = t("copy"); }, 2000);
    },
  });
  connection = new TableConnection(tableId, held ? held.token : null, {
    message: (msg) => {
      if (msg.type === "error") {
        if (msg.code === "bad_token") {
          // The seat's token no longer opens it (another browser, a reset server): start again without it.
          tokens.forget(tableId);
          toast(t("e_bad_token"));
          return navigate(`/t/${tableId}`, true);
        }
        if (msg.code === "not_found") {
          toast(t("e_no_table"));
          return navigate("/", true);
        }
        // Refused by a cap on connections: trying again at once would be refused again; a reload tries later.
        if (msg.code === "too_many_connections" || msg.code === "seat_elsewhere") connection.close();
        toast(explain(msg));
      }
      screen.receive(msg);
    },
    status: (on) => screen.setConnected(on),
  });
  current = {
    leave: () => connection.close(),
    redraw: () => screen.relanguage(),
    key: (event) => screen.key(event),
  };
}

async function replay(tableId, game = null, analyseNow = false) {
  const mine = epoch;
  const drawnIn = language();
  const shown = await showReplay(app, tableId, {
    game, analyseNow, leave: () => navigate("/"), fail: (e) => { toast(explain(e)); navigate("/", true); },
    current: () => mine === epoch,
  });
  if (mine !== epoch) return shown.stop();
  showing({ leave: shown.stop, redraw: shown.redraw, key: () => false }, drawnIn);
}

/** A screen of players.js (a player's page, the leaderboard) for `key`, redrawn in the new language. */
async function screen(show, key) {
  const mine = epoch;
  const drawnIn = language();
  const seen = {}; // what the server said, kept so that a redraw in another language draws at once
  const draw = () => show(app, key, { go: navigate, fail: (e) => toast(explain(e)), current: () => mine === epoch, seen });
  await draw();
  if (mine === epoch) showing({ leave() {}, redraw: draw, key: () => false }, drawnIn);
}

// ------------------------------------------------------------------ routing

function route() {
  leave();
  inertBehind(null); // a table left with a dialog up gives the page back
  epoch += 1;
  header();
  whoAmI();
  window.scrollTo(0, 0);
  const match = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  const player = /^\/p\/([^/]+)\/?$/.exec(location.pathname);
  if (match) table(decodeURIComponent(match[1]), new URLSearchParams(location.search));
  else if (player) screen(showPlayer, decodeURIComponent(player[1]));
  else if (location.pathname === "/leaderboard") screen(showLeaderboard, new URLSearchParams(location.search).get("players") || "2");
  else lobby();
}

function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[data-link]");
  if (link && link.origin === location.origin && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.button === 0) {
    event.preventDefault();
    navigate(link.pathname + link.search);
  }
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
  if (current?.key(event)) event.preventDefault();
});
window.addEventListener("popstate", route);
// The lobby's "You" panel kept a name (or logged in or out): "My games" shows, or goes, without a reload.
document.addEventListener("ronda:me", (event) => {
  const id = event.detail?.id ?? null;
  if (id !== myPage) {
    myPage = id;
    header();
  }
});
window.addEventListener("unhandledrejection", (event) => {
  // Never a crash: a failed call becomes a polite notice.
  event.preventDefault();
  toast(explain(event.reason));
});

installSprite();
setLanguage(initialLanguage());
route();
