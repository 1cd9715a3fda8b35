"""Training: how the shipped models in ``models/`` are made.

Nothing at run time imports this package; it imports the runtime packages
(``vision``, ``voice``, ``datasets``) to train what they load.

- :mod:`training.detector`: the card finder's recipe and Ultralytics runs;
- :mod:`training.export`: shipping a finder's weights to ``models/`` (OpenVINO);
- :mod:`training.classifier`: the crop classifier that names each card;
- :mod:`training.evaluate`: the detector measured on real and synthetic images;
- :mod:`training.commands`: ``tableref train`` and ``tableref evaluate``;
- :mod:`training.voice`: the UNO-call spotter (``python -m training.voice``).
"""
