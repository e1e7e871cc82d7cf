// Learning the game: a hint's options, and a finished game's analysis in its replay.
//
// The numbers come from the server (ronda.analysis: every option valued from
// the deciding seat's view alone, never the hidden cards); this module only
// says them in the reader's language — the reasons are built here from the
// options' facts (what a card takes, the caida it leaves the next seat, a
// bluff's penalty, a challenge's risk), not sent as English sentences — and
// draws the evaluation graph: an SVG whose marks are buttons that take the
// replay to their decision, each named in words for screen readers.

import { cardLabel, parseCard } from "./cards.js";
import { el } from "./dom.js";
import { count, decimal, kindName, kindWord, percent, rankName, t } from "./i18n.js";
import { sideOf } from "./narrate.js";

export const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];
/** The classes the graph marks, each in its colour, as its legend says. */
const MARKED = ["inaccuracy", "mistake", "blunder"];
const LIKELY = 0.5;
const WORTH_SAYING = 0.2;
// Once one option shown beside others says its share of games won (or lost), each says its own from this share:
// "wins … in 20%" beside a silent 18% reads as a difference that is not there (coaching.py's WORTH_COMPARING).
const WORTH_COMPARING = 0.05;

/** The shares of games won and lost from which options shown together say theirs (coaching.py's outcome_floors). */
export function outcomeFloors(options) {
  const said = (share) => options.some((o) => share(o) >= WORTH_SAYING);
  return {
    won: said((o) => o.won) ? WORTH_COMPARING : WORTH_SAYING,
    lost: said((o) => ((o.facts || {}).kind === "challenge" ? 0 : o.lost)) ? WORTH_COMPARING : WORTH_SAYING,
  };
}
const MARK = "\u0002";

/** A share of the guesses as a percentage. */
const pct = (share) => percent(Math.round(share * 100), 0);

/** A chance to win the game, to a tenth of a percent, kept left to right inside right-to-left text: "34.9%", "34,9 %". */
export const chance = (share) => `\u2066${percent(share * 100, 1)}\u2069`;

/** A loss of winning chances in percentage points: "5.2 percentage points", in French "5,2 points de pourcentage". */
const lossPoints = (loss) => count("percentagePoints", loss * 100, { n: decimal(loss * 100, 1) }, 1);

/** Points with their sign, kept left to right inside right-to-left text. */
export const points = (value) => `\u2066${value >= 0 ? "+" : "−"}${decimal(Math.abs(value), 2)}\u2069`;

/** Expected points in words: "+3.12 points", in French "+3,12 points" but "−0,45 point" (under 2, singular). */
const pointsWords = (value) => count("pointsN", Math.abs(value), { n: points(value) }, 2);

/** A translated sentence whose {cards} became card chips. */
function rich(text, chip) {
  return text.split(MARK).map((piece, i) => (i % 2 ? chip(piece) : piece)).filter((piece) => piece !== "");
}
const cards = (names) => names.map((name) => `${MARK}${name}${MARK}`).join(" ");

/** The class of a decision in words: "Mistake". */
export const gradeName = (grade) => t(`grade_${grade}`);

/** An option as a player names it: a card chip, "Declare ronda", "Challenge Bot 2". */
export function optionName(option, names, chip) {
  if ("play" in option) return [chip(option.play)];
  if ("declare" in option) return [t("optionDeclare", { kind: kindName(option.declare) })];
  return [t("optionChallenge", { name: names.seatName(option.challenge) })];
}

/**
 * Why an option is worth what it is, in the reader's language (pieces of text and card chips). `known`: the
 * cards left were known (one guess, searched exactly), so a share of 100% is a certainty, said without guesses.
 */
export function reason(option, names, chip, { outcome = true, risks = true, known = false, floors = null, seat = null } = {}) {
  const sure = (share) => known && share >= 1;
  const facts = option.facts || {};
  const said = [];
  if (facts.kind === "play") {
    if (facts.raised) said.push(t("why_raise", { cards: cards(facts.taken) }));
    else if (facts.taken.length) {
      said.push(t("why_takes", { cards: cards(facts.taken) }));
      if (facts.caida) said.push(t("term_caida"));
      if (facts.missa) said.push(t("term_missa"));
    } else said.push(t("why_drops"));
    if (facts.raised && facts.missa) said.push(t("term_missa"));
    const exposed = exposure(facts, names, seat);
    if (exposed) said.push(exposed);
    if (risks && facts.next_seat !== null && facts.next_seat !== undefined) {
      const name = names.seatName(facts.next_seat);
      const rank = rankName(Number(parseCard(facts.card)[0]));
      if (sure(facts.reply_caida)) said.push(t("why_sureCaida", { name, rank }));
      else if (facts.reply_caida >= WORTH_SAYING) {
        said.push(t(facts.reply_caida >= LIKELY ? "why_likelyCaida" : "why_maybeCaida", { name, rank, share: pct(facts.reply_caida) }));
      }
      if (sure(facts.reply_missa)) said.push(t("why_sureMissa", { name }));
      else if (facts.reply_missa >= WORTH_SAYING) {
        said.push(t(facts.reply_missa >= LIKELY ? "why_likelyMissa" : "why_maybeMissa", { name, share: pct(facts.reply_missa) }));
      }
    }
  } else if (facts.kind === "declare") {
    const n = facts.penalty;
    if (facts.declared === facts.held) said.push(t(facts.held === "none" ? "why_nothing" : "why_truth"));
    // Shown: its points would reach the target, so the hand is shown before they are given (R9.5).
    else if (facts.held === "none") said.push(t(facts.shown ? "why_bluffShown" : "why_bluff", { n }));
    else if (facts.declared === "none") said.push(t("why_hide", { kind: kindWord(facts.held), n }));
    else {
      const words = { kind: kindWord(facts.declared), held: kindWord(facts.held), n };
      said.push(t(facts.shown ? "why_falseShown" : "why_false", words));
    }
  } else if (facts.kind === "challenge") {
    const kind = kindWord(facts.declared);
    if (facts.proven === "false") said.push(t("why_provenFalse", { kind }));
    else if (facts.proven === "true") said.push(t("why_provenTrue", { kind }));
    else if (sure(facts.loses_game)) said.push(t("why_challengeSure", { kind }));
    else said.push(t("why_challengeRisk", { kind, share: pct(facts.loses_game) }));
  }
  const floor = floors || { won: WORTH_SAYING, lost: WORTH_SAYING };
  if (outcome && option.won >= floor.won) said.push(sure(option.won) ? t("why_winsSure") : t("why_wins", { share: pct(option.won) }));
  if (outcome && option.lost >= floor.lost && facts.kind !== "challenge") {
    said.push(sure(option.lost) ? t("why_losesSure") : t("why_loses", { share: pct(option.lost) }));
  }
  return rich(said.join(" · "), chip);
}

/**
 * What a card does to its side's false declaration (R8.6), as the engine did in the guesses: the card's own doing,
 * not a reply's risk, so it is said where risks are not, and of the option a decision took as of the best
 * (coaching.py's _exposure). With four players it may be the partner's, shown before a win (R9.5). `seat`: the
 * deciding seat where it may not be the reader's (an analysis's decisions); `null`: the reader's own (a hint).
 * Analyses stored before it have no `exposes`: nothing is said.
 */
export function exposure(facts, names, seat = null) {
  if (!(facts.exposes >= WORTH_SAYING)) return "";
  const words = { kind: kindWord(facts.declared), n: facts.penalty, back: facts.taken_back ? t("why_takenBack") : "" };
  const players = names.players ?? 2;
  const whose = seat === null || seat === undefined ? null : facts.partner ? (seat + 2) % players : seat;
  let key = facts.partner ? "why_exposesPartner" : "why_exposes";
  if (whose !== null && names.isMine?.(whose)) key = "why_exposes";
  else if (whose !== null && !(facts.partner && names.isMine?.(seat))) {
    key = "why_exposesOf";
    words.name = names.seatName(whose);
  }
  return facts.exposes >= 1 ? t(key, words) : t(`${key}Share`, { ...words, share: pct(facts.exposes) });
}

/**
 * Why an option is worth its numbers, set apart from them by a dash as the verdict of a replay step sets them: the
 * reason ran into the points ("(−6.31 points)your hand holds no combination"). A dash, not the terminal's colon:
 * the reasons hold colons of their own ("a bluff: its settlement points…").
 */
const hintReason = (why) => (why.length ? el("span", { class: "hint-reason" }, " — ", ...why) : null);

/**
 * Why a move without a choice has none (coaching.py's _nothing_to_choose): the seat's only card, its cards of one
 * rank (`hand`: they play alike, R1.1), or its only move.
 */
function nothingToChoose(option, hand, names, chip) {
  if (!("play" in option)) return [t("hintOnlyMove", { option: optionName(option, names, (card) => card).join("") })];
  return hand.length > 1 ? rich(t("hintAlike", { cards: cards(hand) }), chip) : rich(t("hintOnlyCard", { cards: cards([option.play]) }), chip);
}

/**
 * The hint panel: the best options of the seat's decision, their expected points and why. Where there is nothing
 * to choose (`hint.choice` false: one card, or cards of one rank) it says so first, and then the one option's
 * chance to win: "Your best options" over a single card read as advice where there was none (a student's audit).
 * `hand`: the seat's cards, those that play alike.
 */
export function hintPanel(hint, names, chip, close, hand = []) {
  const known = Boolean(hint.exact && hint.guesses === 1);
  const how = known ? t("hintExact") : count("hintGuesses", hint.guesses);
  const forced = hint.choice === false;
  // With three players the others' points are their average (the search's margin): say so (a learner's audit).
  const note = `${forced ? "hintForcedNote" : "hintNote"}${names.players === 3 ? "Three" : ""}`;
  const floors = outcomeFloors(hint.options);
  return el("section", { class: "hint-panel", id: "hint", "aria-labelledby": "hint-title", role: "region" },
    el("div", { class: "hint-head" },
      el("h3", { id: "hint-title" }, t(forced ? "hintForcedTitle" : "hintTitle")),
      el("button", { type: "button", class: "btn ghost small", "data-action": "close-hint", "aria-label": t("close"), title: t("close"), onclick: close }, "×")),
    forced ? el("p", { class: "hint-forced", id: "hint-forced" }, nothingToChoose(hint.options[0], hand, names, chip)) : null,
    el(forced ? "ul" : "ol", { class: `hint-options${forced ? " forced" : ""}` }, hint.options.map((option, i) => el("li", { class: i === 0 && !forced ? "best" : "", "data-option": i },
      el("span", { class: "hint-option" }, optionName(option, names, chip)),
      el("b", { class: "hint-points", title: t("chanceToWin") }, option.chance === undefined ? points(option.expected) : chance(option.chance)),
      option.chance === undefined ? null : el("span", { class: "hint-expected", title: t("expectedPoints") }, ` (${pointsWords(option.expected)})`),
      hintReason(reason(option, names, chip, { known, floors }))))),
    el("p", { class: "hint muted" }, t(note, { how })));
}

// ------------------------------------------------------------------ the analysis in a replay


/** A declaration as the play-by-play tells it: "Amina declared ronda", "Amina declared nothing" ("n'annonce rien"). */
export function declaredWords(name, kind) {
  return t(kind === "none" ? "n_declare_none" : "n_declare", { name, kind: kindWord(kind) });
}

/**
 * What a decision did, with the class and the loss: in the words of the replay's caption for its step
 * (`caption(step)`: "Bot 2 drops 5o" where the card was laid on the table, which the analysis alone cannot tell),
 * or else from the analysis ("Bot 2 plays 5o"). `graded`: false in the list of decisions, whose chip before each
 * says its class ("Mistake Round 2, deal 6: … — Mistake, 5.2 …" said it twice).
 */
function decisionLabel(decision, names, caption, graded = true) {
  const who = names.seatName(decision.seat);
  const taken = decision.taken;
  let did = caption?.(decision.index + 1);
  if (!did && "play" in taken) did = t("replayPlay", { name: who, card: cardLabel(taken.play) });
  else if (!did && "declare" in taken) did = declaredWords(who, taken.declare);
  else if (!did) did = t("replayChallenge", { name: who, target: names.seatName(taken.challenge) });
  // The card the seat played gave its side's bluff away: said with what it did (the terminal's "which exposes").
  const exposed = exposure(takenOption(decision)?.facts || {}, names, decision.seat);
  if (exposed) did = `${did} · ${exposed}`;
  return t(graded ? "decisionLabel" : "decisionListed", {
    round: decision.round + 1, deal: decision.deal + 1, did, grade: gradeName(decision.class), loss: lossPoints(decision.loss),
  });
}

const SOURCES = ["cards", "caidas", "missas", "combinations", "penalties", "dealer_duty"];
const SOURCE_WORTH = 0.1;
const SOURCES_SAID = 3;
const CHANCE_WORTH = 0.05;

/** The option a decision took, among its options (two cards of one rank are two options of one value). */
function takenOption(decision) {
  const [key, value] = Object.entries(decision.taken)[0];
  return decision.options.find((option) => option[key] === value);
}

/** An option inside a sentence, to say which one a number belongs to: a card chip, "Declare ronda", "the challenge". */
function shortName(option) {
  if ("play" in option) return cards([option.play]);
  if ("declare" in option) return t("optionDeclare", { kind: kindName(option.declare) });
  return t("theChallenge");
}

/**
 * What the better option gains over the worse one, each number the difference between the two: the
 * sources of points (the card count with the last capture's sweep, caidas, missas, ...), then the chances
 * of winning and of losing the game after each, named. Analyses stored before the sources have none to say.
 * `known`: the cards left were known, every share 0 or 1: what happens after each is said, not shares of guesses.
 */
export function gains(better, worse, who, known = false) {
  const said = [];
  const other = shortName(worse);
  const sure = (mine, theirs) => known && Math.min(mine, theirs) === 0 && Math.max(mine, theirs) === 1;
  if (better.sources && worse.sources) {
    const named = SOURCES.map((source) => [better.sources[source] - worse.sources[source], source])
      .filter(([d]) => Math.abs(d) >= SOURCE_WORTH).sort((a, b) => Math.abs(b[0]) - Math.abs(a[0]))
      .slice(0, SOURCES_SAID).sort((a, b) => b[0] - a[0]);
    for (const [difference, source] of named) {
      let part = t(`src_${source}`, { n: points(difference) });
      const sweep = better.sources.sweep;
      const against = worse.sources.sweep;
      // Only where it explains the count's difference, gained or given up (as the terminal says it): "+2.60 from
      // the card count (last capture in 70% against 80% after 6b)" pointed the other way.
      if (source === "cards" && Math.abs(sweep - against) >= SOURCE_WORTH && (sweep > against) === (difference > 0)) {
        const words = sure(sweep, against)
          ? t(sweep > against ? "src_sweepNot" : "src_sweepOnly", { name: who, option: other })
          : t("src_sweep", { name: who, share: pct(sweep), other: pct(against), option: other });
        part += ` (${words})`;
      }
      said.push(part);
    }
  }
  for (const [key, mine, theirs] of [["chance_wins", better.won, worse.won], ["chance_loses", better.lost, worse.lost]]) {
    if (sure(mine, theirs)) said.push(t(`${key}${mine > theirs ? "Not" : "Only"}`, { option: other }));
    else if (Math.max(mine, theirs) >= CHANCE_WORTH && Math.abs(mine - theirs) >= CHANCE_WORTH) {
      said.push(t(key, { share: pct(mine), other: pct(theirs), option: other }));
    }
  }
  return said.join(" · ");
}

/**
 * The verdict on the decision that led to a replay step: its class; when it was not the best, the option
 * taken with its value, the best with its value, and what the best gains against the one taken.
 */
export function verdict(decision, names, chip) {
  const best = decision.options[0];
  const out = [el("span", { class: `grade grade-${decision.class}` }, gradeName(decision.class))];
  if (decision.class !== "best") {
    const known = Boolean(decision.exact && decision.guesses === 1);
    const taken = takenOption(decision) || best;
    const value = (option) => `${chance(option.chance)} (${pointsWords(option.expected)})`;
    out.push(" ", t("lossOf", { loss: lossPoints(decision.loss) }), " · ", t("takenWas"), " ",
      ...optionName(taken, names, chip), " ", value(taken), " — ", ...reason(taken, names, chip, { outcome: false, known, seat: decision.seat }),
      " · ", t("bestWas"), " ", ...optionName(best, names, chip), " ", value(best), " — ",
      ...reason(best, names, chip, { outcome: false, risks: false, seat: decision.seat }));
    const who = names.sideName(sideOf(decision.seat, names.players ?? 2));
    const more = gains(best, taken, who, known);
    if (more) out.push(" · ", ...rich(t("againstTaken", { option: shortName(taken), gains: more }), chip));
  }
  else {
    // The best option taken may still give the side's bluff away (the game's only way on): said as of any other.
    const exposed = exposure((takenOption(decision) || best).facts || {}, names, decision.seat);
    if (exposed) out.push(" — ", exposed);
  }
  if (decision.hinted) out.push(" · ", t("afterHint"));
  return el("span", { class: "verdict-line" }, out);
}

/** The evaluation graph: each side's chance to win at its decisions, the costly decisions marked. */
function graph(analysis, { names, players, last, current, go, caption }) {
  const W = 640;
  const H = 170;
  const pad = 18;
  const rtl = document.documentElement.dir === "rtl";
  const sides = players === 4 ? 2 : players;
  // A chance from 0 to 1, drawn from -1 to 1 around the middle line (an even game).
  const value = (decision) => {
    const best = decision.options[0].chance;
    const side = sideOf(decision.seat, players);
    const mine = sides === 2 && side === 1 ? 1 - best : best; // two sides: one line, side 0's chance
    return 2 * mine - 1;
  };
  const top = 1;
  const x = (step) => {
    const at = pad + ((W - 2 * pad) * step) / Math.max(1, last);
    return rtl ? W - at : at;
  };
  const y = (v) => H / 2 - (Math.max(-top, Math.min(top, v)) / top) * (H / 2 - pad);
  const svg = (tag, attrs = {}, ...children) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
    node.append(...children);
    return node;
  };
  const series = sides === 2 ? [0] : [...Array(sides).keys()];
  const lines = series.map((side) => {
    const mine = analysis.decisions.filter((d) => sides === 2 || sideOf(d.seat, players) === side);
    const path = mine.map((d) => `${x(d.index + 1).toFixed(1)},${y(value(d)).toFixed(1)}`).join(" ");
    return svg("polyline", { points: path, class: `graph-line seat-line-${side}`, fill: "none" });
  });
  const marks = analysis.decisions.filter((d) => MARKED.includes(d.class)).map((d) => {
    const label = decisionLabel(d, names, caption);
    const mark = svg("circle", {
      cx: x(d.index + 1).toFixed(1), cy: y(value(d)).toFixed(1), r: d.class === "blunder" ? 6 : 5,
      class: `graph-mark grade-${d.class}`, tabindex: 0, role: "button", "aria-label": label, "data-step": d.index + 1,
      "data-focus": `mark-${d.index + 1}`,
    }, svg("title", {}, label));
    const jump = () => go(d.index + 1);
    mark.addEventListener("click", jump);
    mark.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); jump(); } });
    return mark;
  });
  const who = sides === 2 ? names.sideName(0) : null;
  return svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "graph", id: "analysis-graph", role: "group",
    "aria-labelledby": "graph-title graph-desc", preserveAspectRatio: "none",
  },
  svg("title", { id: "graph-title" }, t("graphTitle")),
  svg("desc", { id: "graph-desc" }, who ? t("graphDescTwo", { name: who }) : t("graphDescAll")),
  svg("rect", { x: 0, y: 0, width: W, height: H / 2, class: "graph-ahead" }),
  svg("line", { x1: pad, x2: W - pad, y1: H / 2, y2: H / 2, class: "graph-zero" }),
  svg("line", { x1: x(current), x2: x(current), y1: pad / 2, y2: H - pad / 2, class: "graph-now" }),
  ...lines, ...marks);
}

/** A number with its sign, isolated left to right (so Arabic text shows "+5", never "5+"). */
export const signed = (value, digits = 0) => el("bdi", { dir: "ltr", class: "num" },
  `${value > 0 ? "+" : value < 0 ? "−" : ""}${decimal(Math.abs(value), digits)}`);

/**
 * The graph's frame: its scale in chances to win (100%, an even 50% on the middle line, 0%), its steps (first and
 * last), and a legend that names every line — whose chance each colour is — and the marks.
 */
function graphFrame(analysis, { names, players, last }, svg) {
  const sides = players === 4 ? 2 : players;
  const lines = sides === 2 ? [0] : [...Array(sides).keys()];
  const legend = lines.map((side) => el("li", { "data-side": side },
    el("span", { class: `swatch line-${side}`, "aria-hidden": "true" }),
    sides === 2 ? t("legendTwo", { name: names.sideName(0), other: names.sideName(1) }) : names.sideName(side)));
  // One swatch a class marked, of its marks' colour: one red swatch for all three stood beside yellow inaccuracies.
  legend.push(el("li", { class: "legend-marks" },
    MARKED.map((grade) => el("span", { class: "legend-mark", "data-grade": grade },
      el("span", { class: `swatch mark grade-${grade}`, "aria-hidden": "true" }), gradeName(grade))),
    t("legendMarks")));
  return [
    el("div", { class: "graph-y-title", "aria-hidden": "true" }, t("chanceToWin")),
    el("div", { class: "graph-frame" },
      el("div", { class: "graph-y", "aria-hidden": "true" },
        el("span", { class: "graph-tick tick-top" }, chance(1)),
        el("span", { class: "graph-tick tick-zero" }, chance(0.5)),
        el("span", { class: "graph-tick tick-bottom" }, chance(0))),
      svg),
    el("div", { class: "graph-x", "aria-hidden": "true" },
      el("span", {}, `${t("step")} 0`),
      el("span", { class: "axis-title" }, t("graphSteps")),
      el("span", {}, `${t("step")} ${last}`)),
    el("ul", { class: "graph-legend", id: "graph-legend", "aria-label": t("legend") }, legend),
  ];
}

/**
 * A seat's summary in words: its decisions with a choice (the ones analysed), of how many moves, and the average
 * loss. A person counts moves: "88 decisions" after 112 of them read as a miscount. An analysis stored before the
 * moves were counted has none, and says the decisions alone.
 */
export function seatSummaryText(s) {
  const of = s.moves === undefined || s.moves === null ? "" : count("ofMoves", s.moves, { moves: s.moves });
  return count("seatSummary", s.decisions, { of, loss: lossPoints(s.average_loss) });
}

/** The analysis of a finished game beside its replay: the graph, each seat's summary, the costly decisions. */
export function analysisPanel(analysis, { names, players, last, current, go, chip, caption }) {
  const summaries = analysis.seats.map((s) => el("li", { "data-seat": s.seat },
    el("b", {}, names.seatName(s.seat)), " ",
    seatSummaryText(s), " · ",
    GRADES.map((g) => `${gradeName(g)} ${s.classes[g]}`).join(" · ")));
  // Every decision that lost some chance to win, good ones too (the terminal's list of slips): the heading says so,
  // where the graph's legend names the classes it marks, the inaccuracies and worse.
  const costly = analysis.decisions.filter((d) => d.class !== "best")
    .sort((a, b) => b.loss - a.loss || a.index - b.index);
  return el("section", { class: "analysis panel", id: "analysis", "aria-labelledby": "analysis-title" },
    el("h2", { id: "analysis-title" }, t("analysisTitle")),
    el("figure", { class: "analysis-graph" },
      ...graphFrame(analysis, { names, players, last }, graph(analysis, { names, players, last, current, go, caption })),
      el("figcaption", { class: "hint" },
        (players === 4 ? 2 : players) === 2 ? t("graphAhead", { name: names.sideName(0), other: names.sideName(1) }) : "",
        count("graphCaption", analysis.method.guesses, { guesses: analysis.method.guesses }))),
    el("ul", { class: "analysis-seats" }, summaries),
    costly.length ? el("details", { class: "analysis-costly", open: true },
      el("summary", {}, t("costlyTitle", { n: costly.length })),
      el("ol", {}, costly.map((d) => el("li", {},
        el("button", { type: "button", class: "link", "data-step": d.index + 1, "data-focus": `costly-${d.index + 1}`, onclick: () => go(d.index + 1) },
          el("span", { class: `grade grade-${d.class}` }, gradeName(d.class)), " ",
          decisionLabel(d, names, caption, false)))))) : el("p", { class: "hint" }, t("noCostly")),
    el("p", { class: "hint muted" }, t("analysisNote")));
}
