// Spanish-suited cards drawn as SVG by this module: no image files, no fonts to fetch.
//
// A card name is written as in RECORD.md: rank then suit letter ("5o", "12e").
// The pips follow the Spanish pack: oros are gold coins, copas red cups,
// espadas blue swords, bastos green clubs. The frame has the pack's "pintas",
// the breaks in the border that tell the suit at a glance even when cards
// overlap: none for oros, one for copas, two for espadas, three for bastos.
// The figures are the Sota (10), the Caballo (11, the rider) and the Rey (12);
// every card shows its rank in two corners, as Spanish packs print it.
//
// The shapes (pips, gradients, the back's lattice) are defined once in a hidden
// sprite (`installSprite`) and each card refers to them with <use>, so a hand
// of cards is a few hundred bytes of markup.

import { t, rankName, suitName } from "./i18n.js";

export const SUITS = ["o", "c", "e", "b"];
export const RANKS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];
export const INK = { o: "#9a6a00", c: "#c0262d", e: "#1d56a3", b: "#2d7a32" };
const LIGHT = { o: "#fff4cf", c: "#fde3e1", e: "#e2ecfa", b: "#e3f2e1" };
const PAPER = "#fffcf4";

/** Split "12e" into [12, "e"]; throws on anything else so a bad name is never drawn silently. */
export function parseCard(name) {
  const match = /^(1[0-2]|[1-7])([ocbe])$/.exec(String(name));
  if (!match) throw new Error(`not a card: ${name}`);
  return [Number(match[1]), match[2]];
}

/** The card's name for people and screen readers, in the page's language: "5 of copas", "Rey de oros". */
export function cardLabel(name) {
  const [rank, suit] = parseCard(name);
  return t("cardLabel", { rank: rankName(rank), suit: suitName(suit) });
}

/** Rank order for sorting a hand: by rank, then suit. */
export function cardOrder(name) {
  const [rank, suit] = parseCard(name);
  return RANKS.indexOf(rank) * 4 + SUITS.indexOf(suit);
}

// ------------------------------------------------------------------ sprite

const SPRITE = `
<linearGradient id="rg-gold" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffe58a"/><stop offset=".55" stop-color="#e0a91b"/><stop offset="1" stop-color="#a8760a"/></linearGradient>
<linearGradient id="rg-red" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#e2504f"/><stop offset=".5" stop-color="#c0262d"/><stop offset="1" stop-color="#8c1519"/></linearGradient>
<linearGradient id="rg-steel" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#f4f8ff"/><stop offset=".5" stop-color="#c3d5ee"/><stop offset="1" stop-color="#8aa6cc"/></linearGradient>
<linearGradient id="rg-green" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#6fbf5a"/><stop offset=".5" stop-color="#2d7a32"/><stop offset="1" stop-color="#1d5222"/></linearGradient>
<linearGradient id="rg-paper" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fffef9"/><stop offset="1" stop-color="#f6efdd"/></linearGradient>
<pattern id="rg-lattice" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
  <rect width="10" height="10" fill="#8b1f22"/><path d="M0 5H10M5 0V10" stroke="#c9973e" stroke-width="1.1"/><circle cx="5" cy="5" r="1.4" fill="#e8c068"/>
</pattern>
<symbol id="pip-o" viewBox="-10 -14 20 28">
  <circle r="9.3" fill="url(#rg-gold)" stroke="#8a6208" stroke-width="1"/>
  <circle r="6.4" fill="none" stroke="#8a6208" stroke-width=".8"/>
  <path d="M0-4.6 1.3-1.3 4.6 0 1.3 1.3 0 4.6-1.3 1.3-4.6 0-1.3-1.3Z" fill="#8a6208"/>
</symbol>
<symbol id="pip-c" viewBox="-10 -14 20 28">
  <path d="M-8.6-11H8.6C8.6-2.6 5.2 1 1.7 2V7.2C4.6 7.8 6.6 9.2 7.2 11.8H-7.2C-6.6 9.2-4.6 7.8-1.7 7.2V2C-5.2 1-8.6-2.6-8.6-11Z" fill="url(#rg-red)" stroke="#73111a" stroke-width=".9"/>
  <ellipse cy="-11" rx="8.6" ry="1.9" fill="#f6b9b5" stroke="#73111a" stroke-width=".7"/>
  <circle cy="4.6" r="1.5" fill="#f1c24b" stroke="#73111a" stroke-width=".4"/>
  <path d="M-5.8-7.5C-5.4-4-3.8-2-2.2-1" stroke="#ffd9d6" stroke-width=".9" fill="none" stroke-linecap="round"/>
</symbol>
<symbol id="pip-e" viewBox="-10 -14 20 28">
  <path d="M0-13.6 2.2-10V5H-2.2V-10Z" fill="url(#rg-steel)" stroke="#173f7a" stroke-width=".8"/>
  <path d="M0-10.6V4" stroke="#173f7a" stroke-width=".45"/>
  <path d="M-7.4 4.6Q0 3 7.4 4.6V7Q0 5.5-7.4 7Z" fill="#1d56a3" stroke="#173f7a" stroke-width=".5"/>
  <rect x="-1.4" y="6.8" width="2.8" height="4.8" rx=".6" fill="#1d56a3"/>
  <circle cy="12.6" r="1.7" fill="#f1c24b" stroke="#173f7a" stroke-width=".5"/>
</symbol>
<symbol id="pip-b" viewBox="-10 -14 20 28">
  <path d="M-2.1 13.4C-2.7 6-5 -2-5.5-8.2-5.7-12.8 5.7-12.8 5.5-8.2 5-2 2.7 6 2.1 13.4Z" fill="url(#rg-green)" stroke="#174219" stroke-width=".9"/>
  <ellipse cy="-9.4" rx="5" ry="1.7" fill="#b7e0a8" stroke="#174219" stroke-width=".6"/>
  <ellipse cx="-5.4" cy="-3.4" rx="1.9" ry="1.1" fill="#9ccc65" stroke="#174219" stroke-width=".5"/>
  <ellipse cx="4.6" cy="1.6" rx="1.7" ry="1" fill="#9ccc65" stroke="#174219" stroke-width=".5"/>
  <ellipse cx="-3.3" cy="6.6" rx="1.3" ry=".8" fill="#9ccc65" stroke="#174219" stroke-width=".5"/>
  <path d="M-1.6-6.5C-2.2-2-1.2 3-.6 9" stroke="#c5e8b7" stroke-width=".8" fill="none" stroke-linecap="round"/>
</symbol>
<symbol id="star8" viewBox="-10 -10 20 20">
  <path d="M0-9.5 2.6-6.3 6.7-6.7 6.3-2.6 9.5 0 6.3 2.6 6.7 6.7 2.6 6.3 0 9.5-2.6 6.3-6.7 6.7-6.3 2.6-9.5 0-6.3-2.6-6.7-6.7-2.6-6.3Z" fill="#e8c068" stroke="#6d1417" stroke-width=".6"/>
  <circle r="3.4" fill="#8b1f22" stroke="#e8c068" stroke-width=".8"/>
</symbol>`;

/** Put the shared shapes into the document once (call before drawing any card). */
export function installSprite(doc = document) {
  if (doc.getElementById("ronda-sprite")) return;
  const holder = doc.createElement("div");
  holder.innerHTML = `<svg id="ronda-sprite" xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true" focusable="false" style="position:absolute;width:0;height:0;overflow:hidden"><defs>${SPRITE}</defs></svg>`;
  doc.body.prepend(holder.firstChild);
}

// ------------------------------------------------------------------ faces

// Pip centres of ranks 1..7 on the 100×150 card, as the Spanish pack lays them out.
const LAYOUT = {
  1: [[50, 75]],
  2: [[50, 43], [50, 107]],
  3: [[50, 38], [50, 75], [50, 112]],
  4: [[32, 43], [68, 43], [32, 107], [68, 107]],
  5: [[32, 40], [68, 40], [50, 75], [32, 110], [68, 110]],
  6: [[32, 38], [68, 38], [32, 75], [68, 75], [32, 112], [68, 112]],
  7: [[32, 36], [68, 36], [50, 56], [32, 78], [68, 78], [32, 114], [68, 114]],
};

const use = (suit, cx, cy, w) => {
  const h = w * 1.4;
  return `<use href="#pip-${suit}" x="${(cx - w / 2).toFixed(1)}" y="${(cy - h / 2).toFixed(1)}" width="${w}" height="${h.toFixed(1)}"/>`;
};

// The frame with the suit's pintas: 0, 1, 2 or 3 breaks in the top and bottom lines.
function frame(suit) {
  const ink = INK[suit];
  const breaks = { o: 0, c: 1, e: 2, b: 3 }[suit];
  let gaps = "";
  for (let i = 0; i < breaks; i++) {
    const x = 50 + (i - (breaks - 1) / 2) * 9 - 2.5;
    gaps += `<rect x="${x}" y="4.6" width="5" height="2.8" fill="${PAPER}"/><rect x="${x}" y="142.6" width="5" height="2.8" fill="${PAPER}"/>`;
  }
  return `<rect x="6" y="6" width="88" height="138" rx="4" fill="none" stroke="${ink}" stroke-width="1.4"/>${gaps}`;
}

function corner(rank, suit) {
  const ink = INK[suit];
  const index = `<text x="${rank >= 10 ? 15 : 14.5}" y="24" text-anchor="middle" font-size="${rank >= 10 ? 15 : 18}" font-weight="700" fill="${ink}" font-family="Georgia, 'DejaVu Serif', serif">${rank}</text>${use(suit, 14.5, 36, 9)}`;
  return `${index}<g transform="rotate(180 50 75)">${index}</g>`;
}

const SKIN = "#f2c9a0";
const SKIN_LINE = "#8a5a3c";

// The three figures, drawn simply: a page holding the suit's pip, a rider, a crowned king.
function figure(rank, suit) {
  const ink = INK[suit];
  const light = LIGHT[suit];
  const panel = `<rect x="21" y="30" width="58" height="90" rx="5" fill="${light}" stroke="${ink}" stroke-width=".8"/>`;
  if (rank === 10) {
    // Sota: a young page standing, cap and tunic in the suit's colour, the pip held up.
    return panel +
      `<path d="M43 112V96h5v16zM52 112V96h5v16z" fill="#4a3b2f"/>` +
      `<path d="M38 98 41 66h18l3 32z" fill="${ink}" stroke="#2b2b2b" stroke-width=".6"/>` +
      `<path d="M41 66h18l-2 7H43z" fill="#fff7e0" stroke="#2b2b2b" stroke-width=".5"/>` +
      `<rect x="39.5" y="82" width="21" height="3" fill="#f1c24b"/>` +
      `<path d="M41 68 33 84 36 86 43 74z" fill="${ink}" stroke="#2b2b2b" stroke-width=".5"/>` +
      `<circle cx="50" cy="56" r="8" fill="${SKIN}" stroke="${SKIN_LINE}" stroke-width=".6"/>` +
      `<path d="M41 53c1-8 17-8 18 0 1 1 4 1 5 3-6 0-17-1-23-3z" fill="${ink}" stroke="#2b2b2b" stroke-width=".5"/>` +
      `<circle cx="47" cy="57" r=".8" fill="#2b2b2b"/><circle cx="53" cy="57" r=".8" fill="#2b2b2b"/>` +
      `<path d="M47.5 60.5q2.5 1.6 5 0" stroke="${SKIN_LINE}" stroke-width=".7" fill="none"/>` +
      use(suit, 66, 74, 15) +
      `<path d="M59 68 65 80" stroke="${SKIN}" stroke-width="3" stroke-linecap="round"/>`;
  }
  if (rank === 11) {
    // Caballo: a horse carrying its rider, who holds the pip.
    return panel +
      `<path d="M30 114l3-20M38 114l1-18M58 114l-1-18M66 114l-2-20" stroke="#6b4226" stroke-width="3.2" stroke-linecap="round"/>` +
      `<ellipse cx="48" cy="92" rx="20" ry="10" fill="#a0673b" stroke="#4e2f18" stroke-width=".7"/>` +
      `<path d="M62 88c4-8 6-14 12-17 3-1 5 1 4 4l-5 10c-2 4-6 6-9 7z" fill="#a0673b" stroke="#4e2f18" stroke-width=".7"/>` +
      `<path d="M66 75c2-2 5-4 7-4" stroke="#2b1a0e" stroke-width="2.2" stroke-linecap="round" fill="none"/>` +
      `<circle cx="74.5" cy="74" r=".9" fill="#2b1a0e"/>` +
      `<path d="M28 90c-4 4-5 9-4 14" stroke="#2b1a0e" stroke-width="2.4" fill="none" stroke-linecap="round"/>` +
      `<path d="M36 86h22l-3 8H39z" fill="${ink}" stroke="#2b2b2b" stroke-width=".5"/>` +
      `<path d="M42 86 44 64h10l2 22z" fill="${ink}" stroke="#2b2b2b" stroke-width=".6"/>` +
      `<path d="M44 64h10l-1 5h-8z" fill="#fff7e0" stroke="#2b2b2b" stroke-width=".5"/>` +
      `<circle cx="49" cy="55" r="7" fill="${SKIN}" stroke="${SKIN_LINE}" stroke-width=".6"/>` +
      `<path d="M41 52c2-7 14-7 16 0z" fill="${ink}" stroke="#2b2b2b" stroke-width=".5"/><path d="M40 52h18" stroke="#2b2b2b" stroke-width="1"/>` +
      `<circle cx="47" cy="56" r=".7" fill="#2b2b2b"/><circle cx="51.5" cy="56" r=".7" fill="#2b2b2b"/>` +
      `<path d="M44 67 35 58" stroke="${SKIN}" stroke-width="3" stroke-linecap="round"/>` +
      use(suit, 32, 48, 13);
  }
  // Rey: a crowned, bearded king in a long robe with an ermine hem, the pip in hand.
  return panel +
    `<path d="M36 116 40 68h20l4 48z" fill="${ink}" stroke="#2b2b2b" stroke-width=".6"/>` +
    `<path d="M36 116h28l-.6-7H36.6z" fill="#fffaf0" stroke="#2b2b2b" stroke-width=".5"/>` +
    `<circle cx="42" cy="112.5" r=".8" fill="#2b2b2b"/><circle cx="50" cy="112.5" r=".8" fill="#2b2b2b"/><circle cx="58" cy="112.5" r=".8" fill="#2b2b2b"/>` +
    `<path d="M49 68h2v41h-2z" fill="#f1c24b"/>` +
    `<path d="M40 68h20l-3 7H43z" fill="#fffaf0" stroke="#2b2b2b" stroke-width=".5"/>` +
    `<circle cx="50" cy="57" r="8" fill="${SKIN}" stroke="${SKIN_LINE}" stroke-width=".6"/>` +
    `<path d="M42.5 59c0 9 15 9 15 0-2 3-4 4-7.5 4s-5.5-1-7.5-4z" fill="#6b4a2f"/>` +
    `<circle cx="47" cy="56.5" r=".8" fill="#2b2b2b"/><circle cx="53" cy="56.5" r=".8" fill="#2b2b2b"/>` +
    `<path d="M41.5 50 42 42 46 46.5 50 40.5 54 46.5 58 42 58.5 50z" fill="#f1c24b" stroke="#8a6208" stroke-width=".6"/>` +
    `<circle cx="50" cy="45.5" r="1.1" fill="#c0262d"/>` +
    `<path d="M60 71 66 84" stroke="${SKIN}" stroke-width="3" stroke-linecap="round"/>` +
    use(suit, 67, 90, 14);
}

/**
 * The SVG markup of a face-up card. With `decorative` the drawing is hidden from
 * screen readers (its button or container carries the label instead).
 */
export function cardSvg(name, { decorative = false } = {}) {
  const [rank, suit] = parseCard(name);
  const body = rank <= 7
    ? LAYOUT[rank].map(([x, y]) => use(suit, x, y, rank === 1 ? 38 : rank === 7 ? 17.5 : 21)).join("")
    : figure(rank, suit);
  const a11y = decorative ? `aria-hidden="true" focusable="false"` : `role="img" aria-label="${cardLabel(name)}"`;
  return `<svg viewBox="0 0 100 150" class="card-svg" ${a11y} xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="98" height="148" rx="8" fill="url(#rg-paper)" stroke="#cbbf9f" stroke-width="1.2"/>` +
    frame(suit) + corner(rank, suit) + body + `</svg>`;
}

/** The SVG markup of a card seen from the back: another seat's hand, the stock, a pile. */
export function backSvg() {
  return `<svg viewBox="0 0 100 150" class="card-svg" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="98" height="148" rx="8" fill="#f3e6c8" stroke="#6d1417" stroke-width="1.2"/>` +
    `<rect x="6" y="6" width="88" height="138" rx="5" fill="url(#rg-lattice)" stroke="#6d1417" stroke-width="1"/>` +
    `<rect x="14" y="14" width="72" height="122" rx="4" fill="none" stroke="#e8c068" stroke-width="1.4"/>` +
    `<use href="#star8" x="30" y="55" width="40" height="40"/></svg>`;
}

/** A small inline symbol of a suit (narration, corners of chips). */
export function suitIcon(suit) {
  return `<svg viewBox="-10 -14 20 28" class="suit-icon" aria-hidden="true" focusable="false"><use href="#pip-${suit}" x="-10" y="-14" width="20" height="28"/></svg>`;
}
