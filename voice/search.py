"""Keyword search for call words: pocketsphinx with a loudness gate and a verifier.

The acoustic part of :class:`PhoneticSpotter` is pocketsphinx's keyword search
(``kws``) with the US English model bundled in the ``pocketsphinx`` wheel: each
call word competes against a free phone loop and fires when it wins by more than
a threshold. Keyword search alone
fires often on noise and on words that contain the sound (English "you know",
Japanese "きょうの"), so a hit is kept only when

* it passes the threshold ``1e-<level>`` with ``level <= max_level`` (each word is
  entered once per level of :attr:`SpotterConfig.levels`, so one pass tells how
  strict a threshold it beat);
* the word stands ``min_rise_db`` above the background (the 20th percentile of the
  last three seconds, measured in the 300-3000 Hz band), which steady noise never
  does;
* the call is said on its own: the loud stretch around it, with dips shorter than
  ``max_dip`` bridged, lasts at most ``max_length``. People shout "UNO!"; the same
  sounds inside a sentence make a longer stretch;
* the stretch as a whole sounds like the word: :class:`voice.verify.Verifier`'s
  log-likelihood ratio (word against free phones) is at least ``min_ratio``.

A hit is decided once its stretch has ended (at least ``hold`` seconds after the
keyword); that wait is the latency.
"""

from __future__ import annotations

import dataclasses
import math
import os
import tempfile
from dataclasses import dataclass

import numpy as np

from voice.audio import RATE
from voice.detection import Detection, SpotterConfig
from voice.verify import Verifier
from voice.words import CallWord, parse_words

FRAME = 160  # samples per 10 ms frame, the decoder's frame rate
_WINDOW = np.hanning(FRAME).astype(np.float32)


@dataclass
class _Cluster:
    word: int
    start: float
    end: float
    level: int


class PhoneticSpotter:
    """Keyword search (pocketsphinx) with the gates above. Feed 16 kHz mono 16-bit
    PCM with :meth:`feed`; get :class:`Detection` s back.

    Args:
        words: the call words (default "uno" and "ウノ").
        config: decision thresholds.

    Raises:
        ImportError: pocketsphinx is not installed.
    """

    def __init__(self, words: list[CallWord] | None = None,
                 config: SpotterConfig | None = None):
        from pocketsphinx import Decoder, get_model_path

        self.words = words or parse_words(None)
        self.config = config or SpotterConfig()
        self._keys: dict[str, tuple[int, int]] = {}
        dict_lines, kws_lines = [], []
        for wi, word in enumerate(self.words):
            for pi, phones in enumerate(word.pronunciations):
                for level in self.config.levels:
                    key = f"w{wi}p{pi}l{level}"
                    self._keys[key] = (wi, level)
                    dict_lines.append(f"{key} {phones}\n")
                    kws_lines.append(f"{key} /1e-{level}/\n")
        with tempfile.TemporaryDirectory(prefix="tableref-voice-") as tmp:
            dict_path = os.path.join(tmp, "words.dict")
            kws_path = os.path.join(tmp, "words.kws")
            with open(dict_path, "w", encoding="ascii") as fh:
                fh.writelines(dict_lines)
            with open(kws_path, "w", encoding="ascii") as fh:
                fh.writelines(kws_lines)
            hmm = os.path.join(get_model_path(), "en-us", "en-us")
            self._decoder = Decoder(hmm=hmm, dict=dict_path, kws=kws_path,
                                    loglevel="FATAL")
        self._verifier = Verifier(self.words, silence=self.config.verify_silence)
        self._pcm = bytearray()  # the same frames as _db, as PCM
        self._last_end = -1.0  # end of the last island decided
        self._db: list[float] = []  # frame loudness (dB) since _db_offset
        self._db_offset = 0  # frame index of _db[0]
        self._tail = b""  # samples not yet making a whole frame
        self._utt_start = 0  # frame index where the decoder's utterance began
        self._seen = 0  # decoder segments already read in this utterance
        self._open: list[_Cluster] = []
        self._decoder.start_utt()

    @property
    def seconds(self) -> float:
        """Seconds of audio fed so far."""
        return (self._db_offset + len(self._db)) * FRAME / RATE

    def feed(self, pcm: bytes) -> list[Detection]:
        """Process a chunk of audio; returns the calls decided by the end of it."""
        self._decoder.process_raw(pcm, False, False)
        data = self._tail + pcm
        usable = len(data) // (2 * FRAME) * 2 * FRAME
        self._tail = data[usable:]
        if usable:
            x = np.frombuffer(data[:usable], dtype="<i2").astype(np.float32) / 32768.0
            # loudness in the speech band (300-3000 Hz), not of rumble or hiss
            spectra = np.abs(np.fft.rfft(x.reshape(-1, FRAME) * _WINDOW, axis=1)) ** 2
            band = spectra[:, 3:31].sum(axis=1) / FRAME
            self._db.extend((10 * np.log10(band + 1e-10)).tolist())
            self._pcm += data[:usable]
        self._collect()
        found = self._decide(final=False)
        self._maybe_restart()
        return found

    def flush(self) -> list[Detection]:
        """Decide the calls still open at the end of the audio."""
        self._collect()
        found = self._decide(final=True)
        return found

    def _collect(self) -> None:
        segs = list(self._decoder.seg() or ())
        for seg in segs[self._seen:]:
            key = seg.word.strip()
            if key not in self._keys:
                continue
            wi, level = self._keys[key]
            start = (self._utt_start + seg.start_frame) * FRAME / RATE
            end = (self._utt_start + seg.end_frame) * FRAME / RATE
            self._add(wi, level, start, end)
        self._seen = len(segs)

    def _add(self, wi: int, level: int, start: float, end: float) -> None:
        for c in self._open:
            if c.word == wi and start < c.end + self.config.merge and end > c.start - \
                    self.config.merge and max(c.end, end) - min(c.start, start) <= 0.8:
                c.start, c.end = min(c.start, start), max(c.end, end)
                c.level = min(c.level, level)
                return
        self._open.append(_Cluster(wi, start, end, level))

    def _decide(self, final: bool) -> list[Detection]:
        now = self.seconds
        found: list[Detection] = []
        keep: list[_Cluster] = []
        for c in sorted(self._open, key=lambda c: c.end):
            if c.end <= self._last_end:
                continue  # part of a stretch already decided
            if not final and now < c.end + self.config.hold:
                keep.append(c)
                continue
            det = self._judge(c, final)
            if det is False:
                keep.append(c)
            elif det is not None:
                found.append(det)
        self._open = keep
        return found

    def _frames(self, t0: float, t1: float) -> np.ndarray:
        i0 = max(int(t0 * RATE / FRAME) - self._db_offset, 0)
        i1 = max(int(t1 * RATE / FRAME) - self._db_offset, 0)
        return np.asarray(self._db[i0:i1], dtype=np.float32)

    def _island(self, c: _Cluster, floor: float,
                thr: float) -> tuple[float, float, bool]:
        """Start and end (s) of the loud stretch around the keyword, short dips
        bridged, and whether it has ended (False: still loud at the newest audio)."""
        base = max(int((c.start - 3.0) * RATE / FRAME), self._db_offset)
        db = self._frames(base * FRAME / RATE, self.seconds)
        lo = int(c.start * RATE / FRAME) - base
        hi = int(c.end * RATE / FRAME) - base
        if hi <= lo or lo >= len(db):
            return c.start, c.end, True
        peak = lo + int(np.argmax(db[lo:min(hi + 1, len(db))]))
        dip = int(self.config.max_dip * RATE / FRAME)
        edges, closed = [], True
        for step in (-1, 1):
            i, last_loud, quiet = peak, peak, 0
            while 0 <= i + step < len(db) and quiet <= dip:
                i += step
                if db[i] > thr:
                    last_loud, quiet = i, 0
                else:
                    quiet += 1
            edges.append(last_loud)
            closed = quiet > dip if step > 0 else closed
        start, end = min(edges), max(edges) + 1
        return (base + start) * FRAME / RATE, (base + end) * FRAME / RATE, closed

    def _judge(self, c: _Cluster, final: bool = True) -> Detection | None | bool:
        """The detection, None when rejected, False to wait for more audio."""
        cfg = self.config
        word = self._frames(c.start - 0.05, c.end + 0.05)
        if len(word) == 0:
            return None
        history = self._frames(c.start - 3.0, c.start)
        if len(history) < 30:  # little history: use everything around the word
            history = self._frames(c.start - 3.0, c.end + 1.0)
        floor = float(np.percentile(history, 20))
        rise = float(np.percentile(word, 98)) - floor
        start, end, closed = self._island(c, floor,
                                          floor + max(rise * cfg.island_ratio, 3.0))
        if not closed and not final and self.seconds - start <= cfg.max_length + 0.2:
            return False
        self._last_end = max(self._last_end, end)
        level = min([c.level] + [o.level for o in self._open if o.word == c.word
                                 and o.start < end and o.end > start])
        det = Detection(self.words[c.word].name, round(start, 2), round(end, 2),
                        level, round(rise, 1), round(end - start, 2), -math.inf, 0.0)
        if cfg.gates and not cfg.accepts(dataclasses.replace(det, ratio=math.inf)):
            return None
        if det.length > 2.5 or det.rise_db < 3.0:
            return det  # hopeless: not worth a verification (only seen untuned)
        i0 = max(int((start - cfg.pad) * RATE / FRAME) - self._db_offset, 0)
        i1 = max(int((end + cfg.pad) * RATE / FRAME) - self._db_offset, 0)
        index, ratio = self._verifier.score(bytes(self._pcm[i0 * FRAME * 2:
                                                            i1 * FRAME * 2]))
        if index is None:
            return None if cfg.gates else det
        score = 1 / (1 + math.exp(-(ratio - cfg.min_ratio) / 3))
        det = dataclasses.replace(det, word=self.words[index].name,
                                  ratio=round(ratio, 1), score=round(score, 2))
        return det if not cfg.gates or cfg.accepts(det) else None

    def _maybe_restart(self) -> None:
        """Bound memory: restart the decoder's utterance and trim old loudness."""
        total = self._db_offset + len(self._db)
        if total - self._utt_start > 30 * RATE // FRAME and not self._open:
            self._decoder.end_utt()
            self._decoder.start_utt()
            self._utt_start = total
            self._seen = 0
        excess = len(self._db) - 10 * RATE // FRAME
        if excess > 0:
            del self._db[:excess]
            del self._pcm[:excess * FRAME * 2]
            self._db_offset += excess
