"""aggression-vision: read photos of hand-drawn *Aggression* maps and referee the game.

Importing the package is cheap: the image stack is only imported by
:mod:`aggression_vision.vision` and friends.
"""

__version__ = "0.1.0"
