"""The noise bank and the one-second training examples mixed from both banks."""

from __future__ import annotations

import math

import numpy as np

from voice.audio import RATE
from voice.kws import HOP, WIN, WINDOW_FRAMES, normalise

SAMPLES = WIN + (WINDOW_FRAMES - 1) * HOP  # one window of audio

def _coloured(rng: np.random.Generator, n: int, exponent: float) -> np.ndarray:
    """Noise with power falling as f**-exponent (0 white, 1 pink, 2 brown)."""
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.maximum(np.fft.rfftfreq(n, 1 / RATE), 20.0)
    x = np.fft.irfft(spec / f ** (exponent / 2), n)
    return (x / x.std()).astype(np.float32)


def make_noise(rng: np.random.Generator, talk: list[np.ndarray],
               seconds: float = 40.0) -> dict[str, np.ndarray]:
    """Unit-RMS noise beds of every kind, ``seconds`` long each."""
    n = int(seconds * RATE)
    beds = {"white": _coloured(rng, n, 0.0), "pink": _coloured(rng, n, 1.0),
            "brown": _coloured(rng, n, 2.0),
            "blue": _coloured(rng, n, -0.7)}
    t = np.arange(n) / RATE
    mains = rng.choice([50.0, 60.0])
    hum = sum(np.sin(2 * np.pi * mains * k * t + rng.uniform(0, 6)) / k
              for k in range(1, 8))
    beds["hum"] = hum + 0.3 * beds["pink"]
    base = _coloured(rng, n, 0.6)
    for name, (gap_lo, gap_hi, len_lo, len_hi) in {
            "shuffle": (0.01, 0.15, 0.01, 0.08), "clatter": (0.1, 1.2, 0.002, 0.03)
    }.items():
        x = np.zeros(n, np.float32)
        pos = 0
        while True:
            pos += int(rng.uniform(gap_lo, gap_hi) * RATE)
            size = max(int(rng.uniform(len_lo, len_hi) * RATE), 16)
            if pos + size >= n:
                break
            start = int(rng.integers(0, n - size))
            env = np.hanning(size) if name == "shuffle" else \
                np.exp(-np.arange(size) / (size / 4))
            x[pos:pos + size] += base[start:start + size] * env * rng.uniform(0.2, 1.0)
            if rng.random() < 0.04:
                pos += int(rng.uniform(0.2, 2.0) * RATE)
        beds[name] = x + 0.03 * beds["brown"]
    for name, voices in (("babble", 3), ("crowd", 6)):
        beds[name] = _talk_bed(rng, talk, n, voices)
    return {k: (v / (np.sqrt(np.mean(v ** 2)) + 1e-9)).astype(np.float32)
            for k, v in beds.items()}


def _talk_bed(rng: np.random.Generator, talk: list[np.ndarray], n: int,
              voices: int) -> np.ndarray:
    """``n`` samples of ``voices`` people talking at once, each saying one
    sentence of ``talk`` after another with short pauses."""
    x = np.zeros(n, np.float32)
    for _ in range(voices):
        pos = int(rng.integers(0, RATE))
        while pos < n:
            clip = talk[int(rng.integers(len(talk)))]
            clip = clip / (clip.std() + 1e-6) * rng.uniform(0.4, 1.0)
            end = min(n, pos + len(clip))
            x[pos:end] += clip[:end - pos]
            pos = end + int(rng.uniform(0.05, 1.0) * RATE)
    return x


def long_talk_beds(rng: np.random.Generator, talk: list[np.ndarray],
                   seconds: float) -> dict[str, np.ndarray]:
    """Babble (3 voices) and crowd (6) beds ``seconds`` long, unit RMS: with the
    40 s beds of :func:`make_noise` a network hears the same stretch of babble
    thousands of times and learns that stretch, not babble."""
    n = int(seconds * RATE)
    beds = {name: _talk_bed(rng, talk, n, voices)
            for name, voices in (("babble", 3), ("crowd", 6))}
    return {k: (v / (np.sqrt(np.mean(v ** 2)) + 1e-9)).astype(np.float32)
            for k, v in beds.items()}


def rms(x: np.ndarray) -> float:
    voiced = x[np.abs(x) > 0.02 * (np.max(np.abs(x)) + 1e-9)]
    return float(np.sqrt(np.mean(voiced ** 2))) if len(voiced) else 1e-6


def place(out: np.ndarray, clip: np.ndarray, at: int) -> None:
    """Add ``clip`` into ``out`` starting at sample ``at`` (may stick out)."""
    lo, hi = max(at, 0), min(at + len(clip), len(out))
    if hi > lo:
        out[lo:hi] += clip[lo - at:hi - at]


def resample(clip: np.ndarray, factor: float) -> np.ndarray:
    """``clip`` played ``factor`` times as fast (linear interpolation): shorter
    and higher above 1, longer and lower below."""
    n = max(int(len(clip) / factor), 2)
    return np.interp(np.arange(n) * factor, np.arange(len(clip)),
                     clip).astype(np.float32)


def fast_log_mel(x: np.ndarray) -> np.ndarray:
    """:func:`voice.kws.log_mel` of a ``(batch, samples)`` array, computed with
    torch's float32 FFT (several times faster; the same features to float
    precision)."""
    import torch

    from voice.kws import _FB, _HANN, NFFT

    frames = torch.from_numpy(np.ascontiguousarray(x, np.float32)).unfold(-1, WIN, HOP)
    spec = torch.fft.rfft(frames * torch.from_numpy(_HANN), NFFT)
    power = spec.real ** 2 + spec.imag ** 2
    return torch.log(power @ torch.from_numpy(_FB) + 1e-6).numpy()


class Mixer:
    """Makes labelled one-second examples from the banks (seeded)."""

    def __init__(self, bank: dict[str, list[np.ndarray]], noise: dict[str, np.ndarray],
                 split: str, seed: int, after_talk: float = 0.0,
                 chatter: float = 0.0, babble_negatives: float = 0.0,
                 keywords: tuple[str, ...] = ("calls",), low_snr: float = 0.0,
                 stretch: float = 0.0, overlap: float = 0.0,
                 low_band: tuple[float, float] = (0.0, 12.0),
                 overlap_after: float = 0.0):
        # one list of clips per keyword class (the UNO call: ``calls``; the
        # colour spotter: ``red``, ``blue``, ``green``, ``yellow``); the classes
        # are the keywords in this order, then speech, then noise
        self.keyword_sets = [bank[f"{split}_{k}"] for k in keywords]
        self.calls = [c for clips in self.keyword_sets for c in clips]
        self.colours = len(keywords) > 1
        self.after_talk = after_talk
        self.chatter = chatter
        self.babble_negatives = babble_negatives
        # share of the speech examples mixed at low SNR (``low_band``, dB; the
        # rest -5..30 dB)
        self.low_snr = low_snr
        self.low_band = (float(low_band[0]), float(low_band[1]))
        # half of the clips picked are resampled by a factor within 1 +- stretch:
        # faster and higher, or slower and lower (another vocal tract and pace)
        self.stretch = stretch
        # share of the colours named on their own that start while another
        # player's short word (a call, a game word, another colour) is still
        # ending: the two overlap by 0.05-0.25 s and the colour still counts
        self.overlap = overlap
        # share of the colours named on their own whose end another player's
        # short word already runs over (it starts 0.08-0.25 s before the colour
        # ends, about as loud): the colour still counts. Talk right after the
        # colour (a gap of 0-0.1 s, "red seven") stays speech
        self.overlap_after = overlap_after
        self.leads = bank[f"{split}_leads"]
        self.talk = bank[f"{split}_talk"]
        self.confusables = bank[f"{split}_confusables"]
        self.noise = noise
        self.rng = np.random.default_rng(seed)

    def _pick(self, clips: list[np.ndarray]) -> np.ndarray:
        clip = clips[int(self.rng.integers(len(clips)))]
        if self.stretch and self.rng.random() < 0.5:
            clip = resample(clip, self.rng.uniform(1 - self.stretch, 1 + self.stretch))
        return clip

    def example(self) -> tuple[np.ndarray, int]:
        """One window of audio and its class index."""
        rng = self.rng
        # other people talking and nobody calling: a noise example on the babble
        # or crowd beds (drawn only when the option is on, so that the shipped
        # recipe's examples stay as they were)
        babble = bool(self.babble_negatives) and rng.random() < self.babble_negatives
        kinds = len(self.keyword_sets)
        label = 2 if babble else int(rng.choice(3, p=[0.4, 0.42, 0.18]))
        keyword = int(rng.integers(kinds)) if self.colours and label == 0 else 0
        fg = np.zeros(SAMPLES, np.float32)
        level = 1.0
        if label == 0 and self.colours:
            # a colour named on its own: quiet for at least 0.12 s after it, so
            # that "red seven" (the word with more speech right after) is not one
            word = self._pick(self.keyword_sets[keyword])[:SAMPLES - 2400]
            level = rms(word)
            if rng.random() < 0.5:
                end = SAMPLES - int(rng.uniform(0.12, 0.45) * RATE)
            else:
                end = int(rng.integers(len(word), SAMPLES - int(0.12 * RATE) + 1))
            start = max(end - len(word), 0)
            place(fg, word, start)
            if self.overlap and rng.random() < self.overlap:
                other = self._pick(self.confusables if rng.random() < 0.6 else
                                   self.keyword_sets[int(rng.integers(kinds))])
                other = other / rms(other) * level * rng.uniform(0.5, 1.5)
                place(fg, other, start + int(rng.uniform(0.05, 0.25) * RATE)
                      - len(other))
            elif rng.random() < 0.4:
                lead = self._pick(self.leads)
                lead = lead / rms(lead) * level * rng.uniform(0.5, 1.5)
                place(fg, lead, start - int(rng.uniform(0.05, 0.6) * RATE) - len(lead))
            if self.overlap_after and rng.random() < self.overlap_after:
                other = self._pick(self.confusables if rng.random() < 0.6 else
                                   self.keyword_sets[int(rng.integers(kinds))])
                other = other / rms(other) * level * rng.uniform(0.5, 1.3)
                place(fg, other, end - int(rng.uniform(0.08, 0.25) * RATE))
            elif rng.random() < 0.15 and end < SAMPLES - 0.4 * RATE:
                after = self._pick(self.talk)
                after = after / rms(after) * level * rng.uniform(0.5, 1.5)
                place(fg, after, end + int(rng.uniform(0.35, 0.6) * RATE))
        elif label == 1 and self.colours and rng.random() < 0.3:
            # a colour word inside speech: more talk follows it at once
            word = self._pick(self.keyword_sets[int(rng.integers(kinds))])
            level = rms(word)
            after = self._pick(self.talk if rng.random() < 0.7 else self.confusables)
            after = after / rms(after) * level * rng.uniform(0.6, 1.4)
            at = int(rng.integers(-len(word) // 2, SAMPLES - len(word) // 2))
            place(fg, word, at)
            place(fg, after, at + len(word) + int(rng.uniform(0.0, 0.1) * RATE))
            if rng.random() < 0.4:
                lead = self._pick(self.talk)
                lead = lead / rms(lead) * level * rng.uniform(0.6, 1.4)
                place(fg, lead, at - int(rng.uniform(0.0, 0.15) * RATE) - len(lead))
        elif label == 0:
            word = self._pick(self.calls)[:SAMPLES - 200]
            level = rms(word)
            if rng.random() < 0.5:
                end = SAMPLES - int(rng.uniform(0, 0.3) * RATE)
            else:
                end = int(rng.integers(len(word), SAMPLES + 1))
            start = max(end - len(word), 0)
            place(fg, word, start)
            if rng.random() < 0.35:
                lead = self._pick(self.leads)
                lead = lead / rms(lead) * level * rng.uniform(0.5, 1.5)
                place(fg, lead, start - int(rng.uniform(0.05, 0.5) * RATE) - len(lead))
            elif self.after_talk and rng.random() < self.after_talk:
                # a whole sentence said first, its end still in the window
                talk = self._pick(self.talk)
                talk = talk / rms(talk) * level * rng.uniform(0.5, 1.5)
                place(fg, talk, start - int(rng.uniform(0.2, 0.9) * RATE) - len(talk))
            if rng.random() < 0.15 and end < SAMPLES - 0.2 * RATE:
                after = self._pick(self.talk)
                after = after / rms(after) * level * rng.uniform(0.5, 1.5)
                place(fg, after, end + int(rng.uniform(0.15, 0.5) * RATE))
        elif label == 1:
            kind = rng.random()
            if kind < 0.45:
                clip = self._pick(self.talk)
            elif kind < 0.8:
                clip = self._pick(self.confusables)
            else:  # a call cut short: "u-n" or "-no"
                word = self._pick(self.calls)
                cut = int(len(word) * rng.uniform(0.3, 0.6))
                clip = word[:cut] if rng.random() < 0.6 else word[-cut:]
            level = rms(clip)
            at = int(rng.integers(-len(clip) + int(0.2 * RATE),
                                  SAMPLES - int(0.1 * RATE)))
            place(fg, clip, at)
            if rng.random() < 0.2:  # a call word cut by the window's end
                word = self._pick(self.calls)
                place(fg, word / rms(word) * level,
                       SAMPLES - int(len(word) * rng.uniform(0.35, 0.7)))
        if label != 2 or rng.random() < 0.3:
            fg = self._room(fg)
        if label == 2 and rng.random() < 0.3:  # distant talk under the noise
            clip = self._pick(self.talk)
            place(fg, clip / rms(clip) * 0.1,
                   int(rng.integers(-len(clip), SAMPLES)))
        if babble or (self.chatter and rng.random() < self.chatter):
            # other people talking: the noise the spotter confuses most
            kind = ("babble", "crowd")[int(rng.integers(2))]
        else:
            kind = list(self.noise)[int(rng.integers(len(self.noise)))]
        bed = self.noise[kind]
        at = int(rng.integers(0, len(bed) - SAMPLES))
        noise = bed[at:at + SAMPLES]
        if label == 2:
            mix = noise * rng.uniform(0.2, 1.0) + fg
        elif rng.random() < 0.08:
            mix = fg + noise * level * 10 ** (-rng.uniform(40, 60) / 20)
        else:
            snr = self._snr()
            mix = fg + noise * level / 10 ** (snr / 20)
        if rng.random() < 0.3:  # a second kind of noise, quieter
            other = self.noise[list(self.noise)[int(rng.integers(len(self.noise)))]]
            at = int(rng.integers(0, len(other) - SAMPLES))
            quieter = 10 ** (-rng.uniform(10, 35) / 20)
            mix = mix + other[at:at + SAMPLES] * level * quieter
        peak = np.max(np.abs(mix)) + 1e-9
        gain = 10 ** (rng.uniform(-40, -1) / 20) / peak
        mix = mix * gain + rng.standard_normal(SAMPLES).astype(np.float32) * 1e-5
        if self.colours:  # the keyword classes first, then speech, then noise
            label = keyword if label == 0 else kinds + label - 1
        return mix.astype(np.float32), label

    def _snr(self) -> float:
        """The SNR (dB) of a speech example: -5..30, or within ``low_band``
        (default 0..12: the range where colours are missed) for the share
        ``low_snr``."""
        rng = self.rng
        if self.low_snr and rng.random() < self.low_snr:
            return float(rng.uniform(*self.low_band))
        return float(rng.uniform(-5, 30))

    def _room(self, x: np.ndarray) -> np.ndarray:
        """Random reverb and filtering (one FFT pass)."""
        rng = self.rng
        reverb, eq = rng.random() < 0.35, rng.random() < 0.4
        if not (reverb or eq):
            return x
        n = 2 ** int(math.ceil(math.log2(SAMPLES + 0.5 * RATE)))
        spec = np.fft.rfft(x, n)
        if reverb:
            t60 = rng.uniform(0.1, 0.6)
            length = int(min(t60, 0.5) * RATE)
            ir = rng.standard_normal(length) * np.exp(-6.9 * np.arange(length)
                                                     / (t60 * RATE))
            ir[0] = 1.0 / rng.uniform(0.3, 1.0)
            spec = spec * np.fft.rfft(ir / np.sqrt(np.sum(ir ** 2)), n)
        if eq:
            f = np.fft.rfftfreq(n, 1 / RATE)
            lo, hi = rng.uniform(50, 400), rng.uniform(3000, 8000)
            gain = 1 / np.sqrt(1 + (lo / np.maximum(f, 1)) ** 4) / \
                np.sqrt(1 + (f / hi) ** 4)
            gain *= (np.maximum(f, 100) / 1000) ** rng.uniform(-0.5, 0.5)
            spec = spec * gain
        return np.fft.irfft(spec, n)[:SAMPLES].astype(np.float32)

    def batch(self, size: int, augment: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Normalised features ``(size, WINDOW_FRAMES, N_MELS)`` and labels."""
        audio, labels = zip(*(self.example() for _ in range(size)))
        feats = fast_log_mel(np.stack(audio))
        if augment:
            feats = np.stack([self._spec_augment(f) for f in feats])
        return normalise(feats), np.array(labels)

    def _spec_augment(self, f: np.ndarray) -> np.ndarray:
        rng = self.rng
        f = f.copy()
        if rng.random() < 0.5:
            w = int(rng.integers(1, 6))
            b = int(rng.integers(0, f.shape[1] - w))
            f[:, b:b + w] = f.mean()
        if rng.random() < 0.3:
            w = int(rng.integers(1, 6))
            b = int(rng.integers(0, f.shape[0] - w))
            f[b:b + w] = f.mean(axis=0)
        return f
