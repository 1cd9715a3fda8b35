"""Measure the UNO-call listener on synthesised speech in table noise.

Two spotters are measured on the same audio: the neural keyword spotter that
``tableref listen`` uses for the UNO call (:mod:`voice.kws`, ``models/uno-kws.pt``)
and the keyword search it falls back to (pocketsphinx, :class:`PhoneticSpotter`).

Speech comes from espeak-ng (English and Japanese voices, several variants, speeds
and pitches); noise from sox (white, pink, brown), shuffling-like bursts, and
chatter made of other synthesised speech. Reported:

* detection rate of calls ("Uno!", "ウノ", some after a short sentence) at each SNR
  (speech RMS over its voiced samples against noise RMS), per noise type;
* detection rate of calls said over the end of another voice's words (one of the
  lead phrases, said by another voice, ending 0.1-0.3 s into the call: a colour
  named for a wild as the next player calls), at each SNR;
* false alarms per hour of pure noise and per hour of table talk without the word
  (English and Japanese sentences, names, numbers), with light noise;
* how often deliberately confusable phrases ("you know", "oh no", "きょうの") fire;
* latency: audio seconds from the end of the word to the detection, and the speed.

Every keyword hit is recorded once with its measurements (``gates=False``), and
every window score of the neural spotter once (with its cut views,
``SpotterConfig.cut_keep``, as the listener scores them); each threshold setting
is then applied to the same hits and scores, so the sweeps cost nothing. The
neural spotter is reported at the game's listener's setting (the model's
threshold and ``min_hits`` with the cut views and the likely calls of
``SpotterConfig``), without the likely calls (``tableref listen``) and without
cut views. False alarms are also given "with the gate": the game's listener
makes an event of a call only where it can attribute it (a player down to one
card or to move with two), :data:`GATE_SHARE` of play, and of a likely call
only within ``voice.attribution.LIKELY_PLAY_S`` of a play that leaves its
player with one card, :data:`LIKELY_GATE_SHARE` of play, so the gated figure
is the ungated one through those shares.

This is held-out data for the neural spotter: ``training/voice/`` trains on other
espeak-ng voices and variants (en-gb-scotland, en-gb-x-gbclan, en-gb-x-gbcwmd,
en-029, en-us-nyc, es, it, pt, ... with variants m1, f1, klatt, ...; never the
voices of EN_VOICES and JA_VOICES: the Japanese base voice ``ja`` is
espeak-ng's only one and is used only with other variants), other speeds and
pitches (never 120/150/175/200 nor 30/50/70/90), and its own call texts, lead
phrases, talk sentences and confusables (none of EN_CALLS, JA_CALLS, LEADS_*,
TALK_*, CONFUSABLE in ``benchmarks/voice_audio.py``); its threshold was tuned on
its own validation streams.

Usage::

    .venv/bin/python -m benchmarks.eval_voice            # ~1 h of negatives
    .venv/bin/python -m benchmarks.eval_voice --quick    # a smaller run
    # two models on the same audio, without the (slow) keyword search:
    .venv/bin/python -m benchmarks.eval_voice --no-search \
        --model models/uno-kws.pt --model /tmp/kws2/uno-kws.pt

Needs the Debian packages espeak-ng and sox.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from voice.audio import RATE, to_pcm16
from voice.kws import (KwsConfig, KwsModel, ModelError,
                       NeuralSpotter, replay)
from benchmarks.voice_audio import (
    CONFUSABLE,
    EN_CALLS,
    EN_VOICES,
    JA_CALLS,
    JA_VOICES,
    LEADS_EN,
    LEADS_JA,
    NOISES,
    TALK_EN,
    TALK_JA,
    noise_bed,
    rms,
    say,
    sox_noise,
)
from voice.detection import Detection, SpotterConfig
from voice.search import PhoneticSpotter

DEFAULT_MODELS = [str(Path(__file__).resolve().parents[1] / "models" / "uno-kws.pt")]
_MODEL_PATHS: list[str] = DEFAULT_MODELS
_MODELS: dict[str, KwsModel] = {}
_SEARCH = True


def _init_worker(model_paths: list[str], search: bool) -> None:
    """Worker set-up: which neural models to run, and whether keyword search too."""
    global _MODEL_PATHS, _SEARCH
    _MODEL_PATHS, _SEARCH = model_paths, search


def run_spotter(audio: np.ndarray) -> tuple[list[tuple[Detection, float]], float]:
    """All keyword hits (with their emission time in audio seconds) and CPU seconds;
    none when the keyword search is switched off (``--no-search``)."""
    if not _SEARCH:
        return [], 0.0
    spotter = PhoneticSpotter(config=SpotterConfig(engine="pocketsphinx", gates=False))
    pcm = to_pcm16(audio, RATE)
    step = int(0.1 * RATE) * 2
    out: list[tuple[Detection, float]] = []
    t0 = time.process_time()
    for i in range(0, len(pcm), step):
        out += [(d, spotter.seconds) for d in spotter.feed(pcm[i:i + step])]
    out += [(d, spotter.seconds) for d in spotter.flush()]
    return out, time.process_time() - t0


def run_neural(audio: np.ndarray) -> tuple[dict[str, list[tuple[float, float, float]]],
                                             dict[str, float]]:
    """Each neural model's score for every window ``(t, prob, level)``, fed in
    0.1 s chunks like a microphone, and its CPU seconds, keyed by model path."""
    traces, cpu = {}, {}
    pcm = to_pcm16(audio, RATE)
    step = int(0.1 * RATE) * 2
    for path in _MODEL_PATHS:
        if path not in _MODELS:
            _MODELS[path] = KwsModel(path)
        spotter = NeuralSpotter(_MODELS[path], dataclasses.replace(
            listener_config(_MODELS[path]), threshold=2.0), record=True)
        t0 = time.process_time()
        for i in range(0, len(pcm), step):
            spotter.feed(pcm[i:i + step])
        traces[path], cpu[path] = spotter.trace, time.process_time() - t0
    return traces, cpu


def listener_config(model: KwsModel, cuts: bool = True,
                    likely: bool = True) -> KwsConfig:
    """The neural spotter's setting in the game's listener
    (:class:`voice.spotter.Spotter` with the default :class:`SpotterConfig`,
    ``gated=True``): the model's threshold and ``min_hits``, the config's cut
    views (``cuts=False``: none) and its likely calls (``likely=False``: none,
    what ``tableref listen`` decides)."""
    meta, config = model.meta, SpotterConfig()
    return KwsConfig(threshold=float(meta.get("threshold", 0.9)),
                     min_hits=int(meta.get("min_hits", 2)),
                     cut_keep=tuple(config.cut_keep) if cuts else (),
                     cut_threshold=config.cut_threshold,
                     cut_noise=config.cut_noise,
                     likely_cut_threshold=config.likely_cut_threshold
                     if likely else None,
                     likely_min_rise=config.likely_min_rise_db)


#: the share of play in which the game's listener can attribute an UNO call
#: (:func:`voice.attribution.attribute` finds a player on the referee's state
#: at that moment: down to one card, or to move with two, and not yet called),
#: from the scripted logs of the rendered tuning tables (1328 s of 9931 s of
#: play, 72 games, their calls made): a call heard outside it makes no event,
#: so the false alarms an hour "with the gate" are the ungated ones times this
#: share. (A recording beside a video judges a call at the camera's next
#: play instead, by then mostly made: 0.042 of play on the same logs.)
GATE_SHARE = 0.134
#: the share of play in which the game's listener can count a likely call
#: (within ``voice.attribution.LIKELY_PLAY_S``, 2 s, of a play that leaves its
#: player with one card; ``vision.hearing`` for a recording beside a video):
#: 1640 s of 11282 s of play on the scripted logs of 82 rendered tuning games,
#: counted as if nobody had called (where anyone called, a likely call near
#: that play is a repeat and makes no event), so an upper bound. The same logs
#: without their calls give the attributor's gate 0.253 of play (0.241 in a
#: recording beside a video), which likely calls passed before this one.
LIKELY_GATE_SHARE = 0.145


def gated(per_hour: float, share: float = GATE_SHARE) -> float:
    """False alarms an hour that pass the listener's gate (:data:`GATE_SHARE`)."""
    return per_hour * share


def gated_fa(r: dict, key: str) -> float:
    """The false alarms an hour of ``key`` (``noise``, ``talk``) in a
    :func:`score_neural` result that pass the gates: the first decision's
    through :data:`GATE_SHARE`, the likely calls through
    :data:`LIKELY_GATE_SHARE`."""
    count, _rate, seconds = r["fa"][key]
    likely = r["fa_likely"][key]
    return ((count - likely) * GATE_SHARE + likely * LIKELY_GATE_SHARE) * 3600 / seconds


def call_babble() -> list:
    """The chatter the call tracks' noise beds are made of."""
    return [say(t, v) for t, v in zip(TALK_EN[:6] + TALK_JA[:4],
                                      ["en-us", "en+f3", "en", "en+m3"] * 3)]


def random_call(rng: random.Random, i: int) -> tuple:
    """The ``i``-th call of a track (every third in Japanese): its text, its
    audio, and the voice, speed and pitch that said it."""
    ja = i % 3 == 2
    voice = rng.choice(JA_VOICES if ja else EN_VOICES)
    speed, pitch = rng.choice([120, 150, 175, 200]), rng.choice([30, 50, 70, 90])
    text = rng.choice(JA_CALLS if ja else EN_CALLS)
    return text, say(text, voice, speed, pitch), voice, speed, pitch


def overlap_job(args: tuple[str, int, int, int]) -> dict:
    """One noise track with ``count`` calls, each said over the end of another
    voice's lead phrase (ending 0.1-0.3 s into the call), at one SNR."""
    kind, snr, seed, count = args
    rng = random.Random(seed)
    babble = call_babble()
    pairs = []
    for i in range(count):
        _, word, voice, _, _ = random_call(rng, i)
        other = rng.choice([v for v in EN_VOICES + JA_VOICES if v != voice])
        lead = say(rng.choice(LEADS_JA if other.startswith("ja") else LEADS_EN),
                   other, rng.choice([150, 175]), rng.choice([30, 70]))
        pairs.append((word, lead / rms(lead) * rms(word), voice,
                      int(rng.uniform(0.1, 0.3) * RATE)))
    total = sum(len(w) + len(l) + 3 * RATE for w, l, _, _ in pairs) + 2 * RATE
    speech = np.zeros(total, np.float32)
    marks, pos = [], 2 * RATE
    for word, lead, voice, over in pairs:
        pos += len(lead) - over
        speech[pos - len(lead) + over:pos + over] += lead
        speech[pos:pos + len(word)] += word
        marks.append((pos / RATE, (pos + len(word)) / RATE, voice))
        pos += len(word) + int(rng.uniform(1.5, 3.0) * RATE)
    speech = speech[:pos + RATE]
    level = rms(np.concatenate([p[0] for p in pairs]))
    # one sample more than the speech: seconds * RATE may round down
    noise = noise_bed(kind, (len(speech) + 1) / RATE, rng, babble)[:len(speech)]
    audio = (speech + noise * level / 10 ** (snr / 20)) * 0.3 / level
    traces, ncpus = run_neural(audio)
    return {"kind": kind, "snr": snr, "marks": marks, "hits": [], "cpu": 0.0,
            "traces": traces, "ncpus": ncpus, "seconds": len(audio) / RATE}


def positive_job(args: tuple[str, int, int, int]) -> dict:
    """One noise track with ``count`` calls placed in it at one SNR."""
    kind, snr, seed, count = args
    rng = random.Random(seed)
    babble = call_babble()
    calls = []
    for i in range(count):
        ja = i % 3 == 2
        _, word, voice, speed, pitch = random_call(rng, i)
        lead = say(rng.choice(LEADS_JA if ja else LEADS_EN), voice, speed, pitch) \
            if rng.random() < 0.3 else None
        calls.append((word, lead, voice))
    gap = lambda: int(rng.uniform(1.5, 3.0) * RATE)  # noqa: E731
    total = sum(len(w) + (len(l) + RATE // 2 if l is not None else 0) + 3 * RATE
                for w, l, _ in calls) + 2 * RATE
    speech = np.zeros(total, np.float32)
    marks, pos = [], 2 * RATE
    for word, lead, voice in calls:
        if lead is not None:
            speech[pos:pos + len(lead)] = lead / rms(lead) * rms(word)
            pos += len(lead) + int(rng.uniform(0.25, 0.5) * RATE)
        speech[pos:pos + len(word)] = word
        marks.append((pos / RATE, (pos + len(word)) / RATE, voice))
        pos += len(word) + gap()
    speech = speech[:pos + RATE]
    level = rms(np.concatenate([c[0] for c in calls]))
    noise = noise_bed(kind, len(speech) / RATE, rng, babble)
    audio = (speech + noise * level / 10 ** (snr / 20)) * 0.3 / level
    hits, cpu = run_spotter(audio)
    traces, ncpus = run_neural(audio)
    return {"kind": kind, "snr": snr, "marks": marks, "hits": hits, "cpu": cpu,
            "traces": traces, "ncpus": ncpus, "seconds": len(audio) / RATE}


def negative_job(args: tuple[str, int, float]) -> dict:
    """A long stretch without the word: pure noise or table talk in light noise."""
    what, seed, seconds = args
    rng = random.Random(seed)
    if what in NOISES:
        babble = [say(t, v) for t, v in zip(TALK_EN[6:] + TALK_JA[4:],
                                            ["en-gb-x-rp", "en+f4"] * 12)]
        audio = noise_bed(what, seconds, rng, babble) * 0.05
    else:
        pool = [say(t, v, rng.choice([130, 160, 190]), rng.choice([30, 50, 80]))
                for t in TALK_EN for v in rng.sample(EN_VOICES, 3)]
        pool += [say(t, v, rng.choice([130, 160, 190]), rng.choice([30, 50, 80]))
                 for t in TALK_JA for v in rng.sample(JA_VOICES, 3)]
        parts, n = [], 0
        while n < seconds * RATE:
            clip = pool[rng.randrange(len(pool))]
            pause = np.zeros(int(rng.uniform(0.3, 2.0) * RATE), np.float32)
            clip = clip / rms(clip) * 0.2
            parts += [clip, pause]
            n += len(clip) + len(pause)
        audio = np.concatenate(parts)
        hiss = sox_noise("pinknoise", len(audio) / RATE + 0.1, rng)[:len(audio)]
        audio = audio + 0.02 * hiss
    hits, cpu = run_spotter(audio)
    traces, ncpus = run_neural(audio)
    return {"what": what, "hits": hits, "cpu": cpu, "traces": traces, "ncpus": ncpus,
            "seconds": len(audio) / RATE}


def confusable_job(seed: int) -> dict:
    rng = random.Random(seed)
    parts, marks, pos = [np.zeros(RATE, np.float32)], [], RATE
    for text, lang in CONFUSABLE:
        for voice in (EN_VOICES[:3] if lang == "en" else JA_VOICES[:3]):
            clip = say(text, voice, rng.choice([140, 170]))
            clip = clip / rms(clip) * 0.2
            parts += [clip, np.zeros(2 * RATE, np.float32)]
            marks.append((pos / RATE, (pos + len(clip)) / RATE, text))
            pos += len(clip) + 2 * RATE
    audio = np.concatenate(parts)
    audio = audio + 0.02 * sox_noise("pinknoise", len(audio) / RATE + 0.1, rng)[:len(audio)]
    hits, _ = run_spotter(audio)
    traces, ncpus = run_neural(audio)
    return {"marks": marks, "hits": hits, "traces": traces, "ncpus": ncpus}


def score(config: SpotterConfig, pos: list[dict], neg: list[dict],
          conf: dict) -> dict:
    """Detection, false alarms and latency of one configuration on the recorded hits."""
    det: dict[int, list[int]] = {}
    per_kind: dict[tuple[int, str], list[int]] = {}
    latency: list[float] = []
    for job in pos:
        hits = [(d, at) for d, at in job["hits"] if config.accepts(d)]
        for start, end, _voice in job["marks"]:
            found = [at for d, at in hits if start - 0.3 <= d.end <= end + 1.0]
            det.setdefault(job["snr"], []).append(bool(found))
            per_kind.setdefault((job["snr"], job["kind"]), []).append(bool(found))
            if found:
                latency.append(min(found) - end)
    fa: dict[str, list[float]] = {}
    for job in neg:
        key = "noise" if job["what"] in NOISES else "talk"
        n = sum(config.accepts(d) for d, _ in job["hits"])
        fa.setdefault(key, [0, 0.0])
        fa[key][0] += n
        fa[key][1] += job["seconds"]
    fired = [any(config.accepts(d) and s - 0.3 <= d.end <= e + 1.0
                 for d, _ in conf["hits"]) for s, e, _ in conf["marks"]]
    return {"det": {k: float(np.mean(v)) for k, v in det.items()},
            "per_kind": {k: float(np.mean(v)) for k, v in per_kind.items()},
            "n": {k: len(v) for k, v in det.items()},
            "fa": {k: (v[0], v[0] * 3600 / v[1], v[1]) for k, v in fa.items()},
            "latency": latency, "confusable": (sum(fired), len(fired))}


def _calls(trace: list[tuple], config: KwsConfig) -> list[tuple]:
    """The calls a setting makes on a recorded trace, its likely calls
    (:attr:`KwsConfig.likely_cut_threshold`) included."""
    calls, likely = replay(trace, config, likely=True)
    return calls + likely


def score_neural(config: KwsConfig, pos: list[dict], neg: list[dict],
                 conf: dict) -> dict:
    """Detection, false alarms and latency of the neural spotter under ``config``,
    from the recorded window scores (the same matching rules as :func:`score`).

    Latency is from the end of the word to the end of the 0.1 s chunk in which
    the call was decided (what a listener fed by a microphone sees)."""
    det: dict[int, list[int]] = {}
    per_kind: dict[tuple[int, str], list[int]] = {}
    per_voice: dict[str, list[int]] = {}
    latency: list[float] = []
    for job in pos:
        calls = _calls(job["trace"], config)
        for start, end, voice in job["marks"]:
            found = [math.ceil(at * 10 - 1e-6) / 10 for _s, e, _p, at in calls
                     if start - 0.3 <= e <= end + 1.0]
            det.setdefault(job["snr"], []).append(bool(found))
            per_kind.setdefault((job["snr"], job["kind"]), []).append(bool(found))
            per_voice.setdefault(voice, []).append(bool(found))
            if found:
                latency.append(min(found) - end)
    fa: dict[str, list[float]] = {}
    fa_likely: dict[str, int] = {}
    for job in neg:
        key = "noise" if job["what"] in NOISES else "talk"
        fa.setdefault(key, [0, 0.0])
        calls, likely = replay(job["trace"], config, likely=True)
        fa[key][0] += len(calls) + len(likely)
        fa[key][1] += job["seconds"]
        fa_likely[key] = fa_likely.get(key, 0) + len(likely)
    calls = _calls(conf["trace"], config)
    fired = [any(s - 0.3 <= e <= e_mark + 1.0 for _s, e, _p, _at in calls)
             for s, e_mark, _ in conf["marks"]]
    return {"det": {k: float(np.mean(v)) for k, v in det.items()},
            "per_kind": {k: float(np.mean(v)) for k, v in per_kind.items()},
            "per_voice": {k: (sum(v), len(v)) for k, v in per_voice.items()},
            "n": {k: len(v) for k, v in det.items()},
            "fa": {k: (v[0], v[0] * 3600 / v[1], v[1]) for k, v in fa.items()},
            "fa_likely": fa_likely,
            "latency": latency, "confusable": (sum(fired), len(fired))}


def report_neural(pos: list[dict], neg: list[dict], conf: dict,
                  snrs: list[int], path: str, over: list[dict] | None = None) -> None:
    """Print the numbers of the neural model in ``path``: a threshold sweep, then
    the listener's setting by noise type and by voice, latency and CPU; with
    ``over`` (:func:`overlap_job`), the calls said over another voice's words."""
    pick = lambda job: {**job, "trace": job["traces"][path],  # noqa: E731
                        "ncpu": job["ncpus"][path]}
    pos, neg, conf = [pick(j) for j in pos], [pick(j) for j in neg], pick(conf)
    over = [pick(j) for j in over or []]
    model = KwsModel(path)
    shipped = listener_config(model)
    sure = listener_config(model, likely=False)
    bare = listener_config(model, cuts=False)
    settings = [shipped, sure, bare] + [dataclasses.replace(sure, **kw) for kw in (
        {"threshold": 0.5}, {"threshold": 0.85},
        {"threshold": 0.9},
        {"threshold": 0.95}, {"threshold": 0.98}, {"threshold": 0.99},
        {"threshold": 0.995}, {"threshold": 0.999},
        {"min_hits": 1}, {"min_hits": 2}, {"min_hits": 4},
        {"cut_threshold": 0.8}, {"cut_threshold": 0.95},
        {"likely_cut_threshold": 0.75}, {"likely_cut_threshold": 0.8},
        {"likely_cut_threshold": 0.85},
        {"likely_cut_threshold": 0.8, "likely_min_rise": 0.0},
        {"likely_cut_threshold": 0.8, "likely_min_rise": 6.0},
        {"likely_cut_threshold": 0.8, "likely_min_rise": 12.0})]
    print(f"\nNEURAL SPOTTER ({path}; the game's listener's setting first, then "
          "without its likely calls (tableref listen), then without cut views; "
          f"with the gate: the false alarms an hour times {GATE_SHARE:g}, the "
          "share of play in which a call can be attributed, the likely calls' "
          f"times {LIKELY_GATE_SHARE:g}, the share near a play down to one card)")
    head = "  ".join(f"{s:>3}dB" for s in snrs)
    print("setting                                          " + head
          + "  FA/h noise  FA/h talk  gated: noise  talk  confusable"
          + ("  overlapped: " + head if over else ""))
    for cfg in settings:
        r = score_neural(cfg, pos, neg, conf)
        name = f"p>={cfg.threshold:g} hits>={cfg.min_hits}" + (
            f" cut {','.join(map(str, cfg.cut_keep))} p>={cfg.cut_threshold:g}"
            if cfg.cut_keep else " no cut views") + (
            f" likely>={cfg.likely_cut_threshold:g} +{cfg.likely_min_rise:g}dB"
            if cfg.cut_keep and cfg.likely_cut_threshold is not None else "")
        dets = "  ".join(f"{100 * r['det'][s]:4.0f}%" for s in snrs)
        fa = r["fa"]
        line = (f"{name:49s} {dets}  {fa['noise'][1]:10.1f} {fa['talk'][1]:10.1f}"
                f"  {gated_fa(r, 'noise'):12.2f} {gated_fa(r, 'talk'):5.2f}"
                f"  {r['confusable'][0]:>4}/{r['confusable'][1]}")
        if over:
            o = score_neural(cfg, over, neg, conf)
            line += "            " + "  ".join(f"{100 * o['det'][s]:4.0f}%"
                                               for s in snrs)
        print(line)
    if over:
        print(f"overlapped calls per SNR: {score_neural(shipped, over, neg, conf)['n'][snrs[0]]}")
    r = score_neural(shipped, pos, neg, conf)
    print("its setting, detection by noise type:")
    print("noise        " + "  ".join(f"{s:>3}dB" for s in snrs))
    for kind in NOISES:
        print(f"{kind:12s} " + "  ".join(f"{100 * r['per_kind'][(s, kind)]:4.0f}%"
                                         for s in snrs))
    print("detected per voice (all SNRs and noises): " + ", ".join(
        f"{v} {n}/{t}" for v, (n, t) in sorted(r["per_voice"].items())))
    lat = np.array(r["latency"])
    if len(lat):
        print(f"latency word end -> decision (audio s, 0.1 s chunks): median "
              f"{np.median(lat):.2f}, p90 {np.percentile(lat, 90):.2f}, "
              f"max {lat.max():.2f}")
    print(f"false alarms (its setting): noise {r['fa']['noise'][0]} in "
          f"{r['fa']['noise'][2] / 3600:.2f} h, talk {r['fa']['talk'][0]} in "
          f"{r['fa']['talk'][2] / 3600:.2f} h; likely calls among them: noise "
          f"{r['fa_likely']['noise']}, talk {r['fa_likely']['talk']}; gated an "
          f"hour: noise {gated_fa(r, 'noise'):.2f}, talk {gated_fa(r, 'talk'):.2f}")
    audio = sum(j["seconds"] for j in pos + neg)
    cpu = sum(j["ncpu"] for j in pos + neg)
    cpu_talk = sum(j["ncpu"] for j in neg if j["what"] not in NOISES)
    talk = sum(j["seconds"] for j in neg if j["what"] not in NOISES)
    print(f"neural spotter CPU (the listener's cut views included) {cpu:.0f} s for "
          f"{audio / 60:.1f} min of audio: "
          f"{100 * cpu / audio:.1f} % of one core ({audio / cpu:.0f}x real time); "
          f"in table talk {100 * cpu_talk / max(talk, 1e-9):.1f} %")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about 5x less audio")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", action="append", default=None,
                        help="a neural model to measure (repeat for several, all on "
                        "the same audio; default models/uno-kws.pt)")
    parser.add_argument("--no-search", action="store_true",
                        help="skip the keyword search (pocketsphinx): much faster")
    args = parser.parse_args()
    models = args.model or DEFAULT_MODELS
    for path in models:
        try:
            KwsModel(path)
        except (ModelError, ImportError) as exc:
            print(f"eval_voice: {exc}")
            return 2
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            print(f"eval_voice: {tool} is not installed "
                  "(apt-get install espeak-ng sox)")
            return 2
    count = 8 if args.quick else 24
    neg_seconds = 720.0 if args.quick else 3600.0
    snrs = [20, 10, 5, 0]
    t0 = time.time()
    pos_jobs = [(k, s, args.seed * 1000 + i, count) for i, (k, s) in
                enumerate((k, s) for s in snrs for k in NOISES)]
    over_jobs = [(k, s, args.seed * 1000 + 500 + i, count // 2) for i, (k, s) in
                 enumerate((k, s) for s in snrs for k in NOISES)]
    noise_secs = neg_seconds / len(NOISES)
    neg_jobs = [(k, args.seed + i, noise_secs) for i, k in enumerate(NOISES)]
    neg_jobs += [("talk", args.seed + 100 + i, neg_seconds / 4) for i in range(4)]
    with ProcessPoolExecutor(args.workers, initializer=_init_worker,
                             initargs=(models, not args.no_search)) as pool:
        conf_f = pool.submit(confusable_job, args.seed)
        neg = list(pool.map(negative_job, neg_jobs))
        pos = list(pool.map(positive_job, pos_jobs))
        over = list(pool.map(overlap_job, over_jobs))
        conf = conf_f.result()
    audio = sum(j["seconds"] for j in pos + neg + over)
    print(f"audio processed: {audio / 60:.1f} min; wall {time.time() - t0:.0f} s")
    if not args.no_search:
        report_search(pos, neg, conf, snrs, audio)
    for path in models:
        report_neural(pos, neg, conf, snrs, path, over)
    return 0


def report_search(pos: list[dict], neg: list[dict], conf: dict, snrs: list[int],
                  audio: float) -> None:
    """Print the keyword search's numbers: a sweep of its gates, then its default
    setting by noise type, latency and false alarms."""
    cpu = sum(j["cpu"] for j in pos + neg)
    print(f"keyword search CPU {cpu:.0f} s ({audio / cpu:.0f}x real time on one core)")
    base = SpotterConfig()
    settings = [base] + [dataclasses.replace(base, **kw) for kw in (
        {"min_ratio": -15.0}, {"min_ratio": -7.0}, {"min_ratio": -4.0},
        {"min_ratio": 0.0}, {"max_level": 10}, {"max_level": 25}, {"min_rise_db": 4.0},
        {"min_rise_db": 10.0}, {"max_length": 0.8}, {"max_length": 1.5},
        {"max_level": 25, "min_rise_db": 0.0, "max_length": 99.0,
         "min_ratio": -math.inf})]
    print("\nKEYWORD SEARCH (pocketsphinx; the fallback, and custom call words)")
    head = "  ".join(f"{s:>3}dB" for s in snrs)
    print("setting (default first)                   " + head
          + "  FA/h noise  FA/h talk  confusable")
    for cfg in settings:
        r = score(cfg, pos, neg, conf)
        name = (f"lvl<={cfg.max_level} rise>={cfg.min_rise_db:g} "
                f"len<={cfg.max_length:g} LR>={cfg.min_ratio:g}")
        dets = "  ".join(f"{100 * r['det'][s]:4.0f}%" for s in snrs)
        fa = r["fa"]
        print(f"{name:42s} {dets}  {fa['noise'][1]:10.1f} {fa['talk'][1]:10.1f}"
              f"  {r['confusable'][0]:>4}/{r['confusable'][1]}")
    r = score(base, pos, neg, conf)
    print(f"\ncalls per SNR: {r['n'][snrs[0]]}; negatives: noise "
          f"{r['fa']['noise'][2] / 60:.0f} min, talk {r['fa']['talk'][2] / 60:.0f} min")
    print("default setting, detection by noise type:")
    print("noise        " + "  ".join(f"{s:>3}dB" for s in snrs))
    for kind in NOISES:
        print(f"{kind:12s} " + "  ".join(f"{100 * r['per_kind'][(s, kind)]:4.0f}%"
                                         for s in snrs))
    lat = np.array(r["latency"])
    print(f"latency word end -> decision (audio s): median {np.median(lat):.2f}, "
          f"p90 {np.percentile(lat, 90):.2f}, max {lat.max():.2f}")
    print(f"false alarms (default): noise {r['fa']['noise'][0]} in "
          f"{r['fa']['noise'][2] / 3600:.2f} h, talk {r['fa']['talk'][0]} in "
          f"{r['fa']['talk'][2] / 3600:.2f} h")


if __name__ == "__main__":
    sys.exit(main())
