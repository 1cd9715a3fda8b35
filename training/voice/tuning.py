"""The spotter's threshold, chosen on validation streams of held-out talk and calls."""

from __future__ import annotations

import numpy as np

from voice.audio import RATE
from voice.kws import KwsConfig, NeuralSpotter, replay

from .mixing import rms

def validation_streams(bank: dict[str, list[np.ndarray]], noise: dict[str, np.ndarray],
                       seed: int, calls: int = 160, talk_minutes: float = 45.0,
                       noise_minutes: float = 45.0,
                       keywords: tuple[str, ...] = ("calls",)) -> dict:
    """Long validation recordings from the validation split: calls in noise at
    20, 10 and 0 dB SNR (with their marks), talk without the word (held-out
    sentences), noise alone, and the held-out sound-alikes one by one.

    With several keyword classes (the colours) the calls are taken from each in
    turn and ``labels`` gives each mark's class index."""
    rng = np.random.default_rng(seed)
    kinds = list(noise)
    pos = [np.zeros(RATE, np.float32)]
    marks, t = [], RATE
    sets = [bank[f"val_{k}"] for k in keywords]
    labels = [i % len(sets) for i in range(calls)]
    picked = [sets[k][(i // len(sets)) * len(sets[k]) * len(sets) // calls]
              for i, k in enumerate(labels)]  # spread over every kind of call
    for word in picked:
        level = rms(word)
        if rng.random() < 0.3:
            lead = bank["val_leads"][int(rng.integers(len(bank["val_leads"])))]
            pos += [lead / rms(lead) * level,
                    np.zeros(int(rng.uniform(0.25, 0.5) * RATE), np.float32)]
            t += len(pos[-1]) + len(pos[-2])
        pos += [word, np.zeros(int(rng.uniform(1.5, 3.0) * RATE), np.float32)]
        marks.append((t / RATE, (t + len(word)) / RATE))
        t += len(word) + len(pos[-1])
    speech = np.concatenate(pos)
    level = rms(np.concatenate(picked))
    snr_audio = {}
    for snr in (20, 10, 0):
        bed = np.concatenate([noise[kinds[(i + snr) % len(kinds)]]
                              for i in range(len(speech) // len(noise[kinds[0]]) + 2)])
        snr_audio[snr] = (speech + bed[:len(speech)] * level / 10 ** (snr / 20)) \
            * 0.3 / level
    parts, n = [], 0
    while n < talk_minutes * 60 * RATE:  # the held-out sentences, reshuffled
        clip = bank["val_talk"][int(rng.integers(len(bank["val_talk"])))]
        clip = clip / rms(clip) * 0.2 * rng.uniform(0.5, 1.5)
        pause = np.zeros(int(rng.uniform(0.3, 2.0) * RATE), np.float32)
        parts += [clip, pause]
        n += len(clip) + len(pause)
    talk = np.concatenate(parts)
    talk = talk + 0.02 * noise["pink"][np.arange(len(talk)) % len(noise["pink"])]
    parts = []
    for clip in bank["val_confusables"]:
        parts += [clip / rms(clip) * 0.2, np.zeros(2 * RATE, np.float32)]
    confusables = np.concatenate(parts)
    per = int(noise_minutes * 60 * RATE / len(kinds))
    noise_audio = np.concatenate([np.tile(noise[k], per // len(noise[k]) + 1)[:per]
                                  * 0.05 for k in kinds])
    return {"marks": marks, "snr": snr_audio, "talk": talk, "noise": noise_audio,
            "confusables": confusables, "n_confusables": len(bank["val_confusables"]),
            "labels": labels}


def trace_of(model, audio: np.ndarray) -> list[tuple[float, float, float]]:
    """Every window's (t, prob, level) for a recording, fed in 0.1 s chunks."""
    from voice.audio import to_pcm16

    spotter = NeuralSpotter(model, KwsConfig(threshold=2.0), record=True)
    pcm = to_pcm16(audio, RATE)
    step = int(0.1 * RATE) * 2
    for i in range(0, len(pcm), step):
        spotter.feed(pcm[i:i + step])
    return spotter.trace


def tune(model, streams: dict, goal_fa: float = 0.5) -> dict:
    """Detection and false alarms per threshold; picks the setting with the best
    detection at 10 dB among those whose false alarms on validation talk and
    noise are at most ``goal_fa`` per hour (none in the validation hour)."""
    traces = {k: trace_of(model, v) for k, v in streams["snr"].items()}
    talk, noise = trace_of(model, streams["talk"]), trace_of(model, streams["noise"])
    confusables = trace_of(model, streams["confusables"])
    hours_talk = len(streams["talk"]) / RATE / 3600
    hours_noise = len(streams["noise"]) / RATE / 3600
    rows = []
    for thr in (0.5, 0.8, 0.85, 0.9, 0.93, 0.95, 0.96, 0.97, 0.98, 0.99):
        for hits in (1, 2, 3):
            cfg = KwsConfig(threshold=thr, min_hits=hits)
            det = {}
            for snr, tr in traces.items():
                found = [c[1] for c in replay(tr, cfg)]
                det[snr] = float(np.mean([any(s - 0.3 <= f <= e + 1.0 for f in found)
                                          for s, e in streams["marks"]]))
            row = {"threshold": thr, "min_hits": hits, "det": det,
                   "fa_talk": len(replay(talk, cfg)) / hours_talk,
                   "fa_noise": len(replay(noise, cfg)) / hours_noise,
                   "confusables": len(replay(confusables, cfg))
                   / streams["n_confusables"]}
            rows.append(row)
            print(f"thr {thr:<6} hits {hits}  det " +
                  " ".join(f"{s}dB {100 * d:5.1f}%" for s, d in det.items()) +
                  f"  FA/h talk {row['fa_talk']:.1f} noise {row['fa_noise']:.1f}"
                  f"  sound-alikes fired {100 * row['confusables']:.0f}%",
                  flush=True)
    ok = [r for r in rows if r["fa_talk"] <= goal_fa and r["fa_noise"] <= goal_fa]
    best = max(ok or rows, key=lambda r: (r["det"][10], -r["fa_talk"]))
    return {"rows": rows, "best": best}


def tune_colours(model, streams: dict, goal_fa: float = 0.5) -> dict:
    """:func:`tune` for the colour spotter: a colour counts as heard when the
    right colour fires near the word; every other colour fired near a word is a
    wrong colour. Picks the best detection at 10 dB among the settings with at
    most ``goal_fa`` colours an hour in validation talk and noise, fewest wrong
    colours first among equals."""
    traces = {k: trace_of(model, v) for k, v in streams["snr"].items()}
    talk, noise = trace_of(model, streams["talk"]), trace_of(model, streams["noise"])
    confusables = trace_of(model, streams["confusables"])
    hours_talk = len(streams["talk"]) / RATE / 3600
    hours_noise = len(streams["noise"]) / RATE / 3600
    rows = []
    for thr in (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99):
        for hits in (1, 2, 3, 4):
            cfg = KwsConfig(threshold=thr, min_hits=hits)
            det, wrong = {}, {}
            for snr, tr in traces.items():
                found = replay(tr, cfg)
                near = [[c for c in found if s - 0.3 <= c[1] <= e + 1.0]
                        for s, e in streams["marks"]]
                det[snr] = float(np.mean([any(c[4] == want for c in cs) for cs, want
                                          in zip(near, streams["labels"])]))
                wrong[snr] = sum(c[4] != want for cs, want
                                 in zip(near, streams["labels"]) for c in cs)
            row = {"threshold": thr, "min_hits": hits, "det": det, "wrong": wrong,
                   "fa_talk": len(replay(talk, cfg)) / hours_talk,
                   "fa_noise": len(replay(noise, cfg)) / hours_noise,
                   "confusables": len(replay(confusables, cfg))
                   / streams["n_confusables"]}
            rows.append(row)
            print(f"thr {thr:<5} hits {hits}  heard " +
                  " ".join(f"{s}dB {100 * d:5.1f}%" for s, d in det.items()) +
                  f"  wrong {sum(wrong.values())}  colours/h talk "
                  f"{row['fa_talk']:.1f} noise {row['fa_noise']:.1f}"
                  f"  sound-alikes fired {100 * row['confusables']:.0f}%", flush=True)
    ok = [r for r in rows if r["fa_talk"] <= goal_fa and r["fa_noise"] <= goal_fa]
    if not ok:  # none that quiet: the quietest settings
        least = min(r["fa_talk"] + r["fa_noise"] for r in rows)
        ok = [r for r in rows if r["fa_talk"] + r["fa_noise"] == least]
    best = max(ok, key=lambda r: (r["det"][10], -sum(r["wrong"].values()),
                                  -r["fa_talk"]))
    return {"rows": rows, "best": best}
