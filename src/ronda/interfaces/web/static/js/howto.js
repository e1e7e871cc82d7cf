// A table's rules in a few lines, for its "?" help: written from the table's own rules (the view's `rules`, every
// R10 variant by name), as the terminal's help is from rules_summary. A fixed text read "declare them at the start
// of each deal… Bluffing is allowed" at a table whose declarations are automatic and true, and "Missa: … +1" where
// points are paid in cards. The lobby, before any table, keeps its general how-to (howTo1-5).

import { count, t } from "./i18n.js";

// Points keep their sign on the left in right-to-left text too (a left-to-right isolate).
const signed = (n) => `\u2066+${n}\u2069`;

/** The rules as the page uses them: R10's defaults for any the server did not send. */
function withDefaults(rules) {
  return {
    players: 2, target: 41, auto_declare: false, ace_high: false, chain_points: [1, 5, 10],
    undeclared_ronda_penalty: 1, dealer_duty: false, four_card_hands: false, transfer_scoring: false, ...rules,
  };
}

/** What `n` points of a play give at this table: "+1" on the score, or with transfer_scoring (R10) "+1 card"
 * taken from the payer's pile. */
function gain(rules, n) {
  return rules.transfer_scoring ? count("help_gain_cards", n, { signed: signed(n) }) : signed(n);
}

/** The help's lines for a table of these `rules`, in the page's language: each variant that changes what holds
 * (RULES.md R10) changes its line. */
export function howTo(given) {
  const rules = withDefaults(given);
  const [caida, third, fourth] = rules.chain_points;
  const four = rules.four_card_hands;
  const lines = [t("howTo1"), t("help_caida", { gain: gain(rules, caida) })];
  if (rules.players > 2) lines.push(t("help_chain", { third: gain(rules, third), fourth: gain(rules, fourth) }));
  lines.push(t("help_missa", { gain: gain(rules, 1) }));
  const kinds = t(four ? "help_kinds_four" : "help_kinds");
  const order = t(rules.ace_high ? "help_order_ace" : "help_order");
  lines.push(t(rules.auto_declare ? "help_declare_auto" : "help_declare", { kinds, order }));
  // With automatic declarations every declaration is true and every combination declared (R8.2): no penalty falls.
  if (!rules.auto_declare) lines.push(t(four ? "help_penalty_four" : "help_penalty", { ronda: rules.undeclared_ronda_penalty }));
  if (rules.dealer_duty) lines.push(t("help_duty", { gain: gain(rules, 5) }));
  if (rules.transfer_scoring) lines.push(t("help_paid", { payers: t(rules.players === 3 ? "help_payers_three" : "help_payers") }));
  const end = `help_count${rules.players === 3 ? "_three" : ""}${rules.transfer_scoring ? "_cards" : ""}`;
  lines.push(t(end, { target: rules.target }));
  return lines;
}

/** The game's words the help explains, each with what it means at this table: [term, meaning] pairs. */
export function terms(given) {
  const rules = withDefaults(given);
  const said = [
    [t("term_caida"), t("term_caida_means", { gain: gain(rules, rules.chain_points[0]) })],
    [t("term_missa"), t("term_missa_means", { gain: gain(rules, 1) })],
    [t("term_ronda"), t(rules.auto_declare ? "term_ronda_means_auto" : "term_ronda_means")],
  ];
  if (rules.four_card_hands) said.push([t("term_double_ronda"), t("term_double_ronda_means")]);
  said.push([t("term_tringa"), t("term_tringa_means")]);
  return said;
}
