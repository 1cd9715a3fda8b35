"""Second opinion on a keyword hit: is the whole stretch of speech the call word?

Keyword search fires on any part of speech that resembles the word. The verifier
decodes the loud stretch around a hit twice with the same bundled acoustic model:

* forced to be one call word (a JSGF grammar; silence and fillers made so unlikely
  that the word has to cover the whole stretch);
* as free phones (pocketsphinx's phone loop with its English phone bigram).

The difference of the two path scores per 10 ms frame is a log-likelihood ratio: near
zero or positive when the stretch really is the word ("UNO!" said on its own), very
negative when the stretch holds other words too ("your turn, Bob"), and minus
infinity when the forced decoding cannot fit the word at all. Both decodings
normalise the cepstra over the whole stretch (``full_utt``), so they see the same
features.
"""

from __future__ import annotations

import math
import os
import tempfile

from voice.words import CallWord

_LOGBASE = math.log(1.0001)  # pocketsphinx scores are powers of 1.0001


class Verifier:
    """Scores a short stretch of 16 kHz PCM against the call words.

    Args:
        words: the call words.
        silence: let the forced decoding put silence (or noise) before and after
            the word, as for short colour words whose stretch is more noise than
            word; the stretch is then known to be short (the island gate).
    """

    def __init__(self, words: list[CallWord], silence: bool = False):
        from pocketsphinx import Decoder, get_model_path

        model = get_model_path()
        hmm = os.path.join(model, "en-us", "en-us")
        self.names = [f"w{i}" for i in range(len(words))]
        lines = []
        for name, word in zip(self.names, words):
            for i, phones in enumerate(word.pronunciations):
                lines.append(f"{name}{f'({i + 1})' if i else ''} {phones}\n")
        grammar = ("#JSGF V1.0;\ngrammar call;\npublic <call> = "
                   + " | ".join(self.names) + ";\n")
        with tempfile.TemporaryDirectory(prefix="tableref-verify-") as tmp:
            dict_path = os.path.join(tmp, "words.dict")
            gram_path = os.path.join(tmp, "call.gram")
            with open(dict_path, "w", encoding="ascii") as fh:
                fh.writelines(lines)
            with open(gram_path, "w", encoding="ascii") as fh:
                fh.write(grammar)
            self._forced = Decoder(hmm=hmm, dict=dict_path, jsgf=gram_path,
                                   beam=1e-120, wbeam=1e-100, pbeam=1e-120,
                                   silprob=0.1 if silence else 1e-10,
                                   fillprob=0.02 if silence else 1e-10,
                                   bestpath=False, cmn="batch", loglevel="FATAL")
        self._phones = Decoder(hmm=hmm,
                               allphone=os.path.join(model, "en-us",
                                                     "en-us-phone.lm.bin"),
                               lw=2.0, pip=0.3, beam=1e-20, pbeam=1e-20, cmn="batch",
                               loglevel="FATAL")

    @staticmethod
    def _decode(decoder, pcm: bytes):  # noqa: ANN001, ANN205
        decoder.start_utt()
        decoder.process_raw(pcm, False, True)
        decoder.end_utt()
        return decoder.hyp()

    def score(self, pcm: bytes) -> tuple[int | None, float]:
        """The call word the stretch holds (index) and the log-likelihood ratio
        per frame; ``(None, -inf)`` when no call word fits."""
        frames = len(pcm) // 320
        if frames < 10:  # under 0.1 s: too short for any call word
            return None, -math.inf
        pcm = pcm[:frames * 320]
        forced = self._decode(self._forced, pcm)
        if forced is None or forced.score <= 0:
            return None, -math.inf
        said = [w for w in forced.hypstr.split() if w in self.names]
        if not said:  # nothing but silence and fillers
            return None, -math.inf
        word = said[0]
        free = self._decode(self._phones, pcm)
        if free is None or free.score <= 0:
            return self.names.index(word), 0.0
        ratio = (math.log(forced.score) - math.log(free.score)) / _LOGBASE / frames
        return self.names.index(word), ratio
