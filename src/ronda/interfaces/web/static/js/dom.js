// Small DOM helpers shared by the screens: element building, toasts, motion preference.

/** Build an element: el("button", {class: "btn", onclick: f, "data-x": 1}, "text", child...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "value" && "value" in node) node.value = value;
    else if (key === "checked" || key === "disabled" || key === "selected" || key === "hidden") node[key] = Boolean(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** The longest name the server takes (MAX_NAME in forms.py), in characters once trimmed, a run of spaces as one. */
export const MAX_NAME = 24;

/**
 * The note under a name field, which says as one types that the name is longer than the server takes (`say(length)`
 * gives the words): the field has no maxlength, which cut a longer name, pasted or typed, without a word. Changing
 * the field's value from a script should dispatch an "input" event, for the note to follow.
 */
export function nameNote(input, say) {
  const note = el("p", { id: `${input.id}-note`, class: "hint bad name-note", "aria-live": "polite" });
  const check = () => {
    const length = [...input.value.trim().replace(/\s+/g, " ")].length; // the server keeps one space of a run
    note.textContent = length > MAX_NAME ? say(length) : "";
    if (length > MAX_NAME) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  };
  input.setAttribute("aria-describedby", note.id);
  input.addEventListener("input", check);
  check();
  return note;
}

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/**
 * Tab and Shift+Tab kept inside `box`, a modal dialog: from its last stop to its first and back, and into it from
 * anywhere else (the page itself, once a click on the backdrop took the focus). Behind a modal the keyboard reached
 * the table's buttons and links it covers (an audit: "?", the switch, the play-by-play before "Play again").
 * Whether the key was used: the caller then prevents the browser's own move.
 */
export function keepTabIn(box, event) {
  if (event.key !== "Tab" || !box) return false;
  const stops = [...box.querySelectorAll(FOCUSABLE)].filter((node) => node.getClientRects().length);
  if (!stops.length) return false;
  const [first, last] = [stops[0], stops[stops.length - 1]];
  const at = document.activeElement;
  if (box.contains(at) && at !== (event.shiftKey ? first : last)) return false; // the browser's own order, inside
  (event.shiftKey ? last : first).focus({ preventScroll: true });
  return true;
}

const madeInert = new Set();

/** What a modal leaves live: the toasts (an error said while a dialog is up must still be heard) and the language
 * (a person reading a game's result switched it with the end dialog up, and the dialog is drawn again in it). */
const STAYS_LIVE = "#toasts, #announce, .language";

/**
 * The page behind `box`, a modal dialog, made inert (no click, no focus, nothing read by a screen reader) until the
 * next call, all but STAYS_LIVE; `null` gives the whole page back. Called after every drawing of a screen that may
 * hold a modal, and on leaving it. keepTabIn kept the Tab key inside, but a screen reader's own reading still went
 * on into the table behind (an audit).
 */
export function inertBehind(box) {
  for (const node of madeInert) node.inert = false;
  madeInert.clear();
  const inertAll = (nodes) => {
    for (const node of nodes) {
      if (node.inert || node.tagName === "SCRIPT" || node.matches(STAYS_LIVE)) continue;
      if (node.querySelector(STAYS_LIVE)) {
        inertAll(node.children); // the top bar: its links, not its language
        continue;
      }
      node.inert = true;
      madeInert.add(node);
    }
  };
  for (let node = box; node?.parentElement && node !== document.body; node = node.parentElement) {
    inertAll([...node.parentElement.children].filter((sibling) => sibling !== node));
  }
}

const ANNOUNCED_KEPT = 12;

/**
 * Tell screen readers `nodes` (a line each), in the page's one lasting live region, #announce. A screen's own live
 * regions drawn anew with their content at every move are not read (a region must be there before its news is
 * added to it): the play-by-play and the turn's prompt went unspoken (an audit). The last few lines are kept.
 */
export function announce(...nodes) {
  const box = document.getElementById("announce");
  if (!box) return;
  for (const node of nodes) box.append(el("p", {}, node));
  while (box.childElementCount > ANNOUNCED_KEPT) box.firstElementChild.remove();
}

/** Escape text for HTML markup built as strings. */
export const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Whether the reader asked for less motion; animations are skipped then. */
export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Scroll the page so that `node` is in sight (`block`: where, as scrollIntoView takes it), smoothly unless the
 * reader asked for less motion. */
export function bringIntoView(node, block) {
  node.scrollIntoView({ block, behavior: reducedMotion() ? "auto" : "smooth" });
}

/** A short notice at the bottom of the screen; `kind` is "error" (default), "info" or "good". */
export function toast(message, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const note = el("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" },
    el("span", {}, message),
    el("button", { class: "toast-close", type: "button", "aria-label": "×", onclick: () => note.remove() }, "×"));
  box.append(note);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => note.classList.add("leaving"), 4200);
  setTimeout(() => note.remove(), 4600);
}

/** Copy text to the clipboard; falls back to selecting an input when the browser refuses. */
export async function copyText(text, fallbackInput) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallbackInput) {
      fallbackInput.focus();
      fallbackInput.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}
