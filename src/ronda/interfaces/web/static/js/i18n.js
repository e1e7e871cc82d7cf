// English, French and Arabic, each with the game's own words.
//
// Which words, and why (the source texts are ../shared/seeds/rules-en.txt and
// rules-fr.txt; they note that "most of the technical terms of the game exist
// in several alternative forms: French, Spanish and Arabic"):
//
// - ronda and tringa are the same words in every language. In Arabic script
//   they are written as they are said: روندا and ترينكا. The g of tringa is
//   written with ك, as Moroccan players usually type it; ترينگا / ترينڭا (with
//   a gaf) are the other spellings one meets, but ك renders in every font.
// - caida: "caida" in English (the seeds: "este, caida or cao (Spanish)"),
//   "caida" in French too, with the seed's French "taper" beside it where the
//   reason is spelled out. In Arabic the call is the borrowed كايدة (kayda), as
//   it is shouted at the table; the seeds' Arabic names, ضربة (darba) and
//   بواحد (b'wahed, "with one"), are given with it in the rules summary.
// - missa: "missa" (the seeds: missa French, mesa Spanish, lahsa Arabic). In
//   Arabic ميسا, as players say it, with the seeds' لحسة (lahsa) beside it in
//   the rules summary.
// - Rank names: Sota, Caballo, Rey in English (the Spanish pack's own names);
//   Valet, Cavalier, Roi in French (rules-fr.txt: "le valet, le cheval et le
//   roi"; cavalier is the name of the figure on the card); in Arabic as Moroccan
//   players call them: صوطا (sota), عود (l'aoud, "the horse") and ري (rey).
// - Suits: oros, copas, espadas, bastos in English (as the project writes them,
//   RULES.md R1.1); deniers, coupes, épées, bâtons in French (the usual French
//   names of the Spanish suits); in Arabic the seeds' Moroccan names written in
//   Arabic script: ذهب (dhab), كوبا (copas), شبادة (chbada), خال (khal).
// - Arabic pages run right to left (dir="rtl"); card faces and numbers stay
//   left to right.

const en = {
  close: "Close", keysHint: "Keys: 1–9 play a card, N/R/T declare",
  term_caida: "caida", term_caida_means: "taking the card just dropped by the previous player: +1 (este, cao; taper in French)",
  term_missa: "missa", term_missa_means: "clearing the table with a capture: +1 (mesa in Spanish, lahsa in Arabic)",
  term_ronda: "ronda", term_ronda_means: "a pair in the hand as dealt: 1 point, declared before the first play",
  term_tringa: "tringa", term_tringa_means: "three of a kind in the hand as dealt: 5 points (also tringla)",
  title: "Ronda", tagline: "The Moroccan fishing card game",
  pitch: "Capture cards by rank and by the run that follows, call caida and missa, announce ronda and tringa — or bluff them. First to 41 wins. Play the computer or invite friends.",
  howTo: "How to play",
  howTo1: "Play one card a turn. A card of the same rank as a card on the table takes it, with every card that follows it in the run 1 2 3 4 5 6 7 10 11 12.",
  howTo2: "Caida: take the card the previous player has just dropped — +1.",
  howTo3: "Missa: clear the table — +1.",
  howTo4: "Ronda (a pair) and tringa (three of a kind): declare them at the start of each deal; the best one takes the points of all. Bluffing is allowed, and a challenge shows the hand.",
  howTo5: "When the pack is played out, every card above 20 in a pile is a point (above 13 with three players). The first side to the target wins.",
  // lobby
  newTable: "New table", yourName: "Your name", namePlaceholder: "e.g. Amina", players: "Players", playersN: "{n} players",
  preset: "Rules", target: "Target", targetN: "first to {n}", otherSeats: "The other seats", seatN: "Seat {n}",
  seatWho: "Who plays seat {n}", levelOf: "Level of seat {n}", opponent: "opponent", partner: "partner",
  bot: "Computer", human: "A friend (invite)", create: "Create the table", tables: "Tables",
  noTables: "No tables yet — create the first one.", open: "Open", inPlay: "In play", finished: "Finished",
  join: "Join", resume: "Resume", watch: "Watch", replay: "Replay", freeSeat: "free seat",
  justNow: "just now", minutesAgo: "{n} min ago", hoursAgo: "{n} h ago", daysAgo: "{n} days ago",
  offline: "The server cannot be reached.",
  invitedBy: "{name} invites you to play Ronda", takeSeat: "Take a seat", justWatch: "Just watch",
  level_easy: "easy", level_medium: "medium", level_hard: "hard", level_expert: "expert", level_random: "random",
  botName: "Bot {seat}", botLevel: "Computer · {level}",
  preset_classic: "Classic", preset_advanced: "Advanced (dealer duty)", "preset_four-card": "Four-card hands",
  preset_cards: "Paid in cards", preset_short: "Short game", preset_heavy: "Heavy penalties", "preset_ace-high": "Ace high",
  variants: "Variants", variantsChanged: "{n} changed", variantsHint: "Start from the rules above and change what your table plays differently.",
  v_dealer_duty: "Dealer duty: the dealer must capture with the last card", v_ace_high: "Ace high: 1s make the highest ronda and tringa",
  v_four_card_hands: "Four-card hands, nothing turned up on the table (2 or 4 players)",
  v_transfer_scoring: "Paid in cards: points move captured cards; only the card count scores",
  v_auto_declare: "Announcements made automatically, and truly, for everyone",
  v_chain_points: "A chain's 2nd, 3rd and 4th card pay", v_undeclared_ronda_penalty: "A hidden ronda costs",
  s_dealer_duty: "dealer duty", s_ace_high: "ace high", s_four_card_hands: "four-card hands", s_transfer_scoring: "paid in cards",
  s_auto_declare: "automatic announcements", s_chain_points: "chain {points}", s_undeclared_ronda_penalty: "hidden ronda costs {n}",
  variantOff: "no {what}",
  // table
  you: "You", us: "Us", them: "Them", pair: "{a} & {b}", scores: "Scores", pointsOf: "{name}: {points} points",
  targetHint: "The first side to reach this score wins", roundDeal: "Round {round} · deal {deal}/{deals}",
  connected: "Connected", reconnecting: "Reconnecting…", dealer: "Dealer", dealerShort: "D",
  declaredHint: "Declared for this deal", exposedHint: "This declaration was false",
  pileN: "{n} taken", owesN: "owes {n}", pileOf: "{name}: {n} cards captured", cardsInHand: "{n} cards in hand",
  shownHand: "Hand shown by a challenge", declaring: "declaring", playing: "playing", away: "away", here: "connected",
  botFor: "the computer plays for now", stalled: "the server cannot play for this seat just now: it tries again", table: "Table", stockN: "{n} in the stock", stockEmpty: "stock empty",
  chainOpen: "Chain open on the {rank}s ({side}):", lastDrop: "Just dropped:", emptyTable: "The table is empty",
  watchingNote: "You are watching this game.", yourHand: "Your hand", notNow: "not now",
  autoDeclare: "Always declare truthfully for me",
  autoDeclareHint: "At the start of every deal the server declares exactly what your hand holds",
  gameOver: "Game over", showResult: "Show the result", waitingForPlayers: "Waiting for players…",
  declarePrompt: "Declare your hand:", honestHint: "What your hand holds",
  bluffHint: "Not what your hand holds: a bluff (allowed, but it can be challenged)",
  playPrompt: "Your turn — play a card", yourTurn: "Your turn",
  declareTurnOf: "{name} is declaring…", turnOf: "{name} is playing…",
  challenge: "Challenge {name}'s {kind}",
  challengeHint: "The hand is shown to everyone: if the declaration was true, their side wins the game at once",
  challengeAsk: "Challenge {name}'s {kind}?",
  challengeRisk: "If {name} really holds a {kind}, you lose the game at once. If not, the {kind} is exposed as false and you play on.",
  challengeSafe: "Your own cards show this {kind} cannot be true.",
  challengeYes: "Challenge", cancel: "Cancel",
  challengeProven: "{name}'s {kind} is proven by your cards: a challenge could only lose the game",
  offlinePrompt: "Connection lost — reconnecting… your turn will wait",
  listPublic: "List this table in the lobby: anyone may join or watch",
  letWatch: "Let people with the link watch",
  inviteNote_loopback_only: "Only this computer can open this link: the server listens on this computer alone. To play with friends on other machines, start it with {command} and send them your computer's network address.",
  inviteNote_loopback_address: "This link names this computer (localhost): friends on other machines cannot use it. Open this page with your computer's network address, or start the server with {option}.",
  yourTables: "Your tables", publicTables: "Open tables",
  narration: "Play by play", inviteLink: "Invite link", copy: "Copy link", copied: "Copied!", copyByHand: "Select and copy",
  share: "Share", shareText: "Come and play Ronda with me",
  inviteHelp: "Send this link to your friends: the game starts as soon as every seat is taken.",
  cardsTaken: "Cards taken", cardPoints: "Card points", thisRound: "This round", total: "Total",
  roundOverN: "Round {n} over", next: "Continue", weWin: "You win!", weLose: "You lose", winnerIs: "{name} wins!",
  wonByTarget: "First to {target}: {name}.", wonByChallenge: "{name} won on a failed challenge.",
  again: "Play again", waitingRematch: "Waiting for {names}…", watchReplay: "Replay the game", lobby: "Lobby",
  newGame: "A new game begins",
  // replays
  replayOf: "Replay", step: "Step", stepOf: "Step {n} of {total}", first: "First step", prev: "Back", play: "Play",
  pause: "Pause", forward: "Forward", last: "Last step", replayStart: "The deal",
  replayPlay: "{name} plays {card}", replayDeclare: "{name} declares {kind}", replayChallenge: "{name} challenges {target}",
  // declarations
  declare_none: "Nothing", declare_ronda: "Ronda", declare_tringa: "Tringa", declare_double_ronda: "Double ronda",
  word_none: "nothing", word_ronda: "ronda", word_tringa: "tringa", word_double_ronda: "double ronda",
  // narration
  n_round: "Round {round} — {name} deals", n_round_you: "Round {round} — you deal",
  n_deal: "Deal {deal}: {size} cards each, {stock} left in the stock",
  n_deal_last: "Last deal: {size} cards each — no more cards to come",
  n_table: "on the table {cards}",
  n_declare: "{name} declared {kind}", n_declare_you: "You declared {kind}",
  n_drop: "{name} drops {card}", n_drop_you: "You drop {card}",
  n_capture: "{name} plays {card}, takes {cards}", n_capture_you: "You play {card}, take {cards}",
  n_raise: "{name} raises with {card}, takes {cards}", n_raise_you: "You raise with {card}, take {cards}",
  n_score: "{side} {points} — {reason}",
  n_contest: "Ronda contest decided: {side} {points}",
  n_announce_scored: "{side} {points} for the announcement",
  n_taken_back: "{side} {points}: announcement points taken back",
  n_transfer: "{payer} → {payee}: {cards} cards ({reason})", n_owed: "— {owed} still owed",
  n_exposed: "{name}'s {kind} was false!", n_exposed_you: "Your {kind} was false!",
  n_challenge: "{name} challenges {target}: {hand} — {verdict}",
  n_challenge_you: "You challenge {target}: {hand} — {verdict}",
  n_true: "the declaration was true", n_false: "the declaration was false",
  n_table_taken: "Last cards to {side}: {cards}",
  n_round_end: "Round over — piles: {piles}",
  n_game_over: "Game over — winner: {side}",
  n_game_over_challenge: "Game over on a failed challenge — winner: {side}",
  shout_caida: "Caida!", shout_missa: "Missa!", shout_chain: "Chain!", shout_dealer_duty: "Dealer duty",
  shout_cards: "Cards", shout_false: "False!",
  r_caida: "caida", r_chain: "chain", r_missa: "missa", r_announcement: "announcements",
  r_false_announcement: "false announcement", r_undeclared: "undeclared combination", r_cards: "card count",
  r_dealer_duty: "dealer duty", r_debt: "debt",
  // cards
  cardLabel: "{rank} of {suit}",
  // errors
  e_generic: "The server said no: {message}", e_offline: "Not connected — trying again…",
  e_no_table: "There is no such table.", e_bad_token: "This seat is no longer held by this browser.",
  e_not_your_turn: "Wait for your turn.", e_illegal: "That move is not allowed now.", e_game_over: "The game is over.",
  e_spectator: "You are watching: only players can act.", e_flood: "Slow down a little.",
  e_seat_taken: "That seat has just been taken.", e_not_finished: "The replay opens once the game is over.",
  e_bad_request: "{message}",
  e_store_unavailable: "The game could not be saved just now: your move is sent again…",
  e_pending: "The last move is still being saved: your move is sent again in a moment…",
  e_stale: "The table had moved on: your move was not taken. Here is the table as it is.",
  e_rate_limited: "Too fast: wait a minute and try again.", e_too_many_tables: "You have many tables going already: finish or leave one first.",
  e_server_full: "The server is full just now: try again later.", e_closed: "This table was closed: nobody came to play.",
  e_too_many_connections: "Too many pages are open from your address: close some, then reload this one.",
  e_no_spectators: "Only the players may watch this table.", e_not_creator: "Only the table's creator can change that.",
  e_name_taken: "Someone at this table already has that name.", e_bad_origin: "This page may not play on that server.",
  e_damaged: "This table's game cannot be opened.",
  // hints and analyses (ronda.analysis: every option valued from what the seat could see)
  hint: "Hint", hintAsk: "Your best options now, from what you can see (H)", hintThinking: "Thinking…",
  hintTitle: "Your best options", hintGuesses: "{n} guesses of the hidden cards", hintExact: "the cards left are known",
  hintNote: "Expected points: your side's minus the others' over this deal and the next, from what you can see ({how}). Hints are kept with the game.",
  expectedPoints: "expected points", optionDeclare: "Declare {kind}", optionChallenge: "Challenge {name}",
  why_takes: "takes {cards}", why_raise: "raises the chain, takes {cards}", why_drops: "drops it",
  why_likelyCaida: "{name} holds a {rank} in {share} of the guesses: a likely caida",
  why_maybeCaida: "{name} holds a {rank} in {share} of the guesses: a caida",
  why_likelyMissa: "{name} likely clears the table for a missa ({share})",
  why_maybeMissa: "{name} may clear the table for a missa ({share})",
  why_truth: "what your hand holds", why_nothing: "your hand holds no combination",
  why_bluff: "a bluff: exposed as false once your cards show it, {n} to each opponent",
  why_hide: "hides your {kind}: {n} to each opponent once its cards are played",
  why_false: "a false {kind} (you hold a {held}): {n} to each opponent in penalties",
  why_provenFalse: "your cards prove the {kind} false: the penalty comes at once",
  why_provenTrue: "your cards prove the {kind} true: the challenge fails and loses the game",
  why_challengeRisk: "the {kind} is true in {share} of the guesses: a failed challenge loses the game",
  why_wins: "wins the game in {share} of the guesses", why_loses: "the game is lost in {share}",
  allowHints: "Hints: players may ask for their best options (kept with the game)",
  grade_best: "Best", grade_good: "Good", grade_inaccuracy: "Inaccuracy", grade_mistake: "Mistake", grade_blunder: "Blunder",
  lossOf: "{loss} points less than the best", bestWas: "best:", afterHint: "after a hint",
  decisionLabel: "Round {round}, deal {deal}: {did} — {grade}, {loss} points less than the best",
  graphTitle: "Expected points over the game",
  graphAhead: "Above the dashed line {name} is ahead, below it {other}. ",
  legend: "Legend", legendTwo: "{name}'s expected points (below zero: {other} is ahead)", legendMarks: "A decision that lost points (a button to its step)",
  graphSteps: "decisions, in the order played",
  graphDescTwo: "The expected points of {name} after each decision, as the deciding player could see them; above the middle line {name} is ahead. Marks show the decisions that lost points: each is a button to that step.",
  graphDescAll: "Each player's expected points at its own decisions, as it could see them. Marks show the decisions that lost points: each is a button to that step.",
  graphCaption: "Every decision valued from what its player could see then ({guesses} guesses of the hidden cards a decision).",
  seatSummary: "{n} decisions, average loss {loss}", seatSummaryOne: "1 decision, loss {loss}",
  costlyTitle: "Decisions that lost points ({n})", noCostly: "No decision lost noticeable points.",
  analysisTitle: "Analysis", analyse: "Analyse the game", analysing: "Analysing: {done} of {total} decisions…",
  analysisBusy: "The server is analysing other games: trying again shortly…",
  analysisNote: "Classes by the points lost against the best option: best under 0.2, good under 0.5, inaccuracy under 1, mistake under 2, blunder 2 or more.",
  e_hints_off: "Hints are off at this table.", e_busy: "The server is busy: try again in a moment.",
};

const fr = {
  close: "Fermer", keysHint: "Touches : 1–9 jouent une carte, N/R/T annoncent",
  term_caida: "caida", term_caida_means: "prendre la carte que le joueur précédent vient de poser : +1 (taper)",
  term_missa: "missa", term_missa_means: "vider la table en prenant : +1 (mesa en espagnol, lahsa en arabe)",
  term_ronda: "ronda", term_ronda_means: "une paire dans la main distribuée : 1 point, annoncée avant de jouer",
  term_tringa: "tringa", term_tringa_means: "un brelan dans la main distribuée : 5 points (aussi tringla)",
  title: "Ronda", tagline: "Le jeu de cartes marocain",
  pitch: "Ramassez les cartes par leur rang et la suite qui les suit, criez caida et missa, annoncez ronda et tringa — ou bluffez. Le premier à 41 gagne. Jouez contre l'ordinateur ou invitez vos amis.",
  howTo: "Comment jouer",
  howTo1: "Jouez une carte par tour. Une carte du même rang qu'une carte de la table la prend, avec toutes celles qui la suivent dans la suite 1 2 3 4 5 6 7 10 11 12.",
  howTo2: "Caida (taper) : prendre la carte que le joueur précédent vient de poser — +1.",
  howTo3: "Missa : vider la table — +1.",
  howTo4: "Ronda (une paire) et tringa (un brelan) : annoncez-les au début de chaque donne ; la meilleure prend les points de toutes. Le bluff est permis, et une contestation montre la main.",
  howTo5: "Quand le paquet est joué, chaque carte au-delà de 20 dans les levées vaut un point (au-delà de 13 à trois joueurs). Le premier camp à l'objectif gagne.",
  newTable: "Nouvelle table", yourName: "Votre nom", namePlaceholder: "p. ex. Amina", players: "Joueurs", playersN: "{n} joueurs",
  preset: "Règles", target: "Objectif", targetN: "en {n} points", otherSeats: "Les autres places", seatN: "Place {n}",
  seatWho: "Qui joue la place {n}", levelOf: "Niveau de la place {n}", opponent: "adversaire", partner: "partenaire",
  bot: "Ordinateur", human: "Un ami (invitation)", create: "Créer la table", tables: "Tables",
  noTables: "Aucune table pour l'instant — créez la première.", open: "Ouverte", inPlay: "En cours", finished: "Terminée",
  join: "Rejoindre", resume: "Reprendre", watch: "Regarder", replay: "Revoir", freeSeat: "place libre",
  justNow: "à l'instant", minutesAgo: "il y a {n} min", hoursAgo: "il y a {n} h", daysAgo: "il y a {n} jours",
  offline: "Le serveur est injoignable.",
  invitedBy: "{name} vous invite à jouer à la Ronda", takeSeat: "Prendre place", justWatch: "Juste regarder",
  level_easy: "facile", level_medium: "moyen", level_hard: "difficile", level_expert: "expert", level_random: "hasard",
  botName: "Robot {seat}", botLevel: "Ordinateur · {level}",
  preset_classic: "Classique", preset_advanced: "Avancée (devoir du donneur)", "preset_four-card": "Mains de quatre cartes",
  preset_cards: "Payé en cartes", preset_short: "Partie courte", preset_heavy: "Pénalités lourdes", "preset_ace-high": "As fort",
  variants: "Variantes", variantsChanged: "{n} modifiée(s)", variantsHint: "Partez des règles ci-dessus et changez ce que votre table joue autrement.",
  v_dealer_duty: "Devoir du donneur : le donneur doit prendre avec sa dernière carte", v_ace_high: "As fort : les 1 font la plus forte ronda et tringa",
  v_four_card_hands: "Mains de quatre cartes, rien n'est retourné sur la table (2 ou 4 joueurs)",
  v_transfer_scoring: "Payé en cartes : les points se paient en cartes prises ; seul le compte des cartes marque",
  v_auto_declare: "Annonces faites automatiquement, et sans bluff, pour tous",
  v_chain_points: "La 2e, 3e et 4e carte d'une chaîne rapportent", v_undeclared_ronda_penalty: "Une ronda cachée coûte",
  s_dealer_duty: "devoir du donneur", s_ace_high: "as fort", s_four_card_hands: "mains de quatre cartes", s_transfer_scoring: "payé en cartes",
  s_auto_declare: "annonces automatiques", s_chain_points: "chaîne {points}", s_undeclared_ronda_penalty: "ronda cachée à {n}",
  variantOff: "sans {what}",
  presetHelp_classic: "Le jeu tel que la plupart le jouent : mains de trois cartes, quatre cartes sur la table, caida 1, en 41 points.",
  presetHelp_advanced: "Le donneur doit prendre avec sa dernière carte : un 12 rapporte 5, une carte posée ou un 1 donne 5 à chaque adversaire.",
  "presetHelp_four-card": "Rien sur la table ; mains de quatre cartes, deux paires font une double ronda (2 ou 4 joueurs).",
  presetHelp_cards: "Les points se paient en cartes prises au lieu de jetons ; seul le compte des cartes marque.",
  presetHelp_short: "Une partie plus courte, en 25 points.",
  presetHelp_heavy: "Une chaîne paie 1, 6 et 15, et une ronda cachée coûte 5 comme une tringa cachée.",
  "presetHelp_ace-high": "Une paire ou un brelan de 1 est la plus forte ronda ou tringa, puis 12, 11, 10 jusqu'au 2.",
  you: "Vous", us: "Nous", them: "Eux", pair: "{a} et {b}", scores: "Scores", pointsOf: "{name} : {points} points",
  targetHint: "Le premier camp à atteindre ce score gagne", roundDeal: "Manche {round} · donne {deal}/{deals}",
  connected: "Connecté", reconnecting: "Reconnexion…", dealer: "Donneur", dealerShort: "D",
  declaredHint: "Annonce de cette donne", exposedHint: "Cette annonce était fausse",
  pileN: "{n} prises", owesN: "doit {n}", pileOf: "{name} : {n} cartes prises", cardsInHand: "{n} cartes en main",
  shownHand: "Main montrée après une contestation", declaring: "annonce", playing: "joue", away: "absent", here: "connecté",
  botFor: "l'ordinateur joue en attendant", stalled: "le serveur ne peut pas jouer pour cette place à l'instant : il réessaie", table: "Table", stockN: "{n} au talon", stockEmpty: "talon vide",
  chainOpen: "Chaîne ouverte sur les {rank} ({side}) :", lastDrop: "Vient d'être posée :", emptyTable: "La table est vide",
  watchingNote: "Vous regardez cette partie.", yourHand: "Votre main", notNow: "pas maintenant",
  autoDeclare: "Toujours annoncer honnêtement pour moi",
  autoDeclareHint: "Au début de chaque donne, le serveur annonce exactement ce que contient votre main",
  gameOver: "Partie terminée", showResult: "Voir le résultat", waitingForPlayers: "En attente des joueurs…",
  declarePrompt: "Annoncez votre main :", honestHint: "Ce que contient votre main",
  bluffHint: "Pas ce que contient votre main : un bluff (permis, mais contestable)",
  playPrompt: "À vous — jouez une carte", yourTurn: "À vous",
  declareTurnOf: "{name} annonce…", turnOf: "{name} joue…",
  challenge: "Contester la {kind} de {name}",
  challengeHint: "La main est montrée à tous : si l'annonce était vraie, son camp gagne la partie aussitôt",
  challengeAsk: "Contester la {kind} de {name} ?",
  challengeRisk: "Si {name} a vraiment une {kind}, vous perdez la partie aussitôt. Sinon, la {kind} est dévoilée comme fausse et la partie continue.",
  challengeSafe: "Vos propres cartes montrent que cette annonce ne peut pas être vraie.",
  challengeYes: "Contester", cancel: "Annuler",
  challengeProven: "La {kind} de {name} est prouvée par vos cartes : la contester ne pourrait que perdre la partie",
  offlinePrompt: "Connexion perdue — reconnexion… votre tour vous attend",
  listPublic: "Afficher la table dans le salon : tout le monde peut s'asseoir ou regarder",
  letWatch: "Les personnes qui ont le lien peuvent regarder",
  inviteNote_loopback_only: "Seul cet ordinateur peut ouvrir ce lien : le serveur n'écoute que sur cet ordinateur. Pour jouer avec des amis sur d'autres machines, lancez-le avec {command} et envoyez-leur l'adresse réseau de votre ordinateur.",
  inviteNote_loopback_address: "Ce lien désigne cet ordinateur (localhost) : vos amis sur d'autres machines ne peuvent pas l'utiliser. Ouvrez cette page avec l'adresse réseau de votre ordinateur, ou lancez le serveur avec {option}.",
  yourTables: "Vos tables", publicTables: "Tables ouvertes",
  narration: "Déroulement", inviteLink: "Lien d'invitation", copy: "Copier le lien", copied: "Copié !", copyByHand: "Sélectionnez et copiez",
  share: "Partager", shareText: "Viens jouer à la Ronda avec moi",
  inviteHelp: "Envoyez ce lien à vos amis : la partie commence dès que toutes les places sont prises.",
  cardsTaken: "Cartes prises", cardPoints: "Points des cartes", thisRound: "Cette manche", total: "Total",
  roundOverN: "Fin de la manche {n}", next: "Continuer", weWin: "Vous gagnez !", weLose: "Vous avez perdu", winnerIs: "{name} gagne !",
  wonByTarget: "Premier à {target} : {name}.", wonByChallenge: "{name} gagne sur une contestation perdue.",
  again: "Rejouer", waitingRematch: "En attente de {names}…", watchReplay: "Revoir la partie", lobby: "Accueil",
  newGame: "Une nouvelle partie commence",
  replayOf: "Revoir", step: "Coup", stepOf: "Coup {n} sur {total}", first: "Premier coup", prev: "Reculer", play: "Lecture",
  pause: "Pause", forward: "Avancer", last: "Dernier coup", replayStart: "La donne",
  replayPlay: "{name} joue {card}", replayDeclare: "{name} annonce {kind}", replayChallenge: "{name} conteste {target}",
  declare_none: "Rien", declare_ronda: "Ronda", declare_tringa: "Tringa", declare_double_ronda: "Double ronda",
  word_none: "rien", word_ronda: "ronda", word_tringa: "tringa", word_double_ronda: "double ronda",
  n_round: "Manche {round} — {name} distribue", n_round_you: "Manche {round} — vous distribuez",
  n_deal: "Donne {deal} : {size} cartes chacun, {stock} au talon",
  n_deal_last: "Dernière donne : {size} cartes chacun — plus rien à venir",
  n_table: "sur la table {cards}",
  n_declare: "{name} annonce {kind}", n_declare_you: "Vous annoncez {kind}",
  n_drop: "{name} pose {card}", n_drop_you: "Vous posez {card}",
  n_capture: "{name} joue {card}, prend {cards}", n_capture_you: "Vous jouez {card}, prenez {cards}",
  n_raise: "{name} relance avec {card}, prend {cards}", n_raise_you: "Vous relancez avec {card}, prenez {cards}",
  n_score: "{side} {points} — {reason}",
  n_contest: "Duel d'annonces tranché : {side} {points}",
  n_announce_scored: "{side} {points} pour l'annonce",
  n_taken_back: "{side} {points} : points d'annonce repris",
  n_transfer: "{payer} → {payee} : {cards} cartes ({reason})", n_owed: "— {owed} encore dues",
  n_exposed: "La {kind} de {name} était fausse !", n_exposed_you: "Votre {kind} était fausse !",
  n_challenge: "{name} conteste {target} : {hand} — {verdict}",
  n_challenge_you: "Vous contestez {target} : {hand} — {verdict}",
  n_true: "l'annonce était vraie", n_false: "l'annonce était fausse",
  n_table_taken: "Dernières cartes pour {side} : {cards}",
  n_round_end: "Fin de la manche — levées : {piles}",
  n_game_over: "Partie terminée — vainqueur : {side}",
  n_game_over_challenge: "Partie terminée sur une contestation perdue — vainqueur : {side}",
  shout_caida: "Caida !", shout_missa: "Missa !", shout_chain: "Chaîne !", shout_dealer_duty: "Devoir du donneur",
  shout_cards: "Cartes", shout_false: "Fausse !",
  r_caida: "caida (taper)", r_chain: "chaîne", r_missa: "missa", r_announcement: "annonces",
  r_false_announcement: "fausse annonce", r_undeclared: "combinaison non annoncée", r_cards: "compte des cartes",
  r_dealer_duty: "devoir du donneur", r_debt: "dette",
  cardLabel: "{rank} de {suit}",
  e_generic: "Le serveur a refusé : {message}", e_offline: "Pas de connexion — nouvel essai…",
  e_no_table: "Cette table n'existe pas.", e_bad_token: "Cette place n'est plus tenue par ce navigateur.",
  e_not_your_turn: "Attendez votre tour.", e_illegal: "Ce coup n'est pas permis maintenant.", e_game_over: "La partie est terminée.",
  e_spectator: "Vous regardez : seuls les joueurs peuvent jouer.", e_flood: "Un peu moins vite.",
  e_seat_taken: "Cette place vient d'être prise.", e_not_finished: "La partie se revoit une fois terminée.",
  e_bad_request: "{message}",
  e_store_unavailable: "La partie n'a pas pu être enregistrée à l'instant : votre coup est renvoyé…",
  e_pending: "Le dernier coup est encore en cours d'enregistrement : votre coup est renvoyé dans un instant…",
  e_stale: "La table avait avancé : votre coup n'a pas été pris. Voici la table telle qu'elle est.",
  e_rate_limited: "Trop vite : attendez une minute et réessayez.", e_too_many_tables: "Vous avez déjà beaucoup de tables en cours : terminez-en ou quittez-en une.",
  e_server_full: "Le serveur est plein pour l'instant : réessayez plus tard.", e_closed: "Cette table a été fermée : personne n'est venu jouer.",
  e_too_many_connections: "Trop de pages sont ouvertes depuis votre adresse : fermez-en quelques-unes, puis rechargez celle-ci.",
  e_no_spectators: "Seuls les joueurs peuvent regarder cette table.", e_not_creator: "Seule la personne qui a créé la table peut changer cela.",
  e_name_taken: "Quelqu'un à cette table porte déjà ce nom.", e_bad_origin: "Cette page ne peut pas jouer sur ce serveur.",
  e_damaged: "La partie de cette table ne peut pas être ouverte.",
  // conseils et analyses (ronda.analysis : chaque option évaluée d'après ce que le joueur pouvait voir)
  hint: "Conseil", hintAsk: "Vos meilleures options maintenant, d'après ce que vous voyez (H)", hintThinking: "Réflexion…",
  hintTitle: "Vos meilleures options", hintGuesses: "{n} hypothèses sur les cartes cachées", hintExact: "les cartes restantes sont connues",
  hintNote: "Points attendus : ceux de votre camp moins ceux des autres sur cette donne et la suivante, d'après ce que vous voyez ({how}). Les conseils sont gardés avec la partie.",
  expectedPoints: "points attendus", optionDeclare: "Annoncer {kind}", optionChallenge: "Contester {name}",
  why_takes: "prend {cards}", why_raise: "relance la chaîne, prend {cards}", why_drops: "la pose sur la table",
  why_likelyCaida: "{name} a un {rank} dans {share} des hypothèses : caida probable",
  why_maybeCaida: "{name} a un {rank} dans {share} des hypothèses : caida possible",
  why_likelyMissa: "{name} vide probablement la table pour une missa ({share})",
  why_maybeMissa: "{name} peut vider la table pour une missa ({share})",
  why_truth: "ce que contient votre main", why_nothing: "votre main ne contient aucune combinaison",
  why_bluff: "un bluff : démasqué dès que vos cartes le montrent, {n} à chaque adversaire",
  why_hide: "cache votre {kind} : {n} à chaque adversaire quand ses cartes sont jouées",
  why_false: "une {kind} fausse (vous avez une {held}) : {n} à chaque adversaire en pénalités",
  why_provenFalse: "vos cartes prouvent que la {kind} est fausse : la pénalité tombe tout de suite",
  why_provenTrue: "vos cartes prouvent que la {kind} est vraie : la contestation échoue et perd la partie",
  why_challengeRisk: "la {kind} est vraie dans {share} des hypothèses : une contestation ratée perd la partie",
  why_wins: "gagne la partie dans {share} des hypothèses", why_loses: "la partie est perdue dans {share}",
  allowHints: "Conseils : les joueurs peuvent demander leurs meilleures options (gardés avec la partie)",
  grade_best: "Meilleur", grade_good: "Bon", grade_inaccuracy: "Imprécision", grade_mistake: "Erreur", grade_blunder: "Gaffe",
  lossOf: "{loss} points de moins que le meilleur", bestWas: "meilleur :", afterHint: "après un conseil",
  decisionLabel: "Manche {round}, donne {deal} : {did} — {grade}, {loss} points de moins que le meilleur",
  graphTitle: "Points attendus au fil de la partie",
  graphAhead: "Au-dessus de la ligne pointillée, {name} mène ; en dessous, {other}. ",
  legend: "Légende", legendTwo: "Points attendus de {name} (sous zéro : {other} mène)", legendMarks: "Une décision qui a coûté des points (un bouton vers ce coup)",
  graphSteps: "décisions, dans l'ordre joué",
  graphDescTwo: "Les points attendus de {name} après chaque décision, tels que le joueur qui décidait pouvait les voir ; au-dessus de la ligne du milieu, {name} mène. Les marques montrent les décisions qui ont coûté des points : chacune est un bouton vers ce coup.",
  graphDescAll: "Les points attendus de chaque joueur à ses propres décisions, tels qu'il pouvait les voir. Les marques montrent les décisions qui ont coûté des points : chacune est un bouton vers ce coup.",
  graphCaption: "Chaque décision est évaluée d'après ce que son joueur pouvait voir alors ({guesses} hypothèses sur les cartes cachées par décision).",
  seatSummary: "{n} décisions, perte moyenne {loss}", seatSummaryOne: "1 décision, perte {loss}",
  costlyTitle: "Les décisions qui ont coûté des points ({n})", noCostly: "Aucune décision n'a coûté de points notables.",
  analysisTitle: "Analyse", analyse: "Analyser la partie", analysing: "Analyse : {done} décisions sur {total}…",
  analysisBusy: "Le serveur analyse d'autres parties : nouvel essai dans un instant…",
  analysisNote: "Classes selon les points perdus face à la meilleure option : meilleur sous 0,2, bon sous 0,5, imprécision sous 1, erreur sous 2, gaffe à 2 ou plus.",
  e_hints_off: "Les conseils sont désactivés à cette table.", e_busy: "Le serveur est occupé : réessayez dans un instant.",
};

const ar = {
  close: "إغلاق", keysHint: "المفاتيح: 1–9 للعب ورقة، N/R/T للإعلان",
  term_caida: "كايدة", term_caida_means: "أخذ الورقة التي رماها اللاعب السابق للتو: +1 (ضربة، بواحد)",
  term_missa: "ميسا", term_missa_means: "إفراغ الطاولة بالأخذ: +1 (لحسة)",
  term_ronda: "روندا", term_ronda_means: "زوج في اليد الموزّعة: نقطة واحدة، يُعلن قبل اللعب",
  term_tringa: "ترينكا", term_tringa_means: "ثلاث أوراق من رقم واحد في اليد الموزّعة: 5 نقاط",
  title: "روندا", tagline: "لعبة الورق المغربية",
  pitch: "خذ الأوراق بالرقم وبالتسلسل الذي يليه، نادِ كايدة وميسا، أعلن روندا وترينكا — أو خادع بها. أول من يبلغ 41 يفوز. العب ضد الحاسوب أو ادعُ أصدقاءك.",
  howTo: "طريقة اللعب",
  howTo1: "العب ورقة واحدة في كل دور. الورقة المساوية لورقة على الطاولة تأخذها مع كل ما يليها في التسلسل 1 2 3 4 5 6 7 10 11 12.",
  howTo2: "كايدة (ضربة، بواحد): أخذ الورقة التي رماها اللاعب السابق للتو — +1.",
  howTo3: "ميسا (لحسة): إفراغ الطاولة — +1.",
  howTo4: "روندا (زوج) وترينكا (ثلاث من رقم واحد): تُعلن في بداية كل توزيعة، والأقوى يأخذ نقاط الجميع. الخداع مسموح، والتحدي يكشف اليد.",
  howTo5: "بعد لعب الرزمة كلها، كل ورقة فوق العشرين في المأخوذ نقطة (فوق 13 مع ثلاثة لاعبين). أول فريق يبلغ الهدف يفوز.",
  newTable: "طاولة جديدة", yourName: "اسمك", namePlaceholder: "مثلًا: أمينة", players: "اللاعبون", playersN: "{n} لاعبين",
  preset: "القواعد", target: "الهدف", targetN: "حتى {n}", otherSeats: "المقاعد الأخرى", seatN: "المقعد {n}",
  seatWho: "من يلعب المقعد {n}", levelOf: "مستوى المقعد {n}", opponent: "خصم", partner: "شريك",
  bot: "الحاسوب", human: "صديق (دعوة)", create: "أنشئ الطاولة", tables: "الطاولات",
  noTables: "لا توجد طاولات بعد — أنشئ الأولى.", open: "مفتوحة", inPlay: "جارية", finished: "منتهية",
  join: "انضم", resume: "تابع", watch: "شاهد", replay: "أعد المشاهدة", freeSeat: "مقعد شاغر",
  justNow: "الآن", minutesAgo: "منذ {n} د", hoursAgo: "منذ {n} س", daysAgo: "منذ {n} أيام",
  offline: "تعذّر الوصول إلى الخادم.",
  invitedBy: "{name} يدعوك إلى لعب روندا", takeSeat: "اجلس إلى الطاولة", justWatch: "شاهد فقط",
  level_easy: "سهل", level_medium: "متوسط", level_hard: "صعب", level_expert: "خبير", level_random: "عشوائي",
  botName: "الحاسوب {seat}", botLevel: "الحاسوب · {level}",
  preset_classic: "الكلاسيكية", preset_advanced: "المتقدمة (واجب الموزّع)", "preset_four-card": "يد من أربع أوراق",
  preset_cards: "الدفع بالأوراق", preset_short: "لعبة قصيرة", preset_heavy: "عقوبات ثقيلة", "preset_ace-high": "الواحد أقوى",
  variants: "تنويعات", variantsChanged: "{n} معدّلة", variantsHint: "انطلق من القواعد أعلاه وغيّر ما تلعبه طاولتك بشكل مختلف.",
  v_dealer_duty: "واجب الموزّع: على الموزّع أن يأخذ بآخر ورقة", v_ace_high: "الواحد أقوى: الواحد يصنع أقوى روندا وترينكا",
  v_four_card_hands: "أربع أوراق في اليد، ولا شيء يُقلب على الطاولة (لاعبان أو أربعة)",
  v_transfer_scoring: "الدفع بالأوراق: النقاط تُدفع بأوراق من المأخوذ، وعدد الأوراق وحده يسجّل",
  v_auto_declare: "الإعلانات تلقائية وصادقة للجميع",
  v_chain_points: "الورقة الثانية والثالثة والرابعة في السلسلة تربح", v_undeclared_ronda_penalty: "الروندا المخفية تكلّف",
  s_dealer_duty: "واجب الموزّع", s_ace_high: "الواحد أقوى", s_four_card_hands: "أربع أوراق في اليد", s_transfer_scoring: "الدفع بالأوراق",
  s_auto_declare: "إعلانات تلقائية", s_chain_points: "السلسلة {points}", s_undeclared_ronda_penalty: "الروندا المخفية بـ{n}",
  variantOff: "بدون {what}",
  presetHelp_classic: "اللعبة كما يلعبها أغلب الناس: ثلاث أوراق في اليد، أربع على الطاولة، الكايدة بنقطة، حتى 41.",
  presetHelp_advanced: "على الموزّع أن يأخذ بآخر ورقة: الري يربح 5، والورقة المرمية أو الواحد تعطي 5 لكل خصم.",
  "presetHelp_four-card": "لا أوراق على الطاولة؛ أربع أوراق في اليد، وزوجان يصنعان روندا مزدوجة (لاعبان أو أربعة).",
  presetHelp_cards: "تُدفع النقاط بأوراق من المأخوذ بدل العدّ؛ عدد الأوراق وحده يسجّل.",
  presetHelp_short: "لعبة أقصر، حتى 25.",
  presetHelp_heavy: "السلسلة تدفع 1 و6 و15، والروندا المخفية تكلّف 5 مثل الترينكا المخفية.",
  "presetHelp_ace-high": "زوج أو ثلاثة من الواحد أقوى روندا أو ترينكا، ثم 12 و11 و10 نزولًا إلى 2.",
  you: "أنت", us: "نحن", them: "هم", pair: "{a} و{b}", scores: "النقاط", pointsOf: "{name}: {points} نقطة",
  targetHint: "أول فريق يبلغ هذا العدد يفوز", roundDeal: "الجولة {round} · التوزيعة {deal}/{deals}",
  connected: "متصل", reconnecting: "إعادة الاتصال…", dealer: "الموزّع", dealerShort: "م",
  declaredHint: "إعلان هذه التوزيعة", exposedHint: "كان هذا الإعلان كاذبًا",
  pileN: "{n} مأخوذة", owesN: "عليه {n}", pileOf: "{name}: {n} ورقة مأخوذة", cardsInHand: "{n} أوراق في اليد",
  shownHand: "يد كُشفت بتحدٍّ", declaring: "يعلن", playing: "يلعب", away: "غائب", here: "متصل",
  botFor: "الحاسوب يلعب مؤقتًا", stalled: "لا يستطيع الخادم اللعب لهذا المقعد الآن: سيحاول من جديد", table: "الطاولة", stockN: "{n} في الرزمة", stockEmpty: "الرزمة فارغة",
  chainOpen: "سلسلة مفتوحة على {rank} ({side}):", lastDrop: "رُميت للتو:", emptyTable: "الطاولة فارغة",
  watchingNote: "أنت تشاهد هذه اللعبة.", yourHand: "يدك", notNow: "ليس الآن",
  autoDeclare: "أعلن دائمًا بصدق نيابةً عني",
  autoDeclareHint: "في بداية كل توزيعة يعلن الخادم ما في يدك بالضبط",
  gameOver: "انتهت اللعبة", showResult: "اعرض النتيجة", waitingForPlayers: "في انتظار اللاعبين…",
  declarePrompt: "أعلن ما في يدك:", honestHint: "ما في يدك فعلًا",
  bluffHint: "ليس ما في يدك: خداع (مسموح، لكن يمكن تحدّيه)",
  playPrompt: "دورك — العب ورقة", yourTurn: "دورك",
  declareTurnOf: "{name} يعلن…", turnOf: "{name} يلعب…",
  challenge: "تحدَّ {kind} {name}",
  challengeHint: "تُكشف اليد للجميع: إن كان الإعلان صادقًا فاز فريقه باللعبة فورًا",
  challengeAsk: "تتحدّى {kind} {name}؟",
  challengeRisk: "إن كانت عند {name} {kind} حقًّا خسرت اللعبة فورًا. وإن لم تكن، كُشفت {kind} كاذبة وتستمر اللعبة.",
  challengeSafe: "أوراقك أنت تُظهر أن هذا الإعلان لا يمكن أن يكون صادقًا.",
  challengeYes: "تحدَّ", cancel: "إلغاء",
  challengeProven: "{kind} {name} ثابتة بأوراقك: التحدي لن يجلب إلا خسارة اللعبة",
  offlinePrompt: "انقطع الاتصال — جارٍ إعادة الاتصال… دورك ينتظرك",
  listPublic: "اعرض الطاولة في القائمة: يمكن لأي أحد أن يجلس أو يشاهد",
  letWatch: "اسمح لمن لديه الرابط بالمشاهدة",
  inviteNote_loopback_only: "هذا الرابط لا يفتح إلا على هذا الحاسوب: الخادم يستمع على هذا الحاسوب وحده. للعب مع أصدقاء على أجهزة أخرى شغّله بالأمر {command} وأرسل إليهم عنوان حاسوبك في الشبكة.",
  inviteNote_loopback_address: "هذا الرابط يشير إلى هذا الحاسوب (localhost): لا يستطيع أصدقاؤك على أجهزة أخرى استعماله. افتح هذه الصفحة بعنوان حاسوبك في الشبكة، أو شغّل الخادم بالخيار {option}.",
  yourTables: "طاولاتك", publicTables: "طاولات مفتوحة",
  narration: "سير اللعب", inviteLink: "رابط الدعوة", copy: "انسخ الرابط", copied: "نُسخ!", copyByHand: "حدّد وانسخ",
  share: "شارك", shareText: "تعال العب روندا معي",
  inviteHelp: "أرسل هذا الرابط إلى أصدقائك: تبدأ اللعبة حين تُشغل كل المقاعد.",
  cardsTaken: "الأوراق المأخوذة", cardPoints: "نقاط الأوراق", thisRound: "هذه الجولة", total: "المجموع",
  roundOverN: "انتهت الجولة {n}", next: "تابع", weWin: "فزت!", weLose: "خسرت", winnerIs: "{name} يفوز!",
  wonByTarget: "أول من بلغ {target}: {name}.", wonByChallenge: "فاز {name} بتحدٍّ خاسر.",
  again: "العب مجددًا", waitingRematch: "في انتظار {names}…", watchReplay: "أعد مشاهدة اللعبة", lobby: "الرئيسية",
  newGame: "تبدأ لعبة جديدة",
  replayOf: "إعادة", step: "خطوة", stepOf: "الخطوة {n} من {total}", first: "الخطوة الأولى", prev: "رجوع", play: "تشغيل",
  pause: "إيقاف", forward: "تقدّم", last: "الخطوة الأخيرة", replayStart: "التوزيع",
  replayPlay: "{name} يلعب {card}", replayDeclare: "{name} يعلن {kind}", replayChallenge: "{name} يتحدى {target}",
  declare_none: "لا شيء", declare_ronda: "روندا", declare_tringa: "ترينكا", declare_double_ronda: "روندا مزدوجة",
  n_round: "الجولة {round} — يوزّع {name}", n_round_you: "الجولة {round} — أنت الموزّع",
  n_deal: "التوزيعة {deal}: {size} أوراق لكل لاعب، {stock} في الرزمة",
  n_deal_last: "التوزيعة الأخيرة: {size} أوراق لكل لاعب — لا أوراق بعدها",
  n_table: "على الطاولة {cards}",
  n_declare: "{name} أعلن {kind}", n_declare_you: "أعلنتَ {kind}",
  n_drop: "{name} يرمي {card}", n_drop_you: "ترمي {card}",
  n_capture: "{name} يلعب {card} ويأخذ {cards}", n_capture_you: "تلعب {card} وتأخذ {cards}",
  n_raise: "{name} يزيد بـ{card} ويأخذ {cards}", n_raise_you: "تزيد بـ{card} وتأخذ {cards}",
  n_score: "{side} {points} — {reason}",
  n_contest: "حُسم تنافس الإعلانات: {side} {points}",
  n_announce_scored: "{side} {points} للإعلان",
  n_taken_back: "{side} {points}: استُرجعت نقاط الإعلان",
  n_transfer: "{payer} ← {payee}: {cards} أوراق ({reason})", n_owed: "— {owed} دين باقٍ",
  n_exposed: "{kind} {name} كاذبة!", n_exposed_you: "{kind} الخاصة بك كاذبة!",
  n_challenge: "{name} يتحدى {target}: {hand} — {verdict}",
  n_challenge_you: "تتحدى {target}: {hand} — {verdict}",
  n_true: "الإعلان صادق", n_false: "الإعلان كاذب",
  n_table_taken: "آخر الأوراق لـ{side}: {cards}",
  n_round_end: "انتهت الجولة — المأخوذ: {piles}",
  n_game_over: "انتهت اللعبة — الفائز: {side}",
  n_game_over_challenge: "انتهت اللعبة بتحدٍّ خاسر — الفائز: {side}",
  shout_caida: "كايدة!", shout_missa: "ميسا!", shout_chain: "سلسلة!", shout_dealer_duty: "واجب الموزّع",
  shout_cards: "الأوراق", shout_false: "كاذبة!",
  r_caida: "كايدة", r_chain: "سلسلة", r_missa: "ميسا", r_announcement: "الإعلانات",
  r_false_announcement: "إعلان كاذب", r_undeclared: "تركيبة غير معلنة", r_cards: "عدّ الأوراق",
  r_dealer_duty: "واجب الموزّع", r_debt: "دين",
  cardLabel: "{rank} {suit}",
  e_generic: "رفض الخادم: {message}", e_offline: "غير متصل — نحاول مجددًا…",
  e_no_table: "لا توجد طاولة بهذا الرابط.", e_bad_token: "لم يعد هذا المقعد محفوظًا في هذا المتصفح.",
  e_not_your_turn: "انتظر دورك.", e_illegal: "هذه الحركة غير مسموحة الآن.", e_game_over: "انتهت اللعبة.",
  e_spectator: "أنت تشاهد: اللاعبون وحدهم يلعبون.", e_flood: "تمهّل قليلًا.",
  e_seat_taken: "شُغل هذا المقعد للتو.", e_not_finished: "تُعاد مشاهدة اللعبة بعد انتهائها.",
  e_bad_request: "{message}",
  e_store_unavailable: "تعذّر حفظ اللعبة الآن: نُرسل حركتك من جديد…",
  e_pending: "ما زالت الحركة الأخيرة قيد الحفظ: نُرسل حركتك من جديد بعد لحظة…",
  e_stale: "تقدّمت الطاولة: لم تُؤخذ حركتك. هذه الطاولة كما هي الآن.",
  e_rate_limited: "بسرعة كبيرة: انتظر دقيقة ثم حاول مجددًا.", e_too_many_tables: "لديك طاولات كثيرة جارية: أنهِ واحدة أو غادرها أولًا.",
  e_server_full: "الخادم ممتلئ الآن: حاول لاحقًا.", e_closed: "أُغلقت هذه الطاولة: لم يأتِ أحد للعب.",
  e_too_many_connections: "صفحات كثيرة مفتوحة من عنوانك: أغلق بعضها ثم أعد تحميل هذه الصفحة.",
  e_no_spectators: "لا يشاهد هذه الطاولة إلا لاعبوها.", e_not_creator: "وحده من أنشأ الطاولة يستطيع تغيير ذلك.",
  e_name_taken: "أحد الجالسين إلى هذه الطاولة يحمل هذا الاسم.", e_bad_origin: "لا يمكن لهذه الصفحة أن تلعب على ذلك الخادم.",
  e_damaged: "تعذّر فتح لعبة هذه الطاولة.",
  // النصائح والتحليل (كل خيار مُقيَّم حسب ما كان يراه اللاعب)
  hint: "نصيحة", hintAsk: "أفضل خياراتك الآن، حسب ما تراه (H)", hintThinking: "أفكّر…",
  hintTitle: "أفضل خياراتك", hintGuesses: "{n} تخمينًا للأوراق المخفية", hintExact: "الأوراق المتبقية معروفة",
  hintNote: "النقاط المتوقعة: نقاط فريقك ناقص نقاط الآخرين في هذه التوزيعة والتي تليها، حسب ما تراه ({how}). تُحفظ النصائح مع اللعبة.",
  expectedPoints: "النقاط المتوقعة", optionDeclare: "أعلن {kind}", optionChallenge: "تحدَّ {name}",
  why_takes: "تأخذ {cards}", why_raise: "تزيد السلسلة وتأخذ {cards}", why_drops: "ترميها على الطاولة",
  why_likelyCaida: "لدى {name} ورقة {rank} في {share} من التخمينات: كايدة مرجّحة",
  why_maybeCaida: "لدى {name} ورقة {rank} في {share} من التخمينات: كايدة ممكنة",
  why_likelyMissa: "يرجَّح أن يُفرغ {name} الطاولة لميسا ({share})",
  why_maybeMissa: "قد يُفرغ {name} الطاولة لميسا ({share})",
  why_truth: "ما في يدك فعلًا", why_nothing: "لا تركيبة في يدك",
  why_bluff: "خدعة: تنكشف حين تُظهرها أوراقك، {n} لكل خصم",
  why_hide: "تُخفي {kind} التي في يدك: {n} لكل خصم حين تُلعب أوراقها",
  why_false: "{kind} كاذبة (في يدك {held}): {n} لكل خصم عقوبةً",
  why_provenFalse: "أوراقك تُثبت أن {kind} كاذبة: تأتي العقوبة فورًا",
  why_provenTrue: "أوراقك تُثبت أن {kind} صادقة: يفشل التحدي وتخسر اللعبة",
  why_challengeRisk: "{kind} صادقة في {share} من التخمينات: التحدي الفاشل يخسر اللعبة",
  why_wins: "تفوز باللعبة في {share} من التخمينات", why_loses: "تُخسر اللعبة في {share}",
  allowHints: "النصائح: يمكن للاعبين طلب أفضل خياراتهم (تُحفظ مع اللعبة)",
  grade_best: "الأفضل", grade_good: "جيد", grade_inaccuracy: "عدم دقة", grade_mistake: "خطأ", grade_blunder: "خطأ فادح",
  lossOf: "أقل من الأفضل بـ{loss} نقطة", bestWas: "الأفضل:", afterHint: "بعد نصيحة",
  decisionLabel: "الجولة {round}، التوزيعة {deal}: {did} — {grade}، أقل من الأفضل بـ{loss} نقطة",
  graphTitle: "النقاط المتوقعة على مدار اللعبة",
  graphAhead: "فوق الخط المتقطّع يتقدّم {name}، وتحته {other}. ",
  legend: "مفتاح الرسم", legendTwo: "النقاط المتوقعة لـ{name} (تحت الصفر يتقدّم {other})", legendMarks: "قرار كلّف نقاطًا (زرّ إلى خطوته)",
  graphSteps: "القرارات بترتيب لعبها",
  graphDescTwo: "النقاط المتوقعة لـ{name} بعد كل قرار، كما كان يراها اللاعب صاحب القرار؛ فوق الخط الأوسط يتقدّم {name}. العلامات تُبيّن القرارات التي كلّفت نقاطًا: كلٌّ منها زرٌّ إلى تلك الخطوة.",
  graphDescAll: "النقاط المتوقعة لكل لاعب عند قراراته، كما كان يراها. العلامات تُبيّن القرارات التي كلّفت نقاطًا: كلٌّ منها زرٌّ إلى تلك الخطوة.",
  graphCaption: "كل قرار مُقيَّم حسب ما كان يراه لاعبه حينها ({guesses} تخمينًا للأوراق المخفية لكل قرار).",
  seatSummary: "{n} قرارًا، متوسط الخسارة {loss}", seatSummaryOne: "قرار واحد، الخسارة {loss}",
  costlyTitle: "القرارات التي كلّفت نقاطًا ({n})", noCostly: "لم يكلّف أي قرار نقاطًا تُذكر.",
  analysisTitle: "التحليل", analyse: "حلّل اللعبة", analysing: "جارٍ التحليل: {done} من {total} قرارًا…",
  analysisBusy: "الخادم يحلّل ألعابًا أخرى: إعادة المحاولة بعد قليل…",
  analysisNote: "الفئات حسب النقاط المفقودة مقارنةً بأفضل خيار: الأفضل دون 0.2، جيد دون 0.5، عدم دقة دون 1، خطأ دون 2، خطأ فادح من 2 فأكثر.",
  e_hints_off: "النصائح معطّلة على هذه الطاولة.", e_busy: "الخادم مشغول: حاول بعد لحظة.",
};

const STRINGS = { en, fr, ar };

const RANK_NAMES = {
  en: { 10: "Sota", 11: "Caballo", 12: "Rey" },
  fr: { 10: "Valet", 11: "Cavalier", 12: "Roi" },
  ar: { 10: "صوطا", 11: "عود", 12: "ري" },
};

const SUIT_NAMES = {
  en: { o: "oros", c: "copas", e: "espadas", b: "bastos" },
  fr: { o: "deniers", c: "coupes", e: "épées", b: "bâtons" },
  ar: { o: "ذهب", c: "كوبا", e: "شبادة", b: "خال" },
};

export const LANGUAGES = { en: "English", fr: "Français", ar: "العربية" };

const KEY = "ronda.lang";
let current = "en";

/** The language to start in: the one chosen before on this browser, else the browser's, else English. */
export function initialLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  if (saved && saved in STRINGS) return saved;
  for (const wanted of navigator.languages?.length ? navigator.languages : [navigator.language || "en"]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (code in STRINGS) return code;
  }
  return "en";
}

/** Switch the page's language (and remember it); Arabic turns the page right to left. */
export function setLanguage(lang) {
  current = lang in STRINGS ? lang : "en";
  try {
    localStorage.setItem(KEY, current);
  } catch {
    // private browsing: the choice lasts for this page only
  }
  document.documentElement.lang = current;
  document.documentElement.dir = current === "ar" ? "rtl" : "ltr";
}

export function language() {
  return current;
}

/** Whether the current language has its own string for `key`. */
export function has(key) {
  return key in STRINGS[current];
}

/** A string of the page in the current language (English when missing), with {placeholders} filled. */
export function t(key, params = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

export function rankName(rank) {
  return RANK_NAMES[current][rank] ?? String(rank);
}

export function suitName(suit) {
  return SUIT_NAMES[current][suit];
}

/** A declaration kind in the current language, as on its button: "Ronda", "ترينكا". */
export function kindName(kind) {
  return t(`declare_${kind}`);
}

/** A declaration kind inside a sentence: "Bot 2 declared ronda". */
export function kindWord(kind) {
  return has(`word_${kind}`) ? t(`word_${kind}`) : kindName(kind);
}
