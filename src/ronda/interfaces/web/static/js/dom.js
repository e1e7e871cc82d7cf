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

/** Escape text for HTML markup built as strings. */
export const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Whether the reader asked for less motion; animations are skipped then. */
export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
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
