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

How a name is read (:func:`readings`): the look-alike keys of
:func:`.forms.name_keys` (case, NFKC, UTS #39 confusables: a Cyrillic \u043e
or a full-width F reads as the Latin letter), without accents or other marks,
the Arabic letters written two ways folded to one (ta marbuta and ha, alif
maqsura and ya, the hamzas on alif), digits read as leetspeak ("5al0pe") and as
Arabizi ("9a7ba" is قحبة), ``@ $ !`` read as letters or as punctuation, 1 I l
and | as one letter (the confusable skeleton makes them one), and a letter
repeated three times or more read once or twice ("saloooope", "niggger"). An
entry is read the same way, so whatever folding an entry has, a name has it too.

The Scunthorpe problem: a word is matched as a *whole word* of the name, never
as a part of a longer word. A list of insults holds short words that live
inside ordinary names and words — "cunt" in Scunthorpe, "ass" in Cassandra,
"salope" in salopette, "shit" in Shital, "pute" in Putellas, "زب" in زبيدة
(Zubaida), "con" in Constance — and substring matching refuses all of them,
while the person can always write the insult as its own word. A name's words
are split on spaces, punctuation and symbols, and a listed word is refused:

- as one of the name's words ("Amina Salope", "connard_du_93");
- as several of them in a row for a listed phrase ("fils de pute");
- spelled out, one letter a word ("s a l o p e", "F.U.C.K", "Amina f u c k");
- as the whole name run together, spaces and punctuation dropped ("fu ck",
  "sa-lope", "filsdepute"): a name of two parts that happen to spell an insult
  exactly is refused too, a price paid for catching split insults;
- with anything after it, only for an entry ending in ``*`` ("fuck*"), kept to
  stems no name begins with. Compounds whose stem is also a name's beginning
  ("dickhead") are listed whole.

What it does not catch, said plainly: an insult glued to another word without
a ``*`` entry ("shitface"), spellings the folding does not make alike
("phuck"), and other languages. A name kept before a word was listed stays.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .forms import HttpError, name_keys

SHIPPED = Path(__file__).with_name("rude_words.txt")
"""The list every server refuses, unless its operator takes a word back (``!word``)."""

_ARABIC = str.maketrans({"\u0629": "\u0647", "\u0649": "\u064a"} | dict.fromkeys("\u0623\u0625\u0622\u0671", "\u0627"))
"""Letters Arabic is written with either way, folded to one before the look-alike keys: ta marbuta and ha ("قحبة",
"قحب\u0647"), alif maqsura and ya, alif with or without a hamza or a madda."""
_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"})
"""Digits read as the Latin letters they stand for in leetspeak ("5al0pe"); 1 is already l in a key."""
_ARABIZI = str.maketrans({"2": "a", "3": "a", "5": "kh", "7": "h", "9": "q"})
"""Digits read as the Arabic letters they stand for in Arabizi, written as Latin letters ("9a7ba": qahba)."""
_SYMBOLS = str.maketrans({"@": "a", "$": "s", "!": "i", "€": "e", "+": "t", "¡": "i"})
"""Symbols written for letters ("b!tch", "$alope"): read both as letters and as punctuation ("Amina!")."""
_WORD = re.compile(r"[^\W_]+")
_REPEATED = re.compile(r"(.)\1{2,}")


def _unmarked(text: str) -> str:
    """``text`` without combining marks: accents ("enculé"), Arabic short vowels ("قَحْبَة")."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(ch for ch in decomposed if unicodedata.category(ch) not in ("Mn", "Me"))
    )


def readings(text: str) -> set[str]:
    """Every way ``text`` may be read, folded (the module's docstring says how): each one is split into words.

    >>> sorted(readings("5al0pe"))
    ['khaiope', 'saiope']
    >>> "qahba" in readings("9a7ba"), "saiope" in readings("\uff33@\uff2c\uff2f\uff30\uff25")
    (True, True)
    >>> readings("قَحْبَة") == readings("قحب\u0647")  # short vowels, ta marbuta
    True
    """
    keys = {_unmarked(key) for key in name_keys(text.translate(_ARABIC))}
    return {
        (key.translate(digits).translate(_SYMBOLS) if symbols else key.translate(digits)).replace("l", "i")
        for key in keys
        for digits in (_LEET, _ARABIZI)
        for symbols in (True, False)
    }


def _squeezed(reading: str) -> set[str]:
    """A reading with its letters repeated three times or more read once, and twice ("fuuuck", "niggger")."""
    return {reading, _REPEATED.sub(r"\1", reading), _REPEATED.sub(r"\1\1", reading)}


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


class RudeWords:
    """The words no name may hold on this server (the module's docstring): :meth:`check` refuses a name with one.

    >>> words = RudeWords.load()
    >>> [words.holds(n) for n in ("Amina Salope", "s a l o p e", "5al0pe", "Fils-de-Pute", "Saloooope", "9a7ba")]
    [True, True, True, True, True, True]
    >>> [words.holds(n) for n in ("Scunthorpe", "Cassandra", "Salopette", "Shital", "Putellas", "زبيدة", "Jad")]
    [False, False, False, False, False, False, False]
    """

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = tuple(entries)
        self._whole = {words for e in self.entries if not e.stem for words in e.words}
        self._stems = {words for e in self.entries if e.stem for words in e.words}
        self._sizes = sorted({len(words) for words in self._whole | self._stems})
        self._runs = {"".join(words) for words in self._whole}
        self._run_stems = tuple({"".join(words) for words in self._stems})

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
        """Whether ``name`` holds a listed word, as a whole word, a phrase, spelled out or run together."""
        return any(self._in(reading) for folded in readings(name) for reading in _squeezed(folded))

    def _in(self, reading: str) -> bool:
        words = _WORD.findall(reading)
        if not words:
            return False
        for seen in (words, _spelled(words)):
            if any(window in self._whole or self._stem_of(window) for window in self._windows(seen)):
                return True
        run = "".join(words)
        return run in self._runs or any(run.startswith(stem) for stem in self._run_stems)

    def _windows(self, words: list[str]) -> Iterator[tuple[str, ...]]:
        for size in self._sizes:
            for start in range(len(words) - size + 1):
                yield tuple(words[start : start + size])

    def _stem_of(self, window: tuple[str, ...]) -> bool:
        return any(
            len(stem) == len(window) and stem[:-1] == window[:-1] and window[-1].startswith(stem[-1])
            for stem in self._stems
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
