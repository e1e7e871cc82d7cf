// The lobby (a new table; the tables to join, watch or replay) and the invite page.

import { cardSvg } from "./cards.js";
import { MAX_NAME, el, nameNote } from "./dom.js";
import { count, has, t } from "./i18n.js";
import { mePanel, whoAmI } from "./me.js";
import { levelName, namer, sideOf } from "./narrate.js";
import { api, tokens } from "./net.js";

const NAME = "ronda.name";
const LAST = "ronda.lastTable";
const TICKET = "ronda.playTicket";
// Play now's choices, this browser's last ones: the players, the rules (a preset), the wait for people, the bots' level.
const PLAY_PLAYERS = "ronda.playPlayers";
const PLAY_PRESET = "ronda.playPreset";
const PLAY_WAIT = "ronda.playWait";
const PLAY_LEVEL = "ronda.playLevel";
const WAITS = [10, 30, 60, 120];
const ALONE_AFTER = 20; // seconds a wait for people only lasts before the page says what else the person can do
let drafts = null; // the name typed and not sent yet, carried over a redraw of the lobby (a language switch)
// A wait in progress, carried over a redraw of the lobby (a language switch): the bots' box as it was, when the wait
// began and the server's last word on it, so that the lobby drawn again shows the wait at once, in the new words,
// and goes on looking with the same ticket (the person never chose to stop).
let carried = null;
// Who this browser is, carried over a redraw of the lobby (a language switch): the lobby is then drawn at once, in
// the same task as the switch, with no request first. Drawn after a request, the old lobby stayed on screen meanwhile,
// and what was typed or chosen there in that moment was lost with it (a browser test filled the old name field).
let known = null;

/** A fan of cards for the lobby and the invite page. */
function fan(names = ["1o", "12c", "11e", "10b", "7o"]) {
  const mid = (names.length - 1) / 2;
  return el("div", { class: "fan", "aria-hidden": "true" }, names.map((name, i) => el("span", {
    class: "card fan-card", style: `--i:${i - mid}`, html: cardSvg(name, { decorative: true }),
  })));
}

export function presetName(name) {
  return has(`preset_${name}`) ? t(`preset_${name}`) : name;
}

/** "Waiting for 1 more…", in the number the language gives to `n` (the Arabic singular and dual have their own). */
function waitingFor(n) {
  return count("playWaiting", n);
}

/** A wait as people read it: "25 s", "2 min 05 s". */
function waited(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return s < 60 ? t("secondsN", { n: s }) : t("minutesSecondsN", { m: Math.floor(s / 60), s: String(s % 60).padStart(2, "0") });
}

function presetSummary(name, meta) {
  return has(`presetHelp_${name}`) ? t(`presetHelp_${name}`) : meta.presets[name]?.summary ?? "";
}

function ago(iso) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const minutes = Math.max(0, Math.round((Date.now() - then) / 60000));
  if (minutes < 1) return t("justNow");
  if (minutes < 60) return t("minutesAgo", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t("hoursAgo", { n: hours });
  return count("daysAgo", Math.round(hours / 24));
}

// The variants a table can change from its preset (R10), in the order the form shows them.
const SWITCHES = ["dealer_duty", "ace_high", "four_card_hands", "transfer_scoring", "auto_declare"];
const CHOICES = { chain_points: [[1, 5, 10], [1, 6, 15]], undeclared_ronda_penalty: [1, 5] };

/** One changed variant in a few words: "ace high", "no dealer duty", "chain 1-6-15". */
function variantWords(name, value) {
  if (typeof value === "boolean") return value ? t(`s_${name}`) : t("variantOff", { what: t(`s_${name}`) });
  if (Array.isArray(value)) return t(`s_${name}`, { points: value.join("-") });
  return t(`s_${name}`, { n: value });
}

/** What one table is, in a line: "2 players · classic · ace high · first to 41". */
export function tableFacts(table) {
  const changed = Object.entries(table.changed || {}).map(([name, value]) => variantWords(name, value));
  return [count("playersN", table.players), presetName(table.preset || "classic"), ...changed,
    t("targetN", { n: table.rules?.target ?? 41 })].join(" · ");
}

function seatNames(table) {
  const names = namer(table, null);
  const label = (s) => (s.kind === "bot" ? `${names.seatName(s.seat)} (${levelName(s.level)})` : s.taken ? names.seatName(s.seat) : t("freeSeat"));
  if (table.players === 4) {
    return `${label(table.seats[0])} & ${label(table.seats[2])} — ${label(table.seats[1])} & ${label(table.seats[3])}`;
  }
  return table.seats.map(label).join(" — ");
}

/**
 * The lobby screen. `go(path)` navigates; `fail(error)` tells the reader about a refusal.
 * Returns a function that stops its refreshing (called when the page leaves the lobby).
 */
export async function showLobby(app, { go, fail, meta }) {
  let stopped = false;
  const levels = meta.levels.filter((l) => l !== "random");
  const form = el("form", { id: "new-table", class: "panel new-table", autocomplete: "off" });
  const list = el("ul", { class: "table-list", id: "table-list", "aria-live": "polite" });
  const playNow = el("form", { id: "play-now", class: "panel play-now", autocomplete: "off" });
  let me = known ?? (await whoAmI());
  known = null;
  // The lobby has one name field, the "You" panel's: a kept name is the name of every seat this browser takes, and
  // until there is one, play now and a new table take the name typed there. Each form says which.
  const asWho = [];
  const keptName = (who) => {
    me = who;
    const words = who.name ? t("me_playing_as", { name: who.name }) : who.ended ? t("e_session_ended") : t("nameFromYou");
    for (const line of asWho) line.textContent = words;
  };
  // A session ended elsewhere is no name to play under, nor a field to type one in: the panel offers to log in
  // again or go on as a new guest, and a form sent meanwhile says so and leads there.
  const ended = () => {
    if (!me.ended) return false;
    fail({ code: "session_ended" });
    document.getElementById("me-new-guest")?.focus();
    return true;
  };
  const you = mePanel(me, keptName, drafts?.name ?? localStorage.getItem(NAME) ?? "");
  drafts = null;
  const whoLine = (id) => {
    const line = el("p", { class: "hint as-who", id });
    asWho.push(line);
    return line;
  };
  app.replaceChildren(el("div", { class: "lobby" },
    el("section", { class: "hero" },
      fan(),
      el("div", { class: "hero-text" },
        el("h1", {}, t("title")),
        el("p", { class: "tagline" }, t("tagline")),
        el("p", { class: "pitch" }, t("pitch")))),
    you.panel,
    playNow,
    el("div", { class: "lobby-grid" },
      form,
      el("section", { class: "panel tables", "aria-labelledby": "tables-title" },
        el("h2", { id: "tables-title" }, t("tables")),
        list)),
    el("section", { class: "panel howto", "aria-labelledby": "howto-title" },
      el("h2", { id: "howto-title" }, t("howTo")),
      el("ul", {}, ["howTo1", "howTo2", "howTo3", "howTo4", "howTo5"].map((key) => el("li", {}, t(key)))))));

  // ---- the form
  const players = el("div", { class: "segmented", id: "players", role: "radiogroup", "aria-label": t("players") },
    [2, 3, 4].map((n) => [
      el("input", { type: "radio", name: "players", id: `players-${n}`, value: n, checked: n === 2 }),
      el("label", { for: `players-${n}` }, count("playersN", n)),
    ]));
  const preset = el("select", { id: "preset", name: "preset" });
  const presetHelp = el("p", { class: "hint", id: "preset-summary" });
  const target = el("input", { id: "target", name: "target", type: "number", min: 1, max: 500, value: 41, inputmode: "numeric" });
  const variantCount = el("small", { id: "variants-changed" });
  const variantControls = {};
  for (const name of SWITCHES) {
    variantControls[name] = el("input", { type: "checkbox", name, "data-variant": name });
  }
  for (const [name, options] of Object.entries(CHOICES)) {
    variantControls[name] = el("select", { name, "data-variant": name, "aria-label": t(`v_${name}`), dir: "ltr" },
      options.map((v) => el("option", { value: JSON.stringify(v) }, Array.isArray(v) ? v.join(", ") : v)));
  }
  const variants = el("details", { class: "variants", id: "variants" },
    el("summary", {}, t("variants"), " ", variantCount),
    el("p", { class: "hint" }, t("variantsHint")),
    SWITCHES.map((name) => el("label", { class: "check" }, variantControls[name], el("span", {}, t(`v_${name}`)))),
    Object.keys(CHOICES).map((name) => el("label", { class: "field inline" }, el("span", {}, t(`v_${name}`)), variantControls[name])));
  const seats = el("fieldset", { id: "seat-choices", class: "seat-choices" });
  // A new table is private: only its invite link leads to it. Listing it, or forbidding spectators, is a choice.
  const listed = el("input", { type: "checkbox", id: "create-public", name: "public" });
  const watchable = el("input", { type: "checkbox", id: "create-watch", name: "spectators", checked: true });
  // Hints are on against the computer and off among people, unless the creator says otherwise.
  const hinted = el("input", { type: "checkbox", id: "create-hints", name: "hints", checked: true });
  let hintsChosen = false;
  hinted.addEventListener("change", () => { hintsChosen = true; });
  const access = el("div", { class: "access" },
    el("label", { class: "check" }, listed, el("span", {}, t("listPublic"))),
    el("label", { class: "check" }, watchable, el("span", {}, t("letWatch"))),
    el("label", { class: "check" }, hinted, el("span", {}, t("allowHints"))));
  form.append(
    el("h2", {}, t("newTable")),
    whoLine("create-as"),
    el("div", { class: "field" }, el("span", { id: "players-label" }, t("players")), players),
    el("div", { class: "row" },
      el("label", { class: "field grow" }, el("span", {}, t("preset")), preset),
      el("label", { class: "field narrow" }, el("span", {}, t("target")), target)),
    presetHelp,
    variants,
    seats,
    access,
    el("button", { class: "btn primary big", id: "create", type: "submit" }, t("create")));

  const playersChosen = () => Number(form.querySelector("input[name=players]:checked").value);
  const drawPresets = () => {
    const n = playersChosen();
    const chosen = preset.value || "classic";
    preset.replaceChildren(...Object.entries(meta.presets).map(([key, p]) => el("option", {
      value: key, selected: key === chosen, disabled: p.players && !p.players.includes(n),
    }, presetName(key))));
    if (preset.selectedOptions[0]?.disabled) preset.value = "classic";
  };
  // The preset's own value of every variant; the form sends only what differs from it.
  const presetValues = () => ({ ...meta.variants, ...(meta.presets[preset.value]?.rules || {}) });
  const variantValue = (name) => {
    const control = variantControls[name];
    return control.type === "checkbox" ? control.checked : JSON.parse(control.value);
  };
  const changedVariants = () => {
    const base = presetValues();
    const changed = {};
    for (const name of Object.keys(variantControls)) {
      const value = variantValue(name);
      if (JSON.stringify(value) !== JSON.stringify(base[name])) changed[name] = value;
    }
    return changed;
  };
  const showChangedCount = () => {
    const n = Object.keys(changedVariants()).length;
    variantCount.textContent = n ? count("variantsChanged", n) : "";
  };
  const fourCardsAllowed = () => {
    const box = variantControls.four_card_hands;
    box.disabled = playersChosen() === 3; // R10: four-card hands are for 2 or 4 players
    if (box.disabled) box.checked = false;
  };
  const presetChanged = () => {
    const rules = presetValues();
    target.value = rules.target ?? 41;
    presetHelp.textContent = presetSummary(preset.value, meta);
    for (const name of Object.keys(variantControls)) {
      const control = variantControls[name];
      if (control.type === "checkbox") control.checked = Boolean(rules[name]);
      else control.value = JSON.stringify(rules[name]);
    }
    fourCardsAllowed();
    showChangedCount();
  };
  variants.addEventListener("change", showChangedCount);
  const hintsDefault = () => {
    if (!hintsChosen) hinted.checked = [...seats.querySelectorAll("[data-seat-kind]")].some((s) => s.value === "bot");
  };
  const drawSeats = () => {
    const n = playersChosen();
    const kept = new Map([...seats.querySelectorAll("[data-seat-kind]")].map((s) => [s.dataset.seatKind, s.value]));
    seats.replaceChildren(el("legend", {}, t("otherSeats")));
    for (let seat = 1; seat < n; seat++) {
      const role = n === 4 && seat === 2 ? t("partner") : t("opponent");
      const kind = el("select", { name: `kind-${seat}`, "data-seat-kind": seat, "aria-label": t("seatWho", { n: seat + 1 }) },
        el("option", { value: "bot" }, t("bot")), el("option", { value: "human" }, t("human")));
      kind.value = kept.get(String(seat)) || "bot";
      kind.addEventListener("change", hintsDefault);
      const level = el("select", { name: `level-${seat}`, "data-seat-level": seat, "aria-label": t("levelOf", { n: seat + 1 }) },
        levels.map((l) => el("option", { value: l, selected: l === "medium" }, levelName(l))));
      level.hidden = kind.value !== "bot";
      kind.addEventListener("change", () => { level.hidden = kind.value !== "bot"; });
      seats.append(el("div", { class: "seat-choice" },
        el("span", { class: `avatar seat-colour-${seat}`, "aria-hidden": "true" }, seat + 1),
        el("span", { class: "seat-role" }, t("seatN", { n: seat + 1 }), el("small", {}, role)),
        kind, level));
    }
  };
  players.addEventListener("change", () => {
    const before = preset.value;
    drawPresets();
    drawSeats();
    hintsDefault();
    if (preset.value !== before) return presetChanged(); // the preset fell back to classic: start from it
    fourCardsAllowed();
    showChangedCount();
  });
  preset.addEventListener("change", presetChanged);
  drawPresets();
  presetChanged();
  drawSeats();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (ended()) return;
    const n = playersChosen();
    const typed = me.name || you.typed();
    if (!typed) {
      fail({ reason: "name_empty", max: MAX_NAME }); // none typed, or spaces alone: said, as the server would
      return you.focusName();
    }
    localStorage.setItem(NAME, typed);
    const chosen = [{ kind: "human", name: typed }];
    for (let seat = 1; seat < n; seat++) {
      const kind = form.querySelector(`[data-seat-kind="${seat}"]`).value;
      chosen.push(kind === "bot" ? { kind, level: form.querySelector(`[data-seat-level="${seat}"]`).value } : { kind });
    }
    const button = form.querySelector("#create");
    button.disabled = true;
    try {
      const made = await api("/api/tables", {
        players: n, preset: preset.value, variants: changedVariants(), target: Number(target.value) || 41, seats: chosen, me: 0,
        public: listed.checked, spectators: watchable.checked, hints: hinted.checked,
      });
      tokens.set(made.table_id, made.seat, made.token);
      localStorage.setItem(LAST, made.table_id);
      go(`/t/${made.table_id}`);
    } catch (error) {
      button.disabled = false;
      fail(error);
    }
  });

  // ---- play now: strangers asking for the same game are seated together (docs/web-protocol.md, "Play now")
  let waitTimer = null;
  let waitSince = null; // when this page began to wait (Date.now()): the wait shown, and bots asked for mid-wait
  let lastAnswer = null; // the server's last word on the wait shown
  const savedPlayers = Number(localStorage.getItem(PLAY_PLAYERS));
  const playCountSaved = [2, 3, 4].includes(savedPlayers) ? savedPlayers : 2;
  const playPlayers = el("div", { class: "segmented", id: "play-players", role: "radiogroup", "aria-label": t("players") },
    [2, 3, 4].map((n) => [
      el("input", { type: "radio", name: "play-players", id: `play-players-${n}`, value: n, checked: n === playCountSaved }),
      el("label", { for: `play-players-${n}` }, count("playersN", n)),
    ]));
  const playPreset = el("select", { id: "play-preset", name: "play-preset" });
  const playBots = el("input", { type: "checkbox", id: "play-bots", name: "play-bots", checked: carried?.bots ?? true });
  const savedWait = Number(localStorage.getItem(PLAY_WAIT));
  const wait = WAITS.includes(savedWait) ? savedWait : 30;
  const playWait = el("select", { id: "play-wait", name: "play-wait" },
    WAITS.map((s) => el("option", { value: s, selected: s === wait }, t("secondsN", { n: s }))));
  const savedLevel = localStorage.getItem(PLAY_LEVEL);
  const level = levels.includes(savedLevel) ? savedLevel : "medium";
  const playLevel = el("select", { id: "play-level", name: "play-level" },
    levels.map((l) => el("option", { value: l, selected: l === level }, levelName(l))));
  playWait.addEventListener("change", () => localStorage.setItem(PLAY_WAIT, playWait.value));
  playLevel.addEventListener("change", () => localStorage.setItem(PLAY_LEVEL, playLevel.value));
  const playStatus = el("p", { id: "play-status", class: "hint", "aria-live": "polite" });
  // A wait for people only, long and alone: how long it has lasted, and what else the person can do.
  // The time waited changes each second, so only the advice is read out (once, as it appears).
  const playWaited = el("p", { class: "hint", id: "play-waited" });
  const playAdvice = el("p", { class: "hint", id: "play-advice", "aria-live": "polite" });
  const playAlone = el("div", { id: "play-alone", hidden: true }, playWaited, playAdvice);
  const playButton = el("button", { class: "btn primary big", id: "play-button", type: "submit" }, t("playNow"));
  const cancelButton = el("button", { class: "btn", id: "play-cancel", type: "button", hidden: true }, t("playCancel"));
  playNow.append(
    el("h2", {}, t("playNow")),
    el("p", { class: "hint" }, t("playNowHint")),
    // Unlike a new table, which is private unless listed, a play now table is public: say so before it is made.
    el("p", { class: "hint", id: "play-public" }, t("playPublic")),
    whoLine("play-as"),
    el("div", { class: "row" },
      el("div", { class: "field" }, el("span", { id: "play-players-label" }, t("players")), playPlayers),
      el("label", { class: "field" }, el("span", {}, t("preset")), playPreset)),
    el("div", { class: "row" },
      el("label", { class: "check" }, playBots, el("span", {}, t("playBots"))),
      el("label", { class: "field" }, el("span", {}, t("playWait")), playWait),
      el("label", { class: "field" }, el("span", {}, t("playLevel")), playLevel)),
    el("div", { class: "row" }, playButton, cancelButton),
    playStatus,
    playAlone);
  const playCount = () => Number(playNow.querySelector("input[name=play-players]:checked").value);
  const drawPlayPresets = () => {
    const n = playCount();
    const chosen = playPreset.value || localStorage.getItem(PLAY_PRESET) || "classic";
    playPreset.replaceChildren(...Object.entries(meta.presets).map(([key, p]) => el("option", {
      value: key, selected: key === chosen, disabled: p.players && !p.players.includes(n),
    }, presetName(key))));
    if (playPreset.selectedOptions[0]?.disabled) playPreset.value = "classic";
  };
  drawPlayPresets();
  playWait.disabled = playLevel.disabled = !playBots.checked;
  playPlayers.addEventListener("change", () => {
    drawPlayPresets();
    localStorage.setItem(PLAY_PLAYERS, String(playCount()));
    localStorage.setItem(PLAY_PRESET, playPreset.value); // classic, when the preset chosen is not for this many
  });
  playPreset.addEventListener("change", () => localStorage.setItem(PLAY_PRESET, playPreset.value));
  // While a wait goes on, its bots follow the form: ticking the box (or choosing another wait or level) asks
  // again with the ticket, which replaces the request; the wait already spent counts towards the bots' wait.
  const askAgain = async () => {
    if (waitTimer === null || !localStorage.getItem(TICKET)) return;
    try {
      playAnswer(await askToPlay());
    } catch (error) {
      if (error.status !== 0) fail(error);
    }
  };
  playBots.addEventListener("change", () => {
    playWait.disabled = playLevel.disabled = !playBots.checked;
    askAgain();
  });
  playWait.addEventListener("change", () => { if (playBots.checked) askAgain(); });
  playLevel.addEventListener("change", () => { if (playBots.checked) askAgain(); });
  const stopWaiting = () => {
    clearInterval(waitTimer);
    waitTimer = null;
    waitSince = null;
    playAlone.hidden = true;
    playAdvice.textContent = "";
    playButton.disabled = false;
    cancelButton.hidden = true;
  };
  // What the server said of the request: seated (off to the table) or still waiting (who else, when bots come).
  const playAnswer = (answer) => {
    if (answer.status === "seated") {
      stopWaiting();
      localStorage.removeItem(TICKET);
      tokens.set(answer.table_id, answer.seat, answer.token);
      localStorage.setItem(LAST, answer.table_id);
      go(`/t/${answer.table_id}`);
      return;
    }
    localStorage.setItem(TICKET, answer.ticket);
    lastAnswer = answer;
    playButton.disabled = true;
    cancelButton.hidden = false;
    if (!waitTimer) waitTimer = setInterval(look, 1000);
    const starting = waitSince === null;
    // The server says how long this request has waited: a page opened again (a reload) counts on, not from 0.
    if (starting) waitSince = Date.now() - (answer.waited ?? 0) * 1000;
    if (answer.status === "seating") return; // matched: the table is being made, the next look seats us
    const more = answer.players - 1 - answer.others;
    playStatus.textContent = [waitingFor(more),
      answer.bots_in === null ? "" : t("playBotsIn", { n: Math.ceil(answer.bots_in) })].filter(Boolean).join(" ");
    // On a desktop the status starts below the window's bottom edge: it is brought to the window's middle, the
    // buttons above it, when the wait starts (not at each look, which would pull back a person who scrolled away),
    // and the line on what to do is shown as it appears.
    if (starting) playStatus.scrollIntoView({ block: "center" });
    const spent = (Date.now() - waitSince) / 1000;
    const alone = answer.bots_in === null && spent >= ALONE_AFTER;
    if (alone) {
      const appearing = playAlone.hidden;
      playWaited.textContent = t("playAlone", { time: waited(spent) });
      playAlone.hidden = false;
      if (appearing) {
        playAdvice.textContent = t("playAloneWhat", { bots: t("playBots"), friend: t("human") });
        playAlone.scrollIntoView({ block: "nearest" });
      }
    } else {
      playAlone.hidden = true;
    }
  };
  const spentWaiting = () => (waitSince === null ? 0 : (Date.now() - waitSince) / 1000);
  // The request the form describes (the name typed, if any, is the one kept: the panel shows it once kept; none
  // typed, the server seats a guest).
  const askToPlay = () => {
    const typed = me.name ? "" : you.typed();
    return api("/api/play", {
      players: playCount(), preset: playPreset.value, ...(typed ? { name: typed } : {}),
      bots_after: playBots.checked ? Math.max(0, Math.round(Number(playWait.value) - spentWaiting())) : null, level: playLevel.value,
      ticket: localStorage.getItem(TICKET),
    });
  };
  const look = async () => {
    const ticket = localStorage.getItem(TICKET);
    if (stopped) return stopWaiting();
    if (!ticket) { // stopped in another tab of this browser (they share the ticket): say so here too
      if (waitTimer !== null) playStatus.textContent = t("playCancelled");
      return stopWaiting();
    }
    try {
      playAnswer(await api(`/api/play/${encodeURIComponent(ticket)}`));
    } catch (error) {
      if (error.status === 409 && error.code === "replaced") {
        // The same person asked again from another device: that page waits now; this one stops, without asking
        // again (it would replace the other's request in turn, and the two would go on replacing each other).
        localStorage.removeItem(TICKET);
        stopWaiting();
        playStatus.textContent = t("playReplaced");
      } else if (error.status === 404) {
        // A wait this page was showing is gone: the server restarted, or dropped it because this page stopped
        // looking (a background tab's timers slow to once a minute). The person never chose to stop: ask again
        // at once with the same choices; only if that fails are they told to press Play now.
        // The wait asked again for goes on from when the person first asked: its count does not restart at 0, and
        // the bots' wait (bots_after) counts the time already spent.
        const waiting = waitTimer !== null;
        const since = waitSince;
        localStorage.removeItem(TICKET);
        stopWaiting();
        playStatus.textContent = "";
        if (waiting) {
          waitSince = since;
          try {
            playAnswer(await askToPlay());
          } catch (again) {
            waitSince = null;
            playStatus.textContent = t("playLost");
            if (again.status !== 0) fail(again);
          }
        }
      } else if (error.status !== 0) { // the table could not be made (a full server): ask again later
        localStorage.removeItem(TICKET);
        stopWaiting();
        fail(error);
      }
    }
  };
  playNow.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (ended()) return;
    const typed = me.name ? "" : you.typed();
    if (typed) localStorage.setItem(NAME, typed);
    playButton.disabled = true;
    try {
      playAnswer(await askToPlay());
      if (typed) await you.refresh(); // the name typed is kept now: the panel says so
    } catch (error) {
      playButton.disabled = false;
      fail(error);
    }
  });
  cancelButton.addEventListener("click", async () => {
    const ticket = localStorage.getItem(TICKET);
    stopWaiting();
    localStorage.removeItem(TICKET);
    playStatus.textContent = t("playCancelled");
    if (ticket) await fetch(`/api/play/${encodeURIComponent(ticket)}`, { method: "DELETE" }).catch(() => null);
  });
  if (carried && carried.answer.ticket === localStorage.getItem(TICKET)) {
    // The lobby drawn again (a language switch) while waiting: the wait shows at once, in the new words, counted
    // from when it began (neither the count nor the bots' promise starts again), and is looked at as before.
    waitSince = carried.since;
    playAnswer(carried.answer);
  }
  carried = null;
  if (localStorage.getItem(TICKET)) look(); // a wait this browser started is taken up again
  keptName(me);
  // A newcomer's cursor starts in the name field, as the lobby is drawn: never later (the table list can take
  // seconds to come, and moving the cursor then sent the rest of a name being typed into another field, so the
  // person played as "Guest N"), and never away from a field the person has gone to already.
  const untouched = !document.activeElement || document.activeElement === document.body;
  if (untouched && !me.name && !you.typed()) document.getElementById("me-name")?.focus({ preventScroll: true });

  // ---- the tables, refreshed while the lobby is shown
  const drawTables = (tables) => {
    const items = [];
    for (const table of tables) {
      const held = tokens.get(table.table_id);
      const free = table.seats.some((s) => s.kind === "human" && !s.taken);
      let action;
      let href = `/t/${table.table_id}`;
      if (table.status === "finished") {
        action = t("replay");
        href += "?replay";
      } else if (held) action = t("resume");
      else if (table.status === "waiting" && free) action = t("join");
      else action = t("watch");
      const status = { waiting: t("open"), playing: t("inPlay"), finished: t("finished") }[table.status] || table.status;
      items.push(el("li", { class: `table-item${held ? " yours" : ""}`, "data-table": table.table_id, "data-status": table.status },
        el("span", { class: `status-pill ${table.status}` }, status),
        el("div", { class: "table-who" },
          el("b", {}, seatNames(table)),
          el("small", {}, `${tableFacts(table)} · ${ago(table.created)}`)),
        el("span", { class: "table-score", "aria-label": t("scores") }, table.scores.join(" – ")),
        el("a", { class: `btn${held && table.status !== "finished" ? " primary" : ""}`, href, "data-link": "" }, action)));
    }
    if (!items.length) items.push(el("li", { class: "empty" }, t("noTables")));
    list.replaceChildren(...items);
  };
  const refresh = async () => {
    try {
      // Private tables are not listed: the ones this browser holds a seat at are asked for one by one.
      const held = tokens.list().slice(0, 12);
      const [listed, ...mine] = await Promise.all([
        api("/api/tables?limit=30"),
        ...held.map(({ tableId }) => api(`/api/tables/${encodeURIComponent(tableId)}`).catch(() => null)),
      ]);
      const own = mine.filter(Boolean);
      const ids = new Set(own.map((table) => table.table_id));
      if (!stopped) drawTables([...own, ...listed.tables.filter((table) => !ids.has(table.table_id))]);
    } catch (error) {
      if (!stopped && !list.childElementCount) list.replaceChildren(el("li", { class: "empty" }, t("offline")));
    }
  };
  await refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, 5000);
  // `redrawn`: the lobby is drawn again at once (a language switch), and a wait in progress goes on there.
  return (redrawn = false) => {
    stopped = true;
    clearInterval(timer);
    carried = redrawn && waitTimer !== null && lastAnswer ? { answer: lastAnswer, since: waitSince, bots: playBots.checked } : null;
    clearInterval(waitTimer);
    drafts = { name: you.typed() };
    known = redrawn ? me : null;
  };
}

/** The note under a name field once it is too long. */
const tooLong = (length) => t("nameTooLong", { max: MAX_NAME, length });

/**
 * The table's seats on its invitation: who sits where, and with four players each seat's side, as the host's partner
 * or against the host; where more than one seat is free, the free ones are a choice (the first by default). The
 * page said "free seat" three times and sat a friend in the first: whoever came second played against the host,
 * and a friend meant to be the host's partner had to come third, which nothing said (an audit).
 */
function seatList(summary, host, free, names) {
  const four = summary.players === 4 && host;
  const side = (seat) => (four && seat !== host.seat
    ? ` · ${t(sideOf(seat, 4) === sideOf(host.seat, 4) ? "partnerOf" : "opponentOf", { name: names.seatName(host.seat) })}` : "");
  const choose = free.length > 1;
  const items = summary.seats.map((s) => {
    const who = s.kind === "bot" ? t("botLevel", { level: levelName(s.level) }) : s.taken ? names.seatName(s.seat) : t("freeSeat");
    const avatar = el("span", { class: `avatar seat-colour-${s.seat}`, "aria-hidden": "true" }, s.seat + 1);
    if (!choose || s.taken || s.kind !== "human") return el("li", { class: s.taken ? "taken" : "free" }, avatar, who, side(s.seat));
    const radio = el("input", { type: "radio", name: "join-seat", value: String(s.seat), id: `join-seat-${s.seat}`, checked: s.seat === free[0].seat });
    return el("li", { class: "free" }, el("label", { for: radio.id }, radio, avatar, who, side(s.seat)));
  });
  const list = el("ul", { class: "seat-list" }, items);
  return choose ? el("fieldset", { class: "seat-choice" }, el("legend", {}, t("chooseSeat")), list) : list;
}

/** The invite page: who is at the table, a name, and "take a seat" (or just watch). */
export function showJoin(app, summary, { go, fail, joined }) {
  const names = namer(summary, null);
  const host = summary.seats.find((s) => s.seat === summary.creator && s.taken) ?? summary.seats.find((s) => s.kind === "human" && s.taken);
  const free = summary.seats.filter((s) => s.kind === "human" && !s.taken);
  const name = el("input", { id: "join-name", name: "name", required: true, value: localStorage.getItem(NAME) || "", autocomplete: "nickname", placeholder: t("namePlaceholder") });
  // novalidate: a click before the kept name arrived found the field empty and required, and the browser stopped
  // the form before its handler, which waits for the name (and says an empty one in the page's words) — no seat.
  const form = el("form", { class: "panel join", id: "join", novalidate: true },
    fan(["12o", "1c", "7e", "11b"]),
    el("h1", {}, host ? t("invitedBy", { name: names.seatName(host.seat) }) : t("takeSeat")),
    el("p", { class: "hint" }, tableFacts(summary)),
    seatList(summary, host, free, names),
    el("label", { class: "field" }, el("span", {}, t("yourName")), name),
    nameNote(name, tooLong),
    el("div", { class: "row" },
      el("button", { class: "btn primary big", type: "submit", id: "join-button" }, t("takeSeat")),
      el("a", { class: "btn", href: `/t/${summary.table_id}?watch`, "data-link": "" }, t("justWatch"))));
  app.replaceChildren(el("div", { class: "join-wrap" }, form));
  name.focus({ preventScroll: true });
  const kept = whoAmI().then((who) => {
    if (!who.name) return;
    name.value = who.name; // a kept name is the seat's name
    name.readOnly = true;
    name.dispatchEvent(new Event("input"));
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    // A click before the kept name arrived sent the field as it was (empty: "type a name"): wait for it first.
    await kept;
    const me = name.value.trim();
    if (!me) {
      fail({ reason: "name_empty", max: MAX_NAME }); // spaces alone: said, as the server would, not ignored
      return name.focus();
    }
    localStorage.setItem(NAME, me);
    const button = form.querySelector("#join-button");
    button.disabled = true;
    try {
      const chosen = form.querySelector("input[name='join-seat']:checked");
      const seat = chosen ? Number(chosen.value) : free.length ? free[0].seat : undefined;
      const made = await api(`/api/tables/${encodeURIComponent(summary.table_id)}/join`, seat === undefined ? { name: me } : { name: me, seat });
      tokens.set(summary.table_id, made.seat, made.token);
      joined();
    } catch (error) {
      button.disabled = false;
      fail(error);
      if (error.status === 409) go(`/t/${summary.table_id}`);
    }
  });
}
