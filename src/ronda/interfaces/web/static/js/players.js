// A player's page (`/p/{player id or name}`: ratings, wins and losses, the games played, each with its replay
// and analysis) and the leaderboard of each player count (`/leaderboard?players=2`). Both read the API of
// docs/web-protocol.md ("Ratings and players"); the server leaves out what the reader may not see (another
// player's games at private tables).

import { el } from "./dom.js";
import { count, has, language, t } from "./i18n.js";
import { personName } from "./narrate.js";
import { api } from "./net.js";

const COUNTS = [2, 3, 4];

/** A rating as players read it: 1,512 (grouped in the reader's language, digits left to right). */
export function ratingNumber(n) {
  return new Intl.NumberFormat(language() === "ar" ? "en" : language()).format(n);
}

/** "+12 → 1,512" (isolated left to right, so that Arabic shows it the same way round). */
export function ratingChange(change) {
  const sign = change.change >= 0 ? "+" : "\u2212";
  return el("bdi", { dir: "ltr", class: `num delta ${change.change >= 0 ? "up" : "down"}` },
    `${sign}${Math.abs(change.change)} \u2192 ${ratingNumber(change.after)}`);
}

const playerLink = (id, name) => el("a", { href: `/p/${encodeURIComponent(id)}`, "data-link": "" }, name);

/** A table in a box of its own that scrolls sideways should it be wider than a narrow screen: never the page. */
const scrolling = (table) => el("div", { class: "table-scroll" }, table);

function date(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleDateString(language(), { year: "numeric", month: "short", day: "numeric" });
}

/** Show the page of the player `key` (an id or a name) in `app`. `seen` keeps what the server said: drawn again in
 * another language, the page is drawn from it at once (asked again first, the page in the old words stayed on screen
 * under the new language meanwhile). */
export async function showPlayer(app, key, { fail, current, seen = {} }) {
  let page = seen.data;
  if (!page) try {
    page = seen.data = await api(`/api/players/${encodeURIComponent(key)}`);
  } catch (error) {
    if (!current()) return;
    app.replaceChildren(el("div", { class: "panel empty", id: "player" }, error.status === 404 ? t("noPlayer") : ""));
    if (error.status !== 404) fail(error);
    return;
  }
  if (!current()) return;
  // Wins and losses beside the rating are its rated games', as the leaderboard counts them; every finished game,
  // games with a bot too, has a column of its own, named so.
  const ratings = el("table", { class: "summary-table ratings-table" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("players")), el("th", { scope: "col" }, t("rating")),
      el("th", { scope: "col" }, t("ratedWins")), el("th", { scope: "col" }, t("ratedLosses")),
      el("th", { scope: "col" }, t("allGames")))),
    el("tbody", {}, page.record.map((r) => {
      const rated = page.ratings.find((x) => x.players === r.players);
      return el("tr", { "data-players": r.players },
        el("th", { scope: "row" }, count("playersN", r.players)),
        el("td", {}, rated ? el("bdi", { dir: "ltr", class: "num" }, ratingNumber(rated.rating)) : "—",
          rated?.provisional ? el("small", { class: "provisional" }, ` ${t("provisional")}`) : null),
        el("td", { class: "num rated-wins" }, rated ? rated.wins : "—"),
        el("td", { class: "num rated-losses" }, rated ? rated.losses : "—"),
        el("td", { class: "all-games" }, t("allGamesRecord", { wins: count("gamesWon", r.wins), losses: count("gamesLost", r.losses) })));
    })));
  const games = page.games.map((g) => {
    const others = g.seats.filter((s) => s.seat !== g.seat).map((s, i) => [i ? ", " : "",
      s.player_id ? playerLink(s.player_id, s.name) : s.kind === "bot" ? t("botLevel", { level: t(`level_${s.level}`) }) : personName(s.name) || t("freeSeat")]);
    return el("li", { class: `history-game ${g.result}`, "data-table": g.table_id, "data-game": g.game },
      el("span", { class: "when" }, date(g.date)),
      el("span", { class: "who" }, count("playersN", g.players), " · ", others),
      el("b", { class: "result" }, t(g.result === "won" ? "resultWon" : "resultLost")),
      g.rating ? ratingChange(g.rating) : el("small", { class: "unrated" }, t("unrated")),
      g.public ? null : el("small", { class: "private" }, t("privateTable")),
      el("span", { class: "links" },
        el("a", { href: g.replay, "data-link": "", class: "btn small" }, t("replay")),
        el("a", { href: g.analysis, "data-link": "", class: "btn small" }, t("analyse"))));
  });
  app.replaceChildren(el("div", { class: "player-page", id: "player" },
    el("section", { class: "panel" },
      el("h1", {}, page.name),
      page.you ? el("p", { class: "hint" }, t("yourPage")) : null,
      scrolling(ratings),
      el("p", { class: "hint" }, t("ratingsExplained"))),
    el("section", { class: "panel", "aria-labelledby": "history-title" },
      el("h2", { id: "history-title" }, t("gamesPlayed")),
      games.length ? el("ul", { class: "history" }, games) : el("p", { class: "empty" }, t("noGamesYet")))));
}

/** Show the leaderboard of games of `players` players in `app`, from `seen` when drawn again (as a player's page). */
export async function showLeaderboard(app, players, { fail, current, seen = {} }) {
  let board = seen.data;
  if (!board) try {
    board = seen.data = await api(`/api/leaderboard?players=${encodeURIComponent(players)}`);
  } catch (error) {
    if (current()) fail(error);
    return;
  }
  if (!current()) return;
  const rows = (list) => list.map((p) => el("tr", { "data-player": p.player_id },
    el("td", { class: "num" }, p.rank ?? ""),
    el("td", {}, playerLink(p.player_id, p.name)),
    el("td", {}, el("bdi", { dir: "ltr", class: "num" }, ratingNumber(p.rating))),
    el("td", { class: "num" }, p.wins), el("td", { class: "num" }, p.losses)));
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("player")), el("th", { scope: "col" }, t("rating")),
    el("th", { scope: "col" }, t("ratedWins")), el("th", { scope: "col" }, t("ratedLosses"))));
  const tabs = el("nav", { class: "tabs", "aria-label": t("players") }, COUNTS.map((n) => el("a", {
    href: `/leaderboard?players=${n}`, "data-link": "", class: `btn${n === board.players ? " primary" : ""}`,
    "aria-current": n === board.players ? "page" : null,
  }, count("playersN", n))));
  app.replaceChildren(el("div", { class: "leaderboard", id: "leaderboard" },
    el("section", { class: "panel", "aria-labelledby": "leaderboard-title" },
      // The count in words ("two-player games"), as a person says it; Arabic's two is a dual, not a plural.
      el("h1", { id: "leaderboard-title" },
        has(`leaderboardOf_${board.players}`) ? t(`leaderboardOf_${board.players}`) : t("leaderboardOf", { n: board.players })),
      tabs,
      board.ranked.length
        ? scrolling(el("table", { class: "summary-table", id: "ranked" }, head, el("tbody", {}, rows(board.ranked))))
        : el("p", { class: "empty" }, t("noRatingsYet")),
      board.provisional.length ? [
        el("h2", {}, count("provisionalPlayers", board.provisional_games)),
        scrolling(el("table", { class: "summary-table", id: "provisional" }, head.cloneNode(true), el("tbody", {}, rows(board.provisional)))),
      ] : null,
      el("p", { class: "hint" }, t("ratingsExplained")))));
}
