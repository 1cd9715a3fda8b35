"""What a spotter reports (:class:`Detection`) and how it decides
(:class:`SpotterConfig`)."""

from __future__ import annotations

from dataclasses import dataclass

ENGINES = ("auto", "neural", "pocketsphinx")
#: the default of :attr:`SpotterConfig.likely_cut_threshold` (probability)
LIKELY_CUT_THRESHOLD: float | None = 0.8
#: the default of :attr:`SpotterConfig.likely_min_rise_db` (dB)
LIKELY_MIN_RISE_DB = 9.0


@dataclass(frozen=True)
class SpotterConfig:
    """Which spotter hears the UNO call, and the decision thresholds (defaults
    chosen on validation data; measured with eval_voice.py).

    Attributes:
        engine: ``"auto"`` (the neural spotter for the UNO call, falling back to
            keyword search when its model cannot be loaded), ``"neural"`` (no
            fallback: a missing model raises :class:`voice.kws.ModelError`) or
            ``"pocketsphinx"`` (keyword search for every word).
        model: the neural spotter's model file (default ``models/uno-kws.pt``).
        threshold: the neural spotter's call probability threshold (default: the
            one tuned at training, stored in the model file).
        min_hits: consecutive windows over the threshold before the neural
            spotter fires (default: from the model file).
        smooth: windows whose probabilities the neural spotter averages
            before deciding (odd; :attr:`voice.kws.KwsConfig.smooth`; default:
            from the model file, else 1).
        colour_model, colour_threshold, colour_min_hits, colour_smooth: the
            same for the colour spotter (default ``models/colour-kws.pt`` and
            its settings);
            ``engine`` applies to it too (``"pocketsphinx"``: colours by
            keyword search under :data:`COLOUR_GATES`).
        gate_colour_threshold, gate_colour_min_hits, gate_colour_margin: the
            colour spotter's setting where a colour counts only while a wild
            waits for one (the game's listener, :func:`voice.bridge.listen_into`:
            ``Spotter(..., gated=True)``). Outside that window a colour changes
            nothing, so inside it the spotter may be surer of fewer words: a
            lower threshold, with ``gate_colour_margin`` (the share of the
            colours' probability the named colour must hold over the run,
            :attr:`voice.kws.KwsConfig.margin`) keeping a word between two
            colours unnamed. None: the model's own setting. Chosen with
            ``benchmarks/eval_colours.py --tune`` for ``models/colour-kws.pt``
            (set them for another colour model); ``colour_threshold`` and
            ``colour_min_hits``, when given, win over them.
        same_word: a colour hit and a call word whose stretches overlap are
            one word, the call, when they end at most this many seconds apart;
            further apart they are two words said over each other, and the
            colour counts.
        cut_keep, cut_threshold: the neural UNO spotter's cut views
            (:attr:`voice.kws.KwsConfig.cut_keep`): each window is scored
            again keeping only its last ``k`` frames (10 ms each; the rest
            replaced by the background), so a call said over the end of
            another voice's word (a colour named for a wild as the next player
            calls) is heard as a call on its own; a cut view counts as a hit
            at ``cut_threshold`` or the call threshold, whichever is higher
            (None: the call threshold). ``()``: none.
            Only windows whose ``noise`` probability is under ``cut_noise``
            (something is said) are scored again.
            Chosen with ``benchmarks/eval_voice.py`` at a tuning seed (its
            overlapped calls and its talk).
        likely_cut_threshold: the game's listener (``Spotter(...,
            gated=True)``) also reports **likely calls**: a second decision on
            the same window scores whose cut views count from this lower
            probability (:attr:`voice.kws.KwsConfig.likely_cut_threshold`), for
            a call said over most of another voice's word (the next player's
            "UNO!" over a wild's colour keeps its cut view at 0.8-0.85). Its
            calls that the first decision does not make are detections with
            ``likely`` set. The listener counts a call only where its
            attribution finds a player expected to call
            (:func:`voice.attribution.attribute`: down to one card or moving
            with two, not yet called), so outside those stretches such a call
            changes nothing; ``benchmarks/eval_voice.py`` reports the false
            alarms that gate lets through. None: no likely calls (an ungated
            spotter, ``tableref listen``, never reports them).
        likely_min_rise_db: the likely decision counts a cut view only where
            the last second stands at least this many dB above the stream's
            background (:attr:`voice.kws.KwsConfig.likely_min_rise`): a voice,
            not a card slapped down in the room's noise.

    The remaining attributes belong to the keyword search (:class:`PhoneticSpotter`):

        levels: keyword-search thresholds tried, as exponents (``10`` is ``1e-10``);
            larger is more permissive.
        max_level: the most permissive level that still counts as a hit.
        min_rise_db: how far above the background the word's loud frames must be.
        max_length: the longest loud stretch (seconds) that still counts as a call
            said on its own.
        island_ratio: a frame is loud when it is this fraction of the word's rise
            above the background.
        max_dip: quiet stretches shorter than this (seconds) do not end a word.
        hold: seconds of audio after the keyword before deciding.
        merge: hits closer than this (seconds) belong to the same spoken word.
        min_ratio: the verifier's log-likelihood ratio per frame (call word
            against free phones, :mod:`voice.verify`) that a call must reach.
        verify_silence: the verifier lets silence or noise stand before and after
            the word (the colour words: short words in a stretch that is mostly
            noise).
        gates: False reports every keyword hit with its measurements (for tuning).
    """

    engine: str = "auto"
    model: str | None = None
    threshold: float | None = None
    min_hits: int | None = None
    smooth: int | None = None
    colour_model: str | None = None
    colour_threshold: float | None = None
    colour_min_hits: int | None = None
    colour_smooth: int | None = None
    gate_colour_threshold: float | None = 0.7
    gate_colour_min_hits: int | None = 4
    gate_colour_margin: float = 0.8
    same_word: float = 0.15
    cut_keep: tuple[int, ...] = (40, 50, 60, 70, 80)
    cut_threshold: float | None = 0.9
    cut_noise: float = 0.5
    likely_cut_threshold: float | None = LIKELY_CUT_THRESHOLD
    likely_min_rise_db: float = LIKELY_MIN_RISE_DB
    levels: tuple[int, ...] = (5, 10, 15, 20, 25)
    max_level: int = 20
    min_rise_db: float = 6.0
    max_length: float = 1.0
    min_ratio: float = -10.0
    island_ratio: float = 0.4
    max_dip: float = 0.25
    hold: float = 0.4
    merge: float = 0.1
    pad: float = 0.0
    verify_silence: bool = False
    gates: bool = True

    def accepts(self, det: "Detection") -> bool:
        """Whether a measured keyword hit passes this configuration's gates."""
        return (det.level <= self.max_level and det.rise_db >= self.min_rise_db
                and det.length <= self.max_length and det.ratio >= self.min_ratio)


@dataclass(frozen=True)
class Detection:
    """A spotted call word.

    Attributes:
        word: the call word's name (``"uno"``).
        start: seconds from the start of the audio to the start of the word.
        end: seconds from the start of the audio to the end of the word.
        level: the strictest threshold exponent the word passed (smaller is surer).
        rise_db: loudness of the word above the background.
        length: seconds of the loud stretch around the keyword (short dips
            bridged); a call said on its own is short, the same sounds inside a
            sentence make it long.
        ratio: the verifier's log-likelihood ratio per frame (-inf: the word
            does not fit the stretch at all).
        score: a 0..1 summary for display (1 is the surest, 0.5 at the threshold).
        engine: which spotter heard it, ``"pocketsphinx"`` or ``"neural"``. The
            neural spotter measures none of ``level`` (0), ``rise_db`` and
            ``ratio`` (both inf), and ``start`` is ``end`` minus a typical word
            length.
        likely: a likely call (:attr:`SpotterConfig.likely_cut_threshold`):
            heard only by the game's listener's lower cut-view decision, to
            count only where a call is expected.
    """

    word: str
    start: float
    end: float
    level: int
    rise_db: float
    length: float
    ratio: float
    score: float
    engine: str = "pocketsphinx"
    likely: bool = False


#: The keyword search's gates for colour words (short words, said on their own
#: right after a wild): tuned with ``benchmarks/eval_colours.py`` on its tuning
#: voices only.
COLOUR_GATES = {"max_level": 25, "min_rise_db": 6.0, "max_length": 1.0,
                "min_ratio": -12.0, "verify_silence": True}


def colour_config(config: SpotterConfig) -> SpotterConfig:
    """``config`` with the colour words' gates (:data:`COLOUR_GATES`); a config
    with ``gates=False`` (measuring every hit) is kept as it is."""
    import dataclasses

    return dataclasses.replace(config, **COLOUR_GATES) if config.gates else \
        dataclasses.replace(config, verify_silence=True)
