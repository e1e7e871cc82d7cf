// The table screen: the seats around the felt, your hand, the decisions the
// server offers, the scores, the play-by-play and the round and game summaries.
//
// Everything drawn comes from the last VIEW and `legal` list the server sent to
// this connection (R11): the page never guesses at hidden cards — another
// seat's hand is drawn as backs from its size — and the buttons offered are
// exactly the legal actions, nothing more (less, for a challenge the seat's own
// view proves would fail: the server marks those `proven`). While the
// connection is down nothing can be played, and the page says so. Replays
// reuse the same drawing with every hand face up (`hands`), which the server
// only sends once a game is over.
//
// Where the table allows hints, a Hint button (or H) asks the server for the
// best options of the seat's decision, valued from its own view; the answer
// is shown under the decisions until the next move (coach.js says it).

import { animate, callout, snapshot } from "./anim.js";
import { backSvg, cardLabel, cardSvg, parseCard, suitIcon } from "./cards.js";
import { hintPanel, signed } from "./coach.js";
import { announce, bringIntoView, el, inertBehind, keepTabIn } from "./dom.js";
import { howTo, terms as termsOf } from "./howto.js";
import { count, decimal, has, kindName, kindWord, rankName, sentence, t } from "./i18n.js";
import { KEPT_LINES, Narrator, levelName, namer, personName, shout, sideOf } from "./narrate.js";
import { ratingChange } from "./players.js";

const PLAYS = new Set(["drop", "capture", "raise"]);

/** Which place around the felt a seat takes, seen from the seat at the bottom (play goes to the right). */
export function placeOf(seat, bottom, players) {
  const k = (seat - bottom + players) % players;
  if (k === 0) return "bottom";
  if (players === 2) return "top";
  if (players === 3) return k === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][k];
}

/** A card as a small inline chip (narration, shown hands, the chain): its rank and suit symbol. */
export function chip(name) {
  let suit;
  let rank;
  try {
    [rank, suit] = parseCard(name);
  } catch {
    return el("span", {}, String(name));
  }
  return el("span", {
    class: `chip suit-${suit}`, title: cardLabel(name), "aria-label": cardLabel(name), role: "img",
    html: `<span class="chip-rank" aria-hidden="true">${rank}</span>${suitIcon(suit)}`,
  });
}

/** One narrated line as DOM: text with card chips. */
export function lineNode(line) {
  return el("li", { class: `ev-${line.type}${line.tone ? ` tone-${line.tone}` : ""}`, "data-line": line.id },
    line.parts.map((part) => (typeof part === "string" ? part : chip(part.card))));
}

/**
 * The line under a seat's name: its role ("partner") then what else is known of it, joined by " · " with no
 * stray separator. On a phone only the role stays (css: .seat-tag), so a partner is named there too.
 */
function seatNote(role, facts) {
  const rest = facts.filter(Boolean).join(" · ");
  return el("small", {},
    role ? el("span", { class: "seat-tag" }, role) : null,
    rest ? el("span", { class: "seat-facts" }, role ? ` · ${rest}` : rest) : null);
}

export class TableScreen {
  /**
   * @param {HTMLElement} root
   * @param {object} hooks act(action), send(message), leave(), replayLink(tableId), copyInvite(link, button)
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.table = null;
    this.seat = null;
    this.view = null;
    this.legal = [];
    this.narrator = new Narrator(namer(null, null));
    this.summary = null;
    this.tally = {};
    this.autoDeclare = false;
    this.connected = false;
    this.synced = false;
    this.pending = false;
    this.confirming = null; // the seat whose declaration we are asked to confirm a challenge of
    this.lastAction = null; // the last decision sent, kept to send again if the server could not save it
    this.retries = 0;
    this.invite = null; // {invite, invite_note} from the welcome
    this.nameKey = "";
    this.rematchAsked = false;
    this.hands = null; // replays: every seat's hand, face up
    this.controls = null; // replays: the step controls, drawn instead of the decisions
    this.shouts = [];
    this.plays = [];
    this.events = []; // every event told so far, to tell them again in another language
    this.turnAt = null; // when this page was shown its current decision (the turn clock counts from it)
    this.timedOut = false; // the clock ran out on one of this seat's decisions: the computer made it
    this.forgot = false; // events forgotten past twice KEPT_LINES: a retold play-by-play says it lacks its first lines
    this.clockTimer = null;
    this.clockSaid = null; // the version and the last threshold of the turn clock told to screen readers
    this.announced = null; // the last play-by-play line told to screen readers (#announce), and the turn told
    this.graceEnds = []; // by seat: when its person's grace period ends (Date.now() time), from the summary's grace_left
    this.graceTexts = []; // the countdowns drawn: [node, text()], refreshed each second while one runs
    this.graceTimer = null;
    this.version = 0; // the table's version this screen shows
    this.hint = null; // the hint on the seat's decision now, as the server sent it
    this.hintAsked = null; // the version at which a hint was asked for and has not come yet
  }

  /** The page's language changed: tell the play-by-play again in it, and redraw. */
  relanguage() {
    this.retell();
    this.render();
  }

  /** Tell every event so far again, in the current language and with the seats' current names. */
  retell() {
    const narrator = new Narrator(namer(this.table, this.seat));
    narrator.trimmed = this.forgot;
    for (const event of this.events) {
      if (event.type === "new_game") narrator.lines.push({ id: ++narrator.serial, type: "new_game", tone: "head", parts: [t("newGame")] });
      else narrator.push(event);
    }
    this.narrator = narrator;
  }

  // ------------------------------------------------------------ messages

  receive(msg) {
    this.shouts = [];
    this.plays = [];
    if (["state", "update", "catchup"].includes(msg.type) && msg.version !== this.version) {
      this.version = msg.version;
      this.hint = null; // a hint is about one decision: gone with it
      this.hintAsked = null;
    }
    switch (msg.type) {
      case "welcome":
        this.takeTable(msg.table);
        this.seat = msg.seat ?? null;
        this.autoDeclare = Boolean(msg.auto_declare);
        if (msg.invite) this.invite = { link: msg.invite, note: msg.invite_note ?? null };
        this.rename();
        return; // a state or catchup follows at once
      case "state": {
        this.clockFrom(msg);
        const wasOver = this.view?.phase === "game_over";
        if (msg.table) this.takeTable(msg.table);
        this.rename();
        if (wasOver && msg.view.phase !== "game_over") {
          this.newGame();
          // A rematch's state carries the new game's opening events: told now, as a reload tells them.
          const running = msg.view.scores.map(() => 0);
          for (const event of msg.events || []) this.consume(event, true, running);
        }
        this.view = msg.view;
        this.legal = msg.legal || [];
        if (msg.view.phase === "game_over" && !this.summary) this.gameSummary(msg.view.winner, this.endReason ?? null);
        this.synced = true;
        break;
      }
      case "update":
      case "catchup": {
        this.clockFrom(msg);
        const live = this.synced;
        const running = this.view ? [...this.view.scores] : null;
        // This seat's decisions the computer made for it (its clock ran out, the stand-in played): the server says
        // which, to this seat alone, and the play-by-play tells them as the computer's, now and when told again.
        const madeForYou = new Set(msg.made_for_you || []);
        for (const event of msg.events) this.consume(madeForYou.has(event.version) ? { ...event, made_for_you: true } : event, live, running);
        this.view = msg.view;
        this.legal = msg.legal || [];
        if (!live && msg.view.phase === "game_over" && !this.summary) this.gameSummary(msg.view.winner, this.endReason ?? null);
        if (msg.view.phase === "game_over" && this.table && this.table.status !== "finished") {
          this.table = { ...this.table, status: "finished", winner: msg.view.winner };
        }
        this.synced = true;
        break;
      }
      case "seats":
        this.takeTable(msg.table);
        this.rename();
        this.render();
        return;
      case "auto_declare":
        this.autoDeclare = Boolean(msg.on);
        this.render();
        return;
      case "turn_over": // the turn clock ran out: the computer makes this move; said until the person acts again
        this.timedOut = true;
        this.render();
        return;
      case "hint":
        if (msg.version === this.version) this.hint = msg;
        this.hintAsked = null;
        this.render();
        if (this.hint === msg) this.showHint();
        return;
      case "error":
        this.hintAsked = null;
        if (msg.retry && this.lastAction && this.retries < 6) {
          // The server could not save the move, and said nothing changed: send the same move again shortly.
          const action = this.lastAction;
          const pause = Math.min(500 * 2 ** this.retries, 8000);
          this.retries += 1;
          setTimeout(() => {
            if (this.lastAction === action && this.legal.some((a) => JSON.stringify(a) === JSON.stringify(action))) {
              this.pending = false;
              this.act(action, true);
            }
          }, pause);
          return; // still pending: the move is on its way again
        }
        break;
      default:
        return;
    }
    if (msg.type !== "error") {
      this.lastAction = null;
      this.retries = 0;
    }
    this.pending = false; // the answer to our last action (or news that makes it moot) has come
    this.render();
  }

  /** A table summary from the server; each absent person's grace period is counted on from now (``grace_left``). */
  takeTable(table) {
    this.table = table;
    const now = Date.now();
    this.graceEnds = (table?.seats || []).map((s) => (s.grace_left === null || s.grace_left === undefined ? null : now + s.grace_left * 1000));
  }

  /** Names may have changed (a friend took a seat): the play-by-play is told again with them. */
  rename() {
    this.narrator.names = namer(this.table, this.seat);
    const key = JSON.stringify((this.table?.seats || []).map((s) => [s.kind, s.name, s.level]).concat([this.seat]));
    if (key !== this.nameKey) {
      const told = this.nameKey !== "" && this.events.length;
      this.nameKey = key;
      if (told) this.retell();
    }
  }

  newGame() {
    this.summary = null;
    this.endReason = null;
    this.challenger = null;
    this.roundOver = null;
    this.rematchAsked = false;
    this.tally = {};
    this.narrator.lines.push({ id: ++this.narrator.serial, type: "new_game", tone: "head", parts: [t("newGame")] });
    this.events.push({ type: "new_game" });
  }

  consume(event, live, running) {
    const names = this.narrator.names;
    this.narrator.push(event);
    this.events.push(event);
    if (this.events.length > 2 * KEPT_LINES) { // enough to tell the lines kept again (a line is one event or more)
      this.events.splice(0, this.events.length - 2 * KEPT_LINES);
      this.forgot = true;
    }
    if (running && event.type === "score") running[event.side] += event.points;
    switch (event.type) {
      case "round_start":
        if (this.roundOver && live) this.summary = { ...this.roundOver, totals: running ? [...running] : null, live: true };
        this.roundOver = null;
        this.tally = {};
        break;
      case "score": {
        const side = (this.tally[event.side] ||= {});
        side[event.reason] = (side[event.reason] || 0) + event.points;
        break;
      }
      case "round_end":
        this.roundOver = { kind: "round", round: event.round, piles: event.piles, tally: this.tally };
        break;
      case "challenge":
        this.challenger = event.seat; // a failed one ends the game: its end screen names who made it
        break;
      case "game_over":
        this.endReason = event.reason; // a page opened on a finished game tells how it was won from this
        if (live) {
          this.gameSummary(event.winner, event.reason, running);
          this.summary.live = true;
        }
        break;
      default:
        break;
    }
    if (PLAYS.has(event.type)) this.plays.push(event);
    if (live) {
      const call = shout(event, names);
      if (call) this.shouts.push(call);
    }
  }

  gameSummary(winner, reason, running) {
    const round = this.roundOver;
    this.summary = {
      kind: "game", winner, reason,
      piles: round?.piles ?? null, tally: round?.tally ?? this.tally,
      totals: running ? [...running] : null,
    };
    this.roundOver = null;
  }

  setConnected(on) {
    const changed = this.connected !== on;
    this.connected = on;
    if (!on) this.confirming = null;
    if (changed && this.view) {
      this.still = true; // nothing moved on the table: no animation
      this.render();
      this.still = false;
    }
  }

  // ------------------------------------------------------------ actions

  act(action, again = false) {
    if (this.pending || !this.connected) return;
    this.timedOut = false;
    this.pending = true;
    this.confirming = null;
    this.lastAction = action;
    if (!again) this.retries = 0;
    if (!this.hooks.act(action)) {
      this.pending = false;
      this.lastAction = null;
      this.hooks.offline?.();
    }
    this.render();
  }

  /** Whether this seat may ask for a hint now: the table allows them and the decision is its own. */
  canHint() {
    return Boolean(this.table?.hints && this.myTurn() && !this.hands && !this.summary);
  }

  askHint() {
    if (!this.canHint() || this.hintAsked !== null || this.hint) return false;
    this.hintAsked = this.version;
    this.hooks.send({ type: "hint" });
    this.render();
    return true;
  }

  /** Keyboard play: 1–9 play the hand's cards, n/r/t/d declare, h asks for a hint. Returns whether the key was used. */
  key(event) {
    if (!this.view || event.ctrlKey || event.metaKey || event.altKey) return false;
    if (event.key === "Tab") return keepTabIn(this.root.querySelector(".overlay[aria-modal='true']"), event);
    if (event.key === "?") {
      this.help = !this.help;
      this.render();
      return true;
    }
    if (event.key === "Escape" && (this.confirming !== null || this.help)) {
      // Here, not only on the dialog: a redraw while it is open (news from the table) can leave the focus outside it.
      this.confirming = null;
      this.help = false;
      this.render();
      return true;
    }
    if (this.seat === null || this.summary || this.help || this.confirming !== null || !this.connected || this.standingIn()) return false;
    const digit = Number(event.key);
    if (digit >= 1 && digit <= 9) {
      const name = this.view.hand[digit - 1];
      if (name && this.legal.some((a) => a.play === name)) {
        this.act({ play: name });
        return true;
      }
      return false;
    }
    if (event.key.toLowerCase() === "h") return this.askHint();
    const kinds = { n: "none", r: "ronda", t: "tringa", d: "double_ronda" };
    const kind = kinds[event.key.toLowerCase()];
    if (kind && this.legal.some((a) => a.declare === kind)) {
      this.act({ declare: kind });
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------ drawing

  render() {
    const view = this.view;
    if (!view || !this.table) return;
    const before = this.root.childElementCount ? snapshot(this.root) : null;
    // Where the keyboard is; on the page itself when the control it was on went disabled (a decision sent, waiting
    // for its answer) or away: then where it was at the last drawing. Not when that control is still there to be
    // focused: the person moved away themself (a click in the play-by-play, to select a line), and stays away.
    const at = document.activeElement;
    const still = this.lastFocus && this.root.querySelector(`[data-focus="${CSS.escape(this.lastFocus)}"]:not([disabled])`);
    const focus = at?.dataset?.focus ?? ((!at || at === document.body) && !still ? this.lastFocus : undefined);
    this.graceTexts = [];
    const names = this.narrator.names;
    const logBox = this.root.querySelector(".log-lines");
    const scrolledUp = logBox && logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight > 40;
    const readingAt = logBox?.scrollTop ?? 0;

    this.root.replaceChildren(
      this.header(view, names),
      el("div", { class: "board" },
        this.ring(view, names),
        this.narration()),
    );
    this.fitLog();
    this.root.dataset.phase = view.phase;
    this.root.dataset.players = String(view.players);
    if (this.table.status === "waiting") this.root.append(this.waitingPanel());
    if (this.summary) this.root.append(this.summaryDialog(view, names));
    else if (this.help) this.root.append(this.helpDialog(view));
    else if (this.confirming !== null) this.root.append(this.challengeDialog(view, names, this.confirming));
    inertBehind(this.root.querySelector(".overlay[aria-modal='true']"));

    const log = this.root.querySelector(".log-lines");
    // The panel drawn anew follows the newest line, unless its reader scrolled up: then it stays where they read
    // (it went back to the game's first line at every move, now that the whole game is kept).
    if (log) log.scrollTop = scrolledUp ? readingAt : log.scrollHeight;
    if (focus) {
      // The control the keyboard was on may be gone (the card just played, a closed dialog's button): the keyboard
      // then stays at the table, on the hand or the first decision, where it went back to the page's top (an audit:
      // three Tabs to reach a card again after every move).
      const again = this.root.querySelector(`[data-focus="${CSS.escape(focus)}"]:not([disabled])`)
        ?? this.root.querySelector("#decisions button:not([disabled]), .hand-card.playable, .hand-card");
      again?.focus({ preventScroll: true });
    }
    this.lastFocus = this.root.contains(document.activeElement) ? document.activeElement.dataset.focus : undefined;
    const myTurn = this.myTurn();
    this.announceNews(myTurn);
    document.title = myTurn ? `● ${t("yourTurn")} · ${t("title")}` : t("title");

    if (!this.still) animate(this.root, before, this.plays, {
      sideOf: (seat) => sideOf(seat, view.players),
      faceOf: (name) => cardSvg(name, { decorative: true }),
      me: this.seat,
    });
    this.shouts.slice(-3).forEach((call, i) => setTimeout(() => callout(this.root.querySelector("#felt"), call.text, call.tone), i * 300));
    this.shouts = [];
    this.plays = [];
  }

  /** The play-by-play beside the table ends above the window's bottom edge, its newest line in sight without
   * scrolling the page: its greatest height is the window's less where the board starts (CSS reads --log-top). */
  fitLog() {
    const board = this.root.querySelector(".board");
    if (!board) return;
    const top = Math.max(0, Math.round(board.getBoundingClientRect().top + window.scrollY));
    if (this.root.style.getPropertyValue("--log-top") !== `${top}px`) this.root.style.setProperty("--log-top", `${top}px`);
    if (!this.fitting) {
      this.fitting = () => { if (this.root.isConnected) this.fitLog(); else window.removeEventListener("resize", this.fitting); };
      window.addEventListener("resize", this.fitting);
    }
  }

  /** The last moves, under the hand where the play-by-play is further down the page (a phone, a narrow window):
   * the newest two lines, read without scrolling. The play-by-play itself says them to screen readers. */
  recent() {
    if (this.hands) return null;
    return el("ol", { class: "recent", id: "recent", "aria-hidden": "true" }, this.narrator.lines.slice(-2).map(lineNode));
  }

  /** The play-by-play's new lines, then the turn's prompt when the turn comes, told to screen readers
   * (:func:`announce`); the first drawing sets where the telling starts, so a table opened mid-game reads nothing
   * already past. A replay tells nothing: its reader steps through it. */
  announceNews(myTurn) {
    if (this.hands) return;
    const lines = this.narrator.lines;
    const last = lines.length ? lines[lines.length - 1].id : 0;
    if (this.announced === null) {
      this.announced = { line: last, turn: myTurn ? this.version : null };
      if (myTurn) this.showTurn();
      return;
    }
    const fresh = lines.filter((line) => line.id > this.announced.line).map((line) => el("span", {}, ...lineNode(line).childNodes));
    const turn = myTurn && this.announced.turn !== this.version ? this.root.querySelector("#turn")?.textContent : null;
    this.announced = { line: Math.max(last, this.announced.line), turn: myTurn ? this.version : this.announced.turn };
    if (fresh.length || turn) announce(...fresh, ...(turn ? [turn] : []));
    if (turn) this.showTurn();
  }

  /** A hint has come: brought into sight (on a phone it opened below the fold, its heading alone in view: an
   * audit), and its heading and options told to screen readers. */
  showHint() {
    const panel = this.root.querySelector("#hint");
    if (!panel) return;
    bringIntoView(panel, "nearest");
    const said = [panel.querySelector("h3"), ...panel.querySelectorAll(".hint-forced, .hint-options li")];
    announce(...said.filter(Boolean).map((node) => node.textContent));
  }

  /** The turn has come: on a screen too short for the table, the hand and the decision together (a small phone,
   * a phone held sideways), the page scrolls down to the decision, whose buttons were below the fold (an audit:
   * "you see half your cards and neither the prompt nor the Declare buttons"). Where it is in sight, nothing moves. */
  showTurn() {
    const box = this.root.querySelector("#decisions");
    if (!box || this.summary || this.help || this.confirming !== null) return;
    if (box.getBoundingClientRect().bottom <= window.innerHeight + 1) return; // in sight, to the pixel
    bringIntoView(box, "end");
  }

  // The server's turn clock (summary.turn_time): when it runs out, the stand-in makes this decision. The page
  // counts from the moment it was shown the decision, a second early to allow for the way there, and says so
  // only over the last 30 seconds.
  turnLeft() {
    const limit = this.table?.turn_time;
    if (!limit || !this.myTurn()) return null;
    if (this.turnAt?.version !== this.version) this.turnAt = { version: this.version, since: Date.now() };
    return limit - 1 - (Date.now() - this.turnAt.since) / 1000;
  }

  /** The countdown, right after the prompt (a phone wraps the buttons under it, not the clock): none or one. */
  turnClocks() {
    if (!this.myTurn() || !this.table?.turn_time || this.declaredForMe()) return [];
    // Not a live region itself: a screen reader would be told it every second (told at 30 and 10 s instead).
    return [el("span", { class: "turn-clock", id: "turn-clock", "aria-live": "off" }, this.clockText())];
  }

  /** The countdown's words, over the last 30 seconds; the clock is watched every second until then, since nothing
   * else redraws the page while the person thinks (the countdown never appeared, and the computer played for
   * them unwarned: an audit). At 30 and 10 seconds left, screen readers are told it once. */
  clockText() {
    const left = this.turnLeft();
    if (left === null || left <= 0) return "";
    this.tickClock();
    if (left > 30) return "";
    const text = t("turnClock", { n: Math.max(0, Math.ceil(left)) });
    const said = this.clockSaid?.version === this.version ? this.clockSaid.at : Infinity;
    const now = left <= 10 ? 10 : 30;
    if (now < said) {
      this.clockSaid = { version: this.version, at: now };
      announce(text);
    }
    return text;
  }

  /** A reload or a reconnection mid-decision: the server says how long is left (``clock``), the page counts on. */
  clockFrom(msg) {
    const limit = this.table?.turn_time;
    if (msg.clock === null || msg.clock === undefined || !limit) return;
    this.turnAt = { version: msg.version, since: Date.now() - (limit - msg.clock) * 1000 };
  }

  /** On a round's summary: the next deal's clock already runs for this seat's decision, and how long is left
   * (the server gives the first decision of a round more time for reading the summary, and says how much). */
  summaryClockText() {
    const left = this.turnLeft();
    if (left === null) return "";
    this.tickClock();
    return t("summaryClock", { n: Math.max(0, Math.ceil(left)) });
  }

  tickClock() {
    if (this.clockTimer) return;
    // Wakes each second while the clock is shown; stops by itself once it is gone (a move, the page left).
    this.clockTimer = setTimeout(() => {
      this.clockTimer = null;
      if (!this.root.isConnected) return;
      const clock = this.root.querySelector("#turn-clock");
      if (clock) clock.textContent = this.clockText();
      const onSummary = this.root.querySelector("#summary-clock");
      if (onSummary) onSummary.textContent = this.summaryClockText();
    }, 1000);
  }

  /** Whole seconds left of ``seat``'s grace period while its person is away (0 once run out), or null when none runs. */
  graceLeft(seat) {
    const end = this.graceEnds[seat];
    return end === null || end === undefined ? null : Math.max(0, Math.ceil((end - Date.now()) / 1000));
  }

  /** ``node`` says ``text()``, said again each second while it is on the page (an away person's grace period). */
  counting(node, text) {
    node.textContent = text();
    this.graceTexts.push([node, text]);
    if (!this.graceTimer) {
      this.graceTimer = setTimeout(() => {
        this.graceTimer = null;
        const shown = this.graceTexts.filter(([n]) => n.isConnected);
        this.graceTexts = [];
        for (const [n, say] of shown) this.counting(n, say);
      }, 1000);
    }
    return node;
  }

  /** The seat whose turn it is, seen by the others: a person away is not thinking, and the computer playing for a
   * person is not that person (an audit read "Eve is playing…", dots and all, while Eve's page was closed and
   * nobody played for her). ``"stand_in"`` (the computer plays the seat), ``"away"`` (the table waits for the person
   * through their grace period), or null (the seat's own player, person or bot, decides). */
  whoDecides(seat) {
    const info = this.seatInfo(seat);
    if (info.kind !== "human" || this.table.status !== "playing") return null;
    if (info.stand_in) return "stand_in";
    return info.connected ? null : "away";
  }

  /** What the others read of a person away on their turn: the table waits for them, and for how long. */
  awayText(seat, name, short) {
    const n = this.graceLeft(seat);
    if (short) return n ? t("graceShort", { n }) : t("graceOver");
    return n ? t("awayTurn", { name, n }) : t("awayTurnNow", { name });
  }

  /** The decision owed now is this seat's to make by hand. Not while the computer plays for the seat (its
   * person let three turns pass, :meth:`standingIn`): the server still sends the seat its legal moves, and the page
   * showed "Your turn" with a clock and playable cards under "the computer plays for you now", flashing at each of
   * the stand-in's turns (an audit). */
  myTurn() {
    const view = this.view;
    return Boolean(view && this.connected && this.seat !== null && view.turn === this.seat && this.legal.length && !this.standingIn());
  }

  /** The computer plays for this seat, whose person is here but let three turns pass: "I'm back" takes it again. */
  standingIn() {
    const mine = this.seat === null || this.hands ? null : this.table?.seats?.[this.seat];
    return Boolean(mine?.stand_in);
  }

  /** This seat owes its declaration and the server makes it (the person chose automatic declarations and is here,
   * no stand-in): the page says so, and counts down no clock, which cannot run out on it (the server declares
   * within its first half). Only this seat's own pages know the choice: the others are never told it. */
  declaredForMe() {
    return this.autoDeclare && !this.hands && this.myTurn() && this.legal.some((a) => "declare" in a);
  }

  header(view, names) {
    const sides = view.scores.map((score, side) => {
      const share = Math.max(0, Math.min(100, (score / view.target) * 100));
      const mine = names.isMySide(side);
      return el("div", { class: `score${mine ? " my-side" : ""}`, "data-side": side },
        el("span", { class: "score-name", title: view.players === 4 ? `${names.seatName(side)} & ${names.seatName(side + 2)}` : null }, names.sideName(side)),
        el("span", { class: "points", "aria-label": count("pointsOf", score, { name: names.sideName(side), points: score }) }, score),
        el("span", { class: "bar", "aria-hidden": "true" }, el("span", { style: `inline-size:${share}%` })));
    });
    return el("header", { class: "table-head" },
      el("div", { id: "scores", class: "scores", "aria-label": t("scores") }, sides),
      el("div", { class: "facts" },
        el("span", { class: "target", title: t("targetHint") }, t("targetN", { n: view.target })),
        el("span", { class: "where" }, t("roundDeal", { round: view.round + 1, deal: view.deal + 1, deals: view.deals_in_round })),
        el("button", { type: "button", class: "btn help-button", id: "rules-button", "aria-label": t("howTo"), title: t("howTo"), onclick: () => { this.help = true; this.render(); } }, "?"),
        el("span", { id: "connection", class: `connection${this.connected || this.hands ? "" : " off"}`, title: this.connected ? t("connected") : t("reconnecting"), hidden: Boolean(this.hands) },
          el("span", { class: "dot", "aria-hidden": "true" }), el("span", { class: "label" }, this.connected ? t("connected") : t("reconnecting")))));
  }

  ring(view, names) {
    const n = view.players;
    const bottom = this.seat ?? 0;
    const others = [];
    for (let k = 1; k < n; k++) others.push((bottom + k) % n);
    return el("div", { class: `ring players-${n}` },
      others.map((seat) => this.seatPanel(view, names, seat, placeOf(seat, bottom, n))),
      this.felt(view, names),
      this.seat === null && !this.hands ? this.watchPanel(view, names, bottom) : this.mine(view, names, bottom));
  }

  seatInfo(seat) {
    return this.table.seats?.[seat] || {};
  }

  avatar(seat, names) {
    const info = this.seatInfo(seat);
    const label = names.seatName(seat);
    return el("span", { class: `avatar${info.kind === "bot" ? " bot" : ""} seat-colour-${seat}`, "aria-hidden": "true" },
      info.kind === "bot" ? "⚙" : (personName(info.name) || label).trim().charAt(0).toUpperCase() || "?");
  }

  badges(view, seat) {
    const out = [];
    const declared = view.declarations[seat];
    if (declared && declared !== "none") {
      const exposed = view.exposed[seat];
      // Named as an image, with what it means: a span's own aria-label is not read, and "Ronda" alone told a
      // screen reader nothing of whether it was declared or shown false (an audit); so is the dealer's "D".
      const hint = exposed ? t("exposedHint") : t("declaredHint");
      out.push(el("span", { class: `declared${exposed ? " exposed" : ""}`, title: hint, role: "img", "aria-label": `${hint}: ${kindName(declared)}` },
        kindName(declared), exposed ? ` ✗` : ""));
    }
    if (view.dealer === seat) out.push(el("span", { class: "dealer", title: t("dealer"), role: "img", "aria-label": t("dealer") }, t("dealerShort")));
    return out;
  }

  pile(view, seat, names) {
    const side = sideOf(seat, view.players);
    const taken = view.pile_sizes[side];
    // With transfer scoring (R10) a side short of cards owes them: shown beside its pile.
    const owed = (view.debts?.[side] || []).reduce((a, b) => a + b, 0);
    return el("span", { class: "pile", "data-pile": side, title: count("pileOf", taken, { name: names.sideName(side) }) },
      el("span", { class: "pile-stack", "aria-hidden": "true", html: taken ? backSvg() : "" }),
      // With four players a pile is the partnership's: said so, or the two partners' counts read as two piles
      // (on a phone's row of three seats only the hand's own panel says it: css .pile-pair).
      el("span", { class: "pile-count" }, count("pileN", taken),
        view.players === 4 ? el("span", { class: "pile-pair" }, ` ${t("byThePair")}`) : null),
      owed ? el("span", { class: "owes" }, t("owesN", { n: owed })) : null);
  }

  seatPanel(view, names, seat, place) {
    const info = this.seatInfo(seat);
    const partner = view.players === 4 && this.seat !== null && seat % 2 === this.seat % 2;
    const turn = view.turn === seat && (view.phase === "play" || view.phase === "declare");
    const free = info.kind === "human" && info.taken === false;
    // While our own connection is down, nothing is known of the others': neither here nor away, nor playing.
    const unknown = !this.connected && !this.hands;
    // Said after the game too: the end screen's Play again waits on who is here (an audit read "connected" beside a
    // Play again that waited for a player gone to the lobby).
    const away = !unknown && info.kind === "human" && !info.connected && !this.hands;
    const size = view.hand_sizes[seat];
    const hand = this.hands
      ? this.hands[seat].map((name) => el("span", { class: "card face small", "data-key": `card:${name}`, html: cardSvg(name) }))
      : Array.from({ length: size }, () => el("span", { class: "card back small", html: backSvg() }));
    const shown = view.shown[seat];
    let status = null;
    // A replay (this.hands) shows the moment replayed, not the live table: nobody there is here, away or thinking.
    if (turn && !unknown && !this.hands) {
      const declaring = view.phase === "declare";
      const who = this.whoDecides(seat);
      if (who === "away") status = this.counting(el("span", { class: "grace-left", "data-grace": seat }), () => this.awayText(seat, "", true));
      else {
        const doing = who === "stand_in" ? t(declaring ? "computerDeclaring" : "computerPlaying") : t(declaring ? "declaring" : "playing");
        status = el("span", { class: "thinking" }, doing, el("i"), el("i"), el("i"));
      }
    }
    return el("section", {
      class: `seat place-${place}${turn ? " turn" : ""}${partner ? " partner" : ""}${away ? " away" : ""}`,
      "data-seat": seat, "aria-label": names.seatName(seat),
    },
    el("div", { class: "seat-id" },
      this.avatar(seat, names),
      el("div", { class: "seat-who" },
        el("b", { class: "seat-name" }, names.seatName(seat)),
        seatNote(partner ? t("partner") : null, [
          info.kind === "bot" ? t("botLevel", { level: levelName(info.level) }) : (partner || this.seat === null ? null : t("opponent")),
          info.stand_in ? t("botFor") : null,
          this.table?.stalled === seat ? t("stalled") : null,
          free ? t("freeSeat") : away ? t("away") : null,
        ])),
      this.hands ? null : el("span", {
        class: `presence${away ? " off" : unknown ? " unknown" : ""}`, role: "img",
        title: t(away ? "away" : unknown ? "presenceUnknown" : "here"), "aria-label": t(away ? "away" : unknown ? "presenceUnknown" : "here"),
      })),
    el("div", { class: "seat-hand", role: "group", "aria-label": count("cardsInHand", size) }, hand),
    el("div", { class: "seat-meta" }, this.pile(view, seat, names), this.badges(view, seat), status),
    shown ? el("div", { class: "shown", "aria-label": t("shownHand") }, shown.map(chip)) : null);
  }

  felt(view, names) {
    const cards = view.table.map((name) => el("div", {
      class: `card table-card${view.last_drop === name ? " dropped" : ""}${view.chain?.cards?.includes(name) ? " chained" : ""}`,
      "data-key": `card:${name}`, "data-table-card": name, role: "img", "aria-label": cardLabel(name),
      html: cardSvg(name, { decorative: true }),
    }));
    let note = "";
    if (view.chain) {
      note = el("div", { class: "chain-note" }, t("chainOpen", { rank: rankName(Number(view.chain.rank)), side: names.sideName(view.chain.side) }),
        " ", view.chain.cards.map(chip));
    } else if (view.last_drop && view.table.includes(view.last_drop)) {
      note = el("div", { class: "felt-note" }, t("lastDrop"), " ", chip(view.last_drop));
    } else if (!view.table.length && view.phase === "play") {
      note = el("div", { class: "felt-note" }, t("emptyTable"));
    }
    return el("section", { class: "felt", id: "felt", "aria-label": t("table") },
      el("div", { class: "stock", id: "stock", title: t("stockN", { n: view.stock }) },
        view.stock ? el("span", { class: "card back stock-card", html: backSvg() }) : el("span", { class: "stock-empty" }),
        el("span", { class: "stock-count" },
          el("span", { class: "long" }, view.stock ? t("stockN", { n: view.stock }) : t("stockEmpty")),
          el("span", { class: "short", "aria-hidden": "true" }, view.stock))),
      el("div", { class: "table-cards", id: "table-cards" }, cards),
      note);
  }

  watchPanel(view, names, bottom) {
    // A spectator sees the bottom seat like any other: backs only.
    return el("div", { class: "watching" },
      this.seatPanel(view, names, bottom, "bottom"),
      el("p", { class: "watch-note" }, t("watchingNote"), " ", el("a", { href: "/", "data-link": "" }, t("lobby"))));
  }

  mine(view, names, seat) {
    const playable = new Set(this.legal.filter((a) => "play" in a).map((a) => a.play));
    const turn = this.myTurn();
    const hand = (this.hands ? this.hands[seat] : view.hand).map((name, i) => {
      const can = !this.hands && this.connected && playable.has(name) && !this.pending && !this.standingIn();
      return el("button", {
        type: "button",
        class: `card hand-card${can ? " playable" : ""}`,
        "data-card": name, "data-key": `card:${name}`, "data-focus": `card:${name}`,
        "aria-disabled": can ? "false" : "true",
        title: can && i < 9 ? `${cardLabel(name)} — ${i + 1}` : cardLabel(name),
        // The button is named by its drawing (role img, the card's name): the corner indices are not its name.
        html: cardSvg(name),
        onclick: () => { if (can) this.act({ play: name }); },
      });
    });
    const info = this.seatInfo(seat);
    const who = this.hands ? names.seatName(seat) : t("you");
    return el("section", { class: `mine${turn ? " turn" : ""}`, "data-seat": seat, "aria-label": t("yourHand") },
      el("div", { class: "mine-head" },
        this.avatar(seat, names),
        el("b", {}, who, this.hands && info.kind === "bot" ? el("small", {}, ` · ${levelName(info.level)}`) : null),
        this.pile(view, seat, names),
        this.badges(view, seat),
        this.hands ? null : el("label", { class: "switch", title: t("autoDeclareHint") },
          el("input", {
            type: "checkbox", id: "auto-declare", checked: this.autoDeclare, "data-focus": "auto-declare",
            onchange: (e) => this.hooks.send({ type: "auto_declare", on: e.target.checked }),
          }),
          el("span", { class: "slider", "aria-hidden": "true" }),
          el("span", {}, t("autoDeclare")))),
      el("div", { class: "hand", id: "hand", role: "group", "aria-label": t("yourHand") }, hand),
      this.controls ? this.controls() : this.decisions(view, names),
      this.recent(),
      this.hint && !this.hands ? hintPanel(this.hint, names, chip, () => { this.hint = null; this.render(); }, view.hand) : null);
  }

  decisions(view, names) {
    const box = el("div", { class: "decisions", id: "decisions" }); // told to screen readers by announceNews
    const declares = this.legal.filter((a) => "declare" in a).map((a) => a.declare);
    const challenges = this.legal.filter((a) => "challenge" in a).map((a) => a.challenge);
    const turnName = view.turn === null || view.turn === undefined ? "" : names.seatName(view.turn);
    if (view.phase === "game_over") {
      box.append(el("span", { class: "prompt" }, t("gameOver")));
      if (!this.summary) box.append(el("button", { class: "btn", type: "button", "data-focus": "show-result", onclick: () => { this.gameSummary(view.winner, this.endReason ?? null); this.render(); } }, t("showResult")));
      return box;
    }
    if (this.table.status === "waiting") {
      box.append(el("span", { class: "prompt muted" }, t("waitingForPlayers")));
      return box;
    }
    if (!this.connected && !this.hands) {
      // Nothing sent now would arrive: no turn is offered until the connection is back.
      // Whose turn it was when the connection went: ours waits for us; another seat's may be played meanwhile.
      const ours = this.seat !== null && view.turn === this.seat;
      const said = ours ? t("offlinePrompt") : turnName ? t("offlinePromptOther", { name: turnName }) : t("reconnecting");
      box.append(el("span", { class: "prompt muted", id: "turn" }, said));
      return box;
    }
    if (this.standingIn()) {
      // Three turns let pass: the computer plays this seat, and nothing here is the person's to play until they say
      // they are back (a hello on this connection); the cards are not playable meanwhile.
      box.append(el("span", { class: "prompt muted", id: "stand-in-note" }, t("standInForYou")));
      box.append(el("button", {
        type: "button", class: "btn primary", id: "take-seat-back", "data-focus": "take-seat-back",
        onclick: () => { this.timedOut = false; this.hooks.back?.(); },
      }, t("takeSeatBack")));
      return box;
    }
    if (declares.length) {
      const truth = view.combination; // the server's reading of the hand as dealt: the page detects nothing itself
      box.append(el("span", { class: "prompt", id: "turn" }, t("declarePrompt")), ...this.turnClocks());
      for (const kind of declares) {
        const honest = kind === truth;
        box.append(el("button", {
          type: "button", class: `btn declare${kind === "none" ? "" : " primary"}${honest ? " honest" : ""}`,
          "data-action": `declare-${kind}`, "data-focus": `declare-${kind}`, disabled: this.pending,
          title: honest ? t("honestHint") : t("bluffHint"),
          onclick: () => this.act({ declare: kind }),
        }, kindName(kind), honest ? el("span", { class: "honest-mark", "aria-label": t("honestHint") }, " ✓") : null));
      }
      // The buttons stay: a declaration by hand that comes first is taken, as ever.
      if (this.declaredForMe()) box.append(el("span", { class: "prompt muted", id: "auto-declaring" }, t("autoDeclaring")));
    } else if (this.myTurn()) {
      box.append(el("span", { class: "prompt you", id: "turn" }, t("playPrompt")), ...this.turnClocks());
    } else {
      const who = this.whoDecides(view.turn);
      const declaring = view.phase === "declare";
      const prompt = el("span", { class: "prompt muted", id: "turn" });
      if (who === "away") this.counting(prompt, () => this.awayText(view.turn, turnName, false));
      else if (who === "stand_in") prompt.textContent = t(declaring ? "standInDeclares" : "standInTurn", { name: turnName });
      else prompt.textContent = declaring ? t("declareTurnOf", { name: turnName }) : t("turnOf", { name: turnName });
      box.append(prompt);
    }
    if (this.timedOut) {
      // Once the person's turn is back, "play on when your turn comes" beside "Your turn" read as two orders.
      box.append(el("span", { class: "prompt muted", id: "turn-over" }, t(this.myTurn() ? "turnOverBack" : "turnOver")));
    }
    const mine = this.seat === null ? null : this.table?.seats?.[this.seat];
    const playing = this.table.status === "playing";
    const left = mine && !mine.stand_in && playing ? this.leftNote(mine, view.players) ?? this.partnerNote(view, names) : null;
    if (left) box.append(el("p", { class: "prompt left-note", id: "left-note" }, left));
    if (this.canHint()) {
      const waiting = this.hintAsked !== null;
      box.append(el("button", {
        type: "button", class: "btn hint-button", id: "hint-button", "data-action": "hint", "data-focus": "hint-button",
        title: t("hintAsk"), "aria-busy": waiting ? "true" : "false", disabled: this.pending || waiting || Boolean(this.hint),
        onclick: () => this.askHint(),
      }, waiting ? t("hintThinking") : t("hint")));
    }
    // The challenges stand in a row of their own, apart from Hint and the prompt (a slip of the thumb loses the game).
    const risky = challenges.length ? el("div", { class: "challenges", id: "challenges" }) : null;
    if (risky) box.append(risky);
    for (const target of challenges) {
      const kind = kindWord(view.declarations[target] || "ronda");
      const name = names.seatName(target);
      if (view.proven?.[target] === "true") {
        // The seat's own cards prove the declaration true: a challenge could only fail and lose the game (R8.8).
        risky.append(el("span", { class: "proven-note", "data-proven": target }, t("challengeProven", { name, kind })));
        continue;
      }
      risky.append(el("button", {
        type: "button", class: "btn danger", "data-action": `challenge-${target}`, "data-focus": `challenge-${target}`,
        title: t("challengeHint"), disabled: this.pending,
        onclick: () => { this.confirming = target; this.render(); }, // a wrong challenge loses the game: ask first
      }, t("challenge", { name, kind })));
    }
    return box;
  }

  /** The server's grace period (``--grace``) as a page writes it: "15", "0,5" in French. */
  graceSeconds() {
    const grace = Number(this.table?.grace ?? 0);
    return Number.isInteger(grace) ? String(grace) : decimal(grace, 1);
  }

  /** Said to a person back in a game that counts as left by them (the summary's ``left``): an audit's player came
   * back after the grace period to an ordinary "Declare your hand", played on, reached the target, and read only at
   * the end that the game counted as a loss. In a game that can be rated it says so, and that they may play on; in one
   * that cannot (a bot, a guest), only what happened meanwhile. */
  leftNote(mine, players) {
    const rated = Boolean(this.table.rateable);
    // "If it is rated": a game left on every side is not (a friend told "a loss whatever happens" won it, unrated:
    // an audit); with four players the loss is the side's, the partner's too.
    const whom = t(players === 4 ? "lossYourSide" : "lossYou");
    if (mine.left === "away") return t(rated ? "backAfterGrace" : "backAfterGraceUnrated", { n: this.graceSeconds(), whom });
    if (mine.left === "turns" && rated) return t("backAfterTurns", { whom });
    return null;
  }

  /** With four players, a partner counting as having left makes a rated game the side's loss: said to the partner
   * who stayed, whose page said nothing of it (an audit). */
  partnerNote(view, names) {
    if (view.players !== 4 || !this.table.rateable) return null;
    const partner = (this.table.seats || []).find((x) => x.seat !== this.seat && names.isMySide(sideOf(x.seat, 4)));
    return partner?.left ? t("partnerLeft", { name: names.seatName(partner.seat) }) : null;
  }

  /** Are you sure? A challenge of a true declaration loses the game at once (R8.8): said in the game's words. */
  challengeDialog(view, names, target) {
    const name = names.seatName(target);
    const kind = kindWord(view.declarations[target] || "ronda");
    const cancel = () => { this.confirming = null; this.render(); };
    const proven = view.proven?.[target] === "false";
    const overlay = el("div", { class: "overlay appear", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text", id: "challenge-confirm", onclick: (e) => { if (e.target === overlay) cancel(); } },
      el("div", { class: "dialog confirm" },
        el("h2", { id: "confirm-title" }, t("challengeAsk", { name, kind })),
        el("p", { id: "confirm-text" }, t("challengeRisk", { name, kind })),
        proven ? el("p", { class: "hint" }, t("challengeSafe", { name, kind })) : null,
        el("div", { class: "dialog-buttons" },
          el("button", { type: "button", class: "btn", "data-action": "cancel-challenge", "data-focus": "cancel-challenge", onclick: cancel }, t("cancel")),
          el("button", { type: "button", class: "btn danger", "data-action": "confirm-challenge", onclick: () => this.act({ challenge: target }) }, t("challengeYes", { name, kind })))));
    overlay.addEventListener("keydown", (e) => { if (e.key === "Escape") cancel(); });
    setTimeout(() => overlay.querySelector("[data-action='cancel-challenge']")?.focus({ preventScroll: true }), 0);
    return overlay;
  }

  /** The whole game, its first round's heading too: the narrator forgets lines only past a cap no game to the
   * target nears (a table's games played on and on in one page), and then says so at the top. */
  narration() {
    return el("aside", { class: "log", "aria-label": t("narration") },
      el("h2", {}, t("narration")),
      el("ol", { class: "log-lines", id: "log" }, // its new lines are told to screen readers by announceNews
        this.narrator.trimmed ? el("li", { class: "log-trimmed tone-deal" }, t("logTrimmed")) : null,
        this.narrator.lines.map(lineNode)));
  }

  waitingPanel() {
    // The server says which address friends should use (its --public-url, or the address this page came from),
    // and when that address cannot work for friends on other machines.
    const link = this.invite?.link || `${location.origin}/t/${this.table.table_id}`;
    const note = this.invite?.note;
    const names = this.narrator.names;
    const input = el("input", { readonly: true, value: link, id: "invite-link", "aria-label": t("inviteLink"), onfocus: (e) => e.target.select() });
    const copy = el("button", { type: "button", class: "btn primary", id: "copy-invite" }, t("copy"));
    copy.addEventListener("click", () => this.hooks.copyInvite(link, copy, input));
    const share = navigator.share
      ? el("button", { type: "button", class: "btn", onclick: () => navigator.share({ title: t("title"), text: t("shareText"), url: link }).catch(() => {}) }, t("share"))
      : null;
    const creator = this.seat !== null && this.seat === this.table.creator;
    const toggle = (id, key, checked) => el("label", { class: "check" },
      el("input", { type: "checkbox", id, checked, "data-focus": id, onchange: (e) => this.hooks.send({ type: "settings", [key]: e.target.checked }) }),
      el("span", {}, t(id)));
    return el("div", { class: "overlay soft", id: "waiting", role: "dialog", "aria-modal": "false", "aria-labelledby": "waiting-title" },
      el("div", { class: "dialog waiting" },
        el("h2", { id: "waiting-title" }, t("waitingForPlayers")),
        el("p", { class: "hint" }, t("inviteHelp")),
        el("div", { class: "invite" }, input, copy, share),
        note ? el("p", { class: "invite-warning", id: "invite-note", role: "note" }, withCode(`inviteNote_${note}`)) : null,
        creator ? el("div", { class: "access" },
          toggle("listPublic", "public", Boolean(this.table.public)),
          toggle("letWatch", "spectators", this.table.spectators !== false),
          toggle("allowHints", "hints", Boolean(this.table.hints))) : null,
        el("ul", { class: "seat-list" }, this.table.seats.map((s) => el("li", { class: s.taken ? "taken" : "free" },
          el("span", { class: `avatar seat-colour-${s.seat}`, "aria-hidden": "true" }, s.seat + 1),
          el("span", { class: "grow" }, s.kind === "bot" ? t("botLevel", { level: levelName(s.level) }) : (s.taken ? names.seatName(s.seat) : t("freeSeat"))),
          el("span", { class: "tick", "aria-label": s.taken ? t("here") : t("freeSeat") }, s.taken ? "✓" : "…")))),
        el("div", { class: "dialog-buttons" }, el("a", { class: "btn", href: "/", "data-link": "" }, t("lobby")))));
  }

  /** The keys this game answers to (:meth:`key`), as the help says them: D only where a double ronda can be
   * declared (four-card hands), no declaring with automatic declarations, H only at a table that gives hints. */
  keys(view) {
    const rules = view.rules ?? {};
    const letters = rules.four_card_hands ? "N/R/T/D" : "N/R/T";
    const keys = [t("keyPlay")];
    if (!rules.auto_declare) keys.push(t("keyDeclare", { letters }));
    if (this.table?.hints) keys.push(t("keyHint"));
    keys.push(t("keyHelp"));
    return keys.join(t("listComma"));
  }

  helpDialog(view) {
    const close = () => { this.help = false; this.render(); };
    // What holds at this table: its rules write the lines (howto.js), as the terminal's help is written from them.
    const rules = view.rules ?? {};
    const terms = termsOf(rules).map(([term, means]) => [el("dt", {}, term), el("dd", {}, means)]);
    const overlay = el("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "help-title", id: "help", onclick: (e) => { if (e.target === overlay) close(); } },
      el("div", { class: "dialog help" },
        el("h2", { id: "help-title" }, t("howTo")),
        el("ul", { id: "help-rules" }, howTo(rules).map((line) => el("li", {}, line))),
        el("dl", {}, terms),
        el("p", { class: "hint", id: "help-keys" }, t("keysHint", { keys: this.keys(view) }), " · ", t("targetN", { n: view.target })),
        el("div", { class: "dialog-buttons" }, el("button", { type: "button", class: "btn primary", "data-focus": "help-close", onclick: close }, t("close")))));
    overlay.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
    setTimeout(() => overlay.querySelector(".btn.primary")?.focus({ preventScroll: true }), 0);
    return overlay;
  }

  /** The rating change of each player of a rated game (sent once stored, in the table's summary), or why the
   * game is not rated, each reason the server gives (the summary's `unrated`): a game among guests that showed
   * neither left its players guessing. Neither while a rated game's changes are on their way. */
  ratingChanges(names) {
    const changes = this.table?.ratings;
    if (!changes) {
      const reasons = this.table?.unrated || [];
      return reasons.length
        ? el("p", { class: "hint unrated", id: "unrated", "data-reasons": reasons.join(" ") },
          [t("notRated"), ...reasons.map((reason, i) => sentence(t(`unrated_${reason}`), i > 0))].join(" "))
        : null;
    }
    return el("section", { class: "rating-changes", id: "rating-changes", "aria-labelledby": "rating-title" },
      el("h3", { id: "rating-title" }, t("ratingTitle")),
      el("ul", {}, changes.map((c) => el("li", { class: `rating-change${c.seat === this.seat ? " own" : ""}`, "data-seat": c.seat },
        el("a", { href: `/p/${encodeURIComponent(c.player_id)}`, "data-link": "" }, names.seatName(c.seat)), " ",
        ratingChange(c),
        c.provisional ? el("small", { class: "provisional" }, ` ${t("provisional")}`) : null,
        c.abandoned ? el("small", { class: "abandoned" }, ` ${t("abandonedLost")}`) : null))),
      // "You −37 → 963" beside "Omar +69 → 1,069" puzzled a newcomer: the shown rating is cautious (mu − 3 sigma),
      // and while it is new a win moves it more than a loss (both shrink its doubt). Said once, where it applies.
      changes.some((c) => c.provisional) ? el("p", { class: "hint", id: "provisional-note" }, t("provisionalNote")) : null);
  }

  /** The headline of a rated game that a player left (their seat's rating change is `abandoned`): the outcome
   * that counts, as the ratings and the players' pages have it, not the rules' winner, which may be the leaver's
   * stand-in (an audit: the leaver read "You win!" above "counted as lost"). The rules' result is said below,
   * with who played the leaver's seat where it won (`verdict`, else `null`: the rules' result as it is said). `null`
   * when nobody left a rated game: the rules' result is the outcome. */
  leftGame(s, names, view) {
    const changes = this.table?.ratings || [];
    const leavers = changes.filter((c) => c.abandoned).map((c) => c.seat);
    if (!leavers.length) return null;
    const name = leavers.map((seat) => names.seatName(seat)).join(", ");
    const own = changes.find((c) => c.seat === this.seat);
    const partnerLeft = names.players === 4 && leavers.some((seat) => names.isMySide(sideOf(seat, names.players)));
    let title;
    if (!own) title = t("leftCountedLost", { name }); // a spectator: who left, no side taken
    else if (own.abandoned) title = t("youLeftLost");
    else if (own.result === "won") title = t("leftYouWin", { name });
    else title = partnerLeft ? t("leftYourSideLoses", { name }) : t("weLose");
    // The rules' result stays as it was said, unless the leaver's side won it: then whose seat the computer played,
    // where it was playing it at the end (``ended_by_stand_in``). A leaver back and playing at the end made those
    // moves: the rules' result is theirs, and a sentence after it says why it counts as left all the same.
    const seatOf = (seat) => this.table?.seats?.[seat] || {};
    const winners = leavers.filter((seat) => sideOf(seat, names.players) === s.winner);
    const standIn = winners.filter((seat) => seatOf(seat).ended_by_stand_in);
    const back = winners.filter((seat) => !seatOf(seat).ended_by_stand_in && seatOf(seat).left);
    const challenge = s.reason === "failed_challenge";
    let verdict = null;
    const standInName = standIn.map((seat) => names.seatName(seat)).join(", ");
    const how = (key) => t(challenge ? `${key}WonByChallenge` : `${key}Reached`, { name: standInName, side: `${names.seatName(s.winner)} & ${names.seatName(s.winner + 2)}`, target: view.target });
    // With four players a side reaches the target, not the seat the computer played: the side says so, then whose seat.
    if (names.players === 4 && standIn.length) verdict = how(standIn.includes(this.seat) ? "yourSideStandIn" : names.isMySide(s.winner) ? "partnerStandIn" : "sideStandIn");
    else if (standIn.includes(this.seat)) verdict = how("yourStandIn");
    else if (standIn.length) verdict = how("standIn");
    const why = back.map((seat) => {
      const mine = seat === this.seat;
      const turns = seatOf(seat).left === "turns";
      return t(`${mine ? "you" : "they"}${turns ? "LetTurnsPass" : "WereAway"}`, { name: names.seatName(seat), n: this.graceSeconds() });
    });
    return { title, verdict: verdict && el("p", { class: "verdict" }, verdict), why, won: Boolean(own && !own.abandoned && own.result === "won") };
  }

  summaryDialog(view, names) {
    const s = this.summary;
    const sides = view.scores.map((_, side) => side);
    const totals = s.totals || view.scores;
    const cardsPoints = (side) => s.tally?.[side]?.cards || 0;
    const roundPoints = (side) => Object.values(s.tally?.[side] || {}).reduce((a, b) => a + b, 0);
    const breakdown = (side) => Object.entries(s.tally?.[side] || {})
      .filter(([, p]) => p).map(([reason, p]) => `${t(`r_${reason}`)} \u2066${p > 0 ? "+" : ""}${p}\u2069`).join(" · ");
    const showPiles = Boolean(s.piles);
    const head = el("tr", {},
      el("th", { scope: "col" }, el("span", { class: "sr-only" }, t("whoCol"))), // a header with no name is read as none
      showPiles ? el("th", { scope: "col" }, t("cardsTaken")) : null,
      showPiles ? el("th", { scope: "col" }, t("cardPoints")) : null,
      el("th", { scope: "col" }, t("thisRound")),
      el("th", { scope: "col" }, t("total")));
    const best = Math.max(...totals);
    const rows = sides.map((side) => el("tr", { "data-side": side, class: `${names.isMySide(side) ? "my-side" : ""}${s.kind === "game" && s.winner === side ? " winner" : ""}` },
      el("th", { scope: "row" }, names.sideName(side)),
      showPiles ? el("td", { class: "piles" }, s.piles[side]) : null,
      showPiles ? el("td", { class: "card-points" }, signed(cardsPoints(side))) : null,
      el("td", { class: "round-points", title: breakdown(side) },
        // Isolated left to right: Arabic text would otherwise show "+5" as "5+".
        el("bdi", { dir: "ltr", class: "num" }, `${roundPoints(side) >= 0 ? "+" : ""}${roundPoints(side)}`),
        breakdown(side) ? el("small", {}, breakdown(side)) : null),
      el("td", { class: `total${totals[side] === best ? " best" : ""}` }, totals[side])));
    let title;
    let verdict = null;
    let wants = null; // who else asked for another game, said beside Play again
    let goneNote = null; // who has left the table, and what Play again does without them
    let won = s.kind === "game" && (this.seat === null || names.isMySide(s.winner)); // the trophy's: a win or a spectator
    const buttons = [];
    if (s.kind === "game") {
      const mine = names.isMySide(s.winner);
      // A partnership ("Bot 2 & Bot 4") takes the plural where the language has one ("win", "gagnent", the dual).
      const pair = names.players === 4;
      const winners = names.sideName(s.winner);
      title = this.seat === null ? t(pair ? "winnersAre" : "winnerIs", { name: winners }) : mine ? t("weWin") : t("weLose");
      // A seat reads its own side's win or loss without a subject: "Them won…", "Vous gagne…" read wrongly.
      // Who challenged, named where the page saw it: a partner read "a true declaration was challenged" for her
      // own partner's challenge, with nothing saying whose (an audit of four friends).
      const by = this.challenger ?? null;
      const byChallenge = this.seat === null ? (pair && has("pairWonByChallenge") ? "pairWonByChallenge" : "wonByChallenge")
        : by === null ? (mine ? "challengeWon" : "challengeLost")
        : mine ? "challengeWonBy" : by === this.seat ? "challengeLostMine" : "challengeLostBy";
      const named = { name: by === null || this.seat === null ? winners : names.seatName(by) };
      verdict = el("p", { class: "verdict" }, s.reason === "failed_challenge" ? t(byChallenge, named) : reachedFirst(s.winner, names, view.target));
      const left = this.leftGame(s, names, view);
      if (left) [title, verdict, won] = [left.title, left.verdict || verdict, left.won];
      if (left?.why.length) verdict.append(" ", left.why.join(" "));
      if (this.seat !== null) {
        const seats = this.table.seats || [];
        const own = seats.find((x) => x.seat === this.seat);
        // The server keeps each seat's request: a page opened again after asking still shows it asked.
        const asked = this.rematchAsked || Boolean(own?.rematch);
        const waitingFor = seats.filter((x) => x.kind === "human" && x.seat !== this.seat && x.connected && !x.rematch);
        const askers = seats.filter((x) => x.kind === "human" && x.seat !== this.seat && x.rematch);
        // Who has gone (a page closed, Lobby pressed): Play again does not wait for them, and the game it starts has
        // the computer play for whoever is not back (after the grace period); nothing is known of them while this
        // page's own connection is down. An audit: a greyed-out "Play again" beside Cancel, and no word why.
        const gone = this.connected ? seats.filter((x) => x.kind === "human" && x.seat !== this.seat && x.connected === false) : [];
        const soon = asked && gone.length && !waitingFor.length; // the game asked for starts once they are not back
        const ask = (on) => {
          this.rematchAsked = on;
          if (own) own.rematch = on;
          this.hooks.send(on ? { type: "rematch" } : { type: "rematch", on: false });
          this.render();
          this.root.querySelector(`[data-action="${on ? "rematch-cancel" : "rematch"}"]`)?.focus({ preventScroll: true });
        };
        if (askers.length) {
          wants = el("p", { class: "rematch-wanted", id: "rematch-wanted", role: "status" },
            askers.map((x) => t("rematchWanted", { name: names.seatName(x.seat) })).join(" "));
        }
        if (gone.length) {
          const where = { lobby: t("lobby"), playNow: t("playNow") };
          goneNote = el("p", { class: "rematch-left", id: "rematch-left", role: "status" },
            [...gone.map((x) => t("rematchLeft", { name: names.seatName(x.seat) })), t(soon ? "rematchLeftSoon" : "rematchLeftWhat", where)].join(" "));
        }
        let label = t("again");
        if (asked && waitingFor.length) label = t("waitingRematch", { names: waitingFor.map((x) => names.seatName(x.seat)).join(", ") });
        else if (soon) label = t("rematchSoon");
        buttons.push(el("button", {
          type: "button", class: "btn primary", "data-action": "rematch", "data-focus": "rematch", disabled: asked,
          onclick: () => ask(true),
        }, label));
        if (asked) {
          buttons.push(el("button", {
            type: "button", class: "btn", "data-action": "rematch-cancel", "data-focus": "rematch-cancel", title: t("rematchCancelTitle"),
            onclick: () => ask(false),
          }, t("cancel")));
        }
      }
      // Each named (data-focus), so a redraw (the seats' news, the ratings) keeps the keyboard's place on it.
      if (this.hooks.replayLink) buttons.push(el("a", { class: "btn", href: this.hooks.replayLink(), "data-link": "", "data-focus": "watch-replay" }, t("watchReplay")));
      buttons.push(el("button", { type: "button", class: "btn", "data-action": "lobby", "data-focus": "lobby", onclick: () => this.hooks.leave() }, t("lobby")));
    } else {
      title = t("roundOverN", { n: s.round + 1 });
      buttons.push(el("button", {
        type: "button", class: "btn primary", "data-action": "continue", "data-focus": "continue",
        onclick: () => { this.summary = null; this.render(); },
      }, t("next")));
    }
    const dialog = el("div", { class: "dialog", role: "document" },
      // The trophy is the winners': the losing side's screen shows none.
      won ? el("div", { class: `trophy${this.seat !== null ? " won" : ""}`, "aria-hidden": "true", html: trophy() }) : null,
      el("h2", { id: "summary-title" }, title),
      verdict,
      el("table", { class: "summary-table" }, el("thead", {}, head), el("tbody", {}, rows)),
      s.kind === "game" ? this.ratingChanges(names) : null,
      s.kind === "round" && this.myTurn() && this.table?.turn_time && !this.declaredForMe()
        ? el("p", { class: "summary-clock", id: "summary-clock", role: "timer" }, this.summaryClockText()) : null,
      // Between rounds, the target still to reach; at the game's end the verdict has said it once already.
      s.kind === "round" ? el("p", { class: "hint" }, t("targetN", { n: view.target })) : null,
      wants,
      goneNote,
      el("div", { class: "dialog-buttons" }, buttons));
    // A summary that arrives during play shows after a short pause (CSS), so the last play can be seen first;
    // the overlay is there at once, so no card is played by mistake meanwhile.
    const overlay = el("div", { class: `overlay${s.drawn ? "" : s.live ? " appear late" : " appear"}`, role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title", id: "summary", "data-kind": s.kind }, dialog);
    overlay.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      // Closed as a round's is: the table shows behind it, and a game's summary comes back with "Show the result".
      this.summary = null;
      this.render();
      if (s.kind === "game") this.root.querySelector("[data-focus='show-result']")?.focus({ preventScroll: true });
    });
    if (!s.drawn) setTimeout(() => this.focusSummary(s), s.live ? 700 : 0);
    s.drawn = true;
    return overlay;
  }

  /** The summary `s` takes the focus on its first action (Continue, Play again; Cancel once asked): the summary on
   * the page then, not the one drawn when this was asked for, which news that came meanwhile (the seats, the
   * ratings at a game's end) drew anew: the focus went to a button no longer on the page, and Enter did nothing (an
   * audit). Left where it is if the reader already went into the dialog. */
  focusSummary(s) {
    const dialog = this.root.querySelector("#summary");
    if (this.summary !== s || !dialog || dialog.contains(document.activeElement)) return;
    const action = dialog.querySelector(".dialog-buttons .btn.primary:not([disabled])") || dialog.querySelector(".dialog-buttons .btn:not([disabled])");
    action?.focus({ preventScroll: true });
  }
}

/** How a game was won by reaching the target, from where the reader sits: the headline above says who won, and
 * this line says it once more only as the subject of how ("You reached 41 first", "The other side…", "Amina…"),
 * never the reader as a name in the sentence (an audit: "First to 41: You." under "You win!", above "first to 41";
 * in French "Premier à 41 : Vous."). */
function reachedFirst(side, names, target) {
  if (names.me === null || names.me === undefined) return t(names.players === 4 ? "pairReached" : "reached", { name: names.sideName(side), target });
  if (names.players === 4) return t(names.isMySide(side) ? "reachedUs" : "reachedThem", { target });
  return names.isMySide(side) ? t("reachedYou", { target }) : t("reached", { name: names.sideName(side), target });
}

/** A sentence with a command in it, the command kept whole and left to right (also inside Arabic text). */
function withCode(key) {
  const mark = "\u0001";
  const text = t(key, { command: `${mark}ronda serve --host 0.0.0.0${mark}`, option: `${mark}--public-url${mark}` });
  return text.split(mark).map((part, i) => (i % 2 ? el("code", { class: "cmd", dir: "ltr" }, part) : part));
}

function trophy() {
  return `<svg viewBox="0 0 64 64" aria-hidden="true"><path d="M18 8h28v10c0 10-6 18-14 18S18 28 18 18z" fill="#f1c24b" stroke="#8a6208" stroke-width="2"/>` +
    `<path d="M18 12H9c0 9 5 14 11 15M46 12h9c0 9-5 14-11 15" fill="none" stroke="#8a6208" stroke-width="3"/>` +
    `<path d="M28 36h8v10h-8z" fill="#e0a91b"/><path d="M20 46h24v8H20z" fill="#8b1f22" stroke="#6d1417" stroke-width="2"/>` +
    `<use href="#star8" x="24" y="12" width="16" height="16"/></svg>`;
}
