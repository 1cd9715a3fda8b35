"""Offline call-word spotting: the project's neural spotters for the UNO call and
for a wild's colour, and keyword search with a loudness gate and a verifier for
other call words.

:class:`Spotter` is what callers use. The UNO call ("uno", "ウノ") goes to the
neural keyword spotter of :mod:`voice.kws` (``models/uno-kws.pt``, trained here);
colour words, when asked for, to the colour spotter (``models/colour-kws.pt``, the
same code and recipe with one class per colour);
other call words (a name called instead of UNO in the tgus-t presets, ``word=PHONES``
entries) go to :class:`PhoneticSpotter`, described below. Without a usable model
file the UNO call falls back to :class:`PhoneticSpotter` too, with a warning on the
``tableref.voice`` logger (``SpotterConfig(engine="neural")`` raises instead).

:class:`PhoneticSpotter` (keyword search) lives in :mod:`voice.search`; the
records both spotters report, :class:`Detection` and :class:`SpotterConfig`, in
:mod:`voice.detection` (imported here for callers).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading
from collections.abc import Iterable, Iterator

from voice.detection import ENGINES, Detection, SpotterConfig, colour_config
from voice.search import PhoneticSpotter
from voice.words import (UNO_ALIASES, UNO_PRONUNCIATIONS, CallWord, colour_of,
                         colour_words, parse_words)

__all__ = ["ENGINES", "Detection", "PhoneticSpotter", "Spotter", "SpotterConfig",
           "is_uno", "load_model", "spot"]

log = logging.getLogger("tableref.voice")


def is_uno(word: CallWord) -> bool:
    """Whether a call word is the UNO call the neural spotter was trained for."""
    return word.name in UNO_ALIASES and set(word.pronunciations) == set(
        UNO_PRONUNCIATIONS)


_MODELS: dict[tuple[str, tuple[str, ...]], object] = {}
_MODELS_LOCK = threading.Lock()


def load_model(path: str | None = None, colours: bool = False):
    """The neural spotter's model (``colours``: the colour spotter's), loaded
    once per path and shared.

    Raises:
        voice.kws.ModelError: missing, corrupt, or not a keyword model (of the
            kind asked for).
    """
    from voice.kws import CLASSES, COLOUR_CLASSES, COLOUR_MODEL, DEFAULT_MODEL, KwsModel

    key = str(path or (COLOUR_MODEL if colours else DEFAULT_MODEL))
    classes = COLOUR_CLASSES if colours else CLASSES
    with _MODELS_LOCK:
        if (key, classes) not in _MODELS:
            _MODELS[key, classes] = KwsModel(key, classes)
        return _MODELS[key, classes]


def _decision(model, threshold: float | None, min_hits: int | None,
              smooth: int | None = None, margin: float = 0.0):
    """The neural spotter's decision settings: those given, else the model's
    (a model file without ``smooth`` in its meta decides on single windows)."""
    from voice.kws import KwsConfig

    meta = model.meta
    return KwsConfig(
        threshold=threshold if threshold is not None else
        float(meta.get("threshold", 0.9)),
        min_hits=min_hits if min_hits is not None else int(meta.get("min_hits", 2)),
        smooth=smooth if smooth is not None else int(meta.get("smooth", 1)),
        margin=margin)


def colour_decision(model, config: SpotterConfig, gated: bool = False):
    """The colour spotter's decision settings: ``config.colour_*`` where given;
    else, for a listener whose colours count only while a wild waits
    (``gated``), the gate's setting (``config.gate_colour_*``); else the
    model's own."""
    threshold, min_hits, margin = config.colour_threshold, config.colour_min_hits, 0.0
    if gated:
        if threshold is None:
            threshold = config.gate_colour_threshold
        if min_hits is None:
            min_hits = config.gate_colour_min_hits
        margin = config.gate_colour_margin
    return _decision(model, threshold, min_hits, config.colour_smooth, margin)


class Spotter:
    """Feed 16 kHz mono 16-bit PCM with :meth:`feed`; get :class:`Detection` s back.

    The UNO call goes to the neural spotter (:mod:`voice.kws`), other call words
    to :class:`PhoneticSpotter` (see ``SpotterConfig.engine``).

    Args:
        words: the call words (default "uno" and "ウノ").
        config: engine and decision thresholds.
        colours: also hear a wild's colour (red/blue/green/yellow, 赤/青/緑/黄 read
            aka/ao/midori/kiiro) with the colour spotter (:mod:`voice.kws`,
            ``models/colour-kws.pt``; a detection's ``word`` is the colour,
            ``"red"``, whichever language said it), or, with
            ``engine="pocketsphinx"`` or without a usable colour model, with
            keyword search under the colour gates
            (:func:`voice.detection.colour_config`; ``word`` is then the colour
            word's name, ``"赤"``). ``voice.words.colour_of`` gives the colour.
        gated: the caller takes a colour only while a wild waits for one, and
            a call only where it can attribute it (the game's listener): the
            colour spotter decides with the gate's setting
            (:func:`colour_decision`, ``SpotterConfig.gate_colour_*``), not the
            model's own (what ``tableref listen --colours`` lists, ungated),
            and the UNO spotter reports likely calls too
            (``SpotterConfig.likely_cut_threshold``; ``Detection.likely``).

    Attributes:
        engine: ``"neural"``, ``"pocketsphinx"``, or ``"neural+pocketsphinx"``
            (the UNO call neural, other words by keyword search).
        fallback: why the neural spotter is not used although it was wanted
            (None when it is used or was not wanted).
        colour_fallback: the same for the colour spotter.

    Raises:
        ImportError: pocketsphinx is not installed (and keyword search is needed).
        voice.kws.ModelError: ``engine="neural"`` and the model cannot be loaded.
        ValueError: an unknown engine.
    """

    def __init__(self, words: list[CallWord] | None = None,
                 config: SpotterConfig | None = None, colours: bool = False,
                 gated: bool = False):
        from voice.kws import ModelError, NeuralSpotter

        self.words = words or parse_words(None)
        self.config = config or SpotterConfig()
        if self.config.engine not in ENGINES:
            raise ValueError(f"unknown spotter engine {self.config.engine!r} "
                             f"(one of {', '.join(ENGINES)})")
        self.fallback: str | None = None
        self._neural = None
        self._uno_name = ""
        rest = self.words
        uno = [w for w in self.words if is_uno(w)]
        if uno and self.config.engine != "pocketsphinx":
            try:
                model = load_model(self.config.model)
            except (ModelError, ImportError) as exc:
                if isinstance(exc, ImportError):  # torch missing
                    exc = ModelError(f"the neural spotter needs torch ({exc})")
                if self.config.engine == "neural":
                    raise exc from None
                self.fallback = str(exc)
                log.warning("%s; hearing the UNO call with keyword search instead",
                            exc)
            else:
                kws = dataclasses.replace(
                    _decision(model, self.config.threshold, self.config.min_hits,
                              self.config.smooth),
                    cut_keep=tuple(self.config.cut_keep),
                    cut_threshold=self.config.cut_threshold,
                    cut_noise=self.config.cut_noise,
                    likely_cut_threshold=self.config.likely_cut_threshold
                    if gated else None,
                    likely_min_rise=self.config.likely_min_rise_db)
                self._neural = NeuralSpotter(model, kws)
                self._uno_name = uno[0].name
                rest = [w for w in self.words if not is_uno(w)]
        if colours:
            rest = [w for w in rest if colour_of(w.name) is None]
        self._phonetic = PhoneticSpotter(rest, self.config) if rest else None
        self._colours = None
        self._colour_neural = None
        self.colour_fallback: str | None = None
        if colours and self.config.engine != "pocketsphinx":
            try:
                model = load_model(self.config.colour_model, colours=True)
            except (ModelError, ImportError) as exc:
                if isinstance(exc, ImportError):
                    exc = ModelError(f"the neural spotter needs torch ({exc})")
                if self.config.engine == "neural":
                    raise exc from None
                self.colour_fallback = str(exc)
                log.warning("%s; hearing colours with keyword search instead", exc)
            else:
                self._colour_neural = NeuralSpotter(
                    model, colour_decision(model, self.config, gated))
                self._colour_names = model.classes[:-2]
        if colours and self._colour_neural is None:
            try:
                self._colours = PhoneticSpotter(colour_words(),
                                                colour_config(self.config))
            except ImportError as exc:  # the UNO call is still heard
                log.warning("colour words need pocketsphinx (%s); not hearing them",
                            exc)
        self.engine = "+".join(name for name, part in (
            ("neural", self._neural or self._colour_neural),
            ("pocketsphinx", self._phonetic or self._colours)) if part)

    @property
    def seconds(self) -> float:
        """Seconds of audio fed so far."""
        part = next(p for p in (self._neural, self._phonetic, self._colours,
                                self._colour_neural) if p is not None)
        return part.seconds

    def feed(self, pcm: bytes) -> list[Detection]:
        """Process a chunk of audio; returns the calls decided by the end of it."""
        found = self._phonetic.feed(pcm) if self._phonetic is not None else []
        if self._neural is not None:
            found += [self._detection(*call) for call in self._neural.feed(pcm)]
            found += self._likely()
        if self._colours is not None:
            found += self._colour_hits(found, self._colours.feed(pcm))
        if self._colour_neural is not None:
            found += self._colour_hits(found, [
                self._colour(*c) for c in self._colour_neural.feed(pcm)])
        return sorted(found, key=lambda d: d.end)

    def flush(self) -> list[Detection]:
        """Decide the calls still open at the end of the audio."""
        found = self._phonetic.flush() if self._phonetic is not None else []
        if self._neural is not None:
            found += [self._detection(*call) for call in self._neural.flush()]
            found += self._likely()
        if self._colours is not None:
            found += self._colour_hits(found, self._colours.flush())
        if self._colour_neural is not None:
            found += self._colour_hits(found, [
                self._colour(*c) for c in self._colour_neural.flush()])
        return sorted(found, key=lambda d: d.end)

    def _colour_hits(self, calls: list[Detection],
                     hits: list[Detection]) -> list[Detection]:
        """Colour words, one per stretch of speech (the surest), none on a word
        that was heard as a call word (an UNO call is not a colour). A colour hit
        and a call are one word when they overlap and end within
        ``SpotterConfig.same_word`` seconds of each other: a colour said while
        another player's call is still ending (their stretches of speech run
        together) ends later, and counts."""
        self._said = [d for d in getattr(self, "_said", []) + calls
                      if d.end > self.seconds - 5.0]
        near = self.config.same_word
        out: list[Detection] = []
        for det in sorted(hits, key=lambda d: -d.score):
            if any(det.start < o.end and o.start < det.end and (
                    colour_of(o.word) is not None or abs(det.end - o.end) <= near)
                   for o in self._said + out):
                continue
            out.append(det)
        self._said += out
        return out

    def _likely(self) -> list[Detection]:
        """The UNO spotter's likely calls settled by now
        (``SpotterConfig.likely_cut_threshold``; a gated spotter only)."""
        return [dataclasses.replace(self._detection(*call), likely=True)
                for call in self._neural.take_likely()]

    def _detection(self, start: float, end: float, prob: float,
                   _decided_at: float = 0.0, name: str | None = None,
                   threshold: float | None = None) -> Detection:
        thr = self._neural.config.threshold if threshold is None else threshold
        logit = lambda p: math.log(max(p, 1e-6) / max(1 - p, 1e-6))  # noqa: E731
        score = 1 / (1 + math.exp(-(logit(prob) - logit(min(thr, 0.999999)))))
        return Detection(name or self._uno_name, round(start, 2), round(end, 2), 0,
                         math.inf, round(end - start, 2), math.inf, round(score, 2),
                         "neural")

    def _colour(self, start: float, end: float, prob: float, decided_at: float,
                index: int) -> Detection:
        """A colour the colour spotter heard, named by its class (``"red"``:
        English and Japanese words of a colour are one class)."""
        return self._detection(start, end, prob, decided_at,
                               self._colour_names[index],
                               self._colour_neural.config.threshold)


def spot(chunks: Iterable[bytes], words: list[CallWord] | None = None,
         config: SpotterConfig | None = None,
         colours: bool = False) -> Iterator[Detection]:
    """All calls (and, with ``colours``, colour words) in a stream of PCM chunks,
    in order, as soon as each is decided."""
    spotter = Spotter(words, config, colours)
    for chunk in chunks:
        yield from spotter.feed(chunk)
    yield from spotter.flush()
