// Spanish-suited cards drawn as SVG, with no external assets.
//
// A card name is written as in RECORD.md: rank then suit letter ("5o", "12e").
// Suits keep the colours players know from the terminal game: oros gold,
// copas red, espadas blue, bastos green. Pips are simple shapes (a coin, a
// cup, a sword, a club) so they stay readable at phone size.

import { rankName, suitName } from "./i18n.js";

export const SUITS = { o: "oros", c: "copas", e: "espadas", b: "bastos" };
export const SUIT_COLOURS = { o: "#b8860b", c: "#c62828", e: "#1e5aa8", b: "#2e7d32" };
export const RANKS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];

/** Split "12e" into [12, "e"]; throws on anything else so a bad name is never drawn silently. */
export function parseCard(name) {
  const match = /^(1[0-2]|[1-7])([ocbe])$/.exec(name);
  if (!match) throw new Error(`not a card: ${name}`);
  return [Number(match[1]), match[2]];
}

/** The card's name for screen readers, in the page's language: "5 of copas", "Rey de oros". */
export function cardLabel(name) {
  const [rank, suit] = parseCard(name);
  return `${rankName(rank)} — ${suitName(suit)}`;
}

// Where the pips of ranks 1..7 stand on a 60×90 card (centres).
const PIPS = {
  1: [[30, 45]],
  2: [[30, 27], [30, 63]],
  3: [[30, 22], [30, 45], [30, 68]],
  4: [[20, 27], [40, 27], [20, 63], [40, 63]],
  5: [[20, 24], [40, 24], [30, 45], [20, 66], [40, 66]],
  6: [[20, 22], [40, 22], [20, 45], [40, 45], [20, 68], [40, 68]],
  7: [[20, 20], [40, 20], [30, 33], [20, 47], [40, 47], [20, 70], [40, 70]],
};

function pip(suit, x, y, size) {
  const s = size / 10;
  const colour = SUIT_COLOURS[suit];
  const at = `transform="translate(${x} ${y}) scale(${s})"`;
  switch (suit) {
    case "o": // a gold coin with a ring
      return `<g ${at}><circle r="5" fill="${colour}"/><circle r="3.2" fill="none" stroke="#fff6c8" stroke-width="0.9"/></g>`;
    case "c": // a cup: bowl, stem, foot
      return `<g ${at} fill="${colour}"><path d="M-4.5 -4.5 H4.5 Q4.5 1 0 1.8 Q-4.5 1 -4.5 -4.5Z"/><rect x="-0.8" y="1.5" width="1.6" height="2.2"/><rect x="-3" y="3.5" width="6" height="1.3" rx="0.6"/></g>`;
    case "e": // a sword: blade, guard, grip
      return `<g ${at} fill="${colour}"><path d="M0 -5.5 L1.2 -3.8 V2 H-1.2 V-3.8Z"/><rect x="-3.4" y="1.8" width="6.8" height="1.2" rx="0.5"/><rect x="-0.7" y="3" width="1.4" height="2.6"/></g>`;
    default: // bastos: a knotted club
      return `<g ${at} fill="${colour}"><path d="M-1.4 5.5 L-2.4 -3.2 Q0 -6.4 2.4 -3.2 L1.4 5.5Z"/><circle cx="-2.1" cy="-1" r="0.9" fill="#a5d6a7"/><circle cx="2" cy="1.4" r="0.9" fill="#a5d6a7"/></g>`;
  }
}

function figure(rank, suit) {
  // Sota, Caballo and Rey: a large pip with the figure's initial in a band.
  const colour = SUIT_COLOURS[suit];
  const letter = rankName(rank).charAt(0).toUpperCase();
  return `<rect x="12" y="20" width="36" height="50" rx="4" fill="${colour}" opacity="0.12"/>` +
    pip(suit, 30, 40, 22) +
    `<text x="30" y="64" text-anchor="middle" font-size="12" font-weight="700" fill="${colour}" font-family="Georgia, serif">${letter}</text>`;
}

/** The SVG markup of a face-up card. */
export function cardSvg(name) {
  const [rank, suit] = parseCard(name);
  const colour = SUIT_COLOURS[suit];
  const body = rank <= 7
    ? PIPS[rank].map(([x, y]) => pip(suit, x, y, rank === 1 ? 20 : 10)).join("")
    : figure(rank, suit);
  return `<svg viewBox="0 0 60 90" class="card-svg" role="img" aria-label="${cardLabel(name)}" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="58" height="88" rx="5" fill="#fffdf6" stroke="${colour}" stroke-width="1.6"/>` +
    `<rect x="4" y="4" width="52" height="82" rx="3" fill="none" stroke="${colour}" stroke-width="0.5" opacity="0.6"/>` +
    `<text x="7" y="15" font-size="11" font-weight="700" fill="${colour}" font-family="Georgia, serif">${rank}</text>` +
    `<text x="53" y="84" font-size="11" font-weight="700" fill="${colour}" font-family="Georgia, serif" text-anchor="end">${rank}</text>` +
    body +
    `</svg>`;
}

/** The SVG markup of a card seen from the back (another seat's hand, the stock). */
export function backSvg() {
  return `<svg viewBox="0 0 60 90" class="card-svg" aria-hidden="true" xmlns="http://www.w3.org/2000/svg">` +
    `<defs><pattern id="lattice" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="8" height="8" fill="#8e1b1b"/><path d="M0 4 H8 M4 0 V8" stroke="#d4a373" stroke-width="1"/></pattern></defs>` +
    `<rect x="1" y="1" width="58" height="88" rx="5" fill="url(#lattice)" stroke="#f3e9d2" stroke-width="2"/>` +
    `<rect x="9" y="13" width="42" height="64" rx="4" fill="none" stroke="#f3e9d2" stroke-width="1.2"/></svg>`;
}
