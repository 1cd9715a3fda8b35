"""Render the demo's sound track (``vision/demo/data/demo-table.flac``).

The players *say* their UNO calls and their wilds' colours; the video cannot show
that, so the bundled demo carries a sound track beside it that ``tableref demo``
listens to (:mod:`vision.demo.run`). This script renders it from the demo's
scripted game (``demo-table.jsonl``, the same script the video was rendered
from): synthetic voices (espeak-ng) say "UNO" so that the word ends at each
``uno`` event's time, and the wild's colour starting 0.3 s after each wild is
put down, over table noise (a pink/brown room bed, a soft slap for each card put
down or taken) mixed at ``--snr`` dB (speech RMS over its voiced samples against
the noise RMS; default 15). Aiko speaks Japanese (ウノ, あか/あお/みどり/きいろ), Ben
and Chie English. The script is used only to *render* the sensor input; no event
of it reaches the referee, which hears the track through the listener.

Any rendered game gets its track the same way: :func:`render_track` writes
``demo-table.flac`` into a game's folder (beside ``demo-table.mp4`` and the
script ``demo-table.jsonl`` that :func:`vision.demo.render.render` wrote), the
noise seeded from the game's seed; ``benchmarks/eval_handsfree.py`` does so for
every game it referees. A player without a voice of their own in
:data:`VOICES` is given one of them in seat order.

Usage::

    .venv/bin/python -m vision.demo.audio            # writes demo-table.flac
    .venv/bin/python -m vision.demo.audio --snr 10 --out /tmp/demo-10db.flac
    .venv/bin/python -m vision.demo.audio --game /tmp/tableref-real-s2-15fps --seed 2

Seeded (the noise) and deterministic (espeak-ng); needs espeak-ng and sox.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np

from voice.audio import RATE, read_wav, say

DATA = Path(__file__).parent / "data"
SCRIPT = DATA / "demo-table.jsonl"
TRACK = DATA / "demo-table.flac"
#: the track's name in a game's folder (beside demo-table.mp4, found by
#: :func:`vision.demo.run.audio_beside`)
TRACK_NAME = TRACK.name

#: each player's espeak-ng voice, speed, pitch and language
VOICES = {"Aiko": ("ja+f2", 150, 60, "ja"), "Ben": ("en-us", 160, 40, "en"),
          "Chie": ("en+f3", 165, 55, "en")}
CALL = {"en": "Uno!", "ja": "ウノ!"}
COLOUR = {
    "en": {"red": "Red!", "blue": "Blue!", "green": "Green!", "yellow": "Yellow!"},
    "ja": {"red": "あか!", "blue": "あお!", "green": "みどり!", "yellow": "きいろ!"},
}


def voiced_rms(x: np.ndarray) -> float:
    voiced = x[np.abs(x) > 0.02 * np.max(np.abs(x))]
    return float(np.sqrt(np.mean(voiced**2)))


def room_noise(seconds: float, rng: np.random.Generator) -> np.ndarray:
    """A room bed: pink-ish and brown noise, unit RMS."""
    n = int(seconds * RATE)
    white = rng.standard_normal(n).astype(np.float32)
    spec = np.fft.rfft(white)
    f = np.maximum(np.fft.rfftfreq(n, 1 / RATE), 20.0)
    pink = np.fft.irfft(spec / np.sqrt(f), n)
    brown = np.fft.irfft(spec / f, n)
    mix = pink / np.std(pink) + 0.5 * brown / np.std(brown)
    return (mix / np.std(mix)).astype(np.float32)


def slap(rng: np.random.Generator) -> np.ndarray:
    """A card put down: 40 ms of decaying, band-limited noise."""
    n = int(0.04 * RATE)
    decay = np.exp(-np.arange(n) / (0.008 * RATE))
    x = rng.standard_normal(n).astype(np.float32) * decay
    return np.convolve(x, np.ones(4) / 4, mode="same").astype(np.float32)


def voices_for(players: list[str]) -> dict[str, tuple]:
    """Each player's voice: their own in :data:`VOICES`, else one of those in
    seat order (the first player without one gets the first voice, ...)."""
    spare = list(VOICES.values())
    out: dict[str, tuple] = {}
    for k, p in enumerate(players):
        out[p] = VOICES.get(p, spare[k % len(spare)])
    return out


def render(lines: list[dict], snr: float = 15.0,
           seed: int = 25) -> tuple[np.ndarray, list]:
    """The track for a scripted game, and what is said in it: ``(start, end,
    player, text)`` per utterance."""
    rng = np.random.default_rng(seed)
    events = [e for e in lines[1:] if "t" in e]
    seconds = max(float(e["t"]) for e in events) + 6.0
    speech = np.zeros(int(seconds * RATE), np.float32)
    said = []
    players = [str(p) for p in lines[0].get("players") or []]
    voices = voices_for(players + sorted(
        {str(e["player"]) for e in events if e.get("player")} - set(players)))
    for e in events:
        who = e.get("player")
        if who not in voices:
            continue
        voice, speed, pitch, lang = voices[who]
        if e["type"] == "uno":
            text, end = CALL[lang], float(e["t"])
            clip = say(text, voice, speed, pitch)
            start = end - len(clip) / RATE
        elif e["type"] == "play" and e.get("color") and str(
                (e.get("cards") or [""])[0]).startswith("wild"):
            text = COLOUR[lang][e["color"]]
            clip = say(text, voice, speed, pitch)
            start = float(e["t"]) + 0.3
        else:
            continue
        clip = clip / voiced_rms(clip) * 0.1
        i = int(start * RATE)
        speech[i:i + len(clip)] += clip[:len(speech) - i]
        said.append((round(start, 2), round(start + len(clip) / RATE, 2), who, text))
    noise = room_noise(seconds, rng) * 0.1 / 10 ** (snr / 20)
    for e in events:
        if e["type"] in ("play", "draw", "start", "reveal"):
            for k in range(int(e.get("count", 1) or 1)):
                s = slap(rng) * 0.1 * rng.uniform(0.5, 1.0)
                i = int((float(e["t"]) - 0.05 + 0.25 * k) * RATE)
                noise[i:i + len(s)] += s[:len(noise) - i]
    return np.clip(speech + noise, -1, 1), said


def write(path: Path, x: np.ndarray) -> None:
    """16 kHz mono 16-bit; FLAC/OGG through sox, WAV directly."""
    pcm = (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()
    if path.suffix == ".wav":
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(pcm)
        return
    subprocess.run(["sox", "-t", "raw", "-r", str(RATE), "-e", "signed-integer",
                    "-b", "16", "-c", "1", "-", str(path)], input=pcm, check=True)


def render_track(folder: Path, seed: int, snr: float = 15.0,
                 name: str = TRACK_NAME) -> tuple[Path, list]:
    """Write the sound track of the game rendered in ``folder`` (its script
    ``demo-table.jsonl``) as ``folder/name``, the noise seeded from ``seed`` (the
    game's); returns the path and what is said (:func:`render`). Written under
    a temporary name and moved in place, so a reader never finds half a
    track. Beside it, ``name + ".json"`` says how it was rendered (``snr``,
    ``seed``; :func:`track_made`)."""
    folder = Path(folder)
    with open(folder / SCRIPT.name, encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh if line.strip()]
    audio, said = render(lines, snr, seed)
    out = folder / name
    part = out.with_name(f".{out.stem}.{os.getpid()}.part{out.suffix}")
    write(part, audio)
    os.replace(part, out)
    made = out.with_name(out.name + ".json")
    made.write_text(json.dumps({"snr": snr, "seed": seed}) + "\n", encoding="utf-8")
    return out, said


def track_made(folder: Path, name: str = TRACK_NAME) -> dict | None:
    """How the track in ``folder`` was rendered (``{"snr", "seed"}``), or None
    when there is none (or it was not rendered by :func:`render_track`)."""
    track, made = Path(folder) / name, Path(folder) / (name + ".json")
    if not track.is_file() or not made.is_file():
        return None
    try:
        return json.loads(made.read_text(encoding="utf-8"))
    except ValueError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", default=str(SCRIPT),
                        help="the scripted game (jsonl)")
    parser.add_argument("--out", default=str(TRACK), help="the track (.flac/.ogg/.wav)")
    parser.add_argument("--snr", type=float, default=15.0, help="speech over noise, dB")
    parser.add_argument("--seed", type=int, default=25, help="the noise's seed")
    parser.add_argument("--game", metavar="DIR",
                        help="a rendered game's folder: its script in, "
                             f"{TRACK_NAME} out (--script and --out ignored)")
    args = parser.parse_args(argv)
    if args.game:
        out, said = render_track(Path(args.game), args.seed, args.snr)
        audio = np.frombuffer(read_wav(str(out)), "<i2")
    else:
        with open(args.script, encoding="utf-8") as fh:
            lines = [json.loads(line) for line in fh if line.strip()]
        audio, said = render(lines, args.snr, args.seed)
        out = Path(args.out)
        write(out, audio)
    for start, end, who, text in said:
        print(f"{start:6.2f}-{end:6.2f}  {who:5s} {text}")
    print(f"wrote {out} ({len(audio) / RATE:.1f} s, {out.stat().st_size / 1e6:.2f} MB, "
          f"{args.snr:g} dB SNR)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
