// Step-by-step replays of finished games (`GET /api/tables/{id}/replay`): the
// table as it stood after every decision, every hand face up (the game is over,
// so nothing is hidden any more), with the play-by-play up to that step.
// "Analyse the game" asks the server for the analysis of every decision
// (`GET /api/tables/{id}/analysis`, searched once, in the background): each
// step then says its decision's class, and a graph of the game goes beside it.
//
// The page asks until the analysis is done, one loop at a time: an answer lost
// (none within ANSWER_WITHIN, a network error, a server's error page, a body
// cut short) is asked again after a growing pause, and after TRIES lost in a
// row the page says it could not get the analysis and offers to try again. A
// student's audit saw the page stay on "Analysing: 9 of 26…" for two minutes
// while the server had long finished: a loop that awaited an answer for ever,
// or a screen left behind by a newer one, stops asking with nothing said.

import { cardLabel } from "./cards.js";
import { analysisPanel, declaredWords, verdict } from "./coach.js";
import { el } from "./dom.js";
import { count, refusal, t } from "./i18n.js";
import { Narrator, namer } from "./narrate.js";
import { ApiError, api, tokens } from "./net.js";
import { TableScreen, chip } from "./table.js";

const PACE = 900;
const POLL = 1000;
const BUSY_WAIT = 5000;
// The server answers a poll at once (the progress it keeps, or the analysis stored): an answer not in within this
// is taken as lost, and asked again.
const ANSWER_WITHIN = 10_000;
// Answers lost in a row before the page says so, asked again meanwhile after POLL, then twice as long.
const TRIES = 3;

/** An answer that may come if asked again: none at all, a server's failure (not a game it cannot replay), a limit. */
const lostAnswer = (error) => error.status === 0 || error.status === 429 || (error.status >= 500 && error.code !== "damaged");

// Player controls drawn as SVG (the usual media symbols are missing from many fonts).
const svg = (path) => `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path d="${path}" fill="currentColor"/></svg>`;
// Each is its own shape: the first and last steps |◀◀ and ▶▶|, one step back ◀| and forward |▶ (a bar before
// the arrow), and play ▶ alone, the large button with its word. Right to left, CSS mirrors them all.
const ICONS = {
  first: svg("M4 5h2v14H4zM13 5v14L6.5 12zM21 5v14l-6.5-7z"),
  prev: svg("M16 5h2v14h-2zM14 5v14L5 12z"),
  play: svg("M7 5v14l12-7z"),
  pause: svg("M6 5h4v14H6zM14 5h4v14h-4z"),
  next: svg("M6 5h2v14H6zM10 5v14l9-7z"),
  last: svg("M18 5h2v14h-2zM11 5v14l6.5-7zM3 5v14l6.5-7z"),
};

/**
 * Show the replay of a finished table in `app`; returns a function that stops it. `current()`: whether the page
 * still wants this screen once its game has loaded: a newer one (another route meanwhile) is not drawn over.
 */
export async function showReplay(app, tableId, { leave, fail, game = null, analyseNow = false, current = () => true }) {
  let data;
  let summary;
  const which = game === null || game === "" ? "" : `?game=${encodeURIComponent(game)}`;
  try {
    [data, summary] = await Promise.all([
      api(`/api/tables/${encodeURIComponent(tableId)}/replay${which}`, undefined, tokens.get(tableId)?.token),
      api(`/api/tables/${encodeURIComponent(tableId)}`),
    ]);
  } catch (error) {
    if (current()) fail(error);
    return { stop: () => {}, redraw: () => {} };
  }
  // The page moved on while the game loaded: drawn now, this screen replaced the newer one, and was then stopped,
  // its progress line left on the page for good while the newer one asked on out of sight.
  if (!current()) return { stop: () => {}, redraw: () => {} };
  const steps = data.steps;
  const last = steps.length - 1;
  const root = el("div", { class: "table-screen replay", id: "replay" });
  app.replaceChildren(root);
  const screen = new TableScreen(root, { act: () => false, send: () => false, leave, copyInvite: () => {} });
  screen.table = summary;
  screen.synced = true;
  screen.connected = true;
  let index = 0;
  let timer = null;
  let analysis = null; // the analysis once the server has it
  let analysing = null; // {done, total} while it is searched, "busy" while the server asks to wait, {failed} when lost
  let polling = null;
  let asking = 0; // the loop that asks: starting one (Try again) ends any other, so two never ask at once
  let lost = 0; // answers lost in a row
  let left = false;

  const names = namer(summary, null);
  // Each step's caption in the play-by-play's words: a card laid on the table "drops", a declaration of
  // nothing is "declared nothing" (in French "n'annonce rien"), as the lines beside it say.
  const describe = (step) => {
    const action = step.action;
    if (!action) return t("replayStart");
    const who = names.seatName(action.seat);
    if ("play" in action) {
      const dropped = step.events.some((e) => e.type === "drop" && e.seat === action.seat);
      return t(dropped ? "replayDrop" : "replayPlay", { name: who, card: cardLabel(action.play) });
    }
    if ("declare" in action) return declaredWords(who, action.declare);
    if ("challenge" in action) return t("replayChallenge", { name: who, target: names.seatName(action.challenge) });
    return "";
  };

  const stop = () => {
    clearInterval(timer);
    timer = null;
  };
  const byStep = new Map();
  const analyse = async (loop = ++asking) => {
    clearTimeout(polling);
    if (left || loop !== asking) return;
    let answer = null;
    let error = null;
    try {
      answer = await api(`/api/tables/${encodeURIComponent(tableId)}/analysis${which}`, undefined, tokens.get(tableId)?.token, { within: ANSWER_WITHIN });
    } catch (caught) {
      error = caught;
    }
    if (left || loop !== asking) return;
    const understood = answer && (answer.status === "done" ? Boolean(answer.analysis) : answer.status === "running");
    if (!error && !understood) error = new ApiError(0, "unreadable", ""); // a body cut short, a page of a proxy's
    const again = (wait) => { polling = setTimeout(() => analyse(loop), wait); };
    if (error?.code === "busy" || error?.code === "store_unavailable") {
      lost = 0;
      analysing = "busy";
      again(BUSY_WAIT);
    } else if (error && lostAnswer(error) && ++lost < TRIES) {
      again(POLL * 2 ** (lost - 1)); // the progress line stays: asked again
    } else if (error) {
      analysing = { failed: error };
    } else if (answer.status === "done") {
      lost = 0;
      analysis = answer.analysis;
      analysing = null;
      for (const decision of analysis.decisions) byStep.set(decision.index + 1, decision);
    } else {
      lost = 0;
      analysing = { done: answer.done, total: answer.total };
      again(POLL);
    }
    draw(false);
  };
  const start = () => {
    analysing = { done: 0, total: "…" };
    lost = 0;
    analyse();
  };
  const analysisArea = () => {
    if (analysis) {
      return analysisPanel(analysis, {
        names, players: summary.players, last, current: index, go: (to) => { stop(); go(to); }, chip,
        caption: (step) => (steps[step] ? describe(steps[step]) : ""),
      });
    }
    const failed = analysing?.failed;
    if (failed) {
      const why = lostAnswer(failed) ? t("analysisNoAnswer") : refusal(failed);
      return el("section", { class: "analysis panel", id: "analysis", "aria-live": "polite" },
        el("p", { class: "hint", id: "analysis-failed", role: "alert" }, t("analysisFailed", { why })),
        el("button", { type: "button", class: "btn primary", id: "analyse", "data-focus": "analyse", onclick: start }, t("analysisRetry")));
    }
    const busy = analysing !== null;
    const text = analysing === "busy" ? t("analysisBusy")
      : busy ? count("analysing", analysing.total, { done: analysing.done, total: analysing.total }) : null;
    return el("section", { class: "analysis panel", id: "analysis", "aria-live": "polite" },
      el("button", { type: "button", class: "btn primary", id: "analyse", "data-focus": "analyse", disabled: busy, onclick: start }, t("analyse")),
      text ? el("p", { class: "hint", id: "analysis-progress", role: "status" }, text) : null,
      busy && analysing !== "busy" && analysing.total ? el("progress", { max: analysing.total, value: analysing.done, "aria-label": t("analysisTitle") }) : null);
  };
  const go = (to) => {
    const next = Math.max(0, Math.min(last, to));
    const forward = next === index + 1;
    index = next;
    if (index === last) stop();
    draw(forward);
  };
  const toggle = () => {
    if (timer) stop();
    else {
      if (index === last) index = 0;
      timer = setInterval(() => go(index + 1), PACE);
    }
    draw(false);
  };

  screen.controls = () => {
    const slider = el("input", {
      type: "range", id: "replay-slider", min: 0, max: last, value: index, "aria-label": t("step"),
      oninput: (e) => { stop(); go(Number(e.target.value)); },
    });
    const button = (id, label, onclick, disabled, symbol, worded = false) => {
      const node = el("button", {
        type: "button", class: `btn icon${worded ? " play primary" : ""}`, id, "aria-label": worded ? null : label, title: label,
        disabled, onclick, "data-focus": id, "data-icon": symbol, html: ICONS[symbol],
      });
      if (worded) node.append(el("span", {}, label));
      return node;
    };
    return el("div", { class: "replay-controls", role: "group", "aria-label": t("replay") },
      el("div", { class: "replay-buttons" },
        button("replay-first", t("first"), () => { stop(); go(0); }, index === 0, "first"),
        button("replay-prev", t("prev"), () => { stop(); go(index - 1); }, index === 0, "prev"),
        button("replay-play", timer ? t("pause") : t("play"), toggle, false, timer ? "pause" : "play", true),
        button("replay-next", t("forward"), () => { stop(); go(index + 1); }, index === last, "next"),
        button("replay-last", t("last"), () => { stop(); go(last); }, index === last, "last")),
      slider,
      el("p", { class: "replay-step" },
        el("b", {}, t("stepOf", { n: index, total: last })), " · ", describe(steps[index])),
      byStep.has(index) ? el("p", { class: "replay-verdict", id: "replay-verdict" }, verdict(byStep.get(index), names, chip)) : null);
  };

  // The play-by-play follows the step shown: its own lines marked and scrolled into the panel's view, the last at
  // the bottom, the first kept in sight. Without it the panel opened at its first line (moving it beside the
  // analysis resets its scroll): at step 40 it showed the first deals, the step's move far below.
  const follow = (box, before) => {
    if (!box) return;
    const own = [...box.children].filter((line) => Number(line.dataset.line) > before);
    for (const line of own) {
      line.classList.add("now");
      line.setAttribute("aria-current", "step");
    }
    box.scrollTop = box.scrollHeight;
    const above = own.length ? own[0].getBoundingClientRect().top - box.getBoundingClientRect().top : 0;
    if (above < 0) box.scrollTop += above;
  };
  const draw = (forward) => {
    const focus = document.activeElement?.dataset?.focus; // kept on the analysis' buttons and marks
    const state = steps[index].state;
    const narrator = new Narrator(names);
    for (const step of steps.slice(0, index)) for (const event of step.events) narrator.push(event);
    const before = narrator.serial; // the lines numbered past it are this step's own
    for (const event of steps[index].events) narrator.push(event);
    screen.narrator = narrator;
    screen.hands = state.hands;
    screen.view = state;
    screen.plays = forward ? steps[index].events.filter((e) => ["drop", "capture", "raise"].includes(e.type)) : [];
    screen.still = !forward; // a jump redraws without motion
    screen.render();
    root.querySelector(".table-head")?.prepend(el("div", { class: "replay-banner" },
      el("b", {}, t("replayOf")), " ", el("a", { href: "/", "data-link": "" }, t("lobby"))));
    // The analysis goes in the side column, above the play-by-play: on a wide screen it is seen without scrolling.
    const board = root.querySelector(".board");
    const log = board?.querySelector(".log");
    if (board && log) board.append(el("div", { class: "replay-side" }, analysisArea(), log));
    else root.append(analysisArea());
    follow(root.querySelector(".log-lines"), before);
    if (focus) root.querySelector(`[data-focus="${CSS.escape(focus)}"]`)?.focus({ preventScroll: true });
  };
  const keys = (event) => {
    if (event.target.closest?.("input, select, textarea")) return;
    const rtl = document.documentElement.dir === "rtl";
    if (event.key === "ArrowRight") { stop(); go(index + (rtl ? -1 : 1)); event.preventDefault(); }
    if (event.key === "ArrowLeft") { stop(); go(index + (rtl ? 1 : -1)); event.preventDefault(); }
    // Space presses the button or link the keyboard is on, as everywhere; elsewhere it plays or pauses (it started
    // the replay from "Analyse the game" instead of the analysis: an audit).
    if (event.key === " " && !event.target.closest?.("button, a, summary, [role='button']")) { toggle(); event.preventDefault(); }
  };
  document.addEventListener("keydown", keys);
  if (analyseNow) start(); // "?analysis": a player's page asked for it
  draw(false);
  return {
    stop: () => {
      stop();
      left = true;
      clearTimeout(polling);
      document.removeEventListener("keydown", keys);
    },
    redraw: () => draw(false),
  };
}
