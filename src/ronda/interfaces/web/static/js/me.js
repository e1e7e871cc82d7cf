// Who you are on this server (docs/web-protocol.md, "A name you keep"): the name kept by this browser's
// cookie, an optional account to keep it on other devices, and the sessions to see and end.
//
// The cookie is HttpOnly: this page never sees the token, only what GET /api/me says of it.

import { MAX_NAME, el, nameNote } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { api } from "./net.js";

/** The server's refusal in the page's words (its own message when the page has none for its reason or code). */
const said = refusal;

async function send(path, method, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = data?.error && typeof data.error === "object" ? data.error : {};
    throw Object.assign(new Error(detail.message || ""), { status: response.status, code: detail.code, detail });
  }
  return data;
}

/** Who this browser is: the server's answer, or `{ended: true}` when its session has ended. */
export async function whoAmI() {
  try {
    return await api("/api/me");
  } catch (error) {
    if (error.code === "session_ended") return { id: null, name: null, ended: true };
    return { id: null, name: null };
  }
}

/**
 * The "you" panel of the lobby, which holds the lobby's one name field: play now and a new table take the name
 * typed here (the lobby had a field in each form as well, three "Your name" on one page, and only the first name
 * sent was kept). `changed(me)` is called with who this browser is whenever that changes; `draft` is the name the
 * field starts with (one typed and not sent yet, carried over a redraw of the lobby).
 *
 * Returns `{panel, typed, focusName, refresh}`: the name in the field (trimmed; "" once a name is kept, or none
 * typed), the cursor put there, and the panel drawn again from the server's word (a name just kept by a play).
 */
export function mePanel(first, changed, draft = "") {
  const panel = el("section", { id: "me-panel", class: "panel me-panel", "aria-labelledby": "me-title" });
  const status = el("p", { id: "me-status", class: "hint", role: "status", "aria-live": "polite" });
  let me = first;

  const tell = (text, bad = false) => {
    status.textContent = text;
    status.classList.toggle("bad", bad);
  };
  const act = async (button, work) => {
    button.disabled = true;
    try {
      await work();
    } catch (error) {
      tell(said(error), true);
    } finally {
      button.disabled = false;
    }
  };
  const again = async (message = "") => {
    me = await whoAmI();
    draw();
    changed(me);
    // The top bar's "My games" follows at once (a name kept, an account logged into or out of).
    document.dispatchEvent(new CustomEvent("ronda:me", { detail: { id: me.id ?? null } }));
    tell(message);
  };

  const field = (id, label, attrs = {}) => {
    const input = el("input", { id, name: id, ...attrs });
    return [input, el("label", { class: "field" }, el("span", {}, label), input)];
  };
  const loginForm = () => {
    const [user, userField] = field("login-username", t("me_username"), { autocomplete: "username", maxlength: 32, required: true });
    const [word, wordField] = field("login-password", t("me_password"), { type: "password", autocomplete: "current-password", maxlength: 128, required: true });
    const button = el("button", { class: "btn", id: "login-button", type: "submit" }, t("me_login"));
    const form = el("form", { id: "login-form", class: "row" }, userField, wordField, button);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      act(button, async () => {
        await send("/api/me/login", "POST", { username: user.value, password: word.value });
        word.value = "";
        await again(t("me_logged_in"));
      });
    });
    return form;
  };

  const draw = () => {
    const parts = [el("h2", { id: "me-title" }, t("me_title"))];
    if (me.ended) {
      const fresh = el("button", { class: "btn", id: "me-new-guest", type: "button" }, t("me_new_guest"));
      fresh.addEventListener("click", () => act(fresh, async () => {
        await send("/api/me/logout", "POST");
        await again();
      }));
      parts.push(el("p", { id: "me-ended" }, t("me_ended")), loginForm(), fresh);
    } else if (!me.id) {
      const [name, nameField] = field("me-name", t("yourName"), { required: true, autocomplete: "nickname", placeholder: t("namePlaceholder"), value: draft });
      draft = ""; // the draft is the field's first value only: drawn again later (logged out), it starts empty
      const keep = el("button", { class: "btn primary", id: "me-keep", type: "submit" }, t("me_keep"));
      const form = el("form", { id: "me-form", class: "row" }, nameField, keep);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        act(keep, async () => {
          await send("/api/me", "POST", { name: name.value.trim() });
          await again();
        });
      });
      parts.push(el("p", { class: "hint" }, t("me_hint")), form, nameNote(name, (length) => t("nameTooLong", { max: MAX_NAME, length })),
        el("details", {}, el("summary", {}, t("me_login_title")), loginForm()));
    } else {
      parts.push(el("p", { id: "me-who" }, t("me_playing_as", { name: me.name }),
        me.account ? el("small", {}, " · ", t("me_account_as", { username: me.username })) : null));
      if (!me.account) {
        const [user, userField] = field("account-username", t("me_username"), { autocomplete: "username", maxlength: 32, required: true });
        const [word, wordField] = field("account-password", t("me_password"), { type: "password", autocomplete: "new-password", maxlength: 128, minlength: 8, required: true });
        const make = el("button", { class: "btn primary", id: "account-create", type: "submit" }, t("me_create_account"));
        const form = el("form", { id: "account-form", class: "row" }, userField, wordField, make);
        form.addEventListener("submit", (event) => {
          event.preventDefault();
          act(make, async () => {
            await send("/api/me/account", "POST", { username: user.value, password: word.value });
            word.value = "";
            await again(t("me_account_made"));
          });
        });
        parts.push(el("p", { class: "hint" }, t("me_account_hint")), form,
          el("details", {}, el("summary", {}, t("me_login_title")), loginForm()));
      } else {
        const out = el("button", { class: "btn", id: "logout", type: "button" }, t("me_logout"));
        out.addEventListener("click", () => act(out, async () => {
          await send("/api/me/logout", "POST");
          await again();
        }));
        const list = el("ul", { id: "sessions", class: "sessions" });
        parts.push(el("h3", {}, t("me_sessions")), list, out);
        drawSessions(list);
      }
    }
    parts.push(status);
    panel.replaceChildren(...parts);
  };

  const drawSessions = async (list) => {
    let sessions;
    try {
      ({ sessions } = await api("/api/me/sessions"));
    } catch (error) {
      if (error.code === "session_ended") return again();
      return tell(said(error), true);
    }
    list.replaceChildren(...sessions.map((s) => {
      const end = el("button", { class: "btn small", type: "button", "data-session": s.id }, t("me_revoke"));
      end.addEventListener("click", () => act(end, async () => {
        await send(`/api/me/sessions/${encodeURIComponent(s.id)}`, "DELETE");
        if (s.current) return again();
        await drawSessions(list); // the list without it first, then the words that say so
        tell(t("me_revoked"));
      }));
      return el("li", { class: s.current ? "current" : "" },
        el("span", {}, s.browser, " · ", s.address, " · ", new Date(s.last_seen).toLocaleString()),
        s.current ? el("b", {}, ` (${t("me_this_browser")})`) : null, " ", end);
    }));
  };

  draw();
  const nameField = () => panel.querySelector("#me-name");
  return {
    panel,
    typed: () => nameField()?.value.trim() ?? "",
    focusName: () => nameField()?.focus({ preventScroll: false }),
    refresh: () => again(),
  };
}
