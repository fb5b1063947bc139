"""Synthetic photos of Aggression games with exact ground truth.

The reader is developed and measured on these photos (there is no collection
of real photos of Aggression games). One module per stage:

- :mod:`~aggression_vision.synth.params`: every factor of variation with its
  range (:class:`SynthParams`) and the presets ``easy``, ``default``, ``hard``,
  ``small``.
- :mod:`~aggression_vision.synth.maps`: the map geometry (a planar partition:
  wobbly or ruled borders, point contacts, enclaves, long thin countries, grid
  maps) and its adjacency.
- :mod:`~aggression_vision.synth.game`: a legal game on it, played through the
  rules engine.
- :mod:`~aggression_vision.synth.handwriting`: digits and letters in many hands
  (skeleton stroke font, Debian handwriting fonts, MNIST), underlines and
  cross-outs. Also used to train the reader (MNIST 0-7999, the ``train`` font
  split); the photos use MNIST 8000-9999 and the ``synth`` font split.
- :mod:`~aggression_vision.synth.paper`, :mod:`~aggression_vision.synth.render`:
  the sheet (plain, squared, Seyes, ruled) and the ink on it.
- :mod:`~aggression_vision.synth.camera`: perspective, lens distortion and a
  bent sheet, background, light, shadows, blur, noise, JPEG.
- :mod:`~aggression_vision.synth.generate`: one sample (``NAME.jpg`` and the
  ground-truth state document ``NAME.json``), data sets.

``aggression-vision synth --count N --seed S --out DIR [--preset NAME]``
writes samples ``synth-S`` ... ``synth-(S+N-1)``; each depends on its seed only.
Keep tuning seeds and held-out seeds apart (e.g. tune below 1,000,000, measure
from 1,000,000 up).

Importing this package is cheap; the modules import OpenCV and shapely.
"""
