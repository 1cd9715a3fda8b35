"""Train the neural UNO-call spotter (``models/uno-kws.pt``) from synthesised speech.

Reproduce the shipped model (needs the Debian package espeak-ng; about half an hour
on one CPU core: speech, then training, then threshold tuning)::

    .venv/bin/python -m training.voice                  # data in /tmp/kws-data
    .venv/bin/python -m training.voice --data DIR --out models/uno-kws.pt --steps 6000

Stages, all seeded (``--seed``, default 7), one module each:

1. **Speech bank** (:mod:`training.voice.speech`; espeak-ng, one process at a
   time, cached in ``DIR/`` :data:`~training.voice.speech.BANK_FILE`): the call
   word in the training voices (``EN_VOICES``, ``JA_VOICES``, ``OTHER_VOICES``)
   with random variants, speeds and pitches; lead phrases; table talk in English
   and Japanese that does not contain the word (``TALK_EN``, ``TALK_JA``);
   confusables. Then, with its own generator, the British "oh" (əʊ) that no
   English training voice says: the call given as espeak phonemes to voices that
   realise them so (``OU_VOICES``, ``CALL_OU``), talk and sound-alikes with the
   same vowel (``TALK_OU``, ``CONFUSABLE_OU``), and "uno!" read by other
   languages' voices (``UNO_VOICES``).
2. **Noise bank** (:mod:`training.voice.mixing`, numpy): white, pink, brown,
   mains hum, card-shuffling riffles, clatter (clicks), and babble made of the
   talk.
3. **Training** (:mod:`training.voice.fit`; examples from
   :class:`training.voice.mixing.Mixer`): every example is one second mixed on
   the fly: a call (whole word in the window, sometimes after a lead phrase or
   before more talk), other speech (talk, confusables, a call cut short), or
   noise alone; noise at -5..30 dB SNR; random gain, reverb and filtering; the
   time and frequency masking of SpecAugment. Classes: ``uno``, ``speech``,
   ``noise``.
4. **Threshold** (:mod:`training.voice.tuning`) on validation streams made from
   held-out talk sentences, calls and sound-alikes (never from
   ``benchmarks/eval_voice.py``): the setting that hears most calls at 10 dB
   while giving no false alarm in 45 min of held-out talk and 45 min of noise
   (sound-alikes are reported, not used to choose). ``--tune-only`` repeats this
   stage for the model in ``--out``.

Held out for ``benchmarks/eval_voice.py``, which is the honest test: its voices
(en, en-us, en-gb-x-rp and the variants f2, f3, f4, m3; ja and ja+f2/m3/f4), its
speed grid (120/150/175/200) and pitch grid (30/50/70/90), its call, lead and talk
sentences and confusables. None of them appears here. The Japanese base voice is
the only one espeak-ng has, so the Japanese calls share it (with other variants).

The command line is :mod:`training.voice.cli`. The measurements of the shipped
model are in ``models/VOICE_MODEL_CARD.md``.

``--words colours`` trains the wild-colour spotter (``models/colour-kws.pt``)
with the same stages: its speech bank (:mod:`training.voice.colours`, cached as
``colour-bank-v1.npz``) holds the four colours said on their own in English and
Japanese, lead phrases, talk with and without colour words inside, and
sound-alikes; the classes are ``red``, ``blue``, ``green``, ``yellow``,
``speech``, ``noise``; a colour example has quiet after the word, and a colour
word with talk right after it is speech; the threshold is tuned counting only
the right colour as heard (:func:`training.voice.tuning.tune_colours`). Its
recipe and figures: ``models/COLOUR_MODEL_CARD.md``.
"""
