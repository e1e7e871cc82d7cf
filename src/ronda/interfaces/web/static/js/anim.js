// Motion for the table: quick and light, never in the way of a click.
//
// The table screen redraws itself from each view; these helpers make the
// redraw look continuous ("FLIP": note where each card was, draw, then slide it
// from there). A card played from a hand slides to the table, captured cards
// fly to the capturer's pile, new deals come from the stock. Everything is
// skipped when the reader prefers reduced motion, and nothing here changes the
// page's state, so a missed animation is only a missed animation.

import { reducedMotion } from "./dom.js";

// Short on purpose: a table that is still moving a second after a play is hard to read (and to screenshot).
const SLIDE = 180;
const FLY = 280;

/** Where every keyed element (cards, by name) is now, and what it looks like. */
export function snapshot(root) {
  const seen = new Map();
  for (const node of root.querySelectorAll("[data-key]")) {
    seen.set(node.dataset.key, { rect: node.getBoundingClientRect(), html: node.innerHTML, className: node.className });
  }
  return seen;
}

function layer() {
  let fx = document.getElementById("fx");
  if (!fx) {
    fx = document.createElement("div");
    fx.id = "fx";
    fx.setAttribute("aria-hidden", "true");
    document.body.append(fx);
  }
  return fx;
}

const centre = (rect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });

function ghost(html, rect, className = "card") {
  const node = document.createElement("div");
  node.className = `fx-ghost ${className}`;
  node.innerHTML = html;
  Object.assign(node.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  layer().append(node);
  return node;
}

function towards(from, to, scale = 1) {
  const a = centre(from);
  const b = centre(to);
  return `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(${scale})`;
}

/**
 * Animate the redrawn `root` from the `before` snapshot.
 * `plays` are this update's play events ({type: "drop"|"capture"|"raise", seat, card, cards});
 * `sideOf(seat)` gives a seat's side (its pile); `faceOf(card)` draws a card as markup.
 */
export function animate(root, before, plays, { sideOf, faceOf, me }) {
  if (reducedMotion() || !before || document.hidden) return;
  const stock = root.querySelector("#stock")?.getBoundingClientRect();
  const seatRect = (seat) => root.querySelector(`[data-seat="${seat}"] .seat-hand, [data-seat="${seat}"]`)?.getBoundingClientRect();
  const pileRect = (side) => root.querySelector(`[data-pile="${side}"]`)?.getBoundingClientRect();
  const dropped = new Map(plays.filter((p) => p.type === "drop").map((p) => [p.card, p.seat]));
  let dealt = 0;

  for (const node of root.querySelectorAll("[data-key]")) {
    const key = node.dataset.key;
    const now = node.getBoundingClientRect();
    const was = before.get(key);
    if (was) {
      const dx = was.rect.left - now.left;
      const dy = was.rect.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) > 2) {
        node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: SLIDE, easing: "cubic-bezier(.2,.8,.3,1)" });
      }
      continue;
    }
    const card = key.startsWith("card:") ? key.slice(5) : null;
    let from = null;
    if (card && dropped.has(card) && dropped.get(card) !== me) from = seatRect(dropped.get(card));
    else if (stock) from = stock;
    if (!from) continue;
    const delay = from === stock ? Math.min(dealt++, 6) * 30 : 0;
    node.animate([
      { transform: towards(now, from, 0.6), opacity: 0.2 },
      { transform: "none", opacity: 1 },
    ], { duration: SLIDE + 60, delay, easing: "cubic-bezier(.2,.8,.3,1)", fill: "backwards" });
  }

  // Captures: what left the screen flies to the capturer's pile; another seat's card first shows itself.
  for (const play of plays) {
    if (play.type !== "capture" && play.type !== "raise") continue;
    const pile = pileRect(sideOf(play.seat));
    if (!pile) continue;
    const taken = [...play.cards];
    const target = before.get(`card:${taken[0]}`)?.rect;
    const played = before.get(`card:${play.card}`);
    if (played) {
      fly(ghost(played.html, played.rect), played.rect, target, pile, 0);
    } else if (play.seat !== me) {
      const seat = seatRect(play.seat);
      const size = target || before.values().next().value?.rect;
      if (seat && size) {
        const start = new DOMRect(centre(seat).x - size.width / 2, centre(seat).y - size.height / 2, size.width, size.height);
        fly(ghost(faceOf(play.card), start), start, target, pile, 0);
      }
    }
    for (const name of taken) {
      const was = before.get(`card:${name}`);
      if (was && !root.querySelector(`[data-key="card:${name}"]`)) fly(ghost(was.html, was.rect), was.rect, null, pile, 1);
    }
  }
}

function fly(node, from, via, to, hold) {
  const frames = [{ transform: "none", opacity: 1, offset: 0 }];
  if (via) frames.push({ transform: towards(from, via, 1), opacity: 1, offset: 0.45 });
  else if (hold) frames.push({ transform: "none", opacity: 1, offset: 0.45 });
  frames.push({ transform: towards(from, to, 0.35), opacity: 0.15, offset: 1 });
  const run = node.animate(frames, { duration: FLY, easing: "ease-in-out", fill: "forwards" });
  run.onfinish = () => node.remove();
  run.oncancel = () => node.remove();
  setTimeout(() => node.remove(), FLY + 100);
}

/** A big call on the felt: "Caida! +1". */
export function callout(anchor, text, tone = "neutral") {
  if (!anchor || !anchor.isConnected) return;
  const rect = anchor.getBoundingClientRect();
  const node = document.createElement("div");
  node.className = `callout ${tone}`;
  node.textContent = text;
  node.style.left = `${rect.left + rect.width / 2}px`;
  node.style.top = `${rect.top + rect.height / 2}px`;
  layer().append(node);
  const stay = reducedMotion() ? 1200 : 900;
  if (!reducedMotion()) {
    node.animate([
      { transform: "translate(-50%, -50%) scale(.6)", opacity: 0 },
      { transform: "translate(-50%, -50%) scale(1.08)", opacity: 1, offset: 0.18 },
      { transform: "translate(-50%, -50%) scale(1)", opacity: 1, offset: 0.7 },
      { transform: "translate(-50%, -80%) scale(1)", opacity: 0 },
    ], { duration: stay, easing: "ease-out", fill: "forwards" });
  }
  setTimeout(() => node.remove(), stay);
}
