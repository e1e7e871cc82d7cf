// The play-by-play in the game's words, from the public events the server sends.

import { has, kindName, t } from "./i18n.js";

/** Names of seats and sides as the reader sees them: "You", "Amina", "Seat 2". */
export function namer(table, me) {
  const seatName = (seat) => {
    if (seat === me) return t("you");
    const info = table?.seats?.[seat];
    return info?.name || `${t("seat")} ${seat + 1}`;
  };
  const players = table?.players ?? 2;
  const sideName = (side) => {
    if (players === 4) {
      const mine = me !== null && me !== undefined && me % 2 === side;
      return mine ? t("us") : t("them");
    }
    return seatName(side);
  };
  // "You drop 5c", not "You drops 5c": the reader's own moves have their own sentences.
  const said = (key, seat, params) => t(seat === me && has(`${key}_you`) ? `${key}_you` : key, params);
  return { seatName, sideName, said };
}

const cards = (list) => list.join(" ");

/** One event as a line of text, or null for events that say nothing new to a person. */
export function narrate(event, names) {
  const { seatName, sideName, said } = names;
  switch (event.type) {
    case "round_start":
      return said("n_round", event.dealer, { round: event.round + 1, name: seatName(event.dealer) });
    case "deal":
      return t("n_deal", { deal: event.deal + 1, size: event.hand_size, stock: event.stock }) +
        (event.table.length ? ` · ${t("n_table", { cards: cards(event.table) })}` : "");
    case "declare":
      return event.declaration === "none" ? null : said("n_declare", event.seat, { name: seatName(event.seat), kind: kindName(event.declaration) });
    case "drop":
      return said("n_drop", event.seat, { name: seatName(event.seat), card: event.card });
    case "capture":
      return said("n_capture", event.seat, { name: seatName(event.seat), card: event.card, cards: cards(event.cards) }) +
        (event.caida ? ` — ${t("r_caida")}!` : "");
    case "raise":
      return said("n_raise", event.seat, { name: seatName(event.seat), card: event.card, cards: cards(event.cards) });
    case "score": {
      const reason = t(`r_${event.reason}`);
      const key = event.points >= 0 ? "n_score" : "n_loss";
      return t(key, { side: sideName(event.side), points: event.points, reason });
    }
    case "transfer":
      return t("n_transfer", { payer: sideName(event.payer), payee: sideName(event.payee), cards: event.cards });
    case "exposure":
      return t("n_exposed", { name: seatName(event.seat), kind: kindName(event.declaration) });
    case "challenge":
      return said("n_challenge", event.seat, {
        name: seatName(event.seat), target: seatName(event.target), hand: cards(event.hand),
        verdict: event.truthful ? t("n_true") : t("n_false"),
      });
    case "table_taken":
      return t("n_table_taken", { side: sideName(event.side), cards: cards(event.cards) });
    case "round_end":
      return t("n_round_end", { piles: event.piles.join(" · ") });
    case "game_over":
      return t("n_game_over", { side: sideName(event.winner) });
    default:
      return null;
  }
}
