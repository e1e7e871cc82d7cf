// English, French and Arabic, with the game's own terms in each.
//
// The terms follow the source texts (../shared/seeds): "ronda" and "tringa"
// are the same words in every language; caida is "caida" in English, "taper"
// or "caida" in French, and in Moroccan Arabic "ضربة" (darba) or "بواحد"
// (b'wahed, "with one": the call "one"); missa is "missa"/"mesa", in Arabic
// "لحسة" (lahsa). Rank names are the Spanish figures players use (Sota,
// Caballo, Rey); French players say Valet, Cavalier, Roi; in Darija the
// figures are "ضامة" (dama, the Sota), "عود" (aoud, the horse) and "ملك"
// (malik, the king), and ronda/tringa are written as spoken: روندا, ترينكا.

const STRINGS = {
  en: {
    title: "Ronda", tagline: "The Moroccan fishing card game",
    newTable: "New table", players: "Players", you: "You", yourName: "Your name", preset: "Rules", target: "Target",
    seat: "Seat", human: "Friend (invite)", bot: "Bot", level: "Level", create: "Create table",
    tables: "Tables", noTables: "No tables yet — create one.", open: "Open", playing: "Playing", finished: "Finished",
    waiting: "Waiting for players", join: "Join", watch: "Watch", replay: "Replay", takeSeat: "Take a seat",
    invite: "Invite friends with this link", copy: "Copy", copied: "Copied",
    table: "Table", stock: "Stock", pile: "Pile", hand: "Hand", scores: "Scores", dealer: "Dealer",
    yourTurn: "Your turn", turnOf: "{name} to play", declareTurnOf: "{name} to declare",
    declarePrompt: "Declare your hand", declare_none: "Nothing", declare_ronda: "Ronda", declare_tringa: "Tringa",
    declare_double_ronda: "Double ronda", autoDeclare: "Always declare truthfully for me",
    challenge: "Challenge {name}", partner: "partner", disconnected: "away", botFor: "bot playing",
    declared: "declared {kind}", notDeclared: "—", chain: "Open chain on {rank}", lastDrop: "Just dropped: {card}",
    roundOver: "Round over", gameOver: "Game over", winnerIs: "{name} wins!", weWin: "You win!", weLose: "You lose.",
    cardsTaken: "cards taken", total: "total", next: "Continue", again: "Play again", lobby: "Lobby",
    narration: "Play by play", connected: "Connected", reconnecting: "Reconnecting…",
    step: "Step", prev: "Back", forward: "Forward", us: "Us", them: "Them",
    // narration
    n_round: "Round {round} — {name} deals", n_round_you: "Round {round} — you deal",
    n_drop_you: "You drop {card}", n_capture_you: "You play {card}, take {cards}", n_raise_you: "You raise with {card}, take {cards}",
    n_declare_you: "You declared {kind}", n_challenge_you: "You challenge {target}: {hand} — {verdict}",
    round: "Round", deal: "Deal", n_deal: "Deal {deal}: {size} cards each, {stock} left in the stock",
    n_table: "On the table: {cards}", n_declare: "{name} declared {kind}", n_drop: "{name} drops {card}",
    n_capture: "{name} plays {card}, takes {cards}", n_raise: "{name} raises with {card}, takes {cards}",
    n_score: "{side} +{points} ({reason})", n_loss: "{side} {points} ({reason})",
    n_exposed: "{name}'s {kind} is false!", n_challenge: "{name} challenges {target}: {hand} — {verdict}",
    n_true: "the declaration was true", n_false: "the declaration was false",
    n_table_taken: "Last cards to {side}: {cards}", n_round_end: "Round over: piles {piles}",
    n_game_over: "Game over — {side} win", n_transfer: "{payer} pays {cards} cards to {payee}",
    r_caida: "caida", r_chain: "chain", r_missa: "missa", r_announcement: "announcements",
    r_false_announcement: "false announcement", r_undeclared: "undeclared combination", r_cards: "cards",
    r_dealer_duty: "dealer duty", r_debt: "debt",
    e_generic: "The server refused that: {message}",
  },
  fr: {
    title: "Ronda", tagline: "Le jeu de cartes marocain",
    newTable: "Nouvelle table", players: "Joueurs", you: "Vous", yourName: "Votre nom", preset: "Règles", target: "Objectif",
    seat: "Place", human: "Ami (invitation)", bot: "Robot", level: "Niveau", create: "Créer la table",
    tables: "Tables", noTables: "Aucune table — créez-en une.", open: "Ouverte", playing: "En cours", finished: "Terminée",
    waiting: "En attente de joueurs", join: "Rejoindre", watch: "Regarder", replay: "Revoir", takeSeat: "Prendre une place",
    invite: "Invitez vos amis avec ce lien", copy: "Copier", copied: "Copié",
    table: "Table", stock: "Talon", pile: "Levées", hand: "Main", scores: "Scores", dealer: "Donneur",
    yourTurn: "À vous de jouer", turnOf: "{name} joue", declareTurnOf: "{name} annonce",
    declarePrompt: "Annoncez votre main", declare_none: "Rien", declare_ronda: "Ronda", declare_tringa: "Tringa",
    declare_double_ronda: "Double ronda", autoDeclare: "Toujours annoncer honnêtement pour moi",
    challenge: "Contester {name}", partner: "partenaire", disconnected: "absent", botFor: "robot en jeu",
    declared: "a annoncé {kind}", notDeclared: "—", chain: "Chaîne ouverte sur {rank}", lastDrop: "Vient d'être posée : {card}",
    roundOver: "Fin de la manche", gameOver: "Fin de la partie", winnerIs: "{name} gagne !", weWin: "Vous gagnez !", weLose: "Vous perdez.",
    cardsTaken: "cartes prises", total: "total", next: "Continuer", again: "Rejouer", lobby: "Accueil",
    narration: "Déroulement", connected: "Connecté", reconnecting: "Reconnexion…",
    step: "Coup", prev: "Retour", forward: "Suivant", us: "Nous", them: "Eux",
    n_round: "Manche {round} — {name} distribue", n_round_you: "Manche {round} — vous distribuez",
    n_drop_you: "Vous posez {card}", n_capture_you: "Vous jouez {card}, prenez {cards}", n_raise_you: "Vous surenchérissez avec {card}, prenez {cards}",
    n_declare_you: "Vous annoncez {kind}", n_challenge_you: "Vous contestez {target} : {hand} — {verdict}",
    round: "Manche", deal: "Donne", n_deal: "Donne {deal} : {size} cartes chacun, {stock} au talon",
    n_table: "Sur la table : {cards}", n_declare: "{name} annonce {kind}", n_drop: "{name} pose {card}",
    n_capture: "{name} joue {card}, prend {cards}", n_raise: "{name} surenchérit avec {card}, prend {cards}",
    n_score: "{side} +{points} ({reason})", n_loss: "{side} {points} ({reason})",
    n_exposed: "La {kind} de {name} est fausse !", n_challenge: "{name} conteste {target} : {hand} — {verdict}",
    n_true: "l'annonce était vraie", n_false: "l'annonce était fausse",
    n_table_taken: "Dernières cartes pour {side} : {cards}", n_round_end: "Fin de manche : levées {piles}",
    n_game_over: "Fin de la partie — {side} gagne", n_transfer: "{payer} donne {cards} cartes à {payee}",
    r_caida: "caida (taper)", r_chain: "chaîne", r_missa: "missa", r_announcement: "annonces",
    r_false_announcement: "fausse annonce", r_undeclared: "combinaison non annoncée", r_cards: "cartes",
    r_dealer_duty: "devoir du donneur", r_debt: "dette",
    e_generic: "Le serveur a refusé : {message}",
  },
  ar: {
    title: "روندا", tagline: "لعبة الورق المغربية",
    newTable: "طاولة جديدة", players: "اللاعبون", you: "أنت", yourName: "اسمك", preset: "القواعد", target: "الهدف",
    seat: "مقعد", human: "صديق (دعوة)", bot: "روبوت", level: "المستوى", create: "أنشئ الطاولة",
    tables: "الطاولات", noTables: "لا توجد طاولات بعد — أنشئ واحدة.", open: "مفتوحة", playing: "جارية", finished: "منتهية",
    waiting: "في انتظار اللاعبين", join: "انضم", watch: "شاهد", replay: "أعد المشاهدة", takeSeat: "خذ مقعدًا",
    invite: "ادعُ أصدقاءك بهذا الرابط", copy: "انسخ", copied: "تم النسخ",
    table: "الطاولة", stock: "الكومة", pile: "المأخوذ", hand: "اليد", scores: "النقاط", dealer: "الموزّع",
    yourTurn: "دورك", turnOf: "دور {name}", declareTurnOf: "{name} يعلن",
    declarePrompt: "أعلن ما في يدك", declare_none: "لا شيء", declare_ronda: "روندا", declare_tringa: "ترينكا",
    declare_double_ronda: "روندا مزدوجة", autoDeclare: "أعلن دائمًا بصدق نيابةً عني",
    challenge: "تحدَّ {name}", partner: "شريك", disconnected: "غائب", botFor: "روبوت يلعب",
    declared: "أعلن {kind}", notDeclared: "—", chain: "سلسلة مفتوحة على {rank}", lastDrop: "رُميت الآن: {card}",
    roundOver: "انتهت الجولة", gameOver: "انتهت اللعبة", winnerIs: "{name} يفوز!", weWin: "لقد فزت!", weLose: "لقد خسرت.",
    cardsTaken: "أوراق مأخوذة", total: "المجموع", next: "تابع", again: "العب مجددًا", lobby: "الرئيسية",
    narration: "سير اللعب", connected: "متصل", reconnecting: "إعادة الاتصال…",
    step: "خطوة", prev: "رجوع", forward: "التالي", us: "نحن", them: "هم",
    n_round: "الجولة {round} — {name} يوزّع", n_round_you: "الجولة {round} — أنت توزّع",
    n_drop_you: "ترمي {card}", n_capture_you: "تلعب {card} وتأخذ {cards}", n_raise_you: "تزيد بـ {card} وتأخذ {cards}",
    n_declare_you: "أعلنت {kind}", n_challenge_you: "تتحدى {target}: {hand} — {verdict}",
    round: "الجولة", deal: "التوزيعة", n_deal: "التوزيعة {deal}: {size} أوراق لكل لاعب، {stock} في الكومة",
    n_table: "على الطاولة: {cards}", n_declare: "{name} أعلن {kind}", n_drop: "{name} يرمي {card}",
    n_capture: "{name} يلعب {card} ويأخذ {cards}", n_raise: "{name} يزيد بـ {card} ويأخذ {cards}",
    n_score: "{side} +{points} ({reason})", n_loss: "{side} {points} ({reason})",
    n_exposed: "{kind} {name} كاذبة!", n_challenge: "{name} يتحدى {target}: {hand} — {verdict}",
    n_true: "الإعلان صحيح", n_false: "الإعلان كاذب",
    n_table_taken: "{side} يأخذ آخر الأوراق: {cards}", n_round_end: "انتهت الجولة: المأخوذ {piles}",
    n_game_over: "انتهت اللعبة — {side} يفوز", n_transfer: "{payer} يعطي {cards} أوراق إلى {payee}",
    r_caida: "ضربة (بواحد)", r_chain: "سلسلة", r_missa: "لحسة", r_announcement: "الإعلانات",
    r_false_announcement: "إعلان كاذب", r_undeclared: "تركيبة غير معلنة", r_cards: "الأوراق",
    r_dealer_duty: "واجب الموزّع", r_debt: "دين",
    e_generic: "رفض الخادم: {message}",
  },
};

const RANK_NAMES = {
  en: { 10: "Sota", 11: "Caballo", 12: "Rey" },
  fr: { 10: "Valet", 11: "Cavalier", 12: "Roi" },
  ar: { 10: "ضامة", 11: "عود", 12: "ملك" },
};

const SUIT_NAMES = {
  en: { o: "oros", c: "copas", e: "espadas", b: "bastos" },
  fr: { o: "deniers", c: "coupes", e: "épées", b: "bâtons" },
  ar: { o: "الذهب", c: "الكؤوس", e: "السيوف", b: "العصي" },
};

export const LANGUAGES = { en: "English", fr: "Français", ar: "العربية" };

let current = "en";

/** Pick the language: the one remembered, else the browser's, else English. */
export function initialLanguage() {
  const saved = localStorage.getItem("ronda.lang");
  if (saved && saved in STRINGS) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = String(wanted).slice(0, 2).toLowerCase();
    if (code in STRINGS) return code;
  }
  return "en";
}

/** Switch language; Arabic turns the whole page right-to-left. */
export function setLanguage(lang) {
  current = lang in STRINGS ? lang : "en";
  localStorage.setItem("ronda.lang", current);
  document.documentElement.lang = current;
  document.documentElement.dir = current === "ar" ? "rtl" : "ltr";
}

export function language() {
  return current;
}

/** Whether the current language has its own string for ``key`` (narration picks "you" forms this way). */
export function has(key) {
  return key in STRINGS[current];
}

/** A string of the page in the current language, with {placeholders} filled. */
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

/** A declaration kind in the current language: "ronda", "ترينكا". */
export function kindName(kind) {
  return t(`declare_${kind}`);
}
