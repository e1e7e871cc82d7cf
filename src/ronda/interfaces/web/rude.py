"""Rude names: the words no player's name may hold on this server, and how a name is read for them.

A name is kept for good and shown to everyone on the leaderboard, beside the
tables of a public server: an insult or a slur there is refused when the name
is typed (400 ``bad_request``, ``reason`` ``name_rude``, :data:`.forms.NAME_REASONS`).
The words are a short list shipped with the server (``rude_words.txt``:
English, French, Arabic and Moroccan Arabic insults and slurs, not ordinary
words) and the operator's own file (``ronda serve --rude-words FILE``, same
format: more words, and ``!word`` to take one of the shipped list back).

Why a list of our own and not a library: PyPI's word filters were looked at
for English, French and Arabic together. The two kept up that cover all
three refuse ordinary words and names: ``glin-profanity``'s lists hold French
"veuve" (widow) and "drague", Arabic "جاد" (Jad, a first name), "حمام"
(Hammam), "لبن" (milk) and "تعبان" (tired); ``safetext``'s hold "gosse",
"moule" and single Arabic letters ("ر", "ض"), spell leetspeak out by hand
("3mm3rd3ur") and come with ``requests`` for an online API.
``better-profanity`` is English only, ``profanity-check`` an English model.
Refusing "Jad" or "Hammam" on a Moroccan card game's server is worse than
missing a rare insult, and a list of a hundred words read the way
:func:`.forms.name_keys` already reads names for look-alikes catches the
tricks those lists spell out.

How a name is read (:func:`readings`): compatibility forms first (NFKC: an
Arabic letter in a presentation form, \ufe94, is the letter \u0629; a full-width F
is F), then the look-alike keys of :func:`.forms.name_keys` (case, UTS #39
confusables: a Cyrillic \u043e reads as the Latin letter), the Latin letters
neither of those folds read as the letter they are drawn as (small capitals
\u1d00 \u0299 \ua730 \u029c, phonetic letters with a hook or a curl: :data:`_LATIN`),
without accents or other marks, the Arabic letters written two ways folded to one
(ta marbuta and ha, alif maqsura and ya, the hamzas on alif), digits of any script
read as leetspeak ("5al0pe") and as Arabizi ("9a7ba" or "\u0669a\u0667ba" is قحبة),
``@ $ !`` read as letters or as punctuation, and 1 I l and | as one letter (the
confusable skeleton makes them one; it writes m as rn, read back as m so that
"Mmerde" is a doubled letter too). A letter written twice or more reads as
written once ("Fuuck", "Saloope", "niggger"), except where the listed word itself
has it twice: "nigger" needs its two g ("Niger" is a country), "faggot" its two g
("fagot", French for a bundle of sticks), "connard" its two n. The other way round,
a word written with a double letter that reads as a listed one is refused: of
the 550,000 words of Debian's English and French word lists and Faker's names,
that is "Putte" (a Swedish nickname) and a few vulgar French verb forms, and of
places "Twatt" (a hamlet of Orkney). An entry is read
the same way, so whatever folding an entry has, a name has it too. In Arabic,
where a particle or a pronoun is written joined to its word, the vocative يا
before it and the pronoun ك after it (a ta marbuta then written ت) are read off
too ("ياقحبة", "قحبتك", "زبك").

The Scunthorpe problem: a word is matched as a *whole word* of the name, never
as a part of a longer word. A list of insults holds short words that live
inside ordinary names and words — "cunt" in Scunthorpe, "ass" in Cassandra,
"salope" in salopette, "shit" in Shital, "pute" in Putellas, "زب" in زبيدة
(Zubaida), "con" in Constance — and substring matching refuses all of them,
while the person can always write the insult as its own word. A name's words
are split on spaces, punctuation and symbols, and a listed word is refused:

- as one of the name's words ("Amina Salope", "connard_du_93");
- as several of them in a row for a listed phrase ("fils de pute"), or one of
  them for the phrase run together ("Amina filsdepute");
- spelled out, one letter a word ("s a l o p e", "F.U.C.K", "Amina f u c k");
- as the whole name run together, spaces and punctuation dropped ("fu ck",
  "sa-lope", "sh it"), but for a lone letter at its end, which is read as an
  initial and never joined to the word before it: "Chin K" and "Shi T." are a
  name and an initial (what the 409 ``name_taken`` advice tells people to
  add), not "chink" and "shit". The price, said plainly: an insult with only its
  last letter set apart ("fuc k") is not refused, and two names that spell one
  exactly ("Tran Ny") still are;
- with anything after it, only for an entry ending in ``*`` ("fuck*"), kept to
  stems no name or ordinary word begins with ("encule*", not "encul*", which
  refused "Enculturation"). Compounds whose stem is also a name's beginning
  ("dickhead") are listed whole.

What it does not catch, said plainly: an insult glued to another word without
a ``*`` entry ("shitface"), an insult split in two beside another word
("Amina fu ck": two words of a longer name run together would refuse ordinary
pairs of names), spellings the folding does not make alike ("phuck", "fvck",
"f*ck"), and other languages. A name kept before a word was listed stays.

What a check costs does not depend on the list's length: the entries are looked
up by their letters (dicts keyed by the words, and by each beginning of the last
word for stems), never scanned. ``python benchmarks/rude_names.py`` times
:meth:`RudeWords.holds`; on this project's 2-core machine, 0.05 to 0.2 ms for an
ordinary name and 2 ms for the worst one found (24 \ufdfa, four words each once
folded), with the shipped list and with an operator's file of 20,000 words
(5,000 of them stems) alike; when the list was scanned, that file made the
worst name take 0.3 s of the event loop (0.5 s in an audit).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .forms import HttpError, name_keys

SHIPPED = Path(__file__).with_name("rude_words.txt")
"""The list every server refuses, unless its operator takes a word back (``!word``)."""

_ARABIC = str.maketrans({"\u0629": "\u0647", "\u0649": "\u064a"} | dict.fromkeys("\u0623\u0625\u0622\u0671", "\u0627"))
"""Letters Arabic is written with either way, folded to one after NFKC (which makes a presentation form, "\ufe94",
the letter "\u0629" first): ta marbuta and ha ("قحبة", "قحب\u0647"), alif maqsura and ya, alif with or without a
hamza or a madda."""
_LOOKALIKE_NAME = re.compile(
    r"(?:LATIN|MODIFIER) (?:SMALL |CAPITAL )?LETTER (?:SMALL CAPITAL |SMALL |CAPITAL |DOTLESS |SCRIPT |BARRED )?"
    r"([A-Z]|AE|OE|OU|UE)(?: WITH .+| BAR)?"
)
_LATIN_BLOCKS = (
    (0x0180, 0x0300),  # Latin Extended-B, IPA Extensions, Spacing Modifier Letters
    (0x1D00, 0x1DC0),  # Phonetic Extensions and their Supplement
    (0x2C60, 0x2C80),  # Latin Extended-C
    (0xA720, 0xA800),  # Latin Extended-D
    (0xAB30, 0xAB70),  # Latin Extended-E
    (0x10780, 0x107C0),  # Latin Extended-F
    (0x1DF00, 0x1E000),  # Latin Extended-G
)


def _latin_lookalikes() -> dict[int, str]:
    """Latin letters drawn as a plain one that neither NFKC nor the UTS #39 skeleton folds, read from their Unicode
    names: "LATIN LETTER SMALL CAPITAL F" (\ua730) is f, "LATIN SMALL LETTER H WITH HOOK" (\u0266) is h. Turned,
    reversed, sideways and inverted letters are left alone: they are drawn as no plain letter (their names say so,
    and the pattern wants the letter right after LETTER)."""
    table: dict[int, str] = {}
    for start, end in _LATIN_BLOCKS:
        for code in range(start, end):
            found = _LOOKALIKE_NAME.fullmatch(unicodedata.name(chr(code), ""))
            if found:
                table[code] = found[1].lower()
    return table


_LATIN = _latin_lookalikes()
"""The small capitals and the phonetic letters a name could be written in to look like plain Latin
("\ua730\u1d1c\u1d04\u1d0b" is "fuck" on the page): :func:`_latin_lookalikes`."""
_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"})
"""Digits read as the Latin letters they stand for in leetspeak ("5al0pe"); 1 is already l in a key."""
_ARABIZI = str.maketrans({"2": "a", "3": "a", "5": "kh", "7": "h", "9": "q"})
"""Digits read as the Arabic letters they stand for in Arabizi, written as Latin letters ("9a7ba": qahba)."""
_SYMBOLS = str.maketrans({"@": "a", "$": "s", "!": "i", "€": "e", "+": "t", "¡": "i"})
"""Symbols written for letters ("b!tch", "$alope"): read both as letters and as punctuation ("Amina!")."""
_WORD = re.compile(r"[^\W_]+")
_ARABIC_WORD = re.compile(r"[\u0600-\u06ff]+")
_VOCATIVE = "\u064a\u0627"
"""يا, "O ...", written joined to the word it calls ("ياقحبة")."""
_YOUR = "\u0643"
"""ك, "your", written joined to its word ("زبك"; a ta marbuta before it is written ت: "قحبتك")."""


def _unmarked(text: str) -> str:
    """``text`` without combining marks: accents ("enculé"), Arabic short vowels ("قَحْبَة")."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(ch for ch in decomposed if unicodedata.category(ch) not in ("Mn", "Me"))
    )


def _ascii_digits(text: str) -> str:
    """``text`` with the digits of every script written as ASCII ones ("\u0669a\u0667ba" is "9a7ba"): a look-alike key
    reads the Arabic-Indic seven as a v and the five as an o, so the digits are read both ways."""
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() and not ch.isascii() else ch for ch in text)


def _unaffixed(text: str) -> str:
    """``text`` with the vocative يا and the pronoun ك read off the Arabic words they are joined to: "ياقحبه" →
    "قحبه", "قحبتك" → "قحبه", "زبك" → "زب". Only a word of three letters or more loses one, so a listed word is
    never read off to nothing; read before the look-alike keys, which make alif an l and ha an o."""

    def unaffixed(found: re.Match[str]) -> str:
        word = found[0]
        if word.startswith(_VOCATIVE) and len(word) > 3:
            word = word[2:]
        if word.endswith(_YOUR) and len(word) > 2:
            word = word[:-1]
            if word.endswith("\u062a"):
                word = word[:-1] + "\u0647"
        return word

    return _ARABIC_WORD.sub(unaffixed, text)


def readings(text: str) -> set[str]:
    """Every way ``text`` may be read, folded (the module's docstring says how): each one is split into words.

    >>> sorted(readings("5al0pe"))
    ['khaiope', 'saiope']
    >>> "qahba" in readings("9a7ba"), "saiope" in readings("\uff33@\uff2c\uff2f\uff30\uff25")
    (True, True)
    >>> readings("قَحْبَة") == readings("قحب\u0647") == readings("\ufed7\ufea4\ufe92\ufe94")  # vowels, ta marbuta
    True
    >>> "fuck" in readings("\ua730\u1d1c\u1d04\u1d0b"), "qahba" in readings("\u0669a\u0667ba")  # small capitals, digits
    (True, True)
    """
    written = unicodedata.normalize("NFKC", text).translate(_LATIN).translate(_ARABIC)
    keys = {
        _unmarked(key).translate(_LATIN).translate(_ARABIC).replace("rn", "m")
        for source in {written, _ascii_digits(written), _unaffixed(written)}
        for key in name_keys(source)
    }
    return {
        (key.translate(digits).translate(_SYMBOLS) if symbols else key.translate(digits)).replace("l", "i")
        for key in keys
        for digits in (_LEET, _ARABIZI)
        for symbols in (True, False)
    }


def _runs(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` with each run of one letter written once, and how often each was written: 1, or 2 for twice or more.

    >>> _runs("fuuuck"), _runs("nigger")
    (('fuck', (1, 2, 1, 1)), ('niger', (1, 1, 2, 1, 1)))
    """
    letters: list[str] = []
    counts: list[int] = []
    for ch in text:
        if letters and letters[-1] == ch:
            counts[-1] = 2
        else:
            letters.append(ch)
            counts.append(1)
    return "".join(letters), tuple(counts)


def _spelled(words: list[str]) -> list[str]:
    """``words`` with each run of single letters joined into one word: "amina f u c k" → "amina", "fuck"."""
    joined: list[str] = []
    run = ""
    for word in [*words, ""]:
        if len(word) == 1:
            run += word
            continue
        if run:
            joined.append(run)
            run = ""
        if word:
            joined.append(word)
    return joined


def _fits(counts: Sequence[int], needed: Iterable[tuple[int, ...]]) -> bool:
    """Whether letters written ``counts`` times (:func:`_runs`) are written as often as one entry of ``needed`` needs:
    a letter the entry has twice must be there twice ("nigger" is not "Niger")."""
    return any(all(count >= need for count, need in zip(counts, needs, strict=False)) for needs in needed)


@dataclass(frozen=True)
class Entry:
    """One line of a list: the words it refuses, read every way (:func:`readings`), and whether it is a stem."""

    text: str
    words: frozenset[tuple[str, ...]]
    stem: bool = False


def entry(text: str) -> Entry:
    """A line of a list as an :class:`Entry`; raises :class:`ValueError` for a line with no letter or digit."""
    stem = text.endswith("*")
    words = frozenset(tuple(_WORD.findall(reading)) for reading in readings(text.removesuffix("*")))
    words -= {()}
    if not words:
        raise ValueError(f"{text!r} has no letter to refuse")
    return Entry(text, words, stem)


def read_list(lines: Iterable[str], source: str) -> tuple[list[Entry], list[Entry]]:
    """The entries a list adds, and those it takes back (``!word``), from its lines; raises :class:`ValueError`
    naming ``source`` and the line at fault."""
    added: list[Entry] = []
    taken_back: list[Entry] = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        back = text.startswith("!")
        try:
            read = entry(text.removeprefix("!").strip())
        except ValueError as error:
            raise ValueError(f"{source}, line {number}: {error}") from None
        (taken_back if back else added).append(read)
    return added, taken_back


Needed = set[tuple[int, ...]]
"""How often each letter of an entry's words (:func:`_runs`) must be written, for each entry with those letters."""


class RudeWords:
    """The words no name may hold on this server (the module's docstring): :meth:`check` refuses a name with one.

    >>> words = RudeWords.load()
    >>> [words.holds(n) for n in ("Amina Salope", "s a l o p e", "5al0pe", "Fils-de-Pute", "Fuuck", "9a7ba", "fu ck")]
    [True, True, True, True, True, True, True]
    >>> [words.holds(n) for n in ("Scunthorpe", "Cassandra", "Salopette", "Shital", "Putellas", "زبيدة", "Jad")]
    [False, False, False, False, False, False, False]
    >>> [words.holds(n) for n in ("Niger", "Chin K", "Shi T.", "En retard", "Enculturation", "Zamel")]
    [False, False, False, False, False, False]
    """

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = tuple(entries)
        self._whole: defaultdict[tuple[str, ...], Needed] = defaultdict(set)
        """Entries by their words, each written with its runs once (:func:`_runs`)."""
        self._stems: defaultdict[tuple[str, ...], Needed] = defaultdict(set)
        """Stems (``word*``) the same way: a name's word is looked up by each of its beginnings."""
        self._joined: defaultdict[str, Needed] = defaultdict(set)
        """Entries, and stems (in :attr:`_joined_stems`), run together into one word: "filsdepute", "fuck"."""
        self._joined_stems: defaultdict[str, Needed] = defaultdict(set)
        sizes: set[int] = set()
        for e in self.entries:
            for words in e.words:
                runs = [_runs(word) for word in words]
                key = tuple(letters for letters, _ in runs)
                (self._stems if e.stem else self._whole)[key].add(tuple(c for _, counts in runs for c in counts))
                letters, counts = _runs("".join(words))
                (self._joined_stems if e.stem else self._joined)[letters].add(counts)
                sizes.add(len(words))
        self._sizes = sorted(sizes)

    @classmethod
    def load(cls, extra: str | Path | None = None) -> RudeWords:
        """The shipped list, with the operator's file ``extra`` (its words added, its ``!word`` taken back).

        Raises :class:`OSError` when the file cannot be read and :class:`ValueError` naming a line that holds no
        word. A ``!word`` the shipped list does not hold is no error: a later list may have dropped it.
        """
        entries, _ = read_list(SHIPPED.read_text(encoding="utf-8").splitlines(), SHIPPED.name)
        if extra is not None:
            added, taken_back = read_list(Path(extra).read_text(encoding="utf-8").splitlines(), str(extra))
            back = {(words, e.stem) for e in taken_back for words in e.words}
            entries = [e for e in entries if not any((words, e.stem) in back for words in e.words)] + added
        return cls(entries)

    def holds(self, name: str) -> bool:
        """Whether ``name`` holds a listed word: as a whole word, a phrase, spelled out or run together."""
        return any(self._in(reading) for reading in readings(name))

    def _in(self, reading: str) -> bool:
        words = _WORD.findall(reading)
        if not words:
            return False
        spelled = _spelled(words)
        for seen in {tuple(words), tuple(spelled)}:
            if self._words_hold([_runs(word) for word in seen]):
                return True
        # The whole name run together, but for a lone letter at its end: an initial ("Chin K"), not a split word.
        whole = spelled[:-1] if len(spelled) > 1 and len(spelled[-1]) == 1 else spelled
        return len(whole) > 1 and self._joined_holds("".join(whole))

    def _words_hold(self, runs: list[tuple[str, tuple[int, ...]]]) -> bool:
        """Whether these words (:func:`_runs` of each) hold an entry: some of them in a row, or one run together."""
        for size in self._sizes:
            for start in range(len(runs) - size + 1):
                window = runs[start : start + size]
                key = tuple(letters for letters, _ in window)
                counts = tuple(c for _, run in window for c in run)
                if (needed := self._whole.get(key)) and _fits(counts, needed):
                    return True
                head, last = key[:-1], key[-1]
                done = len(counts) - len(last)
                for end in range(1, len(last) + 1):
                    if (needed := self._stems.get((*head, last[:end]))) and _fits(counts[: done + end], needed):
                        return True
        return any(self._joined_holds(letters, counts) for letters, counts in runs)

    def _joined_holds(self, text: str, counts: tuple[int, ...] | None = None) -> bool:
        """Whether ``text``, one word, is an entry run together, or begins with a stem run together."""
        if counts is None:
            text, counts = _runs(text)
        if (needed := self._joined.get(text)) and _fits(counts, needed):
            return True
        return any(
            (needed := self._joined_stems.get(text[:end])) and _fits(counts[:end], needed)
            for end in range(1, len(text) + 1)
        )

    def check(self, name: str) -> None:
        """Refuse ``name`` when it holds a listed word: 400 ``bad_request``, ``reason`` ``name_rude``.

        >>> RudeWords.load().check("B1TCH")
        Traceback (most recent call last):
        ...
        ronda.interfaces.web.forms.HttpError: 'B1TCH' holds a word this server refuses in names: choose another name
        """
        if self.holds(name):
            raise HttpError(
                400,
                "bad_request",
                f"{name!r} holds a word this server refuses in names: choose another name",
                reason="name_rude",
                params={"name": name},
            )
