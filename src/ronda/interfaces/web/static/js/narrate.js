// The play-by-play in the game's own words, built from the public events the server sends.
//
// As players call them at the table, the points a play scores are told on the
// play's own line: "You play 5c, take 5o 6c — caida! +1". Cards inside a line
// are kept as card names so the page can draw them as small chips. A seat's own
// decision that the computer made for it (the server marks it `made_for_you`,
// to that seat alone) is told as the computer's: "The computer plays 4o for you,
// takes 4c — caida! +1".

import { cardOrder } from "./cards.js";
import { count, has, kindName, kindWord, language, t } from "./i18n.js";

/** A seat's side (R2: partners opposite with four players, each seat its own side otherwise). */
export const sideOf = (seat, players) => (players === 4 ? seat % 2 : seat);

/** Names of seats and sides as this reader sees them: "You", "Amina", "Seat 2", "Us"/"Them". */
export function namer(table, me) {
  const players = table?.players ?? 2;
  const seatName = (seat) => {
    if (me !== null && me !== undefined && seat === me) return t("you");
    const info = table?.seats?.[seat];
    if (info?.kind === "bot") return t("botName", { level: levelName(info.level), seat: seat + 1 });
    return personName(info?.name) || t("seatN", { n: seat + 1 });
  };
  const sideName = (side) => {
    if (players !== 4) return seatName(side);
    if (me !== null && me !== undefined) return me % 2 === side ? t("us") : t("them");
    return t("pair", { a: seatName(side), b: seatName(side + 2) });
  };
  const isMine = (seat) => me !== null && me !== undefined && seat === me;
  const isMySide = (side) => me !== null && me !== undefined && (players === 4 ? me % 2 === side : me === side);
  return { seatName, sideName, isMine, isMySide, players, me };
}

/** Play now's name for a person who gave none ("Guest 2", "Guest ab12") in the page's language ("Invité 2");
 * any other name as it is. Nobody can type such a name (the server refuses it as passing for a guest's), so a
 * name of that form is always the server's. */
export function personName(name) {
  const guest = /^Guest ([0-9a-f]+)$/.exec(name ?? "");
  return guest ? t("guestName", { n: guest[1] }) : name;
}

/** A bot level in the page's language: "medium" → "moyen". */
export function levelName(level) {
  return has(`level_${level}`) ? t(`level_${level}`) : String(level ?? "");
}

/** Cards in the felt's order (by rank, then suit): a hand shown comes as dealt (RECORD.md), a person reads it sorted. */
const inOrder = (cards) => [...cards].sort((a, b) => cardOrder(a) - cardOrder(b));

const MARK = "\u0001";
const cardToken = (name) => `${MARK}card:${name}${MARK}`;
const cardsToken = (names) => names.map(cardToken).join(" ");

/** Split a translated sentence into text pieces and {card} pieces. */
function parts(text) {
  return text.split(MARK).filter((piece) => piece !== "").map((piece) =>
    piece.startsWith("card:") ? { card: piece.slice(5) } : piece);
}

/** A side's name after "to": in Arabic the preposition lam joins the name, and "ال" after it becomes "لل"
 * ("للحاسوب 2", not "لـالحاسوب 2"); the other languages say "to" in the sentence itself. */
function toSide(name) {
  if (language() !== "ar") return name;
  const joined = { [t("you")]: "لك", [t("us")]: "لنا", [t("them")]: "لهم" }[name];
  if (joined) return joined;
  return name.startsWith("ال") ? `لل${name.slice(2)}` : `لـ${name}`;
}

/** Points of each combination (R8.1), as the engine's KIND_VALUE. */
const KIND_POINTS = { ronda: 1, double_ronda: 2, tringa: 5 };
const PLAY_REASONS = new Set(["caida", "chain", "missa", "dealer_duty"]);
// Points keep their sign on the left in right-to-left text too (a left-to-right isolate).
const signed = (points) => `\u2066${points >= 0 ? "+" : ""}${points}\u2069`;

/** The lines a narrator keeps: games to 41 told in 120 to 290 lines (about 55 a round, 24 games of 2, 3 and 4
 * players), so only a freak game of some 18 rounds, or a page left open on a table's games one after another,
 * forgets its first lines. The cap keeps such a page quick: the play-by-play is drawn anew at every move. */
export const KEPT_LINES = 1000;

/** The combination a hand as dealt makes (R8.1; a double ronda, R10 four_card_hands, is two pairs or four of a
 * rank), as the engine's hand_combination names it: "none" where it makes none. */
export function combination(hand) {
  const counts = new Map();
  for (const card of hand) counts.set(card.slice(0, -1), (counts.get(card.slice(0, -1)) ?? 0) + 1);
  const [most = 0, next = 0] = [...counts.values()].sort((a, b) => b - a);
  if (most === 4 || (most === 2 && next === 2)) return "double_ronda";
  return most === 3 ? "tringa" : most === 2 ? "ronda" : "none";
}

/**
 * Turns events into lines. Keep one per table screen: it remembers the line of
 * the last play (to add its points) and the declarations of the deal (to tell a
 * contest from a lone announcement).
 */
export class Narrator {
  constructor(names) {
    this.names = names;
    this.lines = [];
    this.lastPlay = null;
    this.playSide = null; // the side of the seat whose play `lastPlay` tells
    this.failed = false; // `lastPlay` already names the opponents its points went to (a failed dealer duty)
    this.declared = new Map(); // seat → kind, this deal
    this.exposed = new Set(); // seats whose declaration was shown false, this deal
    this.serial = 0;
    this.trimmed = false; // lines forgotten past KEPT_LINES: the play-by-play says so at its top
  }

  /** Add one event; returns the line it created or extended, or null. */
  push(event) {
    const line = this.describe(event);
    if (line === "extended") return this.lastPlay;
    if (!line) return null;
    line.id = ++this.serial;
    line.type = event.type;
    this.lines.push(line);
    if (this.lines.length > KEPT_LINES) {
      this.lines.splice(0, this.lines.length - KEPT_LINES);
      this.trimmed = true;
    }
    return line;
  }

  /** The line of `key` about `seat`: in the reader's own words when it is theirs ("You play…"), and as the
   * computer's when it made that decision for them (`forYou`: "The computer plays … for you"), never "You". */
  said(key, seat, params, forYou = false) {
    if (!this.names.isMine(seat)) return t(key, params);
    if (forYou && has(`${key}_for_you`)) return t(`${key}_for_you`, params);
    return t(has(`${key}_you`) ? `${key}_you` : key, params);
  }

  /** `line` is now the last play's, by `seat`: a score of the play's own (caida, chain, missa, dealer duty) is
   * told on it. */
  play(line, seat) {
    this.lastPlay = line;
    this.playSide = sideOf(seat, this.names.players);
    this.failed = false;
    return line;
  }

  /** What an announcement's points are made of where more than one declaration counts (R8.4: the best takes the
   * points of all, a bluff not yet exposed included), as the terminal says it: " (5 for Bot 2's tringa, 2 for your
   * double ronda)"; "" where one declaration alone, or where the points are not those the declarations add up to
   * (a tie shares them), so that a line never explains a number it does not hold. */
  madeOf(event) {
    const players = this.names.players;
    const live = [...this.declared].filter(([seat, kind]) => kind !== "none" && !this.exposed.has(seat));
    if (live.length < 2) return "";
    const total = live.reduce((sum, [, kind]) => sum + (KIND_POINTS[kind] ?? 0), 0);
    if (total !== event.points) return "";
    live.sort(([a], [b]) => (sideOf(a, players) !== event.side) - (sideOf(b, players) !== event.side));
    const parts = live.map(([seat, kind]) =>
      this.said("n_part", seat, { points: KIND_POINTS[kind], name: this.names.seatName(seat), kind: kindWord(kind) }));
    return ` (${parts.join(t("listComma"))})`;
  }

  describe(event) {
    const { seatName, sideName, isMine, isMySide } = this.names;
    const name = event.seat !== undefined && event.seat !== null ? seatName(event.seat) : "";
    const forYou = Boolean(event.made_for_you);
    switch (event.type) {
      case "round_start":
        this.lastPlay = null;
        return { parts: parts(this.said("n_round", event.dealer, { round: event.round + 1, name: seatName(event.dealer) })), tone: "head" };
      case "deal": {
        this.declared.clear();
        this.exposed.clear();
        this.lastPlay = null;
        let text = t(event.last ? "n_deal_last" : "n_deal", { deal: event.deal + 1, size: event.hand_size, stock: event.stock });
        // In the felt's order (by rank, then suit), so that the line and the table beside it agree.
        const table = inOrder(event.table);
        if (table.length) text += ` · ${t("n_table", { cards: cardsToken(table) })}`;
        return { parts: parts(text), tone: "deal" };
      }
      case "declare": {
        // Every seat's declaration is told, "nothing" too (R8.2), as the terminal tells it: a person whose turn
        // clock ran out reads here what the computer declared for them.
        this.declared.set(event.seat, event.declaration);
        const key = event.declaration === "none" ? "n_declare_none" : "n_declare";
        return { parts: parts(this.said(key, event.seat, { name, kind: kindWord(event.declaration) }, forYou)), tone: "declare" };
      }
      case "drop": {
        const line = { parts: parts(this.said("n_drop", event.seat, { name, card: cardToken(event.card) }, forYou)), tone: isMine(event.seat) ? "mine" : "" };
        return this.play(line, event.seat);
      }
      case "capture": {
        const line = {
          parts: parts(this.said("n_capture", event.seat, { name, card: cardToken(event.card), cards: cardsToken(event.cards) }, forYou)),
          tone: isMine(event.seat) ? "mine" : "",
        };
        return this.play(line, event.seat);
      }
      case "raise": {
        const line = {
          parts: parts(this.said("n_raise", event.seat, { name, card: cardToken(event.card), cards: cardsToken(event.cards) }, forYou)),
          tone: isMine(event.seat) ? "mine" : "",
        };
        return this.play(line, event.seat);
      }
      case "score": {
        if (PLAY_REASONS.has(event.reason) && this.lastPlay && this.lines[this.lines.length - 1] === this.lastPlay) {
          const points = signed(event.points);
          if (event.side === this.playSide) {
            // As called at the table, inside the line: "… — caida! +1".
            this.lastPlay.parts.push(` — ${t(`shout_${event.reason}`).toLocaleLowerCase()} ${points}`);
          } else {
            // A play's points that went to its opponents (R10: a dealer's last card that fails its duty scores 5 for
            // each opposing side) name who got them, never read as the player's own: "… — dealer duty failed:
            // Seat 2 +5, Seat 3 +5", as the Python narration tells them.
            const taker = `${sideName(event.side)} ${points}`;
            this.lastPlay.parts.push(this.failed ? `${t("listComma")}${taker}`
              : ` — ${t("n_play_failed", { reason: t(`r_${event.reason}`), takers: taker })}`);
            this.failed = true;
          }
          this.lastPlay.tone = "score";
          return "extended";
        }
        const side = sideName(event.side);
        const points = signed(event.points);
        let text;
        if (event.reason === "announcement") {
          const sides = new Set([...this.declared].filter(([, kind]) => kind !== "none")
            .map(([seat]) => sideOf(seat, this.names.players)));
          if (event.points < 0) text = t("n_taken_back", { side, points });
          else text = t(sides.size > 1 ? "n_contest" : "n_announce_scored", { side, points }) + this.madeOf(event);
        } else {
          text = t("n_score", { side, points, reason: t(`r_${event.reason}`) });
        }
        return { parts: parts(text), tone: isMySide(event.side) ? "good" : "score" };
      }
      case "transfer":
        return {
          parts: parts(count("n_transfer", event.cards, { payer: sideName(event.payer), payee: sideName(event.payee), cards: event.cards, reason: t(`r_${event.reason}`) })
            + (event.owed ? ` ${t("n_owed", { owed: event.owed })}` : "")),
          tone: "score",
        };
      case "exposure":
        this.exposed.add(event.seat);
        return { parts: parts(this.said("n_exposed", event.seat, { name, kind: kindWord(event.declaration) })), tone: "alert" };
      case "challenge":
        return {
          // "Bot 2 challenges you", not "challenges You": the reader as the object has its own words.
          parts: parts(this.said(isMine(event.target) ? "n_challenge_of_you" : "n_challenge", event.seat, {
            name, target: seatName(event.target), hand: cardsToken(inOrder(event.hand)),
            verdict: event.truthful ? t("n_true") : t("n_false"),
          }, forYou)),
          tone: "alert",
        };
      case "show": {
        // R9.5: a hand shown before its declaration's points would win the game, told against that declaration
        // as a challenged hand is (the Python narration says it too).
        const declared = this.declared.get(event.seat);
        const verdict = declared === undefined ? "" : ` — ${t(combination(event.hand) === declared ? "n_true" : "n_false")}`;
        return { parts: parts(this.said("n_show", event.seat, { name, hand: cardsToken(inOrder(event.hand)) }) + verdict), tone: "alert" };
      }
      case "table_taken":
        return { parts: parts(t("n_table_taken", { side: toSide(sideName(event.side)), cards: cardsToken(event.cards) })), tone: "" };
      case "round_end":
        return {
          parts: parts(t("n_round_end", { piles: event.piles.map((n, side) => `${sideName(side)} ${n}`).join(" · ") })),
          tone: "head",
        };
      case "game_over": {
        const key = event.reason === "failed_challenge" ? "n_game_over_challenge" : "n_game_over";
        // A seat that wins alone reads "you win": its own name inside the line read "winner: You" ("vainqueur : Vous").
        let text = isMySide(event.winner) ? t(`${key}_you`) : t(key, { side: sideName(event.winner) });
        // A partnership wins together: "winner: Them" (or "Us") read wrongly to a seat of a 4-player game. Its seats
        // read which side won, as the result panel says it to them, and a watcher the pair's names after "winners".
        if (this.names.players === 4) {
          const seated = this.names.me !== null && this.names.me !== undefined;
          text = seated ? t(`${key}_${isMySide(event.winner) ? "won" : "lost"}`) : t(`${key}_pair`, { side: sideName(event.winner) });
        }
        return { parts: parts(text), tone: "win" };
      }
      default:
        return null;
    }
  }
}

/**
 * The few events worth a big call on the felt, as players shout them:
 * "Caida! +1", "Missa! +1", "Ronda!". Returns {text, tone} or null.
 */
export function shout(event, names) {
  if (event.type === "score" && (PLAY_REASONS.has(event.reason) || event.reason === "cards")) {
    const tone = names.isMySide(event.side) ? "good" : "bad";
    // A failed dealer duty scores for the dealer's opponents (R10), each called by name: "Dealer duty +5" read as
    // the dealer's own points.
    const offender = event.reason === "dealer_duty" && event.seat !== null && event.seat !== undefined ? event.seat : null;
    if (offender !== null && (names.players === 4 ? offender % 2 : offender) !== event.side) {
      const text = t("shout_failed", { reason: t(`shout_${event.reason}`), side: names.sideName(event.side), points: signed(event.points) });
      return { text, tone, side: event.side };
    }
    return { text: `${t(`shout_${event.reason}`)} ${signed(event.points)}`, tone, side: event.side };
  }
  if (event.type === "declare" && event.declaration !== "none") {
    return { text: `${kindName(event.declaration)}!`, tone: names.isMine(event.seat) ? "good" : "neutral", seat: event.seat };
  }
  if (event.type === "exposure") return { text: t("shout_false"), tone: "bad", seat: event.seat };
  return null;
}
