// The table screen: seats, the felt, your hand, the decisions the server offers,
// the play-by-play and the end-of-round and end-of-game summaries.
//
// Everything drawn comes from the last VIEW and `legal` list the server sent
// for this connection (R11): the page never guesses at hidden cards, it draws
// another seat's hand as backs from its size.

import { backSvg, cardLabel, cardSvg } from "./cards.js";
import { kindName, rankName, t } from "./i18n.js";
import { namer, narrate } from "./narrate.js";

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

export class TableScreen {
  constructor(root, { act, send, leave, invite }) {
    this.root = root;
    this.act = act;
    this.send = send;
    this.leave = leave;
    this.invite = invite;
    this.view = null;
    this.legal = [];
    this.table = null;
    this.log = []; // narrated lines, newest last
    this.roundPoints = null;
    this.summary = null; // {kind: "round"|"game", ...}
    this.autoDeclare = false;
    this.connected = false;
    this.seenCards = new Set();
  }

  // ------------------------------------------------------------ messages

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.table = msg.table;
        this.autoDeclare = Boolean(msg.auto_declare);
        break;
      case "state":
        this.table = msg.table ?? this.table;
        this.view = msg.view;
        this.legal = msg.legal;
        break;
      case "update":
      case "catchup":
        for (const event of msg.events) this.consume(event);
        this.view = msg.view;
        this.legal = msg.legal;
        break;
      case "seats":
        this.table = msg.table;
        break;
      case "auto_declare":
        this.autoDeclare = Boolean(msg.on);
        break;
      default:
        return;
    }
    this.render();
  }

  consume(event) {
    const line = narrate(event, namer(this.table, this.view?.seat ?? null));
    if (line) this.log.push({ text: line, type: event.type });
    if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
    // Points of the round: the card count (R7.2) is scored just after round_end,
    // so the summary keeps this round's array until the next round_start replaces it.
    if (event.type === "round_start" || !this.roundPoints) this.roundPoints = new Array(this.table?.rules ? (this.table.players === 4 ? 2 : this.table.players) : 4).fill(0);
    if (event.type === "score") this.roundPoints[event.side] = (this.roundPoints[event.side] || 0) + event.points;
    if (event.type === "round_end") this.summary = { kind: "round", piles: event.piles, points: this.roundPoints };
    if (event.type === "game_over") {
      this.summary = { kind: "game", winner: event.winner, reason: event.reason };
    }
  }

  setConnected(on) {
    this.connected = on;
    const badge = this.root.querySelector("#connection");
    if (badge) {
      badge.textContent = on ? t("connected") : t("reconnecting");
      badge.classList.toggle("off", !on);
    }
  }

  // ------------------------------------------------------------ drawing

  render() {
    const view = this.view;
    this.root.replaceChildren();
    if (!view || !this.table) return;
    const names = namer(this.table, view.seat);
    this.root.append(
      this.scoreBar(view, names),
      el("div", { class: "board" },
        el("div", { class: "play-area" },
          this.seatsRow(view, names),
          this.felt(view),
          this.mine(view, names)),
        this.narration()),
    );
    if (this.table.status === "waiting") this.root.append(this.waitingNote());
    if (this.summary) this.root.append(this.summaryDialog(view, names));
    const log = this.root.querySelector(".log-lines");
    if (log) log.scrollTop = log.scrollHeight;
  }

  scoreBar(view, names) {
    const sides = view.scores.map((score, side) =>
      el("span", { class: `score${view.side === side ? " mine" : ""}`, "data-side": side },
        el("b", {}, names.sideName(side)), " ", el("span", { class: "points" }, score)));
    let turnText = "";
    if (view.phase === "declare" || view.phase === "play") {
      const key = view.phase === "declare" ? "declareTurnOf" : "turnOf";
      turnText = view.turn === view.seat ? t("yourTurn") : t(key, { name: names.seatName(view.turn) });
    }
    return el("header", { class: "scorebar" },
      el("div", { id: "scores", class: "scores", "aria-live": "polite" }, sides,
        el("span", { class: "target" }, `${t("target")} ${view.target}`)),
      el("div", { class: "where" },
        `${t("round")} ${view.round + 1} · ${t("deal")} ${view.deal + 1}/${view.deals_in_round}`,
        el("span", { class: "stock", title: t("stock") }, el("span", { class: "mini-back", html: backSvg() }), view.stock)),
      el("div", { id: "turn", class: `turn${view.turn === view.seat ? " you" : ""}` }, turnText),
      el("span", { id: "connection", class: `connection${this.connected ? "" : " off"}` },
        this.connected ? t("connected") : t("reconnecting")));
  }

  seatsRow(view, names) {
    const n = view.players;
    const me = view.seat ?? 0;
    const order = [];
    for (let k = 1; k < n; k++) order.push((me + k) % n);
    if (view.seat === null) order.unshift(0);
    return el("div", { class: "seats" }, order.map((seat) => {
      const info = this.table.seats[seat] || {};
      const partner = n === 4 && view.seat !== null && seat % 2 === view.seat % 2;
      const declared = view.declarations[seat];
      const exposed = view.exposed[seat];
      const shown = view.shown[seat];
      const backs = Array.from({ length: view.hand_sizes[seat] }, () => el("span", { class: "card back small", html: backSvg() }));
      return el("section", {
        class: `seat${view.turn === seat && view.phase !== "game_over" ? " turn" : ""}${partner ? " partner" : ""}`,
        "data-seat": seat,
      },
      el("div", { class: "seat-name" }, names.seatName(seat),
        info.kind === "bot" ? el("span", { class: "tag" }, `${t("bot")} · ${info.level}`) : null,
        info.stand_in ? el("span", { class: "tag warn" }, t("botFor")) : null,
        info.kind === "human" && !info.connected ? el("span", { class: "tag off" }, t("disconnected")) : null,
        partner ? el("span", { class: "tag" }, t("partner")) : null,
        view.dealer === seat ? el("span", { class: "dealer", title: t("dealer") }, "D") : null),
      el("div", { class: "seat-hand" }, backs),
      el("div", { class: "seat-facts" },
        `${t("pile")}: ${view.pile_sizes[view.rules.players === 4 ? seat % 2 : seat]}`,
        declared && declared !== "none"
          ? el("span", { class: `declared${exposed ? " exposed" : ""}` }, t("declared", { kind: kindName(declared) }))
          : null),
      shown ? el("div", { class: "shown" }, shown.map((c) => el("span", { class: "card tiny", html: cardSvg(c) }))) : null);
    }));
  }

  felt(view) {
    const cards = view.table.map((name) => {
      const fresh = !this.seenCards.has(name);
      this.seenCards.add(name);
      return el("div", {
        class: `card table-card${fresh ? " enter" : ""}${view.last_drop === name ? " dropped" : ""}`,
        "data-table-card": name, html: cardSvg(name),
      });
    });
    let note = null;
    if (view.chain) note = t("chain", { rank: rankName(Number(view.chain.rank)) });
    else if (view.last_drop) note = t("lastDrop", { card: cardLabel(view.last_drop) });
    return el("section", { class: "felt", "aria-label": t("table") },
      el("div", { class: "table-cards", id: "table-cards" }, cards),
      note ? el("div", { class: "felt-note" }, note) : null);
  }

  mine(view, names) {
    if (view.seat === null) return el("section", { class: "mine spectator" });
    const plays = new Set(this.legal.filter((a) => "play" in a).map((a) => a.play));
    const declares = this.legal.filter((a) => "declare" in a).map((a) => a.declare);
    const challenges = this.legal.filter((a) => "challenge" in a).map((a) => a.challenge);
    const hand = view.hand.map((name) => el("button", {
      class: `card hand-card${plays.has(name) ? " playable" : ""}`,
      "data-card": name,
      "aria-label": cardLabel(name),
      disabled: !plays.has(name),
      html: cardSvg(name),
      onclick: () => this.act({ play: name }),
    }));
    const decisions = el("div", { class: "decisions" });
    if (declares.length) {
      decisions.append(el("span", { class: "prompt" }, t("declarePrompt")));
      for (const kind of declares) {
        decisions.append(el("button", {
          class: `btn${kind === "none" ? "" : " primary"}`, "data-action": `declare-${kind}`,
          onclick: () => this.act({ declare: kind }),
        }, t(`declare_${kind}`)));
      }
    }
    for (const seat of challenges) {
      decisions.append(el("button", {
        class: "btn danger", "data-action": `challenge-${seat}`,
        onclick: () => this.act({ challenge: seat }),
      }, t("challenge", { name: names.seatName(seat) })));
    }
    const auto = el("label", { class: "auto" },
      el("input", {
        type: "checkbox", id: "auto-declare", checked: this.autoDeclare,
        onchange: (e) => this.send({ type: "auto_declare", on: e.target.checked }),
      }), t("autoDeclare"));
    const declared = view.declarations[view.seat];
    return el("section", { class: `mine${view.turn === view.seat ? " turn" : ""}`, "aria-label": t("hand") },
      el("div", { class: "mine-head" },
        el("b", {}, t("you")),
        view.dealer === view.seat ? el("span", { class: "dealer", title: t("dealer") }, "D") : null,
        el("span", {}, `${t("pile")}: ${view.pile_sizes[view.side]}`),
        declared && declared !== "none" ? el("span", { class: "declared" }, t("declared", { kind: kindName(declared) })) : null,
        auto),
      el("div", { class: "hand", id: "hand" }, hand),
      decisions);
  }

  narration() {
    return el("aside", { class: "log", "aria-label": t("narration") },
      el("h2", {}, t("narration")),
      el("ol", { class: "log-lines", id: "log", "aria-live": "polite" },
        this.log.slice(-80).map((line) => el("li", { class: `ev-${line.type}` }, line.text))));
  }

  waitingNote() {
    const link = `${location.origin}/t/${this.table.table_id}`;
    return el("div", { class: "waiting" },
      el("p", {}, t("waiting")),
      el("p", {}, t("invite")),
      el("div", { class: "invite" },
        el("input", { readonly: true, value: link, id: "invite-link", "aria-label": t("invite") }),
        el("button", { class: "btn", onclick: (e) => this.invite(link, e.target) }, t("copy"))));
  }

  summaryDialog(view, names) {
    const s = this.summary;
    const close = () => { this.summary = null; this.render(); };
    const rows = view.scores.map((score, side) => el("tr", { "data-side": side },
      el("th", {}, names.sideName(side)),
      s.kind === "round" ? el("td", {}, s.piles[side]) : null,
      s.kind === "round" ? el("td", {}, (s.points[side] >= 0 ? "+" : "") + s.points[side]) : null,
      el("td", { class: "total" }, score)));
    const head = el("tr", {}, el("th", {}),
      s.kind === "round" ? el("th", {}, t("cardsTaken")) : null,
      s.kind === "round" ? el("th", {}, "±") : null,
      el("th", {}, t("total")));
    let title = t("roundOver");
    let verdict = null;
    const buttons = [];
    if (s.kind === "game") {
      title = t("gameOver");
      const mine = view.side !== null && s.winner === view.side;
      verdict = view.side === null ? t("winnerIs", { name: names.sideName(s.winner) }) : mine ? t("weWin") : t("weLose");
      if (view.seat !== null) {
        buttons.push(el("button", { class: "btn primary", "data-action": "rematch", onclick: () => { this.summary = null; this.send({ type: "rematch" }); this.render(); } }, t("again")));
      }
      buttons.push(el("button", { class: "btn", onclick: () => this.leave() }, t("lobby")));
    } else {
      buttons.push(el("button", { class: "btn primary", "data-action": "continue", onclick: close }, t("next")));
    }
    const fresh = !s.drawn;
    s.drawn = true;
    return el("div", { class: `overlay${fresh ? " appear" : ""}`, role: "dialog", "aria-modal": "true", id: "summary", "data-kind": s.kind },
      el("div", { class: "dialog" },
        el("h2", {}, title),
        verdict ? el("p", { class: "verdict" }, verdict) : null,
        el("table", { class: "summary-table" }, head, rows),
        el("div", { class: "dialog-buttons" }, buttons)));
  }
}
