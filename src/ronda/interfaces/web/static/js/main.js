// The app shell: language switch, the lobby (new table, tables to join, watch or
// replay), invite links (/t/{table_id}), the table screen and step-by-step replays.

import { cardSvg } from "./cards.js";
import { LANGUAGES, initialLanguage, language, setLanguage, t } from "./i18n.js";
import { TableConnection, api, tokens } from "./net.js";
import { namer, narrate } from "./narrate.js";
import { TableScreen } from "./table.js";

const app = document.getElementById("app");
let connection = null;
let screen = null;
let rerender = () => {};

function toast(message) {
  const box = document.getElementById("toasts");
  const note = document.createElement("div");
  note.className = "toast";
  note.setAttribute("role", "alert");
  note.textContent = message;
  box.append(note);
  setTimeout(() => note.remove(), 4500);
}

function h(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return template.content;
}

const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function header() {
  const bar = document.getElementById("topbar");
  bar.innerHTML = "";
  bar.append(h(`<a href="/" class="brand" data-link><span class="brand-card">${cardSvg("1o")}</span>
    <span><b>${esc(t("title"))}</b><small>${esc(t("tagline"))}</small></span></a>`));
  const select = document.createElement("select");
  select.id = "language";
  select.setAttribute("aria-label", "Language / Langue / اللغة");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, false, code === language());
    select.append(option);
  }
  select.addEventListener("change", () => {
    setLanguage(select.value);
    header();
    rerender();
  });
  bar.append(select);
}

// ------------------------------------------------------------------ lobby

let meta = null;

async function showLobby() {
  leaveTable();
  rerender = showLobby;
  meta = meta || (await api("/api/meta"));
  const { tables } = await api("/api/tables");
  const presetOptions = Object.entries(meta.presets)
    .map(([name, p]) => `<option value="${esc(name)}" title="${esc(p.summary)}">${esc(name)}</option>`).join("");
  const levelOptions = meta.levels.filter((l) => l !== "random")
    .map((l) => `<option value="${esc(l)}"${l === "medium" ? " selected" : ""}>${esc(l)}</option>`).join("");
  const savedName = localStorage.getItem("ronda.name") || "";
  app.replaceChildren(h(`
    <div class="lobby">
      <form id="new-table" class="panel">
        <h1>${esc(t("newTable"))}</h1>
        <label>${esc(t("yourName"))} <input name="name" id="name" maxlength="24" required value="${esc(savedName)}" autocomplete="nickname"></label>
        <div class="row">
          <label>${esc(t("players"))}
            <select name="players" id="players"><option>2</option><option>3</option><option>4</option></select></label>
          <label>${esc(t("preset"))} <select name="preset" id="preset">${presetOptions}</select></label>
          <label>${esc(t("target"))} <input name="target" id="target" type="number" min="1" max="500" value="41"></label>
        </div>
        <p class="hint" id="preset-summary"></p>
        <fieldset id="seat-choices"></fieldset>
        <button class="btn primary" id="create" type="submit">${esc(t("create"))}</button>
      </form>
      <section class="panel">
        <h2>${esc(t("tables"))}</h2>
        <ul class="table-list" id="table-list"></ul>
      </section>
    </div>`));
  const form = document.getElementById("new-table");
  const seatsBox = document.getElementById("seat-choices");
  const drawSeats = () => {
    const n = Number(form.players.value);
    seatsBox.innerHTML = `<legend>${esc(t("seat"))}</legend>` + Array.from({ length: n - 1 }, (_, i) => {
      const seat = i + 1;
      const partner = n === 4 && seat === 2 ? ` <em>(${esc(t("partner"))})</em>` : "";
      return `<div class="seat-choice"><span>${esc(t("seat"))} ${seat + 1}${partner}</span>
        <select name="kind-${seat}" data-seat-kind="${seat}"><option value="bot">${esc(t("bot"))}</option><option value="human">${esc(t("human"))}</option></select>
        <select name="level-${seat}" data-seat-level="${seat}" aria-label="${esc(t("level"))}">${levelOptions}</select></div>`;
    }).join("");
    seatsBox.querySelectorAll("[data-seat-kind]").forEach((select) => select.addEventListener("change", () => {
      seatsBox.querySelector(`[data-seat-level="${select.dataset.seatKind}"]`).hidden = select.value !== "bot";
    }));
  };
  form.players.addEventListener("change", drawSeats);
  const presetChanged = () => {
    const preset = meta.presets[form.preset.value];
    form.target.value = preset?.rules?.target ?? meta.variants.target ?? 41;
    document.getElementById("preset-summary").textContent = preset?.summary ?? "";
  };
  form.preset.addEventListener("change", presetChanged);
  presetChanged();
  drawSeats();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const n = Number(form.players.value);
    const name = form.name.value.trim();
    localStorage.setItem("ronda.name", name);
    const seats = [{ kind: "human", name }];
    for (let seat = 1; seat < n; seat++) {
      const kind = form[`kind-${seat}`].value;
      seats.push(kind === "bot" ? { kind, level: form[`level-${seat}`].value } : { kind });
    }
    try {
      const made = await api("/api/tables", {
        players: n, preset: form.preset.value, variants: {}, target: Number(form.target.value), seats, me: 0,
      });
      tokens.set(made.table_id, made.seat, made.token);
      navigate(`/t/${made.table_id}`);
    } catch (error) {
      toast(error.message);
    }
  });
  const list = document.getElementById("table-list");
  if (!tables.length) list.append(h(`<li class="empty">${esc(t("noTables"))}</li>`));
  for (const table of tables) {
    const names = table.seats.map((s) => (s.kind === "bot" ? `${t("bot")} (${s.level})` : s.name || "…")).join(" · ");
    const status = { waiting: t("open"), playing: t("playing"), finished: t("finished") }[table.status] || table.status;
    const action = table.status === "finished" ? t("replay") : table.status === "waiting" ? t("join") : t("watch");
    const href = table.status === "finished" ? `/t/${table.table_id}?replay` : `/t/${table.table_id}`;
    list.append(h(`<li><span class="status ${esc(table.status)}">${esc(status)}</span>
      <span class="who">${esc(names)}</span><span class="score">${esc(table.scores.join(" – "))}</span>
      <a class="btn" href="${esc(href)}" data-link>${esc(action)}</a></li>`));
  }
}

// ------------------------------------------------------------ table, join

async function showTable(tableId, wantReplay) {
  leaveTable();
  let summary;
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    toast(error.message);
    return navigate("/");
  }
  if (wantReplay || (summary.status === "finished" && !tokens.get(tableId))) return showReplay(tableId);
  const held = tokens.get(tableId);
  const free = summary.seats.filter((s) => s.kind === "human" && !s.taken);
  if (!held && free.length) return showJoin(tableId, free);
  const root = document.createElement("div");
  root.className = "table-screen";
  app.replaceChildren(root);
  screen = new TableScreen(root, {
    act: (action) => connection?.act(action),
    send: (message) => connection?.send(message),
    leave: () => navigate("/"),
    invite: async (link, button) => {
      try {
        await navigator.clipboard.writeText(link);
        button.textContent = t("copied");
      } catch {
        document.getElementById("invite-link")?.select();
      }
    },
  });
  rerender = () => screen.render();
  connection = new TableConnection(tableId, held ? held.token : null, {
    message: (msg) => {
      if (msg.type === "error") {
        toast(t("e_generic", { message: msg.message }));
        if (msg.code === "bad_token") localStorage.removeItem(`ronda.seat.${tableId}`);
        return;
      }
      screen.receive(msg);
    },
    status: (on) => screen.setConnected(on),
  });
}

function showJoin(tableId, free) {
  rerender = () => showJoin(tableId, free);
  const savedName = localStorage.getItem("ronda.name") || "";
  app.replaceChildren(h(`<form class="panel join" id="join">
    <h1>${esc(t("takeSeat"))}</h1>
    <label>${esc(t("yourName"))} <input name="name" id="join-name" maxlength="24" required value="${esc(savedName)}"></label>
    <button class="btn primary" type="submit" id="join-button">${esc(t("join"))}</button></form>`));
  document.getElementById("join").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = event.target.name.value.trim();
    localStorage.setItem("ronda.name", name);
    try {
      const joined = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { name, seat: free[0].seat });
      tokens.set(tableId, joined.seat, joined.token);
      showTable(tableId, false);
    } catch (error) {
      toast(error.message);
    }
  });
}

// ------------------------------------------------------------------ replays

async function showReplay(tableId) {
  const data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay`).catch((error) => {
    toast(error.message);
    return null;
  });
  if (!data) return;
  const summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  let index = 0;
  const draw = () => {
    rerender = draw;
    const step = data.steps[index];
    const state = step.state;
    const names = namer(summary, null);
    const lines = data.steps.slice(0, index + 1).flatMap((s) => s.events).map((e) => narrate(e, names)).filter(Boolean);
    const hands = state.hands.map((hand, seat) => `<div class="replay-hand"><b>${esc(names.seatName(seat))}</b>
      ${hand.map((c) => `<span class="card small">${cardSvg(c)}</span>`).join("")}</div>`).join("");
    app.replaceChildren(h(`<div class="replay panel">
      <h1>${esc(t("replay"))} · ${esc(state.scores.join(" – "))}</h1>
      <div class="replay-controls">
        <button class="btn" id="replay-prev"${index === 0 ? " disabled" : ""}>${esc(t("prev"))}</button>
        <span>${esc(t("step"))} ${index} / ${data.steps.length - 1}</span>
        <button class="btn" id="replay-next"${index === data.steps.length - 1 ? " disabled" : ""}>${esc(t("forward"))}</button>
      </div>
      <div class="felt"><div class="table-cards">${state.table.map((c) => `<div class="card table-card">${cardSvg(c)}</div>`).join("")}</div></div>
      ${hands}
      <ol class="log-lines">${lines.slice(-12).map((l) => `<li>${esc(l)}</li>`).join("")}</ol></div>`));
    document.getElementById("replay-prev").addEventListener("click", () => { index = Math.max(0, index - 1); draw(); });
    document.getElementById("replay-next").addEventListener("click", () => { index = Math.min(data.steps.length - 1, index + 1); draw(); });
  };
  draw();
}

// ------------------------------------------------------------------ routing

function leaveTable() {
  if (connection) connection.close();
  connection = null;
  screen = null;
}

function route() {
  const match = /^\/t\/([^/]+)$/.exec(location.pathname);
  if (match) showTable(decodeURIComponent(match[1]), location.search.includes("replay"));
  else showLobby().catch((error) => toast(error.message));
}

function navigate(path) {
  history.pushState(null, "", path);
  route();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (link && link.origin === location.origin) {
    event.preventDefault();
    navigate(link.pathname + link.search);
  }
});
window.addEventListener("popstate", route);

setLanguage(initialLanguage());
header();
route();
