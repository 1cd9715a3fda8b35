"""Measure how the listener hears a wild's colour, on synthesised speech in noise.

The colour words (red/blue/green/yellow, あか/あお/みどり/きいろ) are heard by the
colour spotter (:mod:`voice.kws` with ``models/colour-kws.pt``, the listener's
default), and, for comparison, by keyword search (pocketsphinx,
:class:`voice.search.PhoneticSpotter`) under the colour gates
(:data:`voice.detection.COLOUR_GATES`; ``--no-search`` leaves it out). Reported,
for each:

* colours heard (the right colour, within 1 s of the word's end) at 20/10/5 dB SNR
  (speech RMS over its voiced samples against the noise RMS; white, pink, brown
  noise, card riffles, chatter: ``benchmarks/voice_audio.py``), and colours heard
  wrong (another colour for the word said);
* wrong colours per hour of table talk: ``eval_voice``'s talk material (English and
  Japanese sentences, many with colour words inside: "Red seven on the pile",
  "いろは みどりに します") in light noise; any colour heard there is wrong, since
  nobody named a wild's colour. Reported twice:

  - *ungated*: every colour heard in the talk, an hour of it;
  - *gated*, as the listener applies the gate (:mod:`voice.bridge`): a colour
    counts only while a wild waits for one (:func:`voice.attribution.attribute_colour`),
    from :data:`voice.bridge.COLOUR_WAIT` s before the camera sees the wild (a
    colour heard early waits for it; of several waiting, the last heard names
    it) until its colour is named, the next card is played (the colour is then
    inferred), or :data:`voice.attribution.COLOUR_AFTER` s have passed. A colour
    heard in talk becomes a wrong colour only inside such a window, so the gated
    figure is the ungated one times the share of the hour the gate is open:
    ``wilds_per_hour * exposure / 3600`` with, per wild, ``exposure = h *
    NAMED_AFTER + (1 - h) * (COLOUR_WAIT + min(COLOUR_AFTER, NEXT_CARD))``: when
    the named colour is heard (``h``, the setting's rate at 10 dB), only talk
    between the wild seen and the naming heard is taken first; when it is missed,
    talk from ``COLOUR_WAIT`` before the wild to the next card. The pace
    (``--wilds-per-hour``, ``--next-card``) is the scripted tuning tables' (37
    wilds in 19 min of play, the next card 2.0 s after a wild on average); the
    naming heard 0.9 s after the wild is seen (said 0.3 s after it is put down,
    as ``vision/demo/audio.py`` renders it). Talk is assumed to go on at the same
    rate while a wild waits, and anyone's colour in that window counts (the
    listener cannot tell who spoke). To that the gated figure adds the wrong
    colours made at the wild itself, where the gate is always open: a colour
    heard wrong for the word said, or heard on the lead phrase ("Wild card.")
    or in the noise around the words (``stray``), per colour word at 10 dB,
    times ``wilds_per_hour`` (each wild is named once).

The game's listener decides with the gate's setting
(``SpotterConfig.gate_colour_*``: a lower threshold, and the named colour's
share of the run, :attr:`voice.kws.KwsConfig.margin`), since its colours pass
the gate; ``tableref listen --colours`` lists every colour with the model's own
setting. Both are measured (the gate's first; ``--gate`` measures another).

The gates and the colour spotter's setting were looked at on the TUNE voices
(``TUNE_VOICES``, speeds 150/175, pitch 50) with ``--tune``; the reported figure
uses the HELD-OUT voices, speeds and pitches, which were never looked at while
choosing them. Every keyword hit is recorded once with its measurements
(``gates=False``), and every window of the colour spotter once with its
probabilities; each setting (threshold, windows in a row, and the mean of how
many windows around each is decided, :attr:`voice.kws.KwsConfig.smooth`) is
applied afterwards. ``--seed`` gives other tracks of the same voices (more
tuning words: ``--tune --seed 8``). Seeded: a run repeats exactly.
Needs espeak-ng and sox (and torch for the colour spotter).

Usage::

    .venv/bin/python -m benchmarks.eval_colours              # held-out, 1 h of talk
    .venv/bin/python -m benchmarks.eval_colours --quick      # 15 min of talk
    .venv/bin/python -m benchmarks.eval_colours --tune   # the tuning voices, a sweep
    .venv/bin/python -m benchmarks.eval_colours --tune --talk-min 60  # and 1 h of talk
    .venv/bin/python -m benchmarks.eval_colours --setting 0.8,4,1  # and another setting
    .venv/bin/python -m benchmarks.eval_colours --overlap  # two players at once (tuning voices)
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import random
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from benchmarks.voice_audio import NOISES, TALK_EN, TALK_JA, noise_bed, rms, say
from voice.audio import RATE, to_pcm16
from voice.detection import COLOUR_GATES, Detection, SpotterConfig, colour_config
from voice.search import PhoneticSpotter
from voice.words import colour_of, colour_words

TUNE_VOICES = {"en": ["en-us", "en-gb-x-rp", "en+m3"], "ja": ["ja", "ja+f2", "ja+m3"]}
TUNE_SPEEDS, TUNE_PITCHES = [150, 175], [50]
HELD_VOICES = {"en": ["en", "en+f3", "en-us+f2", "en+f4", "en-gb-scotland"],
               "ja": ["ja+f4", "ja+m1", "ja+f1"]}
HELD_SPEEDS, HELD_PITCHES = [130, 160, 190], [35, 60, 80]
WORDS = {"en": ["red", "blue", "green", "yellow", "Red!", "Blue!", "Green.", "Yellow!"],
         "ja": ["あか", "あお", "みどり", "きいろ", "あか!", "あお!", "みどり。", "きいろ!"]}
LEADS = {"en": ["Wild card.", "Wild."], "ja": ["ワイルド。", "ワイルド カード。"]}
SNRS = [20, 10, 5]
#: the game's pace (the scripted tuning tables: 37 wilds in 1154 s of play) and
#: the seconds from a wild to the next card played (mean over those 37)
WILDS_PER_HOUR, NEXT_CARD = 115.0, 2.0
#: seconds from the camera seeing a wild to the named colour being heard
NAMED_AFTER = 0.9


def gated(per_hour: float, hit: float, wilds_per_hour: float = WILDS_PER_HOUR,
          next_card: float = NEXT_CARD, last_wins: bool = True,
          per_wild: float = 0.0) -> float:
    """Wrong colours an hour that pass the listener's gate (the module's
    docstring): colours heard in talk (``per_hour``, ungated) times the share of
    the hour a wild waits for its colour, plus ``per_wild`` (wrong colours made
    at the wild itself, per colour word said) times the wilds an hour.
    ``last_wins=False``: the gate as it was before the last waiting colour named
    the wild (the first colour heard within COLOUR_WAIT before the wild named
    it)."""
    from voice.attribution import COLOUR_AFTER
    from voice.bridge import COLOUR_WAIT

    missed = COLOUR_WAIT + min(COLOUR_AFTER, next_card)
    named = NAMED_AFTER + (0.0 if last_wins else COLOUR_WAIT)
    exposure = hit * named + (1 - hit) * missed
    return per_hour * wilds_per_hour * exposure / 3600 + per_wild * wilds_per_hour


#: what the jobs record: ``model`` (the colour spotter's file, None: not measured)
#: and ``search`` (keyword search too); set in each worker by :func:`_setup`
_SETUP: dict = {"model": None, "search": True, "keep": False}
_MODEL: dict = {}


def _setup(model: str | None, search: bool, keep: bool = False) -> None:
    _SETUP.update(model=model, search=search, keep=keep)


def _model_key(path: str) -> str:
    """The model file's name and a digest of its bytes (a cache's traces are
    reused only for the same model)."""
    import hashlib

    return f"{Path(path).name}:{hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]}"


def _trace(audio: np.ndarray) -> list:
    """Every window of the colour spotter with its colour probabilities."""
    from voice.kws import COLOUR_CLASSES, KwsConfig, KwsModel, NeuralSpotter

    if _SETUP["model"] not in _MODEL:
        _MODEL[_SETUP["model"]] = KwsModel(_SETUP["model"], COLOUR_CLASSES)
    neural = NeuralSpotter(_MODEL[_SETUP["model"]], KwsConfig(threshold=2.0),
                           record=True)
    pcm = to_pcm16(audio, RATE)
    step = int(0.1 * RATE) * 2
    for i in range(0, len(pcm), step):
        neural.feed(pcm[i:i + step])
    return neural.trace


def retrace(job: dict) -> dict:
    """A cached job (its audio kept) traced by the colour spotter of ``_SETUP``."""
    job = dict(job, hits=dict(job["hits"]))
    job["hits"]["trace"] = _trace(job["audio"].astype(np.float32))
    job["traced"] = _model_key(_SETUP["model"])
    return job


def hits_of(audio: np.ndarray) -> dict:
    """Every colour-word keyword hit with its measurements, and every window of
    the colour spotter with its colour probabilities, fed in 0.1 s chunks."""
    pcm = to_pcm16(audio, RATE)
    step = int(0.1 * RATE) * 2
    out: list[Detection] = []
    if _SETUP["search"]:
        spotter = PhoneticSpotter(colour_words(),
                                  colour_config(SpotterConfig(gates=False)))
        for i in range(0, len(pcm), step):
            out += spotter.feed(pcm[i:i + step])
        out += spotter.flush()
    trace = _trace(audio) if _SETUP["model"] else []
    return {"search": out if _SETUP["search"] else None, "trace": trace}


def _job(audio: np.ndarray, **fields) -> dict:
    """A job's record: its hits, and its audio when a cache keeps it."""
    job = dict(fields, hits=hits_of(audio), seconds=len(audio) / RATE)
    if _SETUP["model"]:
        job["traced"] = _model_key(_SETUP["model"])
    if _SETUP["keep"]:
        job["audio"] = audio.astype(np.float16)
    return job


@dataclasses.dataclass(frozen=True)
class Neural:
    """A decision setting of the colour spotter (replayed on recorded windows)."""

    threshold: float
    min_hits: int
    smooth: int = 1
    margin: float = 0.0

    def name(self) -> str:
        mean = f" mean{self.smooth}" if self.smooth > 1 else ""
        share = f" share{self.margin:g}" if self.margin else ""
        return f"colour spotter p>={self.threshold:g} x{self.min_hits}{mean}{share}"


def positive_job(args: tuple[str, int, int, int, bool]) -> dict:
    """A noise track with ``count`` colour words said in it at one SNR."""
    kind, snr, seed, count, tune = args
    rng = random.Random(seed)
    voices = TUNE_VOICES if tune else HELD_VOICES
    speeds = TUNE_SPEEDS if tune else HELD_SPEEDS
    pitches = TUNE_PITCHES if tune else HELD_PITCHES
    babble = [say(t, v) for t, v in zip(TALK_EN[:6] + TALK_JA[:4],
                                        ["en-us", "en+f3", "en", "en+m3"] * 3)]
    said = []
    for i in range(count):
        lang = "ja" if i % 2 else "en"
        voice = rng.choice(voices[lang])
        speed, pitch = rng.choice(speeds), rng.choice(pitches)
        text = rng.choice(WORDS[lang])
        word = say(text, voice, speed, pitch)
        lead = say(rng.choice(LEADS[lang]), voice, speed, pitch) \
            if rng.random() < 0.3 else None
        said.append((word, lead, text, voice))
    total = sum(len(w) + (len(ld) + RATE if ld is not None else 0) + 3 * RATE
                for w, ld, _t, _v in said) + 3 * RATE
    speech = np.zeros(total, np.float32)
    marks, pos = [], 2 * RATE
    for word, lead, text, voice in said:
        if lead is not None:
            speech[pos:pos + len(lead)] = lead / rms(lead) * rms(word)
            pos += len(lead) + int(rng.uniform(0.3, 0.6) * RATE)
        speech[pos:pos + len(word)] = word
        marks.append((pos / RATE, (pos + len(word)) / RATE, text, voice))
        pos += len(word) + int(rng.uniform(1.5, 3.0) * RATE)
    speech = speech[:pos + RATE]
    level = rms(np.concatenate([s[0] for s in said]))
    noise = noise_bed(kind, len(speech) / RATE, rng, babble)
    audio = (speech + noise * level / 10 ** (snr / 20)) * 0.3 / level
    return _job(audio, kind=kind, snr=snr, marks=marks)


def _talk_audio(seed: int, seconds: float) -> np.ndarray:
    """The talk track of ``eval_voice.negative_job`` (same material and mixing)."""
    from benchmarks.voice_audio import EN_VOICES, JA_VOICES, sox_noise

    rng = random.Random(seed)
    pool = [say(t, v, rng.choice([130, 160, 190]), rng.choice([30, 50, 80]))
            for t in TALK_EN for v in rng.sample(EN_VOICES, 3)]
    pool += [say(t, v, rng.choice([130, 160, 190]), rng.choice([30, 50, 80]))
             for t in TALK_JA for v in rng.sample(JA_VOICES, 3)]
    parts, n = [], 0
    while n < seconds * RATE:
        clip = pool[rng.randrange(len(pool))]
        pause = np.zeros(int(rng.uniform(0.3, 2.0) * RATE), np.float32)
        parts += [clip / rms(clip) * 0.2, pause]
        n += len(clip) + len(pause)
    audio = np.concatenate(parts)
    hiss = sox_noise("pinknoise", len(audio) / RATE + 0.1, rng)[:len(audio)]
    return audio + 0.02 * hiss


def talk_hits(args: tuple[int, float]) -> dict:
    seed, seconds = args
    return _job(_talk_audio(seed, seconds))


def accepted(config: SpotterConfig | Neural, hits: dict) -> list[Detection]:
    """The colours a setting hears: keyword hits passing its gates, one per
    stretch of speech (the surest), as :class:`voice.spotter.Spotter` reports
    colours; or the colour spotter's calls replayed under its setting."""
    if isinstance(config, Neural):
        from voice.kws import COLOUR_CLASSES, KwsConfig, replay

        calls = replay(hits["trace"], KwsConfig(threshold=config.threshold,
                                                min_hits=config.min_hits,
                                                smooth=config.smooth,
                                                margin=config.margin))
        return [Detection(COLOUR_CLASSES[c[4]], max(c[1] - 0.45, 0.0), c[1], 0,
                          0.0, 0.45, c[2], c[2], "neural") for c in calls]
    out: list[Detection] = []
    for det in sorted((d for d in hits["search"] if config.accepts(d)),
                      key=lambda d: -d.ratio):
        if not any(det.start < o.end and o.start < det.end for o in out):
            out.append(det)
    return out


def score(config: SpotterConfig | Neural, pos: list[dict], talk: list[dict]) -> dict:
    """Colours heard right and wrong per SNR, colours heard away from any colour
    word in those tracks (``stray``, and per SNR ``strays``: on a lead phrase
    or in the noise), and wrong colours per hour of talk."""
    right: dict[int, list[bool]] = {}
    wrong: dict[int, int] = {}
    strays: dict[int, int] = {}
    per_lang: dict[tuple[int, str], list[bool]] = {}
    stray = 0
    for job in pos:
        hits = accepted(config, job["hits"])
        away = sum(not any(start - 0.3 <= d.end <= end + 1.0
                           for start, end, _t, _v in job["marks"]) for d in hits)
        stray += away
        strays[job["snr"]] = strays.get(job["snr"], 0) + away
        for start, end, text, voice in job["marks"]:
            near = [d for d in hits if start - 0.3 <= d.end <= end + 1.0]
            want = colour_of(text.strip("!.。"))
            ok = any(colour_of(d.word) == want for d in near)
            right.setdefault(job["snr"], []).append(ok)
            lang = "ja" if voice.startswith("ja") else "en"
            per_lang.setdefault((job["snr"], lang), []).append(ok)
            wrong[job["snr"]] = wrong.get(job["snr"], 0) + sum(
                colour_of(d.word) != want for d in near)
    n_talk = sum(len(accepted(config, j["hits"])) for j in talk)
    secs = sum(j["seconds"] for j in talk)
    return {"right": {k: float(np.mean(v)) for k, v in right.items()},
            "n": {k: len(v) for k, v in right.items()}, "wrong": wrong,
            "lang": {k: float(np.mean(v)) for k, v in per_lang.items()},
            "stray": stray, "strays": strays,
            "talk": (n_talk, n_talk * 3600 / max(secs, 1e-9), secs)}


def at_the_wild(r: dict, snr: int = 10) -> float:
    """Wrong colours per colour word said at ``snr`` that the gate lets through
    wherever talk is: heard wrong for the word, or on its lead phrase or in the
    noise around it (a :func:`score` result)."""
    return (r["wrong"].get(snr, 0) + r["strays"].get(snr, 0)) / max(r["n"][snr], 1)


#: the calls of the overlap check (``--overlap``), said by the tuning voices
OVERLAP_CALLS = {"en": ["Uno!"], "ja": ["ウノ!"]}
OVERLAP_COLOURS = {"en": [("Red!", "red"), ("Blue!", "blue"), ("Green.", "green"),
                          ("Yellow!", "yellow")],
                   "ja": [("あか!", "red"), ("あお!", "blue"), ("みどり。", "green"),
                          ("きいろ!", "yellow")]}


def overlap_check(model: str | None, gaps: tuple[float, ...] = (1.0, -0.1, -0.2),
                  snr: float = 20.0, seed: int = 1) -> dict:
    """Two players' words said close together or over each other, as the
    listener hears them (:class:`voice.spotter.Spotter` with colours), on the
    TUNING voices only: for each first voice, each language of the second (another
    voice), the two words with the second starting ``gap`` s after the first ends
    (negative: they overlap), in pink noise at ``snr`` dB. Three pairs: an UNO
    call then a colour, a colour then a call, two colours. Returns ``{(pair,
    gap): (first heard, second heard, both, n)}``."""
    from voice.audio import say
    from voice.detection import SpotterConfig
    from voice.spotter import Spotter

    from benchmarks.voice_audio import sox_noise

    rng = random.Random(seed)

    def norm(x: np.ndarray) -> np.ndarray:
        return x / rms(x[np.abs(x) > 0.01]) * 0.1

    out: dict = {}
    for pair in ("uno+colour", "colour+uno", "colour+colour"):
        for lang_a in ("en", "ja"):
            for va in TUNE_VOICES[lang_a]:
                for lang_b in ("en", "ja"):
                    vb = rng.choice([v for v in TUNE_VOICES[lang_b] if v != va])
                    speed = rng.choice(TUNE_SPEEDS)
                    if pair == "uno+colour":
                        ta, wa = rng.choice(OVERLAP_CALLS[lang_a]), "uno"
                        tb, wb = rng.choice(OVERLAP_COLOURS[lang_b])
                    elif pair == "colour+uno":
                        ta, wa = rng.choice(OVERLAP_COLOURS[lang_a])
                        tb, wb = rng.choice(OVERLAP_CALLS[lang_b]), "uno"
                    else:
                        ta, wa = rng.choice(OVERLAP_COLOURS[lang_a])
                        tb, wb = rng.choice([c for c in OVERLAP_COLOURS[lang_b]
                                             if c[1] != wa])
                    a, b = norm(say(ta, va, speed)), norm(say(tb, vb, speed))
                    for gap in gaps:
                        sb = RATE + len(a) + int(gap * RATE)
                        y = np.zeros(max(RATE + len(a), sb + len(b)) + RATE,
                                     np.float32)
                        y[RATE:RATE + len(a)] += a
                        y[sb:sb + len(b)] += b
                        ea, eb = (RATE + len(a)) / RATE, (sb + len(b)) / RATE
                        noise = sox_noise("pinknoise", len(y) / RATE + 0.2, rng)
                        y = np.clip(y + noise[:len(y)] / rms(noise[:len(y)]) * 0.1
                                    / 10 ** (snr / 20), -1, 1)
                        spotter = Spotter(config=SpotterConfig(colour_model=model),
                                          colours=True)
                        pcm = to_pcm16(y, RATE)
                        dets = [d for i in range(0, len(pcm), 3200)
                                for d in spotter.feed(pcm[i:i + 3200])]
                        dets += spotter.flush()
                        got_a = any(d.word == wa and abs(d.end - ea) < 1.0
                                    for d in dets)
                        got_b = any(d.word == wb and abs(d.end - eb) < 1.0
                                    for d in dets)
                        n = out.setdefault((pair, gap), [0, 0, 0, 0])
                        n[0] += got_a
                        n[1] += got_b
                        n[2] += got_a and got_b
                        n[3] += 1
    return out


def main() -> int:
    from voice.kws import COLOUR_MODEL

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="15 min of talk")
    parser.add_argument("--tune", action="store_true",
                        help="the tuning voices, with a sweep of the settings")
    parser.add_argument("--talk-min", type=float, default=None, metavar="MIN",
                        help="minutes of table talk (default 15 with --quick or "
                        "--tune, else 60)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--model", default=str(COLOUR_MODEL),
                        help="the colour spotter's model (default %(default)s); "
                        "'none' measures keyword search only")
    parser.add_argument("--no-search", action="store_true",
                        help="leave out keyword search (pocketsphinx)")
    parser.add_argument("--wilds-per-hour", type=float, default=WILDS_PER_HOUR,
                        help="the game's pace for the gated figure (default "
                        "%(default)s)")
    parser.add_argument("--next-card", type=float, default=NEXT_CARD,
                        help="seconds from a wild to the next card (default "
                        "%(default)s)")
    parser.add_argument("--cache", metavar="PATH",
                        help="keep the audio and the recorded hits here (pickle) and "
                        "reuse them; the audio is traced again for another model")
    parser.add_argument("--setting", action="append", metavar="P,HITS,MEAN[,SHARE]",
                        help="also measure the colour spotter at threshold P, "
                        "HITS windows in a row, on the mean of MEAN windows, "
                        "the named colour holding SHARE of the run (repeatable)")
    parser.add_argument("--gate", metavar="P,HITS,MEAN,SHARE",
                        help="the game listener's setting inside the gate "
                        "(default: SpotterConfig's gate_colour_* with the "
                        "model's mean)")
    parser.add_argument("--overlap", action="store_true",
                        help="only the overlap check on the tuning voices: two "
                        "players' words 1 s apart, and over each other by 0.1 "
                        "and 0.2 s (overlap_check)")
    args = parser.parse_args()
    if args.overlap:
        model = None if args.model == "none" else args.model
        for (pair, gap), (a, b, both, n) in overlap_check(model).items():
            print(f"{pair:14s} second word {gap:+.1f} s after the first ends: "
                  f"first {a}/{n}, second {b}/{n}, both {both}/{n}")
        return 0
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            print(f"eval_colours: {tool} is not installed "
                  "(apt-get install espeak-ng sox)")
            return 2
    model = None if args.model == "none" else args.model
    if model is None and args.no_search and not args.cache:
        print("eval_colours: nothing to measure (--model none and --no-search; "
              "with --cache the audio alone is made and kept)")
        return 2
    neural_settings: list[Neural] = []
    own: Neural | None = None  # the model's own setting (an ungated listing)
    if model is not None:
        from voice.kws import COLOUR_CLASSES, KwsModel, ModelError

        try:
            meta = KwsModel(model, COLOUR_CLASSES).meta
        except (ModelError, ImportError) as exc:
            print(f"eval_colours: {exc}")
            return 2
        def parse(text: str) -> Neural:
            p, h, m, *share = text.split(",")
            return Neural(float(p), int(h), int(m), float(share[0]) if share else 0.0)

        own = Neural(float(meta.get("threshold", 0.9)), int(meta.get("min_hits", 2)),
                     int(meta.get("smooth", 1)))
        if args.gate:
            gate = parse(args.gate)
        else:  # the game's listener: voice.spotter.colour_decision(gated=True)
            base = SpotterConfig()
            gate = Neural(own.threshold if base.gate_colour_threshold is None
                          else base.gate_colour_threshold,
                          own.min_hits if base.gate_colour_min_hits is None
                          else base.gate_colour_min_hits,
                          own.smooth, base.gate_colour_margin)
        neural_settings += [gate] + ([own] if own != gate else [])
        if args.setting:
            neural_settings += [parse(s) for s in args.setting]
        if args.tune:
            neural_settings += [Neural(t, h) for t in (0.5, 0.7, 0.8, 0.9, 0.95,
                                                       0.98, 0.99)
                                for h in (1, 2, 3, 4)]
            # the mean of 3 or 5 windows around each (voice.kws.KwsConfig.smooth)
            neural_settings += [Neural(t, h, m) for m in (3, 5)
                                for t in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)
                                for h in (2, 4, 6, 8)]
            # inside the gate: lower thresholds, the named colour's share
            neural_settings += [Neural(t, h, own.smooth, share)
                                for t in (0.6, 0.65, 0.675, 0.7, 0.725, 0.75)
                                for h in (3, 4, 5) for share in (0.7, 0.8)]
    t0 = time.time()
    seed = args.seed + (500 if args.tune else 0)
    pos_jobs = [(k, s, seed * 1000 + i, 16, args.tune)
                for i, (k, s) in enumerate((k, s) for s in SNRS for k in NOISES)]
    talk_s = 60 * args.talk_min if args.talk_min else \
        900.0 if args.quick or args.tune else 3600.0
    talk_jobs = [(seed + 100 + i, talk_s / 4) for i in range(4)]
    setup = (model, not args.no_search, bool(args.cache))
    _setup(*setup)
    if args.cache and Path(args.cache).is_file():
        with open(args.cache, "rb") as fh:
            pos, talk = pickle.load(fh)
        if not args.no_search and any(j["hits"]["search"] is None
                                      for j in pos + talk):
            print("eval_colours: the cache holds no keyword search (use --no-search)")
            return 2
        stale = model is not None and any(j.get("traced") != _model_key(model)
                                          for j in pos + talk)
        if stale:  # another model: trace the cached audio again
            with ProcessPoolExecutor(args.workers, initializer=_setup,
                                     initargs=setup) as pool:
                talk = list(pool.map(retrace, talk))
                pos = list(pool.map(retrace, pos))
            with open(args.cache, "wb") as fh:
                pickle.dump((pos, talk), fh)
    else:
        with ProcessPoolExecutor(args.workers, initializer=_setup,
                                 initargs=setup) as pool:
            talk = list(pool.map(talk_hits, talk_jobs))
            pos = list(pool.map(positive_job, pos_jobs))
        if args.cache:
            with open(args.cache, "wb") as fh:
                pickle.dump((pos, talk), fh)
    audio = sum(j["seconds"] for j in pos + talk)
    if model is None and args.no_search:
        print(f"eval_colours: {audio / 60:.1f} min of audio kept in {args.cache}")
        return 0
    which = "TUNING voices " + str(TUNE_VOICES) if args.tune else \
        "HELD-OUT voices " + str(HELD_VOICES)
    print(f"eval_colours ({which}; seed {seed}): {audio / 60:.1f} min of audio, "
          f"wall {time.time() - t0:.0f} s")
    shipped = SpotterConfig(**COLOUR_GATES)
    settings: list[SpotterConfig | Neural] = list(neural_settings)
    if not args.no_search:
        settings.append(shipped)
        if args.tune:
            settings += [dataclasses.replace(shipped, **kw) for kw in (
                {"min_ratio": r} for r in (-8.0, -10.0, -12.0, -14.0, -18.0, -20.0,
                                           -25.0))]
            settings += [dataclasses.replace(shipped, **kw) for kw in (
                {"max_level": 20}, {"min_rise_db": 4.0}, {"min_rise_db": 8.0},
                {"max_length": 0.8}, {"max_length": 1.3})]
    print("setting (the game's listener first)      " + "  ".join(
        f"{s:>3}dB" for s in SNRS) + "  wrong(pos)  stray  wrong/h talk  gated/h"
        "  (at the wild)")

    def pace(r: dict, last_wins: bool = True, wild: bool = True) -> float:
        return gated(r["talk"][1], r["right"][10], args.wilds_per_hour,
                     args.next_card, last_wins, at_the_wild(r) if wild else 0.0)

    for cfg in settings:
        r = score(cfg, pos, talk)
        name = cfg.name() if isinstance(cfg, Neural) else (
            f"search lvl<={cfg.max_level} rise>={cfg.min_rise_db:g} "
            f"len<={cfg.max_length:g} LR>={cfg.min_ratio:g}")
        print(f"{name:41s} " + "  ".join(f"{100 * r['right'][s]:4.0f}%" for s in SNRS)
              + f"  {sum(r['wrong'].values()):10d}  {r['stray']:5d}"
              f"  {r['talk'][1]:12.1f}  {pace(r):7.2f}  "
              f"({at_the_wild(r) * args.wilds_per_hour:.2f})")
    heads = ([("colour spotter (the game's listener, inside the gate)",
               neural_settings[0])] if neural_settings else []) + \
        ([("colour spotter (the model's own setting: tableref listen --colours)",
           neural_settings[1])] if len(neural_settings) > 1
         and neural_settings[1] == own else []) + \
        ([("keyword search (pocketsphinx)", shipped)] if not args.no_search else [])
    for title, cfg in heads:
        r = score(cfg, pos, talk)
        print(f"{title}: colour words per SNR: {r['n'][SNRS[0]]} (half English, "
              f"half Japanese); talk: {r['talk'][2] / 60:.0f} min")
        for s in SNRS:
            en, ja = r["lang"][(s, "en")], r["lang"][(s, "ja")]
            print(f"  {s:>2} dB: heard {100 * r['right'][s]:.1f} % (en "
                  f"{100 * en:.0f} %, ja {100 * ja:.0f} %), "
                  f"wrong colour {r['wrong'][s]}, away from the words "
                  f"{r['strays'].get(s, 0)}")
        print(f"  wrong colours in table talk: {r['talk'][0]} in "
              f"{r['talk'][2] / 3600:.2f} h = {r['talk'][1]:.1f} an hour ungated; "
              f"gated (a wild {args.wilds_per_hour:g} times an hour, the next card "
              f"{args.next_card:g} s after it): {pace(r):.2f} an hour, of which "
              f"{pace(r) - pace(r, wild=False):.2f} at the wild itself (wrong "
              f"for the word or away from it at 10 dB); talk alone "
              f"{pace(r, wild=False):.2f} (the gate before the last-heard rule: "
              f"{pace(r, False, False):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
